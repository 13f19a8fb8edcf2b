"""A DDS client that sends command streams at 20 Hz (wall) to a node it started, and keeps its odometry.

Used by the DDS tests of the set-point interfaces (cmd_vel, ackermann). ``start`` waits for
discovery on both sides through the suite's one helper (``helpers.dds.matched``) and then spins the
client in a thread; the tests read what it kept under ``lock``.
"""
from __future__ import annotations

import threading

import numpy as np
import rclpy
from nav_msgs.msg import Odometry
from std_msgs.msg import Bool, Empty

from helpers.dds import BackgroundSpin, matched


class StreamClient:
    """Publishes each message of :attr:`streams` (publisher -> message or None) every 50 ms; keeps
    ``odom`` as (t [s, sim time of the stamps], x [m], y [m], v_x [m/s], yaw rate [rad/s]) and
    ``enabled`` (``/vehicle/dbw_enabled``). ``publisher(type, topic)`` adds a stream. ``odom_topic``: where
    the node's odometry is (remapped); ``dbw_enabled`` False for a node that serves no ds_dbw topics."""

    def __init__(self, name: str, odom_topic: str = "/vehicle/odom", dbw_enabled: bool = True):
        self.node = rclpy.create_node(name)
        self.lock = threading.Lock()
        self.odom: list = []
        self.last_odom = None
        self.enabled = False
        self.streams: dict = {}
        self.subs = [self.node.create_subscription(Odometry, odom_topic, self._on_odom, 50)]
        if dbw_enabled:
            self.subs.append(self.node.create_subscription(Bool, "/vehicle/dbw_enabled",
                                                           lambda m: setattr(self, "enabled", m.data), 2))
        self.pub_enable = self.node.create_publisher(Empty, "/vehicle/enable", 10)
        self.pubs = [self.pub_enable]
        self.clients: list = []   # service clients that must find their server before start returns
        self.node.create_timer(0.05, self._send)
        self.spin: BackgroundSpin | None = None

    def publisher(self, msg_type, topic: str, depth: int = 2):
        """A publisher whose message, once set in :attr:`streams`, goes out every 50 ms."""
        pub = self.node.create_publisher(msg_type, topic, depth)
        self.pubs.append(pub)
        self.streams[pub] = None
        return pub

    def start(self, proc):
        """Matched with the node ``proc`` on every topic and service, then spun in a thread (``matched`` spins
        the node itself, so first)."""
        matched(self.node, proc, publishers=self.pubs, subscriptions=self.subs, clients=self.clients)
        self.spin = BackgroundSpin(self.node)

    def _on_odom(self, m):
        t = m.header.stamp.sec + 1e-9 * m.header.stamp.nanosec
        if t > 1e6:   # a wall-clock stamp: a realtime node of another session sharing the domain
            return
        with self.lock:
            self.last_odom = m
            self.odom.append((t, m.pose.pose.position.x, m.pose.pose.position.y, m.twist.twist.linear.x,
                              m.twist.twist.angular.z))

    def _send(self):
        for pub, msg in list(self.streams.items()):
            if msg is not None:
                pub.publish(msg)

    def now(self) -> float:
        """Sim time of the latest odometry [s] (-1 before the first)."""
        with self.lock:
            return self.odom[-1][0] if self.odom else -1.0

    def track(self, t0: float, t1: float) -> np.ndarray:
        """The odometry rows with ``t0 <= t <= t1``, shape (n, 5)."""
        with self.lock:
            return np.array([o for o in self.odom if t0 <= o[0] <= t1])

    def close(self):
        """Stop the spin thread (joined), then destroy the node."""
        if self.spin is not None:
            self.spin.stop()
        self.node.destroy_node()
