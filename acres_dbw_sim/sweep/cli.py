"""Command line: ``acres-sweep`` (also ``python -m acres_dbw_sim.sweep``) and :func:`run_sweep`.

::

    acres-sweep SWEEP.yaml [--out DIR] [--engine local|ray] [--jobs N] [--address ADDR] [--samples N]
                [--fresh] [--no-plots] [--no-progress] [--quiet]
    acres-sweep --check SWEEP.yaml     (validate and draw the samples; run nothing)

Exit status: 0 every sample done (invalid draws, reported in the table,
included), 1 done but some runs ended in an error or a crash, 2 invalid sweep
file or arguments (the message names the file, line and key; nothing ran),
130 interrupted (what finished is on disk: the same command resumes).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..usage import pipe_safe
from ..scenario.source import ScenarioError
from ..stop_signals import sigterm_interrupts
from .design import make_samples
from .engines import ENGINES, run_local, run_ray
from .spec import Sweep, load_sweep
from .store import PLOT_FILES, ResultStore, SweepDirError

__all__ = ["main", "run_sweep", "SweepOutcome", "DEFAULT_OUT"]

DEFAULT_OUT = Path("sweep_out")


@dataclass
class SweepOutcome:
    """What :func:`run_sweep` did.

    Attributes
    ----------
    results : Path
        ``results.csv``.
    summary : dict
        The content of ``summary.json``.
    ran : int
        Runs executed by this call (samples already on disk are not re-run).
    resumed : int
        Samples found finished on disk.
    wall_s : float
        Wall time of the runs of this call [s].
    counts : dict
        ``{status: samples}`` over the whole table.
    files : list of Path
    """

    results: Path
    summary: dict
    ran: int
    resumed: int
    wall_s: float
    counts: dict = field(default_factory=dict)
    files: list = field(default_factory=list)


class _Bar:
    """tqdm bar: runs done out of all samples, failures, estimated time left."""

    def __init__(self, total: int, initial: int, label: str, enabled: bool) -> None:
        self.bar = None
        self.failed = 0
        if enabled:
            from tqdm import tqdm

            class _Tqdm(tqdm):   # no monitor thread: it would keep the local engine from forking its workers
                monitor_interval = 0
            self.bar = _Tqdm(total=total, initial=initial, desc=label, unit="run", dynamic_ncols=True)
            self.bar.set_postfix_str("failed 0")

    def update(self, failed: bool) -> None:
        self.failed += failed
        if self.bar is not None:
            if failed:
                self.bar.set_postfix_str(f"failed {self.failed}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_sweep(sweep: Sweep, out_dir: str | Path, engine: str = "local", jobs: int = 0, address: str | None = None,
              fresh: bool = False, progress: bool = False, plots: bool = True) -> SweepOutcome:
    """Run (or resume) a sweep and write its table, summary and plots.

    Parameters
    ----------
    sweep : Sweep
        From :func:`~acres_dbw_sim.sweep.spec.load_sweep`.
    out_dir : str or Path
        Output directory (see :mod:`acres_dbw_sim.sweep.store`).
    engine : {'local', 'ray'}
    jobs : int
        Local processes, or the CPUs of a local Ray (0: all CPUs).
    address : str, optional
        Ray cluster address (``--address``).
    fresh : bool
        Discard earlier results in ``out_dir`` instead of resuming.
    progress : bool
        Show the progress bar on stderr.
    plots : bool
        Write ``histograms.png`` and ``tornado.png``; without, remove those in ``out_dir``
        (they would show an earlier state of the table).

    Returns
    -------
    SweepOutcome

    Raises
    ------
    SweepDirError
        ``out_dir`` holds another sweep's results.
    KeyboardInterrupt
        Interrupted; every finished run is in ``runs.csv``.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; one of {ENGINES}")
    samples = make_samples(sweep)
    store = ResultStore(out_dir, sweep, fresh)
    resumed = store.resumed
    prefix = len(sweep.scenarios) > 1
    counted = {"ran": 0}
    bar = _Bar(len(samples), len(store.done), sweep.name, progress)

    def on_result(sample, row) -> None:
        store.add_result(sample, row)
        counted["ran"] += 1
        bar.update(row["status"] != "ok")

    t0 = time.perf_counter()
    try:
        for s in samples:
            if s.invalid and s.sample_id not in store.done:
                store.add_invalid(s)
                bar.update(True)
        todo = [s for s in samples if not s.invalid and s.sample_id not in store.done]
        if todo:
            if engine == "ray":
                run_ray(todo, sweep.scenarios, prefix, jobs, on_result, address)
            else:
                run_local(todo, sweep.scenarios, prefix, jobs, on_result)
    finally:
        bar.close()
        store.close()
    wall = time.perf_counter() - t0
    results = store.finalize()
    from .analysis import analyse, read_table
    summary = analyse(results, sweep)
    out = Path(out_dir)
    (out / ".summary.json.tmp").write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    (out / ".summary.json.tmp").replace(out / "summary.json")
    files = [results, out / "summary.json", out / "runs.csv", out / "sweep.json"]
    histograms_png, tornado_png = (out / name for name in PLOT_FILES)
    if plots:
        from .plots import plot_histograms, plot_tornado
        _, _, y, _ = read_table(results, sweep)
        title = f"{sweep.name}: {sweep.design}, {len(samples)} samples"
        files.append(plot_histograms(y, list(sweep.metric_columns), summary["metrics"], histograms_png, title))
        files.append(plot_tornado(list(sweep.metric_columns), summary["metrics"], tornado_png, title=title))
    else:   # plots of an earlier state of the directory would no longer match its table
        histograms_png.unlink(missing_ok=True)
        tornado_png.unlink(missing_ok=True)
    counts = {k: summary["sweep"][k] for k in ("ok", "invalid", "error", "crashed")}
    return SweepOutcome(results, summary, counted["ran"], resumed, wall, counts, files)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="acres-sweep",
        description="Parameter sweep / Monte Carlo over the parameter file's uncertainty: runs a scenario for "
                    "each sample and writes results.csv, summary.json and plots. Format: docs/sweeps.md.",
        epilog="exit status: 0 done, 1 some runs failed, 2 invalid sweep file or arguments, 130 interrupted "
               "(run the same command again to resume)")
    p.add_argument("sweep", help="sweep file (YAML)")
    p.add_argument("--out", metavar="DIR", help=f"output directory (default {DEFAULT_OUT}/<sweep name>); "
                   "an interrupted sweep resumes from it")
    p.add_argument("--engine", choices=ENGINES, default="local",
                   help="local worker processes (default) or Ray tasks")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="local processes, or the CPUs of the local Ray (default: all CPUs)")
    p.add_argument("--address", metavar="ADDR", help="Ray cluster to join (ray://host:10001, host:6379 or auto); "
                   "without it --engine ray starts a local Ray")
    p.add_argument("--samples", type=int, metavar="N", help="draw N samples instead of the file's (a quick, "
                   "smaller run; not for the grid design)")
    p.add_argument("--fresh", action="store_true", help="discard the results in DIR instead of resuming")
    p.add_argument("--check", action="store_true", help="validate the sweep and draw the samples; run nothing")
    p.add_argument("--no-plots", action="store_true", help="no histograms.png / tornado.png")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (off anyway when stderr is not a "
                   "terminal)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors")
    return p


