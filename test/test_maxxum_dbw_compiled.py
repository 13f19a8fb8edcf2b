"""The Maxxum's step through the DBW in one compiled call (dbw_vehicle.tractor_dbw_step) against the same
step in two Python calls (the DBW, then DbwTractor.step): every output, report and state quantity equal at every
step, through the events the compiled step leaves to Python (lever and direction changes, a refused reverse at
speed, manual gears, the drive mode, a hand throttle, an implement)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from acres_dbw_sim.dbw import msg_fields as MF
from acres_dbw_sim.dbw.commands import ENABLE, BrakeCmd, DriveModeCmd, GearCmd, SteeringCmd, ThrottleCmd
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation

#: (step, command) events on top of a 50 Hz stream of throttle, brake and steering commands.
SCRIPT_S = 24.0


def _commands(k: int, dt_s: float) -> list:
    """What is sent before step ``k``: the streams every 0.02 s, the lever and gear events at their times."""
    t = k * dt_s
    out = []
    if k == 0:
        out.append(ENABLE)
    if k % 2 == 0:
        driving = 2.0 <= t < 9.0 or 12.0 <= t < 14.0 or 17.5 <= t < 20.0
        out += [ThrottleCmd(cmd=55.0 if driving else 0.0, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True),
                BrakeCmd(cmd=0.0 if driving else 60.0, cmd_type=BrakeCmd.CMD_PERCENT, enable=True),
                SteeringCmd(cmd=150.0 if 4.0 <= t < 7.0 else -40.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True)]
    events = {1.0: GearCmd(cmd=Gear.DRIVE), 3.0: GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=7),
              5.0: GearCmd(cmd=Gear.REVERSE),                            # refused: under way
              6.0: DriveModeCmd(awd_mode_cmd=1, rear_diff_cmd=2),        # 2WD: the MFD off
              10.5: GearCmd(cmd=Gear.REVERSE), 15.5: GearCmd(cmd=Gear.NEUTRAL),
              16.0: DriveModeCmd(awd_mode_cmd=2),                        # AWD again
              16.5: GearCmd(cmd=Gear.LOW), 17.0: GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=3),
              22.5: GearCmd(cmd=Gear.PARK)}
    for te, cmd in events.items():
        if k == int(round(te / dt_s)):
            out.append(cmd)
    return out


def _state(sim: Simulation) -> dict:
    v = sim.vehicle
    t = v.tractor
    return {"out": t._out.copy(), "s": t._s.copy(), "sw": t._sw.copy(), "led": t._led.copy(), "tv": t._tv.copy(),
            "fv": v._fv.copy(), "x": t.chassis.x.copy(), "time": (sim.time_s, t.time_s),
            "attrs": (t.engine_rpm, t.shift_in_progress, t.clutch_engagement, v.gear, v.last_gear_reject,
                      v.drive_mode, t.gear, t.direction, t.park_brake)}


@pytest.mark.parametrize("overrides", [None, "implement.attachment=mounted"], ids=["bare", "implement"])
def test_the_compiled_step_equals_the_python_steps(overrides, monkeypatch):
    compiled = Simulation(vehicle="maxxum150", params=None if overrides is None else _params(overrides))
    python = Simulation(vehicle="maxxum150", params=None if overrides is None else _params(overrides))
    python._joined = None               # the DBW's step, then DbwTractor.step, each in Python
    assert compiled._joined is not None
    compiled.vehicle.tractor.set_hand_throttle(0.05)
    python.vehicle.tractor.set_hand_throttle(0.05)
    in_python = []   # the steps the compiled call left to DbwTractor.step
    step = type(compiled.vehicle).step
    monkeypatch.setattr(compiled.vehicle, "step", lambda inp: (in_python.append(compiled._steps), step(compiled.vehicle, inp)))
    n = int(round(SCRIPT_S / compiled.dt_s))
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
    ra = {f.name: repr(getattr(compiled.reports(), f.name)) for f in dataclasses.fields(compiled.dbw._rep)}
    rb = {f.name: repr(getattr(python.reports(), f.name)) for f in dataclasses.fields(python.dbw._rep)}
    assert ra == rb
    v = compiled.vehicle
    assert v.gear == Gear.PARK and v.tractor.gear == 3 and compiled.dbw.drain_log() == python.dbw.drain_log()
    assert abs(v.tractor.speed_mps) < 0.5
    if overrides is None:   # the events and the first step (no set-up yet) in Python, the rest compiled
        assert 8 <= len(in_python) <= 40, in_python
    else:                   # an implement's force is evaluated in Python: every step
        assert len(in_python) == n


def _params(overrides: str):
    from acres_dbw_sim.vehicles import vehicle_spec
    return vehicle_spec("maxxum150").load_parameters(None, overrides, None, None)
