"""The Ranger's URDF (issue 13 item 8): generated from the parameter file, loaded by a
URDF parser from PyPI (urdf-parser-py), joint names as joint_states names them,
wheelbase, tracks and tyre radius as in config/polaris.json."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from acres_dbw_sim import description
from acres_dbw_sim.vehicles.polaris.params import load_parameters

urdf_parser = pytest.importorskip("urdf_parser_py.urdf")

ROOT = Path(__file__).resolve().parents[1]
CONFIG = json.loads((ROOT / "config" / "polaris.json").read_text())


def _robot(params=None):
    return urdf_parser.URDF.from_xml_string(description.urdf(params or load_parameters()))


def _origin(robot, joint: str) -> list[float]:
    return list(robot.joint_map[joint].origin.xyz)


def test_urdf_loads_with_the_joint_states_names():
    from msg_adapters.vehicle_state import JOINT_NAMES

    robot = _robot()
    movable = [j.name for j in robot.joints if j.type != "fixed"]
    assert sorted(movable) == sorted(JOINT_NAMES) == sorted(description.JOINT_NAMES)
    assert tuple(JOINT_NAMES) == description.JOINT_NAMES       # same order as joint_states
    assert robot.get_root() == "base_footprint"
    assert {"base_link", "chassis", "steering_wheel"} <= set(robot.link_map)


def test_dimensions_are_the_parameter_files():
    robot = _robot()
    wheelbase = CONFIG["geometry"]["wheelbase_m"]["value"]
    radius = CONFIG["tyres"]["radius_m"]["value"]
    fl = _origin(robot, "front_left_steer_joint")
    rl, rr = _origin(robot, "rear_left_wheel_joint"), _origin(robot, "rear_right_wheel_joint")
    fr = _origin(robot, "front_right_steer_joint")
    assert fl[0] - rl[0] == pytest.approx(wheelbase, abs=1e-6)
    assert fl[1] - fr[1] == pytest.approx(CONFIG["geometry"]["track_front_m"]["value"], abs=1e-6)
    assert rl[1] - rr[1] == pytest.approx(CONFIG["geometry"]["track_rear_m"]["value"], abs=1e-6)
    for wheel in ("front_left_wheel", "rear_right_wheel"):
        assert robot.link_map[wheel].visual.geometry.radius == pytest.approx(radius, abs=1e-6)
    # base_link at mid-wheelbase, wheel-centre height above base_footprint (rear axle, ground)
    assert _origin(robot, "base_link_joint") == pytest.approx([wheelbase / 2, 0.0, radius])
    assert rl[0] + _origin(robot, "base_link_joint")[0] == pytest.approx(0.0, abs=1e-9)


def test_an_override_changes_the_urdf():
    robot = _robot(load_parameters(overrides="geometry.wheelbase_m=3.1;tyres.radius_m=0.4"))
    assert _origin(robot, "front_left_steer_joint")[0] - _origin(robot, "rear_left_wheel_joint")[0] \
        == pytest.approx(3.1)
    assert robot.link_map["front_left_wheel"].visual.geometry.radius == pytest.approx(0.4)


def test_joint_axes_follow_the_conventions():
    robot = _robot()
    assert list(robot.joint_map["front_left_steer_joint"].axis) == [0, 0, 1]    # + = left
    assert list(robot.joint_map["rear_left_wheel_joint"].axis) == [0, 1, 0]     # + = rolling forward
    limit = robot.joint_map["front_left_steer_joint"].limit
    assert limit.lower == -limit.upper and 0.3 < limit.upper < math.pi / 2


def test_command_line_prints_the_urdf():
    out = subprocess.run([sys.executable, "-m", "acres_dbw_sim.description"], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    assert out == description.urdf(load_parameters())


def test_rviz_config_shows_the_robot_model():
    text = (ROOT / "rviz" / "ranger.rviz").read_text()
    assert "rviz_default_plugins/RobotModel" in text and "/vehicle/robot_description" in text
    assert "Fixed Frame: odom" in text


def test_the_tractors_urdf_has_its_dimensions_and_the_same_joint_names():
    from acres_dbw_sim.vehicles.maxxum150.params import load_maxxum_parameters

    p = load_maxxum_parameters()
    robot = _robot(p)
    assert robot.name == "case_ih_maxxum_150"
    assert sorted(j.name for j in robot.joints if j.type != "fixed") == sorted(description.JOINT_NAMES)
    fl, fr = _origin(robot, "front_left_steer_joint"), _origin(robot, "front_right_steer_joint")
    rl = _origin(robot, "rear_left_wheel_joint")
    assert fl[0] - rl[0] == pytest.approx(p.chassis.wheelbase_m, abs=1e-6)
    assert fl[1] - fr[1] == pytest.approx(p.chassis.track_m, abs=1e-6)
    assert robot.link_map["front_left_wheel"].visual.geometry.radius == pytest.approx(p.tyres.front_radius_m)
    assert robot.link_map["rear_left_wheel"].visual.geometry.radius == pytest.approx(p.tyres.rear_radius_m)
    # both axles' wheel centres at their own radius above the ground
    base = _origin(robot, "base_link_joint")
    assert base[2] + fl[2] == pytest.approx(p.tyres.front_radius_m) and base[2] + rl[2] == pytest.approx(
        p.tyres.rear_radius_m)
    # the knuckles turn to the inner wheel's full lock (47.4 deg)
    assert math.degrees(robot.joint_map["front_left_steer_joint"].limit.upper) == pytest.approx(47.4, abs=0.05)
