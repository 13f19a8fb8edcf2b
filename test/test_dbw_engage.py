"""Engage / disengage logic of dbw-interface.md §4.1 and the status flags of §4.3."""

import math

import pytest

from acres_dbw_sim.dbw.commands import BrakeCmd, SteeringCmd, ThrottleCmd, ENABLE, DISABLE
from acres_dbw_sim.dbw.state import DriverInput
from helpers.dbw import DT, FakeVehicle, make, run


def steer_every(dbw, angle=30.0, period_steps=2, **kw):
    def f(k, t):
        if k % period_steps == 0:
            dbw.submit(SteeringCmd(cmd=angle, cmd_type=SteeringCmd.CMD_ANGLE, enable=True, **kw), t)
    return f


def all_every(dbw, period_steps=2, ignore=False):
    def f(k, t):
        if k % period_steps == 0:
            dbw.submit(SteeringCmd(cmd=30.0, cmd_type=2, enable=True, ignore=ignore), t)
            dbw.submit(BrakeCmd(cmd=10.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True, ignore=ignore), t)
            dbw.submit(ThrottleCmd(cmd=0.0, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True, ignore=ignore), t)
    return f


def test_enable_without_fault_sets_dbw_enabled_at_once():
    dbw = make()
    assert not dbw.dbw_enabled
    assert dbw.enable(0.0) is True
    assert dbw.dbw_enabled


def test_disable_event_drops_dbw_enabled():
    dbw, veh = make(), FakeVehicle()
    dbw.submit(ENABLE, 0.0)
    t = run(dbw, veh, 0.0, 0.2, all_every(dbw))
    dbw.submit(DISABLE, t)
    assert not dbw.dbw_enabled
    # commands now go out with the enable bit masked: the actuators drop out
    t = run(dbw, veh, t, 0.1, all_every(dbw))
    rep = dbw.reports(t)
    assert not rep.steering_report.enabled and not rep.brake_report.enabled
    assert rep.system_report.reason_disengage_str == "SystemDisableCmd"


@pytest.mark.parametrize("subsystem", ["steering", "brake", "throttle", "gear"])
def test_fault_refuses_enable_and_clearing_it_allows_enable(subsystem):
    dbw, veh = make(), FakeVehicle()
    dbw.set_fault(subsystem, True)
    # a subsystem in use (commanded within 100 ms): a never-commanded one reports timeout, which
    # masks its fault in the driver's predicate (§4.1; docs/dbw.md, unused subsystems)
    cmd = {"steering": SteeringCmd(cmd=0.0, cmd_type=2), "brake": BrakeCmd(cmd=0.0, cmd_type=1),
           "throttle": ThrottleCmd(cmd=0.0, cmd_type=14)}.get(subsystem)
    if cmd is not None:
        dbw.submit(cmd, 0.0)
    dbw.step(0.0, veh)
    assert dbw.enable(0.0) is False
    assert not dbw.dbw_enabled and not dbw.engage.request
    rep = dbw.reports(0.0)
    assert rep.system_report.fault and rep.system_report.state == 7  # SystemState.FAULT
    dbw.set_fault(subsystem, False)
    dbw.step(DT, veh)
    assert dbw.enable(DT) is True and dbw.dbw_enabled


def test_fault_while_engaged_disengages():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    t = run(dbw, veh, 0.0, 0.2, all_every(dbw))
    dbw.set_fault("brake", True)
    t = run(dbw, veh, t, 0.05, all_every(dbw))
    assert not dbw.dbw_enabled and not dbw.engage.request
    assert dbw.reports(t).system_report.reason_disengage_str == "BrakeRptFault"


