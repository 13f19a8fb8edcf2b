"""The README's client (examples/ulc_drive.py) drives the node over DDS and ends parked.

The node runs in `sim` mode (4x real time, /clock published) and the client, a separate
process exactly as a user would start it, on that clock, started once the clock is past 60 s. Afterwards examples/watch.py, the
README's stand-in for `ros2 topic echo`, reads the gear report: PARK.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_prefix
from ds_dbw_msgs.msg import Gear

from helpers.dds import wait_for

pytestmark = pytest.mark.dds

ROOT = Path(__file__).resolve().parents[1]
LIB = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim"
NODE_EXE = LIB / "sim_node"


def _wait_exit(proc, timeout_s: float) -> int | None:
    wait_for(lambda: not proc.alive(), timeout_s)
    return proc.proc.poll()


@pytest.mark.slow
def test_client_engages_drives_10_mps_stops_and_parks(ros_process):
    node = ros_process([str(NODE_EXE), "--ros-args", "-p", "time_mode:=sim",
                        "-p", "rate_factor:=4.0"], name="sim_node")

    def clock_sec() -> int:
        """The node's /clock seconds, read as a user would (examples/watch.py)."""
        clock = ros_process([str(ROOT / "examples" / "watch.py"), "/clock", "--field", "clock.sec", "--once",
                             "--timeout", "30"], name="watch_clock")
        assert _wait_exit(clock, 40.0) == 0, clock.output()
        return int(clock.output().strip().splitlines()[-1])

    # Started as a user would, some time after the node: its /clock is then past the
    # client's 60 s phase timeout (the client once took its start time before the first
    # /clock message, 0, and timed out at its first tick). A look every 2 s (8 s of /clock at 4x):
    # each starts a process.
    wait_for(lambda: clock_sec() > 65, 60.0, period_s=2.0)
    client = ros_process([str(ROOT / "examples" / "ulc_drive.py"), "--ros-args",
                          "-p", "use_sim_time:=true"], name="ulc_drive")
    rc = _wait_exit(client, 180.0)
    out = client.output()
    assert rc == 0, f"client exit status {rc}\n--- client:\n{out}\n--- node:\n{node.output()}"
    phases = ["engage done", "shift to D done", "drive done", "stop done", "park done", "parked", "disabled"]
    positions = [out.find(p) for p in phases]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), out
    # the speed the client saw when it left "drive": within 0.2 m/s of 10 m/s
    line = next(ln for ln in out.splitlines() if "drive done" in ln)
    assert abs(float(line.split("speed ")[1].split(" m/s")[0]) - 10.0) < 0.2, line

    watch = ros_process([str(ROOT / "examples" / "watch.py"), "/vehicle/gear/report",
                         "--field", "gear.value", "--once", "--timeout", "30"], name="watch")
    assert _wait_exit(watch, 60.0) == 0, watch.output()
    assert watch.output().strip().splitlines()[-1] == str(Gear.PARK), watch.output()
    assert node.alive(), node.output()


@pytest.mark.parametrize("argv", [["examples/ulc_drive.py"], ["demo_driver"]], ids=["example", "demo"])
def test_a_client_without_a_simulator_says_what_it_waits_for(ros_process, argv):
    """No simulator in the domain (the likeliest first-run mistake): within a few seconds the client
    names what it waits for, the domain and the discovery range; Ctrl-C still ends it cleanly."""
    root = Path(__file__).resolve().parents[1]
    exe = root / argv[0] if argv[0].endswith(".py") else LIB / argv[0]
    proc = ros_process([str(exe)], name="lonely_client")
    want = f"waiting for a simulator in ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}, discovery range LOCALHOST"
    assert wait_for(lambda: want in proc.output() or not proc.alive(), 20.0), proc.output()
    assert proc.stop() in (0, 130), proc.output()
