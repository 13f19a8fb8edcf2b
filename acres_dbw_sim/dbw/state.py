"""What the DBW reads and writes besides commands: the driver, its outputs, its reports, the measured state.

``DriverInput`` is the person in the seat, ``DbwOutputs`` the model inputs the DBW produces,
``DbwReports`` one instance of every report (filled by report_content.py), ``MeasuredState`` the
vehicle quantities the DBW measures, copied from the model once per step (dbw-interface.md §4).
No ROS; the node's adapters turn these into messages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import reports as R
from .msg_fields import G_PARK, G_REVERSE

__all__ = ["DriverInput", "DbwOutputs", "DbwReports", "MeasuredState", "finite_or", "vin_ok",
           "SIM_VIN", "EPOCH_S", "DIR_PRNDL", "DIR_SENSOR", "TURF", "TWO_WD", "AWD"]

#: ``VehicleVelocity.dir_src`` constants (dbw-interface.md §2.10).
DIR_PRNDL, DIR_SENSOR = 1, 2

#: Model drive modes (acres_dbw_sim.model.enums.AwdSwitch numbers).
TURF, TWO_WD, AWD = 0, 1, 2

#: Simulated VIN (17 characters, valid check digit; not a real vehicle).
SIM_VIN = "3NSRRE995SE000001"
#: Simulated module clock at t = 0 (2026-01-01T00:00:00Z) [s since the epoch].
EPOCH_S = 1767225600


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


def finite_or(x: object, default: float = 0.0) -> float:
    """A finite float from a state attribute (NaN/inf/missing -> default)."""
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return v if math.isfinite(v) else default


class MeasuredState:
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
        self.gear_reject = int(finite_or(reject))
        self.gear_manual = int(finite_or(getattr(s, "manual_gear", 0)))
        self.drive_mode = int(finite_or(mode, AWD))
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
        self.v = finite_or(vb[0]) if vb is not None else finite_or(getattr(s, "speed_mps", 0.0))
        self.speed = abs(finite_or(getattr(s, "speed_mps", self.v), abs(self.v)))
        w = getattr(s, "angular_velocity_body_rad_s", None)
        if w is not None:
            for i in range(3):
                self.omega[i] = finite_or(w[i])
        fs = getattr(s, "specific_force_body_mps2", None)
        if fs is not None:
            for i in range(3):
                self.f_spec[i] = finite_or(fs[i])
        ws = getattr(s, "wheel_spin_rad_s", None)
        if ws is not None:
            for i in range(4):
                self.wheel_spin[i] = finite_or(ws[i])
        self.gear = int(finite_or(getattr(s, "gear", G_PARK), G_PARK))
        self.gear_target = int(finite_or(getattr(s, "gear_target", self.gear), self.gear))
        self.shifting = bool(getattr(s, "shift_in_progress", False))
        self.gear_reject = int(finite_or(getattr(s, "last_gear_reject", 0)))
        self.gear_manual = int(finite_or(getattr(s, "manual_gear", 0)))
        self.drive_mode = int(finite_or(getattr(s, "drive_mode", AWD), AWD))
        self.engine_rpm = finite_or(getattr(s, "engine_rpm", 0.0))
        self.engine_torque = finite_or(getattr(s, "engine_torque_nm", 0.0))
        self.cvt_ratio = finite_or(getattr(s, "cvt_ratio", 0.0))
        bt = getattr(s, "brake_torque_nm", None)
        self.brake_torque = sum(finite_or(x) for x in bt) if bt is not None else math.nan
        fl = getattr(s, "fuel_l", None)
        self.fuel_l = finite_or(fl, math.nan) if fl is not None else math.nan
        fy = getattr(s, "wheel_fy_n", None)  # front tyres' lateral forces (steering column)
        self.fy_front = finite_or(fy[0] + fy[1]) if fy is not None else 0.0
        if self.prndl:  # sign from the gear lever, not from the wheels (DIR_PRNDL)
            sg = -1.0 if self.gear == G_REVERSE else 1.0
            self.v = sg * abs(self.v)
            for i in range(4):
                self.wheel_spin[i] = sg * abs(self.wheel_spin[i])


def vin_ok(vin: str) -> bool:
    """True when the 17-character ``vin`` carries a valid ISO 3779 check digit (position 9, North-American
    VINs): the weighted sum of the transliterated characters modulo 11, 10 written ``X``.

    Raises ``KeyError`` for a character outside ISO 3779's alphabet (I, O, Q, lower case).
    """
    vals = {**{str(d): d for d in range(10)},
            **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
            **dict(zip("STUVWXYZ", range(2, 10)))}
    weights = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
    total = sum(vals[c] * w for c, w in zip(vin, weights))
    check = total % 11
    return vin[8] == ("X" if check == 10 else str(check))
