"""Air drag and front-axle oscillation of the Maxxum 150 (maxxum-150-dynamics.md, "Chassis and Mass
Properties" (air drag), "Front-Axle Oscillation").

Air drag at the centre of mass, rho_a = 1.225 kg/m^3, C_d = 0.8, A = 4 m^2:

    F_a = -1/2 rho_a C_d A |v| v

is the shared :func:`acres_dbw_sim.model.resistances.aero_drag_n` in the shared chassis
stage, with the drag area C_d A of ``constants.drag_coefficient`` and ``frontal_area_m2``.

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

__all__ = ["front_axle_angle_rad"]


@njit
def front_axle_angle_rad(extension_fl_m: float, extension_fr_m: float, track_m: float, limit_rad: float) -> float:
    """theta_axle = clamp(atan((e_FR - e_FL) / T), -limit, limit) [rad] (limit 10 deg)."""
    a = math.atan((extension_fr_m - extension_fl_m) / track_m)
    return -limit_rad if a < -limit_rad else limit_rad if a > limit_rad else a
