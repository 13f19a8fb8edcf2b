"""``geometry_msgs/Twist`` on ``cmd_vel`` onto the ULC and a yaw-rate steering command.

What Dataspeed's DBW1 ULC node does with ``cmd_vel`` (dbw-interface.md §3.4):
``linear.x`` [m/s] becomes a speed-mode ULC command and ``angular.z``
[rad/s] a yaw-rate steering command, with pedals, steering and shifting
enabled, ``shift_from_park`` false and every limit at the firmware default.
Here the same request goes to the DBW2 core: a ``UlcCmd`` CMD_VELOCITY with
``enable_shift`` (and ``enable_shift_park`` when the node parameter
``cmd_vel_shift_park`` is true) and a ``SteeringCmd`` CMD_YAW_RATE, both with
``enable`` set. DBW must be engaged as for any client (``/vehicle/enable``).

Frames: ``linear.x`` along the body x axis (forward positive, negative =
reverse), ``angular.z`` about the body z axis (positive = turning left,
REP-103).

Yaw-rate feedback. The core converts a yaw rate into a steering angle open
loop through the bicycle kinematics, as Dataspeed's public yaw controller does
(``acres_dbw_sim.dbw.steering``). In 2WD and AWD the Ranger's locked rear axle
scrubs and the vehicle turns about 11-14 % less than commanded (measured on the
model: 0.178 rad/s for 0.2 rad/s at 1 m/s in AWD, a 5.6 m circle instead of
5 m). A Twist follower such as Nav2's closes that loop on the measured yaw
rate; this adapter does the same, so that the twist a stack sends is the twist
it gets::

    r_cmd = r_ref + k_p (r_ref - r_meas) + I,   dI/dt = k_i (r_ref - r_meas)

with ``r_meas`` the IMU's yaw rate (``imu/data_raw``, body z). The integral
settles the understeer; it runs only while the steering actuator is enabled,
not at its limit, and the vehicle moves faster than :data:`MIN_FEEDBACK_SPEED_MPS`
(below it the kinematic conversion alone is used, so a stopped vehicle is not
steered by a stored correction); it is clamped to
``0.5 |r_ref| + 0.05`` rad/s. Gains :data:`KP`, :data:`KI` were chosen on
the model: 1 m/s and 0.2 rad/s for 20 s in AWD on asphalt from a standing
start in H give a circle of radius 4.97 m fitted over the whole run (5.01 m
from 5 s on; 0.1999 rad/s), against 5.57 m open loop (test_cmd_vel_adapter.py).

Timeout (``msg_adapters.setpoint_stream``, shared with the Ackermann interface).
Each ``Twist`` refreshes the command. When none has arrived for ``timeout_s``
the adapter commands 0 m/s and 0 rad/s: the ULC brakes the vehicle to a stop
and holds it there (with ``cmd_vel_shift_park`` it also shifts to PARK after
its park delay). The stop is held until a new ``Twist`` arrives or
:meth:`CmdVelAdapter.reset` is called (another interface takes over, see
``msg_adapters.arbiter``). A non-finite ``Twist`` is ignored, as the DBW1 ULC
node suppresses a command with a NaN.
"""

from __future__ import annotations

import math
from typing import Any

from acres_dbw_sim.dbw.commands import SteeringCmd

from .setpoint_stream import IDLE, STOPPING, TRACKING, SetpointStream

__all__ = ["CmdVelAdapter", "KP", "KI", "MIN_FEEDBACK_SPEED_MPS", "IDLE", "TRACKING", "STOPPING"]

#: Proportional gain of the yaw-rate feedback [-].
KP = 0.5
#: Integral gain of the yaw-rate feedback [1/s].
KI = 1.0
#: Speed below which the feedback is off [m/s].
MIN_FEEDBACK_SPEED_MPS = 0.3
#: Longest step the integral takes in one call [s] (a stalled caller does not kick it).
_MAX_DT_S = 0.1

