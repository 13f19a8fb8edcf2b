"""Benchmark of the ROS node over real DDS (not a test: it prints figures).

Measures, each with the node as a separate process on this machine:

1. CPU of the node in ``realtime`` mode at 120 Hz with every topic published
   (target <= 15 % of one core, README "Performance"), from /proc over a 10 s window;
2. period jitter of ``odom`` as received by a subscriber (target p99 < 2 ms);
3. command-to-report latency: a new steering angle set-point until the steering
   report shows it as its ``cmd``;
4. the fastest ``sim`` rate factor sustained (target >= 20x real time), from
   ``/clock`` over a 5 s window;
5. a fuzzing client sending 1e5 random commands (``--fuzz N``): the node keeps
   running and no NaN reaches a published message outside the fields the real
   system leaves NaN;
6. realtime stamps against the wall clock (``--stamps S``, default 60 s each):
   receipt time - ``odom`` stamp at a subscriber, p50/p99/max, without and with
   ``record_bag``, and after a ``~/reset`` (target p99 <= 5 ms, recording within
   5 ms of not recording); and the node's own part of it, the writer's DDS source
   timestamp (the wall clock when the node hands the message to DDS) - stamp;
   With ``--busy N`` the stamps are measured while N processes spin on the CPU
   (niceness 0, as the node; ``--busy 2`` keeps both cores of this machine busy),
   a machine whose cores are busy;
7. launch to first odometry: in ``bench/bench_first_odom.py`` (DDS discovery
   in both orders of start, each in its own domain);
8. node CPU with a subscriber on every topic also with ``report_rates: vehicle``
   (targets <= 15 % mission, <= 10 % vehicle); ``--cpu-runs N`` measures N interleaved
   pairs of the two, each a fresh node with a subscriber on every topic it publishes (from
   the ROS graph), and prints the medians (``--cpu-only``: nothing else); ``--cpu-floor N``
   measures in N rounds what lies under those figures: a Python process waking at 120 Hz, an
   rclpy node with an empty 120 Hz timer, the node with no subscriber and with one on every topic,
   and the node's own message stream (every topic's type, QoS, bytes and rate, captured from the
   node) published as ready-made bytes by an rclpy process that does nothing else;
9. ``--fleet N``: one process serving N full-model vehicles
   (parameter ``vehicles``) in realtime at 120 Hz, a subscriber on every
   vehicle's ``odom`` and on ``/tf``: node CPU, messages received per second and
   odometry period jitter |T - 8.33 ms| p50/p99 over all vehicles, interleaved
   with the same measurement of one vehicle (``--fleet-runs`` pairs), since the
   machine is shared. ``--fleet-only`` measures nothing else. ``--fleet-floor N``: in N interleaved
   rounds the fleet of ``--fleet`` vehicles with a subscriber on every topic of every vehicle against
   its own stream published as bytes (the ``--cpu-floor`` method for the fleet), then exit.

The load average of the machine is printed with each figure: it is shared.

Run: ``make bench`` or ``. .venv/setup.sh && python bench/bench_node.py [--fuzz 100000] [--stamps 60]
[--busy 2] [--fleet 10 [--fleet-only | --fleet-floor 7]] [--cpu-floor 5] [--cpu-runs 8 [--cpu-only]]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test"))
os.environ.setdefault("ROS_DOMAIN_ID", str(150 + os.getpid() % 50))
os.environ["ACRES_TEST_KEEP_DOMAIN"] = "1"   # the test helpers imported below keep this domain
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"

import rclpy  # noqa: E402
import ds_dbw_msgs.msg as dbw_msgs  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402
from std_msgs.msg import Empty  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

from acres_dbw_sim.node import COMMAND_TOPICS, REPORT_TOPICS  # noqa: E402
from process_group import stop_process_group  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def load() -> str:
    """The machine's 1-minute load average, for the record next to a figure."""
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def start_node(*params: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "acres_dbw_sim.launcher", "--ros-args"]
    for p in params:
        args += ["-p", p]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def spin_for(node, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.005)


