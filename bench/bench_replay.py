"""Benchmark of the offline replay (not a test): a 10-minute bag at >= 20x real time?

Makes a 10-minute drive bag from a scenario (ULC speed steps and steering
sweeps, commands at 50 Hz, the reports at the real CAN periods as from the
vehicle: :func:`acres_dbw_sim.replay.scenario_to_bag`), then replays it with
``acres_dbw_sim.replay`` and prints the wall time of each phase (reading and
decoding, stepping with the output bag, CSV and summary, plots), the
real-time factor of the whole replay on the wall clock and on the process's
CPU time (the figure an unloaded core would give), and the cost of one
output-bag message (filling the rosbags message, rosbags' serializer,
rosbags' ``Writer.write``), for output reports at the CAN periods (the
replay's default), at every physics step (``report_rates=mission``), and
without an output bag. Then the cost per message of the node's recorder
(``NodeBagRecorder``: rmw serialization and ``Writer.write``; for
``JointState`` the field-by-field copy and rosbags' serializer, so that
rosbags can read it; for a message the node publishes already serialized,
as its reports, only the batching: the bag is written by a child process,
``ProcessBagWriter``) when rclpy is importable. The replay cases print the
process's CPU time beside the wall time: on a shared machine the CPU time is
the one to compare.

Run: ``python bench/bench_replay.py [--minutes 10] [--repeat N] [--keep DIR]``
(``--repeat``: best of N runs of each case).
"""
from __future__ import annotations

import argparse
import math
import os
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


CASES = (  # label, parameters, output bag, plots
    ("CAN periods (default), bag, plots", {"report_rates": "vehicle"}, True, True),
    ("every step (mission), bag, plots", {"report_rates": "mission"}, True, True),
    ("every step (mission), bag, no plots", {"report_rates": "mission"}, True, False),
    ("no output bag, no plots", {}, False, False),
)


def run_case(bag: Path, out: Path, params: dict, write_bag: bool, plots: bool):
    """One replay, phase by phase: (times [s] of read, step+bag, csv, plots, total, CPU total, result)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir()
    c0 = time.process_time()
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
    return (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, time.process_time() - c0), res


def bench_recorder(n: int = 20000) -> None:
    """µs per message the node's recorder adds to ``publish`` (in process, no subscriber)."""
    try:
        import rclpy
        from nav_msgs.msg import Odometry
        from sensor_msgs.msg import JointState

        import ds_dbw_msgs.msg as dbw_msgs
        from msg_adapters.bag import NodeBagRecorder
    except ImportError as err:
        print(f"recorder: skipped ({err})")
        return
    work = Path(tempfile.mkdtemp(prefix="bench_recorder."))
    rclpy.init()
    try:
        node = rclpy.create_node("bench_recorder")
        from rclpy.serialization import serialize_message
        pubs = {"SteeringReport": node.create_publisher(dbw_msgs.SteeringReport, "steering/report", 2),
                "SteeringReport as bytes": node.create_publisher(dbw_msgs.SteeringReport, "steering/bytes", 2),
                "BrakeReport": node.create_publisher(dbw_msgs.BrakeReport, "brake/report", 2),
                "Odometry": node.create_publisher(Odometry, "odom", 10),
                "JointState": node.create_publisher(JointState, "joint_states", 10)}
        msgs = {"SteeringReport": dbw_msgs.SteeringReport(), "BrakeReport": dbw_msgs.BrakeReport(),
                # the node's reports: serialized (msg_adapters.ds_dbw.ReportPacker), published raw
                "SteeringReport as bytes": serialize_message(dbw_msgs.SteeringReport()),
                "Odometry": Odometry(),   # the node's joint_states: 7 joints, positions and velocities
                "JointState": JointState(name=[f"joint_{k}" for k in range(7)], position=[0.5] * 7,
                                         velocity=[1.5] * 7)}

        def per_message(pub, msg) -> float:   # best of 3 rounds [s]
            best = math.inf
            for _ in range(3):
                t0 = time.perf_counter()
                for _ in range(n):
                    pub.publish(msg)
                best = min(best, (time.perf_counter() - t0) / n)
            return best

        bare = {name: per_message(pub, msgs[name]) for name, pub in pubs.items()}
        rec = NodeBagRecorder(node, work / "rec")
        for name, pub in pubs.items():
            dt = per_message(pub, msgs[name])
            print(f"recorder: {name:23s} publish {bare[name] * 1e6:5.1f} us without, {dt * 1e6:5.1f} us with the "
                  f"recorder: +{(dt - bare[name]) * 1e6:.1f} us per message")
        rec.close()
        node.destroy_node()
    finally:
        rclpy.try_shutdown()
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=1, metavar="N", help="best of N runs of each case")
    ap.add_argument("--keep", metavar="DIR", help="keep the bag and outputs here")
    ap.add_argument("--no-recorder", action="store_true", help="skip the recorder measurement")
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
              f"{sum(f.stat().st_size for f in bag.iterdir()) / 1e6:.1f} MB, made in {time.perf_counter() - t0:.1f} s"
              f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        rows = []
        for label, params, write_bag, plots in CASES:
            best = None
            for _ in range(max(1, args.repeat)):
                times, res = run_case(bag, work / "out", params, write_bag, plots)
                if best is None or times[4] < best[0][4]:
                    best = (times, res)
            rows.append((label, *best))
        step_only = min(r[1][1] for r in rows if not r[2].bag_messages)
        print(f"{'case':37s} {'read':>6s} {'step+bag':>8s} {'csv':>5s} {'plots':>5s} {'total':>6s} "
              f"{'x real time':>11s} {'CPU':>6s} {'x (CPU)':>8s} {'bag msgs':>10s} {'us/msg':>6s}")
        for label, (rd, sb, csv, pl, total, cpu), res in rows:
            per = f"{(sb - step_only) / res.bag_messages * 1e6:6.1f}" if res.bag_messages else f"{'-':>6s}"
            print(f"{label:37s} {rd:5.2f}s {sb:7.2f}s {csv:4.2f}s {pl:4.2f}s {total:5.2f}s "
                  f"{res.run.simulated_s / total:10.1f}x {cpu:5.2f}s {res.run.simulated_s / cpu:7.1f}x "
                  f"{res.bag_messages:10,d} {per}")
        e = rows[-1][2].comparison["speed_mps"]
        print(f"comparison (same parameters): speed RMS {e['rms']:.3g} m/s, max {e['max_abs']:.3g} m/s")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if not args.no_recorder:
        bench_recorder()


if __name__ == "__main__":
    main()
