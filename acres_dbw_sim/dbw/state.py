"""What the DBW reads and writes besides commands: the driver, its outputs, its reports, the measured state.

``DriverInput`` is the person in the seat, ``DbwOutputs`` the model inputs the DBW produces,
``DbwReports`` one instance of every report (filled by report_content.py), ``MeasuredState`` the
vehicle quantities the DBW measures, copied from the model once per step (dbw-interface.md §4).
No ROS; the node's adapters turn these into messages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..model._jit import njit, specialise
from ..model.stages import O_FY, O_OMEGA, O_SF, O_TB, O_TE, O_VB, O_WB
from . import reports as R
from .msg_fields import G_PARK, G_REVERSE
from .record import Field, Slot, record_array

__all__ = ["DriverInput", "DbwOutputs", "DbwReports", "MeasuredState", "measured_store", "driver_store", "STATE", "finite_or", "vin_ok",
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


#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the DBW's outputs (``out_*``,
#: :class:`DbwOutputs`), the driver's input (``drv_*``, from :class:`DriverInput`) and the measured vehicle
#: state (``m_*``): the one interface through which the DBW reads a vehicle (:class:`MeasuredState`,
#: :func:`measured_store`).
STATE = (
    Field("out_pedal", "-", "accelerator pedal seen by the engine, 0..1"),
    Field("out_brake_line_bar", "bar", "brake line pressure"),
    Field("out_steering_wheel_deg", "deg", "raw steering-wheel angle (servo or driver)"),
    Field("out_gear_request", "enum", "Gear requested from the lever, NONE = none", 0, "int"),
    Field("out_drive_mode", "enum", "AWD switch (model AwdSwitch)", 0, "int"),
    Field("out_gear_manual_request", "-", "manual gear to select this step, 0 = none", 0, "int"),
    Field("drv_accel_pedal_pct", "%", "the driver's accelerator pedal"),
    Field("drv_brake_pedal_pct", "%", "the driver's brake pedal"),
    Field("drv_steering_torque_nm", "N m", "the driver's torque on the wheel"),
    Field("drv_steering_wheel_deg", "deg", "the angle the driver holds, NaN = hands off"),
    Field("drv_gear", "enum", "lever position the driver selects, NONE = untouched", 0, "int"),
    Field("drv_turn_signal", "enum", "turn-signal stalk", 0, "int"),
    Field("drv_drive_mode", "enum", "AWD switch the driver selects, -1 = untouched", 0, "int"),
    Field("m_v", "m/s", "measured longitudinal speed (sign per dir_src)"),
    Field("m_speed", "m/s", "speed magnitude"),
    Field("m_omega", "rad/s", "body angular velocity (x, y, z)", 3),
    Field("m_f_spec", "m/s^2", "specific force in the body frame (x, y, z)", 3),
    Field("m_wheel_spin", "rad/s", "wheel spin FL, FR, RL, RR (sign per dir_src)", 4),
    Field("m_gear", "enum", "gear the lever is in (Gear)", 0, "int"),
    Field("m_gear_target", "enum", "gear the lever is moving to", 0, "int"),
    Field("m_shifting", "bool", "the lever is moving", 0, "bool"),
    Field("m_gear_reject", "enum", "the vehicle's last gear reject", 0, "int"),
    Field("m_drive_mode", "enum", "AWD switch (model AwdSwitch)", 0, "int"),
    Field("m_engine_rpm", "rev/min", "engine speed"),
    Field("m_engine_torque", "N m", "engine torque"),
    Field("m_cvt_ratio", "-", "belt ratio"),
    Field("m_brake_torque", "N m", "sum of the four brake torques (NaN: none given)"),
    Field("m_fuel_l", "l", "fuel in the tank (NaN: none given)"),
    Field("m_prndl", "bool", "dir_src is DIR_PRNDL: signs from the lever", 0, "bool"),
    Field("m_fy_front", "N", "sum of the front tyres' lateral forces"),
    Field("m_gear_manual", "-", "manual gear of the vehicle", 0, "int"),
)


@njit
def measured_store(S, v: float, speed: float, w0: float, w1: float, w2: float, f0: float, f1: float, f2: float,
                   ws0: float, ws1: float, ws2: float, ws3: float, gear: int, gear_target: int, shifting: bool,
                   gear_reject: int, gear_manual: int, drive_mode: int, engine_rpm: float, engine_torque: float,
                   cvt_ratio: float, brake_torque: float, fuel_l: float, fy_front: float) -> None:
    """Store one reading of the vehicle in the ``m_*`` fields of the record ``S[0]`` (``S``: its one-element
    array, :func:`~acres_dbw_sim.dbw.record.record_array`; units of :data:`STATE`): with ``m_prndl`` the
    speed and wheel spins take the lever's sign (negative in REVERSE, positive otherwise, whatever way
    the wheels turn; dbw-interface.md §2.10 ``dir_src``), else their own."""
    s = S[0]
    s.m_speed = abs(speed)
    s.m_omega[0] = w0
    s.m_omega[1] = w1
    s.m_omega[2] = w2
    s.m_f_spec[0] = f0
    s.m_f_spec[1] = f1
    s.m_f_spec[2] = f2
    s.m_gear = gear
    s.m_gear_target = gear_target
    s.m_shifting = shifting
    s.m_gear_reject = gear_reject
    s.m_gear_manual = gear_manual
    s.m_drive_mode = drive_mode
    s.m_engine_rpm = engine_rpm
    s.m_engine_torque = engine_torque
    s.m_cvt_ratio = cvt_ratio
    s.m_brake_torque = brake_torque
    s.m_fuel_l = fuel_l
    s.m_fy_front = fy_front
    if s.m_prndl:  # sign from the gear lever, not from the wheels (DIR_PRNDL)
        sg = -1.0 if gear == G_REVERSE else 1.0
        s.m_v = sg * abs(v)
        s.m_wheel_spin[0] = sg * abs(ws0)
        s.m_wheel_spin[1] = sg * abs(ws1)
        s.m_wheel_spin[2] = sg * abs(ws2)
        s.m_wheel_spin[3] = sg * abs(ws3)
    else:
        s.m_v = v
        s.m_wheel_spin[0] = ws0
        s.m_wheel_spin[1] = ws1
        s.m_wheel_spin[2] = ws2
        s.m_wheel_spin[3] = ws3


@njit
def _finite(x: float) -> float:
    """``x`` when finite, else 0 (how :class:`MeasuredState` reads a non-finite quantity)."""
    return x if x - x == 0.0 else 0.0


@njit
def measured_of_outputs(S, out, gear: int, gear_target: int, shifting: bool, gear_reject: int, gear_manual: int,
                        drive_mode: int, engine_rpm: float, cvt_ratio: float, fuel_l: float) -> None:
    """Store the reading of a vehicle on the shared core in the record ``S[0]`` (:func:`measured_store`): its
    motion, wheel and engine-torque quantities from its output array ``out`` (model/stages.py ``O_*``, what
    :class:`~acres_dbw_sim.model.body.VehicleBody` publishes as the attributes :meth:`MeasuredState.read`
    reads), the rest as arguments (units of :data:`STATE`). A non-finite value reads as
    :meth:`MeasuredState.read` reads it: 0, the fuel NaN; so both give the same record for the same vehicle."""
    v = _finite(out[O_VB])
    fuel = fuel_l if fuel_l - fuel_l == 0.0 else math.nan
    measured_store(S, v, v, _finite(out[O_WB]), _finite(out[O_WB + 1]), _finite(out[O_WB + 2]), _finite(out[O_SF]),
                   _finite(out[O_SF + 1]), _finite(out[O_SF + 2]), _finite(out[O_OMEGA]), _finite(out[O_OMEGA + 1]),
                   _finite(out[O_OMEGA + 2]), _finite(out[O_OMEGA + 3]), gear, gear_target, shifting, gear_reject,
                   gear_manual, drive_mode, _finite(engine_rpm), _finite(out[O_TE]), _finite(cvt_ratio),
                   _finite(out[O_TB]) + _finite(out[O_TB + 1]) + _finite(out[O_TB + 2]) + _finite(out[O_TB + 3]),
                   fuel, _finite(out[O_FY] + out[O_FY + 1]))


def driver_store(s, d: DriverInput) -> None:
    """Copy the driver's input ``d`` into the record's ``drv_*`` fields (units of :class:`DriverInput`)."""
    s.drv_accel_pedal_pct = d.accel_pedal_pct
    s.drv_brake_pedal_pct = d.brake_pedal_pct
    s.drv_steering_torque_nm = d.steering_torque_nm
    s.drv_steering_wheel_deg = d.steering_wheel_deg
    s.drv_gear = d.gear
    s.drv_turn_signal = d.turn_signal
    s.drv_drive_mode = d.drive_mode


def _store_entry(S):
    """:func:`measured_store`'s compiled entry point for the record array ``S`` (``_jit.specialise``: a call with
    24 numbers through numba's dispatcher would cost about 10 us in working out their types)."""
    return specialise(measured_store, (S, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, False, 0, 0,
                                       0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))


