"""Hypothesis strategies of DBW commands and driver input, and the report fields allowed to be non-finite."""
from __future__ import annotations

import math
from dataclasses import fields

from hypothesis import strategies as st

from acres_dbw_sim.dbw import commands as C
from acres_dbw_sim.dbw.state import DriverInput


WILD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e30, -1e30, 1e-30, 487.0, 80.0, 100.0, -5.0]),
    st.integers(min_value=-10**20, max_value=10**20),
    st.none(), st.text(max_size=3), st.booleans(),
)
ENUM = st.one_of(st.integers(min_value=-3, max_value=300), st.sampled_from([0, 1, 2, 3, 4, 8, 9, 10, 13, 14, 15]),
                 st.none(), st.floats(), st.text(max_size=2))
FLAG = st.one_of(st.booleans(), st.integers(-2, 2), st.none(), st.floats())


def _cmd(cls):
    kw = {}
    for f in fields(cls):
        if f.type in ("float", float):
            kw[f.name] = WILD
        elif f.type in ("bool", bool):
            kw[f.name] = FLAG
        else:
            kw[f.name] = ENUM
    return st.builds(cls, **kw)


def _sane(cls, types):
    """Well-formed commands (valid type, enable set) so that streams really actuate."""
    kw = {f.name: st.floats(-1e4, 1e4) for f in fields(cls) if f.type in ("float", float)}
    kw["cmd_type"] = st.sampled_from(types)
    kw["enable"] = st.just(True)
    return st.builds(cls, **kw)


COMMAND = st.one_of(
    _sane(C.SteeringCmd, [1, 2, 3, 4, 14, 15]), _sane(C.BrakeCmd, [1, 2, 8, 9, 10, 13, 14]),
    _sane(C.ThrottleCmd, [13, 14]), _sane(C.UlcCmd, [1, 2]),
    st.builds(C.GearCmd, cmd=st.integers(0, 7)),
    _cmd(C.SteeringCmd), _cmd(C.BrakeCmd), _cmd(C.ThrottleCmd), _cmd(C.GearCmd), _cmd(C.UlcCmd),
    _cmd(C.MiscCmd), _cmd(C.TurnSignalCmd), _cmd(C.DriveModeCmd),
    st.sampled_from([C.ENABLE, C.DISABLE, C.STEERING_CALIBRATE]),
)
DRIVER = st.builds(
    DriverInput,
    accel_pedal_pct=st.floats(0, 100), brake_pedal_pct=st.floats(0, 100),
    steering_torque_nm=st.floats(-20, 20),
    steering_wheel_deg=st.one_of(st.just(math.nan), st.floats(-600, 600)),
    gear=st.integers(0, 5), turn_signal=st.integers(0, 3), drive_mode=st.integers(-1, 2))
EVENT = st.one_of(
    st.tuples(st.just("cmd"), COMMAND, st.integers(0, 3)),        # burst of 1-4 at the same time
    st.tuples(st.just("gap"), st.floats(0.0, 0.4), st.just(0)),   # gap in seconds
    st.tuples(st.just("stream"), COMMAND, st.integers(1, 150)),   # the same command at 60 Hz, n steps
    st.tuples(st.just("driver"), DRIVER, st.just(0)),
    st.tuples(st.just("fault"), st.sampled_from(["steering", "brake", "throttle", "gear"]), st.booleans()),
    st.tuples(st.just("speed"), st.floats(-8.0, 30.0), st.just(0)),
)

#: Report fields the real system leaves NaN (unknown) or +inf (unlimited) (§1.6, §4.7, §4.8).
MAY_BE_NONFINITE = {
    "steering_report": {"cmd", "actuator_temp", "limit_rate"},
    "brake_report": {"pressure_input", "pressure_cmd", "pressure_output", "torque_input", "torque_cmd",
                     "torque_output", "accel_cmd", "accel_output", "percent_input", "percent_cmd",
                     "percent_output", "limit_value", "brake_available_duration"},
    "throttle_report": {"percent_input", "percent_cmd", "percent_output", "limit_value"},
    "gear_report": {"actuator_temp"},
    "misc_report": {"outside_air_temp", "engine_coolant_temp", "engine_oil_temp", "trans_oil_temp",
                    "trans_clutch_temp", "traction_motor_coil_temp", "traction_motor_elec_temp"},
    "tire_pressures": {"spare"},
    "throttle_info": {"engine_throttle_valve_pc"},
    "brake_info": {"brake_vacuum"},
    "steering_info": {"actuator_current"},
    "propulsion_info": {"propulsion_torque_request", "propulsion_torque_actual"},
    "fuel_level": {"fuel_range"},
}
