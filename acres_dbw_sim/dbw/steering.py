"""Steering actuator: command decoding, reference shaping, servo, calibration.

Angles are steering-wheel angles in degrees, positive to the left (REP-103,
polaris-ranger-dynamics.md Conventions). Two frames exist:

* **raw**: the angle the model uses (``theta_sw``), straight ahead at
  ``steering.center_deg`` (the fitted centre, 12.53 deg);
* **reported**: ``raw + offset``, the angle in ``SteeringReport`` and in
  ``CMD_ANGLE``/``CMD_PERCENT`` commands. At power-on the offset is 0 (the
  reference's kit: straight ahead reads the fitted centre, gaps.md), or, with
  ``dbw.steering.calibrated`` = 1, ``-center`` in 0.1 deg steps (a kit
  calibrated to straight ahead). ``CMD_CALIBRATE`` x sets
  ``offset = x - raw`` and ``CMD_SET_OFFSET`` x sets ``offset = x``
  (dbw-interface.md §4.6); the deprecated ``steering/calibrate`` is
  ``CMD_CALIBRATE`` 0.

Limits (§2.9, §4.6; SteeringReport ``limit_rate``/``limit_value``): the rate
limit applied is the command's ``cmd_rate`` (default when 0), but at most the
servo's ``dbw.steering.max_rate_deg_s`` (also for an unlimited ``cmd_rate``);
the angle limit is the lock, and, with ``dbw.steering.lat_accel_limit_mps2``
> 0, the speed-dependent angle at which the kinematic lateral acceleration
``v^2 tan(delta) / L`` reaches that value (about straight ahead). The set-point
is clipped to the angle limit every step (``limiting_value``).

Chain when enabled with an angle-like type (gaps.md): target -> rate limit
(``cmd_rate``, default 500 deg/s) and acceleration limit (``cmd_accel``,
default 2500 deg/s^2) -> dead time 0.04 s -> first-order lag 0.06 s -> clamp
to the lock +/-487 deg. Curvature and yaw rate map to the raw angle through
the bicycle kinematics: ``delta = atan(L kappa)``, ``kappa = r / v``,
``theta = center + i_s delta`` (Steering section of the Polaris page,
inverted), with the firmware assumed calibrated to the true centre. ``v`` is
the measured speed, but at least ``dbw.steering.min_yaw_speed_mps`` in
magnitude (a yaw rate at stand-still would ask for an infinite curvature).

The conversion is open loop, with no understeer term and no yaw-rate
feedback. This is a decision: the DBW2 firmware's method is not public
(dbw-interface.md §4.6, §7). It follows the only Dataspeed code that does this
conversion in public, the DBW1 twist controller (``dbw_mkz_twist_controller``
``YawControl::getSteeringWheelAngle``: ``i_s atan(L r / v)`` at the measured
speed above 0.5 m/s), the issue's wording ("converted through the bicycle
kinematics at the current speed") and the report, which shows the converted
command as an angle set-point (§4.6). A stack tuned here then meets the same
behaviour on the real vehicle: the yaw rate is the kinematic one where the
vehicle follows kinematics, and a closed loop around it belongs to the stack.
Measured on the model (test_simulation_vehicle.py): in Turf (open rear
differential) a curvature of 0.05 1/m at 5 m/s gives 0.247 rad/s and a yaw
rate of 0.3 rad/s at 4 m/s gives 0.297 rad/s (-1.1 %); in 2WD and AWD the
locked rear axle scrubs and the vehicle understeers, 0.215 and 0.259 rad/s
(-14 %). A stack that needs the yaw rate exactly must close that loop itself,
as it would on the vehicle.

``CMD_TORQUE`` and the driver's torque act on the steering column of
steering_column.py: power assist and the front tyres' aligning moment, so a
constant torque settles at an angle that falls with speed. When the actuator
is not enabled the wheel is free: it moves with the driver's torque and the
aligning moment (hands on the wheel with no torque: it returns towards
straight ahead while the vehicle moves), or follows the driver's hands
(``DriverInput.steering_wheel_deg``).
"""

