"""The fit: groups in order, least squares for the continuous variables, a step grid for the dead times.

For each group (:data:`.keys.GROUPS`, in that order) the residual is the
group's signal (:data:`.keys.GROUP_SIGNAL`), simulated - recorded, at every
recorded sample of every segment of the group's kinds, each segment replayed
open loop (:func:`.segments.replay_segment`) with the values fitted so far
(earlier groups) and the candidate values of this group.

1. **Identifiability check.** A variable is *not identifiable* when the bag
   has no segment of its group's kinds, or when moving it by 10 % of its
   bound width changes the residual by less than the signal's resolution
   (:data:`RESOLUTION`) in RMS. It keeps its start value and is reported so.
2. **Continuous variables** (``scipy.optimize.least_squares``, trust-region
   reflective, bounds from :mod:`.keys`): each variable is mapped to
   ``u = (x - lower) / (upper - lower)`` in [0, 1]; the Jacobian is by
   forward differences with a step of 0.1 % of the bound width (the
   simulated side of the residual is the model's unquantised state, so the sum
   of squares is smooth in the parameters, :func:`.segments.residual`).
3. **Dead times** are whole physics steps in the model. Each is searched on
   its grid ``round(T / dt)`` from the start value, one step at a time
   downhill on the sum of squares (with the continuous variables at their
   fitted values); if a dead time moved, the continuous variables are fitted
   again.
4. **Standard errors** from the Jacobian at the solution:
   ``cov = s^2 (J^T J)^-1`` with ``s^2 = SSR / (m - p)`` (m samples,
   p continuous variables), the correlation ``cov_ij / (se_i se_j)``. A dead
   time's uncertainty is its grid: it is reported *resolved* when both
   neighbouring steps raise the sum of squares by more than ``s^2``.
   A variable is moved back to its start value and reported not identifiable,
   and the rest is fitted again, when the bag does not determine it:
   its covariance is degenerate (standard error zero or not finite, a
   correlation not finite); its standard error exceeds a quarter of its bound
   width; the fit ends within 0.1 % of the bound width of a bound (the optimum
   may lie beyond); of two variables correlated beyond +-0.99, the one with
   the larger standard error relative to its bound width (e.g. the drag area
   against the rolling resistance in a bag without fast coast-downs); a dead
   time whose search ends on the edge of its grid, or whose neighbouring
   steps fit as well.
5. **Bounds hold.** Continuous values are clipped to their bounds; a dead time
   searches only the whole steps inside them (:func:`delay_grid`), so every
   reported value lies within the reported bounds.
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import least_squares

from .keys import GROUP_SEGMENTS, GROUP_SIGNAL, GROUPS, FitVar, fmt_value
from .segments import replay_segment, residual

__all__ = ["VarResult", "GroupResult", "fit_groups", "overrides_text", "delay_grid", "RESOLUTION"]

#: Resolution of each residual signal (the identifiability threshold): a little above the report
#: quantum (vehicle_velocity 0.01 km/h) and a small yaw rate.
RESOLUTION = {"speed_mps": 0.005, "yaw_rate_rad_s": 0.001}
_DIFF_STEP = 1e-3
_PROBE = 0.1
_SE_LIMIT = 0.25
_CORR_LIMIT = 0.99
_AT_BOUND = 1e-3


@dataclass
class VarResult:
    """Outcome for one variable.

    Attributes
    ----------
    var : FitVar
    value : float
        Fitted value, or the start value when not identifiable [key unit].
    se : float or None
        Standard error [key unit] (None: not fitted, or a dead time).
    identifiable : bool
    note : str
        Why not identifiable, ``at lower bound``/``at upper bound``, dead-time resolution.
    at_bound : str or None
        ``'lower'`` or ``'upper'``.
    """

    var: FitVar
    value: float
    se: float | None = None
    identifiable: bool = False
    note: str = ""
    at_bound: str | None = None


@dataclass
class GroupResult:
    """Outcome for one group.

    Attributes
    ----------
    group : str
    signal : str
    segments : list of Segment
    variables : list of VarResult
    correlation : ndarray, shape (p, p)
        Between the continuous fitted variables (``fitted`` order).
    fitted : list of str
        Names of the continuous variables the correlation refers to.
    rms_before, rms_after : list of float
        Per segment, residual RMS with the start and the fitted values [signal unit].
    evaluations : int
        Segment-set replays spent.
    wall_s : float
    """

    group: str
    signal: str
    segments: list
    variables: list = field(default_factory=list)
    correlation: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    fitted: list = field(default_factory=list)
    rms_before: list = field(default_factory=list)
    rms_after: list = field(default_factory=list)
    evaluations: int = 0
    wall_s: float = 0.0


def overrides_text(values: dict) -> str:
    """``key=value;...`` from ``{key: value}`` (sorted keys)."""
    return ";".join(f"{k}={fmt_value(v)}" for k, v in sorted(values.items()))


class _Problem:
    """Residual of one group as a function of its variables' values."""

    def __init__(self, inp, segs: list, signal: str, fixed: dict, dt_s: float) -> None:
        self.inp, self.segs, self.signal, self.fixed, self.dt_s = inp, segs, signal, fixed, dt_s
        self.evaluations = 0
        # segments replayed from the same anchor share one replay, to the latest end among them
        runs: dict = {}
        for i, seg in enumerate(segs):
            runs.setdefault(seg.k_warm, []).append(i)
        self.runs = [(dataclasses.replace(segs[ix[0]], k_end=max(segs[i].k_end for i in ix)), ix)
                     for ix in runs.values()]

    def overrides(self, assign: dict) -> dict:
        ov = dict(self.fixed)
        for var, x in assign.items():
            ov.update(var.overrides(x))
        return ov

    def per_segment(self, assign: dict) -> list:
        ov = overrides_text(self.overrides(assign))
        self.evaluations += 1
        out: list = [None] * len(self.segs)
        for run, ix in self.runs:
            res = replay_segment(self.inp, run, ov, (self.signal,))
            for i in ix:
                out[i] = residual(res, self.segs[i], self.signal)[1]
        return out

    def __call__(self, assign: dict) -> np.ndarray:
        return np.concatenate(self.per_segment(assign)) if self.segs else np.zeros(0)


