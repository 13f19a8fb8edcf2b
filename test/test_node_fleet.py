"""Several vehicles in one node process (parameter ``vehicles``, issue 16), over real DDS.

One ``sim_node`` process serves ``car1`` and ``car2`` in sim mode: each has the
single vehicle's topics (same types, QoS) under ``/<name>/vehicle``, its own
frames (``car1/...``) on the one ``/tf``, its own DBW state (a command to car1
moves car1 only), its own parameters from a params file section; the process
publishes one ``/clock`` and the vehicles' stamps are on it.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from ds_dbw_msgs.msg import BrakeCmd, Gear, GearCmd, GearReport, ThrottleCmd
from nav_msgs.msg import Odometry
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from std_msgs.msg import Bool, Empty
from tf2_msgs.msg import TFMessage

from acres_dbw_sim.fleet import parse_vehicles
from acres_dbw_sim.node import COMMAND_TOPICS, REPORT_TOPICS
from helpers.dds import (call_service, matched, node_names, publishers_info, spin_for, subscriptions_info,
                         wait_for, wait_for_graph)


NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
CARS = ("car1", "car2")


def _s(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def test_vehicle_names_give_namespaces_prefixes_and_reasons():
    a, b = parse_vehicles(["car1", "/fleet/car_2"])
    assert (a.namespace, a.frame_prefix, a.initialpose_topic, a.lead) == (
        "/car1/vehicle", "car1/", "/car1/initialpose", True)
    assert (b.namespace, b.frame_prefix, b.initialpose_topic, b.lead) == (
        "/fleet/car_2", "fleet/car_2/", "/fleet/car_2/initialpose", False)
    assert (a.initial_y_m, b.initial_y_m) == (0.0, 4.0)   # side by side, as vehicles.launch.py places them
    assert parse_vehicles([]) == [] and parse_vehicles(None) == []
    for bad, why in ((["car1", "car1"], "twice"), (["1car"], "letters"), (["car-1"], "letters"),
                     ([""], "letters"), ("car1", "list of names"), ([3], "list of names")):
        with pytest.raises(ValueError, match=why):
            parse_vehicles(bad)


@pytest.mark.dds
def test_bad_vehicles_parameter_is_refused_with_the_reason(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car1]"], name="bad")
    assert proc.proc.wait(timeout=60) == 2
    out = proc.output()
    assert "parameter 'vehicles'" in out and "twice" in out, out
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car2]",
                        "-p", "time_mode:=sim", "--params-file", str(_params(proc.log_path.parent,
                                                                             "car2", "time_mode: lockstep"))],
                       name="differs")
    assert proc.proc.wait(timeout=60) == 2
    out = proc.output()
    assert "parameter 'time_mode' differs between the vehicles" in out, out
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car2]", "-p", "world_frame:=map"],
                       name="world")
    assert proc.proc.wait(timeout=60) == 2
    assert "parameter 'world_frame': the 'vehicles' mode links" in proc.output(), proc.output()


def _params(tmp: Path, name: str, line: str) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(f"/{name}/vehicle/dbw_node:\n  ros__parameters:\n    {line}\n")
    return path


@pytest.mark.dds
def test_two_vehicles_in_one_process_over_dds(ros_process, tmp_path):
    params = _params(tmp_path, "car2", "initial_y_m: 4.0")
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car2]",
                        "-p", "time_mode:=sim", "-p", "rate_factor:=1.0",
                        "--params-file", str(params)], name="fleet")
    rclpy.init()
    node = rclpy.create_node("fleet_client")
    try:
        clock, tf = [], []
        odom = {n: [] for n in CARS}
        enabled = {n: [] for n in CARS}
        gear = {}
        subs = [node.create_subscription(Clock, "/clock", lambda m: clock.append(_s(m.clock)), 100),
                (node.create_subscription(TFMessage, "/tf", tf.append, 100), 2)]   # one per vehicle
        static = []
        subs.append((node.create_subscription(TFMessage, "/tf_static", static.append, QoSProfile(
            depth=10, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)),
            3))   # each vehicle's frames and the fleet's links
        for n in CARS:
            subs.append(node.create_subscription(Odometry, f"/{n}/vehicle/odom", odom[n].append, 100))
            subs.append(node.create_subscription(Bool, f"/{n}/vehicle/dbw_enabled", enabled[n].append, 10))
            subs.append(node.create_subscription(GearReport, f"/{n}/vehicle/gear/report",
                                                 lambda m, n=n: gear.__setitem__(n, m.gear.value), 10))
        enable = node.create_publisher(Empty, "/car1/vehicle/enable", 10)
        cmds = {t: node.create_publisher(ty, f"/car1/vehicle/{t}", 1)
                for t, ty in (("brake/cmd", BrakeCmd), ("gear/cmd", GearCmd), ("throttle/cmd", ThrottleCmd))}
        matched(node, proc, publishers=[enable, *cmds.values()], subscriptions=subs)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        assert wait_for(lambda: all(len(v) > 20 for v in odom.values()), 30.0, spin=spin), proc.output()

        # topics: both vehicles have every DBW2 command and report topic, same types, RELIABLE VOLATILE
        # (the node's readers of the commands, its writers of the reports; each endpoint and node
        # name is announced on its own, so the graph is waited for as a whole first)
        def dbw_graph_known() -> bool:
            return (all(subscriptions_info(node, f"/{n}/vehicle/{t}") for n in CARS for t, _ty, _d in COMMAND_TOPICS)
                    and all(publishers_info(node, f"/{n}/vehicle/{t}") for n in CARS for t, *_ in REPORT_TOPICS)
                    and {("dbw_node", f"/{n}/vehicle") for n in CARS} <= set(node_names(node)))

        wait_for_graph(node, dbw_graph_known, 10.0, what="both vehicles' DBW topics and nodes", proc=proc)
        for n in CARS:
            for topic, type_name, _depth in COMMAND_TOPICS:
                name = f"/{n}/vehicle/{topic}"
                assert {i.topic_type for i in subscriptions_info(node, name)} == {f"ds_dbw_msgs/msg/{type_name}"}, name
            for topic, _attr, type_name, _period in REPORT_TOPICS:
                name = f"/{n}/vehicle/{topic}"
                (info,) = publishers_info(node, name)
                assert info.topic_type == f"ds_dbw_msgs/msg/{type_name}", name
                assert info.node_namespace == f"/{n}/vehicle" and info.node_name == "dbw_node"
                assert info.qos_profile.reliability == ReliabilityPolicy.RELIABLE
                assert info.qos_profile.durability == DurabilityPolicy.VOLATILE

        # frames: car1/... and car2/... on the one /tf, linked to the shared odom on /tf_static
        pairs = {(t.header.frame_id, t.child_frame_id) for m in tf for t in m.transforms}
        for n in CARS:
            assert (f"{n}/odom", f"{n}/base_footprint") in pairs, pairs
            assert {o.header.frame_id for o in odom[n]} == {f"{n}/odom"}
            assert {o.child_frame_id for o in odom[n]} == {f"{n}/base_footprint"}
        links = lambda: {(t.header.frame_id, t.child_frame_id) for m in static for t in m.transforms}  # noqa: E731
        assert wait_for(lambda: {("odom", "car1/odom"), ("odom", "car2/odom"),
                                 ("car1/base_footprint", "car1/base_link")} <= links(), 10.0, spin=spin), links()
        assert len(publishers_info(node, "/tf")) == 2   # one per vehicle, one process

        # one /clock: one publisher (the lead vehicle), monotonic; both vehicles' stamps on it
        clock_pubs = publishers_info(node, "/clock")
        assert [(i.node_namespace, i.node_name) for i in clock_pubs] == [("/car1/vehicle", "dbw_node")]
        back = [(a, b) for a, b in zip(clock, clock[1:]) if b < a]
        assert len(clock) > 20 and not back, back[:3]
        stamps = [{_s(o.header.stamp) for o in odom[n]} for n in CARS]
        assert len(stamps[0] & stamps[1]) > 10, "the vehicles step on one clock"
        assert set(clock) & stamps[1]

        # per-vehicle parameters: car2 starts 4 m to the left
        assert abs(odom["car2"][-1].pose.pose.position.y - 4.0) < 0.01
        assert abs(odom["car1"][-1].pose.pose.position.y) < 0.01

        # independent commands: car1 engages, shifts and drives; car2 stays parked and disengaged
        enable.publish(Empty())
        assert wait_for(lambda: enabled["car1"] and enabled["car1"][-1].data, 10.0, spin=spin), \
            proc.output()
        sent = {"brake/cmd": BrakeCmd(cmd=20.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True),
                "gear/cmd": GearCmd(cmd=Gear(value=Gear.DRIVE))}

        def resend():
            for topic, msg in sent.items():
                cmds[topic].publish(msg)
            spin_for(node, 0.02)

        assert wait_for(lambda: gear.get("car1") == Gear.DRIVE, 20.0, spin=resend), proc.output()
        sent = {"brake/cmd": BrakeCmd(cmd=0.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True),
                "throttle/cmd": ThrottleCmd(cmd=30.0, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True)}
        assert wait_for(lambda: odom["car1"][-1].twist.twist.linear.x > 1.0, 30.0, spin=resend)
        assert odom["car1"][-1].pose.pose.position.x > 0.2
        assert abs(odom["car2"][-1].twist.twist.linear.x) < 1e-6   # parked: settles to ~1e-17
        assert abs(odom["car2"][-1].pose.pose.position.x) < 1e-3
        assert not enabled["car2"][-1].data and gear["car2"] == Gear.PARK
        assert proc.alive(), proc.output()
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    assert proc.stop() == 0, proc.output()


@pytest.mark.dds
def test_lockstep_steps_every_vehicle_and_shared_parameters_stay_shared(ros_process):
    from rcl_interfaces.msg import Parameter as ParameterMsg, ParameterType, ParameterValue
    from rcl_interfaces.srv import SetParameters
    from std_srvs.srv import Trigger

    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, /car2]",
                        "-p", "time_mode:=lockstep"], name="lockstep")
    rclpy.init()
    node = rclpy.create_node("fleet_lockstep_client")
    try:
        odom = {"/car1/vehicle": [], "/car2": []}
        clock = []
        subs = [node.create_subscription(Odometry, f"{ns}/odom", odom[ns].append, 100) for ns in odom]
        subs.append(node.create_subscription(Clock, "/clock", lambda m: clock.append(_s(m.clock)), 100))
        step = node.create_client(Trigger, "/dbw_fleet/step")
        setp = node.create_client(SetParameters, "/car2/dbw_node/set_parameters")
        # Every step's messages are checked below, so every subscription matches before the first
        # step; lockstep publishes nothing until then (data=False: the settle covers the node's side,
        # a CI run of 2 December lost the first /clock without it)
        matched(node, proc, subscriptions=subs, clients=[step, setp], data=False)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        for k in range(2):
            reply = call_service(node, step, Trigger.Request(), idempotent=False,
                                 done=lambda k=k: clock and round(clock[-1], 6) >= round(0.1 * (k + 1), 6))
            assert reply is None or reply.success
        assert reply is None or reply.message == "clock=0.200000"   # 2 x 12 steps at 120 Hz
        last = lambda v: round(_s(v[-1].header.stamp), 6) if v else None  # noqa: E731
        assert wait_for(lambda: all(last(v) == 0.2 for v in odom.values()) and clock and
                        round(clock[-1], 6) == 0.2, 10.0, spin=spin)
        # both vehicles published every step, at the same stamps, on the one /clock
        # (the start-up publication at 0 reaches a subscriber only if discovery was quick)
        stamps = [[round(_s(o.header.stamp), 6) for o in v if _s(o.header.stamp) > 0] for v in odom.values()]
        assert stamps[0] == stamps[1] == [round(k / 120, 6) for k in range(1, 25)]
        assert [round(t, 6) for t in clock if t > 0] == stamps[0]
        assert {o.child_frame_id for o in odom["/car2"]} == {"car2/base_footprint"}
        # a shared parameter is refused on one vehicle, with the reason; a per-vehicle one is taken
        for name, value, ok in (("lockstep_steps", ParameterValue(type=ParameterType.PARAMETER_INTEGER,
                                                                  integer_value=3), False),
                                ("initial_x_m", ParameterValue(type=ParameterType.PARAMETER_DOUBLE,
                                                               double_value=5.0), True)):
            (result,) = call_service(node, setp, SetParameters.Request(
                parameters=[ParameterMsg(name=name, value=value)])).results
            assert result.successful == ok, (name, result.reason)
            if not ok:
                assert "shared by every vehicle" in result.reason
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    assert proc.stop() == 0, proc.output()


@pytest.mark.dds
def test_fleet_follows_another_clock_owner(ros_process):
    """sim mode, clock_owner false: the fleet steps every vehicle to the owner's /clock."""
    owner = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/owner", "-p", "time_mode:=sim",
                         "-p", "rate_factor:=2.0", "-p", "frame_prefix:=owner/"], name="owner")
    fleet = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car2]",
                         "-p", "time_mode:=sim", "-p", "clock_owner:=false",
                         "-p", "use_sim_time:=true"], name="follower")
    rclpy.init()
    node = rclpy.create_node("fleet_follow_client")
    try:
        odom = {n: [] for n in CARS}
        clock, diag = [], {}
        subs = [node.create_subscription(Odometry, f"/{n}/vehicle/odom", odom[n].append, 100) for n in CARS]
        subs.append(node.create_subscription(Clock, "/clock", lambda m: clock.append(_s(m.clock)), 100))
        from diagnostic_msgs.msg import DiagnosticArray
        subs.append((node.create_subscription(DiagnosticArray, "/diagnostics", lambda m: diag.update(
            {s.hardware_id: s.name for s in m.status}), 10), 3))   # the owner's and each vehicle's
        matched(node, procs=[owner, fleet], subscriptions=subs)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        assert wait_for(lambda: all(len(v) > 50 for v in odom.values()), 30.0, spin=spin), \
            owner.output() + fleet.output()
        # the publisher's node name reaches the graph in its own discovery message
        pubs = lambda: [i.node_namespace for i in publishers_info(node, "/clock")]  # noqa: E731
        wait_for_graph(node, lambda: "/owner" in pubs(), 10.0, what="/clock's publisher /owner", proc=owner)
        assert pubs() == ["/owner"], (pubs(), owner.output(), fleet.output())
        a, b = _s(odom["car1"][-1].header.stamp), _s(odom["car2"][-1].header.stamp)
        assert abs(a - clock[-1]) < 0.5 and abs(b - clock[-1]) < 0.5, (a, b, clock[-1])
        assert wait_for(lambda: {"acres_dbw_sim:/car1/vehicle", "acres_dbw_sim:/car2/vehicle"} <= set(diag),
                        5.0, spin=spin), diag
        # the owner gone, the fleet stops with its clock
        assert owner.stop() == 0
        spin_for(node, 1.0)
        n = len(odom["car1"])
        spin_for(node, 1.0)   # no odometry in this second
        assert len(odom["car1"]) == n, "the fleet went on without the owner's /clock"
        assert fleet.alive(), fleet.output()
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    assert fleet.stop() == 0, fleet.output()


