"""The node with ``model:=kinematic``: same topics over DDS, odometry from the kinematic level,
NaN (the DBW's "invalid") in the report fields it has no quantity for; a bad value stops start-up."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
import ds_dbw_msgs.msg as dbw_msgs
from nav_msgs.msg import Odometry
from std_msgs.msg import Empty

from helpers.dds import matched, wait_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def test_bad_model_stops_startup_naming_it():
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", "-p", "model:=hover"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "model" in proc.stderr and "Traceback" not in proc.stderr


def test_kinematic_node_drives_with_the_same_interface(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "model:=kinematic", "-p", "time_mode:=sim",
                        "-p", "rate_factor:=4.0", "-p", "initial_gear:=H"], name="sim_node_kin")
    rclpy.init()
    node = rclpy.create_node("kinematic_client")
    try:
        odoms, infos = [], []
        odom_sub = node.create_subscription(Odometry, "/vehicle/odom", odoms.append, 100)
        info_sub = node.create_subscription(dbw_msgs.ThrottleInfo, "/vehicle/throttle/info", infos.append, 10)
        enable = node.create_publisher(Empty, "/vehicle/enable", 1)
        ulc = node.create_publisher(dbw_msgs.UlcCmd, "/vehicle/ulc/cmd", 1)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        matched(node, proc, publishers=[enable, ulc], subscriptions=[odom_sub, info_sub])
        cmd = dbw_msgs.UlcCmd(cmd=3.0, cmd_type=dbw_msgs.UlcCmd.CMD_VELOCITY, enable=True)
        enable.publish(Empty())

        def driving():
            ulc.publish(cmd)
            return odoms[-1].twist.twist.linear.x > 2.5
        assert wait_for(driving, 60.0, spin=spin), proc.output()
        o = odoms[-1]
        assert o.pose.pose.position.x > 1.0 and all(map(math.isfinite, (o.pose.pose.position.x,
                                                                         o.pose.pose.orientation.w)))
        assert math.isnan(infos[-1].engine_rpm)          # not modelled at this level
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
