"""Local worker processes of the batch and the sweep (acres_dbw_sim/worker_pool.py)."""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading

import pytest

from acres_dbw_sim.worker_pool import process_pool, start_method


def _handlers() -> tuple:
    return (signal.getsignal(signal.SIGINT) is signal.default_int_handler,
            signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, os.getpid())


@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="no fork on this platform")
def test_a_process_with_one_thread_forks_one_with_threads_spawns(monkeypatch):
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert start_method() == "fork"
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert start_method() == "spawn"


def test_workers_start_with_the_default_signal_handling_whatever_the_tool_installed():
    """A tool's SIGTERM handler (stop_signals.sigterm_interrupts) and a changed SIGINT handler are not
    inherited: a worker ends on SIGTERM and raises KeyboardInterrupt on SIGINT, as a spawned one does."""
    old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    old_term = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        with process_pool(2) as ex:
            got = [f.result(timeout=60) for f in [ex.submit(_handlers) for _ in range(4)]]
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
    assert all(r[0] and r[1] for r in got), got
    assert os.getpid() not in {r[2] for r in got}
