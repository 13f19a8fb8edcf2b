"""Enumerations shared by the model and the drive-by-wire layer.

The numbers of :class:`Gear` and :class:`GearReject` are those of
``ds_dbw_msgs/Gear`` and ``ds_dbw_msgs/GearReject`` (ds_dbw_msgs 2.3.11), so a
message adapter can copy them unchanged. Reference: polaris-ranger-dynamics.md,
"Gear Lever" and "Drive Modes".
"""
from enum import IntEnum

__all__ = ["Gear", "DriveMode", "GearReject", "Wheel"]


class Gear(IntEnum):
    """Position of the gear lever (ds_dbw_msgs/Gear numbers).

    ``DRIVE`` is the high range H of the Ranger and ``LOW`` the low range L.
    ``NONE`` in a request means "no request".
    """

    NONE = 0
    PARK = 1
    REVERSE = 2
    NEUTRAL = 3
    DRIVE = 4
    LOW = 5


class DriveMode(IntEnum):
    """Position of the AWD switch (reference "Drive Modes")."""

    TURF = 0
    TWO_WD = 1
    AWD = 2


class GearReject(IntEnum):
    """Reason a gear request was refused (ds_dbw_msgs/GearReject numbers)."""

    NONE = 0
    FAULT = 1
    UNSUPPORTED = 2
    SHIFT_IN_PROGRESS = 3
    OVERRIDE = 4
    BRAKE_HOLD = 5
    VEHICLE_SPEED = 6
    VEHICLE = 7


class Wheel(IntEnum):
    """Wheel indices: 0 front left, 1 front right, 2 rear left, 3 rear right."""

    FL = 0
    FR = 1
    RL = 2
    RR = 3
