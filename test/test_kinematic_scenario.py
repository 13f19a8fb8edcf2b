"""Scenarios at the kinematic level and with a list of vehicles (scenario/schema.py, runner.py)."""
from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest

from acres_dbw_sim.scenario import load_scenario, main, run_scenario, write_outputs
from acres_dbw_sim.scenario.source import ScenarioError

ROOT = Path(__file__).resolve().parents[1]

ULC = ("{cmd: 5.0, cmd_type: VELOCITY, limit_accel: 1.0, limit_decel: 1.0, enable: true, enable_shift: true, "
       "enable_shift_park: true}")


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


def test_single_vehicle_at_the_kinematic_level_behind_the_dbw(tmp_path):
    p = write(tmp_path, f"""
        duration_s: 12
        model: kinematic
        command_rate_hz: 50
        timeline:
          - t: 0
            enable: true
            ulc: {ULC}
        metrics:
          v_final: {{final: speed_mps}}
        expect:
          v_final: {{value: 5.0, abs: 0.2}}
        """)
    sc = load_scenario(p)
    assert sc.model == "kinematic" and sc.vehicles == ()
    res = run_scenario(sc)
    assert res.passed, res.metrics
    assert np.isnan(res.column("engine_rpm")).all() and np.isnan(res.column("wheel_load_fl_n")).all()
    assert np.isfinite(res.column("x_m")).all()
    write_outputs(res, tmp_path / "out")
    summ = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summ["scenario"]["model"] == "kinematic"
    assert summ["final"]["engine_rpm"] is None            # not modelled: null, never a made-up number
    assert summ["run"]["all_finite"] is False


def test_vehicles_list_runs_each_vehicle_with_its_own_pose_level_and_timeline(tmp_path):
    p = write(tmp_path, f"""
        duration_s: 8
        command_rate_hz: 50
        terrain: {{grade_pct: 4}}
        vehicles:
          - name: car1
            initial: {{pose: {{x_m: 10.0}}, gear: P}}
            timeline:
              - t: 0
                enable: true
                ulc: {ULC}
          - name: car2
            model: kinematic
            initial: {{pose: {{y_m: 5.0, yaw_deg: 90}}, gear: P}}
            timeline:
              - t: 0
                enable: true
                ulc: {ULC}
          - name: car3
            model: kinematic
            control: actuator
            initial: {{pose: {{x_m: -5.0, yaw_deg: 180}}, gear: L}}
            timeline:
              - t: 0
                pedal: 0.5
        metrics:
          v_final: {{final: speed_mps}}
        """)
    sc = load_scenario(p)
    assert [v.name for v in sc.vehicles] == ["car1", "car2", "car3"]
    assert [v.model for v in sc.vehicles] == ["full", "kinematic", "kinematic"]
    assert [v.control for v in sc.vehicles] == ["dbw", "dbw", "actuator"]
    res = run_scenario(sc)
    assert set(res.vehicles) == {"car1", "car2", "car3"}
    c1, c2, c3 = (res.vehicles[n] for n in ("car1", "car2", "car3"))
    assert c1.column("x_m")[0] == pytest.approx(10.0) and c1.column("x_m")[-1] > 20.0
    assert c2.column("y_m")[-1] > 15.0 and abs(c2.column("x_m")[-1]) < 1e-6       # heading north
    assert c3.column("x_m")[-1] < -10.0                                            # heading west, downhill
    assert c2.column("z_m")[-1] == pytest.approx(0.0, abs=1e-9)                    # the grade rises along x
    assert c3.column("z_m")[-1] == pytest.approx(0.04 * c3.column("x_m")[-1], abs=1e-9)
    # the lead is the first vehicle, and each vehicle's run is the run of that vehicle alone
    assert np.array_equal(res.data, c1.data)
    alone = run_scenario(load_scenario(p, ["vehicles=" + json.dumps([{
        "name": "car2", "model": "kinematic", "initial": {"pose": {"y_m": 5.0, "yaw_deg": 90}, "gear": "P"},
        "timeline": [{"t": 0, "enable": True, "ulc": json.loads(json.dumps(dict(
            cmd=5.0, cmd_type="VELOCITY", limit_accel=1.0, limit_decel=1.0, enable=True, enable_shift=True,
            enable_shift_park=True)))}]}])]))
    assert np.array_equal(alone.data, c2.data, equal_nan=True)
    files = write_outputs(res, tmp_path / "out")
    for n in ("car1", "car2", "car3"):
        assert (tmp_path / "out" / "vehicles" / n / "timeseries.csv") in files
    summ = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summ["vehicles"]["car2"]["model"] == "kinematic"
    assert summ["vehicles"]["car3"]["metrics"]["v_final"] == pytest.approx(c3.metrics["v_final"])


