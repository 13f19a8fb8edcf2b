"""Sweep files: schema, validation and the resolved :class:`Sweep`.

A sweep file (YAML) names the scenarios to run, the parameters of the
parameter file to vary, the design and the metrics to collect::

    name: braking_uncertainty
    scenarios:
      - file: ../scenarios/brake_70bar_asphalt.yaml
        set: "initial.speed_mps=10;expect=null;metrics=null"
    parameters: [brakes.*, tyres.*, mass.*]      # default: all
    design: lhs                                   # montecarlo, lhs, sobol, grid
    samples: 256
    seed: 17
    metrics:
      stopping_distance_m: {final: x_m}

Every parameter of ``config/polaris.json`` carries ``sd`` (normal
distribution around ``value``) or ``range`` (uniform between two numbers, or a
choice among the listed values for booleans and text); the sweep takes its
distributions from there unless an entry gives its own. The whole file is
checked before anything runs, with the scenario files it names; each error
names the file, line and key (:class:`~acres_dbw_sim.scenario.source.ScenarioError`)::

    brake.yaml:7: parameters[2]: 'brakes.front_nm_per_barr': unknown key (did you mean 'brakes.front_nm_per_bar'?)
"""
from __future__ import annotations

import copy
import difflib
import fnmatch
import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.overrides import index_problem
from ..model.params import ParameterError, assembled_from, assembled_tree, check_key, is_number, tree_entries
from ..vehicles import vehicle_spec
from ..scenario.schema import validate
from ..scenario.source import Check, Document, ScenarioError, apply_sets, parse_text, read_document, split_sets

__all__ = ["Sweep", "ParamSpec", "ScenarioSpec", "load_sweep", "parse_sweep", "DESIGNS", "format_value",
           "scenario_document", "loader_refusal"]

#: Top-level keys of a sweep file.
SWEEP_KEYS = ("name", "description", "scenarios", "parameters", "design", "samples", "seed", "levels", "metrics")
#: Designs: Monte Carlo (pseudo-random), Latin hypercube, Sobol' (Saltelli's A/B/AB matrices), full grid.
DESIGNS = ("montecarlo", "lhs", "sobol", "grid")
#: Largest number of runs a sweep may ask for (a typo guard: 10 levels of 8 keys is 10^8).
MAX_RUNS = 1_000_000
_KEY_RE = re.compile(r"^([A-Za-z0-9_.]+?)(?:\[(\d+)\])?$")


@dataclass(frozen=True)
class ParamSpec:
    """One varied parameter and its distribution.

    Attributes
    ----------
    key : str
        JSON path in the parameter file, with ``[i]`` for one array element.
    dist : str
        ``normal`` (``nominal``, ``sd``), ``uniform`` (``lo``..``hi``),
        ``integer`` (uniform over the integers ``lo``..``hi``) or ``choice``
        (one of ``choices``, equally likely).
    nominal : Any
        The parameter file's ``value``.
    sd : float
        Standard deviation (normal), in the key's unit.
    lo, hi : float
        Bounds (uniform, integer), in the key's unit.
    choices : tuple
        Values (choice).
    origin : str
        Where the distribution comes from: ``file`` or ``sweep``.
    """

    key: str
    dist: str
    nominal: Any
    sd: float = 0.0
    lo: float = 0.0
    hi: float = 0.0
    choices: tuple = ()
    origin: str = "file"

    def describe(self) -> str:
        """Short text: ``normal(22, sd 2)``, ``uniform[18, 26]``, ``choice(false, true)``."""
        if self.dist == "normal":
            return f"normal({format_value(self.nominal)}, sd {format_value(self.sd)})"
        if self.dist == "integer":
            return f"integer[{int(self.lo)}, {int(self.hi)}]"
        if self.dist == "uniform":
            return f"uniform[{format_value(self.lo)}, {format_value(self.hi)}]"
        return "choice(" + ", ".join(format_value(c) for c in self.choices) + ")"

    def as_dict(self) -> dict:
        """JSON-able description (for ``sweep.json``)."""
        d = {"key": self.key, "dist": self.dist, "nominal": self.nominal, "origin": self.origin}
        if self.dist == "normal":
            d["sd"] = self.sd
        elif self.dist in ("uniform", "integer"):
            d["lo"], d["hi"] = self.lo, self.hi
        else:
            d["choices"] = list(self.choices)
        return d