def _rms(r: np.ndarray) -> float:
    return float(np.sqrt(np.mean(r * r))) if len(r) else math.nan


def _lsq(prob: _Problem, cont: list, assign: dict) -> tuple:
    """Fit ``cont`` (others at ``assign``); returns (assign, jacobian in x units, residual)."""
    lo = np.array([v.lower for v in cont])
    w = np.array([v.upper - v.lower for v in cont])
    u0 = np.clip((np.array([assign[v] for v in cont]) - lo) / w, 0.0, 1.0)

    def f(u: np.ndarray) -> np.ndarray:
        a = dict(assign)
        a.update({v: float(lo[i] + w[i] * u[i]) for i, v in enumerate(cont)})
        return prob(a)

    sol = least_squares(f, u0, bounds=(0.0, 1.0), method="trf", diff_step=_DIFF_STEP, x_scale=1.0,
                        xtol=1e-5, ftol=1e-6, max_nfev=25)
    out = dict(assign)
    out.update({v: min(v.upper, max(v.lower, float(lo[i] + w[i] * sol.x[i]))) for i, v in enumerate(cont)})
    return out, sol.jac / w[None, :], sol.fun, sol.x


def delay_grid(var: FitVar, dt_s: float) -> tuple:
    """``(k_lo, k_hi, k_start)``: the whole steps a dead time may take inside its bounds.

    ``k_lo = ceil(lower / dt)``, ``k_hi = floor(upper / dt)`` (so that every value
    ``k dt`` of the search lies within ``lower..upper``), and the start value's own step
    ``round(start / dt)`` (the model's, dbw/actuators.py), which may lie outside when the
    start value is off the grid near a bound.

    Raises
    ------
    ValueError
        If no whole step lies within the bounds.
    """
    k_lo = math.ceil(var.lower / dt_s - 1e-9)
    k_hi = math.floor(var.upper / dt_s + 1e-9)
    if k_hi < k_lo:
        raise ValueError(f"{var.name}: no whole step of {dt_s:g} s within {var.lower:g}..{var.upper:g}")
    return k_lo, k_hi, int(round(var.start / dt_s))


