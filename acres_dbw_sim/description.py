"""The vehicle's URDF, generated from its parameter file (no ROS import).

One source for the model and for RViz: the wheelbase, the tracks and the tyre
radii of the URDF are those of the parameters (the Ranger's
:class:`acres_dbw_sim.vehicles.polaris.params.VehicleParameters`, ``config/polaris.json``,
or the Maxxum 150's ``MaxxumParameters``, ``config/maxxum150.json``, with their
overrides), so the drawing and the physics cannot disagree. The joint names are the ones ``joint_states`` publishes
(``msg_adapters.vehicle_state.JOINT_NAMES``, repeated here as data so that this
module needs no ROS import; a test checks that the two agree).

Frames (REP-103/105; x forward, y left, z up):

``base_footprint``
    The root, on the ground under the rear-axle centre: the point the model's
    odometry reports (vehicles/polaris/vehicle.py).
``base_link``
    At mid-wheelbase and rear-wheel-centre height, ``(L/2, 0, R)`` from
    ``base_footprint`` (L wheelbase, R unloaded rear tyre radius): the placement of
    Dataspeed's Polaris description package (``dbw_polaris_description``,
    fixed joint ``base_link`` at +L/2, +R). A front wheel of another radius sits
    ``r_f - R`` above or below it (the tractor).
``chassis``
    A box standing for the body (visual only; its size is a drawing, not a model
    parameter).
``<corner>_steer_link``, ``<corner>_wheel``
    Front steer knuckles (revolute about z, positive = left, the road-wheel
    angle) carrying the front wheels; the rear wheels hang on ``base_link``.
    Wheel joints are continuous about the wheel's y axis (positive = rolling
    forward), at ``(±L/2, ±b/2, 0)`` from ``base_link`` (b the axle's track).
``steering_wheel``
    On its column (continuous about -x: positive = counter-clockwise as seen by
    the driver, the DBW's steering-wheel angle), at a drawn cockpit position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

__all__ = ["JOINT_NAMES", "Joint", "Dimensions", "dimensions", "base_link_offset_m", "joints", "urdf"]

#: Movable joints in ``joint_states`` order: wheel spins FL FR RL RR, front steer
#: angles FL FR, steering wheel.
JOINT_NAMES = ("front_left_wheel_joint", "front_right_wheel_joint",
               "rear_left_wheel_joint", "rear_right_wheel_joint",
               "front_left_steer_joint", "front_right_steer_joint",
               "steering_wheel_joint")

# Drawing only (not model parameters) [m]: the chassis link's origin above base_link,
# steering-wheel position from base_link (left-hand drive) and its radius.
_CHASSIS_Z_M = 0.55
_STEERING_WHEEL_XYZ_M = (0.55, 0.35, 0.55)
_STEERING_WHEEL_RADIUS_M = 0.18


@dataclass(frozen=True)
class Dimensions:
    """What the URDF draws of a vehicle [m, rad]: wheelbase, tracks, tyre radii and widths, the steer
    knuckles' limit, the body box (length, width, height) and the robot's name."""

    name: str
    wheelbase_m: float
    track_front_m: float
    track_rear_m: float
    front_radius_m: float
    rear_radius_m: float
    front_width_m: float
    rear_width_m: float
    steer_limit_rad: float
    body_m: tuple


def dimensions(params) -> Dimensions:
    """The :class:`Dimensions` of a vehicle's parameters, from its registry row (``params.vehicle``).

    Raises
    ------
    TypeError
        For an object that names no vehicle of the registry.
    """
    from .vehicles import vehicle_spec
    try:
        spec = vehicle_spec(params.vehicle)
    except (AttributeError, ValueError):
        raise TypeError(f"{type(params).__name__}: not the parameters of a vehicle of this project") from None
    return spec.dimensions(params)


@dataclass(frozen=True)
class Joint:
    """A URDF joint: ``parent -> child`` at ``xyz_m`` (no rotation), moving about ``axis``.

    ``kind`` is ``fixed``, ``continuous`` or ``revolute`` (limits ``±limit_rad``).
    """

    name: str
    kind: str
    parent: str
    child: str
    xyz_m: tuple[float, float, float]
    axis: tuple[float, float, float] = (0.0, 0.0, 1.0)
    limit_rad: float = 0.0


def base_link_offset_m(params) -> tuple[float, float, float]:
    """``base_footprint -> base_link`` translation [m]: ``(L/2, 0, R)``.

    Parameters
    ----------
    params : VehicleParameters or MaxxumParameters
    """
    d = dimensions(params)
    return (0.5 * d.wheelbase_m, 0.0, d.rear_radius_m)


def joints(params, base_frame: str = "base_footprint", base_link_frame: str = "base_link") -> list[Joint]:
    """Every joint of the vehicle's URDF, parents before children.

    Parameters
    ----------
    params : VehicleParameters or MaxxumParameters
        Wheelbase L, tracks b_f, b_r and the tyre radii come from here (:func:`dimensions`).
    base_frame, base_link_frame : str
        Names of the root link and of ``base_link`` (the node's parameters).
    """
    d = dimensions(params)
    half_l = 0.5 * d.wheelbase_m
    half_bf, half_br = 0.5 * d.track_front_m, 0.5 * d.track_rear_m
    dz_front = d.front_radius_m - d.rear_radius_m
    out = [Joint("base_link_joint", "fixed", base_frame, base_link_frame, base_link_offset_m(params)),
           Joint("chassis_joint", "fixed", base_link_frame, "chassis", (0.0, 0.0, _CHASSIS_Z_M))]
    for side, y in (("left", half_bf), ("right", -half_bf)):
        out.append(Joint(f"front_{side}_steer_joint", "revolute", base_link_frame, f"front_{side}_steer_link",
                         (half_l, y, dz_front), (0.0, 0.0, 1.0), d.steer_limit_rad))
        out.append(Joint(f"front_{side}_wheel_joint", "continuous", f"front_{side}_steer_link",
                         f"front_{side}_wheel", (0.0, 0.0, 0.0), (0.0, 1.0, 0.0)))
    for side, y in (("left", half_br), ("right", -half_br)):
        out.append(Joint(f"rear_{side}_wheel_joint", "continuous", base_link_frame, f"rear_{side}_wheel",
                         (-half_l, y, 0.0), (0.0, 1.0, 0.0)))
    out.append(Joint("steering_wheel_joint", "continuous", base_link_frame, "steering_wheel",
                     _STEERING_WHEEL_XYZ_M, (-1.0, 0.0, 0.0)))
    return out


def _v(values) -> str:
    return " ".join(f"{x:.6g}" for x in values)


def urdf(params, name: str | None = None, base_frame: str = "base_footprint",
         base_link_frame: str = "base_link") -> str:
    """The URDF (XML text) of the vehicle with the dimensions of ``params``.

    Parameters
    ----------
    params : VehicleParameters or MaxxumParameters
    name : str, optional
        ``<robot name>``; default the vehicle's (:attr:`Dimensions.name`, e.g. ``polaris_ranger``).
    base_frame, base_link_frame : str
        Names of the root link and of ``base_link``.

    Returns
    -------
    str
        A URDF document; link and joint names as in the module docstring,
        movable joints named as ``JOINT_NAMES``.
    """
    d = dimensions(params)
    name = d.name if name is None else name
    radius = {"front": d.front_radius_m, "rear": d.rear_radius_m}
    width = {"front": d.front_width_m, "rear": d.rear_width_m}
    body = d.body_m
    radii = (f"tyre radius {d.rear_radius_m} m" if d.front_radius_m == d.rear_radius_m
             else f"tyre radii {d.front_radius_m}/{d.rear_radius_m} m")
    lines = ['<?xml version="1.0"?>',
             f"<!-- Generated by acres_dbw_sim.description from the vehicle parameters: "
             f"wheelbase {d.wheelbase_m} m, tracks {d.track_front_m}/{d.track_rear_m} m, "
             f"{radii}. Do not edit. -->",
             f"<robot name={quoteattr(name)}>",
             '  <material name="body"><color rgba="0.15 0.35 0.15 1"/></material>',
             '  <material name="tyre"><color rgba="0.1 0.1 0.1 1"/></material>',
             f"  <link name={quoteattr(base_frame)}/>",
             f"  <link name={quoteattr(base_link_frame)}/>",
             '  <link name="chassis"><visual><geometry>'
             f'<box size="{_v(body)}"/></geometry><material name="body"/></visual></link>']
    for axle in ("front", "rear"):
        for side in ("left", "right"):
            if axle == "front":
                lines.append(f'  <link name="front_{side}_steer_link"/>')
            lines.append(
                f'  <link name="{axle}_{side}_wheel"><visual>'
                f'<origin xyz="0 0 0" rpy="{math.pi / 2:.9f} 0 0"/>'
                f'<geometry><cylinder radius="{radius[axle]:.6g}" length="{width[axle]:.6g}"/></geometry>'
                '<material name="tyre"/></visual></link>')
    lines.append('  <link name="steering_wheel"><visual>'
                 f'<origin xyz="0 0 0" rpy="0 {math.pi / 2:.9f} 0"/>'
                 f'<geometry><cylinder radius="{_STEERING_WHEEL_RADIUS_M}" length="0.03"/></geometry>'
                 '<material name="tyre"/></visual></link>')
    for j in joints(params, base_frame, base_link_frame):
        body_xml = (f"<parent link={quoteattr(j.parent)}/><child link={quoteattr(j.child)}/>"
                    f'<origin xyz="{_v(j.xyz_m)}" rpy="0 0 0"/>')
        if j.kind != "fixed":
            body_xml += f'<axis xyz="{_v(j.axis)}"/>'
        if j.kind == "revolute":
            body_xml += f'<limit lower="{-j.limit_rad}" upper="{j.limit_rad}" effort="1000" velocity="2"/>'
        lines.append(f'  <joint name="{j.name}" type="{j.kind}">{body_xml}</joint>')
    lines.append("</robot>")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m acres_dbw_sim.description [vehicle_config.json] [overrides]``: print the URDF.

    The file is read by the loader of the vehicle its ``vehicle`` key names (the registry's first,
    the Ranger, for a file that names none or no file). Exit 0, or 2 with one ``error:`` line for a
    file or an override the loader refuses.
    """
    import argparse
    import sys

    from .model.params import ParameterError, file_vehicle
    from .vehicles import REGISTRY, default_vehicle, vehicle_spec

    ap = argparse.ArgumentParser(prog="python -m acres_dbw_sim.description",
                                 description="Print the URDF of the vehicle a parameter file describes.")
    ap.add_argument("vehicle_config", nargs="?", help="parameter file (default: the Ranger's shipped file)")
    ap.add_argument("overrides", nargs="?", help='"key=value;key=value"')
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        name = (file_vehicle(args.vehicle_config, REGISTRY) if args.vehicle_config else None) or default_vehicle()
        params = vehicle_spec(name).load_parameters(args.vehicle_config, args.overrides, None, None)
    except (ParameterError, ValueError) as err:
        print(f"{ap.prog}: error: {err}", file=sys.stderr)
        return 2
    print(urdf(params), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
