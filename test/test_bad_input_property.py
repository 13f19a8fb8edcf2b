"""Bad input on every interface, from each adapter's decoder through the DBW and the model (no DDS).

Hypothesis (derandomised) builds sequences of ROS command messages of every type of every interface
(ds_dbw, polaris_legacy, cmd_vel) with finite, non-finite, huge and out-of-range values, hands each
to the adapter the node uses (``CommandConverter``, ``polaris_legacy.*_cmd``, ``CmdVelAdapter``) and
steps the simulation between them. After each sequence: nothing raised, every report field is finite
where the real driver's is, every stored state of the DBW lies within its physical range, and an
ordinary command then takes effect as on a fresh vehicle. The table of what happens to each kind of
bad value is in docs/dbw.md ("What the node does with bad input").
"""
from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dbw_polaris_msgs.msg as legacy_msgs
import ds_dbw_msgs.msg as dbw_msgs
from acres_dbw_sim.dbw import commands as core
from acres_dbw_sim.interface import COMMAND_TOPICS
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation
from helpers.strategies import MAY_BE_NONFINITE
from msg_adapters import polaris_legacy
from msg_adapters.cmd_vel import CmdVelAdapter
from msg_adapters.ds_dbw import CommandConverter
from helpers.ros_messages import FLOATS, fill_message

DS_TYPES = [getattr(dbw_msgs, type_name) for _topic, type_name, _depth in COMMAND_TOPICS]
DS_CONVERT = {t: CommandConverter(t) for t in DS_TYPES}
LEGACY = {legacy_msgs.ThrottleCmd: polaris_legacy.throttle_cmd, legacy_msgs.BrakeCmd: polaris_legacy.brake_cmd,
          legacy_msgs.SteeringCmd: polaris_legacy.steering_cmd, legacy_msgs.GearCmd: polaris_legacy.gear_cmd}


@st.composite
def ds_dbw_event(draw):
    return ("ds_dbw", fill_message(draw(st.sampled_from(DS_TYPES)), draw), draw(st.integers(1, 12)))


@st.composite
def legacy_event(draw):
    return ("polaris_legacy", fill_message(draw(st.sampled_from(sorted(LEGACY, key=lambda t: t.__name__))), draw),
            draw(st.integers(1, 12)))


@st.composite
def cmd_vel_event(draw):
    return ("cmd_vel", (draw(FLOATS), draw(FLOATS)), draw(st.integers(1, 12)))


EVENTS = {"ds_dbw": ds_dbw_event(), "polaris_legacy": legacy_event(), "cmd_vel": cmd_vel_event()}
COMMON = st.one_of(st.just(("enable", None, 1)), st.just(("disable", None, 1)),
                   st.just(("calibrate", None, 1)))


def _deliver(sim: Simulation, twist: CmdVelAdapter, kind: str, msg) -> None:
    """One received message, as the node hands it to the simulation."""
    if kind == "ds_dbw":
        sim.submit(DS_CONVERT[type(msg)](msg))
    elif kind == "polaris_legacy":
        sim.submit(LEGACY[type(msg)](msg))
    elif kind == "cmd_vel":
        twist.on_twist(msg[0], msg[1], sim.time_s)
    elif kind == "enable":
        sim.submit(core.ENABLE)
    elif kind == "disable":
        sim.submit(core.DISABLE)
    elif kind == "calibrate":
        sim.submit(core.STEERING_CALIBRATE)


def _step(sim: Simulation, twist: CmdVelAdapter, n: int) -> None:
    for _ in range(n):
        for command in twist.commands(sim.time_s, sim.reports()):
            sim.submit(command)
        sim.step()


