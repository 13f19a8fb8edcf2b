"""The node as a separate process, driven over real DDS like a real stack drives the Ranger.

One node process serves the whole drive of :func:`test_drive_over_dds`, a
sequence a stack would run (engage, shift, throttle, steer, stop, timeout,
override), checked against the DBW2 interface facts (dbw-interface.md §1, §4.1,
§4.4) and against the physics (yaw rate from odometry, IMU and steering agree).
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from ds_dbw_msgs.msg import (BrakeCmd, BrakeReport, Gear, GearCmd, GearReject, GearReport,
                             SteeringCmd, SteeringReport, ThrottleCmd, ThrottleReport, WheelSpeeds)
from nav_msgs.msg import Odometry
from rclpy.qos import DurabilityPolicy, ReliabilityPolicy
from sensor_msgs.msg import Imu
from std_msgs.msg import Bool, Empty
from std_srvs.srv import SetBool

from acres_dbw_sim.node import COMMAND_TOPICS, REPORT_DEPTH, REPORT_TOPICS
from helpers.dds import BackgroundSpin, matched, publishers_info, subscriptions_info, wait_for, wait_for_graph
from helpers.reference_layout import topics


NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


class Client:
    """A stack's side: latest message per topic, commands re-sent at 50 Hz."""

    def __init__(self) -> None:
        self.node = rclpy.create_node("dds_test_client")
        self.latest: dict[str, object] = {}
        self.lock = threading.Lock()
        subs = {"/vehicle/dbw_enabled": Bool, "/vehicle/steering/report": SteeringReport,
                "/vehicle/brake/report": BrakeReport, "/vehicle/throttle/report": ThrottleReport,
                "/vehicle/gear/report": GearReport, "/vehicle/wheel_speeds": WheelSpeeds,
                "/vehicle/odom": Odometry, "/vehicle/imu/data_raw": Imu}
        self.subs = [self.node.create_subscription(typ, topic, lambda m, t=topic: self._store(t, m), 2)
                     for topic, typ in subs.items()]
        self.pubs = {t: self.node.create_publisher(typ, t, 1) for t, typ in (
            ("/vehicle/steering/cmd", SteeringCmd), ("/vehicle/brake/cmd", BrakeCmd),
            ("/vehicle/throttle/cmd", ThrottleCmd), ("/vehicle/gear/cmd", GearCmd))}
        self.enable_pub = self.node.create_publisher(Empty, "/vehicle/enable", 10)
        self.override = self.node.create_client(SetBool, "/vehicle/dbw_node/inject_override")
        self.commands: dict[str, object] = {}   # topic -> message re-sent at 50 Hz
        self.node.create_timer(0.02, self._send)
        self.spin: BackgroundSpin | None = None

    def start(self, proc):
        """Matched with the node, then spun in a thread (matched spins the node itself, so first)."""
        matched(self.node, proc, publishers=[*self.pubs.values(), self.enable_pub], subscriptions=self.subs,
                clients=[self.override])
        self.spin = BackgroundSpin(self.node)

    def _store(self, topic, msg):
        with self.lock:
            self.latest[topic] = msg

    def _send(self):
        with self.lock:
            cmds = list(self.commands.items())
        for topic, msg in cmds:
            self.pubs[topic].publish(msg)

    def get(self, topic):
        with self.lock:
            return self.latest.get(topic)

    def command(self, topic, msg):
        with self.lock:
            if msg is None:
                self.commands.pop(topic, None)
            else:
                self.commands[topic] = msg

    def wait(self, predicate, timeout_s, what):
        """Until ``predicate()`` holds; no spin (the executor's thread spins)."""
        def holds():
            try:
                return predicate()
            except (AttributeError, TypeError):
                return False  # message not received yet

        assert wait_for(holds, timeout_s), f"timed out after {timeout_s} s waiting for: {what}"

    def speed(self) -> float:
        return self.get("/vehicle/odom").twist.twist.linear.x

    def close(self):
        if self.spin is not None:
            self.spin.stop()
        self.node.destroy_node()


