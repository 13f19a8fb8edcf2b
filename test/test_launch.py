"""The launch files with the real launch_ros: ``sim.launch.py`` (by path and by package
name, the way ``ros2 launch acres_dbw_sim sim.launch.py`` resolves it) and
``vehicles.launch.py``. launch_ros is not on PyPI; these tests run where it is
importable (a ROS 2 installation) and are not collected otherwise (conftest.py, ``FULL_ROS_MODULES``).
Without launch_ros, test_launch_share.py checks the share tree that name resolution needs."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

import rclpy  # noqa: E402
from ament_index_python.packages import get_package_share_directory  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402
from rcl_interfaces.srv import GetParameters  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

from helpers.dds import (call_service, matched, node_names, publishers_info, wait_for,  # noqa: E402
                         wait_for_graph)

pytestmark = pytest.mark.dds

TEST_DIR = Path(__file__).resolve().parent
SHARE = Path(get_package_share_directory("acres_dbw_sim"))
LAUNCH_FILE = SHARE / "launch" / "sim.launch.py"


def _by_package_name(file_name: str) -> str:
    """The path ``ros2 launch acres_dbw_sim <file_name>`` launches."""
    from ros2launch import api
    return api.get_share_file_path_from_package(package_name="acres_dbw_sim", file_name=file_name)


@contextmanager
def _probe_node():
    """The test's node, destroyed (and rclpy shut down) however the test ends."""
    rclpy.init()
    node = rclpy.create_node("launch_probe")
    try:
        yield node
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def _spin(node) -> None:
    rclpy.spin_once(node, timeout_sec=0.05)


def _probe(node, proc, namespaces, subscriptions=(), clients=()):
    """Subscribe to each vehicle's odometry and /clock, wait until they (and the test's other
    ``subscriptions`` and ``clients``) are matched, then until each has sent a few messages."""
    odom, clock = {ns: [] for ns in namespaces}, []
    subs = [node.create_subscription(Odometry, f"/{ns}/odom", odom[ns].append, 10) for ns in namespaces]
    subs.append(node.create_subscription(Clock, "/clock", clock.append, 10))
    matched(node, proc, subscriptions=[*subs, *subscriptions], clients=clients)
    assert wait_for(lambda: all(len(v) > 5 for v in odom.values()) and len(clock) > 5, 20.0,
                    spin=lambda: _spin(node)), f"no odometry or clock; launch output:\n{proc.output()}"
    return odom, clock


def _get_doubles(node, client, names: list[str]) -> list[float]:
    return [v.double_value for v in call_service(node, client, GetParameters.Request(names=names)).values]


@pytest.mark.parametrize("namespace", ["vehicle", "sim2"])
def test_launch_file_starts_the_node_in_sim_mode(ros_process, namespace):
    proc = ros_process([str(TEST_DIR / "peers" / "run_launch.py"), str(LAUNCH_FILE),
                        f"namespace:={namespace}", "time_mode:=sim", "rate_factor:=2",
                        "use_sim_time:=true"], name="launch")
    with _probe_node() as node:
        odom, _clock = _probe(node, proc, [namespace])
        # Sim mode stamps from the simulation clock, which starts at 0.
        assert odom[namespace][-1].header.stamp.sec < 1000
        wait_for_graph(node, lambda: ("dbw_node", f"/{namespace}") in node_names(node), 10.0,
                       what=f"the node /{namespace}/dbw_node", proc=proc)


def test_launch_by_package_name_with_integers_for_doubles(ros_process):
    path = _by_package_name("sim.launch.py")
    assert Path(path).resolve() == LAUNCH_FILE.resolve()
    ros2 = shutil.which("ros2")
    # ros_process runs `python ARGV`: the ros2 command is a Python script
    argv = ([ros2, "launch", "acres_dbw_sim", "sim.launch.py"] if ros2
            else [str(TEST_DIR / "peers" / "run_launch.py"), path])
    proc = ros_process([*argv, "time_mode:=sim", "rate_factor:=10", "step_hz:=100",
                        "initial_speed_mps:=3", "initial_gear:=N"], name="ros2launch")
    with _probe_node() as node:
        params = node.create_client(GetParameters, "/vehicle/dbw_node/get_parameters")
        _probe(node, proc, ["vehicle"], clients=[params])
        assert _get_doubles(node, params, ["rate_factor", "step_hz", "initial_speed_mps"]) \
            == [10.0, 100.0, 3.0]


def test_vehicles_launch_starts_n_vehicles(ros_process):
    proc = ros_process([str(TEST_DIR / "peers" / "run_launch.py"), _by_package_name("vehicles.launch.py"),
                        "count:=2", "rate_factor:=2"], name="fleet")
    with _probe_node() as node:
        statics = []
        static_sub = node.create_subscription(TFMessage, "/tf_static", statics.append,
                                              QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                                                         durability=DurabilityPolicy.TRANSIENT_LOCAL))
        # /tf_static: each vehicle's own writer
        odom, _clock = _probe(node, proc, ["vehicle1", "vehicle2"], subscriptions=[(static_sub, 2)])
        assert {o.header.frame_id for o in odom["vehicle2"]} == {"vehicle2/odom"}
        # one /clock owner (its node name reaches the graph in its own discovery message)
        owners = lambda: [i.node_namespace for i in publishers_info(node, "/clock")]  # noqa: E731
        wait_for_graph(node, lambda: "/vehicle1" in owners(), 10.0, what="/clock's publisher /vehicle1", proc=proc)
        assert owners() == ["/vehicle1"], owners()
        # one TF tree: the launch file's world_frame (odom) links each vehicle's odometry frame
        links = lambda: {(t.header.frame_id, t.child_frame_id) for m in statics for t in m.transforms}  # noqa: E731
        assert wait_for(lambda: {("odom", "vehicle1/odom"), ("odom", "vehicle2/odom")} <= links(), 20.0,
                        spin=lambda: _spin(node)), links()
