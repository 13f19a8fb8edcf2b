"""Several vehicles in one process: who they are (parameter ``vehicles``), with no ROS import.

:func:`parse_vehicles` turns the names into :class:`FleetMember` rows (namespace, frame
prefix, pose topic, lead); the rclpy node that steps them together is
:class:`acres_dbw_sim.fleet_node.FleetNode`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FLEET_SPACING_M", "FLEET_WIDE", "FleetMember", "parse_vehicles"]

FLEET_SPACING_M = 4.0   # 'vehicles': the distance between two vehicles along +y without initial_y_m [m]
FLEET_WIDE = ("step_hz", "time_mode", "rate_factor", "lockstep_steps", "clock_owner")
_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True)
class FleetMember:
    """Where one vehicle of a ``vehicles`` process lives.

    ``namespace`` of its ``dbw_node`` (``/car1/vehicle``), the default ``frame_prefix``
    of its frames (``car1/``), the topic of its RViz pose tool (``/car1/initialpose``)
    and whether it is the lead: the vehicle whose node publishes ``/clock`` (sim and
    lockstep modes, with ``clock_owner``) and whose pacing the step loop follows.
    ``initial_y_m`` [m] is its ``initial_y_m`` when none is given for it: the vehicles
    stand ``FLEET_SPACING_M`` apart along +y, as ``vehicles.launch.py`` places them.
    """

    namespace: str
    frame_prefix: str
    initialpose_topic: str
    lead: bool
    initial_y_m: float = 0.0


def parse_vehicles(value: object) -> list[FleetMember]:
    """The vehicles the parameter ``vehicles`` names, in its order (the first leads).

    A name ``car1`` gives the namespace ``/car1/vehicle`` (the real driver's
    ``/vehicle`` under the vehicle's name), frame prefix ``car1/`` and
    ``/car1/initialpose``; a name starting with ``/`` is the namespace itself
    (``/car1`` gives the layout of ``vehicles.launch.py``: ``/car1/...``, ``car1/``).
    ``None`` or an empty list gives ``[]`` (one vehicle, no fleet).

    Raises
    ------
    ValueError
        Not a list of strings, a name that is not a ROS name (letters, digits and
        ``_``, not starting with a digit, per ``/``-separated part), or a namespace
        given twice; the message says which.
    """
    if value is None or value == []:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of names, e.g. [car1, car2]")
    members, seen = [], set()
    for i, raw in enumerate(value):
        name = raw.strip()
        tokens = name.strip("/").split("/") if name.startswith("/") else [name]
        bad = [t for t in tokens if not _NAME_TOKEN.fullmatch(t)]
        if bad or not name.strip("/"):
            raise ValueError(f"name {raw!r}: letters, digits and '_' only, not starting with a "
                             f"digit ('/' separates namespace parts of a name starting with '/')")
        path = "/".join(tokens)
        namespace = "/" + path if name.startswith("/") else f"/{path}/vehicle"
        if namespace in seen:
            raise ValueError(f"name {raw!r}: namespace {namespace} given twice")
        seen.add(namespace)
        members.append(FleetMember(namespace, path + "/", f"/{path}/initialpose", lead=i == 0,
                                   initial_y_m=i * FLEET_SPACING_M))
    return members