class CmdVelAdapter(SetpointStream):
    """Twist commands -> core ``UlcCmd`` + ``SteeringCmd``, re-sent on every call.

    Parameters
    ----------
    timeout_s : float
        Age of the last ``Twist`` after which the vehicle is stopped [s], > 0.
    shift_park : bool
        Set ``enable_shift_park`` (leave PARK to drive, park after a stop).
    kp, ki : float
        Yaw-rate feedback gains [-], [1/s]; 0 and 0 give the open-loop
        conversion of the core.

    Raises
    ------
    ValueError
        If ``timeout_s`` is not a positive finite number or a gain is negative.

    Attributes
    ----------
    state : str
        ``IDLE`` (nothing to send), ``TRACKING`` (a fresh Twist) or ``STOPPING``.
    v_ref_mps, r_ref_rad_s : float
        The speed [m/s] and yaw rate [rad/s] in force.
    last_twist_s : float
        Simulation time of the last Twist taken [s] (-inf before the first).
    integral_rad_s : float
        The feedback's integral term [rad/s].
    """

    REPORTS_READ = ("vehicle_velocity", "steering_report", "imu")

    def __init__(self, timeout_s: float = 0.5, shift_park: bool = False, kp: float = KP,
                 ki: float = KI) -> None:
        if not (kp >= 0.0 and ki >= 0.0):
            raise ValueError(f"kp={kp!r}, ki={ki!r}: gains must be >= 0")
        self.kp = kp
        self.ki = ki
        self._steer = SteeringCmd(cmd_type=SteeringCmd.CMD_YAW_RATE, enable=True)
        super().__init__(timeout_s, shift_park)

    def reset(self) -> None:
        """Forget the command and the integral: send nothing until the next Twist."""
        super().reset()
        self.r_ref_rad_s = 0.0
        self.integral_rad_s = 0.0
        self._t_prev = math.nan

    @property
    def last_twist_s(self) -> float:
        """Simulation time of the last Twist taken [s] (-inf before the first)."""
        return self.last_message_s

    def on_twist(self, linear_x: float, angular_z: float, t_s: float) -> bool:
        """Take one Twist: ``linear_x`` [m/s], ``angular_z`` [rad/s], received at ``t_s`` [s].

        Returns
        -------
        bool
            False if a value is not finite (the message is ignored).
        """
        if not (math.isfinite(linear_x) and math.isfinite(angular_z)):
            self.ignored += 1
            return False
        self.take(linear_x, t_s)
        self.r_ref_rad_s = float(angular_z)
        return True

    def commands(self, t_s: float, reports: Any) -> tuple:
        """The commands to submit at ``t_s`` [s]; ``()`` when idle.

        Parameters
        ----------
        t_s : float
            Simulation time [s].
        reports : acres_dbw_sim.dbw.state.DbwReports
            The latest reports (``imu``, ``vehicle_velocity``, ``steering_report``).

        Returns
        -------
        tuple
            ``(UlcCmd, SteeringCmd)`` (the same two objects every call,
            overwritten) or ``()``.
        """
        if self.state == IDLE:
            return ()
        if self.timed_out(t_s):
            self.r_ref_rad_s = self.integral_rad_s = 0.0
        dt = t_s - self._t_prev if self._t_prev == self._t_prev else 0.0
        self._t_prev = t_s
        dt = min(max(dt, 0.0), _MAX_DT_S)
        r_ref = self.r_ref_rad_s
        v_meas = reports.vehicle_velocity.vehicle_velocity_brake
        sr = reports.steering_report
        r_cmd = r_ref
        if abs(v_meas) >= MIN_FEEDBACK_SPEED_MPS and self.state == TRACKING:
            err = r_ref - reports.imu.angular_velocity_z
            if sr.enabled and not sr.limiting_value:
                lim = 0.5 * abs(r_ref) + 0.05
                self.integral_rad_s = min(lim, max(-lim, self.integral_rad_s + self.ki * err * dt))
            r_cmd = r_ref + self.kp * err + self.integral_rad_s
        self._steer.cmd = r_cmd
        return self.ulc_command(), self._steer
