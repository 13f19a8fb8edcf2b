"""Local worker processes of the headless tools (a scenario batch, a sweep's local engine); ROS-free.

A worker needs the simulator imported: numpy, numba and the model's compiled
kernels, about 1.2 s of CPU per process on the development machine. A
process started fresh (``spawn``) pays that each time; a process forked
from the tool, which has imported all of it already, starts at once. For
the shipped sweep (256 short runs, two workers) starting spawned workers was
two thirds of the sweep's wall time.

Forking is safe only from a process with one thread (a fork copies the
other threads' locks but not the threads). :func:`start_method` forks on
Linux when the calling process runs no other Python thread, and spawns
otherwise: a library user's program with threads; macOS, where system
libraries make a fork unreliable and Python spawns by default; Windows; a
start method other than ``fork`` that the program chose itself
(``multiprocessing.set_start_method``; a chosen ``fork`` cannot be told from
the default that any ``multiprocessing`` lock fixes, so the thread rule decides);
or a caller that asks for it (a scenario batch with a user's ``--controller``,
whose native threads, an OpenMP runtime say, this check cannot see). Threads of
the simulator's own native libraries (OpenBLAS's workers) are safe across a fork.

Signals. The workers are started with SIGINT and SIGTERM blocked, in the
tool and in the new process alike (the mask survives a fork and an exec), so
that a Ctrl-C in that instant cannot leave a half-started worker behind; the
tool takes the signal right after, a worker once it has set its handlers. A
worker ends on SIGTERM, as a new process does. SIGINT (Ctrl-C reaches the
process group; the tools pass SIGTERM and SIGINT on to their workers,
:func:`acres_dbw_sim.stop_signals.sigterm_interrupts`) interrupts the task
under way once: it cleans up and fails with ``KeyboardInterrupt``; the
worker then runs nothing more (the tasks queued to it fail at once the same
way) and, idle, leaves without a traceback when the tool shuts the pool
down. Every run is a function of its inputs alone, so fork and spawn give the
same results.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["process_pool", "start_method"]

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def start_method(fork_ok: bool = True) -> str:
    """How :func:`process_pool` starts its workers: ``fork`` or ``spawn`` (rules in the module docstring).

    Parameters
    ----------
    fork_ok : bool
        False: spawn in any case.
    """
    chosen = mp.get_start_method(allow_none=True)
    if chosen is not None and chosen != "fork":
        return chosen
    if fork_ok and sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


#: In a worker: a task is under way (_interruptible), and a SIGINT has arrived.
_running = False
_interrupted = False


def _on_sigint(_signum, _frame) -> None:
    """A worker's SIGINT: interrupt the task under way, once; otherwise only remember it."""
    global _interrupted
    first = not _interrupted
    _interrupted = True
    if _running and first:
        raise KeyboardInterrupt


def _worker_signals() -> None:
    """Worker initializer: SIGINT as :func:`_on_sigint`, SIGTERM's default, then the signals unblocked."""
    signal.signal(signal.SIGINT, _on_sigint)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


def _interruptible(fn, *args, **kwargs):
    """Run a task in a worker; once a SIGINT has arrived, raise ``KeyboardInterrupt`` instead."""
    global _running
    if _interrupted:
        raise KeyboardInterrupt("this worker was interrupted: it runs no further task")
    _running = True
    try:
        return fn(*args, **kwargs)
    finally:
        _running = False


def _nothing() -> None:
    """The task that starts the workers (process_pool)."""


class _Pool(ProcessPoolExecutor):
    """A process pool whose tasks run under :func:`_interruptible`."""

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_interruptible, fn, *args, **kwargs)


def process_pool(jobs: int, fork_ok: bool = True) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes, started (see the module for how, and for signals).

    Parameters
    ----------
    jobs : int
        Number of worker processes, >= 1.
    fork_ok : bool
        False: spawn the workers even where forking would be taken (a caller that runs user code
        in this process).

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        Use it as a context manager or shut it down (with ``cancel_futures=True`` when interrupted: the
        tasks not yet started are dropped).
    """
    pool = _Pool(max_workers=jobs, mp_context=mp.get_context(start_method(fork_ok)), initializer=_worker_signals)
    if threading.current_thread() is not threading.main_thread():
        return pool
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        pool.submit(_nothing)   # forks every worker now (spawn: the first); the pool's thread keeps the mask
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return pool
