"""The built dbw_polaris_msgs are wire-compatible with Dataspeed's legacy (DBW1) ones.

dbw-interface.md §3.2 states every message of the package with its fields in
their exact order (``**`Name`**: `type name` · `type name` ...``) and its
constants. Each message is checked against that text twice: the ``.msg``
installed in the package's share directory (parsed with rosidl's own parser)
and the generated Python class. The parser of §3.2 is checked against a few
facts written out by hand, so that a change of the document's notation cannot
make the comparison vacuous.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_share_directory
from rosidl_adapter.parser import parse_message_file

from reference_layout import MD_PATH

PACKAGE = "dbw_polaris_msgs"
SHARE = Path(get_package_share_directory(PACKAGE))

# rosidl_generator_py's names for the primitive types of a .msg
PY_TYPES = {"float32": "float", "bool": "boolean", "uint8": "uint8"}

_PARAGRAPH = re.compile(r"^\*\*`(\w+)`\*\*:?\s*(.*)$")
_CONST = re.compile(r"`(?:(float32|uint8) )?([A-Z][A-Z0-9_]*)`\s*=\s*(-?\d+(?:\.\d+)?)")
_FIELD = re.compile(r"`([^`]+)`")


def load_legacy_layout() -> dict[str, dict]:
    """Parse §3.2 into ``{message: {"fields": [(name, type)], "constants": {NAME: (type, value)}}}``.

    A field written as a bare ```header``` is ``std_msgs/Header header``. The
    field list ends where the constants begin: at the word ``Constants``, or,
    for the one-field types (``Gear``, ``GearReject``, ``WatchdogCounter``,
    written without ``·``), at the first ``;``. A constant without a type in its backticks takes the
    type announced before it (``Constants (`uint8`)``), else ``uint8``.
    """
    lines = MD_PATH.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("### 3.2"))
    layout: dict[str, dict] = {}
    for line in lines[start + 1:]:
        if line.startswith("### "):
            break
        m = _PARAGRAPH.match(line)
        if not m:
            continue
        name, text = m[1], m[2]
        if "Constants" in text:
            field_text, const_text = text.split("Constants", 1)
        elif " · " not in text and ";" in text:
            field_text, const_text = text.split(";", 1)
        else:
            field_text, const_text = text, ""
        fields = []
        for item in field_text.split(" · "):
            first = _FIELD.search(item)
            if first is None:
                continue
            words = first[1].split()
            fields.append(("header", "std_msgs/Header") if words == ["header"]
                          else (words[1], words[0]))
        default = "uint8"
        constants = {}
        for typ, cname, value in _CONST.findall(const_text):
            typ = typ or default
            default = typ if typ == "uint8" else default
            constants[cname] = (typ, float(value) if typ == "float32" else int(value))
        layout[name] = {"fields": fields, "constants": constants}
    return layout


LAYOUT = load_legacy_layout()
MESSAGES = sorted(LAYOUT)


def test_parser_reads_the_documented_facts():
    """Hand-written facts of §3.2 come out of the parser (guards it against notation drift)."""
    assert MESSAGES == ["BrakeCmd", "BrakeReport", "Gear", "GearCmd", "GearReject", "GearReport",
                        "SteeringCmd", "SteeringReport", "ThrottleCmd", "ThrottleReport",
                        "WatchdogCounter"]
    assert LAYOUT["Gear"]["fields"] == [("gear", "uint8")]
    assert LAYOUT["GearReject"]["constants"]["FAULT"] == ("uint8", 7)
    assert LAYOUT["BrakeCmd"]["constants"]["TORQUE_MAX"] == ("float32", 8000.0)
    assert LAYOUT["SteeringCmd"]["constants"]["VELOCITY_MAX"] == ("float32", 17.5)
    assert LAYOUT["SteeringReport"]["fields"][4] == ("steering_wheel_cmd_type", "uint8")
    assert LAYOUT["SteeringReport"]["constants"] == {"CMD_ANGLE": ("uint8", 0),
                                                     "CMD_TORQUE": ("uint8", 1)}
    assert len(LAYOUT["WatchdogCounter"]["constants"]) == 16
    assert LAYOUT["ThrottleReport"]["fields"][8] == ("watchdog_counter", "WatchdogCounter")
    assert sum(len(v["fields"]) for v in LAYOUT.values()) == 79  # 7+13+7+14+12+14+3+6+1+1+1


def test_every_documented_message_is_built():
    assert sorted(p.stem for p in (SHARE / "msg").glob("*.msg")) == MESSAGES


@pytest.mark.parametrize("name", MESSAGES)
def test_msg_file_matches_reference(name):
    spec = parse_message_file(PACKAGE, str(SHARE / "msg" / f"{name}.msg"))
    fields = []
    for f in spec.fields:
        t = f.type
        assert not t.is_array, (name, f.name)
        base = f"{t.pkg_name}/{t.type}" if t.pkg_name and t.pkg_name != PACKAGE else t.type
        fields.append((f.name, base))
    assert fields == LAYOUT[name]["fields"]
    assert {c.name: (c.type, c.value) for c in spec.constants} == LAYOUT[name]["constants"]


@pytest.mark.parametrize("name", MESSAGES)
def test_python_class_matches_reference(name):
    cls = getattr(importlib.import_module(f"{PACKAGE}.msg"), name)
    want = [(f, PY_TYPES.get(t, t if "/" in t else f"{PACKAGE}/{t}"))
            for f, t in LAYOUT[name]["fields"]]
    assert list(cls.get_fields_and_field_types().items()) == want
    for const, (_typ, value) in LAYOUT[name]["constants"].items():
        assert getattr(cls, const) == pytest.approx(value), const
