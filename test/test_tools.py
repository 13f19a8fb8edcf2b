"""The command-line tools: one naming scheme, help that matches the code, outputs git ignores."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_prefix

from acres_dbw_sim.calibrate import cli as calibrate_cli
from acres_dbw_sim.replay import cli as replay_cli
from acres_dbw_sim.scenario import cli as scenario_cli
from acres_dbw_sim.sweep import cli as sweep_cli

ROOT = Path(__file__).resolve().parents[1]
ROS_NAMES = {"sim_node", "demo_driver"}   # the names `ros2 run` and the launch file use


def _console_scripts() -> dict[str, str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call)
                and getattr(n.func, "id", "") == "setup")
    eps = next(k.value for k in call.keywords if k.arg == "entry_points")
    scripts = eps.values[[k.value for k in eps.keys].index("console_scripts")]
    out = {}
    for elt in scripts.elts:   # f"name = {PACKAGE}.module:main"
        text = "".join(v.value if isinstance(v, ast.Constant) else "acres_dbw_sim" for v in elt.values)
        name, target = (s.strip() for s in text.split("="))
        out[name] = target
    return out


def test_every_tool_is_acres_prefixed_and_the_ros_names_are_aliases():
    scripts = _console_scripts()
    tools = set(scripts) - ROS_NAMES
    assert {"acres-sim", "acres-demo", "acres-scenario", "acres-replay"} <= tools
    assert all(name.startswith("acres-") for name in tools), sorted(tools)
    assert scripts["sim_node"] == scripts["acres-sim"] == "acres_dbw_sim.launcher:main"
    assert scripts["demo_driver"] == scripts["acres-demo"]


@pytest.mark.parametrize("name", sorted(_console_scripts()))
def test_tool_is_on_the_path_and_where_ros2_run_looks(name):
    assert (Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / name).exists()
    if os.environ.get("_ROS_WHEELS_BOOTSTRAP_COMPLETE") == "1":   # the venv (not a colcon install)
        assert shutil.which(name), f"{name} is not on PATH (source .venv/setup.sh)"


def test_scenario_help_names_the_output_folder_as_the_code_does(tmp_path):
    help_text = " ".join(subprocess.run([sys.executable, "-m", "acres_dbw_sim.scenario", "--help"],
                                        capture_output=True, text=True, check=True).stdout.split())
    assert f"default {scenario_cli.DEFAULT_OUT}/<file stem>" in help_text
    # the code: a scenario whose name differs from its file stem lands under the stem
    scen = tmp_path / "my_file.yaml"
    scen.write_text("name: another_name\nduration_s: 0.1\ninitial: {gear: P}\n")
    subprocess.run([sys.executable, "-m", "acres_dbw_sim.scenario", str(scen), "--quiet"],
                   cwd=tmp_path, check=True, capture_output=True, timeout=120)
    assert (tmp_path / scenario_cli.DEFAULT_OUT / "my_file" / "summary.json").exists()
    assert not (tmp_path / scenario_cli.DEFAULT_OUT / "another_name").exists()


def test_default_output_folders_are_ignored_by_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for d in (scenario_cli.DEFAULT_OUT, replay_cli.DEFAULT_OUT, sweep_cli.DEFAULT_OUT, calibrate_cli.DEFAULT_OUT):
        r = subprocess.run(["git", "check-ignore", "-q", f"{d}/x/summary.json"], cwd=ROOT)
        assert r.returncode == 0, f"{d}/ is not in .gitignore"


@pytest.mark.parametrize("cmd", ["acres-scenario --columns", "acres-sweep --check sweeps/braking_uncertainty.yaml",
                                 "acres-scenario --help", "acres-replay --help", "acres-calibrate --help",
                                 "acres-sweep --help"])
def test_a_reader_that_closes_the_pipe_gets_no_traceback(cmd):
    """`TOOL ... | head -1`: the tool ends quietly (exit 0) when its reader stops reading (here a reader
    that has gone before the tool writes: `| true`)."""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(f"set -o pipefail; {cmd} | true", shell=True, executable="/bin/bash", cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
