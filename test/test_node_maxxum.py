"""The node serving the Maxxum 150 (``vehicle:=maxxum150``) over real DDS: the same topics, types and QoS,
and a 2-minute drive through the DBW (engage, ``GearCmd`` MANUAL gear 8, throttle, a turn, stop, park)."""

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
from std_msgs.msg import Empty, String

from acres_dbw_sim.node import COMMAND_TOPICS
from helpers.dds import call_service, matched, spin_for, wait_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
RATE = 2.0   # simulated seconds per wall second (commands every 20 ms of wall time: 40 ms simulated)


@pytest.mark.slow
def test_tractor_dbw_drive_over_dds(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicle:=maxxum150", "-p", "surface:=concrete",
                        "-p", "time_mode:=sim",
                        "-p", f"rate_factor:={RATE}",
                        "-p", "publish_description:=true", "-p", "report_rates:=vehicle"],
                       name="tractor")
    rclpy.init()
    node = rclpy.create_node("tractor_driver")
    try:
        odoms: list[Odometry] = []
        gears: list = []
        desc: list[String] = []
        from rclpy.qos import DurabilityPolicy, QoSProfile
        subs = [node.create_subscription(Odometry, "/vehicle/odom", odoms.append, 10),
                node.create_subscription(dbw_msgs.GearReport, "/vehicle/gear/report", gears.append, 10),
                node.create_subscription(String, "/vehicle/robot_description", desc.append,
                                         QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))]
        pubs = {t: node.create_publisher(getattr(dbw_msgs, ty), f"/vehicle/{t}", d) for t, ty, d in COMMAND_TOPICS}
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        sent_on = [enable, *(pubs[t] for t in ("throttle/cmd", "brake/cmd", "steering/cmd", "gear/cmd"))]
        matched(node, proc, publishers=sent_on, subscriptions=subs)
        assert desc and 'robot name="case_ih_maxxum_150"' in desc[-1].data
        t0 = odoms[-1].header.stamp.sec + 1e-9 * odoms[-1].header.stamp.nanosec

        def sim_t() -> float:
            s = odoms[-1].header.stamp
            return s.sec + 1e-9 * s.nanosec - t0

        seen = {}

        def drive(until_s, throttle=0.0, brake=0.0, steer_deg=0.0, gear=None, manual=0):
            """Commands every 20 ms of wall time (40 ms simulated: a loaded machine has 60 ms of margin before
            the DBW's 100 ms command timeout)."""
            if gear is not None:
                pubs["gear/cmd"].publish(dbw_msgs.GearCmd(cmd=dbw_msgs.Gear(value=gear),
                                                          cmd_manual=dbw_msgs.GearManual(value=manual)))
            while sim_t() < until_s:
                pubs["throttle/cmd"].publish(dbw_msgs.ThrottleCmd(cmd=throttle, cmd_type=14, enable=True))
                pubs["brake/cmd"].publish(dbw_msgs.BrakeCmd(cmd=brake, cmd_type=14, enable=True))
                pubs["steering/cmd"].publish(dbw_msgs.SteeringCmd(cmd=steer_deg, cmd_type=2, enable=True))
                spin_for(node, 0.02)
                assert proc.alive(), proc.output()

        enable.publish(Empty())
        drive(4.0, brake=100.0)
        drive(6.0, brake=100.0, gear=dbw_msgs.Gear.MANUAL, manual=8)     # DRIVE in powershift gear 8
        assert gears[-1].gear.value == dbw_msgs.Gear.DRIVE
        assert gears[-1].gear_manual.value == 8 and gears[-1].support_cmd_manual
        drive(14.0, throttle=60.0)        # the governor's speed in gear 8 is reached within about 2 s
        seen["straight"] = odoms[-1].twist.twist
        drive(24.0, throttle=60.0, steer_deg=300.0)
        seen["turn"] = odoms[-1].twist.twist
        drive(30.0, brake=100.0)
        seen["stopped"] = odoms[-1].twist.twist
        drive(36.0, brake=100.0, gear=dbw_msgs.Gear.PARK)
        # gear 8 at a command of 0.6: the governor's speed through the gear, about 1.8 m/s
        assert 1.2 < seen["straight"].linear.x < 2.5
        assert abs(seen["straight"].angular.z) < 0.01
        assert seen["turn"].angular.z > 0.15                        # 300 deg at the wheel: a left turn
        assert abs(seen["stopped"].linear.x) < 0.05
        assert gears[-1].gear.value == dbw_msgs.Gear.PARK
        assert all(math.isfinite(o.pose.pose.position.x) for o in odoms)
        stamps = [o.header.stamp.sec + 1e-9 * o.header.stamp.nanosec for o in odoms]
        assert all(b >= a for a, b in zip(stamps, stamps[1:]))
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def test_tractor_takes_the_shipped_params_file_and_refuses_the_rangers_parameters(ros_process):
    # config/sim.yaml lists occupants and cargo_kg at their defaults: that is no request, the tractor starts
    share = Path(get_package_prefix("acres_dbw_sim")) / "share" / "acres_dbw_sim" / "config" / "sim.yaml"
    node = ros_process([str(NODE_EXE), "--ros-args", "--params-file", str(share), "-p", "vehicle:=maxxum150"],
                       name="tractor_yaml")
    assert wait_for(lambda: "simulating a Case IH Maxxum 150" in node.output() or not node.alive(), 60.0), \
        node.output()
    assert node.alive(), node.output()
    node.stop()
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", "-p", "vehicle:=maxxum150",
                           "-p", "occupants:=3"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "occupants" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", "-p", "vehicle:=combine"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "vehicle" in proc.stderr and "maxxum150" in proc.stderr


