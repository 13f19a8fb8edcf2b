"""Message objects for bags: core dataclasses -> rosbags messages and back (no ROS).

:class:`ReportFiller` and :class:`CommandFiller` copy a core dataclass onto a rosbags
``ds_dbw_msgs`` message by field name; :class:`ImuFiller`, :class:`OdometryFiller` and
:class:`TfFiller` build the node's ``imu/data_raw``, ``odom`` and ``/tf``. Each keeps one
message and overwrites it on every call. :class:`CommandDecoder` goes the other way (bag
message -> core command). Frames and signs are those of :mod:`msg_adapters.vehicle_state`.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from rosbags.interfaces import Nodetype

from .store import BagError, default_message, stamp_ns, typestore


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
        from ..vehicle_state import POSE_VAR, TWIST_VAR, diag6
        self.msg = m = _with_frame(store or typestore(), self.typename, odom_frame)
        m.child_frame_id = base_frame
        m.pose.covariance[:] = diag6(POSE_VAR)
        m.twist.covariance[:] = diag6(TWIST_VAR)
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
