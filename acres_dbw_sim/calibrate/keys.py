"""What can be fitted: the calibration's variables, their groups, bounds and start values.

A fit variable is either one key of the parameter file (``steering.ratio``)
or a common scale on several keys (``brakes.gain_scale`` multiplies
``brakes.front_nm_per_bar`` and ``brakes.rear_nm_per_bar``: the speed trace
of a braking vehicle sees the sum of the axle torques, not their split, so
the two gains alone are not identifiable; their ratio stays the file's).

Bounds come from the file: a key with a ``range`` is fitted inside it; a key
with an ``sd`` only (an estimate with its standard error, no limits) is fitted
within ``value +- max(10 sd, 20 % |value|)``, cut to the loader's physical
limits. A scale is bounded to 0.5..1.5.

Groups, in the order they are fitted (each on the segments that excite it;
see :mod:`.segments`):

=============== ================================= ===================================================
group           segments                          variables (default)
=============== ================================= ===================================================
longitudinal    ``throttle`` steps, ``coast``     ``mass.dry_kg``, ``dbw.throttle.lag_s``,
                                                  ``dbw.throttle.dead_time_s``,
                                                  ``surfaces.<surface>.rolling_resistance``,
                                                  ``aero.drag_area_m2``
brake           ``brake`` steps                   ``brakes.gain_scale``, ``dbw.brake.lag_s``,
                                                  ``dbw.brake.dead_time_s``
steering        ``sweep`` (steering moving)       ``steering.center_deg``, ``steering.ratio``
lateral         ``turn`` (|a_y| >= 2 m/s^2)       ``tyres.cornering_per_load``
=============== ================================= ===================================================

The order follows the dependencies: a segment is replayed from the last
standstill before it, so the speed at a brake step depends on the
longitudinal parameters, and the yaw rate of a sweep (``r = v delta / L`` at
low lateral acceleration) on the speed: speed first, then braking, then the
steering geometry, then the tyres' cornering stiffness, which only shows at
high lateral acceleration.

Dead times (``*.dead_time_s``) act as whole physics steps (a ring buffer of
``round(T / dt)`` cells, dbw/actuators.py): they are searched on that grid,
not by least squares (see :mod:`.fit`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..model.params import ParameterError, assembled_tree, tree_entries
from ..vehicles import default_vehicle, vehicle_spec

__all__ = ["FitVar", "GROUPS", "GROUP_SEGMENTS", "GROUP_SIGNAL", "CalibrationError", "catalogue", "select_vars",
           "file_entries", "fmt_value"]

#: Groups in fitting order.
GROUPS = ("longitudinal", "brake", "steering", "lateral")
#: Segment kinds each group is fitted on.
GROUP_SEGMENTS = {"steering": ("sweep",), "lateral": ("turn",), "longitudinal": ("throttle", "coast"),
                  "brake": ("brake",)}
#: Signal each group's residual is formed from (a recorded report, :mod:`acres_dbw_sim.replay.compare`).
GROUP_SIGNAL = {"steering": "yaw_rate_rad_s", "lateral": "yaw_rate_rad_s", "longitudinal": "speed_mps",
                "brake": "speed_mps"}


class CalibrationError(ValueError):
    """Bad calibration input (unknown key in ``--params``, a bag without usable segments); the message says why."""


@dataclass(frozen=True)
class FitVar:
    """One fitted quantity.

    Attributes
    ----------
    name : str
        Name in ``--params`` and the report: a parameter key, or ``brakes.gain_scale``.
    group : str
        One of :data:`GROUPS`.
    keys : tuple of str
        Parameter-file keys the variable writes.
    start : float
        Start value (the file's value; 1.0 for a scale) [key unit].
    lower, upper : float
        Bounds [key unit].
    bound_source : str
        ``'range'``, ``'sd'`` or ``'scale'``.
    scale_of : tuple of float or None
        For a scale: the file values of ``keys`` it multiplies.
    delay : bool
        A dead time: searched on the step grid.
    """

    name: str
    group: str
    keys: tuple
    start: float
    lower: float
    upper: float
    bound_source: str
    scale_of: tuple | None = None
    delay: bool = False

    def overrides(self, value: float) -> dict:
        """``{key: value}`` written for the variable at ``value``."""
        if self.scale_of is not None:
            return {k: v * value for k, v in zip(self.keys, self.scale_of)}
        return {self.keys[0]: value}


def file_entries(path: str | Path | None = None, vehicle: str | None = None) -> dict:
    """``{key: entry dict}`` of every parameter of the file (``value``, ``range`` or ``sd``, ...).

    Parameters
    ----------
    path : str or Path, optional
        The parameter file; default: the shipped file of ``vehicle`` (its registry row's ``parameter_file``).
    vehicle : str, optional
        Registry name; default: the registry's first.

    Raises
    ------
    ParameterError
        If the file cannot be read, or no file is given for a vehicle that ships none.
    """
    if path is None:
        spec = vehicle_spec(vehicle or default_vehicle())
        if spec.parameter_file is None:
            raise ParameterError("<file>", f"vehicle {spec.name!r} ships no parameter file: give one")
        path = spec.parameter_file()
    return tree_entries(assembled_tree(path))


def _bounds(key: str, entry: dict, value: float, limits: dict) -> tuple:
    if "range" in entry and isinstance(entry["range"], list) and len(entry["range"]) == 2:
        lo, hi = float(entry["range"][0]), float(entry["range"][1])
        src = "range"
    else:
        sd = float(entry.get("sd") or 0.0)
        half = max(10.0 * sd, 0.2 * abs(value))
        lo, hi, src = value - half, value + half, "sd"
    lim = limits.get(key)
    if lim is not None:
        lo = max(lo, lim[0] if lim[2] else lim[0] + 1e-9 * max(1.0, abs(hi)))
        hi = min(hi, lim[1])
    if key.startswith("dbw.") or key.startswith("surfaces."):
        lo = max(lo, 0.0)
    # the start value must lie inside (a file value outside its own range widens the bounds)
    return min(lo, value), max(hi, value), src


def catalogue(values: dict, surface: str, entries: dict | None = None, vehicle: str | None = None) -> list:
    """Every fit variable the calibration knows, with start values from ``values``.

    Parameters
    ----------
    values : dict
        ``{key: value}`` in force (the file with the bag's overrides).
    surface : str
        Surface of the bag (its rolling resistance is the one fitted).
    entries : dict, optional
        :func:`file_entries` of the parameter file (bounds).
    vehicle : str, optional
        Registry name whose loader's limits cut the bounds (its row's ``limits``); default: the registry's first.

    Returns
    -------
    list of FitVar
        In fitting order.
    """
    entries = entries if entries is not None else file_entries(None, vehicle)
    spec = vehicle_spec(vehicle or default_vehicle())
    limits = spec.limits() if spec.limits is not None else {}
    out = []

    def key_var(key: str, group: str, delay: bool = False) -> None:
        v = float(values[key])
        lo, hi, src = _bounds(key, entries[key], float(entries[key]["value"]), limits)
        out.append(FitVar(key, group, (key,), v, min(lo, v), max(hi, v), src, None, delay))

    key_var("steering.center_deg", "steering")
    key_var("steering.ratio", "steering")
    key_var("tyres.cornering_per_load", "lateral")
    key_var("mass.dry_kg", "longitudinal")
    key_var("dbw.throttle.lag_s", "longitudinal")
    key_var("dbw.throttle.dead_time_s", "longitudinal", delay=True)
    key_var(f"surfaces.{surface}.rolling_resistance", "longitudinal")
    key_var("aero.drag_area_m2", "longitudinal")
    gains = ("brakes.front_nm_per_bar", "brakes.rear_nm_per_bar")
    out.append(FitVar("brakes.gain_scale", "brake", gains, 1.0, 0.5, 1.5, "scale",
                      tuple(float(values[k]) for k in gains)))
    key_var("dbw.brake.lag_s", "brake")
    key_var("dbw.brake.dead_time_s", "brake", delay=True)
    return out


def select_vars(cat: list, names: str | None) -> list:
    """The variables named in ``names`` (comma-separated; a group name selects its variables;
    ``brakes.front_nm_per_bar`` or ``brakes.rear_nm_per_bar`` select ``brakes.gain_scale``;
    ``rolling_resistance`` the bag surface's). None or empty: all.

    Raises
    ------
    CalibrationError
        For a name that is neither a group nor a fit variable.
    """
    if not names:
        return list(cat)
    chosen: set = set()
    for raw in names.split(","):
        n = raw.strip()
        if not n:
            continue
        hit = [v for v in cat if n == v.name or n == v.group or n in v.keys
               or (n == "rolling_resistance" and v.name.endswith(".rolling_resistance"))]
        if not hit:
            known = ", ".join(list(GROUPS) + [v.name for v in cat])
            raise CalibrationError(f"--params {n}: not a fit variable or group; known: {known}")
        chosen.update(v.name for v in hit)
    return [v for v in cat if v.name in chosen]


def fmt_value(x: float) -> str:
    """A value as written in an overrides file: shortest repr that round-trips, finite only."""
    if not math.isfinite(x):
        raise CalibrationError(f"non-finite fitted value {x!r}")
    return repr(float(x))
