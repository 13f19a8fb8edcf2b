"""The launch files and parameter files checked without launch_ros (not on PyPI): every node parameter a
launch file passes or forwards exists in the node's table, their defaults are valid values, and the shipped
parameter files validate. The live launch tests (test_launch.py) need launch_ros and are skipped without it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from acres_dbw_sim.interface import PARAMETERS
from acres_dbw_sim.interface import parameter_problem
from acres_dbw_sim.node import PROCESS_PARAMETERS, RCLPY_PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
LAUNCH_FILES = sorted((ROOT / "launch").glob("*.launch.py"))
KNOWN = set(PARAMETERS) | RCLPY_PARAMETERS


def _node_parameters(tree: ast.Module) -> dict:
    """``{name: value or None}`` of the node parameters a launch file sets: the keys of the dicts given to
    ``Node(parameters=[...])`` (their literal values, None when computed) and the names it forwards from
    launch arguments (a module-level ``NODE_ARGUMENTS`` tuple)."""
    out: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "NODE_ARGUMENTS" for t in node.targets):
            out.update({c.value: None for c in node.value.elts})
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Node":
            for kw in node.keywords:
                if kw.arg != "parameters":
                    continue
                for item in ast.walk(kw.value):
                    if isinstance(item, ast.Dict):
                        for k, v in zip(item.keys, item.values):
                            if isinstance(k, ast.Constant):
                                out[k.value] = v.value if isinstance(v, ast.Constant) else None
    return out


def _argument_defaults(tree: ast.Module) -> dict:
    """``{argument: default text}`` of the file's ``DeclareLaunchArgument`` calls with a literal default."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DeclareLaunchArgument" \
                and node.args and isinstance(node.args[0], ast.Constant):
            for kw in node.keywords:
                if kw.arg == "default_value" and isinstance(kw.value, ast.Constant):
                    out[node.args[0].value] = kw.value.value
    return out


@pytest.mark.parametrize("path", LAUNCH_FILES, ids=lambda p: p.name)
def test_every_parameter_a_launch_file_sets_is_the_nodes(path):
    names = _node_parameters(ast.parse(path.read_text()))
    assert names, f"{path.name}: no node parameters found (the scan no longer reads the file)"
    unknown = sorted(set(names) - KNOWN)
    assert unknown == [], f"{path.name} sets parameters the node does not have: {unknown}"
    for name, value in names.items():
        if value is not None and name in PARAMETERS:
            assert parameter_problem(name, value) == "", f"{path.name}: {name}={value!r}: {parameter_problem(name, value)}"


@pytest.mark.parametrize("path", LAUNCH_FILES, ids=lambda p: p.name)
def test_the_default_of_every_argument_passed_to_the_node_is_valid(path):
    tree = ast.parse(path.read_text())
    passed = _node_parameters(tree)
    for arg, text in _argument_defaults(tree).items():
        if arg in passed and arg in PARAMETERS and text != "":   # "": not passed, the file's value stands
            value = yaml.safe_load(text)
            default = PARAMETERS[arg][0]
            if isinstance(default, str):
                value = text
            elif isinstance(default, float) and isinstance(value, int):
                value = float(value)
            assert parameter_problem(arg, value) == "", f"{path.name}: {arg}:={text}: {parameter_problem(arg, value)}"


@pytest.mark.parametrize("name", ["sim.yaml", "fleet.yaml", "autoware_sim.yaml"])
def test_the_shipped_parameter_files_validate(name):
    doc = yaml.safe_load((ROOT / "config" / name).read_text())
    for section, body in doc.items():
        params = body["ros__parameters"]
        for key, value in params.items():
            assert key in KNOWN | PROCESS_PARAMETERS, f"{name} {section}: unknown parameter {key!r}"
            if key in PARAMETERS:
                default = PARAMETERS[key][0]
                if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                if key == "initial_gear" and value is False:     # YAML's N (see sim.yaml)
                    value = "N"
                assert parameter_problem(key, value) == "", f"{name} {section}: {key}={value!r}: {parameter_problem(key, value)}"


def test_the_scan_finds_a_parameter_the_node_lacks(tmp_path):
    """The scan is not blind: a launch file passing an unknown parameter is caught."""
    bad = "from launch_ros.actions import Node\nn = Node(parameters=[{'time_mode': 'sim', 'warp_drive': 9}])\n"
    names = _node_parameters(ast.parse(bad))
    assert set(names) - KNOWN == {"warp_drive"} and names["time_mode"] == "sim"
