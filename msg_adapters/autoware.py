"""Autoware's vehicle interface onto the DBW: control, gear, indicators, engagement and the six status reports.

What a vehicle interface of Autoware (autoware_msgs 1.12.0, as Autoware 1.8.0 pins it) does on a
Dataspeed DBW vehicle, done here on the simulated DBW, so that the commands meet the DBW's
actuator dynamics, timeouts and override rules:

- ``Control`` -> a ``UlcCmd`` CMD_VELOCITY of ``longitudinal.velocity`` [m/s] (negative: reverse;
  ``enable_shift``) whose ``limit_accel``/``limit_decel`` are ``|acceleration|`` and jerk limits
  ``|jerk|`` when the message defines them (else 0: the DBW's defaults), and a ``SteeringCmd``
  CMD_ANGLE that puts the bicycle tyre at ``steering_tire_angle`` (``ackermann.TyreAngleSteering``),
  with ``cmd_rate`` the tyre rate times the steering ratio [deg/s of steering wheel] when defined.
  Re-sent every tick; silence for ``timeout_s`` stops the vehicle as ``cmd_vel`` does
  (``msg_adapters.setpoint_stream``).
- The control mode (``ControlModeCommand`` request, or ``Engage``): AUTONOMOUS enables the DBW
  and sends both commands; AUTONOMOUS_STEER_ONLY only the steering command, AUTONOMOUS_VELOCITY_ONLY
  only the ULC's; MANUAL disables the DBW; NO_COMMAND changes nothing. The reported mode is MANUAL
  whenever the DBW is not enabled: a driver override or a fault disengages the DBW, the report
  says MANUAL and the adapter stops commanding until a mode is requested again.
- ``ActuationCommandStamped`` (tier4_vehicle_msgs; the actuation path, what Autoware's
  ``raw_vehicle_cmd_converter`` sends from its accel and brake maps) -> a ``ThrottleCmd``
  CMD_PERCENT of ``accel_cmd`` x 100 (the accelerator pedal), a ``BrakeCmd`` CMD_PRESSURE of
  ``brake_cmd`` x the brakes' full scale [bar], and the steering of ``steer_cmd`` as the tyre angle
  [rad] (the converter's default, ``convert_steer_cmd`` false), clamped to 0..1; while actuation
  commands come (within ``timeout_s``) they drive instead of ``Control``, and the ULC lets go. The
  strokes are those of ``acres_dbw_sim.autoware_maps``, whose maps the converter reads.
- ``GearCommand`` -> a ``GearCmd`` when the requested gear changes (DRIVE_n -> DRIVE, REVERSE_n ->
  REVERSE, LOW_n -> LOW); the gear report maps back (:data:`GEAR_TO_AUTOWARE`).
- ``TurnIndicatorsCommand`` and ``HazardLightsCommand`` -> a ``TurnSignalCmd`` held and re-sent
  every tick (the DBW's turn-signal command times out after 250 ms); hazard lights win over a
  turn indicator. The reports come from the DBW's turn-signal feedback.

Pure logic, no ROS: the node hands it the messages' fields and publishes what it returns.
"""

from __future__ import annotations

import math
from typing import Any

from acres_dbw_sim.dbw import msg_fields as MF
from acres_dbw_sim.dbw.commands import (DISABLE, ENABLE, BrakeCmd, GearCmd, SteeringCmd, ThrottleCmd, TurnSignalCmd,
                                        UlcCmd)
from acres_dbw_sim.model.chassis import G_MPS2, quat_to_matrix

from .ackermann import TyreAngleSteering
from .setpoint_stream import IDLE, SetpointStream

__all__ = ["kinematic_acceleration_body", "AutowareAdapter", "NO_COMMAND", "AUTONOMOUS", "AUTONOMOUS_STEER_ONLY",
           "AUTONOMOUS_VELOCITY_ONLY", "MANUAL", "GEAR_TO_AUTOWARE", "gear_from_autoware"]

