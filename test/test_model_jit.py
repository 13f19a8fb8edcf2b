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


def test_the_step_kernels_entry_point_is_worked_out_once_per_kind_of_argument(monkeypatch):
    """specialise keeps the compiled entry point per kernel and argument kinds: a second vehicle of the
    same kind gets the same one (no 0.6 ms of numba.typeof per vehicle built), a terrain whose arrays
    differ in kind (read-only here) gets its own, and it steps like the first."""
    np = pytest.importorskip("numpy")
    from acres_dbw_sim.model import _jit
    from acres_dbw_sim.model.enums import Gear
    from acres_dbw_sim.model.terrain import FlatTerrain
    from acres_dbw_sim.model.vehicle import Vehicle, VehicleInputs
    if not _jit.JIT:
        pytest.skip("interpreted: no entry points")
    a = Vehicle()
    typed = []
    real_typeof = _jit.numba.typeof
    monkeypatch.setattr(_jit.numba, "typeof", lambda x: typed.append(x) or real_typeof(x))
    b = Vehicle()
    assert a._physics_step is b._physics_step and typed == []
    class ReadOnlyTerrain(FlatTerrain):
        def _build_data(self):
            super()._build_data()
            for x in self.data:
                x.flags.writeable = False

    c = Vehicle(terrain=ReadOnlyTerrain())
    assert c._physics_step is not a._physics_step and typed
    assert _jit._kind(np.zeros(3)) != _jit._kind(np.zeros(3, dtype=np.float32))
    assert _jit._kind(np.zeros((2, 3))) != _jit._kind(np.zeros((3, 2)).T)      # C against F layout
    assert _jit._kind(object()) is None and _jit._kind((1.0, object())) is None
    rec_a, rec_b = np.zeros(2, dtype=[("x", "f8"), ("y", "f8")]), np.zeros(2, dtype=[("p", "i8"), ("q", "f8")])
    assert _jit._kind(rec_a) != _jit._kind(rec_b)                             # same size, other fields
    assert _jit._kind(2 ** 62) is int and _jit._kind(2 ** 63) is None         # numba types the latter uint64
    inp = VehicleInputs(pedal=0.6)
    for v in (a, c):
        v.reset(gear=Gear.DRIVE)
        for _ in range(240):
            v.step(inp)
    assert c.position_m == a.position_m and c.engine_rpm == a.engine_rpm
