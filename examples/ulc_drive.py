"""A minimal DBW2 client to copy: engage, shift to D, 10 m/s with the ULC, stop, park.

Talks to any node that serves Dataspeed's DBW2 interface on /vehicle (this simulator or
the real ds_dbw_can driver) with ds_dbw_msgs and std_msgs only. Run it beside a node:

    python examples/ulc_drive.py                                   # node in real time
    python examples/ulc_drive.py --ros-args -p use_sim_time:=true  # node in sim mode

Exit status 0 once the vehicle stands in PARK, 1 if a phase times out, 130 on Ctrl-C;
however it ends, it sends ``disable`` until ``dbw_enabled`` reads false (at most 2 s).
"""
from __future__ import annotations

import os
import signal
import sys
import time

import rclpy
from ds_dbw_msgs.msg import Gear, GearCmd, GearReport, UlcCmd, UlcReport
from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import Bool, Empty

PERIOD_S = 0.02       # commands at 50 Hz: well inside the DBW's 100 ms command timeout
SPEED_MPS = 10.0
PHASE_TIMEOUT_S = 60.0


class UlcDrive(Node):
    """The client: a 50 Hz timer steps through the phases; ``result`` is the exit status.

    Phases: engage (send ``enable`` until ``dbw_enabled``), shift to D, drive (ULC at
    ``SPEED_MPS`` until the ULC report's ``vel_meas`` is within 0.2 m/s), stop (ULC at
    0 m/s until below 0.05 m/s), park (shift to P), then ``disable``. Each phase may take
    ``PHASE_TIMEOUT_S`` [s] of ROS time (the node's ``/clock`` with ``use_sim_time``).
    """

    def __init__(self) -> None:
        super().__init__("ulc_drive")
        self.enable = self.create_publisher(Empty, "/vehicle/enable", 10)
        self.disable = self.create_publisher(Empty, "/vehicle/disable", 10)
        self.gear_cmd = self.create_publisher(GearCmd, "/vehicle/gear/cmd", 1)
        self.ulc_cmd = self.create_publisher(UlcCmd, "/vehicle/ulc/cmd", 1)
        # dbw_enabled is VOLATILE on the DBW2 node: subscribe with a plain depth, not latched.
        self.create_subscription(Bool, "/vehicle/dbw_enabled", self.on_enabled, 1)
        self.create_subscription(GearReport, "/vehicle/gear/report", self.on_gear, 1)
        self.create_subscription(UlcReport, "/vehicle/ulc/report", self.on_ulc, 1)
        # enabled: None while not known (after a disable, until a report says so)
        self.enabled, self.gear, self.reject, self.speed_mps = False, Gear.NONE, 0, 0.0
        self.disengaging = False   # set by disengage(): the phases no longer tick
        # The first phase starts at the first tick: with use_sim_time the clock reads 0 until
        # the first /clock message, and the node's clock may be far past 0 by then.
        self.phase, self.t_phase, self.t_shift, self.result = "engage", None, 0.0, None
        self.create_timer(PERIOD_S, self.tick)
        # No simulator in this DDS domain is the likeliest first-run mistake: say what is awaited.
        self.heard, self.started = False, time.monotonic()
        self.create_timer(5.0, self.say_waiting, clock=Clock(clock_type=ClockType.STEADY_TIME))

    def now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def on_enabled(self, msg: Bool) -> None:
        self.enabled, self.heard = msg.data, True

    def say_waiting(self) -> None:
        if not self.heard and not self.disengaging:
            domain = os.environ.get("ROS_DOMAIN_ID", "") or "0 (unset)"
            reach = os.environ.get("ROS_AUTOMATIC_DISCOVERY_RANGE", "") or "SUBNET (unset)"
            self.get_logger().warning(
                f"no message on /vehicle/dbw_enabled after {time.monotonic() - self.started:.0f} s: waiting for a "
                f"simulator in ROS_DOMAIN_ID={domain}, discovery range {reach}; start one there (make run, or "
                f"sim_node) or give this client the simulator's ROS_DOMAIN_ID")
        elif self.get_clock().now().nanoseconds == 0 and not self.disengaging:   # use_sim_time, no /clock yet
            self.get_logger().warning(
                f"the simulator answers but no /clock has come after {time.monotonic() - self.started:.0f} s: "
                f"it runs in real time; run this client without use_sim_time:=true")

    def on_gear(self, msg: GearReport) -> None:
        self.gear, self.reject = msg.gear.value, msg.reject.value

    def on_ulc(self, msg: UlcReport) -> None:
        self.speed_mps = msg.vel_meas

    def next_phase(self, phase: str) -> None:
        self.get_logger().info(f"{self.phase} done (speed {self.speed_mps:.2f} m/s, gear {self.gear})")
        self.phase, self.t_phase = phase, self.now_s()

    def shift(self, gear: int) -> None:
        # A gear command is an event (no timeout, no need to repeat it): the gear report says
        # when the lever got there (1 s through neutral; refused at 0.3 m/s and above). It is
        # sent again only if the lever has not moved after 2 s (e.g. a command sent before
        # the node's subscription was matched is lost).
        self.gear_cmd.publish(GearCmd(cmd=Gear(value=gear)))
        self.t_shift = self.now_s()

    def shifted(self, gear: int) -> bool:
        if self.gear != gear and self.now_s() - self.t_shift > 2.0:
            self.get_logger().info(f"gear still {self.gear} (reject {self.reject}): sending again")
            self.shift(gear)
        return self.gear == gear

    def ulc(self, speed_mps: float) -> None:
        # limit_accel / limit_decel = 0 mean the DBW's defaults (1 m/s^2 each here).
        self.ulc_cmd.publish(UlcCmd(cmd=speed_mps, cmd_type=UlcCmd.CMD_VELOCITY, enable=True,
                                    limit_accel=0.0, limit_decel=0.0))

    def tick(self) -> None:
        if self.result is not None or self.disengaging:
            return
        if self.t_phase is None:
            self.t_phase = self.now_s()
        if self.now_s() - self.t_phase > PHASE_TIMEOUT_S:
            self.get_logger().error(f"phase '{self.phase}' timed out")
            self.result = 1
        elif self.phase == "engage":
            self.enable.publish(Empty())          # repeated until dbw_enabled says true
            if self.enabled:
                self.next_phase("shift to D")
                self.shift(Gear.DRIVE)
        elif self.phase == "shift to D":
            self.ulc(0.0)                         # speed 0: the ULC holds the brake meanwhile
            if self.shifted(Gear.DRIVE):
                self.next_phase("drive")
        elif self.phase == "drive":
            self.ulc(SPEED_MPS)
            if abs(self.speed_mps - SPEED_MPS) < 0.2:
                self.next_phase("stop")
        elif self.phase == "stop":
            self.ulc(0.0)
            if abs(self.speed_mps) < 0.05:
                self.next_phase("park")
                self.shift(Gear.PARK)
        elif self.phase == "park":
            self.ulc(0.0)
            if self.shifted(Gear.PARK):
                self.next_phase("done")
                self.get_logger().info("parked")
                self.result = 0   # main() disengages

    def disengage(self, timeout_s: float = 2.0) -> bool:
        """Send ``disable`` every 0.1 s until ``dbw_enabled`` reads false (True), at most
        ``timeout_s`` of wall time: a client that leaves should not leave the DBW engaged."""
        end = time.monotonic() + timeout_s
        # Judged only by a report that comes after the disable (None until one does); the timer,
        # which still fires in the spin below, does nothing from now on (no command after a disable).
        self.disengaging = True
        self.enabled = None
        while time.monotonic() < end:
            self.disable.publish(Empty())
            resend = min(time.monotonic() + 0.1, end)
            while time.monotonic() < resend:
                rclpy.spin_once(self, timeout_sec=0.02)
                if self.enabled is False:
                    return True
        return False


def main() -> int:
    """Run the client until it ends; return 0 when parked, 1 on a timeout, 130 on Ctrl-C.

    Ctrl-C (or SIGTERM) only sets a flag that the loop checks, so it never lands inside an
    rclpy call; the client then disables the DBW and leaves.
    """
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    rclpy.init(args=sys.argv, signal_handler_options=SignalHandlerOptions.NO)
    node = UlcDrive()
    try:
        while not stop and rclpy.ok() and node.result is None:
            rclpy.spin_once(node, timeout_sec=0.1)
        if rclpy.ok():
            node.get_logger().info("disabled" if node.disengage() else "no dbw_enabled false within 2 s")
    finally:
        result = node.result
        node.destroy_node()
        rclpy.try_shutdown()
    if stop:
        return 130
    return 1 if result is None else result


if __name__ == "__main__":
    sys.exit(main())
