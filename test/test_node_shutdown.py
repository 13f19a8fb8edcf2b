"""Clean shutdown (issue 13 item 9): SIGINT or SIGTERM, at any moment, with
subscribers joining and leaving, ends the node with exit 0 and no traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_prefix

from helpers.dds import wait_for
from helpers.processes import STARTED_GROUPS
from helpers.shutdown_churn import hung_in_dds

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
STOPS = int(os.environ.get("ACRES_TEST_STOPS", "25"))
PARALLEL = 5   # nodes alive at once (in their own namespaces)


# The stops' subscriber side runs in a process of its own (helpers/shutdown_churn.py, whose docstring says
# why): once in many runs Fast DDS deadlocks while an entity is created, and on 4 December the thread that
# hung held the GIL, so inside pytest neither the timeout's thread nor a watchdog could run and the whole
# run hung. Here that process is watched from outside: one that goes quiet inside Fast DDS is ended and
# the stops run again once in a fresh one; anything else fails the test.
TIMEOUT_S = 300.0
CHURN = Path(__file__).resolve().parent / "helpers" / "shutdown_churn.py"


def _end_groups(groups_file: Path) -> None:
    """SIGKILL the nodes' process groups that the churn process recorded (its own, never anything else); the
    session's clean-up is told of them too."""
    if not groups_file.exists():
        return
    for line in groups_file.read_text().split():
        STARTED_GROUPS.add(int(line))
        try:
            os.killpg(int(line), signal.SIGKILL)
        except ProcessLookupError:
            pass


def _run_churn(ros_process, out_dir: Path, seed: int, budget_s: float) -> tuple[dict | None, str]:
    """One churn process: (its result, None when it hung inside Fast DDS; its output and threads)."""
    out_dir.mkdir()
    proc = ros_process([str(CHURN), str(NODE_EXE), str(STOPS), str(PARALLEL), str(seed), str(out_dir)],
                       name=f"churn{seed}")
    try:
        code = proc.proc.wait(timeout=budget_s)
    except subprocess.TimeoutExpired:
        code = None
    try:
        if code is None:
            stacks = proc.stacks()
            assert hung_in_dds(stacks), f"the churn process did not finish in {budget_s:.0f} s:\n{stacks[-4000:]}"
            return None, stacks
        out = proc.output()
        assert code == 0 and (out_dir / "result.json").exists(), f"the churn process failed (exit {code}):\n" \
            f"{out[-4000:]}"
        return json.loads((out_dir / "result.json").read_text()), out
    finally:
        proc.stop()
        _end_groups(out_dir / "groups")


@pytest.mark.timeout(2 * TIMEOUT_S + 60.0)
@pytest.mark.slow
def test_signal_stops_exit_0_without_traceback(ros_process, tmp_path):
    result, text = _run_churn(ros_process, tmp_path / "first", 13, TIMEOUT_S)
    if result is None:   # the subscriber side hung inside Fast DDS: once more, in a fresh process
        warnings.warn(f"the churn process hung inside Fast DDS; the stops run again:\n{text[-3000:]}")
        result, text = _run_churn(ros_process, tmp_path / "again", 14, TIMEOUT_S)
        assert result is not None, f"the churn process hung inside Fast DDS twice:\n{text[-3000:]}"
    failures, missed = result["failures"], result["missed"]
    assert result["stops"] == STOPS
    assert not failures, f"{len(failures)} of {STOPS} stops unclean:\n" + "\n".join(failures[:3])
    # A rare DDS match that never completes, or a node hung inside Fast DDS, is tolerated
    # twice in a run (and reported: once two nodes hung together, 2 December); more would
    # mean something systematic between the node's and the test's endpoints.
    for text in missed.values():
        warnings.warn(f"a DDS miss among {STOPS} stops: {text}")
    assert len(missed) <= 2, "\n".join(missed.values())


_FAKE_CHURN = """import faulthandler, json, signal, sys, time
from pathlib import Path
sys.path.insert(0, {lib!r})
from rclpy import node   # the stand-in below: its create_subscription never returns (seed 13)
faulthandler.register(signal.SIGUSR1, all_threads=True)
node_exe, stops, parallel, seed, out = sys.argv[1:6]
(Path(out) / "groups").write_text("")
if seed == "13":
    node.create_subscription()
(Path(out) / "result.json").write_text(json.dumps({{"failures": [], "missed": {{}}, "stops": int(stops)}}))
"""


def test_a_churn_process_hung_inside_fast_dds_is_ended_and_run_again(ros_process, tmp_path, monkeypatch):
    """The watch from outside: a churn process whose main thread sits in an rclpy entity call is ended
    (read by its thread dump) and the stops run once more in a fresh process; its result is the test's."""
    lib = tmp_path / "lib"
    (lib / "rclpy").mkdir(parents=True)
    (lib / "rclpy" / "__init__.py").write_text("")
    (lib / "rclpy" / "node.py").write_text("import time\n\n\ndef create_subscription():\n"
                                          "    while True:\n        time.sleep(1.0)\n")
    fake = tmp_path / "fake_churn.py"
    fake.write_text(_FAKE_CHURN.format(lib=str(lib)))
    monkeypatch.setattr(sys.modules[__name__], "CHURN", fake)
    result, _text = _run_churn(ros_process, tmp_path / "first", 13, 3.0)
    assert result is None and hung_in_dds(_text)
    result, _text = _run_churn(ros_process, tmp_path / "again", 14, 30.0)
    assert result == {"failures": [], "missed": {}, "stops": STOPS}


def test_a_thread_dump_inside_fast_dds_is_told_apart(tmp_path):
    """``hung_in_dds`` on real ``faulthandler`` dumps: the main thread inside an rclpy entity
    call is the Fast DDS hang; the same thread anywhere else, or no dump, is not."""
    import faulthandler
    import importlib.util

    (tmp_path / "rclpy").mkdir()
    (tmp_path / "rclpy" / "node.py").write_text(
        "import faulthandler\n\n\ndef create_publisher(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def destroy(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def _cleanup(f):\n    faulthandler.dump_traceback(f)\n\n\n"
        "def spin_once(f):\n    faulthandler.dump_traceback(f)\n")
    spec = importlib.util.spec_from_file_location("fake_rclpy_node", tmp_path / "rclpy" / "node.py")
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)

    def dump(call) -> str:
        with (tmp_path / "dump.txt").open("w+") as f:
            f.write("[INFO] [dbw_node]: a log line before the dump\n")
            f.flush()
            call(f)
            f.seek(0)
            return f.read()

    assert hung_in_dds(dump(fake.create_publisher))
    assert hung_in_dds(dump(fake.destroy))     # Publisher.destroy, under Node.destroy_publisher
    assert hung_in_dds(dump(fake._cleanup))    # Context._cleanup, under try_shutdown
    assert not hung_in_dds(dump(fake.spin_once))
    assert not hung_in_dds(dump(faulthandler.dump_traceback))
    assert not hung_in_dds("")


def test_a_closed_stdout_does_not_end_the_node():
    """`sim_node | head -1`, or a launch killed while the node goes on: the status line's reader is gone. The
    node keeps simulating (it stops printing) and a Ctrl-C still ends it with exit 0."""
    proc = subprocess.Popen([sys.executable, str(NODE_EXE), "--ros-args", "-p", "status_period_s:=0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    STARTED_GROUPS.add(proc.pid)
    try:
        first = proc.stdout.readline()
        assert b"t=" in first, first
        proc.stdout.close()   # the reader goes away
        assert wait_for(lambda: proc.poll() is not None, 2.0) is False, f"the node ended: exit {proc.returncode}"
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
