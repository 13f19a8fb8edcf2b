"""Conversions between ``ds_dbw_msgs`` 2.3.11 messages and the ROS-free DBW core.

The core mirrors every command and report as a plain dataclass whose field
names equal the message's (``acres_dbw_sim.dbw.commands``,
``acres_dbw_sim.dbw.reports``), with the nested one-byte field types
(``Gear``, ``CmdSrc``, ...) as plain ``int``. The conversion is therefore by
name; it is planned once per message type (which fields are nested, which are
primitive) so that the 120 Hz path only copies values.

NaN in reports: the real driver publishes NaN in the fields it documents as
"NaN if invalid / not applicable" (e.g. the BrakeReport groups that do not
match the command type, dbw-interface.md §2.9). Those are kept; everything the
model computes is finite by construction (the core checks it).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from builtin_interfaces.msg import Time

from acres_dbw_sim.dbw import commands as core_cmd

__all__ = ["CommandConverter", "ReportFiller", "stamp_from_seconds"]


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
