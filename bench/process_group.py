"""Stopping a node process that a benchmark started in its own process group."""

from __future__ import annotations

import os
import signal
import subprocess


def stop_process_group(proc: subprocess.Popen, timeout_s: float = 5.0) -> None:
    """SIGINT the process group led by ``proc`` (the node's clean stop), then SIGKILL it if
    it has not exited within ``timeout_s`` [s]. ``proc`` must have been started with
    ``start_new_session=True``, so that the group holds only what the benchmark started."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=timeout_s)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
