"""The vehicle registry: one table of what each vehicle can do, looked up by its public name.

Which vehicle a run simulates is looked up in :data:`REGISTRY` by its public
name (``vehicle:=maxxum150``, a scenario's ``vehicle: {type: ...}``, a parameter
file's ``vehicle`` key): the row says how to load its parameters, build its
model, fit the DBW kit to it, draw it and what it is called. Nothing outside
``acres_dbw_sim.vehicles`` compares a vehicle's name (a test checks it).

>>> from acres_dbw_sim.vehicles import vehicle_spec
>>> spec = vehicle_spec("maxxum150")
>>> params = spec.load_parameters(None, None, None, None)
>>> spec.display_name
'Case IH Maxxum 150'
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Installation", "VehicleSpec", "REGISTRY", "register", "vehicle_spec", "default_vehicle"]


@dataclass(frozen=True)
class Installation:
    """Where the DBW kit meets a vehicle: the figures a command is checked and scaled against.

    Attributes
    ----------
    steering_center_deg : float
        Steering-wheel angle of straight ahead [deg] (the DBW's zero).
    steering_lock_deg : float
        Steering-wheel angle at full lock either way [deg], measured as the DBW measures it.
    brake_full_bar : float
        Brake line pressure of full braking [bar].
    """

    steering_center_deg: float
    steering_lock_deg: float
    brake_full_bar: float


@dataclass(frozen=True)
class VehicleSpec:
    """One vehicle of the registry: what the simulation, the node and the tools need to know of it.

    Attributes
    ----------
    name : str
        Public name (``vehicle:=NAME``, scenario ``type``).
    display_name : str
        As the node's start line names it.
    load_parameters : callable
        ``(path or None, overrides or None, occupants or None, cargo_kg or None) -> parameters``; the
        shipped file when ``path`` is None.
    build : callable
        ``(parameters, terrain, dt_s) -> model`` of the full model level.
    build_kinematic : callable or None
        The same for the kinematic level; None: full model only.
    dbw_parameters : callable
        ``parameters -> DbwParameters``: the DBW kit fitted to this vehicle.
    vin : str
        The VIN the DBW's ``system/report`` gives.
    carries_payload : bool
        Occupants and cargo (``occupants``, ``cargo_kg``) apply to it; its parameters then have
        ``mass.occupants`` and ``mass.cargo_kg`` [kg].
    controls : tuple of str
        Node parameters that only this vehicle has (the tractor's hand throttle and PTO).
    dimensions : callable
        ``parameters -> acres_dbw_sim.description.Dimensions``: what its URDF draws [m, rad].
    installation : callable
        ``parameters -> Installation``: the steering and brake figures the DBW kit is fitted to.
    surfaces : callable
        ``parameters -> tuple of Surface``: the world's surface table its runs see (index =
        ``surface_index`` of the terrain).
    mass_summary : callable
        ``parameters -> dict``: ``mass_kg`` [kg], ``cg_m`` (x, y, z from ``base_footprint``, body
        frame) [m], ``inertia_kg_m2`` (principal: roll, pitch, yaw) [kg m^2] and
        ``static_loads_n`` (FL, FR, RL, RR) [N] as loaded.
    payload_hint : str
        What to say to a user who gives it occupants or cargo when it carries none.
    parameter_file : callable or None
        ``() -> Path``: its shipped parameter file (what ``load_parameters(None, ...)`` reads); None: it
        ships none (tools that read a file's entries then need one given).
    limits : callable or None
        ``() -> {key: (lower, upper, lower inclusive)}``: the number keys its loader bounds (calibration's
        bounds); None: none declared.
    ulc_plant : callable
        ``DbwParameters -> plant``: the model the DBW's ULC inverts for its feed-forward (``solve``,
        ``rear_ratio``, ``rotating_mass_kg``; ``acres_dbw_sim.dbw.ulc.Ulc``).
    """

    name: str
    display_name: str
    load_parameters: Callable
    build: Callable
    build_kinematic: Callable | None
    dbw_parameters: Callable
    vin: str
    carries_payload: bool
    controls: tuple = ()
    dimensions: Callable | None = None
    installation: Callable | None = None
    surfaces: Callable | None = None
    mass_summary: Callable | None = None
    payload_hint: str = ""
    ulc_plant: Callable | None = None
    parameter_file: Callable | None = None
    limits: Callable | None = None


#: ``{public name: VehicleSpec}``, in the order the tools list them (the first is the default).
REGISTRY: dict = {}


def register(spec: VehicleSpec) -> None:
    """Add a vehicle (or replace the row of the same name).

    Raises
    ------
    TypeError
        If ``spec`` is not a :class:`VehicleSpec` or lacks one of its callables (dimensions,
        installation, surfaces, mass_summary, ulc_plant).
    """
    if not isinstance(spec, VehicleSpec):
        raise TypeError(f"register({spec!r}): a VehicleSpec is needed")
    missing = [n for n in ("dimensions", "installation", "surfaces", "mass_summary", "ulc_plant")
               if getattr(spec, n) is None]
    if missing:
        raise TypeError(f"register({spec.name!r}): the row needs {', '.join(missing)}")
    REGISTRY[spec.name] = spec


def vehicle_spec(name: str) -> VehicleSpec:
    """The registry's row of ``name``.

    Raises
    ------
    ValueError
        For a name the registry does not hold, listing the names it does.
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"vehicle={name!r}: must be one of {', '.join(REGISTRY)}") from None


def default_vehicle() -> str:
    """The registry's first name: the vehicle of a run that names none (``polaris``)."""
    return next(iter(REGISTRY))
