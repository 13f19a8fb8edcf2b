"""SIGINT and SIGTERM as a flag for a ROS program's spin loop (ROS-free).

A signal that interrupts an rclpy call in the middle (the default handling) can
end a program with a traceback from inside rclpy, or leave a callback facing a
shut-down context. The programs of this package (``sim_node``, ``demo_driver``)
instead let a signal only raise a flag that their loop checks between
callbacks, and then stop in order.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


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
