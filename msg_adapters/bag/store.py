"""The type store of the bags: rosbags' standard interfaces plus ours, QoS records, stamps (no ROS).

``rosbags`` (pure Python) reads and writes rosbag2 directories without a ROS installation. Its
type store knows the standard interfaces of a ROS 2 distribution; :func:`typestore` adds ours,
parsed from the ``.msg`` files under ``msg_adapters/interfaces/`` (ds_dbw_msgs 2.3.11 and
tf2_msgs), so that their definitions and RIHS01 type hashes in a bag equal those the ROS build
generates from the same files. Timestamps in a bag are integers in nanoseconds (:func:`stamp_ns`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rosbags.interfaces import (Nodetype, Qos, QosDurability, QosHistory, QosLiveliness,
                                QosReliability, QosTime)
from rosbags.rosbag2 import StoragePlugin
from rosbags.typesys import Stores, get_types_from_msg, get_typestore



#: Root of the interface packages whose ``msg/*.msg`` files are registered.
INTERFACES_DIR = Path(__file__).resolve().parents[1] / "interfaces"
#: Packages registered from ``INTERFACES_DIR``.
INTERFACE_PACKAGES = ("ds_dbw_msgs", "tf2_msgs", "ackermann_msgs", "autoware_control_msgs", "autoware_vehicle_msgs",
                      "tier4_vehicle_msgs")
#: The rosbags store of standard interfaces: the distribution the venv's ROS wheels are (Kilted;
#: its std/geometry/sensor/nav msgs equal Jazzy's).
DISTRO_STORE = Stores.ROS2_KILTED
#: Storage names accepted by :class:`BagWriter`.
STORAGES = {"mcap": StoragePlugin.MCAP, "sqlite3": StoragePlugin.SQLITE3}
#: rosbag2 metadata version written (Jazzy and later read it).
BAG_VERSION = 9
#: Prefix of our keys in a bag's ``custom_data``.
CUSTOM_PREFIX = "acres_dbw_sim."
#: Field default values of the standard ``.msg`` files we write (rosbags' store drops them; rclpy has them).
MSG_DEFAULTS = {"geometry_msgs/msg/Quaternion": {"w": 1.0}}
#: numpy dtype of a primitive array field, as rosbags' deserializer returns it (bool arrays are lists).
ARRAY_DTYPES = {
    "byte": "uint8", "char": "uint8", "octet": "uint8", "int8": "int8", "uint8": "uint8", "int16": "int16",
    "uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
    "float32": "float32", "float64": "float64",
}


class BagError(ValueError):
    """A bag cannot be written or a type cannot be encoded; the message names the path, topic or type."""


def stamp_ns(t_s: float) -> int:
    """Time [s] -> integer nanoseconds, rounded as the node rounds header stamps."""
    return int(round(t_s * 1e9))


# ---------------------------------------------------------------------------------- type store


def register_interfaces(store: Any, root: Path = INTERFACES_DIR,
                        packages: Sequence[str] = INTERFACE_PACKAGES) -> list[str]:
    """Parse ``root/<package>/msg/*.msg`` and register the types with ``store``.

    Parameters
    ----------
    store : rosbags.typesys.store.Typestore
    root : Path
        Directory holding the interface packages.
    packages : sequence of str
        Package names to register.

    Returns
    -------
    list of str
        The type names registered (``ds_dbw_msgs/msg/SteeringCmd`` ...).

    Raises
    ------
    BagError
        If a package has no ``msg`` directory or a definition cannot be parsed
        or conflicts with one the store already holds (the message names the file).
    """
    types: dict = {}
    for pkg in packages:
        msg_dir = root / pkg / "msg"
        files = sorted(msg_dir.glob("*.msg"))
        if not files:
            raise BagError(f"{msg_dir}: no .msg files")
        for f in files:
            try:
                types.update(get_types_from_msg(f.read_text(encoding="utf-8"), f"{pkg}/msg/{f.stem}"))
            except Exception as err:  # rosbags raises its own parser errors
                raise BagError(f"{f}: cannot parse: {err}") from err
    try:
        store.register(types)
    except Exception as err:
        raise BagError(f"registering {root}: {err}") from err
    return sorted(types)


@functools.lru_cache(maxsize=1)
def typestore() -> Any:
    """The rosbags type store: ROS 2 Kilted's standard types plus ds_dbw_msgs and tf2_msgs
    from ``msg_adapters/interfaces`` (built on the first call, then shared)."""
    store = get_typestore(DISTRO_STORE)
    register_interfaces(store)
    return store


def default_message(typename: str, store: Any = None) -> Any:
    """A rosbags message of ``typename`` as rclpy constructs it by default: every field zero, false,
    empty or default-sized, except the default values of the ``.msg`` files, which rosbags' type store
    does not keep (:data:`MSG_DEFAULTS`: ``geometry_msgs/Quaternion.w`` = 1).

    Raises
    ------
    BagError
        If the store does not know ``typename``.
    """
    store = store or typestore()
    if typename not in store.fielddefs:
        raise BagError(f"unknown message type {typename!r}")
    cls = store.types[typename]
    _consts, fields = store.fielddefs[typename]
    values = {name: _default_value(store, nt, desc) for name, (nt, desc) in fields}
    values.update(MSG_DEFAULTS.get(typename, {}))
    return cls(**values)


def _default_value(store: Any, nt: int, desc: Any) -> Any:
    import numpy as np
    if nt == Nodetype.NAME:
        return default_message(desc, store)
    if nt == Nodetype.BASE:
        base = desc[0]
        return "" if base == "string" else False if base == "bool" else 0.0 if base.startswith("float") else 0
    sub, n = desc
    if sub[0] == Nodetype.BASE and sub[1][0] in ARRAY_DTYPES:
        return np.zeros(n if nt == Nodetype.ARRAY else 0, dtype=ARRAY_DTYPES[sub[1][0]])
    count = n if nt == Nodetype.ARRAY else 0
    return [_default_value(store, sub[0], sub[1]) for _ in range(count)]


def msgtype_name(msg_class: type) -> str:
    """``pkg/msg/Name`` of a generated rclpy message class (``ds_dbw_msgs.msg.SteeringCmd``)."""
    pkg = msg_class.__module__.split(".")[0]
    return f"{pkg}/msg/{msg_class.__name__}"


def qos_to_rosbags(qos: Any) -> Qos:
    """rclpy ``QoSProfile`` -> the rosbags ``Qos`` stored as a topic's offered QoS (same enum values)."""
    def t(d: Any) -> QosTime:
        ns = int(getattr(d, "nanoseconds", 0))
        return QosTime(sec=ns // 1_000_000_000, nsec=ns % 1_000_000_000)

    return Qos(history=QosHistory(int(qos.history)), depth=int(qos.depth),
               reliability=QosReliability(int(qos.reliability)), durability=QosDurability(int(qos.durability)),
               deadline=t(qos.deadline), lifespan=t(qos.lifespan), liveliness=QosLiveliness(int(qos.liveliness)),
               liveliness_lease_duration=t(qos.liveliness_lease_duration),
               avoid_ros_namespace_conventions=bool(qos.avoid_ros_namespace_conventions))


def reliable_qos(depth: int, transient_local: bool = False) -> Qos:
    """KEEP_LAST(depth), RELIABLE, VOLATILE (or TRANSIENT_LOCAL): the node's QoS, for bags written offline."""
    zero = QosTime(sec=0, nsec=0)
    return Qos(history=QosHistory.KEEP_LAST, depth=depth, reliability=QosReliability.RELIABLE,
               durability=QosDurability.TRANSIENT_LOCAL if transient_local else QosDurability.VOLATILE,
               deadline=zero, lifespan=zero, liveliness=QosLiveliness.SYSTEM_DEFAULT,
               liveliness_lease_duration=zero, avoid_ros_namespace_conventions=False)
