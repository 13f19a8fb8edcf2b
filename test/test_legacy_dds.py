"""The legacy (DBW1) interface over real DDS, driven like Dataspeed's legacy test scripts.

Issue 9, "Done means": a client written like ``dbw_polaris_can/scripts/throttle_sine.py``
(enable, then a throttle sine on ``/vehicle/throttle_cmd`` at 50 Hz while
``/vehicle/dbw_enabled`` - subscribed TRANSIENT_LOCAL - says true) drives the
simulated vehicle, and the legacy reports reflect it. The node serves only the
legacy interface, as ``dbw_polaris_can`` would; its topics are checked against
the legacy node's topic table (test/data/dbw_topics.yaml).
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from dbw_polaris_msgs.msg import (BrakeReport, Gear, GearCmd, GearReport, SteeringReport,
                                  ThrottleCmd, ThrottleReport)
from geometry_msgs.msg import TwistStamped
from nav_msgs.msg import Odometry
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import Bool, Empty

from msg_adapters.polaris_legacy import LEGACY_COMMAND_TOPICS, LEGACY_REPORT_TOPICS
from msg_adapters.polaris_legacy import fraction_to_pedal
from helpers.dds import BackgroundSpin, matched, publishers_info, wait_for
from helpers.reference_layout import topics


NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


class SineTest(Node):
    """throttle_sine.py ported to rclpy, with ``pedal_cmd_type`` CMD_PERCENT.

    ``pedal_cmd = offset - amplitude cos(2 pi t / period)`` every 20 ms while
    ``dbw_enabled`` is true; ``t`` restarts whenever it is false.
    """

    def __init__(self, low_peak=0.0, high_peak=0.6, period=4.0):
        super().__init__("sine_test")
        self.pub = self.create_publisher(ThrottleCmd, "/vehicle/throttle_cmd", 1)
        latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.sub = self.create_subscription(Bool, "/vehicle/dbw_enabled", self.recv_enable, latched)
        self.high_peak, self.low_peak, self.period = high_peak, low_peak, period
        self.enabled = False
        self.t = 0.0
        self.sample_time = 0.02
        self.sent: list[tuple[float, float]] = []     # (wall time, pedal_cmd)
        self.create_timer(self.sample_time, self.timer_cb)

    def timer_cb(self):
        if not self.enabled:
            self.t = 0.0
            return
        amplitude = 0.5 * (self.high_peak - self.low_peak)
        offset = 0.5 * (self.high_peak + self.low_peak)
        cmd = offset - amplitude * math.cos(2.0 * math.pi / self.period * self.t)
        self.t += self.sample_time
        self.pub.publish(ThrottleCmd(enable=True, pedal_cmd_type=ThrottleCmd.CMD_PERCENT,
                                     pedal_cmd=cmd))
        self.sent.append((time.monotonic(), cmd))

    def recv_enable(self, msg):
        self.enabled = msg.data


class Observer(Node):
    """The rest of the client side: enable/disable/gear, and every legacy report kept."""

    def __init__(self):
        super().__init__("legacy_observer")
        self.lock = threading.Lock()
        self.log: dict[str, list] = {}
        self.subs = [self.create_subscription(typ, f"/vehicle/{topic}", lambda m, t=topic: self._keep(t, m), 10)
                     for topic, typ in (("throttle_report", ThrottleReport), ("brake_report", BrakeReport),
                                        ("steering_report", SteeringReport), ("gear_report", GearReport),
                                        ("twist", TwistStamped), ("odom", Odometry))]
        self.enable = self.create_publisher(Empty, "/vehicle/enable", 10)
        self.disable = self.create_publisher(Empty, "/vehicle/disable", 10)
        self.gear = self.create_publisher(GearCmd, "/vehicle/gear_cmd", 1)

    def _keep(self, topic, msg):
        with self.lock:
            self.log.setdefault(topic, []).append((time.monotonic(), msg))

    def last(self, topic):
        with self.lock:
            entries = self.log.get(topic)
            return entries[-1][1] if entries else None

    def since(self, topic, t0):
        with self.lock:
            return [m for t, m in self.log.get(topic, []) if t >= t0]


def wait(predicate, timeout_s, what, out=""):
    """Until ``predicate()`` holds; no spin (the executors' threads spin)."""
    def holds():
        try:
            return predicate()
        except (AttributeError, TypeError):   # that message not received yet
            return False

    assert wait_for(holds, timeout_s), f"timed out after {timeout_s} s waiting for: {what}\n{out}"


def test_topic_table_matches_the_legacy_node():
    subs = topics("polaris_legacy", "subscriptions")
    pubs = topics("polaris_legacy", "publications")
    for topic, type_name, depth, _fn in LEGACY_COMMAND_TOPICS:
        assert subs[topic] == (f"dbw_polaris_msgs/{type_name}", depth, False), topic
    for topic, _m, type_name, _p in LEGACY_REPORT_TOPICS:
        assert pubs[topic][0] == f"dbw_polaris_msgs/{type_name}", topic
    assert pubs["twist"][0] == "geometry_msgs/TwistStamped"
    assert pubs["dbw_enabled"] == ("std_msgs/Bool", 1, True)
    assert subs["calibrate_steering"][0] == "std_msgs/Empty"


@pytest.mark.dds
def test_throttle_sine_client_drives_and_the_legacy_reports_show_it(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[polaris_legacy]"],
                       name="sim_node")
    rclpy.init()
    obs, sine = Observer(), SineTest()
    spin = None
    try:
        # each node on its own (the script as in its own process), before its executor takes it
        # (matched spins the node itself)
        matched(obs, proc, publishers=[obs.enable, obs.disable, obs.gear], subscriptions=obs.subs)
        matched(sine, proc, publishers=[sine.pub], subscriptions=[sine.sub])
        spin = BackgroundSpin(obs, sine)
        # TRANSIENT_LOCAL on both sides: the node's dbw_enabled reaches the script (a
        # VOLATILE publisher would be QoS-incompatible and the script would never start)
        pubs = publishers_info(sine, "/vehicle/dbw_enabled")
        assert [p.qos_profile.durability for p in pubs] == [DurabilityPolicy.TRANSIENT_LOCAL]
        assert pubs[0].qos_profile.reliability == ReliabilityPolicy.RELIABLE
        assert not publishers_info(sine, "/vehicle/steering/report")  # no DBW2 topics

        # The driver puts the vehicle in gear through the legacy gear command once enabled.
        obs.enable.publish(Empty())
        wait(lambda: sine.enabled, 5.0, "dbw_enabled true (TRANSIENT_LOCAL subscription)")
        t_start = time.monotonic()
        obs.gear.publish(GearCmd(cmd=Gear(gear=Gear.DRIVE)))
        wait(lambda: obs.last("gear_report").state.gear == Gear.DRIVE, 5.0, "gear DRIVE")
        wait(lambda: sine.sent and sine.sent[-1][0] - sine.sent[0][0] > 6.0, 15.0,
             "a sine period and a half")

        # The throttle report follows the command in pedal units (pedal table, §3.3).
        thr = obs.since("throttle_report", t_start + 1.0)
        # (a gap of more than 100 ms in a Python client's 50 Hz stream on a loaded machine
        # times the throttle out for a moment, as it would on the vehicle: allow a few)
        assert not any(m.override for m in thr)
        assert sum(m.enabled for m in thr) >= 0.95 * len(thr)
        cmds = [m.pedal_cmd for m in thr]
        assert min(cmds) == pytest.approx(0.2, abs=0.02)
        assert max(cmds) == pytest.approx(fraction_to_pedal(0.6), abs=0.02)
        assert max(m.pedal_output for m in thr) == pytest.approx(fraction_to_pedal(0.6), abs=0.03)
        assert all(m.pedal_input == pytest.approx(0.2) for m in thr)      # no driver
        # ... and the vehicle moves: the steering report's speed is the odometry's.
        sr, odom, tw = obs.last("steering_report"), obs.last("odom"), obs.last("twist")
        assert sr.speed > 1.0   # about 2 m/s after 1.5 periods; less when a loaded machine times the pedal out
        assert sr.speed == pytest.approx(odom.twist.twist.linear.x, abs=0.1)
        assert tw.twist.linear.x == pytest.approx(sr.speed, abs=0.1)
        # never commanded: not enabled, and timed out (docs/dbw.md: a module never commanded reports
        # timeout, so the driver disregards overrides of a subsystem the stack does not use)
        assert not sr.enabled and sr.timeout
        br = obs.last("brake_report")
        assert (br.enabled, br.torque_cmd, br.torque_input) == (False, 0.0, 0.0)

        # disable: the script stops sending, the throttle drops out, the vehicle coasts.
        obs.disable.publish(Empty())
        wait(lambda: not sine.enabled, 3.0, "dbw_enabled false after disable")
        wait(lambda: not obs.last("throttle_report").enabled, 2.0, "throttle report not enabled")
        wait(lambda: obs.last("throttle_report").pedal_output == pytest.approx(0.2), 2.0,
             "pedal released")
    finally:
        if spin is not None:
            spin.stop()
        obs.destroy_node()
        sine.destroy_node()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"
