"""Benchmark of the offline replay (not a test): a 10-minute bag at >= 20x real time?

Makes a 10-minute drive bag from a scenario (ULC speed steps and steering
sweeps, commands at 50 Hz, the reports at the real CAN periods as from the
vehicle: :func:`acres_dbw_sim.replay.scenario_to_bag`), then replays it with
``acres_dbw_sim.replay.replay_bag`` and prints the wall time of each phase
(reading and decoding, stepping with the output bag, CSV and summary,
plots) and the real-time factor of the whole replay, for output reports
every physics step (``report_rates=mission``, the node's default) and at
the CAN periods (``vehicle``), and without an output bag.

Run: ``python bench/bench_replay.py [--minutes 10] [--keep DIR]``.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.replay import load_replay, run_replay, scenario_to_bag  # noqa: E402
from acres_dbw_sim.replay.compare import plot_overlay  # noqa: E402
from acres_dbw_sim.scenario import load_scenario, write_outputs  # noqa: E402


def drive_yaml(minutes: float) -> str:
    """A DBW scenario of ``minutes``: a speed step and a steering sweep every 20 s."""
    lines = [f"name: bench_drive\nduration_s: {minutes * 60:g}\ncommand_rate_hz: 50\ninitial:\n  gear: P\n",
             "timeline:\n"]
    t, k = 0.0, 0
    while t < minutes * 60:
        v = (3.0, 6.0, 8.0, 4.0, 0.0)[k % 5]
        sw = (12.5, 112.5, -87.5, 12.5)[k % 4]
        head = f"  - t: {t:g}\n" + ("    enable: true\n" if k == 0 else "")
        lines.append(head + f"    ulc: {{cmd: {v}, cmd_type: VELOCITY, limit_accel: 1.5, limit_decel: 1.5,"
                     f" enable: true, enable_shift: true, enable_shift_park: true}}\n"
                     f"    steering: {{cmd: {sw}, cmd_type: CMD_ANGLE, cmd_rate: 150, enable: true}}\n")
        t += 20.0
        k += 1
    return "".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--keep", metavar="DIR", help="keep the bag and outputs here")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_replay."))
    work.mkdir(parents=True, exist_ok=True)
    try:
        yml = work / "bench_drive.yaml"
        yml.write_text(drive_yaml(args.minutes))
        sc = load_scenario(yml)
        bag = work / "drive"
        if bag.exists():
            shutil.rmtree(bag)
        t0 = time.perf_counter()
        info = scenario_to_bag(sc, bag)
        print(f"bag: {args.minutes:g} min, {info['messages']:,} messages ({info['commands']:,} commands), "
              f"{sum(f.stat().st_size for f in bag.iterdir()) / 1e6:.1f} MB, made in {time.perf_counter() - t0:.1f} s")
        print(f"{'case':34s} {'read':>7s} {'step+bag':>9s} {'csv':>6s} {'plots':>6s} {'total':>7s} "
              f"{'x real time':>11s} {'bag msgs':>10s}")
        for label, params, write_bag, plots in (
                ("mission rates, bag, plots", {"report_rates": "mission"}, True, True),
                ("mission rates, bag, no plots", {"report_rates": "mission"}, True, False),
                ("vehicle rates, bag, plots", {"report_rates": "vehicle"}, True, True),
                ("no output bag, no plots", {}, False, False)):
            out = work / "out"
            if out.exists():
                shutil.rmtree(out)
            out.mkdir()
            t0 = time.perf_counter()
            inp = load_replay(bag, params=params)
            t1 = time.perf_counter()
            res = run_replay(inp, out / "bag" if write_bag else None)
            t2 = time.perf_counter()
            write_outputs(res.run, out, plots=False)
            t3 = time.perf_counter()
            if plots:
                from acres_dbw_sim.scenario.plots import plot_run
                plot_run(res.run, out / "plots.png")
                plot_overlay(res, out / "overlay.png")
            t4 = time.perf_counter()
            total = t4 - t0
            print(f"{label:34s} {t1 - t0:6.2f}s {t2 - t1:8.2f}s {t3 - t2:5.2f}s {t4 - t3:5.2f}s {total:6.2f}s "
                  f"{res.run.simulated_s / total:10.1f}x {res.bag_messages:10,d}")
        e = res.comparison["speed_mps"]
        print(f"comparison (same parameters): speed RMS {e['rms']:.3g} m/s, max {e['max_abs']:.3g} m/s")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
