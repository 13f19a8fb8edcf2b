"""The outputs every vehicle on the shared core publishes, read from the step's output array.

The compiled step of each vehicle writes its outputs into one flat array in the layout of
stages.py (``O_*``: the chassis's pose and motion, each wheel's angle, load, forces, slip, the
brake and driveline torques); a reset writes there the outputs of the vehicle at rest on its
springs (:meth:`VehicleBody._rest_outputs`). :class:`VehicleBody` gives that array as the
attributes the node's builders, the scenario recorder, replay and tests read, for every
vehicle alike, converted once per step on the first read (a run that reads none, the compiled
step through the DBW with the compiled recorder, converts nothing); a vehicle adds only what is
its own (the Ranger's CVT ratio and lever, the tractor's clutch and powershift).

Frames and units: positions in odom [m], orientation a unit quaternion (w, x, y, z) from
base_link to odom, velocities and specific force in the body frame (REP-103) [m/s, rad/s,
m/s^2]; wheels in the order FL, FR, RL, RR.
"""
from __future__ import annotations

from ._jit import to_list
from .chassis import G_MPS2
from .stages import (O_ANGLE, O_CARRIER, O_CONTACT, O_DELTA, O_EXT, O_FRONT, O_FUEL_RATE, O_FX, O_FY, O_LOAD,
                     O_OMEGA, O_POS, O_Q, O_SF, O_SINK, O_SLIP, O_SW, O_TB, O_TC, O_TE, O_VB, O_WB, O_WHEEL_ANGLE)

__all__ = ["VehicleBody"]


def _vector(start: int, n: int, doc: str) -> property:
    """A read-only attribute: ``n`` outputs from ``start`` as a tuple of floats."""
    end = start + n
    return property(lambda self: tuple(self._outputs()[start:end]), doc=doc)


def _scalar(index: int, doc: str) -> property:
    """A read-only attribute: the output at ``index`` as a float."""
    return property(lambda self: self._outputs()[index], doc=doc)


def _flags(start: int, n: int, doc: str) -> property:
    """A read-only attribute: ``n`` outputs from ``start`` as a tuple of bools (1.0: True)."""
    end = start + n
    return property(lambda self: tuple(x != 0.0 for x in self._outputs()[start:end]), doc=doc)


class VehicleBody:
    """Mixin of a vehicle class: the shared outputs as read-only attributes over the output array ``_out``
    (stages.py ``O_*``, set by the vehicle) of its last step or reset.

    The vehicle calls :meth:`_outputs_changed` after each step or reset that wrote ``_out``; the first read
    after it copies the array into a list that every attribute reads until the next change.
    """

    _ol = None

    def _outputs(self) -> list:
        """The output array's values at the last change (a list, made on the first read after it)."""
        o = self._ol
        if o is None:
            o = self._ol = to_list(self._out)
        return o

    def _outputs_changed(self) -> None:
        """The step or reset wrote new outputs into ``_out``: the attributes read them from now on."""
        self._ol = None

    def _rest_outputs(self, static_load_n, rest_extension_m: float, sinkage_m, steering_wheel_deg: float,
                      carrier_speed_rad_s: float, front_engaged: bool) -> None:
        """Write the outputs of the vehicle at rest on its springs into ``_out`` (a reset, before the chassis's
        motion is written by stages.py ``kinematics``): each wheel straight ahead, in contact at its static load
        ``static_load_n`` (4) [N], extension ``rest_extension_m`` [m] and rut depth ``sinkage_m`` (4) [m], no force,
        slip or brake torque; the steering wheel at ``steering_wheel_deg`` [deg], the engine without torque or
        fuel flow, the carrier at ``carrier_speed_rad_s`` [rad/s], the front axle engaged or not, and the specific
        force of gravity."""
        out = self._out
        for j in range(4):
            out[O_ANGLE + j] = out[O_TB + j] = out[O_FX + j] = out[O_FY + j] = out[O_SLIP + j] = 0.0
            out[O_LOAD + j] = static_load_n[j]
            out[O_CONTACT + j] = 1.0
            out[O_EXT + j] = rest_extension_m
            out[O_SINK + j] = sinkage_m[j]
        out[O_SW] = steering_wheel_deg
        out[O_DELTA] = out[O_TE] = out[O_FUEL_RATE] = out[O_TC] = 0.0
        out[O_FRONT] = out[O_FRONT + 1] = 1.0 if front_engaged else 0.0
        out[O_CARRIER] = carrier_speed_rad_s
        out[O_SF] = out[O_SF + 1] = 0.0
        out[O_SF + 2] = G_MPS2

    # the chassis's pose and motion and the wheels' spin and rotation angle
    position_m = _vector(O_POS, 3, "base_footprint in odom [m] (3).")
    orientation_wxyz = _vector(O_Q, 4, "Unit quaternion w, x, y, z from base_link to odom (4).")
    velocity_body_mps = _vector(O_VB, 3, "Velocity of base_footprint, body frame [m/s] (3).")
    angular_velocity_body_rad_s = _vector(O_WB, 3, "Angular velocity, body frame [rad/s] (3).")
    speed_mps = _scalar(O_VB, "The body's forward speed [m/s].")
    yaw_rate_rad_s = _scalar(O_WB + 2, "Yaw rate, body z [rad/s].")
    wheel_spin_rad_s = _vector(O_OMEGA, 4, "Wheel spins [rad/s] (4).")
    wheel_angle_rad = _vector(O_WHEEL_ANGLE, 4, "Wheels' rotation angles [rad] (4).")
    # the step's steering, wheel, brake and driveline outputs
    steering_wheel_deg = _scalar(O_SW, "Steering-wheel angle after the rack stops [deg].")
    bicycle_angle_rad = _scalar(O_DELTA, "Bicycle-model road-wheel angle [rad].")
    road_wheel_angle_rad = _vector(O_ANGLE, 4, "Road-wheel angles [rad] (4).")
    wheel_load_n = _vector(O_LOAD, 4, "Normal loads [N] (4).")
    wheel_in_contact = _flags(O_CONTACT, 4, "Each wheel on the ground (4 bool).")
    wheel_extension_m = _vector(O_EXT, 4, "Probe extensions [m] (4).")
    brake_torque_nm = _vector(O_TB, 4, "Brake torques [N m] (4).")
    engine_torque_nm = _scalar(O_TE, "Engine torque [N m].")
    fuel_rate_l_h = _scalar(O_FUEL_RATE, "Fuel flow [L/h].")
    clutch_torque_nm = _scalar(O_TC, "Torque through the driveline's clutch [N m].")
    carrier_speed_rad_s = _scalar(O_CARRIER, "Rear differential carrier speed [rad/s].")
    front_engaged = _flags(O_FRONT, 2, "Each front wheel driven (2 bool).")
    wheel_fx_n = _vector(O_FX, 4, "Longitudinal tyre forces [N] (4).")
    wheel_fy_n = _vector(O_FY, 4, "Lateral tyre forces [N] (4).")
    wheel_slip = _vector(O_SLIP, 4, "Kinematic slip (-1 at lock) [-] (4).")
    sinkage_m = _vector(O_SINK, 4, "Depth of each wheel's rut below the surface [m] (4; 0 on hard ground, soil.py).")
    specific_force_body_mps2 = _vector(O_SF, 3, "Specific force at base_footprint, body frame [m/s^2] (3).")
