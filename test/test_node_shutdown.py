"""Clean shutdown (issue 13 item 9): SIGINT or SIGTERM, at any moment, with
subscribers joining and leaving, ends the node with exit 0 and no traceback."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from nav_msgs.msg import Odometry
import ds_dbw_msgs.msg as dbw_msgs

from conftest import wait_for

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
STOPS = int(os.environ.get("ACRES_TEST_STOPS", "50"))
PARALLEL = 5   # nodes alive at once (in their own namespaces)


def test_signal_stops_exit_0_without_traceback(ros_process):
    rclpy.init()
    node = rclpy.create_node("churn")
    rng = random.Random(13)
    try:
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.01)  # noqa: E731
        done, failures, started = 0, [], 0
        live = []   # (proc, subscriptions, namespace)
        while done < STOPS:
            while len(live) < PARALLEL and started < STOPS:
                ns = f"stop{started}"
                proc = ros_process([str(NODE_EXE), "--ros-args", "-r", f"__ns:=/{ns}",
                                    "-p", "status_period_s:=0.0"], name=ns)
                live.append((proc, [], ns))
                started += 1
            proc, subs, ns = live.pop(0)
            # up: wait for its odometry through a subscription that then leaves
            got = []
            sub = node.create_subscription(Odometry, f"/{ns}/odom", got.append, 10)
            assert wait_for(lambda: got, 60.0, spin=spin), proc.output()
            # subscribers join and leave while it runs, the stop falls among them
            for _ in range(rng.randint(1, 4)):
                subs.append(node.create_subscription(dbw_msgs.SteeringReport, f"/{ns}/steering/report",
                                                     lambda _m: None, 2))
                wait_for(lambda: False, rng.uniform(0.0, 0.05), spin=spin)
                node.destroy_subscription(subs.pop(0))
            node.destroy_subscription(sub)
            sig = signal.SIGINT if done % 5 else signal.SIGTERM
            time.sleep(rng.uniform(0.0, 0.02))
            os.kill(proc.proc.pid, sig)
            try:
                code = proc.proc.wait(timeout=20.0)
            except Exception:
                code = None
            out = proc.output()
            if code != 0 or "Traceback" in out or "RCLError" in out:
                failures.append(f"{ns} ({signal.Signals(sig).name}): exit {code}\n{out[-2000:]}")
            for s in subs:
                node.destroy_subscription(s)
            done += 1
        assert not failures, f"{len(failures)} of {STOPS} stops unclean:\n" + "\n".join(failures[:3])
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