def check_ranges(sim: Simulation) -> None:
    """Every stored DBW state within its physical range (AssertionError naming the first that is not)."""
    d = sim.dbw
    p = d.p
    s, b, th, u = d.steering, d.brake, d.throttle, d.ulc
    lock = p.steering_lock_deg
    for name in ("offset_deg", "angle_deg", "ref_deg", "target_raw"):
        v = getattr(s, name)
        assert math.isfinite(v) and abs(v) <= lock + 1e-9, f"steering.{name} = {v}"
    assert 0.0 < s.rate_limit <= p.steering_max_rate_deg_s, s.rate_limit
    assert s.accel_limit > 0.0 and not math.isnan(s.accel_limit), s.accel_limit   # inf: no limit (§2.2)
    assert math.isfinite(s.torque_cmd_nm) and abs(s.torque_cmd_nm) <= p.steering_max_torque_nm
    for name in ("target_bar", "setpoint_bar", "actuator_bar", "line_bar", "ulc_bar"):
        v = getattr(b, name)
        assert math.isfinite(v) and -1e-9 <= v <= p.brake_max_bar + 1e-9, f"brake.{name} = {v}"
    for obj, prefix in ((b, "brake"), (th, "throttle")):
        for name in ("rate_inc", "rate_dec"):
            v = getattr(obj, name)
            assert v > 0.0 and not math.isnan(v), f"{prefix}.{name} = {v}"   # inf: unlimited (the default)
    for name in ("target_pct", "setpoint_pct", "actuator_pct", "output_pct"):
        v = getattr(th, name)
        assert math.isfinite(v) and -1e-9 <= v <= 100.0 + 1e-9, f"throttle.{name} = {v}"
    for name in ("cmd", "v_ref", "a_ref", "integ", "limit_accel", "limit_decel", "jerk_throttle", "jerk_brake"):
        v = getattr(u, name)
        assert math.isfinite(v), f"ulc.{name} = {v}"
    for name in ("limit_accel", "limit_decel", "jerk_throttle", "jerk_brake"):
        assert getattr(u, name) > 0.0, f"ulc.{name} = {getattr(u, name)}"
    assert math.isfinite(u.throttle_pct) and 0.0 <= u.throttle_pct <= 100.0 + 1e-9, u.throttle_pct
    assert math.isfinite(u.brake_bar) and 0.0 <= u.brake_bar <= p.brake_max_bar + 1e-9, u.brake_bar
    v = sim.state
    assert v.gear in (1, 2, 3, 4, 5), v.gear
    assert all(math.isfinite(x) for x in (*v.position_m, *v.velocity_body_mps, v.engine_rpm))


def check_reports(sim: Simulation) -> None:
    """Every report field finite, except those the real system leaves NaN or inf."""
    rep = sim.reports()
    for name, allowed in [(f.name, MAY_BE_NONFINITE.get(f.name, set())) for f in dataclasses.fields(rep)]:
        msg = getattr(rep, name)
        if not dataclasses.is_dataclass(msg):
            continue
        for f in dataclasses.fields(msg):
            x = getattr(msg, f.name)
            if isinstance(x, float) and not math.isfinite(x):
                assert f.name in allowed, f"{name}.{f.name} = {x}"


def angle_after_ordinary_command(sim: Simulation) -> float:
    """Re-engage, brake to a stop (60 bar, 6 s), then CMD_ANGLE (reported frame) aimed at raw 90 deg for
    2 s more: the raw angle [deg]. What a stack does after a disengage."""
    twist = CmdVelAdapter()
    sim.submit(core.DISABLE)
    _step(sim, twist, 2)
    sim.submit(core.ENABLE)
    _step(sim, twist, 2)
    for k in range(960):
        if k % 2 == 0:
            sim.submit(core.BrakeCmd(cmd=60.0, cmd_type=core.BrakeCmd.CMD_PRESSURE, enable=True, clear=True))
            sim.submit(core.ThrottleCmd(cmd=0.0, cmd_type=core.ThrottleCmd.CMD_PERCENT, enable=True, clear=True))
            if k >= 720:
                sim.submit(core.SteeringCmd(cmd=90.0 + sim.dbw.steering.offset_deg,
                                            cmd_type=core.SteeringCmd.CMD_ANGLE, enable=True, clear=True))
        sim.step()
    assert abs(sim.state.speed_mps) < 0.1, sim.state.speed_mps
    return sim.dbw.steering.angle_deg


FRESH_ANGLE = angle_after_ordinary_command(Simulation(gear=Gear.PARK))


@pytest.mark.parametrize("interface", sorted(EVENTS))
@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_command_breaks_the_node_or_leaves_a_state_out_of_range(interface, data):
    events = data.draw(st.lists(st.one_of(EVENTS[interface], COMMON), min_size=1, max_size=30))
    sim = Simulation(gear=Gear.PARK)
    twist = CmdVelAdapter(shift_park=True)
    sim.submit(core.ENABLE)
    for kind, msg, steps in events:
        _deliver(sim, twist, kind, msg)
        _step(sim, twist, steps)
        check_ranges(sim)
    check_reports(sim)
    assert angle_after_ordinary_command(sim) == pytest.approx(FRESH_ANGLE, abs=0.5)
