"""The built ds_dbw_msgs and tf2_msgs are wire-compatible with the real ones.

Each message's field order, field types and constants are checked three ways:
the ``.msg`` installed in the package's share directory (parsed with rosidl's own
parser) and the generated Python class, against the repository's layout data
(``test/data/ds_dbw_msgs_2.3.11.yaml``, written independently of the ``.msg`` files). Then two separate processes
exchange a SteeringCmd and a TFMessage over real DDS and every field must survive.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import pytest
import rclpy
from ament_index_python.packages import get_package_share_directory
from builtin_interfaces.msg import Time
from ds_dbw_msgs.msg import SteeringCmd
from geometry_msgs.msg import TransformStamped
from rosidl_adapter.parser import parse_message_file
from tf2_msgs.msg import TFMessage

from helpers.dds import matched, wait_for
from helpers.reference_layout import ds_dbw_layout

TEST_DIR = Path(__file__).resolve().parent
LAYOUT = ds_dbw_layout()
MESSAGES = sorted(LAYOUT)
SHARE = Path(get_package_share_directory("ds_dbw_msgs"))

# rosidl_generator_py's names for the primitive types of a .msg
PY_TYPES = {"float32": "float", "bool": "boolean", "uint8": "uint8", "int16": "int16",
            "string": "string"}


def _py_type(msg_type: str) -> str:
    if msg_type in PY_TYPES:
        return PY_TYPES[msg_type]
    return msg_type if "/" in msg_type else f"ds_dbw_msgs/{msg_type}"


def test_layout_data_holds_the_known_facts():
    """A few facts written out by hand come out of the data file (guards its reading)."""
    assert len(LAYOUT) == 72
    assert LAYOUT["GearCmd"] == {"fields": [("header", "std_msgs/Header"), ("cmd", "Gear"),
                                            ("cmd_manual", "GearManual"), ("return_to_park", "bool")],
                                 "constants": {}}
    assert LAYOUT["Bool"]["constants"] == {"UNKNOWN": 0, "FALSE": 1, "TRUE": 2, "ERROR": 3}
    assert LAYOUT["Gear"]["fields"] == [("value", "uint8")]
    assert LAYOUT["Gear"]["constants"]["DRIVE"] == 4
    assert LAYOUT["UlcCmd"]["fields"][1] == ("cmd", "float32")
    assert LAYOUT["SteeringCmd"]["constants"]["CMD_CURVATURE"] == 3
    assert sum(len(v["fields"]) for v in LAYOUT.values()) > 500


def test_every_reference_message_is_built():
    built = sorted(p.stem for p in (SHARE / "msg").glob("*.msg"))
    assert built == MESSAGES


@pytest.mark.parametrize("name", MESSAGES)
def test_msg_file_matches_reference(name):
    spec = parse_message_file("ds_dbw_msgs", str(SHARE / "msg" / f"{name}.msg"))
    fields = []
    for f in spec.fields:
        t = f.type
        base = f"{t.pkg_name}/{t.type}" if t.pkg_name and t.pkg_name != "ds_dbw_msgs" else t.type
        assert not t.is_array, (name, f.name)
        fields.append((f.name, base))
    assert fields == LAYOUT[name]["fields"]
    assert {c.name: c.value for c in spec.constants} == LAYOUT[name]["constants"]
    assert all(c.type == "uint8" for c in spec.constants), name


@pytest.mark.parametrize("name", MESSAGES)
def test_python_class_matches_reference(name):
    cls = getattr(importlib.import_module("ds_dbw_msgs.msg"), name)
    got = list(cls.get_fields_and_field_types().items())
    want = [(f, _py_type(t)) for f, t in LAYOUT[name]["fields"]]
    assert got == want
    for const, value in LAYOUT[name]["constants"].items():
        assert getattr(cls, const) == value, const


def test_tf2_msgs_layout():
    assert list(TFMessage.get_fields_and_field_types().items()) == [
        ("transforms", "sequence<geometry_msgs/TransformStamped>")]


def _steering_cmd() -> SteeringCmd:
    msg = SteeringCmd(cmd=-123.5, cmd_rate=412.0, cmd_accel=math.inf,
                      cmd_type=SteeringCmd.CMD_ANGLE, enable=True, clear=False, ignore=True)
    msg.header.stamp = Time(sec=1234, nanosec=567_000_000)
    msg.header.frame_id = "base_footprint"
    return msg


def _tf_message() -> TFMessage:
    out = TFMessage()
    for i, (parent, child) in enumerate([("odom", "base_footprint"),
                                         ("base_footprint", "base_link")]):
        t = TransformStamped()
        t.header.stamp = Time(sec=10 + i, nanosec=250 + i)
        t.header.frame_id = parent
        t.child_frame_id = child
        t.transform.translation.x, t.transform.translation.y = 1.5 + i, -2.25
        t.transform.translation.z = 0.125
        t.transform.rotation.z, t.transform.rotation.w = 0.6, 0.8
        out.transforms.append(t)
    return out


@pytest.mark.dds
def test_round_trip_between_processes(ros_process):
    peer = ros_process([str(TEST_DIR / "peers" / "echo_peer.py")], name="echo_peer")
    rclpy.init()
    node = rclpy.create_node("round_trip_test")
    try:
        got: dict[type, object] = {}
        sub_s = node.create_subscription(SteeringCmd, "echo_out/steering",
                                         lambda m: got.setdefault(SteeringCmd, m), 10)
        sub_t = node.create_subscription(TFMessage, "echo_out/tf",
                                         lambda m: got.setdefault(TFMessage, m), 10)
        pub_s = node.create_publisher(SteeringCmd, "echo_in/steering", 10)
        pub_t = node.create_publisher(TFMessage, "echo_in/tf", 10)
        # the peer publishes only what it receives: nothing to hear before this test sends
        matched(node, peer, publishers=[pub_s, pub_t], subscriptions=[sub_s, sub_t], data=False)
        sent_s, sent_t = _steering_cmd(), _tf_message()
        pub_s.publish(sent_s)
        pub_t.publish(sent_t)

        ok = wait_for(lambda: len(got) == 2, 30.0, spin=lambda: rclpy.spin_once(node, timeout_sec=0.05))
        assert ok, f"no echo from the peer process; its output:\n{peer.output()}"
        assert got[SteeringCmd] == sent_s   # rosidl messages compare every field
        assert got[TFMessage] == sent_t
        assert got[SteeringCmd].cmd_accel == math.inf
        assert got[TFMessage].transforms[1].child_frame_id == "base_link"
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
