"""Benchmark of the calibration (not a test): how long does a 5-minute bag take?

Makes a 5-minute field bag (``acres_dbw_sim.calibrate.field``: 17 s cycles of
throttle step, coast-down, steering sweep and brake step, reports at the CAN
periods) driven by a vehicle with the issue's perturbed parameters, then
calibrates every default variable from the shipped file
(``acres_dbw_sim.calibrate.calibrate``, with report and plots) and prints
the wall and CPU time of making the bag and of the calibration, per group
(segments, replays, wall time), the fitted values against the truth, and the
load average of the machine before and after (the machine is shared: CPU
time is the figure an unloaded core would give).

Run: ``python bench/bench_calibrate.py [--minutes 5] [--keep DIR] [--bag DIR]``
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.calibrate import calibrate, make_field_bag  # noqa: E402
from acres_dbw_sim.calibrate.field import CYCLE_S, round_trip_truth  # noqa: E402
from acres_dbw_sim.calibrate.keys import file_entries  # noqa: E402

SHIPPED = {k: e["value"] for k, e in file_entries().items()}
TRUTH = round_trip_truth(SHIPPED)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--keep", metavar="DIR", help="keep the bag and the calibration output in DIR")
    ap.add_argument("--bag", metavar="DIR", help="calibrate this field bag (made with the same truth) instead of "
                    "making one")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_cal_"))
    work.mkdir(parents=True, exist_ok=True)
    bag, out = Path(args.bag) if args.bag else work / "field_bag", work / "calibration"
    for p in ((out,) if args.bag else (bag, out)):
        if p.exists():
            shutil.rmtree(p)
    cycles = max(1, round(args.minutes * 60 / CYCLE_S))
    load0 = os.getloadavg()
    if not args.bag:
        t0, c0 = time.perf_counter(), time.process_time()
        info = make_field_bag(bag, cycles, "gravel", ";".join(f"{k}={v!r}" for k, v in TRUTH.items()))
        t_bag, c_bag = time.perf_counter() - t0, time.process_time() - c0
        print(f"bag: {cycles} cycles, {info['steps'] / 120:.0f} s simulated, {info['messages']} messages; "
              f"made in {t_bag:.1f} s wall, {c_bag:.1f} s CPU")
    t0, c0 = time.perf_counter(), time.process_time()
    cal = calibrate(bag, None, out, {"surface": "gravel"}, log=lambda s: print("  " + s, flush=True))
    t_cal, c_cal = time.perf_counter() - t0, time.process_time() - c0
    load1 = os.getloadavg()
    print(f"calibration: {len(cal.segments)} segments, {t_cal:.1f} s wall, {c_cal:.1f} s CPU "
          f"(fit and both whole-bag replays {cal.wall_s:.1f} s wall, {cal.cpu_s:.1f} s CPU; the rest is the "
          f"report's plots)")
    for g in cal.groups:
        print(f"  {g.group:12s} {len(g.segments):3d} segments {g.evaluations:4d} replays {g.wall_s:7.1f} s wall")
    expected = dict(TRUTH)
    del expected["brakes.front_nm_per_bar"], expected["brakes.rear_nm_per_bar"]
    expected["brakes.gain_scale"] = 0.9
    for name, true in expected.items():
        vr = cal.variable(name)
        se = f"{vr.se:.2g}" if vr.se is not None else "-"
        print(f"  {name:40s} truth {true:10.5g} fitted {vr.value:10.5g} se {se:8s} "
              f"error {100 * (vr.value - true) / true:+.2f} %")
    print(f"load average (1 min) before {load0[0]:.1f}, after {load1[0]:.1f}, on {os.cpu_count()} CPUs")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
