"""SIGINT and SIGTERM: a flag for a ROS program's spin loop, an interrupt for a tool (ROS-free).

A signal that interrupts an rclpy call in the middle (the default handling) can
end a program with a traceback from inside rclpy, or leave a callback facing a
shut-down context. The programs of this package (``sim_node``, ``demo_driver``)
instead let a signal only raise a flag that their loop checks between
callbacks, and then stop in order.

The command-line tools without ROS (``acres-scenario``, ``acres-sweep``,
``acres-replay``, ``acres-calibrate``) clean up on Ctrl-C through
``KeyboardInterrupt``; :func:`sigterm_interrupts` gives SIGTERM (``kill``, a CI
runner's time-out, a process manager) the same path instead of ending the
process where it stands, half-written files and all.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

_F = TypeVar("_F", bound=Callable)


def stop_flag_for_imports(program_names: tuple[str, ...]) -> list[int]:
    """The stop flag of a program, catching SIGINT and SIGTERM from here on.

    Called at the top of a program's module, before its slow imports (rclpy,
    numba: seconds on a busy machine): a signal that comes during them is kept
    in the flag for :func:`stop_on_signals` instead of ending in a
    ``KeyboardInterrupt`` traceback. Only when the process was started as one of
    ``program_names`` (the basename of ``sys.argv[0]``); a module imported as a
    library leaves the handlers alone.

    Parameters
    ----------
    program_names : tuple of str
        Console-script and file names of the program, e.g. ``("sim_node", "node.py")``.

    Returns
    -------
    list of int
        The flag (empty; the signal numbers caught are appended to it).
    """
    stop: list[int] = []
    if os.path.basename(sys.argv[0]) in program_names:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda signum, _frame: stop.append(signum))
    return stop


@contextlib.contextmanager
def stop_on_signals(stop: list[int]) -> Iterator[list[int]]:
    """Within the block, SIGINT and SIGTERM append their number to ``stop``.

    The program's loop ends when ``stop`` is non-empty. A second signal while
    ``stop`` already holds one raises ``KeyboardInterrupt`` (the user insists),
    so a stop that hangs can still be broken. The previous handlers are restored
    when the block ends. Must be entered in the main thread.

    Parameters
    ----------
    stop : list of int
        The flag, possibly already holding a signal caught during the imports.

    Yields
    ------
    list of int
        ``stop`` itself.
    """
    def on_signal(signum, _frame):
        if stop:   # a second signal while stopping: the user insists
            raise KeyboardInterrupt
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def sigterm_interrupts(main: _F) -> _F:
    """Decorate a tool's ``main``: while it runs, SIGTERM raises ``KeyboardInterrupt`` as Ctrl-C does.

    The tool's own ``except KeyboardInterrupt`` (exit 130, temporary files removed,
    a sweep's finished runs kept) then handles both. Ctrl-C reaches the whole
    process group, a ``kill`` (SIGTERM, or SIGINT by pid) only this process: the
    handler of both passes SIGINT on to this process's own worker processes
    (``multiprocessing.active_children``: a batch's or a sweep's local workers,
    which take a second SIGINT as one, acres_dbw_sim/worker_pool.py), so that
    they stop as they do on Ctrl-C instead of finishing their runs for nothing.
    The previous handlers are restored when ``main`` returns. Called outside the
    main thread (where Python cannot set handlers) ``main`` runs unchanged.

    Parameters
    ----------
    main : callable
        The tool's entry point.

    Returns
    -------
    callable
        ``main`` with the handler installed around each call.
    """
    def on_term(_signum, _frame):
        import multiprocessing

        for child in multiprocessing.active_children():   # our own workers only, as Ctrl-C would
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGINT)
        raise KeyboardInterrupt

    @functools.wraps(main)
    def wrapper(*args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            return main(*args, **kwargs)
        previous = {sig: signal.signal(sig, on_term) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            return main(*args, **kwargs)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    return wrapper  # type: ignore[return-value]
