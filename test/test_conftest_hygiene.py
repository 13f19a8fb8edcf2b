"""The suite's clean-up signals only the processes the suite started.

An unrelated process with the same DDS domain in its environment (another
user's shell tool, the ros2 daemon) must survive a test; a process a test
started and left behind must still be found."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from helpers.dds import call_service, wait_for
from helpers.processes import end_own_processes, own_processes, proc_stat


def _start_unrelated_sleep() -> int:
    """``sleep 300`` outside the suite: a double fork, re-parented away from pytest,
    in its own session, with this run's ROS_DOMAIN_ID in its environment."""
    out = subprocess.run(["setsid", "sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"],
                         capture_output=True, text=True, check=True, env=dict(os.environ))
    return int(out.stdout.strip())


def test_an_unrelated_process_survives_the_clean_up():
    """The clean-up after each test (``end_own_processes``, what ``no_process_left_behind`` runs) leaves a
    process of the same domain that the session did not start."""
    pid = _start_unrelated_sleep()
    try:
        wait_for(lambda: proc_stat(pid) is not None and b"ROS_DOMAIN_ID" in
                 open(f"/proc/{pid}/environ", "rb").read(), 5.0)
        marker = f"ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}".encode()
        assert marker in open(f"/proc/{pid}/environ", "rb").read().split(b"\0")  # what the old clean-up matched
        assert pid not in own_processes()
        assert pid not in end_own_processes(grace_s=0.2)
        os.kill(pid, 0)          # still alive after the clean-up
        assert proc_stat(pid) is not None
    finally:
        os.kill(pid, signal.SIGKILL)


@pytest.mark.dds   # ros_process: the suite's way to start a node
def test_a_process_left_in_a_started_group_is_found(ros_process, tmp_path):
    # the child starts a grandchild in its group (a launch starting a node) and exits
    proc = ros_process(["-c", "import subprocess; subprocess.Popen(['sleep', '300'])"], name="parent")
    proc.proc.wait(timeout=30)
    left = [pid for pid, cmd in own_processes().items() if cmd.startswith("sleep 300")]
    assert left, "the grandchild in the started process group was not found"
    for pid in left:
        os.kill(pid, signal.SIGKILL)


def test_a_child_of_pytest_is_found():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        assert child.pid in own_processes()
    finally:
        child.kill()
        child.wait()


@pytest.mark.dds
def test_a_node_prints_its_threads_stacks_on_sigusr1_and_goes_on(ros_process):
    """``RosProcess.stacks`` (used when a node never comes up): sim_node's faulthandler prints every
    thread's Python stack on SIGUSR1, and the node keeps running."""
    from pathlib import Path

    from ament_index_python.packages import get_package_prefix

    exe = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
    proc = ros_process([str(exe)], name="stacks")
    assert wait_for(lambda: "simulating a" in proc.output() or not proc.alive(), 60.0), proc.output()
    out = proc.stacks()
    assert "most recent call first" in out and "launcher.py" in out, out   # the spin loop of main
    assert proc.alive()
    assert proc.stop() == 0


@pytest.mark.dds
def test_a_lost_service_response_is_resent_or_checked_by_its_effect():
    """``call_service`` when no response comes (a service nobody serves stands in for one whose
    response Fast DDS dropped): an idempotent request is sent twice, then fails; one that is not
    returns None when ``done()`` shows its effect, and fails when it does not."""
    import rclpy
    from std_srvs.srv import Trigger

    rclpy.init()
    node = rclpy.create_node("lost_response")
    try:
        client = node.create_client(Trigger, "/nobody/serves/this")
        sent = []
        call_async = client.call_async
        client.call_async = lambda req: (sent.append(req), call_async(req))[1]
        with pytest.raises(AssertionError, match="2 x 0.2 s"):
            call_service(node, client, Trigger.Request(), timeout_s=0.2)
        assert len(sent) == 2
        sent.clear()
        assert call_service(node, client, Trigger.Request(), timeout_s=0.2, idempotent=False,
                            done=lambda: True) is None
        with pytest.raises(AssertionError, match="did not take effect"):
            call_service(node, client, Trigger.Request(), timeout_s=0.2, idempotent=False,
                                  done=lambda: False)
        assert len(sent) == 2   # never resent
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
