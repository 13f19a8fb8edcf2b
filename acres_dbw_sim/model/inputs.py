"""What a vehicle is driven with: the outputs of the DBW's actuators (dbw-interface.md; every vehicle).

A vehicle whose own controls differ maps these onto them (the tractor's
``DbwTractor``: pedal to governor command, line pressure to braking fraction).
"""
from __future__ import annotations

from dataclasses import dataclass

from .enums import AwdSwitch, Gear

__all__ = ["VehicleInputs"]


@dataclass
class VehicleInputs:
    """Inputs of one step (the outputs of the DBW actuators).

    Attributes
    ----------
    pedal : float
        Accelerator pedal p, 0..1.
    brake_line_bar : float
        Brake line pressure P_line [bar], >= 0.
    steering_wheel_deg : float
        Actual steering-wheel angle theta_sw [deg], positive to the left.
    gear_request : Gear
        Requested lever position; ``Gear.NONE`` = no request.
    drive_mode : AwdSwitch
        Position of the AWD switch.
    """

    pedal: float = 0.0
    brake_line_bar: float = 0.0
    steering_wheel_deg: float = 0.0
    gear_request: Gear = Gear.NONE
    drive_mode: AwdSwitch = AwdSwitch.AWD
