"""The suite's own rules, checked on its source (tests/helpers/__init__.py says where things live).

- No test module imports another test module (or ``conftest``): what tests share is in ``helpers/``.
- Only ``helpers/dds.py`` asks the ROS graph or waits for discovery: a test module that counts
  matched endpoints, reads endpoint info, waits for a service, or polls ``lambda: False`` as a
  settle composes its own discovery wait, which is where flaky runs come from.
- No test module spins an executor in a thread of its own (``Thread(target=executor.spin)``):
  ``helpers.dds.BackgroundSpin`` joins its thread before the node is destroyed, which rclpy's
  ``Executor.shutdown`` does not.
- A DDS test module does not sleep, except on a line that says why (``# timing: ...``), for a
  deliberate delay that is not a discovery wait (jitter in a race test).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

TEST_DIR = Path(__file__).resolve().parent
MODULES = sorted(TEST_DIR.glob("test_*.py"))
#: Methods of rclpy nodes, publishers, subscriptions and clients that ask the graph.
GRAPH_CALLS = frozenset({
    "count_publishers", "count_subscribers", "get_publishers_info_by_topic", "get_subscriptions_info_by_topic",
    "get_node_names", "get_node_names_and_namespaces", "get_topic_names_and_types", "wait_for_service",
    "get_subscription_count", "get_publisher_count", "service_is_ready", "wait_for_node",
})


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _uses_dds(tree: ast.Module) -> bool:
    """The module imports rclpy (at any level) or asks for ``ros_process``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "rclpy" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "rclpy":
            return True
        if isinstance(node, ast.arg) and node.arg == "ros_process":
            return True
    return False


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_test_module_imports_another(path):
    bad = []
    for node in ast.walk(_tree(path)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        bad += [f"line {node.lineno}: {n}" for n in names if n.split(".")[0].startswith("test_") or n == "conftest"]
    assert not bad, f"{path.name} imports test modules (move what is shared into test/helpers/): {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_only_the_helper_asks_the_graph(path):
    bad = [f"line {n.lineno}: .{n.func.attr}()" for n in ast.walk(_tree(path))
           if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in GRAPH_CALLS]
    assert not bad, (f"{path.name} asks the ROS graph itself; use helpers.dds (matched, publishers_info, "
                     f"subscriptions_info, node_names, wait_for_graph): {bad}")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_settle_in_disguise(path):
    bad = []
    for n in ast.walk(_tree(path)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "wait_for" and n.args:
            first = n.args[0]
            if isinstance(first, ast.Lambda) and isinstance(first.body, ast.Constant) and not first.body.value:
                bad.append(f"line {n.lineno}")
    assert not bad, f"{path.name}: wait_for(lambda: False, ...) is a sleep; use helpers.dds.spin_for: {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_dds_tests_do_not_sleep(path):
    tree = _tree(path)
    if not _uses_dds(tree):
        return
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = [f"line {n.lineno}" for n in ast.walk(tree)
           if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "sleep"
           and isinstance(n.func.value, ast.Name) and n.func.value.id == "time"
           and "# timing:" not in lines[n.lineno - 1]]
    assert not bad, (f"{path.name} sleeps in a DDS test; wait with helpers.dds.matched / wait_for, observe with "
                     f"spin_for, or say on the line why it is no discovery wait ('# timing: ...'): {bad}")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_spin_thread_of_its_own(path):
    bad = [f"line {n.lineno}" for n in ast.walk(_tree(path))
           if isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", None)) == "Thread"
           and any(k.arg == "target" and isinstance(k.value, ast.Attribute) and k.value.attr == "spin"
                   for k in n.keywords)]
    assert not bad, f"{path.name} spins an executor in a thread of its own; use helpers.dds.BackgroundSpin: {bad}"


def test_the_checks_can_fail(tmp_path):
    """Each rule above finds its violation in a module written to break it."""
    bad = tmp_path / "test_bad.py"
    bad.write_text("import rclpy\nimport time\nfrom test_other import x\nimport conftest\n"
                   "def test_x(node, pub):\n    pub.get_subscription_count()\n    time.sleep(1)\n"
                   "    wait_for(lambda: False, 0.5)\n"
                   "    threading.Thread(target=executor.spin, daemon=True).start()\n")
    for check in (test_no_test_module_imports_another, test_only_the_helper_asks_the_graph,
                  test_no_settle_in_disguise, test_dds_tests_do_not_sleep, test_no_spin_thread_of_its_own):
        with pytest.raises(AssertionError):
            check(bad)
