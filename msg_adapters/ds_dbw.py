"""Conversions between ``ds_dbw_msgs`` 2.3.11 messages and the ROS-free DBW core.

The core mirrors every command and report as a plain dataclass whose field
names equal the message's (``acres_dbw_sim.dbw.commands``,
``acres_dbw_sim.dbw.reports``), with the nested one-byte field types
(``Gear``, ``CmdSrc``, ...) as plain ``int``. The conversion is therefore by
name; it is planned once per message type (which fields are nested, which are
primitive) so that the 120 Hz path only copies values.

The node publishes the reports as serialized CDR (:class:`ReportPacker`:
one ``struct.pack`` per message, handed to rclpy's raw publish path) instead
of filling a message object field by field and having rclpy convert and
serialize it: that conversion was most of the node's CPU (docs/performance.md).
The bytes carry the same values as the rmw's serialization of the filled
message (test/test_bag.py checks it for every report type).

NaN in reports: the real driver publishes NaN in the fields it documents as
"NaN if invalid / not applicable" (e.g. the BrakeReport groups that do not
match the command type, dbw-interface.md §2.9). Those are kept; everything the
model computes is finite by construction (the core checks it).
"""

from __future__ import annotations

import dataclasses
import importlib
import operator
import struct
from typing import Any

from builtin_interfaces.msg import Time

from acres_dbw_sim.dbw import commands as core_cmd
from msg_adapters.cdr import CDR_LE, cdr_struct

__all__ = ["CommandConverter", "RawCommandConverter", "ReportFiller", "ReportPacker", "stamp_from_seconds"]


def stamp_from_seconds(t_s: float) -> Time:
    """``builtin_interfaces/Time`` for a time in seconds (t_s >= 0, floored to ns)."""
    ns = int(round(t_s * 1e9))
    return Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)


def _nested_fields(msg_type: type) -> frozenset[str]:
    """Names of the fields of ``msg_type`` that are ds_dbw_msgs one-byte field types."""
    return frozenset(name for name, typ in msg_type.get_fields_and_field_types().items()
                     if typ.startswith("ds_dbw_msgs/"))


class CommandConverter:
    """ROS command message -> core command dataclass, by field name.

    Parameters
    ----------
    msg_type : type
        A ``ds_dbw_msgs.msg`` command class (``SteeringCmd``, ``UlcCmd``, ...).

    Raises
    ------
    TypeError
        If the core has no dataclass of that name (a wiring error).
    """

    def __init__(self, msg_type: type) -> None:
        name = msg_type.__name__
        core = getattr(core_cmd, name, None)
        if core is None or not dataclasses.is_dataclass(core):
            raise TypeError(f"no core command for ds_dbw_msgs/{name}")
        self.core_type = core
        nested = _nested_fields(msg_type)
        self._plan = tuple((f.name, f.name in nested) for f in dataclasses.fields(core))
        missing = [f for f, _ in self._plan if f not in msg_type.get_fields_and_field_types()]
        if missing:
            raise TypeError(f"ds_dbw_msgs/{name} lacks fields {missing} of the core command")

    def __call__(self, msg: Any) -> Any:
        """Return a new core command with the values of ``msg`` (header dropped)."""
        values = {}
        for name, nested in self._plan:
            v = getattr(msg, name)
            values[name] = v.value if nested else v
        return self.core_type(**values)


