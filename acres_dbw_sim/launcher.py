"""The process entry of the simulator node (``sim_node``, ``acres-sim``): signals, DDS profile, executor.

``main`` is the console entry. Started as a program (``sim_node``, ``acres-sim``,
``python -m acres_dbw_sim.launcher``), this module catches SIGINT and SIGTERM from
its first line, so that a signal during the slow imports (rclpy, numba, the model)
stops the program in order instead of with a traceback, and registers SIGUSR1 to
print every thread's stack (a node that hangs, say in DDS). Imported as a library it
changes no signal handler, and :mod:`acres_dbw_sim.node` itself never does.

Before ``rclpy.init`` it points Fast DDS at the shipped discovery profile
(``use_fast_discovery_profile``, docs/discovery.md); then it makes one
:class:`acres_dbw_sim.node.SimNode`, or a :class:`acres_dbw_sim.fleet_node.FleetNode`
when the parameter ``vehicles`` names several, and spins them in rclpy's events
executor until a signal.
"""

from __future__ import annotations

import faulthandler
import gc
import os
import signal
import sys

from acres_dbw_sim.stop_signals import stop_flag_for_imports, stop_on_signals
from acres_dbw_sim.usage import node_usage, print_usage, stray_arguments, wants_help

#: The names this module runs under as a program (console scripts, ``python -m``).
PROGRAM_NAMES = ("sim_node", "acres-sim", "launcher.py")
_STOP = stop_flag_for_imports(PROGRAM_NAMES)
if os.path.basename(sys.argv[0]) in PROGRAM_NAMES:
    # kill -USR1 <pid>: every thread's Python stack on stderr (a node that hangs, say in DDS)
    faulthandler.register(signal.SIGUSR1, all_threads=True)

from .model.params import ParameterError, shipped_config  # noqa: E402  (after the stop flag: numba-free, quick)

__all__ = ["main", "use_fast_discovery_profile", "FASTDDS_PROFILE_NAME", "PROGRAM_NAMES"]


def _requested_vehicles() -> object:
    """The value given for ``vehicles`` (command line, ``/**`` or the
    ``/vehicle/dbw_node`` section of a params file), None if not given: read from
    a short-lived node of the single vehicle's name, before choosing the nodes."""
    from rclpy.node import Node
    probe = Node("dbw_node", namespace="vehicle", start_parameter_services=False,
                 enable_rosout=False)
    try:
        prm = getattr(probe, "_parameter_overrides", {}).get("vehicles")
        return None if prm is None else prm.value
    finally:
        probe.destroy_node()


#: The participant profile the node uses by default (config/fastdds_discovery.xml, docs/discovery.md)
FASTDDS_PROFILE_NAME = "fastdds_discovery.xml"


def use_fast_discovery_profile(environ: dict | None = None) -> str | None:
    """Point Fast DDS at the shipped participant profile unless the user chose otherwise.

    The profile announces the node's DDS participant every 0.3 s instead of
    Fast DDS's 3 s, so a subscriber that starts after the node matches it in
    well under a second (``bench/bench_first_odom.py``). Nothing is changed
    when ``FASTDDS_DEFAULT_PROFILES_FILE`` (or the older
    ``FASTRTPS_DEFAULT_PROFILES_FILE``) is already set, when
    ``RMW_IMPLEMENTATION`` names another RMW, when ``ACRES_FASTDDS_PROFILE=0``,
    or when the file is not installed. Must run before ``rclpy.init``.

    Parameters
    ----------
    environ : dict, optional
        The environment to read and change (default ``os.environ``).

    Returns
    -------
    str or None
        The profile file set, or None when nothing was changed.
    """
    env = os.environ if environ is None else environ
    if env.get("ACRES_FASTDDS_PROFILE", "1") == "0":
        return None
    if env.get("FASTDDS_DEFAULT_PROFILES_FILE") or env.get("FASTRTPS_DEFAULT_PROFILES_FILE"):
        return None
    if not env.get("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp").startswith("rmw_fastrtps"):
        return None
    try:
        path = shipped_config(FASTDDS_PROFILE_NAME)
    except ParameterError:
        return None
    if not path.is_file():
        return None
    env["FASTDDS_DEFAULT_PROFILES_FILE"] = str(path)
    return str(path)


