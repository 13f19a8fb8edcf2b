"""The DBW system: commands in, model inputs out, reports from the vehicle state.

``DbwSystem`` joins the pieces of this package the way the real Polaris kit
joins them (dbw-interface.md §4): the ROS driver's engage logic
(``EngageLogic``), the steering, brake, throttle and gear modules, the ULC,
turn signal, drive mode and misc, and the content of every report.

Per physics step (``step``), in this order (the "StepDbw" of the Physics Step):

1. driver input -> override detection; ULC status; pre-emption;
2. actuator statuses (timeouts, overrides, enabled; ``<X>CmdTimeout`` and
   ``<X>CmdDisengage``, §4.11);
3. driver logic: ``dbw_enabled``, request drop, 50 ms auto-clear timer;
4. ULC control (when it drives the pedals), gear requests;
5. brake (and its hold budget, §4.7), throttle and steering dynamics (the
   column model of steering_column.py reads the front tyres' lateral forces
   of the model's last step); drive mode and its 250 ms command timeout;
   gear lever request;
6. wheel-encoder counters and the measured acceleration.

What the real driver would print (engage and disengage, enable refused for a
fault, a subsystem's command timeout, the one-time ULC pre-emption warning,
gear rejects, the brake-hold requests; §4.1, §4.7, §4.9, §4.12) is collected
as ``(level, text)`` log events (``logging`` levels); the node drains them
into its logger (``drain_log``). The core stays ROS-free.

The returned ``DbwOutputs`` always hold finite values within the physical
limits: pedal 0..1, line pressure 0..``dbw.brake.max_bar``, steering-wheel
angle within +/-``dbw.steering.lock_deg``, a valid ``Gear`` and ``AwdSwitch``.

Engagement is driver-managed (SystemSyncMode NONE, §4.1, the default) or,
with ``dbw.system_sync_mode`` = 2, managed by the firmware (ALL_OR_NONE,
§4.2, see ``status.FirmwareEngage``). The other sync modes (DISENGAGES, the
``*_WITH_BTN`` modes with their physical buttons, PARTIAL) are not emulated.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import reports as R
from .actuators import FirstOrderLag, clamp, quantize
from .brake_hold import BrakeHold
from .commands import (
    BrakeCmd, DisableEvent, DriveModeCmd, EnableEvent, GearCmd, MiscCmd, SteeringCalibrateEvent,
    SteeringCmd, ThrottleCmd, TurnSignalCmd, UlcCmd,
)
from .decode import as_enum
from .gear import GearActuator
from .msg_fields import (G_NONE, G_PARK, G_REVERSE, SRC_ULC, SRC_USER, AwdMode, DiffLock, PrkBrkStat,
                         SystemState, TurnSignal)
from .params import DbwParameters
from .pedals import BrakeActuator, ThrottleActuator
from .schedule import ON_CHANGE
from .status import ActuatorStatus, EngageLogic, FirmwareEngage
from .steering import SteeringActuator
from .ulc import Ulc

__all__ = ["DbwSystem", "DriverInput", "DbwOutputs", "DbwReports", "SUBSYSTEMS",
           "REASON_NOT_READY", "REASON_DISENGAGE", "SIM_VIN", "ALWAYS_FILLED"]

#: Log levels of the log events (``DbwSystem.drain_log``).
INFO, WARN = logging.INFO, logging.WARNING

#: Subsystem names of the log lines (steering, brake, throttle).
_NAMES = ("Steering", "Brake", "Throttle")

#: GearReject -> the text the driver logs once per new reject (§4.9, own words).
GEAR_REJECT_TEXT = {
    1: "gear fault", 2: "unsupported gear", 3: "shift in progress",
    4: "override on brake, throttle or steering", 5: "brake-hold time depleted, staying in PARK",
    6: "vehicle speed too high", 7: "vehicle refused the shift (try pressing the brake)",
}

#: Subsystem names accepted by ``set_fault``.
SUBSYSTEMS = ("steering", "brake", "throttle", "gear")

#: ``VehicleVelocity.dir_src`` constants (dbw-interface.md §2.10).
DIR_PRNDL, DIR_SENSOR = 1, 2

#: Model drive modes (acres_dbw_sim.model.enums.AwdSwitch numbers).
TURF, TWO_WD, AWD = 0, 1, 2

#: ReasonNotReady codes of 2.1.8+ used here (§4.11) -> name.
REASON_NOT_READY = {
    0x00: "", 0x18: "FaultSteer", 0x19: "FaultBrake", 0x1A: "FaultThrtl", 0x1B: "FaultGear",
    0x20: "OverrideActiveSteer", 0x21: "OverrideActiveBrake", 0x22: "OverrideActiveThrtl",
    0x23: "OverrideActiveGear", 0x24: "OverrideLatchedSteer", 0x25: "OverrideLatchedBrake",
    0x26: "OverrideLatchedThrtl", 0x38: "MissingCmdSteer", 0x39: "MissingCmdBrake",
    0x3A: "MissingCmdThrtl", 0xC0: "NotEnableCmdSteer", 0xC1: "NotEnableCmdBrake",
    0xC2: "NotEnableCmdThrtl", 0xFE: "SystemDisabled",
}

#: ReasonDisengage codes used here (§4.11) -> name.
REASON_DISENGAGE = {0x00: ""}
for _base, _name in ((0x20, "Steer"), (0x40, "Brake"), (0x60, "Thrtl")):
    REASON_DISENGAGE[_base + 1] = f"{_name}CmdDisengage"
    REASON_DISENGAGE[_base + 4] = f"{_name}CmdTimeout"
    REASON_DISENGAGE[_base + 5] = f"{_name}RptFault"
    REASON_DISENGAGE[_base + 6] = f"{_name}RptOverride"
REASON_DISENGAGE.update({0x85: "GearRptFault", 0x86: "GearRptOverride", 0xC0: "SystemDisableCmd"})

#: Simulated VIN (17 characters, valid check digit; not a real vehicle).
SIM_VIN = "3NSRRE995SE000001"
#: Simulated module clock at t = 0 (2026-01-01T00:00:00Z) [s since the epoch].
_EPOCH_S = 1767225600

#: Reports that ``DbwSystem.reports`` fills on every call, whatever its ``only`` asks: the on-change
#: reports, whose change counters decide their early publication (schedule.py).
ALWAYS_FILLED = frozenset(ON_CHANGE)


@dataclass(slots=True)
class DriverInput:
    """What the (simulated) person in the seat does.

    Attributes
    ----------
    accel_pedal_pct : float
        Accelerator pedal [%], 0..100.
    brake_pedal_pct : float
        Brake pedal [%], 0..100; 100 % = ``dbw.brake.max_bar``.
    steering_torque_nm : float
        Torque on the steering wheel [Nm], positive to the left.
    steering_wheel_deg : float
        Raw steering-wheel angle the driver holds [deg], NaN = hands off.
    gear : int
        Lever position the driver selects (``Gear``), NONE = lever untouched.
    turn_signal : int
        Turn-signal stalk (``TurnSignal``).
    drive_mode : int
        AWD switch the driver selects (model ``AwdSwitch`` 0..2), -1 = untouched.

    A pedal, brake or steering torque above its threshold while the actuator
    is enabled makes an override (unless the commands carry ``ignore``);
    moving the lever is a gear override.
    """

    accel_pedal_pct: float = 0.0
    brake_pedal_pct: float = 0.0
    steering_torque_nm: float = 0.0
    steering_wheel_deg: float = math.nan
    gear: int = 0
    turn_signal: int = 0
    drive_mode: int = -1


@dataclass(slots=True)
class DbwOutputs:
    """Model inputs produced by the DBW (field names of the model's ``VehicleInputs``).

    Attributes
    ----------
    pedal : float
        Accelerator pedal seen by the engine, 0..1.
    brake_line_bar : float
        Brake line pressure [bar], 0..max.
    steering_wheel_deg : float
        Raw steering-wheel angle [deg] (servo or driver), within the lock.
    gear_request : int
        ``Gear`` requested from the lever, NONE = no request.
    drive_mode : int
        AWD switch position (model ``AwdSwitch``: 0 turf, 1 2WD, 2 AWD).
    gear_manual_request : int
        Manual gear to select this step (``GearCmd`` MANUAL with ``cmd_manual``), 0 = none; only
        for a vehicle with manual gears (``dbw.gear.manual_gears`` > 0).
    """

    pedal: float = 0.0
    brake_line_bar: float = 0.0
    steering_wheel_deg: float = 0.0
    gear_request: int = 0
    drive_mode: int = AWD
    gear_manual_request: int = 0


@dataclass(slots=True)
class DbwReports:
    """Every report the node publishes, one instance each (overwritten per call).

    Attribute names are the topic names without the ``/vehicle/`` prefix
    (``/`` -> ``_``); ``ecu_info`` holds one ``EcuInfo`` per module (Gateway,
    Throttle, §5.1); ``vin`` is the ``std_msgs/String`` content;
    ``gear_report_changes`` and ``system_report_changes`` count the changes of
    those reports (they go out early on a change, §1.4, schedule.py).
    """

    steering_report: R.SteeringReport = field(default_factory=R.SteeringReport)
    brake_report: R.BrakeReport = field(default_factory=R.BrakeReport)
    throttle_report: R.ThrottleReport = field(default_factory=R.ThrottleReport)
    gear_report: R.GearReport = field(default_factory=R.GearReport)
    system_report: R.SystemReport = field(default_factory=R.SystemReport)
    ulc_report: R.UlcReport = field(default_factory=R.UlcReport)
    misc_report: R.MiscReport = field(default_factory=R.MiscReport)
    turn_signal_report: R.TurnSignalReport = field(default_factory=R.TurnSignalReport)
    drive_mode_report: R.DriveModeReport = field(default_factory=R.DriveModeReport)
    vehicle_velocity: R.VehicleVelocity = field(default_factory=R.VehicleVelocity)
    wheel_speeds: R.WheelSpeeds = field(default_factory=R.WheelSpeeds)
    wheel_positions: R.WheelPositions = field(default_factory=R.WheelPositions)
    tire_pressures: R.TirePressures = field(default_factory=R.TirePressures)
    throttle_info: R.ThrottleInfo = field(default_factory=R.ThrottleInfo)
    brake_info: R.BrakeInfo = field(default_factory=R.BrakeInfo)
    steering_offset: R.SteeringOffset = field(default_factory=R.SteeringOffset)
    steering_info: R.SteeringInfo = field(default_factory=R.SteeringInfo)
    propulsion_info: R.PropulsionInfo = field(default_factory=R.PropulsionInfo)
    fuel_level: R.FuelLevel = field(default_factory=R.FuelLevel)
    steering_diag: R.SteeringDiagnostics = field(default_factory=R.SteeringDiagnostics)
    brake_diag: R.BrakeDiagnostics = field(default_factory=R.BrakeDiagnostics)
    throttle_diag: R.ThrottleDiagnostics = field(default_factory=R.ThrottleDiagnostics)
    gear_diag: R.GearDiagnostics = field(default_factory=R.GearDiagnostics)
    imu: R.ImuData = field(default_factory=R.ImuData)
    ecu_info: tuple = ()
    vin: str = SIM_VIN
    dbw_enabled: bool = False
    #: number of changes of the gear and system reports' content (early publication, schedule.py)
    gear_report_changes: int = 0
    system_report_changes: int = 0


def _f(x: object, default: float = 0.0) -> float:
    """A finite float from a state attribute (NaN/inf/missing -> default)."""
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return v if math.isfinite(v) else default


class _StateView:
    """The vehicle-state quantities the DBW reads, copied once per step.

    Reads the attributes of the model's ``Vehicle`` (planned interface:
    ``velocity_body_mps``, ``speed_mps``, ``angular_velocity_body_rad_s``,
    ``specific_force_body_mps2``, ``wheel_spin_rad_s``, ``gear``,
    ``gear_target``, ``shift_in_progress``, ``last_gear_reject``,
    ``drive_mode``, ``engine_rpm``, ``engine_torque_nm``, ``cvt_ratio``,
    ``brake_torque_nm``, ``fuel_l``, ``wheel_fy_n``, ``manual_gear``); a missing or
    non-finite value reads as 0.

    ``v`` and ``wheel_spin`` are what the DBW measures: with ``DIR_PRNDL``
    (``dbw.vehicle_velocity_dir_src`` = 1) their sign is that of the gear,
    negative in REVERSE and positive otherwise, whatever way the wheels turn
    (a vehicle rolling back in H reads a positive speed); with ``DIR_SENSOR``
    (2) it is the true sign. Everything in the DBW (reports, ULC, the
    yaw-rate conversion, the wheel counters) uses these measured values.
    """

    __slots__ = ("v", "speed", "omega", "f_spec", "wheel_spin", "gear", "gear_target", "shifting",
                 "gear_reject", "drive_mode", "engine_rpm", "engine_torque", "cvt_ratio",
                 "brake_torque", "fuel_l", "prndl", "fy_front", "gear_manual")

    def __init__(self, dir_src: int = DIR_PRNDL) -> None:
        self.prndl = dir_src == DIR_PRNDL
        self.v = 0.0
        self.speed = 0.0
        self.omega = [0.0, 0.0, 0.0]
        self.f_spec = [0.0, 0.0, 9.80665]
        self.wheel_spin = [0.0, 0.0, 0.0, 0.0]
        self.gear = G_PARK
        self.gear_target = G_PARK
        self.shifting = False
        self.gear_reject = 0
        self.drive_mode = AWD
        self.engine_rpm = 0.0
        self.engine_torque = 0.0
        self.cvt_ratio = 0.0
        self.brake_torque = math.nan
        self.fuel_l = math.nan
        self.fy_front = 0.0
        self.gear_manual = 0

    def read(self, s: object) -> None:
        """Copy the quantities from the vehicle ``s`` (its attributes, see the class).

        The common case, a vehicle with every attribute and every value finite,
        is read directly (one sum tells that all are finite: NaN or inf in any
        term makes it non-finite); anything else goes through ``_read_checked``,
        which replaces a missing or non-finite value with its default. Both give
        the same result for a finite vehicle.
        """
        try:
            vb = s.velocity_body_mps
            speed = s.speed_mps
            w = s.angular_velocity_body_rad_s
            fs = s.specific_force_body_mps2
            ws = s.wheel_spin_rad_s
            bt = s.brake_torque_nm
            fy = s.wheel_fy_n
            rpm = s.engine_rpm
            te = s.engine_torque_nm
            cvt = s.cvt_ratio
            fuel = s.fuel_l
            gear = s.gear
            gear_target = s.gear_target
            shifting = s.shift_in_progress
            reject = s.last_gear_reject
            mode = s.drive_mode
            total = (vb[0] + speed + w[0] + w[1] + w[2] + fs[0] + fs[1] + fs[2] + ws[0] + ws[1] + ws[2] + ws[3]
                     + bt[0] + bt[1] + bt[2] + bt[3] + fy[0] + fy[1] + rpm + te + cvt + fuel)
            fast = total - total == 0.0 and isinstance(gear, int) and isinstance(gear_target, int)
        except (AttributeError, TypeError, IndexError):
            fast = False
        if not fast:
            self._read_checked(s)
            return
        self.v = v = float(vb[0])
        self.speed = abs(float(speed))
        self.omega[:] = w
        self.f_spec[:] = fs
        self.gear = gear = int(gear)
        self.gear_target = int(gear_target)
        self.shifting = bool(shifting)
        self.gear_reject = int(_f(reject))
        self.gear_manual = int(_f(getattr(s, "manual_gear", 0)))
        self.drive_mode = int(_f(mode, AWD))
        self.engine_rpm = float(rpm)
        self.engine_torque = float(te)
        self.cvt_ratio = float(cvt)
        self.brake_torque = bt[0] + bt[1] + bt[2] + bt[3]
        self.fuel_l = float(fuel)
        self.fy_front = fy[0] + fy[1]
        if self.prndl:  # sign from the gear lever, not from the wheels (DIR_PRNDL)
            sg = -1.0 if gear == G_REVERSE else 1.0
            self.v = sg * abs(v)
            self.wheel_spin[:] = (sg * abs(ws[0]), sg * abs(ws[1]), sg * abs(ws[2]), sg * abs(ws[3]))
        else:
            self.wheel_spin[:] = ws

    def _read_checked(self, s: object) -> None:
        """``read`` for a vehicle with missing or non-finite attributes (each read as its default)."""
        vb = getattr(s, "velocity_body_mps", None)
        self.v = _f(vb[0]) if vb is not None else _f(getattr(s, "speed_mps", 0.0))
        self.speed = abs(_f(getattr(s, "speed_mps", self.v), abs(self.v)))
        w = getattr(s, "angular_velocity_body_rad_s", None)
        if w is not None:
            for i in range(3):
                self.omega[i] = _f(w[i])
        fs = getattr(s, "specific_force_body_mps2", None)
        if fs is not None:
            for i in range(3):
                self.f_spec[i] = _f(fs[i])
        ws = getattr(s, "wheel_spin_rad_s", None)
        if ws is not None:
            for i in range(4):
                self.wheel_spin[i] = _f(ws[i])
        self.gear = int(_f(getattr(s, "gear", G_PARK), G_PARK))
        self.gear_target = int(_f(getattr(s, "gear_target", self.gear), self.gear))
        self.shifting = bool(getattr(s, "shift_in_progress", False))
        self.gear_reject = int(_f(getattr(s, "last_gear_reject", 0)))
        self.gear_manual = int(_f(getattr(s, "manual_gear", 0)))
        self.drive_mode = int(_f(getattr(s, "drive_mode", AWD), AWD))
        self.engine_rpm = _f(getattr(s, "engine_rpm", 0.0))
        self.engine_torque = _f(getattr(s, "engine_torque_nm", 0.0))
        self.cvt_ratio = _f(getattr(s, "cvt_ratio", 0.0))
        bt = getattr(s, "brake_torque_nm", None)
        self.brake_torque = sum(_f(x) for x in bt) if bt is not None else math.nan
        fl = getattr(s, "fuel_l", None)
        self.fuel_l = _f(fl, math.nan) if fl is not None else math.nan
        fy = getattr(s, "wheel_fy_n", None)  # front tyres' lateral forces (steering column)
        self.fy_front = _f(fy[0] + fy[1]) if fy is not None else 0.0
        if self.prndl:  # sign from the gear lever, not from the wheels (DIR_PRNDL)
            sg = -1.0 if self.gear == G_REVERSE else 1.0
            self.v = sg * abs(self.v)
            for i in range(4):
                self.wheel_spin[i] = sg * abs(self.wheel_spin[i])


def _vin_ok(vin: str) -> bool:
    """ISO 3779 check digit (position 9) of a North-American VIN."""
    vals = {**{str(d): d for d in range(10)},
            **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
            **dict(zip("STUVWXYZ", range(2, 10)))}
    weights = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
    total = sum(vals[c] * w for c, w in zip(vin, weights))
    check = total % 11
    return vin[8] == ("X" if check == 10 else str(check))


class DbwSystem:
    """Drive-by-wire emulation of the Polaris Ranger kit (ROS-free).

    Parameters
    ----------
    params : DbwParameters
        DBW parameters (``DbwParameters.from_vehicle_parameters(vp)``).
    dt_s : float
        Physics step [s] (1/1000 to 1/60).
    steering_wheel_deg : float, optional
        Initial raw steering-wheel angle [deg]; default the straight-ahead
        centre ``steering.center_deg``.
    drive_mode : int, optional
        Initial AWD switch position (model ``AwdSwitch``), default AWD.
    vin : str, optional
        VIN of the vehicle the kit is fitted to (``system/report``); default :data:`SIM_VIN`,
        the simulated Ranger's.
    ulc_plant : callable
        ``DbwParameters -> plant``: the vehicle's ULC plant model (its registry row's ``ulc_plant``).

    Raises
    ------
    ValueError
        If ``dt_s`` is not within [1e-3, 1/60], the initial values are invalid or ``vin`` is
        not 17 characters of ISO 3779 (capitals and digits, no I, O, Q).
    TypeError
        Without ``ulc_plant``.

    Notes
    -----
    Time is the caller's simulation time in seconds: ``submit(cmd, t_s)`` with
    the arrival time, ``step(t_s, state)`` once per physics step with the
    time at the start of that step, ``reports(t_s, state)`` whenever a
    report is due. The node publishes each report at its real rate (§1.4).
    """

    def __init__(self, params: DbwParameters, dt_s: float, steering_wheel_deg: float | None = None,
                 drive_mode: int = AWD, vin: str = SIM_VIN, ulc_plant=None) -> None:
        if ulc_plant is None:
            raise TypeError("DbwSystem: ulc_plant is needed, the vehicle's ULC plant model (its registry row's "
                            "ulc_plant, e.g. vehicle_spec('polaris').ulc_plant)")
        if not (isinstance(dt_s, (int, float)) and 1e-3 - 1e-12 <= dt_s <= 1.0 / 60.0 + 1e-12):
            raise ValueError(f"dt_s={dt_s!r}: must lie in [0.001, 1/60] s")
        if not (isinstance(vin, str) and len(vin) == 17 and vin.isalnum() and vin.isupper()
                and not set("IOQ") & set(vin)):
            raise ValueError(f"vin={vin!r}: 17 capital letters and digits, no I, O or Q (ISO 3779)")
        #: The VIN the system report gives (the vehicle's; ``vehicles.<name>`` defines its own).
        self.vin = vin
        self.p = params
        self.dt_s = float(dt_s)
        self.steering = SteeringActuator(params, self.dt_s, params.steering_center_deg)
        self.brake = BrakeActuator(params, self.dt_s)
        self.throttle = ThrottleActuator(params, self.dt_s)
        self.gear = GearActuator(params.gear_max_shift_speed_mps, int(params.gear_manual_gears))
        self.ulc = Ulc(params, self.dt_s, ulc_plant(params))
        self.hold = BrakeHold(params, self.dt_s)
        #: pending log events ``(level, text)``, drained by the node (``drain_log``)
        self.log_events: list = []
        self.engage = EngageLogic(0.05)
        self.sync = FirmwareEngage(0.05)
        #: Firmware-managed engagement (SystemSyncMode ALL_OR_NONE, §4.2).
        self.firmware_managed = params.system_sync_mode == 2
        self.outputs = DbwOutputs()
        self.driver = DriverInput()
        self._state = _StateView(params.vehicle_velocity_dir_src)
        self._rep = DbwReports()
        self._accel_filter = FirstOrderLag(params.accel_filter_s, self.dt_s, 0.0)
        self._grade_filter = FirstOrderLag(params.ulc_grade_filter_s, self.dt_s, 0.0)
        self._ecu = (R.EcuInfo(), R.EcuInfo())
        self._rep.ecu_info = self._ecu
        self._fill_ecu()   # the identities: filled once, not with every report
        #: DbwReports attribute -> the method that fills it (reports(only=...))
        self._fill = {
            "steering_report": self._fill_steering_report,
            "brake_report": self._fill_brake_report,
            "throttle_report": self._fill_throttle_report,
            "gear_report": self._fill_gear_report,
            "system_report": self._fill_system_report,
            "ulc_report": self._fill_ulc_report,
            "misc_report": self._fill_misc_report,
            "turn_signal_report": self._fill_turn_signal_report,
            "drive_mode_report": self._fill_drive_mode_report,
            "vehicle_velocity": self._fill_vehicle_velocity,
            "wheel_speeds": self._fill_wheel_speeds,
            "wheel_positions": self._fill_wheel_positions,
            "tire_pressures": self._fill_tire_pressures,
            "throttle_info": self._fill_throttle_info,
            "brake_info": self._fill_brake_info,
            "steering_offset": self._fill_steering_offset,
            "steering_info": self._fill_steering_info,
            "propulsion_info": self._fill_propulsion_info,
            "fuel_level": self._fill_fuel_level,
            "steering_diag": self._fill_diagnostics,
            "brake_diag": self._fill_diagnostics,
            "throttle_diag": self._fill_diagnostics,
            "gear_diag": self._fill_diagnostics,
            "imu": self._fill_imu,
        }
        self._fill_always = tuple(self._fill[name] for name in sorted(ALWAYS_FILLED))
        self._fill_every = tuple(dict.fromkeys(f for name, f in self._fill.items() if name not in ALWAYS_FILLED))
        self._three = (self.steering.status, self.brake.status, self.throttle.status)
        self._four = self._three + (self.ulc.status,)
        self._bases = ((0x20, self.steering.status), (0x40, self.brake.status), (0x60, self.throttle.status))
        self.reset(steering_wheel_deg, drive_mode)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, steering_wheel_deg: float | None = None, drive_mode: int = AWD) -> None:
        """Return to power-on: disengaged, nothing received, no faults, no driver input.

        Raises
        ------
        ValueError
            If ``steering_wheel_deg`` is not finite or ``drive_mode`` not 0..2.
        """
        a = self.p.steering_center_deg if steering_wheel_deg is None else steering_wheel_deg
        if not math.isfinite(a):
            raise ValueError(f"steering_wheel_deg={a!r}: must be finite")
        if drive_mode not in (TURF, TWO_WD, AWD):
            raise ValueError(f"drive_mode={drive_mode!r}: must be 0 (turf), 1 (2WD) or 2 (AWD)")
        self.steering.reset(a)
        self.brake.reset()
        self.throttle.reset()
        self.gear.reset()
        self.ulc.reset()
        self.hold.reset()
        self.engage.reset()
        self.sync.reset()
        self.driver = DriverInput()
        self.outputs.pedal = 0.0
        self.outputs.brake_line_bar = 0.0
        self.outputs.steering_wheel_deg = self.steering.angle_deg
        self.outputs.gear_request = G_NONE
        self.outputs.drive_mode = drive_mode
        self.drive_mode = drive_mode
        self.drive_mode_cmd = (0, 0)  # (awd_mode_cmd, rear_diff_cmd) in force
        self.turn_signal_cmd = int(TurnSignal.NONE)
        self.turn_signal_t = -math.inf
        self.drive_mode_t = -math.inf
        self.t_s = 0.0
        self.wheel_counts = [0.0, 0.0, 0.0, 0.0]
        self.odometer_km = 0.0
        self._v_prev = math.nan
        self._accel_filter.y = 0.0
        self._grade_filter.y = 0.0
        self.accel_meas = 0.0
        self.grade_mps2 = 0.0
        self.disengage_reason = 0
        self.ulc_preempt_warned = False
        self._angle_prev = self.steering.angle_deg
        self.angle_rate = 0.0
        self.log_events.clear()
        self._logged_enabled = False
        self._logged_reject = 0
        self._logged_park_brake = False
        self._logged_shift_park = False

    def hold_actuators(self, pedal_pct: float = 0.0, brake_bar: float = 0.0) -> None:
        """Settle the throttle at ``pedal_pct`` [%] and the brake at ``brake_bar`` [bar] after a :meth:`reset`.

        A start from a recorded state (``Simulation.reset`` with a ``RecordedStart``): the
        actuators' set-points, dead-time cells and lags hold the recorded outputs, so the
        re-delivered commands of the recording meet actuators that already produce them. The
        engagement stays at power-on. The steering servo is settled by :meth:`reset`'s angle.

        Raises
        ------
        ValueError
            If a value is not finite.
        """
        self.throttle.hold(pedal_pct)
        self.brake.hold(brake_bar)
        self.outputs.pedal = self.throttle.output_pct * 0.01
        self.outputs.brake_line_bar = self.brake.line_bar

    def _log(self, level: int, text: str) -> None:
        """Queue one log event (``logging`` level, text) for the node (the oldest beyond 1000 dropped)."""
        ev = self.log_events
        if len(ev) >= 1000:  # nobody drains (headless runs): keep memory bounded
            del ev[0]
        ev.append((level, text))

    def drain_log(self) -> list:
        """Return the pending log events ``[(level, text), ...]`` and forget them.

        ``level`` is a ``logging`` level (``INFO``, ``WARN``); the texts are
        what the real driver would print (§4.1, §4.7, §4.9, §4.12), in this
        project's words. Empty most of the time (no allocation then).
        """
        ev = self.log_events
        if not ev:
            return ev
        self.log_events = []
        return ev

    @property
    def dbw_enabled(self) -> bool:
        """What ``/vehicle/dbw_enabled`` publishes (§4.1; §4.2: system state ACTIVE)."""
        return self.sync.active if self.firmware_managed else self.engage.enabled

    @property
    def measured_speed_mps(self) -> float:
        """The speed ``vehicle_velocity`` reports, before its 0.01 km/h quantum [m/s].

        The body's forward speed of the vehicle state read by the last :meth:`reports`;
        under ``DIR_PRNDL`` (``dbw.vehicle_velocity_dir_src`` = 1) its magnitude with the
        lever's sign (a vehicle rolling back in D reports a positive speed).
        """
        return self._state.v

    @property
    def invalid_commands(self) -> int:
        """Number of commands with a NaN set-point and a non-NONE type (treated as NONE)."""
        return (self.steering.invalid_count + self.brake.invalid_count + self.throttle.invalid_count
                + self.ulc.invalid_count)

    # ------------------------------------------------------------------ inputs
    def _gear_override(self) -> bool:
        return self.gear.override_active

    def enable(self, t_s: float | None = None) -> bool:
        """``/vehicle/enable``: request engagement; False if refused by a fault (§4.1).

        In the firmware-managed mode (§4.2) the System *Enable* goes out at the
        next 50 ms tick and the firmware may still refuse it: True means queued.
        """
        if self.firmware_managed:
            self.sync.on_enable(self._four)
            return True
        ok = self.engage.on_enable(self._three, self.gear.fault_injected, self._gear_override())
        if not ok:
            faulted = [n for n, st in zip(_NAMES, self._three) if st.fault and not st.timeout]
            if self.gear.fault_injected:
                faulted.append("Gear")
            self._log(WARN, f"DBW enable refused: fault on {', '.join(faulted)}")
        return ok

    def disable(self, t_s: float | None = None) -> None:
        """``/vehicle/disable``: drop the request (§4.1 event 2) or send System *Disable* (§4.2)."""
        if self.firmware_managed:
            if self.sync.on_disable():
                self.disengage_reason = 0xC0
            return
        if self.engage.request or self.engage.enabled:
            self.disengage_reason = 0xC0
        self.engage.on_disable()

    def steering_calibrate(self, t_s: float | None = None) -> None:
        """``/vehicle/steering/calibrate`` (deprecated): the present position is 0 deg."""
        self.steering.calibrate(0.0)

    def submit(self, command: object, t_s: float) -> None:
        """Receive one command or event at simulation time ``t_s`` [s].

        Parameters
        ----------
        command : object
            A command dataclass of ``acres_dbw_sim.dbw.commands`` or an event
            (``ENABLE``, ``DISABLE``, ``STEERING_CALIBRATE``). Any field content
            is accepted and handled as documented in ``decode.py``.
        t_s : float
            Arrival time [s], finite.

        Raises
        ------
        TypeError
            If ``command`` is not one of the command or event classes.
        ValueError
            If ``t_s`` is not a finite number.
        """
        if isinstance(t_s, bool) or not isinstance(t_s, (int, float)) or not math.isfinite(t_s):
            raise ValueError(f"t_s={t_s!r}: must be a finite number of seconds")
        en = self.dbw_enabled
        fw = self.firmware_managed
        # §4.1: enable bit masked by the driver's state, clear added while the request is set;
        # §4.2: enable bit passed through, one-shot clear after an enable event
        mask = True if fw else en
        req = self.engage.request and not fw
        if isinstance(command, SteeringCmd):
            clr = self.sync.take_clear(0) if fw else req and self.steering.status.override_latched
            self.steering.command(t_s, command, mask, clr)
            if self.steering.refused is not None:
                self._log(WARN, self.steering.refused)
                self.steering.refused = None
        elif isinstance(command, BrakeCmd):
            clr = self.sync.take_clear(1) if fw else req and self.brake.status.override_latched
            self.brake.command(t_s, command, mask, clr)
        elif isinstance(command, ThrottleCmd):
            clr = self.sync.take_clear(2) if fw else req and self.throttle.status.override_latched
            self.throttle.command(t_s, command, mask, clr)
        elif isinstance(command, UlcCmd):
            clr = self.sync.take_clear(3) if fw else req and self.ulc.status.override_latched
            self.ulc.command(t_s, command, mask, clr)
        elif isinstance(command, GearCmd):
            s = self._state
            self.gear.command(command, en, s.v, s.gear, s.shifting, self._any_override(), SRC_USER,
                              self.hold.req_shift_park)
        elif isinstance(command, TurnSignalCmd):
            self.turn_signal_t = t_s
            self.turn_signal_cmd = as_enum(getattr(command, "cmd", 0), frozenset({0, 1, 2, 3})) if en else 0
        elif isinstance(command, DriveModeCmd):
            self.drive_mode_t = t_s  # the frame goes out either way (NONE values when not enabled)
            if en:
                awd = as_enum(getattr(command, "awd_mode_cmd", 0), frozenset({0, 1, 2, 3, 4}))
                rear = as_enum(getattr(command, "rear_diff_cmd", 0), frozenset({0, 1, 2}))
                self.drive_mode_cmd = (awd, rear)
                self._apply_drive_mode_cmd(awd, rear)
        elif isinstance(command, MiscCmd):
            pass  # no electric parking brake or door actuators on the Ranger: see misc_report
        elif isinstance(command, EnableEvent):
            self.enable(t_s)
        elif isinstance(command, DisableEvent):
            self.disable(t_s)
        elif isinstance(command, SteeringCalibrateEvent):
            self.steering_calibrate(t_s)
        else:
            raise TypeError(f"{type(command).__name__}: not a DBW command or event")

    def _apply_drive_mode_cmd(self, awd: int, rear: int) -> None:
        """Map ``DriveModeCmd`` (AwdMode, DiffLock) onto the Ranger's AWD switch."""
        if awd in (int(AwdMode.FOUR_AUTO), int(AwdMode.FOUR_HIGH), int(AwdMode.FOUR_LOW)):
            self.drive_mode = AWD
        elif awd == int(AwdMode.TWO_HIGH):
            self.drive_mode = TURF if rear == int(DiffLock.UNLOCKED) else TWO_WD
        elif rear == int(DiffLock.UNLOCKED):
            self.drive_mode = TURF
        elif rear == int(DiffLock.LOCKED) and self.drive_mode == TURF:
            self.drive_mode = TWO_WD

    def set_driver(self, driver: DriverInput) -> None:
        """Set the driver's input (held until changed).

        Raises
        ------
        ValueError
            If a pedal, torque or angle is not finite (the angle may be NaN =
            hands off), a pedal is outside 0..100, or an enum is unknown.
        """
        for name in ("accel_pedal_pct", "brake_pedal_pct", "steering_torque_nm"):
            v = getattr(driver, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"DriverInput.{name}={v!r}: must be a finite number")
        for name in ("accel_pedal_pct", "brake_pedal_pct"):
            if not 0.0 <= getattr(driver, name) <= 100.0:
                raise ValueError(f"DriverInput.{name}={getattr(driver, name)!r}: must lie in [0, 100] %")
        a = driver.steering_wheel_deg
        if not isinstance(a, (int, float)) or math.isinf(a):
            raise ValueError(f"DriverInput.steering_wheel_deg={a!r}: must be finite or NaN")
        if driver.gear not in (0, 1, 2, 3, 4, 5):
            raise ValueError(f"DriverInput.gear={driver.gear!r}: must be a Gear value 0..5")
        if driver.turn_signal not in (0, 1, 2, 3):
            raise ValueError(f"DriverInput.turn_signal={driver.turn_signal!r}: must be 0..3")
        if driver.drive_mode not in (-1, 0, 1, 2):
            raise ValueError(f"DriverInput.drive_mode={driver.drive_mode!r}: must be -1 or 0..2")
        self.driver = driver

    def set_fault(self, subsystem: str, active: bool = True) -> None:
        """Inject or clear a fault in ``subsystem`` (one of ``SUBSYSTEMS``).

        Raises
        ------
        ValueError
            If ``subsystem`` is unknown.
        """
        if subsystem == "steering":
            self.steering.status.fault_injected = bool(active)
        elif subsystem == "brake":
            self.brake.status.fault_injected = bool(active)
        elif subsystem == "throttle":
            self.throttle.status.fault_injected = bool(active)
        elif subsystem == "gear":
            self.gear.fault_injected = bool(active)
        else:
            raise ValueError(f"subsystem={subsystem!r}: must be one of {SUBSYSTEMS}")

    def _any_override(self) -> bool:
        return (self.steering.status.override_active or self.brake.status.override_active
                or self.throttle.status.override_active)

    # ------------------------------------------------------------------ step
    def step(self, t_s: float, vehicle_state: object) -> DbwOutputs:
        """Advance the DBW one physics step and return the model inputs.

        Parameters
        ----------
        t_s : float
            Simulation time at the start of the step [s].
        vehicle_state : object
            The model's vehicle (attributes read by ``_StateView``).

        Returns
        -------
        DbwOutputs
            The same object every step (overwritten), finite and within limits.
        """
        p = self.p
        dt = self.dt_s
        self.t_s = t_s
        s = self._state
        s.read(vehicle_state)
        d = self.driver
        driver_bar = d.brake_pedal_pct * 0.01 * p.brake_max_bar
        over_brake = d.brake_pedal_pct > p.brake_override_pct
        over_throttle = d.accel_pedal_pct > p.throttle_override_pct
        over_steer = abs(d.steering_torque_nm) > p.steering_override_torque_nm
        self.gear.override_active = d.gear != 0 and d.gear != s.gear_target

        # 1. ULC status and pre-emption by fresh, enabled user pedal commands (§4.12)
        ulc = self.ulc
        ulc.status.fault_injected = self.brake.status.fault_injected or self.throttle.status.fault_injected
        fw = self.firmware_managed
        permitted = self.sync.active or not fw  # §4.2: the firmware engages only while ACTIVE
        ulc.status.update(t_s, over_brake or over_throttle, False, permitted)
        fresh_user = False
        for act in (self.brake, self.throttle):
            st = act.status
            if (st.received and st.enable_bit and (t_s - st.last_cmd_t) <= p.command_timeout_s + 1e-9):
                fresh_user = True
        ulc.preempted = fresh_user and ulc.status.enabled
        ulc_drives = ulc.status.enabled and not fresh_user
        if ulc.preempted and not self.ulc_preempt_warned:  # one-time warning (§4.12, 2.1.8+)
            self.ulc_preempt_warned = True
            self._log(WARN, "ULC pre-empted: user brake/throttle commands take priority over the ULC")

        # 2. actuator statuses
        st_s, st_b, st_t = self._three
        st_s.update(t_s, over_steer, False, permitted)
        ulc_stream = ulc.status.enable_bit and not ulc.status.timeout
        ulc_cause = ulc.status.disengage if ulc.status.dropped else 0
        st_b.update(t_s, over_brake, ulc_drives, permitted, ulc_stream, ulc_cause)
        st_t.update(t_s, over_throttle, ulc_drives, permitted, ulc_stream, ulc_cause)
        if st_s.dropped or st_b.dropped or st_t.dropped:
            self._subsystem_dropped()

        # 3. driver logic (§4.1) or the firmware's system state (§4.2)
        if fw:
            g_fault, g_over = self.gear.fault_injected, self.gear.override_active
            if self.sync.update(self._three, g_fault, g_over):
                self.disengage_reason = self._disengage_code()
            self.sync.tick(t_s, self._four, g_fault, g_over)
        else:
            was = self.engage.enabled
            self.engage.update(self._three, self.gear.fault_injected, self.gear.override_active)
            if was and not self.engage.enabled:
                self.disengage_reason = self._disengage_code()
            self.engage.tick(t_s, self._four)

        # 4. ULC control and its gear requests
        if ulc_drives:
            ulc.step(s.v, s.gear, s.shifting, self.grade_mps2, self.accel_meas, s.engine_rpm, s.cvt_ratio)
            if ulc.gear_request != G_NONE and ulc.gear_request != self.gear.pending:
                self.gear.command(GearCmd(cmd=ulc.gear_request), self.dbw_enabled, s.v, s.gear,
                                  s.shifting, self._any_override(), SRC_ULC, self.hold.req_shift_park)
        elif ulc.engaged or ulc.throttle_pct or ulc.brake_bar:
            ulc.disengage(s.v)
        else:
            ulc.v_ref = s.v

        # 5. actuators
        o = self.outputs
        o.brake_line_bar = self.brake.step(driver_bar, ulc.brake_bar)
        hold = self.hold  # brake-hold budget (§4.7, brake_hold.py); nothing to do when released and full
        if self.brake.actuator_bar > hold.min_bar or hold.remaining_s < hold.budget_s:
            hold.step(self.brake.actuator_bar, s.speed)
        if hold.req_park_brake != self._logged_park_brake:
            self._logged_park_brake = hold.req_park_brake
            if hold.req_park_brake:
                self._log(WARN, "Brake hold time running low: requesting the parking brake")
        if hold.req_shift_park:
            self.gear.request_park(s.gear, s.shifting, s.v)
            # once PARK holds the vehicle the exhausted actuator lets go
            self.brake.hold_exhausted = s.gear == G_PARK and not s.shifting
        else:
            self.brake.hold_exhausted = False
        if hold.req_shift_park != self._logged_shift_park:
            self._logged_shift_park = hold.req_shift_park
            if hold.req_shift_park:
                self._log(WARN, "Brake hold time exhausted: shifting to PARK")
        o.pedal = clamp(self.throttle.step(d.accel_pedal_pct, ulc.throttle_pct), 0.0, 1.0)
        drv_angle = d.steering_wheel_deg
        o.steering_wheel_deg = self.steering.step(s.v, d.steering_torque_nm, drv_angle, s.fy_front)
        self.angle_rate = (o.steering_wheel_deg - self._angle_prev) / dt
        self._angle_prev = o.steering_wheel_deg
        if d.drive_mode >= 0:
            self.drive_mode = d.drive_mode
        o.drive_mode = self.drive_mode
        req = self.gear.update(s.gear, s.shifting, s.gear_reject)
        o.gear_request = d.gear if d.gear != 0 else req
        o.gear_manual_request = self.gear.take_manual()
        rj = self.gear.reject
        if rj != self._logged_reject:  # the driver logs each new reject once (§4.9)
            self._logged_reject = rj
            if rj:
                self._log(WARN, f"Gear command rejected: {GEAR_REJECT_TEXT.get(rj, 'unknown reason')}")
        if t_s - self.turn_signal_t > 0.25 + 1e-9:
            self.turn_signal_cmd = 0
        if t_s - self.drive_mode_t > 0.25 + 1e-9:  # drive-mode command timeout 250 ms (§4.4)
            self.drive_mode_cmd = (0, 0)

        # 6. sensors integrated over the step
        cpr = p.wheel_counts_per_rev / (2.0 * math.pi)
        for i in range(4):
            c = self.wheel_counts[i] + s.wheel_spin[i] * dt * cpr
            self.wheel_counts[i] = math.fmod(c, 65536.0)
        self.odometer_km += s.speed * dt * 1e-3
        if self._v_prev == self._v_prev:
            self.accel_meas = self._accel_filter.step((s.v - self._v_prev) / dt)
        self._v_prev = s.v
        self.grade_mps2 = self._grade_filter.step(clamp(s.f_spec[0] - self.accel_meas, -9.81, 9.81))
        en = self.sync.active if fw else self.engage.enabled  # dbw_enabled
        if en != self._logged_enabled:
            self._logged_enabled = en
            if en:
                self._log(INFO, "DBW system enabled")
            else:
                why = REASON_DISENGAGE.get(self.disengage_reason, "Unknown") or "no reason given"
                self._log(WARN, f"DBW system disabled: {why}")
        return o

    def _subsystem_dropped(self) -> None:
        """§4.11: a subsystem left ``enabled`` because of its own command stream.

        A command timeout gives ``<X>CmdTimeout`` (and the driver's message,
        §3.3); an enable bit the stack cleared while DBW was enabled gives
        ``<X>CmdDisengage`` (the driver's own masking after a disable or an
        override keeps the reason of that event). Overrides and faults are
        coded when ``dbw_enabled`` drops (``_disengage_code``).
        """
        for k, (base, st) in enumerate(self._bases):
            if not st.dropped:
                continue
            if st.disengage == 4:
                self.disengage_reason = base + 4
                if self.dbw_enabled:   # after a disable the stack's commands stop by design: no warning then,
                    # as Dataspeed's driver warns only of a subsystem still enabled when it times out
                    self._log(WARN, f"{_NAMES[k]} subsystem disengaged: no command for "
                                    f"{1000.0 * st.timeout_s:.0f} ms (command timeout)")
            elif st.disengage == 1 and self.dbw_enabled:
                self.disengage_reason = base + 1

    def _disengage_code(self) -> int:
        """ReasonDisengage of the transition that just dropped ``dbw_enabled``."""
        if self.gear.fault_injected:
            return 0x85
        if self.gear.override_active:
            return 0x86
        for base, st in ((0x20, self.steering.status), (0x40, self.brake.status), (0x60, self.throttle.status)):
            if st.fault and not st.timeout:
                return base + 5
        for base, st in ((0x20, self.steering.status), (0x40, self.brake.status), (0x60, self.throttle.status)):
            if (st.override_active or st.override_latched) and not st.timeout:
                return base + 6
        return 0

    # ------------------------------------------------------------------ reports
    def reports(self, t_s: float, vehicle_state: object | None = None,
                only: Iterable[str] | None = None) -> DbwReports:
        """Fill and return the reports for simulation time ``t_s`` [s].

        Parameters
        ----------
        t_s : float
            Simulation time [s] (the adapter stamps the headers with it).
        vehicle_state : object, optional
            The model's vehicle; default: the state read by the last ``step``.
        only : iterable of str, optional
            ``DbwReports`` attribute names to fill (``steering_report``, ``imu``, ...); default
            every report. The others keep the values of their last fill. ``dbw_enabled``, the
            gear and system reports with their change counters (which the on-change CAN schedules
            read, schedule.py), the ECU clock and ``vin`` are filled on every call: a caller that
            fills only what it sends this step (the node) gets the same content as a full fill.

        Returns
        -------
        DbwReports
            The same object on every call, overwritten in place.

        Raises
        ------
        KeyError
            For a name in ``only`` that is not a report of ``DbwReports``.
        """
        if vehicle_state is not None:
            self._state.read(vehicle_state)
        r = self._rep
        r.dbw_enabled = self.dbw_enabled
        for f in self._fill_always:
            f(r)
        fill = self._fill
        if only is None:
            for f in self._fill_every:
                f(r)
        else:
            done = set()
            for name in only:
                f = fill[name]
                if f not in done and name not in ALWAYS_FILLED:
                    done.add(f)
                    f(r)
        clock_s = _EPOCH_S + int(max(0.0, t_s))   # the modules' real-time clock
        for e in self._ecu:
            e.datetime = clock_s
        r.vin = self.vin
        return r

    def _fill_steering_report(self, r: DbwReports) -> None:
        """``steering_report`` (§2.9, §4.5, §4.6)."""
        st_s = self.steering.status
        nan = math.nan
        sr = r.steering_report
        stg = self.steering
        fresh = st_s.received and not st_s.timeout
        sr.steering_wheel_angle = quantize(clamp(stg.reported_angle_deg, -819.1, 819.1), 0.1)
        sr.steering_column_torque = quantize(clamp(stg.driver_torque_nm, -7.9375, 7.9375), 0.0625)
        if fresh and stg.cmd_type == 1:
            sr.cmd_type, sr.cmd = 1, quantize(stg.torque_cmd_nm, 1.0 / 128.0)
        elif fresh and stg.cmd_type in (2, 3, 4, 14):
            sr.cmd_type, sr.cmd = 2, quantize(stg.target_raw + stg.offset_deg, 0.1)
        else:
            sr.cmd_type, sr.cmd = 0, nan
        sr.limiting_value = stg.limiting_value and fresh
        sr.limiting_rate = stg.limiting_rate and st_s.enabled
        self._flags(sr, st_s)
        sr.actuator_temp = nan
        # the limits the servo applies now (§2.9, §4.6; steering.py): rate and (speed-dependent) angle
        sr.limit_rate = stg.rate_limit if stg.rate_limit == math.inf else quantize(stg.rate_limit, 4.0)
        sr.limit_value = quantize(stg.angle_limit_deg, 1.0)
        sr.cmd_src = SRC_USER

    def _fill_brake_report(self, r: DbwReports) -> None:
        """``brake_report`` (§2.9, §4.7)."""
        nan = math.nan
        st_b = self.brake.status
        p = self.p
        br = r.brake_report
        brk = self.brake
        G = brk.gain_nm_per_bar
        for name in ("pressure_input", "pressure_cmd", "pressure_output", "torque_input", "torque_cmd",
                     "torque_output", "accel_cmd", "accel_output", "percent_input", "percent_cmd",
                     "percent_output"):
            setattr(br, name, nan)
        if st_b.driven_by_ulc:
            btype = 1
        elif st_b.received and not st_b.timeout:
            btype = brk.cmd_type
        else:
            btype = 0
        br.cmd_type = btype
        if btype == 1:
            br.pressure_input = quantize(brk.driver_bar, 0.05)
            br.pressure_cmd = quantize(brk.setpoint_bar, 0.05)
            br.pressure_output = quantize(brk.line_bar, 0.05)
        elif btype == 2:
            br.torque_input = quantize(brk.driver_bar * G, 4.0)
            br.torque_cmd = quantize(brk.setpoint_bar * G, 4.0)
            br.torque_output = quantize(brk.line_bar * G, 4.0)
        elif btype in (8, 9, 10):
            br.torque_input = quantize(brk.driver_bar * G, 4.0)
            br.accel_cmd = quantize(clamp(brk.cmd_value, -10.2, 10.2), 0.005)
            br.accel_output = quantize(clamp(self.accel_meas, -10.2, 10.2), 0.005)
        elif btype in (13, 14):
            k = 100.0 / p.brake_max_bar
            br.percent_input = quantize(brk.driver_bar * k, 0.025)
            br.percent_cmd = quantize(brk.setpoint_bar * k, 0.025)
            br.percent_output = quantize(brk.line_bar * k, 0.025)
        br.btsi_cmd = False
        br.yield_request = False
        br.limiting_value = brk.limiting_value and btype != 0
        br.limiting_rate = brk.limiting_rate and st_b.enabled
        self._flags(br, st_b)
        # the set-point limit in the unit of the command (§4.7 limit_value modes): % for the
        # percent types, m/s^2 (deceleration) for the accel types, bar otherwise
        if btype in (13, 14):
            br.limit_value = 100.0
        elif btype in (8, 9, 10):
            br.limit_value = quantize(min(10.0, p.brake_max_bar / brk.bar_per_mps2), 0.02)
        else:
            br.limit_value = quantize(p.brake_max_bar, 0.2)
        hold = self.hold  # §4.7 brake-hold budget (brake_hold.py)
        br.brake_available_partial_inf = 0  # BrakeInfDur UNSUPPORTED: the hold is finite
        br.brake_available_duration = hold.reported_duration_s()
        br.brake_available_full = hold.full
        br.req_shift_park = hold.req_shift_park
        br.req_park_brake = hold.req_park_brake
        br.external_button = False
        br.comms_loss_armed = False
        br.cmd_src = SRC_ULC if st_b.driven_by_ulc else SRC_USER

    def _fill_throttle_report(self, r: DbwReports) -> None:
        """``throttle_report`` (§2.9, §4.8)."""
        st_t = self.throttle.status
        nan = math.nan
        tr = r.throttle_report
        thr = self.throttle
        if st_t.driven_by_ulc:
            ttype = 14
        elif st_t.received and not st_t.timeout:
            ttype = thr.cmd_type
        else:
            ttype = 0
        tr.cmd_type = ttype
        if ttype:
            tr.percent_input = quantize(thr.driver_pct, 0.025)
            tr.percent_cmd = quantize(thr.setpoint_pct, 0.025)
            tr.percent_output = quantize(thr.output_pct, 0.025)
        else:
            tr.percent_input = tr.percent_cmd = tr.percent_output = nan
        tr.yield_request = False
        tr.limiting_value = thr.limiting_value and ttype != 0
        tr.limiting_rate = thr.limiting_rate and st_t.enabled
        self._flags(tr, st_t)
        tr.limit_value = 100.0  # the percent set-point is clipped to 100 % (§4.8, pedals.py)
        tr.cmd_src = SRC_ULC if st_t.driven_by_ulc else SRC_USER

    def _fill_gear_report(self, r: DbwReports) -> None:
        """``gear_report`` and its change counter (§2.9, §4.9)."""
        s = self._state
        nan = math.nan
        gr = r.gear_report
        g = self.gear
        if gr.gear != s.gear or gr.cmd != g.pending or gr.driver != s.gear_target or gr.reject != g.reject:
            r.gear_report_changes += 1
        gr.gear = s.gear
        gr.cmd = g.pending
        gr.driver = s.gear_target
        gr.reject = g.reject
        gr.gear_manual = s.gear_manual
        gr.cmd_manual = g.manual_cmd
        gr.power_latched = False
        gr.external_control = False
        gr.ready = not g.fault_injected
        gr.override_active = g.override_active
        gr.override_other = self.sync.override_other and not g.override_active
        gr.fault = g.fault_injected
        gr.bad_crc = False
        gr.degraded = False
        gr.actuator_temp = nan
        gr.support_cmd_manual = g.manual_gears > 0
        gr.ready_to_calibrate = False
        gr.req_brake_cal = False
        gr.cmd_src = g.cmd_src

    def _fill_system_report(self, r: DbwReports) -> None:
        """``system_report`` and its change counter (§2.9, §4.11)."""
        p = self.p
        g = self.gear
        st_s, st_b, st_t = self._three
        sy = r.system_report
        sy.inhibit = False
        sy.validate_cmd_crc_rc = False
        sy.system_sync_mode = p.system_sync_mode
        sy.fault = st_s.fault or st_b.fault or st_t.fault or g.fault_injected
        sy.override = (st_s.override_active or st_b.override_active or st_t.override_active
                       or g.override_active)
        sy.ready = st_s.ready and st_b.ready and st_t.ready and not g.fault_injected
        if self.firmware_managed:  # "any enabled" in the firmware-sync modes (§2.9)
            sy.enabled = (st_s.enabled or st_b.enabled or st_t.enabled) and not g.fault_injected
            active = self.sync.active
        else:
            sy.enabled = st_s.enabled and st_b.enabled and st_t.enabled and not g.fault_injected
            active = sy.enabled
        state = int(SystemState.FAULT if sy.fault else SystemState.ACTIVE if active
                    else SystemState.READY if sy.ready else SystemState.MANUAL)
        nr = self._not_ready_code()
        dr = self.disengage_reason
        if state != sy.state or nr != sy.reason_not_ready or dr != sy.reason_disengage:
            r.system_report_changes += 1
        sy.state = state
        sy.reason_not_ready = nr
        sy.reason_not_ready_str = REASON_NOT_READY.get(nr, "Unknown")
        sy.reason_disengage = dr
        sy.reason_disengage_str = REASON_DISENGAGE.get(dr, "Unknown")
        sy.btn_enable = sy.btn_disable = sy.lockout = False
        sy.bad_crc = sy.bad_rc = False

    def _fill_ulc_report(self, r: DbwReports) -> None:
        """``ulc_report`` (§4.12)."""
        s = self._state
        ur = r.ulc_report
        u = self.ulc
        ur.cmd_type = u.cmd_type if (u.status.received and not u.status.timeout) else 0
        ur.vel_ref = quantize(clamp(u.v_ref if u.engaged else s.v, -81.9, 81.9), 0.02)
        ur.vel_meas = quantize(clamp(s.v, -81.9, 81.9), 0.02)
        ur.accel_ref = quantize(clamp(u.a_ref if u.engaged else 0.0, -6.35, 6.35), 0.05)
        ur.accel_meas = quantize(clamp(self.accel_meas, -6.35, 6.35), 0.05)
        ur.coast_decel = u.coast_decel
        ur.ready = u.status.ready
        ur.enabled = u.status.enabled
        ur.override_active = u.status.override_active
        ur.override_latched = u.status.override_latched
        ur.preempted = u.preempted
        ur.timeout = u.status.timeout
        ur.bad_crc = ur.bad_rc = False

    def _fill_misc_report(self, r: DbwReports) -> None:
        """``misc_report``: no parking-brake or temperature sensors on the Ranger."""
        nan = math.nan
        mr = r.misc_report
        mr.parking_brake = int(PrkBrkStat.UNKNOWN)  # no electric parking brake (park is a gear)
        for name in ("outside_air_temp", "engine_coolant_temp", "engine_oil_temp", "trans_oil_temp",
                     "trans_clutch_temp", "traction_motor_coil_temp", "traction_motor_elec_temp"):
            setattr(mr, name, nan)

    def _fill_turn_signal_report(self, r: DbwReports) -> None:
        """``turn_signal_report`` (§4.4)."""
        ts = r.turn_signal_report
        ts.input = self.driver.turn_signal
        ts.cmd = self.turn_signal_cmd
        ts.output = self.turn_signal_cmd if self.turn_signal_cmd else self.driver.turn_signal
        ts.feedback = ts.output
        ts.ready = True
        ts.timeout = self.turn_signal_t > -math.inf and (self.t_s - self.turn_signal_t) > 0.25 + 1e-9

    def _fill_drive_mode_report(self, r: DbwReports) -> None:
        """``drive_mode_report``: the AWD switch as AwdMode and DiffLock (§4.4)."""
        s = self._state
        dm = r.drive_mode_report
        mode = s.drive_mode if s.drive_mode in (TURF, TWO_WD, AWD) else self.drive_mode
        dm.drive_mode = dm.suspension_mode = 0
        dm.awd_mode = int(AwdMode.FOUR_AUTO if mode == AWD else AwdMode.TWO_HIGH)
        dm.rear_diff = int(DiffLock.UNLOCKED if mode == TURF else DiffLock.LOCKED)
        dm.front_diff = int(DiffLock.UNKNOWN)
        dm.awd_mode_cmd, dm.rear_diff_cmd = self.drive_mode_cmd
        dm.ready = True
        dm.support_awd_mode_cmd = dm.support_rear_diff_cmd = True

    def _fill_vehicle_velocity(self, r: DbwReports) -> None:
        """``vehicle_velocity``."""
        s = self._state
        p = self.p
        vv = r.vehicle_velocity
        vq = quantize(s.v * 3.6, 0.01) / 3.6
        vv.vehicle_velocity_brake = vq
        vv.vehicle_velocity_propulsion = vq
        vv.dir_src = p.vehicle_velocity_dir_src

    def _fill_wheel_speeds(self, r: DbwReports) -> None:
        """``wheel_speeds``."""
        s = self._state
        ws = r.wheel_speeds
        ws.front_left, ws.front_right, ws.rear_left, ws.rear_right = (
            quantize(clamp(x, -327.67, 327.67), 0.01) for x in s.wheel_spin)

    def _fill_wheel_positions(self, r: DbwReports) -> None:
        """``wheel_positions`` (wrapping int16 counts)."""
        wp = r.wheel_positions
        wp.front_left, wp.front_right, wp.rear_left, wp.rear_right = (
            ((int(math.floor(c)) + 32768) % 65536) - 32768 for c in self.wheel_counts)

    def _fill_tire_pressures(self, r: DbwReports) -> None:
        """``tire_pressures`` (the parameter file's inflation)."""
        p = self.p
        nan = math.nan
        tp = r.tire_pressures
        tp.front_left = tp.front_right = float(round(p.tyres_front_inflation_kpa))
        tp.rear_left = tp.rear_right = float(round(p.tyres_rear_inflation_kpa))
        tp.spare = nan

    def _fill_throttle_info(self, r: DbwReports) -> None:
        """``throttle_info``."""
        s = self._state
        nan = math.nan
        ti = r.throttle_info
        ti.accel_pedal_pc = quantize(self.outputs.pedal * 100.0, 0.025)
        ti.accel_pedal_qf = 0
        ti.one_pedal = 0
        ti.engine_rpm = quantize(s.engine_rpm, 0.25)
        ti.engine_throttle_valve_pc = nan  # Ranger XD only (§5.1)
        ti.drive_mode = 0

    def _fill_brake_info(self, r: DbwReports) -> None:
        """``brake_info``."""
        brk = self.brake
        G = self.brake.gain_nm_per_bar
        s = self._state
        nan = math.nan
        bi = r.brake_info
        bi.brake_torque_pedal = quantize(brk.driver_bar * G, 4.0)
        bi.brake_torque_request = quantize(max(brk.setpoint_bar, brk.driver_bar) * G, 4.0)
        bt = s.brake_torque if s.brake_torque == s.brake_torque else brk.line_bar * G
        bi.brake_torque_actual = quantize(bt, 4.0)
        bi.brake_pedal_qf = 0
        bi.brake_vacuum = nan
        bi.abs_active = bi.esc_active = bi.trac_active = False
        bi.abs_enabled = bi.esc_enabled = bi.trac_enabled = False

    def _fill_steering_offset(self, r: DbwReports) -> None:
        """``steering_offset``."""
        stg = self.steering
        so = r.steering_offset
        so.steering_wheel_angle = stg.reported_angle_deg
        so.steering_wheel_angle_raw = stg.angle_deg
        so.steering_wheel_angle_offset = stg.offset_deg
        so.offset_type = 1 if stg.offset_deg != 0.0 else 0

    def _fill_steering_info(self, r: DbwReports) -> None:
        """``steering_info``."""
        nan = math.nan
        stg = self.steering
        p = self.p
        st_s = self.steering.status
        si = r.steering_info
        si.override_torque_filtered = stg.driver_torque_nm
        si.override_torque_threshold = p.steering_override_torque_nm
        si.angle_rate = self.angle_rate
        si.angle_cmd_rate = stg.ref_rate if st_s.enabled else 0.0
        si.actuator_current = nan

    def _fill_propulsion_info(self, r: DbwReports) -> None:
        """``propulsion_info``."""
        nan = math.nan
        s = self._state
        pi = r.propulsion_info
        pi.propulsion_torque_request = pi.propulsion_torque_actual = nan  # Ford only
        gnum = {1: 15, 2: 11, 3: 14, 4: 1, 5: 1}.get(s.gear, 0)
        pi.gear_num_target = {1: 15, 2: 11, 3: 14, 4: 1, 5: 1}.get(s.gear_target, 0)
        pi.gear_num_actual = gnum
        pi.engine_torque_request = quantize(s.engine_torque, 0.25)
        pi.engine_torque_actual = quantize(s.engine_torque, 0.25)
        pi.transmission_ratio = quantize(s.cvt_ratio, 0.01)
        pi.torque_limiting = pi.limp_home = 0

    def _fill_fuel_level(self, r: DbwReports) -> None:
        """``fuel_level`` and the odometer."""
        s = self._state
        nan = math.nan
        fl = r.fuel_level
        fl.fuel_level = nan if s.fuel_l != s.fuel_l else clamp(100.0 * s.fuel_l / self._tank_l(), 0.0, 100.0)
        fl.fuel_range = nan
        fl.odometer = self.odometer_km

    def _fill_diagnostics(self, r: DbwReports) -> None:
        """The four ``*_diag`` reports."""
        g = self.gear
        st_s, st_b, st_t = self._three
        for diag, st in ((r.steering_diag, st_s), (r.brake_diag, st_b), (r.throttle_diag, st_t)):
            diag.fault = st.fault
            diag.fault_internal = st.fault
        r.gear_diag.fault = r.gear_diag.fault_internal = g.fault_injected

    def _fill_imu(self, r: DbwReports) -> None:
        """``imu``: specific force and angular velocity, quantized."""
        s = self._state
        im = r.imu
        im.linear_acceleration_x, im.linear_acceleration_y, im.linear_acceleration_z = (
            quantize(x, 0.01) for x in s.f_spec)
        im.angular_velocity_x, im.angular_velocity_y, im.angular_velocity_z = (
            quantize(x, 0.0002) for x in s.omega)

    def _tank_l(self) -> float:
        return self.p.fuel_tank_l

    def _flags(self, rep: object, st: ActuatorStatus) -> None:
        """Copy the common status flags of an actuator into its report."""
        rep.external_control = False
        rep.ready = st.ready
        rep.enabled = st.enabled
        rep.override_active = st.override_active
        # §4.2/§4.3: disengaged because another subsystem was overridden (firmware-sync mode only)
        rep.override_other = self.sync.override_other and not (st.override_active or st.override_latched)
        rep.override_latched = st.override_latched
        rep.timeout = st.timeout
        rep.fault = st.fault
        rep.bad_crc = False
        rep.bad_rc = False
        rep.degraded = False
        rep.hardware_disable = False

    def _not_ready_code(self) -> int:
        """ReasonNotReady (2.1.8+ codes) from the actuator states (§4.11, inferred mapping)."""
        trio = ((0, self.steering.status), (1, self.brake.status), (2, self.throttle.status))
        for i, st in trio:
            if st.fault:
                return 0x18 + i
        if self.gear.fault_injected:
            return 0x1B
        for i, st in trio:
            if st.override_active:
                return 0x20 + i
        if self.gear.override_active:
            return 0x23
        for i, st in trio:
            if st.override_latched:
                return 0x24 + i
        if all(st.enabled for _, st in trio):
            return 0x00
        for i, st in trio:
            if not st.enabled and (not st.received or st.timeout) and not st.driven_by_ulc:
                return 0x38 + i
        for i, st in trio:
            if not st.enabled:
                return 0xC0 + i if self.dbw_enabled else 0xFE
        return 0xFE

    def _fill_ecu(self) -> None:
        """Plausible simulated identities of the Gateway and Throttle modules (§4.13, §5.1), filled at
        construction (the ``EcuInfo`` objects of ``reports().ecu_info``): constant but for
        ``datetime``, which ``reports`` sets."""
        for k, (e, mod) in enumerate(zip(self._ecu, ("Gateway", "Throttle"))):
            e.name = f"POLARIS_RANGERXP_{mod}"
            e.app_version = "1.4.5"
            e.boot_version = "1.0"
            e.hw_rev = "SIM"
            e.app_signature = f"{0x5A1D0000 + k:08X}"
            e.mac_addr = f"02:00:00:00:00:{k + 1:02X}"
            e.config_hash = f"{0x0C0F1600 + k:08X}"
            e.config_count_modified = 0
            e.config_count_configured = 1
            e.config_nvm_blank = False
            e.config_nvm_write_pending = False
            e.build_date = "2026/01/01"
            e.license_date = "2026/01/01"
            e.control_licensed = True
            e.log_filename = "000001.dbw"
            e.log_filesystem_present = False
            e.log_fault = False
            e.datetime = _EPOCH_S
