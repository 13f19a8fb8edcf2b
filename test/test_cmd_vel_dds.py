"""cmd_vel over real DDS: the issue's circle, precedence over ds_dbw, the stop on timeout.

One node process serves ``ds_dbw`` and ``cmd_vel`` in ``sim`` time at twice real
time (every time below is simulation time, from the stamps of ``odom``):

1. ``cmd_vel`` 1.0 m/s, 0.2 rad/s for 20 s on asphalt (AWD, the default), from
   rest in H: the rear-axle path is a circle of radius 5 m within 5 %;
2. a ds_dbw client brakes while the Twists keep coming: ds_dbw has precedence,
   the vehicle stops, the conflict is logged and ``/diagnostics`` says ERROR;
   when ds_dbw goes quiet the Twists drive again and the status is OK;
3. the Twists stop: the vehicle is stopped within the timeout and the ULC's stop.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from ds_dbw_msgs.msg import BrakeCmd
from geometry_msgs.msg import Twist
from std_msgs.msg import Empty

from msg_adapters.diagnostics import STATUS_NAME
from helpers.dds import wait_for
from helpers.geometry import fit_circle
from helpers.stream_client import StreamClient

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


class Client(StreamClient):
    """Twist and BrakeCmd streams at 20 Hz (wall), odometry and diagnostics kept."""

    def __init__(self):
        super().__init__("cmd_vel_client")
        self.diag: list[DiagnosticStatus] = []
        self.subs.append(self.node.create_subscription(DiagnosticArray, "/diagnostics", self._on_diag, 10))
        self.pub_twist = self.publisher(Twist, "/vehicle/cmd_vel")
        self.pub_brake = self.publisher(BrakeCmd, "/vehicle/brake/cmd", 1)

    def _on_diag(self, m):
        with self.lock:
            self.diag += [s for s in m.status if s.name == STATUS_NAME]

    def wait_until(self, predicate, timeout_s, what, out=""):
        """No spin: the executor's thread spins."""
        assert wait_for(predicate, timeout_s), f"timed out after {timeout_s} s waiting for: {what}\n{out}"


@pytest.mark.slow
def test_cmd_vel_circle_precedence_and_timeout(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[cmd_vel, ds_dbw]",
                        "-p", "initial_gear:=H", "-p", "time_mode:=sim", "-p", "rate_factor:=2.0"],
                       name="sim_node")
    rclpy.init()
    c = Client()
    try:
        c.start(proc)
        c.pub_enable.publish(Empty())
        c.wait_until(lambda: c.enabled, 5.0, "dbw_enabled", proc.output())

        # 1. the circle
        t0 = c.now()
        twist = Twist()
        twist.linear.x, twist.angular.z = 1.0, 0.2
        c.streams[c.pub_twist] = twist
        c.wait_until(lambda: c.now() > t0 + 20.5, 60.0, "20 s of simulated driving")
        track = c.track(t0, t0 + 20.0)
        radius, *_ = fit_circle(track[:, 1:3])
        print(f"cmd_vel circle over DDS: radius {radius:.3f} m from {len(track)} poses")
        assert radius == pytest.approx(5.0, rel=0.05)
        assert track[track[:, 0] > t0 + 10.0][:, 3].mean() == pytest.approx(1.0, abs=0.03)

        # 2. ds_dbw brakes while cmd_vel keeps commanding: ds_dbw has precedence
        t1 = c.now()
        c.streams[c.pub_brake] = BrakeCmd(cmd=30.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True)
        c.wait_until(lambda: c.now() > t1 + 3.0, 20.0, "3 s with both interfaces commanding")
        assert abs(c.track(t1 + 2.5, t1 + 3.0)[:, 3]).max() < 0.05, "ds_dbw's brake did not win"
        with c.lock:
            conflict = [s for s in c.diag if s.level == DiagnosticStatus.ERROR]
        assert conflict, "no ERROR status on /diagnostics"
        values = {kv.key: kv.value for kv in conflict[-1].values}
        assert values["owner"] == "ds_dbw" and values["active"] == "ds_dbw, cmd_vel"
        assert int(values["dropped_cmd_vel"]) > 0 and values["dropped_ds_dbw"] == "0"
        assert "two command interfaces at once: ds_dbw, cmd_vel" in proc.output()
        c.streams[c.pub_brake] = None
        t2 = c.now()
        c.wait_until(lambda: c.now() > t2 + 4.0, 20.0, "cmd_vel drives again")
        assert c.track(t2 + 3.5, t2 + 4.0)[:, 3].min() > 0.5
        with c.lock:
            assert c.diag[-1].level == DiagnosticStatus.OK
            assert {kv.key: kv.value for kv in c.diag[-1].values}["conflicts"] == "1"

        # 3. the Twists stop: stopped within the timeout (0.5 s) and the ULC's stop
        c.streams[c.pub_twist] = None
        t3 = c.now()
        c.wait_until(lambda: c.now() > t3 + 4.0, 20.0, "4 s without cmd_vel")
        stopped = c.track(t3 + 3.0, t3 + 4.0)
        with c.lock:
            last = c.diag[-1]
        assert abs(stopped[:, 3]).max() < 0.02, (stopped[::10], last, proc.output()[-2000:])
    finally:
        c.close()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"
