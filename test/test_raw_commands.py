"""The node's command subscriptions take serialized bytes (msg_adapters.ds_dbw.RawCommandConverter): a message is
deserialized only when its bytes differ from the last one's but for the header's stamp, and converts to what
a subscription of message objects received converts to."""
from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rclpy.serialization import deserialize_message, serialize_message

import ds_dbw_msgs.msg as dbw_msgs
from builtin_interfaces.msg import Time
from acres_dbw_sim.interface import COMMAND_TOPICS
from helpers.ros_messages import fill_message
from msg_adapters.ds_dbw import CommandConverter, RawCommandConverter


def _same(a, b) -> bool:
    """Equal field by field, NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if not (x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))):
            return False
    return True


DS_TYPES = [getattr(dbw_msgs, type_name) for _topic, type_name, _depth in COMMAND_TOPICS]


class _Counting(RawCommandConverter):
    """Counts its deserializations."""

    def __init__(self, msg_type):
        super().__init__(msg_type)
        self.deserialized = 0
        real = self._deserialize

        def counted(data, t):
            self.deserialized += 1
            return real(data, t)
        self._deserialize = counted


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_bytes_convert_to_what_the_message_converts_to(data):
    msg_type = data.draw(st.sampled_from(DS_TYPES))
    raw, plain = _Counting(msg_type), CommandConverter(msg_type)
    msgs = [fill_message(msg_type, data.draw) for _ in range(3)]
    for msg in msgs + msgs[::-1]:
        data = serialize_message(msg)
        # what a subscription of message objects received (float32 fields rounded by the transport)
        received = deserialize_message(data, msg_type)
        assert _same(raw(data), plain(received))


@pytest.mark.parametrize("msg_type", DS_TYPES, ids=lambda t: t.__name__)
def test_an_unchanged_re_send_with_a_new_stamp_is_not_deserialized_again(msg_type):
    raw = _Counting(msg_type)
    msg = msg_type()
    first = raw(serialize_message(msg))
    for k in range(1, 5):
        msg.header.stamp = Time(sec=k, nanosec=1000 * k)
        assert raw(serialize_message(msg)) is first
    assert raw.deserialized == 1
    msg.header.frame_id = "base_link"              # anything else of the message is read again
    assert raw(serialize_message(msg)) is not first and raw.deserialized == 2


def test_a_changed_field_gives_the_new_command():
    raw = _Counting(dbw_msgs.SteeringCmd)
    msg = dbw_msgs.SteeringCmd(cmd=10.0, cmd_type=dbw_msgs.SteeringCmd.CMD_ANGLE, enable=True)
    a = raw(serialize_message(msg))
    msg.cmd = 10.5
    b = raw(serialize_message(msg))
    msg.enable = False
    c = raw(serialize_message(msg))
    assert (a.cmd, b.cmd, c.cmd, a.enable, c.enable) == (10.0, 10.5, 10.5, True, False)
    assert raw.deserialized == 3


def test_a_message_without_a_header_first_is_refused():
    from std_msgs.msg import Float32
    with pytest.raises(TypeError, match="std_msgs/Header"):
        RawCommandConverter(Float32)
