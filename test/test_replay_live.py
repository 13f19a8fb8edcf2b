"""Live replay over DDS: ``acres-replay BAG --live`` publishes a bag's commands into a running node
at their recorded timing (and ``/clock`` with ``--clock``)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Clock

import ds_dbw_msgs.msg as dbw_msgs
from acres_dbw_sim.replay import scan_bag, scenario_to_bag
from std_msgs.msg import Empty
from helpers.dds import matched, spin_for, wait_for
from helpers.replay import bag_without, replay_scenario

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def test_live_replay_drives_a_running_node_at_recorded_timing(ros_process, tmp_path):
    sc = replay_scenario(tmp_path, 3.0)
    scenario_to_bag(sc, tmp_path / "bag")
    recorded = [t for t, _c, _d in scan_bag(tmp_path / "bag", lambda t: t == "/vehicle/ulc/cmd").records]
    node_proc = ros_process([str(NODE_EXE)], name="sim_node")
    rclpy.init()
    probe = rclpy.create_node("live_probe")
    try:
        arrivals, odoms, clocks = [], [], []
        ulc = probe.create_subscription(dbw_msgs.UlcCmd, "/vehicle/ulc/cmd",
                                        lambda m: arrivals.append(time.monotonic()), 100)
        odom = probe.create_subscription(Odometry, "/vehicle/odom", odoms.append, 10)
        clock = probe.create_subscription(Clock, "/clock", clocks.append, 100)
        matched(probe, node_proc, subscriptions=[odom])
        player = ros_process(["-m", "acres_dbw_sim.replay", str(tmp_path / "bag"), "--live", "--clock", "50"],
                             name="player")
        # the player's writers exist only now; it streams for 3 s, so the probe matches them mid-stream
        matched(probe, procs=[node_proc, player], subscriptions=[ulc, clock])
        assert wait_for(lambda: not player.alive(), 30.0, spin=lambda: rclpy.spin_once(probe, timeout_sec=0.02)), \
            player.output()
        spin_for(probe, 0.3)   # what the player sent last is still on its way
        assert player.proc.returncode == 0, player.output()
        # it says what it publishes before it starts
        assert re.search(r"bag: publishing \d+ commands on 3 topics over [23]\.\d\d s of bag time at 1x, "
                         r"/clock at 50 Hz \(ROS_DOMAIN_ID=\d+\)", player.output()), player.output()
        published = re.search(r"published (\d+) commands", player.output())
        assert published and int(published.group(1)) >= len(recorded), player.output()   # nothing dropped
        # This probe is not the node: the player waits for the node's subscription only, so on a loaded
        # machine the probe may match its writer late and miss the first commands (it once saw 63 of 150).
        # What it receives is the tail, at the recorded timing: the span and the 50 Hz period agree.
        assert len(arrivals) >= 0.3 * len(recorded), (len(arrivals), len(recorded))
        tail = recorded[-len(arrivals):]
        span_rec = (tail[-1] - tail[0]) * 1e-9
        assert abs((arrivals[-1] - arrivals[0]) - span_rec) < 0.25, (arrivals[-1] - arrivals[0], span_rec)
        assert abs(np.median(np.diff(arrivals)) - 0.02) < 0.005
        assert max(o.twist.twist.linear.x for o in odoms) > 1.5, "the commands did not drive the node"
        stamps = [c.clock.sec + c.clock.nanosec * 1e-9 for c in clocks]
        assert len(stamps) > 50 and stamps[0] >= 1.7e9 and stamps == sorted(stamps)
    finally:
        probe.destroy_node()
        rclpy.try_shutdown()


def test_live_replay_of_a_bag_without_enable_engages_the_node_as_the_reports_show(ros_process, tmp_path):
    """A bag engaged with the buttons (no enable message, dbw_enabled shows it): the live replay publishes
    an enable where dbw_enabled turns true, so the node is engaged and driven."""
    sc = replay_scenario(tmp_path, 3.0)
    scenario_to_bag(sc, tmp_path / "full")
    bag = bag_without(tmp_path / "full", tmp_path / "bag", {"/vehicle/enable"})
    node_proc = ros_process([str(NODE_EXE)], name="sim_node")
    rclpy.init()
    probe = rclpy.create_node("live_probe_engage")
    try:
        enables, odoms = [], []
        enable = probe.create_subscription(Empty, "/vehicle/enable", enables.append, 10)
        odom = probe.create_subscription(Odometry, "/vehicle/odom", odoms.append, 10)
        matched(probe, node_proc, subscriptions=[odom])
        player = ros_process(["-m", "acres_dbw_sim.replay", str(bag), "--live"], name="player")
        # the player's enable writer exists only now; it sends once, maybe before this probe matched it
        matched(probe, procs=[node_proc, player], subscriptions=[enable], data=False)
        assert wait_for(lambda: not player.alive(), 30.0, spin=lambda: rclpy.spin_once(probe, timeout_sec=0.02)), \
            player.output()
        spin_for(probe, 0.3)   # what the player sent last is still on its way
        assert player.proc.returncode == 0, player.output()
        # one enable at most reaches this probe (it is published once; the probe, not the node, may have
        # matched the player's writer too late to see it): the node's motion shows the engagement
        assert "engaged_from_reports" in player.output() and len(enables) <= 1
        assert max(o.twist.twist.linear.x for o in odoms) > 1.5, "the node was not engaged"
    finally:
        probe.destroy_node()
        rclpy.try_shutdown()


def test_live_replay_without_a_node_says_nothing_was_received(tmp_path, capsys):
    """No node on this domain: the commands reach no vehicle, so the status is 2 ("nothing replayed")."""
    from acres_dbw_sim.replay.cli import main
    sc = replay_scenario(tmp_path, 0.5)
    scenario_to_bag(sc, tmp_path / "bag")
    assert main([str(tmp_path / "bag"), "--live", "--speed", "10"]) == 2
    err = capsys.readouterr().err
    assert "no node subscribed to any command topic" in err, err
