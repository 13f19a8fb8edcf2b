"""``calibrate``: bag in, fitted parameters, overrides file and report out.

>>> from acres_dbw_sim.calibrate import calibrate
>>> cal = calibrate("field_bag", out_dir="cal_out", replay_params={"surface": "gravel"})
>>> cal.overrides          # 'brakes.front_nm_per_bar=19.8;...' for node, scenario runner, replay
>>> cal.values["steering.center_deg"], cal.se["steering.center_deg"]
"""
from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..model.params import ParameterError
from ..model.overrides import option_message, parse_value, parse_overrides
from ..replay import ReplayError, ReplayInput, load_replay, run_replay
from ..scenario.runner import finite_json
from ..replay.topics import TopicMap
from .fit import RESOLUTION, fit_groups, overrides_text
from .keys import CalibrationError, catalogue, file_entries, select_vars
from .segments import Segment, find_segments, residual

__all__ = ["CalibrationResult", "calibrate", "values_in_force", "whole_bag_error", "IMPROVEMENT_TOL"]

#: The overrides are written only when the whole-bag error (:func:`whole_bag_error`) falls by more
#: than this fraction of its value with them.
IMPROVEMENT_TOL = 0.02


@dataclass
class CalibrationResult:
    """What :func:`calibrate` found.

    Attributes
    ----------
    input : ReplayInput
        The bag as read.
    segments : list of Segment
    groups : list of GroupResult
    overrides : str
        ``key=value;...`` of every identified fitted key when the fit improves the whole bag
        (:attr:`accepted`); empty otherwise.
    candidate_overrides : str
        The same whether or not it improves the whole bag (empty if nothing was identified).
    whole_before, whole_after : dict
        ``{channel: RMS}`` of the whole bag replayed open loop with the start values and with
        the candidate overrides, on the fit's own residual (:func:`.segments.residual`) [unit of
        the channel]: the fitted groups' signals and always the speed.
    error_before, error_after : float
        The whole-bag error (:func:`whole_bag_error`) [-].
    accepted : bool
        The whole-bag error fell by more than :data:`IMPROVEMENT_TOL` of its value.
    worse : list of str
        Channels whose whole-bag RMS grew.
    values : dict
        ``{variable name: value}`` after the fit (start value where not identifiable).
    se : dict
        ``{variable name: standard error}`` of the continuous fitted variables.
    identifiable : dict
        ``{variable name: bool}``.
    comparison_before, comparison_after : dict
        Whole-bag replay errors (:func:`acres_dbw_sim.replay.compare.compare`) with the start
        values and with the overrides.
    wall_s : float
        Wall time of the calibration (fit and both whole-bag replays) [s].
    cpu_s : float
        CPU time of the same [s].
    files : list of Path
    """

    input: ReplayInput
    segments: list
    groups: list
    overrides: str
    values: dict
    se: dict
    identifiable: dict
    comparison_before: dict = field(default_factory=dict)
    comparison_after: dict = field(default_factory=dict)
    candidate_overrides: str = ""
    whole_before: dict = field(default_factory=dict)
    whole_after: dict = field(default_factory=dict)
    error_before: float = math.nan
    error_after: float = math.nan
    accepted: bool = False
    worse: list = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0
    files: list = field(default_factory=list)

    def variable(self, name: str):
        """The :class:`~.fit.VarResult` of ``name``."""
        for g in self.groups:
            for vr in g.variables:
                if vr.var.name == name:
                    return vr
        raise KeyError(name)


def values_in_force(params: dict) -> tuple:
    """``({key: value}, file entries)`` of the parameter file with the replay's ``overrides`` applied.

    Raises
    ------
    CalibrationError
        For an unreadable file or a bad override (naming the key).
    """
    try:
        entries = file_entries(params.get("vehicle_config") or None, params.get("vehicle") or None)
        values = {k: e["value"] for k, e in entries.items()}
        for key, idx, raw in parse_overrides(params.get("overrides") or None):
            if idx is None and key in values:
                values[key] = parse_value(raw)
    except ParameterError as err:
        raise CalibrationError(option_message(err, params.get("vehicle_config"), params.get("overrides"))) from err
    return values, entries


