"""--help and -h of the ROS programs print their usage and start nothing (no DDS participant: this test
runs without the dds marker, in a domain where none can exist)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_prefix

from acres_dbw_sim.interface import PARAMETERS
from acres_dbw_sim.usage import stray_arguments, wants_help

LIB = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim"


@pytest.mark.parametrize("exe", ["sim_node", "demo_driver"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_the_usage_and_starts_nothing(exe, flag):
    proc = subprocess.run([sys.executable, str(LIB / exe), flag], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"usage: {exe} [--ros-args") and "acres-scenario" in proc.stdout
    assert proc.stderr == "" and "simulating" not in proc.stdout
    if exe == "sim_node":
        assert all(f"  {name} " in proc.stdout for name in PARAMETERS)


def test_help_into_a_closed_pipe_is_quiet():
    out = subprocess.run(f"{sys.executable} {LIB / 'sim_node'} --help | head -1", shell=True, capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.startswith("usage: sim_node") and "Traceback" not in out.stderr, out.stderr


@pytest.mark.parametrize("argv, asked", [
    (["sim_node", "--help"], True), (["sim_node", "-h"], True), (["sim_node"], False),
    (["sim_node", "--ros-args", "-p", "x:=1"], False), (["sim_node", "--ros-args", "--help"], False),
    (["sim_node", "-h", "--ros-args", "-p", "x:=1"], True),
])
def test_only_the_programs_own_arguments_ask_for_help(argv, asked):
    assert wants_help(argv) is asked


@pytest.mark.parametrize("argv, stray", [
    (["sim_node"], []), (["sim_node", "--ros-args", "-p", "x:=1"], []), (["sim_node", "--help"], []),
    (["sim_node", "-p", "time_mode:=sim"], ["-p", "time_mode:=sim"]),
    (["sim_node", "time_mode:=sim", "--ros-args", "-p", "x:=1"], ["time_mode:=sim"]),
])
def test_arguments_before_ros_args_are_stray(argv, stray):
    assert stray_arguments(argv) == stray


def test_node_parameters_without_ros_args_stop_the_node_with_a_reason():
    """``sim_node -p time_mode:=sim`` (``--ros-args`` forgotten): exit 2 and say where parameters go, instead of
    running in real time with ROS's remap warning; nothing is started."""
    proc = subprocess.run([sys.executable, str(LIB / "sim_node"), "-p", "time_mode:=sim"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "simulating" not in proc.stdout
    assert "unexpected argument(s) '-p time_mode:=sim': node parameters go after --ros-args" in proc.stderr