@dataclass(frozen=True)
class ScenarioSpec:
    """A scenario of the sweep, as plain picklable data (workers rebuild it).

    Attributes
    ----------
    name : str
        Scenario name (prefix of its metric columns when the sweep has several).
    file : str
        Absolute path of the scenario file.
    sets : tuple of str
        ``--set`` texts from the sweep file (scenario edits and parameter overrides).
    metrics : dict
        Metric definitions added by the sweep file (``{name: definition}``).
    metric_lines : dict
        ``{name: "sweep.yaml:12"}``: where each added metric is defined, for messages.
    collect : tuple of str
        Metrics of this scenario that go into the results table.
    fixed_occupancy : tuple of str
        ``mass.occupants`` / ``mass.cargo_kg`` when the scenario's ``vehicle`` section sets them.
    terrain_sha256 : str
        SHA-256 of the height-map grid the scenario's terrain uses, as loaded when the sweep was
        (a file the scenario names is part of what fixes the results); empty for a plane.
    """

    name: str
    file: str
    sets: tuple = ()
    metrics: dict = field(default_factory=dict)
    metric_lines: dict = field(default_factory=dict)
    collect: tuple = ()
    fixed_occupancy: tuple = ()
    terrain_sha256: str = ""


@dataclass
class Sweep:
    """A validated sweep.

    Attributes
    ----------
    name, description : str
    source : Path or None
        The sweep file.
    scenarios : tuple of ScenarioSpec
    params : tuple of ParamSpec
        The varied parameters, in the order of the sample table's columns.
    design : str
        One of :data:`DESIGNS`.
    samples : int
        Monte Carlo / LHS: the number of samples; Sobol': the base ``n`` (a
        power of 2; ``n (d + 2)`` runs); grid: the total ``levels ** d``.
    seed : int
    levels : int
        Grid levels per parameter.
    metric_columns : tuple of str
        Columns of the results table for the metrics (``metric`` or ``scenario.metric``).
    parameter_file : str
        The parameter file the distributions come from.
    base_checks : tuple of (str, str, str, int or None, float or None)
        Per scenario: (vehicle, parameter file, its fixed overrides, occupants, cargo) for draw checks.
    warnings : tuple of str
        Problems that do not stop the sweep (a parameter file's own range that
        goes outside the loaders' limits, for a key a glob picked up).
    """

    name: str
    description: str
    source: Path | None
    scenarios: tuple
    params: tuple
    design: str
    samples: int
    seed: int
    levels: int
    metric_columns: tuple
    parameter_file: str
    base_checks: tuple = ()
    warnings: tuple = ()

    @property
    def n_runs(self) -> int:
        """Number of samples (rows of the results table)."""
        if self.design == "sobol":
            return self.samples * (len(self.params) + 2)
        if self.design == "grid":
            return self.levels ** len(self.params)
        return self.samples

    def identity(self) -> dict:
        """Everything that fixes the results table (``sweep.json``): a resumed sweep must match it."""
        scen = []
        for s in self.scenarios:
            entry = {"name": s.name, "file": s.file, "sha256": _sha256(s.file), "sets": list(s.sets),
                     "metrics": s.metrics, "collect": list(s.collect)}
            if s.terrain_sha256:   # a height map (from a file or the scenario): its grid
                entry["terrain_sha256"] = s.terrain_sha256
            scen.append(entry)
        return {"name": self.name, "design": self.design, "samples": self.samples, "seed": self.seed,
                "levels": self.levels if self.design == "grid" else None, "n_runs": self.n_runs,
                "parameter_file": self.parameter_file, "parameter_file_sha256": _sha256(self.parameter_file),
                "assembled_from": [{"file": f, "sha256": _sha256(f)} for f in assembled_from(self.parameter_file)[1:]],
                "parameters": [p.as_dict() for p in self.params], "scenarios": scen,
                "metric_columns": list(self.metric_columns)}


