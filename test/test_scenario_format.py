"""Scenario format: every malformed input fails once, before running, naming the line and the key.

Table-driven: each case is a scenario text, the line and key the error must
name and a fragment of the reason. The command line must exit with status 2,
print one ``error:`` line without a traceback, and write nothing.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from acres_dbw_sim.dbw.commands import BrakeCmd, GearCmd, SteeringCmd, UlcCmd
from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.scenario import ScenarioError, load_scenario, main
from acres_dbw_sim.scenario.source import apply_sets, parse_text, split_sets

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


# (id, scenario text, line, key, fragment of the reason)
BAD = [
    ("unknown top key", """
        duraton_s: 5
        """, 1, "duraton_s", "did you mean 'duration_s'"),
    ("missing duration", """
        step_hz: 120
        """, 1, "", "missing key 'duration_s'"),
    ("unknown nested key with a unit", """
        duration_s: 5
        initial:
          gear: D
          speed_kph: 10
        """, 4, "initial.speed_kph", "did you mean 'speed_mps'"),
    ("wrong type", """
        duration_s: 5
        step_hz: fast
        """, 2, "step_hz", "expected a number [Hz]"),
    ("wrong unit", """
        duration_s: 5
        timeline:
          - {t: 0, pedal: 0.5}
          - {t: 2, brake_bar: 30 psi}
        """, 4, "timeline[1].brake_bar", "wrong unit"),
    ("pedal out of range", """
        duration_s: 5
        timeline:
          - {t: 0, pedal: 1.5}
        """, 3, "timeline[0].pedal", "out of range"),
    ("step rate out of range", """
        duration_s: 5
        step_hz: 2000
        """, 2, "step_hz", "not in [60, 1000]"),
    ("brake beyond the full-scale pressure", """
        duration_s: 5
        timeline:
          - {t: 0, brake_bar: 95}
        """, 3, "timeline[0].brake_bar", "not in [0, 80]"),
    ("occupants out of range", """
        duration_s: 5
        vehicle:
          occupants: 7
        """, 3, "vehicle.occupants", "not in [0, 6]"),
    ("unknown vehicle type", """
        duration_s: 5
        vehicle:
          type: combine
        """, 3, "vehicle.type", "use one of polaris, maxxum150"),
    ("misspelt vehicle type", """
        duration_s: 5
        vehicle:
          type: maxum150
        """, 3, "vehicle.type", "unknown vehicle 'maxum150' (did you mean 'maxxum150'?)"),
    ("a folder as the parameter file", """
        duration_s: 5
        vehicle:
          parameters: .
        """, 3, "vehicle.parameters", "is a directory"),
    ("an override of the mapping form at its own line", """
        duration_s: 5
        vehicle:
          overrides:
            engine.idle_rpm: 1200
            brakes.front_nm_per_barr: 25
        """, 5, "vehicle.overrides.brakes.front_nm_per_barr", "did you mean 'brakes.front_nm_per_bar'"),
    ("two elements of one array in the mapping form: the one at fault", """
        duration_s: 5
        vehicle:
          overrides:
            engine.torque_curve_nm[3]: 80
            engine.torque_curve_nm[12]: 80
        """, 5, "vehicle.overrides.engine.torque_curve_nm[12]", "index out of range"),
    ("a start far beyond the odometry's float range", """
        duration_s: 5
        initial:
          pose: {x_m: 1.0e+300}
        """, 3, "initial.pose.x_m", "not in [-1000000, 1000000]"),
    ("a key given twice in one overrides text", """
        duration_s: 5
        vehicle:
          overrides: "engine.idle_rpm=900;engine.idle_rpm=1000"
        """, 3, "vehicle.overrides", "given twice in the overrides"),
    ("the Ranger's occupants on the tractor", """
        duration_s: 5
        vehicle:
          type: maxxum150
          occupants: 2
        """, 4, "vehicle.occupants", "implement"),
    ("a tractor key the tractor lacks", """
        duration_s: 5
        vehicle:
          type: maxxum150
          overrides: {brakes.max_bar: 90}
        """, 4, "vehicle.overrides.brakes.max_bar", "brakes.max_bar"),
    ("tractor brake beyond its full scale", """
        duration_s: 5
        vehicle: {type: maxxum150}
        timeline:
          - {t: 0, brake_bar: 95}
        """, 4, "timeline[0].brake_bar", "not in [0, 80]"),
    ("time goes backwards", """
        duration_s: 5
        timeline:
          - {t: 0, pedal: 0.5}
          - {t: 3, pedal: 0}
          - {t: 2, brake_bar: 30}
        """, 5, "timeline[2].t", "time goes backwards"),
    ("two entries at one time", """
        duration_s: 5
        timeline:
          - {t: 0.5, pedal: 0.5}
          - {t: 0.5, pedal: 0}
        """, 4, "timeline[1].t", "two entries at t = 0.5 s (entries must be in strictly increasing time)"),
    ("a unit suffix mistaken", """
        duration_s: 5
        initial: {speed_kph: 3}
        """, 2, "initial.speed_kph", "did you mean 'speed_mps'? units are fixed by the key name"),
    ("a unit suffix left out", """
        duration: 5
        """, 1, "duration", "did you mean 'duration_s'? units are fixed by the key name"),
    ("a misspelt key without a unit", """
        duration_s: 5
        metrics:
          d: {maxx: x_m}
        """, 3, "metrics.d.maxx", "(did you mean 'max'?);"),
    ("two entries in one step", """
        duration_s: 5
        timeline:
          - {t: 1.001, pedal: 0.5}
          - {t: 1.005, pedal: 0}
        """, 4, "timeline[1].t", "same physics step"),
    ("entry without t", """
        duration_s: 5
        timeline:
          - {pedal: 0.5}
        """, 3, "timeline[0]", "missing key 't'"),
    ("timeline not a list", """
        duration_s: 5
        timeline: {t: 0, pedal: 1}
        """, 2, "timeline", "expected a list"),
    ("missing height map", """
        duration_s: 5
        terrain:
          height_map: {file: nothere.npy, resolution_m: 0.5}
        """, 3, "terrain.height_map.file", "file not found"),
    ("missing parameter file", """
        duration_s: 5
        vehicle:
          parameters: nothere.json
        """, 3, "vehicle.parameters", "file not found"),
    ("grade with a height map", """
        duration_s: 5
        terrain:
          grade_pct: 10
          height_map: {heights: [[0, 0], [0, 0]], resolution_m: 1}
        """, 3, "terrain.grade_pct", "plane only"),
    ("ragged height map", """
        duration_s: 5
        terrain:
          height_map: {heights: [[0, 0], [0]], resolution_m: 1}
        """, 3, "terrain.height_map.heights", "rectangular grid"),
    ("unknown surface", """
        duration_s: 5
        terrain:
          regions:
            - {surface: ice, rect: [0, 0, 1, 1]}
        """, 4, "terrain.regions[0].surface", "unknown surface 'ice'"),
    ("inverted rectangle", """
        duration_s: 5
        terrain:
          regions:
            - surface: gravel
              rect: [5, 0, 1, 1]
        """, 5, "terrain.regions[0].rect", "x_min < x_max"),
    ("unknown wheel", """
        duration_s: 5
        terrain:
          wheel_surfaces: {rear_left: slick}
        """, 3, "terrain.wheel_surfaces.rear_left", "allowed here: fl, fr, rl, rr"),
    ("mixed levels", """
        duration_s: 5
        timeline:
          - {t: 0, pedal: 0.5}
          - t: 1
            throttle: {cmd: 10, cmd_type: PERCENT, enable: true}
        """, 5, "timeline[1].throttle", "mixes the actuator level"),
    ("declared level contradicted", """
        duration_s: 5
        control: actuator
        timeline:
          - {t: 0, enable: true}
        """, 4, "timeline[0].enable", "DBW-level key in a scenario with control: actuator"),
    ("unknown message field", """
        duration_s: 5
        timeline:
          - t: 0
            throttle: {cmd: 10, cmd_typ: 14}
        """, 4, "timeline[0].throttle.cmd_typ", "did you mean 'cmd_type'"),
    ("unknown message constant", """
        duration_s: 5
        timeline:
          - t: 0
            steering: {cmd: 10, cmd_type: CMD_SIDEWAYS}
        """, 4, "timeline[0].steering.cmd_type", "CMD_ANGLE"),
    ("message flag not a bool", """
        duration_s: 5
        timeline:
          - t: 0
            brake: {cmd: 10, cmd_type: 1, enable: 1}
        """, 4, "timeline[0].brake.enable", "true or false"),
    ("enable false", """
        duration_s: 5
        timeline:
          - {t: 0, enable: false}
        """, 3, "timeline[0].enable", "only 'enable: true'"),
    ("unknown gear", """
        duration_s: 5
        initial: {gear: X}
        """, 2, "initial.gear", "unknown gear 'X'"),
    ("unknown drive mode", """
        duration_s: 5
        initial: {drive_mode: 4WD}
        """, 2, "initial.drive_mode", "Turf, 2WD, AWD"),
    ("duplicate key", """
        duration_s: 5
        step_hz: 120
        step_hz: 240
        """, 3, "step_hz", "duplicate key (first given on line 2)"),
    ("YAML syntax", """
        duration_s: 5
        timeline:
          - {t: 0, pedal: 0.5
        """, 4, "", "YAML syntax error"),
    ("top level not a mapping", """
        - duration_s: 5
        """, 1, "", "top level must be a mapping"),
    ("unknown signal in stop_when", """
        duration_s: 5
        stop_when: speed < 3
        """, 2, "stop_when", "did you mean 'speed_mps'"),
    ("malformed condition", """
        duration_s: 5
        stop_when: [speed_mps lower than 3]
        """, 2, "stop_when[0]", "cannot read"),
    ("metric of an unknown signal", """
        duration_s: 5
        metrics:
          top: {max: top_speed}
        """, 3, "metrics.top.max", "unknown signal"),
    ("expression before its metric", """
        duration_s: 5
        metrics:
          a: {expr: "2 * b"}
          b: {final: speed_mps}
        """, 3, "metrics.a.expr", "unknown metric 'b'"),
    ("unsafe expression", """
        duration_s: 5
        metrics:
          b: {final: speed_mps}
          a: {expr: "__import__('os')"}
        """, 4, "metrics.a.expr", "may be called"),
    ("expectation of no metric", """
        duration_s: 5
        metrics:
          b: {final: speed_mps}
        expect:
          c: {value: 1, rel: 0.1}
        """, 5, "expect.c", "no metric of that name"),
    ("unknown parameter override", """
        duration_s: 5
        vehicle:
          overrides: "brakes.front_nm_per_barr=25"
        """, 3, "vehicle.overrides", "'brakes.front_nm_per_barr': unknown key"),
    ("non-physical parameter override", """
        duration_s: 5
        vehicle:
          overrides: {brakes.front_nm_per_bar: -3}
        """, 3, "vehicle.overrides.brakes.front_nm_per_bar", "out of range"),
    ("non-finite number", """
        duration_s: .inf
        """, 1, "duration_s", "must be finite"),
    ("driver pedal out of range", """
        duration_s: 5
        timeline:
          - t: 0
            driver: {brake_pedal_pct: 120}
        """, 4, "timeline[0].driver.brake_pedal_pct", "not in [0, 100]"),
    ("unknown fault subsystem", """
        duration_s: 5
        timeline:
          - t: 0
            fault: {engine: true}
        """, 4, "timeline[0].fault.engine", "steering, brake, throttle, gear"),
]


@pytest.mark.parametrize("text,line,key,fragment", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_scenario_names_line_and_key(tmp_path, text, line, key, fragment):
    p = write(tmp_path, text)
    with pytest.raises(ScenarioError) as ei:
        load_scenario(p)
    e = ei.value
    assert e.line == line, str(e)
    assert e.key == key, str(e)
    assert fragment in e.reason, str(e)
    assert str(e).startswith(f"{p}:{line}: " if line else f"{p}: ")


@pytest.mark.parametrize("text,line,key,fragment", [c[1:] for c in BAD[:6]], ids=[c[0] for c in BAD[:6]])
def test_cli_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys, text, line, key, fragment):
    p = write(tmp_path, text)
    out = tmp_path / "out"
    assert main([str(p), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert fragment in err
    assert not out.exists()
    assert [x.name for x in tmp_path.iterdir()] == ["s.yaml"]  # no temporary files either


def test_cli_as_a_process_prints_no_traceback(tmp_path):
    p = write(tmp_path, """
        duration_s: 5
        timeline:
          - {t: 2, pedal: 0.5}
          - {t: 1, pedal: 0}
        """)
    r = subprocess.run([sys.executable, "-m", "acres_dbw_sim.scenario", str(p), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == f"error: {p}:4: timeline[1].t: time goes backwards: t = 1 s after t = 2 s (entries must be " \
                       f"in strictly increasing time)\n"
    assert r.stdout == ""


def test_missing_scenario_file(tmp_path, capsys):
    assert main([str(tmp_path / "nothere.yaml")]) == 2
    assert "no such scenario file" in capsys.readouterr().err


def test_set_errors_name_the_set_key(tmp_path):
    p = write(tmp_path, "duration_s: 5\n")
    for sets, key, frag in [("terrain.surface=mud", "terrain.surface", "unknown surface 'mud'"),
                            ("brakes.foo=3", "brakes.foo", "unknown key"),
                            ("timeline[3].pedal=1", "timeline[3].pedal", "no such list item"),
                            ("duration_s", "duration_s", "must be key=value"),
                            ("a..b=1", "a..b", "malformed key"),
                            # a mapping the edit made: the edit's fault, with the key's one dotted name
                            ("vehicle.overrides.engine.idle_rpm=900", "vehicle.overrides.engine",
                             "got a mapping (a parameter's key is one dotted name")]:
        with pytest.raises(ScenarioError) as ei:
            load_scenario(p, sets)
        assert ei.value.source == "--set" and ei.value.key == key and frag in ei.value.reason, str(ei.value)


# --------------------------------------------------------------------------- what valid input means


def test_defaults(tmp_path):
    sc = load_scenario(write(tmp_path, "duration_s: 2.5\n"))
    assert sc.step_hz == 120.0 and sc.n_steps == 300 and sc.output_every == 1
    assert sc.control == "actuator" and sc.timeline == () and sc.stop_when == ()
    assert sc.initial.gear == Gear.PARK and sc.initial.drive_mode == AwdSwitch.AWD
    assert sc.terrain.surface == "asphalt" and sc.terrain.grade_pct == 0.0 and sc.terrain.heights is None
    assert sc.params.mass.occupants == 1 and sc.name == "s"


def test_actuator_entries_and_their_steps(tmp_path):
    sc = load_scenario(write(tmp_path, """
        duration_s: 5
        step_hz: 100
        timeline:
          - {t: 0, pedal: 1, gear: H, drive_mode: turf}
          - {t: 0.015, brake_bar: 20, steering_from_center_deg: 90}
          - {t: 1, steering_wheel_deg: -30, gear: null}
        """))
    e0, e1, e2 = sc.timeline
    assert (e0.step, e1.step, e2.step) == (0, 2, 100)  # first step starting at or after t
    assert dict(e0.actuator) == {"pedal": 1.0, "gear_request": Gear.DRIVE, "drive_mode": AwdSwitch.TURF}
    centre = sc.params.steering.center_deg
    assert dict(e1.actuator) == {"brake_line_bar": 20.0, "steering_wheel_deg": centre + 90.0}
    assert dict(e2.actuator) == {"steering_wheel_deg": -30.0, "gear_request": Gear.NONE}


def test_dbw_messages_exactly_as_ros_carries_them(tmp_path):
    sc = load_scenario(write(tmp_path, """
        duration_s: 5
        timeline:
          - t: 0
            ulc: {cmd: 5, cmd_type: VELOCITY, limit_accel: 1.0, enable: true, enable_shift: true}
            enable: true
            steering: {cmd: 0.05, cmd_type: 3, cmd_rate: 100, enable: true}
            gear: D
          - t: 1
            brake: {cmd: 20, cmd_type: CMD_PRESSURE, enable: true}
            throttle: null
            gear: {cmd: REVERSE}
            drive_mode: 2WD
        """))
    assert sc.control == "dbw"
    c0, c1 = sc.timeline[0].commands, sc.timeline[1].commands
    assert [k for k, _ in c0] == ["enable", "gear", "steering", "ulc"]  # delivery order, not file order
    d0 = dict(c0)
    assert d0["ulc"] == UlcCmd(cmd=5.0, cmd_type=1, limit_accel=1.0, enable=True, enable_shift=True)
    assert d0["steering"] == SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, cmd_rate=100.0, enable=True)
    assert d0["gear"] == GearCmd(cmd=4)
    d1 = dict(c1)
    assert d1["brake"] == BrakeCmd(cmd=20.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True)
    assert d1["throttle"] is None and d1["gear"] == GearCmd(cmd=2)
    assert d1["drive_mode"].awd_mode_cmd == 1 and d1["drive_mode"].rear_diff_cmd == 2  # TWO_HIGH, LOCKED


def test_yaml_features_anchors_merge_and_yaml_1_2_floats(tmp_path):
    sc = load_scenario(write(tmp_path, """
        duration_s: 1e1
        timeline:
          - &go {t: 0, pedal: 0.5, brake_bar: 0}
          - {<<: *go, t: 2.5e0, pedal: 0.25}
        """))
    assert sc.duration_s == 10.0
    assert dict(sc.timeline[1].actuator) == {"pedal": 0.25, "brake_line_bar": 0.0}


def test_set_edits_the_scenario_and_overrides_parameters(tmp_path):
    p = write(tmp_path, """
        duration_s: 5
        vehicle:
          overrides: "brakes.front_nm_per_bar=20"
        timeline:
          - {t: 0, pedal: 0.5}
        """)
    sc = load_scenario(p, ["terrain.surface=gravel;timeline[0].pedal=0.75",
                           "brakes.front_nm_per_bar=30;initial.gear=L"])
    assert sc.terrain.surface == "gravel" and dict(sc.timeline[0].actuator)["pedal"] == 0.75
    assert sc.initial.gear == Gear.LOW
    assert sc.params.brakes.front_nm_per_bar == 30.0  # --set wins over the file's overrides
    edits, params = split_sets("a.b=1; engine.idle_rpm = 1300 ;duration_s=2")
    assert edits == [("duration_s", "2")] and params == "a.b=1;engine.idle_rpm=1300"


def test_set_creates_missing_sections():
    doc = parse_text("duration_s: 5\n")
    apply_sets(doc, [("terrain.regions", "[{surface: gravel, rect: [0, 0, 1, 1]}]")])
    assert doc.data["terrain"]["regions"][0]["surface"] == "gravel"
    assert doc.locate(("terrain", "regions", 0, "surface")) == ("--set", None)


def test_height_map_files(tmp_path):
    grid = np.add.outer(np.zeros(5), np.linspace(0.0, 1.0, 6))  # 5 rows (y) x 6 columns (x), ramp in x
    np.save(tmp_path / "ramp.npy", grid)
    np.savetxt(tmp_path / "ramp.csv", grid, delimiter=",")
    for name in ("ramp.npy", "ramp.csv"):
        sc = load_scenario(write(tmp_path, f"""
            duration_s: 1
            terrain:
              height_map: {{file: {name}, resolution_m: 2.0, origin_m: [-5, -4]}}
            """))
        t = sc.terrain.build()
        t.bind([s.name for s in sc.params.surfaces])
        assert t.height_m(-5.0, 0.0) == pytest.approx(0.0) and t.height_m(5.0, 0.0) == pytest.approx(1.0)


def test_docs_examples_are_valid_and_meet_their_expectations(tmp_path):
    """Every ```yaml block of docs/scenarios.md that is a whole scenario (has duration_s) runs and passes."""
    from acres_dbw_sim.scenario import run_scenario
    text = (ROOT / "docs" / "scenarios.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]
    whole = [b for b in blocks if "\nduration_s:" in "\n" + b]
    assert len(whole) >= 10
    np.save(tmp_path / "ramp.npy", np.add.outer(np.zeros(9), np.linspace(0.0, 1.0, 41)))
    for i, b in enumerate(whole):
        p = tmp_path / f"doc{i}.yaml"
        p.write_text(b)
        try:
            res = run_scenario(load_scenario(p))
        except ScenarioError as exc:  # pragma: no cover - the message is the point
            pytest.fail(f"docs/scenarios.md example {i}: {exc}\n{b}")
        assert res.passed, (i, res.expect)


@pytest.mark.parametrize("with_overrides", [False, True])
def test_a_fault_of_the_parameter_file_is_the_files_not_the_overrides(tmp_path, with_overrides):
    """A value the loader refuses in the parameter file is reported at ``vehicle.parameters`` with the file's
    line, whether or not the scenario also has overrides; an entry that lost its ``value`` is named by its key."""
    import json
    tree = json.loads((ROOT / "config" / "polaris.json").read_text())
    tree["engine"]["idle_rpm"]["value"] = -5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tree, indent=1))
    extra = "\n  overrides: {brakes.front_nm_per_bar: 25}" if with_overrides else ""
    sc = write(tmp_path, f"duration_s: 1\nvehicle:\n  parameters: {bad}{extra}\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(sc)
    assert exc.value.key == "vehicle.parameters" and exc.value.line == 3
    assert f"{bad}:" in exc.value.reason and "'engine.idle_rpm': out of range" in exc.value.reason
    del tree["engine"]["idle_rpm"]["value"]
    bad.write_text(json.dumps(tree, indent=1))
    with pytest.raises(ScenarioError, match=r"parameter 'engine.idle_rpm': a parameter without its 'value' field"):
        load_scenario(sc)
