"""Sample designs: points in the unit cube, mapped through each parameter's distribution.

Every design first makes ``u`` in [0, 1)^d (one column per varied parameter),
then each column goes through its parameter's inverse distribution function:

* normal(value, sd): ``value + sd * Phi^-1(u)`` (:func:`scipy.special.ndtri`, the function
  :func:`scipy.stats.norm.ppf` evaluates, called directly: the same numbers at 1/100 of the cost);
* uniform[lo, hi]: ``lo + (hi - lo) u``;
* integer lo..hi: ``lo + floor((hi - lo + 1) u)``;
* choice of k values: value number ``floor(k u)``.

Designs (:mod:`scipy.stats.qmc` for the quasi-random ones):

* ``montecarlo``: sample ``i`` draws from its own generator,
  ``numpy.random.default_rng([seed, i])``, so a sample does not depend on how
  many others there are, and an invalid draw is re-drawn from the same
  generator (up to :data:`MAX_REDRAWS` times; the sample is then reported
  invalid). The samples follow the distributions truncated to what the
  loaders accept.
* ``lhs``: :class:`scipy.stats.qmc.LatinHypercube` (seeded); ``sobol``:
  Saltelli's scheme (Saltelli et al. 2010) on a scrambled
  :class:`scipy.stats.qmc.Sobol` sequence of dimension 2d: matrices A (rows
  0..n-1), B (n..2n-1) and, for each parameter i, A with column i taken from
  B (rows (2+i)n..(3+i)n-1); ``grid``: every combination of ``levels``
  points per parameter at ``u = (j + 0.5) / levels`` (the last parameter
  varies fastest). Re-drawing would break these designs' structure, so an
  invalid draw is reported: the sample is kept in the table with status
  ``invalid`` and the loader's reason, and is not run.

A draw is invalid when the parameter loaders refuse it
(:func:`~acres_dbw_sim.sweep.spec.loader_refusal`: the physical limits of
``model/params.py`` and ``dbw/params.py``, e.g. a negative brake gain or a
droop longer than the travel). Nothing is clamped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .spec import ParamSpec, Sweep, format_value, loader_refusal

__all__ = ["Sample", "unit_design", "to_values", "make_samples", "MAX_REDRAWS", "numeric_codes"]

#: Re-draws of one Monte Carlo sample before it is reported invalid.
MAX_REDRAWS = 100


@dataclass(frozen=True)
class Sample:
    """One row of the design.

    Attributes
    ----------
    sample_id : int
        Row number, from 0.
    values : tuple
        One value per varied parameter (the sweep's order), in the key's unit.
    overrides : str
        ``key=value;...`` for the loader (floats in shortest round-trip form).
    invalid : str
        Empty when the loaders accept the draw, else their reason.
    redraws : int
        Draws refused before this one (Monte Carlo only).
    """

    sample_id: int
    values: tuple
    overrides: str
    invalid: str = ""
    redraws: int = 0


def unit_design(sweep: Sweep) -> np.ndarray:
    """The design's points in the unit cube (all designs but Monte Carlo).

    Returns
    -------
    ndarray, shape (n_runs, d)
        Rows in sample-id order.
    """
    from scipy.stats import qmc

    d = len(sweep.params)
    if sweep.design == "lhs":
        return qmc.LatinHypercube(d=d, rng=np.random.default_rng(sweep.seed)).random(sweep.samples)
    if sweep.design == "sobol":
        n = sweep.samples
        ab = qmc.Sobol(d=2 * d, scramble=True, rng=np.random.default_rng(sweep.seed)).random(n)
        a, b = ab[:, :d], ab[:, d:]
        blocks = [a, b]
        for i in range(d):
            abi = a.copy()
            abi[:, i] = b[:, i]
            blocks.append(abi)
        return np.vstack(blocks)
    if sweep.design == "grid":
        levels = (np.arange(sweep.levels) + 0.5) / sweep.levels
        mesh = np.meshgrid(*([levels] * d), indexing="ij")
        return np.stack([m.ravel() for m in mesh], axis=1)
    raise ValueError(f"no unit design for {sweep.design!r}")


def to_values(params: tuple, u: np.ndarray) -> list:
    """Map one unit-cube point to parameter values.

    Parameters
    ----------
    params : tuple of ParamSpec
    u : ndarray, shape (d,)

    Returns
    -------
    list
        Python values (float, int, bool, str or None), one per parameter.
    """
    from scipy.special import ndtri

    out = []
    for p, x in zip(params, u.tolist()):
        if p.dist == "normal":   # norm.ppf(x, loc, scale) is ndtri(x) * scale + loc
            out.append(float(ndtri(x) * p.sd + float(p.nominal)))
        elif p.dist == "uniform":
            out.append(float(p.lo + (p.hi - p.lo) * x))
        elif p.dist == "integer":
            out.append(int(min(p.hi, p.lo + math.floor((p.hi - p.lo + 1.0) * x))))
        else:
            out.append(p.choices[min(len(p.choices) - 1, math.floor(len(p.choices) * x))])
    return out


def _overrides(params: tuple, values: list) -> str:
    return ";".join(f"{p.key}={format_value(v)}" for p, v in zip(params, values))


def _refusal(sweep: Sweep, overrides: str) -> str:
    for vehicle, pf, ov, occ, cargo in sweep.base_checks:
        exc = loader_refusal(vehicle, pf, ";".join(x for x in (ov, overrides) if x), occ, cargo)
        if exc is not None:
            return f"{exc.key}: {exc.reason}"
    return ""


def make_samples(sweep: Sweep) -> list:
    """Every sample of the sweep, with each draw checked by the loaders.

    Returns
    -------
    list of Sample
        In sample-id order; a function of the sweep file alone (seeded).
    """
    params = sweep.params
    out = []
    if sweep.design == "montecarlo":
        for i in range(sweep.samples):
            rng = np.random.default_rng([sweep.seed, i])
            reason = ""
            for tries in range(MAX_REDRAWS + 1):
                values = to_values(params, rng.random(len(params)))
                ov = _overrides(params, values)
                reason = _refusal(sweep, ov)
                if not reason:
                    break
            out.append(Sample(i, tuple(values), ov, reason, tries))
        return out
    for i, u in enumerate(unit_design(sweep)):
        values = to_values(params, u)
        ov = _overrides(params, values)
        out.append(Sample(i, tuple(values), ov, _refusal(sweep, ov)))
    return out


def numeric_codes(p: ParamSpec, cells: list) -> np.ndarray:
    """Numbers for regression from a parameter's CSV cells (a choice: its index in the list).

    Parameters
    ----------
    p : ParamSpec
    cells : list of str
        The cells as written by :func:`~acres_dbw_sim.sweep.spec.format_value`.

    Returns
    -------
    ndarray, shape (len(cells),)
    """
    if p.dist == "choice":
        index = {format_value(c): j for j, c in enumerate(p.choices)}
        return np.array([float(index.get(c, np.nan)) for c in cells])
    return np.array([float(c) for c in cells])