def _sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _grid_sha256(heights: tuple | None) -> str:
    """SHA-256 of a height-map grid (rows of heights [m], float64 bytes and shape); empty for None."""
    if heights is None:
        return ""
    import numpy as np
    grid = np.asarray(heights, dtype=np.float64)
    return hashlib.sha256(repr(grid.shape).encode() + grid.tobytes()).hexdigest()


def format_value(v: Any) -> str:
    """Text of a parameter value, as an override and as a CSV cell.

    Floats use ``repr`` (the shortest text that reads back to the same
    double), so the text is the same on every machine and the loader reads
    back exactly the sampled value; ``true``/``false``/``null`` as in JSON.
    """
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(float(v)) if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
    return str(v)


def loader_refusal(vehicle: str, parameter_file: str | None, overrides: str, occupants: int | None = None,
                   cargo_kg: float | None = None) -> ParameterError | None:
    """Why the vehicle's loader refuses these overrides, or None when it accepts them.

    Runs the loader of ``vehicle``'s registry row (which fits the DBW kit too), whose physical limits
    decide whether a draw is valid.

    Parameters
    ----------
    vehicle : str
        The registry name of the scenario's vehicle (``Scenario.vehicle_type``).
    parameter_file : str or None
        Parameter file (None: the vehicle's shipped one).
    overrides : str
        ``key=value;key=value``.
    occupants, cargo_kg : optional
        As the scenario's vehicle section gives them.

    Returns
    -------
    ParameterError or None
    """
    try:
        vehicle_spec(vehicle).load_parameters(parameter_file, overrides or None, occupants, cargo_kg)
    except ParameterError as exc:
        return exc
    return None


# --------------------------------------------------------------------------- checks


def _file_dist(key: str, entry: dict, index: int | None, whole) -> ParamSpec | None:
    """The distribution the parameter file gives ``key`` (None when it does not vary); ``whole(key)`` says
    whether the loader takes only whole numbers for it (:func:`_whole_numbers`)."""
    value = entry["value"] if index is None else entry["value"][index]
    full = key if index is None else f"{key}[{index}]"
    if "sd" in entry and is_number(entry["sd"]) and is_number(value):
        sd = float(entry["sd"])
        return ParamSpec(full, "normal", value, sd=sd) if sd > 0.0 else None
    rng = entry.get("range")
    if isinstance(rng, list) and rng:
        return _range_dist(full, value, rng, "file", whole)
    return None


def _range_dist(key: str, value: Any, rng: list, origin: str, whole) -> ParamSpec | None:
    if len(rng) == 2 and all(is_number(x) for x in rng) and is_number(value):
        lo, hi = float(rng[0]), float(rng[1])
        if not lo < hi:
            return None
        if isinstance(value, int) and all(isinstance(x, int) for x in rng) and whole(key):
            return ParamSpec(key, "integer", value, lo=lo, hi=hi, origin=origin)
        return ParamSpec(key, "uniform", value, lo=lo, hi=hi, origin=origin)
    choices = tuple(dict.fromkeys(json.dumps(x) for x in rng))
    if len(choices) < 2:
        return None
    return ParamSpec(key, "choice", value, choices=tuple(json.loads(c) for c in choices), origin=origin)


_INTEGER_CACHE: dict = {}


