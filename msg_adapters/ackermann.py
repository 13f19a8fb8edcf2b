"""``ackermann_msgs/AckermannDriveStamped`` on ``ackermann_cmd`` onto the ULC and a steering angle command.

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
  value goes as it is; the DBW clamps it into its range (0.3 to 3.0 / 6.0 m/s^2, 1 to 25
  m/s^3). The message defines only zero and positive values; a negative one is taken by its
  magnitude.
- ``steering_angle`` [rad] -> a ``SteeringCmd`` ``CMD_ANGLE`` of the steering-wheel angle that puts
  the bicycle tyre at that angle (:class:`TyreAngleSteering`: the straight-ahead position plus the
  angle times the steering ratio, against the DBW's calibration offset): the road-wheel angle asked
  is the one driven, up to the rack's lock (and the DBW's speed-dependent limit when configured).
- ``steering_angle_velocity`` [rad/s] -> ``cmd_rate`` = the steering wheel's rate, the road-wheel
  rate times the steering ratio [deg/s]; zero -> +inf (the servo's fastest rate). The DBW takes
  no rate below its floor of 100 deg/s of steering wheel.

Timeout and shift rules are those of ``cmd_vel``: when no message has arrived for
``timeout_s`` the ULC stops the vehicle at the DBW's default limits (as ``cmd_vel``'s stop) and
holds it; the steering angle in force is kept, so the vehicle stops on the path it was following.
A message with a non-finite field is ignored (``ignored`` counts them; the node warns). A speed
asked in PARK with ``shift_park`` off cannot move the vehicle: the node warns
(:meth:`~msg_adapters.setpoint_stream.SetpointStream.park_warning`).
"""

from __future__ import annotations

import math
from typing import Any

from acres_dbw_sim.dbw.commands import SteeringCmd
from acres_dbw_sim.model.steering import bicycle_angle_rad, steering_wheel_for_bicycle_deg

from .setpoint_stream import IDLE, STOPPING, TRACKING, SetpointStream

__all__ = ["AckermannAdapter", "TyreAngleSteering", "IDLE", "TRACKING", "STOPPING"]


class TyreAngleSteering:
    """A bicycle (virtual front) tyre angle -> the DBW's ``SteeringCmd`` CMD_ANGLE, and back from its reports.

    The DBW steers to a steering-wheel angle; the straight-ahead position of the Ranger's wheel is
    ``steering_center_deg`` (raw), and a steering calibration adds an offset to what the DBW reports
    and takes. So the command for the tyre angle delta is ``center + delta * ratio * 180/pi + offset``
    [deg] (the steering geometry's ``steering_wheel_for_bicycle_deg``, reference "Steering", the inverse
    of ``bicycle_angle_rad``, by which the report is read back), and the whole lock is in reach. A rate
    [rad/s of tyre] becomes ``cmd_rate`` [deg/s of steering wheel].

    Parameters
    ----------
    steering_ratio : float
        Steering-wheel angle per road-wheel angle [-] (the DBW's ``steering_ratio``), > 0.
    center_deg : float
        Raw steering-wheel angle of straight ahead [deg] (the DBW's ``steering_center_deg``), finite.

    Raises
    ------
    ValueError
        If a number is out of its range.
    """

    def __init__(self, steering_ratio: float, center_deg: float) -> None:
        if not (isinstance(steering_ratio, (int, float)) and math.isfinite(steering_ratio) and steering_ratio > 0.0):
            raise ValueError(f"steering_ratio={steering_ratio!r}: must be a positive number")
        if not (isinstance(center_deg, (int, float)) and math.isfinite(center_deg)):
            raise ValueError(f"center_deg={center_deg!r}: must be a finite number")
        self.ratio = float(steering_ratio)
        self.center_deg = float(center_deg)
        self.delta_rad = 0.0
        self.cmd = SteeringCmd(cmd_type=SteeringCmd.CMD_ANGLE, enable=True)

    def set(self, delta_rad: float, rate_cmd_deg_s: float) -> None:
        """Take the tyre angle [rad] and the ``cmd_rate`` to send [deg/s of steering wheel, 0: the DBW's
        default, +inf: its fastest]."""
        self.delta_rad = delta_rad
        self.cmd.cmd_rate = rate_cmd_deg_s

    def rate_deg_s(self, tyre_rate_rad_s: float) -> float:
        """``cmd_rate`` [deg/s of steering wheel] for a tyre rate [rad/s] (its magnitude)."""
        return steering_wheel_for_bicycle_deg(abs(tyre_rate_rad_s), self.ratio, 0.0)

    def command(self, reports: Any) -> SteeringCmd:
        """The ``SteeringCmd`` (the same object every call, overwritten), against the calibration offset of
        ``reports.steering_offset`` [deg]."""
        offset = reports.steering_offset.steering_wheel_angle_offset if reports is not None else 0.0
        delta = max(-0.5 * math.pi, min(0.5 * math.pi, self.delta_rad))
        self.cmd.cmd = steering_wheel_for_bicycle_deg(delta, self.ratio, self.center_deg) + offset
        return self.cmd

    def angle_of(self, reports: Any) -> float:
        """The tyre angle [rad] the DBW reports (``steering_offset.steering_wheel_angle_raw``)."""
        return bicycle_angle_rad(reports.steering_offset.steering_wheel_angle_raw, self.ratio, self.center_deg)