#: From this many samples on the sweep says it is drawing them (a Sobol' design of 2^14 takes seconds).
LARGE_SAMPLES = 1000


def _g(x) -> str:
    return "-" if x is None else f"{x:.4g}"


def _report(sweep: Sweep, res: SweepOutcome) -> str:
    lines = [f"{sweep.name}: {sum(res.counts.values())} samples ({sweep.design}, seed {sweep.seed}, "
             f"{len(sweep.params)} parameters): " + ", ".join(f"{v} {k}" for k, v in res.counts.items() if v)
             + f"; ran {res.ran} now" + (f", {res.resumed} were done" if res.resumed else "")
             + f" in {res.wall_s:.1f} s wall time"]
    width = max(len(c) for c in sweep.metric_columns)
    lines.append(f"  {'metric'.ljust(width)}  {'mean':>9} {'sd':>9} {'5 %':>9} {'50 %':>9} {'95 %':>9}  "
                 "top parameters (SRC)")
    for col in sweep.metric_columns:
        m = res.summary["metrics"][col]
        s, r = m["summary"], m["src"]
        top = ", ".join(f"{e['key']} {e['src']:+.2f}" for e in r["ranking"][:3]) or f"({r.get('note', '')})"
        r2 = f" (R^2 {r['r2']:.2f})" if r["r2"] is not None else ""
        lines.append(f"  {col.ljust(width)}  {_g(s['mean']):>9} {_g(s['sd']):>9} {_g(s['q05']):>9} "
                     f"{_g(s['q50']):>9} {_g(s['q95']):>9}  {top}{r2}")
        if "sobol" in m and m["sobol"]["ranking"]:
            lines.append(f"  {''.ljust(width)}  Sobol' total: " + ", ".join(
                f"{e['key']} {e['total']:.2f}" for e in m["sobol"]["ranking"][:3]))
    lines.append("wrote " + ", ".join(str(f) for f in res.files))
    return "\n".join(lines)


