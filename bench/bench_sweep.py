"""Benchmark of parameter sweeps (not a test).

Runs the same Monte Carlo sweep of ``sweeps/braking_uncertainty.yaml``'s
scenario with each engine and prints:

* throughput: simulated scenario-seconds per wall-clock second of the whole
  sweep (process or Ray start-up included), and runs per second;
* the overhead per run: the task's wall time (parse, validate, build the
  simulation, run, collect metrics) minus its stepping loop, measured inside
  the worker; and the dispatch overhead: ``jobs x sweep wall / runs`` minus
  the task's wall time (the engine's share: start-up, pickling, scheduling,
  writing the row), and the engine's time in all: the sweep's wall time minus
  the tasks' wall time divided by the jobs (mostly starting the worker
  processes or Ray, each worker importing numpy, scipy and numba's cached kernels);
* the same on one core in this process (``--jobs 1``, no engine start-up), with
  CPU time (``time.process_time``), which the load of other processes on the
  machine does not inflate.

Run: ``python bench/bench_sweep.py [--samples 64] [--jobs 2] [--engines local,ray] [--scenario-s 10]``.
``--scenario-s`` lengthens each run (the stop condition is dropped), so the
figures show both short runs, where the overhead dominates, and longer ones.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.sweep import load_sweep, run_sweep  # noqa: E402
from acres_dbw_sim.sweep.store import ResultStore  # noqa: E402


def _sweep_file(tmp: Path, samples: int, scenario_s: float | None) -> Path:
    extra = f";stop_when=null;duration_s={scenario_s}" if scenario_s else ""
    p = tmp / f"bench_{samples}_{scenario_s}.yaml"
    p.write_text(textwrap.dedent(f"""
        name: bench
        scenarios:
          - file: {ROOT / 'scenarios' / 'brake_70bar_asphalt.yaml'}
            set: "initial.speed_mps=10;metrics=null{extra}"
        parameters: [brakes.*, tyres.*, mass.*]
        design: montecarlo
        samples: {samples}
        seed: 1
        metrics:
          stopping_distance_m: {{final: x_m}}
        """).lstrip())
    return p


def measure(path: Path, engine: str, jobs: int, out: Path) -> dict:
    sw = load_sweep(path)
    c0 = time.process_time()
    t0 = time.perf_counter()
    res = run_sweep(sw, out, engine=engine, jobs=jobs, fresh=True, plots=False)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    store = ResultStore(out, sw)
    timing = [t for t in store.timings() if t[1] == "ok"]
    store.close()
    sim_s = sum(t[2] for t in timing)
    task = statistics.median(t[3] for t in timing)
    loop = statistics.median(t[4] for t in timing)
    return {"engine": engine, "jobs": jobs, "runs": len(timing), "wall_s": wall, "cpu_s": cpu,
            "sim_s": sim_s, "throughput": sim_s / wall, "runs_per_s": len(timing) / wall,
            "task_ms": 1e3 * task, "loop_ms": 1e3 * loop, "in_task_overhead_ms": 1e3 * (task - loop),
            "dispatch_ms": 1e3 * (jobs * wall / len(timing) - task),
            "engine_s": wall - sum(t[3] for t in timing) / jobs, "ok": res.counts["ok"]}


def main_bench() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=64)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--engines", default="local,ray")
    ap.add_argument("--scenario-s", type=float, action="append", default=None,
                    help="run length [s] with the stop condition dropped (repeatable); default: the stop "
                         "(about 1.3 s) and 10 s")
    args = ap.parse_args()
    lengths = args.scenario_s or [None, 10.0]
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    head = (f"{'run length':>12} {'engine':>6} {'jobs':>4} {'runs':>5} {'wall s':>7} {'sim-s/wall-s':>12} "
            f"{'runs/s':>7} {'task ms':>8} {'loop ms':>8} {'overhead ms':>11} {'dispatch ms':>11} {'engine s':>8}")
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for length in lengths:
            path = _sweep_file(tmp, args.samples, length)
            cases = [("local", 1)] + [(e, args.jobs) for e in args.engines.split(",")]
            for engine, jobs in cases:
                r = measure(path, engine, jobs, tmp / f"{engine}_{jobs}_{length}")
                name = "stop" if length is None else f"{length:g} s"
                print(f"{name:>12} {engine:>6} {jobs:>4} {r['runs']:>5} {r['wall_s']:>7.2f} {r['throughput']:>12.0f} "
                      f"{r['runs_per_s']:>7.1f} {r['task_ms']:>8.1f} {r['loop_ms']:>8.1f} "
                      f"{r['in_task_overhead_ms']:>11.1f} {r['dispatch_ms']:>11.1f} {r['engine_s']:>8.1f}"
                      + (f"   (cpu {r['cpu_s']:.2f} s: {r['sim_s'] / r['cpu_s']:.0f} sim-s per cpu-s)"
                         if jobs == 1 and engine == "local" else ""))
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main_bench()
