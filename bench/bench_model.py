"""Benchmark of the Polaris model step (not a test).

Prints, on one core, each figure as the median of ``--reps`` repetitions
(interleaved, so that a background load hits all of them alike), with the
spread (min..max); times are the process's CPU time (``time.process_time``),
so that a loaded machine's waiting is not counted:

* the powertrain + driveline part of a step (stage 3 ``powertrain`` and
  stage 5 ``solve_driveline`` of vehicle.py), replayed in a loop from the
  recorded states and wheel coefficients of the drive below [us],
* the whole :meth:`Vehicle.step` over that drive [us] and its real-time
  factor at 120 Hz (target: <= 83 us, >= 100x real time), on asphalt and on
  the two soils (silt loam, dry sand: the tyre-on-soil model of soil.py in
  every wheel), with the ratio soil / asphalt (target <= 2),
* CommonRoad's multi-body model (``commonroad-vehicle-models`` 3.0.2,
  ``vehicle_dynamics_mb``, vehicle 2) with fixed-step RK4 at the same dt
  [us], and the ratio ours / theirs (target <= 0.5),
* the whole :meth:`Tractor.step` of the Maxxum 150 (vehicles/maxxum150) on concrete over its own
  cycle (below) and its ratio to the Ranger's step (target <= 1.5: the same shared stages),
* the first-call time of the compiled kernels (numba): in a fresh process
  with the on-disk cache present, and with an empty cache (compilation),
* with ``--baseline COMMIT``: the whole Ranger step of that commit's code
  (exported with ``git archive`` into a temporary directory and imported as
  ``acres_baseline``) against today's, both in this process, alternating
  runs of the same cycle, so that the machine's load hits both alike (the
  figure for "no slower than before": ``--baseline f742e40`` is the code
  before the Maxxum 150 joined the core).

Scenarios, both a repeating 20 s cycle at dt = 1/120 s:

* ours: level asphalt, H, AWD, from rest: full throttle for 8 s (0 to about
  22 m/s), then 7 s of cruise at 35 % pedal weaving with the steering wheel
  40 deg * sin(0.5 t), 1 s coast, 4 s braking at 30 bar;
* CommonRoad: from 15 m/s: 0.3 m/s^2 for 8 s (to about 17 m/s), 7 s weave
  with the steering velocity 0.02 cos(0.5 t) rad/s (front-wheel angle
  +-0.04 rad), 1 s coast, 4 s at -0.5 m/s^2 (it slows to about 6 m/s by the
  third cycle). Stronger inputs (2-3 m/s^2, 0.06 rad of steering, braking
  in the weave) make the MB model blow up with fixed-step RK4 at 1/120 s (a
  wheel speed collapses and its slip divides by zero), so it runs this
  milder cycle. Its function evaluations are the same on every path above
  0.1 m/s, but the time per step still depends on the trajectory (about
  65 us here, about 110 us for a start at 5 m/s with 1 m/s^2 on this
  machine): this is the cheaper of the two, so the ratio errs in
  CommonRoad's favour.

Run: ``python bench/bench_model.py [--seconds 10] [--reps 7] [--baseline COMMIT]``.
"""
from __future__ import annotations

import argparse
import io
import math
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.model import _jit  # noqa: E402
from acres_dbw_sim.model import driveline as _dl  # noqa: E402
from acres_dbw_sim.model import stages as _stages  # noqa: E402
from acres_dbw_sim.vehicles.polaris import vehicle as _veh  # noqa: E402
from acres_dbw_sim.model.driveline import solve_driveline  # noqa: E402
from acres_dbw_sim.model.enums import AwdSwitch, Gear  # noqa: E402
from acres_dbw_sim.vehicles.polaris.params import load_parameters  # noqa: E402
from acres_dbw_sim.model.terrain import FlatTerrain  # noqa: E402
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle  # noqa: E402
from acres_dbw_sim.model.inputs import VehicleInputs  # noqa: E402
from acres_dbw_sim.vehicles.maxxum150.vehicle import Tractor, TractorInputs  # noqa: E402

DT = 1.0 / 120.0
SOILS = ("silt_loam", "sand")    # surfaces with a soil class in the shipped file
COMMONROAD_START = (15.0, 0.3, 0.02, 0.5)   # v0 [m/s], acceleration, steering-velocity amplitude, deceleration


