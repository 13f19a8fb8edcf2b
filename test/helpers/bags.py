"""Checks of recorded bags shared by the bag tests (offline and over DDS)."""
from __future__ import annotations

from rosbags.rosbag2 import Reader

from acres_dbw_sim.replay import scan_bag
from msg_adapters import bag as B

STORE = B.typestore()


def assert_rosbags_reads_every_topic(bag) -> dict:
    """Every message of every topic of ``bag`` deserialises with rosbags (its reader, its deserializer);
    returns ``{topic: messages}``."""
    counts: dict = {}
    with Reader(bag) as r:
        for conn, _t, data in r.messages():
            STORE.deserialize_cdr(data, conn.msgtype)   # raises on any byte it cannot account for
            counts[conn.topic] = counts.get(conn.topic, 0) + 1
        assert counts == {c.topic: c.msgcount for c in r.connections if c.msgcount}
    return counts


def _series(path, topic, typename, fields):
    out = {}
    for t, _c, d in scan_bag(path, lambda x: x == topic).records:
        m = STORE.deserialize_cdr(d, typename)
        out[t] = tuple(_get(m, f) for f in fields)
    return out


def _get(msg, dotted):
    for part in dotted.split("."):
        msg = getattr(msg, part)
    return msg


def assert_same_outputs(recorded, replayed, exact=True):
    """Every recorded vehicle_velocity / odom message has a replayed one at the same stamp with the same values."""
    worst = 0.0
    for topic, tn, fields in (
            ("/vehicle/vehicle_velocity", "ds_dbw_msgs/msg/VehicleVelocity",
             ("header.stamp.sec", "header.stamp.nanosec", "vehicle_velocity_propulsion")),
            ("/vehicle/odom", "nav_msgs/msg/Odometry",
             ("header.stamp.sec", "header.stamp.nanosec", "twist.twist.linear.x", "twist.twist.angular.z",
              "pose.pose.position.x", "pose.pose.position.y", "pose.pose.orientation.z"))):
        a, b = _series(recorded, topic, tn, fields), _series(replayed, topic, tn, fields)
        common = sorted(set(a) & set(b))
        assert len(common) >= 0.95 * len(a) > 0, (topic, len(a), len(b), len(common))
        for t in common:
            if exact:
                assert a[t] == b[t], (topic, t, a[t], b[t])
            else:
                worst = max(worst, max(abs(x - y) for x, y in zip(a[t][2:], b[t][2:])))
    return worst
