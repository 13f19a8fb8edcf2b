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

from .params import DbwParameters

__all__ = ["SteeringColumn"]


class SteeringColumn:
    """Column torque balance of the steering wheel (module docstring).

    Parameters
    ----------
    p : DbwParameters
        ``steering_column_damping_nm_s_deg`` (c_col), ``steering_assist_gain``
        (K_a), ``steering_pneumatic_trail_m`` (t_p), ``steering_mechanical_trail_m``
        (t_m), ``steering_ratio`` (i_s).
    dt_s : float
        Physics step [s].
    """

    __slots__ = ("_gain", "_trail_per_ratio", "_dt_per_c")

    def __init__(self, p: DbwParameters, dt_s: float) -> None:
        self._gain = 1.0 + p.steering_assist_gain
        self._trail_per_ratio = (p.steering_pneumatic_trail_m + p.steering_mechanical_trail_m) / p.steering_ratio
        self._dt_per_c = dt_s / p.steering_column_damping_nm_s_deg

    def aligning_torque_nm(self, fy_front_n: float) -> float:
        """Aligning moment of the front tyres at the steering wheel [N m].

        Parameters
        ----------
        fy_front_n : float
            Sum of the front tyres' lateral forces [N], wheel frame, left positive.

        Returns
        -------
        float
            ``(t_p + t_m) F_y,f / i_s`` [N m], positive when it turns the wheel to the right.
        """
        return self._trail_per_ratio * fy_front_n

    def step(self, angle_deg: float, tau_nm: float, fy_front_n: float) -> float:
        """Raw steering-wheel angle [deg] after one step (not clamped to the lock).

        Parameters
        ----------
        angle_deg : float
            Present raw angle [deg].
        tau_nm : float
            Column torque before the assist [N m], left positive.
        fy_front_n : float
            Sum of the front tyres' lateral forces [N] (wheel frame, left positive).
        """
        return angle_deg + (self._gain * tau_nm - self._trail_per_ratio * fy_front_n) * self._dt_per_c
