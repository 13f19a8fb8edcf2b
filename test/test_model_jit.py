"""The compiled step (numba) and the interpreted fallback give the same drive (model/_jit.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_DRIVE = """
import json, math, sys, warnings
sys.path.insert(0, {root!r})
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    from acres_dbw_sim.model import _jit
    from acres_dbw_sim.model.enums import DriveMode, Gear
    from acres_dbw_sim.model.terrain import FlatTerrain, Region
    from acres_dbw_sim.model.vehicle import Vehicle, VehicleInputs
v = Vehicle(terrain=FlatTerrain(surface="asphalt", regions=[Region("gravel", rect=(4.0, -20.0, 9.0, 20.0))]))
v.reset(gear=Gear.DRIVE, drive_mode=DriveMode.TURF)
inp = VehicleInputs(drive_mode=DriveMode.TURF)
for i in range(480):
    t = i / 120.0
    inp.pedal = 1.0 if t < 2.5 else 0.0
    inp.brake_line_bar = 40.0 if t > 3.0 else 0.0
    inp.steering_wheel_deg = 120.0 * math.sin(t)
    v.step(inp)
print(json.dumps(dict(jit=_jit.JIT, warned=any("interpreted" in str(x.message) for x in w),
                      state=list(v.position_m) + list(v.velocity_body_mps) + list(v.wheel_spin_rad_s)
                      + [v.engine_rpm, v.ledger.residual_j, v.fuel_l])))
"""


def _drive(no_jit: bool) -> dict:
    env = dict(os.environ)
    env.pop("ACRES_MODEL_NO_JIT", None)
    if no_jit:
        env["ACRES_MODEL_NO_JIT"] = "1"
    out = subprocess.run([sys.executable, "-c", _DRIVE.format(root=str(ROOT))], env=env, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_interpreted_fallback_drives_like_the_compiled_step():
    pytest.importorskip("numba")
    compiled, interpreted = _drive(False), _drive(True)
    assert compiled["jit"] and not compiled["warned"]
    assert not interpreted["jit"] and interpreted["warned"]  # it says so once
    assert interpreted["state"] == pytest.approx(compiled["state"], rel=1e-9, abs=1e-9)
