"""Command messages and events, mirrored as plain dataclasses (no ROS).

Every class mirrors one ``ds_dbw_msgs`` 2.3.11 command message field by field,
with the same names and order (header omitted: the real driver ignores it,
dbw-interface.md §2.2-2.8). Nested one-byte field types (``Gear``,
``TurnSignal`` ...) are plain ``int`` holding the ``value``; the message
constants are class attributes (``SteeringCmd.CMD_ANGLE``).

The dataclasses do not validate: a value of the wrong type, NaN, inf, an
unknown enum or a negative brake is accepted here and handled by the DBW
emulation exactly once, at its boundary (``DbwSystem.submit``), the way the
real driver and firmware handle it (see ``acres_dbw_sim.dbw.decode``).

Events without content (``std_msgs/Empty`` topics ``enable``, ``disable`` and the
deprecated ``steering/calibrate``) are the singletons ``ENABLE``, ``DISABLE`` and
``STEERING_CALIBRATE`` of the classes below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = [
    "SteeringCmd", "BrakeCmd", "ThrottleCmd", "GearCmd", "MiscCmd", "TurnSignalCmd",
    "UlcCmd", "DriveModeCmd", "EnableEvent", "DisableEvent", "SteeringCalibrateEvent",
    "ENABLE", "DISABLE", "STEERING_CALIBRATE",
]


@dataclass(slots=True)
class SteeringCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/SteeringCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    CMD_NONE: ClassVar[int] = 0
    CMD_TORQUE: ClassVar[int] = 1
    CMD_ANGLE: ClassVar[int] = 2
    CMD_CURVATURE: ClassVar[int] = 3
    CMD_YAW_RATE: ClassVar[int] = 4
    CMD_SET_OFFSET: ClassVar[int] = 13
    CMD_PERCENT: ClassVar[int] = 14
    CMD_CALIBRATE: ClassVar[int] = 15

    cmd: float = 0.0
    cmd_rate: float = 0.0
    cmd_accel: float = 0.0
    cmd_type: int = 0
    enable: bool = False
    clear: bool = False
    ignore: bool = False


@dataclass(slots=True)
class BrakeCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/BrakeCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    CMD_NONE: ClassVar[int] = 0
    PRECHARGE_NONE: ClassVar[int] = 0
    CMD_PRESSURE: ClassVar[int] = 1
    PRECHARGE_LEVEL_1: ClassVar[int] = 1
    CMD_ACCEL_PASSIVE: ClassVar[int] = 2
    CMD_TORQUE: ClassVar[int] = 2
    PRECHARGE_LEVEL_2: ClassVar[int] = 2
    CMD_ACCEL: ClassVar[int] = 8
    CMD_ACCEL_ACC: ClassVar[int] = 9
    CMD_ACCEL_AEB: ClassVar[int] = 10
    CMD_PEDAL_RAW: ClassVar[int] = 13
    CMD_PERCENT: ClassVar[int] = 14

    cmd: float = 0.0
    rate_inc: float = 0.0
    rate_dec: float = 0.0
    cmd_type: int = 0
    enable: bool = False
    clear: bool = False
    ignore: bool = False
    precharge_aeb: int = 0


@dataclass(slots=True)
class ThrottleCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/ThrottleCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    CMD_NONE: ClassVar[int] = 0
    CMD_PEDAL_RAW: ClassVar[int] = 13
    CMD_PERCENT: ClassVar[int] = 14

    cmd: float = 0.0
    rate_inc: float = 0.0
    rate_dec: float = 0.0
    cmd_type: int = 0
    enable: bool = False
    clear: bool = False
    ignore: bool = False


@dataclass(slots=True)
class GearCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/GearCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    cmd: int = 0
    cmd_manual: int = 0
    return_to_park: bool = False


@dataclass(slots=True)
class MiscCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/MiscCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    parking_brake: int = 0
    door_select: int = 0
    door_cmd: int = 0


@dataclass(slots=True)
class TurnSignalCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/TurnSignalCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    cmd: int = 0


@dataclass(slots=True)
class UlcCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/UlcCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    CMD_NONE: ClassVar[int] = 0
    CMD_VELOCITY: ClassVar[int] = 1
    CMD_ACCEL: ClassVar[int] = 2

    cmd: float = 0.0
    limit_accel: float = 0.0
    limit_decel: float = 0.0
    limit_jerk_throttle: float = 0.0
    limit_jerk_brake: float = 0.0
    cmd_type: int = 0
    enable: bool = False
    clear: bool = False
    enable_shift: bool = False
    enable_shift_park: bool = False
    coast_decel: bool = False


@dataclass(slots=True)
class DriveModeCmd:
    """Plain mirror of ``ds_dbw_msgs/msg/DriveModeCmd`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    drive_mode_cmd: int = 0
    suspension_mode_cmd: int = 0
    awd_mode_cmd: int = 0
    rear_diff_cmd: int = 0
    front_diff_cmd: int = 0


@dataclass(frozen=True, slots=True)
class EnableEvent:
    """``enable`` (``std_msgs/Empty``): request DBW engagement (§4.1 event 1)."""


@dataclass(frozen=True, slots=True)
class DisableEvent:
    """``disable`` (``std_msgs/Empty``): request DBW disengagement (§4.1 event 2)."""


@dataclass(frozen=True, slots=True)
class SteeringCalibrateEvent:
    """``steering/calibrate`` (``std_msgs/Empty``, deprecated).

    Equivalent to a ``SteeringCmd`` with ``CMD_CALIBRATE`` and ``cmd`` = 0 deg
    (dbw-interface.md §1.3, §4.6).
    """


ENABLE = EnableEvent()
DISABLE = DisableEvent()
STEERING_CALIBRATE = SteeringCalibrateEvent()