from __future__ import annotations

import math

from .actuators import DeadTime, FirstOrderLag, clamp, quantize, rate_accel_limit
from .commands import SteeringCmd
from .decode import as_flag, as_enum, as_float, decode_rate
from .params import DbwParameters
from .status import STEERING, ActuatorStatus
from .steering_column import SteeringColumn

__all__ = ["SteeringActuator"]

_TYPES = frozenset({0, 1, 2, 3, 4, 13, 14, 15})
_ANGLE_LIKE = frozenset({2, 3, 4, 14})


class SteeringActuator:
    """Steering module of the DBW (dbw-interface.md §2.2, §4.5, §4.6; gaps.md).

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.steering.*``, ``steering.ratio``, ``steering.center_deg``,
        ``geometry.wheelbase_m``).
    dt_s : float
        Physics step [s].
    angle_deg : float
        Initial raw steering-wheel angle [deg].

    Attributes
    ----------
    status : ActuatorStatus
        Firmware flags.
    angle_deg : float
        Actual raw steering-wheel angle [deg] (the model input).
    offset_deg : float
        Calibration offset [deg]; reported = raw + offset.
    cmd_type : int
        Command type in force (after decoding).
    """

    def __init__(self, p: DbwParameters, dt_s: float, s, angle_deg: float = 0.0) -> None:
        self.p = p
        self.dt_s = dt_s
        self.status = ActuatorStatus(p.command_timeout_s, s, STEERING)
        self._dead = DeadTime(p.steering_dead_time_s, dt_s, angle_deg)
        self._lag = FirstOrderLag(p.steering_lag_s, dt_s, angle_deg)
        self._lock = p.steering_lock_deg
        self._k_deg = p.steering_ratio * 180.0 / math.pi
        self._max_kappa = math.tan(math.radians(self._lock / p.steering_ratio)) / p.geometry_wheelbase_m
        self._max_rate = p.steering_max_rate_deg_s
        self._a_lat = p.steering_lat_accel_limit_mps2
        self._center = p.steering_center_deg
        #: power-on offset [deg]: 0 (reference kit) or -center (kit calibrated to straight ahead)
        self.offset0_deg = -quantize(p.steering_center_deg, 0.1) if p.steering_calibrated else 0.0
        self.column = SteeringColumn(p, dt_s)
        self.invalid_count = 0
        #: the reason of the last refused calibration, until the DBW logs it (None: nothing to say)
        self.refused: str | None = None
        self.reset(angle_deg)

    def reset(self, angle_deg: float = 0.0) -> None:
        """Power-on state at the raw angle ``angle_deg`` [deg]; the power-on offset."""
        a = clamp(float(angle_deg), -self._lock, self._lock)
        self.status.reset()
        self.angle_deg = a
        self.ref_deg = a
        self.ref_rate = 0.0
        self._dead.reset(a)
        self._lag.y = a
        self.offset_deg = self.offset0_deg
        self.cmd_type = 0
        self.cmd_value = math.nan
        self.rate_limit = min(self.p.steering_cmd_rate_default_deg_s, self._max_rate)
        self.angle_limit_deg = self._lock
        self._cmd_limiting = False
        self.accel_limit = self.p.steering_cmd_accel_default_deg_s2
        self.target_raw = a
        self.torque_cmd_nm = 0.0
        self.limiting_value = False
        self.limiting_rate = False
        self.driver_torque_nm = 0.0

    # ------------------------------------------------------------------ commands
    def command(self, t_s: float, msg: SteeringCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``SteeringCmd`` (validation at the boundary, see decode.py).

        Parameters
        ----------
        t_s : float
            Arrival time [s].
        msg : SteeringCmd
            The command as received (any content).
        dbw_enabled : bool
            The driver's enabled state; masks the enable bit (§4.1).
        auto_clear : bool
            The driver adds ``clear`` (request set and override latched).
        """
        typ = as_enum(getattr(msg, "cmd_type", 0), _TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        if typ != 0 and val != val:
            self.invalid_count += 1
            typ = 0
        limiting = False
        if typ in (13, 15):  # CMD_SET_OFFSET, CMD_CALIBRATE (the present wheel position is val)
            offset = quantize(clamp(val, -3276.7, 3276.7), 0.1) - (self.angle_deg if typ == 15 else 0.0)
            self._set_offset(offset, "CMD_CALIBRATE" if typ == 15 else "CMD_SET_OFFSET", val)
            typ = 0
        elif typ == 1:
            v = quantize(clamp(val, -255.99, 255.99), 1.0 / 128.0)
            m = self.p.steering_max_torque_nm
            limiting = abs(v) > m
            self.torque_cmd_nm = clamp(v, -m, m)
            self.cmd_value = self.torque_cmd_nm
        elif typ == 2:
            v = quantize(clamp(val, -3276.7, 3276.7), 0.1)
            raw = v - self.offset_deg
            limiting = abs(raw) > self._lock
            self.target_raw = clamp(raw, -self._lock, self._lock)
        elif typ == 3:
            k = quantize(clamp(val, -0.1999, 0.1999), 0.0000061)
            limiting = abs(k) > self._max_kappa
            self.cmd_value = clamp(k, -self._max_kappa, self._max_kappa)
            self.target_raw = self._raw_of_curvature(self.cmd_value)
        elif typ == 4:
            self.cmd_value = quantize(clamp(val, -8.58, 8.58), math.radians(0.015))
        elif typ == 14:
            pc = quantize(clamp(val, -327.67, 327.67), 0.01)
            limiting = abs(pc) > 100.0
            raw = clamp(pc, -100.0, 100.0) * 0.01 * self._lock - self.offset_deg
            self.target_raw = clamp(raw, -self._lock, self._lock)
        if typ in _ANGLE_LIKE:
            self.rate_limit = min(decode_rate(getattr(msg, "cmd_rate", 0.0), 4.0, 100.0,
                                              self.p.steering_cmd_rate_default_deg_s), self._max_rate)
            self.accel_limit = decode_rate(getattr(msg, "cmd_accel", 0.0), 100.0, 300.0,
                                           self.p.steering_cmd_accel_default_deg_s2)
        self.cmd_type = typ
        self.limiting_value = limiting
        self._cmd_limiting = limiting
        self.status.command(t_s, typ != 0, as_flag(getattr(msg, "enable", False)) and dbw_enabled,
                            as_flag(getattr(msg, "clear", False)) or auto_clear,
                            as_flag(getattr(msg, "ignore", False)))

    def calibrate(self, angle_deg: float = 0.0) -> None:
        """Declare the present wheel position to be ``angle_deg`` [deg] (§4.6); refused as
        :meth:`_set_offset` says."""
        self._set_offset(angle_deg - self.angle_deg, "calibrate", angle_deg)

    def _set_offset(self, offset_deg: float, what: str, value: float) -> None:
        """Store a calibration offset [deg], or refuse it: one whose magnitude exceeds the lock
        (``steering.lock_deg``) would declare a centre the wheel cannot reach, and every later angle
        command would be taken against it (a wheel driven to the opposite lock by ``CMD_ANGLE 90``).
        dbw-interface.md gives no range; the refusal and its reason are this project's decision
        (docs/dbw.md). The reason goes to ``refused`` for the DBW's log."""
        if not abs(offset_deg) <= self._lock:
            self.invalid_count += 1
            self.refused = (f"Steering {what} {value:g} deg refused: the offset {offset_deg:g} deg would put "
                            f"the centre beyond the lock (±{self._lock:g} deg); offset kept at "
                            f"{self.offset_deg:g} deg")
            return
        self.offset_deg = offset_deg

    def _raw_of_curvature(self, kappa: float) -> float:
        """Raw steering-wheel angle [deg] for a path curvature [1/m] (bicycle kinematics)."""
        delta = math.atan(self.p.geometry_wheelbase_m * kappa)
        return clamp(self.p.steering_center_deg + self._k_deg * delta, -self._lock, self._lock)

    # ------------------------------------------------------------------ dynamics
    def step(self, speed_mps: float, driver_torque_nm: float, driver_angle_deg: float,
             fy_front_n: float = 0.0) -> float:
        """Advance the servo one step; return the raw steering-wheel angle [deg].

        Parameters
        ----------
        speed_mps : float
            Signed longitudinal speed [m/s] (for CMD_YAW_RATE and the speed-dependent limit).
        driver_torque_nm : float
            Driver's column torque [Nm], finite.
        driver_angle_deg : float
            Raw angle the driver holds [deg], or NaN when hands-off.
        fy_front_n : float
            Sum of the front tyres' lateral forces [N] (wheel frame, left
            positive) of the model's last step: the aligning moment of the
            column (steering_column.py).

        Returns
        -------
        float
            Raw angle [deg], finite, within the lock.
        """
        dt = self.dt_s
        lock = self._lock
        self.driver_torque_nm = driver_torque_nm
        self.limiting_rate = False
        if self._a_lat > 0.0:  # speed-dependent angle limit about straight ahead (module docstring)
            v2 = speed_mps * speed_mps
            lim = (self._k_deg * math.atan(self._a_lat * self.p.geometry_wheelbase_m / v2)
                   if v2 > 1e-9 else lock)
            self.angle_limit_deg = lim if lim < lock else lock
        if self.status.enabled and self.cmd_type in _ANGLE_LIKE:
            limiting = self._cmd_limiting
            if self.cmd_type == 4:
                vmin = self.p.steering_min_yaw_speed_mps
                v_eff = speed_mps if abs(speed_mps) >= vmin else math.copysign(vmin, speed_mps)
                kappa = clamp(self.cmd_value / v_eff, -self._max_kappa, self._max_kappa)
                limiting = abs(self.cmd_value / v_eff) > self._max_kappa
                self.target_raw = self._raw_of_curvature(kappa)
            target = self.target_raw
            lim = self.angle_limit_deg
            if lim < lock:
                c = self._center
                t = clamp(target, c - lim, c + lim)
                limiting = limiting or t != target
                target = t
            self.limiting_value = limiting
            self.ref_deg, self.ref_rate = rate_accel_limit(
                self.ref_deg, self.ref_rate, target, self.rate_limit, self.accel_limit, dt)
            self.limiting_rate = abs(target - self.ref_deg) > 0.05
            a = self._lag.step(self._dead.step(self.ref_deg))
            self.angle_deg = clamp(a, -lock, lock)
            return self.angle_deg
        if speed_mps <= 0.0:  # reversing: the trail's centring is not modelled (steering_column.py)
            fy_front_n = 0.0
        if self.status.enabled and self.cmd_type == 1:
            tau = self.torque_cmd_nm + (driver_torque_nm if self.status.ignore else 0.0)
            a = self.column.step(self.angle_deg, tau, fy_front_n)
        elif driver_angle_deg == driver_angle_deg:
            a = driver_angle_deg
        else:
            a = self.column.step(self.angle_deg, driver_torque_nm, fy_front_n)
        a = clamp(a, -lock, lock)
        self.angle_deg = a
        # the servo follows the free wheel so that a new engagement starts from here
        self.ref_deg = a
        self.ref_rate = 0.0
        self._dead.reset(a)
        self._lag.y = a
        return a

    @property
    def reported_angle_deg(self) -> float:
        """Steering-wheel angle as reported [deg] (raw + offset)."""
        return self.angle_deg + self.offset_deg
