"""The parameter layer every vehicle's loader is built on (reference "Parameters").

A parameter file holds every parameter as an object with the fields ``value``,
``basis``, ``source``, ``sd`` or ``range`` and ``note``; a vehicle reads only
``value``. The name of a parameter is its JSON path, e.g. ``engine.idle_rpm``;
an index selects one array element, e.g. ``engine.torque_curve_rpm[3]``.

Here: the one :class:`ParameterError`; reading a file into its tree and flat
values with type checks against the shipped file, a cache of parsed files and
the refusal of another vehicle's file (:func:`read_parameter_tree`); the
range, key and cross-field checks (the overrides that change values are
:mod:`acres_dbw_sim.model.overrides`); and the assembly of a vehicle file with the parts every vehicle shares
(:func:`assembly`): the world (``config/world.json``, its types and checks in
:mod:`acres_dbw_sim.model.world`) and the DBW kit (``config/dbw_kit.json``).
Each vehicle's own loader (``vehicles/<name>/params.py``) turns the values into
its frozen dataclasses in SI units.
"""
from __future__ import annotations

import copy
import difflib
import functools
import json
import math
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

__all__ = [
    "ParameterError", "RPM_TO_RAD_S", "POSITIVE", "NON_NEGATIVE", "FRACTION", "UNIT_INTERVAL", "ANY_NUMBER",
    "LUG_CORRECTION_LIMITS", "ROLLING_MAX_LIMITS", "WATER_DENSITY_LIMITS", "GOVERNOR_BAND_LIMITS",
    "MAX_LOAD_FACTOR_LIMITS", "WORLD_FILE", "WORLD_SECTIONS", "KIT_FILE", "KIT_SECTIONS", "shipped_config",
    "assembly", "read_parameter_tree", "file_vehicle", "assembled_tree", "assembled_from", "file_stamp",
    "check_key", "declared_keys", "check_declared", "read_as_hint", "ENTRY_FIELDS", "check_entry", "tree_entries",
    "is_number", "check_type", "check_range", "check_order", "check_torque_curve", "FieldSpec", "param", "param_specs",
    "param_limits", "narrowest", "check_params", "fill_params", "number_problem", "choice_problem", "describe",
]

RPM_TO_RAD_S = 2.0 * math.pi / 60.0


class ParameterError(ValueError):
    """A parameter file or override is invalid.

    Parameters
    ----------
    key : str
        JSON path of the offending parameter (e.g. ``engine.idle_rpm``).
    reason : str
        Why it is rejected.

    Attributes
    ----------
    origin : str or None
        ``file:line`` of the key's entry when the value at fault is the parameter file's (set by
        :func:`acres_dbw_sim.model.param_lines.located`), else None (an override, an argument, or no single place).
    """

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        self.origin: str | None = None
        super().__init__(f"parameter {key!r}: {reason}")

    def __str__(self) -> str:
        text = f"parameter {self.key!r}: {self.reason}"
        return f"{self.origin}: {text}" if self.origin else text


# Physical limits: (lower, upper, lower_inclusive). Keys not listed are only type-checked.
#: > 0; >= 0; in (0, 1].
POSITIVE = (0.0, math.inf, False)
NON_NEGATIVE = (0.0, math.inf, True)
FRACTION = (0.0, 1.0, False)
#: In [0, 1].
UNIT_INTERVAL = (0.0, 1.0, True)
#: Any finite number (a declared field without limits).
ANY_NUMBER = (-math.inf, math.inf, True)
# Limits of the constants both vehicles' files carry (vehicles/maxxum150/params.py uses them too): wide
# enough for any real tyre, water or engine, narrow enough that a typing error is refused, not run as NaN.
LUG_CORRECTION_LIMITS = (0.0, 2.0, True)      # Bekker's lug correction (0.64)
ROLLING_MAX_LIMITS = (0.0, 1.0, False)        # the largest rolling-resistance coefficient (0.45)
WATER_DENSITY_LIMITS = (900.0, 1300.0, True)  # fresh water 1000 kg/m^3, sea water 1025, muddy water more
GOVERNOR_BAND_LIMITS = (0.0, 5.0, False)      # speed band over which the top-speed governor closes [m/s]
MAX_LOAD_FACTOR_LIMITS = (1.0, 20.0, True)    # a wheel's load limit in static loads


# --------------------------------------------------------------------------- declared fields