def _whole_numbers(vehicle: str, parameter_file: str):
    """``whole(key)``: does the loader of ``vehicle`` accept only whole numbers for ``key``? (asked of the loader
    with ``parameter_file``, once per vehicle, file and key)."""
    def whole(key: str) -> bool:
        """True when ``key=0.5`` is refused as not an integer (or not among its allowed values)."""
        ck = (vehicle, parameter_file, key)
        if ck not in _INTEGER_CACHE:
            exc = loader_refusal(vehicle, parameter_file, f"{key}=0.5")
            _INTEGER_CACHE[ck] = exc is not None and exc.key == key and ("integer" in exc.reason
                                                                          or "allowed" in exc.reason)
        return _INTEGER_CACHE[ck]
    return whole


# --------------------------------------------------------------------------- scenarios


def scenario_document(spec: ScenarioSpec) -> tuple:
    """The scenario document of ``spec`` with its edits and the sweep's metrics applied.

    Returns
    -------
    (Document, str)
        The document (validate a deep copy per sample) and the fixed
        parameter overrides from the sweep's ``set`` texts.

    Raises
    ------
    ScenarioError
        When the file cannot be read, or an edit is invalid.
    """
    edits, param_sets = split_sets(list(spec.sets))
    doc = read_document(spec.file)
    apply_sets(doc, edits)
    doc.data.pop("expect", None)  # a sweep collects distributions; the scenario's pass/fail checks do not apply
    if spec.metrics:
        metrics = doc.data.get("metrics")
        if not isinstance(metrics, dict):
            metrics = {}
        for name, definition in spec.metrics.items():
            metrics.pop(name, None)
            metrics[name] = copy.deepcopy(definition)
            doc.origins[("metrics", name)] = spec.metric_lines.get(name, "sweep")
        doc.data["metrics"] = metrics
    return doc, param_sets


def _scenarios(c: Check, raw: Any, base: Path) -> list:
    path = ("scenarios",)
    if isinstance(raw, (str, dict)):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise c.fail(path, "expected a list of scenario files (a path, or {file: path, set: 'key=value;...'})")
    out = []
    for i, item in enumerate(raw):
        p = path + (i,)
        if isinstance(item, str):
            item = {"file": item}
        item = c.mapping(item, p, ("file", "set", "name"), ("file",), " (a scenario: a path, or file, set, name)")
        f = c.file(item["file"], p + ("file",))
        sets = item.get("set")
        if sets is None:
            sets = ()
        elif isinstance(sets, str):
            sets = (sets,)
        elif isinstance(sets, list) and all(isinstance(s, str) for s in sets):
            sets = tuple(sets)
        else:
            raise c.fail(p + ("set",), "wrong type: expected 'key=value;key=value' or a list of such texts")
        name = c.text(item["name"], p + ("name",)) if "name" in item else None
        out.append((p, str(f.resolve()), sets, name))
    return out


# --------------------------------------------------------------------------- parameters


def _param_entries(c: Check, raw: Any) -> list:
    """[(path, key text, override or None)] from the ``parameters`` section."""
    path = ("parameters",)
    if raw is None or raw == "all":
        return [(path, "*", None)]
    if isinstance(raw, str):
        raw = [raw]
    if isinstance(raw, dict):
        raw = [{k: v} for k, v in raw.items()]
    if not isinstance(raw, list) or not raw:
        raise c.fail(path, "expected 'all' or a list of parameter names, globs (brakes.*) or "
                     "{name: {sd: x} | {range: [lo, hi]} | {values: [...]}}")
    out = []
    for i, item in enumerate(raw):
        p = path + (i,)
        if isinstance(item, str):
            out.append((p, item.strip(), None))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            raise c.fail(p, f"expected a parameter name or a one-key mapping {{name: {{sd | range | values}}}}, "
                         f"got {item!r}")
        (key, ov), = item.items()
        if not isinstance(ov, dict) or len(ov) != 1 or next(iter(ov)) not in ("sd", "range", "values"):
            kinds = [str(k) for k in ov if k not in ("sd", "range", "values")] if isinstance(ov, dict) else []
            close = difflib.get_close_matches(kinds[0], ("sd", "range", "values"), 1, 0.6) if kinds else []
            what = f"unknown distribution {kinds[0]!r}" + (f" (did you mean {close[0]!r}?)" if close else "") + \
                "; " if kinds else ""
            raise c.fail(p + (key,), f"{what}expected exactly one of {{sd: x}}, {{range: [lo, hi]}}, {{values: [...]}}")
        out.append((p + (key,), key.strip(), ov))
    return out


