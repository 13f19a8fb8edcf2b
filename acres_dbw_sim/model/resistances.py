"""Resistances (reference "Resistances").

Aerodynamic drag at the centre of mass ``F = -1/2 rho C_d A |v| v``; rolling
resistance torque ``T_roll = min(f, 0.45) N R_t``; water drag of a wheel
``F = -1/2 1000 C_d,w A_w |v| v`` with ``A_w = b min(2 R_t, h_w)``. The
angular damping of the chassis is in chassis.py, engine braking in the
driveline solve.
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["aero_drag_n", "rolling_torque_nm", "water_drag_coefficient_kg_m"]


@njit
def aero_drag_n(vx: float, vy: float, vz: float, rho: float, cda: float) -> tuple:
    """Drag force (world) [N] for the centre-of-mass velocity (vx, vy, vz) [m/s]."""
    k = -0.5 * rho * cda * math.sqrt(vx * vx + vy * vy + vz * vz)
    return k * vx, k * vy, k * vz


@njit
def rolling_torque_nm(f: float, load_n: float, radius_m: float) -> float:
    """T_roll = min(f, 0.45) N R_t [N m]."""
    return (f if f < 0.45 else 0.45) * load_n * radius_m


def water_drag_coefficient_kg_m(cd_w: float, width_m: float, radius_m: float, depth_m: float) -> float:
    """k_w [kg/m] with F_w = -k_w |v| v: 1/2 1000 C_d,w b min(2 R_t, h_w)."""
    if depth_m <= 0.0:
        return 0.0
    return 0.5 * 1000.0 * cd_w * width_m * min(2.0 * radius_m, depth_m)
