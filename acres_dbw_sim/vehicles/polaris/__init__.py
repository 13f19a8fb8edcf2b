"""The Polaris Ranger CREW XP 1000 behind the Dataspeed kit (polaris-ranger-dynamics.md): its registry row.

The Ranger's model is built from the shared parts in :mod:`acres_dbw_sim.model`
(``Vehicle``, its kinematic level ``KinematicVehicle``) with the parameters of
``config/polaris.json``; this package says how the tools reach it: the loader,
the builders, the DBW kit's fit, the URDF's dimensions and the mass summary.

Frames: body x forward, y left, z up (REP-103); wheels 0 FL, 1 FR, 2 RL, 3 RR.
"""
from __future__ import annotations

from ...dbw.state import SIM_VIN
from ..registry import Installation, VehicleSpec

__all__ = ["SPEC", "VIN"]

#: The simulated Ranger's VIN in the DBW's ``system/report`` (the DBW's own default).
VIN = SIM_VIN

# Drawing only (not model parameters) [m, rad]: the body box beyond the axles and its height, and the
# knuckle joint limit of Dataspeed's Polaris description (dbw_polaris_description).
BODY_OVERHANG_M = 0.55
BODY_HEIGHT_M = 1.1
STEER_JOINT_LIMIT_RAD = 0.6


def load(path, overrides, occupants, cargo_kg):
    """:func:`acres_dbw_sim.vehicles.polaris.params.load_parameters` (the shipped file when ``path`` is None).

    Raises
    ------
    ParameterError
        As the loader.
    """
    from .params import load_parameters
    return load_parameters(path, overrides, occupants, cargo_kg)


def build(params, terrain, dt_s):
    """The full model, :class:`acres_dbw_sim.vehicles.polaris.vehicle.Vehicle`."""
    from .vehicle import Vehicle
    return Vehicle(params, terrain, dt_s)


def build_kinematic(params, terrain, dt_s):
    """The kinematic level, :class:`acres_dbw_sim.vehicles.polaris.kinematic.KinematicVehicle`."""
    from .kinematic import KinematicVehicle
    return KinematicVehicle(params, terrain, dt_s)


def dbw_kit(params):
    """The DBW kit's parameters (``dbw.*`` of the file, the vehicle's mass with occupants and cargo), fitted when
    the file was loaded (``VehicleParameters.kit``)."""
    return params.kit


def dimensions(params):
    """The URDF's :class:`~acres_dbw_sim.description.Dimensions`: wheelbase, tracks and tyres of ``params``,
    a drawn body box (overhang 0.55 m each end, 1.1 m high) and Dataspeed's knuckle limit 0.6 rad."""
    from ...description import Dimensions
    g, t = params.geometry, params.tyres
    body = (g.wheelbase_m + 2.0 * BODY_OVERHANG_M, max(g.track_front_m, g.track_rear_m), BODY_HEIGHT_M)
    return Dimensions("polaris_ranger", g.wheelbase_m, g.track_front_m, g.track_rear_m, t.radius_m,
                      t.radius_m, t.front_width_m, t.rear_width_m, STEER_JOINT_LIMIT_RAD, body)


def installation(params) -> Installation:
    """Steering centre and lock (``steering.center_deg``, ``dbw.steering.lock_deg``) [deg] and the brake's
    full-scale line pressure (``brakes.max_bar``) [bar]."""
    return Installation(params.steering.center_deg, params.kit.steering_lock_deg, params.brakes.max_bar)


def surfaces(params) -> tuple:
    """The surface table read with the Ranger's parameters."""
    return params.surfaces


def ulc_plant(dbw_params):
    """The ULC's plant model: the inverse of the Ranger's engine, clutch, CVT and gears
    (:class:`.ulc_plant.PowertrainModel`)."""
    from .ulc_plant import PowertrainModel
    return PowertrainModel(dbw_params)


def mass_summary(params) -> dict:
    """Mass, centre of mass from ``base_footprint``, principal inertia and static loads with occupants
    and cargo (polaris-ranger-dynamics.md, Mass and Geometry)."""
    mp = params.mass_properties
    return {"mass_kg": mp.mass_kg, "cg_m": tuple(mp.cg_m), "inertia_kg_m2": tuple(mp.inertia_kg_m2),
            "static_loads_n": tuple(mp.static_loads_n)}


def parameter_file():
    """The shipped ``config/polaris.json``.

    Raises
    ------
    ParameterError
        If it is not found.
    """
    from .params import default_config_path
    return default_config_path()


def limits() -> dict:
    """The Ranger's number keys and the bounds its loader accepts (``params.LIMITS``)."""
    from .params import LIMITS
    return LIMITS


SPEC = VehicleSpec("polaris", "Polaris Ranger", load, build, build_kinematic, dbw_kit, VIN, carries_payload=True,
                   dimensions=dimensions, installation=installation, surfaces=surfaces, mass_summary=mass_summary,
                   ulc_plant=ulc_plant, parameter_file=parameter_file, limits=limits)
