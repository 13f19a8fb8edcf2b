"""Legacy implement of the Maxxum 150 (maxxum-150-dynamics.md, "Legacy Tractor", "Implement Coupling").

Draft (AsabeDraftN, ImplementDraftN; ASABE D497.7):

    D = F_i (A + B S + C S^2) W T_d                       (table types)
    D = D_ref (1 + 0.06 S) / (1 + 0.06 S_ref)             (custom)

S is the speed [km/h] through a first-order lag of 0.5 s (the shared
:func:`acres_dbw_sim.model.filters.lag`), W the width [m] or the number of
tools or rows (width over the tool spacing), T_d the depth [cm] (1 for the
planter: no depth), F_i the soil texture factor (fine, medium, coarse). The
force acts against the horizontal velocity with the factor tanh(|v| / 0.2)
and only while the tool point is on deformable ground. Its point is 0.8 m
below the body origin at the hitch's x. The implement force on the chassis is
limited to 250 kN.

Mounted implement: a carried mass 1 m behind the hitch point (see
:func:`~.mass.mounted_implement_part`).

Trailed implement: the page's game uses a second rigid body with two free
wheels and a ball joint. Here, as the page's vehicle side does for the square
baler, it is a *kinematic one-axle trailer*: the axle point a follows the
drawbar pin h at the fixed distance L_b,

    a <- h + L_b (a - h) / |a - h|,     L_b = d_h + d_h t_h / (1 - t_h) = d_h / (1 - t_h)

(the axle is d_h t_h / (1 - t_h) behind the trailer's centre of mass, so the
hitch carries the share t_h of its weight), and the drawbar load (D_x, D_y, D_z)
in the trailer frame is turned by the articulation angle psi_b:

    F_impl = (D_x cos psi_b - D_y sin psi_b, D_x sin psi_b + D_y cos psi_b, D_z)

The trailer's mass is not in the chassis body; its drawbar load is its draft,
its inertia along its axis with the chassis acceleration lagged by 50 ms, the
slope term g sin(slope), and the static hitch load t_h m g.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ...model._jit import njit
from ...model.filters import lag
from .mass import BODY_ORIGIN_SHARE

__all__ = ["DRAFT_TABLE", "TEXTURES", "texture_index", "texture_for_soil_class", "asabe_draft_n",
           "custom_draft_n", "DraftCoefficients", "draft_coefficients", "implement_draft_n", "lagged_speed_kmh",
           "draft_force_n", "limit_force_n", "trailer_axle_distance_m", "trailer_axle_follow_m",
           "articulation_angle_rad", "drawbar_force_n", "trailer_drawbar_load_n", "draft_point_m",
           "pto_ratio", "pto_shaft_speed_rpm", "pump_flow_fraction", "lagged_acceleration_mps2"]

TEXTURES = ("fine", "medium", "coarse")

DRAFT_TABLE = {
    # type: (A, B, C, F_fine, F_medium, F_coarse, tool spacing [m] (0: W is the width), uses depth)
    "moldboard": (652.0, 0.0, 5.1, 1.0, 0.70, 0.45, 0.0, True),
    "chisel": (91.0, 5.4, 0.0, 1.0, 0.85, 0.65, 0.30, True),
    "disk": (309.0, 16.0, 0.0, 1.0, 0.88, 0.78, 0.0, True),
    "cultivator": (46.0, 2.8, 0.0, 1.0, 0.85, 0.65, 0.20, True),
    "planter": (500.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.76, False),
    "potato_digger": (250.0, 12.0, 0.0, 1.0, 0.88, 0.78, 0.0, True),
}
"""ASABE D497.7 draft coefficients of the page's table (potato digger: the page's estimate)."""


def texture_index(texture: str) -> int:
    """0 fine, 1 medium, 2 coarse.

    Raises
    ------
    ValueError
        For another name (``auto`` must be resolved first, :func:`texture_for_soil_class`).
    """
    try:
        return TEXTURES.index(texture)
    except ValueError:
        raise ValueError(f"soil texture {texture!r}: expected one of {', '.join(TEXTURES)}") from None


def texture_for_soil_class(soil_class: str | None) -> str:
    """Texture of ``soil_texture = auto`` from the surface's soil class (ASABE D497.7's classes).

    Fine are the clays, coarse the sands and sandy soils, medium the loams
    (silt loam): a class name containing ``clay`` is fine, one containing
    ``sand`` is coarse, any other is medium. A surface without a soil class
    is hard ground (no draft), reported as medium.
    """
    name = (soil_class or "").lower()
    if "clay" in name:
        return "fine"
    if "sand" in name:
        return "coarse"
    return "medium"


@njit
def asabe_draft_n(a: float, b: float, c: float, texture_factor: float, speed_kmh: float, width: float,
                  depth_cm: float) -> float:
    """D = F_i (A + B S + C S^2) W T_d [N] (ASABE D497.7; W in m or tools, T_d in cm)."""
    return texture_factor * (a + b * speed_kmh + c * speed_kmh * speed_kmh) * width * depth_cm


@njit
def custom_draft_n(draft_ref_n: float, speed_kmh: float, design_speed_kmh: float,
                   speed_factor_h_km: float) -> float:
    """D = D_ref (1 + a S) / (1 + a S_ref) [N] of a ``custom`` implement (a = 0.06 h/km in the reference,
    ``implement.custom_speed_factor_h_km``)."""
    return draft_ref_n * (1.0 + speed_factor_h_km * speed_kmh) / (1.0 + speed_factor_h_km * design_speed_kmh)


class DraftCoefficients(NamedTuple):
    """One implement's draft law, built once (:func:`draft_coefficients`).

    Attributes
    ----------
    custom : bool
    a, b, c : float
        A [N], B [N h/km], C [N h^2/km^2] per unit width and cm.
    texture_factor : float
        F_i [-].
    width : float
        W: width [m] or number of tools or rows.
    depth_cm : float
        T_d [cm] (1 for the planter).
    draft_ref_n, design_speed_kmh, speed_factor : float
        D_ref, S_ref and the speed coefficient a [h/km] of a custom implement.
    """

    custom: bool
    a: float
    b: float
    c: float
    texture_factor: float
    width: float
    depth_cm: float
    draft_ref_n: float
    design_speed_kmh: float
    speed_factor: float


def draft_coefficients(implement, soil_class: str | None = None) -> DraftCoefficients:
    """The draft law of ``implement`` on soil ``soil_class`` (used when ``soil_texture`` is auto).

    Tools and rows: W = max(1, round(width / spacing)) (a 3 m chisel has 10
    tools at 0.30 m).

    Parameters
    ----------
    implement : ImplementParams
    soil_class : str or None
        Soil class of the surface under the tool (for ``auto``).
    """
    if implement.type == "custom":
        return DraftCoefficients(True, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, implement.draft_n, implement.design_speed_kmh,
                                 implement.custom_speed_factor_h_km)
    a, b, c, f1, f2, f3, spacing, uses_depth = DRAFT_TABLE[implement.type]
    texture = implement.soil_texture
    if texture == "auto":
        texture = texture_for_soil_class(soil_class)
    f = (f1, f2, f3)[texture_index(texture)]
    w = implement.width_m if spacing <= 0.0 else float(max(1, round(implement.width_m / spacing)))
    depth = implement.depth_cm if uses_depth else 1.0
    return DraftCoefficients(False, a, b, c, f, w, depth, 0.0, 0.0, 0.0)


@njit
def implement_draft_n(k: DraftCoefficients, speed_kmh: float) -> float:
    """Draft D [N] at the (lagged) speed S [km/h] (ImplementDraftN)."""
    s = abs(speed_kmh)
    if k.custom:
        return custom_draft_n(k.draft_ref_n, s, k.design_speed_kmh, k.speed_factor)
    return asabe_draft_n(k.a, k.b, k.c, k.texture_factor, s, k.width, k.depth_cm)


@njit
def lagged_speed_kmh(speed_kmh: float, vx_mps: float, vy_mps: float, lag_s: float, dt_s: float) -> float:
    """S after one step [km/h]: the horizontal speed 3.6 |v_h| through the 0.5 s lag."""
    return lag(speed_kmh, 3.6 * math.sqrt(vx_mps * vx_mps + vy_mps * vy_mps), lag_s, dt_s)


@njit
def draft_force_n(draft_n: float, vx_mps: float, vy_mps: float, direction_speed_mps: float,
                  deformable: bool) -> tuple:
    """Horizontal draft force (F_x, F_y) [N] against the velocity: -D tanh(|v| / 0.2) v / |v|.

    Parameters
    ----------
    draft_n : float
        D [N].
    vx_mps, vy_mps : float
        Horizontal velocity of the tool point (any horizontal frame; the force is in the same frame).
    direction_speed_mps : float
        0.2 m/s.
    deformable : bool
        The tool point is on deformable ground (a surface with a soil class); otherwise no draft.
    """
    sp = math.sqrt(vx_mps * vx_mps + vy_mps * vy_mps)
    if not deformable or sp <= 0.0 or draft_n <= 0.0:
        return 0.0, 0.0
    k = -draft_n * math.tanh(sp / direction_speed_mps) / sp
    return k * vx_mps, k * vy_mps


@njit
def limit_force_n(fx: float, fy: float, fz: float, limit_n: float) -> tuple:
    """The implement force scaled down to at most ``limit_n`` (250 kN) in magnitude [N]."""
    f = math.sqrt(fx * fx + fy * fy + fz * fz)
    if f <= limit_n:
        return fx, fy, fz
    s = limit_n / f
    return fx * s, fy * s, fz * s


@njit
def trailer_axle_distance_m(hitch_to_cg_m: float, hitch_transfer: float) -> float:
    """L_b = d_h + d_h t_h / (1 - t_h) [m]: the axle behind the pin that puts t_h of the weight on the hitch."""
    return hitch_to_cg_m + hitch_to_cg_m * hitch_transfer / (1.0 - hitch_transfer)


@njit
def trailer_axle_follow_m(ax: float, ay: float, hx: float, hy: float, length_m: float) -> tuple:
    """New axle point (x, y) [m]: a <- h + L_b (a - h) / |a - h| (world horizontal plane).

    If a and h coincide, the axle is kept where it is (no direction to follow).
    """
    dx, dy = ax - hx, ay - hy
    d = math.sqrt(dx * dx + dy * dy)
    if d <= 1e-12:
        return ax, ay
    return hx + length_m * dx / d, hy + length_m * dy / d


@njit
def articulation_angle_rad(ax: float, ay: float, hx: float, hy: float, tractor_yaw_rad: float) -> float:
    """psi_b [rad]: heading of the trailer (axle to pin) minus the tractor's yaw, wrapped to (-pi, pi]."""
    psi = math.atan2(hy - ay, hx - ax) - tractor_yaw_rad
    return math.atan2(math.sin(psi), math.cos(psi))


