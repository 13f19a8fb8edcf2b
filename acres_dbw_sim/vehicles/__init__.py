"""Vehicles that compose the shared model parts (acres_dbw_sim.model), and the registry that names them.

Each sub-package holds one vehicle's own parts and its registry row (``SPEC``):
the parameter file's loader and the sections of its reference page that are not
shared (powertrain, brakes, steering actuator, implements). The shared sections
(suspension load law, tyre and soil, driveline solve, Ackermann, chassis,
ledger) stay in :mod:`acres_dbw_sim.model` and are imported, never copied.

A third vehicle is one sub-package, one parameter file and one :func:`register`
call (docs/vehicles.md, "Adding a vehicle").
"""
from __future__ import annotations

from . import maxxum150, polaris
from .registry import REGISTRY, Installation, VehicleSpec, default_vehicle, register, vehicle_spec

__all__ = ["Installation", "VehicleSpec", "REGISTRY", "register", "vehicle_spec", "default_vehicle"]

register(polaris.SPEC)
register(maxxum150.SPEC)