@pytest.fixture
def client(ros_process):
    proc = ros_process([str(NODE_EXE)], name="sim_node")
    rclpy.init()
    c = Client()
    try:
        c.start(proc)
        yield c
    except AssertionError:
        raise AssertionError(f"node output:\n{proc.output()}")
    finally:
        c.close()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"


@pytest.mark.dds
def test_drive_over_dds(client):
    c = client
    c.enable_pub.publish(Empty())
    c.wait(lambda: c.get("/vehicle/dbw_enabled").data, 5.0, "dbw_enabled true after enable")

    # Shift P -> H at standstill: the lever passes 1 s through neutral.
    c.command("/vehicle/brake/cmd", BrakeCmd(cmd=20.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True))
    c.command("/vehicle/gear/cmd", GearCmd(cmd=Gear(value=Gear.DRIVE)))
    c.wait(lambda: c.get("/vehicle/gear/report").gear.value == Gear.DRIVE, 5.0, "gear H")
    c.command("/vehicle/gear/cmd", None)

    # Throttle: speed rises, the throttle report and the wheel speeds show it.
    c.command("/vehicle/brake/cmd", BrakeCmd(cmd=0.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True))
    c.command("/vehicle/throttle/cmd", ThrottleCmd(cmd=40.0, cmd_type=ThrottleCmd.CMD_PERCENT,
                                                   enable=True))
    c.command("/vehicle/steering/cmd", SteeringCmd(cmd=12.53, cmd_type=SteeringCmd.CMD_ANGLE,
                                                   enable=True))
    c.wait(lambda: c.speed() > 3.0, 15.0, "speed above 3 m/s under throttle")
    thr = c.get("/vehicle/throttle/report")
    assert thr.enabled and thr.cmd_type == ThrottleCmd.CMD_PERCENT
    assert thr.percent_output > 5.0
    ws = c.get("/vehicle/wheel_speeds")
    assert ws.rear_left > 3.0 / 0.3429 * 0.8

    # A shift above 0.3 m/s is refused with VEHICLE_SPEED (dbw-interface.md §2.1, §4.9).
    c.command("/vehicle/gear/cmd", GearCmd(cmd=Gear(value=Gear.LOW)))
    c.wait(lambda: c.get("/vehicle/gear/report").reject.value == GearReject.VEHICLE_SPEED, 3.0,
           "gear reject VEHICLE_SPEED")
    assert c.get("/vehicle/gear/report").gear.value == Gear.DRIVE
    c.command("/vehicle/gear/cmd", None)

    # Steering: hold speed near 3 m/s and turn left; yaw rate of odometry, IMU and the
    # bicycle kinematics of the reported angle agree.
    c.command("/vehicle/throttle/cmd", ThrottleCmd(cmd=20.0, cmd_type=ThrottleCmd.CMD_PERCENT,
                                                   enable=True))
    c.command("/vehicle/steering/cmd", SteeringCmd(cmd=150.0, cmd_type=SteeringCmd.CMD_ANGLE,
                                                   enable=True))
    c.wait(lambda: abs(c.get("/vehicle/steering/report").steering_wheel_angle - 150.0) < 1.0,
           5.0, "steering angle reaches 150 deg")
    time.sleep(2.0)   # timing: 2 s of steady turn before the yaw rates are compared
    odom, imu = c.get("/vehicle/odom"), c.get("/vehicle/imu/data_raw")
    r_odom, r_imu = odom.twist.twist.angular.z, imu.angular_velocity.z
    assert r_odom > 0.05, "left turn expected"
    assert r_imu == pytest.approx(r_odom, rel=0.1, abs=0.02)
    v = odom.twist.twist.linear.x
    delta = math.radians((150.0 - 12.5314) / 11.9764)
    # AWD locks the rear axle: its scrub makes the yaw rate 11-13 % lower than the
    # kinematic v tan(delta) / L (the model tests show 0.6 % with the open axle).
    assert r_odom == pytest.approx(v * math.tan(delta) / 2.8702, rel=0.2)

    # Brake to a stop.
    c.command("/vehicle/throttle/cmd", ThrottleCmd(cmd=0.0, cmd_type=ThrottleCmd.CMD_PERCENT,
                                                   enable=True))
    c.command("/vehicle/brake/cmd", BrakeCmd(cmd=40.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True))
    c.wait(lambda: abs(c.speed()) < 0.05, 10.0, "standstill under 40 bar")
    assert c.get("/vehicle/brake/report").enabled

    # 150 ms and more without steering commands: the actuator times out, dbw_enabled stays.
    c.command("/vehicle/steering/cmd", None)
    c.wait(lambda: c.get("/vehicle/steering/report").timeout, 2.0, "steering timeout")
    assert not c.get("/vehicle/steering/report").enabled
    assert c.get("/vehicle/dbw_enabled").data
    c.command("/vehicle/steering/cmd", SteeringCmd(cmd=12.53, cmd_type=SteeringCmd.CMD_ANGLE,
                                                   enable=True))
    c.wait(lambda: c.get("/vehicle/steering/report").enabled, 2.0, "steering resumes")

    # An injected driver override (brake pedal) disengages.
    c.override.call_async(SetBool.Request(data=True))
    c.wait(lambda: not c.get("/vehicle/dbw_enabled").data, 3.0, "override drops dbw_enabled")


