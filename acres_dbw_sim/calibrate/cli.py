"""Command line: ``acres-calibrate`` (also ``python -m acres_dbw_sim.calibrate``).

::

    acres-calibrate BAG [--params KEYS] [--out DIR] [--param NAME=VALUE ...] [--namespace NS]
                    [--topic-map BAG_TOPIC=OURS ...] [--no-plots] [--quiet]
    acres-calibrate --make-field-bag DIR [--cycles N] [--surface S] [--grade PCT] [--truth 'key=value;...']
                    [--steering-only]

Exit status: 0 done (also when some parameters are not identifiable: the
report says which), 2 invalid arguments or nothing replayable, 3 the fitted
values do not improve the whole-bag error by more than 2 % (nothing written
but the report: ``calibration.json``, ``report.md``, the figures; no
``overrides.txt``), 130 interrupted.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..usage import pipe_safe
from ..replay.cli import parse_node_params
from ..replay.reader import BagReadError
from ..replay.topics import TopicMap, TopicMapError
from ..stop_signals import sigterm_interrupts
from .keys import GROUPS, CalibrationError

__all__ = ["main"]

DEFAULT_OUT = Path("calibration_out")
#: Exit status when the fit does not improve the whole bag (nothing but the report written).
NOT_IMPROVED = 3


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="acres-calibrate",
        description="Fit the vehicle's parameters to a recorded bag: segments that excite each group "
                    f"({', '.join(GROUPS)}) are replayed open loop through the simulator and fitted by least "
                    "squares on the recorded reports. Writes overrides.txt (key=value;... for the node, the "
                    "scenario runner and the replay), calibration.json and report.md. Details: "
                    "docs/calibration.md.",
        epilog="exit status: 0 done (not identifiable parameters are reported), 2 invalid arguments or nothing "
               "replayable, 3 the fit does not improve the whole-bag error by more than 2 % (no overrides.txt "
               "written; report.md says which figures got worse), 130 interrupted")
    p.add_argument("bag", nargs="?", help="rosbag2 directory, or a .mcap / .db3 file")
    p.add_argument("--params", metavar="KEYS", help="comma-separated variables or groups to fit (default all): "
                   "steering.center_deg, steering.ratio, tyres.cornering_per_load, mass.dry_kg, "
                   "dbw.throttle.lag_s, dbw.throttle.dead_time_s, rolling_resistance, aero.drag_area_m2, "
                   "brakes.gain_scale, dbw.brake.lag_s, dbw.brake.dead_time_s, or " + ", ".join(GROUPS))
    p.add_argument("--out", metavar="DIR", help=f"output directory (default {DEFAULT_OUT}/<bag name>)")
    p.add_argument("--param", metavar="NAME=VALUE", action="append", default=[],
                   help="a node parameter of the replay, as acres-replay --param (surface, occupants, cargo_kg, "
                        "vehicle_config, overrides: the start values, ...); repeatable")
    p.add_argument("--namespace", default="/vehicle", help="DBW namespace of the bag's topics (default /vehicle)")
    p.add_argument("--topic-map", metavar="BAG_TOPIC=OURS", action="append", default=[],
                   help="read our topic OURS from BAG_TOPIC; repeatable")
    p.add_argument("--no-plots", action="store_true", help="no group_*.png")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors")
    p.add_argument("--make-field-bag", metavar="DIR", help="write a generated field drive as a bag and exit")
    p.add_argument("--cycles", type=int, default=2, help="field bag: 17 s cycles (default 2)")
    p.add_argument("--surface", default="gravel", help="field bag: surface (default gravel)")
    p.add_argument("--truth", default="", metavar="KEY=VALUE;...", help="field bag: parameters of the "
                   "vehicle that drives it (default: none, the shipped vehicle; docs/calibration.md shows "
                   "a perturbed one)")
    p.add_argument("--steering-only", action="store_true", help="field bag: steering sweeps only")
    p.add_argument("--grade", type=float, default=0.0, metavar="PCT", help="field bag: grade of the ground in "
                   "percent, uphill ahead (default 0; calibrate it with --param grade_pct=PCT)")
    return p


@sigterm_interrupts
@pipe_safe
def main(argv: list | None = None) -> int:
    """Entry point of ``acres-calibrate``; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.make_field_bag:
            from msg_adapters.bag import BagError

            from ..scenario import ScenarioError
            from .field import make_field_bag
            if args.cycles < 1:
                raise CalibrationError(f"--cycles {args.cycles}: must be >= 1")
            try:
                info = make_field_bag(args.make_field_bag, args.cycles, args.surface, args.truth,
                                      args.steering_only, args.grade)
            except (ScenarioError, FileExistsError, BagError) as err:
                raise CalibrationError(str(err)) from None
            if not args.quiet:
                print(f"wrote {args.make_field_bag}: {info['steps']} steps, {info['commands']} commands, "
                      f"{info['messages']} messages")
                ground = f"--param surface={args.surface}" + (f" --param grade_pct={args.grade:g}" if args.grade
                                                               else "")
                print(f"replay or calibrate it with {ground}: a bag, as from a vehicle, does not record the ground")
            return 0
        if not args.bag:
            raise CalibrationError("a BAG is needed (or --make-field-bag DIR)")
        from ..replay import ReplayError
        from .core import IMPROVEMENT_TOL, calibrate
        tm = TopicMap(args.namespace, args.topic_map)
        out = Path(args.out) if args.out else DEFAULT_OUT / Path(args.bag).stem
        log = None if args.quiet else (lambda s: print(s, flush=True))
        try:
            res = calibrate(args.bag, args.params, out, parse_node_params(args.param), tm, plots=not args.no_plots, log=log)
        except ReplayError as err:
            raise CalibrationError(str(err)) from None
        if not args.quiet:
            for g in res.groups:
                for vr in g.variables:
                    se = f" ± {vr.se:.3g}" if vr.se is not None else ""
                    print(f"  {vr.var.name:40s} {vr.var.start:12.6g} -> {vr.value:12.6g}{se}"
                          + (f"  [{vr.note}]" if vr.note else ""))
            for name in sorted(res.whole_before):
                print(f"  whole bag {name:16s} RMS {res.whole_before[name]:.4g} -> "
                      f"{res.whole_after.get(name, float('nan')):.4g}")
            print(f"  whole-bag error {res.error_before:.4g} -> {res.error_after:.4g}")
            if res.accepted or not res.candidate_overrides:
                print(f"overrides: {res.overrides or '(none)'}")
            print(f"{res.wall_s:.1f} s; wrote " + ", ".join(str(f) for f in res.files))
        if res.candidate_overrides and not res.accepted:
            worse = "; ".join(f"{c} RMS {res.whole_before[c]:.4g} -> {res.whole_after[c]:.4g}" for c in res.worse)
            print(f"acres-calibrate: the fitted values do not improve the whole-bag error by more than "
                  f"{IMPROVEMENT_TOL:.0%} ({res.error_before:.4g} -> {res.error_after:.4g})"
                  + (f"; worse: {worse}" if worse else "") + "; overrides not written (see report.md)",
                  file=sys.stderr)
            return NOT_IMPROVED
        return 0
    except (BagReadError, TopicMapError, CalibrationError) as err:
        print(f"acres-calibrate: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
