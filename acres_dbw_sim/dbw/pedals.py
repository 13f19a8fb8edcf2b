"""Brake and throttle actuators: command decoding, rate limits, dead time, lag.

Brake (gaps.md; dbw-interface.md §2.3, §4.5, §4.7): every command type maps to
a line-pressure set-point in bar, 0 to ``dbw.brake.max_bar`` (80 bar full
scale):

* ``CMD_PRESSURE`` bar, rates bar/s (step 10, floor 20);
* ``CMD_TORQUE`` Nm of total brake torque, ``P = T / (2 G_f + 2 G_r)`` with the
  axle gains of the Brakes section (68 Nm/bar), rates Nm/s (step 1000, floor 2000);
* ``CMD_ACCEL``/``_ACC``/``_AEB`` m/s^2 (negative = braking), clamped to
  -10..+2 m/s^2 (2.3.11 range); ``P = m max(0, -a) R_t / (2 G_f + 2 G_r)``
  (the longitudinal model without resistances); +2 (``CMD_ACCEL_PASSIVE``)
  or any a >= 0 means no braking; rates are jerk m/s^3 (step 1, floor 5);
* ``CMD_PEDAL_RAW`` / ``CMD_PERCENT`` percent of full scale (the simulated
  pedal sensor is ideal, so raw = percent), rates %/s (step 10, floor 50).

Chain: set-point -> command rate limit (``rate_inc``/``rate_dec``; 0 = default
``dbw.brake.rate_*_default_bar_s``, where 0 means none) -> dead time 0.05 s ->
lag 0.12 s -> actuator rate limit 300 bar/s. When not enabled the chain is
driven to 0 (the actuator releases through its own dynamics) and the line
pressure is the larger of the actuator's and the driver's pedal pressure.

Throttle (gaps.md; §2.4, §4.8): percent 0..100 (``CMD_PEDAL_RAW`` treated as
``CMD_PERCENT``), rates %/s (step 10, floor 100) -> dead time 0.02 s -> lag
0.05 s -> pedal = percent / 100. When not enabled the pedal is the driver's
and the chain winds down to 0.

The per-step logic is compiled functions over the DBW's state record
(:mod:`acres_dbw_sim.dbw.record`; fields ``brk_*`` and ``thr_*``, :data:`STATE`):
``brake_reset``/``brake_hold``/``brake_step`` and ``throttle_reset``/``throttle_hold``/
``throttle_step``; the classes are views over the record that decode the commands in Python
(``command``) into it.
"""

from __future__ import annotations

import math

from ..model._jit import njit
from ..model.filters import delay_push, lag_toward, python_form
from .actuators import DELAY_CELLS, clamp, delay_fill, delay_line_steps, lag_line_factor, quantize, rate_limit

# the Python form of the compiled scalar functions for the Python side (command decoding): a call from
# Python into compiled code costs more than they do (model/filters.py, python_form)
_py_clamp, _py_quantize = python_form(clamp), python_form(quantize)
from .commands import BrakeCmd, ThrottleCmd
from .decode import LastCommand, as_enum, as_flag, as_float, decode_rate
from .params import DbwParameters
from .record import Field, Slot, param_record, record_array, run
from .status import BRAKE, THROTTLE, ActuatorStatus, status_command, status_reset

__all__ = ["BrakeActuator", "ThrottleActuator", "STATE", "brake_reset", "brake_hold", "brake_step", "brake_store",
           "throttle_reset", "throttle_hold", "throttle_step", "throttle_store"]

