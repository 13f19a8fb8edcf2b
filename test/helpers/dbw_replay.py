"""Replay a stored DBW command stream as the property test runs it, and collect what the DBW gives.

Used by ``tools/record_dbw_baseline.py`` (to record the reference, also against another commit's
package: run as a script, ``python test/helpers/dbw_replay.py STREAMS.json`` prints the runs as JSON)
and by ``test/test_dbw_baseline.py`` (to compare today's DBW with it).
"""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

from acres_dbw_sim.dbw import commands as C
from acres_dbw_sim.dbw.state import DriverInput
from helpers.dbw import FakeVehicle, make, play_events

#: The DbwOutputs fields recorded every step, in this order.
OUTPUT_FIELDS = ("pedal", "brake_line_bar", "steering_wheel_deg", "gear_request", "drive_mode",
                 "gear_manual_request")


def decode(value):
    """An event argument from its stored form (``{"type", "fields"}``: a command or a driver input)."""
    if isinstance(value, dict) and "type" in value:
        cls = DriverInput if value["type"] == "DriverInput" else getattr(C, value["type"])
        return cls(**value["fields"])
    return value


def flatten(obj, prefix: str, out: dict) -> None:
    """``{"report.field[i]": value}`` of the scalar fields (numbers, booleans, texts) of a report tree."""
    if isinstance(obj, _SCALARS) or obj is None:
        out[prefix] = obj
        return
    names = _FIELD_NAMES.get(type(obj))
    if names is None and dataclasses.is_dataclass(obj):
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    if names is not None:
        for name in names:
            flatten(getattr(obj, name), f"{prefix}.{name}" if prefix else name, out)
    elif isinstance(obj, (list, tuple)):
        for i, x in enumerate(obj):
            flatten(x, f"{prefix}[{i}]", out)
    else:
        out[prefix] = obj


_SCALARS = (bool, int, float, str)
_FIELD_NAMES: dict = {}


def replay(events: list, sync_mode: int) -> dict:
    """Run ``events`` (stored form, :func:`decode`) through a fresh DBW against a ``FakeVehicle``.

    Returns
    -------
    dict
        ``outputs``: per step the :data:`OUTPUT_FIELDS` values; ``report_keys``: the report fields
        (:func:`flatten` of ``DbwSystem.reports``), ``reports``: per step ``[[key index, value], ...]``
        of those that changed since the step before (all of them at the first step;
        :func:`report_columns` expands them); ``log``: ``[step, level, text]`` of each line the DBW
        queued.
    """
    dbw, veh = make(**{"dbw.system_sync_mode": sync_mode}), FakeVehicle()
    outputs, reports, logs = [], [], []
    last: list = []
    keys: list = []

    def after_step(o, t):
        outputs.append([getattr(o, k) for k in OUTPUT_FIELDS])
        flat: dict = {}
        flatten(dbw.reports(t), "", flat)
        if not keys:
            keys.extend(flat)
        values = list(flat.values())
        reports.append([[i, v] for i, v in enumerate(values) if not last or not _same(last[i], v)])
        last[:] = values
        logs.extend([len(outputs) - 1, lvl, text] for lvl, text in dbw.drain_log())

    play_events(dbw, veh, [(kind, decode(a), b) for kind, a, b in events], after_step)
    return {"outputs": outputs, "report_keys": keys, "reports": reports, "log": logs}


def _same(a, b) -> bool:
    """Equal, NaN equal to NaN."""
    return a == b or (a != a and b != b)


def report_columns(keys: list, changes: list) -> dict:
    """``{key: [value per step]}`` from :func:`replay`'s ``report_keys`` and per-step ``reports`` changes."""
    cols: list = [[] for _ in keys]
    for i, changed in enumerate(changes):
        for k, v in changed:
            col = cols[k]
            if len(col) < i:
                col.extend([col[-1]] * (i - len(col)))
            col.append(v)
    for col in cols:
        col.extend([col[-1]] * (len(changes) - len(col)))
    return dict(zip(keys, cols))


#: The timeseries columns of a DBW-level scenario that the DBW decides (its outputs and engagement), and the speed.
SCENARIO_COLUMNS = ("pedal", "brake_bar", "steering_wheel_deg", "gear", "drive_mode", "dbw_enabled", "speed_mps")


def dbw_scenarios(root: Path) -> list:
    """The shipped scenario files (``scenarios/**.yaml``, relative to ``root``) that drive a vehicle through the DBW."""
    from acres_dbw_sim.scenario import load_scenario
    out = []
    for f in sorted((root / "scenarios").rglob("*.yaml")):
        sc = load_scenario(f)
        if sc.control == "dbw" or any(v.control == "dbw" for v in sc.vehicles):
            out.append(f.relative_to(root).as_posix())
    return out


def scenario_columns(path: Path) -> dict:
    """``{vehicle: {column: [value per row]}}`` of :data:`SCENARIO_COLUMNS` from a run of scenario ``path``
    (vehicle ``""`` for a scenario of one vehicle)."""
    from acres_dbw_sim.scenario import load_scenario, run_scenario
    from acres_dbw_sim.scenario.signals import COLUMN_NAMES
    res = run_scenario(load_scenario(path))
    results = res.vehicles or {"": res}
    return {name: {c: r.data[:, COLUMN_NAMES.index(c)].tolist() for c in SCENARIO_COLUMNS}
            for name, r in results.items()}


def main(argv: list) -> int:
    """``dbw_replay.py SPEC.json ROOT``: run the spec's streams (each in every sync mode) and the DBW-level
    scenarios of ``ROOT``, print ``{"runs": [{stream, sync_mode, outputs, reports, log}, ...], "scenarios":
    {file: columns}}`` as JSON."""
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    root = Path(argv[1])
    runs = [{"stream": i, "sync_mode": mode, **replay(events, mode)}
            for i, events in enumerate(spec["streams"]) for mode in spec["sync_modes"]]
    scenarios = {f: scenario_columns(root / f) for f in dbw_scenarios(root)}
    json.dump({"runs": runs, "scenarios": scenarios}, sys.stdout, allow_nan=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