def _topic_depths(direction: str) -> dict[str, tuple[str, int]]:
    """``{topic: (message name, depth)}`` of the DBW2 node (test/data/dbw_topics.yaml)."""
    return {topic: (typ.split("/")[-1], depth)
            for topic, (typ, depth, _latched) in topics("ds_dbw", direction).items()}


def test_node_topic_tables_match_the_reference():
    """Every command and report topic the Ranger uses, with the DBW2 node's type and depth."""
    subs = _topic_depths("subscriptions")
    pubs = _topic_depths("publications")
    for topic, type_name, depth in COMMAND_TOPICS:
        assert subs[topic] == (type_name, depth), topic
    for topic, _attr, type_name, _period in REPORT_TOPICS:
        assert pubs[topic] == (type_name, REPORT_DEPTH), topic
    for topic in ("enable", "disable", "steering/calibrate"):
        assert subs[topic][0] == "Empty"
    assert pubs["imu/data_raw"] == ("Imu", 10) and pubs["dbw_enabled"] == ("Bool", 2)
    assert pubs["ecu_info"] == ("EcuInfo", 10) and pubs["vin"] == ("String", 2)


@pytest.mark.dds
def test_qos_of_every_topic_matches_the_real_driver(ros_process):
    """RELIABLE and VOLATILE on every topic of the node, seen through the graph API.

    DDS discovery does not carry the history depth (rmw reports UNKNOWN/0 for a
    remote endpoint), so the depths are checked against §1.3/§1.4 above.
    """
    proc = ros_process([str(NODE_EXE)], name="sim_node")
    rclpy.init()
    node = rclpy.create_node("qos_probe")
    try:
        pubs = [f"/vehicle/{t}" for t, *_ in REPORT_TOPICS] + [
            f"/vehicle/{t}" for t in ("dbw_enabled", "imu/data_raw", "ecu_info", "vin")]
        subs = [f"/vehicle/{t}" for t, *_ in COMMAND_TOPICS] + [
            f"/vehicle/{t}" for t in ("enable", "disable", "steering/calibrate")]
        checks = [(t, publishers_info) for t in pubs] + [(t, subscriptions_info) for t in subs]

        def endpoints():
            return {t: [i for i in info_of(node, t) if i.node_name == "dbw_node"] for t, info_of in checks}

        def static():
            return [i for i in publishers_info(node, "/tf_static") if i.node_name == "dbw_node"]

        wait_for_graph(node, lambda: all(endpoints().values()) and static(), what="every endpoint of dbw_node",
                       proc=proc)
        for topic, infos in endpoints().items():
            assert len(infos) == 1, topic
            qos = infos[0].qos_profile
            assert qos.reliability == ReliabilityPolicy.RELIABLE, topic
            assert qos.durability == DurabilityPolicy.VOLATILE, topic
        assert static(), "no /tf_static publisher"
        assert static()[0].qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
