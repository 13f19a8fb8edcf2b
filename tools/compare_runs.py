#!/usr/bin/env python3
"""Compare two output trees column by column: the yardstick of "a refactor changes no output".

Usage::

    . .venv/setup.sh
    python tools/compare_runs.py BASE_DIR NEW_DIR [--rows N] [--rel-tol 1e-9]

``BASE_DIR`` and ``NEW_DIR`` are two output trees of the same kind: two scenario batch
outputs (``acres-scenario --batch scenarios --out DIR``: ``<stem>/timeseries.csv`` and
``<stem>/summary.json`` per scenario), two golden report streams
(``tools/golden_stream.py DIR``: one CSV per topic) or two ``tools/refactor_outputs.py`` trees
(both). Every ``*.csv`` and ``*.json`` under ``BASE_DIR`` is paired with the file of the same
relative path under ``NEW_DIR``.

The rule, per column of a CSV (every row of it at once):

    equal  <=>  |a - b| <= rel_tol * max|column of a|   at every row, NaN in the same places

A residual column is scaled by the quantity it is the residual of (``RESIDUAL_OF``: the energy
ledger's residual by the fuel energy), since its own magnitude is the rounding it measures. Text
columns (frame ids, joint names) must match exactly. A JSON file is flattened to its numeric
leaves (``a.b[2].c``); each leaf is a column of one row, scaled by its own magnitude, and text
leaves must match. Figures of the machine or of the run's place, not of the model (``IGNORED_KEYS``:
wall time (any key naming it), real-time factor, steps per second, worker count, output folder) are
left out, and an absolute path (the parameter file a run read) is compared by its file name.

Prints one line per file (``same`` or what differs), for each moved column its first differing
rows (row, ``t_s`` where the file has one, base, new, |diff|, allowed), then a summary.

Exit status: 0 every paired file equal; 1 a column moved, a file or column is missing on one
side, or rows differ in number; 2 bad arguments (a directory that does not exist).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: {residual column or JSON key: the column or key it is the residual of} (last path element).
RESIDUAL_OF = {"energy_residual_j": "energy_fuel_j", "residual_j": "fuel_j"}
#: JSON keys (last path element) that describe the machine or the run's place, not the model:
#: timings, the worker count, the output folder. Never compared.
IGNORED_KEYS = frozenset({"wall_s", "loop_s", "real_time_factor", "steps_per_s", "elapsed_s", "cpu_s",
                          "jobs", "out"})
REL_TOL = 1e-9


@dataclass
class ColumnDiff:
    """One moved column: its name and up to ``rows`` examples (row, t_s, base, new, |diff|, allowed)."""

    name: str
    examples: list = field(default_factory=list)
    count: int = 0
    reason: str = ""


@dataclass
class FileDiff:
    """The comparison of one file pair; ``problems`` empty means equal."""

    path: str
    problems: list = field(default_factory=list)     # text lines (missing columns, row counts)
    columns: list = field(default_factory=list)      # ColumnDiff

    @property
    def equal(self) -> bool:
        """True when nothing differs."""
        return not self.problems and not self.columns


def _read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    """(header, rows as text) of a CSV file."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            return [], []
        return header, list(reader)


def _as_numbers(cells: list[str]) -> np.ndarray | None:
    """A text column as float64 (``nan``/``inf`` understood), None when any cell is not a number."""
    try:
        return np.array([float(c) for c in cells], dtype=np.float64)
    except ValueError:
        return None


def compare_columns(name: str, a: np.ndarray, b: np.ndarray, scale: float, rel_tol: float,
                    times: np.ndarray | None, rows: int) -> ColumnDiff | None:
    """Compare one numeric column.

    Parameters
    ----------
    a, b : ndarray, shape (n,)
        Base and new values (same length).
    scale : float
        The magnitude the tolerance is relative to (max |a| of the column, or of the quantity a
        residual belongs to); NaN entries ignored.
    rel_tol : float
        Allowed |a - b| / scale.
    times : ndarray or None
        ``t_s`` of each row, for the printout.
    rows : int
        How many differing rows to keep.

    Returns
    -------
    ColumnDiff or None
        None when equal (NaN in the same places, every other row within ``rel_tol * scale``).
    """
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    allowed = rel_tol * scale
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
        same_inf = np.isinf(a) & (a == b)
        bad = (nan_a != nan_b) | (~nan_a & ~nan_b & ~same_inf & ~(diff <= allowed))
    if not bad.any():
        return None
    idx = np.flatnonzero(bad)
    out = ColumnDiff(name, count=int(idx.size))
    for i in idx[:rows]:
        t = float(times[i]) if times is not None else math.nan
        out.examples.append((int(i), t, float(a[i]), float(b[i]), float(diff[i]), allowed))
    return out