def bench_realtime(node, *params: str) -> None:
    proc = start_node(*params)
    try:
        arrivals: list[float] = []
        node.create_subscription(Odometry, "/vehicle/odom", lambda _m: arrivals.append(time.perf_counter()), 10)
        latest_cmd = {"v": math.nan}
        node.create_subscription(dbw_msgs.SteeringReport, "/vehicle/steering/report",
                                 lambda m: latest_cmd.__setitem__("v", m.cmd), 2)
        steer = node.create_publisher(dbw_msgs.SteeringCmd, "/vehicle/steering/cmd", 1)
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        spin_for(node, 3.0)   # discovery and warm-up
        arrivals.clear()
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        spin_for(node, 10.0)
        cpu = (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0)
        periods = [b - a for a, b in zip(arrivals, arrivals[1:])]
        dev = sorted(abs(p - 1.0 / 120.0) for p in periods)
        print(f"realtime 120 Hz, subscribers on odom and steering/report only: node CPU "
              f"{100 * cpu:.1f} % of one core")
        print(f"odom: {len(arrivals) / 10.0:.1f} msgs/s received; period jitter |T - 8.33 ms| "
              f"p50 {1e3 * dev[len(dev) // 2]:.2f} ms, p99 {1e3 * dev[int(0.99 * len(dev))]:.2f} ms, "
              f"max {1e3 * dev[-1]:.2f} ms")
        # Worst case: a subscriber on every topic, so the node fills and sends them all.
        subs = [node.create_subscription(getattr(dbw_msgs, ty), f"/vehicle/{t}", lambda _m: None, 2)
                for t, _a, ty, _p in REPORT_TOPICS]
        spin_for(node, 2.0)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        spin_for(node, 10.0)
        cpu_all = (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0)
        print(f"realtime 120 Hz {' '.join(params)}, a subscriber on every one of the {len(subs) + 4} "
              f"topics: node CPU {100 * cpu_all:.1f} % of one core ({load()})")
        if params:
            return
        for sub in subs:
            node.destroy_subscription(sub)
        # Command-to-report latency: alternate between two set-points.
        enable.publish(Empty())
        spin_for(node, 0.5)
        lat = []
        for k in range(40):
            target = 20.0 + 10.0 * (k % 2) + 12.5
            steer.publish(dbw_msgs.SteeringCmd(cmd=target, cmd_type=2, enable=True))
            t_sent = time.perf_counter()
            while time.perf_counter() - t_sent < 0.5:
                rclpy.spin_once(node, timeout_sec=0.001)
                if abs(latest_cmd["v"] - target) < 0.05:
                    lat.append(time.perf_counter() - t_sent)
                    break
            spin_for(node, 0.03)
        if lat:
            print(f"steering command -> steering/report cmd latency: median {1e3 * statistics.median(lat):.1f} ms, "
                  f"max {1e3 * max(lat):.1f} ms ({len(lat)}/40 matched)")
    finally:
        stop_process_group(proc)


def _message_class(type_name: str):
    """``pkg/msg/Type`` -> the Python message class."""
    package, kind, name = type_name.split("/")
    return getattr(importlib.import_module(f"{package}.{kind}"), name)


#: The simulator's ROS node: (name, namespace).
SIM_NODES = (("dbw_node", "/vehicle"),)


def fleet_nodes(count: int) -> tuple:
    """The ROS nodes of a fleet process of ``count`` vehicles ``car1`` .. (``vehicles`` parameter): each
    vehicle's ``/<name>/vehicle/dbw_node`` and the process's ``/dbw_fleet``."""
    return tuple((("dbw_node", f"/car{i + 1}/vehicle") for i in range(count))) + (("dbw_fleet", "/"),)


def fleet_param(count: int) -> str:
    """The ``vehicles`` parameter of a fleet of ``count`` Rangers ``car1`` .. ``car<count>``."""
    return "vehicles:=[" + ", ".join(f"car{i + 1}" for i in range(count)) + "]"


def node_topics(node, nodes: tuple = SIM_NODES) -> list:
    """``[(topic, type name)]`` of every topic the simulator's ``nodes`` ((name, namespace) pairs, default
    ``/vehicle/dbw_node``) publish, each once (from the ROS graph, ``/rosout`` and ``/parameter_events``
    aside), once the publishers of every one of them have appeared. Raises RuntimeError when they do not
    appear in 10 s."""
    def published() -> list:
        found: dict = {}
        for name, namespace in nodes:
            try:
                pubs = node.get_publisher_names_and_types_by_node(name, namespace)
            except Exception:   # the node is not in the graph yet
                return []
            if not pubs:
                return []
            found.update((t, types[0]) for t, types in pubs if t not in ("/rosout", "/parameter_events"))
        return sorted(found.items())

    topics: list = []
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and len(topics) < 20:
        spin_for(node, 0.2)
        topics = published()
    if not topics:
        raise RuntimeError("the node's publishers did not appear in 10 s")
    spin_for(node, 0.5)   # the rest of its publishers
    return published()


