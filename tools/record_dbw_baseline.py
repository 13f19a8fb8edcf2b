#!/usr/bin/env python3
"""Record the DBW's per-step outputs over fuzzed command streams, as test data for ``test/test_dbw_baseline.py``.

Usage::

    . .venv/setup.sh
    python tools/record_dbw_baseline.py                        # this tree -> test/data/dbw_baseline.json.gz
    python tools/record_dbw_baseline.py --at COMMIT [--out F]  # the DBW of another commit (a git worktree)

The command streams are those of the property test (``test/helpers/strategies.py``'s ``EVENT``),
drawn by Hypothesis with a fixed seed (``derandomize``), and stored in the file themselves, so the
test replays them without Hypothesis and whatever its version draws. Each stream runs twice, the
driver-managed and the firmware-managed sync mode (``dbw.system_sync_mode`` 0 and 2), against the
property test's ``FakeVehicle``, exactly as the property test runs it.

Recorded per stream: every step's :class:`~acres_dbw_sim.dbw.state.DbwOutputs` (``pedal``,
``brake_line_bar``, ``steering_wheel_deg``, ``gear_request``, ``drive_mode``, ``gear_manual_request``);
after each event, every report's scalar fields (as :meth:`DbwSystem.reports` fills them) and the
log lines the DBW queued (level, text). A rewrite of the DBW (a compiled step) is checked against
this file: the recording of the DBW before it is the reference.

Takes about a minute. Exit 0, or 2 for a bad argument.
"""
from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "test" / "data" / "dbw_baseline.json.gz"
#: Streams drawn: as the property test draws them (1 to 40 events), and long ones (20 to 40 events).
SHORT_STREAMS, LONG_STREAMS = 150, 30
#: The DBW's two engagement schemes: driver-managed (§4.1) and firmware-managed (§4.2).
SYNC_MODES = (0, 2)


def draw_streams(short: int, long: int) -> list:
    """Event lists of the property test's ``EVENT`` strategy, drawn with a fixed seed: ``short`` as the
    property test draws them (1 to 40 events), then ``long`` of 20 to 40 events (a derandomized draw
    favours short lists; long ones reach the timeouts, the ULC and the brake hold)."""
    sys.path.insert(0, str(ROOT / "test"))
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
    from helpers.strategies import EVENT

    drawn: list = []
    for count, min_size in ((short, 1), (long, 20)):
        @settings(max_examples=count, derandomize=True, database=None, phases=[Phase.generate], deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(EVENT, min_size=min_size, max_size=40))
        def collect(events):
            drawn.append([(kind, encode(a), encode(b)) for kind, a, b in events])

        start = len(drawn)
        collect()
        del drawn[start + count:]
    return drawn


def scripted_streams() -> list:
    """Streams written out, for the timers a random draw seldom lands on: the turn-signal and
    drive-mode command timeouts (250 ms) stepped across, a ULC speed command followed while the
    vehicle's speed is moved, and a brake and throttle stream that the ULC yields to."""
    from acres_dbw_sim.dbw import commands as C
    tick = ("gap", 1.0 / 120.0, 0)
    ulc = C.UlcCmd(cmd=4.0, limit_accel=1.0, limit_decel=2.0, cmd_type=1, enable=True)
    brake = C.BrakeCmd(cmd=30.0, cmd_type=1, enable=True)
    throttle = C.ThrottleCmd(cmd=20.0, cmd_type=13, enable=True)
    out = [
        [("cmd", C.TurnSignalCmd(cmd=1), 0)] + [tick] * 40 + [("cmd", C.TurnSignalCmd(cmd=3), 1)] + [tick] * 40,
        [("cmd", C.DriveModeCmd(awd_mode_cmd=2, rear_diff_cmd=1), 0)] + [tick] * 40,
        [("stream", ulc, 60), ("speed", 1.0, 0), ("stream", ulc, 60), ("speed", 3.0, 0), ("stream", ulc, 120),
         ("stream", brake, 30), ("stream", ulc, 30), ("stream", throttle, 30), ("gap", 0.3, 0),
         ("stream", ulc, 60)],
    ]
    return [[(kind, encode(a), encode(b)) for kind, a, b in events] for events in out]


def encode(value):
    """A JSON-able form of an event argument: a command or driver input as ``{"type", "fields"}``."""
    if dataclasses.is_dataclass(value):
        return {"type": type(value).__name__,
                "fields": {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}}
    return value


def main(argv: list | None = None) -> int:
    """Record the baseline (this tree, or ``--at COMMIT`` through a temporary worktree); 0, or 2."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--at", help="record the DBW of this commit (a temporary git worktree)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    streams = draw_streams(SHORT_STREAMS, LONG_STREAMS) + scripted_streams()
    spec = json.dumps({"streams": streams, "sync_modes": SYNC_MODES}, allow_nan=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = ROOT
        if args.at:
            src = Path(tmp) / "tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(src), args.at], check=True)
        try:
            (Path(tmp) / "streams.json").write_text(spec)
            res = subprocess.run([sys.executable, str(ROOT / "test" / "helpers" / "dbw_replay.py"),
                                  str(Path(tmp) / "streams.json"), str(src)],
                                 cwd=src, env=_env(src), capture_output=True, text=True)
        finally:
            if args.at:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(src)], check=False)
        if res.returncode != 0:
            sys.stderr.write(res.stderr)
            return 1
    recorded = json.loads(res.stdout)
    keys = recorded["runs"][0]["report_keys"]
    for run in recorded["runs"]:   # the same report fields in every run: stored once
        if run.pop("report_keys") != keys:
            sys.stderr.write("record_dbw_baseline: the report fields differ between runs\n")
            return 1
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.at or "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    data = {"commit": commit, "streams": streams, "sync_modes": list(SYNC_MODES), "report_keys": keys,
            **_rounded(recorded)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8") as fh:
        json.dump(data, fh, allow_nan=True, separators=(",", ":"))
    n_steps = sum(len(r["outputs"]) for r in recorded["runs"])
    print(f"{args.out}: {len(streams)} streams x {len(SYNC_MODES)} sync modes, {n_steps} steps; "
          f"{len(recorded['scenarios'])} DBW-level scenarios; the DBW of {commit[:12]}")
    return 0


def _rounded(obj):
    """``obj`` with every float rounded to 12 significant digits (the test compares to 1e-9 of a column's
    scale; the file is a third smaller)."""
    if isinstance(obj, float):
        return float(f"{obj:.12g}") if math.isfinite(obj) else obj
    if isinstance(obj, list):
        return [_rounded(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    return obj


def _env(src: Path) -> dict:
    """The environment with ``src``'s package first on the module path, and this tree's test helpers (the
    replay and its stand-in vehicle are the harness, not the DBW under record)."""
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(ROOT / "test")] + ([env["PYTHONPATH"]]
                                                                          if env.get("PYTHONPATH") else []))
    return env


if __name__ == "__main__":
    sys.exit(main())
