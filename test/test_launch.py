"""``launch/sim.launch.py`` with the real launch_ros: it starts the node with its
arguments. launch_ros is not on PyPI; these tests run where it is importable (a
ROS 2 installation) and are skipped otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("launch_ros", reason="launch_ros is not installed (no ROS 2 installation)")

import rclpy  # noqa: E402
from ament_index_python.packages import get_package_share_directory  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402

from conftest import TEST_DIR, wait_for  # noqa: E402

LAUNCH_FILE = Path(get_package_share_directory("acres_dbw_sim")) / "launch" / "sim.launch.py"


@pytest.mark.parametrize("namespace", ["vehicle", "sim2"])
def test_launch_file_starts_the_node_in_sim_mode(ros_process, namespace):
    proc = ros_process([str(TEST_DIR / "peers" / "run_launch.py"), str(LAUNCH_FILE),
                        f"namespace:={namespace}", "time_mode:=sim", "rate_factor:=2",
                        "use_sim_time:=true"], name="launch")
    rclpy.init()
    node = rclpy.create_node("launch_probe")
    try:
        odom, clock = [], []
        node.create_subscription(Odometry, f"/{namespace}/odom", odom.append, 10)
        node.create_subscription(Clock, "/clock", clock.append, 10)
        ok = wait_for(lambda: len(odom) > 5 and len(clock) > 5, 30.0,
                      spin=lambda: rclpy.spin_once(node, timeout_sec=0.05))
        assert ok, f"no odometry or clock; launch output:\n{proc.output()}"
        # Sim mode stamps from the simulation clock, which starts at 0.
        assert odom[-1].header.stamp.sec < 1000
        assert wait_for(lambda: ("dbw_node", f"/{namespace}") in node.get_node_names_and_namespaces(),
                        10.0, spin=lambda: rclpy.spin_once(node, timeout_sec=0.05)), \
            node.get_node_names_and_namespaces()
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
