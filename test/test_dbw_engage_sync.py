"""Engagement managed by the firmware: SystemSyncMode ALL_OR_NONE (dbw-interface.md §4.2).

``dbw.system_sync_mode`` = 2. The driver sends System Enable at the 50 ms tick
after ``enable`` (once the one-shot clears of latched overrides have gone out),
System Disable at once; commands keep their ``enable`` bit; ``dbw_enabled``
follows the system state ACTIVE, which the firmware leaves for all
subsystems together on an override or a fault.
"""

import pytest

from acres_dbw_sim.dbw.commands import DISABLE, ENABLE, BrakeCmd, SteeringCmd, ThrottleCmd
from acres_dbw_sim.dbw.msg_fields import SystemState
from acres_dbw_sim.dbw.params import DbwParameters, ParameterError
from acres_dbw_sim.dbw.state import DriverInput
from helpers.dbw import DT, FakeVehicle, make, run

SYNC = {"dbw.system_sync_mode": 2}


def all_every(dbw, period_steps=2, brake=True, throttle=True):
    def f(k, t):
        if k % period_steps == 0:
            dbw.submit(SteeringCmd(cmd=30.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True), t)
            if brake:
                dbw.submit(BrakeCmd(cmd=10.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True), t)
            if throttle:
                dbw.submit(ThrottleCmd(cmd=0.0, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True), t)
    return f


def _engaged(every_kw=None):
    dbw, veh = make(**SYNC), FakeVehicle()
    every = all_every(dbw, **(every_kw or {}))
    t = run(dbw, veh, 0.0, 0.02, every)
    dbw.submit(ENABLE, t)
    t = run(dbw, veh, t, 0.2, every)
    assert dbw.dbw_enabled
    return dbw, veh, every, t


def test_the_shipped_mode_is_driver_managed():
    dbw = make()
    assert not dbw.firmware_managed and dbw.reports(0.0).system_report.system_sync_mode == 0
    assert dbw.enable(0.0) and dbw.dbw_enabled  # §4.1: at once


def test_enable_goes_out_at_the_next_50_ms_tick_and_the_system_becomes_active():
    dbw, veh = make(**SYNC), FakeVehicle()
    every = all_every(dbw)
    t = run(dbw, veh, 0.0, 0.01, every)  # ticks at 0, 0.05, 0.10 ...
    assert dbw.enable(t) is True  # queued, not yet sent
    assert not dbw.dbw_enabled
    t = run(dbw, veh, t, 0.03, every)  # t = 0.04: no tick yet
    assert not dbw.dbw_enabled
    t = run(dbw, veh, t, 0.02, every)  # the 0.05 tick sends System Enable
    assert dbw.dbw_enabled
    t = run(dbw, veh, t, 0.05, every)
    rep = dbw.reports(t)
    assert rep.system_report.system_sync_mode == 2
    assert rep.system_report.state == SystemState.ACTIVE and rep.dbw_enabled
    assert rep.steering_report.enabled and rep.brake_report.enabled and rep.throttle_report.enabled


def test_commands_keep_their_enable_bit_so_they_act_as_soon_as_the_system_is_active():
    """§4.2: no masking. A steering command sent before the enable (still fresh, < 100 ms)
    actuates at the tick; in driver-managed mode the same command was masked to enable 0."""
    for sync, expect in ((SYNC, True), ({}, False)):
        dbw, veh = make(**sync), FakeVehicle()
        dbw.submit(SteeringCmd(cmd=30.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True), 0.0)
        dbw.step(0.0, veh)
        assert not dbw.reports(0.0).steering_report.enabled  # nothing engaged yet
        dbw.enable(0.01)
        t = run(dbw, veh, DT, 0.06)  # through the 0.05 tick, no new command (the first is 67 ms old)
        assert dbw.dbw_enabled
        assert dbw.reports(t).steering_report.enabled is expect


