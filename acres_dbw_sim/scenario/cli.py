"""Command line: ``acres-scenario`` (also ``python -m acres_dbw_sim.scenario``).

::

    acres-scenario SCENARIO.yaml [--out DIR] [--set 'key=value;key=value'] [--plots] [--controller MOD:NAME]
    acres-scenario --batch DIR_OR_GLOB [--jobs N] [--out DIR] [--set ...] [--plots]
    acres-scenario --check SCENARIO.yaml ...
    acres-scenario --columns

Exit status: 0 done (every expectation met), 1 an expectation of the
scenario's ``expect`` section failed, 2 a scenario, ``--set`` or argument is
invalid (the message names the file, line and key; nothing is written),
130 interrupted.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from pathlib import Path

from ..usage import pipe_safe
from ..stop_signals import sigterm_interrupts
from .source import ScenarioError

__all__ = ["main"]

DEFAULT_OUT = Path("scenario_out")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="acres-scenario",
        description="Run a headless scenario of the Polaris Ranger DBW simulator (no ROS needed): "
                    "YAML in; timeseries.csv, summary.json and optionally plots.png out. "
                    "Format: docs/scenarios.md.",
        epilog="exit status: 0 done, 1 an expectation failed, 2 invalid scenario or arguments, 130 interrupted")
    p.add_argument("scenario", nargs="*", help="scenario file(s) (YAML)")
    p.add_argument("--out", metavar="DIR", help=f"output directory (default {DEFAULT_OUT}/<file stem>, "
                   f"e.g. {DEFAULT_OUT}/wot_high for wot_high.yaml; "
                   f"with --batch or several files: one sub-directory per scenario under DIR, default {DEFAULT_OUT})")
    p.add_argument("--set", metavar="KEY=VALUE;...", action="append", default=[],
                   help="edit the scenario (terrain.surface=gravel, timeline[1].brake_bar=15) or override a "
                        "vehicle parameter (brakes.front_nm_per_bar=25); repeatable")
    p.add_argument("--plots", action="store_true", help="also write plots.png (matplotlib)")
    p.add_argument("--controller", metavar="MODULE:NAME",
                   help="closed-loop controller called before every step: a function controller(sim, inputs) or "
                        "a class whose instances are (a new one per run); MODULE is imported from the current "
                        "directory or sys.path")
    p.add_argument("--batch", metavar="DIR_OR_GLOB", action="append",
                   help="run every *.yaml in a directory (or matching a glob) in parallel processes")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="parallel processes for --batch (default: number of CPUs)")
    p.add_argument("--check", action="store_true", help="validate only; run nothing, write nothing")
    p.add_argument("--columns", action="store_true", help="list the CSV columns and exit")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is off anyway when stderr is "
                   "not a terminal)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and failed expectations")
    return p


class _Progress:
    """Progress bar on stderr, shown only on a terminal and once a run has taken 2 s of wall time."""

    def __init__(self, label: str, enabled: bool) -> None:
        self.label = label
        self.enabled = enabled
        self.t0 = time.perf_counter()
        self.bar = None
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        el = time.perf_counter() - self.t0
        if not self.shown and el < 2.0:
            return
        if not self.shown:
            self.shown = True
            try:
                from tqdm import tqdm  # optional: a plain bar otherwise
                self.bar = tqdm(total=total, desc=self.label, unit="step", unit_scale=True, leave=False)
            except ImportError:
                self.bar = None
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
            return
        frac = done / total if total else 1.0
        n = int(30 * frac)
        rate = done / el if el > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        sys.stderr.write(f"\r{self.label} [{'#' * n}{'.' * (30 - n)}] {100 * frac:5.1f} %  "
                         f"{rate:,.0f} steps/s  {eta:4.0f} s left ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.shown:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()


def _load_controller(spec: str | None):
    """The controller named ``MODULE:NAME`` (a new instance when NAME is a class), or None."""
    if not spec:
        return None
    import importlib
    mod, sep, name = spec.partition(":")
    if not sep or not mod or not name:
        raise ScenarioError("<command line>", "--controller", f"expected MODULE:NAME, got {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = getattr(importlib.import_module(mod), name)
    except ImportError as exc:
        raise ScenarioError("<command line>", "--controller", f"cannot import {mod!r}: {exc}") from None
    except AttributeError:
        raise ScenarioError("<command line>", "--controller", f"module {mod!r} has no {name!r}") from None
    ctrl = obj() if isinstance(obj, type) else obj
    if not callable(ctrl):
        raise ScenarioError("<command line>", "--controller", f"{spec} is not callable")
    return ctrl


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def _run_one(path: str, out: Path, sets: list, plots: bool, progress: bool, quiet: bool,
             controller: str | None = None) -> int:
    from .runner import run_scenario, write_outputs
    from .schema import load_scenario
    sc = load_scenario(path, sets)
    ctrl = _load_controller(controller)
    bar = _Progress(sc.name, progress)
    try:
        res = run_scenario(sc, bar, ctrl)
    finally:
        bar.close()
    files = write_outputs(res, out, plots)
    if not quiet:
        print(f"{sc.name}: {res.simulated_s:g} s simulated in {res.wall_s:.3g} s "
              f"({res.real_time_factor:.0f}x real time, {res.steps_per_s:,.0f} steps/s); stop: {res.stop_reason}")
        for name, value in res.metrics.items():
            line = f"  {name} = {_fmt(value)}"
            if name in res.expect:
                e = res.expect[name]
                line += f"   expected {e['expected']}: {'ok' if e['passed'] else 'FAILED'}"
            print(line)
        if res.ledger['residual_j'] == res.ledger['residual_j']:
            print(f"  ledger residual {res.ledger['residual_j']:.4g} J "
                  f"({100 * res.ledger['relative_residual']:.4f} % of the fuel energy)")
        elif sc.model == "kinematic":
            print("  no energy ledger at the kinematic level")
        else:
            print("  energy ledger not finite")
        if res.stop_reason.startswith("diverged"):
            print(f"  FAILED: the run {res.stop_reason} (a parameter outside the model's range?)")
        for name, r in res.vehicles.items():
            failed = [m for m, e in r.expect.items() if not e["passed"]]
            print(f"  vehicle {name} ({r.scenario.model}, {r.scenario.control}): final speed "
                  f"{r.column('speed_mps')[-1]:.3g} m/s; " + ("FAILED " + ", ".join(failed) if failed else "ok"))
        print("wrote " + ", ".join(str(f) for f in files))
    elif not res.passed:
        for vname, r in (res.vehicles.items() if res.vehicles else (("", res),)):
            for name, e in r.expect.items():
                if not e["passed"]:
                    who = f"{sc.name}/{vname}" if vname else sc.name
                    print(f"{who}: {name} = {_fmt(e['measured'])}, expected {e['expected']}: FAILED")
    return 0 if res.passed else 1


def _batch_worker(path: str, out: str, sets: list, plots: bool, controller: str | None = None) -> dict:
    """Run one scenario of a batch (in a worker process); never raises."""
    import traceback
    row = {"file": path, "name": Path(path).stem, "status": "error", "message": "", "simulated_s": None,
           "wall_s": None, "real_time_factor": None, "stop_reason": None, "metrics": {}, "expect": {},
           "out": out}
    try:
        from .runner import run_scenario, write_outputs
        from .schema import load_scenario
        sc = load_scenario(path, sets)
        row["name"] = sc.name
        res = run_scenario(sc, controller=_load_controller(controller))
        write_outputs(res, out, plots)
        row.update(status="passed" if res.passed else "failed", simulated_s=res.simulated_s, wall_s=res.wall_s,
                   real_time_factor=res.real_time_factor, stop_reason=res.stop_reason, metrics=res.metrics,
                   expect=res.expect)
        if not res.passed:
            row["message"] = "; ".join(f"{k} = {_fmt(e['measured'])}, expected {e['expected']}"
                                       for k, e in res.expect.items() if not e["passed"])
    except ScenarioError as exc:
        row["message"] = str(exc)
    except Exception as exc:  # a bug: report it with its traceback, keep the batch going
        row["status"] = "crashed"
        row["message"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
    return row


def _collect(patterns: list) -> list:
    files: list = []
    for pat in patterns:
        p = Path(pat)
        if p.is_dir():
            found = sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
        else:
            found = sorted(Path(x) for x in glob.glob(pat, recursive=True))
            found = [f for f in found if f.is_file()]
        if not found:
            raise ScenarioError("<command line>", "--batch", f"no scenario files in or matching {pat!r}")
        files.extend(str(f) for f in found)
    return list(dict.fromkeys(files))


def _batch(files: list, out_root: Path, sets: list, plots: bool, jobs: int, quiet: bool,
           controller: str | None = None) -> int:
    from ..worker_pool import process_pool
    stems = [Path(f).stem for f in files]
    dup = {s for s in stems if stems.count(s) > 1}
    outs = [out_root / (Path(f).stem if Path(f).stem not in dup else
                        f"{Path(f).parent.name}_{Path(f).stem}") for f in files]
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    jobs = min(jobs, len(files))
    t0 = time.perf_counter()
    try:
        if jobs == 1:
            rows = [_batch_worker(f, str(o), sets, plots, controller) for f, o in zip(files, outs)]
        else:
            ex = process_pool(jobs, fork_ok=controller is None)   # a user's controller: threads unseen
            try:
                rows = list(ex.map(_batch_worker, files, [str(o) for o in outs], [sets] * len(files),
                                   [plots] * len(files), [controller] * len(files)))
            finally:   # interrupted: the scenarios not yet started are dropped, not run
                ex.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        print("interrupted: the scenarios that had finished are written, the others not", file=sys.stderr)
        return 130
    wall = time.perf_counter() - t0
    head = ("scenario", "status", "sim [s]", "wall [s]", "x real time", "checks", "stop")
    table = []
    for r in rows:
        n_ok = sum(1 for e in r["expect"].values() if e["passed"])
        table.append((r["name"], r["status"], _fmt(r["simulated_s"]),
                      f"{r['wall_s']:.2f}" if r["wall_s"] is not None else "-",
                      f"{r['real_time_factor']:.0f}" if r["real_time_factor"] is not None else "-",
                      f"{n_ok}/{len(r['expect'])}", r["stop_reason"] or "-"))
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(t, widths)) for t in table]
    n_pass = sum(r["status"] == "passed" for r in rows)
    lines.append(f"{len(rows)} scenarios, {n_pass} passed, {sum(r['status'] == 'failed' for r in rows)} failed, "
                 f"{sum(r['status'] in ('error', 'crashed') for r in rows)} errors; {wall:.1f} s wall with "
                 f"{jobs} process{'es' if jobs > 1 else ''}")
    if not quiet:
        print("\n".join(lines))
    for r in rows:
        if r["status"] != "passed":
            print(f"{r['name']}: {r['status']}: {r['message']}", file=sys.stderr)
    out_root.mkdir(parents=True, exist_ok=True)
    tmp = out_root / ".batch_summary.json.tmp"
    tmp.write_text(json.dumps({"wall_s": wall, "jobs": jobs, "scenarios": rows}, indent=2, default=str) + "\n")
    os.replace(tmp, out_root / "batch_summary.json")
    if any(r["status"] in ("error", "crashed") for r in rows):
        return 2
    return 0 if n_pass == len(rows) else 1


@sigterm_interrupts
@pipe_safe
def main(argv: list | None = None) -> int:
    """Entry point of ``acres-scenario``; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.columns:
            from .signals import COLUMNS
            for name, desc in COLUMNS:
                print(f"{name:24s} {desc}")
            return 0
        if args.check:
            from .schema import load_scenario
            files = (_collect(args.batch) if args.batch else []) + list(args.scenario)
            if not files:
                raise ScenarioError("<command line>", "", "--check needs scenario files")
            for f in files:
                sc = load_scenario(f, args.set)
                if not args.quiet:
                    print(f"{f}: ok ({sc.control} level, {sc.n_steps} steps, {len(sc.timeline)} timeline "
                          f"entr{'y' if len(sc.timeline) == 1 else 'ies'})")
            return 0
        if args.jobs < 0:
            raise ScenarioError("<command line>", "--jobs", f"must be >= 0, got {args.jobs}")
        if args.batch or len(args.scenario) > 1:
            files = (_collect(args.batch) if args.batch else []) + list(args.scenario)
            _load_controller(args.controller)  # fail here, once, rather than in every worker
            return _batch(files, Path(args.out) if args.out else DEFAULT_OUT, args.set, args.plots, args.jobs,
                          args.quiet, args.controller)
        if not args.scenario:
            _parser().print_usage(sys.stderr)
            print("acres-scenario: error: give a scenario file, --batch DIR_OR_GLOB or --columns", file=sys.stderr)
            return 2
        path = args.scenario[0]
        out = Path(args.out) if args.out else DEFAULT_OUT / Path(path).stem
        progress = not args.no_progress and sys.stderr.isatty()
        return _run_one(path, out, args.set, args.plots, progress, args.quiet, args.controller)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: nothing written", file=sys.stderr)
        return 130