def cpu_every_topic(node, seconds: float, *params: str, nodes: tuple = SIM_NODES) -> tuple[float, int]:
    """Node CPU [fraction of one core] over ``seconds`` with a subscriber on every topic the node
    publishes (found in the ROS graph, ``/rosout`` and ``/parameter_events`` aside), and the number
    of those topics. The node is started with ``params`` and stopped here; the subscriptions are
    removed afterwards. Raises RuntimeError when the node's publishers do not appear in 10 s
    (:func:`node_topics`)."""
    proc = start_node(*params)
    subs = []
    try:
        topics = node_topics(node, nodes)
        subs = [node.create_subscription(_message_class(ty), t, lambda _m: None, 2) for t, ty in topics]
        spin_for(node, 3.0)   # discovery of the subscribers and warm-up
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        spin_for(node, seconds)
        return (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0), len(topics)
    finally:
        stop_process_group(proc)
        for sub in subs:
            node.destroy_subscription(sub)


# What any Python process pays to wake at 120 Hz on this machine, without and with rclpy's
# executor (the node's EventsExecutor, a timer that does nothing): the floor under the node's CPU.
_FLOOR_SCRIPTS = {
    "a Python loop sleeping to each 120 Hz tick": (
        "import time\n"
        "t = time.monotonic()\n"
        "while True:\n"
        "    t += 1 / 120\n"
        "    time.sleep(max(0.0, t - time.monotonic()))\n"),
    "an rclpy node with an empty 120 Hz timer (EventsExecutor)": (
        "import rclpy\n"
        "from rclpy.experimental import EventsExecutor\n"
        "rclpy.init()\n"
        "node = rclpy.create_node('bench_floor_timer')\n"
        "node.create_timer(1 / 120, lambda: None)\n"
        "executor = EventsExecutor()\n"
        "executor.add_node(node)\n"
        "while True:\n"
        "    executor.spin_once(timeout_sec=0.1)\n"),
}


# The node's own message stream without the node: every topic it publishes, the same types, QoS,
# serialized bytes and rates, published as bytes (``Publisher.publish(bytes)``, no message
# conversion) from a 120 Hz timer under the same executor. What this costs is what DDS and
# rclpy's publish path take, whatever a Python node does before it publishes.
_REPLAY_SCRIPT = (
    "import importlib, json, sys\n"
    "import rclpy\n"
    "from rclpy.experimental import EventsExecutor\n"
    "from rclpy.qos import QoSProfile, ReliabilityPolicy, DurabilityPolicy\n"
    "spec = json.load(open(sys.argv[1]))\n"
    "rclpy.init()\n"
    "node = rclpy.create_node('bench_floor_replay', namespace='/floor')\n"
    "pubs = []\n"
    "for t in spec:\n"
    "    pkg, kind, name = t['type'].split('/')\n"
    "    cls = getattr(importlib.import_module(pkg + '.' + kind), name)\n"
    "    qos = QoSProfile(depth=t['depth'], reliability=ReliabilityPolicy(t['reliability']),\n"
    "                     durability=DurabilityPolicy(t['durability']))\n"
    "    pubs.append((node.create_publisher(cls, '/floor' + t['topic'], qos), bytes.fromhex(t['data']),\n"
    "                 t['rate_hz'] / 120.0))\n"
    "tick = [0]\n"
    "def on_tick():\n"
    "    k = tick[0]\n"
    "    tick[0] = k + 1\n"
    "    for pub, data, per_tick in pubs:\n"
    "        if int((k + 1) * per_tick) > int(k * per_tick):\n"
    "            pub.publish(data)\n"
    "node.create_timer(1 / 120, on_tick)\n"
    "executor = EventsExecutor()\n"
    "executor.add_node(node)\n"
    "while True:\n"
    "    executor.spin_once(timeout_sec=0.1)\n")