def _scenario(i: int, inp: VehicleInputs, centre: float) -> None:
    """Our cycle (module docstring) at step ``i``."""
    t = (i * DT) % 20.0
    inp.pedal = 1.0 if t < 8.0 else (0.35 if t < 15.0 else 0.0)
    inp.brake_line_bar = 30.0 if t >= 16.0 else 0.0
    inp.steering_wheel_deg = centre + (40.0 * math.sin(0.5 * t) if 8.0 <= t < 15.0 else 0.0)


def _new_vehicle(surface: str = "asphalt") -> tuple:
    p = load_parameters()
    v = Vehicle(p, FlatTerrain(surface=surface), DT)
    v.reset(gear=Gear.DRIVE, drive_mode=AwdSwitch.AWD)
    return v, VehicleInputs(steering_wheel_deg=p.steering.center_deg), p.steering.center_deg


def bench_whole_step(n: int, surface: str = "asphalt") -> tuple:
    """(us per Vehicle.step over n steps of the cycle on ``surface``, the vehicle)."""
    v, inp, centre = _new_vehicle(surface)
    t0 = time.process_time()
    for i in range(n):
        _scenario(i, inp, centre)
        v.step(inp)
    return (time.process_time() - t0) / n * 1e6, v


def load_baseline(commit: str, into: str):
    """Today's model package as it was at ``commit`` (git archive into ``into``), imported as ``acres_baseline``.

    Returns (its vehicle module, its params module, its terrain module, its enums module).
    Raises subprocess.CalledProcessError when git does not know ``commit``.
    """
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "acres_dbw_sim", "config"], check=True,
                         capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    pkg = Path(into) / "acres_baseline"
    (Path(into) / "acres_dbw_sim").rename(pkg)
    for f in pkg.rglob("*.py"):
        f.write_text(f.read_text().replace("acres_dbw_sim", "acres_baseline"))
    sys.path.insert(0, into)
    import importlib
    homes = {"vehicle": "vehicles.polaris.vehicle", "params": "vehicles.polaris.params", "terrain": "model.terrain",
             "enums": "model.enums"}
    if not (pkg / "vehicles" / "polaris" / "vehicle.py").is_file():     # a commit of before the Ranger's folder
        homes = {m: f"model.{m}" for m in homes}
    return tuple(importlib.import_module(f"acres_baseline.{homes[m]}") for m in ("vehicle", "params", "terrain",
                                                                                  "enums"))


def bench_against_baseline(n: int, reps: int, base: tuple) -> tuple:
    """(us per step of the baseline, of today's) over ``reps`` alternating runs of n steps each of the cycle."""
    vm, pm, tm, em = base
    p = pm.load_parameters()
    bv = vm.Vehicle(p, tm.FlatTerrain(surface="asphalt"), DT)
    awd = getattr(em, "AwdSwitch", None) or em.DriveMode   # the model's AWD switch, named DriveMode before
    bv.reset(gear=em.Gear.DRIVE, drive_mode=awd.AWD)
    binp = vm.VehicleInputs(steering_wheel_deg=p.steering.center_deg)
    v, inp, centre = _new_vehicle()

    def run(veh, vin, i0):
        t0 = time.process_time()
        for i in range(i0, i0 + n):
            _scenario(i, vin, centre)
            veh.step(vin)
        return (time.process_time() - t0) / n * 1e6

    run(bv, binp, 0)
    run(v, inp, 0)
    tb, tn = [], []
    for r in range(reps):
        tb.append(run(bv, binp, (r + 1) * n))
        tn.append(run(v, inp, (r + 1) * n))
    return tb, tn


def _tractor_scenario(i: int, inp) -> None:
    """The tractor's cycle: 8 s at command 0.8, 7 s at 0.5 weaving (delta 0.15 rad * sin(0.5 t)), 1 s coast,
    4 s braking at b_k = 0.3, in gear 8 with MFD."""
    t = (i * DT) % 20.0
    inp.throttle = 0.8 if t < 8.0 else (0.5 if t < 15.0 else 0.0)
    inp.brake = 0.3 if t >= 16.0 else 0.0
    inp.steering_rad = 0.15 * math.sin(0.5 * t) if 8.0 <= t < 15.0 else 0.0


def bench_tractor_step(n: int, surface: str = "concrete") -> tuple:
    """(us per Tractor.step over n steps of the tractor's cycle on ``surface``, the tractor)."""
    t = Tractor(terrain=FlatTerrain(surface=surface), dt_s=DT)
    t.reset(gear=8)
    inp = TractorInputs()
    t0 = time.process_time()
    for i in range(n):
        _tractor_scenario(i, inp)
        t.step(inp)
    return (time.process_time() - t0) / n * 1e6, t


