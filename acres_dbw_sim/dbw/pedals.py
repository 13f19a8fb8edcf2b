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
"""

from __future__ import annotations

import math

from .actuators import DeadTime, FirstOrderLag, clamp, quantize, rate_limit
from .commands import BrakeCmd, ThrottleCmd
from .decode import as_enum, as_flag, as_float, decode_rate
from .params import DbwParameters
from .status import BRAKE, THROTTLE, ActuatorStatus

__all__ = ["BrakeActuator", "ThrottleActuator"]

_BRAKE_TYPES = frozenset({0, 1, 2, 8, 9, 10, 13, 14})
_THROTTLE_TYPES = frozenset({0, 13, 14})


def _inf_if_zero(x: float) -> float:
    """Parameter convention: a default rate of 0 means no limit."""
    return math.inf if x == 0.0 else x


class BrakeActuator:
    """Brake module of the DBW.

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.brake.*``, ``brakes.*_nm_per_bar``, ``tyres.radius_m``,
        ``vehicle.mass_kg``).
    dt_s : float
        Physics step [s].

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

    def __init__(self, p: DbwParameters, dt_s: float, s) -> None:
        self.p = p
        self.dt_s = dt_s
        self.status = ActuatorStatus(p.command_timeout_s, s, BRAKE)
        self.gain_nm_per_bar = 2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar)
        # bar per (m/s^2) of deceleration through the longitudinal model
        self.bar_per_mps2 = p.vehicle_mass_kg * p.tyres_radius_m / max(1e-6, self.gain_nm_per_bar)
        self._dead = DeadTime(p.brake_dead_time_s, dt_s, 0.0)
        self._lag = FirstOrderLag(p.brake_lag_s, dt_s, 0.0)
        self._default_inc = _inf_if_zero(p.brake_rate_inc_default_bar_s)
        self._default_dec = _inf_if_zero(p.brake_rate_dec_default_bar_s)
        self.invalid_count = 0
        self.reset()

    def reset(self) -> None:
        """Power-on state: released, nothing received."""
        self.status.reset()
        self._dead.reset(0.0)
        self._lag.y = 0.0
        self.cmd_type = 0
        self.cmd_value = math.nan
        self.target_bar = 0.0
        self.setpoint_bar = 0.0
        self.actuator_bar = 0.0
        self.line_bar = 0.0
        self.driver_bar = 0.0
        self.rate_inc = self._default_inc
        self.rate_dec = self._default_dec
        self.limiting_value = False
        self.limiting_rate = False
        self.ulc_bar = 0.0
        self.hold_exhausted = False

    def hold(self, bar: float) -> None:
        """Settle the actuator at ``bar`` [bar]: set-point, dead-time cells, lag and output.

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
        b = clamp(float(bar), 0.0, self.p.brake_max_bar)
        self._dead.reset(b)
        self._lag.y = b
        self.target_bar = self.setpoint_bar = self.actuator_bar = self.line_bar = b

    def command(self, t_s: float, msg: BrakeCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``BrakeCmd`` (see the module docstring and decode.py)."""
        typ = as_enum(getattr(msg, "cmd_type", 0), _BRAKE_TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        if typ != 0 and val != val:
            self.invalid_count += 1
            typ = 0
        pmax = self.p.brake_max_bar
        unit = 1.0  # set-point unit per bar, for the rate fields
        limiting = False
        step, floor = 10.0, 20.0
        if typ == 1:
            v = quantize(clamp(val, 0.0, 655.35), 0.01)
            self.cmd_value = v
            bar = v
        elif typ == 2:
            v = quantize(clamp(val, 0.0, 65535.0), 1.0)
            self.cmd_value = v
            bar = v / self.gain_nm_per_bar
            unit, step, floor = self.gain_nm_per_bar, 1000.0, 2000.0
        elif typ in (8, 9, 10):
            v = quantize(clamp(val, -32.767, 32.767), 0.001)
            limiting = v < -10.0 or v > 2.0
            v = clamp(v, -10.0, 2.0)
            self.cmd_value = v
            bar = max(0.0, -v) * self.bar_per_mps2
            unit, step, floor = 1.0 / self.bar_per_mps2, 1.0, 5.0
        elif typ in (13, 14):
            v = quantize(clamp(val, 0.0, 655.35), 0.01)
            limiting = v > 100.0
            v = min(v, 100.0)
            self.cmd_value = v
            bar = v * 0.01 * pmax
            unit, step, floor = 100.0 / pmax, 10.0, 50.0
        else:
            bar = 0.0
            self.cmd_value = math.nan
        if bar > pmax:
            limiting = True
            bar = pmax
        self.target_bar = bar
        self.limiting_value = limiting
        if typ != 0:
            inc = decode_rate(getattr(msg, "rate_inc", 0.0), step, floor, self._default_inc * unit)
            dec = decode_rate(getattr(msg, "rate_dec", 0.0), step, floor, self._default_dec * unit)
            self.rate_inc = inc / unit
            self.rate_dec = dec / unit
        self.cmd_type = typ
        self.status.command(t_s, typ != 0, as_flag(getattr(msg, "enable", False)) and dbw_enabled,
                            as_flag(getattr(msg, "clear", False)) or auto_clear,
                            as_flag(getattr(msg, "ignore", False)))

    def step(self, driver_bar: float, ulc_bar: float) -> float:
        """Advance one step; return the line pressure [bar] in [0, max_bar].

        Parameters
        ----------
        driver_bar : float
            Pressure from the driver's pedal [bar], finite, >= 0.
        ulc_bar : float
            ULC pressure request [bar], used when the ULC drives the brake.
        """
        s = self.status
        dt = self.dt_s
        self.driver_bar = driver_bar
        self.ulc_bar = ulc_bar
        if s.enabled and not s.driven_by_ulc:
            target, inc, dec = self.target_bar, self.rate_inc, self.rate_dec
        elif s.enabled:
            target, inc, dec = ulc_bar, math.inf, math.inf
        else:
            target, inc, dec = 0.0, math.inf, math.inf
        if self.hold_exhausted:  # hold budget used up and PARK engaged: let go (§4.7, brake_hold.py)
            target = 0.0
        sp = rate_limit(self.setpoint_bar, target, inc, dec, dt)
        self.limiting_rate = abs(sp - target) > 1e-6
        self.setpoint_bar = sp
        y = self._lag.step(self._dead.step(sp))
        r = self.p.brake_rate_bar_s * dt
        y = clamp(y, self.actuator_bar - r, self.actuator_bar + r)
        self._lag.y = y
        self.actuator_bar = clamp(y, 0.0, self.p.brake_max_bar)
        self.line_bar = clamp(max(self.actuator_bar, driver_bar), 0.0, self.p.brake_max_bar)
        return self.line_bar


class ThrottleActuator:
    """Throttle module of the DBW (accelerator pedal emulation).

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.throttle.*``).
    dt_s : float
        Physics step [s].

    Attributes
    ----------
    status : ActuatorStatus
        Firmware flags.
    setpoint_pct : float
        Rate-limited set-point [%] (``percent_cmd``).
    output_pct : float
        Pedal signal sent to the vehicle [%] (``percent_output``).
    """

    def __init__(self, p: DbwParameters, dt_s: float, s) -> None:
        self.p = p
        self.dt_s = dt_s
        self.status = ActuatorStatus(p.command_timeout_s, s, THROTTLE)
        self._dead = DeadTime(p.throttle_dead_time_s, dt_s, 0.0)
        self._lag = FirstOrderLag(p.throttle_lag_s, dt_s, 0.0)
        self._default_inc = _inf_if_zero(p.throttle_rate_inc_default_pct_s)
        self._default_dec = _inf_if_zero(p.throttle_rate_dec_default_pct_s)
        self.invalid_count = 0
        self.reset()

    def reset(self) -> None:
        """Power-on state: pedal released, nothing received."""
        self.status.reset()
        self._dead.reset(0.0)
        self._lag.y = 0.0
        self.cmd_type = 0
        self.target_pct = 0.0
        self.setpoint_pct = 0.0
        self.actuator_pct = 0.0
        self.output_pct = 0.0
        self.driver_pct = 0.0
        self.rate_inc = self._default_inc
        self.rate_dec = self._default_dec
        self.limiting_value = False
        self.limiting_rate = False

    def hold(self, pct: float) -> None:
        """Settle the actuator at ``pct`` [%] (as :meth:`BrakeActuator.hold`).

        Raises
        ------
        ValueError
            If ``pct`` is not finite.
        """
        if not math.isfinite(pct):
            raise ValueError(f"pedal_pct={pct!r}: must be finite")
        v = clamp(float(pct), 0.0, 100.0)
        self._dead.reset(v)
        self._lag.y = v
        self.target_pct = self.setpoint_pct = self.actuator_pct = self.output_pct = v

    def command(self, t_s: float, msg: ThrottleCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``ThrottleCmd`` (see the module docstring and decode.py)."""
        typ = as_enum(getattr(msg, "cmd_type", 0), _THROTTLE_TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        if typ != 0 and val != val:
            self.invalid_count += 1
            typ = 0
        if typ != 0:
            v = quantize(clamp(val, 0.0, 1638.0), 0.025)
            self.limiting_value = v > 100.0
            self.target_pct = min(v, 100.0)
            self.rate_inc = decode_rate(getattr(msg, "rate_inc", 0.0), 10.0, 100.0, self._default_inc)
            self.rate_dec = decode_rate(getattr(msg, "rate_dec", 0.0), 10.0, 100.0, self._default_dec)
        else:
            self.target_pct = 0.0
            self.limiting_value = False
        self.cmd_type = typ
        self.status.command(t_s, typ != 0, as_flag(getattr(msg, "enable", False)) and dbw_enabled,
                            as_flag(getattr(msg, "clear", False)) or auto_clear,
                            as_flag(getattr(msg, "ignore", False)))

    def step(self, driver_pct: float, ulc_pct: float) -> float:
        """Advance one step; return the pedal position 0..1 sent to the model.

        Parameters
        ----------
        driver_pct : float
            Driver's accelerator pedal [%], finite, 0..100.
        ulc_pct : float
            ULC throttle request [%], used when the ULC drives the throttle.
        """
        s = self.status
        self.driver_pct = driver_pct
        if s.enabled and not s.driven_by_ulc:
            target, inc, dec = self.target_pct, self.rate_inc, self.rate_dec
        elif s.enabled:
            target, inc, dec = ulc_pct, math.inf, math.inf
        else:
            target, inc, dec = 0.0, math.inf, math.inf
        sp = rate_limit(self.setpoint_pct, target, inc, dec, self.dt_s)
        self.limiting_rate = abs(sp - target) > 1e-6
        self.setpoint_pct = sp
        self.actuator_pct = clamp(self._lag.step(self._dead.step(sp)), 0.0, 100.0)
        self.output_pct = self.actuator_pct if s.enabled else clamp(driver_pct, 0.0, 100.0)
        return self.output_pct * 0.01