def capture_stream(node, seconds: float, *params: str, nodes: tuple = SIM_NODES) -> list:
    """What the node publishes with ``params``: for every topic of its ROS ``nodes`` (:func:`node_topics`)
    its type, its publisher's QoS, its rate [Hz] over ``seconds`` (all its publishers together: a fleet's
    vehicles share ``/tf``) and its last message serialized. Starts and stops the node. Raises RuntimeError
    when the node's publishers do not appear in 10 s."""
    proc = start_node(*params)
    subs, counts, last = [], {}, {}
    try:
        topics = node_topics(node, nodes)
        spec = {}
        for topic, ty in topics:
            qos = node.get_publishers_info_by_topic(topic)[0].qos_profile
            spec[topic] = {"topic": topic, "type": ty, "depth": max(1, qos.depth or 1),
                           "reliability": int(qos.reliability), "durability": int(qos.durability)}
            counts[topic] = 0

            def on_msg(data, topic=topic):
                counts[topic] += 1
                last[topic] = data
            subs.append(node.create_subscription(_message_class(ty), topic, on_msg, 10, raw=True))
        spin_for(node, 2.0)   # discovery and warm-up
        for topic in counts:
            counts[topic] = 0
        t0 = time.monotonic()
        spin_for(node, seconds)
        span = time.monotonic() - t0
        out = []
        for topic, item in spec.items():
            if topic in last:
                item.update(rate_hz=counts[topic] / span, data=bytes(last[topic]).hex())
                out.append(item)
        return out
    finally:
        stop_process_group(proc)
        for sub in subs:
            node.destroy_subscription(sub)


