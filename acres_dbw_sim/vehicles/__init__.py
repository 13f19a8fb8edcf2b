"""Vehicles that compose the shared model parts (acres_dbw_sim.model).

Each sub-package holds one vehicle's own parts: its parameter file loader and
the sections of its reference page that are not shared (powertrain, brakes,
steering actuator, implements). The shared sections (suspension load law,
tyre and soil, driveline solve, Ackermann, chassis, ledger) stay in
:mod:`acres_dbw_sim.model` and are imported, never copied.
"""