def test_tractor_pto_and_hand_throttle_parameters(ros_process):
    """No DBW field carries the PTO or the hand throttle: node parameters do, at start-up and at run time."""
    from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
    from rcl_interfaces.srv import SetParameters

    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicle:=maxxum150", "-p", "time_mode:=sim",
                        "-p", "rate_factor:=2.0", "-p", "pto_rpm:=540", "-p", "report_rates:=vehicle"],
                       name="tractor_pto")
    rclpy.init()
    node = rclpy.create_node("pto_client")
    try:
        info: list = []
        sub = node.create_subscription(dbw_msgs.ThrottleInfo, "/vehicle/throttle/info", info.append, 10)
        setp = node.create_client(SetParameters, "/vehicle/dbw_node/set_parameters")
        matched(node, proc, subscriptions=[sub], clients=[setp])
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.05)  # noqa: E731
        # PARK, hand throttle 0.81 for the 540 PTO: the governor holds about its rated speed, 1969 + droop / 2
        assert wait_for(lambda: info and info[-1].engine_rpm > 1900.0, 30.0, spin=spin), proc.output()
        assert info[-1].engine_rpm < 2150.0

        def set_(name, kind, **value):
            return call_service(node, setp, SetParameters.Request(parameters=[Parameter(
                name=name, value=ParameterValue(type=kind, **value))])).results[0]

        assert not set_("pto_rpm", ParameterType.PARAMETER_INTEGER, integer_value=750).successful
        assert set_("pto_rpm", ParameterType.PARAMETER_INTEGER, integer_value=0).successful
        assert set_("hand_throttle", ParameterType.PARAMETER_DOUBLE, double_value=0.0).successful
        n = len(info)
        assert wait_for(lambda: len(info) > n + 50 and info[-1].engine_rpm < 900.0, 30.0, spin=spin), \
            info[-1].engine_rpm                                    # back to idle
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def test_the_ranger_refuses_the_tractors_parameters():
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", "-p", "pto_rpm:=540"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "pto_rpm" in proc.stderr and "maxxum150" in proc.stderr
