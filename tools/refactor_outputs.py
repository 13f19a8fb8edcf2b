#!/usr/bin/env python3
"""Write every output a refactor must leave unchanged, for this checkout or for another commit.

Usage::

    . .venv/setup.sh
    python tools/refactor_outputs.py /tmp/before --at HEAD      # the commit before the change
    python tools/refactor_outputs.py /tmp/after                 # the working tree
    python tools/compare_runs.py /tmp/before /tmp/after          # exit 0: no output changed

``OUT_DIR/scenarios/``: every shipped scenario (``scenarios/*.yaml`` and
``scenarios/examples/*.yaml``) run as one ``acres-scenario`` batch (``timeseries.csv`` and
``summary.json`` per scenario). ``OUT_DIR/golden/``: the golden report stream
(``tools/golden_stream.py``: every message the node publishes in a scripted lockstep run of each
vehicle).

``--at REF`` checks ``REF`` out into a temporary git worktree and runs the same recipe on that
code: the worktree comes first on ``PYTHONPATH`` and is the working directory, so its package,
parameter files and scenarios are the ones run, through this script's tools (so a commit older
than the tools can be a baseline). Its numba kernels compile once into the worktree (about 30 s).
The worktree is removed afterwards.

Exit 0, or the failing step's status.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parent
#: The shipped scenarios: every YAML file in these folders of the checkout.
SCENARIO_DIRS = ("scenarios", "scenarios/examples")


def record(code: Path, out: Path) -> int:
    """Run the shipped scenarios and the golden stream of the code at ``code`` into ``out``."""
    out = out.resolve()
    if out.exists():
        shutil.rmtree(out)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(code)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    batches = [arg for d in SCENARIO_DIRS if (code / d).is_dir() for arg in ("--batch", d)]
    steps = [
        [sys.executable, "-m", "acres_dbw_sim.scenario", *batches, "--out", str(out / "scenarios"), "-q",
         "--no-progress"],
        [sys.executable, str(TOOLS / "golden_stream.py"), str(out / "golden")],
    ]
    for argv in steps:
        print("+", " ".join(argv), flush=True)
        done = subprocess.run(argv, cwd=code, env=env, stderr=subprocess.DEVNULL if "golden" in argv[1] else None)
        # a scenario whose expectation fails still wrote its outputs (exit 1): they are compared too
        if done.returncode not in (0, 1) or (done.returncode and "golden" in argv[1]):
            print(f"error: {argv[1:3]} exited {done.returncode}", file=sys.stderr)
            return done.returncode
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring)."""
    ap = argparse.ArgumentParser(description="Write the shipped scenarios' outputs and the golden report stream "
                                             "(compare two such trees with tools/compare_runs.py).")
    ap.add_argument("out", type=Path, help="output directory (replaced)")
    ap.add_argument("--at", metavar="REF", help="run the code of this commit (a temporary git worktree)")
    args = ap.parse_args(argv)
    if args.at is None:
        return record(REPO, args.out)
    tmp = Path(tempfile.mkdtemp(prefix="acres_at_"))
    tree = tmp / "tree"
    try:
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(tree), args.at],
                       check=True)
        return record(tree, args.out)
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
