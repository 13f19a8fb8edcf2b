"""AckermannDriveStamped over real DDS: speed and bicycle yaw rate tracked, silence -> the stop.

One node process serves ``ds_dbw`` and ``ackermann`` in ``sim`` time at twice real time, in Turf
on asphalt (every time below is simulation time, from the stamps of ``odom``):

1. ``/vehicle/ackermann_cmd`` 2 m/s and 0.3 rad at 20 Hz from rest in H: after 5 s the speed is
   within 0.1 m/s of 2 m/s and the yaw rate within 5 % of the bicycle value ``v tan(delta) / L``;
2. the messages stop: the vehicle is stopped within the timeout and the ULC's stop.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import rclpy
from ackermann_msgs.msg import AckermannDriveStamped
from ament_index_python.packages import get_package_prefix
from std_msgs.msg import Empty

from acres_dbw_sim.vehicles.polaris.params import load_parameters
from helpers.dds import wait_for
from helpers.stream_client import StreamClient

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


@pytest.mark.slow
def test_ackermann_speed_and_yaw_rate_then_the_stop_on_silence(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[ds_dbw, ackermann]",
                        "-p", "initial_gear:=H", "-p", "drive_mode:=Turf", "-p", "time_mode:=sim",
                        "-p", "rate_factor:=2.0"], name="sim_node")
    rclpy.init()
    c = StreamClient("ackermann_client")
    pub = c.publisher(AckermannDriveStamped, "/vehicle/ackermann_cmd")
    try:
        c.start(proc)
        c.pub_enable.publish(Empty())
        assert wait_for(lambda: c.enabled, 5.0), f"dbw_enabled never came\n{proc.output()}"

        t0 = c.now()
        msg = AckermannDriveStamped()
        msg.drive.speed, msg.drive.steering_angle = 2.0, 0.3
        c.streams[pub] = msg
        assert wait_for(lambda: c.now() > t0 + 8.0, 40.0), "8 s of simulated driving"
        late = c.track(t0 + 5.0, t0 + 8.0)
        bicycle = 2.0 * math.tan(0.3) / load_parameters().geometry.wheelbase_m
        print(f"ackermann over DDS: speed {late[:, 3].min():.3f}..{late[:, 3].max():.3f} m/s, yaw rate "
              f"{late[:, 4].mean():.4f} rad/s against {bicycle:.4f}")
        assert np.all(np.abs(late[:, 3] - 2.0) < 0.1)
        assert np.all(np.abs(late[:, 4] / bicycle - 1.0) < 0.05)

        c.streams[pub] = None
        t1 = c.now()
        assert wait_for(lambda: c.now() > t1 + 5.0, 20.0), "5 s without ackermann_cmd"
        stopped = c.track(t1 + 4.0, t1 + 5.0)
        assert np.abs(stopped[:, 3]).max() < 0.02, proc.output()[-2000:]
    finally:
        c.close()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"