def main(argv: list[str] | None = None) -> int:
    """Console entry ``sim_node``: run until SIGINT/SIGTERM (exit 0, bag closed);
    exit 2 on a bad parameter.

    The signals only raise a flag that the spin loop checks between callbacks:
    the context is shut down after the last callback has returned, so no callback
    ever meets a shut-down context. rclpy and the node are imported here, after
    the stop flag is set, so that a Ctrl-C during the slow imports stops cleanly.
    """
    args = argv if argv is not None else sys.argv
    if wants_help(args):   # the usage, and nothing started
        return print_usage(node_usage(args[0] if args else "sim_node"))
    stray = stray_arguments(args)
    if stray:   # node parameters given before --ros-args: ROS would ignore them (a remap warning at most)
        prog = os.path.basename(args[0]) if args else "sim_node"
        print(f"{prog}: error: unexpected argument(s) {' '.join(stray)!r}: node parameters go after --ros-args "
              f"({prog} --ros-args -p NAME:=VALUE); {prog} --help lists them", file=sys.stderr, flush=True)
        return 2
    stop = _STOP   # holds a signal that came during the imports
    with stop_on_signals(stop):
        import rclpy
        from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
        from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
        from rclpy.signals import SignalHandlerOptions
        try:
            from rclpy.experimental import EventsExecutor
        except ImportError:  # rclpy before Jazzy
            EventsExecutor = None
        from .node import SimNode, StartupError

        use_fast_discovery_profile()
        try:
            try:
                rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
            except (_rclpy.RCLError, _rclpy.UnknownROSArgsError) as err:   # a bad --ros-args (a params file
                # that does not open, an unknown ROS argument)
                why = (f"unknown ROS argument(s) {err} (the program's own options, --help, go before --ros-args)"
                       if isinstance(err, _rclpy.UnknownROSArgsError) else str(err).split(", at /")[0])
                print(f"sim_node: error: the ROS arguments: {why}", file=sys.stderr, flush=True)
                return 2
            if stop:
                rclpy.try_shutdown()
                return 0
            try:
                names = _requested_vehicles()
                fleet = bool(names)
                if fleet:
                    from .fleet_node import FleetNode     # several vehicles: the fleet's node
                    node = FleetNode(names)
                else:
                    node = SimNode()
            except StartupError as err:
                print(f"sim_node: error: {err}", file=sys.stderr, flush=True)
                rclpy.try_shutdown()
                return 2
            # The events executor wakes only for what is ready instead of rebuilding a wait
            # set on every iteration: about a third less CPU at 120 Hz (bench/bench_node.py).
            executor = EventsExecutor() if EventsExecutor is not None else SingleThreadedExecutor()
            nodes = node.nodes() if fleet else [node]
            for n in nodes:
                executor.add_node(n)
            # What start-up made (ROS, numba, the model: about 145 000 objects) lives as long as
            # the node: out of the cyclic collector, whose full pass over it stalls the tick for
            # about 60 ms on this machine (docs/performance.md).
            gc.freeze()
            try:
                while not stop and rclpy.ok():
                    executor.spin_once(timeout_sec=0.1)
            except (KeyboardInterrupt, ExternalShutdownException):
                pass
            finally:
                if getattr(node, "_recorder", None) is not None:
                    node._recorder.close()
                    node.get_logger().info(f"bag closed: {node._p['record_bag']} "
                                           f"({node._recorder.message_count} messages)")
                executor.shutdown()
                if fleet:
                    node.destroy_vehicles()
                node.destroy_node()
                rclpy.try_shutdown()
        except KeyboardInterrupt:   # a signal during start-up or a second one: still a clean stop
            rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
