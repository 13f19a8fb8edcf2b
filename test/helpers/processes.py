"""Processes the tests start, and the session's own process table.

``RosProcess`` starts a child (a node, a launch, a client) in its own process group and ends the
whole group; ``STARTED_GROUPS`` remembers every group started in this session. The clean-up after
each test (``conftest.no_process_left_behind``) ends only what :func:`own_processes` finds: members
of those groups and descendants of pytest, never a process found by name, pattern or DDS domain.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

#: Process groups started by ``RosProcess`` in this session (their leader's pid).
STARTED_GROUPS: set[int] = set()


class RosProcess:
    """A child process in its own process group; :meth:`stop` ends the group.

    ``argv`` is run as is, its stdout and stderr to ``log_path`` (read with :meth:`output`)."""

    def __init__(self, argv: list[str], log_path: Path) -> None:
        self.argv = argv
        self.log_path = log_path
        self._log = log_path.open("w")
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        STARTED_GROUPS.add(self.proc.pid)

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def output(self) -> str:
        """Everything the process printed so far."""
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
            time.sleep(wait_s)   # the handler writes asynchronously
        return self.output()

    def stop(self, timeout_s: float = 5.0) -> int | None:
        """SIGINT the group, then SIGKILL it if it has not exited in ``timeout_s``; the exit status."""
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


def proc_stat(pid: int) -> tuple[int, int, str] | None:
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


def own_processes() -> dict[int, str]:
    """``{pid: command line}`` of the live processes this session started: members of the process
    groups in ``STARTED_GROUPS`` and descendants of this pytest process. Nothing else, whatever its
    environment or DDS domain."""
    me = os.getpid()
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != me:
            info = proc_stat(int(entry.name))
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


def end_own_processes(grace_s: float = 3.0) -> dict[int, str]:
    """Wait up to ``grace_s`` for the session's own processes to exit, SIGKILL those left;
    return what was left (``{pid: command line}``, empty when nothing was)."""
    deadline = time.monotonic() + grace_s
    left = own_processes()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = own_processes()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left
