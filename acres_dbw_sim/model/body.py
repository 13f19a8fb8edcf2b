"""The outputs every vehicle on the shared core publishes, read from the step's output array.

The compiled step of each vehicle writes its outputs into one flat array in the layout of
stages.py (``O_*``: the chassis's pose and motion, each wheel's angle, load, forces, slip, the
brake and driveline torques). :class:`VehicleBody` turns that array into the attributes the
DBW, the node's builders, the scenario recorder and replay read, once per step, for every
vehicle alike; a vehicle adds only what is its own (the Ranger's CVT ratio and lever, the
tractor's clutch and powershift).

Frames and units: positions in odom [m], orientation a unit quaternion (w, x, y, z) from
base_link to odom, velocities and specific force in the body frame (REP-103) [m/s, rad/s,
m/s^2]; wheels in the order FL, FR, RL, RR.
"""
from __future__ import annotations

from .stages import (O_ANGLE, O_CARRIER, O_CONTACT, O_DELTA, O_EXT, O_FRONT, O_FUEL_RATE, O_FX, O_FY, O_LOAD,
                     O_OMEGA, O_POS, O_Q, O_SF, O_SLIP, O_SW, O_TB, O_TC, O_TE, O_VB, O_WB, O_WHEEL_ANGLE)

__all__ = ["VehicleBody"]


class VehicleBody:
    """Mixin of a vehicle class: the shared outputs as attributes, from the output list ``o`` (stages.py ``O_*``).

    Attributes set by :meth:`_publish_motion`: ``position_m`` (3), ``orientation_wxyz`` (4),
    ``velocity_body_mps`` (3), ``angular_velocity_body_rad_s`` (3), ``speed_mps`` (the body's forward
    speed), ``yaw_rate_rad_s``, ``wheel_spin_rad_s`` (4), ``wheel_angle_rad`` (4, the wheels' rotation).
    By :meth:`_publish_wheels`: ``steering_wheel_deg``, ``bicycle_angle_rad``, ``road_wheel_angle_rad`` (4),
    ``wheel_load_n`` (4), ``wheel_in_contact`` (4 bool), ``wheel_extension_m`` (4), ``brake_torque_nm`` (4),
    ``engine_torque_nm``, ``fuel_rate_l_h``, ``clutch_torque_nm``, ``carrier_speed_rad_s``, ``front_engaged``
    (2 bool), ``wheel_fx_n``, ``wheel_fy_n``, ``wheel_slip`` (4 each), ``specific_force_body_mps2`` (3).
    """

    def _publish_motion(self, o: list) -> None:
        """The chassis's pose and motion and the wheels' spin and rotation angle (after a step or a reset)."""
        self.position_m = tuple(o[O_POS:O_POS + 3])
        self.orientation_wxyz = tuple(o[O_Q:O_Q + 4])
        self.velocity_body_mps = tuple(o[O_VB:O_VB + 3])
        self.angular_velocity_body_rad_s = tuple(o[O_WB:O_WB + 3])
        self.speed_mps = o[O_VB]
        self.yaw_rate_rad_s = o[O_WB + 2]
        self.wheel_spin_rad_s = tuple(o[O_OMEGA:O_OMEGA + 4])
        self.wheel_angle_rad = tuple(o[O_WHEEL_ANGLE:O_WHEEL_ANGLE + 4])

    def _publish_wheels(self, o: list) -> None:
        """The step's steering, wheel, brake and driveline outputs (after a step)."""
        self.steering_wheel_deg = o[O_SW]
        self.bicycle_angle_rad = o[O_DELTA]
        self.road_wheel_angle_rad = tuple(o[O_ANGLE:O_ANGLE + 4])
        self.wheel_load_n = tuple(o[O_LOAD:O_LOAD + 4])
        contact = o[O_CONTACT:O_CONTACT + 4]
        self.wheel_in_contact = (contact[0] != 0.0, contact[1] != 0.0, contact[2] != 0.0, contact[3] != 0.0)
        self.wheel_extension_m = tuple(o[O_EXT:O_EXT + 4])
        self.brake_torque_nm = tuple(o[O_TB:O_TB + 4])
        self.engine_torque_nm = o[O_TE]
        self.fuel_rate_l_h = o[O_FUEL_RATE]
        self.clutch_torque_nm = o[O_TC]
        self.carrier_speed_rad_s = o[O_CARRIER]
        self.front_engaged = (o[O_FRONT] != 0.0, o[O_FRONT + 1] != 0.0)
        self.wheel_fx_n = tuple(o[O_FX:O_FX + 4])
        self.wheel_fy_n = tuple(o[O_FY:O_FY + 4])
        self.wheel_slip = tuple(o[O_SLIP:O_SLIP + 4])
        self.specific_force_body_mps2 = tuple(o[O_SF:O_SF + 3])