_BRAKE_TYPES = frozenset({0, 1, 2, 8, 9, 10, 13, 14})
_THROTTLE_TYPES = frozenset({0, 13, 14})

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the brake actuator (``brk_*``) and
#: the throttle actuator (``thr_*``). Their statuses are the ``st_*`` slots BRAKE and THROTTLE.
STATE = (
    Field("brk_gain_nm_per_bar", "Nm/bar", "total brake torque per bar of line pressure, 2 (G_f + G_r)"),
    Field("brk_bar_per_mps2", "bar/(m/s^2)", "line pressure per m/s^2 of deceleration (longitudinal model)"),
    Field("brk_default_inc", "bar/s", "default rise rate of the set-point (inf: none)"),
    Field("brk_default_dec", "bar/s", "default fall rate of the set-point (inf: none)"),
    Field("brk_dead_buf", "bar", "dead-time line of the set-point (first brk_dead_n cells in use)", DELAY_CELLS),
    Field("brk_dead_head", "-", "index of the oldest cell of the dead-time line", 0, "int"),
    Field("brk_dead_n", "-", "cells of the dead-time line in use, round(dead_time / dt)", 0, "int"),
    Field("brk_lag_factor", "-", "factor of the actuator lag, exp(-dt / max(1e-4, lag_s))"),
    Field("brk_lag_y", "bar", "output of the actuator lag (after the actuator rate limit)"),
    Field("brk_invalid_count", "-", "commands with a NaN value and a type other than NONE (kept by reset)", 0,
          "int"),
    Field("brk_cmd_type", "enum", "user command type in force (after decoding)", 0, "int"),
    Field("brk_cmd_value", "-", "decoded command value in its command's unit (NaN: none)"),
    Field("brk_target_bar", "bar", "decoded set-point of the user command"),
    Field("brk_setpoint_bar", "bar", "rate-limited set-point (pressure_cmd)"),
    Field("brk_actuator_bar", "bar", "pressure produced by the actuator"),
    Field("brk_line_bar", "bar", "line pressure sent to the model, max(actuator, driver)"),
    Field("brk_driver_bar", "bar", "pressure of the driver's pedal at the last step"),
    Field("brk_rate_inc", "bar/s", "rise rate of the user command in force (inf: none)"),
    Field("brk_rate_dec", "bar/s", "fall rate of the user command in force (inf: none)"),
    Field("brk_limiting_value", "bool", "the user command was clipped to its range", 0, "bool"),
    Field("brk_limiting_rate", "bool", "the set-point is held back by the rate limit", 0, "bool"),
    Field("brk_ulc_bar", "bar", "ULC pressure request at the last step"),
    Field("brk_hold_exhausted", "bool", "brake-hold budget used up and PARK holds: release (§4.7)", 0, "bool"),
    Field("thr_default_inc", "%/s", "default rise rate of the set-point (inf: none)"),
    Field("thr_default_dec", "%/s", "default fall rate of the set-point (inf: none)"),
    Field("thr_dead_buf", "%", "dead-time line of the set-point (first thr_dead_n cells in use)", DELAY_CELLS),
    Field("thr_dead_head", "-", "index of the oldest cell of the dead-time line", 0, "int"),
    Field("thr_dead_n", "-", "cells of the dead-time line in use, round(dead_time / dt)", 0, "int"),
    Field("thr_lag_factor", "-", "factor of the actuator lag, exp(-dt / max(1e-4, lag_s))"),
    Field("thr_lag_y", "%", "output of the actuator lag"),
    Field("thr_invalid_count", "-", "commands with a NaN value and a type other than NONE (kept by reset)", 0,
          "int"),
    Field("thr_cmd_type", "enum", "user command type in force (after decoding)", 0, "int"),
    Field("thr_target_pct", "%", "decoded set-point of the user command"),
    Field("thr_setpoint_pct", "%", "rate-limited set-point (percent_cmd)"),
    Field("thr_actuator_pct", "%", "pedal signal produced by the actuator"),
    Field("thr_output_pct", "%", "pedal signal sent to the vehicle (percent_output)"),
    Field("thr_driver_pct", "%", "driver's accelerator pedal at the last step"),
    Field("thr_rate_inc", "%/s", "rise rate of the user command in force (inf: none)"),
    Field("thr_rate_dec", "%/s", "fall rate of the user command in force (inf: none)"),
    Field("thr_limiting_value", "bool", "the user command was clipped to 100 %", 0, "bool"),
    Field("thr_limiting_rate", "bool", "the set-point is held back by the rate limit", 0, "bool"),
)


