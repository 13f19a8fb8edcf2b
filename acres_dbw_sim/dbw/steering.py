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

from ..model._jit import njit
from ..model.filters import delay_push, lag_toward, python_form
from .actuators import DELAY_CELLS, clamp, delay_fill, delay_line_steps, lag_line_factor, quantize, rate_accel_limit

# the Python form of the compiled scalar functions for the Python side (command decoding): a call from
# Python into compiled code costs more than they do (model/filters.py, python_form)
_py_clamp, _py_quantize = python_form(clamp), python_form(quantize)
from .commands import SteeringCmd
from .decode import LastCommand, as_flag, as_enum, as_float, decode_rate
from .params import DbwParameters
from .record import Field, Slot, param_record, record_array, run
from .status import STEERING, ActuatorStatus, status_command, status_reset
from .steering_column import column_init, column_step

__all__ = ["SteeringActuator", "STATE", "steering_reset", "steering_raw_of_curvature", "steering_step"]

_TYPES = frozenset({0, 1, 2, 3, 4, 13, 14, 15})
_ANGLE_LIKE = frozenset({2, 3, 4, 14})

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the steering actuator (``str_*``);
#: its status is the record's ``st_*`` slot :data:`~acres_dbw_sim.dbw.status.STEERING`, its column ``col_*``.
STATE = (
    Field("str_dt_s", "s", "physics step"),
    Field("str_k_deg", "deg/rad", "steering ratio in deg of wheel per rad of road wheel (i_s 180 / pi)"),
    Field("str_max_kappa", "1/m", "curvature at the lock (bicycle kinematics)"),
    Field("str_angle_deg", "deg", "actual raw steering-wheel angle (the model input)"),
    Field("str_ref_deg", "deg", "servo reference after the rate and acceleration limits"),
    Field("str_ref_rate", "deg/s", "rate of the servo reference"),
    Field("str_dead_buf", "deg", "dead-time line of the reference (first str_dead_n cells)", DELAY_CELLS),
    Field("str_dead_head", "-", "index of the oldest cell of the dead-time line", 0, "int"),
    Field("str_dead_n", "-", "length of the dead-time line [steps]", 0, "int"),
    Field("str_lag_y", "deg", "output of the servo's first-order lag"),
    Field("str_lag_factor", "-", "the lag's factor exp(-dt / tau)"),
    Field("str_offset0_deg", "deg", "power-on calibration offset"),
    Field("str_offset_deg", "deg", "calibration offset; reported = raw + offset"),
    Field("str_cmd_type", "enum", "command type in force (after decoding)", 0, "int"),
    Field("str_cmd_value", "-", "decoded command value (torque N m, curvature 1/m, yaw rate rad/s; NaN: none)"),
    Field("str_rate_limit", "deg/s", "rate limit in force (inf: none)"),
    Field("str_accel_limit", "deg/s^2", "acceleration limit in force (inf: none)"),
    Field("str_angle_limit_deg", "deg", "angle limit about straight ahead (the lock, or speed-dependent)"),
    Field("str_cmd_limiting", "bool", "the last command was clipped at decoding", 0, "bool"),
    Field("str_limiting_value", "bool", "the set-point is clipped (SteeringReport limiting_value)", 0, "bool"),
    Field("str_limiting_rate", "bool", "the reference is rate limited (SteeringReport limiting_rate)", 0, "bool"),
    Field("str_target_raw", "deg", "raw angle set-point of the angle-like command"),
    Field("str_torque_cmd_nm", "N m", "CMD_TORQUE column torque"),
    Field("str_driver_torque_nm", "N m", "driver's column torque of the last step"),
    Field("str_invalid_count", "-", "commands and calibrations refused as invalid", 0, "int"),
)


@njit
def _servo_to(S, a: float) -> None:
    """Settle the servo's dead-time line and lag at the raw angle ``a`` [deg] (the head stays)."""
    s = S[0]
    delay_fill(s.str_dead_buf, s.str_dead_n, a)
    s.str_lag_y = a


@njit
def steering_reset(S, P, angle_deg: float) -> None:
    """Power-on state of the steering actuator and its status at the raw angle ``angle_deg`` [deg] (clamped
    to the lock ``p.steering_lock_deg``); the power-on offset, the default rate and acceleration limits."""
    s = S[0]
    p = P[0]
    lock = p.steering_lock_deg
    a = clamp(angle_deg, -lock, lock)
    status_reset(S, STEERING, s.st_timeout_s[STEERING])
    s.str_angle_deg = a
    s.str_ref_deg = a
    s.str_ref_rate = 0.0
    _servo_to(S, a)
    s.str_offset_deg = s.str_offset0_deg
    s.str_cmd_type = 0
    s.str_cmd_value = math.nan
    s.str_rate_limit = min(p.steering_cmd_rate_default_deg_s, p.steering_max_rate_deg_s)
    s.str_angle_limit_deg = lock
    s.str_cmd_limiting = False
    s.str_accel_limit = p.steering_cmd_accel_default_deg_s2
    s.str_target_raw = a
    s.str_torque_cmd_nm = 0.0
    s.str_limiting_value = False
    s.str_limiting_rate = False
    s.str_driver_torque_nm = 0.0


