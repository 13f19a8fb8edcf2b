"""Autoware's ``vehicle_info.param.yaml`` for a vehicle, from its parameter file.

Autoware's planners and controllers read the vehicle's size from this file (the
``autoware_vehicle_info_utils`` package; the fields as the pinned Autoware 1.8.0 documents them in
"Vehicle dimensions"). Every figure here comes from the vehicle's own parameters, so a run with
``set:=`` overrides or another parameter file gets its own file:

================  ==============================================================================
field             from
================  ==============================================================================
wheel_base        the wheelbase L (``geometry.wheelbase_m``, ``chassis.wheelbase_m``)
wheel_tread       the rear track, wheel centre to wheel centre (the axle of Autoware's base_link)
wheel_radius      the rear tyre's unloaded radius
wheel_width       the widest tyre's width
front_overhang    front wheel centre to the body's front: ``chassis.body_box.front_overhang_m``
rear_overhang     rear wheel centre to the body's rear: ``-chassis.body_box.rear_m``
left_overhang,    rear wheel centre to the vehicle's side: the wider of the body
right_overhang    (``chassis.body_box.half_width_m``) and the rear tyre's outer face, minus half
                  the rear track (the tractor's rear wheels stand out of its body)
vehicle_height    ``chassis.body_box.top_m`` (ground to roof)
max_steer_angle   the bicycle tyre angle at the steering's lock, the smaller of the two sides
                  (the Ranger's straight ahead is 12.53 deg off the wheel's zero), [rad]
================  ==============================================================================

The body box is the one the model collides with the ground (chassis.py); its figures are
estimates (their ``basis`` in the parameter file), and so are the overhangs and height here.

Run ``python -m acres_dbw_sim.autoware_vehicle_info OUT.yaml [--vehicle NAME] [--params FILE]
[--set "key=value;..."]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from .model.parts import BodyBox
from .model.steering import bicycle_angle_rad

__all__ = ["FIELDS", "vehicle_info", "write_vehicle_info", "main"]

#: The fields of Autoware's vehicle_info.param.yaml, in its order; all in metres but the angle [rad].
FIELDS = ("wheel_radius", "wheel_width", "wheel_base", "wheel_tread", "front_overhang", "rear_overhang",
          "left_overhang", "right_overhang", "vehicle_height", "max_steer_angle")


def vehicle_info(params) -> dict:
    """Autoware's vehicle dimensions of a vehicle's parameters (module docstring: what each comes from).

    Parameters
    ----------
    params : object
        A vehicle's parameters as its registry row's ``load_parameters`` returns them (``params.vehicle``
        names the row; ``params.chassis`` is the shared :class:`~acres_dbw_sim.model.parts.BodyBox`).

    Returns
    -------
    dict
        ``{field: float}`` for every name of :data:`FIELDS`, in that order [m, rad].

    Raises
    ------
    TypeError
        For parameters whose chassis has no body box, or that name no registered vehicle.
    """
    from .vehicles import vehicle_spec
    spec = vehicle_spec(params.vehicle)
    body = getattr(params, "chassis", None)
    if not isinstance(body, BodyBox):
        raise TypeError(f"{type(params).__name__}: no chassis.body_box (the body's size) to take the overhangs from")
    d = spec.dimensions(params)
    inst = spec.installation(params)
    ratio = spec.dbw_parameters(params).steering_ratio
    lock = min(abs(bicycle_angle_rad(side * inst.steering_lock_deg, ratio, inst.steering_center_deg))
               for side in (1.0, -1.0))
    half_track = 0.5 * d.track_rear_m
    side = max(body.box_half_width_m, half_track + 0.5 * d.rear_width_m) - half_track
    info = {"wheel_radius": d.rear_radius_m, "wheel_width": max(d.front_width_m, d.rear_width_m),
            "wheel_base": d.wheelbase_m, "wheel_tread": d.track_rear_m,
            "front_overhang": body.box_front_overhang_m, "rear_overhang": -body.box_rear_m,
            "left_overhang": side, "right_overhang": side, "vehicle_height": body.box_top_m,
            "max_steer_angle": lock}
    return {k: float(info[k]) for k in FIELDS}


def write_vehicle_info(path: Path, params) -> dict:
    """Write :func:`vehicle_info` of ``params`` to ``path`` as a ROS parameter file for every node
    (``/**: ros__parameters:``), 6 significant digits, and return the figures written.

    Raises
    ------
    TypeError
        As :func:`vehicle_info`.
    OSError
        When the file cannot be written.
    """
    info = {k: float(f"{v:.6g}") for k, v in vehicle_info(params).items()}
    header = (f"# Autoware vehicle_info.param.yaml of {params.vehicle} (acres_dbw_sim.autoware_vehicle_info): "
              "lengths [m] from the wheel centres, max_steer_angle [rad]\n")
    Path(path).write_text(header + yaml.safe_dump({"/**": {"ros__parameters": info}}, sort_keys=False))
    return info


def main(argv: list | None = None) -> int:
    """Write the file; 0, 2 for a bad argument or parameter."""
    from .model.params import ParameterError
    from .vehicles import REGISTRY, vehicle_spec
    ap = argparse.ArgumentParser(prog="python -m acres_dbw_sim.autoware_vehicle_info",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="the vehicle_info.param.yaml to write")
    ap.add_argument("--vehicle", default="polaris", choices=list(REGISTRY))
    ap.add_argument("--params", type=Path, default=None, help="the vehicle's parameter file (default: shipped)")
    ap.add_argument("--set", default=None, help='overrides "key=value;key=value"')
    args = ap.parse_args(argv)
    try:
        params = vehicle_spec(args.vehicle).load_parameters(args.params, args.set, None, None)
        info = write_vehicle_info(args.out, params)
    except (ParameterError, TypeError, OSError) as err:
        print(f"autoware_vehicle_info: error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {args.vehicle}, wheel_base {info['wheel_base']:g} m, "
          f"max_steer_angle {info['max_steer_angle']:g} rad")
    return 0


if __name__ == "__main__":
    sys.exit(main())