def calibrate(bag, params: str | None = None, out_dir=None, replay_params: dict | None = None,
              topic_map: TopicMap | None = None, plots: bool = True, inp: ReplayInput | None = None,
              log=None) -> CalibrationResult:
    """Fit the vehicle's parameters to the recorded reports of ``bag``.

    Parameters
    ----------
    bag : str or Path
        rosbag2 directory or file (as :func:`acres_dbw_sim.replay.load_replay` reads).
    params : str, optional
        Comma-separated variables or groups to fit (:func:`.keys.select_vars`); default all.
    out_dir : str or Path, optional
        Where to write ``calibration.json``, ``overrides.txt``, ``report.md`` and the plots
        (:mod:`.report`); nothing written if None.
    replay_params : dict, optional
        Node parameters of the replay (``surface``, ``occupants``, ``cargo_kg``, ``vehicle_config``,
        ``overrides``: the start values ...), as ``acres-replay --param``.
    topic_map : TopicMap, optional
    plots : bool
    inp : ReplayInput, optional
        An already loaded bag (then ``bag`` only names it).
    log : callable, optional
        ``log(str)`` for progress lines.

    Returns
    -------
    CalibrationResult

    Raises
    ------
    CalibrationError
        Unknown ``--params`` name, bad parameter file or overrides.
    acres_dbw_sim.replay.ReplayError, acres_dbw_sim.replay.BagReadError
        When the bag cannot be replayed at all.
    """
    t0, c0 = time.perf_counter(), time.process_time()
    if inp is None:
        inp = load_replay(bag, topic_map, replay_params)
    values, entries = values_in_force(inp.params)
    try:
        cat = catalogue(values, inp.params["surface"], entries, inp.params.get("vehicle") or None)
    except KeyError as err:
        raise CalibrationError(f"parameter 'surface' = {inp.params['surface']!r}: no such surface "
                               f"({err.args[0]} missing from the parameter file)") from None
    chosen = select_vars(cat, params)
    segments = find_segments(inp)
    groups = fit_groups(inp, segments, chosen, inp.dt_s, log)
    fitted: dict = {}
    vals, se, ident = {}, {}, {}
    for g in groups:
        for vr in g.variables:
            vals[vr.var.name] = vr.value
            ident[vr.var.name] = vr.identifiable
            if vr.se is not None:
                se[vr.var.name] = vr.se
            if vr.identifiable:
                fitted.update(vr.var.overrides(vr.value))
    ov = overrides_text(fitted)
    channels = sorted({g.signal for g in groups if any(vr.identifiable for vr in g.variables)} | {"speed_mps"})
    before, whole_before = _whole(inp, "", channels)
    after, whole_after = _whole(inp, ov, channels) if ov else (before, whole_before)
    e0, e1 = whole_bag_error(whole_before), whole_bag_error(whole_after)
    accepted = bool(ov) and math.isfinite(e1) and e1 < (1.0 - IMPROVEMENT_TOL) * e0
    res = CalibrationResult(inp, segments, groups, ov if accepted else "", vals, se, ident, before, after,
                            candidate_overrides=ov, whole_before=whole_before, whole_after=whole_after,
                            error_before=e0, error_after=e1, accepted=accepted,
                            worse=[c for c in whole_before if whole_after.get(c, math.inf) > whole_before[c]])
    res.wall_s, res.cpu_s = time.perf_counter() - t0, time.process_time() - c0
    if out_dir is not None:
        from .report import write_report
        res.files = write_report(res, Path(out_dir), plots)
    return res


def whole_bag_error(rms: dict) -> float:
    """The whole-bag error: ``sqrt(mean_c (RMS_c / resolution_c)^2)`` over the channels of ``rms``.

    Each channel's RMS (``{channel: RMS}``, the fit's own residual over the whole bag) is
    taken in units of its resolution (:data:`.fit.RESOLUTION`: 0.005 m/s, 0.001 rad/s), so
    that speed and yaw rate weigh alike; NaN without channels.
    """
    terms = [(x / RESOLUTION[c]) ** 2 for c, x in rms.items() if math.isfinite(x)]
    return math.sqrt(sum(terms) / len(terms)) if terms else math.nan


def _whole(inp: ReplayInput, overrides: str, channels: list) -> tuple:
    """Whole bag replayed with ``overrides`` added to the bag's: (comparison, {channel: RMS of the residual})."""
    if not inp.references:
        return {}, {}
    p = dict(inp.params)
    p["overrides"] = ";".join(x for x in (p.get("overrides") or "", overrides) if x)
    try:
        run = run_replay(dataclasses.replace(inp, params=p))
    except ReplayError:
        return {}, {}
    whole = Segment("whole", 0, 0, inp.n_steps, 0.0, inp.n_steps * inp.dt_s, 0.0, "", 0.0)
    rms = {}
    for c in channels:
        if c in inp.references:
            r = residual(run, whole, c)[1]
            if len(r):
                rms[c] = float(np.sqrt(np.mean(r * r)))
    return run.comparison, rms


def result_json(res: CalibrationResult) -> dict:
    """JSON-safe content of ``calibration.json``."""
    groups = []
    for g in res.groups:
        groups.append({
            "group": g.group, "signal": g.signal, "evaluations": g.evaluations, "wall_s": g.wall_s,
            "segments": [{"kind": s.kind, "t_start_s": s.t_start_s, "t_end_s": s.t_end_s, "rms_before": b,
                          "rms_after": a} for s, b, a in zip(g.segments, g.rms_before or [None] * len(g.segments),
                                                              g.rms_after or [None] * len(g.segments))],
            "variables": [{"name": vr.var.name, "keys": list(vr.var.keys), "start": vr.var.start, "value": vr.value,
                           "se": vr.se, "lower": vr.var.lower, "upper": vr.var.upper,
                           "bound_source": vr.var.bound_source, "identifiable": vr.identifiable,
                           "at_bound": vr.at_bound, "note": vr.note} for vr in g.variables],
            "correlation": {"variables": g.fitted, "matrix": [[float(x) for x in row] for row in g.correlation]},
        })
    return finite_json({"bag": str(res.input.bag), "parameters": res.input.params, "overrides": res.overrides,
                "accepted": res.accepted, "candidate_overrides": res.candidate_overrides,
                "whole_bag": {"channels": sorted(res.whole_before), "rms_before": res.whole_before,
                              "rms_after": res.whole_after, "error_before": res.error_before,
                              "error_after": res.error_after, "improvement_tolerance": IMPROVEMENT_TOL,
                              "worse": res.worse},
                "groups": groups, "comparison_before": res.comparison_before,
                "comparison_after": res.comparison_after, "wall_s": res.wall_s, "cpu_s": res.cpu_s})


def write_json(res: CalibrationResult, path: Path) -> None:
    """``calibration.json``."""
    path.write_text(json.dumps(result_json(res), indent=2, allow_nan=False) + "\n", encoding="utf-8")
