"""Benchmark of the DBW's report fill (not a test): what ``Simulation.reports`` costs a tick.

One Ranger through the DBW at about 5 m/s with the ULC and an angle steering command (re-sent before
every step, so that the actuators' reports carry a fresh command), then, on one core, the process's
CPU time (``time.process_time``) of:

* ``Simulation.reports()``: every report, as a caller that publishes all of them fills them;
* ``reports(("vehicle_velocity", "imu", "steering_report", "wheel_speeds"), on_change=False)``: the
  four reports whose signals the replay and the calibration compare (``replay/offline.py``);
* each report alone (``reports((name,), on_change=False)``), less the call with no report named.

Each figure is the median of ``--reps`` interleaved repetitions of ``--calls`` calls, in us a call.
With ``--baseline COMMIT`` the first two are also timed for that commit's code (exported with ``git
archive`` into a temporary directory and imported as ``acres_baseline``, as ``bench_model.py`` does),
alternating with today's, and their ratio printed.

Run: ``python bench/bench_reports.py [--reps 7] [--calls 5000] [--baseline COMMIT]``.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SIGNALS = ("vehicle_velocity", "imu", "steering_report", "wheel_speeds")


def driven(pkg: str):
    """A simulation of package ``pkg`` (``acres_dbw_sim`` or ``acres_baseline``) after 3.3 s of driving."""
    sim_mod = importlib.import_module(f"{pkg}.simulation")
    cmd = importlib.import_module(f"{pkg}.dbw.commands")
    gear = importlib.import_module(f"{pkg}.model.enums").Gear
    sim = sim_mod.Simulation()
    sim.submit(cmd.ENABLE)
    sim.submit(cmd.GearCmd(cmd=int(gear.DRIVE)))
    ulc = cmd.UlcCmd(cmd=5.0, cmd_type=cmd.UlcCmd.CMD_VELOCITY, enable=True)
    steer = cmd.SteeringCmd(cmd=30.0, cmd_type=cmd.SteeringCmd.CMD_ANGLE, enable=True)
    for k in range(400):
        if k >= 100:
            sim.submit(ulc)
            sim.submit(steer)
        sim.step()
    return sim


def per_call(fn, calls: int) -> float:
    """CPU time of one call of ``fn`` [us], over ``calls`` calls."""
    fn()
    t = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - t) / calls * 1e6


def main() -> int:
    """Print the figures (module docstring); 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--baseline", metavar="COMMIT", help="also time the full and the four-report fill of COMMIT")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sims = {"today": driven("acres_dbw_sim")}
        if a.baseline:
            from bench_model import load_baseline
            load_baseline(a.baseline, tmp)
            sims[a.baseline] = driven("acres_baseline")
        full: dict = {k: [] for k in sims}
        four: dict = {k: [] for k in sims}
        from acres_dbw_sim.dbw.report_content import FILLERS
        names = list(FILLERS)
        alone: dict = {n: [] for n in names}
        for _ in range(a.reps):
            for k, sim in sims.items():
                full[k].append(per_call(sim.reports, a.calls))
                four[k].append(per_call(lambda: sim.reports(SIGNALS, on_change=False), a.calls))
            sim = sims["today"]
            base = per_call(lambda: sim.reports((), on_change=False), a.calls)
            for n in names:
                alone[n].append(per_call(lambda: sim.reports((n,), on_change=False), a.calls // 5) - base)
    med = {k: (statistics.median(full[k]), statistics.median(four[k])) for k in sims}
    print(f"report fill, us a call (median of {a.reps} x {a.calls} calls, CPU time)")
    for k, (f, s) in med.items():
        print(f"  {k:10s} all reports {f:6.2f}   the replay's four {s:6.2f}")
    if a.baseline:
        (f0, s0), (f1, s1) = med[a.baseline], med["today"]
        print(f"  speed-up   all reports {f0 / f1:.2f}x   the replay's four {s0 / s1:.2f}x")
    print("each report alone, today (less the call with none):")
    for n in sorted(names, key=lambda n: -statistics.median(alone[n])):
        print(f"  {n:22s} {statistics.median(alone[n]):5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