@pytest.mark.parametrize("body,key,reason", [
    ("model: warp\n", "model", "unknown model level"),
    ("timeline: []\nvehicles: [{name: a}]\n", "timeline", "its own timeline"),
    ("vehicles: [{name: a}, {name: a}]\n", "vehicles[1].name", "already vehicles[0]"),
    ("vehicles: [{name: 'a b'}]\n", "vehicles[0].name", "letters, digits"),
    ("vehicles: [{name: a, model: kinematik}]\n", "vehicles[0].model", "unknown model level"),
    ("vehicles: [{name: a, initial: {pose: {x_m: '3 ft'}}}]\n", "vehicles[0].initial.pose.x_m", "wrong unit"),
    ("vehicles: [{name: a, timeline: [{t: 1, pedal: 0.2}, {t: 0.5, pedal: 0.1}]}]\n", "vehicles[0].timeline[1].t",
     "backwards"),
    ("vehicles: []\n", "vehicles", "non-empty list"),
])
def test_bad_vehicles_and_model_keys_are_named(tmp_path, body, key, reason):
    p = write(tmp_path, "duration_s: 1\n" + body)
    with pytest.raises(ScenarioError) as ei:
        load_scenario(p)
    assert key in str(ei.value) and reason in str(ei.value)


def test_kinematic_without_its_parameter_block_is_refused(tmp_path):
    cfg = json.loads((ROOT / "config" / "polaris.json").read_text())
    del cfg["kinematic"]
    (tmp_path / "p.json").write_text(json.dumps(cfg))
    p = write(tmp_path, "duration_s: 1\nvehicle: {parameters: p.json}\nmodel: kinematic\n")
    with pytest.raises(ScenarioError, match="kinematic.high.accel_max_mps2"):
        load_scenario(p)


def test_fleet_example_runs_from_the_cli(tmp_path, capsys):
    assert main([str(ROOT / "scenarios" / "examples" / "fleet_mixed_levels.yaml"), "--out", str(tmp_path / "o"),
                 "--set", "duration_s=6;expect=null"]) == 0
    out = capsys.readouterr().out
    assert "vehicle follower (kinematic, dbw)" in out and "no energy ledger" not in out
    assert math.isfinite(json.loads((tmp_path / "o" / "vehicles" / "turner" / "summary.json").read_text())
                         ["final"]["x_m"])


def test_replay_with_model_kinematic_reproduces_the_kinematic_scenario(tmp_path):
    from acres_dbw_sim.replay import ReplayError, replay_bag, scenario_to_bag
    p = write(tmp_path, """
        duration_s: 3
        model: kinematic
        command_rate_hz: 50
        initial: {gear: P}
        timeline:
          - t: 0
            enable: true
            ulc: {cmd: 3.0, cmd_type: VELOCITY, limit_accel: 1.5, limit_decel: 1.5, enable: true,
                  enable_shift: true, enable_shift_park: true}
            steering: {cmd: 102.5, cmd_type: CMD_ANGLE, enable: true}
        """)
    sc = load_scenario(p)
    ref = run_scenario(sc)
    scenario_to_bag(sc, tmp_path / "drive")
    res = replay_bag(tmp_path / "drive", tmp_path / "out", params={"model": "kinematic"}, plots=False,
                     write_bag=False)
    assert np.array_equal(ref.data, res.run.data, equal_nan=True)
    assert ref.column("speed_mps")[-1] > 1.0 and ref.column("yaw_rate_rad_s")[-1] > 0.05
    with pytest.raises(ReplayError, match="model"):
        replay_bag(tmp_path / "drive", tmp_path / "out2", params={"model": "hover"}, plots=False, write_bag=False)
