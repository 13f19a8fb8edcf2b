"""The launch files with the real launch_ros: ``sim.launch.py`` (by path and by package
name, the way ``ros2 launch acres_dbw_sim sim.launch.py`` resolves it) and
``vehicles.launch.py``. launch_ros is not on PyPI; these tests run where it is
importable (a ROS 2 installation) and are skipped otherwise. Without launch_ros,
test_launch_share.py checks the share tree that name resolution needs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("launch_ros", reason="launch_ros is not installed (no ROS 2 installation)")

import rclpy  # noqa: E402
from ament_index_python.packages import get_package_share_directory  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402
from rcl_interfaces.srv import GetParameters  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

from conftest import TEST_DIR, call_service, wait_for  # noqa: E402

SHARE = Path(get_package_share_directory("acres_dbw_sim"))
LAUNCH_FILE = SHARE / "launch" / "sim.launch.py"


def _by_package_name(file_name: str) -> str:
    """The path ``ros2 launch acres_dbw_sim <file_name>`` launches."""
    api = pytest.importorskip("ros2launch.api", reason="ros2launch (launch_ros) is not installed")
    return api.get_share_file_path_from_package(package_name="acres_dbw_sim", file_name=file_name)


def _probe(namespaces, timeout_s=60.0):
    rclpy.init()
    node = rclpy.create_node("launch_probe")
    odom, clock = {ns: [] for ns in namespaces}, []
    for ns in namespaces:
        node.create_subscription(Odometry, f"/{ns}/odom", odom[ns].append, 10)
    node.create_subscription(Clock, "/clock", clock.append, 10)
    ok = wait_for(lambda: all(len(v) > 5 for v in odom.values()) and len(clock) > 5, timeout_s,
                  spin=lambda: rclpy.spin_once(node, timeout_sec=0.05))
    return node, odom, clock, ok


def _get_doubles(node, ns: str, names: list[str]) -> list[float]:
    client = node.create_client(GetParameters, f"/{ns}/dbw_node/get_parameters")
    assert client.wait_for_service(timeout_sec=30.0)
    return [v.double_value for v in call_service(node, client, GetParameters.Request(names=names)).values]


@pytest.mark.parametrize("namespace", ["vehicle", "sim2"])
def test_launch_file_starts_the_node_in_sim_mode(ros_process, namespace):
    proc = ros_process([str(TEST_DIR / "peers" / "run_launch.py"), str(LAUNCH_FILE),
                        f"namespace:={namespace}", "time_mode:=sim", "rate_factor:=2",
                        "use_sim_time:=true"], name="launch")
    node, odom, _clock, ok = _probe([namespace])
    try:
        assert ok, f"no odometry or clock; launch output:\n{proc.output()}"
        # Sim mode stamps from the simulation clock, which starts at 0.
        assert odom[namespace][-1].header.stamp.sec < 1000
        assert wait_for(lambda: ("dbw_node", f"/{namespace}") in node.get_node_names_and_namespaces(),
                        10.0, spin=lambda: rclpy.spin_once(node, timeout_sec=0.05)), \
            node.get_node_names_and_namespaces()
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def test_launch_by_package_name_with_integers_for_doubles(ros_process):
    path = _by_package_name("sim.launch.py")
    assert Path(path).resolve() == LAUNCH_FILE.resolve()
    ros2 = shutil.which("ros2")
    # ros_process runs `python ARGV`: the ros2 command is a Python script
    argv = ([ros2, "launch", "acres_dbw_sim", "sim.launch.py"] if ros2
            else [str(TEST_DIR / "peers" / "run_launch.py"), path])
    proc = ros_process([*argv, "time_mode:=sim", "rate_factor:=10", "step_hz:=100",
                        "initial_speed_mps:=3", "initial_gear:=N"], name="ros2launch")
    node, _odom, _clock, ok = _probe(["vehicle"])
    try:
        assert ok, proc.output()
        assert _get_doubles(node, "vehicle", ["rate_factor", "step_hz", "initial_speed_mps"]) \
            == [10.0, 100.0, 3.0]
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def test_vehicles_launch_starts_n_vehicles(ros_process):
    proc = ros_process([str(TEST_DIR / "peers" / "run_launch.py"), _by_package_name("vehicles.launch.py"),
                        "count:=2", "rate_factor:=2"], name="fleet")
    node, odom, _clock, ok = _probe(["vehicle1", "vehicle2"], timeout_s=90.0)
    try:
        assert ok, proc.output()
        assert {o.header.frame_id for o in odom["vehicle2"]} == {"vehicle2/odom"}
        assert [i.node_namespace for i in node.get_publishers_info_by_topic("/clock")] == ["/vehicle1"]
        # one TF tree: the launch file's world_frame (odom) links each vehicle's odometry frame
        statics = []
        node.create_subscription(TFMessage, "/tf_static", statics.append,
                                 QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                                            durability=DurabilityPolicy.TRANSIENT_LOCAL))
        links = lambda: {(t.header.frame_id, t.child_frame_id) for m in statics for t in m.transforms}  # noqa: E731
        assert wait_for(lambda: {("odom", "vehicle1/odom"), ("odom", "vehicle2/odom")} <= links(), 20.0,
                        spin=lambda: rclpy.spin_once(node, timeout_sec=0.05)), links()
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
