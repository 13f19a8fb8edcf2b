"""The node's parameters, time modes, demo client and robustness, each over real DDS."""

from __future__ import annotations

import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
import ds_dbw_msgs.msg as dbw_msgs
from geometry_msgs.msg import PoseWithCovarianceStamped
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import Empty
from std_srvs.srv import Trigger

from acres_dbw_sim.node import COMMAND_TOPICS, REPORT_TOPICS
from helpers.dds import call_service, matched, node_names, spin_for, wait_for, wait_for_graph
from helpers.strategies import MAY_BE_NONFINITE

pytestmark = pytest.mark.dds

LIB = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim"
NODE_EXE, DEMO_EXE = LIB / "sim_node", LIB / "demo_driver"


@pytest.mark.parametrize("args, names", [
    (["-p", "no_such_parameter:=1"], "no_such_parameter"),
    (["-p", "time_mode:=warp"], "time_mode"),
    (["-p", "step_hz:=5.0"], "step_hz"),
    (["-p", "occupants:=two"], "occupants"),
    (["-p", "rate_factor:=-1.0"], "rate_factor"),
    (["-p", "overrides:=mass.no_such_key=3"], "mass.no_such_key"),
    (["-p", "overrides:=mass.dry_kg=-5"], "mass.dry_kg"),
    (["-p", "overrides:=engine.idle_rpm"],
     "parameter 'overrides': parameter 'engine.idle_rpm': override must be key=value"),
    (["-p", "surface:=lava"], "lava"),
    (["-p", "overrides:=engine.idle_rpm=900;engine.idle_rpm=1000"],
     "parameter 'overrides': parameter 'engine.idle_rpm': given twice in the overrides"),
    (["-p", "initial_x_m:=1.0e300"],
     "parameter 'initial_x_m' = 1e+300: out of range: 1e+300 not in [-1000000, 1000000]"),
    (["-p", "step_hz:=5000.0"], "parameter 'step_hz' = 5000.0: out of range: 5000 not in [60, 1000]"),
    (["-p", "step_hz:=fast"], "parameter 'step_hz' = 'fast': wrong type: expected float, got str"),
    (["-p", "world_frame:=odom"], "parameter 'world_frame' = 'odom': names this node's odometry frame"),
])
def test_bad_parameters_stop_startup_naming_the_parameter(args, names):
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert names in proc.stderr
    assert "Traceback" not in proc.stderr


def _run_lockstep(ros_process, name):
    """Drive a lockstep node through a fixed sequence; return every odometry received."""
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=lockstep",
                        "-p", "lockstep_steps:=6"], name=name)
    rclpy.init()
    node = rclpy.create_node("lockstep_client")
    try:
        odoms: list[Odometry] = []
        clocks: list[Clock] = []
        odom_sub = node.create_subscription(Odometry, "/vehicle/odom", odoms.append, 1000)
        clock_sub = node.create_subscription(Clock, "/clock", clocks.append, 1000)
        step = node.create_client(Trigger, "/vehicle/dbw_node/step")
        pubs = {t: node.create_publisher(getattr(dbw_msgs, ty), f"/vehicle/{t}", d)
                for t, ty, d in COMMAND_TOPICS}
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        # Both directions matched before the first step: on a loaded machine discovery of the
        # odometry and clock subscriptions may come after the command topics' (a step lost).
        # Lockstep publishes only when stepped (its start-up state reached no one): no message to wait for.
        matched(node, proc, publishers=[enable, pubs["ulc/cmd"], pubs["steering/cmd"]],
                subscriptions=[odom_sub, clock_sub], clients=[step], data=False)

        def deliver(publisher, msg):
            publisher.publish(msg)
            spin_for(node, 0.05)   # let the node take it before the next step

        steps = [0]

        def advance():   # 6 steps of 1/120 s: the clock reaches the next 50 ms
            steps[0] += 1
            ns = steps[0] * 50_000_000
            reply = call_service(node, step, Trigger.Request(), idempotent=False, done=lambda: clocks and (
                clocks[-1].clock.sec * 1_000_000_000 + clocks[-1].clock.nanosec >= ns - 1000))
            assert reply is None or reply.success

        # A match seen here does not mean the node's readers have matched these writers yet
        # (discovery is not symmetric in time): matched() let the other side settle; the first
        # commands still go twice. Each is idempotent (enable when enabled, the same command
        # again), so a run that gets one copy and a run that gets both reach the same state.
        for _ in range(2):
            deliver(enable, Empty())
        for k in range(100):   # 5 s of simulated time in 50 ms requests (commands every 50 ms)
            for _ in range(2 if k == 0 else 1):
                pubs["ulc/cmd"].publish(dbw_msgs.UlcCmd(cmd=4.0, cmd_type=1, limit_accel=1.5, enable=True,
                                                        enable_shift=True, enable_shift_park=True))
                deliver(pubs["steering/cmd"], dbw_msgs.SteeringCmd(cmd=0.002 * (k % 50), cmd_type=3,
                                                                   enable=True))
            advance()
        # counted without the start-up publication at 0, which arrives only if discovery was quick
        stamped = lambda msgs, stamp: sum(1 for m in msgs if stamp(m).sec or stamp(m).nanosec)  # noqa: E731
        wait_for(lambda: stamped(odoms, lambda m: m.header.stamp) >= 100 * 6
                 and stamped(clocks, lambda m: m.clock) >= 100 * 6, 5.0,
                 spin=lambda: rclpy.spin_once(node, timeout_sec=0.05))
        return odoms, clocks
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        proc.stop()   # the next run must not find this node's services