def cpu_replay(node, spec: list, seconds: float, tmp: Path) -> float:
    """CPU [fraction of one core] of :data:`_REPLAY_SCRIPT` publishing ``spec`` (from
    :func:`capture_stream`) under ``/floor``, with a subscriber on every one of its topics."""
    path = tmp / "stream.json"
    path.write_text(json.dumps(spec))
    proc = subprocess.Popen([sys.executable, "-c", _REPLAY_SCRIPT, str(path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    got = [0]

    def on_msg(_m) -> None:
        got[0] += 1
    subs = [node.create_subscription(_message_class(t["type"]), "/floor" + t["topic"], on_msg, 2) for t in spec]
    try:
        spin_for(node, 4.0)   # discovery and warm-up
        c0, t0, n0 = cpu_seconds(proc.pid), time.monotonic(), got[0]
        spin_for(node, seconds)
        span = time.monotonic() - t0
        cpu = (cpu_seconds(proc.pid) - c0) / span
        sent = sum(t["rate_hz"] for t in spec)
        if (got[0] - n0) / span < 0.5 * sent:   # matched (a busy subscriber drops some: depth 2)
            raise RuntimeError(f"the replay's messages did not arrive: {(got[0] - n0) / span:.0f}/s "
                               f"of {sent:.0f}/s")
        return cpu
    finally:
        stop_process_group(proc)
        for sub in subs:
            node.destroy_subscription(sub)


def cpu_of(proc: subprocess.Popen, settle_s: float, seconds: float) -> float:
    """CPU [fraction of one core] of ``proc`` over ``seconds`` after ``settle_s``; stops it."""
    try:
        time.sleep(settle_s)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        return (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0)
    finally:
        stop_process_group(proc)


def tick_work_us(paced: bool, seconds: float = 5.0) -> float:
    """Mean wall time [us] of one tick's simulation work (``Simulation.step`` and ``reports``, in
    this process, no ROS), run back to back (``paced=False``) or once every 1/120 s as the node
    runs it, sleeping in between (``paced=True``): on a machine whose caches go cold while a
    process sleeps, the second is several times the first, and so is all the node's work."""
    from acres_dbw_sim.simulation import Simulation

    sim = Simulation()
    work, ticks = 0.0, 0
    end = time.monotonic() + seconds
    next_t = time.monotonic()
    while time.monotonic() < end:
        if paced:
            next_t += 1.0 / 120.0
            time.sleep(max(0.0, next_t - time.monotonic()))
        t0 = time.perf_counter()
        sim.step()
        sim.reports()
        work += time.perf_counter() - t0
        ticks += 1
    return 1e6 * work / ticks


def bench_cpu_floor(node, runs: int, seconds: float) -> None:
    """Where the node's CPU goes, ``runs`` interleaved rounds: the floor of waking at 120 Hz
    (:data:`_FLOOR_SCRIPTS`), the node with no subscriber (it steps, fills the reports and
    sends only what is always sent) at both report rates, the node with a subscriber on
    every topic (:func:`cpu_every_topic`) at both, and the node's stream at both rates replayed as
    bytes with a subscriber on every topic (:func:`capture_stream`, captured once per rate, and
    :func:`cpu_replay`: what publishing alone costs); prints every round and the medians, then
    :func:`tick_work_us` back to back and paced."""
    cases: dict = {}
    streams: dict = {}   # report rates -> the node's stream (capture_stream), captured once
    for k in range(runs):
        for label, script in _FLOOR_SCRIPTS.items():
            proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, start_new_session=True)
            cases.setdefault(label, []).append(100.0 * cpu_of(proc, 3.0, seconds))
        for params, rates in (((), "mission"), (("report_rates:=vehicle",), "vehicle")):
            cases.setdefault(f"the node, no subscriber, {rates} rates", []).append(
                100.0 * cpu_of(start_node(*params), 6.0, seconds))
            cpu, topics = cpu_every_topic(node, seconds, *params)
            cases.setdefault(f"the node, a subscriber on every topic ({topics}), {rates} rates", []).append(
                100.0 * cpu)
            spec = streams.get(rates) or streams.setdefault(rates, capture_stream(node, 5.0, *params))
            with tempfile.TemporaryDirectory() as tmp:
                cases.setdefault(f"its messages as bytes from an rclpy timer ({len(spec)} topics, "
                                 f"{sum(t['rate_hz'] for t in spec):.0f}/s), {rates} rates", []).append(
                    100.0 * cpu_replay(node, spec, seconds, Path(tmp)))
        print(f"round {k + 1}/{runs}: " + ", ".join(f"{v[-1]:.1f}" for v in cases.values()) + f" % ({load()})",
              flush=True)
    for label, values in cases.items():
        print(f"{label:70s} median {statistics.median(values):5.1f} %, range {min(values):.1f}-{max(values):.1f} %")
    hot, paced = tick_work_us(False), tick_work_us(True)
    print(f"one tick's Simulation.step + reports: {hot:.0f} us back to back, {paced:.0f} us once every "
          f"1/120 s ({paced / hot:.1f}x: the work of a process that sleeps between ticks runs cold)")


def bench_fleet_floor(node, count: int, runs: int, seconds: float) -> None:
    """The fleet node against its own floor, ``runs`` interleaved rounds: ``count`` Rangers in one process
    (:func:`fleet_param`) with a subscriber on every topic of every vehicle (:func:`cpu_every_topic`), and
    the same stream (captured once, :func:`capture_stream`) published as bytes from one rclpy timer with the
    same subscribers (:func:`cpu_replay`); prints every round, the medians and their ratio."""
    params, nodes = (fleet_param(count),), fleet_nodes(count)
    spec = capture_stream(node, 5.0, *params, nodes=nodes)
    fleet, floor = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs):
            cpu, topics = cpu_every_topic(node, seconds, *params, nodes=nodes)
            fleet.append(100.0 * cpu)
            floor.append(100.0 * cpu_replay(node, spec, seconds, Path(tmp)))
            print(f"fleet floor round {k + 1}/{runs}: {count} vehicles, a subscriber on every topic ({topics}): "
                  f"{fleet[-1]:.1f} %; its messages as bytes ({len(spec)} topics, "
                  f"{sum(t['rate_hz'] for t in spec):.0f}/s): {floor[-1]:.1f} % ({load()})", flush=True)
    f, b = statistics.median(fleet), statistics.median(floor)
    print(f"fleet of {count}, median of {runs}: the node {f:.1f} % of one core, its stream as bytes {b:.1f} %: "
          f"{f / b:.2f}x the floor")


def bench_cpu_series(node, runs: int, seconds: float) -> None:
    """Item 8 as a series: ``runs`` interleaved pairs of ``mission`` and ``report_rates:=vehicle``,
    each a fresh node, so that the machine's load drifts over both alike; prints every run and the
    medians."""
    mission, vehicle = [], []
    for k in range(runs):
        cpu, topics = cpu_every_topic(node, seconds)
        mission.append(100.0 * cpu)
        print(f"run {k + 1}/{runs} mission, {topics} topics: {mission[-1]:.1f} % ({load()})", flush=True)
        cpu, topics = cpu_every_topic(node, seconds, "report_rates:=vehicle")
        vehicle.append(100.0 * cpu)
        print(f"run {k + 1}/{runs} report_rates:=vehicle, {topics} topics: {vehicle[-1]:.1f} % ({load()})",
              flush=True)
    for name, values in (("mission", mission), ("report_rates:=vehicle", vehicle)):
        print(f"node CPU, a subscriber on every topic, {name}: median {statistics.median(values):.1f} %, "
              f"range {min(values):.1f}-{max(values):.1f} % of one core over {runs} runs of {seconds:.0f} s")


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def bench_fleet_once(node, count: int, seconds: float, ends_only: bool = False) -> dict:
    """One realtime run of ``count`` vehicles in one process (``count`` = 1: the
    single-vehicle node): node CPU [fraction of one core], odom and /tf messages
    received per second, odom period deviations from 1/120 s [s], pooled.
    ``ends_only``: subscribe to the first and last vehicle's odom only, no /tf (the
    node publishes every odom and /tf anyway), so this Python client's own load
    (2400 messages/s otherwise) weighs less on the jitter it measures."""
    if count == 1:
        proc, names = start_node(), [""]
    else:
        names = [f"/car{i + 1}/vehicle" for i in range(count)]
        proc = start_node(fleet_param(count))
    if ends_only:
        names = [names[0], names[-1]]
    arrivals = {n: [] for n in names}
    tf_count = [0]
    subs = [node.create_subscription(Odometry, f"{n or '/vehicle'}/odom",
                                     lambda _m, a=arrivals[n]: a.append(time.perf_counter()), 10)
            for n in names]
    if not ends_only:
        subs.append(node.create_subscription(TFMessage, "/tf",
                                             lambda _m: tf_count.__setitem__(0, tf_count[0] + 1), 100))
    try:
        deadline = time.monotonic() + 60.0
        while time.monotonic() < deadline and not all(arrivals.values()):
            rclpy.spin_once(node, timeout_sec=0.01)
        spin_for(node, 3.0)   # discovery and warm-up
        for a in arrivals.values():
            a.clear()
        tf_count[0] = 0
        c0, t0, own0 = cpu_seconds(proc.pid), time.monotonic(), time.process_time()
        spin_for(node, seconds)
        wall = time.monotonic() - t0
        cpu = (cpu_seconds(proc.pid) - c0) / wall
        own = (time.process_time() - own0) / wall
        dev = sorted(abs((b - a) - 1.0 / 120.0) for v in arrivals.values() for a, b in zip(v, v[1:]))
        return {"cpu": cpu, "client_cpu": own, "odom_per_s": sum(map(len, arrivals.values())) / wall,
                "tf_per_s": tf_count[0] / wall, "dev": dev, "load": load(),
                "alive": proc.poll() is None}
    finally:
        for sub in subs:
            node.destroy_subscription(sub)
        stop_process_group(proc)


def bench_fleet(node, count: int, runs: int, seconds: float) -> None:
    """Interleaved runs of 1 vehicle, ``count`` vehicles watched whole, and ``count``
    vehicles watched at the ends; each run printed, then the medians."""
    cases = ((1, False, "1 vehicle"), (count, False, f"{count} vehicles, all odom + /tf watched"),
             (count, True, f"{count} vehicles, odom of the first and last watched"))
    results = {label: [] for _n, _e, label in cases}
    for k in range(runs):
        for n, ends_only, label in cases:
            r = bench_fleet_once(node, n, seconds, ends_only)
            results[label].append(r)
            d = r["dev"]
            watched = 2 if ends_only and n > 1 else n
            print(f"fleet run {k + 1}/{runs}, {label}, realtime 120 Hz, full model: node CPU "
                  f"{100 * r['cpu']:5.1f} % of one core; odom {r['odom_per_s']:7.1f}/s (of {120 * watched}), "
                  f"/tf {r['tf_per_s']:7.1f}/s; odom period jitter p50 {1e3 * _percentile(d, 0.5):.2f} ms, "
                  f"p99 {1e3 * _percentile(d, 0.99):.2f} ms, max {1e3 * d[-1]:.2f} ms; bench client CPU "
                  f"{100 * r['client_cpu']:.0f} %; node alive {r['alive']} ({r['load']})", flush=True)
    for label, rs in results.items():
        med = lambda xs: statistics.median(xs)  # noqa: E731
        print(f"fleet median of {runs}, {label}: node CPU {100 * med([r['cpu'] for r in rs]):.1f} %, "
              f"odom {med([r['odom_per_s'] for r in rs]):.1f}/s, jitter p50 "
              f"{1e3 * med([_percentile(r['dev'], 0.5) for r in rs]):.2f} ms, p99 "
              f"{1e3 * med([_percentile(r['dev'], 0.99) for r in rs]):.2f} ms")


def bench_sim_factor(node, factors=(10.0, 20.0, 40.0, 80.0)) -> None:
    for factor in factors:
        proc = start_node("time_mode:=sim", f"rate_factor:={factor}")
        try:
            clock = {"t": None}
            sub = node.create_subscription(Clock, "/clock", lambda m: clock.__setitem__(
                "t", m.clock.sec + m.clock.nanosec * 1e-9), 10)
            spin_for(node, 3.0)
            s0, w0 = clock["t"], time.monotonic()
            spin_for(node, 5.0)
            achieved = (clock["t"] - s0) / (time.monotonic() - w0) if s0 is not None else float("nan")
            print(f"sim mode rate_factor {factor:5.1f}: achieved {achieved:5.1f}x real time")
            node.destroy_subscription(sub)
        finally:
            stop_process_group(proc)


def bench_fuzz(node, count: int) -> None:
    from test_dbw_property import MAY_BE_NONFINITE
    from test_node_modes import _random_command

    proc = start_node()
    rng = random.Random(42)
    bad: list[str] = []
    received = {"n": 0}
    try:
        for topic, attr, type_name, _p in REPORT_TOPICS:
            allowed = MAY_BE_NONFINITE.get(attr, set())

            def check(m, t=topic, allowed=allowed):
                received["n"] += 1
                for name, typ in m.get_fields_and_field_types().items():
                    if typ == "float" and not math.isfinite(getattr(m, name)) and name not in allowed:
                        bad.append(f"{t}.{name}")
            node.create_subscription(getattr(dbw_msgs, type_name), f"/vehicle/{topic}", check, 10)
        pubs = [(node.create_publisher(getattr(dbw_msgs, ty), f"/vehicle/{t}", 10), getattr(dbw_msgs, ty))
                for t, ty, _d in COMMAND_TOPICS]
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        spin_for(node, 3.0)
        t0 = time.monotonic()
        for k in range(count):
            pub, typ = rng.choice(pubs)
            pub.publish(_random_command(rng, typ))
            if k % 500 == 0:
                enable.publish(Empty())
            if k % 20 == 0:
                rclpy.spin_once(node, timeout_sec=0.0)
        spin_for(node, 1.0)
        alive = proc.poll() is None
        print(f"fuzz: {count} random commands in {time.monotonic() - t0:.1f} s; node alive: {alive}; "
              f"{received['n']} report messages checked; unexpected non-finite fields: {len(bad)}"
              + (f" e.g. {sorted(set(bad))[:5]}" if bad else ""))
    finally:
        stop_process_group(proc)


def bench_stamps(node, seconds: float, tmp: Path) -> None:
    """receipt - stamp of odom in realtime mode: plain, recording, and after a reset."""
    from std_srvs.srv import Trigger

    for label, params in (("plain", ()), ("record_bag", (f"record_bag:={tmp / 'bag'}",))):
        proc = start_node(*params)
        try:
            lag: list[float] = []
            sent: list[float] = []   # the writer's DDS source timestamp - stamp: the node's own lag

            def on_odom(m, info, lag=lag, sent=sent):
                stamp_s = m.header.stamp.sec + 1e-9 * m.header.stamp.nanosec
                lag.append(time.time() - stamp_s)
                sent.append(1e-9 * info["source_timestamp"] - stamp_s)

            # depth 1: a subscriber that falls behind (this Python process, on a loaded
            # machine) sees the newest message, not a backlog that would measure itself
            sub = node.create_subscription(Odometry, "/vehicle/odom", on_odom, 1)
            spin_for(node, 3.0)
            lag.clear()
            sent.clear()
            spin_for(node, seconds)
            first = list(lag)
            first_sent = sorted(sent)
            reset = node.create_client(Trigger, "/vehicle/dbw_node/reset")
            reset.wait_for_service(timeout_sec=10.0)
            future = reset.call_async(Trigger.Request())
            rclpy.spin_until_future_complete(node, future, timeout_sec=10.0)
            lag.clear()
            sent.clear()
            spin_for(node, 5.0)
            after = list(lag)
            after_sent = sorted(sent)
            for name, v, w in ((f"{seconds:.0f} s", first, first_sent), ("5 s after ~/reset", after, after_sent)):
                print(f"realtime stamps, {label}, {name}: the node's lag at publication (DDS source "
                      f"timestamp - stamp) p50 {1e3 * w[len(w) // 2]:.2f} ms, p99 {1e3 * w[int(0.99 * (len(w) - 1))]:.2f} ms, "
                      f"max {1e3 * w[-1]:.2f} ms")
                # the minimum per 100 messages bounds the stamp's own lag (delivery delay removed)
                mins = sorted(min(v[i:i + 100]) for i in range(0, len(v), 100))
                v = sorted(v)
                print(f"realtime stamps, {label}, {name}: receipt - stamp p50 {1e3 * v[len(v) // 2]:.2f} ms, "
                      f"p99 {1e3 * v[int(0.99 * (len(v) - 1))]:.2f} ms, max {1e3 * v[-1]:.2f} ms, "
                      f"min {1e3 * v[0]:.2f} ms; largest minimum over 100 msgs {1e3 * mins[-1]:.2f} ms; "
                      f"{len(v)} msgs ({load()})")
            node.destroy_subscription(sub)
            node.destroy_client(reset)
        finally:
            stop_process_group(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", type=int, default=0, help="random commands to send (0 = skip)")
    parser.add_argument("--skip-sim", action="store_true")
    parser.add_argument("--stamps-only", action="store_true", help="measure only the realtime stamps")
    parser.add_argument("--stamps", type=float, default=60.0, help="seconds per stamp measurement (0 = skip)")
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes running during the stamps")
    parser.add_argument("--fleet", type=int, default=10, help="vehicles in one process (0 = skip)")
    parser.add_argument("--fleet-runs", type=int, default=3, help="interleaved pairs of 1 and N vehicles")
    parser.add_argument("--fleet-seconds", type=float, default=10.0, help="measurement window per run [s]")
    parser.add_argument("--fleet-only", action="store_true", help="measure only the fleet")
    parser.add_argument("--cpu-runs", type=int, default=0,
                        help="interleaved pairs of every-topic CPU runs, mission and vehicle rates (item 8)")
    parser.add_argument("--cpu-only", action="store_true", help="measure only the --cpu-runs series")
    parser.add_argument("--cpu-floor", type=int, default=0,
                        help="rounds of the CPU floor: waking at 120 Hz, the node without and with subscribers, "
                             "its message stream published as bytes alone")
    parser.add_argument("--fleet-floor", type=int, default=0, metavar="ROUNDS",
                        help="rounds of the fleet node (--fleet vehicles) against its own stream published as "
                             "bytes, a subscriber on every topic (then exit)")
    args = parser.parse_args()
    rclpy.init()
    node = rclpy.create_node("bench_node_client")
    try:
        print(f"machine: {os.cpu_count()} cores, {sys.version.split()[0]}")
        if args.fleet_floor > 0:
            bench_fleet_floor(node, args.fleet, args.fleet_floor, 10.0)
            return 0
        if args.cpu_floor > 0:
            bench_cpu_floor(node, args.cpu_floor, 10.0)
        if args.cpu_runs > 0:
            bench_cpu_series(node, args.cpu_runs, 10.0)
        if args.cpu_only:
            return 0
        if args.fleet > 1 and not args.stamps_only:
            bench_fleet(node, args.fleet, args.fleet_runs, args.fleet_seconds)
        if args.fleet_only:
            return 0
        if not args.stamps_only:
            bench_realtime(node)
            bench_realtime(node, "report_rates:=vehicle")
        if args.stamps > 0:
            import tempfile

            burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                       for _ in range(args.busy)]
            try:
                if burners:
                    print(f"{len(burners)} CPU-bound processes running during the stamps")
                with tempfile.TemporaryDirectory() as tmp:
                    bench_stamps(node, args.stamps, Path(tmp))
            finally:
                for b in burners:
                    os.killpg(b.pid, signal.SIGKILL)
                    b.wait()
        if not args.skip_sim and not args.stamps_only:
            bench_sim_factor(node)
        if args.fuzz:
            bench_fuzz(node, args.fuzz)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
