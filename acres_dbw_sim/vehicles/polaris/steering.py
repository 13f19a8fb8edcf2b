"""The Ranger's steering rack stop (polaris-ranger-dynamics.md, "Steering").

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

from ...model._jit import njit

__all__ = ["rack_limited_deg"]


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
