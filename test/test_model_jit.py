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
    from acres_dbw_sim.model.enums import AwdSwitch, Gear
    from acres_dbw_sim.model.terrain import FlatTerrain, Region
    from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
    from acres_dbw_sim.model.inputs import VehicleInputs
v = Vehicle(terrain=FlatTerrain(surface="asphalt", regions=[Region("gravel", rect=(4.0, -20.0, 9.0, 20.0))]))
v.reset(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
inp = VehicleInputs(drive_mode=AwdSwitch.TURF)
for i in range(480):
    t = i / 120.0
    inp.pedal = 1.0 if t < 2.5 else 0.0
    inp.brake_line_bar = 40.0 if t > 3.0 else 0.0
    inp.steering_wheel_deg = 120.0 * math.sin(t)
    v.step(inp)
# through the DBW: the step in one call over its packed arguments (_jit.Packed; interpreted, a plain object)
from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, SteeringCmd, UlcCmd
from acres_dbw_sim.simulation import Simulation
sim = Simulation()
ulc, steer = UlcCmd(cmd_type=1, cmd=3.0, enable=True), SteeringCmd(cmd_type=2, cmd=90.0, enable=True)
for cmd in (ENABLE, ulc, steer, GearCmd(cmd=4)):
    sim.submit(cmd)
for i in range(360):
    if i % 3 == 0:
        sim.submit(ulc)
        sim.submit(steer)
    sim.step()
print(json.dumps(dict(jit=_jit.JIT, warned=any("interpreted" in str(x.message) for x in w),
                      packed=type(sim._joined[0].args[0]).__name__,
                      state=list(v.position_m) + list(v.velocity_body_mps) + list(v.wheel_spin_rad_s)
                      + [v.engine_rpm, v.ledger.residual_j, v.fuel_l] + list(sim.vehicle.position_m)
                      + [sim.vehicle.speed_mps, sim.vehicle.yaw_rate_rad_s, sim.dbw.outputs.pedal])))
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
    assert compiled["packed"] == interpreted["packed"] == "Packed"
    assert compiled["state"][-3] > 2.0   # the ULC drove it


def test_a_packed_call_holds_the_arrays_and_computes_what_the_kernel_does():
    """packed_call's contract (model/_jit.py Packed): one packed value in place of the arguments, the arrays
    held (a write in compiled code is seen by the numpy array, and a Python write by the next call), tuples
    of floats and ints passed through; the call returns what the kernel returns."""
    np = pytest.importorskip("numpy")
    from acres_dbw_sim.model import _jit

    @_jit.njit
    def kernel(a, curve, n, t_s):
        a[0] += t_s
        return a[0] + a[1] + curve[0][1] + curve[1] + n

    @_jit.njit
    def tick(pack, t_s):
        return kernel(*pack.args, t_s)

    a = _jit.array([1.0, 2.0])
    call = _jit.packed_call(tick, (a, ((0.5, 0.25), 4.0), 3), 0.0)
    assert call(10.0) == kernel(_jit.array([1.0, 2.0]), ((0.5, 0.25), 4.0), 3, 10.0) == 11.0 + 2.0 + 0.25 + 4.0 + 3
    assert a[0] == 11.0                      # written through the pack
    a[1] = -2.0                              # read through the pack
    assert call(0.0) == 11.0 - 2.0 + 0.25 + 4.0 + 3


def test_specialise_works_out_an_entry_point_once_per_kind_of_argument(monkeypatch):
    """specialise's contract: arguments of the kinds it has seen get the entry point it made for them
    without numba.typeof (no 0.3-0.6 ms per vehicle built); arguments of another kind (dtype, record
    fields, dimensions, layout, writeability, an int past int64) get one of their own, and each entry
    point computes what the kernel does."""
    np = pytest.importorskip("numpy")
    from acres_dbw_sim.model import _jit
    if not _jit.JIT:
        pytest.skip("interpreted: no entry points")

    @_jit.njit
    def kernel(a, x):
        return a.size, x

    typed = []
    real_typeof = _jit.numba.typeof
    monkeypatch.setattr(_jit.numba, "typeof", lambda v: typed.append(v) or real_typeof(v))
    base = (np.zeros(3), 2.0)
    first = _jit.specialise(kernel, base)
    assert typed and first(*base) == (3, 2.0)
    typed.clear()
    again = _jit.specialise(kernel, (np.ones(3), 5.0))   # same kinds, other values
    assert again is first and typed == [] and again(np.ones(3), 5.0) == (3, 5.0)
    read_only = np.zeros(3)
    read_only.flags.writeable = False
    others = [(np.zeros(3, dtype=np.float32), 2.0), (np.zeros((2, 3)), 2.0), (np.zeros((3, 2)).T, 2.0),
              (read_only, 2.0), (np.zeros(2, dtype=[("x", "f8"), ("y", "f8")]), 2.0),
              (np.zeros(2, dtype=[("p", "i8"), ("q", "f8")]), 2.0), (np.zeros(1), 2 ** 62), (np.zeros(1), 2 ** 63)]
    entries = []
    for args in others:
        typed.clear()
        entry = _jit.specialise(kernel, args)
        assert typed, f"{args!r}: taken for a kind seen before"
        assert entry(*args) == (args[0].size, args[1])
        entries.append(entry)
    assert len({id(e) for e in [first, *entries]}) == len(others) + 1


def test_a_second_vehicle_of_a_kind_costs_no_type_inference(monkeypatch):
    """A second vehicle of the same kind is built without numba.typeof; one whose terrain arrays differ in
    kind (read-only here) works out its own entry point, and it steps like the first."""
    pytest.importorskip("numpy")
    from acres_dbw_sim.model import _jit
    from acres_dbw_sim.model.enums import Gear
    from acres_dbw_sim.model.terrain import FlatTerrain
    from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
    from acres_dbw_sim.model.inputs import VehicleInputs
    if not _jit.JIT:
        pytest.skip("interpreted: no entry points")
    a = Vehicle()
    typed = []
    real_typeof = _jit.numba.typeof
    monkeypatch.setattr(_jit.numba, "typeof", lambda x: typed.append(x) or real_typeof(x))
    Vehicle()
    assert typed == []

    class ReadOnlyTerrain(FlatTerrain):
        def _build_data(self):
            super()._build_data()
            for x in self.data:
                x.flags.writeable = False

    c = Vehicle(terrain=ReadOnlyTerrain())
    assert typed
    inp = VehicleInputs(pedal=0.6)
    for v in (a, c):
        v.reset(gear=Gear.DRIVE)
        for _ in range(240):
            v.step(inp)
    assert c.position_m == a.position_m and c.engine_rpm == a.engine_rpm


_KERNEL = """
import sys
sys.path.insert(0, {root!r})
from numba.core import config
from acres_dbw_sim.newhome.k import f
print(f(1.0), config.CACHE_DIR)
"""


def test_an_edit_of_a_module_a_kernel_calls_compiles_afresh_wherever_it_lives(tmp_path):
    """numba's cache checks only the kernel's own file: ``f`` (newhome/k.py) inlines ``g`` (newhome/h.py).
    After ``g`` changes, the next process must run the new ``g``, not ``f``'s machine code of the old one:
    the cache directory follows a digest of every compiled module (model/_jit.compiled_sources), in any folder."""
    import shutil
    copy = tmp_path / "acres_dbw_sim"
    shutil.copytree(ROOT / "acres_dbw_sim", copy, ignore=shutil.ignore_patterns("__pycache__"))
    home = copy / "newhome"
    home.mkdir()
    (home / "__init__.py").write_text("")
    (home / "h.py").write_text("from ..model._jit import njit\n\n\n@njit(inline=True)\ndef g(x):\n    return x + 1.0\n")
    (home / "k.py").write_text("from ..model._jit import njit\nfrom .h import g\n\n\n@njit\ndef f(x):\n    return g(x)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "ACRES_MODEL_NO_JIT",
                                                             "NUMBA_DISABLE_JIT")}

    def run() -> tuple:
        out = subprocess.run([sys.executable, "-c", _KERNEL.format(root=str(tmp_path))], env=env, check=True,
                             capture_output=True, text=True, timeout=300).stdout.split()
        return float(out[0]), out[1]

    first, cache = run()
    assert first == 2.0 and cache.startswith(str(copy))
    assert run() == (2.0, cache)                     # unchanged sources: the same cache
    assert any(Path(cache).rglob("k.f-*.nbc"))       # f's machine code was kept there
    (home / "h.py").write_text((home / "h.py").read_text().replace("x + 1.0", "x + 2.0"))
    again, new_cache = run()
    assert again == 3.0 and new_cache != cache
    assert not Path(cache).exists()                  # the stale directory is removed
