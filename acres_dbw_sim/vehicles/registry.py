"""Vehicles that compose the shared model parts (acres_dbw_sim.model).

Each sub-package holds one vehicle's own parts: its parameter file loader and
the sections of its reference page that are not shared (powertrain, brakes,
steering actuator, implements). The shared sections (suspension load law,
tyre and soil, driveline solve, Ackermann, chassis, ledger) stay in
:mod:`acres_dbw_sim.model` and are imported, never copied.

Which vehicle a run simulates is looked up in :data:`REGISTRY` by its public
name (``vehicle:=maxxum150``, a scenario's ``vehicle: {type: ...}``): the row
says how to load its parameters, build its model, fit the DBW kit to it and
what it is called. Nothing outside this package compares a vehicle's name.

>>> spec = vehicle_spec("maxxum150")
>>> params = spec.load_parameters(None, None, None, None)
>>> spec.display_name
'Case IH Maxxum 150'
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..dbw.system import SIM_VIN
from .maxxum150 import VIN as _TRACTOR_VIN

__all__ = ["VehicleSpec", "REGISTRY", "register", "vehicle_spec"]


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
        Occupants and cargo (``occupants``, ``cargo_kg``) apply to it.
    controls : tuple of str
        Node parameters that only this vehicle has (the tractor's hand throttle and PTO).
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


#: ``{public name: VehicleSpec}``, in the order the tools list them (the first is the default).
REGISTRY: dict = {}


def register(spec: VehicleSpec) -> None:
    """Add a vehicle (or replace the row of the same name).

    Raises
    ------
    TypeError
        If ``spec`` is not a :class:`VehicleSpec`.
    """
    if not isinstance(spec, VehicleSpec):
        raise TypeError(f"register({spec!r}): a VehicleSpec is needed")
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


# ---------------------------------------------------------------------------------------- the rows
# Each builder imports its vehicle's modules when called: importing the registry loads no model.

def _ranger_parameters(path, overrides, occupants, cargo_kg):
    from ..model.params import load_parameters
    return load_parameters(path, overrides, occupants, cargo_kg)


def _ranger(params, terrain, dt_s):
    from ..model.vehicle import Vehicle
    return Vehicle(params, terrain, dt_s)


def _ranger_kinematic(params, terrain, dt_s):
    from ..model.kinematic import KinematicVehicle
    return KinematicVehicle(params, terrain, dt_s)


def _ranger_kit(params):
    from ..dbw.params import DbwParameters
    return DbwParameters.from_vehicle_parameters(params)


def _tractor_parameters(path, overrides, occupants, cargo_kg):
    from .maxxum150.params import load_maxxum_parameters
    return load_maxxum_parameters(path, overrides)


def _tractor(params, terrain, dt_s):
    from .maxxum150.dbw_vehicle import DbwTractor
    return DbwTractor(params, terrain, dt_s)


def _tractor_kit(params):
    from .maxxum150.dbw_vehicle import tractor_dbw_parameters
    return tractor_dbw_parameters(params)


register(VehicleSpec("polaris", "Polaris Ranger", _ranger_parameters, _ranger, _ranger_kinematic, _ranger_kit,
                     SIM_VIN, carries_payload=True))
register(VehicleSpec("maxxum150", "Case IH Maxxum 150", _tractor_parameters, _tractor, None, _tractor_kit,
                     _TRACTOR_VIN, carries_payload=False, controls=("hand_throttle", "pto_rpm")))
