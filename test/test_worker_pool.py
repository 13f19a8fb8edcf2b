"""Local worker processes of the batch and the sweep (acres_dbw_sim/worker_pool.py)."""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from acres_dbw_sim.worker_pool import process_pool, start_method

_STOP = {signal.SIGINT, signal.SIGTERM}


def _handlers() -> tuple:
    from acres_dbw_sim import worker_pool
    blocked = set(signal.pthread_sigmask(signal.SIG_BLOCK, set()))
    return (signal.getsignal(signal.SIGINT) is worker_pool._on_sigint,
            signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, not (_STOP & blocked), os.getpid())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks only on Linux")
def test_a_process_with_one_thread_forks_one_with_threads_spawns(monkeypatch):
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert start_method() == "fork"
    assert start_method(fork_ok=False) == "spawn"
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert start_method() == "spawn"


def test_a_start_method_the_program_chose_is_kept(monkeypatch):
    monkeypatch.setattr(mp, "get_start_method", lambda allow_none=False: "forkserver")
    assert start_method() == "forkserver" and start_method(fork_ok=False) == "forkserver"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks only on Linux")
def test_a_default_fixed_to_fork_by_a_lock_does_not_bypass_the_thread_rule(monkeypatch):
    """Any multiprocessing lock (tqdm makes one) fixes the default context, fork on Linux, as if chosen:
    with another thread running the workers are spawned all the same."""
    monkeypatch.setattr(mp, "get_start_method", lambda allow_none=False: "fork")
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert start_method() == "spawn"
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert start_method() == "fork"


def test_workers_start_with_their_own_signal_handling_whatever_the_tool_installed():
    """A tool's SIGTERM handler (stop_signals.sigterm_interrupts) and a changed SIGINT handler are not
    inherited: a worker ends on SIGTERM and takes SIGINT with its own handler, and neither signal stays
    blocked after the start, in the workers or here (the pool starts its workers with both blocked)."""
    old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    old_term = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        with process_pool(2) as ex:
            got = [f.result(timeout=60) for f in [ex.submit(_handlers) for _ in range(4)]]
        assert not (_STOP & set(signal.pthread_sigmask(signal.SIG_BLOCK, set())))
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
    assert all(r[0] and r[1] and r[2] for r in got), got
    assert os.getpid() not in {r[3] for r in got}


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


_SEEN = "module default"


def _seen() -> str:
    return _SEEN


def test_the_pool_forks_or_spawns_as_start_method_says(monkeypatch):
    """A forked worker sees what this process set after the import; a spawned one the module's default."""
    monkeypatch.setitem(globals(), "_SEEN", "set by the test")
    expected = "set by the test" if start_method() == "fork" else "module default"
    with process_pool(1) as ex:
        assert ex.submit(_seen).result(timeout=120) == expected


_IDLE = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, {root!r})
    from acres_dbw_sim.worker_pool import process_pool
    ex = process_pool(2)
    print(ex.submit(os.getpid).result(timeout=60), flush=True)
    for p in list(ex._processes.values()):
        os.kill(p.pid, signal.SIGINT)            # Ctrl-C reaches idle workers
    time.sleep(0.5)
    ex.shutdown(wait=True)
    print("shut down", flush=True)
""")


def test_a_worker_interrupted_while_idle_leaves_quietly():
    root = str(Path(__file__).resolve().parents[1])
    r = subprocess.run([sys.executable, "-c", _IDLE.format(root=root)], capture_output=True, text=True,
                       timeout=120, start_new_session=True)
    assert r.returncode == 0, r.stderr
    assert "shut down" in r.stdout and "Traceback" not in r.stderr, r.stderr