@njit
def drawbar_force_n(dx_n: float, dy_n: float, dz_n: float, psi_b_rad: float) -> tuple:
    """F_impl [N] in the tractor frame of the drawbar load (D_x, D_y, D_z) in the trailer frame."""
    c, s = math.cos(psi_b_rad), math.sin(psi_b_rad)
    return dx_n * c - dy_n * s, dx_n * s + dy_n * c, dz_n


@njit
def trailer_drawbar_load_n(mass_kg: float, accel_mps2: float, slope: float, draft_n: float, hitch_transfer: float,
                           g_mps2: float) -> tuple:
    """Drawbar load (D_x, D_y, D_z) [N] of the kinematic trailer on the tractor, trailer frame.

    D_x = -(m (a + g slope) + D): the pin accelerates the trailer along its
    axis (a: the chassis acceleration along the trailer axis with the 50 ms
    lag of "Implement Coupling"; slope: the sine of the uphill slope) and
    pulls its draft; D_z = -t_h m g: the hitch carries the share t_h of the
    trailer's weight. D_y = 0: the kinematic axle cannot slide sideways, it takes the side force.
    """
    return -(mass_kg * (accel_mps2 + g_mps2 * slope) + draft_n), 0.0, -hitch_transfer * mass_kg * g_mps2


