"""rosbag2 files through ``rosbags``: our message definitions, message objects, writing, recording.

``rosbags`` (pure Python) reads and writes rosbag2 directories (MCAP and
sqlite3 storage) without a ROS installation. Its type store knows the standard
interfaces of a ROS 2 distribution; :func:`typestore` adds ours, parsed from
the ``.msg`` files under ``msg_adapters/interfaces/`` (ds_dbw_msgs 2.3.11 and
tf2_msgs), so their definitions and RIHS01 type hashes in a bag are the same
as those the ROS build generates from the same files.

No CDR and no MCAP are written here: messages are serialized by rosbags'
serializer (``Typestore.serialize_cdr``) or, in the recorder, by the rmw's
(``rclpy.serialization.serialize_message``), and written with rosbags'
public ``Writer`` API (``add_connection``, ``write``).

Pieces:

* :func:`typestore`: the Kilted type store plus our interfaces (built once).
* Message objects: :class:`ReportFiller` and :class:`CommandFiller` (core
  dataclass -> rosbags ds_dbw_msgs message, by field name), :class:`ImuFiller`,
  :class:`OdometryFiller`, :class:`TfFiller` (the node's ``imu/data_raw``,
  ``odom``, ``/tf``); each keeps one message and overwrites it.
  :class:`CommandDecoder` goes the other way (bag message -> core command).
* :class:`BagWriter`: a rosbag2 directory (MCAP by default, sqlite3 on request)
  taking rosbags messages or serialized CDR; thread-safe; custom metadata.
* :class:`ProcessBagWriter`: the same bag written by a child process
  (:func:`serve_writer_process`), so that the recording node's thread only
  hands it bytes.
* :class:`NodeBagRecorder`: records everything an rclpy node publishes and
  every message its subscriptions receive, stamped with the simulation time,
  through a :class:`ProcessBagWriter`.

Timestamps in a bag are integers in nanoseconds (the log time of rosbag2).
Frames and signs are those of the messages recorded (see
:mod:`msg_adapters.vehicle_state`). ``rclpy`` is imported only by
:class:`NodeBagRecorder`: everything else here works without ROS.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import json
import math
import operator
import struct
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rosbags.interfaces import (Nodetype, Qos, QosDurability, QosHistory, QosLiveliness,
                                QosReliability, QosTime)
from rosbags.rosbag2 import StoragePlugin, Writer, WriterError
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

__all__ = ["BagError", "typestore", "register_interfaces", "default_message", "msgtype_name",
           "qos_to_rosbags", "reliable_qos", "ReportFiller", "CommandFiller", "CommandDecoder", "ImuFiller",
           "OdometryFiller", "TfFiller", "BagWriter", "ProcessBagWriter", "serve_writer_process",
           "NodeBagRecorder", "INTERFACES_DIR", "DISTRO_STORE",
           "rmw_bytes_unreadable", "to_rosbags",
           "STORAGES", "CUSTOM_PREFIX", "stamp_ns"]

#: Root of the interface packages whose ``msg/*.msg`` files are registered.
INTERFACES_DIR = Path(__file__).resolve().parent / "interfaces"
#: Packages registered from ``INTERFACES_DIR``.
INTERFACE_PACKAGES = ("ds_dbw_msgs", "tf2_msgs")
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
# numpy dtype of a primitive array field, as rosbags' deserializer returns it (bool arrays are lists)
_ARRAY_DTYPES = {
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
    if sub[0] == Nodetype.BASE and sub[1][0] in _ARRAY_DTYPES:
        return np.zeros(n if nt == Nodetype.ARRAY else 0, dtype=_ARRAY_DTYPES[sub[1][0]])
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


# ---------------------------------------------------------------------------------- message objects


def _getter(names: Sequence[str]) -> Callable[[Any], tuple]:
    """``obj -> tuple of its attributes named``, also for one name or none."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return operator.attrgetter(*names)


def _with_frame(store: Any, typename: str, frame_id: str = "") -> Any:
    msg = default_message(typename, store)
    if hasattr(msg, "header"):
        msg.header.frame_id = frame_id
    return msg