class RawCommandConverter:
    """Serialized ROS command (the bytes of a raw subscription) -> core command dataclass, deserialized only when
    it differs from the last one.

    A stack re-sends its commands at 50 Hz or more, most of them unchanged but for the header's stamp, which
    the core does not read (:class:`CommandConverter` drops the header). Bytes equal to the last message's but
    for the stamp (CDR bytes 4..11: the header is every ``ds_dbw_msgs`` command's first field, its stamp the
    first 8 bytes after the encapsulation header) give the last message's core command again, the same object,
    without deserializing (rclpy would build a message object field by field) or converting it; the caller
    submits it as it would a new one, so the re-send still refreshes the timeout, the enable and the clear, and
    an event (a gear command) still acts.

    Parameters
    ----------
    msg_type : type
        A ``ds_dbw_msgs.msg`` command class.

    Raises
    ------
    TypeError
        As :class:`CommandConverter`, or if the message's first field is not a ``std_msgs/Header``.
    """

    _STAMP = slice(4, 12)

    def __init__(self, msg_type: type) -> None:
        first = next(iter(msg_type.get_fields_and_field_types().items()))
        if first != ("header", "std_msgs/Header"):
            raise TypeError(f"ds_dbw_msgs/{msg_type.__name__}: its first field is not a std_msgs/Header")
        from rclpy.serialization import deserialize_message
        self._deserialize = deserialize_message
        self.msg_type = msg_type
        self.convert = CommandConverter(msg_type)
        self._head = self._tail = None
        self._last = None

    def __call__(self, data: bytes) -> Any:
        """The core command of the serialized message ``data`` (the last one's object when unchanged)."""
        head, tail = data[:4], data[12:]
        if tail != self._tail or head != self._head:
            self._last = self.convert(self._deserialize(data, self.msg_type))
            self._head, self._tail = head, tail
        return self._last


class ReportFiller:
    """Core report dataclass -> preallocated ROS message, by field name.

    One filler per topic keeps one message instance and overwrites it, so the
    120 Hz path allocates nothing but what rclpy does on publish.

    Parameters
    ----------
    msg_type : type
        A ``ds_dbw_msgs.msg`` report class.
    report : object
        An instance of the matching core report dataclass (for the field plan).

    Raises
    ------
    TypeError
        If a message field has no value in the core report (a wiring error).
    """

    def __init__(self, msg_type: type, report: Any) -> None:
        self.msg = msg_type()
        fields = msg_type.get_fields_and_field_types()
        nested = _nested_fields(msg_type)
        core_fields = {f.name for f in dataclasses.fields(report)}
        missing = [f for f in fields if f != "header" and f not in core_fields]
        if missing:
            raise TypeError(f"{msg_type.__name__}: core report lacks {missing}")
        self._has_header = "header" in fields
        # 0 primitive, 1 ds_dbw_msgs one-byte type, 2 builtin_interfaces/Time from seconds
        self._plan = tuple((f, 1 if f in nested else 2 if fields[f] == "builtin_interfaces/Time" else 0)
                           for f in fields if f != "header")

    def __call__(self, report: Any, stamp: Time) -> Any:
        """Copy ``report`` into the message, stamp its header and return it."""
        msg = self.msg
        if self._has_header:
            msg.header.stamp = stamp
        for name, kind in self._plan:
            if kind == 0:
                setattr(msg, name, getattr(report, name))
            elif kind == 1:
                getattr(msg, name).value = int(getattr(report, name))
            else:
                setattr(msg, name, stamp_from_seconds(float(getattr(report, name))))
        return msg


# rosidl basic type -> struct format character (its size is its CDR alignment)
_BASIC = {"boolean": "?", "octet": "B", "uint8": "B", "char": "B", "int8": "b", "int16": "h",
          "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q", "float": "f",
          "double": "d"}


