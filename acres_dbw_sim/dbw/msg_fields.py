"""Constants of the ``ds_dbw_msgs`` field types (``msg/fields/``), as ``IntEnum``.

Each class mirrors one one-byte field type of ds_dbw_msgs 2.3.11 with the same
constant names and numbers (dbw-interface.md §2.1; the reference layout JSON).
Adapters can pass ``int(value)`` straight into the message's ``value`` field.
"""

from enum import IntEnum

from ..model.enums import GearReject

__all__ = [
    "Gear", "GearReject", "GearManual", "TurnSignal", "PrkBrkCmd", "PrkBrkStat",
    "Quality", "OnePedal", "CmdSrc", "SystemState", "SystemSyncMode", "DriveMode",
    "AwdMode", "DiffLock", "BrakeInfDur", "DoorSelect", "DoorCmd",
]


class Gear(IntEnum):
    """``ds_dbw_msgs/msg/Gear`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    PARK = 1
    REVERSE = 2
    NEUTRAL = 3
    DRIVE = 4
    LOW = 5
    MANUAL = 6
    SPORT = 7
    CALIBRATE = 15


# GearReject (``ds_dbw_msgs/msg/GearReject``, dbw-interface.md §2.1) is the model's own
# (acres_dbw_sim.model.enums.GearReject: the same numbers), imported above.


class GearManual(IntEnum):
    """``ds_dbw_msgs/msg/GearManual`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    M01 = 1
    M02 = 2
    M03 = 3
    M04 = 4
    M05 = 5
    M06 = 6
    M07 = 7
    M08 = 8
    M09 = 9
    M10 = 10


class TurnSignal(IntEnum):
    """``ds_dbw_msgs/msg/TurnSignal`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    LEFT = 1
    RIGHT = 2
    HAZARD = 3


class PrkBrkCmd(IntEnum):
    """``ds_dbw_msgs/msg/PrkBrkCmd`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    ON = 1
    OFF = 2


class PrkBrkStat(IntEnum):
    """``ds_dbw_msgs/msg/PrkBrkStat`` constants (dbw-interface.md §2.1)."""

    UNKNOWN = 0
    ON = 1
    OFF = 2
    TRANSITION = 3


class Quality(IntEnum):
    """``ds_dbw_msgs/msg/Quality`` constants (dbw-interface.md §2.1)."""

    OK = 0
    PARTIAL = 1
    NO_DATA = 2
    FAULT = 3


class OnePedal(IntEnum):
    """``ds_dbw_msgs/msg/OnePedal`` constants (dbw-interface.md §2.1)."""

    UNKNOWN = 0
    OFF = 1
    ON = 2
    FAULT = 3


class CmdSrc(IntEnum):
    """``ds_dbw_msgs/msg/CmdSrc`` constants (dbw-interface.md §2.1)."""

    USER = 0
    ULC = 1
    REMOTE = 2
    BUTTON = 3
    COMMS_LOSS = 4
    LOCKOUT = 5
    CALIBRATION = 6


#: Gear and command-source numbers as plain ints for the per-step code (``int(Gear.PARK)`` is an
#: enum lookup and a call each time; these are the same numbers).
G_NONE, G_PARK, G_REVERSE, G_NEUTRAL, G_DRIVE, G_LOW, G_MANUAL, G_CALIBRATE = (
    int(Gear.NONE), int(Gear.PARK), int(Gear.REVERSE), int(Gear.NEUTRAL), int(Gear.DRIVE), int(Gear.LOW),
    int(Gear.MANUAL), int(Gear.CALIBRATE))
SRC_USER, SRC_ULC = int(CmdSrc.USER), int(CmdSrc.ULC)


class SystemState(IntEnum):
    """``ds_dbw_msgs/msg/SystemState`` constants (dbw-interface.md §2.1)."""

    MANUAL = 0
    READY = 1
    ACTIVE = 2
    FAULT = 7


class SystemSyncMode(IntEnum):
    """``ds_dbw_msgs/msg/SystemSyncMode`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    DISENGAGES = 1
    ALL_OR_NONE = 2
    ALL_OR_NONE_WITH_BTN = 3
    PARTIAL = 4
    PARTIAL_WITH_BTN = 5


class DriveMode(IntEnum):
    """``ds_dbw_msgs/msg/DriveMode`` constants (dbw-interface.md §2.1)."""

    UNKNOWN = 0
    NORMAL = 1
    ECONOMY = 2
    COMFORT = 3
    SPORT = 4
    TOW_HAUL = 5
    SNOW = 6
    SAND = 7
    MUD = 8
    ROCK = 9
    BAJA = 10
    TRACK = 11


class AwdMode(IntEnum):
    """``ds_dbw_msgs/msg/AwdMode`` constants (dbw-interface.md §2.1)."""

    UNKNOWN = 0
    TWO_HIGH = 1
    FOUR_AUTO = 2
    FOUR_HIGH = 3
    FOUR_LOW = 4


class DiffLock(IntEnum):
    """``ds_dbw_msgs/msg/DiffLock`` constants (dbw-interface.md §2.1)."""

    UNKNOWN = 0
    UNLOCKED = 1
    LOCKED = 2


class BrakeInfDur(IntEnum):
    """``ds_dbw_msgs/msg/BrakeInfDur`` constants (dbw-interface.md §2.1)."""

    UNSUPPORTED = 0
    UNLIMITED_WITH_PARTIAL_TOGGLE = 1
    PRIMARY_ONLY_SECONDARY_RECHARGE = 2
    SECONDARY_ONLY_PRIMARY_RECHARGE = 3


class DoorSelect(IntEnum):
    """``ds_dbw_msgs/msg/DoorSelect`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    DRIVER = 1
    PASSENGER = 2
    REAR_LEFT = 3
    REAR_RIGHT = 4
    TRUNK = 14
    FRUNK = 15


class DoorCmd(IntEnum):
    """``ds_dbw_msgs/msg/DoorCmd`` constants (dbw-interface.md §2.1)."""

    NONE = 0
    OPEN = 1
    CLOSE = 2
