"""Command line: ``acres-replay`` (also ``python -m acres_dbw_sim.replay``).

::

    acres-replay BAG [--out DIR] [--speed X | --as-fast-as-possible] [--topic-map BAG_TOPIC=OURS ...]
                 [--namespace NS] [--param NAME=VALUE ...] [--no-plots] [--no-bag] [--output-every N]
    acres-replay BAG --live [--speed X] [--clock [HZ]] [--topic-map ...] [--namespace NS]
    acres-replay BAG --info

Exit status (one rule for the offline replay, ``--info`` and ``--live``):
0 replayed, the whole recording; 1 replayed what could be read, but a serious
problem is listed (damaged bag, messages lost, a topic the replay reads
unusable, engagement unknown); 2 nothing replayed (invalid arguments or
output directory, not a bag, no command message; live: no node subscribed to the
commands); 130 interrupted. A closed
standard output (``| head``) ends the printing quietly.
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path

from ..model.overrides import check_once
from ..model.params import ParameterError
from ..usage import pipe_safe
from ..stop_signals import sigterm_interrupts
from .reader import BagReadError, exit_status
from .topics import NODE_DEFAULTS, TopicMap, TopicMapError

__all__ = ["main"]

DEFAULT_OUT = Path("replay_out")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="acres-replay",
        description="Replay the DBW commands of a rosbag2 (MCAP or sqlite3) into the Polaris Ranger simulator: "
                    "offline (no ROS needed; writes the simulated topics as a new bag, timeseries.csv, "
                    "summary.json, plots and a comparison with the recorded reports) or live into a running "
                    "node over DDS (--live). Details: docs/bags.md.",
        epilog="exit status: 0 replayed, the whole recording; 1 replayed what could be read, but a serious bag "
               "problem is listed (damage, lost messages, an unusable topic, engagement unknown); 2 nothing "
               "replayed (invalid arguments or --out, not a bag, no command message); 130 interrupted")
    p.add_argument("bag", help="rosbag2 directory, or a .mcap / .db3 file")
    p.add_argument("--out", metavar="DIR", help=f"output directory (default {DEFAULT_OUT}/<bag name>)")
    pace = p.add_mutually_exclusive_group()
    pace.add_argument("--speed", type=float, metavar="X",
                      help="pace at X times real time (live: default 1; offline: default as fast as possible)")
    pace.add_argument("--as-fast-as-possible", action="store_true", help="offline: do not pace (the default)")
    p.add_argument("--topic-map", metavar="BAG_TOPIC=OURS", action="append", default=[],
                   help="read our topic OURS (e.g. steering/cmd, vehicle_velocity) from BAG_TOPIC; repeatable")
    p.add_argument("--namespace", default="/vehicle", help="DBW namespace of the bag's topics and of the "
                   "outputs (default /vehicle)")
    p.add_argument("--param", metavar="NAME=VALUE", action="append", default=[],
                   help="a node parameter for the simulation (step_hz, vehicle, vehicle_config, overrides, occupants, "
                        "cargo_kg, initial_*, drive_mode, surface, grade_pct, bank_pct, report_rates, ...); "
                        "default: the values recorded in the bag, else the node's defaults, except "
                        "report_rates=vehicle (output bag reports at the CAN periods; mission: every step); "
                        "repeatable")
    p.add_argument("--no-plots", action="store_true", help="no plots.png / overlay.png")
    p.add_argument("--no-bag", action="store_true", help="do not write the simulated topics as a bag")
    p.add_argument("--storage", choices=("mcap", "sqlite3"), default="mcap", help="storage of the output bag")
    p.add_argument("--output-every", type=int, default=1, metavar="N", help="a CSV row every N physics steps")
    p.add_argument("--max-backjump", type=float, default=1.0, metavar="S",
                   help="a log time going back by more than S seconds is a clock reset (default 1)")
    p.add_argument("--live", action="store_true", help="publish the bag's command topics over DDS at their "
                   "recorded timing (needs ROS 2 / rclpy)")
    p.add_argument("--clock", nargs="?", type=float, const=100.0, default=None, metavar="HZ",
                   help="live: also publish /clock with the bag's time at HZ (default 100) for nodes with "
                        "use_sim_time that have no other clock source")
    p.add_argument("--info", action="store_true", help="print the bag's topics and the problems the replay would "
                   "report (same exit status); replay nothing")
    p.add_argument("--quiet", "-q", action="store_true", help="print only problems and errors")
    return p


def parse_node_params(items: list) -> dict:
    """``{name: text}`` of ``--param NAME=VALUE`` items (acres-replay, acres-calibrate); the values are checked
    by the replay, as the node checks its parameters.

    Raises
    ------
    TopicMapError
        For an item without ``=``, an unknown name, or ``overrides`` that give a key twice (``check_once``).
    """
    out = {}
    for item in items:
        if "=" not in item:
            raise TopicMapError(f"--param {item!r}: expected NAME=VALUE")
        k, v = item.split("=", 1)
        k = k.strip()
        if k not in NODE_DEFAULTS:
            close = difflib.get_close_matches(k, list(NODE_DEFAULTS), 1, 0.75)
            raise TopicMapError(f"--param {k}: unknown" + (f" (did you mean {close[0]!r}?)" if close else "")
                                + f"; known: {', '.join(sorted(NODE_DEFAULTS))}")
        if k == "overrides":
            try:
                check_once(v.strip())
            except ParameterError as exc:
                raise TopicMapError(f"--param overrides: {exc}") from None
        out[k] = v.strip()
    return out


#: Topics with lost messages printed one per line up to this many; more become one summary line.
LOST_LINES = 5


def _print_problems(problems: list, stream, where: str | None = None) -> None:
    """Print the problems; with ``where`` (a file that lists them all), more than :data:`LOST_LINES`
    topics with lost messages are summed up in one line (the largest first)."""
    lost = [pr for pr in problems if pr.kind == "lost" and pr.topic is not None]
    many = where is not None and len(lost) > LOST_LINES
    for pr in problems:
        if many and pr in lost:
            continue
        print(f"  bag problem{' (serious)' if pr.serious else ''}: {pr}", file=stream)
    if many:
        top = sorted(lost, key=lambda p: -p.count)
        print(f"  bag problem (serious): {sum(p.count for p in lost)} messages lost on {len(lost)} topics ("
              + ", ".join(f"{p.topic} {p.count}" for p in top[:3]) + f", ...); per topic in {where}",
              file=stream)


def _info(bag: str, tm: TopicMap, params: dict, max_backjump_s: float, state: dict) -> int:
    """Print the bag's topics and the problems the replay would report; the exit status it would have."""
    from msg_adapters import bag as B

    from .offline import load_replay
    from .params import ReplayError, check_parameters
    from .reader import scan_bag
    try:
        inp = load_replay(bag, tm, params, max_backjump_s)
        scan, problems, error = inp.scan, inp.problems, None
    except ReplayError as err:
        scan, problems, error = scan_bag(bag, lambda t: False), err.problems, err
    if error is None:
        try:
            check_parameters(inp.params)   # the same status as the replay for a bad --param
        except ReplayError as err:
            error = err
    state["status"] = 2 if error is not None else exit_status(problems)
    store = B.typestore()
    dur = (scan.end_ns - scan.start_ns) * 1e-9 if scan.message_count else 0.0
    print(f"{scan.path}: {scan.storage}, {scan.message_count} messages, {dur:.3f} s")
    counts = scan.topic_counts()
    for ch in sorted(scan.topics().values(), key=lambda c: c.topic):
        ours = tm.ours(ch.topic)
        known = "" if ch.msgtype in store.fielddefs else "  (type unknown here" + (
            ", defined in the bag)" if ch.msgdef else ")")
        print(f"  {ch.topic:40s} {ch.msgtype or '?':42s} {counts[ch.topic]:8d}" + (f"  -> {ours}" if ours else "")
              + known)
    for k, v in scan.custom.items():
        print(f"  custom_data {k} = {v if len(v) <= 120 else v[:117] + '...'}")
    _print_problems(problems, sys.stdout)
    if error is not None:
        print(f"acres-replay: error: {error}", file=sys.stderr)
    sys.stdout.flush()   # a closed pipe shows here, not at exit
    return state["status"]