class ReportPacker:
    """Core report dataclass -> the serialized CDR bytes of the ds_dbw_msgs report, for
    rclpy's raw publish (``Publisher.publish(bytes)``).

    The same mapping as :class:`ReportFiller` (field names equal; nested one-byte
    types from plain ``int``; ``builtin_interfaces/Time`` from seconds), written by
    one precompiled ``struct.Struct`` (one per set of string lengths for the types
    with strings) instead of a message object that rclpy converts to C and the rmw
    serializes. Little-endian plain CDR as rmw_fastrtps writes it, padding zero.

    A value ``struct`` cannot pack (a float beyond float32's range, an integer
    beyond its field's range) is left to the message path: the call then returns
    the message :class:`ReportFiller` fills, which the C conversion handles as it
    always has (rclpy publishes either).

    Parameters
    ----------
    msg_type : type
        A ``ds_dbw_msgs.msg`` report class.
    report : object
        An instance of the matching core report dataclass (for the field plan).
    frame_id : str
        ``header.frame_id`` of every message (the node leaves it empty).

    Raises
    ------
    TypeError
        If a message field has no value in the core report, or a field type
        other than a primitive, a string, a one-byte ds_dbw_msgs type or a time.
    """

    def __init__(self, msg_type: type, report: Any, frame_id: str = "") -> None:
        self.fallback = ReportFiller(msg_type, report)   # also checks the fields
        self.fallback.msg.header.frame_id = frame_id
        names, codes = [], []
        for name, slot in zip(msg_type.get_fields_and_field_types(), msg_type.SLOT_TYPES):
            if name == "header":
                continue
            names.append(name)
            codes.append(self._code(msg_type, name, slot))
        self._codes = tuple(codes)
        self._get = operator.attrgetter(*names) if len(names) > 1 else (
            lambda r, g=operator.attrgetter(names[0]): (g(r),))
        frame = frame_id.encode()
        self._head = (len(frame) + 1, frame)
        self._simple = not {"S", "T"} & set(codes)
        self._structs: dict = {}
        if self._simple:
            self._struct = cdr_struct(["i", "I", ("S", len(frame) + 1), *codes])

    @staticmethod
    def _code(msg_type: type, name: str, slot: Any) -> str:
        """The struct character of a field, ``"T"`` for a time, ``"S"`` for a string."""
        kind = type(slot).__name__
        if kind == "BasicType" and slot.typename in _BASIC:
            return _BASIC[slot.typename]
        if kind == "UnboundedString":
            return "S"
        if kind == "NamespacedType":
            full = "/".join(slot.namespaces + [slot.name])
            if full == "builtin_interfaces/msg/Time":
                return "T"
            if slot.namespaces[0] == "ds_dbw_msgs":
                cls = getattr(importlib.import_module(".".join(slot.namespaces)), slot.name)
                inner = cls.SLOT_TYPES
                if len(inner) == 1 and type(inner[0]).__name__ == "BasicType" and inner[0].typename == "uint8":
                    return "B"
        raise TypeError(f"{msg_type.__name__}.{name}: no CDR packing for this field type")

    def __call__(self, report: Any, stamp: Any) -> Any:
        """The serialized message holding ``report`` with ``stamp`` (``builtin_interfaces/Time``)
        in its header: ``bytes``, or the filled message where a value does not pack."""
        values = self._get(report)
        try:
            if self._simple:
                return self._struct.pack(CDR_LE, stamp.sec, stamp.nanosec, *self._head, *values)
            return self._pack_general(values, stamp)
        except (struct.error, OverflowError):
            return self.fallback(report, stamp)

    def _pack_general(self, values: tuple, stamp: Any) -> bytes:
        """Messages with strings or times: the layout depends on the strings' lengths."""
        args = [CDR_LE, stamp.sec, stamp.nanosec, *self._head]
        lengths = []
        for value, code in zip(values, self._codes):
            if code == "S":
                data = value.encode()
                args += (len(data) + 1, data)
                lengths.append(len(data) + 1)
            elif code == "T":
                t = stamp_from_seconds(float(value))
                args += (t.sec, t.nanosec)
            else:
                args.append(value)
        key = tuple(lengths)
        packer = self._structs.get(key)
        if packer is None:
            items, it = ["i", "I", ("S", self._head[0])], iter(lengths)
            for code in self._codes:
                items += [("S", next(it))] if code == "S" else ["i", "I"] if code == "T" else [code]
            packer = self._structs[key] = cdr_struct(items)
        return packer.pack(*args)
