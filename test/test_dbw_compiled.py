"""The DBW's compiled functions (dbw/record.py), the Ranger's step through it and its headless loop: a second
process loads every one of them from numba's cache, and the record keeps its content through a pickle and a
deep copy."""
from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from acres_dbw_sim.dbw.commands import ENABLE, SteeringCmd, ThrottleCmd
from acres_dbw_sim.model._jit import JIT
from acres_dbw_sim.simulation import Simulation

ROOT = Path(__file__).resolve().parents[1]

_DRIVE = """
import json, sys
sys.path.insert(0, {root!r})
from acres_dbw_sim.dbw import commands as C
from acres_dbw_sim.simulation import Simulation
import acres_dbw_sim.dbw as dbw_pkg, acres_dbw_sim.vehicles.polaris.ulc_plant as plant, importlib, pkgutil
for vehicle, model in (("polaris", "full"), ("maxxum150", "full"), ("polaris", "kinematic")):
    sim = Simulation(vehicle=vehicle, model=model)
    for cmd in (C.ENABLE, C.SteeringCmd(cmd_type=2, cmd=10.0, enable=True), C.BrakeCmd(cmd_type=1, cmd=10.0),
                C.ThrottleCmd(cmd_type=14, cmd=10.0), C.UlcCmd(cmd_type=1, cmd=1.0), C.GearCmd(cmd=4),
                C.TurnSignalCmd(cmd=1), C.DriveModeCmd(), C.STEERING_CALIBRATE, C.DISABLE):
        sim.submit(cmd)
        sim.step()
    sim.reports()
# the headless loop between timeline entries (Simulation.run_recorded): re-sends, step, row, stop conditions
import numpy as np
from acres_dbw_sim.scenario.signals import COLUMNS, parse_condition, stop_table
sim = Simulation()
ulc = C.UlcCmd(cmd_type=1, cmd=2.0, enable=True)
for cmd in (C.ENABLE, ulc, C.GearCmd(cmd=4)):
    sim.submit(cmd)
sim.step()
data = np.zeros((100, len(COLUMNS)))
assert sim.run_recorded(60, [ulc], 2.4, 2.4, data, 1, 1, 60, 1e-8,
                        stop_table([parse_condition("speed_mps > 100")])) is not None
import acres_dbw_sim.vehicles.polaris.dbw_step as joined, acres_dbw_sim.scenario.signals as signals
import acres_dbw_sim.vehicles.maxxum150.dbw_vehicle as tractor, acres_dbw_sim.model._jit as jit
mods = [importlib.import_module(f"acres_dbw_sim.dbw.{{m.name}}") for m in pkgutil.iter_modules(dbw_pkg.__path__)]
mods += [joined, signals, tractor, jit]
hits = misses = 0
loaded = []
for mod in mods + [plant]:
    for name, fn in vars(mod).items():
        stats = getattr(fn, "stats", None)
        if stats is not None and getattr(fn, "__module__", "") == mod.__name__:
            hits += sum(stats.cache_hits.values())
            misses += sum(stats.cache_misses.values())
            if sum(stats.cache_hits.values()):
                loaded.append(name)
print(json.dumps(dict(hits=hits, misses=misses, loaded=loaded)))
"""


def _run() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("ACRES_MODEL_NO_JIT", "NUMBA_DISABLE_JIT")}
    out = subprocess.run([sys.executable, "-c", _DRIVE.format(root=str(ROOT))], env=env, check=True,
                         capture_output=True, text=True, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.skipif(not JIT, reason="numba is not in use")
def test_a_second_process_loads_every_compiled_dbw_function_from_the_cache():
    _run()                      # compiles what is not cached yet
    second = _run()
    assert second["misses"] == 0 and second["hits"] > 0
    # the steps' packed arguments (model/_jit.py Packed, a numba StructRef) and the calls that take them
    assert {"_pack", "ranger_dbw_tick", "tractor_dbw_tick", "kinematic_dbw_tick"} <= set(second["loaded"])


def _driven() -> Simulation:
    sim = Simulation()
    sim.submit(ENABLE)
    for k in range(120):
        if k % 3 == 0:
            sim.submit(ThrottleCmd(cmd_type=14, cmd=20.0, enable=True))
            sim.submit(SteeringCmd(cmd_type=2, cmd=90.0, enable=True))
        sim.step()
    return sim


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_the_dbw_goes_on_alike_after_a_pickle_or_a_deep_copy(how):
    sim = _driven()
    twin = pickle.loads(pickle.dumps(sim.dbw)) if how == "pickle" else copy.deepcopy(sim.dbw)
    assert twin.state is not sim.dbw.state
    for k in range(60):
        t = sim.time_s + k * sim.dt_s
        a, b = sim.dbw.step(t, sim.vehicle), twin.step(t, sim.vehicle)
        assert repr(a) == repr(b)
    assert twin.steering.angle_deg == sim.dbw.steering.angle_deg and twin.wheel_counts == sim.dbw.wheel_counts
    twin.steering.status.fault_injected = True     # the copy's views write the copy's record only
    assert twin.steering.status.fault_injected and not sim.dbw.steering.status.fault_injected