def _delay_search(prob: _Problem, var: FitVar, assign: dict, dt_s: float) -> tuple:
    """Downhill on the step grid of a dead time; returns (assign, {step: ssr}).

    The search starts at the start value's step (clamped into the grid) and moves only
    within :func:`delay_grid`'s steps; a result on the start value's step returns the start value.
    """
    k_lo, k_hi, k0 = delay_grid(var, dt_s)
    k = min(k_hi, max(k_lo, int(round(assign[var] / dt_s))))
    ssr: dict = {}

    def cost(kk: int) -> float:
        if kk not in ssr:
            a = dict(assign)
            a[var] = kk * dt_s
            r = prob(a)
            ssr[kk] = float(r @ r)
        return ssr[kk]

    best = cost(k)
    for direction in (-1, 1):
        while k_lo <= k + direction <= k_hi and cost(k + direction) < best:
            k += direction
            best = ssr[k]
    for kk in (k - 1, k + 1):          # both neighbours, for the resolution check
        if k_lo <= kk <= k_hi:
            cost(kk)
    out = dict(assign)
    out[var] = var.start if k0 == k else k * dt_s
    return out, ssr


def fit_groups(inp, segments: list, variables: list, dt_s: float, log=None) -> list:
    """Fit every group of ``variables`` in :data:`GROUPS` order.

    Parameters
    ----------
    inp : acres_dbw_sim.replay.ReplayInput
        The whole bag.
    segments : list of Segment
    variables : list of FitVar
        The variables to fit (the others stay at the file's values).
    dt_s : float
        Physics step [s] (the dead-time grid).
    log : callable, optional
        ``log(str)`` for progress lines.

    Returns
    -------
    list of GroupResult
    """
    log = log or (lambda s: None)
    fixed: dict = {}   # the overrides of the groups fitted so far
    results = []
    for group in GROUPS:
        gvars = [v for v in variables if v.group == group]
        if gvars:
            results.append(_fit_group(inp, group, gvars, segments, fixed, dt_s, log))
    return results


def _fit_group(inp, group: str, gvars: list, segments: list, fixed: dict, dt_s: float, log) -> GroupResult:
    """One group: identifiability probe, fit until every remaining variable is determined, the result;
    its values are added to ``fixed`` for the groups after it."""
    t0 = time.perf_counter()
    signal = GROUP_SIGNAL[group]
    segs = [s for s in segments if s.kind in GROUP_SEGMENTS[group]]
    gr = GroupResult(group, signal, segs)
    start = {v: v.start for v in gvars}
    vres = {v: VarResult(v, v.start) for v in gvars}
    gr.variables = [vres[v] for v in gvars]
    if not segs:
        for v in gvars:
            vres[v].note = f"not identifiable: no {'/'.join(GROUP_SEGMENTS[group])} segment in the bag"
        return gr
    prob = _Problem(inp, segs, signal, fixed, dt_s)
    base_segs = prob.per_segment(start)
    gr.rms_before = [_rms(r) for r in base_segs]
    active = _identifiable(prob, gvars, start, np.concatenate(base_segs), signal, dt_s, vres)
    fit = _fit_determined(prob, active, start, dt_s, vres)
    _record_fit(fit, vres, dt_s)
    gr.fitted = [v.name for v in fit.cont]
    gr.correlation = fit.corr
    gr.rms_after = [_rms(x) for x in prob.per_segment(fit.assign)]
    for v in gvars:
        fixed.update(v.overrides(vres[v].value))
    gr.evaluations = prob.evaluations
    gr.wall_s = time.perf_counter() - t0
    log(f"{group}: {len(segs)} segments, {prob.evaluations} evaluations, {gr.wall_s:.1f} s; "
        + ", ".join(f"{vr.var.name}={vr.value:.5g}" + (f"±{vr.se:.2g}" if vr.se is not None else "")
                    + ("" if vr.identifiable else " (not identifiable)") for vr in gr.variables))
    return gr


