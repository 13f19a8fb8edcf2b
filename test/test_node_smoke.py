"""The node starts the way ``ros2 run acres_dbw_sim sim_node`` starts it and comes
up on /vehicle with the real driver's dbw_enabled QoS (dbw-interface.md §1.2, §1.4)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix, get_package_share_directory
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import Bool

from helpers.dds import matched, publishers_info, wait_for, wait_for_graph

pytestmark = pytest.mark.dds


def test_package_is_in_the_ament_index():
    prefix = Path(get_package_prefix("acres_dbw_sim"))
    share = Path(get_package_share_directory("acres_dbw_sim"))
    assert (share / "package.xml").is_file()
    assert os.access(prefix / "lib" / "acres_dbw_sim" / "sim_node", os.X_OK)


def test_node_publishes_dbw_enabled_on_vehicle(ros_process):
    exe = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
    proc = ros_process([str(exe)], name="sim_node")
    rclpy.init()
    node = rclpy.create_node("smoke_test")
    try:
        got = []
        qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.VOLATILE)
        sub = node.create_subscription(Bool, "/vehicle/dbw_enabled", got.append, qos)
        matched(node, proc, subscriptions=[sub])
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.05)  # noqa: E731
        ok = wait_for(lambda: len(got) >= 3, 10.0, spin=spin)
        assert ok, f"no /vehicle/dbw_enabled; node output:\n{proc.output()}"
        assert got[0].data is False
        # one start line names what runs and where (vehicle, level, time, interfaces, namespace, domain)
        assert (f"simulating a Polaris Ranger at 120 Hz, time_mode=realtime, reports=mission, interfaces=ds_dbw, "
                f"namespace=/vehicle, ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}") in proc.output()
        # without config/sim.yaml no status line follows: the start line says how to get one
        assert "running, no live status line (-p status_period_s:=1.0 prints one)" in proc.output()
        # The node's name reaches the graph in its own discovery message, which may come after
        # the first samples (shown as _NODE_NAME_UNKNOWN_ until then).
        def names():
            return [(i.node_name, i.node_namespace) for i in publishers_info(node, "/vehicle/dbw_enabled")]
        wait_for_graph(node, lambda: "_NODE_NAME_UNKNOWN_" not in str(names()), 10.0,
                       what="the name of /vehicle/dbw_enabled's publisher", proc=proc)
        assert names() == [("dbw_node", "/vehicle")]
        infos = publishers_info(node, "/vehicle/dbw_enabled")
        assert infos[0].qos_profile.durability == DurabilityPolicy.VOLATILE
        assert infos[0].qos_profile.reliability == ReliabilityPolicy.RELIABLE
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
