"""``calibrate``: bag in, fitted parameters, overrides file and report out.

>>> from acres_dbw_sim.calibrate import calibrate
>>> cal = calibrate("field_bag", out_dir="cal_out", replay_params={"surface": "gravel"})
>>> cal.overrides          # 'brakes.front_nm_per_bar=19.8;...' for node, scenario runner, replay
>>> cal.values["steering.center_deg"], cal.se["steering.center_deg"]
"""
from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..model.params import ParameterError, _parse_value, parse_overrides
from ..replay import ReplayError, ReplayInput, load_replay, run_replay
from ..scenario.runner import finite_json
from ..replay.topics import TopicMap
from .fit import fit_groups, overrides_text
from .keys import CalibrationError, catalogue, file_entries, select_vars
from .segments import find_segments

__all__ = ["CalibrationResult", "calibrate", "values_in_force"]


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
        ``key=value;...`` of every identifiable fitted key (empty if none).
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
        entries = file_entries(params.get("vehicle_config") or None)
        values = {k: e["value"] for k, e in entries.items()}
        for key, idx, raw in parse_overrides(params.get("overrides") or None):
            if idx is None and key in values:
                values[key] = _parse_value(raw)
    except ParameterError as err:
        raise CalibrationError(f"parameter 'vehicle_config'/'overrides': {err}") from err
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
        cat = catalogue(values, inp.params["surface"], entries)
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
    before = _whole(inp, "")
    after = _whole(inp, ov) if ov else before
    res = CalibrationResult(inp, segments, groups, ov, vals, se, ident, before, after)
    res.wall_s, res.cpu_s = time.perf_counter() - t0, time.process_time() - c0
    if out_dir is not None:
        from .report import write_report
        res.files = write_report(res, Path(out_dir), plots)
    return res


def _whole(inp: ReplayInput, overrides: str) -> dict:
    """Whole-bag replay errors with ``overrides`` added to the bag's."""
    if not inp.references:
        return {}
    p = dict(inp.params)
    p["overrides"] = ";".join(x for x in (p.get("overrides") or "", overrides) if x)
    try:
        return run_replay(dataclasses.replace(inp, params=p)).comparison
    except ReplayError:
        return {}


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
                "groups": groups, "comparison_before": res.comparison_before,
                "comparison_after": res.comparison_after, "wall_s": res.wall_s, "cpu_s": res.cpu_s})


def write_json(res: CalibrationResult, path: Path) -> None:
    """``calibration.json``."""
    path.write_text(json.dumps(result_json(res), indent=2, allow_nan=False) + "\n", encoding="utf-8")
