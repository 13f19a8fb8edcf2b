"""Where a parameter is in its file: the line of a key in a parameter file, for the errors that name it.

A :class:`~acres_dbw_sim.model.params.ParameterError` names the key (``engine.idle_rpm``);
:func:`located` adds the ``file:line`` of the key's entry when the value at fault is the file's,
so that a user editing a JSON parameter file is sent to the line, as a scenario's YAML errors are.
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

from .params import ParameterError
from .overrides import override_keys

__all__ = ["json_key_line", "located"]


def json_key_line(text: str, key: str) -> int | None:
    """The line (1-based) of the object member ``key`` (a dotted path, ``engine.idle_rpm``) in the JSON
    text ``text``, None when there is none. Members inside arrays are not searched.

    Parameters
    ----------
    text : str
        A JSON document (its syntax is not checked here).
    key : str
        Dotted member names from the top-level object.
    """
    target = key.split(".")
    stack: list = []          # per open container: the member it opened under ("[" for an array)
    member = None             # the last member name read in the innermost object
    line, i, n = 1, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            k = j + 1
            while k < n and text[k] in " \t\r":
                k += 1
            if k < n and text[k] == ":" and "[" not in stack:
                member = json.loads(text[i:j + 1])
                if [m for m in stack[1:]] + [member] == target:
                    return line
            i = j
        elif ch in "{[":
            stack.append(member if ch == "{" else "[")
            member = None
        elif ch in "}]" and stack:
            stack.pop()
        i += 1
    return None


@contextlib.contextmanager
def located(path: str | Path, overrides: str | None = None, parts: tuple = ()):
    """Give a :class:`ParameterError` raised inside the block the ``file:line`` of its key (``origin``)
    when the value at fault comes from the parameter file ``path`` (or from the part file, of
    :func:`assembly`'s ``parts``, that supplies the key's section): not for a key the overrides set.

    Raises
    ------
    ParameterError
        The one raised in the block, re-raised with ``origin`` set where it applies.
    """
    try:
        yield
    except ParameterError as exc:
        base = exc.key.split("[")[0]
        if exc.origin is None and exc.key != "<file>" and base not in override_keys(overrides) \
                and exc.key not in override_keys(overrides):
            exc.origin = _key_origin(Path(path), base, parts)
        raise


def _key_origin(path: Path, key: str, parts: tuple) -> str | None:
    """``file:line`` of ``key`` in the file that holds its section: ``path`` or one of ``parts``."""
    try:
        text = path.read_text(encoding="utf-8")
        section = key.split(".")[0]
        if json_key_line(text, section) is None:
            for sections, f in parts:
                if section in sections:
                    path, text = Path(f), Path(f).read_text(encoding="utf-8")
        line = json_key_line(text, key)
    except (OSError, UnicodeDecodeError):
        return None
    return f"{path}:{line}" if line else None
