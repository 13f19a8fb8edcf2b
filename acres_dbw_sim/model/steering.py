"""Steering geometry (reference "Steering").

The steering-wheel angle theta_sw [deg] gives the bicycle angle

    delta = (pi/180) (theta_sw - theta_c) / max(1, i_s)          [rad]

and the front wheels obey ideal Ackermann geometry about a turn centre on
the rear-axle line at r_c = L / tan|delta| from the rear-axle centre. A
positive angle turns left; the inner wheel of a left turn is the left one.

Steering lock (a decision; the reference states both a range and its
result): "Its range is +/-487 deg (dbw.steering.lock_deg). That range gives
a maximum bicycle angle of 40.7 deg", and a minimum turning radius of
3.34 m. 487 / 11.9764 = 40.66 deg and L / tan(40.66 deg) = 3.34 m hold only
when the 487 deg are counted from straight ahead, not from the raw zero
that sits theta_c = 12.53 deg off it (which would give 39.6 deg to the left
and 41.7 deg to the right). So the vehicle has a rack stop symmetric about
straight ahead, theta_c +/- ``steering.rack_stop_deg`` (487 deg,
:func:`rack_limited_deg`), which the model applies to any steering-wheel
input; the DBW command limit +/-``dbw.steering.lock_deg`` stays a limit of
the command in the raw (reported) frame, as on the interface, so that a
command at the raw limit on the left side stops 12.5 deg short of the rack.
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["rack_limited_deg", "bicycle_angle_rad", "ackermann_rad", "steering_wheel_for_curvature_deg"]

_DEG = math.pi / 180.0


@njit(inline=True)
def rack_limited_deg(steering_wheel_deg: float, center_deg: float, rack_stop_deg: float) -> float:
    """Steering-wheel angle [deg] held by the rack stops theta_c - lock .. theta_c + lock (module docstring).

    Parameters
    ----------
    steering_wheel_deg : float
        theta_sw [deg], positive to the left (raw frame, as reported).
    center_deg : float
        theta_c [deg].
    rack_stop_deg : float
        Half travel of the rack from straight ahead, in steering-wheel degrees.
    """
    lo = center_deg - rack_stop_deg
    hi = center_deg + rack_stop_deg
    return lo if steering_wheel_deg < lo else hi if steering_wheel_deg > hi else steering_wheel_deg


@njit
def bicycle_angle_rad(steering_wheel_deg: float, ratio: float, center_deg: float) -> float:
    """Bicycle angle delta [rad] of a steering-wheel angle [deg].

    Parameters
    ----------
    steering_wheel_deg : float
        theta_sw [deg], positive to the left.
    ratio : float
        Steering ratio i_s [-] (values below 1 act as 1).
    center_deg : float
        theta_c [deg], the angle at which the vehicle moves straight.
    """
    return _DEG * (steering_wheel_deg - center_deg) / (ratio if ratio > 1.0 else 1.0)


@njit
def ackermann_rad(delta_rad: float, wheelbase_m: float, track_m: float) -> tuple:
    """Front-wheel angles (left, right) [rad] for bicycle angle ``delta_rad``.

    For |delta| < 1e-5 rad both are zero. Otherwise
    ``r_c = L / tan|delta|``, ``delta_in = atan(L / max(0.1, r_c - b/2))``,
    ``delta_out = atan(L / (r_c + b/2))``; signs follow delta.
    """
    a = abs(delta_rad)
    if a < 1e-5:
        return 0.0, 0.0
    rc = wheelbase_m / math.tan(a)
    d = rc - 0.5 * track_m
    inner = math.atan(wheelbase_m / (d if d > 0.1 else 0.1))
    outer = math.atan(wheelbase_m / (rc + 0.5 * track_m))
    if delta_rad > 0.0:
        return inner, outer
    return -outer, -inner


@njit
def steering_wheel_for_curvature_deg(curvature_1_m: float, wheelbase_m: float, ratio: float,
                                     center_deg: float) -> float:
    """Steering-wheel angle [deg] that gives path curvature ``curvature_1_m`` [1/m]
    of the rear-axle centre (bicycle kinematics): delta = atan(L kappa)."""
    delta = math.atan(wheelbase_m * curvature_1_m)
    return center_deg + delta / _DEG * (ratio if ratio > 1.0 else 1.0)
