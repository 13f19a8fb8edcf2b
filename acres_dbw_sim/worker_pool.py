"""Local worker processes of the headless tools (a scenario batch, a sweep's local engine); ROS-free.

A worker needs the simulator imported: numpy, numba and the model's compiled
kernels, about 1.2 s of CPU per process on the development machine. A
process started fresh (``spawn``) pays that each time; a process forked
from the tool, which has imported all of it already, starts at once. For
the shipped sweep (256 short runs, two workers) starting spawned workers was
two thirds of the sweep's wall time.

Forking is safe only from a process with one thread (a fork copies the
other threads' locks but not the threads): :func:`process_pool` forks on
Linux when the calling process runs no other Python thread, and spawns
otherwise (a library user's program with threads; macOS, where system
libraries make a fork unreliable and Python spawns by default; Windows).
Threads of native libraries are not seen by that check; those of the
simulator's own (OpenBLAS's workers) are safe across a fork. Either way a worker starts with the default handling of
SIGINT (``KeyboardInterrupt``) and SIGTERM (the process ends), as a spawned
process does, whatever handlers the tool had installed
(:func:`acres_dbw_sim.stop_signals.sigterm_interrupts`). Every run is a
function of its inputs alone, so both ways give the same results.

An interrupted worker (SIGINT: Ctrl-C reaches the process group, and the
tools pass SIGTERM on as SIGINT) lets its task clean up and fail with
``KeyboardInterrupt``, then runs nothing more: the tasks already queued to it
fail at once the same way instead of running to the end while the tool waits.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["process_pool", "start_method"]


def start_method() -> str:
    """``fork`` on Linux when this process runs one Python thread, else ``spawn``."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _default_signals() -> None:
    """Worker initializer: SIGINT and SIGTERM as in a fresh interpreter."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: Set in a worker once a task of it was interrupted (_interruptible).
_interrupted = False


def _interruptible(fn, *args, **kwargs):
    """Run a task in a worker; once one was interrupted, raise ``KeyboardInterrupt`` instead."""
    global _interrupted
    if _interrupted:
        raise KeyboardInterrupt("this worker was interrupted: it runs no further task")
    try:
        return fn(*args, **kwargs)
    except KeyboardInterrupt:
        _interrupted = True
        raise


class _Pool(ProcessPoolExecutor):
    """A process pool whose tasks stop with the first interrupt of their worker (:func:`_interruptible`)."""

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_interruptible, fn, *args, **kwargs)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (forked where that is safe, see the module).

    Parameters
    ----------
    jobs : int
        Number of worker processes, >= 1.

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        Use it as a context manager or shut it down (with ``cancel_futures=True`` when interrupted: the
        tasks not yet started are dropped).
    """
    return _Pool(max_workers=jobs, mp_context=mp.get_context(start_method()), initializer=_default_signals)
