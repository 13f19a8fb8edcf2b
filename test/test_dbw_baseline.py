"""Today's DBW against its recorded reference (``test/data/dbw_baseline.json.gz``, ``tools/record_dbw_baseline.py``).

The file holds command streams drawn from the property test's strategy, each replayed in both sync
modes against the property test's ``FakeVehicle``, with the DBW's outputs and every report field
at every step and the log lines it queued; and the DBW-level columns of the shipped
DBW-level scenarios. A rewrite of the DBW (a compiled step) must reproduce them: a number within
1e-9 of its column's largest magnitude (``tools/compare_runs.py``'s rule, which the refactor
yardstick applies), NaN in the same places, every text and integer equal.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest

from helpers.dbw_replay import OUTPUT_FIELDS, replay, report_columns, scenario_columns
from helpers.tools import load_tool

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "test" / "data" / "dbw_baseline.json.gz"
REL_TOL = 1e-9
compare = load_tool("compare_runs")


def _baseline() -> dict:
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        return json.load(fh)


BASE = _baseline()


def _column_problems(name: str, base: list, new: list) -> list:
    """Differences of one column by the run comparer's rule (an empty list when equal): numbers within
    :data:`REL_TOL` of the column's largest magnitude, NaN in the same places; texts equal."""
    if len(base) != len(new):
        return [f"{name}: {len(new)} values, the baseline has {len(base)}"]
    if any(isinstance(v, str) or v is None for v in (base[0], new[0])):
        return [f"{name}[{i}]: {b!r}, baseline {a!r}" for i, (a, b) in enumerate(zip(base, new)) if a != b][:3]
    try:
        a, b = np.asarray(base, dtype=float), np.asarray(new, dtype=float)
    except (TypeError, ValueError):
        return [f"{name}: values of another type than the baseline's ({new[:3]!r}...)"]
    d = compare.compare_columns(name, a, b, compare._scale(a), REL_TOL, None, 3)
    return [] if d is None else [f"{name}[{i}]: {new_v!r}, baseline {base_v!r}"
                                 for i, _t, base_v, new_v, *_ in d.examples]


def test_the_baseline_file_covers_both_sync_modes_engagement_and_every_report():
    runs = BASE["runs"]
    assert {r["sync_mode"] for r in runs} == {0, 2} and len(runs) == 2 * len(BASE["streams"])
    assert sum(len(r["outputs"]) for r in runs) > 30_000
    texts = {text for r in runs for _step, _lvl, text in r["log"]}
    assert "DBW system enabled" in texts and any(t.startswith("DBW system disabled") for t in texts)
    assert any(t.startswith("ULC pre-empted") for t in texts) and any(t.startswith("Gear command rejected")
                                                                      for t in texts)
    enabled = [v for r in runs for v in report_columns(BASE["report_keys"], r["reports"])["dbw_enabled"]]
    assert any(enabled) and not all(enabled)
    assert {re.split(r"[.[]", k)[0] for k in BASE["report_keys"]} >= {
        "steering_report", "brake_report", "ulc_report", "system_report", "imu", "ecu_info", "gear_diag"}
    assert set(BASE["scenarios"]) >= {"scenarios/examples/ulc_speed_step.yaml",
                                      "scenarios/examples/dbw_pedals_and_steering.yaml"}


@pytest.mark.slow
@pytest.mark.parametrize("sync_mode", [0, 2])
def test_the_dbw_reproduces_its_recorded_outputs_reports_and_log(sync_mode):
    problems = []
    for run in (r for r in BASE["runs"] if r["sync_mode"] == sync_mode):
        new = replay(BASE["streams"][run["stream"]], sync_mode)
        where = f"stream {run['stream']}"
        for j, name in enumerate(OUTPUT_FIELDS):
            problems += [f"{where}: {p}" for p in _column_problems(
                name, [row[j] for row in run["outputs"]], [row[j] for row in new["outputs"]])]
        base_reports = report_columns(BASE["report_keys"], run["reports"])
        new_reports = report_columns(new["report_keys"], new["reports"])
        for key, values in base_reports.items():
            problems += [f"{where}: {p}" for p in _column_problems(
                key, values, new_reports.get(key, [None] * len(values)))]
        if new["log"] != run["log"]:
            problems.append(f"{where}: log {new['log']}, baseline {run['log']}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("scenario", sorted(BASE["scenarios"]))
def test_the_dbw_level_scenarios_reproduce_their_recorded_columns(scenario):
    base = BASE["scenarios"][scenario]
    new = scenario_columns(ROOT / scenario)
    assert set(new) == set(base)
    problems = [f"{vehicle or 'vehicle'}: {p}" for vehicle, cols in base.items()
                for name, values in cols.items() for p in _column_problems(name, values, new[vehicle][name])]
    assert not problems, "\n".join(problems[:20])
