"""Test-session isolation for DDS and process hygiene.

Every test session gets its own ``ROS_DOMAIN_ID`` (derived from the pid, so two
sessions on one machine do not see each other) and discovery limited to
localhost. Set before any test imports rclpy, and inherited by every node process
a test starts. ``ros_process`` starts such a process in its own process group
and always kills the whole group afterwards, so no node is ever left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

if "ROS_DOMAIN_ID" not in os.environ or os.environ.get("ACRES_TEST_KEEP_DOMAIN") != "1":
    os.environ["ROS_DOMAIN_ID"] = str(1 + os.getpid() % 100)
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
os.environ.setdefault("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp")

TEST_DIR = Path(__file__).resolve().parent


class RosProcess:
    """A child process in its own process group; :meth:`stop` ends the group."""

    def __init__(self, argv: list[str], log_path: Path) -> None:
        self.argv = argv
        self.log_path = log_path
        self._log = log_path.open("w")
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

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


def _session_processes() -> dict[int, str]:
    """Other live processes of this test session (same ROS_DOMAIN_ID in their environment)."""
    marker = f"ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if "multiprocessing.resource_tracker" not in cmd:  # lives as long as pytest
                    found[int(entry.name)] = cmd.strip()
        except OSError:
            continue
    return found


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """Fail the test that leaves a process of this DDS domain running (and end it),
    so a stray node can never disturb a later test."""
    yield
    deadline = time.monotonic() + 3.0
    left = _session_processes()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = _session_processes()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"processes left running by this test: {left}"


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
