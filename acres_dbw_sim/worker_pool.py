"""Local worker processes of the headless tools (a scenario batch, a sweep's local engine); ROS-free.

A worker needs the simulator imported: numpy, numba and the model's compiled
kernels, about 1.2 s of CPU per process on the development machine. A
process started fresh (``spawn``) pays that each time; a process forked
from the tool, which has imported all of it already, starts at once. For
the shipped sweep (256 short runs, two workers) starting spawned workers was
two thirds of the sweep's wall time.

Forking is safe only from a process with one thread (a fork copies the
other threads' locks but not the threads): :func:`process_pool` forks when
the platform has ``fork`` and the calling process runs no other thread, and
spawns otherwise (a library user's program with threads, or a platform
without ``fork``). Either way a worker starts with the default handling of
SIGINT (``KeyboardInterrupt``) and SIGTERM (the process ends), as a spawned
process does, whatever handlers the tool had installed
(:func:`acres_dbw_sim.stop_signals.sigterm_interrupts`). Every run is a
function of its inputs alone, so both ways give the same results.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["process_pool", "start_method"]


def start_method() -> str:
    """``fork`` when it is available and this process runs one thread, else ``spawn``."""
    if "fork" in mp.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _default_signals() -> None:
    """Worker initializer: SIGINT and SIGTERM as in a fresh interpreter."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (forked where that is safe, see the module).

    Parameters
    ----------
    jobs : int
        Number of worker processes, >= 1.

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        Use it as a context manager or shut it down.
    """
    return ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context(start_method()),
                               initializer=_default_signals)