@pytest.mark.slow
def test_lockstep_is_bitwise_deterministic(ros_process):
    first, clocks = _run_lockstep(ros_process, "lockstep-a")
    second, _ = _run_lockstep(ros_process, "lockstep-b")
    # The state published at start-up reaches no one (volatile, before discovery): skip it.
    first = [o for o in first if o.header.stamp.sec or o.header.stamp.nanosec]
    second = [o for o in second if o.header.stamp.sec or o.header.stamp.nanosec]
    assert len(first) == len(second) == 100 * 6
    assert first[-1].twist.twist.linear.x > 2.0, "the ULC did not move the vehicle"
    for a, b in zip(first, second):
        assert a == b   # every field, bit for bit
    assert clocks[-1].clock == first[-1].header.stamp
    assert first[-1].header.stamp.sec == 5


@pytest.mark.slow
def test_demo_drives_a_figure_eight_back_to_its_start(ros_process):
    node_proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=sim",
                             "-p", "rate_factor:=2.0", "-p", "use_sim_time:=true"], name="sim_node")
    rclpy.init()
    probe = rclpy.create_node("demo_probe")
    demo = None
    try:
        odoms: list[Odometry] = []
        odom_sub = probe.create_subscription(Odometry, "/vehicle/odom", odoms.append, 10)
        # Watch the whole drive: the demo starts only once the odometry arrives here.
        matched(probe, node_proc, subscriptions=[odom_sub])
        demo = subprocess.Popen([sys.executable, str(DEMO_EXE), "--ros-args", "-p", "use_sim_time:=true",
                                 "-p", "timeout_s:=120.0"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        deadline = time.monotonic() + 150.0
        while demo.poll() is None and time.monotonic() < deadline:
            rclpy.spin_once(probe, timeout_sec=0.05)
        out = demo.communicate(timeout=5)[0] if demo.poll() is not None else "(still running)"
        assert demo.returncode == 0, f"demo failed:\n{out}\nnode:\n{node_proc.output()}"
        spin_for(probe, 0.5)   # the odometry up to the demo's end, still on its way
        # The demo logs the (sim) time of each phase change: the figure starts with the
        # left turn and ends when the right turn is back at the starting heading.
        t_start = float(re.search(r"-> left at t=[\d.]+ s \(/clock ([\d.]+) s\)", out)[1])
        t_end = float(re.search(r"-> stop at t=[\d.]+ s \(/clock ([\d.]+) s\)", out)[1])

        def pose_at(t):
            o = min(odoms, key=lambda o: abs(o.header.stamp.sec + 1e-9 * o.header.stamp.nanosec - t))
            assert abs(o.header.stamp.sec + 1e-9 * o.header.stamp.nanosec - t) < 0.1, "no odometry then"
            return o.pose.pose.position.x, o.pose.pose.position.y

        (x0, y0), (x1, y1) = pose_at(t_start), pose_at(t_end)
        far = max(math.hypot(o.pose.pose.position.x - x0, o.pose.pose.position.y - y0) for o in odoms)
        gap = math.hypot(x1 - x0, y1 - y0)
        assert far > 15.0, "the vehicle did not drive the circles"
        assert gap < 0.1 * far, (f"the figure-eight closes {gap:.1f} m from its start (span {far:.1f} m)"
                                 f"\ndemo:\n{out}\nnode:\n{node_proc.output()}")
        assert "vehicle in PARK" in out
        assert out.index("vehicle in PARK") < out.index("disabled"), out   # confirmed by dbw_enabled
    finally:
        if demo is not None and demo.poll() is None:
            demo.kill()
        probe.destroy_node()
        rclpy.try_shutdown()


def test_demo_stopped_with_ctrl_c_exits_130_and_leaves_the_dbw_disabled(ros_process):
    """SIGINT at random moments of the demo (while it engages, and while it drives):
    exit 130, no traceback, and once it had engaged, ``dbw_enabled`` false before it left."""
    ros_process([str(NODE_EXE), "--ros-args", "-p", "status_period_s:=0.0"], name="sim_node")
    rclpy.init()
    probe = rclpy.create_node("ctrl_c_probe")
    demo_names = lambda: [name for name, _ns in node_names(probe)]  # noqa: E731
    rng = random.Random(7)
    try:
        for k in range(6):
            demo = ros_process([str(DEMO_EXE)], name=f"demo{k}")
            if k % 2:   # while it drives
                assert wait_for(lambda: "-> accelerate" in demo.output(), 30.0), demo.output()
                time.sleep(rng.uniform(0.0, 2.0))   # timing: a random moment of the drive for the Ctrl-C
            else:       # as soon as it is in the ROS graph (it engages within about 0.1 s)
                # no settle: 0.5 s would put nearly every Ctrl-C after the engage
                wait_for_graph(probe, lambda: "demo_driver" in demo_names(), 30.0, what=f"run {k}: demo_driver "
                               f"in the graph", proc=demo, settle_s=0.0)
                time.sleep(rng.uniform(0.0, 0.2))   # timing: a random moment of the engage for the Ctrl-C
            os.killpg(demo.proc.pid, signal.SIGINT)
            try:
                rc = demo.proc.wait(timeout=10.0)
            except subprocess.TimeoutExpired:
                rc = None
            out = demo.output()
            assert rc == 130 and "Traceback" not in out, f"run {k}: exit {rc}\n{out}"
            if "-> accelerate" in out:
                assert "disabled" in out, f"run {k}: left the DBW engaged\n{out}"
            # gone before the next run looks for it in the graph (the default time-out: a lost
            # participant-drop message leaves the name until Fast DDS's 20 s lease runs out)
            wait_for_graph(probe, lambda: "demo_driver" not in demo_names(),
                           what=f"run {k}: demo_driver left the graph", proc=demo)
    finally:
        probe.destroy_node()
        rclpy.try_shutdown()


def _example_client():
    """``examples/ulc_drive.py``'s client (the example stays a file to copy, not a module of the package)."""
    import importlib.util
    path = Path(__file__).resolve().parents[1] / "examples" / "ulc_drive.py"
    spec = importlib.util.spec_from_file_location("ulc_drive_example", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.UlcDrive()


def _demo_client():
    from acres_dbw_sim.demo_driver import DemoDriver
    return DemoDriver()


@pytest.mark.parametrize("make, published", [
    (_demo_client, ("pub_ulc", "pub_steer", "pub_enable")), (_example_client, ("ulc_cmd", "gear_cmd", "enable"))],
    ids=["demo_driver", "examples/ulc_drive.py"])
def test_a_client_does_not_drive_on_while_it_disengages(make, published):
    """``disengage`` spins the client to wait for ``dbw_enabled`` false; its timer fires in that spin and
    must do nothing: no phase advances and no command but ``disable`` is sent, also on a Ctrl-C before
    the DBW ever answered. (Both once read the wait's own 'not known yet' as enabled and logged
    'engage done', then sent a shift and ULC commands during the disable.) No DBW runs in this test's
    domain: nothing answers the disable."""
    rclpy.init()
    client = make()
    try:
        rclpy.spin_once(client, timeout_sec=0.05)
        sent = []
        for name in published:
            pub = getattr(client, name)
            pub.publish = lambda msg, _n=name: sent.append(_n)
        assert client.disengage(0.3) is False   # nobody answered
        assert client.phase == "engage", client.phase   # 15 ticks fell in the wait and did nothing
        assert sent == [], sent
    finally:
        client.destroy_node()
        rclpy.try_shutdown()


def _random_float(rng: random.Random) -> float:
    return rng.choice([math.nan, math.inf, -math.inf, 0.0, -1.0, 1e30, -1e30,
                       rng.uniform(-1000.0, 1000.0), rng.uniform(-5.0, 5.0)])


def _random_command(rng: random.Random, msg_type):
    msg = msg_type()
    for name, typ in msg_type.get_fields_and_field_types().items():
        if typ == "float":
            setattr(msg, name, _random_float(rng))
        elif typ == "uint8":
            setattr(msg, name, rng.choice([0, 1, 2, 3, 4, 8, 13, 14, 15, 255, rng.randrange(256)]))
        elif typ == "boolean":
            setattr(msg, name, rng.random() < 0.7)
        elif typ.startswith("ds_dbw_msgs/"):
            getattr(msg, name).value = rng.randrange(256) if rng.random() < 0.3 else rng.randrange(6)
    return msg


def test_fuzzing_client_never_puts_nan_into_published_messages(ros_process):
    """2000 random commands (the full 1e5 are in bench/bench_node.py): the node keeps
    running and publishes NaN only in the fields the real system leaves NaN."""
    proc = ros_process([str(NODE_EXE)], name="sim_node")
    rclpy.init()
    node = rclpy.create_node("fuzz_client")
    rng = random.Random(1234)
    try:
        bad: list[str] = []
        counts = {"n": 0}

        def check(topic, attr, msg):
            counts["n"] += 1
            allowed = MAY_BE_NONFINITE.get(attr, set())
            for name, typ in msg.get_fields_and_field_types().items():
                if typ == "float" and not math.isfinite(getattr(msg, name)) and name not in allowed:
                    bad.append(f"{topic}.{name}={getattr(msg, name)}")

        def check_floats(topic, values):
            counts["n"] += 1
            if not all(math.isfinite(v) for v in values):
                bad.append(f"{topic}: {values}")

        subs = [node.create_subscription(getattr(dbw_msgs, type_name), f"/vehicle/{topic}",
                                         lambda m, t=topic, a=attr: check(t, a, m), 10)
                for topic, attr, type_name, _p in REPORT_TOPICS]
        subs.append(node.create_subscription(Odometry, "/vehicle/odom", lambda m: check_floats("odom", [
            m.pose.pose.position.x, m.pose.pose.position.y, m.pose.pose.position.z,
            m.pose.pose.orientation.w, m.twist.twist.linear.x, m.twist.twist.angular.z]), 10))
        subs.append(node.create_subscription(Imu, "/vehicle/imu/data_raw", lambda m: check_floats("imu", [
            m.linear_acceleration.x, m.linear_acceleration.y, m.linear_acceleration.z,
            m.angular_velocity.x, m.angular_velocity.y, m.angular_velocity.z]), 10))
        subs.append(node.create_subscription(JointState, "/vehicle/joint_states", lambda m: check_floats(
            "joint_states", list(m.position) + list(m.velocity)), 10))
        pubs = [(node.create_publisher(getattr(dbw_msgs, ty), f"/vehicle/{t}", 10), getattr(dbw_msgs, ty))
                for t, ty, _d in COMMAND_TOPICS]
        enable = node.create_publisher(Empty, "/vehicle/enable", 10)
        pose = node.create_publisher(PoseWithCovarianceStamped, "/initialpose", 1)
        matched(node, proc, publishers=[p for p, _typ in pubs] + [enable, pose], subscriptions=subs)
        for k in range(2000):
            pub, typ = rng.choice(pubs)
            pub.publish(_random_command(rng, typ))
            if k % 100 == 0:
                enable.publish(Empty())
            if k == 1000:
                p = PoseWithCovarianceStamped()
                p.pose.pose.position.x = math.nan
                pose.publish(p)
            rclpy.spin_once(node, timeout_sec=0.0)
            if k % 10 == 0:
                rclpy.spin_once(node, timeout_sec=0.002)
        spin_for(node, 1.0)   # what the node publishes in the second after the fuzzing is checked too
        assert proc.alive(), proc.output()
        assert counts["n"] > 1000
        assert not bad, bad[:10]
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