class MeasuredState:
    """The vehicle-state quantities the DBW reads, copied once per step: a view of the record's ``m_*``
    fields (:data:`STATE`).

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

    Parameters
    ----------
    dir_src : int
        ``DIR_PRNDL`` or ``DIR_SENSOR``.
    s : record, optional
        The DBW's state record (:mod:`acres_dbw_sim.dbw.record`); a new one when not given.
    """

    #: The attributes of the view (the ``m_*`` fields without their prefix).
    FIELDS = ("v", "speed", "omega", "f_spec", "wheel_spin", "gear", "gear_target", "shifting", "gear_reject",
              "drive_mode", "engine_rpm", "engine_torque", "cvt_ratio", "brake_torque", "fuel_l", "prndl",
              "fy_front", "gear_manual")
    __slots__ = ("_s", "_S", "_store")

    v = Slot("m_v")
    speed = Slot("m_speed")
    omega = Slot("m_omega", whole=list)
    f_spec = Slot("m_f_spec", whole=list)
    wheel_spin = Slot("m_wheel_spin", whole=list)
    gear = Slot("m_gear", "int")
    gear_target = Slot("m_gear_target", "int")
    shifting = Slot("m_shifting", "bool")
    gear_reject = Slot("m_gear_reject", "int")
    drive_mode = Slot("m_drive_mode", "int")
    engine_rpm = Slot("m_engine_rpm")
    engine_torque = Slot("m_engine_torque")
    cvt_ratio = Slot("m_cvt_ratio")
    brake_torque = Slot("m_brake_torque")
    fuel_l = Slot("m_fuel_l")
    prndl = Slot("m_prndl", "bool")
    fy_front = Slot("m_fy_front")
    gear_manual = Slot("m_gear_manual", "int")

    def __init__(self, dir_src: int = DIR_PRNDL, s=None) -> None:
        if s is None:
            from .record import new_state
            s = new_state()
        self._s = s
        self._S = record_array(s)
        s.m_prndl = dir_src == DIR_PRNDL
        self._store = _store_entry(self._S)
        self._store(self._S, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 9.80665, 0.0, 0.0, 0.0, 0.0, G_PARK, G_PARK, False,
                       0, 0, AWD, 0.0, 0.0, 0.0, math.nan, math.nan, 0.0)

    def __getstate__(self):
        return self._s

    def __setstate__(self, s) -> None:
        self._s = s
        self._S = record_array(s)
        self._store = _store_entry(self._S)

    def read(self, s: object) -> None:
        """Copy the quantities from the vehicle ``s`` (its attributes, see the class) into the record.

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
        self._store(self._S, float(vb[0]), float(speed), float(w[0]), float(w[1]), float(w[2]), float(fs[0]),
                       float(fs[1]), float(fs[2]), float(ws[0]), float(ws[1]), float(ws[2]), float(ws[3]),
                       int(gear), int(gear_target), bool(shifting), int(finite_or(reject)),
                       int(finite_or(getattr(s, "manual_gear", 0))), int(finite_or(mode, AWD)), float(rpm), float(te),
                       float(cvt), float(bt[0] + bt[1] + bt[2] + bt[3]), float(fuel), float(fy[0] + fy[1]))

    def _read_checked(self, s: object) -> None:
        """``read`` for a vehicle with missing or non-finite attributes (each read as its default; a missing
        vector keeps the values of the last read)."""
        vb = getattr(s, "velocity_body_mps", None)
        v = finite_or(vb[0]) if vb is not None else finite_or(getattr(s, "speed_mps", 0.0))
        speed = finite_or(getattr(s, "speed_mps", v), abs(v))
        w = getattr(s, "angular_velocity_body_rad_s", None)
        omega = [finite_or(w[i]) for i in range(3)] if w is not None else self.omega
        fs = getattr(s, "specific_force_body_mps2", None)
        f_spec = [finite_or(fs[i]) for i in range(3)] if fs is not None else self.f_spec
        ws = getattr(s, "wheel_spin_rad_s", None)
        spin = [finite_or(ws[i]) for i in range(4)] if ws is not None else self.wheel_spin
        if ws is None and self.prndl:   # stored with the lever's sign already: store the magnitudes again
            spin = [abs(x) for x in spin]
        gear = int(finite_or(getattr(s, "gear", G_PARK), G_PARK))
        gear_target = int(finite_or(getattr(s, "gear_target", gear), gear))
        bt = getattr(s, "brake_torque_nm", None)
        fl = getattr(s, "fuel_l", None)
        fy = getattr(s, "wheel_fy_n", None)  # front tyres' lateral forces (steering column)
        self._store(self._S, float(v), float(speed), float(omega[0]), float(omega[1]), float(omega[2]),
                       float(f_spec[0]), float(f_spec[1]), float(f_spec[2]), float(spin[0]), float(spin[1]),
                       float(spin[2]), float(spin[3]), gear, gear_target, bool(getattr(s, "shift_in_progress", False)),
                       int(finite_or(getattr(s, "last_gear_reject", 0))), int(finite_or(getattr(s, "manual_gear", 0))),
                       int(finite_or(getattr(s, "drive_mode", AWD), AWD)), float(finite_or(getattr(s, "engine_rpm", 0.0))),
                       float(finite_or(getattr(s, "engine_torque_nm", 0.0))),
                       float(finite_or(getattr(s, "cvt_ratio", 0.0))),
                       float(sum(finite_or(x) for x in bt)) if bt is not None else math.nan,
                       float(finite_or(fl, math.nan)) if fl is not None else math.nan,
                       float(finite_or(fy[0] + fy[1])) if fy is not None else 0.0)


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
