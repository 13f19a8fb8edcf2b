"""Benchmark of the headless scenario runner (not a test).

Prints, on one core, for shipped scenarios at both control levels:

* physics steps per wall-clock second and the real-time factor of the
  stepping loop (the best of ``--repeat`` runs), and the real-time factor in
  CPU time of the process (``time.process_time``; the figure to quote when
  other work loads the machine, which stretches wall time but not CPU time),
* the runner's overhead per step against a bare ``Vehicle.step`` loop with the
  same inputs (recording every row, and every 10th row),
* the time to write the CSV and summary,

and the wall time of a parallel batch of every shipped scenario.

With ``--baseline COMMIT``: only the DBW-level scenarios (``ulc_speed_step``,
``dbw_pedals_and_steering``, ``maxxum150_dbw``), each run by that commit's package (``bench_model.load_baseline``) and
by today's (in the compiled headless loop, and on the per-step path: the runner with a controller, one
``Simulation.step`` and one recorded row a tick), and the node's path by both packages (the timeline's
commands submitted one by one, one ``Simulation.step`` a tick, nothing recorded: :func:`tick_loop`), alternating
in this process, CPU time per run and the ratios of the medians. With ``--fleet N``: only a scenario of N
full Rangers through the DBW against one of a single Ranger (CPU time, × real time, cost per
vehicle-step).

Run: ``python bench/bench_scenario.py [--repeat 3] [--jobs N] [--baseline COMMIT] [--fleet 100]``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from functools import partial

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.model.enums import Gear  # noqa: E402
from acres_dbw_sim.model.inputs import VehicleInputs  # noqa: E402
from acres_dbw_sim.scenario import load_scenario, main, run_scenario, write_outputs  # noqa: E402
from acres_dbw_sim.simulation import Simulation  # noqa: E402

SCEN = ROOT / "scenarios"
CASES = [
    ("wot_high (actuator, 30 s)", SCEN / "wot_high.yaml", None),
    ("wot_high, output_every 10", SCEN / "wot_high.yaml", "output_every=10"),
    ("energy_ledger (actuator, 60 s)", SCEN / "energy_ledger.yaml", None),
    ("ulc_speed_step (DBW, 50 Hz cmds)", SCEN / "examples" / "ulc_speed_step.yaml", None),
    ("dbw_pedals_and_steering (DBW)", SCEN / "examples" / "dbw_pedals_and_steering.yaml", None),
    ("maxxum150_dbw (Maxxum, DBW)", SCEN / "examples" / "maxxum150_dbw.yaml", None),
]


def bare_vehicle_loop(seconds: float, repeat: int) -> float:
    """Best wall time per step [s] of Vehicle.step at full throttle in H (no recording)."""
    sim = Simulation(gear=Gear.DRIVE)
    inp = VehicleInputs(pedal=1.0, steering_wheel_deg=sim.params.steering.center_deg)
    n = int(round(seconds * 120))
    best = float("inf")
    for _ in range(repeat):
        sim.reset(gear=Gear.DRIVE)
        t0 = time.perf_counter()
        for _ in range(n):
            sim.vehicle.step(inp)
        best = min(best, time.perf_counter() - t0)
    return best / n


#: The DBW-level scenarios measured against a baseline commit (the Maxxum's has no compiled loop between timeline
#: entries: both of today's figures are its step through the DBW in one compiled call).
DBW_CASES = ("ulc_speed_step", "dbw_pedals_and_steering", "maxxum150_dbw")


def _per_step(sim, _inputs) -> None:
    """A controller that sends nothing: it makes the runner step one ``Simulation.step`` per tick (the path
    the node takes) instead of the compiled headless loop."""


def tick_loop(pkg: str, sc) -> None:
    """The node's path through the DBW, for scenario ``sc`` with the package ``pkg`` (``acres_dbw_sim`` or the
    baseline's ``acres_baseline``): at each step the timeline's due commands submitted one by one (as the node
    submits each message it receives, the 50 Hz re-sends included), then one ``Simulation.step``; no recorder,
    no stop conditions, ``sc.n_steps`` steps."""
    import importlib
    sim_mod = importlib.import_module(f"{pkg}.simulation")
    player = importlib.import_module(f"{pkg}.scenario.timeline").TimelinePlayer(
        sc.timeline, importlib.import_module(f"{pkg}.scenario.schema").STREAMED, sc.step_hz, sc.command_rate_hz,
        sc.n_steps)
    ini = sc.initial
    sim = sim_mod.Simulation(sc.params, sc.terrain.build(), sc.dt_s, gear=ini.gear, drive_mode=ini.drive_mode,
                             model=sc.model, vehicle=sc.vehicle_type)
    sim.reset(ini.x_m, ini.y_m, ini.yaw_rad, ini.speed_mps, ini.gear, ini.drive_mode)
    due_at, submit, step = player.at, sim.submit, sim.step
    for k in range(sc.n_steps):
        for key, obj in due_at(k):
            if key == "driver":
                sim.set_driver(obj)
            elif key == "fault":
                for subsystem, active in obj:
                    sim.set_fault(subsystem, active)
            else:
                submit(obj)
        step()


def dbw_against_baseline(commit: str, repeat: int) -> None:
    """Print CPU time per run of each of :data:`DBW_CASES` for ``commit``'s package and today's, alternating
    ``repeat`` times each (after one warm-up round), with the ratio of the medians and today's real-time factor.
    Today's package runs twice: as the runner runs it (the compiled headless loop between timeline entries)
    and on the per-step path (one ``Simulation.step`` per tick, commands submitted as the node submits them,
    through a controller that sends nothing: :func:`_per_step`)."""
    import statistics
    import subprocess

    from bench_model import load_baseline
    with tempfile.TemporaryDirectory() as tmp:
        try:
            load_baseline(commit, tmp)
        except subprocess.CalledProcessError:
            raise SystemExit(f"--baseline {commit}: git does not know that commit") from None
        import importlib
        base = importlib.import_module("acres_baseline.scenario")
        for name in DBW_CASES:
            path = SCEN / "examples" / f"{name}.yaml"
            runs = [(base.run_scenario, base.load_scenario(path)), (run_scenario, load_scenario(path)),
                    (lambda sc: run_scenario(sc, controller=_per_step), load_scenario(path)),
                    (partial(tick_loop, "acres_baseline"), base.load_scenario(path)),
                    (partial(tick_loop, "acres_dbw_sim"), load_scenario(path))]
            times: list = [[], [], [], [], []]
            for k in range(repeat + 1):
                for j, (run, sc) in enumerate(runs):
                    c0 = time.process_time()
                    run(sc)
                    if k:                     # the first round warms them up
                        times[j].append(time.process_time() - c0)
            b, loop, step, tick_b, tick = (statistics.median(x) for x in times)
            sim_s = runs[1][1].duration_s
            tick_s = runs[4][1].n_steps * runs[4][1].dt_s
            print(f"{name}, CPU s per run (median of {repeat}): {commit} {b:.4f}; today, compiled loop {loop:.4f} "
                  f"(speed-up {b / loop:.2f}x, {sim_s / loop:.0f}x real time), per-step path {step:.4f} "
                  f"(speed-up {b / step:.2f}x, {sim_s / step:.0f}x real time); the node's path (submits and "
                  f"Simulation.step, no recorder): {commit} {tick_b:.4f}, today {tick:.4f} "
                  f"(speed-up {tick_b / tick:.2f}x, {tick_s / tick:.0f}x real time)")


def fleet_scenario(n: int, seconds: float) -> str:
    """A scenario of ``n`` full Rangers through the DBW (the ULC to 5 m/s, 50 Hz re-sends), ``seconds`` long."""
    lines = [f"name: fleet_{n}", f"duration_s: {seconds:g}", "command_rate_hz: 50", "output_every: 12", "vehicles:"]
    for j in range(n):
        lines += [f"  - name: v{j}", "    model: full",
                  f"    initial: {{pose: {{x_m: 0.0, y_m: {5.0 * j:.1f}, yaw_deg: 0}}, gear: P}}",
                  "    timeline:", "      - t: 0", "        enable: true",
                  "        ulc: {cmd: 5.0, cmd_type: VELOCITY, limit_accel: 1.0, enable: true, enable_shift: true}"]
    return "\n".join(lines) + "\n"


def fleet(n: int, seconds: float, repeat: int) -> None:
    """Print the CPU time of a headless run of 1 and of ``n`` full Rangers through the DBW (median of
    ``repeat`` runs each, alternating after a warm-up), the × real time of the ``n`` vehicles together and the
    cost per vehicle-step at ``n`` against that at 1."""
    import statistics

    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for m in (1, n):
            paths[m] = Path(tmp) / f"fleet_{m}.yaml"
            paths[m].write_text(fleet_scenario(m, seconds))
        times: dict = {1: [], n: []}
        for k in range(repeat + 1):
            for m in (1, n):
                sc = load_scenario(paths[m])
                c0 = time.process_time()
                run_scenario(sc)
                if k:
                    times[m].append(time.process_time() - c0)
    one, many = statistics.median(times[1]), statistics.median(times[n])
    steps = int(round(seconds * 120))
    print(f"{n} full Rangers through the DBW, {seconds:g} s each, CPU (median of {repeat}): {many:.3f} s, "
          f"{seconds / many:.1f}x real time for all; {1e6 * many / (n * steps):.2f} us per vehicle-step against "
          f"{1e6 * one / steps:.2f} us for one vehicle (ratio {many / n / one:.3f})")


def main_bench() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--baseline", metavar="COMMIT", help="compare the DBW-level scenarios with this commit's code")
    ap.add_argument("--fleet", type=int, metavar="N", help="only: N full Rangers through the DBW in one run, "
                    "against one (--fleet-seconds long)")
    ap.add_argument("--fleet-seconds", type=float, default=20.0)
    args = ap.parse_args()
    if args.fleet:
        fleet(args.fleet, args.fleet_seconds, args.repeat)
        return
    if args.baseline:
        dbw_against_baseline(args.baseline, args.repeat)
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; best of {args.repeat}")
    print(f"{'scenario':36s} {'steps':>7s} {'steps/s':>9s} {'x real time':>12s} {'us/step':>8s} "
          f"{'write [ms]':>11s} {'x real time (CPU)':>18s}")
    results = {}
    for label, path, sets in CASES:
        sc = load_scenario(path, sets)
        best, best_cpu = None, float("inf")
        for _ in range(args.repeat):
            c0 = time.process_time()
            r = run_scenario(sc)
            best_cpu = min(best_cpu, time.process_time() - c0)
            if best is None or r.wall_s < best.wall_s:
                best = r
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            write_outputs(best, Path(tmp) / "out")
            w = time.perf_counter() - t0
        results[label] = best
        print(f"{label:36s} {best.steps:7d} {best.steps_per_s:9,.0f} {best.real_time_factor:12.0f} "
              f"{1e6 / best.steps_per_s:8.1f} {1e3 * w:11.1f} {best.simulated_s / best_cpu:18.0f}")
    bare = bare_vehicle_loop(30.0, args.repeat)
    full = 1.0 / results[CASES[0][0]].steps_per_s
    sparse = 1.0 / results[CASES[1][0]].steps_per_s
    print(f"\nbare Vehicle.step, same inputs: {1e6 * bare:.1f} us/step ({1 / bare:,.0f} steps/s, "
          f"{1 / bare / 120:.0f}x real time)")
    print(f"runner overhead: {1e6 * (full - bare):+.1f} us/step recording every row "
          f"({100 * (full / bare - 1):+.1f} %), {1e6 * (sparse - bare):+.1f} us/step every 10th "
          f"({100 * (sparse / bare - 1):+.1f} %)")
    files = sorted(str(p) for p in SCEN.rglob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        rc = main([*files, "--jobs", str(args.jobs), "--out", tmp, "--quiet"])
        el = time.perf_counter() - t0
    print(f"batch of {len(files)} shipped scenarios with {args.jobs} processes: {el:.2f} s wall (exit {rc})")


if __name__ == "__main__":
    main_bench()