def _field_kinds(store: Any, typename: str) -> dict:
    """``{field: kind}`` of a ds_dbw_msgs message, header excluded: 0 primitive or string,
    1 nested one-byte ds_dbw_msgs type (``Gear gear``), 2 ``builtin_interfaces/Time``."""
    _c, fields = store.fielddefs[typename]
    kinds = {}
    for name, (nt, desc) in fields:
        if name == "header":
            continue
        if nt == Nodetype.NAME and desc.startswith("ds_dbw_msgs/"):
            kinds[name] = 1
        elif nt == Nodetype.NAME and desc == "builtin_interfaces/msg/Time":
            kinds[name] = 2
        elif nt == Nodetype.BASE:
            kinds[name] = 0
        else:
            raise BagError(f"{typename}: field {name} is neither a primitive, a string, a one-byte "
                           "ds_dbw_msgs type nor a time")
    return kinds


class _ByName:
    """Core dataclass -> one reused rosbags message of the same field names (the rosbags twin of
    :class:`msg_adapters.ds_dbw.ReportFiller`): primitives copied, nested one-byte types from
    plain ``int``, ``builtin_interfaces/Time`` from seconds."""

    def __init__(self, typename: str, names: Sequence[str], kinds: dict, frame_id: str, store: Any) -> None:
        self.typename = typename
        self.msg = msg = _with_frame(store, typename, frame_id)
        self._stamp = msg.header.stamp if hasattr(msg, "header") else None
        self._prim = tuple(n for n in names if kinds[n] == 0)
        self._get_prim = _getter(self._prim)
        # rosbags messages are plain dataclasses: primitives go into the instance dict in one update
        self._attrs = vars(msg) if hasattr(msg, "__dict__") else None
        nested = [n for n in names if kinds[n] == 1]
        self._nested = tuple(zip((getattr(msg, n) for n in nested), nested))
        self._times = tuple(n for n in names if kinds[n] == 2)

    def _fill(self, obj: Any, sec: int, nanosec: int) -> Any:
        msg = self.msg
        stamp = self._stamp
        if stamp is not None:
            stamp.sec = sec
            stamp.nanosec = nanosec
        if self._attrs is not None:
            self._attrs.update(zip(self._prim, self._get_prim(obj)))
        else:
            for name, value in zip(self._prim, self._get_prim(obj)):
                setattr(msg, name, value)
        for sub, name in self._nested:
            sub.value = int(getattr(obj, name))
        for name in self._times:
            value = float(getattr(obj, name))
            ns = stamp_ns(value) if math.isfinite(value) else 0
            t = getattr(msg, name)
            t.sec, t.nanosec = ns // 1_000_000_000, ns % 1_000_000_000
        return msg


class ReportFiller(_ByName):
    """Core report dataclass (``acres_dbw_sim.dbw.reports``) -> rosbags ds_dbw_msgs report, by field name.

    The same mapping as :class:`msg_adapters.ds_dbw.ReportFiller` (field names
    equal; nested one-byte types from plain ``int``; ``builtin_interfaces/Time``
    from seconds), onto one rosbags message that every call overwrites and
    returns: serialize it (:meth:`BagWriter.write_message`) before the next call.

    Parameters
    ----------
    typename : str
        ``ds_dbw_msgs/msg/<Report>``.
    report : object
        An instance of the matching core dataclass (for the field plan).
    frame_id : str
        ``header.frame_id`` (the node leaves it empty).

    Raises
    ------
    BagError
        If the message has a field the core report lacks (a wiring error).
    """

    def __init__(self, typename: str, report: Any, frame_id: str = "", store: Any = None) -> None:
        store = store or typestore()
        kinds = _field_kinds(store, typename)
        core = {f.name for f in dataclasses.fields(report)}
        missing = [n for n in kinds if n not in core]
        if missing:
            raise BagError(f"{typename}: core report {type(report).__name__} lacks {missing}")
        super().__init__(typename, list(kinds), kinds, frame_id, store)

    def __call__(self, report: Any, sec: int, nanosec: int) -> Any:
        """The message holding ``report``, stamped ``sec``/``nanosec``."""
        return self._fill(report, sec, nanosec)