def _resolve_params(c: Check, entries: list, tree: dict, check_value, whole) -> tuple:
    flat = tree_entries(tree)
    values = {key: entry["value"] for key, entry in flat.items()}
    chosen: dict = {}
    where: dict = {}
    globbed: set = set()
    warnings: list = []
    for p, text, ov in entries:
        if re.match(r"^[A-Za-z0-9_.]+\[[^\]]*\]$", text) and index_problem(text):   # key[-1]: a bad index, no glob
            raise c.fail(p, f"{text!r}: {index_problem(text)}")
        is_glob = any(ch in text for ch in "*?[") and not _KEY_RE.match(text)
        if is_glob:
            if ov is not None:
                raise c.fail(p, f"{text!r}: a glob cannot carry its own distribution; name one parameter")
            hits = 0
            for key, entry in flat.items():
                if not fnmatch.fnmatchcase(key, text) or isinstance(entry["value"], list):
                    continue
                spec = _file_dist(key, entry, None, whole)
                if spec is None or key in chosen:
                    continue
                chosen[key], where[key] = spec, p
                globbed.add(key)
                hits += 1
            if not hits and text != "*":
                raise c.fail(p, f"{text!r} matches no parameter with an sd or range in the parameter file")
            continue
        m = _KEY_RE.match(text)
        key, idx = (m.group(1), None if m.group(2) is None else int(m.group(2))) if m else (text, None)
        try:
            check_key(values, key, idx)
        except ParameterError as exc:
            raise c.fail(p, f"{text!r}: {exc.reason}") from None
        entry = flat[key]
        if isinstance(entry["value"], list) and idx is None:
            raise c.fail(p, f"{key!r} is an array of {len(entry['value'])}: vary one element, "
                         f"e.g. {key}[{len(entry['value']) // 2}]")
        full = text if idx is None else f"{key}[{idx}]"
        if full in chosen:
            raise c.fail(p, f"{full!r} is already varied (entry on line {c.doc.locate(where[full])[1]})")
        nominal = entry["value"] if idx is None else entry["value"][idx]
        if ov is None:
            if "sd" not in entry and "range" not in entry:
                raise c.fail(p, f"{full!r} has neither sd nor range in the parameter file: give one here, "
                             f"{{{full}: {{range: [lo, hi]}}}} or {{{full}: {{sd: x}}}}")
            spec = _file_dist(key, entry, idx, whole)
            if spec is None:
                raise c.fail(p, f"{full!r} does not vary in the parameter file "
                             f"({'sd 0' if 'sd' in entry else 'range ' + json.dumps(entry.get('range'))}): "
                             "give a range or sd here")
        else:
            (kind, v), = ov.items()
            pp = p + (kind,)
            if kind == "sd":
                sd = c.number(v, pp)
                if not is_number(nominal):
                    raise c.fail(pp, f"{full!r} is not a number ({nominal!r}): use values: [...]")
                if sd <= 0.0:
                    raise c.fail(pp, f"sd must be > 0, got {v!r}")
                spec = ParamSpec(full, "normal", nominal, sd=sd, origin="sweep")
            elif kind == "range":
                if not isinstance(v, list) or len(v) != 2:
                    raise c.fail(pp, f"expected [lo, hi], got {v!r}")
                lo, hi = c.number(v[0], pp + (0,)), c.number(v[1], pp + (1,))
                if not lo < hi:
                    raise c.fail(pp, f"expected lo < hi, got [{v[0]}, {v[1]}]")
                if not is_number(nominal):
                    raise c.fail(pp, f"{full!r} is not a number ({nominal!r}): use values: [...]")
                spec = _range_dist(full, nominal, list(v), "sweep", whole)
            else:
                if not isinstance(v, list) or len(v) < 2:
                    raise c.fail(pp, f"expected a list of at least two values, got {v!r}")
                spec = ParamSpec(full, "choice", nominal, choices=tuple(v), origin="sweep")
        chosen[full], where[full] = spec, p
    if not chosen:
        raise c.fail(("parameters",), "no parameter to vary")
    # the bounds of each range (and each listed value) must be values the loaders accept: an error for
    # a key the sweep names, a warning for one a glob picked up with the parameter file's own range
    for full, spec in chosen.items():
        p = where[full]
        problems = []
        if spec.dist in ("uniform", "integer"):
            for bound, val in (("lo", spec.lo), ("hi", spec.hi)):
                val = int(val) if spec.dist == "integer" else val
                reason = check_value(full, val)
                if reason:
                    problems.append(f"{full!r}: range [{format_value(spec.lo)}, {format_value(spec.hi)}] is "
                                    f"outside the loader's limits: {bound} = {format_value(val)}: {reason}")
                    break
        elif spec.dist == "choice":
            for val in spec.choices:
                reason = check_value(full, val)
                if reason:
                    problems.append(f"{full!r}: value {format_value(val)} is refused by the loader: {reason}")
                    break
        if problems and full not in globbed:
            raise c.fail(p, problems[0])
        for text in problems:
            err = c.fail(p, f"{text} (the parameter file's own range: draws outside the limits are re-drawn by "
                            "montecarlo, reported invalid by the other designs)")
            warnings.append(str(err))
    return tuple(chosen.values()), where, tuple(warnings)


