"""The node's interface parameters: bad values stop start-up naming the parameter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_prefix

from acres_dbw_sim.node import PARAMETERS

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def test_interface_parameters_and_defaults():
    assert PARAMETERS["interfaces"][0] == ["ds_dbw"]
    assert PARAMETERS["cmd_vel_timeout_s"][0] == 0.5
    assert PARAMETERS["cmd_vel_shift_park"][0] is False


@pytest.mark.parametrize("args, words", [
    (["-p", "interfaces:=[ds_dbw, twist]"], ["'interfaces'", "unknown", "'twist'", "polaris_legacy"]),
    (["-p", "interfaces:=cmd_vel"], ["'interfaces'"]),          # a string, not a list
    (["-p", "interfaces:=[]"], ["'interfaces'", "empty"]),
    (["-p", "interfaces:=[cmd_vel, cmd_vel]"], ["'interfaces'", "more than once"]),
    (["-p", "cmd_vel_timeout_s:=0.0"], ["'cmd_vel_timeout_s'"]),
])
@pytest.mark.dds   # the node's rclpy.init comes before its parameter checks
def test_bad_interface_parameters_stop_startup(args, words):
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    for w in words:
        assert w in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