def _identifiable(prob: _Problem, gvars: list, start: dict, base: np.ndarray, signal: str, dt_s: float,
                  vres: dict) -> list:
    """Step 1: the variables whose move by :data:`_PROBE` of their bound width (a dead time: whole steps)
    changes the residual by at least the signal's :data:`RESOLUTION` in RMS; the others get their note."""
    res_lim = RESOLUTION[signal]
    active = []
    for v in gvars:
        a = dict(start)
        if v.delay:
            k_lo, k_hi, k0 = delay_grid(v, dt_s)
            step = max(1, int(round(_PROBE * (v.upper - v.lower) / dt_s)))
            a[v] = min(k_hi, max(k_lo, k0 + step if k0 + step <= k_hi else k0 - step)) * dt_s
        else:
            d = _PROBE * (v.upper - v.lower)
            a[v] = v.start + d if v.start + d <= v.upper else v.start - d
        change = _rms(prob(a) - base)
        if change < res_lim:
            vres[v].note = (f"not identifiable: a change of {_PROBE:.0%} of its range moves the {signal} "
                            f"residual by {change:.2g} RMS (< resolution {res_lim:g})")
        else:
            active.append(v)
    return active


@dataclass
class _Fit:
    """One fit of a group's active variables (steps 2-4).

    Attributes
    ----------
    assign : dict
        ``{FitVar: value}`` [key unit], every variable of the group.
    cont, delays : list of FitVar
        The continuous variables fitted by least squares, the dead times searched on their grid.
    se : ndarray, shape (p,)
        Standard errors of ``cont`` [key unit] (inf where not computed).
    corr : ndarray, shape (p, p)
        Their correlation.
    s2 : float
        Residual variance ``SSR / (m - p)`` [signal unit^2].
    ssr_grid : dict
        ``{dead time: {step: sum of squares}}`` from the grid searches.
    """

    assign: dict
    cont: list
    delays: list
    se: np.ndarray
    corr: np.ndarray
    s2: float
    ssr_grid: dict


def _fit_determined(prob: _Problem, active: list, start: dict, dt_s: float, vres: dict) -> _Fit:
    """Fit ``active`` (removed from it as they go), then move back to its start value and report each variable
    the bag does not determine (:func:`_undetermined`, :func:`_unresolved_delays`, :func:`_correlated`, in
    that order) and fit the rest again, until none is left undetermined."""
    assign = dict(start)
    while True:
        fit = _fit_once(prob, active, assign, dt_s)
        assign = fit.assign
        rejected = _undetermined(fit) or _unresolved_delays(fit, dt_s) or _correlated(fit)
        if not rejected:
            return fit
        for v, (why, at_bound) in rejected.items():
            vres[v].note, vres[v].at_bound = why, at_bound
            active.remove(v)
            assign[v] = v.start


def _fit_once(prob: _Problem, active: list, assign: dict, dt_s: float) -> _Fit:
    """Steps 2-4 once: least squares for the continuous variables, the dead times' grid search (and least
    squares again if a dead time moved), the standard errors and correlation at the solution."""
    cont = [v for v in active if not v.delay]
    delays = [v for v in active if v.delay]
    jac = np.zeros((0, 0))
    r = prob(assign)
    if cont:
        assign, jac, r, _u = _lsq(prob, cont, assign)
    ssr_grid = {}
    if delays:
        moved = False
        for v in delays:
            before = assign[v]
            assign, ssr_grid[v] = _delay_search(prob, v, assign, dt_s)
            moved |= assign[v] != before
        if cont and moved:
            assign, jac, r, _u = _lsq(prob, cont, assign)
        elif not cont:
            r = prob(assign)
    m, p = len(r), len(cont)
    s2 = float(r @ r) / max(1, m - p)
    se = np.full(p, math.inf)
    corr = np.eye(p)
    if p:
        try:
            cov = s2 * np.linalg.pinv(jac.T @ jac)
            se = np.sqrt(np.maximum(np.diag(cov), 0.0))
            with np.errstate(invalid="ignore", divide="ignore"):
                corr = cov / np.outer(se, se)
        except np.linalg.LinAlgError:
            pass
    return _Fit(assign, cont, delays, se, corr, s2, ssr_grid)


