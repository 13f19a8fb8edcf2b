"""Mass and Geometry (reference "Mass and Geometry", "Occupants and Payload").

Each part is a point mass at a position from ``base_footprint`` (body frame: x
forward, y left, z up). The dry vehicle also has its own inertia from the radii
of gyration. The inertia tensor about the centre of mass is

    I = diag(m_d k_x^2, m_d k_y^2, m_d k_z^2) + sum_i m_i (|dr_i|^2 E - dr_i dr_i^T)

whose diagonal is the reference's I_xx, I_yy, I_zz and whose off-diagonal terms
are the products of inertia (gaps.md "Chassis"). Static corner loads follow
from the pitch moment balance with the lateral split of each axle.
Wheels: 0 FL, 1 FR, 2 RL, 3 RR.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...model.chassis import G_MPS2

__all__ = ["MassProperties", "seat_positions", "mass_parts", "compute_mass_properties"]


@dataclass(frozen=True)
class MassProperties:
    """Mass properties of the loaded vehicle.

    Attributes
    ----------
    mass_kg : float
        Total mass m [kg].
    cg_m : tuple of 3 float
        Centre of mass (x forward, y left, z up) from base_footprint [m].
    inertia_kg_m2 : tuple of 3 float
        I_xx, I_yy, I_zz about the centre of mass [kg m^2].
    inertia_tensor_kg_m2 : tuple of 3 tuples of 3 float
        Full inertia tensor about the centre of mass in the body frame,
        including the products of inertia [kg m^2].
    front_axle_share : float
        N_f / (m g) [-].
    static_loads_n : tuple of 4 float
        N_0,j for wheels FL, FR, RL, RR [N].
    """

    mass_kg: float
    cg_m: tuple
    inertia_kg_m2: tuple
    inertia_tensor_kg_m2: tuple
    front_axle_share: float
    static_loads_n: tuple


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


def seat_positions(mass) -> list:
    """Seat positions in fill order (reference "Occupants and Payload").

    Parameters
    ----------
    mass : MassParams

    Returns
    -------
    list of 6 tuples (x, y, z) [m] from base_footprint.
    """
    xf, xr, yl, z = mass.front_seat_x_m, mass.rear_seat_x_m, mass.seat_lateral_m, mass.seat_z_m
    return [(xf, yl, z), (xf, -yl, z), (xr, yl, z), (xr, -yl, z), (xr, 0.0, z), (xf, 0.0, z)]


def mass_parts(mass) -> list:
    """All point masses ``[(m_i [kg], (x, y, z) [m])]``; the first is the dry vehicle."""
    parts = [
        (mass.dry_kg, mass.dry_cg_m),
        (mass.fluids_kg, mass.fluids_m),
        (mass.roof_equipment_kg, mass.roof_m),
        (mass.bay_equipment_kg, mass.bay_m),
    ]
    seats = seat_positions(mass)
    for i in range(mass.occupants):
        parts.append((mass.occupant_kg, seats[i]))
    if mass.cargo_kg > 0.0:
        parts.append((mass.cargo_kg, mass.cargo_m))
    return parts


def compute_mass_properties(mass, geometry, g: float = G_MPS2) -> MassProperties:
    """Total mass, centre of mass, inertia and static corner loads.

    Parameters
    ----------
    mass : MassParams
    geometry : GeometryParams
    g : float
        Gravity [m/s^2].

    Returns
    -------
    MassProperties
    """
    parts = mass_parts(mass)
    m = sum(p[0] for p in parts)
    cg = tuple(sum(mi * r[k] for mi, r in parts) / m for k in range(3))
    kx, ky, kz = mass.dry_gyration_m
    md = mass.dry_kg
    t = [[md * kx * kx, 0.0, 0.0], [0.0, md * ky * ky, 0.0], [0.0, 0.0, md * kz * kz]]
    for mi, r in parts:
        d = (r[0] - cg[0], r[1] - cg[1], r[2] - cg[2])
        d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
        for a in range(3):
            for b in range(3):
                t[a][b] += mi * ((d2 if a == b else 0.0) - d[a] * d[b])
    L, bf, br = geometry.wheelbase_m, geometry.track_front_m, geometry.track_rear_m
    share = _clamp(cg[0] / L, 0.05, 0.95)
    nf = m * g * share
    nr = m * g - nf
    sf = _clamp(0.5 + cg[1] / bf, 0.05, 0.95)
    sr = _clamp(0.5 + cg[1] / br, 0.05, 0.95)
    loads = (nf * sf, nf * (1.0 - sf), nr * sr, nr * (1.0 - sr))
    return MassProperties(
        mass_kg=m,
        cg_m=cg,
        inertia_kg_m2=(t[0][0], t[1][1], t[2][2]),
        inertia_tensor_kg_m2=tuple(tuple(row) for row in t),
        front_axle_share=share,
        static_loads_n=loads,
    )