@dataclass(frozen=True)
class FieldSpec:
    """How one field of a frozen parameter dataclass is read from the flat values and checked.

    Attributes
    ----------
    keys : tuple
        The flat keys it is read from, relative to the dataclass's section (``"radius_m"`` in
        section ``tyres`` is ``tyres.radius_m``), or absolute with ``absolute``. One key for a
        scalar or an array; several for a vector (a float among them is a constant element).
    kind : str
        ``float``, ``int``, ``bool``, ``str``, ``array`` (tuple of floats), ``vector`` (tuple of
        floats from ``keys``) or ``index`` (the position of the value in ``choices``).
    limits : tuple or None
        ``(lower, upper, lower inclusive)`` of :func:`check_range`, for a number, each element of an
        array and each key of a vector; None: only the type is checked (:func:`check_type`).
    scale : float or None
        Unit factor applied after the check (kPa -> Pa: 1e3; rev/min -> rad/s: :data:`RPM_TO_RAD_S`).
    choices : tuple of str
        The allowed values of a ``str`` or ``index`` field.
    absolute : bool
        ``keys`` are full paths, outside the section (``dbw.gear.shift_time_s``).
    unlimited : bool
        +inf is accepted (for a limit that may be switched off: "no rate limit"); the upper bound must be
        +inf then.
    """

    keys: tuple
    kind: str = "float"
    limits: tuple | None = None
    scale: float | None = None
    choices: tuple = ()
    absolute: bool = False
    unlimited: bool = False


def param(key, limits: tuple | None = None, *, kind: str = "float", scale: float | None = None,
          choices: tuple = (), absolute: bool = False, unlimited: bool = False) -> Any:
    """A dataclass field read from the parameter ``key`` (:class:`FieldSpec`; ``key`` may be a tuple of keys
    for a ``vector``). Use as ``radius_m: float = param("radius_m", POSITIVE)`` in a frozen dataclass whose
    :func:`fill_params` names the section."""
    keys = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    return field(metadata={"param": FieldSpec(keys, kind, limits, scale, tuple(choices), absolute, unlimited)})


def _field_keys(spec: FieldSpec, section: str) -> list:
    """The full keys of ``spec`` in ``section`` (constants of a vector left out)."""
    return [k if spec.absolute else f"{section}.{k}" for k in spec.keys if isinstance(k, str)]


@functools.lru_cache(maxsize=None)
def param_specs(cls: type, section: str) -> tuple:
    """``((field name, FieldSpec, full keys), ...)`` of dataclass ``cls`` read from ``section``, in field order
    (computed once per class and section: a sweep loads parameters for every run)."""
    return tuple((f.name, f.metadata["param"], tuple(_field_keys(f.metadata["param"], section)))
                 for f in fields(cls) if "param" in f.metadata)


def param_limits(cls: type, section: str) -> dict:
    """``{full key: limits}`` of the number keys of ``cls`` with limits (what a loader accepts; calibration's
    bounds); arrays are left out."""
    return {k: spec.limits for _name, spec, keys in param_specs(cls, section) if spec.limits is not None
            and spec.kind in ("float", "int", "vector") for k in keys}


def narrowest(lim: tuple | None, other: tuple | None) -> tuple | None:
    """The limits of a value that must meet both ``lim`` and ``other``: each ``(lower, upper, lower inclusive)``
    in the key's unit (the upper bound inclusive), or None for none. Returns the same form (None when both
    are None). Raises nothing."""
    if lim is None or other is None:
        return lim if other is None else other
    lo, incl = (other[0], other[2]) if other[0] > lim[0] or (other[0] == lim[0] and not other[2]) else \
        (lim[0], lim[2])
    return (lo, min(lim[1], other[1]), incl)


