"""Interface selection and precedence (msg_adapters.arbiter, msg_adapters.diagnostics), no DDS."""

from __future__ import annotations

import pytest
from diagnostic_msgs.msg import DiagnosticStatus

from msg_adapters.arbiter import HOLD_S, INTERFACES, CommandArbiter, parse_interfaces
from msg_adapters.diagnostics import STATUS_NAME, interface_diagnostics

ALL = ["cmd_vel", "ds_dbw", "ackermann", "autoware", "polaris_legacy"]


@pytest.mark.parametrize("given, served", [
    (["ds_dbw"], ("ds_dbw",)),
    (["cmd_vel", "ds_dbw"], ("ds_dbw", "cmd_vel")),
    (["cmd_vel", "ackermann"], ("ackermann", "cmd_vel")),
    (ALL, INTERFACES),
    (["polaris_legacy"], ("polaris_legacy",)),
])
def test_parse_sorts_by_precedence(given, served):
    assert parse_interfaces(given) == served


@pytest.mark.parametrize("given, words", [
    ([], ["empty"]),
    (["ds_dbw", "twist"], ["unknown", "'twist'", "ds_dbw", "polaris_legacy", "cmd_vel"]),
    (["DS_DBW"], ["unknown", "'DS_DBW'"]),
    (["cmd_vel", "cmd_vel"], ["more than once", "cmd_vel"]),
    ([3], ["unknown", "3"]),
])
def test_parse_refuses_with_a_message_naming_the_problem(given, words):
    with pytest.raises(ValueError) as err:
        parse_interfaces(given)
    for w in words:
        assert w in str(err.value)


def test_single_interface_is_always_allowed():
    a = CommandArbiter(["ds_dbw"])
    assert all(a.claim("ds_dbw", t * 0.01) for t in range(100))
    assert not a.take_events() and a.dropped == {"ds_dbw": 0} and not a.in_conflict
    with pytest.raises(ValueError, match="not served"):
        a.claim("cmd_vel", 1.0)


@pytest.mark.parametrize("first, second", [
    ("ds_dbw", "cmd_vel"), ("ds_dbw", "polaris_legacy"), ("polaris_legacy", "cmd_vel")])
@pytest.mark.parametrize("higher_starts", [True, False])
def test_the_higher_precedence_wins_whoever_starts(first, second, higher_starts):
    """``first`` has precedence over ``second``; both command at 50 Hz for 1 s."""
    a = CommandArbiter(ALL)
    starter, other = (first, second) if higher_starts else (second, first)
    assert a.claim(starter, 0.0)
    used = {first: 0, second: 0}
    for k in range(1, 51):
        t = 0.02 * k
        for name in (other, starter):
            used[name] += a.claim(name, t)
    assert used == {first: 50, second: 0}
    assert a.dropped[second] == 50 and a.dropped[first] == 0
    assert a.in_conflict and a.owner(1.0) == first
    (event,) = a.take_events()
    assert event.started and event.owner == first and event.dropped == (second,)


def test_the_lower_one_takes_over_once_the_higher_one_is_quiet_for_the_hold_time():
    a = CommandArbiter(ALL)
    assert a.claim("ds_dbw", 0.0)
    assert not a.claim("cmd_vel", 0.1)
    assert not a.may_command("cmd_vel", HOLD_S)          # ds_dbw still active at 0 + hold
    assert a.may_command("cmd_vel", HOLD_S + 0.01)
    assert a.claim("cmd_vel", HOLD_S + 0.01)
    a.update(HOLD_S + 0.2)
    events = a.take_events()
    assert [e.started for e in events] == [True, False]
    assert events[1].owner == "cmd_vel"
    assert a.conflicts == 1 and not a.in_conflict
    assert "conflict over; cmd_vel commands" in a.describe_event(events[1])


def test_three_at_once_and_messages():
    a = CommandArbiter(ALL)
    for name in ("cmd_vel", "polaris_legacy", "ds_dbw"):
        a.claim(name, 1.0)
    assert a.active(1.0) == ("ds_dbw", "polaris_legacy", "cmd_vel") and a.owner(1.0) == "ds_dbw"
    (event,) = a.take_events()                         # the conflict began with two
    assert (event.owner, event.dropped) == ("polaris_legacy", ("cmd_vel",))
    line = a.describe(1.0)
    assert "ds_dbw has precedence (ds_dbw > polaris_legacy > autoware > ackermann > cmd_vel)" in line
    assert "commands of polaris_legacy, cmd_vel are dropped" in line
    a.claim("ackermann", 1.1)
    a.claim("autoware", 1.1)
    assert a.active(1.1) == INTERFACES and "commands of polaris_legacy, autoware, ackermann, cmd_vel are dropped" \
        in a.describe(1.1)
    assert "two command interfaces at once" in a.describe_event(event)
    assert a.describe(5.0) == "no interface commanding"


def test_diagnostics_show_the_conflict_and_its_end():
    a = CommandArbiter(["ds_dbw", "cmd_vel"])
    a.claim("cmd_vel", 0.0)
    d = interface_diagnostics(a, 0.0, None)
    (st,) = d.status
    assert st.name == STATUS_NAME and st.level == DiagnosticStatus.OK
    assert st.message == "commanded through cmd_vel"
    a.claim("ds_dbw", 0.1)
    a.claim("cmd_vel", 0.12)
    st = interface_diagnostics(a, 0.12, None).status[0]
    values = {kv.key: kv.value for kv in st.values}
    assert st.level == DiagnosticStatus.ERROR
    assert values == {"interfaces": "ds_dbw > cmd_vel", "active": "ds_dbw, cmd_vel",
                      "owner": "ds_dbw", "conflicts": "1", "dropped_ds_dbw": "0",
                      "dropped_cmd_vel": "1"}
    st = interface_diagnostics(a, 0.12 + HOLD_S + 0.01, None).status[0]
    assert st.level == DiagnosticStatus.OK and st.message == "no interface commanding"


def test_hold_time_must_be_positive():
    with pytest.raises(ValueError, match="hold_s"):
        CommandArbiter(["ds_dbw"], hold_s=0.0)
