"""Clean shutdown (issue 13 item 9): SIGINT or SIGTERM, at any moment, with
subscribers joining and leaving, ends the node with exit 0 and no traceback."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from nav_msgs.msg import Odometry
from std_msgs.msg import Bool
import ds_dbw_msgs.msg as dbw_msgs

from helpers.dds import DiscoveryTimeout, matched, node_names, publishers_info, spin_for, wait_for
from helpers.processes import STARTED_GROUPS

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
STOPS = int(os.environ.get("ACRES_TEST_STOPS", "25"))   # each stop creates ~5 DDS entities here; see TIMEOUT_S
PARALLEL = 5   # nodes alive at once (in their own namespaces)


def _why_no_odometry(node, ns: str, proc, spin) -> tuple[bool, str]:
    """After a node's odometry did not come: (the node is stuck, what was seen).

    A node is stepping when its 20 Hz ``dbw_enabled`` (published whether or not
    anyone listens) arrives; then only this test's odometry subscription failed to
    match over DDS. A node that DDS does not show in the graph was not discovered
    (Fast DDS announces a participant from its own threads, whatever Python does).
    Neither is what this test is about. A node that is in the graph but sends
    nothing is stuck: that fails the test."""
    beats = []
    sub = node.create_subscription(Bool, f"/{ns}/dbw_enabled", beats.append, 1)
    wait_for(lambda: len(beats) >= 3, 5.0, spin=spin)
    node.destroy_subscription(sub)
    names = sorted(f"{n_ns.rstrip('/')}/{n}" for n, n_ns in node_names(node))
    in_graph = f"/{ns}/dbw_node" in names
    pubs = publishers_info(node, f"/{ns}/odom")
    seen = (f"{ns}: alive={proc.alive()} dbw_enabled messages in 5 s={len(beats)} in the graph={in_graph} "
            f"odom publishers={len(pubs)} nodes seen={names}\n{proc.output()[-2000:]}")
    return proc.alive() and in_graph and not beats, seen


#: rclpy calls that go straight into Fast DDS's entity set-up or tear-down: creating an entity,
#: destroying one (``Node.destroy_*`` and each entity's own ``destroy``), the context's init and
#: shutdown (``Context._cleanup`` under ``shutdown``/``try_shutdown``)
_DDS_CALLS = re.compile(r"  File \"[^\"]*/rclpy/[^\"]*\", line \d+ in "
                        r"(create_\w+|destroy(?:_\w+)?|__init__|init|_cleanup|shutdown|try_shutdown)\n")


_THREAD = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):\n((?:  File .*\n)*)",
                     re.MULTILINE)


def _hung_in_dds(stacks: str) -> bool:
    """Whether a node's thread dump (``faulthandler``: most recent call first, the main thread,
    the oldest, listed last) shows its main thread inside a Fast DDS entity call: the start-up or
    tear-down hang of docs/discovery.md, where no Python code (and so no signal handler's effect)
    runs again. A node waiting in its executor, or in this package's own code, is not that."""
    threads = _THREAD.findall(stacks if stacks.endswith("\n") else stacks + "\n")
    return bool(threads) and threads[-1] != "" and _DDS_CALLS.match(threads[-1]) is not None


# Once in about 16 CI runs this test hung for good inside Fast DDS (a node in create_datawriter,
# this process in create_subscription: both waiting on Fast DDS's own locks, 2 December; again on
# 4 December with the main thread in create_subscription holding the GIL, so neither the timeout's
# thread nor the watchdog below could run: 25 stops, where there were 50, halve that exposure). The
# suite's default timeout (SIGALRM) cannot end a test stuck in C code; the thread method can
# when that code released the GIL: it prints every thread's stack and ends the run at once,
# without the fixtures' clean-up, so a watchdog first ends the process groups this test started.
TIMEOUT_S = 300.0


def _end_started_groups(before: frozenset) -> None:
    """SIGKILL the process groups ``ros_process`` started since ``before`` (never anything else)."""
    for pgid in set(STARTED_GROUPS) - before:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.timeout(TIMEOUT_S, method="thread")
@pytest.mark.slow
def test_signal_stops_exit_0_without_traceback(ros_process):
    watchdog = threading.Timer(TIMEOUT_S - 15.0, _end_started_groups, (frozenset(STARTED_GROUPS),))
    watchdog.daemon = True
    watchdog.start()
    rclpy.init()
    node = rclpy.create_node("churn")
    rng = random.Random(13)
    try:
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.01)  # noqa: E731
        done, failures, started = 0, [], 0
        # DDS misses by namespace: odometry that never reached this subscriber from a node that is
        # not stuck, or a node hung inside Fast DDS (at start-up, or when it was told to stop)
        missed: dict[str, str] = {}
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
            sub = node.create_subscription(Odometry, f"/{ns}/odom", lambda _m: None, 10)
            try:   # no settle: the stop may fall while the node's side still matches (any moment)
                matched(node, proc, subscriptions=[sub], settle_s=0.0, timeout_s=20.0)
            except DiscoveryTimeout:
                stuck, seen = _why_no_odometry(node, ns, proc, spin)
                if stuck:
                    stacks = proc.stacks()
                    assert _hung_in_dds(stacks), f"{ns} is up but sends nothing: {seen}\n{stacks[-3000:]}"
                    missed[ns] = f"{ns} hung in Fast DDS at start-up:\n{stacks[-3000:]}"
                    proc.stop()
                    node.destroy_subscription(sub)
                    done += 1
                    continue
                missed[ns] = seen   # a DDS miss: the stop below is still checked
            # subscribers join and leave while it runs, the stop falls among them
            for _ in range(rng.randint(1, 4)):
                subs.append(node.create_subscription(dbw_msgs.SteeringReport, f"/{ns}/steering/report",
                                                     lambda _m: None, 2))
                spin_for(node, rng.uniform(0.0, 0.05))
                node.destroy_subscription(subs.pop(0))
            node.destroy_subscription(sub)
            sig = signal.SIGINT if done % 5 else signal.SIGTERM
            time.sleep(rng.uniform(0.0, 0.02))   # timing: a random moment for the signal, not a wait
            os.kill(proc.proc.pid, sig)
            try:
                code = proc.proc.wait(timeout=20.0)
            except Exception:
                code = None
            if code is None:   # its threads, then it goes
                out = proc.stacks()
                proc.stop()
                if _hung_in_dds(out):
                    missed[ns] = f"{ns} ({signal.Signals(sig).name}) hung in Fast DDS:\n{out[-3000:]}"
                    for s in subs:
                        node.destroy_subscription(s)
                    done += 1
                    continue
            else:
                out = proc.output()
            if code != 0 or "Traceback" in out or "RCLError" in out:
                failures.append(f"{ns} ({signal.Signals(sig).name}): exit {code}\n{out[-2000:]}")
            for s in subs:
                node.destroy_subscription(s)
            done += 1
        assert not failures, f"{len(failures)} of {STOPS} stops unclean:\n" + "\n".join(failures[:3])
        # A rare DDS match that never completes, or a node hung inside Fast DDS, is tolerated
        # twice in a run (and reported: once two nodes hung together, 2 December); more would
        # mean something systematic between the node's and the test's endpoints.
        for text in missed.values():
            warnings.warn(f"a DDS miss among {STOPS} stops: {text}")
        assert len(missed) <= 2, "\n".join(missed.values())
    finally:
        watchdog.cancel()
        node.destroy_node()
        rclpy.try_shutdown()


