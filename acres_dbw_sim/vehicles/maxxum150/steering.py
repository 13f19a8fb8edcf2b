"""Steering of the Maxxum 150 (maxxum-150-dynamics.md, "Steering").

StepSteering turns the command delta_cmd [rad] into the bicycle angle delta
through four parts:

    delay       delta_1(t) = delta_cmd(t - tau_d), 0 for t < tau_d        (tau_d = 0.12 s)
    lag         delta_2 = delta_1 + (delta - delta_1) exp(-dt / tau_s)     (tau_s = 0.18 s)
    lock        delta_3 = clamp(delta_2, -delta_max, delta_max)            (0.6632 rad, 38 deg)
    rate limit  delta <- delta + clamp(delta_3 - delta, -rate dt, rate dt) (0.6981 rad/s, 40 deg/s)

The delay uses the newest command that is at least tau_d old; with the fixed
step that is the command of ceil(tau_d / dt) steps ago (15 steps at 120 Hz),
kept in a ring buffer sized once (the shared filters of
:mod:`acres_dbw_sim.model.filters`: ``delay_steps`` with rounding ``ceil``,
``delay_push``). The lag is the shared first-order lag
:func:`acres_dbw_sim.model.filters.lag`; the front-wheel angles
come from the shared :func:`acres_dbw_sim.model.steering.ackermann_rad` (the
page's Ackermann function is the Ranger's). Positive angles turn left.
"""
from __future__ import annotations

import math

from ...model._jit import njit
from ...model.filters import delay_push, lag
from ...model.steering import ackermann_rad, bicycle_angle_rad

__all__ = ["lock_and_rate_limit", "step_steering", "turn_radius_m",
           "front_wheel_angles_rad", "steering_command_rad"]


@njit
def lock_and_rate_limit(delta_rad: float, delta_2_rad: float, max_steer_rad: float, rate_rad_s: float,
                        dt_s: float) -> float:
    """Lock then rate limit: delta + clamp(clamp(delta_2, +/-delta_max) - delta, +/-rate dt) [rad]."""
    d3 = -max_steer_rad if delta_2_rad < -max_steer_rad else max_steer_rad if delta_2_rad > max_steer_rad \
        else delta_2_rad
    s = rate_rad_s * dt_s
    d = d3 - delta_rad
    d = -s if d < -s else s if d > s else d
    return delta_rad + d


@njit
def step_steering(delta_rad: float, buffer, head: int, command_rad: float, time_constant_s: float,
                  max_steer_rad: float, rate_rad_s: float, dt_s: float) -> tuple:
    """One step of StepSteering: (delta [rad], new head of the delay buffer).

    Parameters
    ----------
    delta_rad : float
        Bicycle angle delta at the start of the step [rad].
    buffer, head :
        Delay line (:func:`delay_push`).
    command_rad : float
        delta_cmd [rad], positive to the left.
    time_constant_s, max_steer_rad, rate_rad_s : float
        tau_s [s], delta_max [rad], maximum rate [rad/s].
    dt_s : float
    """
    d1, head = delay_push(buffer, head, command_rad)
    d2 = lag(delta_rad, d1, time_constant_s, dt_s)
    return lock_and_rate_limit(delta_rad, d2, max_steer_rad, rate_rad_s, dt_s), head


@njit
def turn_radius_m(delta_rad: float, wheelbase_m: float) -> float:
    """R = L / tan|delta| [m] of the rear-axle centre (inf for |delta| < 1e-5 rad)."""
    a = abs(delta_rad)
    return math.inf if a < 1e-5 else wheelbase_m / math.tan(a)


@njit
def front_wheel_angles_rad(delta_rad: float, wheelbase_m: float, track_m: float) -> tuple:
    """(left, right) front-wheel angles [rad]: the shared Ackermann of model.steering with the tractor's L, T."""
    return ackermann_rad(delta_rad, wheelbase_m, track_m)


@njit
def steering_command_rad(steering_wheel_deg: float, steering_ratio: float) -> float:
    """DBW mapping: delta_cmd [rad] of a steering-wheel command [deg] through the documented ratio.

    The shared :func:`acres_dbw_sim.model.steering.bicycle_angle_rad` with centre 0
    and ``installation.steering_ratio`` (12.8: the Ranger's +/-487 deg reach the tractor's 38 deg lock).
    """
    return bicycle_angle_rad(steering_wheel_deg, steering_ratio, 0.0)