def _undetermined(fit: _Fit) -> dict:
    """``{variable: (note, at_bound)}`` of the continuous variables with a degenerate covariance, a standard
    error over :data:`_SE_LIMIT` of the bound width, or a value on a bound."""
    assign, se, corr = fit.assign, fit.se, fit.corr
    bad = {}
    for i, v in enumerate(fit.cont):
        tol = _AT_BOUND * (v.upper - v.lower)
        if not (math.isfinite(se[i]) and se[i] > 0.0) or not np.isfinite(corr[i]).all():
            why = (f"not identifiable: degenerate covariance (standard error {se[i]:.3g}"
                   + ("" if np.isfinite(corr[i]).all() else ", correlations not finite")
                   + "); left at its start value")
        elif not se[i] <= _SE_LIMIT * (v.upper - v.lower):
            why = (f"not identifiable: standard error {se[i]:.3g} exceeds a quarter of its "
                   f"range {v.lower:g}..{v.upper:g}; left at its start value")
        elif assign[v] <= v.lower + tol or assign[v] >= v.upper - tol:
            side, bound = ("lower", v.lower) if assign[v] <= v.lower + tol else ("upper", v.upper)
            why = (f"not identifiable: the fit ends on its {side} bound {bound:g} (the optimum may "
                   "lie beyond: the range, or the model, needs a look); left at its start value")
        else:
            continue
        bad[v] = (why, "lower" if assign[v] <= v.lower + tol else "upper" if assign[v] >= v.upper - tol else None)
    return bad


def _unresolved_delays(fit: _Fit, dt_s: float) -> dict:
    """``{dead time: (note, at_bound)}`` of the dead times whose search ends on the edge of their grid, or
    whose neighbouring steps raise the sum of squares by no more than the residual variance."""
    loose = {}
    for v in fit.delays:
        k_lo, k_hi, k0 = delay_grid(v, dt_s)
        k = min(k_hi, max(k_lo, int(round(fit.assign[v] / dt_s))))
        grid = fit.ssr_grid[v]
        rise = [grid[kk] - grid[k] for kk in (k - 1, k + 1) if kk in grid]
        if k != k0 and k in (k_lo, k_hi):
            side = "lower" if k == k_lo else "upper"
            loose[v] = (f"not identifiable: the grid search ends on its {side} bound ({k} steps, "
                        f"{k * dt_s:.4g} s; the optimum may lie beyond); left at its start value", side)
        elif not (rise and min(rise) > fit.s2):
            loose[v] = (f"not identifiable: {k} and a neighbouring step of {dt_s * 1e3:.2f} ms fit as well "
                        "(sum-of-squares rise below the residual variance); left at its start value", None)
    return loose


def _correlated(fit: _Fit) -> dict:
    """``{variable: (note, None)}``: of the most correlated pair, beyond :data:`_CORR_LIMIT`, the one with
    the larger standard error relative to its bound width (the bag cannot tell them apart); else empty."""
    cont, se, corr = fit.cont, fit.se, fit.corr
    p = len(cont)
    rel = [se[i] / (v.upper - v.lower) for i, v in enumerate(cont)]
    pair = max(((abs(corr[i, j]), i, j) for i in range(p) for j in range(i + 1, p)), default=(0.0, 0, 0))
    if not pair[0] > _CORR_LIMIT:
        return {}
    _c, i, j = pair
    drop, keep = (cont[i], cont[j]) if rel[i] >= rel[j] else (cont[j], cont[i])
    return {drop: (f"not identifiable: correlation {corr[i, j]:+.3f} with {keep.name} (the bag "
                   "cannot separate them); left at its start value", None)}


def _record_fit(fit: _Fit, vres: dict, dt_s: float) -> None:
    """Step 5: the identified variables' results (a dead time's value on its grid, with its resolution)."""
    for i, v in enumerate(fit.cont):
        vr = vres[v]
        vr.value, vr.se, vr.identifiable, vr.at_bound = fit.assign[v], float(fit.se[i]), True, None
    for v in fit.delays:
        vr = vres[v]
        k_lo, k_hi, k0 = delay_grid(v, dt_s)
        k = min(k_hi, max(k_lo, int(round(fit.assign[v] / dt_s))))
        vr.value, vr.identifiable = (v.start if k0 == k else k * dt_s), True
        vr.note = (f"{k} steps of {dt_s * 1e3:.2f} ms (grid search over {k_lo}..{k_hi} steps, "
                   f"{k_lo * dt_s:.4g}..{k_hi * dt_s:.4g} s); resolved to one step")
