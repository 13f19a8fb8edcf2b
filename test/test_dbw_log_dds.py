"""The node prints the driver's log lines of the DBW core (issue 19, docs/dbw.md, the driver's log):
engaged, the one-time ULC pre-emption warning, a subsystem's command timeout. Over real DDS."""

from __future__ import annotations

from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from ds_dbw_msgs.msg import BrakeCmd, UlcCmd
from std_msgs.msg import Bool, Empty

from helpers.dds import matched, wait_for

pytestmark = pytest.mark.dds


def test_node_logs_engage_preemption_once_and_timeout(ros_process):
    exe = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
    proc = ros_process([str(exe)], name="sim_node")
    rclpy.init()
    node = rclpy.create_node("log_test")
    try:
        # dbw_enabled flowing: the node is up and stepping
        enabled = node.create_subscription(Bool, "/vehicle/dbw_enabled", lambda _m: None, 2)
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        ulc = node.create_publisher(UlcCmd, "/vehicle/ulc/cmd", 1)
        brake = node.create_publisher(BrakeCmd, "/vehicle/brake/cmd", 1)
        matched(node, proc, publishers=[enable, ulc, brake], subscriptions=[enabled])
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        enable.publish(Empty())
        u = UlcCmd(cmd=2.0, enable=True)
        u.cmd_type = UlcCmd.CMD_VELOCITY
        b = BrakeCmd(cmd=5.0, enable=True)
        b.cmd_type = BrakeCmd.CMD_PRESSURE

        def stream():
            ulc.publish(u)
            brake.publish(b)
            for _ in range(2):
                spin()
        assert wait_for(lambda: "pre-empted" in proc.output(), 20.0, spin=stream), proc.output()
        for _ in range(50):  # another second of pre-emption: no second warning
            stream()
        assert wait_for(lambda: "command timeout" in proc.output(), 10.0, spin=spin), proc.output()
        out = proc.output()
        assert "DBW system enabled" in out and out.count("pre-empted") == 1
    finally:
        node.destroy_node()
        rclpy.shutdown()
