"""Plots of a finished sweep (matplotlib, Agg backend): histograms and tornado charts.

* ``histograms.png``: one panel per metric, the distribution of its values
  with the 5, 50 and 95 % quantiles marked.
* ``tornado.png``: one panel per metric, the parameters with the largest
  standardised regression coefficients (top ``top``), each as a bar from
  ``mean - |SRC| sd(y)`` to ``mean + |SRC| sd(y)``: the change of the metric
  (from the linear fit) when that parameter moves by one standard deviation
  of its samples either way, widest on top. Dark bars: the metric grows with
  the parameter; light bars: it falls.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

__all__ = ["plot_histograms", "plot_tornado"]


def _grid(n: int):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 3.6 * rows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return plt, fig, axes.ravel()


def plot_histograms(y: np.ndarray, columns: list, summary: dict, path: str | Path, title: str = "") -> Path:
    """Write the histograms of the metrics.

    Parameters
    ----------
    y : ndarray, shape (n, m)
        Metric values (NaN where missing).
    columns : list of str
        The m metric names (their unit is in the name).
    summary : dict
        ``summary.json``'s ``metrics`` (for the quantiles).
    path : str or Path
    title : str

    Returns
    -------
    Path
    """
    plt, fig, axes = _grid(len(columns))
    for k, (ax, col) in enumerate(zip(axes, columns)):
        v = y[:, k][np.isfinite(y[:, k])]
        s = summary[col]["summary"]
        if v.size:
            ax.hist(v, bins=min(40, max(8, int(math.sqrt(v.size)) * 2)), color="0.6", edgecolor="0.3")
            for q, style in (("q05", ":"), ("q50", "-"), ("q95", ":")):
                ax.axvline(s[q], color="C3", ls=style, lw=1.2)
            ax.set_title(f"{col}: mean {s['mean']:.4g}, sd {s['sd']:.3g}\n5/50/95 %: "
                         f"{s['q05']:.4g} / {s['q50']:.4g} / {s['q95']:.4g}  (n = {s['n']})", fontsize=9)
        else:
            ax.set_title(f"{col}: no values", fontsize=9)
        ax.set_xlabel(col)
        ax.set_ylabel("samples")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return Path(path)


def plot_tornado(columns: list, summary: dict, path: str | Path, top: int = 10, title: str = "") -> Path:
    """Write the tornado charts (SRC ranking) of the metrics.

    Parameters
    ----------
    columns : list of str
    summary : dict
        ``summary.json``'s ``metrics`` (mean, sd and the SRC ranking).
    path : str or Path
    top : int
        Parameters shown per metric.
    title : str

    Returns
    -------
    Path
    """
    plt, fig, axes = _grid(len(columns))
    for ax, col in zip(axes, columns):
        s, r = summary[col]["summary"], summary[col]["src"]
        ranking = r["ranking"][:top]
        if not ranking or s["mean"] is None:
            ax.set_title(f"{col}: no sensitivity ({r.get('note', 'no data')})", fontsize=9)
            continue
        mean, sd = s["mean"], s["sd"]
        names = [e["key"] for e in ranking][::-1]
        half = [abs(e["src"]) * sd for e in ranking][::-1]
        colours = ["C0" if e["src"] > 0 else "#9ecae1" for e in ranking][::-1]
        ax.barh(names, [2 * h for h in half], left=[mean - h for h in half], color=colours, edgecolor="0.3")
        ax.axvline(mean, color="0.2", lw=1)
        ax.set_xlabel(f"{col} (mean {mean:.4g}; bar: +/- 1 sd of the parameter)")
        ax.set_title(f"{col}: SRC ranking, R^2 = {r['r2']:.3f}", fontsize=9)
        ax.tick_params(axis="y", labelsize=8)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return Path(path)
