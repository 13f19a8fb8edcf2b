"""Steering geometry (reference "Steering").

The steering-wheel angle theta_sw [deg] gives the bicycle angle

    delta = (pi/180) (theta_sw - theta_c) / max(1, i_s)          [rad]

and the front wheels obey ideal Ackermann geometry about a turn centre on
the rear-axle line at r_c = L / tan|delta| from the rear-axle centre. A
positive angle turns left; the inner wheel of a left turn is the left one.

The Ranger's rack stop is its own (``vehicles/polaris/steering.py``).
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["bicycle_angle_rad", "steering_wheel_for_bicycle_deg", "ackermann_rad", "steering_wheel_for_curvature_deg"]

_DEG = math.pi / 180.0


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
def steering_wheel_for_bicycle_deg(delta_rad: float, ratio: float, center_deg: float) -> float:
    """Steering-wheel angle theta_sw [deg] that gives the bicycle angle ``delta_rad`` [rad]: the inverse of
    :func:`bicycle_angle_rad`, ``theta_c + delta (180/pi) max(1, i_s)``.

    Parameters
    ----------
    delta_rad : float
        delta [rad], positive to the left.
    ratio : float
        Steering ratio i_s [-] (values below 1 act as 1).
    center_deg : float
        theta_c [deg], the angle at which the vehicle moves straight.
    """
    return center_deg + delta_rad / _DEG * (ratio if ratio > 1.0 else 1.0)


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
    return steering_wheel_for_bicycle_deg(math.atan(wheelbase_m * curvature_1_m), ratio, center_deg)