def _scale(values: np.ndarray) -> float:
    """max |finite value| of a column (0 for an all-NaN or empty one)."""
    finite = values[np.isfinite(values)]
    return float(np.abs(finite).max()) if finite.size else 0.0


def compare_csv(rel: str, base: Path, new: Path, rel_tol: float, rows: int) -> FileDiff:
    """Compare two CSV files column by column (module docstring for the rule)."""
    out = FileDiff(rel)
    ha, ra = _read_csv(base)
    hb, rb = _read_csv(new)
    missing, extra = [c for c in ha if c not in hb], [c for c in hb if c not in ha]
    if missing:
        out.problems.append(f"columns missing in new: {', '.join(missing)}")
    if extra:
        out.problems.append(f"columns only in new: {', '.join(extra)}")
    if len(ra) != len(rb):
        out.problems.append(f"{len(ra)} rows in base, {len(rb)} in new")
        return out
    cols_a = {h: [r[i] for r in ra] for i, h in enumerate(ha)}
    cols_b = {h: [r[i] for r in rb] for i, h in enumerate(hb)}
    numeric_a = {h: _as_numbers(c) for h, c in cols_a.items()}
    times = numeric_a.get("t_s")
    for h in ha:
        if h not in cols_b:
            continue
        a, b = numeric_a[h], _as_numbers(cols_b[h])
        if a is None or b is None:   # text: exactly
            bad = [i for i, (x, y) in enumerate(zip(cols_a[h], cols_b[h])) if x != y]
            if bad:
                cd = ColumnDiff(h, count=len(bad), reason="text")
                cd.examples = [(i, times[i] if times is not None else math.nan, cols_a[h][i], cols_b[h][i],
                                None, None) for i in bad[:rows]]
                out.columns.append(cd)
            continue
        partner = RESIDUAL_OF.get(h)
        scale = _scale(numeric_a[partner]) if partner in numeric_a and numeric_a[partner] is not None \
            else _scale(a)
        cd = compare_columns(h, a, b, scale, rel_tol, times, rows)
        if cd is not None:
            out.columns.append(cd)
    return out


def flatten_json(value, prefix: str = "") -> dict:
    """``{path: leaf}`` of a JSON value (``a.b[2].c``); dict keys in ``IGNORED_KEYS`` are dropped."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            if k in IGNORED_KEYS or "wall" in k:
                continue
            out.update(flatten_json(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(flatten_json(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


def _leaf_number(v) -> float | None:
    """A JSON leaf as a float (None for text, booleans and nulls are compared as they are)."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and v.lower() in ("nan", "inf", "-inf", "infinity", "-infinity"):
        return float(v)
    return None


def compare_json(rel: str, base: Path, new: Path, rel_tol: float) -> FileDiff:
    """Compare two JSON files leaf by leaf (module docstring for the rule)."""
    out = FileDiff(rel)
    fa = flatten_json(json.loads(base.read_text(encoding="utf-8")))
    fb = flatten_json(json.loads(new.read_text(encoding="utf-8")))
    missing, extra = [k for k in fa if k not in fb], [k for k in fb if k not in fa]
    if missing:
        out.problems.append(f"keys missing in new: {', '.join(missing[:10])}" +
                            (f" (+{len(missing) - 10})" if len(missing) > 10 else ""))
    if extra:
        out.problems.append(f"keys only in new: {', '.join(extra[:10])}" +
                            (f" (+{len(extra) - 10})" if len(extra) > 10 else ""))
    for k, va in fa.items():
        if k not in fb:
            continue
        vb = fb[k]
        a, b = _leaf_number(va), _leaf_number(vb)
        if a is None or b is None:
            if isinstance(va, str) and isinstance(vb, str) and va.startswith("/") and vb.startswith("/"):
                va, vb = Path(va).name, Path(vb).name   # a file of the checkout: where it lies differs
            if va != vb:
                out.columns.append(ColumnDiff(k, [(0, math.nan, va, vb, None, None)], 1, "value"))
            continue
        leaf = k.rsplit(".", 1)[-1]
        partner = RESIDUAL_OF.get(leaf)
        scale = abs(a)
        if partner is not None:
            pk = k[: len(k) - len(leaf)] + partner
            pa = _leaf_number(fa.get(pk))
            if pa is not None and math.isfinite(pa):
                scale = abs(pa)
        cd = compare_columns(k, np.array([a]), np.array([b]), scale if math.isfinite(scale) else 0.0,
                             rel_tol, None, 1)
        if cd is not None:
            out.columns.append(cd)
    return out


