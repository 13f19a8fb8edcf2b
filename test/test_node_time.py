"""Time that never jumps back (issue 13 items 4 and 5, issue 14 item 4), over real DDS:
a reset or a new pose in any time mode continues the stamps and /clock; realtime
stamps stay on the wall clock, also after a reset and while recording a bag."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from geometry_msgs.msg import PoseWithCovarianceStamped
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Clock
from std_srvs.srv import Trigger

from helpers.dds import call_service, matched, spin_for, wait_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


#: Physics steps of one ~/step call (the lockstep node's command line) and its simulated time at 120 Hz
LOCKSTEP_STEPS = 12
STEP_S = LOCKSTEP_STEPS / 120.0


def _s(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


class Probe:
    """Odometry (stamp, wall time at receipt), /clock, ~/reset and /initialpose of one node."""

    def __init__(self, ns: str) -> None:
        rclpy.init()
        self.node = rclpy.create_node("time_probe")
        self.odom: list[tuple[float, float, float]] = []   # (stamp, receipt wall time, x)
        self.clock: list[float] = []
        self.odom_sub = self.node.create_subscription(
            Odometry, f"/{ns}/odom",
            lambda m: self.odom.append((_s(m.header.stamp), time.time(), m.pose.pose.position.x)), 100)
        self.clock_sub = self.node.create_subscription(Clock, "/clock", lambda m: self.clock.append(_s(m.clock)), 100)
        self.reset = self.node.create_client(Trigger, f"/{ns}/dbw_node/reset")
        self.step = self.node.create_client(Trigger, f"/{ns}/dbw_node/step")
        self.pose = self.node.create_publisher(PoseWithCovarianceStamped, "/initialpose", 1)
        self.steps = 0   # ~/step calls so far

    def matched(self, proc, clock: bool, lockstep: bool = False) -> None:
        """Every endpoint the test uses matched: odometry, /clock (``clock``: sim and lockstep),
        /initialpose, ~/reset and (``lockstep``) ~/step. Lockstep publishes nothing before the
        first step, so no message is awaited there."""
        matched(self.node, proc, publishers=[self.pose],
                subscriptions=[self.odom_sub] + ([self.clock_sub] if clock else []),
                clients=[self.reset] + ([self.step] if lockstep else []), data=not lockstep)

    def spin(self, seconds: float) -> None:
        spin_for(self.node, seconds)

    def call(self, client) -> None:
        """Call ``client``: reset, which may be sent twice, or step, whose effect the clock shows
        when its response is lost: it reaches the end of this call's steps (each call is
        ``STEP_S``; a reset and /initialpose carry the clock on)."""
        if client is self.step:
            self.steps += 1
        end_s = STEP_S * self.steps - 1e-6
        reply = call_service(self.node, client, Trigger.Request(), idempotent=client is not self.step,
                             done=lambda: max(self.clock, default=-1.0) >= end_s)
        assert reply is None or reply.success

    def set_pose(self, x: float) -> None:
        msg = PoseWithCovarianceStamped()
        msg.pose.pose.position.x = x
        msg.pose.pose.orientation.w = 1.0
        self.pose.publish(msg)

    def close(self) -> None:
        self.node.destroy_node()
        rclpy.try_shutdown()


def _assert_monotonic(values: list[float], what: str) -> None:
    back = [(a, b) for a, b in zip(values, values[1:]) if b < a]
    assert not back, f"{what} went back {len(back)} times, first {back[0]}"


@pytest.mark.parametrize("mode", ["sim", "lockstep"])
def test_reset_and_initialpose_never_move_time_back(ros_process, mode):
    extra = ["-p", "rate_factor:=4"] if mode == "sim" else []
    extra += ["-p", f"lockstep_steps:={LOCKSTEP_STEPS}"] if mode == "lockstep" else []
    proc = ros_process([str(NODE_EXE), "--ros-args", "-r", f"__ns:=/t{mode}", "-p", f"time_mode:={mode}",
                        *extra], name=mode)
    probe = Probe(f"t{mode}")
    try:
        def advance():
            if mode == "lockstep":
                for _ in range(5):
                    probe.call(probe.step)
            else:
                probe.spin(0.5)

        probe.matched(proc, clock=True, lockstep=mode == "lockstep")
        advance()
        before = max(probe.clock)
        probe.call(probe.reset)
        advance()
        probe.set_pose(25.0)
        probe.spin(0.3)   # the node takes the pose before the steps that follow
        advance()
        assert wait_for(lambda: probe.odom and abs(probe.odom[-1][2] - 25.0) < 1.0, 10.0,
                        spin=lambda: rclpy.spin_once(probe.node, timeout_sec=0.02)), probe.odom[-1:]
        assert max(probe.clock) > before + 0.1
        _assert_monotonic(probe.clock, "/clock")
        _assert_monotonic([s for s, _w, _x in probe.odom], "odom stamps")
    finally:
        probe.close()
    assert proc.alive(), proc.output()


@pytest.mark.parametrize("record", [False, True], ids=["plain", "recording"])
def test_realtime_stamps_stay_on_the_wall_clock_across_a_reset(ros_process, tmp_path, record):
    extra = ["-p", f"record_bag:={tmp_path / 'bag'}"] if record else []
    proc = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/treal", *extra], name="realtime")
    probe = Probe("treal")
    try:
        probe.matched(proc, clock=False)   # realtime: no /clock
        probe.spin(1.0)   # stamps before the reset, for the monotonic check across it
        probe.call(probe.reset)
        probe.set_pose(5.0)
        n = len(probe.odom)
        probe.spin(2.0)
        after = probe.odom[n:]
        _assert_monotonic([s for s, _w, _x in probe.odom], "odom stamps")
        # receipt - stamp: the stamp trails the wall clock by the publication's latency
        lag_ms = sorted(1e3 * (w - s) for s, w, _x in after)
        p50, p99 = statistics.median(lag_ms), lag_ms[int(0.99 * (len(lag_ms) - 1))]
        assert len(after) > 100, len(after)
        assert lag_ms[0] > -1.0, f"stamps ahead of the wall clock: {lag_ms[0]:.2f} ms"
        # The lag was -18.8 ms median and growing before (issue 13 item 5), 0.27 s with a
        # recording (issue 14 item 4). p99 <= 5 ms is the goal (bench/bench_node.py measures it
        # over 60 s); the test allows for the load of a shared CI machine on both sides.
        assert p50 < 8.0 and p99 < 30.0, f"receipt - stamp p50 {p50:.2f} ms, p99 {p99:.2f} ms"
    finally:
        probe.close()
    assert proc.alive(), proc.output()


def test_the_stall_warning_says_how_far_behind_and_what_was_skipped():
    """A realtime node 3 s late (stopped, stalled) catches up 1 s (MAX_CATCH_UP_S) and skips 2 s; the
    warning names the lag, not only the part skipped."""
    from acres_dbw_sim.node import SimNode
    from acres_dbw_sim.pacing import MAX_CATCH_UP_S

    rclpy.init()
    try:
        node = SimNode()
        said = []
        node.get_logger = lambda: type("L", (), {"warning": lambda _s, text: said.append(text)})()
        due, wall_shift_s, epoch_shift_s = node._pace(node._wall_t0 + 3.0)
        assert due == int(MAX_CATCH_UP_S * 120) and wall_shift_s == epoch_shift_s == pytest.approx(2.0)
        assert said == ["fell 3.000 s behind the wall clock (process stopped or machine stalled): caught up "
                        "1.000 s, skipped 2.000 s (stamps jump forward)"]
        node.destroy_node()
    finally:
        rclpy.try_shutdown()


def test_a_reset_says_what_it_does_to_the_dbw():
    """~/reset puts the DBW at power-on (the real vehicle has no reset): engaged before, disengaged after,
    and the response and the log say so."""
    from std_srvs.srv import Trigger

    from acres_dbw_sim.dbw.commands import ENABLE
    from acres_dbw_sim.node import SimNode

    rclpy.init()
    try:
        node = SimNode()
        node.sim.submit(ENABLE)
        node.sim.step()
        assert node.sim.dbw_enabled
        reset = next(s for s in node.services if s.srv_name == "~/reset")
        res = reset.callback(Trigger.Request(), Trigger.Response())
        assert res.success and "DBW is at power-on (disengaged" in res.message
        assert not node.sim.dbw_enabled
        node.destroy_node()
    finally:
        rclpy.try_shutdown()
