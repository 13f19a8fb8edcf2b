"""``--help`` of the ROS programs (``sim_node``/``acres-sim``, ``demo_driver``/``acres-demo``), ROS-free.

A ROS program takes its own arguments before ``--ros-args``; what follows belongs to ROS. ``-h`` or
``--help`` among the program's own arguments prints the usage and starts nothing.
"""
from __future__ import annotations

import os
import textwrap

from .interface import PARAMETERS

__all__ = ["wants_help", "node_usage", "demo_usage", "print_usage", "waiting_text", "pipe_safe", "silence_stdout"]

TOOLS = ("acres-scenario (headless scenarios), acres-replay (bags), acres-sweep (parameter sweeps), "
         "acres-calibrate (fit parameters to a bag), acres-demo (the demo client); each takes --help")


def _own_arguments(argv: list[str]) -> list[str]:
    """The program's own arguments: ``argv[1:]`` before ``--ros-args``."""
    return argv[1:argv.index("--ros-args")] if "--ros-args" in argv else argv[1:]


def wants_help(argv: list[str]) -> bool:
    """True when ``-h`` or ``--help`` is among the program's own arguments (``argv[1:]`` before
    ``--ros-args``)."""
    own = _own_arguments(argv)
    return "-h" in own or "--help" in own


def stray_arguments(argv: list[str]) -> list[str]:
    """The program's own arguments (``argv[1:]`` before ``--ros-args``) that it does not take: everything
    but ``-h``/``--help``. ``sim_node -p time_mode:=sim`` (``--ros-args`` forgotten) gives
    ``['-p', 'time_mode:=sim']``, which ROS would otherwise ignore with only a remap warning."""
    return [a for a in _own_arguments(argv) if a not in ("-h", "--help")]


def node_usage(prog: str) -> str:
    """The simulator node's usage: how to pass parameters, every parameter with its default, the tools."""
    width = max(len(n) for n in PARAMETERS)
    rows = []
    for name, (default, text) in PARAMETERS.items():
        shown = repr(default) if isinstance(default, str) else str(default).lower() \
            if isinstance(default, bool) else str(default)
        lines = textwrap.wrap(f"(default {shown}) {text}", 100 - width - 4)
        rows.append(f"  {name:<{width}}  {lines[0]}")
        rows += [f"  {'':<{width}}  {ln}" for ln in lines[1:]]
    return (f"usage: {os.path.basename(prog)} [--ros-args -p NAME:=VALUE ... --params-file FILE -r __ns:=/NS]\n\n"
            "A Dataspeed drive-by-wire Polaris Ranger (or Case IH Maxxum 150) for ROS 2: the DBW topics under\n"
            "/vehicle, odometry, TF, IMU and every report, the vehicle model behind them. Runs until Ctrl-C.\n"
            "Example: sim_node --ros-args -p time_mode:=sim -p rate_factor:=4.0\n"
            "         sim_node --ros-args --params-file config/sim.yaml\n\n"
            "Parameters (docs/node.md, 'Parameters'; change the runtime ones with the parameter services):\n"
            + "\n".join(rows) + f"\n\nOther tools: {TOOLS}.\n")


def demo_usage(prog: str) -> str:
    """The demo client's usage."""
    return (f"usage: {os.path.basename(prog)} [--ros-args -p use_sim_time:=true ...]\n\n"
            "Drives a running simulator node on /vehicle (make run, or sim_node) through a figure-eight with\n"
            "ds_dbw_msgs commands: engage, shift to DRIVE, ULC speed and steering, stop, park, disengage.\n"
            "Ctrl-C disengages before it leaves (exit 130). For the Polaris Ranger.\n\n"
            f"Other tools: {TOOLS}.\n")


def print_usage(text: str) -> int:
    """Print ``text`` to stdout (a reader that closed the pipe, ``| head``, is no error); return 0."""
    import sys
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    return 0


def silence_stdout() -> None:
    """Point stdout at /dev/null after its reader has gone (a ``BrokenPipeError``), so that later writes and
    Python's flush at exit do not fail again."""
    import sys
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def waiting_text(topic: str, waited_s: float) -> str:
    """What a client says while no simulator answers on ``topic``: the DDS domain and discovery range it
    looks in (the likeliest mistake is another ``ROS_DOMAIN_ID``) and what to start."""
    domain = os.environ.get("ROS_DOMAIN_ID", "") or "0 (unset)"
    reach = os.environ.get("ROS_AUTOMATIC_DISCOVERY_RANGE", "") or "SUBNET (unset)"
    return (f"no message on {topic} after {waited_s:.0f} s: waiting for a simulator in ROS_DOMAIN_ID={domain}, "
            f"discovery range {reach}; start one there (make run, or sim_node) or give this client the "
            f"simulator's ROS_DOMAIN_ID")


def pipe_safe(main):
    """Decorate a command-line ``main``: a reader that closes stdout early (``acres-scenario --columns |
    head``) ends the program quietly with status 0 instead of a ``BrokenPipeError`` traceback. Whatever
    the program was writing to stdout then is lost, as with any Unix tool in such a pipe."""
    import functools

    @functools.wraps(main)
    def wrapped(*args, **kwargs):
        try:
            return main(*args, **kwargs)
        except BrokenPipeError:
            silence_stdout()
            return 0
    return wrapped
