"""Benchmark: launch to first odometry over DDS (not a test: it prints figures).

Starts the node as ``make run`` does (``sim_node --ros-args --params-file
config/sim.yaml``, numba kernels cached as ``make bootstrap`` leaves them) and
measures two orders of start, each ``--runs`` times:

* **subscriber first** (target < 2 s): a subscriber to
  ``/vehicle/odom`` is up; the wall time from starting the node's process to
  the subscriber's match with the publisher (DDS discovery done) and to the
  first message. Once with the subscriber on Fast DDS's defaults, once with it
  on the shipped participant profile ``config/fastdds_discovery.xml``
  (``FASTDDS_DEFAULT_PROFILES_FILE``), as docs/discovery.md recommends;
* **node first**: the node up for 3 s, then a new subscriber process; the time
  from the end of its ``rclpy.init()`` to the first message. Once with the node
  on the shipped profile (its default) and once with ``ACRES_FASTDDS_PROFILE=0``
  (Fast DDS's defaults).

A participant that joins learns of one that is already up when that one next
announces itself (Fast DDS: every 3 s by default, 0.3 s with the profile), so
the side that is already running sets the tail.

Each measurement runs in its own processes with its own random
``ROS_DOMAIN_ID`` (150-199), so other ROS processes on the machine neither
disturb it nor are disturbed; ``--range localhost`` sets
``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` as the test suite does, ``default``
leaves it unset as a user's ``make run``.

Run: ``. .venv/setup.sh && python bench/bench_first_odom.py [--runs 10] [--range default|localhost|both]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from process_group import stop_process_group

ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "config" / "fastdds_discovery.xml"
RANGES = {"default": None, "localhost": "LOCALHOST"}
TARGET_S = 2.0
NODE_CMD = ["sim_node", "--ros-args", "--params-file", str(ROOT / "config" / "sim.yaml")]


def _start_node(env: dict) -> subprocess.Popen:
    return subprocess.Popen(NODE_CMD, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _wait_first(node, sub, got: list, t0: float) -> tuple[float, float]:
    """Spin until the first message: (seconds to the match, seconds to the message) after ``t0``."""
    import rclpy

    matched = float("nan")
    while not got and time.monotonic() - t0 < 30.0:
        rclpy.spin_once(node, timeout_sec=0.002)
        if matched != matched and sub.get_publisher_count() > 0:
            matched = time.monotonic() - t0
    return matched, (got[0] - t0) if got else float("nan")


def subscriber_first(runs: int, node_env: dict) -> None:
    """Child process: a subscriber that is up, then the node ``runs`` times; prints match and first message."""
    import rclpy
    from nav_msgs.msg import Odometry

    rclpy.init()
    node = rclpy.create_node("bench_first_odom")
    try:
        end = time.monotonic() + 2.0   # the subscriber's own participant settles first
        while time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.01)
        for _ in range(runs):
            got: list[float] = []
            sub = node.create_subscription(Odometry, "/vehicle/odom", lambda _m: got.append(time.monotonic()), 10)
            t0 = time.monotonic()
            proc = _start_node(node_env)
            try:
                matched, first = _wait_first(node, sub, got, t0)
            finally:
                stop_process_group(proc, 10.0)
            print(f"{matched:.3f} {first:.3f}", flush=True)
            node.destroy_subscription(sub)
            time.sleep(1.0)   # the node's participant leaves before the next one starts
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def late_subscriber() -> None:
    """Child process: a new participant subscribing to a node that is up; prints match and first message
    after the end of its ``rclpy.init()``."""
    import rclpy
    from nav_msgs.msg import Odometry

    rclpy.init()
    t0 = time.monotonic()
    node = rclpy.create_node("bench_late_subscriber")
    got: list[float] = []
    sub = node.create_subscription(Odometry, "/vehicle/odom", lambda _m: got.append(time.monotonic()), 10)
    matched, first = _wait_first(node, sub, got, t0)
    print(f"{matched:.3f} {first:.3f}", flush=True)
    node.destroy_node()
    rclpy.try_shutdown()


def _env(range_name: str, profile: bool) -> dict:
    env = dict(os.environ)
    for key in ("ROS_AUTOMATIC_DISCOVERY_RANGE", "FASTDDS_DEFAULT_PROFILES_FILE", "FASTRTPS_DEFAULT_PROFILES_FILE",
                "ACRES_FASTDDS_PROFILE"):
        env.pop(key, None)
    if RANGES[range_name] is not None:
        env["ROS_AUTOMATIC_DISCOVERY_RANGE"] = RANGES[range_name]
    if profile:
        env["FASTDDS_DEFAULT_PROFILES_FILE"] = str(PROFILE)
    return env


def _report(label: str, pairs: list, env: dict, target: bool) -> None:
    firsts = [f for _m, f in pairs]
    line = (f"{label} (domain {env['ROS_DOMAIN_ID']}): first odom {', '.join(f'{f:.2f}' for f in firsts)} s; "
            f"median {statistics.median(firsts):.2f} s, max {max(firsts):.2f} s")
    if target:
        line += f"; under {TARGET_S:.0f} s in {sum(1 for f in firsts if f < TARGET_S)}/{len(firsts)}"
    print(f"{line} (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)


def measure_subscriber_first(range_name: str, runs: int, subscriber_profile: bool) -> None:
    env = _env(range_name, subscriber_profile)
    env["ROS_DOMAIN_ID"] = str(random.randint(150, 199))
    node_env = _env(range_name, False)   # the node on its own default (the shipped profile)
    node_env["ROS_DOMAIN_ID"] = env["ROS_DOMAIN_ID"]
    out = subprocess.run([sys.executable, __file__, "--child-subscriber-first", str(runs)], env=env,
                         capture_output=True, text=True, check=True).stdout
    pairs = [tuple(float(x) for x in line.split()) for line in out.splitlines() if line.strip()]
    who = "the shipped profile" if subscriber_profile else "Fast DDS defaults"
    _report(f"{range_name:9s} subscriber first, subscriber on {who}", pairs, env, True)


def measure_node_first(range_name: str, runs: int, node_profile: bool) -> None:
    env = _env(range_name, False)
    env["ROS_DOMAIN_ID"] = str(random.randint(150, 199))
    node_env = dict(env) if node_profile else dict(env, ACRES_FASTDDS_PROFILE="0")
    pairs = []
    for _ in range(runs):
        proc = _start_node(node_env)
        try:
            time.sleep(3.0)
            out = subprocess.run([sys.executable, __file__, "--child-late-subscriber"], env=env,
                                 capture_output=True, text=True, check=True).stdout
            pairs.append(tuple(float(x) for x in out.split()))
        finally:
            stop_process_group(proc, 10.0)
        time.sleep(1.0)
    _report(f"{range_name:9s} node first, node on {'the shipped profile' if node_profile else 'Fast DDS defaults'}",
            pairs, env, False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--range", choices=["default", "localhost", "both"], default="both")
    ap.add_argument("--child-subscriber-first", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--child-late-subscriber", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_subscriber_first:
        env = dict(os.environ)
        env.pop("FASTDDS_DEFAULT_PROFILES_FILE", None)   # the node chooses its own profile
        subscriber_first(args.child_subscriber_first, env)
        return 0
    if args.child_late_subscriber:
        late_subscriber()
        return 0
    for name in (["default", "localhost"] if args.range == "both" else [args.range]):
        measure_subscriber_first(name, args.runs, subscriber_profile=False)
        measure_subscriber_first(name, args.runs, subscriber_profile=True)
        measure_node_first(name, args.runs, node_profile=False)
        measure_node_first(name, args.runs, node_profile=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
