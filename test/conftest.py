"""Test-session isolation for DDS and process hygiene.

Every test gets its own ``ROS_DOMAIN_ID`` (1-101: the session's start is derived from the pid,
and each test takes the next one; two sessions run at once on one machine will share a domain now
and then), discovery limited to
localhost, and the node's Fast DDS participant profile (announcements every
0.3 s, docs/discovery.md). Set before the test calls ``rclpy.init()``, and inherited by every node
process a test starts. A domain per test keeps one test's DDS state (Fast DDS's shared-memory
ports are per domain; a node killed mid-write can leave one locked) out of the next test.
``ros_process`` starts such a process in its own process group and always kills the whole group
afterwards, so no node is ever left behind.
The clean-up after each test signals only what the session started: the groups
``ros_process`` made and pytest's own descendants, never another process of the
same user or DDS domain.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: The domain of the user's own choosing is kept (``ACRES_TEST_KEEP_DOMAIN=1``); else each test
#: takes the next of 1-101 (the range whose ports stay below Linux's ephemeral ones).
KEEP_DOMAIN = "ROS_DOMAIN_ID" in os.environ and os.environ.get("ACRES_TEST_KEEP_DOMAIN") == "1"
_FIRST_DOMAIN = os.getpid() % 101
_tests_started = 0
if not KEEP_DOMAIN:
    os.environ["ROS_DOMAIN_ID"] = str(1 + _FIRST_DOMAIN)
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
os.environ.setdefault("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp")
# The tests' own participants announce themselves as often as the node's (docs/discovery.md), so a
# node a test starts after subscribing finds the test's subscriber without Fast DDS's 3 s tail.
os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] = str(Path(__file__).resolve().parents[1] / "config" /
                                                  "fastdds_discovery.xml")

TEST_DIR = Path(__file__).resolve().parent
#: Process groups started by ``ros_process`` in this session (their leader's pid).
STARTED_GROUPS: set[int] = set()


class RosProcess:
    """A child process in its own process group; :meth:`stop` ends the group."""

    def __init__(self, argv: list[str], log_path: Path) -> None:
        self.argv = argv
        self.log_path = log_path
        self._log = log_path.open("w")
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        STARTED_GROUPS.add(self.proc.pid)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stacks(self, wait_s: float = 1.0) -> str:
        """The process's output after asking it for every thread's Python stack (SIGUSR1:
        ``sim_node`` registers ``faulthandler`` on it), e.g. for a node that never came up."""
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGUSR1)
            except ProcessLookupError:
                pass
            time.sleep(wait_s)
        return self.output()

    def stop(self, timeout_s: float = 5.0) -> int | None:
        """SIGINT the group, then SIGKILL it if it has not exited in ``timeout_s``."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGINT)
                self.proc.wait(timeout=timeout_s)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:  # anything of the group still alive (children) goes too
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass
        self._log.close()
        return self.proc.returncode


@pytest.fixture
def ros_process(tmp_path):
    """Factory: ``ros_process([args...])`` starts ``python args...`` as a node process."""
    started: list[RosProcess] = []

    def start(args: list[str], name: str = "proc") -> RosProcess:
        p = RosProcess([sys.executable, *args], tmp_path / f"{name}-{len(started)}.log")
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()


def _proc_stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, process group, command line) of a live process, None if gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            return None
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        return int(fields[1]), int(fields[2]), cmd.strip()
    except (OSError, ValueError, IndexError):
        return None


def _own_processes() -> dict[int, str]:
    """Live processes this test session started: members of the process groups
    ``ros_process`` created (``STARTED_GROUPS``) and descendants of this pytest
    process. Nothing else, whatever its environment or DDS domain."""
    me = os.getpid()
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != me:
            info = _proc_stat(int(entry.name))
            if info is not None:
                table[int(entry.name)] = info
    found = {}
    for pid, (ppid, pgid, cmd) in table.items():
        if "multiprocessing.resource_tracker" in cmd:   # lives as long as pytest
            continue
        ancestor, seen = ppid, 0
        while ancestor not in (0, 1, me) and ancestor in table and seen < 64:
            ancestor, seen = table[ancestor][0], seen + 1
        if pgid in STARTED_GROUPS or ancestor == me:
            found[pid] = cmd
    return found


@pytest.fixture(autouse=True)
def own_domain():
    """Give the test the next ``ROS_DOMAIN_ID`` (see the module's docstring)."""
    global _tests_started
    if not KEEP_DOMAIN:
        os.environ["ROS_DOMAIN_ID"] = str(1 + (_FIRST_DOMAIN + _tests_started) % 101)
        _tests_started += 1
    yield


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """Fail the test that leaves one of its own processes running (and end it), so
    a stray node can never disturb a later test. Only the session's own processes
    are signalled (``_own_processes``)."""
    yield
    deadline = time.monotonic() + 3.0
    left = _own_processes()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = _own_processes()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"processes left running by this test: {left}"


def call_service(node, client, request, timeout_s: float = 10.0, idempotent: bool = True,
                 done=None):
    """Call ``client`` with ``request`` from ``node`` and return the response.

    A server can drop the response to a client it has only half discovered: Fast DDS's
    service waits 100 ms for the client's response reader to match and then gives up
    ("failed to send response (timeout)" in the server's log; ros2/rmw_fastrtps#390, #467),
    which a loaded machine can exceed right after ``wait_for_service``. An ``idempotent``
    request is then sent once more. A request that is not (a lockstep step) is not resent:
    ``done()`` must then tell that it took effect, and None is returned for its lost response.

    Raises AssertionError when no response came and the request did not take effect."""
    import rclpy

    future = client.call_async(request)
    rclpy.spin_until_future_complete(node, future, timeout_sec=timeout_s)
    if future.result() is not None:
        return future.result()
    client.remove_pending_request(future)
    if idempotent:
        future = client.call_async(request)
        rclpy.spin_until_future_complete(node, future, timeout_sec=timeout_s)
        assert future.result() is not None, f"no response to {type(request).__name__} in 2 x {timeout_s} s"
        return future.result()
    assert done is not None and wait_for(done, timeout_s, spin=lambda: rclpy.spin_once(node, timeout_sec=0.02)), \
        f"no response to {type(request).__name__} in {timeout_s} s and it did not take effect"
    return None


def wait_for(predicate, timeout_s: float, spin=None, period_s: float = 0.02) -> bool:
    """Poll ``predicate`` (calling ``spin()`` between polls) until true or timeout."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if spin is not None:
            spin()
        if predicate():
            return True
        if spin is None:
            time.sleep(period_s)
    return predicate()
