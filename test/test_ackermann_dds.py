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


@pytest.mark.slow
def test_the_ackermann_example_client_drives_the_arc_and_stops(ros_process):
    """examples/ackermann_drive.py, started as a user would beside a node in sim time, ends with status 0."""
    ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[ds_dbw, ackermann]", "-p", "initial_gear:=H",
                 "-p", "drive_mode:=Turf", "-p", "time_mode:=sim", "-p", "rate_factor:=4.0"], name="sim_node")
    root = Path(__file__).resolve().parents[1]
    client = ros_process([str(root / "examples" / "ackermann_drive.py"), "--ros-args", "-p", "use_sim_time:=true"],
                         name="ackermann_drive")
    wait_for(lambda: not client.alive(), 120.0)
    out = client.output()
    assert client.proc.poll() == 0, out
    line = next(ln for ln in out.splitlines() if "drive done" in ln)
    speed = float(line.split("speed ")[1].split(" m/s")[0])
    yaw_rate = float(line.split("yaw rate ")[1].split(" rad/s")[0])
    bicycle = 2.0 * math.tan(0.3) / load_parameters().geometry.wheelbase_m
    assert abs(speed - 2.0) < 0.1 and abs(yaw_rate / bicycle - 1.0) < 0.05, line
    assert out.find("drive done") < out.find("stop done")
