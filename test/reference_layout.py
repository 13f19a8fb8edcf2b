"""Read the ds_dbw_msgs 2.3.11 layout from the project's reference documents.

Two independent sources, so that a typo in a ``.msg`` file cannot pass:

* ``dbw-interface.md`` §2, the field tables (``| # | type | name | ...``) and the
  constant lists (``- `NAME` = value`` bullets, and the inline lists of the field
  types in §2.1);
* ``ds_dbw_msgs-2.3.11-layout.json``, the same facts as data.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "reference"
MD_PATH = REFERENCE_DIR / "dbw-interface.md"
JSON_PATH = REFERENCE_DIR / "ds_dbw_msgs-2.3.11-layout.json"

_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|")
_HEAD = re.compile(r"^(?:#+\s*(?:[\d.]+\s+)?|\*\*)?`(\w+)`")
_BULLET = re.compile(r"^-\s*`(\w+)`\s*=\s*(\d+)")
_INLINE = re.compile(r"`(\w+)`\s*=\s*(\d+)")
_RANGE = re.compile(r"`([A-Z_]+?)(\d+)`=(\d+)\s*…\s*`\1(\d+)`=(\d+)")


def load_json_layout() -> dict[str, dict]:
    """``{message: {"fields": [(name, type), ...], "constants": {NAME: int}}}``."""
    raw = json.loads(JSON_PATH.read_text())
    return {name: {"fields": [tuple(f) for f in spec["fields"]],
                   "constants": {k: int(v) for k, v in spec["constants"].items()}}
            for name, spec in raw.items()}


def load_md_layout(message_names: set[str]) -> dict[str, dict]:
    """Parse §2 of ``dbw-interface.md`` into the same form as :func:`load_json_layout`.

    Messages documented without a table (the one-field types of §2.1) get
    ``fields = None``; their single ``uint8 value`` is stated once in §2.1.
    """
    lines = MD_PATH.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("## 2."))
    end = next(i for i, line in enumerate(lines) if line.startswith("## 3."))
    layout: dict[str, dict] = {}
    current = None
    for line in lines[start:end]:
        row = _ROW.match(line)
        if row and current:
            fields = layout[current]["fields"]
            if fields is None or int(row[1]) == 1:
                fields = layout[current]["fields"] = []
            fields.append((row[3], row[2].replace("std_msgs/msg/", "std_msgs/")))
            continue
        head = _HEAD.match(line)
        if head and head[1] in message_names:
            current = head[1]
            layout.setdefault(current, {"fields": None, "constants": {}})
            if line.lstrip().startswith("**") and "—" in line:
                text = line.split("—", 1)[1]
                consts = layout[current]["constants"]
                consts.update({k: int(v) for k, v in _INLINE.findall(text)})
                for prefix, a, va, _b, vb in _RANGE.findall(text):
                    for i in range(int(va), int(vb) + 1):
                        consts[f"{prefix}{i:0{len(a)}d}"] = i
            continue
        bullet = _BULLET.match(line)
        if bullet and current:
            layout[current]["constants"][bullet[1]] = int(bullet[2])
    return layout
