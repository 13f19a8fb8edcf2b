"""A separate DDS participant for the interface round-trip test.

Subscribes to ``echo_in/steering`` (ds_dbw_msgs/SteeringCmd) and ``echo_in/tf``
(tf2_msgs/TFMessage) and publishes every message it receives, unchanged, on
``echo_out/steering`` and ``echo_out/tf``.
"""

import rclpy
from ds_dbw_msgs.msg import SteeringCmd
from rclpy.executors import ExternalShutdownException
from tf2_msgs.msg import TFMessage


def main() -> None:
    rclpy.init()
    node = rclpy.create_node("echo_peer")
    outputs = {
        SteeringCmd: node.create_publisher(SteeringCmd, "echo_out/steering", 10),
        TFMessage: node.create_publisher(TFMessage, "echo_out/tf", 10),
    }
    node.create_subscription(SteeringCmd, "echo_in/steering", outputs[SteeringCmd].publish, 10)
    node.create_subscription(TFMessage, "echo_in/tf", outputs[TFMessage].publish, 10)
    print("echo_peer ready", flush=True)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    main()
