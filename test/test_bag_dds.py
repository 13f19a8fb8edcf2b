"""Recording from the running node (parameter ``record_bag``) over real DDS, and the round trip:
the recorded bag replayed offline reproduces the node's outputs (bit for bit in lockstep; in
real time within a physics step's worth of speed). Skipped until the node declares the parameter."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from rosbags.rosbag2 import Reader
from rosgraph_msgs.msg import Clock
from std_msgs.msg import Bool, Empty
from std_srvs.srv import Trigger

import ds_dbw_msgs.msg as dbw_msgs
from acres_dbw_sim.replay import replay_bag
from helpers.dds import call_service, matched, spin_for, wait_for
from helpers.bags import assert_rosbags_reads_every_topic, assert_same_outputs

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def _client(name):
    rclpy.init()
    node = rclpy.create_node(name)
    pubs = {"ulc": node.create_publisher(dbw_msgs.UlcCmd, "/vehicle/ulc/cmd", 1),
            "steer": node.create_publisher(dbw_msgs.SteeringCmd, "/vehicle/steering/cmd", 1),
            "enable": node.create_publisher(Empty, "/vehicle/enable", 10)}
    return node, pubs


def _ulc(v):
    return dbw_msgs.UlcCmd(cmd=v, cmd_type=1, limit_accel=1.5, limit_decel=1.5, enable=True, enable_shift=True,
                           enable_shift_park=True)


def _wait_closed(bag: Path, proc) -> None:
    assert proc.proc.wait(timeout=15) is not None
    assert (bag / "metadata.yaml").is_file(), f"the bag was not closed:\n{proc.output()}"
    with Reader(bag) as r:   # rosbags' own reader: a complete, indexed bag
        topics = {c.topic for c in r.connections}
        assert r.message_count > 0
    assert {"/vehicle/ulc/cmd", "/vehicle/enable", "/vehicle/odom", "/vehicle/vehicle_velocity"} <= topics
    assert "/vehicle/joint_states" in assert_rosbags_reads_every_topic(bag)   # every topic, every message


def test_lockstep_recording_replays_bit_for_bit(ros_process, tmp_path):
    bag = tmp_path / "lockstep"
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=lockstep", "-p", "lockstep_steps:=6",
                        "-p", f"record_bag:={bag}"], name="sim_node")
    node, pubs = _client("record_client")
    try:
        clock = []   # before the step client: a step whose response is lost is checked on /clock
        clock_sub = node.create_subscription(Clock, "/clock",
                                             lambda m: clock.append(m.clock.sec + m.clock.nanosec * 1e-9), 100)
        step = node.create_client(Trigger, "/vehicle/dbw_node/step")
        # lockstep: no /clock before the first step
        matched(node, proc, publishers=list(pubs.values()), subscriptions=[clock_sub], clients=[step], data=False)
        pubs["enable"].publish(Empty())
        for k in range(80):   # commands race the steps on purpose: the bag holds when each was applied
            pubs["ulc"].publish(_ulc(4.0 if k < 50 else 0.0))
            if k % 2 == 0:
                pubs["steer"].publish(dbw_msgs.SteeringCmd(cmd=0.004 * k, cmd_type=3, enable=True))
            reply = call_service(node, step, Trigger.Request(), idempotent=False,   # 6 steps: 50 ms
                                 done=lambda k=k: clock and clock[-1] >= 0.05 * (k + 1) - 1e-6)
            assert reply is None or reply.success
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    os.killpg(proc.proc.pid, signal.SIGINT)
    _wait_closed(bag, proc)
    res = replay_bag(bag, tmp_path / "out", plots=False)
    assert res.input.param_source["step_hz"] == "bag"
    assert res.input.command_counts["/vehicle/ulc/cmd"] > 70
    assert max(res.run.column("speed_mps")) > 2.0
    assert_same_outputs(bag, tmp_path / "out" / "bag", exact=True)


def test_realtime_recording_closed_by_sigterm_replays_within_a_step(ros_process, tmp_path):
    bag = tmp_path / "realtime"
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", f"record_bag:={bag}"], name="sim_node")
    node, pubs = _client("record_client_rt")
    try:
        # the node's readers match seconds before it spins (it opens the bag in between) and keep one
        # ulc/cmd: its first dbw_enabled says it takes the stream as it comes
        enabled = node.create_subscription(Bool, "/vehicle/dbw_enabled", lambda _m: None, 2)
        matched(node, proc, publishers=list(pubs.values()), subscriptions=[enabled])
        pubs["enable"].publish(Empty())
        t0 = time.monotonic()
        k = 0
        while time.monotonic() - t0 < 3.0:   # 50 Hz from the wall clock, as a stack would
            pubs["ulc"].publish(_ulc(3.0 if time.monotonic() - t0 < 2.0 else 0.0))
            pubs["steer"].publish(dbw_msgs.SteeringCmd(cmd=0.2, cmd_type=3, enable=True))
            k += 1
            spin_for(node, 0.02)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    os.killpg(proc.proc.pid, signal.SIGTERM)
    _wait_closed(bag, proc)
    assert f"recording to {bag}" in proc.output()
    assert wait_for(lambda: re.search(rf"bag closed: {re.escape(str(bag))} \(\d+ messages\)", proc.output()), 10.0), \
        proc.output()
    res = replay_bag(bag, tmp_path / "out", plots=False)
    assert res.input.epoch_s > 1e9   # real-time stamps
    # the vehicle moved (about 2 m/s; less when a loaded machine delays the client's stream)
    assert max(res.run.column("speed_mps")) > 0.3
    worst = assert_same_outputs(bag, tmp_path / "out" / "bag", exact=False)
    print(f"real-time round trip: largest |difference| of speed/pose over the recorded outputs {worst:.3g}")
    # within what one physics step changes the speed (|a| <= 3 m/s^2 here); in practice it is exact
    assert worst <= 3.0 / 120.0, worst
