"""The built dbw_polaris_msgs are wire-compatible with Dataspeed's legacy (DBW1) ones.

``test/data/dbw_polaris_msgs.yaml`` states every message of the package with its
fields in their exact order and its constants. Each message is checked against
it twice: the ``.msg`` installed in the package's share directory (parsed with
rosidl's own parser) and the generated Python class. A few facts written out by
hand guard the reading of the data file, so that a change of its notation cannot
make the comparison vacuous.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_share_directory
from rosidl_adapter.parser import parse_message_file

from helpers.reference_layout import polaris_legacy_layout

PACKAGE = "dbw_polaris_msgs"
SHARE = Path(get_package_share_directory(PACKAGE))

# rosidl_generator_py's names for the primitive types of a .msg
PY_TYPES = {"float32": "float", "bool": "boolean", "uint8": "uint8"}

LAYOUT = polaris_legacy_layout()
MESSAGES = sorted(LAYOUT)


def test_layout_data_holds_the_known_facts():
    """Facts written out by hand come out of the data file (guards its reading)."""
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
