"""Clutch of the Maxxum 150 (maxxum-150-dynamics.md, "Clutch").

The engagement epsilon moves towards 1 when u > 0.01, b_k < 0.1 and no gear
change is in progress, towards 0 otherwise, at the rate 1 / t_c:

    epsilon <- epsilon + clamp(epsilon_target - epsilon, -dt / t_c, dt / t_c)

The capacity falls to zero as the free engine speed falls from 100 % to 60 %
of the idle speed (stall protection):

    T_cap = T_cl epsilon clamp((omega_free - 0.6 omega_idle) / (0.4 omega_idle), 0, 1)

The clutch torque T_c itself (locked, slipping or open) and the clutch heat
are results of the shared driveline solve (:mod:`acres_dbw_sim.model.driveline`),
which takes T_cap as its capacity in both directions.
"""
from __future__ import annotations

from ...model._jit import njit

__all__ = ["engagement_target", "step_engagement", "clutch_capacity_nm"]


@njit
def engagement_target(u: float, brake: float, shifting: bool, command_min: float, brake_max: float) -> float:
    """epsilon_target [-]: 1 when u > 0.01, b_k < 0.1 and no gear change is in progress, else 0.

    Parameters
    ----------
    u : float
        Engine command (pedal or hand throttle) [-].
    brake : float
        Brake command b_k [-] (1 with the park brake).
    shifting : bool
        A gear change is in progress (:func:`~.transmission.advance_shift`).
    command_min, brake_max : float
        0.01 and 0.1 (``constants.clutch_command_min``, ``constants.clutch_brake_max``).
    """
    return 1.0 if (u > command_min and brake < brake_max and not shifting) else 0.0


@njit
def step_engagement(engagement: float, target: float, dt_s: float, engagement_time_s: float) -> float:
    """epsilon after one step [-]: towards ``target`` by at most dt / t_c."""
    step = dt_s / engagement_time_s
    d = target - engagement
    d = -step if d < -step else step if d > step else d
    return engagement + d


@njit
def clutch_capacity_nm(capacity_nm: float, engagement: float, omega_free_rad_s: float, omega_idle_rad_s: float,
                       stall_low_fraction: float) -> float:
    """T_cap = T_cl epsilon clamp((omega_free - 0.6 omega_idle) / (0.4 omega_idle), 0, 1) [N m].

    Parameters
    ----------
    capacity_nm : float
        T_cl [N m].
    engagement : float
        epsilon [-].
    omega_free_rad_s : float
        Engine speed with the clutch open, end of the step [rad/s].
    omega_idle_rad_s : float
    stall_low_fraction : float
        0.6: the capacity is zero at this fraction of the idle speed.
    """
    lo = stall_low_fraction * omega_idle_rad_s
    span = omega_idle_rad_s - lo
    f = (omega_free_rad_s - lo) / span if span > 0.0 else (1.0 if omega_free_rad_s >= lo else 0.0)
    f = 0.0 if f < 0.0 else 1.0 if f > 1.0 else f
    return capacity_nm * engagement * f