@njit
def steering_raw_of_curvature(S, P, kappa: float) -> float:
    """Raw steering-wheel angle [deg] for a path curvature ``kappa`` [1/m] (bicycle kinematics,
    ``center + i_s atan(L kappa)``, clamped to the lock; module docstring)."""
    s = S[0]
    p = P[0]
    delta = math.atan(p.geometry_wheelbase_m * kappa)
    lock = p.steering_lock_deg
    return clamp(p.steering_center_deg + s.str_k_deg * delta, -lock, lock)


@njit
def steering_store(S, t_s: float, typ: int, torque_nm: float, value: float, target_raw: float, rate: float,
                   accel: float, limiting: bool, enable: bool, clear: bool, ignore: bool) -> None:
    """Store one decoded ``SteeringCmd`` arriving at ``t_s`` [s] (:meth:`SteeringActuator.command`): its type,
    each set-point that is not NaN (the torque [N m], the value in the command's unit, the raw target [deg],
    the rate [deg/s] and acceleration [deg/s^2] limits; NaN leaves the field as it is, as a type that does not
    carry it leaves it), the limiting flag, and the firmware flags
    (:func:`~acres_dbw_sim.dbw.status.status_command`)."""
    s = S[0]
    if torque_nm == torque_nm:
        s.str_torque_cmd_nm = torque_nm
    if value == value:
        s.str_cmd_value = value
    if target_raw == target_raw:
        s.str_target_raw = target_raw
    if rate == rate:
        s.str_rate_limit = rate
    if accel == accel:
        s.str_accel_limit = accel
    s.str_cmd_type = typ
    s.str_limiting_value = limiting
    s.str_cmd_limiting = limiting
    status_command(S, STEERING, t_s, typ != 0, enable, clear, ignore)


@njit
def steering_step(S, P, speed_mps: float, driver_torque_nm: float, driver_angle_deg: float,
                  fy_front_n: float) -> float:
    """Advance the steering one physics step; return the raw steering-wheel angle [deg], within the lock.

    Enabled with an angle-like type (§4.6; gaps.md): speed-dependent angle limit, reference shaping
    (:func:`~acres_dbw_sim.dbw.actuators.rate_accel_limit`), dead time, lag, lock. Otherwise the column
    (:func:`~acres_dbw_sim.dbw.steering_column.column_step`) under ``CMD_TORQUE`` or the driver's torque, or
    the driver's hands, and the servo follows the free wheel. Reads the status flags of slot ``STEERING``
    (``st_enabled``, ``st_ignore``): update them first.

    ``speed_mps``: signed longitudinal speed [m/s]; ``driver_torque_nm``: driver's column torque [N m];
    ``driver_angle_deg``: raw angle the driver holds [deg] (NaN: hands-off); ``fy_front_n``: the front
    tyres' lateral force of the model's last step [N] (wheel frame, left positive).
    """
    s = S[0]
    p = P[0]
    dt = s.str_dt_s
    lock = p.steering_lock_deg
    s.str_driver_torque_nm = driver_torque_nm
    s.str_limiting_rate = False
    a_lat = p.steering_lat_accel_limit_mps2
    if a_lat > 0.0:  # speed-dependent angle limit about straight ahead (module docstring)
        v2 = speed_mps * speed_mps
        lim = (s.str_k_deg * math.atan(a_lat * p.geometry_wheelbase_m / v2) if v2 > 1e-9 else lock)
        s.str_angle_limit_deg = lim if lim < lock else lock
    enabled = s.st_enabled[STEERING] != 0
    typ = s.str_cmd_type
    if enabled and (typ == 2 or typ == 3 or typ == 4 or typ == 14):  # _ANGLE_LIKE
        limiting = s.str_cmd_limiting != 0
        if typ == 4:
            vmin = p.steering_min_yaw_speed_mps
            v_eff = speed_mps if abs(speed_mps) >= vmin else math.copysign(vmin, speed_mps)
            max_kappa = s.str_max_kappa
            kappa = clamp(s.str_cmd_value / v_eff, -max_kappa, max_kappa)
            limiting = abs(s.str_cmd_value / v_eff) > max_kappa
            s.str_target_raw = steering_raw_of_curvature(S, P, kappa)
        target = s.str_target_raw
        lim = s.str_angle_limit_deg
        if lim < lock:
            c = p.steering_center_deg
            t = clamp(target, c - lim, c + lim)
            limiting = limiting or t != target
            target = t
        s.str_limiting_value = limiting
        ref, rate = rate_accel_limit(s.str_ref_deg, s.str_ref_rate, target, s.str_rate_limit,
                                     s.str_accel_limit, dt)
        s.str_ref_deg = ref
        s.str_ref_rate = rate
        s.str_limiting_rate = abs(target - ref) > 0.05
        delayed, head = delay_push(s.str_dead_buf, s.str_dead_head, ref, s.str_dead_n)
        s.str_dead_head = head
        y = lag_toward(s.str_lag_y, delayed, s.str_lag_factor)
        s.str_lag_y = y
        a = clamp(y, -lock, lock)
        s.str_angle_deg = a
        return a
    if speed_mps <= 0.0:  # reversing: the trail's centring is not modelled (steering_column.py)
        fy_front_n = 0.0
    if enabled and typ == 1:
        tau = s.str_torque_cmd_nm + (driver_torque_nm if s.st_ignore[STEERING] else 0.0)
        a = column_step(S, s.str_angle_deg, tau, fy_front_n)
    elif driver_angle_deg == driver_angle_deg:
        a = driver_angle_deg
    else:
        a = column_step(S, s.str_angle_deg, driver_torque_nm, fy_front_n)
    a = clamp(a, -lock, lock)
    s.str_angle_deg = a
    # the servo follows the free wheel so that a new engagement starts from here
    s.str_ref_deg = a
    s.str_ref_rate = 0.0
    _servo_to(S, a)
    return a


