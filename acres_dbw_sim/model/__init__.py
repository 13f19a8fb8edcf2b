"""The shared core every vehicle is built from (ROS-free), one module per section of the references.

Suspension (``suspension``), tyre and soil (``tyre``, ``soil``), the resistances
(``resistances``), the driveline solve (``driveline``), the chassis
(``chassis``), the step's shared stages (``stages``), the ledger (``energy``),
steering geometry (``steering``), terrain (``terrain``), the actuator filters
(``filters``), the inputs the DBW drives a vehicle with (``inputs``), the
enumerations (``enums``) and the parameter layer (``params``: files, overrides,
checks, the world and the DBW kit). No module here names a vehicle; each
vehicle's own parts (powertrain, brakes, steering actuator, mass, its
parameters) are in ``acres_dbw_sim/vehicles/<name>/`` (docs/vehicles.md).
"""
