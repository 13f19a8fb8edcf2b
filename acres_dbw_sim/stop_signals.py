"""SIGINT and SIGTERM as a flag for a ROS program's spin loop (ROS-free).

A signal that interrupts an rclpy call in the middle (the default handling) can
end a program with a traceback from inside rclpy, or leave a callback facing a
shut-down context. The programs of this package (``sim_node``, ``demo_driver``)
instead let a signal only raise a flag that their loop checks between
callbacks, and then stop in order.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator


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
