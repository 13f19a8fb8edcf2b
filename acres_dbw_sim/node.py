"""The rclpy node: wiring only (issue 6 replaces this bootstrap node).

Comes up as ``/vehicle/dbw_node`` and publishes ``dbw_enabled`` (std_msgs/Bool,
KEEP_LAST 2, RELIABLE, VOLATILE, every 50 ms) like Dataspeed's DBW2 node
(dbw-interface.md §1.4).
"""

from __future__ import annotations

import sys

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from std_msgs.msg import Bool

DBW_ENABLED_PERIOD_S = 0.05


class SimNode(Node):
    """Bootstrap simulator node: namespace ``vehicle``, name ``dbw_node``."""

    def __init__(self) -> None:
        super().__init__("dbw_node", namespace="vehicle")
        self._enabled = False
        self._pub_enabled = self.create_publisher(Bool, "dbw_enabled", 2)
        self.create_timer(DBW_ENABLED_PERIOD_S, self._publish_enabled)

    def _publish_enabled(self) -> None:
        self._pub_enabled.publish(Bool(data=self._enabled))


def main(argv: list[str] | None = None) -> int:
    """Console entry ``sim_node``: spin the node until SIGINT/SIGTERM."""
    rclpy.init(args=argv if argv is not None else sys.argv)
    node = SimNode()
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
