"""Local worker processes of the batch and the sweep (acres_dbw_sim/worker_pool.py)."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from acres_dbw_sim.worker_pool import process_pool, start_method


def _handlers() -> tuple:
    return (signal.getsignal(signal.SIGINT) is signal.default_int_handler,
            signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, os.getpid())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks only on Linux")
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


def _interrupt_self() -> None:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)   # the interrupt arrives here


def _touch(path: str) -> str:
    Path(path).write_text("ran")
    return path


def test_an_interrupted_worker_runs_none_of_the_tasks_queued_to_it(tmp_path):
    """Ctrl-C: the task under way fails with KeyboardInterrupt after its clean-up, and the worker then runs
    nothing more (the tasks queued to it fail at once) instead of working through them while the tool waits."""
    with process_pool(1) as ex:
        first = ex.submit(_interrupt_self)
        later = [ex.submit(_touch, str(tmp_path / f"t{i}")) for i in range(3)]
        with pytest.raises(KeyboardInterrupt):
            first.result(timeout=60)
        for f in later:
            with pytest.raises(KeyboardInterrupt):
                f.result(timeout=60)
    assert not list(tmp_path.iterdir())
    with process_pool(1) as ex:   # a new pool runs again
        assert ex.submit(_touch, str(tmp_path / "new")).result(timeout=60)


def _start_method_seen() -> str:
    return _SEEN


_SEEN = "module default"


def test_the_pool_forks_or_spawns_as_start_method_says(monkeypatch):
    """A forked worker sees what this process set after the import; a spawned one the module's default."""
    monkeypatch.setitem(globals(), "_SEEN", "set by the test")
    expected = "set by the test" if start_method() == "fork" else "module default"
    with process_pool(1) as ex:
        assert ex.submit(_start_method_seen).result(timeout=120) == expected