def _inf_if_zero(x: float) -> float:
    """Parameter convention: a default rate of 0 means no limit."""
    return math.inf if x == 0.0 else x


# --------------------------------------------------------------------------- brake


@njit
def brake_reset(S) -> None:
    """Power-on state of the brake: status reset, released (dead time and lag at 0), nothing received, default
    rates. ``brk_invalid_count`` and the constants are kept."""
    s = S[0]
    status_reset(S, BRAKE, s.st_timeout_s[BRAKE])
    delay_fill(s.brk_dead_buf, s.brk_dead_n, 0.0)
    s.brk_lag_y = 0.0
    s.brk_cmd_type = 0
    s.brk_cmd_value = math.nan
    s.brk_target_bar = 0.0
    s.brk_setpoint_bar = 0.0
    s.brk_actuator_bar = 0.0
    s.brk_line_bar = 0.0
    s.brk_driver_bar = 0.0
    s.brk_rate_inc = s.brk_default_inc
    s.brk_rate_dec = s.brk_default_dec
    s.brk_limiting_value = False
    s.brk_limiting_rate = False
    s.brk_ulc_bar = 0.0
    s.brk_hold_exhausted = False


@njit
def brake_hold(S, P, bar: float) -> None:
    """Settle the brake at ``bar`` [bar] (finite; clamped to 0..``brake_max_bar``): set-point, dead-time cells,
    lag and output (:meth:`BrakeActuator.hold`)."""
    s = S[0]
    p = P[0]
    b = clamp(bar, 0.0, p.brake_max_bar)
    delay_fill(s.brk_dead_buf, s.brk_dead_n, b)
    s.brk_lag_y = b
    s.brk_target_bar = b
    s.brk_setpoint_bar = b
    s.brk_actuator_bar = b
    s.brk_line_bar = b


@njit
def brake_step(S, P, dt_s: float, driver_bar: float, ulc_bar: float) -> float:
    """Advance the brake one step of ``dt_s`` [s]; return the line pressure [bar] in [0, ``brake_max_bar``].

    Target: the user set-point with its rates when the brake is enabled by the user, the ULC request
    ``ulc_bar`` [bar] (no rate limit) when the ULC drives it, else 0; 0 when the hold budget is exhausted
    and PARK holds (``brk_hold_exhausted``, §4.7). Then command rate limit -> dead time -> lag -> actuator
    rate limit ``brake_rate_bar_s``; the line pressure is the larger of the actuator's and the driver's
    ``driver_bar`` [bar] (finite, >= 0). Reads the status slot BRAKE (update it first).
    """
    s = S[0]
    p = P[0]
    dt = dt_s
    s.brk_driver_bar = driver_bar
    s.brk_ulc_bar = ulc_bar
    enabled = s.st_enabled[BRAKE] != 0
    if enabled and not s.st_driven_by_ulc[BRAKE]:
        target, inc, dec = s.brk_target_bar, s.brk_rate_inc, s.brk_rate_dec
    elif enabled:
        target, inc, dec = ulc_bar, math.inf, math.inf
    else:
        target, inc, dec = 0.0, math.inf, math.inf
    if s.brk_hold_exhausted:  # hold budget used up and PARK engaged: let go (§4.7, brake_hold.py)
        target = 0.0
    sp = rate_limit(s.brk_setpoint_bar, target, inc, dec, dt)
    s.brk_limiting_rate = abs(sp - target) > 1e-6
    s.brk_setpoint_bar = sp
    u, head = delay_push(s.brk_dead_buf, s.brk_dead_head, sp, s.brk_dead_n)
    s.brk_dead_head = head
    y = lag_toward(s.brk_lag_y, u, s.brk_lag_factor)
    r = p.brake_rate_bar_s * dt
    a = s.brk_actuator_bar
    y = clamp(y, a - r, a + r)
    s.brk_lag_y = y
    s.brk_actuator_bar = clamp(y, 0.0, p.brake_max_bar)
    s.brk_line_bar = clamp(max(s.brk_actuator_bar, driver_bar), 0.0, p.brake_max_bar)
    return s.brk_line_bar


