"""The interface facts the tests check against, read from the repository's own data files.

``test/data/`` holds, in this project's form (see each file's header):

* ``ds_dbw_msgs_2.3.11.yaml``: every ds_dbw_msgs 2.3.11 message, its fields in order, its
  constants;
* ``dbw_polaris_msgs.yaml``: the same for the legacy DBW1 ``dbw_polaris_msgs``;
* ``dbw_topics.yaml``: the topics, types and history depths of the DBW2 node and of the
  legacy DBW1 node.

They are written independently of the ``.msg`` files under ``msg_adapters/interfaces/`` and
of the node's topic tables, so that a typo in either is caught by comparing the two.
"""

from __future__ import annotations

from pathlib import Path

import yaml

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
DS_DBW_PATH = DATA_DIR / "ds_dbw_msgs_2.3.11.yaml"
POLARIS_LEGACY_PATH = DATA_DIR / "dbw_polaris_msgs.yaml"
TOPICS_PATH = DATA_DIR / "dbw_topics.yaml"


def _read(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def _fields(entries: list[str], where: str) -> list[tuple[str, str]]:
    """``["float32 cmd", ...]`` -> ``[("cmd", "float32"), ...]``."""
    out = []
    for entry in entries:
        words = entry.split()
        if len(words) != 2:
            raise ValueError(f"{where}: field {entry!r} is not '<type> <name>'")
        out.append((words[1], words[0]))
    return out


def _constants(raw: dict | None, where: str) -> dict:
    """Constant names must stay strings (an unquoted ON or TRUE would become a bool)."""
    for k in raw or {}:
        if not isinstance(k, str):
            raise ValueError(f"{where}: constant name {k!r} is not a string: quote it in the file")
    return dict(raw or {})


def ds_dbw_layout() -> dict[str, dict]:
    """The ds_dbw_msgs 2.3.11 layout.

    Returns
    -------
    dict
        ``{message: {"fields": [(name, type), ...], "constants": {NAME: int}}}``; a type
        without a package is a ds_dbw_msgs message, ``std_msgs/Header`` is written so.
    """
    raw = _read(DS_DBW_PATH)
    return {name: {"fields": _fields(spec["fields"], f"{DS_DBW_PATH.name}: {name}"),
                   "constants": {k: int(v) for k, v in
                                 _constants(spec["constants"], f"{DS_DBW_PATH.name}: {name}").items()}}
            for name, spec in raw.items()}


def polaris_legacy_layout() -> dict[str, dict]:
    """The dbw_polaris_msgs (DBW1) layout.

    Returns
    -------
    dict
        ``{message: {"fields": [(name, type), ...], "constants": {NAME: (type, value)}}}``
        with ``value`` an int for ``uint8`` and a float for ``float32`` constants.
    """
    raw = _read(POLARIS_LEGACY_PATH)
    out = {}
    for name, spec in raw.items():
        consts = {}
        for k, v in _constants(spec["constants"], f"{POLARIS_LEGACY_PATH.name}: {name}").items():
            typ, value = v.split()
            consts[k] = (typ, float(value) if typ == "float32" else int(value))
        out[name] = {"fields": _fields(spec["fields"], f"{POLARIS_LEGACY_PATH.name}: {name}"),
                     "constants": consts}
    return out


def topics(interface: str, direction: str) -> dict[str, tuple[str, int, bool]]:
    """A node's topics.

    Parameters
    ----------
    interface : {"ds_dbw", "polaris_legacy"}
        The DBW2 node or the legacy DBW1 node.
    direction : {"subscriptions", "publications"}

    Returns
    -------
    dict
        ``{relative topic: (type "<package>/<Message>", history depth, transient_local)}``.
    """
    out = {}
    for topic, text in _read(TOPICS_PATH)[interface][direction].items():
        words = text.split()
        out[topic] = (words[0], int(words[1]), words[2:] == ["transient_local"])
    return out
