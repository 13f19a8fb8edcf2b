"""Example: an integration test of YOUR stack against the simulator, with launch_testing.

Copy this file into your package's ``test/`` and replace ``client`` below by your
nodes. Run it with ``launch_test test/test_example_launch_testing.py`` (or
``colcon test``, or plain ``pytest``: launch_testing's pytest plugin runs files
that define ``generate_test_description``). It needs a full ROS 2 installation
(launch_testing, launch_ros); without one this file is skipped.

What it shows:

* starting the simulator by package name (``sim.launch.py``) in ``sim`` mode, so
  the test is independent of the machine's speed (``use_sim_time`` for your nodes);
* the stack under test, here a one-line client that engages the DBW and asks the
  ULC for 2 m/s;
* an active test that waits for a condition on a topic (the vehicle moves), and
  a post-shutdown test that checks every process exited cleanly.
"""

from __future__ import annotations

import time
import unittest

import pytest

launch_testing = pytest.importorskip("launch_testing", reason="launch_testing is not installed")
pytest.importorskip("launch_ros", reason="launch_ros is not installed")

import launch  # noqa: E402
import launch_ros.actions  # noqa: E402
import launch_testing.actions  # noqa: E402
import launch_testing.asserts  # noqa: E402
import rclpy  # noqa: E402
from ament_index_python.packages import get_package_share_directory  # noqa: E402
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402

# The stack under test: engage, then ULC 2 m/s in D (a stand-in for your nodes).
CLIENT = """
import rclpy, ds_dbw_msgs.msg as m
from rclpy.executors import ExternalShutdownException
from std_msgs.msg import Empty
rclpy.init(); n = rclpy.create_node('client', parameter_overrides=[
    rclpy.parameter.Parameter('use_sim_time', value=True)])
en = n.create_publisher(Empty, '/vehicle/enable', 10)
gear = n.create_publisher(m.GearCmd, '/vehicle/gear/cmd', 1)
ulc = n.create_publisher(m.UlcCmd, '/vehicle/ulc/cmd', 1)
def tick():
    en.publish(Empty())
    g = m.GearCmd(); g.cmd.value = m.Gear.DRIVE; gear.publish(g)
    ulc.publish(m.UlcCmd(cmd_type=m.UlcCmd.CMD_VELOCITY, cmd=2.0, enable=True, enable_shift=True))
n.create_timer(0.02, tick)
try:
    rclpy.spin(n)
except (KeyboardInterrupt, ExternalShutdownException):
    pass   # launch ends the client with SIGINT at shutdown: leave quietly, exit 0
finally:
    n.destroy_node(); rclpy.try_shutdown()
"""


@pytest.mark.launch_test   # launch_testing's pytest plugin runs this file as a launch test
def generate_test_description():
    sim = launch.actions.IncludeLaunchDescription(
        PythonLaunchDescriptionSource(
            f"{get_package_share_directory('acres_dbw_sim')}/launch/sim.launch.py"),
        launch_arguments={"time_mode": "sim", "rate_factor": "2", "use_sim_time": "true"}.items())
    client = launch.actions.ExecuteProcess(cmd=["python3", "-c", CLIENT], output="screen")
    return launch.LaunchDescription([sim, client, launch_testing.actions.ReadyToTest()]), {"client": client}


class TestVehicleMoves(unittest.TestCase):
    def test_vehicle_reaches_the_ulc_speed(self):
        rclpy.init()
        node = rclpy.create_node("probe")
        try:
            speeds = []
            node.create_subscription(Odometry, "/vehicle/odom",
                                     lambda m: speeds.append(m.twist.twist.linear.x), 10)
            end = time.monotonic() + 60.0
            while time.monotonic() < end and not (speeds and speeds[-1] > 1.8):
                rclpy.spin_once(node, timeout_sec=0.1)
            self.assertTrue(speeds and speeds[-1] > 1.8, f"last speeds {speeds[-5:]}")
        finally:
            node.destroy_node()
            rclpy.try_shutdown()


@launch_testing.post_shutdown_test()
class TestCleanExit(unittest.TestCase):
    def test_exit_codes(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info, allowable_exit_codes=[0, -2, -15])
