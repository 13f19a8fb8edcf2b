"""Results on disk: streamed as they arrive, resumable, then one sorted table.

Files in the output directory:

* ``sweep.json``: the resolved sweep (:meth:`~acres_dbw_sim.sweep.spec.Sweep.identity`:
  design, seed, distributions, scenario files and their SHA-256...). A run
  into a directory whose ``sweep.json`` differs is refused (``--fresh``
  discards the old results).
* ``runs.csv``: one line per finished sample, appended and flushed as each
  arrives (in arrival order), with the wall times. A sweep killed at any
  point leaves every finished sample here; a line cut by the kill is dropped
  when the sweep starts again, which then runs only the samples not in the file.
* ``results.csv``: the table of samples x metrics sorted by sample id,
  written when every sample is done. It holds nothing that depends on the
  machine, the engine or the timing, so the same sweep gives the same bytes
  with either engine and after any number of interruptions.
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from .design import Sample
from .spec import Sweep, format_value

__all__ = ["PLOT_FILES", "ResultStore", "SweepDirError", "table_header"]

TIMING_COLUMNS = ("wall_s", "loop_s")
#: The plots a sweep writes beside its table (sweep/plots.py); they describe one state of the table.
PLOT_FILES = ("histograms.png", "tornado.png")


class SweepDirError(ValueError):
    """The output directory holds the results of another sweep (or unreadable ones)."""


def table_header(sweep: Sweep) -> list:
    """Columns of ``results.csv``: sample_id, status, one per parameter, one per metric, simulated_s, message."""
    return ["sample_id", "status", *(p.key for p in sweep.params), *sweep.metric_columns, "simulated_s", "message"]


def _line(cells: list) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    return buf.getvalue()


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8", newline="")
    os.replace(tmp, path)


class ResultStore:
    """The output directory of one sweep.

    Parameters
    ----------
    out_dir : str or Path
    sweep : Sweep
    fresh : bool
        Discard results of an earlier run in ``out_dir`` instead of resuming.

    Attributes
    ----------
    done : dict
        ``{sample_id: list of cells}`` of the samples already finished (read
        back from ``runs.csv`` when resuming), ``results.csv``'s columns.
    resumed : int
        Samples found finished when the store was opened.

    Raises
    ------
    SweepDirError
        When ``out_dir`` holds another sweep's results (and not ``fresh``).
    """

    def __init__(self, out_dir: str | Path, sweep: Sweep, fresh: bool = False) -> None:
        self.dir = Path(out_dir)
        self.sweep = sweep
        self.header = table_header(sweep)
        self.dir.mkdir(parents=True, exist_ok=True)
        ident = json.dumps(sweep.identity(), indent=2, sort_keys=True) + "\n"
        ident_path = self.dir / "sweep.json"
        self.runs_path = self.dir / "runs.csv"
        if fresh:
            for name in ("runs.csv", "results.csv", "summary.json") + PLOT_FILES:
                (self.dir / name).unlink(missing_ok=True)
        elif ident_path.exists() and self.runs_path.exists():
            old = ident_path.read_text(encoding="utf-8")
            if old != ident:
                changed = _changed(json.loads(old), json.loads(ident))
                raise SweepDirError(f"{self.dir} holds the results of a different sweep (changed: {changed}); "
                                    "use --fresh to discard them, or another --out")
        _atomic_write(ident_path, ident)
        self.done: dict = {}
        self._read_runs()
        self.resumed = len(self.done)
        new = not self.runs_path.exists()
        self._f = open(self.runs_path, "a", encoding="utf-8", newline="")
        if new:
            self._f.write(_line(self.header + list(TIMING_COLUMNS)))
            self._f.flush()

    def _read_runs(self) -> None:
        if not self.runs_path.exists():
            return
        raw = self.runs_path.read_bytes()
        cut = raw.rfind(b"\n") + 1
        if cut != len(raw):  # a line cut short by a kill: drop it, that sample runs again
            with open(self.runs_path, "r+b") as f:
                f.truncate(cut)
            raw = raw[:cut]
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
        if not rows:
            self.runs_path.unlink()
            return
        if rows[0] != self.header + list(TIMING_COLUMNS):
            raise SweepDirError(f"{self.runs_path}: its columns are not this sweep's; use --fresh or another --out")
        width = len(rows[0])
        for r in rows[1:]:
            if len(r) != width:
                continue
            sid = int(r[0])
            self.done.setdefault(sid, r[:len(self.header)])

    def _append(self, cells: list, timing: tuple) -> None:
        self.done[int(cells[0])] = cells
        self._f.write(_line(cells + [format_value(float(t)) for t in timing]))
        self._f.flush()

    def add_invalid(self, sample: Sample) -> None:
        """Record a draw the loaders refused (not run)."""
        empty = [""] * len(self.sweep.metric_columns)
        cells = [str(sample.sample_id), "invalid", *(format_value(v) for v in sample.values), *empty, "0.0",
                 _clean(sample.invalid)]
        self._append(cells, (0.0, 0.0))

    def add_result(self, sample: Sample, row: dict) -> list:
        """Record a finished run (``row`` from :func:`~acres_dbw_sim.sweep.worker.run_sample`); returns its cells."""
        cells = [str(sample.sample_id), row["status"], *(format_value(v) for v in sample.values),
                 *(row["metrics"].get(c, "") for c in self.sweep.metric_columns),
                 format_value(float(row["simulated_s"])), _clean(row["message"])]
        self._append(cells, (row["wall_s"], row["loop_s"]))
        return cells

    def close(self) -> None:
        """Close ``runs.csv``."""
        if not self._f.closed:
            self._f.close()

    def finalize(self) -> Path:
        """Write ``results.csv`` (every sample, sorted by id) and return its path."""
        text = _line(self.header) + "".join(_line(self.done[i]) for i in sorted(self.done))
        path = self.dir / "results.csv"
        _atomic_write(path, text)
        return path

    def timings(self) -> list:
        """``[(sample_id, status, simulated_s, wall_s, loop_s)]`` from ``runs.csv`` (for the benchmark)."""
        self._f.flush()
        rows = list(csv.reader(io.StringIO(self.runs_path.read_text(encoding="utf-8"), newline="")))
        out = []
        for r in rows[1:]:
            out.append((int(r[0]), r[1], float(r[-4]), float(r[-2]), float(r[-1])))
        return out


def _clean(text: str) -> str:
    """One line (a record is one line, so a cut line is easy to find)."""
    return " ".join(str(text).split())


def _changed(old: dict, new: dict) -> str:
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(keys) or "format"
