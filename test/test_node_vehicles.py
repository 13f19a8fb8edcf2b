"""Two vehicles side by side in one DDS domain, sim mode (issue 13 item 2): separate
TF trees (frame prefixes), one monotonic /clock (one owner, the other follows),
independent /initialpose (remapped per vehicle), a robot_description each."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from geometry_msgs.msg import PoseWithCovarianceStamped
from nav_msgs.msg import Odometry
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from helpers.dds import matched, publishers_info, spin_for, wait_for, wait_for_graph

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def _s(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def _vehicle(ros_process, name: str, owner: bool, y_m: float):
    """A vehicle as vehicles.launch.py starts it."""
    return ros_process([str(NODE_EXE), "--ros-args", "-r", f"__ns:=/{name}",
                        "-r", f"/initialpose:=/{name}/initialpose",
                        "-p", "time_mode:=sim", "-p", "rate_factor:=2", "-p", "use_sim_time:=true",
                        "-p", f"frame_prefix:={name}/", "-p", f"clock_owner:={str(owner).lower()}",
                        "-p", f"initial_y_m:={y_m}", "-p", "publish_wheel_tf:=true",
                        "-p", "status_period_s:=0.5", "-p", "world_frame:=odom"], name=name)


def _start(ros_process, specs: list) -> list:
    """Start the vehicles ``specs`` ((name, owner, y_m) each) and wait until each has set itself up.

    A node that is not up after 60 s is tolerated once: in two CI runs one node in a few hundred
    hung for good while creating its DDS entities (Fast DDS's own locks, docs/discovery.md), which
    is not what these tests are about. Its stacks go into a warning and it is started again; a
    second hang fails the test."""
    procs = [_vehicle(ros_process, *spec) for spec in specs]
    up = lambda p: "simulating a" in p.output()  # noqa: E731
    if not wait_for(lambda: all(up(p) for p in procs), 60.0):
        for i, p in enumerate(procs):
            if not up(p):
                warnings.warn(f"{specs[i][0]} not up after 60 s, started again; its threads:\n"
                              + p.stacks()[-4000:])
                p.stop()
                procs[i] = _vehicle(ros_process, *specs[i])
        assert wait_for(lambda: all(up(p) for p in procs), 60.0), "\n".join(p.stacks() for p in procs)
    return procs


def test_two_namespaced_vehicles_in_sim_mode(ros_process):
    procs = _start(ros_process, [("car1", True, 0.0), ("car2", False, 4.0)])
    rclpy.init()
    node = rclpy.create_node("fleet_probe")
    try:
        clock, tf, odom = [], [], {"car1": [], "car2": []}
        subs = [node.create_subscription(Clock, "/clock", lambda m: clock.append(_s(m.clock)), 100),
                (node.create_subscription(TFMessage, "/tf", tf.append, 100), 2)]   # one per vehicle
        for name in odom:
            subs.append(node.create_subscription(Odometry, f"/{name}/odom", odom[name].append, 100))
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        statics = []
        subs.append((node.create_subscription(TFMessage, "/tf_static", statics.append,
                                              QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                                                         durability=DurabilityPolicy.TRANSIENT_LOCAL)), 2))
        descriptions = {}
        for name in odom:
            subs.append(node.create_subscription(String, f"/{name}/robot_description",
                                                 lambda m, n=name: descriptions.__setitem__(n, m.data), latched))
        pose = node.create_publisher(PoseWithCovarianceStamped, "/car2/initialpose", 1)
        matched(node, procs=procs, publishers=[pose], subscriptions=subs)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        assert wait_for(lambda: all(len(v) > 20 for v in odom.values()), 30.0, spin=spin), \
            "\n".join(p.output() for p in procs)
        # one /clock publisher, monotonic (the publisher's node name reaches the graph in its own discovery
        # message, which may come after the first samples on a loaded machine)
        owners = lambda: [i.node_namespace for i in publishers_info(node, "/clock")]  # noqa: E731
        wait_for_graph(node, lambda: "/car1" in owners(), 10.0, what="/clock's publisher /car1", proc=procs[0])
        assert owners() == ["/car1"], owners()
        # separate TF trees: each vehicle's odom -> base_footprint in its own frames (each topic of each
        # vehicle is discovered on its own: /tf of car2 may match after its odometry on a loaded machine)
        pairs = lambda: {(t.header.frame_id, t.child_frame_id) for m in tf for t in m.transforms}  # noqa: E731
        assert wait_for(lambda: all((f"{n}/odom", f"{n}/base_footprint") in pairs() for n in odom), 20.0,
                        spin=spin), pairs()
        assert wait_for(lambda: all((f"{n}/base_link", f"{n}/rear_left_wheel") in pairs() for n in odom), 20.0,
                        spin=spin), pairs()
        assert ("odom", "base_footprint") not in pairs()
        # ... joined in one tree by world_frame (as vehicles.launch.py sets it): odom -> carN/odom
        links = lambda: {(t.header.frame_id, t.child_frame_id) for m in statics for t in m.transforms}  # noqa: E731
        assert wait_for(lambda: {("odom", "car1/odom"), ("odom", "car2/odom")} <= links(), 20.0, spin=spin), links()
        assert {o.header.frame_id for o in odom["car2"]} == {"car2/odom"}
        # independent initialpose: only car2 moves
        msg = PoseWithCovarianceStamped()
        msg.pose.pose.position.x, msg.pose.pose.position.y, msg.pose.pose.orientation.w = 40.0, 4.0, 1.0
        pose.publish(msg)
        assert wait_for(lambda: abs(odom["car2"][-1].pose.pose.position.x - 40.0) < 1.0, 10.0, spin=spin)
        spin_for(node, 0.5)   # car1 has had time to move, were it to
        assert abs(odom["car1"][-1].pose.pose.position.x) < 1.0
        assert abs(odom["car1"][-1].pose.pose.position.y) < 0.5
        assert abs(odom["car2"][-1].pose.pose.position.y - 4.0) < 0.5
        # the follower's stamps are the owner's clock (at rate 2, up to the delivery delay)
        assert abs(_s(odom["car2"][-1].header.stamp) - _s(odom["car1"][-1].header.stamp)) < 0.5
        assert wait_for(lambda: len(descriptions) == 2, 10.0, spin=spin)
        assert all("<robot" in d and "rear_left_wheel_joint" in d for d in descriptions.values())
        back = [(a, b) for a, b in zip(clock, clock[1:]) if b < a]
        assert len(clock) > 20 and not back, back[:3]
        # both print their status line, the follower too (it steps on the owner's /clock)
        for p in procs:
            assert "dbw_enabled=" in p.output(), p.output()
        # the follower has no clock of its own: with the owner stopped, it stops
        assert procs[0].stop() == 0
        spin_for(node, 1.0)
        n = len(odom["car2"])
        spin_for(node, 1.0)   # no odometry in this second
        assert len(odom["car2"]) == n, "car2 went on without the owner's /clock"
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    assert procs[1].alive(), procs[1].output()


def test_two_clock_owners_are_warned_about(ros_process):
    """Two nodes that both own /clock (a launch without clock_owner:=false) make /clock run back and
    forth: each says so in its log."""
    procs = _start(ros_process, [("own1", True, 0.0), ("own2", True, 4.0)])
    assert wait_for(lambda: all("other publisher(s) on /clock" in p.output() for p in procs), 60.0), \
        "\n".join(p.output()[-1500:] for p in procs)
    assert all(p.alive() for p in procs)