def compare_trees(base: Path, new: Path, rel_tol: float = REL_TOL, rows: int = 5) -> list[FileDiff]:
    """Compare every ``*.csv`` and ``*.json`` under ``base`` with its namesake under ``new``.

    Returns one :class:`FileDiff` per file found on either side, sorted by relative path; a file
    present on one side only is a FileDiff with a problem line."""
    def files(root: Path) -> set:
        return {p.relative_to(root).as_posix() for p in root.rglob("*")
                if p.is_file() and p.suffix in (".csv", ".json")}
    fa, fb = files(base), files(new)
    out = []
    for rel in sorted(fa | fb):
        if rel not in fb:
            out.append(FileDiff(rel, [f"missing in {new}"]))
        elif rel not in fa:
            out.append(FileDiff(rel, [f"only in {new}"]))
        elif rel.endswith(".csv"):
            out.append(compare_csv(rel, base / rel, new / rel, rel_tol, rows))
        else:
            out.append(compare_json(rel, base / rel, new / rel, rel_tol))
    return out


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.17g}"
    return repr(x)


def report(diffs: list[FileDiff], stream=None) -> int:
    """Print the comparison (to ``stream``, default stdout); return the exit status (0 all equal, 1 otherwise)."""
    stream = stream or sys.stdout
    moved = [d for d in diffs if not d.equal]
    for d in diffs:
        if d.equal:
            print(f"same      {d.path}", file=stream)
            continue
        names = ", ".join(c.name for c in d.columns)
        print(f"DIFFERENT {d.path}" + (f": {len(d.columns)} column(s) moved: {names}" if d.columns else ""),
              file=stream)
        for p in d.problems:
            print(f"    {p}", file=stream)
        for c in d.columns:
            print(f"    {c.name}: {c.count} row(s) differ" + (f" ({c.reason})" if c.reason else ""), file=stream)
            for row, t, a, b, diff, allowed in c.examples:
                where = f"row {row}" + (f" (t_s {t:g})" if isinstance(t, float) and math.isfinite(t) else "")
                tail = f"  |diff| {diff:.3g} > {allowed:.3g}" if diff is not None else ""
                print(f"        {where}: base {_fmt(a)}  new {_fmt(b)}{tail}", file=stream)
    print(f"{len(diffs)} file(s) compared, {len(diffs) - len(moved)} same, {len(moved)} different",
          file=stream)
    return 1 if moved else 0


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring)."""
    ap = argparse.ArgumentParser(description="Compare two output trees (scenario batch outputs, golden report "
                                             "streams) column by column.")
    ap.add_argument("base", type=Path, help="output tree of the baseline commit")
    ap.add_argument("new", type=Path, help="output tree to check against it")
    ap.add_argument("--rel-tol", type=float, default=REL_TOL,
                    help=f"allowed |a - b| / max|column of a| (default {REL_TOL:g})")
    ap.add_argument("--rows", type=int, default=5, help="differing rows printed per column (default 5)")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends the printout quietly
    for d in (args.base, args.new):
        if not d.is_dir():
            ap.error(f"{d}: not a directory")
    diffs = compare_trees(args.base, args.new, args.rel_tol, args.rows)
    if not diffs:
        print(f"error: no *.csv or *.json under {args.base} or {args.new}", file=sys.stderr)
        return 2
    return report(diffs)


if __name__ == "__main__":
    sys.exit(main())