def test_a_thread_dump_inside_fast_dds_is_told_apart(tmp_path):
    """``_hung_in_dds`` on real ``faulthandler`` dumps: the main thread inside an rclpy entity
    call is the Fast DDS hang; the same thread anywhere else, or no dump, is not."""
    import faulthandler
    import importlib.util

    (tmp_path / "rclpy").mkdir()
    (tmp_path / "rclpy" / "node.py").write_text(
        "import faulthandler\n\n\ndef create_publisher(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def destroy(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def _cleanup(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def spin_once(f):\n    faulthandler.dump_traceback(f)\n")
    spec = importlib.util.spec_from_file_location("fake_rclpy_node", tmp_path / "rclpy" / "node.py")
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)

    def dump(call) -> str:
        with (tmp_path / "dump.txt").open("w+") as f:
            f.write("[INFO] [dbw_node]: a log line before the dump\n")
            f.flush()
            call(f)
            f.seek(0)
            return f.read()

    assert _hung_in_dds(dump(fake.create_publisher))
    assert _hung_in_dds(dump(fake.destroy))     # Publisher.destroy, under Node.destroy_publisher
    assert _hung_in_dds(dump(fake._cleanup))    # Context._cleanup, under try_shutdown
    assert not _hung_in_dds(dump(fake.spin_once))
    assert not _hung_in_dds(dump(faulthandler.dump_traceback))
    assert not _hung_in_dds("")


def test_a_closed_stdout_does_not_end_the_node():
    """`sim_node | head -1`, or a launch killed while the node goes on: the status line's reader is gone. The
    node keeps simulating (it stops printing) and a Ctrl-C still ends it with exit 0."""
    proc = subprocess.Popen([sys.executable, str(NODE_EXE), "--ros-args", "-p", "status_period_s:=0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    STARTED_GROUPS.add(proc.pid)
    try:
        first = proc.stdout.readline()
        assert b"t=" in first, first
        proc.stdout.close()   # the reader goes away
        assert wait_for(lambda: proc.poll() is not None, 2.0) is False, f"the node ended: exit {proc.returncode}"
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
