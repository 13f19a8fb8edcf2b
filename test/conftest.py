"""Test-session isolation for DDS and process hygiene.

Every test gets its own ``ROS_DOMAIN_ID`` (1-101: the session's start is derived from the pid,
and each test takes the next one; two sessions run at once on one machine will share a domain now
and then), discovery limited to
localhost, and the node's Fast DDS participant profile (announcements every
0.3 s, docs/discovery.md). Set before the test calls ``rclpy.init()``, and inherited by every node
process a test starts. A domain per test keeps one test's DDS state (Fast DDS's shared-memory
ports are per domain; a node killed mid-write can leave one locked) out of the next test.
Tests carry the ``dds`` marker when they create a participant or start a node (the guard here fails
one that does without it) and ``slow`` when they take more than about 20 s; ``pytest -m "not dds"``
runs the rest with no participant at all (docs/testing.md).
``ros_process`` starts such a process in its own process group and always kills the whole group
afterwards, so no node is ever left behind.
The clean-up after each test signals only what the session started: the groups
``ros_process`` made and pytest's own descendants, never another process of the
same user or DDS domain.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from helpers.processes import RosProcess, end_own_processes

#: The domain of the user's own choosing is kept (``ACRES_TEST_KEEP_DOMAIN=1``); else each test
#: takes the next of 1-101 (the range whose ports stay below Linux's ephemeral ones).
KEEP_DOMAIN = "ROS_DOMAIN_ID" in os.environ and os.environ.get("ACRES_TEST_KEEP_DOMAIN") == "1"
_FIRST_DOMAIN = os.getpid() % 101
_tests_started = 0
if not KEEP_DOMAIN:
    os.environ["ROS_DOMAIN_ID"] = str(1 + _FIRST_DOMAIN)
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
os.environ.setdefault("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp")
# The tests' own participants announce themselves as often as the node's (docs/discovery.md), so a
# node a test starts after subscribing finds the test's subscriber without Fast DDS's 3 s tail.
os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] = str(Path(__file__).resolve().parents[1] / "config" /
                                                  "fastdds_discovery.xml")

TEST_DIR = Path(__file__).resolve().parent
#: A domain id no participant can have (Fast DDS: ports past 65535 from 233 on): the environment of
#: a test without the ``dds`` marker, so that a node it starts by any path fails at once.
NO_DDS_DOMAIN = "233"


@pytest.fixture
def ros_process(request, tmp_path):
    """Factory: ``ros_process([args...])`` starts ``python args...`` as a node process
    (:class:`helpers.processes.RosProcess`); every one is stopped after the test."""
    if request.node.get_closest_marker("dds") is None:
        pytest.fail("ros_process starts a node: mark the test 'dds' (pytest.mark.dds)", pytrace=False)
    started: list[RosProcess] = []

    def start(args: list[str], name: str = "proc") -> RosProcess:
        p = RosProcess([sys.executable, *args], tmp_path / f"{name}-{len(started)}.log")
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()


def _dds_guard_install() -> None:
    """Wrap ``rclpy.Context.init`` (every ``rclpy.init``): it fails a test without the ``dds`` marker."""
    try:
        from rclpy.context import Context
    except ImportError:   # no ROS in this environment: nothing can create a participant
        return
    init = Context.init

    def guarded_init(self, *args, **kwargs):
        if _CURRENT.get("dds") is False:
            pytest.fail(f"{_CURRENT['id']}: creates a DDS participant (rclpy.init) without the 'dds' marker",
                        pytrace=False)
        return init(self, *args, **kwargs)

    Context.init = guarded_init


_CURRENT: dict = {}
_dds_guard_install()


@pytest.fixture(autouse=True)
def own_domain(request):
    """Give a ``dds`` test the next ``ROS_DOMAIN_ID`` (see the module's docstring); any other test
    gets ``NO_DDS_DOMAIN``, in which no participant can be created, and ``rclpy.init`` fails it."""
    global _tests_started
    dds = request.node.get_closest_marker("dds") is not None
    _CURRENT.update(dds=dds, id=request.node.nodeid)
    before = os.environ.get("ROS_DOMAIN_ID")
    if not dds:
        os.environ["ROS_DOMAIN_ID"] = NO_DDS_DOMAIN
    elif not KEEP_DOMAIN:
        os.environ["ROS_DOMAIN_ID"] = str(1 + (_FIRST_DOMAIN + _tests_started) % 101)
        _tests_started += 1
    yield
    _CURRENT.clear()
    if not dds and before is not None:
        os.environ["ROS_DOMAIN_ID"] = before


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """Fail the test that leaves one of its own processes running (and end it), so
    a stray node can never disturb a later test. Only the session's own processes
    are signalled (``_own_processes``)."""
    yield
    left = end_own_processes()
    assert not left, f"processes left running by this test: {left}"


#: The live launch tests and what they need beyond the venv: launch_ros and launch_testing come with a full
#: ROS 2 installation, not from PyPI. This is the one place that makes them optional: where a module is
#: missing they are not collected, and the session's header says so (test_launch_files.py checks the
#: launch files without launch_ros everywhere).
FULL_ROS_MODULES = {"test_launch.py": ("launch_ros", "ros2launch"),
                    "test_example_launch_testing.py": ("launch_testing", "launch_ros")}
collect_ignore = [name for name, needs in FULL_ROS_MODULES.items()
                  if any(importlib.util.find_spec(m) is None for m in needs)]


def pytest_report_header(config):
    """Name the live launch tests this session leaves out (:data:`FULL_ROS_MODULES`)."""
    if collect_ignore:
        return f"not collected, no full ROS 2 installation (launch_ros): {', '.join(collect_ignore)}"
    return None


#: Test modules written to be copied into a user's package, which must not name this suite's markers:
#: marked here instead.
DDS_MODULES_UNMARKED = ("test_example_launch_testing.py",)


def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``DDS_MODULES_UNMARKED`` ``dds``."""
    for item in items:
        if item.path.name in DDS_MODULES_UNMARKED:
            item.add_marker(pytest.mark.dds)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test without the ``dds`` marker whose child process could not create its participant (the
    domain ``NO_DDS_DOMAIN``) fails with a line that says why."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and item.get_closest_marker("dds") is None and "domainId is over 232" in str(report.longrepr):
        report.sections.append(("dds guard", f"{item.nodeid} started a process that creates a DDS participant: "
                                             f"mark the test 'dds' (pytest.mark.dds)"))
