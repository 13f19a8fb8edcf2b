"""The node in place of Autoware's planning simulator, over real DDS: started as the launch file starts it
(config/autoware_sim.yaml, the remaps of acres_dbw_sim.autoware_sim, ``initial_engage_state`` true), in
``sim`` time at twice real time. A client that speaks only Autoware's topics checks what the
planning simulator provides (docs/autoware.md, "In place of the planning simulator"):

- AUTONOMOUS from the start, no request;
- ``/localization/kinematic_state`` in ``map`` with child ``base_link`` at the rear axle's centre: in
  a steady turn (``Control`` 3 m/s, 0.2 rad, Turf) its lateral velocity is zero, where the
  mid-wheelbase point would slide at ``r L / 2``, and ``/tf`` carries the same pose;
- ``/localization/acceleration`` in ``base_link``: the centripetal ``v r`` sideways;
- ``/sensing/imu/imu_data`` in ``base_link``;
- ``/initialpose3d`` puts the vehicle at the pose given, in PARK, and keeps Autoware's mode: the DBW
  engages again, Autoware's DRIVE goes out at once and the vehicle drives off without the overshoot of
  a speed controller that wound up in PARK.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from geometry_msgs.msg import AccelWithCovarianceStamped, PoseWithCovarianceStamped
from sensor_msgs.msg import Imu
from tf2_msgs.msg import TFMessage

from acres_dbw_sim import autoware_sim
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from helpers.dds import wait_for
from helpers.stream_client import StreamClient

pytestmark = pytest.mark.dds
aw_ctrl = pytest.importorskip("autoware_control_msgs.msg")
aw_veh = pytest.importorskip("autoware_vehicle_msgs.msg")

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


@pytest.mark.slow
def test_the_node_provides_what_the_planning_simulator_provides(ros_process):
    argv = [str(NODE_EXE), "--ros-args", "--params-file", str(autoware_sim.config_path()),
            "-p", "time_mode:=sim", "-p", "rate_factor:=2.0",
            *(a for k, v in autoware_sim.node_parameters("true").items() for a in ("-p", f"{k}:={str(v).lower()}"))]
    for ours, theirs in autoware_sim.remaps("full_motion"):
        argv += ["-r", f"{ours}:={theirs}"]
    proc = ros_process(argv, name="sim_node")
    rclpy.init()
    c = StreamClient("autoware_localization_client", odom_topic="/localization/kinematic_state", dbw_enabled=False)
    kept = {"accel": [], "imu": [], "tf": [], "mode": [], "gear": []}
    n = c.node
    c.subs += [n.create_subscription(AccelWithCovarianceStamped, "/localization/acceleration", kept["accel"].append, 5),
               n.create_subscription(Imu, "/sensing/imu/imu_data", kept["imu"].append, 5),
               n.create_subscription(TFMessage, "/tf", kept["tf"].append, 5),
               n.create_subscription(aw_veh.ControlModeReport, "/vehicle/status/control_mode", kept["mode"].append, 5),
               n.create_subscription(aw_veh.GearReport, "/vehicle/status/gear_status", kept["gear"].append, 5)]
    gear = c.publisher(aw_veh.GearCommand, "/control/command/gear_cmd", 1)
    control = c.publisher(aw_ctrl.Control, "/control/command/control_cmd", 1)
    initialpose = c.node.create_publisher(PoseWithCovarianceStamped, "/initialpose3d", 1)
    c.pubs.append(initialpose)
    try:
        c.start(proc)
        assert kept["mode"][-1].mode == aw_veh.ControlModeReport.AUTONOMOUS, "initial_engage_state true"
        c.streams[gear] = aw_veh.GearCommand(command=aw_veh.GearCommand.DRIVE)
        cmd = aw_ctrl.Control()
        cmd.longitudinal.velocity, cmd.lateral.steering_tire_angle = 3.0, 0.2
        c.streams[control] = cmd
        t0 = c.now()
        assert wait_for(lambda: c.now() > t0 + 12.0, 60.0), "12 s of simulated driving"
        odom = c.last_odom
        assert (odom.header.frame_id, odom.child_frame_id) == ("map", "base_link")
        late = c.track(c.now() - 2.0, c.now())
        r, v = late[:, 4].mean(), late[:, 3].mean()
        wheelbase = load_parameters().geometry.wheelbase_m
        assert v == pytest.approx(3.0, abs=0.1) and r == pytest.approx(3.0 * math.tan(0.2) / wheelbase, rel=0.05)
        # the pose point is the rear axle's centre: no sideways slide there in a steady low-speed turn,
        # where the mid-wheelbase point slides at r L / 2 (0.30 m/s)
        assert abs(odom.twist.twist.linear.y) < 0.1 * r * wheelbase / 2, odom.twist.twist.linear
        heading = [math.atan2(b[2] - a[2], b[1] - a[1]) for a, b in zip(late[:-10:10], late[10::10])]
        q = odom.pose.pose.orientation
        yaw = math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
        assert abs(math.remainder(heading[-1] - yaw, math.tau)) < 0.05   # the point moves along the heading
        tf = [t for m in kept["tf"] for t in m.transforms if t.child_frame_id == "base_link"]
        assert tf and tf[-1].header.frame_id == "map"
        accel = kept["accel"][-1]
        assert accel.header.frame_id == "base_link"
        assert accel.accel.accel.linear.y == pytest.approx(v * r, rel=0.1)
        assert abs(accel.accel.accel.linear.x) < 0.2
        assert kept["imu"][-1].header.frame_id == "base_link"

        # /initialpose3d: at rest at the pose given, in the map frame, Autoware's mode kept
        pose = PoseWithCovarianceStamped()
        pose.header.frame_id = "map"
        pose.pose.pose.position.x, pose.pose.pose.position.y = 40.0, -12.0
        pose.pose.pose.orientation.z, pose.pose.pose.orientation.w = math.sin(0.5), math.cos(0.5)   # yaw 1 rad
        initialpose.publish(pose)
        assert wait_for(lambda: np.hypot(c.last_odom.pose.pose.position.x - 40.0,
                                         c.last_odom.pose.pose.position.y + 12.0) < 0.05, 10.0), \
            (c.last_odom.pose.pose.position, proc.output()[-1500:])
        q = c.last_odom.pose.pose.orientation
        assert math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z)) == pytest.approx(1.0, abs=0.01)
        t_reset = c.now()
        assert wait_for(lambda: c.now() > t_reset + 12.0, 60.0), "12 s after the reset"
        assert kept["mode"][-1].mode == aw_veh.ControlModeReport.AUTONOMOUS
        assert kept["gear"][-1].report == aw_veh.GearReport.DRIVE
        after = c.track(t_reset, t_reset + 12.0)
        moving = after[after[:, 3] > 0.5, 0]
        assert moving.size and moving[0] < t_reset + 4.0, "DRIVE again and moving within 4 s of the reset"
        assert after[:, 3].max() < 3.0 * 1.04, after[:, 3].max()         # no wound-up overshoot
        assert after[-1, 3] == pytest.approx(3.0, abs=0.1)
        assert proc.alive(), proc.output()
    finally:
        c.close()
        rclpy.try_shutdown()
