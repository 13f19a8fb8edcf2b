"""What a finished sweep says: distributions of the metrics and which parameters drive them.

* Summary per metric, over the samples whose run finished with a value:
  count, mean, standard deviation (n - 1), minimum, maximum and the 5, 50
  and 95 % quantiles (:func:`numpy.quantile`, linear interpolation).
* Standardised regression coefficients (SRC): the least-squares fit
  ``y = b0 + sum_i b_i x_i`` over the samples, with ``SRC_i = b_i sd(x_i) /
  sd(y)`` (Saltelli et al., *Global Sensitivity Analysis: The Primer*,
  2008, section 1.2.5). ``R^2`` of the fit says how much of the variance the
  linear model explains: the ranking is trustworthy when it is close to 1.
  Parameters that did not vary over the samples get no coefficient.
* Sobol' indices when the design is ``sobol``: first-order ``S_i`` and total
  ``S_Ti`` from :func:`scipy.stats.sobol_indices` on the A, B and AB blocks
  (Saltelli 2010 estimators). Every block needs the same base row: a base row
  with a missing or invalid run in any block is left out.
"""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from .design import numeric_codes
from .spec import Sweep

__all__ = ["read_table", "summarise", "src", "sobol", "analyse"]


def read_table(path: str | Path, sweep: Sweep) -> tuple:
    """Read ``results.csv``.

    Returns
    -------
    (ndarray, ndarray, ndarray, list)
        ``ids`` (n,), parameter codes ``X`` (n, d), metrics ``Y`` (n, m) with
        NaN where a run failed or a metric is null, statuses (n,).
    """
    rows = list(csv.reader(io.StringIO(Path(path).read_text(encoding="utf-8"), newline="")))[1:]
    d, m = len(sweep.params), len(sweep.metric_columns)
    ids = np.array([int(r[0]) for r in rows], dtype=int)
    status = [r[1] for r in rows]
    x = np.column_stack([numeric_codes(p, [r[2 + j] for r in rows]) for j, p in enumerate(sweep.params)]) \
        if rows else np.zeros((0, d))
    y = np.full((len(rows), m), np.nan)
    for i, r in enumerate(rows):
        if r[1] != "ok":
            continue
        for k in range(m):
            cell = r[2 + d + k]
            y[i, k] = float(cell) if cell else np.nan
    return ids, x, y, status


def summarise(y: np.ndarray) -> dict:
    """Statistics of one metric over its finite values.

    Parameters
    ----------
    y : ndarray, shape (n,)

    Returns
    -------
    dict
        ``n``, ``missing``, ``mean``, ``sd``, ``min``, ``q05``, ``q50``, ``q95``,
        ``max`` (None when there are no values).
    """
    v = y[np.isfinite(y)]
    out: dict = {"n": int(v.size), "missing": int(y.size - v.size)}
    if v.size == 0:
        return {**out, **dict.fromkeys(("mean", "sd", "min", "q05", "q50", "q95", "max"))}
    q = np.quantile(v, [0.05, 0.5, 0.95])
    out.update(mean=float(v.mean()), sd=float(v.std(ddof=1)) if v.size > 1 else 0.0, min=float(v.min()),
               q05=float(q[0]), q50=float(q[1]), q95=float(q[2]), max=float(v.max()))
    return out