def _quiet_stdout() -> None:
    """stdout was closed by the reader (``acres-replay ... | head``): send the rest nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@sigterm_interrupts
@pipe_safe
def main(argv: list | None = None) -> int:
    """Entry point of ``acres-replay``; returns the exit status.

    Exit status: 0 replayed, the whole recording; 1 replayed, but with a
    serious problem (listed; the bag is damaged or messages were lost, a topic
    the replay reads cannot be used, or the engagement cannot be determined);
    2 nothing replayed (invalid arguments or output directory, not a bag, no
    command message); 130 interrupted. ``--info`` and ``--live`` follow the
    same rule. A closed standard output (a pipe into ``head``) stops the
    printing quietly and changes nothing else.
    """
    state = {"status": 0}   # the status of the work done, kept if the printing meets a closed pipe
    try:
        return _main(argv, state)
    except BrokenPipeError:
        _quiet_stdout()
        return state["status"]


def _main(argv: list | None, state: dict) -> int:
    args = _parser().parse_args(argv)
    try:
        tm = TopicMap(args.namespace, args.topic_map)
        params = parse_node_params(args.param)
        if args.info:
            return _info(args.bag, tm, params, args.max_backjump, state)
        if args.live:
            if args.as_fast_as_possible:
                raise TopicMapError("--live replays at recorded timing: use --speed X, not --as-fast-as-possible")
            from .live import play
            return play(args.bag, tm, speed=args.speed or 1.0, clock_hz=args.clock, quiet=args.quiet)
        if args.speed is not None and not args.speed > 0:
            raise TopicMapError(f"--speed {args.speed}: must be > 0")
        from .offline import replay_bag
        from .params import ReplayError
        out = Path(args.out) if args.out else DEFAULT_OUT / Path(args.bag).stem
        try:
            res = replay_bag(args.bag, out, tm, params, plots=not args.no_plots,
                             write_bag=not args.no_bag, output_every=args.output_every, speed=args.speed,
                             storage=args.storage, max_backjump_s=args.max_backjump)
        except ReplayError as err:
            _print_problems(err.problems, sys.stderr)
            print(f"acres-replay: error: {err}", file=sys.stderr)
            return 2
        inp = res.input
        state["status"] = exit_status(inp.problems)
        _print_problems(inp.problems, sys.stderr, str(out / "replay.json"))
        if not args.quiet:
            n_cmd = sum(inp.command_counts.values())
            print(f"{inp.bag.name}: {res.run.simulated_s:.3f} s replayed in {res.wall_s:.3g} s "
                  f"({res.real_time_factor:.0f}x real time); {n_cmd} commands from "
                  f"{len(inp.command_counts)} topics; {res.bag_messages} messages written")
            for name, e in res.comparison.items():
                print(f"  {name:26s} RMS {e['rms']:.4g}  max {e['max_abs']:.4g}  bias {e['mean']:+.3g}  "
                      f"lag {e['lag_s']:+.3f} s  ({e['samples']} samples)")
            print("wrote " + ", ".join(str(f) for f in res.files))
        sys.stdout.flush()   # a closed pipe shows here, not at exit
        return state["status"]
    except (BagReadError, TopicMapError) as err:
        print(f"acres-replay: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
