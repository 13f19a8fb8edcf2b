"""Engines: where the runs execute.

Both engines run :func:`~acres_dbw_sim.sweep.worker.run_sample` on each
sample and hand every row to a callback as soon as it arrives (the caller
streams it to disk), keeping only a few tasks in flight per worker so that an
interrupted sweep loses little and memory stays flat.

* :func:`run_local`: worker processes on this machine
  (:func:`acres_dbw_sim.worker_pool.process_pool`: forked from this process
  where that is safe, else spawned), or the calling process itself for one job.
* :func:`run_ray`: Ray tasks. Ray is imported here only, so the rest of the
  package works without it. With ``address`` it joins that cluster (every
  node needs this package installed, as the driver has it); without, it starts
  a local Ray with ``jobs`` CPUs and no dashboard, and shuts it down after.
"""
from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable

from .worker import run_sample

__all__ = ["run_local", "run_ray", "ENGINES"]

ENGINES = ("local", "ray")
#: Tasks in flight per worker.
_IN_FLIGHT = 4


def run_local(tasks: Iterable, scenarios: tuple, prefix: bool, jobs: int,
              on_result: Callable[[object, dict], None]) -> None:
    """Run ``tasks`` in local processes.

    Parameters
    ----------
    tasks : iterable of Sample
        The samples to run (not the invalid ones).
    scenarios : tuple of ScenarioSpec
    prefix : bool
        See :func:`~acres_dbw_sim.sweep.worker.run_sample`.
    jobs : int
        Worker processes (0: the number of CPUs); 1 runs in this process.
    on_result : callable
        ``on_result(sample, row)``, called in this process as each run finishes.
    """
    tasks = list(tasks)
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    jobs = max(1, min(jobs, len(tasks)))
    if jobs == 1:
        for s in tasks:
            on_result(s, run_sample(s.sample_id, s.overrides, scenarios, prefix))
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    from ..worker_pool import process_pool

    it = iter(tasks)
    pending: dict = {}
    ex = process_pool(jobs)
    try:
        while True:
            while len(pending) < _IN_FLIGHT * jobs:
                s = next(it, None)
                if s is None:
                    break
                pending[ex.submit(run_sample, s.sample_id, s.overrides, scenarios, prefix)] = s
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                on_result(pending.pop(fut), fut.result())
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def _sigterm_handler():
    """This process's SIGTERM handler, or None outside the main thread (where it cannot be set again)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.getsignal(signal.SIGTERM)


def run_ray(tasks: Iterable, scenarios: tuple, prefix: bool, jobs: int,
            on_result: Callable[[object, dict], None], address: str | None = None) -> None:
    """Run ``tasks`` as Ray tasks.

    Parameters
    ----------
    tasks, scenarios, prefix, on_result :
        As for :func:`run_local`.
    jobs : int
        CPUs of the local Ray started when no ``address`` is given (0: all of
        this machine's); ignored with ``address``.
    address : str, optional
        Address of an existing Ray cluster (``ray://host:10001`` or
        ``host:6379``, or ``auto``).

    Raises
    ------
    RuntimeError
        When Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray engine needs Ray: pip install 'ray==2.60.0' "
                           "(requirements/python.txt; make bootstrap installs it)") from None
    tasks = list(tasks)
    started = False
    try:
        if not ray.is_initialized():
            started = True   # a Ray started here is stopped here, also when its start is interrupted
            term = _sigterm_handler()
            if address:
                ray.init(address=address, logging_level="WARNING", log_to_driver=False)
            else:
                ray.init(num_cpus=jobs if jobs > 0 else (os.cpu_count() or 1), include_dashboard=False,
                         logging_level="WARNING", log_to_driver=False)
            if term is not None:   # ray.init takes SIGTERM over (it ends the driver with status 15):
                signal.signal(signal.SIGTERM, term)   # the tool's handling again (stop, shut Ray down, 130)
        remote = ray.remote(num_cpus=1, max_retries=0)(run_sample)
        scen_ref = ray.put(scenarios)
        width = max(1, int(ray.cluster_resources().get("CPU", 1))) * _IN_FLIGHT
        it = iter(tasks)
        pending: dict = {}
        while True:
            while len(pending) < width:
                s = next(it, None)
                if s is None:
                    break
                pending[remote.remote(s.sample_id, s.overrides, scen_ref, prefix)] = s
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                on_result(pending.pop(ref), ray.get(ref))
    finally:
        if started:
            ray.shutdown()