def src(x: np.ndarray, y: np.ndarray, keys: list) -> dict:
    """Standardised regression coefficients of ``y`` on the columns of ``x``.

    Parameters
    ----------
    x : ndarray, shape (n, d)
        Parameter values (choice parameters as their index).
    y : ndarray, shape (n,)
        Metric; rows where it is not finite are left out.
    keys : list of str
        Parameter names, one per column.

    Returns
    -------
    dict
        ``r2`` (float or None), ``n`` (rows used), ``ranking``: list of
        ``{"key", "src", "slope", "sd_x"}`` sorted by ``|src|``, largest first
        (slope in metric units per parameter unit).
    """
    ok = np.isfinite(y) & np.all(np.isfinite(x), axis=1)
    xs, ys = x[ok], y[ok]
    sd_x = xs.std(axis=0, ddof=1) if xs.shape[0] > 1 else np.zeros(x.shape[1])
    cols = [j for j in range(x.shape[1]) if sd_x[j] > 0.0]
    sd_y = float(ys.std(ddof=1)) if ys.size > 1 else 0.0
    if ys.size <= len(cols) + 1 or sd_y == 0.0 or not cols:
        return {"r2": None, "n": int(ys.size), "ranking": [],
                "note": f"no regression: {ys.size} samples with a value for {len(cols)} varying parameters "
                        "(needs more samples than parameters + 1, and a metric that varies)"}
    a = np.column_stack([np.ones(ys.size), xs[:, cols]])
    coef, *_ = np.linalg.lstsq(a, ys, rcond=None)
    resid = ys - a @ coef
    r2 = 1.0 - float(resid @ resid) / float(((ys - ys.mean()) ** 2).sum())
    ranking = [{"key": keys[j], "src": float(coef[1 + i] * sd_x[j] / sd_y), "slope": float(coef[1 + i]),
                "sd_x": float(sd_x[j])} for i, j in enumerate(cols)]
    ranking.sort(key=lambda e: (-abs(e["src"]), e["key"]))
    return {"r2": r2, "n": int(ys.size), "ranking": ranking}


def sobol(y: np.ndarray, n: int, keys: list) -> dict:
    """Sobol' indices from a Saltelli design's outputs.

    Parameters
    ----------
    y : ndarray, shape (n (d + 2),)
        One metric in sample-id order (blocks A, B, AB_1 .. AB_d of ``n`` rows).
    n : int
        Base sample count.
    keys : list of str
        The d parameters.

    Returns
    -------
    dict
        ``n_used`` base rows, ``ranking``: ``{"key", "first", "total"}``
        sorted by the total index, largest first; or ``note`` when no
        index can be computed.
    """
    from scipy.stats import sobol_indices

    d = len(keys)
    blocks = y.reshape(d + 2, n)
    keep = np.all(np.isfinite(blocks), axis=0)
    if keep.sum() < 2 or float(np.var(np.concatenate([blocks[0, keep], blocks[1, keep]]))) == 0.0:
        return {"n_used": int(keep.sum()), "ranking": [], "note": "too few complete base rows or no variance"}
    f_a, f_b = blocks[0, keep][None, :], blocks[1, keep][None, :]
    f_ab = blocks[2:, keep][:, None, :]
    res = sobol_indices(func={"f_A": f_a, "f_B": f_b, "f_AB": f_ab}, n=int(keep.sum()))
    first, total = np.asarray(res.first_order).ravel(), np.asarray(res.total_order).ravel()
    ranking = [{"key": k, "first": float(first[i]), "total": float(total[i])} for i, k in enumerate(keys)]
    ranking.sort(key=lambda e: (-e["total"] if math.isfinite(e["total"]) else 0.0, e["key"]))
    return {"n_used": int(keep.sum()), "ranking": ranking}


def analyse(results_csv: str | Path, sweep: Sweep) -> dict:
    """Summary, SRC ranking (and Sobol' indices) of every metric of a finished sweep.

    Returns
    -------
    dict
        The content of ``summary.json``: ``sweep`` (name, design, runs by
        status), ``parameters`` (each key's distribution) and ``metrics``
        ``{column: {"summary", "src", "sobol"?}}``.
    """
    ids, x, y, status = read_table(results_csv, sweep)
    keys = [p.key for p in sweep.params]
    counts = {s: status.count(s) for s in ("ok", "invalid", "error", "crashed")}
    out: dict = {"sweep": {"name": sweep.name, "design": sweep.design, "seed": sweep.seed, "runs": len(status),
                           **counts},
                 "parameters": {p.key: p.describe() for p in sweep.params}, "metrics": {}}
    for k, col in enumerate(sweep.metric_columns):
        entry = {"summary": summarise(y[:, k]), "src": src(x, y[:, k], keys)}
        if sweep.design == "sobol" and len(ids) == sweep.n_runs:
            order = np.argsort(ids)
            entry["sobol"] = sobol(y[order, k], sweep.samples, keys)
        out["metrics"][col] = entry
    return out