# --------------------------------------------------------------------------- entry points


def parse_sweep(doc: Document) -> Sweep:
    """Validate a parsed sweep document (and the scenarios it names) into a :class:`Sweep`.

    Raises
    ------
    ScenarioError
        For the first problem, naming the file, line and key (a problem in a
        scenario file names that file).
    """
    c = Check(doc)
    d = doc.data
    c.mapping(d, (), SWEEP_KEYS, ("scenarios",), " (a sweep)")
    name = c.text(d["name"], ("name",)) if "name" in d else (doc.path.stem if doc.path else "sweep")
    description = c.text(d["description"], ("description",)) if "description" in d else ""
    design, seed, samples, levels = _design(c, d)
    # scenarios: each is validated now, with its edits and the sweep's metrics
    scen_raw = _scenarios(c, d["scenarios"], doc.base_dir())
    metrics = _sweep_metrics(c, doc, d.get("metrics"))
    specs, checks, param_file, tree = _validated_scenarios(c, scen_raw, metrics)
    params, where, warnings = _resolve_params(c, _param_entries(c, d.get("parameters")), tree,
                                              _loader_check(checks), _whole_numbers(*checks[0][:2]))
    _check_fixed_occupancy(c, specs, where)
    if len(specs) == 1:
        columns = tuple(specs[0].collect)
    else:
        columns = tuple(f"{s.name}.{m}" for s in specs for m in s.collect)
    sw = Sweep(name=name, description=description, source=doc.path, scenarios=tuple(specs), params=params,
               design=design, samples=samples, seed=seed, levels=levels, metric_columns=columns,
               parameter_file=param_file, base_checks=tuple(checks), warnings=warnings)
    if sw.n_runs > MAX_RUNS:
        key = ("levels",) if design == "grid" else ("samples",)
        raise c.fail(key, f"{sw.n_runs} runs ({design} over {len(params)} parameters) is more than {MAX_RUNS}")
    return sw


