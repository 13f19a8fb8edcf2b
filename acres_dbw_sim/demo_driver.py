"""Demo client: drives a figure-eight through the DBW like a real stack would.

A separate process that knows only ``ds_dbw_msgs``, ``std_msgs`` and the DBW's
own IMU (``sensor_msgs/Imu`` on ``imu/data_raw``), nothing of the simulator:

1. sends ``enable`` until ``dbw_enabled`` is true (plain depth-1 subscription,
   which matches the real DBW2 node's VOLATILE publisher, dbw-interface.md §1.2);
2. commands at 50 Hz, every command with ``enable: true``: the ULC in velocity
   mode with ``enable_shift`` and ``enable_shift_park`` (so it shifts out of
   PARK by itself) and the steering in curvature mode;
3. accelerates on a straight line until the ULC report's measured speed (`vel_meas`) is
   within 0.1 m/s of the target, then turns left until the heading integrated
   from the IMU's yaw rate has grown by one full turn, then right until it is
   back to zero: two full circles of the same curvature at the same speed, a
   figure-eight that closes where the left turn began;
4. commands 0 m/s, waits for the ULC to stop the vehicle and shift to PARK,
   sends ``disable`` until ``dbw_enabled`` is false and exits 0 (1 if a step
   times out, 130 on Ctrl-C; it disables the DBW however it ends).

Parameters (ROS): ``speed_mps`` (3.0), ``curvature_1_m`` (0.1), ``lead_s`` (0.5,
how early each turn ends to allow for the steering's transition), ``timeout_s``
(180, per phase, in ROS time so it also works with ``use_sim_time``).
"""

from __future__ import annotations

import math
import sys
import time

from acres_dbw_sim.stop_signals import stop_flag_for_imports, stop_on_signals
from acres_dbw_sim.usage import demo_usage, print_usage, waiting_text, wants_help

# Started as the program (demo_driver, acres-demo): a SIGINT or SIGTERM during the imports
# below is kept for main() instead of ending in a KeyboardInterrupt traceback (as the node).
_STOP = stop_flag_for_imports(("demo_driver", "acres-demo", "demo_driver.py"))

import rclpy  # noqa: E402
from ds_dbw_msgs.msg import Gear, GearReport, SteeringCmd, UlcCmd, UlcReport  # noqa: E402
from rclpy.clock import Clock as RosClock, ClockType  # noqa: E402
from rclpy.executors import ExternalShutdownException  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.signals import SignalHandlerOptions  # noqa: E402
from sensor_msgs.msg import Imu  # noqa: E402
from std_msgs.msg import Bool, Empty  # noqa: E402

COMMAND_PERIOD_S = 0.02  # 50 Hz, as Dataspeed's joystick demo
WAIT_NOTICE_S = 5.0     # while no dbw_enabled has come, say so this often (wall time) [s]
DISABLE_CONFIRM_S = 2.0  # wall time from the first disable to dbw_enabled false, at most [s]


