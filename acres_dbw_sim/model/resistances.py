"""Resistances (reference "Resistances").

Aerodynamic drag at the centre of mass ``F = -1/2 rho C_d A |v| v``; rolling
resistance torque ``T_roll = min(f, f_max) N R_t`` (the reference's f_max = 0.45,
``resistances.rolling_coefficient_max``); water drag of a wheel
``F = -1/2 rho_w C_d,w A_w |v| v`` with ``A_w = b min(2 R_t, h_w)`` (the reference's
rho_w = 1000 kg/m^3, ``resistances.water_density_kg_m3``). The angular damping of the
chassis is in chassis.py, engine braking in the driveline solve.
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["aero_drag_n", "rolling_torque_nm", "water_drag_coefficient_kg_m", "water_drag_n", "spin_factor"]


@njit
def aero_drag_n(vx: float, vy: float, vz: float, rho: float, cda: float) -> tuple:
    """Drag force (world) [N] for the centre-of-mass velocity (vx, vy, vz) [m/s]."""
    k = -0.5 * rho * cda * math.sqrt(vx * vx + vy * vy + vz * vz)
    return k * vx, k * vy, k * vz


@njit(inline=True)
def rolling_torque_nm(f: float, load_n: float, radius_m: float, f_max: float) -> float:
    """T_roll = min(f, f_max) N R_t [N m] (f_max: the largest rolling coefficient, 0.45 in the reference)."""
    return (f if f < f_max else f_max) * load_n * radius_m


@njit(inline=True)
def water_drag_coefficient_kg_m(cd_w: float, width_m: float, radius_m: float, depth_m: float,
                                rho_w: float) -> float:
    """k_w [kg/m] with F_w = -k_w |v| v: 1/2 rho_w C_d,w A_w, A_w = b min(2 R_t, h_w) (reference "Resistances").

    Parameters
    ----------
    cd_w : float
        Drag coefficient of the tyre in water [-].
    width_m, radius_m : float
        Tyre width b and unloaded radius R_t [m].
    depth_m : float
        Water depth h_w [m]; 0 or less: no drag.
    rho_w : float
        Density of the water [kg/m^3] (1000 in the reference).
    """
    if depth_m <= 0.0:
        return 0.0
    d = 2.0 * radius_m
    return 0.5 * rho_w * cd_w * width_m * (d if d < depth_m else depth_m)


@njit(inline=True)
def water_drag_n(k_w: float, vx: float, vy: float, vz: float) -> tuple:
    """Water drag force -k_w |v| v [N] (world) on a wheel moving at (vx, vy, vz) [m/s] in the ground plane."""
    sp = math.sqrt(vx * vx + vy * vy + vz * vz)
    return -k_w * sp * vx, -k_w * sp * vy, -k_w * sp * vz


@njit(inline=True)
def spin_factor(omega_rad_s: float, inv_scale_s_rad: float) -> float:
    """tanh(omega / omega_s): the sign of a resistance torque that fades to 0 at standstill (reference
    "Driveline Solve", ``(T_roll + T_brake) tanh(omega / 0.1)``; omega_s = ``resistances.spin_scale_rad_s``).

    Takes ``inv_scale_s_rad`` = 1 / omega_s [s/rad] (a product in the solve's inner loop, not a division).
    """
    return math.tanh(omega_rad_s * inv_scale_s_rad)
