"""The Case IH Maxxum 150 tractor's own parts (maxxum-150-dynamics.md).

One module per section of the page:

============================  ==================================================
Module                        Page section
============================  ==================================================
``params``                    Parameters (``config/maxxum150.json``)
``mass``                      Chassis and Mass Properties (mounts, static loads,
                              ApplyImplementMass, legacy box inertia)
``steering``                  Steering (delay, lag, lock, rate limit; Ackermann
                              is the shared ``model.steering.ackermann_rad``)
``engine``                    Engine (torque curve, governors, loads, hand
                              throttle and PTO)
``clutch``                    Clutch (engagement, capacity, stall protection)
``transmission``              Transmission, Front-Wheel Drive, Axle and
                              Differential (data for the shared solve)
``brakes``                    Brakes and Park Brake
``chassis``                   Chassis and Mass Properties (air drag),
                              Front-Axle Oscillation
``implement``                 Legacy Tractor (ASABE D497.7 draft, mounted and
                              trailed implement), Implement Coupling
============================  ==================================================

``VIN`` is the simulated tractor's identity in the DBW's ``system/report``;
``SPEC`` is its row of the vehicle registry (each builder imports its modules
when called: importing the registry loads no model).

Frames: body x forward, y left, z up (REP-103; the page's y points right, so
its lateral signs are mirrored here where stated). The body origin is 0.4 L
ahead of the rear axle at the height h_cg. Wheels 0 FL, 1 FR, 2 RL, 3 RR.
"""

from __future__ import annotations

import math

from ..registry import Installation, VehicleSpec

__all__ = ["SPEC", "VIN"]

#: Simulated VIN of the tractor (17 characters, ISO 3779, valid check digit; not a real vehicle).
VIN = "JJAMXM152TS000001"


def load(path, overrides, occupants, cargo_kg):
    """:func:`.params.load_maxxum_parameters` (the tractor carries no occupants or cargo: those are ignored).

    Raises
    ------
    ParameterError
        As the loader.
    """
    from .params import load_maxxum_parameters
    return load_maxxum_parameters(path, overrides)


def build(params, terrain, dt_s):
    """The tractor behind the DBW, :class:`.dbw_vehicle.DbwTractor`."""
    from .dbw_vehicle import DbwTractor
    return DbwTractor(params, terrain, dt_s)


def dbw_kit(params):
    """The DBW kit fitted to the tractor when its file was loaded (:func:`.params.tractor_dbw_parameters`)."""
    return params.kit


def dimensions(params):
    """The URDF's :class:`~acres_dbw_sim.description.Dimensions`: wheelbase, track and tyres of ``params``;
    the steer joints' limit is the inner wheel's angle at full lock (Ackermann), the body box the
    chassis length, the track and the rear tyre's diameter."""
    from ...description import Dimensions
    from .steering import front_wheel_angles_rad
    ch, t = params.chassis, params.tyres
    inner = abs(front_wheel_angles_rad(params.steering.max_steer_rad, ch.wheelbase_m, ch.track_m)[0])
    body = (ch.body_length_m, ch.track_m, 2.0 * t.rear_radius_m)
    return Dimensions("case_ih_maxxum_150", ch.wheelbase_m, ch.track_m, ch.track_m, t.front_radius_m,
                      t.rear_radius_m, t.front_width_m, t.rear_width_m, inner, body)


def installation(params) -> Installation:
    """The DBW mapping's figures: steering-wheel degrees = delta x ``installation.steering_ratio`` (centre 0, lock
    at the steering's ``max_steer_rad``), full braking b_k = 1 at ``installation.brake_full_bar``."""
    lock = math.degrees(params.steering.max_steer_rad) * params.dbw_steering_ratio
    return Installation(0.0, lock, params.dbw_brake_full_bar)


def surfaces(params) -> tuple:
    """The world's surface table (``config/world.json``) with the run's world overrides."""
    return params.surfaces


def ulc_plant(dbw_params):
    """The ULC's plant model: the Ranger's (:class:`acres_dbw_sim.vehicles.polaris.ulc_plant.PowertrainModel`)
    with the figures of the tractor's ``ulc_plant`` section; the tractor's own engine and powershift are not
    inverted yet (the ULC's feedback closes the loop)."""
    from ..polaris.ulc_plant import PowertrainModel
    return PowertrainModel(dbw_params)


def mass_summary(params) -> dict:
    """Mass, centre of mass from ``base_footprint``, principal inertia and static loads with a carried
    implement (maxxum-150-dynamics.md, Chassis and Mass Properties)."""
    from .vehicle import Tractor
    t = Tractor(params)
    m = t.mass
    return {"mass_kg": m.mass_kg, "cg_m": tuple(t.cg_from_footprint_m), "inertia_kg_m2": tuple(m.inertia_kg_m2),
            "static_loads_n": tuple(m.static_loads_n)}


def parameter_file():
    """The shipped ``config/maxxum150.json``.

    Raises
    ------
    ParameterError
        If it is not found.
    """
    from .params import default_config_path
    return default_config_path()


def limits() -> dict:
    """The tractor's number keys and the bounds its loader accepts (``params.LIMITS``)."""
    from .params import LIMITS
    return LIMITS


SPEC = VehicleSpec("maxxum150", "Case IH Maxxum 150", load, build, None, dbw_kit, VIN, carries_payload=False,
                   controls=("hand_throttle", "pto_rpm"), dimensions=dimensions, installation=installation,
                   surfaces=surfaces, mass_summary=mass_summary, ulc_plant=ulc_plant,
                   parameter_file=parameter_file, limits=limits,
                   payload_hint="a tractor's implement is in the overrides: implement.attachment, "
                                "implement.payload_kg")