#: ``ControlModeReport`` / ``ControlModeCommand`` modes.
NO_COMMAND, AUTONOMOUS, AUTONOMOUS_STEER_ONLY, AUTONOMOUS_VELOCITY_ONLY, MANUAL = 0, 1, 2, 3, 4
_STEERS = (AUTONOMOUS, AUTONOMOUS_STEER_ONLY)
_DRIVES = (AUTONOMOUS, AUTONOMOUS_VELOCITY_ONLY)
#: ``GearCommand``/``GearReport`` codes: NONE 0, NEUTRAL 1, DRIVE 2 (DRIVE_2..DRIVE_18: 3..19), REVERSE 20,
#: REVERSE_2 21, PARK 22, LOW 23, LOW_2 24.
_AW_NEUTRAL, _AW_DRIVE, _AW_REVERSE, _AW_PARK, _AW_LOW = 1, 2, 20, 22, 23
#: The DBW's gear (``ds_dbw_msgs/Gear``) -> Autoware's ``GearReport`` code.
GEAR_TO_AUTOWARE = {int(MF.Gear.PARK): _AW_PARK, int(MF.Gear.REVERSE): _AW_REVERSE,
                    int(MF.Gear.NEUTRAL): _AW_NEUTRAL, int(MF.Gear.DRIVE): _AW_DRIVE, int(MF.Gear.LOW): _AW_LOW}
#: ``TurnIndicatorsCommand``: DISABLE 1, ENABLE_LEFT 2, ENABLE_RIGHT 3 (the reports use the same codes).
_TI_DISABLE, _TI_LEFT, _TI_RIGHT = 1, 2, 3
#: ``HazardLightsCommand``: DISABLE 1, ENABLE 2.
_HL_DISABLE, _HL_ENABLE = 1, 2
#: A gear request the DBW's gear does not show yet is sent again after this long [s] (a shift refused
#: while moving happens once stopped; a lever shift takes about 1 s).
GEAR_RESEND_S = 1.5


def gear_from_autoware(code: int) -> int | None:
    """The DBW's gear (``ds_dbw_msgs/Gear``) for an Autoware ``GearCommand`` code; None for NONE or an
    unknown code (nothing to send)."""
    if code == _AW_NEUTRAL:
        return int(MF.Gear.NEUTRAL)
    if _AW_DRIVE <= code < _AW_REVERSE:
        return int(MF.Gear.DRIVE)
    if code in (_AW_REVERSE, _AW_REVERSE + 1):
        return int(MF.Gear.REVERSE)
    if code == _AW_PARK:
        return int(MF.Gear.PARK)
    if code in (_AW_LOW, _AW_LOW + 1):
        return int(MF.Gear.LOW)
    return None


def kinematic_acceleration_body(specific_force_mps2: Any, orientation_wxyz: Any, g_mps2: float = G_MPS2) -> tuple:
    """The body's acceleration [m/s^2] in its own frame (x forward, y left, z up) from what an
    accelerometer at the body point measures: ``a = f + R^T (0, 0, -g)``, the specific force ``f``
    plus gravity turned into the body frame (``R``: body to world, the chassis' ``quat_to_matrix`` of
    ``orientation_wxyz``; ``R^T e_z`` is its third row). The inverse of the specific force the model
    outputs (polaris-ranger-dynamics.md, Chassis). This is what Autoware's
    ``/localization/acceleration`` carries: at rest on a slope it is zero where the IMU reads the
    slope's share of gravity.

    Parameters
    ----------
    specific_force_mps2 : sequence of 3 float
        Specific force at the body point, body frame [m/s^2] (the model's ``specific_force_body_mps2``).
    orientation_wxyz : sequence of 4 float
        Unit quaternion of the body in the world frame (REP-103, z up).
    g_mps2 : float
        Gravity [m/s^2].

    Returns
    -------
    tuple of 3 float
    """
    r = quat_to_matrix(*orientation_wxyz)
    fx, fy, fz = specific_force_mps2
    return (float(fx - g_mps2 * r[6]), float(fy - g_mps2 * r[7]), float(fz - g_mps2 * r[8]))


