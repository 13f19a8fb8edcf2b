"""The node's parameters as ROS sees them: declared types and descriptors (rclpy, rcl_interfaces).

The table of parameters, their limits and the check of a value are ROS-free data in
:mod:`acres_dbw_sim.interface`; this module turns them into what rclpy declares.
"""

from __future__ import annotations

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.parameter import Parameter

from acres_dbw_sim.interface import GEAR_NAMES, PARAMETER_LIMITS, PARAMETERS, RUNTIME_PARAMETERS

__all__ = ["as_declared", "parameter_descriptor"]


def as_declared(prm: Parameter) -> Parameter:
    """``prm`` with the declared type where a person's spelling gave another one.

    An integer for a floating-point parameter (``rate_factor:=10``) becomes a
    float; an unquoted ``N`` for ``initial_gear``, which ROS's YAML (command line,
    params file, launch file) reads as the boolean false, becomes ``"N"``.
    Anything else is returned unchanged (and refused by the declared type).
    """
    default = PARAMETERS[prm.name][0]
    value = prm.value
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return Parameter(prm.name, Parameter.Type.DOUBLE, float(value))
    if prm.name == "initial_gear" and value is False:
        return Parameter(prm.name, Parameter.Type.STRING, "N")
    return prm


def parameter_descriptor(name: str, default: object, description: str) -> ParameterDescriptor:
    """The ``rcl_interfaces/ParameterDescriptor`` of node parameter ``name``.

    ``default`` is its default value (its type decides float or integer range), ``description``
    the text with its unit. Carries the range or choices of ``PARAMETER_LIMITS``, the gear
    names for ``initial_gear``, when a change applies, and read-only unless the parameter is
    in ``RUNTIME_PARAMETERS`` (acres_dbw_sim.interface).
    """
    limits = PARAMETER_LIMITS.get(name)
    d = ParameterDescriptor(description=description, read_only=name not in RUNTIME_PARAMETERS)
    constraints = []
    if isinstance(limits, tuple) and limits and isinstance(limits[0], str):
        constraints.append("one of: " + ", ".join(limits))
    elif isinstance(default, float) and limits is not None:
        d.floating_point_range = [FloatingPointRange(from_value=float(limits[0]),
                                                     to_value=float(limits[1]), step=0.0)]
    elif isinstance(default, int) and not isinstance(default, bool) and limits is not None:
        d.integer_range = [IntegerRange(from_value=int(limits[0]), to_value=int(limits[1]), step=1)]
    if name == "initial_gear":
        constraints.append("one of: " + ", ".join(GEAR_NAMES) + " (any case)")
    constraints.append("applied at the next ~/reset" if name.startswith("initial_") or name == "drive_mode"
                       else "applied at once" if name in RUNTIME_PARAMETERS
                       else "read-only: set at start-up (command line, params file, launch file)")
    d.additional_constraints = "; ".join(constraints)
    return d