def record_powertrain_driveline(n: int) -> tuple:
    """States before each step and the wheel coefficients of its solve, over n steps of the cycle."""
    v, inp, centre = _new_vehicle()
    sv = v.solver
    states, wheels, inputs = [], [], []
    for i in range(n):
        _scenario(i, inp, centre)
        states.append(_jit.to_list(v._s) + _jit.to_list(v._sw))
        info = v.gears[v.lever.gear]
        inputs.append([inp.pedal, float(info.direction), info.rear_ratio, info.ring_ratio])
        v.step(inp)
        wheels.append([c for a in sv.wh for c in _jit.to_list(a)])   # set by stage 4 of this step
    return v, _jit.array([c for r in states for c in r]), _jit.array([c for r in wheels for c in r]), \
        _jit.array([c for r in inputs for c in r])


@_jit.njit
def _replay(k, kp, curves, s, sw, wh, dres, states, wheels, inputs, n, n_state):
    """Stage 3 and stage 5 of each recorded step, as physics_step calls them."""
    n_s = len(s)
    for i in range(n):
        for q in range(n_s):
            s[q] = states[i * n_state + q]
        for q in range(n_state - n_s):
            sw[q] = states[i * n_state + n_s + q]
        for f in range(_dl.WH_SIZE):
            a = wh[f]
            for j in range(4):
                a[j] = wheels[i * 4 * _dl.WH_SIZE + 4 * f + j]
        pedal, d_dir, i_r, ring = inputs[4 * i], inputs[4 * i + 1], inputs[4 * i + 2], inputs[4 * i + 3]
        t_e, u, fuel_on, t_fr, t_pu, w_free, cap_fwd, cap_rev, R_all = _veh.powertrain(kp, k[_stages.K_DT], curves, s, sw,
                                                                                      pedal, int(d_dir), i_r)
        solve_driveline(wh, dres, k[_stages.K_DT], d_dir != 0.0, False, False, 1, ring, R_all, kp[_veh.P_ETA],
                        kp[_veh.P_J_ENGINE], w_free, cap_fwd, cap_rev, kp[_veh.P_PARK_HOLD])


def bench_powertrain_driveline(rec: tuple) -> float:
    """us per step of the replayed powertrain + driveline part (AWD overrunning front, locked rear)."""
    v, states, wheels, inputs = rec
    n = len(inputs) // 4
    s = _jit.array([0.0] * _veh.N_STATE)
    sw = _jit.array([0.0] * len(v._sw))
    t0 = time.process_time()
    _replay(v._k, v._kp, v._curves_k, s, sw, v.solver.wh, v.solver.out, states, wheels, inputs, n,
            _veh.N_STATE + len(v._sw))
    return (time.process_time() - t0) / n * 1e6


def bench_commonroad(n: int) -> float | None:
    """us per RK4 step of CommonRoad's MB model over n steps of its cycle (None when not installed)."""
    try:
        from vehiclemodels.init_mb import init_mb
        from vehiclemodels.parameters_vehicle2 import parameters_vehicle2
        from vehiclemodels.vehicle_dynamics_mb import vehicle_dynamics_mb
    except ImportError:
        return None
    p = parameters_vehicle2()
    v0, acc, steer_rate, dec = COMMONROAD_START
    x = init_mb([0.0, 0.0, 0.0, v0, 0.0, 0.0, 0.0], p)

    def f(xx, uu):
        return vehicle_dynamics_mb(xx, uu, p)

    t0 = time.process_time()
    for i in range(n):
        t = (i * DT) % 20.0
        u = [steer_rate * math.cos(0.5 * t) if 8.0 <= t < 15.0 else 0.0,
             acc if t < 8.0 else (0.0 if t < 16.0 else -dec)]
        k1 = f(x, u)
        k2 = f([a + 0.5 * DT * b for a, b in zip(x, k1)], u)
        k3 = f([a + 0.5 * DT * b for a, b in zip(x, k2)], u)
        k4 = f([a + DT * b for a, b in zip(x, k3)], u)
        x = [a + DT / 6.0 * (b + 2.0 * c + 2.0 * d + e) for a, b, c, d, e in zip(x, k1, k2, k3, k4)]
    el = time.process_time() - t0
    assert all(math.isfinite(q) for q in x), "CommonRoad MB model diverged"
    return el / n * 1e6