def test_commands_do_not_actuate_before_the_system_is_active():
    dbw, veh = make(**SYNC), FakeVehicle()
    rec = []
    t = run(dbw, veh, 0.0, 0.3, all_every(dbw), record=rec)
    rep = dbw.reports(t)
    assert not rep.steering_report.enabled and not rep.system_report.enabled
    assert rep.system_report.state == SystemState.READY
    assert max(b for _, _, b, _, _ in rec) == 0.0  # no brake pressure


def test_override_drops_all_subsystems_together_and_the_others_report_override_other():
    dbw, veh, every, t = _engaged()
    dbw.set_driver(DriverInput(brake_pedal_pct=60.0))
    t = run(dbw, veh, t, 0.05, every)
    rep = dbw.reports(t)
    assert not dbw.dbw_enabled and rep.system_report.state != SystemState.ACTIVE
    assert rep.brake_report.override_active and rep.brake_report.override_latched
    assert not rep.brake_report.override_other
    for r in (rep.steering_report, rep.throttle_report):
        assert not r.enabled and r.override_other and not r.override_latched
    assert rep.system_report.reason_disengage_str == "BrakeRptOverride"


def _latched_brake():
    """Engaged, then a brake override that the driver releases: brake latched, system not ACTIVE."""
    dbw, veh, every, t = _engaged()
    dbw.set_driver(DriverInput(brake_pedal_pct=60.0))
    t = run(dbw, veh, t, 0.05, every)
    dbw.set_driver(DriverInput())
    t = run(dbw, veh, t, 0.1, every)
    assert dbw.reports(t).brake_report.override_latched and not dbw.dbw_enabled
    return dbw, veh, every, t


def test_reenable_sends_a_one_shot_clear_and_the_enable_only_after_it_went_out():
    dbw, veh, every, t = _latched_brake()
    t = run(dbw, veh, t, 0.05 - (t % 0.05) + 0.001, all_every(dbw, brake=False))  # just past a tick
    dbw.submit(BrakeCmd(cmd=10.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True), t)  # fresh, no clear
    dbw.enable(t)
    assert dbw.sync.pending_clear == [False, True, False, False]
    # the next tick comes before the next brake command: the System Enable waits
    t = run(dbw, veh, t, 0.06, all_every(dbw, brake=False))
    assert not dbw.dbw_enabled and dbw.sync.enable_pending
    assert not dbw.reports(t).brake_report.timeout
    # one brake command carries the clear; the next tick engages everything
    dbw.submit(BrakeCmd(cmd=10.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True), t)
    assert not dbw.sync.pending_clear[1]
    t = run(dbw, veh, t, 0.07, every)
    rep = dbw.reports(t)
    assert dbw.dbw_enabled and not rep.brake_report.override_latched
    assert rep.brake_report.enabled and rep.steering_report.enabled and not rep.steering_report.override_other


def test_reenable_does_not_wait_for_a_timed_out_subsystem_whose_clear_goes_with_its_next_command():
    dbw, veh, every, t = _latched_brake()
    t = run(dbw, veh, t, 0.15, all_every(dbw, brake=False))  # the brake times out
    assert dbw.reports(t).brake_report.timeout
    dbw.enable(t)
    t = run(dbw, veh, t, 0.06, all_every(dbw, brake=False))
    rep = dbw.reports(t)
    assert dbw.dbw_enabled  # the latched brake is masked by its timeout (§4.1 predicates)
    assert rep.brake_report.override_latched and not rep.brake_report.enabled
    assert dbw.sync.pending_clear[1]
    t = run(dbw, veh, t, 0.05, every)  # brake commands return with the clear
    rep = dbw.reports(t)
    assert dbw.dbw_enabled and rep.brake_report.enabled and not rep.brake_report.override_latched


def test_reenable_while_the_driver_still_presses_is_refused_by_the_firmware():
    dbw, veh, every, t = _engaged()
    dbw.set_driver(DriverInput(brake_pedal_pct=60.0))
    t = run(dbw, veh, t, 0.05, every)
    dbw.enable(t)
    t = run(dbw, veh, t, 0.2, every)
    assert not dbw.dbw_enabled and dbw.sync.refused == 1 and not dbw.sync.enable_pending
    rep = dbw.reports(t)
    assert rep.brake_report.override_latched  # the clear could not release it
    assert rep.system_report.reason_not_ready_str == "OverrideActiveBrake"