def test_override_while_engaged_drops_dbw_enabled_and_reenable_clears_the_latch():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = all_every(dbw)
    t = run(dbw, veh, 0.0, 0.3, every)
    rep = dbw.reports(t)
    assert rep.steering_report.enabled and rep.system_report.enabled and dbw.dbw_enabled
    # the driver grabs the wheel
    dbw.set_driver(DriverInput(steering_torque_nm=6.0))
    t = run(dbw, veh, t, 0.05, every)
    rep = dbw.reports(t)
    assert rep.steering_report.override_active and rep.steering_report.override_latched
    assert not rep.steering_report.enabled
    assert not dbw.dbw_enabled and not dbw.engage.request
    assert rep.system_report.reason_disengage_str == "SteerRptOverride"
    # the driver lets go: the latch stays, dbw stays off (request dropped)
    dbw.set_driver(DriverInput())
    t = run(dbw, veh, t, 0.3, every)
    rep = dbw.reports(t)
    assert rep.steering_report.override_latched and not rep.steering_report.override_active
    assert not dbw.dbw_enabled
    assert rep.system_report.reason_not_ready_str == "OverrideLatchedSteer"
    # re-enable: request set, blocked by the latch until the 50 ms clear frame
    dbw.enable(t)
    assert dbw.engage.request and not dbw.dbw_enabled
    t = run(dbw, veh, t, 0.06, every)
    assert dbw.dbw_enabled
    t = run(dbw, veh, t, 0.05, every)
    rep = dbw.reports(t)
    assert not rep.steering_report.override_latched and rep.steering_report.enabled


@pytest.mark.parametrize("driver, flag", [
    (DriverInput(accel_pedal_pct=50.0), "throttle_report"),
    (DriverInput(brake_pedal_pct=60.0), "brake_report"),
    (DriverInput(steering_torque_nm=-5.0), "steering_report"),
])
def test_each_pedal_and_the_wheel_override(driver, flag):
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = all_every(dbw)
    t = run(dbw, veh, 0.0, 0.2, every)
    dbw.set_driver(driver)
    t = run(dbw, veh, t, 0.05, every)
    rep = getattr(dbw.reports(t), flag)
    assert rep.override_active and rep.override_latched and not rep.enabled
    assert not dbw.dbw_enabled


def test_ignore_bit_suppresses_override():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = all_every(dbw, ignore=True)
    t = run(dbw, veh, 0.0, 0.2, every)
    dbw.set_driver(DriverInput(steering_torque_nm=6.0, brake_pedal_pct=60.0, accel_pedal_pct=60.0))
    t = run(dbw, veh, t, 0.2, every)
    rep = dbw.reports(t)
    assert dbw.dbw_enabled
    assert rep.steering_report.enabled and not rep.steering_report.override_active
    assert not rep.steering_report.override_latched


def test_below_threshold_driver_input_is_no_override():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = all_every(dbw)
    t = run(dbw, veh, 0.0, 0.2, every)
    dbw.set_driver(DriverInput(steering_torque_nm=1.0, brake_pedal_pct=5.0, accel_pedal_pct=5.0))
    t = run(dbw, veh, t, 0.2, every)
    assert dbw.dbw_enabled and dbw.reports(t).system_report.enabled


def test_enable_during_active_override_waits_until_release():
    dbw, veh = make(), FakeVehicle()
    every = all_every(dbw)
    dbw.set_driver(DriverInput(brake_pedal_pct=60.0))
    t = run(dbw, veh, 0.0, 0.1, every)
    assert dbw.enable(t) is True  # an override does not refuse enable
    t = run(dbw, veh, t, 0.1, every)
    assert dbw.engage.request and not dbw.dbw_enabled
    dbw.set_driver(DriverInput())
    t = run(dbw, veh, t, 0.1, every)
    assert dbw.dbw_enabled


def test_command_gap_times_out_the_actuator_without_dropping_dbw_enabled():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    brake = lambda k, t: dbw.submit(BrakeCmd(cmd=30.0, cmd_type=1, enable=True), t) if k % 2 == 0 else None
    t = run(dbw, veh, 0.0, 1.0, brake)
    assert dbw.reports(t).brake_report.enabled
    assert dbw.outputs.brake_line_bar == pytest.approx(30.0, abs=0.5)
    # 150 ms without commands
    t = run(dbw, veh, t, 0.15)
    rep = dbw.reports(t)
    assert rep.brake_report.timeout and not rep.brake_report.enabled
    assert dbw.dbw_enabled
    assert rep.brake_report.cmd_type == 0 and math.isnan(rep.brake_report.pressure_cmd)
    t = run(dbw, veh, t, 0.5)
    assert dbw.outputs.brake_line_bar < 1.0  # released through the actuator's dynamics
    # commands return: actuation resumes
    t = run(dbw, veh, t, 1.0, brake)
    rep = dbw.reports(t)
    assert rep.brake_report.enabled and not rep.brake_report.timeout
    assert dbw.outputs.brake_line_bar == pytest.approx(30.0, abs=0.5)