_FIRST_CALL = """
import sys, time
t0 = time.process_time()
sys.path.insert(0, {root!r})
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
from acres_dbw_sim.model.inputs import VehicleInputs
t1 = time.process_time()
v = Vehicle()
v.step(VehicleInputs())
t2 = time.process_time()
print(t1 - t0, t2 - t1)
"""


def first_call_s(cache_dir: str | None) -> tuple:
    """(import [s], first Vehicle() + step [s]) in a fresh process; ``cache_dir``: numba cache to use."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(root=str(ROOT))], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def _fmt(xs: list) -> str:
    return f"{statistics.median(xs):8.1f} us/step  ({min(xs):.1f}..{max(xs):.1f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="simulated time per repetition [s]")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the figures are their medians")
    ap.add_argument("--no-compile-time", action="store_true", help="skip the first-call measurements")
    ap.add_argument("--baseline", metavar="COMMIT", help="also time the Ranger step of COMMIT's code (git)")
    a = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    n = int(round(a.seconds / DT))
    compiled = "numba " + __import__("numba").__version__ if _jit.JIT else "interpreted (no numba)"
    # warm-up: compile or load the kernels, record the replay
    bench_whole_step(240)
    rec = record_powertrain_driveline(n)
    bench_powertrain_driveline(rec)
    for surface in SOILS:
        bench_whole_step(240, surface)
    bench_tractor_step(240)
    pt, whole, cr, tractor = [], [], [], []
    soil = {s: [] for s in SOILS}
    v = None
    for _ in range(a.reps):
        pt.append(bench_powertrain_driveline(rec))
        w, v = bench_whole_step(n)
        whole.append(w)
        for surface in SOILS:
            soil[surface].append(bench_whole_step(n, surface)[0])
        tractor.append(bench_tractor_step(n)[0])
        c = bench_commonroad(n)
        if c is not None:
            cr.append(c)
    print(f"python {sys.version.split()[0]}, model {compiled}, dt = 1/120 s, one core, "
          f"median of {a.reps} x {a.seconds:g} s simulated")
    print(f"powertrain + driveline part:  {_fmt(pt)}")
    wm = statistics.median(whole)
    print(f"whole Vehicle.step:           {_fmt(whole)}   real-time factor at 120 Hz: "
          f"{1e6 / 120.0 / wm:6.0f}x   (target <= 83 us, >= 100x)")
    print(f"  ledger residual of the last run: {v.ledger.relative_residual:.2e} of the fuel energy")
    for surface in SOILS:
        ratios = sorted(s / w for s, w in zip(soil[surface], whole))
        print(f"whole Vehicle.step, {surface:9s}: {_fmt(soil[surface])}   ratio to asphalt "
              f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}..{ratios[-1]:.2f})   (target <= 2)")
    ratios = sorted(t / w for t, w in zip(tractor, whole))
    print(f"whole Tractor.step, concrete: {_fmt(tractor)}   ratio to the Ranger's step "
          f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}..{ratios[-1]:.2f})   (target <= 1.5)")
    if not cr:
        print("commonroad-vehicle-models not installed: pip install commonroad-vehicle-models==3.0.2")
    else:
        cm = statistics.median(cr)
        ratios = sorted(w / c for w, c in zip(whole, cr))
        print(f"CommonRoad MB model, RK4:     {_fmt(cr)}   real-time factor at 120 Hz: {1e6 / 120.0 / cm:6.0f}x")
        print(f"ratio ours / CommonRoad:      {statistics.median(ratios):8.2f}          "
              f"({ratios[0]:.2f}..{ratios[-1]:.2f})   (target <= 0.5)")
    if a.baseline:
        with tempfile.TemporaryDirectory() as d:
            tb, tn = bench_against_baseline(n, 4 * a.reps, load_baseline(a.baseline, d))
        ratios = sorted(x / y for x, y in zip(tn, tb))
        print(f"whole Vehicle.step, {a.baseline}: {_fmt(tb)}")
        print(f"whole Vehicle.step, today:   {_fmt(tn)}   ratio today / {a.baseline} "
              f"{statistics.median(ratios):.3f} ({ratios[0]:.3f}..{ratios[-1]:.3f})   (target <= 1)")
    if _jit.JIT and not a.no_compile_time:
        warm = sum(first_call_s(None))
        with tempfile.TemporaryDirectory() as d:
            cold = sum(first_call_s(d))
        print(f"import + first Vehicle() + step in a new process (the kernels compile at import): "
              f"{warm:.2f} s with the numba cache, {cold:.1f} s with an empty cache")


if __name__ == "__main__":
    main()