class DemoDriver(Node):
    """Figure-eight driver; ``done`` is set with the exit code when it finishes."""

    def __init__(self) -> None:
        super().__init__("demo_driver")
        self.speed_mps = float(self.declare_parameter("speed_mps", 3.0).value)
        self.curvature = float(self.declare_parameter("curvature_1_m", 0.1).value)
        self.timeout_s = float(self.declare_parameter("timeout_s", 180.0).value)
        # The steering needs about half a second to reverse (dead time, lag, rate and
        # acceleration limits): switch that much early, judged by the present yaw rate.
        self.lead_s = float(self.declare_parameter("lead_s", 0.5).value)
        ns = "/vehicle/"
        self.pub_enable = self.create_publisher(Empty, ns + "enable", 10)
        self.pub_disable = self.create_publisher(Empty, ns + "disable", 10)
        self.pub_ulc = self.create_publisher(UlcCmd, ns + "ulc/cmd", 1)
        self.pub_steer = self.create_publisher(SteeringCmd, ns + "steering/cmd", 1)
        self.create_subscription(Bool, ns + "dbw_enabled", self._on_enabled, 1)
        self.create_subscription(Imu, ns + "imu/data_raw", self._on_imu, 10)
        self.create_subscription(GearReport, ns + "gear/report", self._on_gear, 1)
        self.create_subscription(UlcReport, ns + "ulc/report", self._on_ulc, 1)
        self.speed_meas_mps = 0.0
        self.dbw_enabled: bool | None = False   # None: not known since the disable
        self.gear = Gear.NONE
        self.heading_rad = 0.0
        self.yaw_rate_rad_s = 0.0
        self._last_imu_t: float | None = None
        self.phase = "engage"
        # Set at the first tick: with use_sim_time the clock reads 0 until the first /clock
        # message, and the node's clock may be far past 0 by then.
        self.phase_start_s: float | None = None
        self.done: int | None = None
        self.disengaging = False   # set by disengage(): the figure-eight no longer ticks
        self.create_timer(COMMAND_PERIOD_S, self._tick)
        # Silence is the likeliest first-run failure (no simulator in this DDS domain): say what is awaited.
        self._heard = False
        self._started = time.monotonic()
        self.create_timer(WAIT_NOTICE_S, self._say_waiting, clock=RosClock(clock_type=ClockType.STEADY_TIME))
        self._t0_s: float | None = None   # ROS time of the first tick: the log's times count from it

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_enabled(self, msg: Bool) -> None:
        self.dbw_enabled = msg.data
        self._heard = True

    def _say_waiting(self) -> None:
        """Every WAIT_NOTICE_S of wall time while no ``dbw_enabled`` has come: what is awaited, and where."""
        if not self._heard and not self.disengaging:
            self.get_logger().warning(waiting_text(self.pub_enable.topic_name.replace("enable", "dbw_enabled"),
                                                   time.monotonic() - self._started))
        elif self.get_clock().now().nanoseconds == 0 and not self.disengaging:   # sim time, no /clock yet
            self.get_logger().warning(f"the simulator answers but no /clock has come after "
                                      f"{time.monotonic() - self._started:.0f} s: it runs in real time (its "
                                      f"time_mode is not sim or lockstep); run this client without "
                                      f"use_sim_time:=true")

    def _on_gear(self, msg: GearReport) -> None:
        self.gear = msg.gear.value

    def _on_ulc(self, msg: UlcReport) -> None:
        self.speed_meas_mps = msg.vel_meas

    def _on_imu(self, msg: Imu) -> None:
        t = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        w = msg.angular_velocity.z
        if self._last_imu_t is not None and 0.0 < t - self._last_imu_t < 0.5:
            self.heading_rad += 0.5 * (w + self.yaw_rate_rad_s) * (t - self._last_imu_t)
        self._last_imu_t, self.yaw_rate_rad_s = t, w

    def _enter(self, phase: str) -> None:
        # the run's own time; on the simulator's clock (use_sim_time) also that clock, to match its stamps
        clock = (f" (/clock {self._now():.3f} s)" if self.get_parameter("use_sim_time").value else "")
        self.get_logger().info(f"{self.phase} -> {phase} at t={self._now() - (self._t0_s or 0.0):.3f} s{clock} "
                               f"(heading {math.degrees(self.heading_rad):.0f} deg)")
        self.phase, self.phase_start_s = phase, self._now()

    def _send(self, speed_mps: float, curvature_1_m: float) -> None:
        self.pub_ulc.publish(UlcCmd(cmd=speed_mps, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0,
                                    limit_decel=1.5, enable=True, enable_shift=True,
                                    enable_shift_park=True))
        self.pub_steer.publish(SteeringCmd(cmd=curvature_1_m, cmd_type=SteeringCmd.CMD_CURVATURE,
                                           enable=True))

    def _tick(self) -> None:
        if self.done is not None or self.disengaging:
            return
        if self.phase_start_s is None:
            self.phase_start_s = self._t0_s = self._now()
        if self._now() - self.phase_start_s > self.timeout_s:
            hint = ("" if self.phase == "engage" else " (the figure-eight is the Polaris Ranger's: a Maxxum 150 "
                    "node, vehicle:=maxxum150, does not reach its speeds)")
            self.get_logger().error(f"phase '{self.phase}' timed out after {self.timeout_s:g} s{hint}")
            self.done = 1
            return
        if self.phase == "engage":
            if self.dbw_enabled:
                self._enter("accelerate")
            else:
                self.pub_enable.publish(Empty())
            return
        if not self.dbw_enabled:
            self.get_logger().error("dbw_enabled dropped (override or fault)")
            self.done = 1
            return
        if self.phase == "accelerate":
            self._send(self.speed_mps, 0.0)
            if abs(self.speed_meas_mps - self.speed_mps) < 0.1:
                self.heading_rad = 0.0
                self._enter("left")
        elif self.phase == "left":
            self._send(self.speed_mps, self.curvature)
            if self.heading_rad + self.yaw_rate_rad_s * self.lead_s >= 2.0 * math.pi:
                self._enter("right")
        elif self.phase == "right":
            self._send(self.speed_mps, -self.curvature)
            if self.heading_rad + self.yaw_rate_rad_s * self.lead_s <= 0.0:
                self._enter("stop")
        elif self.phase == "stop":
            self._send(0.0, 0.0)
            if self.gear == Gear.PARK and abs(self.yaw_rate_rad_s) < 0.01:
                self.get_logger().info("figure-eight done, vehicle in PARK")
                self.done = 0   # main() disengages

    def disengage(self, timeout_s: float) -> bool:
        """Send ``disable`` every 0.1 s until ``dbw_enabled`` reads false; True when it does
        within ``timeout_s`` [s] of wall time (a lost message is sent again)."""
        end = time.monotonic() + timeout_s
        # Judged only by a report that comes after the disable (None until one does); the
        # figure-eight's timer, which still fires in the spin below, does nothing from now on.
        self.disengaging = True
        self.dbw_enabled = None
        while time.monotonic() < end:
            self.pub_disable.publish(Empty())
            resend = time.monotonic() + 0.1
            while time.monotonic() < min(resend, end):
                rclpy.spin_once(self, timeout_sec=0.02)
                if self.dbw_enabled is False:
                    self.get_logger().info("disabled")
                    return True
        return False


