#!/usr/bin/env python3
"""Lockstep delivery and speed: every message of every step, and the real-time factor.

Usage::

    . .venv/setup.sh
    python bench/bench_lockstep.py                      # both measurements below
    python bench/bench_lockstep.py --sim-s 120 --slow-ms 1 --only delivery

Starts ``sim_node`` in ``lockstep`` (``lockstep_steps`` 12, 15 m/s in D, ``report_rates: mission``)
in its own process group and steps it from this process for ``--sim-s`` of simulated time:

* **delivery**: reliable KEEP_ALL subscriptions on ``wheel_positions``, ``odom`` and ``/tf`` whose
  callbacks sleep ``--slow-ms`` each (a slow client, stepping as fast as the answers come); prints
  how many of the expected messages (one per step and topic) arrived;
* **speed**: a reliable subscription (depth 12) on every topic the node publishes, callbacks that
  only count; prints simulated seconds per wall second of the stepping loop.

Each prints one line; exit 1 when a message was lost.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

STEPS_PER_CALL = 12
STEP_HZ = 120.0


def _start_node() -> subprocess.Popen:
    exe = Path(sys.prefix) / "lib" / "acres_dbw_sim" / "sim_node"
    return subprocess.Popen([sys.executable, str(exe), "--ros-args", "-p", "time_mode:=lockstep",
                             "-p", f"lockstep_steps:={STEPS_PER_CALL}", "-p", "initial_speed_mps:=15.0",
                             "-p", "initial_gear:=D", "-p", "report_rates:=mission"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _wait_matched(node, subs, client, timeout_s=60.0) -> None:
    import rclpy
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.05)
        if client.service_is_ready() and all(s.get_publisher_count() > 0 for s in subs):
            break
    else:
        raise RuntimeError("the node did not come up")
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.02)


def _step(node, client) -> None:
    import rclpy
    from std_srvs.srv import Trigger
    future = client.call_async(Trigger.Request())
    rclpy.spin_until_future_complete(node, future, timeout_sec=30.0)
    if future.result() is None:
        raise RuntimeError("no answer to ~/step")


def _drive(node, client, sim_s: float) -> tuple[int, float]:
    """Step ``sim_s`` of simulated time as fast as the answers come: (calls, wall time of the loop [s])."""
    calls = int(round(sim_s * STEP_HZ / STEPS_PER_CALL))
    t0 = time.perf_counter()
    for _ in range(calls):
        _step(node, client)
    return calls, time.perf_counter() - t0


def delivery(sim_s: float, slow_ms: float) -> bool:
    """The slow-client run; True when nothing was lost."""
    import rclpy
    from ds_dbw_msgs.msg import WheelPositions
    from nav_msgs.msg import Odometry
    from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
    from std_srvs.srv import Trigger
    from tf2_msgs.msg import TFMessage

    proc = _start_node()
    rclpy.init()
    node = rclpy.create_node("bench_lockstep_delivery")
    try:
        qos = QoSProfile(history=HistoryPolicy.KEEP_ALL, reliability=ReliabilityPolicy.RELIABLE)
        got = {"wheel_positions": set(), "odom": set(), "tf": set()}

        def take(name, stamp_of):
            def cb(msg):
                st = stamp_of(msg)
                got[name].add(st.sec * 1_000_000_000 + st.nanosec)
                time.sleep(slow_ms * 1e-3)
            return cb

        subs = [node.create_subscription(WheelPositions, "/vehicle/wheel_positions",
                                         take("wheel_positions", lambda m: m.header.stamp), qos),
                node.create_subscription(Odometry, "/vehicle/odom", take("odom", lambda m: m.header.stamp), qos),
                node.create_subscription(TFMessage, "/tf", take("tf", lambda m: m.transforms[0].header.stamp), qos)]
        client = node.create_client(Trigger, "/vehicle/dbw_node/step")
        _wait_matched(node, subs, client)
        calls, loop_s = _drive(node, client, sim_s)
        end = time.monotonic() + 30.0
        want = calls * STEPS_PER_CALL
        while time.monotonic() < end and any(len(v) < want for v in got.values()):
            rclpy.spin_once(node, timeout_sec=0.05)
        counts = {k: len(v) for k, v in got.items()}
        print(f"delivery: {sim_s:g} s simulated ({want} steps), callbacks {slow_ms:g} ms: "
              + ", ".join(f"{k} {n} of {want}" for k, n in counts.items())
              + f"; stepping loop {sim_s / loop_s:.1f}x real time", flush=True)
        return all(n == want for n in counts.values())
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=10)


def speed(sim_s: float) -> None:
    """A counting subscriber on every topic the node publishes; prints the real-time factor."""
    import importlib

    import rclpy
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from std_srvs.srv import Trigger

    proc = _start_node()
    rclpy.init()
    node = rclpy.create_node("bench_lockstep_speed")
    try:
        client = node.create_client(Trigger, "/vehicle/dbw_node/step")
        end = time.monotonic() + 60.0
        while time.monotonic() < end and not client.service_is_ready():
            rclpy.spin_once(node, timeout_sec=0.05)
        time.sleep(1.0)   # the node's topics into the graph
        rclpy.spin_once(node, timeout_sec=0.05)
        count = [0]
        subs = []
        for topic, types in node.get_topic_names_and_types():
            infos = node.get_publishers_info_by_topic(topic)
            if not any(i.node_name == "dbw_node" for i in infos) or topic in ("/rosout", "/parameter_events"):
                continue
            pkg, _, name = types[0].split("/")
            msg_type = getattr(importlib.import_module(f"{pkg}.msg"), name)
            qos = QoSProfile(depth=STEPS_PER_CALL, reliability=ReliabilityPolicy.RELIABLE)
            qos.durability = infos[0].qos_profile.durability
            subs.append(node.create_subscription(msg_type, topic, lambda _m: count.__setitem__(0, count[0] + 1),
                                                 qos))
        _wait_matched(node, subs, client)
        calls, loop_s = _drive(node, client, sim_s)
        print(f"speed: a subscriber on each of {len(subs)} topics, {sim_s:g} s simulated in {loop_s:.2f} s: "
              f"{sim_s / loop_s:.1f}x real time ({count[0]} messages taken)", flush=True)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=10)


def main() -> int:
    """Command line (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim-s", type=float, default=120.0, help="simulated time per run [s] (default 120)")
    ap.add_argument("--slow-ms", type=float, default=1.0, help="delivery run: sleep per callback [ms]")
    ap.add_argument("--only", choices=("delivery", "speed"), help="run one measurement")
    args = ap.parse_args()
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    ok = True
    if args.only in (None, "speed"):
        speed(args.sim_s)
    if args.only in (None, "delivery"):
        ok = delivery(args.sim_s, args.slow_ms)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
