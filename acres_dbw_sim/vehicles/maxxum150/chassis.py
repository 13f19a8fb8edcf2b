"""Air drag and front-axle oscillation of the Maxxum 150 (maxxum-150-dynamics.md, "Chassis and Mass
Properties" (air drag), "Front-Axle Oscillation").

Air drag at the centre of mass, rho_a = 1.225 kg/m^3, C_d = 0.8, A = 4 m^2:

    F_a = -1/2 rho_a C_d A |v| v              (the shared resistances.aero_drag_n)

Front-axle angle of the equipment rig (UpdateRigs) from the extensions of the
two front wheels (each front wheel has its own soft spring; there is no pivot
joint in the physics):

    theta_axle = clamp(atan((e_FR - e_FL) / T), -10 deg, 10 deg)

With x forward, y left, z up a positive angle is a roll to the right (the
right wheel hangs lower), the same sign as the page's formula.
"""
from __future__ import annotations

import math

from ...model._jit import njit
from ...model.resistances import aero_drag_n

__all__ = ["air_drag_n", "front_axle_angle_rad"]


@njit
def air_drag_n(vx_mps: float, vy_mps: float, vz_mps: float, air_density_kg_m3: float, drag_coefficient: float,
               frontal_area_m2: float) -> tuple:
    """Drag force (F_x, F_y, F_z) [N] in the frame of the velocity (vx, vy, vz) [m/s] of the centre of mass."""
    return aero_drag_n(vx_mps, vy_mps, vz_mps, air_density_kg_m3, drag_coefficient * frontal_area_m2)


@njit
def front_axle_angle_rad(extension_fl_m: float, extension_fr_m: float, track_m: float, limit_rad: float) -> float:
    """theta_axle = clamp(atan((e_FR - e_FL) / T), -limit, limit) [rad] (limit 10 deg)."""
    a = math.atan((extension_fr_m - extension_fl_m) / track_m)
    return -limit_rad if a < -limit_rad else limit_rad if a > limit_rad else a
