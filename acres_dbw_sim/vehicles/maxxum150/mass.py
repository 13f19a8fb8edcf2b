"""Chassis and Mass Properties of the Maxxum 150 (maxxum-150-dynamics.md, "Chassis and Mass Properties").

Body frame: x forward, y left, z up, origin (the *body origin*) 0.4 L ahead
of the rear axle at the height h_cg above firm ground; the centre of mass is
at the body origin plus x_cg forward. Wheel j's mount (WheelMountCm):

    x_j = 0.6 L (front), -0.4 L (rear);   y_j = +T/2 (left), -T/2 (right);   z_j = r_j + 0.35 - h_cg

Static wheel loads (ResetVehicle):

    s_f = clamp((0.4 L + x_cg) / L, 0.05, 0.95),   N_0,front = m g s_f / 2,   N_0,rear = m g (1 - s_f) / 2

Carried implement (ApplyImplementMass), principal inertias as vectors:

    m' = m + m_i,   r' = (m r + m_i r_i) / m'
    I' = I + m D(r - r') + m_i D(r_i - r') + I_i,   D(a) = (a_y^2 + a_z^2, a_x^2 + a_z^2, a_x^2 + a_y^2)

The game writes the mass properties again when the mass changes by 0.5 kg or
the centre of mass moves by 5 mm (:func:`mass_update_needed`). Wheels: 0 FL,
1 FR, 2 RL, 3 RR.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...model._jit import njit
from ...model.chassis import G_MPS2

__all__ = ["BODY_ORIGIN_SHARE", "wheel_mount_m", "front_load_share", "static_wheel_loads_n",
           "apply_implement_mass", "box_inertia_kg_m2", "mass_update_needed", "TractorMass",
           "tractor_mass", "mounted_implement_part", "legacy_inertia_kg_m2"]

BODY_ORIGIN_SHARE = 0.4
"""The body origin lies 0.4 L ahead of the rear axle (page "Chassis and Mass Properties")."""


@njit
def wheel_mount_m(front: bool, left: bool, wheelbase_m: float, track_m: float, radius_m: float,
                  rest_extension_m: float, cg_height_m: float) -> tuple:
    """Mount (x, y, z) [m] of a wheel in the body frame (WheelMountCm).

    Parameters
    ----------
    front, left : bool
        Axle and side of the wheel.
    wheelbase_m, track_m : float
        L, T [m].
    radius_m : float
        Unloaded tyre radius r_j [m].
    rest_extension_m : float
        Rest extension of the suspension, 0.35 m.
    cg_height_m : float
        h_cg [m]: the body origin's height above firm ground.

    Returns
    -------
    tuple of 3 float
        (x forward, y left, z up) [m] from the body origin.
    """
    x = (1.0 - BODY_ORIGIN_SHARE) * wheelbase_m if front else -BODY_ORIGIN_SHARE * wheelbase_m
    y = 0.5 * track_m if left else -0.5 * track_m
    return x, y, radius_m + rest_extension_m - cg_height_m


@njit
def front_load_share(wheelbase_m: float, cg_forward_m: float) -> float:
    """s_f = clamp((0.4 L + x_cg) / L, 0.05, 0.95) [-] (ResetVehicle)."""
    s = (BODY_ORIGIN_SHARE * wheelbase_m + cg_forward_m) / wheelbase_m
    return 0.05 if s < 0.05 else 0.95 if s > 0.95 else s


@njit
def static_wheel_loads_n(mass_kg: float, wheelbase_m: float, cg_forward_m: float, g_mps2: float) -> tuple:
    """Static load (N_0,front, N_0,rear) [N] of one wheel of each axle (ResetVehicle).

    Parameters
    ----------
    mass_kg : float
        m [kg] (with a carried implement: m').
    wheelbase_m : float
        L [m].
    cg_forward_m : float
        x_cg [m] from the body origin.
    g_mps2 : float
        Gravity [m/s^2].
    """
    s = front_load_share(wheelbase_m, cg_forward_m)
    w = mass_kg * g_mps2
    return 0.5 * w * s, 0.5 * w * (1.0 - s)


@njit
def box_inertia_kg_m2(mass_kg: float, length_m: float, width_m: float, height_m: float) -> tuple:
    """Principal inertia (roll, pitch, yaw) [kg m^2] of a solid box (length along x, width along y).

    I_xx = m (w^2 + h^2) / 12, I_yy = m (l^2 + h^2) / 12, I_zz = m (l^2 + w^2) / 12 (page "Legacy
    Tractor": the mounted implement's 2 x 2.4 x 0.7 m box and the legacy chassis box).
    """
    k = mass_kg / 12.0
    return (k * (width_m * width_m + height_m * height_m), k * (length_m * length_m + height_m * height_m),
            k * (length_m * length_m + width_m * width_m))


@njit
def apply_implement_mass(m: float, rx: float, ry: float, rz: float, ixx: float, iyy: float, izz: float,
                         mi: float, rix: float, riy: float, riz: float, iixx: float, iiyy: float,
                         iizz: float) -> tuple:
    """Mass, centre of mass and principal inertia of the tractor with a carried implement (ApplyImplementMass).

    Parameters
    ----------
    m, mi : float
        Tractor mass m and implement mass m_i [kg].
    rx, ry, rz, rix, riy, riz : float
        Their centres of mass r, r_i in the body frame [m].
    ixx, iyy, izz, iixx, iiyy, iizz : float
        Their principal inertias I, I_i about their own centres of mass [kg m^2].

    Returns
    -------
    tuple of 7 float
        (m' [kg], r'_x, r'_y, r'_z [m], I'_xx, I'_yy, I'_zz [kg m^2]); the products
        of inertia are ignored, as on the page.
    """
    mt = m + mi
    if mt <= 0.0:
        return 0.0, rx, ry, rz, 0.0, 0.0, 0.0
    cx = (m * rx + mi * rix) / mt
    cy = (m * ry + mi * riy) / mt
    cz = (m * rz + mi * riz) / mt
    ax, ay, az = rx - cx, ry - cy, rz - cz
    bx, by, bz = rix - cx, riy - cy, riz - cz
    jxx = ixx + m * (ay * ay + az * az) + mi * (by * by + bz * bz) + iixx
    jyy = iyy + m * (ax * ax + az * az) + mi * (bx * bx + bz * bz) + iiyy
    jzz = izz + m * (ax * ax + ay * ay) + mi * (bx * bx + by * by) + iizz
    return mt, cx, cy, cz, jxx, jyy, jzz


@njit
def mass_update_needed(mass_change_kg: float, cg_shift_m: float) -> bool:
    """True when the body's mass properties must be written again: |dm| >= 0.5 kg or |dr| >= 5 mm."""
    return abs(mass_change_kg) >= 0.5 or abs(cg_shift_m) >= 0.005


@dataclass(frozen=True)
class TractorMass:
    """Mass properties of the tractor, possibly with a carried implement.

    Attributes
    ----------
    mass_kg : float
        m' [kg].
    cg_m : tuple of 3 float
        Centre of mass from the body origin (x forward, y left, z up) [m].
    cg_ahead_of_rear_axle_m : float
        0.4 L + x_cg [m].
    cg_height_m : float
        Height of the centre of mass above firm ground at rest [m].
    inertia_kg_m2 : tuple of 3 float
        Principal inertia (roll, pitch, yaw) about the centre of mass [kg m^2].
    front_share : float
        s_f [-].
    static_loads_n : tuple of 4 float
        N_0 of FL, FR, RL, RR [N].
    mounts_m : tuple of 4 tuples
        Wheel mounts from the body origin [m].
    """

    mass_kg: float
    cg_m: tuple
    cg_ahead_of_rear_axle_m: float
    cg_height_m: float
    inertia_kg_m2: tuple
    front_share: float
    static_loads_n: tuple
    mounts_m: tuple


def legacy_inertia_kg_m2(params) -> tuple:
    """Principal inertia of the legacy tractor: a solid box of (L + 0.55) x (T + 0.5) x 2.5 m (page "Legacy Tractor").

    Parameters
    ----------
    params : MaxxumParameters
    """
    ch, (dl, dw, h) = params.chassis, params.constants.legacy_box_margin_m
    return box_inertia_kg_m2(ch.mass_kg, ch.wheelbase_m + dl, ch.track_m + dw, h)


def mounted_implement_part(params) -> tuple:
    """The legacy mounted implement as a part: (m_i [kg], r_i (3) [m], I_i (3) [kg m^2]).

    The mass is 1 m behind the hitch point (``implement.hitch_overhang_m`` behind
    the rear axle), at ``implement.cg_height_m`` above the ground, with the
    inertia of a 2 x 2.4 x 0.7 m box (page "Legacy Tractor").
    """
    ch, im, c = params.chassis, params.implement, params.constants
    x = -BODY_ORIGIN_SHARE * ch.wheelbase_m - im.hitch_overhang_m - c.mounted_behind_hitch_m
    r = (x, 0.0, im.cg_height_m - ch.cg_height_m)
    lx, ly, lz = c.mounted_box_m
    return im.mass_kg, r, box_inertia_kg_m2(im.mass_kg, lx, ly, lz)


def tractor_mass(params, implement: tuple | None = None, g: float = G_MPS2) -> TractorMass:
    """Mass properties, static loads and wheel mounts (ConfigureBody, ResetVehicle, ApplyImplementMass).

    Parameters
    ----------
    params : MaxxumParameters
    implement : tuple, optional
        A carried part ``(m_i, (x, y, z), (I_xx, I_yy, I_zz))`` in the body frame,
        e.g. :func:`mounted_implement_part`; None for the tractor alone.
    g : float
        Gravity [m/s^2].
    """
    ch, ty, c = params.chassis, params.tyres, params.constants
    inertia = legacy_inertia_kg_m2(params) if ch.model == "legacy" else ch.inertia_kg_m2
    m, r, i = ch.mass_kg, (ch.cg_forward_m, 0.0, 0.0), tuple(inertia)
    if implement is not None:
        mi, ri, ii = implement
        out = apply_implement_mass(m, r[0], r[1], r[2], i[0], i[1], i[2], mi, ri[0], ri[1], ri[2],
                                   ii[0], ii[1], ii[2])
        m, r, i = out[0], tuple(out[1:4]), tuple(out[4:7])
    s = front_load_share(ch.wheelbase_m, r[0])
    nf, nr = static_wheel_loads_n(m, ch.wheelbase_m, r[0], g)
    mounts = tuple(
        tuple(wheel_mount_m(j < 2, j % 2 == 0, ch.wheelbase_m, ch.track_m,
                            ty.front_radius_m if j < 2 else ty.rear_radius_m, c.rest_extension_m, ch.cg_height_m))
        for j in range(4))
    return TractorMass(mass_kg=m, cg_m=r, cg_ahead_of_rear_axle_m=BODY_ORIGIN_SHARE * ch.wheelbase_m + r[0],
                       cg_height_m=ch.cg_height_m + r[2], inertia_kg_m2=i, front_share=s,
                       static_loads_n=(nf, nf, nr, nr), mounts_m=mounts)