def main(argv: list[str] | None = None) -> int:
    """Console entry ``demo_driver``: run the figure-eight; exit 0 on success, 1 on a timeout
    or a dropped ``dbw_enabled``, 130 on SIGINT or SIGTERM.

    However it ends, the driver sends ``disable`` until ``dbw_enabled`` reads false (at
    most ``DISABLE_CONFIRM_S``) before it leaves, so the vehicle is never left engaged.
    The signals only raise a flag that the spin loop checks (as the simulator's node
    does), so a Ctrl-C never lands inside an rclpy call; a second one stops at once.
    """
    args = argv if argv is not None else sys.argv
    if wants_help(args):   # the usage, and nothing started
        return print_usage(demo_usage(args[0] if args else "demo_driver"))
    stop = _STOP   # holds a signal that came during the imports
    code = None
    with stop_on_signals(stop):
        try:
            rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
            if stop:
                rclpy.try_shutdown()
                return 130
            node = DemoDriver()
            try:
                while not stop and rclpy.ok() and node.done is None:
                    rclpy.spin_once(node, timeout_sec=0.1)
                code = node.done
                if rclpy.ok() and not node.disengage(DISABLE_CONFIRM_S):
                    node.get_logger().warning(f"no dbw_enabled false within {DISABLE_CONFIRM_S:.0f} s of disable")
            except ExternalShutdownException:
                pass
            finally:
                node.destroy_node()
                rclpy.try_shutdown()
        except KeyboardInterrupt:   # a second signal: stop at once
            rclpy.try_shutdown()
    if stop:
        return 130
    return 1 if code is None else code


if __name__ == "__main__":
    sys.exit(main())
