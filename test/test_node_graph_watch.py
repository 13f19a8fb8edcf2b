"""The node's graph watch (once a second): a second publisher on a command topic, or a second DBW node on
the namespace, is warned about in the log, naming the publishers, and shown on /diagnostics."""
from __future__ import annotations

from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from ds_dbw_msgs.msg import SteeringCmd
from rclpy.executors import SingleThreadedExecutor

from helpers.dds import matched, wait_for
from msg_adapters.diagnostics import PUBLISHERS_STATUS_NAME

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def _status(diags: list) -> DiagnosticStatus | None:
    for arr in reversed(diags):
        for st in arr.status:
            if st.name == PUBLISHERS_STATUS_NAME:
                return st
    return None


def test_two_publishers_on_a_command_topic_are_named_in_the_log_and_on_diagnostics(ros_process):
    proc = ros_process([str(NODE_EXE)], name="sim")
    rclpy.init()
    a, b = rclpy.create_node("stack_a"), rclpy.create_node("stack_b")
    try:
        diags: list = []
        diag = a.create_subscription(DiagnosticArray, "/diagnostics", diags.append, 10)
        pub_a = a.create_publisher(SteeringCmd, "/vehicle/steering/cmd", 1)
        matched(a, proc, publishers=[pub_a], subscriptions=[diag])
        assert wait_for(lambda: _status(diags) is not None and _status(diags).level == DiagnosticStatus.OK, 5.0,
                        spin=lambda: rclpy.spin_once(a, timeout_sec=0.05)), diags[-1:]
        pub_b = b.create_publisher(SteeringCmd, "/vehicle/steering/cmd", 1)
        ex = SingleThreadedExecutor()
        ex.add_node(a)
        ex.add_node(b)
        assert wait_for(lambda: "2 publishers on /vehicle/steering/cmd (/stack_a, /stack_b)" in proc.output(), 10.0,
                        spin=lambda: ex.spin_once(timeout_sec=0.05)), proc.output()
        assert wait_for(lambda: _status(diags).level == DiagnosticStatus.WARN, 5.0,
                        spin=lambda: ex.spin_once(timeout_sec=0.05))
        values = {kv.key: kv.value for kv in _status(diags).values}
        assert values == {"/vehicle/steering/cmd": "/stack_a, /stack_b"}
        b.destroy_publisher(pub_b)
        assert wait_for(lambda: "/vehicle/steering/cmd has a single publisher again" in proc.output(), 10.0,
                        spin=lambda: ex.spin_once(timeout_sec=0.05)), proc.output()
        ex.shutdown()
    finally:
        a.destroy_node()
        b.destroy_node()
        rclpy.try_shutdown()


def test_a_second_dbw_node_on_the_namespace_is_warned_about_by_both(ros_process):
    first = ros_process([str(NODE_EXE)], name="first")
    second = ros_process([str(NODE_EXE)], name="second")
    for p in (first, second):
        assert wait_for(lambda: "2 publishers on /vehicle/dbw_enabled" in p.output() or not p.alive(), 60.0), \
            p.output()
        assert "another DBW node on this namespace" in p.output()
