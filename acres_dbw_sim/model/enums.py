"""Enumerations shared by the model and the drive-by-wire layer.

The numbers of :class:`Gear` and :class:`GearReject` are those of
``ds_dbw_msgs/Gear`` and ``ds_dbw_msgs/GearReject`` (ds_dbw_msgs 2.3.11), so a
message adapter can copy them unchanged. Reference: polaris-ranger-dynamics.md,
"Gear Lever" and "Drive Modes".
"""
from enum import IntEnum

__all__ = ["Gear", "AwdSwitch", "GearReject", "Wheel", "GEAR_NAMES", "DRIVE_MODE_NAMES"]


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

    @classmethod
    def from_name(cls, name: str) -> "Gear":
        """The lever position a name stands for (:data:`GEAR_NAMES`, any case, spaces ignored).

        Raises
        ------
        ValueError
            For another name, listing the names.
        """
        try:
            return GEAR_NAMES[str(name).strip().upper()]
        except KeyError:
            raise ValueError(f"{name!r}: must be one of {', '.join(GEAR_NAMES)} (any case)") from None


class AwdSwitch(IntEnum):
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


#: The lever's names (upper case; matched in any case) and the position each stands for, for every tool
#: that takes a gear by name (the node's ``initial_gear``, scenarios, replay). H (high) is the Ranger's
#: drive position, reported as DRIVE.
GEAR_NAMES = {"P": Gear.PARK, "PARK": Gear.PARK, "R": Gear.REVERSE, "REVERSE": Gear.REVERSE,
              "N": Gear.NEUTRAL, "NEUTRAL": Gear.NEUTRAL, "H": Gear.DRIVE, "HIGH": Gear.DRIVE, "D": Gear.DRIVE,
              "DRIVE": Gear.DRIVE, "L": Gear.LOW, "LOW": Gear.LOW}

#: The AWD switch's names (upper case; matched in any case) and the position each stands for.
DRIVE_MODE_NAMES = {"TURF": AwdSwitch.TURF, "2WD": AwdSwitch.TWO_WD, "TWO_WD": AwdSwitch.TWO_WD,
                    "AWD": AwdSwitch.AWD}
