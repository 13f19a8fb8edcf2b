"""A minimal Autoware-side client to copy: request AUTONOMOUS, shift to DRIVE, drive an arc, stop, park, MANUAL.

Speaks only Autoware's vehicle interface (autoware_control_msgs, autoware_vehicle_msgs), as
Autoware's control stack does, to a node serving it (``interfaces:="[autoware]"``; docs/autoware.md).
Run it beside such a node:

    sim_node --ros-args -p interfaces:="[autoware]" -p time_mode:=sim      # the node, in sim time
    python examples/autoware_drive.py --ros-args -p use_sim_time:=true        # this client

Exit status 0 once the vehicle stands in PARK and the mode is MANUAL again, 1 if a phase times
out, 130 on Ctrl-C (after asking for MANUAL).
"""
from __future__ import annotations

import signal
import sys

import rclpy
from autoware_control_msgs.msg import Control
from autoware_vehicle_msgs.msg import ControlModeReport, GearCommand, GearReport, VelocityReport
from autoware_vehicle_msgs.srv import ControlModeCommand
from rclpy.node import Node
from rclpy.qos import QoSProfile
from rclpy.signals import SignalHandlerOptions

PERIOD_S = 0.03          # Control at 33 Hz, as Autoware's controller sends it
SPEED_MPS, TYRE_ANGLE_RAD, DRIVE_S = 3.0, 0.2, 8.0
PHASE_TIMEOUT_S = 60.0


class AutowareDrive(Node):
    """Phases on a timer: engage, shift to D, drive (``DRIVE_S`` of ROS time on the arc), stop, park,
    manual; ``result`` is the exit status. Each phase may take ``PHASE_TIMEOUT_S`` [s] of ROS time."""

    def __init__(self) -> None:
        super().__init__("autoware_drive")
        qos = QoSProfile(depth=1)   # RELIABLE, VOLATILE: Autoware's vehicle-interface QoS
        self.control = self.create_publisher(Control, "/control/command/control_cmd", qos)
        self.gear_cmd = self.create_publisher(GearCommand, "/control/command/gear_cmd", qos)
        self.mode_client = self.create_client(ControlModeCommand, "/control/control_mode_request")
        self.create_subscription(ControlModeReport, "/vehicle/status/control_mode",
                                 lambda m: setattr(self, "mode", m.mode), qos)
        self.create_subscription(GearReport, "/vehicle/status/gear_status", lambda m: setattr(self, "gear", m.report),
                                 qos)
        self.create_subscription(VelocityReport, "/vehicle/status/velocity_status",
                                 lambda m: setattr(self, "speed_mps", m.longitudinal_velocity), qos)
        self.mode, self.gear, self.speed_mps = None, None, 0.0
        self.phase, self.t_phase, self.result, self.pending = "engage", None, None, None
        self.create_timer(PERIOD_S, self.tick)

    def now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def request(self, mode: int) -> None:
        """Ask for a control mode (once at a time: the service answers quickly)."""
        if self.mode_client.service_is_ready() and (self.pending is None or self.pending.done()):
            self.pending = self.mode_client.call_async(ControlModeCommand.Request(mode=mode))

    def send(self, speed_mps: float, tyre_angle_rad: float) -> None:
        msg = Control()
        msg.stamp = self.get_clock().now().to_msg()
        msg.longitudinal.velocity, msg.lateral.steering_tire_angle = speed_mps, tyre_angle_rad
        self.control.publish(msg)

    def next_phase(self, phase: str) -> None:
        self.get_logger().info(f"{self.phase} done (speed {self.speed_mps:.2f} m/s, gear {self.gear}, "
                               f"mode {self.mode})")
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
            self.request(ControlModeCommand.Request.AUTONOMOUS)
            if self.mode == ControlModeReport.AUTONOMOUS:
                self.next_phase("shift to D")
        elif self.phase == "shift to D":
            self.send(0.0, 0.0)
            self.gear_cmd.publish(GearCommand(command=GearCommand.DRIVE))
            if self.gear == GearReport.DRIVE:
                self.next_phase("drive")
        elif self.phase == "drive":
            self.send(SPEED_MPS, TYRE_ANGLE_RAD)
            if elapsed > DRIVE_S:
                self.next_phase("stop")
        elif self.phase == "stop":
            self.send(0.0, 0.0)
            if abs(self.speed_mps) < 0.05:
                self.next_phase("park")
        elif self.phase == "park":
            self.send(0.0, 0.0)
            self.gear_cmd.publish(GearCommand(command=GearCommand.PARK))
            if self.gear == GearReport.PARK:
                self.next_phase("manual")
        elif self.phase == "manual":
            self.request(ControlModeCommand.Request.MANUAL)
            if self.mode == ControlModeReport.MANUAL:
                self.next_phase("done")
                self.result = 0


def main() -> int:
    """Run the client until it ends; 0 when parked and MANUAL, 1 on a timeout, 130 on Ctrl-C."""
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    rclpy.init(args=sys.argv, signal_handler_options=SignalHandlerOptions.NO)
    node = AutowareDrive()
    try:
        while not stop and rclpy.ok() and node.result is None:
            rclpy.spin_once(node, timeout_sec=0.1)
        if stop and node.mode_client.service_is_ready():   # leave the vehicle to the driver
            node.mode_client.call_async(ControlModeCommand.Request(mode=ControlModeCommand.Request.MANUAL))
            rclpy.spin_once(node, timeout_sec=0.5)
    finally:
        result = node.result
        node.destroy_node()
        rclpy.try_shutdown()
    if stop:
        return 130
    return 1 if result is None else result


if __name__ == "__main__":
    sys.exit(main())
