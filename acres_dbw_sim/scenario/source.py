"""Scenario source text: YAML with line numbers, ``--set`` edits, the error type.

A scenario file is read with PyYAML's safe loader, but node by node, so that
every mapping key and list item keeps the line it was written on. Validation
(:mod:`.schema`) then names that line and the key's path in every message::

    brake_70bar.yaml:14: timeline[2].brake_bar: wrong type: expected a number [bar], got '30 psi'

``--set key=value;key=value`` edits the document before validation. A key
whose first part is a scenario section (``terrain.surface``,
``timeline[1].pedal``, ``duration_s``) sets that scenario value (parsed as a
YAML scalar or flow collection); any other key is a vehicle parameter
override (``brakes.front_nm_per_bar=25``) and is appended to
``vehicle.overrides``, so it wins over the file's own overrides.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..model.overrides import index_problem
from ..model.params import choice_problem, describe, number_problem

__all__ = ["ScenarioError", "Document", "Check", "describe", "key_str", "read_document", "apply_sets", "split_sets",
           "SCENARIO_SECTIONS"]


#: Top-level keys of a scenario file (a ``--set`` key starting with one of these edits the scenario).
SCENARIO_SECTIONS = ("name", "description", "vehicle", "step_hz", "duration_s", "output_every", "terrain",
                     "initial", "control", "command_rate_hz", "timeline", "stop_when", "metrics", "expect",
                     "model", "vehicles")

_SET_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?)*$")
_PART_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


class _Loader(yaml.SafeLoader):
    """Safe loader that also reads YAML 1.2 floats such as ``1e6`` and ``2.5e-3`` as numbers
    (PyYAML's YAML 1.1 rules need a dot and a signed exponent, ``1.0e+6``)."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"))


def load_value(text: str):
    """One YAML value (``--set`` values) with the same rules as the scenario file."""
    return yaml.load(text, Loader=_Loader)


class ScenarioError(ValueError):
    """A scenario file, a ``--set`` edit or a command-line argument is invalid.

    Parameters
    ----------
    source : str
        File name, ``--set`` or ``<command line>``.
    key : str
        Path of the offending key (``timeline[2].brake_bar``); empty for the whole file.
    reason : str
        What is wrong and what is allowed.
    line : int, optional
        1-based line in ``source``.

    The message reads ``source:line: key: reason``.
    """

    def __init__(self, source: str, key: str, reason: str, line: int | None = None) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        self.line = line
        loc = f"{source}:{line}" if line else source
        super().__init__(f"{loc}: {key}: {reason}" if key else f"{loc}: {reason}")


def key_str(path: tuple) -> str:
    """``('timeline', 2, 'brake')`` -> ``'timeline[2].brake'``."""
    s = ""
    for p in path:
        if isinstance(p, int):
            s += f"[{p}]"
        else:
            s += f".{p}" if s else str(p)
    return s


@dataclass
class Document:
    """A parsed scenario: plain data plus where each key came from.

    Attributes
    ----------
    data : dict
        The mapping at the top of the file (plain dicts, lists, scalars).
    path : Path or None
        The file (None for a document built from a string).
    lines : dict
        ``{key path tuple: 1-based line}`` for every key and list item.
    origins : dict
        ``{key path tuple: '--set'}`` for values set on the command line.
    """

    data: dict
    path: Path | None
    lines: dict = field(default_factory=dict)
    origins: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        """File name used in messages."""
        return str(self.path) if self.path is not None else "<scenario>"

    def locate(self, path: tuple) -> tuple:
        """(source, line) of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while True:
            if p in self.origins:
                return self.origins[p], None
            if p in self.lines:
                return self.name, self.lines[p]
            if not p:
                return self.name, None
            p = p[:-1]

    def error(self, path: tuple, reason: str) -> ScenarioError:
        """A :class:`ScenarioError` for ``path`` (raise it)."""
        source, line = self.locate(path)
        return ScenarioError(source, key_str(path), reason, line)

    def base_dir(self) -> Path:
        """Directory relative paths in the scenario are resolved against."""
        return self.path.resolve().parent if self.path is not None else Path.cwd()


def _build(loader: _Loader, node: yaml.Node, path: tuple, doc: Document) -> Any:
    doc.lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        n_explicit = sum(1 for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge")
        loader.flatten_mapping(node)  # YAML merge keys (<<: *anchor) first, then the explicit keys
        n_merged = len(node.value) - n_explicit
        out: dict = {}
        explicit: set = set()
        for i, (key_node, value_node) in enumerate(node.value):
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, str):
                raise ScenarioError(doc.name, key_str(path + (str(key),)),
                                    f"keys must be text, got {key!r}", line)
            if i >= n_merged:
                if key in explicit:
                    raise ScenarioError(doc.name, key_str(path + (key,)),
                                        f"duplicate key (first given on line {doc.lines[path + (key,)]})", line)
                explicit.add(key)
            # a merged key may be overridden by a later merge source or an explicit key
            doc.lines[path + (key,)] = line
            out[key] = _build(loader, value_node, path + (key,), doc)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, path + (i,), doc) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def parse_text(text: str, path: Path | None = None) -> Document:
    """Parse YAML ``text`` into a :class:`Document`.

    Raises
    ------
    ScenarioError
        For a YAML syntax error, duplicate keys, non-text keys, or a top level
        that is not a mapping.
    """
    doc = Document({}, path)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError(doc.name, "", "the file is empty", 1)
        data = _build(loader, node, (), doc)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        ctx = exc.context or ""
        if ctx and exc.context_mark is not None and exc.context_mark.line + 1 != line:
            ctx += f" (started on line {exc.context_mark.line + 1})"
        reason = "; ".join(str(x) for x in (ctx, exc.problem) if x)
        raise ScenarioError(doc.name, "", f"YAML syntax error: {reason}", line) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(doc.name, "", f"YAML error: {exc}") from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise ScenarioError(doc.name, "", f"the top level must be a mapping of sections "
                            f"({', '.join(SCENARIO_SECTIONS)}), got {type(data).__name__}", 1)
    doc.data = data
    return doc


def read_document(path: str | Path) -> Document:
    """Read and parse a scenario file.

    Raises
    ------
    ScenarioError
        If the file cannot be read or is not valid YAML (see :func:`parse_text`).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(str(p), "", "no such scenario file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(str(p), "", f"cannot read the scenario file: {exc}") from None
    return parse_text(text, p)


def split_sets(texts: list | tuple | str | None) -> tuple:
    """Split ``--set`` texts into (scenario edits, parameter overrides).

    Parameters
    ----------
    texts : str or sequence of str
        Each ``key=value;key=value``.

    Returns
    -------
    (list of (key, raw value), str)
        Scenario edits in order; parameter overrides joined with ``;``.

    Raises
    ------
    ScenarioError
        For a pair without ``=`` or a malformed key.
    """
    if texts is None:
        return [], ""
    if isinstance(texts, str):
        texts = [texts]
    edits, params = [], []
    for text in texts:
        seen: set = set()   # one text gives a parameter once (a later --set may change it again)
        for part in text.split(";"):
            if not part.strip():
                continue
            if "=" not in part:
                raise ScenarioError("--set", part.strip(), "must be key=value")
            key, raw = part.split("=", 1)
            key = key.strip()
            if not _SET_KEY_RE.match(key):
                raise ScenarioError("--set", key, index_problem(key) or "malformed key: use dotted names with "
                                    "[index] for list items, e.g. timeline[1].pedal")
            head = _PART_RE.match(key).group(1)
            if head in SCENARIO_SECTIONS:
                edits.append((key, raw.strip()))
            else:
                if key.replace(" ", "") in seen:
                    raise ScenarioError("--set", key,
                                        "given twice in the overrides (the last would win without a word)")
                seen.add(key.replace(" ", ""))
                params.append(f"{key}={raw.strip()}")
    return edits, ";".join(params)


def apply_sets(doc: Document, edits: list) -> None:
    """Apply scenario edits from :func:`split_sets` to ``doc`` (in place).

    Missing mappings on the way are created; list items must exist.

    Raises
    ------
    ScenarioError
        For a value that is not valid YAML, an index past the end of a list or
        a path through a value that is not a mapping or list.
    """
    for key, raw in edits:
        try:
            value = load_value(raw) if raw != "" else None
        except yaml.YAMLError as exc:
            raise ScenarioError("--set", key, f"value {raw!r} is not valid YAML: {exc}") from None
        parts: list = []
        for m in _PART_RE.finditer(key):
            parts.append(m.group(1))
            parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
        node: Any = doc.data
        for i, p in enumerate(parts[:-1]):
            nxt = parts[i + 1]
            if isinstance(p, int):
                if not isinstance(node, list) or p >= len(node):
                    raise ScenarioError("--set", key, f"no such list item: {key_str(tuple(parts[:i + 1]))}")
                node = node[p]
                continue
            if not isinstance(node, dict):
                raise ScenarioError("--set", key, f"{key_str(tuple(parts[:i]))} is not a mapping")
            if p not in node or node[p] is None:
                node[p] = [] if isinstance(nxt, int) else {}
                doc.origins[tuple(parts[:i + 1])] = "--set"   # made by the edit: a fault there is the edit's
            node = node[p]
        last = parts[-1]
        if isinstance(last, int):
            if not isinstance(node, list) or last >= len(node):
                raise ScenarioError("--set", key, "no such list item")
        elif not isinstance(node, dict):
            raise ScenarioError("--set", key, f"{key_str(tuple(parts[:-1]))} is not a mapping")
        node[last] = value
        doc.origins[tuple(parts)] = "--set"


class Check:
    """Typed checks on a YAML document (a scenario, a sweep) that raise a :class:`ScenarioError` naming the
    line and the key path: the one wording of every such fault.

    Each method takes the value and its key path (a tuple of keys and indices) and returns the value
    converted, or raises. Ranges are closed unless ``lo_open``/``hi_open``; an unknown mapping key gets
    "did you mean", with a hint when only the unit suffix differs (the key's name fixes the unit).

    Parameters
    ----------
    doc : Document
        The document the paths point into (for the line numbers and the base folder of files).
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc

    def fail(self, path: tuple, reason: str) -> ScenarioError:
        """The error at ``path`` with ``reason`` (for the caller to raise)."""
        return self.doc.error(path, reason)

    def mapping(self, value: Any, path: tuple, allowed: tuple, required: tuple = (), what: str = "") -> dict:
        """A mapping whose keys are among ``allowed`` and include ``required`` (null reads as empty)."""
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping{what} with keys {', '.join(allowed)}; got "
                            f"{describe(value)}")
        for k in value:
            if k not in allowed:
                close = difflib.get_close_matches(k, allowed, 1, 0.6)
                # the same name with another unit suffix (speed_kph for speed_mps), or none
                # (speed for speed_mps): say why
                same_stem = close and (close[0].startswith(k + "_") or
                                       ("_" in k and k.rsplit("_", 1)[0] == close[0].rsplit("_", 1)[0]))
                unit_hint = "? units are fixed by the key name" if same_stem else "?"
                hint = f" (did you mean {close[0]!r}{unit_hint})" if close else ""
                raise self.fail(path + (k,), f"unknown key{hint}; allowed here: {', '.join(allowed)}")
        for k in required:
            if k not in value:
                raise self.fail(path, f"missing key {k!r}")
        return value

    def number(self, value: Any, path: tuple, unit: str = "", lo: float = -math.inf, hi: float = math.inf,
               lo_open: bool = False, hi_open: bool = False) -> float:
        """A finite number within the range, ``unit`` named in the messages (:func:`number_problem`)."""
        why = number_problem(value, lo, hi, lo_open, hi_open, unit)
        if why:
            raise self.fail(path, why)
        return float(value)

    def integer(self, value: Any, path: tuple, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (a float with an integer value is taken)."""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"wrong type: expected an integer {lo}..{hi}, got {describe(value)}")
        why = number_problem(value, lo, hi)
        if why:
            raise self.fail(path, why)
        return int(value)

    def boolean(self, value: Any, path: tuple) -> bool:
        """true or false."""
        if not isinstance(value, bool):
            raise self.fail(path, f"wrong type: expected true or false, got {describe(value)}")
        return value

    def text(self, value: Any, path: tuple) -> str:
        """A string."""
        if not isinstance(value, str):
            raise self.fail(path, f"wrong type: expected text, got {describe(value)}")
        return value

    def choice(self, value: Any, path: tuple, names: dict, what: str, numbers: tuple = ()) -> Any:
        """What ``names`` maps a name to (any case, spaces ignored), or one of ``numbers`` as it is
        (:func:`choice_problem`'s wording)."""
        if isinstance(value, int) and not isinstance(value, bool) and value in numbers:
            return value
        if isinstance(value, str) and value.strip().upper() in names:
            return names[value.strip().upper()]
        # the names as the tools write them where the table maps to text (polaris, full), else its keys
        shown = {v: None for v in names.values()} if all(isinstance(v, str) for v in names.values()) else names
        close = difflib.get_close_matches(value.strip().upper(), list(names), 1, 0.6) if isinstance(value, str) \
            else []
        hint = f" (did you mean {names[close[0]] if shown is not names else close[0]!r}?)" if close else ""
        raise self.fail(path, choice_problem(value, shown, what, any_case=True).replace("; use", f"{hint}; use", 1))

    def condition(self, value: Any, path: tuple) -> Any:
        """A ``column OP number and ...`` condition (:func:`acres_dbw_sim.scenario.signals.parse_condition`)."""
        from .signals import parse_condition   # signals reads documents: imported when first needed
        try:
            return parse_condition(value)
        except ValueError as exc:
            raise self.fail(path, str(exc)) from None

    def file(self, value: Any, path: tuple) -> Path:
        """An existing file; a relative path is taken from the document's folder."""
        p = Path(self.text(value, path)).expanduser()
        if not p.is_absolute():
            p = self.doc.base_dir() / p
        if not p.is_file():
            raise self.fail(path, f"not a file: {p} is a directory" if p.is_dir() else f"file not found: {p}")
        return p