def test_disable_leaves_active_at_once():
    dbw, veh, every, t = _engaged()
    dbw.submit(DISABLE, t)
    assert not dbw.dbw_enabled
    t = run(dbw, veh, t, 0.05, every)  # commands still carry enable 1 ...
    rep = dbw.reports(t)
    assert not rep.steering_report.enabled and not rep.brake_report.enabled  # ... the firmware refuses them
    assert rep.system_report.reason_disengage_str == "SystemDisableCmd"
    assert not any(r.override_other for r in (rep.steering_report, rep.brake_report, rep.throttle_report))


def test_a_pending_enable_is_forgotten_by_disable():
    dbw, veh = make(**SYNC), FakeVehicle()
    dbw.enable(0.01)
    dbw.disable(0.02)
    run(dbw, veh, 0.0, 0.2, all_every(dbw))
    assert not dbw.dbw_enabled


@pytest.mark.parametrize("subsystem", ["steering", "brake", "throttle", "gear"])
def test_fault_refuses_the_system_enable_and_clearing_it_allows_it(subsystem):
    dbw, veh = make(**SYNC), FakeVehicle()
    every = all_every(dbw)
    dbw.set_fault(subsystem, True)
    dbw.enable(0.0)
    t = run(dbw, veh, 0.0, 0.1, every)
    assert not dbw.dbw_enabled and dbw.sync.refused == 1
    assert dbw.reports(t).system_report.state == SystemState.FAULT
    dbw.set_fault(subsystem, False)
    dbw.enable(t)
    t = run(dbw, veh, t, 0.1, every)
    assert dbw.dbw_enabled


def test_fault_while_active_drops_all():
    dbw, veh, every, t = _engaged()
    dbw.set_fault("throttle", True)
    t = run(dbw, veh, t, 0.05, every)
    rep = dbw.reports(t)
    assert not dbw.dbw_enabled and not rep.steering_report.enabled
    assert rep.system_report.reason_disengage_str == "ThrtlRptFault"
    assert not rep.steering_report.override_other  # not an override


def test_a_command_gap_times_out_one_subsystem_and_the_system_stays_active():
    dbw, veh, every, t = _engaged()
    t = run(dbw, veh, t, 0.15, all_every(dbw, brake=False))  # 150 ms without brake commands
    rep = dbw.reports(t)
    assert rep.brake_report.timeout and not rep.brake_report.enabled
    assert dbw.dbw_enabled and rep.system_report.state == SystemState.ACTIVE
    assert rep.steering_report.enabled
    assert rep.system_report.enabled  # "any enabled" in the firmware-sync modes (§2.9)
    t = run(dbw, veh, t, 0.05, every)  # commands return: it engages again
    rep = dbw.reports(t)
    assert rep.brake_report.enabled and not rep.brake_report.timeout


def test_system_enabled_is_any_subsystem_in_firmware_mode_and_all_in_driver_mode():
    for sync, expect in ((SYNC, True), ({}, False)):
        dbw, veh = make(**sync), FakeVehicle()
        every = all_every(dbw, brake=False, throttle=False)  # only steering commanded
        dbw.enable(0.0)
        t = run(dbw, veh, 0.0, 0.2, every)
        rep = dbw.reports(t)
        assert rep.steering_report.enabled and dbw.dbw_enabled
        assert rep.system_report.enabled is expect


@pytest.mark.parametrize("mode", [1, 3, 4, 5, -1, 2.5])
def test_modes_that_are_not_emulated_are_rejected(mode):
    with pytest.raises(ParameterError) as exc:
        DbwParameters.from_json(overrides={"dbw.system_sync_mode": mode})
    assert exc.value.key == "dbw.system_sync_mode"
