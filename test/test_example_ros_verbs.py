"""examples/ros.py, the venv's stand-in for the everyday ``ros2`` verbs, against a running node over DDS:
topics with types and QoS, a parameter read, set and refused, a service call, and the dump that starts a
node again with ``--params-file`` (what ``ros2 param dump`` is for)."""
from __future__ import annotations

from pathlib import Path

import pytest
import rclpy
import yaml
from ament_index_python.packages import get_package_prefix
from nav_msgs.msg import Odometry

from helpers.dds import matched, wait_for

pytestmark = pytest.mark.dds

ROOT = Path(__file__).resolve().parents[1]
NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
VERBS = ROOT / "examples" / "ros.py"


@pytest.fixture
def probe():
    rclpy.init()
    node = rclpy.create_node("verbs_probe")
    yield node
    node.destroy_node()
    rclpy.try_shutdown()


def test_the_everyday_verbs_on_a_running_node(ros_process, probe, tmp_path):
    node = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=sim", "-p", "step_hz:=100"],
                       name="sim_node")
    matched(probe, node, subscriptions=[probe.create_subscription(Odometry, "/vehicle/odom", lambda m: None, 1)])

    def verb(*args: str) -> tuple:
        p = ros_process([str(VERBS), *args], name="verb")
        assert wait_for(lambda: not p.alive(), 60.0), p.output()
        return p.proc.poll(), p.output()

    rc, out = verb("topic", "list", "-t")
    assert rc == 0 and "/vehicle/odom [nav_msgs/msg/Odometry]" in out, out
    rc, out = verb("topic", "info", "/vehicle/steering/report", "-v")
    assert rc == 0 and "Type: ds_dbw_msgs/msg/SteeringReport" in out and "Reliability: RELIABLE" in out, out
    rc, out = verb("param", "get", "/vehicle/dbw_node", "step_hz")
    assert rc == 0 and "Double value is: 100.0" in out, out
    rc, out = verb("param", "set", "/vehicle/dbw_node", "rate_factor", "2.0")
    assert rc == 0 and "Set parameter successful" in out, out
    rc, out = verb("param", "set", "/vehicle/dbw_node", "step_hz", "500.0")
    assert rc == 1 and "Setting parameter failed" in out and "read-only" in out, out
    rc, out = verb("param", "describe", "/vehicle/dbw_node", "step_hz")
    assert rc == 0 and "physics rate [Hz]" in out and "Read only: true" in out, out
    rc, out = verb("service", "call", "/vehicle/dbw_node/reset", "std_srvs/srv/Trigger")
    assert rc == 0 and "success: true" in out, out

    # the dump, given back with --params-file, starts a node with the same parameters
    rc, out = verb("param", "dump", "/vehicle/dbw_node")
    assert rc == 0, out
    dump = yaml.safe_load(out[out.index("/vehicle/dbw_node:"):])
    params = dump["/vehicle/dbw_node"]["ros__parameters"]
    assert params["step_hz"] == 100.0 and params["rate_factor"] == 2.0 and "vehicles" not in params
    (tmp_path / "dump.yaml").write_text(yaml.safe_dump({"/again/dbw_node": {"ros__parameters": params}}))
    again = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/again", "--params-file",
                         str(tmp_path / "dump.yaml")], name="again")
    matched(probe, again, subscriptions=[probe.create_subscription(Odometry, "/again/odom", lambda m: None, 1)])
    rc, out = verb("param", "get", "/again/dbw_node", "step_hz")
    assert rc == 0 and "Double value is: 100.0" in out, (out, again.output())