@sigterm_interrupts
@pipe_safe
def main(argv: list | None = None) -> int:
    """Entry point of ``acres-sweep``; returns the exit status."""
    args = _parser().parse_args(argv)
    out = None
    try:
        if args.jobs < 0:
            raise ScenarioError("<command line>", "--jobs", f"must be >= 0, got {args.jobs}")
        if args.address and args.engine != "ray":
            raise ScenarioError("<command line>", "--address", "is for --engine ray")
        sweep = load_sweep(args.sweep, args.samples)
        for w in sweep.warnings:
            print(f"warning: {w}", file=sys.stderr)
        out = Path(args.out) if args.out else DEFAULT_OUT / sweep.name
        if args.check:
            samples = make_samples(sweep)
            bad = [s for s in samples if s.invalid]
            redraws = sum(s.redraws for s in samples)
            if not args.quiet:
                print(f"{args.sweep}: ok ({sweep.design}, {len(samples)} samples x {len(sweep.scenarios)} "
                      f"scenario(s), {len(sweep.params)} parameters, {len(sweep.metric_columns)} metrics; "
                      f"{len(bad)} invalid draws" + (f", {redraws} re-drawn" if redraws else "") + ")")
                for p in sweep.params:
                    print(f"  {p.key:40s} {p.describe()}")
                for s in bad[:10]:
                    print(f"  sample {s.sample_id}: invalid: {s.invalid}")
            return 0
        progress = not args.no_progress and sys.stderr.isatty()
        if not args.quiet and sweep.samples >= LARGE_SAMPLES:
            print(f"{sweep.name}: drawing {sweep.samples} samples ({sweep.design}) and checking each draw ...",
                  file=sys.stderr, flush=True)
        res = run_sweep(sweep, out, args.engine, args.jobs, args.address, args.fresh, progress, not args.no_plots)
        if not args.quiet:
            print(_report(sweep, res))
        failed = res.counts["error"] + res.counts["crashed"]
        if failed:
            print(f"{sweep.name}: {failed} runs failed (status and message in {res.results})", file=sys.stderr)
        return 1 if failed else 0
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SweepDirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        if "ray" not in str(exc).lower():
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        runs = out / "runs.csv" if out is not None else None
        done = 0
        if runs is not None and runs.is_file():
            with runs.open(encoding="utf-8", errors="replace") as f:
                done = max(0, sum(1 for _ in f) - 1)
        if done:
            print(f"interrupted: {done} finished runs are in {runs}; run the same command again to resume",
                  file=sys.stderr)
        else:
            print("interrupted before the first run finished: no results written; run the same command again "
                  "to start", file=sys.stderr)
        return 130

