"""Steering column with power assist and the front tyres' aligning moment.

Used for ``CMD_TORQUE`` and for the free wheel under the driver's torque
(steering.py). The column is massless with viscous damping; at the steering
wheel (angles in deg, positive to the left, torques in N m):

    c_col * d(theta)/dt = (1 + K_a) * tau  -  (t_p + t_m) * (F_y,fl + F_y,fr) / i_s

* ``tau``: the torque put on the column (the servo's ``CMD_TORQUE``, or the
  driver's hands), amplified by the power-steering assist ``K_a``
  (``dbw.steering.assist_gain``, an estimate: the Ranger EPS is not documented);
* the front tyres' aligning moment about the kingpins: the lateral force acts
  a small distance behind the contact centre, the pneumatic trail ``t_p``
  (vehicle-dynamics-for-racing-games.txt, aligning moment; the hard-surface
  tyre of polaris-ranger-dynamics.md has no aligning torque of its own, so it
  is added here, on the column only), plus the caster's mechanical trail
  ``t_m``; reflected to the wheel through the steering ratio ``i_s``;
* ``F_y,fl + F_y,fr``: the front tyres' lateral forces of the model (wheel
  frame, positive to the left), which carry the effect of speed and load:
  for a kinematic path ``F_y,f ~ m_f v^2 delta / L``, so a constant torque
  settles where ``delta ~ (1 + K_a) tau i_s L / ((t_p + t_m) m_f v^2)``:
  smaller at higher speed and with more load on the front axle.

At stand-still the tyres make no lateral force and nothing centres the
wheel (the static scrub torque of the contact patches is not modelled): a
torque then turns the wheel until the lock, as before. Reversing, the caster
de-stabilises the wheel instead of centring it; that is not modelled either:
the aligning moment is used only while the measured speed is positive
(steering.py), and in reverse the column is the damped one.

The step is an explicit Euler step of the first-order equation; the aligning
moment is that of the model's previous step (the DBW runs before the model,
polaris-ranger-dynamics.md, Physics Step).
"""

from __future__ import annotations

from ..model._jit import njit
from .params import DbwParameters
from .record import Field

__all__ = ["STATE", "column_init", "column_aligning_torque_nm", "column_step"]

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the column's constants (``col_*``).
STATE = (
    Field("col_gain", "-", "1 + K_a: the power assist's amplification of the column torque"),
    Field("col_trail_per_ratio", "m", "(t_p + t_m) / i_s: aligning moment at the wheel per front lateral force"),
    Field("col_dt_per_c", "deg/(N m)", "dt / c_col: angle change per step and net column torque"),
)


def column_init(s, p: DbwParameters, dt_s: float) -> None:
    """Store the column's constants of ``p`` and the physics step ``dt_s`` [s] in the record ``s`` (Python,
    at construction)."""
    s.col_gain = 1.0 + p.steering_assist_gain
    s.col_trail_per_ratio = (p.steering_pneumatic_trail_m + p.steering_mechanical_trail_m) / p.steering_ratio
    s.col_dt_per_c = dt_s / p.steering_column_damping_nm_s_deg


@njit
def column_aligning_torque_nm(S, fy_front_n: float) -> float:
    """Aligning moment of the front tyres at the steering wheel [N m]: ``(t_p + t_m) F_y,f / i_s``, positive
    when it turns the wheel to the right; ``fy_front_n`` [N] is the front tyres' lateral force, wheel frame,
    left positive (module docstring)."""
    s = S[0]
    return s.col_trail_per_ratio * fy_front_n


@njit
def column_step(S, angle_deg: float, tau_nm: float, fy_front_n: float) -> float:
    """Raw steering-wheel angle [deg] after one explicit Euler step of the column (module docstring), not
    clamped to the lock: ``angle_deg`` the present raw angle [deg], ``tau_nm`` the column torque before the
    assist [N m] (left positive), ``fy_front_n`` the front tyres' lateral force [N] (wheel frame, left
    positive)."""
    s = S[0]
    return angle_deg + (s.col_gain * tau_nm - s.col_trail_per_ratio * fy_front_n) * s.col_dt_per_c