@pytest.mark.dds
def test_realtime_vehicles_share_the_step_grid(ros_process):
    """realtime: one timer steps both vehicles, so their stamps are the same instants."""
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "vehicles:=[car1, car2]"], name="realtime")
    rclpy.init()
    node = rclpy.create_node("fleet_realtime_client")
    try:
        stamps = {n: [] for n in CARS}
        subs = [node.create_subscription(Odometry, f"/{n}/vehicle/odom",
                                         lambda m, n=n: stamps[n].append(_s(m.header.stamp)), 100) for n in CARS]
        matched(node, proc, subscriptions=subs)
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.02)  # noqa: E731
        assert wait_for(lambda: all(len(v) > 120 for v in stamps.values()), 30.0, spin=spin), proc.output()
        first, second = set(stamps["car1"]), set(stamps["car2"])
        assert len(first & second) >= 0.9 * min(len(first), len(second))
        assert abs(stamps["car1"][-1] - time.time()) < 1.0   # on the wall clock
        back = [(a, b) for v in stamps.values() for a, b in zip(v, v[1:]) if b <= a]
        assert not back, back[:3]
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    assert proc.stop() == 0, proc.output()


@pytest.mark.dds   # the nodes in this process (a participant that discovers nothing)
def test_vehicles_without_a_pose_stand_side_by_side_and_a_given_pose_wins():
    """Three vehicles in one process with no initial_y_m stand 0, 4 and 8 m along +y (they were stacked at the
    origin); an initial_y_m given (here on the command line, for all) is theirs."""
    from acres_dbw_sim.fleet_node import FleetNode
    for args, want in (([], [0.0, 4.0, 8.0]), (["--ros-args", "-p", "initial_y_m:=-3.0"], [-3.0, -3.0, -3.0])):
        rclpy.init(args=["sim_node", *args])
        try:
            fleet = FleetNode(["car1", "car2", "car3"])
            assert [round(v.sim.state.position_m[1], 6) for v in fleet.vehicles] == want
            fleet.destroy_vehicles()
            fleet.destroy_node()
        finally:
            rclpy.try_shutdown()
