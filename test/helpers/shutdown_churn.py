"""The subscriber side of ``test_node_shutdown``'s stops, run as a process of its own.

Usage (what the test runs)::

    python test/helpers/shutdown_churn.py NODE_EXE STOPS PARALLEL SEED OUT_DIR

It starts ``STOPS`` nodes (``PARALLEL`` alive at once, each in its own namespace and process
group), waits for each one's odometry, lets subscribers join and leave while it runs, stops it
with SIGINT or SIGTERM at a random moment and checks that it exits 0 without a traceback. Each
node's process group is appended to ``OUT_DIR/groups`` as it starts (the test ends those groups
whatever happens here); the outcome goes to ``OUT_DIR/result.json``: ``{"failures": [...],
"missed": {namespace: text}, "stops": n}``.

Why a process of its own: once in many runs Fast DDS deadlocks while an entity is created or
destroyed, and the thread that hangs may hold the GIL (4 December: this side's main thread in
``create_subscription``). Inside pytest nothing could then run again, not the timeout's thread
nor a watchdog: the whole run hung. Here the test sees this process go quiet, reads its threads
(``faulthandler`` on SIGUSR1, which dumps from the signal handler without the GIL) and ends it.
"""
from __future__ import annotations

import faulthandler
import json
import random
import re
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.dds import DiscoveryTimeout, matched, node_names, publishers_info, spin_for, wait_for  # noqa: E402
from helpers.processes import RosProcess  # noqa: E402

#: rclpy calls that go straight into Fast DDS's entity set-up or tear-down: creating an entity,
#: destroying one (``Node.destroy_*`` and each entity's own ``destroy``), the context's init and
#: shutdown (``Context._cleanup`` under ``shutdown``/``try_shutdown``)
_DDS_CALLS = re.compile(r"  File \"[^\"]*/rclpy/[^\"]*\", line \d+ in "
                        r"(create_\w+|destroy(?:_\w+)?|__init__|init|_cleanup|shutdown|try_shutdown)\n")
_THREAD = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):\n((?:  File .*\n)*)",
                     re.MULTILINE)


def hung_in_dds(stacks: str) -> bool:
    """Whether a process's thread dump (``faulthandler``: most recent call first, the main thread,
    the oldest, listed last) shows its main thread inside a Fast DDS entity call: the start-up or
    tear-down hang of docs/discovery.md, where no Python code (and so no signal handler's effect)
    runs again. A process waiting in its executor, or in this package's own code, is not that."""
    threads = _THREAD.findall(stacks if stacks.endswith("\n") else stacks + "\n")
    return bool(threads) and threads[-1] != "" and _DDS_CALLS.match(threads[-1]) is not None


def _why_no_odometry(node, ns: str, proc, spin) -> tuple[bool, str]:
    """After a node's odometry did not come: (the node is stuck, what was seen).

    A node is stepping when its 20 Hz ``dbw_enabled`` (published whether or not
    anyone listens) arrives; then only this side's odometry subscription failed to
    match over DDS. A node that DDS does not show in the graph was not discovered
    (Fast DDS announces a participant from its own threads, whatever Python does).
    Neither is what the test is about. A node that is in the graph but sends
    nothing is stuck: that fails the test."""
    from std_msgs.msg import Bool
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


def churn(node_exe: str, stops: int, parallel: int, seed: int, out_dir: Path) -> dict:
    """Run the stops (module docstring); the outcome ``{"failures", "missed", "stops"}``.

    Raises
    ------
    AssertionError
        For a node that is up but sends nothing while not inside Fast DDS (the test reports it).
    """
    import rclpy
    from nav_msgs.msg import Odometry
    import ds_dbw_msgs.msg as dbw_msgs

    rclpy.init()
    node = rclpy.create_node("churn")
    rng = random.Random(seed)
    live = []   # (proc, subscriptions, namespace)
    groups = (out_dir / "groups").open("a")
    try:
        spin = lambda: rclpy.spin_once(node, timeout_sec=0.01)  # noqa: E731
        done, failures, started = 0, [], 0
        # DDS misses by namespace: odometry that never reached this subscriber from a node that is
        # not stuck, or a node hung inside Fast DDS (at start-up, or when it was told to stop)
        missed: dict[str, str] = {}
        while done < stops:
            while len(live) < parallel and started < stops:
                ns = f"stop{started}"
                proc = RosProcess([sys.executable, node_exe, "--ros-args", "-r", f"__ns:=/{ns}",
                                   "-p", "status_period_s:=0.0"], out_dir / f"{ns}.log")
                groups.write(f"{proc.proc.pid}\n")
                groups.flush()
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
                    assert hung_in_dds(stacks), f"{ns} is up but sends nothing: {seen}\n{stacks[-3000:]}"
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
            proc.proc.send_signal(sig)
            try:
                code = proc.proc.wait(timeout=20.0)
            except Exception:
                code = None
            if code is None:   # its threads, then it goes
                out = proc.stacks()
                proc.stop()
                if hung_in_dds(out):
                    missed[ns] = f"{ns} ({signal.Signals(sig).name}) hung in Fast DDS:\n{out[-3000:]}"
                    for s in subs:
                        node.destroy_subscription(s)
                    done += 1
                    continue
            else:
                out = proc.output()
                proc.stop()
            if code != 0 or "Traceback" in out or "RCLError" in out:
                failures.append(f"{ns} ({signal.Signals(sig).name}): exit {code}\n{out[-2000:]}")
            for s in subs:
                node.destroy_subscription(s)
            done += 1
        return {"failures": failures, "missed": missed, "stops": done}
    finally:
        for proc, _subs, _ns in live:
            proc.stop()
        groups.close()
        node.destroy_node()
        rclpy.try_shutdown()


def main(argv: list[str]) -> int:
    """``NODE_EXE STOPS PARALLEL SEED OUT_DIR``: run :func:`churn`, write ``OUT_DIR/result.json``; 0."""
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    node_exe, stops, parallel, seed, out_dir = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4])
    result = churn(node_exe, stops, parallel, seed, out_dir)
    (out_dir / "result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