def test_100ms_gap_is_not_a_timeout_but_more_is():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    dbw.submit(ThrottleCmd(cmd=10.0, cmd_type=14, enable=True), 0.0)
    dbw.step(0.0, veh)
    dbw.step(0.1, veh)
    assert dbw.throttle.status.enabled and not dbw.throttle.status.timeout
    dbw.step(0.1 + DT, veh)
    assert dbw.throttle.status.timeout and not dbw.throttle.status.enabled


def test_timeout_masks_override_in_the_driver_logic():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    t = run(dbw, veh, 0.0, 0.2, all_every(dbw))
    t = run(dbw, veh, t, 0.2)  # all three time out
    dbw.set_driver(DriverInput(steering_torque_nm=6.0))
    t = run(dbw, veh, t, 0.1)
    assert dbw.reports(t).steering_report.override_active
    assert dbw.dbw_enabled  # masked by timeout (§4.1)


def test_enable_false_commands_keep_the_subsystem_off_without_dropping_dbw():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    def every(k, t):
        dbw.submit(SteeringCmd(cmd=30.0, cmd_type=2, enable=False), t)
        dbw.submit(BrakeCmd(cmd=10.0, cmd_type=1, enable=False), t)
        dbw.submit(ThrottleCmd(cmd=0.0, cmd_type=14, enable=False), t)
    t = run(dbw, veh, 0.0, 0.3, every)
    rep = dbw.reports(t)
    assert not rep.steering_report.enabled and not rep.steering_report.timeout
    assert dbw.dbw_enabled
    assert rep.system_report.reason_not_ready_str == "NotEnableCmdSteer"


def test_commands_before_enable_do_not_actuate():
    dbw, veh = make(), FakeVehicle()
    t = run(dbw, veh, 0.0, 0.5, all_every(dbw))
    assert not dbw.reports(t).steering_report.enabled
    assert dbw.outputs.brake_line_bar == 0.0
    assert dbw.outputs.steering_wheel_deg == pytest.approx(dbw.p.steering_center_deg)


def test_user_clear_bit_releases_latch_only_after_the_driver_lets_go():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    t = run(dbw, veh, 0.0, 0.2, all_every(dbw))
    dbw.set_driver(DriverInput(accel_pedal_pct=80.0))
    t = run(dbw, veh, t, 0.05, all_every(dbw))
    clear = lambda k, t: dbw.submit(ThrottleCmd(cmd=0.0, cmd_type=14, enable=True, clear=True), t)
    t = run(dbw, veh, t, 0.05, clear)
    assert dbw.throttle.status.override_latched  # still pressing
    dbw.set_driver(DriverInput())
    t = run(dbw, veh, t, 0.05, clear)
    assert not dbw.throttle.status.override_latched


def test_system_state_codes():
    dbw, veh = make(), FakeVehicle()
    dbw.step(0.0, veh)
    rep = dbw.reports(0.0).system_report
    assert rep.state == 1 and rep.ready and not rep.enabled  # READY, not engaged
    dbw.enable(0.0)
    t = run(dbw, veh, 0.0, 0.2, all_every(dbw))
    rep = dbw.reports(t).system_report
    assert rep.state == 2 and rep.enabled and rep.reason_not_ready == 0  # ACTIVE


def test_a_disable_then_silence_logs_no_command_timeout_warning():
    """A stack that disables and stops sending (the correct way to leave) gets no 'command timeout'
    warnings (Dataspeed's driver warns only of a subsystem still enabled when it times out); a stack that
    falls silent while enabled still does."""
    for disable_first, warned in ((True, False), (False, True)):
        dbw, veh = make(), FakeVehicle()
        dbw.submit(ENABLE, 0.0)
        run(dbw, veh, 0.0, 1.0, lambda k, t: dbw.submit(SteeringCmd(cmd=10.0, cmd_type=2, enable=True), t)
            if k % 2 == 0 else None)
        dbw.drain_log()
        if disable_first:
            dbw.submit(DISABLE, 1.0)
        run(dbw, veh, 1.0, 1.0, lambda k, t: None)
        log = [text for _level, text in dbw.drain_log()]
        assert any("command timeout" in t for t in log) is warned, log