def _design(c: Check, d: dict) -> tuple:
    """``(design, seed, samples, levels)``: a grid has ``levels`` (``samples`` 0), the others ``samples``
    (``levels`` 0; a power of 2 for Sobol')."""
    design = d.get("design", "montecarlo")
    if design not in DESIGNS:
        raise c.fail(("design",), f"unknown design {design!r}; one of " + ", ".join(DESIGNS))
    seed = c.integer(d.get("seed", 0), ("seed",), 0, 2**63 - 1)
    if design == "grid":
        if "samples" in d:
            raise c.fail(("samples",), "a grid has levels ** (number of parameters) runs: give levels, not samples")
        return design, seed, 0, c.integer(d.get("levels", 3), ("levels",), 2, 1000)
    if "levels" in d:
        raise c.fail(("levels",), f"levels is for the grid design, not {design}")
    if "samples" not in d:
        raise c.fail((), "missing key 'samples'")
    samples = c.integer(d["samples"], ("samples",), 1, MAX_RUNS)
    if design == "sobol" and samples & (samples - 1):
        raise c.fail(("samples",), f"the Sobol' design needs a power of 2 (Saltelli's base n), got {samples}")
    return design, seed, samples, 0


@dataclass
class _SweepMetrics:
    """The sweep file's ``metrics`` section.

    ``raw``: as written; ``add``: definitions the sweep adds to every scenario (``{name: definition}``);
    ``lines``: ``{name: "sweep.yaml:12"}`` where each is defined; ``select``: the metrics to collect
    (None: every metric of each scenario).
    """

    raw: Any
    add: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    select: tuple | None = None


def _sweep_metrics(c: Check, doc: Document, raw: Any) -> _SweepMetrics:
    """The ``metrics`` section: a mapping of definitions (added and collected) or a list of names (collected)."""
    m = _SweepMetrics(raw)
    if isinstance(raw, dict):
        for k, v in raw.items():
            m.add[k] = v
            src, line = doc.locate(("metrics", k))
            m.lines[k] = f"{src}:{line}" if line else src
        m.select = tuple(raw)
    elif isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        m.select = tuple(raw)
    elif raw is not None:
        raise c.fail(("metrics",), "expected a list of metric names or a mapping of metric definitions "
                     "(the scenario format's metrics)")
    return m


def _validated_scenarios(c: Check, scen_raw: list, metrics: _SweepMetrics) -> tuple:
    """``(specs, checks, parameter file, parameter tree)`` of the sweep's scenarios, each validated with its
    edits and the sweep's metrics; every scenario must use one parameter file and have its own name.
    ``checks``: per scenario ``(vehicle, parameter file, overrides, occupants, cargo)`` (:attr:`Sweep.base_checks`)."""
    specs, checks = [], []
    tree = None
    param_file = None
    for p, f, sets, sname in scen_raw:
        sdoc, sc = _validate_scenario(c, p, ScenarioSpec(sname or "", f, sets, metrics.add, metrics.lines))
        collect = _collected_metrics(c, p, f, sc, metrics)
        veh = sdoc.data.get("vehicle") if isinstance(sdoc.data.get("vehicle"), dict) else {}
        fixed = tuple(k for k, s in (("mass.occupants", "occupants"), ("mass.cargo_kg", "cargo_kg")) if s in veh)
        specs.append(ScenarioSpec(sname or sc.name, f, sets, metrics.add, metrics.lines, collect, fixed,
                                  _grid_sha256(sc.terrain.heights)))
        pf = str(Path(sc.vehicle["parameters"]).resolve())
        if param_file is None:
            param_file = pf
            tree = assembled_tree(pf)
        elif pf != param_file:
            raise c.fail(p, f"all scenarios of a sweep must use one parameter file: {pf} is not {param_file}")
        checks.append((sc.vehicle_type, pf, sc.vehicle["overrides"], veh.get("occupants"), veh.get("cargo_kg")))
    names = [s.name for s in specs]
    for i, s in enumerate(specs):
        if names.count(s.name) > 1:
            raise c.fail(scen_raw[i][0], f"two scenarios are named {s.name!r}: give one a name: ...")
    return specs, checks, param_file, tree