def check_params(cls: type, values: dict, section: str, missing_hint: str = "",
                 narrower: Mapping | None = None) -> None:
    """Check the values of every field of ``cls`` in ``section``: present, a finite number in range (each
    element of an array), an integer where one is asked, among the choices. A key of ``narrower`` (``{key:
    limits}``: the DBW kit's ranges of the vehicle keys it reads) must meet those limits too, checked as one
    range (:func:`narrowest`), so that a refusal names the range the value must meet.

    Raises
    ------
    ParameterError
        ``missing from the parameter file`` (plus ``missing_hint``), the :func:`check_range` wording
        (``wrong type: expected a finite number`` or ``non-physical value``), ``must be an integer``, or
        ``unknown value ...; allowed: ...``, naming the key (``key[i]`` for an array element).
    """
    for _name, spec, keys in param_specs(cls, section):
        for key in keys:
            if key not in values:
                raise ParameterError(key, "missing from the parameter file" + missing_hint)
            v = values[key]
            lim = narrowest(spec.limits, narrower.get(key) if narrower else None) or ANY_NUMBER
            if spec.kind == "array":
                if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
                    raise ParameterError(key, f"wrong type: expected an array of numbers, got {v!r}")
                for i, x in enumerate(v):
                    check_range(f"{key}[{i}]", x, lim)
            elif spec.kind in ("float", "int", "vector") and not (spec.unlimited and v == math.inf):
                check_range(key, v, lim)
            if spec.kind == "int" and int(v) != v:
                raise ParameterError(key, f"must be an integer, got {v!r}")
            if spec.choices and choice_problem(v, spec.choices):
                raise ParameterError(key, choice_problem(v, spec.choices))


def fill_params(cls: type, values: dict, section: str, **extra: Any) -> Any:
    """An instance of the frozen dataclass ``cls`` from the checked flat ``values`` of ``section``
    (:func:`check_params` first), in SI units by each field's ``scale``; ``extra`` gives the fields that
    are not declared with :func:`param`."""
    kw = dict(extra)
    for name, spec, keys in param_specs(cls, section):
        if spec.kind == "vector":
            kw[name] = tuple(float(values[k if spec.absolute else f"{section}.{k}"]) if isinstance(k, str) else k
                             for k in spec.keys)
            continue
        v = values[keys[0]]
        if spec.kind == "float":
            kw[name] = float(v) if spec.scale is None else spec.scale * float(v)
        elif spec.kind == "int":
            kw[name] = int(v)
        elif spec.kind == "bool":
            kw[name] = bool(v)
        elif spec.kind == "array":
            kw[name] = tuple(float(x) for x in v)
        elif spec.kind == "index":
            kw[name] = spec.choices.index(v)
        else:
            kw[name] = v
    return cls(**kw)


# --------------------------------------------------------------------------- file handling