def _limit(x: float) -> float:
    """A message limit as the DBW field carries it: zero -> +inf (the DBW's largest), else its magnitude."""
    return math.inf if x == 0.0 else abs(x)


class AckermannAdapter(SetpointStream):
    """AckermannDrive commands -> core ``UlcCmd`` + ``SteeringCmd`` (module docstring), re-sent on every call.

    Parameters
    ----------
    steering_ratio : float
        Steering-wheel angle per road-wheel angle [-] (the DBW's ``steering_ratio``), > 0.
    center_deg : float
        Raw steering-wheel angle of straight ahead [deg] (the DBW's ``steering_center_deg``).
    timeout_s : float
        Age of the last message after which the vehicle is stopped [s], > 0.
    shift_park : bool
        Set ``enable_shift_park`` (leave PARK to drive, park after a stop).

    Raises
    ------
    ValueError
        If a number is out of its range.

    Attributes
    ----------
    state : str
        ``IDLE`` (nothing to send), ``TRACKING`` (a fresh message) or ``STOPPING``.
    v_ref_mps : float
        The speed in force [m/s].
    steering : TyreAngleSteering
        The tyre angle in force and its steering command.
    """

    REPORTS_READ = ("steering_offset",)

    def __init__(self, steering_ratio: float, center_deg: float, timeout_s: float = 0.5,
                 shift_park: bool = False) -> None:
        self.steering = TyreAngleSteering(steering_ratio, center_deg)
        super().__init__(timeout_s, shift_park)

    @property
    def steering_angle_rad(self) -> float:
        """The bicycle steering angle in force [rad]."""
        return self.steering.delta_rad

    def on_drive(self, drive: Any, t_s: float) -> bool:
        """Take one ``AckermannDrive`` (``steering_angle``, ``steering_angle_velocity``, ``speed``,
        ``acceleration``, ``jerk``) received at ``t_s`` [s].

        Returns
        -------
        bool
            False if a field is not finite (the message is ignored; ``ignored`` counts it).
        """
        values = (drive.steering_angle, drive.steering_angle_velocity, drive.speed, drive.acceleration, drive.jerk)
        if not all(math.isfinite(x) for x in values):
            self.ignored += 1
            return False
        delta, delta_rate, speed, accel, jerk = (float(x) for x in values)
        self.take(speed, t_s)
        ulc = self._ulc
        ulc.limit_accel = ulc.limit_decel = _limit(accel)
        ulc.limit_jerk_throttle = ulc.limit_jerk_brake = _limit(jerk)
        self.steering.set(delta, _limit(self.steering.rate_deg_s(delta_rate)))
        return True

    def commands(self, t_s: float, reports: Any = None) -> tuple:
        """The commands to submit at ``t_s`` [s]; ``()`` when idle.

        Parameters
        ----------
        t_s : float
            Simulation time [s].
        reports : acres_dbw_sim.dbw.state.DbwReports, optional
            The latest reports: the steering calibration offset (``steering_offset``); None: no offset.

        Returns
        -------
        tuple
            ``(UlcCmd, SteeringCmd)`` (the same two objects every call, overwritten) or ``()``.
        """
        if self.state == IDLE:
            return ()
        self.timed_out(t_s)   # the stop at the DBW's default limits, as cmd_vel's
        return self.ulc_command(), self.steering.command(reports)
