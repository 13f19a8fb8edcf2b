"""Topic tables of the replay: what is read from a bag, what is written, and the topic map.

Names are relative to the DBW namespace (default ``/vehicle``), as in
dbw-interface.md §1.3-1.4 and :mod:`acres_dbw_sim.node`. The command and
report tables are the node's own, from the ROS-free :mod:`acres_dbw_sim.interface`.
"""
from __future__ import annotations

from .. import interface
from ..dbw import commands as core_cmd

__all__ = ["COMMAND_TOPICS", "EVENT_TOPICS", "REFERENCE_TOPICS", "ENGAGEMENT_TOPICS", "REPORT_TOPICS", "IMU_PERIOD_S",
           "DBW_ENABLED_PERIOD_S", "NODE_DEFAULTS", "TopicMap", "TopicMapError", "ds_type"]

#: (relative topic, ds_dbw_msgs type name) of the command topics (§1.3).
COMMAND_TOPICS = tuple((topic, type_name) for topic, type_name, _depth in interface.COMMAND_TOPICS)
#: (relative topic, core event) of the std_msgs/Empty command topics.
EVENT_TOPICS = (("enable", core_cmd.ENABLE), ("disable", core_cmd.DISABLE),
                ("steering/calibrate", core_cmd.STEERING_CALIBRATE))
#: Recorded reports compared with the simulation or giving its state: (relative topic, message type).
REFERENCE_TOPICS = (("steering/report", "ds_dbw_msgs/msg/SteeringReport"),
                    ("wheel_speeds", "ds_dbw_msgs/msg/WheelSpeeds"),
                    ("vehicle_velocity", "ds_dbw_msgs/msg/VehicleVelocity"),
                    ("imu/data_raw", "sensor_msgs/msg/Imu"),
                    ("gear/report", "ds_dbw_msgs/msg/GearReport"),
                    ("brake/report", "ds_dbw_msgs/msg/BrakeReport"),
                    ("throttle/report", "ds_dbw_msgs/msg/ThrottleReport"),
                    ("throttle/info", "ds_dbw_msgs/msg/ThrottleInfo"))
#: Reports that show the engagement, in the order the replay prefers them when the bag has no
#: ``enable`` message: (relative topic, message type, field holding the engaged flag).
ENGAGEMENT_TOPICS = (("dbw_enabled", "std_msgs/msg/Bool", "data"),
                     ("system/report", "ds_dbw_msgs/msg/SystemReport", "enabled"),
                     ("steering/report", "ds_dbw_msgs/msg/SteeringReport", "enabled"),
                     ("brake/report", "ds_dbw_msgs/msg/BrakeReport", "enabled"),
                     ("throttle/report", "ds_dbw_msgs/msg/ThrottleReport", "enabled"))
#: (relative topic, DbwReports attribute, ds_dbw_msgs type name, CAN period [s]): the node's table.
REPORT_TOPICS = interface.REPORT_TOPICS
IMU_PERIOD_S = interface.IMU_PERIOD_S
DBW_ENABLED_PERIOD_S = interface.DBW_ENABLED_PERIOD_S

#: The node's parameters that shape a replay, with the node's defaults
#: (``acres_dbw_sim.node.PARAMETERS``). A bag recorded by the node carries its
#: values (custom_data ``acres_dbw_sim.parameters``); ``--param`` overrides.
NODE_DEFAULTS = {name: interface.PARAMETERS[name][0] for name in (
    "vehicle_config", "overrides", "occupants", "cargo_kg", "step_hz", "report_rates", "initial_x_m",
    "initial_y_m", "initial_yaw_rad", "initial_speed_mps", "initial_gear", "drive_mode", "surface",
    "grade_pct", "bank_pct", "odom_frame", "base_frame", "frame_id", "publish_tf", "model", "vehicle")}


def ds_type(name: str) -> str:
    """``SteeringCmd`` -> ``ds_dbw_msgs/msg/SteeringCmd``."""
    return f"ds_dbw_msgs/msg/{name}"


class TopicMapError(ValueError):
    """A ``--topic-map`` entry is malformed or names no known topic; the message names it."""


class TopicMap:
    """Which bag topic carries which of our topics.

    By default our relative topic ``steering/cmd`` is ``<namespace>/steering/cmd``
    in the bag. ``mapping`` entries ``BAG_TOPIC=OURS`` override single topics
    (``/dbw/cmd/steer=steering/cmd``); OURS may be written with or without the
    namespace.

    Parameters
    ----------
    namespace : str
        Default ``/vehicle``.
    mapping : iterable of str
        ``BAG_TOPIC=OURS`` entries.

    Raises
    ------
    TopicMapError
        For an entry without ``=`` or naming a topic that is neither a command,
        a reference nor an engagement topic.
    """

    def __init__(self, namespace: str = "/vehicle", mapping: tuple | list = ()) -> None:
        ns = "/" + namespace.strip("/") if namespace.strip("/") else ""
        self.namespace = ns
        known = [t for t, _ in COMMAND_TOPICS] + [t for t, _ in EVENT_TOPICS] + [t for t, _ in REFERENCE_TOPICS]
        known += [t for t, _typ, _f in ENGAGEMENT_TOPICS if t not in known]
        self.known = tuple(known)
        self._to_ours: dict = {f"{ns}/{t}": t for t in known}
        for entry in mapping:
            if "=" not in entry:
                raise TopicMapError(f"--topic-map {entry!r}: expected BAG_TOPIC=OUR_TOPIC")
            bag, ours = (s.strip() for s in entry.split("=", 1))
            rel = ours[len(ns) + 1:] if ns and ours.startswith(ns + "/") else ours.lstrip("/")
            if rel not in known:
                raise TopicMapError(f"--topic-map {entry!r}: {ours!r} is not one of our topics; known: "
                                    f"{', '.join(known)}")
            if not bag.startswith("/"):
                bag = "/" + bag
            for k in [k for k, v in self._to_ours.items() if v == rel]:
                del self._to_ours[k]
            self._to_ours[bag] = rel

    def ours(self, bag_topic: str) -> str | None:
        """Our relative topic for ``bag_topic``, or None."""
        return self._to_ours.get(bag_topic)

    def bag_topic(self, ours: str) -> str:
        """The bag topic read for our relative topic ``ours``."""
        for k, v in self._to_ours.items():
            if v == ours:
                return k
        return f"{self.namespace}/{ours}"

    def output_topic(self, ours: str) -> str:
        """Absolute name of one of our output topics (``/tf`` stays absolute)."""
        return ours if ours.startswith("/") else f"{self.namespace}/{ours}"
