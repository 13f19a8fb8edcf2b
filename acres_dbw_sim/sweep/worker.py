"""One run of a sweep: a sample's overrides through every scenario of the sweep.

:func:`run_sample` is what both engines execute (a local worker process or
a Ray task), so a sample gives the same row wherever it runs. Each process
parses a scenario file once (:func:`_document`) and validates a copy per
sample with the sample's overrides appended after the scenario's own, so the
run is exactly ``acres-scenario FILE --set '<sample overrides>'``.
"""
from __future__ import annotations

import copy
import math
import time

from ..model.params import file_stamp
from ..scenario.runner import run_scenario
from ..scenario.schema import validate
from ..scenario.source import Document, ScenarioError
from .spec import ScenarioSpec, format_value, scenario_document

__all__ = ["run_sample", "STATUSES"]

#: Row statuses: ok (every scenario ran), invalid (the loaders refused the draw; not run),
#: error (a scenario refused the sample), crashed (an exception in the simulator).
STATUSES = ("ok", "invalid", "error", "crashed")

_DOCS: dict = {}


def _document(spec: ScenarioSpec) -> tuple:
    """The scenario's parsed document and fixed edits, parsed once per process while the file is unchanged
    (device, inode, modification and change times, size: a file edited between two sweeps of one program
    is read again)."""
    try:
        stamp = file_stamp(spec.file)
    except OSError:
        return scenario_document(spec)   # its own error names the file
    key = (stamp, spec.sets, tuple(sorted((k, repr(v)) for k, v in spec.metrics.items())))
    if key not in _DOCS:
        if len(_DOCS) >= 64:
            _DOCS.clear()
        _DOCS[key] = scenario_document(spec)
    return _DOCS[key]


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and not math.isfinite(v):
        return format_value(v)
    return format_value(float(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else format_value(v)


def run_sample(sample_id: int, overrides: str, scenarios: tuple, prefix: bool) -> dict:
    """Run one sample through every scenario; never raises.

    Parameters
    ----------
    sample_id : int
    overrides : str
        The sample's parameter overrides, ``key=value;...``.
    scenarios : tuple of ScenarioSpec
    prefix : bool
        Name metric columns ``scenario.metric`` (several scenarios) or ``metric``.

    Returns
    -------
    dict
        ``sample_id``, ``status`` (:data:`STATUSES`), ``metrics`` ``{column:
        cell text}`` (empty text for a null metric), ``simulated_s`` [s] summed
        over the scenarios, ``message``, ``wall_s`` (whole task) and ``loop_s``
        (stepping loops only) [s] of wall time.
    """
    t0 = time.perf_counter()
    row = {"sample_id": sample_id, "status": "ok", "metrics": {}, "simulated_s": 0.0, "message": "",
           "wall_s": 0.0, "loop_s": 0.0}
    try:
        for spec in scenarios:
            doc, fixed = _document(spec)
            # validation reads the line table and writes nothing: copy only the data
            sample_doc = Document(copy.deepcopy(doc.data), doc.path, doc.lines, doc.origins)
            sc = validate(sample_doc, ";".join(x for x in (fixed, overrides) if x))
            res = run_scenario(sc)
            row["simulated_s"] += res.simulated_s
            row["loop_s"] += res.wall_s
            for m in spec.collect:
                row["metrics"][f"{spec.name}.{m}" if prefix else m] = _cell(res.metrics.get(m))
    except ScenarioError as exc:
        row.update(status="error", message=str(exc))
    except Exception as exc:  # a bug in the simulator: keep the sweep going, report it
        row.update(status="crashed", message=f"{type(exc).__name__}: {exc}")
    row["wall_s"] = time.perf_counter() - t0
    return row