class SteeringActuator:
    """Steering module of the DBW (dbw-interface.md §2.2, §4.5, §4.6; gaps.md): a view of the record's
    ``str_*`` fields (its status the ``st_*`` slot ``STEERING``, its column the ``col_*`` fields).

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.steering.*``, ``steering.ratio``, ``steering.center_deg``,
        ``geometry.wheelbase_m``).
    dt_s : float
        Physics step [s].
    s : record
        The DBW's state record (:mod:`acres_dbw_sim.dbw.record`).
    angle_deg : float
        Initial raw steering-wheel angle [deg].

    Raises
    ------
    ValueError
        For a dead time or lag that is negative or not finite, a step that is not finite and > 0, or a dead
        time longer than the record's line (``DELAY_CELLS`` steps).

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

    __slots__ = ("p", "dt_s", "_s", "_p", "status", "refused", "last_command")

    angle_deg = Slot("str_angle_deg")
    ref_deg = Slot("str_ref_deg")
    ref_rate = Slot("str_ref_rate")
    offset0_deg = Slot("str_offset0_deg")
    offset_deg = Slot("str_offset_deg")
    cmd_type = Slot("str_cmd_type", "int")
    cmd_value = Slot("str_cmd_value")
    rate_limit = Slot("str_rate_limit")
    accel_limit = Slot("str_accel_limit")
    angle_limit_deg = Slot("str_angle_limit_deg")
    _cmd_limiting = Slot("str_cmd_limiting", "bool")
    limiting_value = Slot("str_limiting_value", "bool")
    limiting_rate = Slot("str_limiting_rate", "bool")
    target_raw = Slot("str_target_raw")
    torque_cmd_nm = Slot("str_torque_cmd_nm")
    driver_torque_nm = Slot("str_driver_torque_nm")
    invalid_count = Slot("str_invalid_count", "int")
    _max_kappa = Slot("str_max_kappa")

    def __init__(self, p: DbwParameters, dt_s: float, s, angle_deg: float = 0.0) -> None:
        self.p = p
        self.dt_s = dt_s
        self._s = s
        self._p = param_record(p)
        self.status = ActuatorStatus(p.command_timeout_s, s, STEERING)
        s.str_dead_n = delay_line_steps(p.steering_dead_time_s, dt_s)
        s.str_dead_head = 0
        s.str_lag_factor = lag_line_factor(p.steering_lag_s, dt_s)
        s.str_dt_s = dt_s
        s.str_k_deg = p.steering_ratio * 180.0 / math.pi
        s.str_max_kappa = (math.tan(math.radians(p.steering_lock_deg / p.steering_ratio))
                           / p.geometry_wheelbase_m)
        #: power-on offset [deg]: 0 (reference kit) or -center (kit calibrated to straight ahead)
        s.str_offset0_deg = -_py_quantize(p.steering_center_deg, 0.1) if p.steering_calibrated else 0.0
        column_init(s, p, dt_s)
        s.str_invalid_count = 0
        #: the reason of the last refused calibration, until the DBW logs it (None: nothing to say)
        self.refused: str | None = None
        self.last_command = LastCommand(SteeringCmd)
        self.reset(angle_deg)

    def reset(self, angle_deg: float = 0.0) -> None:
        """Power-on state at the raw angle ``angle_deg`` [deg]; the power-on offset (:func:`steering_reset`)."""
        run(steering_reset, record_array(self._s), self._p, float(angle_deg))
        self.last_command.forget()   # angle set-points decode against the offset

    # ------------------------------------------------------------------ commands
    def command(self, t_s: float, msg: SteeringCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``SteeringCmd`` (validation at the boundary, see decode.py) and store it
        (:func:`steering_store`); an unchanged re-send reuses the last decoding
        (:class:`~acres_dbw_sim.dbw.decode.LastCommand`).

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
        run(steering_store, record_array(self._s),
            *self.last_command.arguments(msg, self._decode, t_s, dbw_enabled, auto_clear))

    def _decode(self, msg: SteeringCmd) -> tuple:
        """((type, torque, value, raw target, rate, acceleration, limiting), enable bit, clear bit, ignore bit)
        of ``msg`` (NaN: a set-point its type does not carry). A calibration (CMD_SET_OFFSET, CMD_CALIBRATE)
        stores its offset here and decodes as NONE; it, and an invalid set-point, may not be kept for a re-send (the
        second element: whether it may)."""
        lock = self.p.steering_lock_deg
        nan = math.nan
        typ = as_enum(getattr(msg, "cmd_type", 0), _TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        keep = True
        if typ != 0 and val != val:
            self.invalid_count += 1
            typ = 0
            keep = False
        limiting = False
        torque = value = target = rate = accel = nan
        if typ in (13, 15):  # CMD_SET_OFFSET, CMD_CALIBRATE (the present wheel position is val)
            offset = _py_quantize(_py_clamp(val, -3276.7, 3276.7), 0.1) - (self.angle_deg if typ == 15 else 0.0)
            self._set_offset(offset, "CMD_CALIBRATE" if typ == 15 else "CMD_SET_OFFSET", val)
            typ = 0
            keep = False
        elif typ == 1:
            v = _py_quantize(_py_clamp(val, -255.99, 255.99), 1.0 / 128.0)
            m = self.p.steering_max_torque_nm
            limiting = abs(v) > m
            torque = value = _py_clamp(v, -m, m)
        elif typ == 2:
            v = _py_quantize(_py_clamp(val, -3276.7, 3276.7), 0.1)
            raw = v - self.offset_deg
            limiting = abs(raw) > lock
            target = _py_clamp(raw, -lock, lock)
        elif typ == 3:
            k = _py_quantize(_py_clamp(val, -0.1999, 0.1999), 0.0000061)
            limiting = abs(k) > self._max_kappa
            value = _py_clamp(k, -self._max_kappa, self._max_kappa)
            target = self._raw_of_curvature(value)
        elif typ == 4:
            value = _py_quantize(_py_clamp(val, -8.58, 8.58), math.radians(0.015))
        elif typ == 14:
            pc = _py_quantize(_py_clamp(val, -327.67, 327.67), 0.01)
            limiting = abs(pc) > 100.0
            raw = _py_clamp(pc, -100.0, 100.0) * 0.01 * lock - self.offset_deg
            target = _py_clamp(raw, -lock, lock)
        if typ in _ANGLE_LIKE:
            rate = min(decode_rate(getattr(msg, "cmd_rate", 0.0), 4.0, 100.0, self.p.steering_cmd_rate_default_deg_s),
                       self.p.steering_max_rate_deg_s)
            accel = decode_rate(getattr(msg, "cmd_accel", 0.0), 100.0, 300.0, self.p.steering_cmd_accel_default_deg_s2)
        d = ((typ, float(torque), float(value), float(target), float(rate), float(accel), bool(limiting)),
             bool(as_flag(getattr(msg, "enable", False))), bool(as_flag(getattr(msg, "clear", False))),
             bool(as_flag(getattr(msg, "ignore", False))))
        return d, keep

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
        lock = self.p.steering_lock_deg
        if not abs(offset_deg) <= lock:
            self.invalid_count += 1
            self.refused = (f"Steering {what} {value:g} deg refused: the offset {offset_deg:g} deg would put "
                            f"the centre beyond the lock (±{lock:g} deg); offset kept at "
                            f"{self.offset_deg:g} deg")
            return
        self.offset_deg = offset_deg
        self.last_command.forget()   # angle set-points decode against the offset

    def _raw_of_curvature(self, kappa: float) -> float:
        """Raw steering-wheel angle [deg] for a path curvature [1/m] (bicycle kinematics;
        :func:`steering_raw_of_curvature`)."""
        return float(run(steering_raw_of_curvature, record_array(self._s), self._p, float(kappa)))

    # ------------------------------------------------------------------ dynamics
    @property
    def reported_angle_deg(self) -> float:
        """Steering-wheel angle as reported [deg] (raw + offset)."""
        return self.angle_deg + self.offset_deg
