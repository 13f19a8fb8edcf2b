"""A separate, slow DDS subscriber for the lockstep delivery test.

``count_peer.py NS EXPECTED``: subscribes (reliable, KEEP_ALL) to ``NS/wheel_positions``,
``NS/odom`` and ``/tf``, sleeps 1 ms in every callback (a slow client), prints ``matched`` once
every subscription sees a publisher, and exits when each topic has ``EXPECTED`` messages stamped
after 0 or when nothing arrived for 10 s, printing ``counts {"topic": n, ...}`` (distinct stamps).
"""
import json
import sys
import time

import rclpy
from ds_dbw_msgs.msg import WheelPositions
from nav_msgs.msg import Odometry
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from tf2_msgs.msg import TFMessage


def main() -> None:
    ns, expected = sys.argv[1], int(sys.argv[2])
    rclpy.init()
    node = rclpy.create_node("count_peer")
    qos = QoSProfile(history=HistoryPolicy.KEEP_ALL, reliability=ReliabilityPolicy.RELIABLE)
    stamps = {"wheel_positions": set(), "odom": set(), "tf": set()}
    last = [time.monotonic()]

    def take(name, stamp_of):
        def callback(msg):
            st = stamp_of(msg)
            ns_ = st.sec * 1_000_000_000 + st.nanosec
            if ns_ > 0:
                stamps[name].add(ns_)
            last[0] = time.monotonic()
            time.sleep(0.001)   # a slow client
        return callback

    subs = [node.create_subscription(WheelPositions, f"{ns}/wheel_positions",
                                     take("wheel_positions", lambda m: m.header.stamp), qos),
            node.create_subscription(Odometry, f"{ns}/odom", take("odom", lambda m: m.header.stamp), qos),
            node.create_subscription(TFMessage, "/tf", take("tf", lambda m: m.transforms[0].header.stamp), qos)]
    announced = False
    try:
        while rclpy.ok():
            rclpy.spin_once(node, timeout_sec=0.05)
            if not announced and all(s.get_publisher_count() > 0 for s in subs):
                print("matched", flush=True)
                announced = True
            if all(len(v) >= expected for v in stamps.values()) or time.monotonic() - last[0] > 10.0:
                break
    finally:
        print("counts " + json.dumps({k: len(v) for k, v in stamps.items()}), flush=True)
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    main()
