"""``ackermann_msgs/AckermannDriveStamped`` on ``ackermann_cmd`` onto the ULC and a curvature steering command.

The message (ackermann_msgs 2.0.2, ``AckermannDrive``) asks for a speed, acceleration and jerk at
the vehicle's centre of rotation (the middle of the rear axle) and the steering angle of one
virtual front wheel at the middle of the front axle (the bicycle model), positive to the left.
It reaches the vehicle through the DBW, as a car-like stack on a real DBW vehicle would send it:

- ``speed`` [m/s] -> a ``UlcCmd`` ``CMD_VELOCITY`` (negative: reverse; ``enable_shift``, and
  ``enable_shift_park`` with ``ackermann_shift_park``; ``msg_adapters.setpoint_stream``). The
  ULC follows the body's longitudinal speed, which is the same at every point of the
  centreline, the rear axle's included.
- ``acceleration`` [m/s^2] -> ``limit_accel`` and ``limit_decel`` (the message's limit is on the
  magnitude, speeding up and slowing down alike); ``jerk`` [m/s^3] -> ``limit_jerk_throttle``
  and ``limit_jerk_brake``. Zero means "as fast as the vehicle allows": +inf, which the DBW
  takes as its largest limit (dbw-interface.md §4.12: 3.0 / 6.0 m/s^2, 25 m/s^3). A positive
  value goes as it is (the DBW clamps it into its range). The message defines only zero and
  positive values; a negative one is taken by its magnitude.
- ``steering_angle`` [rad] -> a ``SteeringCmd`` ``CMD_CURVATURE`` of ``tan(delta) / L``
  (L the wheelbase), which the DBW turns back into the same bicycle angle and a steering-wheel
  angle by the steering ratio (``dbw.steering``): the road-wheel angle asked is the one driven,
  within the rack's lock and the DBW's speed-dependent limit.
- ``steering_angle_velocity`` [rad/s] -> ``cmd_rate`` = the steering wheel's rate, the road-wheel
  rate times the steering ratio [deg/s]; zero -> +inf (the servo's fastest rate).

Timeout and shift rules are those of ``cmd_vel``: when no message has arrived for
``timeout_s`` the ULC stops the vehicle at the DBW's default limits (as ``cmd_vel``'s stop) and
holds it; the steering angle in force is kept, so the vehicle stops on the path it was following.
A message with a non-finite field is ignored.
"""

from __future__ import annotations

import math
from typing import Any

from acres_dbw_sim.dbw.commands import SteeringCmd

from .setpoint_stream import IDLE, STOPPING, TRACKING, SetpointStream

__all__ = ["AckermannAdapter", "IDLE", "TRACKING", "STOPPING"]


def _limit(x: float) -> float:
    """A message limit as the DBW field carries it: zero -> +inf (the DBW's largest), else its magnitude."""
    return math.inf if x == 0.0 else abs(x)


class AckermannAdapter(SetpointStream):
    """AckermannDrive commands -> core ``UlcCmd`` + ``SteeringCmd`` (module docstring), re-sent on every call.

    Parameters
    ----------
    wheelbase_m : float
        The vehicle's wheelbase L [m] (the DBW's ``geometry_wheelbase_m``), > 0.
    steering_ratio : float
        Steering-wheel angle per road-wheel angle [-] (the DBW's ``steering_ratio``), > 0.
    timeout_s : float
        Age of the last message after which the vehicle is stopped [s], > 0.
    shift_park : bool
        Set ``enable_shift_park`` (leave PARK to drive, park after a stop).

    Raises
    ------
    ValueError
        If a number is not positive and finite.

    Attributes
    ----------
    state : str
        ``IDLE`` (nothing to send), ``TRACKING`` (a fresh message) or ``STOPPING``.
    v_ref_mps : float
        The speed in force [m/s].
    steering_angle_rad : float
        The bicycle steering angle in force [rad].
    """

    def __init__(self, wheelbase_m: float, steering_ratio: float, timeout_s: float = 0.5,
                 shift_park: bool = False) -> None:
        for name, x in (("wheelbase_m", wheelbase_m), ("steering_ratio", steering_ratio)):
            if not (isinstance(x, (int, float)) and math.isfinite(x) and x > 0.0):
                raise ValueError(f"{name}={x!r}: must be a positive number")
        self.wheelbase_m = float(wheelbase_m)
        self.steering_ratio = float(steering_ratio)
        self._steer = SteeringCmd(cmd_type=SteeringCmd.CMD_CURVATURE, enable=True)
        super().__init__(timeout_s, shift_park)

    def reset(self) -> None:
        """Forget the command: send nothing until the next message."""
        super().reset()
        self.steering_angle_rad = 0.0

    def on_drive(self, drive: Any, t_s: float) -> bool:
        """Take one ``AckermannDrive`` (``steering_angle``, ``steering_angle_velocity``, ``speed``,
        ``acceleration``, ``jerk``) received at ``t_s`` [s].

        Returns
        -------
        bool
            False if a field is not finite (the message is ignored).
        """
        values = (drive.steering_angle, drive.steering_angle_velocity, drive.speed, drive.acceleration, drive.jerk)
        if not all(math.isfinite(x) for x in values):
            return False
        delta, delta_rate, speed, accel, jerk = (float(x) for x in values)
        self.take(speed, t_s)
        self.steering_angle_rad = delta
        ulc = self._ulc
        ulc.limit_accel = ulc.limit_decel = _limit(accel)
        ulc.limit_jerk_throttle = ulc.limit_jerk_brake = _limit(jerk)
        steer = self._steer
        steer.cmd = math.tan(delta) / self.wheelbase_m if abs(delta) < 0.5 * math.pi else math.copysign(
            math.inf, delta)
        steer.cmd_rate = _limit(math.degrees(delta_rate) * self.steering_ratio)
        return True

    def commands(self, t_s: float, reports: Any = None) -> tuple:
        """The commands to submit at ``t_s`` [s]; ``()`` when idle.

        Parameters
        ----------
        t_s : float
            Simulation time [s].
        reports : object, optional
            Unused (the interface is open loop: the DBW closes the loops); accepted so that the
            node treats every re-sending interface alike.

        Returns
        -------
        tuple
            ``(UlcCmd, SteeringCmd)`` (the same two objects every call, overwritten) or ``()``.
        """
        if self.state == IDLE:
            return ()
        if self.timed_out(t_s):   # the stop at the DBW's default limits, as cmd_vel's
            ulc = self._ulc
            ulc.limit_accel = ulc.limit_decel = ulc.limit_jerk_throttle = ulc.limit_jerk_brake = 0.0
        return self.ulc_command(), self._steer