class CommandFiller(_ByName):
    """Core command dataclass (``acres_dbw_sim.dbw.commands``) -> rosbags ds_dbw_msgs command (reused).

    Parameters
    ----------
    typename : str
        ``ds_dbw_msgs/msg/<Cmd>``; the core class is the one of the same name.

    Raises
    ------
    BagError
        If there is no core command of that name or the message lacks one of its fields.
    """

    def __init__(self, typename: str, store: Any = None) -> None:
        from acres_dbw_sim.dbw import commands as core_cmd
        store = store or typestore()
        core = getattr(core_cmd, typename.rsplit("/", 1)[1], None)
        if core is None or not dataclasses.is_dataclass(core):
            raise BagError(f"no core command for {typename}")
        kinds = _field_kinds(store, typename)
        names = [f.name for f in dataclasses.fields(core)]
        missing = [n for n in names if n not in kinds]
        if missing:
            raise BagError(f"{typename} lacks fields {missing} of the core command")
        self.core_type = core
        super().__init__(typename, names, kinds, "", store)

    def __call__(self, cmd: Any, t_ns: int = 0) -> Any:
        """The message holding ``cmd`` with ``header.stamp`` = ``t_ns`` [ns]."""
        return self._fill(cmd, t_ns // 1_000_000_000, t_ns % 1_000_000_000)


class CommandDecoder:
    """Deserialized bag message (rosbags object) -> core command dataclass, by field name.

    The rosbags twin of :class:`msg_adapters.ds_dbw.CommandConverter`: header
    dropped, nested one-byte types to ``int``. A field the message lacks (a
    bag written with another ds_dbw_msgs version) keeps the core default.

    Parameters
    ----------
    core_type : type
        A command dataclass of ``acres_dbw_sim.dbw.commands``.
    """

    def __init__(self, core_type: type) -> None:
        self.core_type = core_type
        self._names = tuple(f.name for f in dataclasses.fields(core_type))

    def __call__(self, msg: Any) -> Any:
        values = {}
        for name in self._names:
            v = getattr(msg, name, None)
            if v is None:
                continue
            values[name] = v.value if hasattr(v, "value") else v.item() if hasattr(v, "item") else v
        return self.core_type(**values)


class ImuFiller:
    """``sensor_msgs/Imu`` as the node's ``imu/data_raw`` (:class:`msg_adapters.vehicle_state.ImuBuilder`):
    no orientation (covariance[0] = -1); one rosbags message, overwritten by each call.

    ``fill(sec, nanosec, imu)`` with ``imu`` the core ``ImuData`` (specific
    force [m/s²], angular rate [rad/s], IMU frame ``frame_id``).
    """

    typename = "sensor_msgs/msg/Imu"

    def __init__(self, frame_id: str, store: Any = None) -> None:
        self.msg = m = _with_frame(store or typestore(), self.typename, frame_id)
        m.orientation_covariance[0] = -1.0
        self._stamp, self._w, self._a = m.header.stamp, m.angular_velocity, m.linear_acceleration

    def __call__(self, sec: int, nanosec: int, imu: Any) -> Any:
        st, w, a = self._stamp, self._w, self._a
        st.sec, st.nanosec = sec, nanosec
        w.x, w.y, w.z = imu.angular_velocity_x, imu.angular_velocity_y, imu.angular_velocity_z
        a.x, a.y, a.z = imu.linear_acceleration_x, imu.linear_acceleration_y, imu.linear_acceleration_z
        return self.msg


class OdometryFiller:
    """``nav_msgs/Odometry`` as the node's ``odom`` (:class:`msg_adapters.vehicle_state.OdometryBuilder`).

    ``fill(sec, nanosec, vehicle)`` reads the model's ``position_m`` [m, odom],
    ``orientation_wxyz``, ``velocity_body_mps`` [m/s] and
    ``angular_velocity_body_rad_s`` [rad/s] (body frame).
    """

    typename = "nav_msgs/msg/Odometry"

    def __init__(self, odom_frame: str, base_frame: str, store: Any = None) -> None:
        from .vehicle_state import _POSE_VAR, _TWIST_VAR, _diag6
        self.msg = m = _with_frame(store or typestore(), self.typename, odom_frame)
        m.child_frame_id = base_frame
        m.pose.covariance[:] = _diag6(_POSE_VAR)
        m.twist.covariance[:] = _diag6(_TWIST_VAR)
        self._parts = (m.header.stamp, m.pose.pose.position, m.pose.pose.orientation, m.twist.twist.linear,
                       m.twist.twist.angular)

    def __call__(self, sec: int, nanosec: int, v: Any) -> Any:
        st, p, q, lin, ang = self._parts
        st.sec, st.nanosec = sec, nanosec
        p.x, p.y, p.z = v.position_m
        q.w, q.x, q.y, q.z = v.orientation_wxyz
        lin.x, lin.y, lin.z = v.velocity_body_mps
        ang.x, ang.y, ang.z = v.angular_velocity_body_rad_s
        return self.msg


class TfFiller:
    """``tf2_msgs/TFMessage`` with the one transform ``odom -> base_footprint`` (the node's ``/tf``).

    ``fill(sec, nanosec, vehicle)``: position [m] and orientation of the model in odom.
    """

    typename = "tf2_msgs/msg/TFMessage"

    def __init__(self, odom_frame: str, base_frame: str, store: Any = None) -> None:
        store = store or typestore()
        self.msg = default_message(self.typename, store)
        ts = _with_frame(store, "geometry_msgs/msg/TransformStamped", odom_frame)
        ts.child_frame_id = base_frame
        self.msg.transforms = [ts]
        self._parts = (ts.header.stamp, ts.transform.translation, ts.transform.rotation)

    def __call__(self, sec: int, nanosec: int, v: Any) -> Any:
        st, tr, q = self._parts
        st.sec, st.nanosec = sec, nanosec
        tr.x, tr.y, tr.z = v.position_m
        q.w, q.x, q.y, q.z = v.orientation_wxyz
        return self.msg


# ---------------------------------------------------------------------------------- writing


class BagWriter:
    """A new rosbag2 directory taking rosbags messages or serialized (CDR) ones; thread-safe.

    A thin layer over rosbags' public ``Writer`` API: :meth:`add_topic` is
    ``Writer.add_connection`` (with our type store, so the definition and
    RIHS01 hash are stored), :meth:`write` is ``Writer.write``, and
    :meth:`write_message` serializes with ``Typestore.serialize_cdr`` first.

    Parameters
    ----------
    path : str or Path
        The bag directory to create (it must not exist, as with ``ros2 bag record``).
    storage : {'mcap', 'sqlite3'}
        Storage plugin (default MCAP, rosbag2's default since Iron).
    custom_data : dict, optional
        ``{key: str}`` stored in ``metadata.yaml`` (``custom_data``).

    Raises
    ------
    BagError
        If ``path`` exists, cannot be created, or ``storage`` is unknown.

    Notes
    -----
    ``metadata.yaml`` and the MCAP summary are written by :meth:`close`; a
    process killed before leaves a storage file without them, which
    :mod:`acres_dbw_sim.replay` still reads up to its last complete chunk.
    """

    def __init__(self, path: str | Path, storage: str = "mcap", custom_data: dict | None = None) -> None:
        if storage not in STORAGES:
            raise BagError(f"storage {storage!r}: must be one of {sorted(STORAGES)}")
        self.path = Path(path)
        self.storage = storage
        if self.path.exists():
            raise BagError(f"{self.path}: exists already; a bag is only ever written to a new directory")
        try:
            self._w = Writer(self.path, version=BAG_VERSION, storage_plugin=STORAGES[storage])
            for k, v in (custom_data or {}).items():
                self._w.set_custom_data(k, str(v))
            self._w.open()
        except (WriterError, OSError) as err:
            raise BagError(f"{self.path}: cannot create the bag: {err}") from err
        self._store = typestore()
        self._serialize = self._store.serialize_cdr
        self._conns: list = []      # topic id -> rosbags Connection
        self._types: list = []      # topic id -> message type name
        self._by_key: dict = {}
        self._lock = threading.Lock()
        self._closed = False
        self.message_count = 0

    def add_topic(self, topic: str, msgtype: str, qos: Qos | Iterable[Qos] | None = None) -> int:
        """Declare ``topic`` of ``msgtype`` (``pkg/msg/Name``); returns its id for :meth:`write`.

        Raises
        ------
        BagError
            If the type store does not know ``msgtype``.
        """
        key = (topic, msgtype)
        with self._lock:
            if key in self._by_key:
                return self._by_key[key]
            if msgtype not in self._store.fielddefs:
                raise BagError(f"{topic}: unknown message type {msgtype!r}")
            qos_list = [] if qos is None else [qos] if isinstance(qos, Qos) else list(qos)
            conn = self._w.add_connection(topic, msgtype, typestore=self._store, offered_qos_profiles=qos_list)
            self._conns.append(conn)
            self._types.append(msgtype)
            self._by_key[key] = len(self._conns) - 1
            return len(self._conns) - 1

    def write(self, topic_id: int, t_ns: int, data: bytes | memoryview) -> None:
        """Append one serialized message at log time ``t_ns`` [ns]; ignored once closed."""
        with self._lock:
            if self._closed:
                return
            self._w.write(self._conns[topic_id], t_ns, data)
            self.message_count += 1

    def write_message(self, topic_id: int, t_ns: int, msg: Any) -> None:
        """Serialize a rosbags message of the topic's type (``Typestore.serialize_cdr``) and append it."""
        data = self._serialize(msg, self._types[topic_id])
        with self._lock:
            if self._closed:
                return
            self._w.write(self._conns[topic_id], t_ns, data)
            self.message_count += 1

    def set_custom_data(self, key: str, value: str) -> None:
        """Set a ``custom_data`` entry (before :meth:`close`)."""
        with self._lock:
            if not self._closed:
                self._w.set_custom_data(key, str(value))

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run (later writes are ignored)."""
        return self._closed

    def close(self) -> None:
        """Write the storage summary and ``metadata.yaml``; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._w.close()

    def __enter__(self) -> "BagWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()   # what was written before an error is kept, readable


# ---------------------------------------------------------------------------------- a writer process

# The frames from ProcessBagWriter to its process: kind (1 byte), payload length (uint32), payload.
_FRAME = struct.Struct("<cI")
# One message inside a b"M" frame: topic id, log time [ns], length, then the serialized bytes.
_RECORD = struct.Struct("<HqI")
_PIPE_BYTES = 1 << 20      # asked of the kernel for the pipe (Linux F_SETPIPE_SZ; else its default)
_FLUSH_BYTES = 1 << 16     # messages held before they are sent without waiting for flush()


def _read_exact(stream: Any, n: int) -> bytes | None:
    """``n`` bytes from a binary stream, None at its end."""
    out = bytearray()
    while len(out) < n:
        chunk = stream.read(n - len(out))
        if not chunk:
            return None
        out += chunk
    return bytes(out)


def serve_writer_process(stdin: Any = None, stdout: Any = None) -> int:
    """The body of :class:`ProcessBagWriter`'s process: read frames from ``stdin``
    (binary; default the process's), write them into a :class:`BagWriter`, close the
    bag at the end of the input (the recorder closed it, or its process ended).

    The first frame opens the bag; ``ok`` or ``error <reason>`` goes back on
    ``stdout`` as one line. SIGINT and SIGTERM are ignored: the bag is closed when
    its writer says so, never in the middle of a chunk. Returns the exit status
    (0, or 1 when the bag could not be opened or a frame could not be written).
    """
    import pickle
    import signal
    import sys
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    head = _read_exact(stdin, _FRAME.size)
    if head is None:
        return 1
    _kind, size = _FRAME.unpack(head)
    try:
        path, storage, custom = pickle.loads(_read_exact(stdin, size) or b"")
        writer = BagWriter(path, storage, custom)
    except Exception as err:   # BagError, or a frame that is not what the writer sends
        stdout.write(f"error {err}\n".encode())
        stdout.flush()
        return 1
    stdout.write(b"ok\n")
    stdout.flush()
    status = 0
    try:
        while (head := _read_exact(stdin, _FRAME.size)) is not None:
            kind, size = _FRAME.unpack(head)
            payload = _read_exact(stdin, size)
            if payload is None:
                break
            if kind == b"M":
                write, offset, view = writer.write, 0, memoryview(payload)
                while offset < size:
                    cid, t_ns, n = _RECORD.unpack_from(payload, offset)
                    offset += _RECORD.size
                    write(cid, t_ns, view[offset:offset + n])
                    offset += n
            elif kind == b"T":
                writer.add_topic(*pickle.loads(payload))
            elif kind == b"D":
                writer.set_custom_data(*pickle.loads(payload))
    except Exception as err:   # a failing disk: say so, keep what was written
        print(f"bag writer process: {writer.path}: {err}", file=sys.stderr, flush=True)
        status = 1
    finally:
        writer.close()
    return status


WRITER_NICE = 10
"""Niceness of :class:`ProcessBagWriter`'s process: the bag's chunks and compression are background
work, and the node's tick (its stamps) and the node's subscribers come first on a busy machine."""


class ProcessBagWriter:
    """A :class:`BagWriter` in a child process (niceness :data:`WRITER_NICE`): the recording node's
    thread only hands it bytes (issue 14).

    ``add_topic``, ``write``, ``set_custom_data`` and ``close`` as :class:`BagWriter`
    (the same bag, message for message and in the same order); the messages are
    collected and sent through a pipe in one write per :meth:`flush` (the node calls
    it once per tick) or when 64 KiB are held, and the child process
    (:func:`serve_writer_process`) does rosbags' ``Writer.write`` and the MCAP chunks
    on the machine's other core. The process has its own session, so a Ctrl-C in a
    terminal reaches only the node, which closes the bag; it ends when the pipe
    closes: by :meth:`close`, which waits for the bag to be complete, or by the
    node's process ending any other way (even SIGKILL), after which it completes
    the bag with what it received. Thread-safe.

    Parameters
    ----------
    path, storage, custom_data
        As :class:`BagWriter`.

    Raises
    ------
    BagError
        If the bag cannot be created (``path`` exists, not writable, unknown
        storage) or the process cannot be started; the message names the path.
    """

    def __init__(self, path: str | Path, storage: str = "mcap", custom_data: dict | None = None) -> None:
        import pickle
        import subprocess
        import sys
        self.path = Path(path)
        self.storage = storage
        self._store = typestore()
        self._pickle = pickle.dumps
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", f"import os, sys; os.nice({WRITER_NICE}); "
                                       "from msg_adapters.bag import serve_writer_process; "
                                       "sys.exit(serve_writer_process())"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            raise BagError(f"{self.path}: cannot start the bag writer process: {err}") from err
        try:
            import fcntl
            fcntl.fcntl(self._proc.stdin.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
        except (ImportError, OSError):
            pass   # the default pipe: the node waits sooner when the process falls behind
        self._out = self._proc.stdin
        self._lock = threading.Lock()
        self._pending: list = []
        self._pending_bytes = 0
        self._closed = False
        self._by_key: dict = {}
        self.message_count = 0
        self._send(b"O", self._pickle((str(self.path), storage, custom_data or {})))
        reply = self._proc.stdout.readline().decode(errors="replace").strip()
        if reply != "ok":
            self._closed = True
            self._out.close()
            self._proc.wait()
            raise BagError(reply[len("error "):] if reply.startswith("error ") else
                           f"{self.path}: the bag writer process ended ({reply or 'no answer'})")
        atexit.register(self.close)

    def _send(self, kind: bytes, payload: bytes) -> None:
        self._out.write(_FRAME.pack(kind, len(payload)))
        self._out.write(payload)
        self._out.flush()

    def add_topic(self, topic: str, msgtype: str, qos: Qos | Iterable[Qos] | None = None) -> int:
        """As :meth:`BagWriter.add_topic` (ids in the order of the calls)."""
        key = (topic, msgtype)
        with self._lock:
            if key in self._by_key:
                return self._by_key[key]
            if msgtype not in self._store.fielddefs:
                raise BagError(f"{topic}: unknown message type {msgtype!r}")
            self._flush_locked()
            self._send(b"T", self._pickle((topic, msgtype, qos)))
            self._by_key[key] = len(self._by_key)
            return self._by_key[key]

    def write(self, topic_id: int, t_ns: int, data: bytes | memoryview) -> None:
        """Append one serialized message at log time ``t_ns`` [ns]; ignored once closed."""
        with self._lock:
            if self._closed:
                return
            self._pending.append(_RECORD.pack(topic_id, t_ns, len(data)))
            self._pending.append(data)
            self._pending_bytes += len(data) + _RECORD.size
            self.message_count += 1
            if self._pending_bytes >= _FLUSH_BYTES:
                self._flush_locked()

    def set_custom_data(self, key: str, value: str) -> None:
        """Set a ``custom_data`` entry (before :meth:`close`)."""
        with self._lock:
            if not self._closed:
                self._flush_locked()
                self._send(b"D", self._pickle((key, str(value))))

    def flush(self) -> None:
        """Send the messages held to the process (one pipe write)."""
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        if not self._pending or self._closed:
            return
        payload = b"".join(self._pending)
        self._pending.clear()
        self._pending_bytes = 0
        try:
            self._send(b"M", payload)
        except (BrokenPipeError, ValueError):   # the process is gone: nothing more can be recorded
            self._closed = True
            import sys
            print(f"bag writer process for {self.path} ended (exit status {self._proc.poll()}): "
                  f"recording stopped", file=sys.stderr, flush=True)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run (later writes are ignored)."""
        return self._closed

    def close(self, timeout_s: float = 60.0) -> None:
        """Send what is held, end the input and wait up to ``timeout_s`` [s] for the
        process to write the summary and ``metadata.yaml``; idempotent."""
        with self._lock:
            self._flush_locked()
            if self._out.closed:
                return
            self._closed = True
            try:
                self._out.close()
            except BrokenPipeError:
                pass
        try:
            self._proc.wait(timeout=timeout_s)
        except Exception:   # subprocess.TimeoutExpired: it finishes on its own
            pass
        self._proc.stdout.close()


# ---------------------------------------------------------------------------------- recording a node


_WIDE = frozenset({"float64", "int64", "uint64", "double"})


def rmw_bytes_unreadable(typename: str, store: Any = None) -> bool:
    """True if the rmw's serialization of ``typename`` may not be readable by rosbags.

    Fast-CDR (rmw_fastrtps) aligns an *empty* sequence of 8-byte numbers
    (``float64[] effort`` of ``sensor_msgs/JointState``) to 8 bytes; rosbags'
    deserializer aligns only a non-empty one, so it finds 4 bytes too many
    ("CDR message size mismatch") or reads the next field from the padding.
    Types holding such a sequence, at any depth, are recorded through
    :func:`to_rosbags` and rosbags' serializer instead.
    """
    store = store or typestore()
    seen: set = set()

    def wide(name: str) -> bool:
        if name in seen:
            return False
        seen.add(name)
        for _f, (nt, desc) in store.fielddefs[name][1]:
            if nt == Nodetype.NAME and wide(desc):
                return True
            if nt == Nodetype.SEQUENCE and desc[0][0] == Nodetype.BASE and desc[0][1][0] in _WIDE:
                return True
            if nt in (Nodetype.ARRAY, Nodetype.SEQUENCE) and desc[0][0] == Nodetype.NAME and wide(desc[0][1]):
                return True
        return False

    return typename in store.fielddefs and wide(typename)


def to_rosbags(msg: Any, typename: str, store: Any = None) -> Any:
    """An rclpy message -> the rosbags message of ``typename`` with the same values, field by field.

    Raises
    ------
    BagError
        If the store does not know ``typename``.
    """
    import numpy as np
    store = store or typestore()
    if typename not in store.fielddefs:
        raise BagError(f"unknown message type {typename!r}")
    values = {}
    for name, (nt, desc) in store.fielddefs[typename][1]:
        v = getattr(msg, name)
        if nt == Nodetype.NAME:
            values[name] = to_rosbags(v, desc, store)
        elif nt == Nodetype.BASE:
            values[name] = v
        else:
            sub = desc[0]
            if sub[0] == Nodetype.BASE and sub[1][0] in _ARRAY_DTYPES:
                dtype = _ARRAY_DTYPES[sub[1][0]]
                values[name] = (np.frombuffer(bytes(v), dtype=dtype) if isinstance(v, (bytes, bytearray))
                                else np.asarray(v, dtype=dtype))
            elif sub[0] == Nodetype.NAME:
                values[name] = [to_rosbags(x, sub[1], store) for x in v]
            else:
                values[name] = list(v)
    return store.types[typename](**values)


class NodeBagRecorder:
    """Record every topic an rclpy node publishes and every message it receives, into a new bag.

    Taps the node in place, no extra DDS traffic and no change of behaviour:

    * each publisher's ``publish`` is wrapped: the message is serialized
      (``rclpy.serialization``; for types :func:`rmw_bytes_unreadable` by
      rosbags, :func:`to_rosbags` and rosbags' serializer; a message published
      already serialized, as ``bytes``, as it is) and written, then published
      as before;
      ``get_subscription_count`` reports at least one subscriber (the bag), so a
      node that skips topics nobody listens to fills and records them all. A
      message is handed to DDS only when a real subscriber exists, as before;
    * each subscription's callback is wrapped: the received message is written,
      then the node's callback runs (``/clock`` the node reads is not recorded);
    * a TRANSIENT_LOCAL publisher (``/tf_static``), whose one message was sent
      before the recorder existed, is recorded through an extra raw subscription
      with the same QoS.

    Every message is stamped with ``clock_ns()``: by default the node's ROS
    clock; :class:`acres_dbw_sim.node.SimNode` passes its simulation time
    (``epoch_s + sim.time_s``), so a command is stamped with the physics step
    it is applied to and outputs with the stamp in their headers. That is what
    makes an offline replay of the bag step-exact.

    The bag is written by a child process (:class:`ProcessBagWriter`): in the
    node's thread a message costs its serialization and a copy into the batch that
    :meth:`flush` (or 64 KiB held) sends down a pipe; rosbags' ``Writer.write`` and
    the MCAP chunks run on the other core (issue 14).

    The node's parameters, ``epoch_s`` and the recorder's version go into the
    bag's ``custom_data`` (keys ``acres_dbw_sim.*``). The bag is closed (summary
    and ``metadata.yaml`` written) by :meth:`close`, which is also registered
    with ``atexit``: the node's SIGINT/SIGTERM handling ends ``main`` normally,
    so a recording stopped by a signal is complete.

    Parameters
    ----------
    node : rclpy.node.Node
        After its publishers and subscriptions are created.
    path : str or Path
        New bag directory.
    storage : {'mcap', 'sqlite3'}
    clock_ns : callable, optional
        ``clock_ns() -> int`` [ns], the log time of each message.
    epoch_s : float, optional
        Bag time [s] of simulation time 0 (stored for the replay).
    exclude : sequence of str
        Topics not recorded.

    Raises
    ------
    BagError
        If the bag cannot be created (path exists, not writable); the message names the path.
    """

    def __init__(self, node: Any, path: str | Path, storage: str = "mcap",
                 clock_ns: Callable[[], int] | None = None, epoch_s: float | None = None,
                 exclude: Sequence[str] = ("/rosout", "/parameter_events")) -> None:
        from rclpy.qos import DurabilityPolicy, QoSProfile
        from rclpy.serialization import serialize_message

        params = {name: p.value for name, p in node.get_parameters_by_prefix("").items()}
        custom = {CUSTOM_PREFIX + "node": node.get_fully_qualified_name(),
                  CUSTOM_PREFIX + "parameters": json.dumps(params, sort_keys=True, default=str)}
        if epoch_s is not None:
            custom[CUSTOM_PREFIX + "epoch_s"] = repr(float(epoch_s))
        self.writer = ProcessBagWriter(path, storage, custom)   # written off the node's thread
        self.path = self.writer.path
        self._clock = clock_ns if clock_ns is not None else (lambda: node.get_clock().now().nanoseconds)
        self.topics: list[str] = []
        self._restore: list = []
        skip = set(exclude)
        write = self.writer.write
        clock = self._clock
        store = typestore()

        def serializer(typename: str) -> Callable[[Any], bytes]:
            if rmw_bytes_unreadable(typename, store):   # joint_states: rosbags' own bytes (see the function)
                return lambda msg: store.serialize_cdr(to_rosbags(msg, typename, store), typename)
            return serialize_message

        for pub in list(node.publishers):
            topic = pub.topic_name
            if topic in skip:
                continue
            cid = self.writer.add_topic(topic, msgtype_name(pub.msg_type), qos_to_rosbags(pub.qos_profile))
            self.topics.append(topic)
            if pub.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL:
                qos = QoSProfile(depth=max(1, pub.qos_profile.depth), reliability=pub.qos_profile.reliability,
                                 durability=DurabilityPolicy.TRANSIENT_LOCAL)
                node.create_subscription(pub.msg_type, topic, lambda data, c=cid: write(c, clock(), data),
                                         qos, raw=True)
                continue
            real_publish, real_count = pub.publish, pub.get_subscription_count

            def publish(msg, c=cid, real_publish=real_publish, real_count=real_count,
                        serialize=serializer(msgtype_name(pub.msg_type))):
                # already serialized (the node's reports, msg_adapters.ds_dbw.ReportPacker): as is
                write(c, clock(), msg if isinstance(msg, bytes) else serialize(msg))
                if real_count() > 0:
                    real_publish(msg)

            pub.publish = publish
            pub.get_subscription_count = lambda real_count=real_count: max(1, real_count())
            self._restore.append((pub, ("publish", "get_subscription_count")))
        for sub in list(node.subscriptions):
            topic = sub.topic_name
            if topic in skip or topic == "/clock" or getattr(sub, "raw", False):
                continue
            cid = self.writer.add_topic(topic, msgtype_name(sub.msg_type), qos_to_rosbags(sub.qos_profile))
            self.topics.append(topic)
            callback = sub.callback

            def on_message(msg, c=cid, callback=callback, serialize=serializer(msgtype_name(sub.msg_type))):
                write(c, clock(), serialize(msg))
                callback(msg)

            sub.callback = on_message
        atexit.register(self.close)

    @property
    def message_count(self) -> int:
        """Messages written so far."""
        return self.writer.message_count

    def flush(self) -> None:
        """Hand the messages recorded since the last call to the writer process (the node
        calls it at the end of each tick; one pipe write)."""
        self.writer.flush()

    def close(self) -> None:
        """Close the bag and wait until it is complete (idempotent); messages published
        afterwards are not recorded."""
        self.writer.close()
