"""The kinematic level's step through the DBW in one compiled call (dbw_step.kinematic_dbw_step) against the same
step in two Python calls (the DBW, then KinematicVehicle.step): every output, report and state array equal at
every step, through ULC and pedal driving, lever changes (a refused reverse at speed), the drive mode, a
steering command past the rack stops and a command timeout; and the DBW's compiled reading of the kinematic
level equal to its reading of the attributes."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from acres_dbw_sim.dbw.commands import (ENABLE, BrakeCmd, DriveModeCmd, GearCmd, SteeringCmd, ThrottleCmd,
                                        UlcCmd)
from acres_dbw_sim.dbw.record import record_array
from acres_dbw_sim.dbw.state import MeasuredState
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation

SCRIPT_S = 30.0


def _commands(k: int, dt_s: float) -> list:
    """What is sent before step ``k``: 50 Hz streams (ULC, then pedals) and the lever and mode events."""
    t = k * dt_s
    out = [ENABLE] if k == 0 else []
    if k % 2 == 0 and t < 26.0:   # the streams stop at 26 s: their commands time out
        if t < 12.0:
            out.append(UlcCmd(cmd=4.0 if t < 8.0 else -1.5, cmd_type=UlcCmd.CMD_VELOCITY, enable=True,
                              enable_shift=True))
        else:
            driving = 13.0 <= t < 18.0 or 21.0 <= t < 24.0
            out += [ThrottleCmd(cmd=60.0 if driving else 0.0, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True),
                    BrakeCmd(cmd=0.0 if driving else 40.0, cmd_type=BrakeCmd.CMD_PERCENT, enable=True)]
        out.append(SteeringCmd(cmd=700.0 * math.sin(0.4 * t), cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
    events = {1.0: GearCmd(cmd=Gear.DRIVE), 5.0: GearCmd(cmd=Gear.REVERSE),    # refused: under way (and the
              # ULC's own shift to reverse at 9-11 s)
              6.0: DriveModeCmd(awd_mode_cmd=1, rear_diff_cmd=2), 12.5: GearCmd(cmd=Gear.LOW),
              16.0: DriveModeCmd(awd_mode_cmd=2), 19.0: GearCmd(cmd=Gear.REVERSE), 20.5: GearCmd(cmd=Gear.DRIVE),
              25.0: GearCmd(cmd=Gear.PARK)}                                # refused: under way
    for te, cmd in events.items():
        if k == int(round(te / dt_s)):
            out.append(cmd)
    return out


def _state(sim: Simulation) -> dict:
    v = sim.vehicle
    return {"s": v._s.copy(), "u": v._u.copy(), "kv": v._kv.copy(), "out": v._out.copy(), "lv": v.lever.lv.copy(),
            "time": (sim.time_s, v.time_s),
            "attrs": (v.position_m, v.orientation_wxyz, v.wheel_spin_rad_s, v.wheel_angle_rad, v.road_wheel_angle_rad,
                      v.steering_wheel_deg, v.gear, v.last_gear_reject, v.drive_mode, v.shift_in_progress)}


def test_the_compiled_step_equals_the_python_steps():
    compiled = Simulation(model="kinematic")
    python = Simulation(model="kinematic")
    python._joined = None               # the DBW's step, then KinematicVehicle.step, each in Python
    assert compiled._joined is not None
    n = int(round(SCRIPT_S / compiled.dt_s))
    seen = set()
    for k in range(n):
        for sim in (compiled, python):
            for cmd in _commands(k, sim.dt_s):
                sim.submit(cmd)
        a = dataclasses.asdict(compiled.step())
        b = dataclasses.asdict(python.step())
        assert a == b, (k, a, b)
        sa, sb = _state(compiled), _state(python)
        for key in sa:
            if isinstance(sa[key], np.ndarray):
                assert np.array_equal(sa[key], sb[key], equal_nan=True), (k, key)
            else:
                assert sa[key] == sb[key], (k, key, sa[key], sb[key])
        reject = int(record_array(compiled.dbw.state)["gr_reject"][0])
        seen.add((compiled.vehicle.gear, compiled.dbw.dbw_enabled, reject))
        if k % 240 == 0:
            ra = {f.name: repr(getattr(compiled.reports(), f.name)) for f in dataclasses.fields(compiled.dbw._rep)}
            rb = {f.name: repr(getattr(python.reports(), f.name)) for f in dataclasses.fields(python.dbw._rep)}
            assert ra == rb, k
    # the script went where it meant to: driven in H, L and R, a request the DBW refused, the streams timed out
    gears = {g for g, _, _ in seen}
    assert {Gear.DRIVE, Gear.LOW, Gear.REVERSE, Gear.PARK} <= gears
    assert any(r for _, _, r in seen) and all(st.timeout for st in compiled.dbw.statuses)


def test_the_compiled_reading_equals_the_reading_of_the_attributes():
    """kinematic_measured (from the arrays) and MeasuredState.read (from the attributes, NaN read as 0) give the
    same record for the kinematic level, at rest and under way in a turn."""
    sim = Simulation(model="kinematic")
    for cmd in (ENABLE, GearCmd(cmd=Gear.DRIVE)):
        sim.submit(cmd)
    for k in range(600):
        if k % 2 == 0:
            sim.submit(UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True))
            sim.submit(SteeringCmd(cmd=200.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
        sim.step()
        if k in (0, 599):
            own = sim.vehicle.dbw_reading(sim.dbw)
            own()
            a = record_array(sim.dbw.state).copy()
            MeasuredState(sim.dbw.p.vehicle_velocity_dir_src, sim.dbw.state).read(sim.vehicle)
            b = record_array(sim.dbw.state)
            for name in a.dtype.names:
                if name.startswith("m_"):
                    assert np.array_equal(a[name], b[name], equal_nan=True), (k, name, a[name], b[name])
    assert sim.vehicle.speed_mps > 4.0 and abs(sim.vehicle.yaw_rate_rad_s) > 0.1