@njit
def draft_point_m(wheelbase_m: float, hitch_overhang_m: float, below_origin_m: float) -> tuple:
    """Point (x, y, z) [m] of the draft in the body frame: at the hitch (``hitch_overhang_m`` behind the
    rear axle, which is 0.4 L behind the body origin: mass.BODY_ORIGIN_SHARE), ``below_origin_m`` (0.8 m)
    below the body origin."""
    return -BODY_ORIGIN_SHARE * wheelbase_m - hitch_overhang_m, 0.0, -below_origin_m


@njit
def pto_ratio(rated_pto_rpm: float, engine_rpm_at_rated_pto: float) -> float:
    """PTO ratio [-]: the rated PTO speed over the engine speed for it (540 / 1969, 1000 / 1893) ("Implement
    Coupling")."""
    return rated_pto_rpm / engine_rpm_at_rated_pto


@njit
def pto_shaft_speed_rpm(engine_rpm: float, ratio: float) -> float:
    """PTO shaft speed [rev/min]: the engine speed times the PTO ratio."""
    return engine_rpm * ratio


@njit
def pump_flow_fraction(engine_rpm: float, rated_rpm: float) -> float:
    """Pump flow over its rated flow [-]: n / n_rated."""
    return engine_rpm / rated_rpm


@njit
def lagged_acceleration_mps2(accel_mps2: float, chassis_accel_mps2: float, lag_s: float, dt_s: float) -> float:
    """The chassis acceleration the implement gets [m/s^2]: the shared first-order lag (50 ms)."""
    return lag(accel_mps2, chassis_accel_mps2, lag_s, dt_s)