class AutowareAdapter(SetpointStream):
    """Autoware's vehicle-interface commands -> core DBW commands; reports -> Autoware's codes (module docstring).

    Parameters
    ----------
    steering_ratio : float
        Steering-wheel angle per road-wheel angle [-] (the DBW's ``steering_ratio``), > 0.
    center_deg : float
        Raw steering-wheel angle of straight ahead [deg] (the DBW's ``steering_center_deg``).
    brake_full_bar : float
        The brakes' full-scale line pressure [bar] (the DBW's ``brake_max_bar``), > 0: brake stroke 1.
    timeout_s : float
        Age of the last ``Control`` or ``ActuationCommand`` after which the vehicle is stopped [s], > 0.

    Raises
    ------
    ValueError
        If a number is out of its range.

    Attributes
    ----------
    mode : int
        The control mode requested and in force (MANUAL until a request; MANUAL again after the DBW
        disengaged).
    steering : TyreAngleSteering
        The tyre angle in force, its command, and the angle the DBW reports.
    """

    REPORTS_READ = ("steering_offset", "turn_signal_report", "throttle_report", "brake_report")

    def __init__(self, steering_ratio: float, center_deg: float, brake_full_bar: float,
                 timeout_s: float = 0.5) -> None:
        if not (isinstance(brake_full_bar, (int, float)) and math.isfinite(brake_full_bar) and brake_full_bar > 0):
            raise ValueError(f"brake_full_bar={brake_full_bar!r}: must be a positive number")
        self.steering = TyreAngleSteering(steering_ratio, center_deg)
        self.brake_full_bar = float(brake_full_bar)
        self._throttle = ThrottleCmd(cmd_type=ThrottleCmd.CMD_PERCENT, enable=True)
        self._brake = BrakeCmd(cmd_type=BrakeCmd.CMD_PRESSURE, enable=True)
        self._actuation_s = -math.inf
        self._turn = TurnSignalCmd()
        self.mode = MANUAL
        self._engaged_seen = False
        self._pending: list = []
        self._gear_requested: int | None = None
        self._gear_sent_s = -math.inf
        self._gear_cmd = GearCmd()
        self._clear_indicators()
        # the side a partial mode does not command: sent with enable false, so the DBW lets it go by
        # command (as a stack does), not by its 100 ms timeout
        self._ulc_off = UlcCmd(cmd_type=UlcCmd.CMD_VELOCITY, enable=False)
        self._steer_off = SteeringCmd(cmd_type=SteeringCmd.CMD_ANGLE, enable=False)
        super().__init__(timeout_s, False)
        self._ulc.enable_shift = False   # the gear is Autoware's (gear_cmd), never the ULC's own choice

    def _clear_indicators(self) -> None:
        """No turn indicator or hazard lights held (at start and on MANUAL)."""
        self._indicator = 0
        self._hazard = False
        self._indicators_commanded = False

    # ------------------------------------------------------------------ commands in
    def request_mode(self, mode: int) -> bool:
        """A ``ControlModeCommand`` request (or ``Engage``: AUTONOMOUS / MANUAL); True when taken.

        AUTONOMOUS and the two partial modes enable the DBW, MANUAL disables it; NO_COMMAND is
        taken and changes nothing; any other value is refused (False).
        """
        if mode == NO_COMMAND:
            return True
        if mode not in (AUTONOMOUS, AUTONOMOUS_STEER_ONLY, AUTONOMOUS_VELOCITY_ONLY, MANUAL):
            return False
        self._pending.append(DISABLE if mode == MANUAL else ENABLE)
        self.mode = mode
        self._engaged_seen = False
        if mode == MANUAL:
            self.reset()
            self._clear_indicators()
        return True

    def on_control(self, lateral: Any, longitudinal: Any, t_s: float) -> bool:
        """Take one ``Control`` (its ``lateral`` and ``longitudinal`` parts) received at ``t_s`` [s];
        False (ignored; ``ignored`` counts it) when a value it uses is not finite."""
        v, a, j = longitudinal.velocity, longitudinal.acceleration, longitudinal.jerk
        delta, rate = lateral.steering_tire_angle, lateral.steering_tire_rotation_rate
        used = [v, delta] + ([a] if longitudinal.is_defined_acceleration else []) + \
            ([j] if longitudinal.is_defined_jerk else []) + \
            ([rate] if lateral.is_defined_steering_tire_rotation_rate else [])
        if not all(math.isfinite(x) for x in used):
            self.ignored += 1
            return False
        self.take(v, t_s)
        ulc = self._ulc
        ulc.limit_accel = ulc.limit_decel = abs(float(a)) if longitudinal.is_defined_acceleration else 0.0
        ulc.limit_jerk_throttle = ulc.limit_jerk_brake = abs(float(j)) if longitudinal.is_defined_jerk else 0.0
        self.steering.set(float(delta), self.steering.rate_deg_s(rate)
                          if lateral.is_defined_steering_tire_rotation_rate else 0.0)
        return True

    def on_actuation(self, accel_cmd: float, brake_cmd: float, steer_cmd: float, t_s: float) -> bool:
        """Take one ``ActuationCommand`` received at ``t_s`` [s]: strokes 0..1 (clamped) and the tyre angle
        [rad]; False (ignored; ``ignored`` counts it) when a value is not finite."""
        if not all(math.isfinite(x) for x in (accel_cmd, brake_cmd, steer_cmd)):
            self.ignored += 1
            return False
        self._throttle.cmd = 100.0 * min(1.0, max(0.0, float(accel_cmd)))
        self._brake.cmd = self.brake_full_bar * min(1.0, max(0.0, float(brake_cmd)))
        self.steering.set(float(steer_cmd), 0.0)
        self._actuation_s = t_s
        self.take(0.0, t_s)   # the stream is alive; should actuation stop, the ULC stops the vehicle
        return True

    def on_gear(self, command: int) -> None:
        """A ``GearCommand`` code: the requested gear, sent by :meth:`commands` while the DBW's gear differs."""
        gear = gear_from_autoware(int(command))
        if gear is not None:
            if gear != self._gear_requested:
                self._gear_sent_s = -math.inf   # a new request goes out at once
            self._gear_requested = gear

    def on_turn_indicators(self, command: int) -> None:
        """A ``TurnIndicatorsCommand`` code (NO_COMMAND keeps the state)."""
        if command in (_TI_DISABLE, _TI_LEFT, _TI_RIGHT):
            self._indicator = {_TI_DISABLE: 0, _TI_LEFT: int(MF.TurnSignal.LEFT),
                               _TI_RIGHT: int(MF.TurnSignal.RIGHT)}[command]
            self._indicators_commanded = True

    def vehicle_reset(self) -> None:
        """The node reset the vehicle (``/initialpose3d``, ``~/reset``): the DBW is at power-on and in PARK,
        and Autoware's mode is kept, as the planning simulator keeps it on an initial pose: an engaged mode
        engages the DBW again and the requested gear goes out at once (AUTONOMOUS stays AUTONOMOUS)."""
        if self.mode != MANUAL:
            self._pending.append(ENABLE)
            self._engaged_seen = False
            self._gear_sent_s = -math.inf

    def on_hazard_lights(self, command: int) -> None:
        """A ``HazardLightsCommand`` code (NO_COMMAND keeps the state)."""
        if command in (_HL_DISABLE, _HL_ENABLE):
            self._hazard = command == _HL_ENABLE
            self._indicators_commanded = True

    def commands(self, t_s: float, reports: Any) -> tuple:
        """The commands to submit at ``t_s`` [s]: the pending one-shot ones (enable, disable, gear), then
        those of the mode in force and the held turn signal.

        Parameters
        ----------
        t_s : float
            Simulation time [s].
        reports : acres_dbw_sim.dbw.state.DbwReports
            The latest reports (``dbw_enabled``).
        """
        out = self._pending
        self._pending = []
        enabled = reports.dbw_enabled
        if self.mode != MANUAL and not out:
            if enabled:
                self._engaged_seen = True
            elif self._engaged_seen:   # the DBW disengaged (override, fault, timeout): the driver has it
                self.mode = MANUAL
                self.reset()
        requested = self._gear_requested
        if (self.mode != MANUAL and enabled and requested is not None and reports.gear_report.gear != requested
                and t_s - self._gear_sent_s >= GEAR_RESEND_S):   # a refused shift (moving) goes again, as
            self._gear_cmd.cmd = requested                         # Autoware keeps asking
            out.append(self._gear_cmd)
            self._gear_sent_s = t_s
        if self.mode != MANUAL and self.state != IDLE:
            self.timed_out(t_s)   # the stop at the DBW's default limits
            if t_s - self._actuation_s <= self.timeout_s + 1e-9:   # the actuation path drives
                out.append(self._ulc_off)
                if self.mode in _DRIVES:
                    out += [self._throttle, self._brake]
            elif self.mode in _DRIVES:
                ulc = self.ulc_command()
                if reports.gear_report.gear in (MF.G_PARK, MF.G_NEUTRAL):   # the ULC does not shift: 0 m/s
                    ulc.cmd = 0.0           # until the gear is in, so its integrator does not wind up meanwhile
                out.append(ulc)
            else:
                out.append(self._ulc_off)
            out.append(self.steering.command(reports) if self.mode in _STEERS else self._steer_off)
        if self._indicators_commanded:
            self._turn.cmd = int(MF.TurnSignal.HAZARD) if self._hazard else self._indicator
            out.append(self._turn)
        return tuple(out)

    def park_warning(self, reports: Any) -> str | None:
        """As the set-point stream's, worded for Autoware: the gear is Autoware's to command, and nothing is
        commanded before AUTONOMOUS is requested."""
        warning = super().park_warning(reports)
        if warning is not None and self.mode == MANUAL:
            return ("Control came while the control mode is MANUAL: nothing is commanded until AUTONOMOUS is "
                    "requested (/control/control_mode_request or /vehicle/engage)")
        return None if warning is None else ("the vehicle is in PARK: Autoware shifts it (gear_cmd DRIVE or REVERSE); "
                                             "the ULC follows the gear and never shifts by itself")

    # ------------------------------------------------------------------ reports out
    def control_mode(self, reports: Any) -> int:
        """``ControlModeReport`` mode: the mode in force while the DBW is enabled, else MANUAL."""
        return self.mode if reports.dbw_enabled and self.mode != MANUAL else MANUAL

    def actuation_status(self, reports: Any) -> tuple:
        """``(accel_status, brake_status, steer_status)``: the accelerator pedal the DBW sends (0..1), the
        line pressure over the full scale (0..1) and the tyre angle [rad], from the DBW's reports."""
        return (reports.throttle_report.percent_output * 0.01,
                reports.brake_report.pressure_output / self.brake_full_bar if
                math.isfinite(reports.brake_report.pressure_output) else 0.0,
                self.steering.angle_of(reports))

    @staticmethod
    def gear(reports: Any) -> int:
        """``GearReport`` code of the DBW's gear report (NONE for a gear it has no code for)."""
        return GEAR_TO_AUTOWARE.get(int(reports.gear_report.gear), 0)

    @staticmethod
    def turn_indicators(reports: Any) -> int:
        """``TurnIndicatorsReport`` code from the DBW's turn-signal feedback (hazard: DISABLE)."""
        fb = int(reports.turn_signal_report.feedback)
        return {int(MF.TurnSignal.LEFT): _TI_LEFT, int(MF.TurnSignal.RIGHT): _TI_RIGHT}.get(fb, _TI_DISABLE)

    @staticmethod
    def hazard_lights(reports: Any) -> int:
        """``HazardLightsReport`` code from the DBW's turn-signal feedback."""
        return _HL_ENABLE if int(reports.turn_signal_report.feedback) == int(MF.TurnSignal.HAZARD) else _HL_DISABLE
