"""Bad input over DDS, one smoke test per interface: the node keeps running, refuses what it must with a
reason, and keeps publishing finite odometry (the property test covers the values: test_bad_input_property)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from dbw_polaris_msgs import msg as legacy
from ds_dbw_msgs import msg as dbw
from geometry_msgs.msg import Twist
from nav_msgs.msg import Odometry
from std_msgs.msg import Empty

from helpers.dds import matched, spin_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
INF = math.inf


def _bad_messages(interface: str) -> list:
    """(topic, message) pairs with infinite, NaN and huge values for each command type of ``interface``."""
    if interface == "ds_dbw":
        return [("steering/cmd", dbw.SteeringCmd(cmd=v, cmd_type=t, cmd_rate=v, cmd_accel=-v, enable=True))
                for t in (1, 2, 3, 4, 13, 14, 15) for v in (INF, -INF, math.nan, 1e30)] + \
               [("brake/cmd", dbw.BrakeCmd(cmd=v, cmd_type=t, rate_inc=v, rate_dec=v, enable=True))
                for t in (1, 2, 8, 13, 14) for v in (INF, -INF, math.nan)] + \
               [("throttle/cmd", dbw.ThrottleCmd(cmd=v, cmd_type=t, enable=True)) for t in (13, 14)
                for v in (INF, -INF, math.nan)] + \
               [("ulc/cmd", dbw.UlcCmd(cmd=v, cmd_type=t, limit_accel=v, limit_decel=v, enable=True))
                for t in (1, 2) for v in (INF, -INF, math.nan)]
    if interface == "polaris_legacy":
        return [("throttle_cmd", legacy.ThrottleCmd(pedal_cmd=v, pedal_cmd_type=t, enable=True)) for t in (1, 2)
                for v in (INF, -INF, math.nan)] + \
               [("brake_cmd", legacy.BrakeCmd(pedal_cmd=v, pedal_cmd_type=t, enable=True)) for t in (2, 3, 4)
                for v in (INF, -INF, math.nan)] + \
               [("steering_cmd", legacy.SteeringCmd(steering_wheel_angle_cmd=v, steering_wheel_torque_cmd=v,
                                                   steering_wheel_angle_velocity=v, cmd_type=t, calibrate=cal,
                                                   enable=True))
                for t in (0, 1) for cal in (False, True) for v in (INF, -INF, math.nan)]
    return [("cmd_vel", Twist()) for _ in range(1)] + [
        ("cmd_vel", _twist(a, b)) for a, b in ((INF, 0.0), (0.0, -INF), (math.nan, 0.1), (1e30, 1e30))]


def _twist(vx: float, wz: float) -> Twist:
    t = Twist()
    t.linear.x, t.angular.z = vx, wz
    return t


@pytest.mark.parametrize("interface", ["ds_dbw", "polaris_legacy", "cmd_vel"])
def test_bad_values_on_every_command_type_leave_the_node_running(ros_process, interface):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", f"interfaces:=[{interface}]",
                        "-p", "initial_gear:=D"], name=interface)
    rclpy.init()
    node = rclpy.create_node("bad_input_client")
    try:
        odoms: list = []
        odom = node.create_subscription(Odometry, "/vehicle/odom", odoms.append, 50)
        msgs = _bad_messages(interface)
        pubs = {t: node.create_publisher(type(m), f"/vehicle/{t}", 10) for t, m in msgs}
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        matched(node, proc, publishers=[enable, *pubs.values()], subscriptions=[odom])
        enable.publish(Empty())
        for topic, msg in msgs:
            pubs[topic].publish(msg)
            spin_for(node, 0.01)
        odoms.clear()
        spin_for(node, 1.0)
        assert proc.alive(), proc.output()
        assert "Traceback" not in proc.output(), proc.output()
        assert len(odoms) > 60, len(odoms)   # still publishing at 120 Hz
        for o in odoms:
            p, t = o.pose.pose.position, o.twist.twist.linear
            assert all(math.isfinite(x) for x in (p.x, p.y, p.z, t.x, t.y, t.z))
        if interface != "cmd_vel":
            assert "refused" in proc.output(), proc.output()   # the offset beyond the lock (inf calibrations)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
