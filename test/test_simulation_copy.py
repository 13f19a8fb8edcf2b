"""A Simulation copies (copy.deepcopy) and pickles, for every vehicle and model level: the copy joins its own
compiled step over its own arrays (Simulation.__setstate__, the vehicles' compiled entry points made anew), steps
independently of the original, and, given the same commands, exactly as the original does."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, SteeringCmd, UlcCmd
from acres_dbw_sim.dbw.record import record_array
from acres_dbw_sim.simulation import Simulation

_ULC = UlcCmd(cmd_type=UlcCmd.CMD_VELOCITY, cmd=3.0, enable=True)
_STEER = SteeringCmd(cmd_type=SteeringCmd.CMD_ANGLE, cmd=100.0, enable=True)


def _drive(sim: Simulation, steps: int) -> None:
    for k in range(steps):
        if k % 3 == 0:
            sim.submit(_ULC)
            sim.submit(_STEER)
        sim.step()


def _snapshot(sim: Simulation) -> tuple:
    return sim.time_s, sim.vehicle.position_m, sim.vehicle.speed_mps, record_array(sim.dbw.state).copy()


def _same(x: tuple, y: tuple) -> bool:
    """Equal snapshots: the DBW records field by field (NaN equal to NaN; the padding between fields is no
    state)."""
    rx, ry = x[3], y[3]
    return x[:3] == y[:3] and all(np.array_equal(rx[n], ry[n], equal_nan=True) for n in rx.dtype.names)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("kind", [dict(), dict(model="kinematic"), dict(vehicle="maxxum150")],
                         ids=["polaris", "kinematic", "maxxum150"])
def test_a_copy_steps_on_its_own_and_as_the_original(kind, how):
    a = Simulation(**kind)
    for cmd in (ENABLE, _ULC, _STEER, GearCmd(cmd=4)):
        a.submit(cmd)
    _drive(a, 300)
    b = copy.deepcopy(a) if how == "deepcopy" else pickle.loads(pickle.dumps(a))
    assert b._joined is not None and b._joined[1][0] is not a._joined[1][0]   # its own DBW record
    before = _snapshot(a)
    _drive(b, 300)
    assert _same(_snapshot(a), before)            # the original did not move with the copy
    assert b.time_s > a.time_s
    _drive(a, 300)
    assert _same(_snapshot(a), _snapshot(b))
    assert a.vehicle.speed_mps > 0.5
    assert repr(a.reports()) == repr(b.reports())
