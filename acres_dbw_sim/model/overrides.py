"""Overrides of a vehicle's parameters: ``"key=value;key[i]=value"`` (the ``-PolarisSet=`` option of the
reference "Parameters"), the node's and replay's ``overrides``, a scenario's ``vehicle.overrides`` and ``--set``.

Parsing, applying (each key checked as :func:`~acres_dbw_sim.model.params.check_key` words it, each value as
:func:`~acres_dbw_sim.model.params.check_type`), and saying which input gave a refused value (the file or the
overrides: :func:`fault_source`, :func:`option_message`).
"""
from __future__ import annotations

import json
import re
from typing import Any

from .params import ParameterError, check_key, check_type, is_number

__all__ = ["parse_overrides", "index_problem", "check_once", "override_keys", "fault_source", "option_message",
           "parse_value", "apply_overrides"]


_OVERRIDE_RE = re.compile(r"^\s*([A-Za-z0-9_.]+?)\s*(?:\[\s*(\d+)\s*\])?\s*$")


def parse_overrides(text: str | None) -> list:
    """Split ``"key=value;key[3]=value"`` into ``[(key, index or None, raw_value)]``.

    Raises
    ------
    ParameterError
        For a pair without ``=`` or a malformed key.
    """
    result = []
    if not text:
        return result
    for part in text.split(";"):
        if not part.strip():
            continue
        if "=" not in part:
            raise ParameterError(part.strip(), "override must be key=value")
        key, raw = part.split("=", 1)
        m = _OVERRIDE_RE.match(key)
        if not m:
            raise ParameterError(key.strip(), index_problem(key) or "malformed key")
        idx = int(m.group(2)) if m.group(2) is not None else None
        result.append((m.group(1), idx, raw.strip()))
    return result


_INDEXED_RE = re.compile(r"\[([^\]]*)\]")


def index_problem(key: str) -> str:
    """Why an index of ``key`` (``name[i]``, also inside a scenario's path) is not one, or "": the one wording of
    ``engine.torque_curve_nm[-1]`` in overrides, ``--set`` and a sweep's ``parameters``."""
    for idx in _INDEXED_RE.findall(key):
        if not idx.strip().isdigit():
            return f"malformed key: an index is a whole number from 0, got {idx.strip()!r}"
    return ""


def check_once(text: str | None) -> None:
    """Refuse one overrides text that gives a key twice (``engine.idle_rpm=900;engine.idle_rpm=1000``: the last
    would win without a word). Only a text a user wrote as one is checked (the node's and replay's
    ``overrides``, a scenario's, one ``--set``): a scenario's overrides, ``--set`` and a sweep's draw are
    layered on purpose, the later winning.

    Raises
    ------
    ParameterError
        Naming the key (``key[i]`` for an element), or as :func:`parse_overrides` for a malformed pair.
    """
    seen = set()
    for key, idx, _raw in parse_overrides(text):
        full = key if idx is None else f"{key}[{idx}]"
        if full in seen:
            raise ParameterError(full, "given twice in the overrides (the last would win without a word)")
        seen.add(full)


def override_keys(text: str | None) -> set:
    """The keys that the overrides ``text`` set (without their index); for a malformed text, the key its
    :func:`parse_overrides` error names, so that the error is the overrides'. Never raises."""
    try:
        return {key for key, _idx, _raw in parse_overrides(text)}
    except ParameterError as exc:   # a malformed text: its fault is that part's
        return {exc.key}


def fault_source(err: ParameterError, overrides: str | None) -> str:
    """Where the value at fault in ``err`` came from, for a tool to name its option that gave it: ``"file"``
    (the parameter file: ``err.origin`` holds its line, :func:`acres_dbw_sim.model.param_lines.located`; or a
    key the file lacks), ``"overrides"`` (a key that ``overrides`` sets), or ``""`` (no single place: a rule
    between two keys, the file itself)."""
    if err.origin is not None:
        return "file"
    if err.key.split("[")[0] in override_keys(overrides) or err.key in override_keys(overrides):
        return "overrides"
    return "file" if err.reason.startswith("missing from the parameter file") else ""


def option_message(err: ParameterError, vehicle_config: str | None, overrides: str | None) -> str:
    """The one wording of a refused parameter for the tools whose options are ``vehicle_config`` and
    ``overrides`` (the node, replay, calibration): the option that gave the value at fault (:func:`fault_source`),
    then the error (``parameter 'overrides': parameter 'engine.idle_rpm': out of range: ...``); for the file
    itself (key ``<file>``), the option with its value."""
    if err.key == "<file>":
        return f"parameter 'vehicle_config' = {vehicle_config!r}: {err.reason}"
    which = {"file": "vehicle_config", "overrides": "overrides"}.get(fault_source(err, overrides))
    return f"parameter {which or 'vehicle_config/overrides'!r}: {err}"


def parse_value(raw: str) -> Any:
    """The value of an override's text: JSON if possible (numbers, true/false in any case, null, arrays),
    else the text itself (a string parameter). Raises nothing."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        low = raw.lower()
        if low in ("true", "false"):
            return low == "true"
        return raw


def apply_overrides(defaults: dict, values: dict, overrides: str | None) -> None:
    """Apply ``"key=value;key[i]=value"`` overrides to ``values`` in place.

    Parameters
    ----------
    defaults, values
        As returned by :func:`read_parameter_tree`.
    overrides : str or None
        Semicolon-separated ``key=value`` pairs, values in JSON syntax (plain
        text for strings); ``key[i]`` sets element ``i`` of an array.

    Raises
    ------
    ParameterError
        Unknown key, wrong type, an index on a scalar or out of range; the
        message names the key.
    """
    for key, idx, raw in parse_overrides(overrides):
        check_key(defaults, key, idx)
        new = parse_value(raw)
        if idx is None:
            try:
                values[key] = check_type(key, defaults[key], new)
            except ParameterError as exc:
                if isinstance(new, str) and "=" in new:   # "a=1,b=2": two overrides joined by the wrong separator
                    raise ParameterError(key, exc.reason + " (overrides are separated by ';')") from None
                raise
            continue
        if not is_number(new):
            raise ParameterError(f"{key}[{idx}]", f"wrong type: expected a finite number, got {new!r}")
        arr = list(values[key])
        arr[idx] = new
        values[key] = arr
