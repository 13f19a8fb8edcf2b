"""Lockstep delivers every message: a reliable subscriber whose depth is at least ``lockstep_steps`` (or
KEEP_ALL) has every message of every step before the step's response arrives (docs/node.md, Time). The race
is forced, not left to machine load: the subscriber (``peers/count_peer.py``, 1 ms per callback) is
stopped (SIGSTOP) for 0.3 s during every tenth ~/step call, so it acknowledges late; a writer that
keeps 2 messages (the DBW reports') drops the older ones unless the node waits."""
from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from nav_msgs.msg import Odometry
from std_srvs.srv import Trigger

from helpers.dds import call_service, matched, wait_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
PEER = Path(__file__).resolve().parent / "peers" / "count_peer.py"
LOCKSTEP_STEPS = 12
CALLS = 60           # 720 physics steps, 6 s of simulated time


@pytest.mark.parametrize("args", [[], ["-p", "vehicles:=[car1]"]], ids=["single", "fleet"])
def test_every_message_of_every_step_reaches_a_late_subscriber(ros_process, args):
    fleet = bool(args)
    ns = "/car1/vehicle" if fleet else "/vehicle"
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=lockstep", "-p",
                        f"lockstep_steps:={LOCKSTEP_STEPS}", "-p", "initial_speed_mps:=15.0",
                        "-p", "initial_gear:=D", *args], name="lockstep")
    peer = ros_process([str(PEER), ns, str(CALLS * LOCKSTEP_STEPS)], name="peer")
    rclpy.init()
    node = rclpy.create_node("lockstep_client")
    try:
        odom = node.create_subscription(Odometry, f"{ns}/odom", lambda _m: None, 10)
        step = node.create_client(Trigger, "/dbw_fleet/step" if fleet else "/vehicle/dbw_node/step")
        assert wait_for(lambda: "matched" in peer.output() or not peer.alive(), 60.0), peer.output()
        matched(node, proc, subscriptions=[odom], clients=[step], data=False, procs=[peer])
        for k in range(CALLS):
            if k % 10 == 5:   # the peer stops acknowledging for 0.3 s in the middle of this call
                os.kill(peer.proc.pid, signal.SIGSTOP)
                threading.Timer(0.3, os.kill, (peer.proc.pid, signal.SIGCONT)).start()
            reply = call_service(node, step, Trigger.Request(), timeout_s=20.0)
            assert reply.success
        assert wait_for(lambda: not peer.alive(), 60.0), peer.output()
        line = [ln for ln in peer.output().splitlines() if ln.startswith("counts ")][-1]
        counts = json.loads(line[len("counts "):])
        assert counts == {"wheel_positions": CALLS * LOCKSTEP_STEPS, "odom": CALLS * LOCKSTEP_STEPS,
                          "tf": CALLS * LOCKSTEP_STEPS}, (counts, proc.output()[-2000:])
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
