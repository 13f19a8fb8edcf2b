"""The planning-simulator stand-in's configuration, without ROS launch: config/autoware_sim.yaml, the
remaps and launch arguments of acres_dbw_sim.autoware_sim, the vehicle_info check, and that
launch/autoware_sim.launch.py declares every argument Autoware passes to the simulator's launch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from acres_dbw_sim import autoware_sim
from acres_dbw_sim.autoware_vehicle_info import write_vehicle_info
from acres_dbw_sim.interface import PARAMETERS as NODE_PARAMETERS
from acres_dbw_sim.vehicles import vehicle_spec

ROOT = Path(__file__).resolve().parents[1]
#: The launch arguments of autoware_simple_planning_simulator's launch file (Autoware 1.8.0 era
#: autoware.universe), and motion_publish_mode, which it reads from its parent launch.
SPS_ARGUMENTS = ("vehicle_info_param_file", "vehicle_characteristics_param_file", "simulator_model_param_file",
                 "acceleration_param_file", "raw_vehicle_cmd_converter_param_path", "csv_accel_brake_map_path",
                 "initial_engage_state", "motion_publish_mode")


def test_the_config_names_node_parameters_and_puts_the_pose_at_autowares_base_link():
    doc = yaml.safe_load(autoware_sim.config_path().read_text())["/**"]["ros__parameters"]
    assert set(doc) <= set(NODE_PARAMETERS), set(doc) - set(NODE_PARAMETERS)
    assert doc["interfaces"] == ["autoware"]
    # the odometry: map -> base_link, base_link the node's base_frame (the rear axle on the ground)
    assert (doc["odom_frame"], doc["base_frame"], doc["frame_id"]) == ("map", "base_link", "base_link")
    assert doc["base_link_frame"] not in ("base_link", "map")   # Dataspeed's mid-wheelbase frame, renamed
    assert doc["autoware_initial_engage"] is False


def test_the_config_file_shows_the_direct_command_with_the_launch_files_remaps():
    text = autoware_sim.config_path().read_text()
    for ours, theirs in autoware_sim.remaps("full_motion"):
        assert f"-r {ours}:={theirs}" in text


@pytest.mark.parametrize("mode, odom", [("full_motion", "/localization/kinematic_state"),
                                        ("pose_only", "/simulation/debug/localization/kinematic_state")])
def test_the_remaps_follow_the_motion_publish_mode(mode, odom):
    got = dict(autoware_sim.remaps(mode))
    assert got == {"odom": odom, "imu/data_raw": "/sensing/imu/imu_data", "/initialpose": "/initialpose3d"}


def test_bad_launch_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="motion_publish_mode"):
        autoware_sim.remaps("full")
    with pytest.raises(ValueError, match="initial_engage_state"):
        autoware_sim.node_parameters("yes please")
    assert autoware_sim.node_parameters("true") == {"autoware_initial_engage": True}
    assert autoware_sim.node_parameters("") == {}


def test_the_launch_file_declares_every_argument_autoware_passes():
    tree = ast.parse((ROOT / "launch" / "autoware_sim.launch.py").read_text())
    declared = {node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "DeclareLaunchArgument" and node.args
                and isinstance(node.args[0], ast.Constant)}
    declared |= set(autoware_sim.UNUSED_ARGUMENTS)   # declared in a loop over the tuple
    assert set(SPS_ARGUMENTS) <= declared, set(SPS_ARGUMENTS) - declared


def test_a_vehicle_info_file_is_checked_against_the_simulated_vehicle(tmp_path):
    params = vehicle_spec("polaris").load_parameters(None, None, None, None)
    ours = tmp_path / "ours.yaml"
    write_vehicle_info(ours, params)
    assert autoware_sim.check_vehicle_info(ours, params) == []
    doc = yaml.safe_load(ours.read_text())
    doc["/**"]["ros__parameters"]["wheel_base"] = 2.79          # Autoware's sample vehicle
    del doc["/**"]["ros__parameters"]["vehicle_height"]
    theirs = tmp_path / "theirs.yaml"
    theirs.write_text(yaml.safe_dump(doc))
    lines = autoware_sim.check_vehicle_info(theirs, params)
    assert len(lines) == 2 and lines[0].startswith("wheel_base: 2.79") and "vehicle_height: missing" in lines[1]
    (tmp_path / "bad.yaml").write_text("just text")
    with pytest.raises(ValueError, match="ros__parameters"):
        autoware_sim.check_vehicle_info(tmp_path / "bad.yaml", params)