def shipped_config(name: str) -> Path:
    """Path of the shipped ``config/<name>``.

    Looks beside the source tree first, then under
    ``sys.prefix/share/acres_dbw_sim/config/`` (installed package).

    Raises
    ------
    ParameterError
        If neither exists.
    """
    candidates = [
        Path(__file__).resolve().parents[2] / "config" / name,
        Path(sys.prefix) / "share" / "acres_dbw_sim" / "config" / name,
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise ParameterError("<file>", f"{name} not found in " + ", ".join(map(str, candidates)))


#: The world's file and its sections: the soil classes and the surface table every vehicle drives on.
WORLD_FILE, WORLD_SECTIONS = "world.json", ("soils", "surfaces")
#: The DBW kit's file and its section: the firmware's parameters (``dbw.*``), the same on every vehicle.
KIT_FILE, KIT_SECTIONS = "dbw_kit.json", ("dbw",)


def assembly() -> tuple:
    """What a vehicle file is assembled with: ``((sections, shipped path), ...)`` of the world and the kit.

    A vehicle file that has none of a part's sections gets them from the part's shipped file; one
    that has them (a combined parameter file written before the world and the kit had files of their
    own, or a user's file that carries its own world) keeps its own. The key paths are the same
    either way (``surfaces.mud.mu``, ``dbw.brake.lag_s``).

    Raises
    ------
    ParameterError
        If a shipped file is not found.
    """
    return ((WORLD_SECTIONS, shipped_config(WORLD_FILE)), (KIT_SECTIONS, shipped_config(KIT_FILE)))


def is_number(v: Any) -> bool:
    """A finite int or float, not a bool."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def describe(v: Any) -> str:
    """How a message names a value of the wrong kind: null, a mapping, a list, or its repr."""
    if v is None:
        return "nothing (null)"
    if isinstance(v, (dict, list)):
        return f"a {'mapping' if isinstance(v, dict) else 'list'}"
    return repr(v)


def _bound(x: float) -> str:
    """A bound as a message shows it."""
    return "-inf" if x == -math.inf else "inf" if x == math.inf else f"{x:.10g}"


def number_problem(v: Any, lo: float = -math.inf, hi: float = math.inf, lo_open: bool = False,
                   hi_open: bool = False, unit: str = "") -> str:
    """Why ``v`` is not a finite number within ``lo``..``hi`` ("" when it is): the one wording of every
    such fault, whether a parameter file, an override, a scenario, a sweep, a replay or the node finds it.

    Parameters
    ----------
    v : Any
        The value.
    lo, hi : float
        Bounds, closed unless ``lo_open`` / ``hi_open`` (an infinite bound is open).
    unit : str
        Named in the message (``[bar]``): a text that starts like a number gets the hint that the key's
        name fixes the unit.

    Returns
    -------
    str
        ``wrong type: expected a number [unit], got ...``, ``wrong unit or type: ...``, ``must be finite,
        got nan`` or ``out of range: 0.1 [unit] not in [0.3, 3]``; empty when ``v`` is fine.
    """
    u = f" [{unit}]" if unit else ""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, str) and v.strip()[:1] in set("+-.0123456789"):
            return f"wrong unit or type: expected a plain number{u} (the key's name fixes the unit), got {v!r}"
        return f"wrong type: expected a number{u}, got {describe(v)}"
    if not math.isfinite(v):
        return f"must be finite, got {v!r}"
    if (v <= lo if lo_open else v < lo) or (v >= hi if hi_open else v > hi):
        left = "(" if lo_open or lo == -math.inf else "["
        right = ")" if hi_open or hi == math.inf else "]"
        return f"out of range: {v:.10g}{u} not in {left}{_bound(lo)}, {_bound(hi)}{right}"
    return ""


def choice_problem(v: Any, allowed: Any, what: str = "value", any_case: bool = False) -> str:
    """Why ``v`` is not one of ``allowed`` ("" when it is): ``unknown <what> 'x'; use one of a, b, c`` (with
    ``(any case)`` when the caller matches names in any case, as it does then)."""
    if not isinstance(v, (dict, list)) and v in allowed:
        return ""
    return (f"unknown {what} {v!r}; use one of {', '.join(map(str, dict.fromkeys(allowed)))}"
            + (" (any case)" if any_case else ""))


def check_type(key: str, default: Any, value: Any) -> Any:
    """Coerce ``value`` to the type of the shipped ``default`` or raise."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ParameterError(key, f"wrong type: expected true/false, got {value!r}")
        return value
    if isinstance(default, (int, float)):   # a number (a file's own NaN is compared with itself: a number too)
        if not is_number(value):
            raise ParameterError(key, f"wrong type: expected a finite number, got {value!r}")
        return value
    if isinstance(default, list):
        if not isinstance(value, list):
            raise ParameterError(key, f"wrong type: expected an array of {len(default)} numbers, got {value!r}")
        if len(value) != len(default):
            raise ParameterError(key, f"wrong array length: expected {len(default)}, got {len(value)}")
        for i, v in enumerate(value):
            if not is_number(v):
                raise ParameterError(f"{key}[{i}]", f"wrong type: expected a finite number, got {v!r}")
        return list(value)
    if default is None or isinstance(default, str):
        if value is not None and not isinstance(value, str):
            raise ParameterError(key, f"wrong type: expected a string or null, got {value!r}")
        return value
    raise ParameterError(key, f"unsupported parameter type {type(default).__name__}")


def check_range(key: str, v: float, lim: tuple) -> None:
    """Refuse a value outside its limits (:func:`number_problem`'s wording).

    Parameters
    ----------
    key : str
        The parameter's key (named in the error).
    v : float
        Its value.
    lim : tuple
        ``(lower, upper, lower_inclusive)``; the upper bound is inclusive, inf for none.

    Raises
    ------
    ParameterError
        For a value that is not a finite number or lies outside the limits.
    """
    why = number_problem(v, lim[0], lim[1], lo_open=not lim[2])
    if why:
        raise ParameterError(key, why)


#: The relations of :func:`check_order`: the test a pair must pass and how a failure reads.
_RELATIONS = {"<": (lambda a, b: a < b, "must be below"), "<=": (lambda a, b: a <= b, "exceeds"),
              ">": (lambda a, b: a > b, "must be above"), ">=": (lambda a, b: a >= b, "is below")}


def check_order(values: dict, rules: tuple) -> None:
    """The cross-field rules of a flat value table, in order: each ``(key, relation, other)`` with a relation
    of ``<``, ``<=``, ``>``, ``>=`` and ``other`` a key or a number (a bound the step relies on: a value past
    it would be clamped silently or make a quantity non-physical).

    Raises
    ------
    ParameterError
        Naming ``key`` at the first rule that fails: ``0.8 exceeds engine.indicated_efficiency_max (0.45)``.
    """
    for key, relation, other in rules:
        v = values[key]
        w = values[other] if isinstance(other, str) else other
        holds, words = _RELATIONS[relation]
        if not holds(v, w):
            raise ParameterError(key, f"{v:g} {words} " + (f"{other} ({w:g})" if isinstance(other, str) else f"{w:g}"))


def check_torque_curve(values: dict) -> None:
    """The full-load curve ``engine.torque_curve_rpm`` / ``engine.torque_curve_nm`` of either vehicle: speeds
    strictly increasing and some torque above zero (the curve is interpolated in speed).

    Raises
    ------
    ParameterError
        Naming the first speed out of order (``engine.torque_curve_rpm[3]``) or the torque array.
    """
    rpm = values["engine.torque_curve_rpm"]
    for i in range(1, len(rpm)):
        if rpm[i] <= rpm[i - 1]:
            raise ParameterError(f"engine.torque_curve_rpm[{i}]", "speeds must increase strictly")
    if max(values["engine.torque_curve_nm"]) <= 0.0:
        raise ParameterError("engine.torque_curve_nm", "the full-load curve has no positive torque")


#: The fields of a parameter's entry: its value, where the value comes from, its spread (a standard deviation
#: or a range: the bounds, or the values to choose from), a note.
ENTRY_FIELDS = ("value", "basis", "source", "sd", "range", "note")


def check_entry(key: str, entry: dict) -> None:
    """Refuse an entry's field that is not one of :data:`ENTRY_FIELDS` (a misspelt ``sdd`` would be ignored and
    the key not vary in a sweep), an ``sd`` that is not a number >= 0 and a ``range`` that is not a list of
    two or more values, or whose two numbers have the lower above the upper.

    Raises
    ------
    ParameterError
        Naming ``key`` and the field.
    """
    for name in entry:
        if name not in ENTRY_FIELDS:
            close = difflib.get_close_matches(str(name), ENTRY_FIELDS, 1, 0.6)
            raise ParameterError(key, f"unknown field {name!r} of its entry" + (
                f" (did you mean {close[0]!r}?)" if close else "") + f"; an entry has {', '.join(ENTRY_FIELDS)}")
    if "sd" in entry and not (is_number(entry["sd"]) and entry["sd"] >= 0.0):
        raise ParameterError(key, f"its sd must be a number >= 0, got {entry['sd']!r}")
    rng = entry.get("range")
    if "range" in entry and not (isinstance(rng, list) and len(rng) >= 2):
        raise ParameterError(key, f"its range must be [lower, upper] or the list of values to choose from, "
                             f"got {rng!r}")
    if "range" in entry and any(isinstance(x, float) and not math.isfinite(x) for x in rng):
        raise ParameterError(key, f"its range {rng!r} holds a number that is not finite")
    if "range" in entry and len(rng) == 2 and all(is_number(x) for x in rng) and rng[0] > rng[1]:
        raise ParameterError(key, f"its range [{rng[0]}, {rng[1]}] has the lower bound above the upper")


def tree_entries(tree: dict, prefix: str = "") -> dict:
    """``{dotted key: entry}`` of every parameter (an object with a ``value``: ``value``, ``basis``, ``source``,
    ``sd`` or ``range``, ``note``) of a parameter file's tree, in file order.

    Raises
    ------
    ParameterError
        For an item that is neither a parameter nor a section (an object), an entry whose fields hold no
        ``value`` (``basis``, ``source``, ... alone), or a field :func:`check_entry` refuses, naming its key.
    """
    out = {}
    for name, item in tree.items():
        key = f"{prefix}.{name}" if prefix else name
        if not isinstance(item, dict):
            raise ParameterError(key, "expected an object with a 'value' field or a section")
        if "value" in item:
            check_entry(key, item)
            out[key] = item
        elif item and not any(isinstance(x, dict) for x in item.values()):
            raise ParameterError(key, f"a parameter without its 'value' field (it has {', '.join(item)})")
        else:
            out.update(tree_entries(item, key))
    return out


def check_key(values: Mapping, key: str, idx: int | None = None) -> None:
    """Refuse a key that names no parameter of the flat table ``values`` (with the closest as "did you mean"),
    an index on a parameter that is not an array and an index past an array's end: the one wording of an
    override's, a scenario's and a sweep's key.

    Raises
    ------
    ParameterError
        Naming ``key`` (``key[idx]`` for an index at fault).
    """
    if key not in values:
        close = difflib.get_close_matches(key, list(values), 1, 0.75)
        raise ParameterError(key, "unknown key" + (f" (did you mean {close[0]!r}?)" if close else ""))
    if idx is not None and not isinstance(values[key], list):
        raise ParameterError(f"{key}[{idx}]", "index given but the parameter is not an array")
    if idx is not None and idx >= len(values[key]):
        raise ParameterError(f"{key}[{idx}]", f"index out of range: the array has {len(values[key])} elements")


def declared_keys(sections: Mapping[str, type], *groups: Iterable[str]) -> dict:
    """The keys a vehicle's loader reads: those of each section's :func:`param` declarations and of ``groups``
    (keys read elsewhere: the world's entries, the DBW kit's, a vehicle's own blocks), as a dict in that order.

    Parameters
    ----------
    sections : Mapping[str, type]
        ``{section: frozen dataclass}`` as the loader fills them.
    *groups : iterable of str
        Further full keys.

    Returns
    -------
    dict
        ``{full key: None}`` (ordered, for :func:`check_declared`'s "did you mean").
    """
    keys = dict.fromkeys(k for name, cls in sections.items() for _n, _s, ks in param_specs(cls, name) for k in ks)
    for group in groups:
        keys.update(dict.fromkeys(group))
    return keys


def check_declared(values: Mapping, declared: Mapping, owner: str = "vehicle", hint: str = "") -> None:
    """Refuse a key of a parameter file that nothing reads (a misspelt key, a parameter the model lacks): ignored,
    it would leave the run not the one the file describes. Worded as :func:`check_key` (``unknown key (did you
    mean 'engine.idle_rpm'?)``), or naming a section the vehicle lacks; then ``hint`` (:func:`read_as_hint`) or,
    when a quarter of the file's keys or more are unknown, their count.

    Parameters
    ----------
    values : Mapping
        The file's flat ``{key: value}`` (:func:`read_parameter_tree`).
    declared : Mapping
        :func:`declared_keys` of the vehicle.
    owner : str
        The vehicle's name as a message gives it (``the Ranger``).
    hint : str
        Added to the reason (why the file may be another vehicle's).

    Raises
    ------
    ParameterError
        Naming the first key of the file that is not declared.
    """
    sections = {k.split(".", 1)[0] for k in declared}
    unknown = sum(1 for key in values if key not in declared)
    if not hint and 4 * unknown > len(values):   # a quarter: far more than a user's slips
        hint = f" ({unknown} of the file's {len(values)} keys are not {owner}'s: is it another vehicle's file?)"
    for key in values:
        if key in declared:
            continue
        section = key.split(".", 1)[0]
        if section not in sections and not difflib.get_close_matches(key, list(declared), 1, 0.75):
            raise ParameterError(key, f"unknown key: {owner} has no section {section!r}{hint}")
        try:
            check_key(declared, key)
        except ParameterError as exc:
            raise ParameterError(key, exc.reason + hint) from None


def read_as_hint(path: str | Path, owner: str) -> str:
    """What a missing or unknown key's reason adds for a file that names no vehicle (:func:`file_vehicle`): it
    was read as ``owner``'s; empty for a file that names its vehicle.

    Raises
    ------
    ParameterError
        As :func:`file_vehicle`.
    """
    return "" if file_vehicle(path) is not None else (f" (the file names no vehicle and was read as {owner}'s; a "
                                                       f"file of another vehicle needs its top-level \"vehicle\" key)")


def read_parameter_tree(path: str | Path, shipped: str | Path | None = None, vehicle: str | None = None,
                        parts: tuple = (), known: Iterable[str] | None = None) -> tuple:
    """Read a parameter file (polaris.json form) into its tree and flat value tables.

    Shared by every vehicle's loader (the Ranger's :func:`load_parameters`, the
    Maxxum's ``load_maxxum_parameters``).

    Parameters
    ----------
    path : str or Path
        JSON file of sections whose leaves are ``{"value": ..., "basis": ...}``.
    shipped : str or Path, optional
        The vehicle's shipped file: each value of ``path`` must have the type of the
        same key there (a number where it has a number; keys it lacks keep their own).
    vehicle : str, optional
        The registry name of the vehicle the caller loads: a file whose top-level ``vehicle`` key
        (:func:`file_vehicle`) names another is refused.
    parts : tuple, optional
        ``((sections, path), ...)``: the sections to take from ``path`` when the file has none of
        them (:func:`assembly`: the world and the DBW kit); ``shipped`` is assembled the same way.
    known : iterable of str, optional
        The vehicles there are (the registry's names): a file of another vehicle that is not among them is
        refused as naming no vehicle there is (:func:`file_vehicle`), not as another's.

    Returns
    -------
    tuple
        ``(tree, defaults, values)``: the parsed JSON object; the flat table
        ``{"section.key": value}`` as in the file; a deep copy of it with each
        value type-checked, to be overridden and validated by the caller.

    Raises
    ------
    ParameterError
        Unreadable file, invalid JSON, a file that is not an object of sections,
        a value of the wrong type (the message names the key), or a file of another vehicle
        (key ``<file>``, naming both).

    Notes
    -----
    A file read before is not parsed again while its inode, modification and change times and size
    are unchanged:
    ``tree`` and ``defaults`` are then the same objects as before (read them, do not change
    them); ``values`` is always a fresh copy. A sweep loads the file once per run, and parsing
    it is most of a load.
    """
    p = Path(path)
    tree, defaults, values, named = _cached_tree(p, shipped, parts)
    if vehicle is not None and named is not None and named != vehicle:
        file_vehicle(p, known)
        raise ParameterError("<file>", f"{p} is the parameter file of vehicle {named!r} (its 'vehicle' key), "
                             f"not of {vehicle!r}: give vehicle {named!r} to run it")
    return tree, defaults, {k: copy.deepcopy(v) if isinstance(v, (list, dict)) else v for k, v in values.items()}


#: (file key of the file, of the shipped file) -> (tree, defaults, checked values, vehicle named): read_parameter_tree
_TREES: dict = {}


def file_vehicle(path: str | Path, known: Iterable[str] | None = None) -> str | None:
    """The vehicle a parameter file names: its top-level ``"vehicle"`` key (a registry name), None without one.

    A parameter file says whose it is, as a Chrono vehicle file says its ``"Template"``: a scenario
    or the URDF generator given only the file loads it with that vehicle's loader.

    Parameters
    ----------
    path : str or Path
    known : iterable of str, optional
        The vehicles there are (the registry's names): a file that names another is refused.

    Raises
    ------
    ParameterError
        Key ``<file>``: unreadable file, invalid JSON, a ``vehicle`` key that is not a text, or one that
        is not among ``known``.
    """
    named = _cached_tree(Path(path), None, ())[3]
    if known is not None and named is not None and named not in known:
        raise ParameterError("<file>", f"{path} names vehicle {named!r}, which is not one of {', '.join(known)}")
    return named


def assembled_tree(path: str | Path) -> dict:
    """A vehicle file's tree assembled with the world and the kit (:func:`assembly`), entries whole
    (``value``, ``basis``, ``source``, ``sd`` or ``range``, ``note``): for tools that read more than the
    values (sweeps, calibration). Do not change the returned object.

    Raises
    ------
    ParameterError
        As :func:`read_parameter_tree`.
    """
    return _cached_tree(Path(path), None, assembly())[0]


def assembled_from(path: str | Path, parts: tuple | None = None) -> list:
    """Every file a vehicle's parameters are read from: the file itself, then the part files it takes
    sections from (:func:`assembly`), as resolved paths; what a run's identity covers.

    Raises
    ------
    ParameterError
        As :func:`read_parameter_tree`.
    """
    p = Path(path)
    parts = assembly() if parts is None else parts
    tree = _cached_tree(p, None, ())[0]
    return [str(p.resolve())] + [str(Path(f).resolve()) for sections, f in parts
                                 if not any(sec in tree for sec in sections)]


def _cached_tree(p: Path, shipped: str | Path | None, parts: tuple) -> tuple:
    """:func:`_read_parameter_tree` of ``p`` through the cache of parsed files (see :func:`read_parameter_tree`);
    the key covers the part files too."""
    key = (_file_key(p), None if shipped is None else _file_key(Path(shipped)),
           tuple((sections, _file_key(Path(f))) for sections, f in parts))
    hit = _TREES.get(key)
    if hit is None:
        hit = _read_parameter_tree(p, shipped, parts)
        if len(_TREES) >= 16:   # the oldest goes: a load reads up to three entries, all kept
            _TREES.pop(next(iter(_TREES)))
        _TREES[key] = hit
    return hit


def file_stamp(path: str | Path) -> tuple:
    """What tells a file's content apart without reading it, for the caches of parsed files.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    tuple
        (resolved path, device, inode, modification and change times [ns], size [bytes]). The change
        time moves on every write and cannot be set back (``touch -r``, ``cp -p`` and archive tools
        restore only the modification time), so an edit of the same size changes the stamp too.

    Raises
    ------
    OSError
        If the file cannot be examined.
    """
    p = Path(path)
    st = p.stat()
    return (str(p.resolve()), st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def _file_key(p: Path) -> tuple:
    """:func:`file_stamp` of ``p``; ParameterError if it cannot be read."""
    try:
        return file_stamp(p)
    except OSError as exc:
        raise ParameterError("<file>", f"cannot read {p}: {exc}") from exc


class _GivenTwice(dict):
    """What the parse makes of an object in which, or below which, a key is given twice: that key's path."""

    def __init__(self, path: tuple) -> None:
        super().__init__()
        self.path = path


def _twice_below(v: Any) -> tuple | None:
    """The path, from ``v``, of a name given twice in or below ``v`` (a parsed value), or None."""
    if isinstance(v, _GivenTwice):
        return v.path
    if isinstance(v, list):
        for i, x in enumerate(v):
            below = _twice_below(x)
            if below is not None:
                return (i,) + below
    return None


def _object_once(pairs: list) -> dict:
    """``json`` object hook: the object of ``pairs``, or a :class:`_GivenTwice` when a name repeats in it or
    below it (JSON keeps the last of a repeated name without a word)."""
    out = {}
    for name, v in pairs:
        below = _twice_below(v)
        if below is not None:
            return _GivenTwice((name,) + below)
        if name in out:
            return _GivenTwice((name,))
        out[name] = v
    return out


def _read_json_object(p: Path) -> dict:
    """The JSON object of file ``p``; ParameterError (key ``<file>``) if it cannot be read or is not one,
    naming the key for a name given twice in one object."""
    try:
        tree = json.loads(p.read_text(), object_pairs_hook=_object_once)
    except OSError as exc:
        raise ParameterError("<file>", f"cannot read {p}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ParameterError("<file>", f"invalid JSON in {p}: {exc}") from exc
    except (RecursionError, ValueError) as exc:   # nesting too deep for the parser, an integer of 4300+ digits
        raise ParameterError("<file>", f"cannot read {p}: {str(exc).split(';')[0] or type(exc).__name__}") from None
    if isinstance(tree, _GivenTwice):
        *where, name = (str(x) for x in tree.path)
        raise ParameterError(".".join(where) or name, f"{name!r} is given twice in one object (JSON would keep "
                             "the last without a word)")
    if not isinstance(tree, dict):
        raise ParameterError("<file>", f"{p} must hold a JSON object of sections")
    return tree


def _read_parameter_tree(p: Path, shipped: str | Path | None, parts: tuple) -> tuple:
    """:func:`read_parameter_tree` without its cache."""
    tree = _read_json_object(p)
    for sections, f in parts:
        has = [sec for sec in sections if sec in tree]
        if has and len(has) < len(sections):
            raise ParameterError("<file>", f"{p} has the section {has[0]!r} of {Path(f).name} without "
                                 f"{', '.join(repr(x) for x in sections if x not in has)}: a file carries all of "
                                 f"that file's sections ({', '.join(sections)}) or none")
        if not has:
            part = _read_json_object(Path(f))
            for sec in sections:
                if sec not in part:
                    raise ParameterError("<file>", f"{f} has no {sec!r} section")
                tree[sec] = part[sec]
    named = tree.pop("vehicle", None)
    if named is not None and not isinstance(named, str):
        raise ParameterError("<file>", f"{p}: 'vehicle' must be a vehicle's name (text), got {named!r}")
    defaults = {key: copy.deepcopy(entry["value"]) for key, entry in tree_entries(tree).items()}
    values = copy.deepcopy(defaults)
    kinds = defaults
    if shipped is not None and Path(shipped).resolve() != p.resolve():
        kinds = read_parameter_tree(shipped, parts=parts)[1]
    for key, v in defaults.items():
        values[key] = check_type(key, kinds.get(key, v), v)
    return tree, defaults, values, named
