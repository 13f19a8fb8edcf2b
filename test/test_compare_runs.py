"""tools/compare_runs.py (the refactor yardstick) and tools/golden_stream.py (the report stream)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from acres_dbw_sim.interface import REPORT_TOPICS
from acres_dbw_sim.scenario import load_scenario, run_scenario, write_outputs
from helpers.tools import load_tool

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


compare = load_tool("compare_runs")


def _csv(path: Path, header: list[str], rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(",".join(header) + "\n" + "".join(",".join(str(v) for v in r) + "\n" for r in rows))


def _tree(root: Path, rows: list[list], summary: dict | None = None) -> Path:
    _csv(root / "run" / "timeseries.csv", ["t_s", "x_m", "energy_fuel_j", "energy_residual_j", "frame"], rows)
    (root / "run" / "summary.json").write_text(json.dumps(summary or {"final": {"x_m": 3.0}, "wall_s": 0.1}))
    return root


BASE = [[0.0, 0.0, 0.0, 0.0, "odom"], [0.1, 1.0, 1e6, 1e-7, "odom"], [0.2, 2.0, 2e6, float("nan"), "odom"]]


def test_identical_trees_are_the_same(tmp_path, capsys):
    a, b = _tree(tmp_path / "a", BASE), _tree(tmp_path / "b", BASE)
    assert compare.main([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "2 file(s) compared, 2 same, 0 different" in out


@pytest.mark.parametrize("row, col, value, moved", [
    (1, 1, 1.0 + 1.5e-9, None),               # within 1e-9 of max|x_m| = 2
    (1, 1, 1.0 + 3e-9 * 2, "x_m"),             # past it
    (2, 3, 0.0, "energy_residual_j"),          # NaN in base, a number in new
    (1, 3, 1e-7 + 1e-4, None),                 # a residual is scaled by the fuel energy (2e6): 1e-4 < 2e-3
    (1, 3, 1e-7 + 1e-2, "energy_residual_j"),  # 1e-2 > 2e-3
    (0, 4, "base_link", "frame"),              # text: exactly
])
def test_a_column_is_equal_within_its_scale(tmp_path, capsys, row, col, value, moved):
    new = [list(r) for r in BASE]
    new[row][col] = value
    a, b = _tree(tmp_path / "a", BASE), _tree(tmp_path / "b", new)
    status = compare.main([str(a), str(b)])
    out = capsys.readouterr().out
    if moved is None:
        assert status == 0, out
    else:
        assert status == 1 and f"1 column(s) moved: {moved}" in out, out
        assert f"row {row} (t_s {BASE[row][0]:g})" in out, out


def test_missing_files_rows_and_keys_are_named(tmp_path, capsys):
    a = _tree(tmp_path / "a", BASE, {"final": {"x_m": 3.0, "y_m": 1.0}, "out": "/a", "run": {"wall_time_s": 1}})
    b = _tree(tmp_path / "b", BASE[:2], {"final": {"x_m": 3.0}, "out": "/b", "run": {"wall_time_s": 2}})
    _csv(a / "other" / "timeseries.csv", ["t_s"], [[0.0]])
    assert compare.main([str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "3 rows in base, 2 in new" in out
    assert "keys missing in new: final.y_m" in out
    assert "other/timeseries.csv" in out and "missing in" in out
    assert "wall_time_s" not in out and "'/a'" not in out   # machine figures and places are not compared


def test_bad_arguments_exit_2(tmp_path):
    with pytest.raises(SystemExit) as e:
        compare.main([str(tmp_path / "nope"), str(tmp_path)])
    assert e.value.code == 2


def _batch(out: Path, sets=None) -> Path:
    for name in ("brake_15bar_asphalt", "parked"):
        res = run_scenario(load_scenario(SCENARIOS / f"{name}.yaml", sets))
        write_outputs(res, out / name)
    return out


def test_two_runs_of_the_scenarios_are_the_same_and_a_1e_6_change_moves_columns(tmp_path, capsys):
    a, b = _batch(tmp_path / "a"), _batch(tmp_path / "b")
    assert compare.main([str(a), str(b)]) == 0
    capsys.readouterr()
    c = _batch(tmp_path / "c", ["aero.drag_area_m2=2.5000025"])    # 2.5 * (1 + 1e-6)
    assert compare.main([str(a), str(c), "--rows", "1"]) == 1
    out = capsys.readouterr().out
    moved = out.split("brake_15bar_asphalt/timeseries.csv: ")[1].splitlines()[0]
    assert "column(s) moved" in moved and "x_m" in moved and "speed_mps" in moved, moved
    assert "t_s" not in moved.split(": ", 1)[1].split(", ")   # time is the same at every row
    assert "same      parked/timeseries.csv" in out   # parked: no drag at rest


@pytest.mark.dds   # the node in this process (a participant that discovers nothing)
def test_the_golden_stream_covers_every_report_and_repeats_exactly(tmp_path, capsys):
    golden = load_tool("golden_stream")
    assert golden.main([str(tmp_path / "a"), "--vehicle", "polaris", "--duration-s", "1.0"]) == 0
    assert golden.main([str(tmp_path / "b"), "--vehicle", "polaris", "--duration-s", "1.0"]) == 0
    files = {p.stem for p in (tmp_path / "a" / "polaris").glob("*.csv")}
    for topic, *_ in REPORT_TOPICS:
        assert "vehicle__" + topic.replace("/", "__") in files, topic
    for legacy in ("steering_report", "brake_report", "throttle_report", "gear_report", "twist"):
        assert f"vehicle__{legacy}" in files
    assert {"vehicle__odom", "tf", "tf_static", "clock", "vehicle__imu__data_raw", "diagnostics",
            "vehicle__robot_description", "dbw_log"} <= files
    capsys.readouterr()
    assert compare.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert golden.main([str(tmp_path / "c"), "--vehicle", "polaris", "--duration-s", "1.0",
                        "--overrides", "brakes.front_nm_per_bar=25.000025"]) == 0
    capsys.readouterr()
    assert compare.main([str(tmp_path / "a"), str(tmp_path / "c")]) == 1
    out = capsys.readouterr().out
    assert "DIFFERENT polaris/vehicle__brake__info.csv" in out or "DIFFERENT polaris/vehicle__odom.csv" in out, out
