"""A minimal Ackermann client to copy: engage, drive an arc at 2 m/s for 8 s, stop, disengage.

Speaks ackermann_msgs/AckermannDriveStamped on /vehicle/ackermann_cmd (and std_msgs for enable and
dbw_enabled), as a car-like planner does, to a node serving it (``interfaces:="[ds_dbw, ackermann]"``,
started in H: the ULC does not leave PARK by itself; docs/adapters.md):

    sim_node --ros-args -p interfaces:="[ds_dbw, ackermann]" -p initial_gear:=H -p time_mode:=sim
    python examples/ackermann_drive.py --ros-args -p use_sim_time:=true

Exit status 0 once the vehicle stands still after the arc, 1 if a phase times out, 130 on Ctrl-C;
it sends ``disable`` before it leaves.
"""
from __future__ import annotations

import signal
import sys

import rclpy
from ackermann_msgs.msg import AckermannDriveStamped
from nav_msgs.msg import Odometry
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import Bool, Empty

PERIOD_S = 0.05          # 20 Hz: inside the adapter's 0.5 s timeout
SPEED_MPS, ANGLE_RAD, DRIVE_S = 2.0, 0.3, 8.0
PHASE_TIMEOUT_S = 60.0


class AckermannDrive(Node):
    """Phases on a timer: engage, drive (``DRIVE_S`` of ROS time), stop; ``result`` is the exit status."""

    def __init__(self) -> None:
        super().__init__("ackermann_drive")
        self.cmd = self.create_publisher(AckermannDriveStamped, "/vehicle/ackermann_cmd", 2)
        self.enable = self.create_publisher(Empty, "/vehicle/enable", 10)
        self.disable = self.create_publisher(Empty, "/vehicle/disable", 10)
        self.create_subscription(Bool, "/vehicle/dbw_enabled", lambda m: setattr(self, "enabled", m.data), 2)
        self.create_subscription(Odometry, "/vehicle/odom", self.on_odom, 10)
        self.enabled, self.speed_mps, self.yaw_rate = False, 0.0, 0.0
        self.phase, self.t_phase, self.result = "engage", None, None
        self.create_timer(PERIOD_S, self.tick)

    def on_odom(self, msg: Odometry) -> None:
        self.speed_mps, self.yaw_rate = msg.twist.twist.linear.x, msg.twist.twist.angular.z

    def now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def send(self, speed_mps: float, angle_rad: float) -> None:
        msg = AckermannDriveStamped()
        msg.header.stamp = self.get_clock().now().to_msg()
        msg.drive.speed, msg.drive.steering_angle = speed_mps, angle_rad   # 0 limits: as fast as allowed
        self.cmd.publish(msg)

    def next_phase(self, phase: str) -> None:
        self.get_logger().info(f"{self.phase} done (speed {self.speed_mps:.2f} m/s, "
                               f"yaw rate {self.yaw_rate:.3f} rad/s)")
        self.phase, self.t_phase = phase, self.now_s()

    def tick(self) -> None:
        if self.result is not None:
            return
        if self.t_phase is None:
            self.t_phase = self.now_s()
        elapsed = self.now_s() - self.t_phase
        if elapsed > PHASE_TIMEOUT_S:
            self.get_logger().error(f"phase '{self.phase}' timed out")
            self.result = 1
        elif self.phase == "engage":
            self.enable.publish(Empty())          # repeated until dbw_enabled says true
            if self.enabled:
                self.next_phase("drive")
        elif self.phase == "drive":
            self.send(SPEED_MPS, ANGLE_RAD)
            if elapsed > DRIVE_S:
                self.next_phase("stop")
        elif self.phase == "stop":
            self.send(0.0, ANGLE_RAD)             # the ULC stops on the arc
            if abs(self.speed_mps) < 0.05:
                self.next_phase("done")
                self.result = 0


def main() -> int:
    """Run the client until it ends; 0 when stopped after the arc, 1 on a timeout, 130 on Ctrl-C."""
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    rclpy.init(args=sys.argv, signal_handler_options=SignalHandlerOptions.NO)
    node = AckermannDrive()
    try:
        while not stop and rclpy.ok() and node.result is None:
            rclpy.spin_once(node, timeout_sec=0.1)
        for _ in range(5):                        # leave the DBW disengaged
            node.disable.publish(Empty())
            rclpy.spin_once(node, timeout_sec=0.05)
    finally:
        result = node.result
        node.destroy_node()
        rclpy.try_shutdown()
    if stop:
        return 130
    return 1 if result is None else result


if __name__ == "__main__":
    sys.exit(main())