@njit
def brake_store(S, t_s: float, typ: int, cmd_value: float, target_bar: float, limiting: bool, inc: float,
                dec: float, enable: bool, clear: bool, ignore: bool) -> None:
    """Store one decoded ``BrakeCmd`` arriving at ``t_s`` [s] (:meth:`BrakeActuator.command`): its type, set-point
    as sent, target pressure [bar], whether the value was limited and, for a type other than NONE, its rates
    [bar/s]; then the status slot BRAKE takes the frame's ``enable``, ``clear`` and ``ignore``."""
    s = S[0]
    s.brk_cmd_value = cmd_value
    s.brk_target_bar = target_bar
    s.brk_limiting_value = limiting
    if typ != 0:
        s.brk_rate_inc = inc
        s.brk_rate_dec = dec
    s.brk_cmd_type = typ
    status_command(S, BRAKE, t_s, typ != 0, enable, clear, ignore)


class BrakeActuator:
    """Brake module of the DBW: a view of the record's ``brk_*`` fields.

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.brake.*``, ``brakes.*_nm_per_bar``, ``tyres.radius_m``,
        ``vehicle.mass_kg``).
    dt_s : float
        Physics step [s].
    s : record
        The DBW's state record (:mod:`acres_dbw_sim.dbw.record`).

    Attributes
    ----------
    status : ActuatorStatus
        Firmware flags.
    cmd_type : int
        User command type in force (after decoding).
    setpoint_bar : float
        Rate-limited set-point [bar] (``pressure_cmd``).
    actuator_bar : float
        Pressure produced by the actuator [bar].
    line_bar : float
        Line pressure sent to the model [bar] = max(actuator, driver).
    hold_exhausted : bool
        Set by ``DbwSystem``: the brake-hold budget is used up and PARK
        holds the vehicle, so the actuator releases (§4.7).
    """

    gain_nm_per_bar = Slot("brk_gain_nm_per_bar")
    bar_per_mps2 = Slot("brk_bar_per_mps2")
    _default_inc = Slot("brk_default_inc")
    _default_dec = Slot("brk_default_dec")
    invalid_count = Slot("brk_invalid_count", "int")
    cmd_type = Slot("brk_cmd_type", "int")
    cmd_value = Slot("brk_cmd_value")
    target_bar = Slot("brk_target_bar")
    setpoint_bar = Slot("brk_setpoint_bar")
    actuator_bar = Slot("brk_actuator_bar")
    line_bar = Slot("brk_line_bar")
    driver_bar = Slot("brk_driver_bar")
    rate_inc = Slot("brk_rate_inc")
    rate_dec = Slot("brk_rate_dec")
    limiting_value = Slot("brk_limiting_value", "bool")
    limiting_rate = Slot("brk_limiting_rate", "bool")
    ulc_bar = Slot("brk_ulc_bar")
    hold_exhausted = Slot("brk_hold_exhausted", "bool")

    def __init__(self, p: DbwParameters, dt_s: float, s) -> None:
        self.p = p
        self.dt_s = dt_s
        self._dt = float(dt_s)
        self._s = s
        self._p = param_record(p)
        self.status = ActuatorStatus(p.command_timeout_s, s, BRAKE)
        s.brk_gain_nm_per_bar = 2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar)
        # bar per (m/s^2) of deceleration through the longitudinal model
        s.brk_bar_per_mps2 = p.vehicle_mass_kg * p.tyres_radius_m / max(1e-6, self.gain_nm_per_bar)
        s.brk_dead_n = delay_line_steps(p.brake_dead_time_s, dt_s)
        s.brk_dead_head = 0
        s.brk_lag_factor = lag_line_factor(p.brake_lag_s, dt_s)
        s.brk_default_inc = _inf_if_zero(p.brake_rate_inc_default_bar_s)
        s.brk_default_dec = _inf_if_zero(p.brake_rate_dec_default_bar_s)
        s.brk_invalid_count = 0
        self.last_command = LastCommand(BrakeCmd)
        self.reset()

    def reset(self) -> None:
        """Power-on state: released, nothing received (:func:`brake_reset`)."""
        run(brake_reset, record_array(self._s))

    def hold(self, bar: float) -> None:
        """Settle the actuator at ``bar`` [bar]: set-point, dead-time cells, lag and output (:func:`brake_hold`).

        For a start from a recorded state (:meth:`acres_dbw_sim.simulation.Simulation.reset`
        with a :class:`~acres_dbw_sim.simulation.RecordedStart`): the next command of the same
        value meets an actuator that has held it for longer than its dead time and lag, as the
        recording's did. Status flags stay at power-on (the enable arrives as an event).

        Raises
        ------
        ValueError
            If ``bar`` is not finite.
        """
        if not math.isfinite(bar):
            raise ValueError(f"brake_bar={bar!r}: must be finite")
        run(brake_hold, record_array(self._s), self._p, float(bar))

    def command(self, t_s: float, msg: BrakeCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``BrakeCmd`` (see the module docstring and decode.py) into the record (:func:`brake_store`);
        an unchanged re-send reuses the last decoding (:class:`~acres_dbw_sim.dbw.decode.LastCommand`)."""
        run(brake_store, record_array(self._s),
            *self.last_command.arguments(msg, self._decode, t_s, dbw_enabled, auto_clear))

    def _decode(self, msg: BrakeCmd) -> tuple:
        """((type, set-point, pressure, limiting, rates), enable bit, clear bit, ignore bit) of ``msg``, and
        whether it may be kept for a re-send (not after an invalid set-point)."""
        typ = as_enum(getattr(msg, "cmd_type", 0), _BRAKE_TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        invalid = typ != 0 and val != val
        if invalid:
            self.invalid_count += 1
            typ = 0
        pmax = self.p.brake_max_bar
        unit = 1.0  # set-point unit per bar, for the rate fields
        limiting = False
        step, floor = 10.0, 20.0
        if typ == 1:
            v = _py_quantize(_py_clamp(val, 0.0, 655.35), 0.01)
            cmd_value = v
            bar = v
        elif typ == 2:
            v = _py_quantize(_py_clamp(val, 0.0, 65535.0), 1.0)
            cmd_value = v
            gain = self.gain_nm_per_bar
            bar = v / gain
            unit, step, floor = gain, 1000.0, 2000.0
        elif typ in (8, 9, 10):
            v = _py_quantize(_py_clamp(val, -32.767, 32.767), 0.001)
            limiting = v < -10.0 or v > 2.0
            v = _py_clamp(v, -10.0, 2.0)
            cmd_value = v
            k = self.bar_per_mps2
            bar = max(0.0, -v) * k
            unit, step, floor = 1.0 / k, 1.0, 5.0
        elif typ in (13, 14):
            v = _py_quantize(_py_clamp(val, 0.0, 655.35), 0.01)
            limiting = v > 100.0
            v = min(v, 100.0)
            cmd_value = v
            bar = v * 0.01 * pmax
            unit, step, floor = 100.0 / pmax, 10.0, 50.0
        else:
            bar = 0.0
            cmd_value = math.nan
        if bar > pmax:
            limiting = True
            bar = pmax
        inc = dec = 0.0
        if typ != 0:
            inc = decode_rate(getattr(msg, "rate_inc", 0.0), step, floor, self._default_inc * unit) / unit
            dec = decode_rate(getattr(msg, "rate_dec", 0.0), step, floor, self._default_dec * unit) / unit
        d = ((typ, float(cmd_value), float(bar), bool(limiting), float(inc), float(dec)),
             bool(as_flag(getattr(msg, "enable", False))), bool(as_flag(getattr(msg, "clear", False))),
             bool(as_flag(getattr(msg, "ignore", False))))
        return d, not invalid

# --------------------------------------------------------------------------- throttle


@njit
def throttle_reset(S) -> None:
    """Power-on state of the throttle: status reset, pedal released (dead time and lag at 0), nothing
    received, default rates. ``thr_invalid_count`` and the constants are kept."""
    s = S[0]
    status_reset(S, THROTTLE, s.st_timeout_s[THROTTLE])
    delay_fill(s.thr_dead_buf, s.thr_dead_n, 0.0)
    s.thr_lag_y = 0.0
    s.thr_cmd_type = 0
    s.thr_target_pct = 0.0
    s.thr_setpoint_pct = 0.0
    s.thr_actuator_pct = 0.0
    s.thr_output_pct = 0.0
    s.thr_driver_pct = 0.0
    s.thr_rate_inc = s.thr_default_inc
    s.thr_rate_dec = s.thr_default_dec
    s.thr_limiting_value = False
    s.thr_limiting_rate = False


@njit
def throttle_hold(S, pct: float) -> None:
    """Settle the throttle at ``pct`` [%] (finite; clamped to 0..100): set-point, dead-time cells, lag and
    output (:meth:`ThrottleActuator.hold`)."""
    s = S[0]
    v = clamp(pct, 0.0, 100.0)
    delay_fill(s.thr_dead_buf, s.thr_dead_n, v)
    s.thr_lag_y = v
    s.thr_target_pct = v
    s.thr_setpoint_pct = v
    s.thr_actuator_pct = v
    s.thr_output_pct = v


@njit
def throttle_step(S, dt_s: float, driver_pct: float, ulc_pct: float) -> float:
    """Advance the throttle one step of ``dt_s`` [s]; return the pedal position 0..1 sent to the model.

    Target: the user set-point with its rates when enabled by the user, the ULC request ``ulc_pct`` [%]
    (no rate limit) when the ULC drives it, else 0. Then rate limit -> dead time -> lag -> clamp to
    0..100 %; when not enabled the pedal is the driver's ``driver_pct`` [%] (finite, 0..100). Reads the
    status slot THROTTLE (update it first).
    """
    s = S[0]
    s.thr_driver_pct = driver_pct
    enabled = s.st_enabled[THROTTLE] != 0
    if enabled and not s.st_driven_by_ulc[THROTTLE]:
        target, inc, dec = s.thr_target_pct, s.thr_rate_inc, s.thr_rate_dec
    elif enabled:
        target, inc, dec = ulc_pct, math.inf, math.inf
    else:
        target, inc, dec = 0.0, math.inf, math.inf
    sp = rate_limit(s.thr_setpoint_pct, target, inc, dec, dt_s)
    s.thr_limiting_rate = abs(sp - target) > 1e-6
    s.thr_setpoint_pct = sp
    u, head = delay_push(s.thr_dead_buf, s.thr_dead_head, sp, s.thr_dead_n)
    s.thr_dead_head = head
    y = lag_toward(s.thr_lag_y, u, s.thr_lag_factor)
    s.thr_lag_y = y
    s.thr_actuator_pct = clamp(y, 0.0, 100.0)
    s.thr_output_pct = s.thr_actuator_pct if enabled else clamp(driver_pct, 0.0, 100.0)
    return s.thr_output_pct * 0.01


@njit
def throttle_store(S, t_s: float, typ: int, target_pct: float, limiting: bool, inc: float, dec: float, enable: bool,
                   clear: bool, ignore: bool) -> None:
    """Store one decoded ``ThrottleCmd`` arriving at ``t_s`` [s] (:meth:`ThrottleActuator.command`): its type, target
    pedal [%], whether the value was limited and, for a type other than NONE, its rates [%/s]; then the
    status slot THROTTLE takes the frame's ``enable``, ``clear`` and ``ignore``."""
    s = S[0]
    s.thr_limiting_value = limiting
    s.thr_target_pct = target_pct
    if typ != 0:
        s.thr_rate_inc = inc
        s.thr_rate_dec = dec
    s.thr_cmd_type = typ
    status_command(S, THROTTLE, t_s, typ != 0, enable, clear, ignore)


class ThrottleActuator:
    """Throttle module of the DBW (accelerator pedal emulation): a view of the record's ``thr_*`` fields.

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.throttle.*``).
    dt_s : float
        Physics step [s].
    s : record
        The DBW's state record (:mod:`acres_dbw_sim.dbw.record`).

    Attributes
    ----------
    status : ActuatorStatus
        Firmware flags.
    setpoint_pct : float
        Rate-limited set-point [%] (``percent_cmd``).
    output_pct : float
        Pedal signal sent to the vehicle [%] (``percent_output``).
    """

    _default_inc = Slot("thr_default_inc")
    _default_dec = Slot("thr_default_dec")
    invalid_count = Slot("thr_invalid_count", "int")
    cmd_type = Slot("thr_cmd_type", "int")
    target_pct = Slot("thr_target_pct")
    setpoint_pct = Slot("thr_setpoint_pct")
    actuator_pct = Slot("thr_actuator_pct")
    output_pct = Slot("thr_output_pct")
    driver_pct = Slot("thr_driver_pct")
    rate_inc = Slot("thr_rate_inc")
    rate_dec = Slot("thr_rate_dec")
    limiting_value = Slot("thr_limiting_value", "bool")
    limiting_rate = Slot("thr_limiting_rate", "bool")

    def __init__(self, p: DbwParameters, dt_s: float, s) -> None:
        self.p = p
        self.dt_s = dt_s
        self._dt = float(dt_s)
        self._s = s
        self.status = ActuatorStatus(p.command_timeout_s, s, THROTTLE)
        s.thr_dead_n = delay_line_steps(p.throttle_dead_time_s, dt_s)
        s.thr_dead_head = 0
        s.thr_lag_factor = lag_line_factor(p.throttle_lag_s, dt_s)
        s.thr_default_inc = _inf_if_zero(p.throttle_rate_inc_default_pct_s)
        s.thr_default_dec = _inf_if_zero(p.throttle_rate_dec_default_pct_s)
        s.thr_invalid_count = 0
        self.last_command = LastCommand(ThrottleCmd)
        self.reset()

    def reset(self) -> None:
        """Power-on state: pedal released, nothing received (:func:`throttle_reset`)."""
        run(throttle_reset, record_array(self._s))

    def hold(self, pct: float) -> None:
        """Settle the actuator at ``pct`` [%] (as :meth:`BrakeActuator.hold`; :func:`throttle_hold`).

        Raises
        ------
        ValueError
            If ``pct`` is not finite.
        """
        if not math.isfinite(pct):
            raise ValueError(f"pedal_pct={pct!r}: must be finite")
        run(throttle_hold, record_array(self._s), float(pct))

    def command(self, t_s: float, msg: ThrottleCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``ThrottleCmd`` (see the module docstring and decode.py) into the record (:func:`throttle_store`);
        an unchanged re-send reuses the last decoding (:class:`~acres_dbw_sim.dbw.decode.LastCommand`)."""
        run(throttle_store, record_array(self._s),
            *self.last_command.arguments(msg, self._decode, t_s, dbw_enabled, auto_clear))

    def _decode(self, msg: ThrottleCmd) -> tuple:
        """((type, target, limiting, rates), enable bit, clear bit, ignore bit) of ``msg``, and whether
        it may be kept for a re-send (not after an invalid set-point)."""
        typ = as_enum(getattr(msg, "cmd_type", 0), _THROTTLE_TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        invalid = typ != 0 and val != val
        if invalid:
            self.invalid_count += 1
            typ = 0
        inc = dec = 0.0
        if typ != 0:
            v = _py_quantize(_py_clamp(val, 0.0, 1638.0), 0.025)
            limiting = v > 100.0
            target = min(v, 100.0)
            inc = decode_rate(getattr(msg, "rate_inc", 0.0), 10.0, 100.0, self._default_inc)
            dec = decode_rate(getattr(msg, "rate_dec", 0.0), 10.0, 100.0, self._default_dec)
        else:
            target = 0.0
            limiting = False
        d = ((typ, float(target), bool(limiting), float(inc), float(dec)),
             bool(as_flag(getattr(msg, "enable", False))), bool(as_flag(getattr(msg, "clear", False))),
             bool(as_flag(getattr(msg, "ignore", False))))
        return d, not invalid