def _validate_scenario(c: Check, p: tuple, spec: ScenarioSpec) -> tuple:
    """``(document, Scenario)`` of ``spec``; an error of one of its ``set:`` edits is located at ``p``."""
    try:
        sdoc, fixed_sets = scenario_document(spec)
        return sdoc, validate(sdoc, fixed_sets)
    except ScenarioError as err:
        if err.source != "--set":   # an error of the scenario file names that file
            raise
        # an edit from this sweep file's ``set:``: located here, not on a command line
        raise c.fail(p + ("set",), f"{err.key}: {err.reason}" if err.key else err.reason) from None


def _collected_metrics(c: Check, p: tuple, f: str, sc, metrics: _SweepMetrics) -> tuple:
    """The metrics of scenario ``sc`` (file ``f``) that go into the results table; each selected one must exist."""
    names = tuple(m.name for m in sc.metrics)
    if metrics.select is None:
        collect = names
    else:
        for i, m in enumerate(metrics.select):
            if m not in names:
                raise c.fail(("metrics", i) if isinstance(metrics.raw, list) else ("metrics", m),
                             f"scenario {sc.name!r} ({Path(f).name}) has no metric {m!r}; it has: "
                             + (", ".join(names) or "none"))
        collect = metrics.select
    if not collect:
        raise c.fail(p, f"scenario {sc.name!r} has no metrics to collect: add metrics here or in the sweep")
    return collect


def _loader_check(checks: list):
    """``check_value(key, value) -> reason`` (empty when accepted): the loaders' verdict on ``key=value``
    on top of each scenario's own overrides, occupants and cargo (:func:`loader_refusal`)."""
    def check_value(key: str, value: Any) -> str:
        """Why a loader refuses ``key = value`` for one of the scenarios, or ''."""
        for vehicle, pf, ov, occ, cargo in checks:
            exc = loader_refusal(vehicle, pf, ";".join(x for x in (ov, f"{key}={format_value(value)}") if x), occ,
                                 cargo)
            if exc is not None:
                return exc.reason if exc.key.split("[")[0] == key.split("[")[0] else f"{exc.key}: {exc.reason}"
        return ""
    return check_value


def _check_fixed_occupancy(c: Check, specs: list, where: dict) -> None:
    """Refuse varying the occupants or cargo a scenario's vehicle section fixes."""
    for s in specs:
        for key in s.fixed_occupancy:
            if key in where:
                raise c.fail(where[key], f"{key!r} cannot vary: scenario {s.name!r} fixes it in its vehicle section "
                             f"({'occupants' if key.endswith('occupants') else 'cargo_kg'})")


def load_sweep(path: str | Path, samples: int | None = None) -> Sweep:
    """Read and validate a sweep file.

    Parameters
    ----------
    path : str or Path
        The YAML sweep file.
    samples : int, optional
        Draw this many samples instead of the file's ``samples`` (``--samples``:
        a quick, smaller run of a shipped sweep); checked as the file's value
        is, an error names ``--samples``.

    Returns
    -------
    Sweep

    Raises
    ------
    ScenarioError
        Naming the file, line and key of the first problem (nothing has run).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(str(p), "", "no such sweep file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(str(p), "", f"cannot read the sweep file: {exc}") from None
    what = "a sweep file is a mapping of " + ", ".join(SWEEP_KEYS)
    try:
        doc = parse_text(text, p)
    except ScenarioError as exc:
        if exc.reason.startswith(("the top level must be a mapping", "the file is empty")):
            raise ScenarioError(str(p), "", what, 1) from None
        raise
    if samples is not None and isinstance(doc.data, dict):
        doc.data["samples"] = samples
        doc.origins[("samples",)] = "--samples"
    return parse_sweep(doc)
