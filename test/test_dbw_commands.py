"""Every command type: unit, range, rounding and clamping (dbw-interface.md §2.2-2.8, §4.5-4.10).

Expected values come from the reference: steering ratio 11.9764, centre
12.5314 deg, wheelbase 2.8702 m, lock 487 deg; brake 80 bar full scale,
axle gains 22 and 12 Nm/bar per wheel (68 Nm/bar in total); mass 1233 kg
(one occupant), tyre radius 0.3429 m.
"""

import math

import pytest

from acres_dbw_sim.dbw.commands import (BrakeCmd, DriveModeCmd, GearCmd, MiscCmd, SteeringCmd, ThrottleCmd,
                                        TurnSignalCmd, UlcCmd, ENABLE, STEERING_CALIBRATE)
from helpers.dbw import DT, FakeVehicle, make, run

CENTER, RATIO, L, LOCK = 12.5314, 11.9764, 2.8702, 487.0


def _hold(dbw, veh, cmd, duration=3.0, speed=None):
    if speed is not None:
        veh.set_speed(speed)
    dbw.submit(ENABLE, 0.0)
    return run(dbw, veh, 0.0, duration, lambda k, t: dbw.submit(cmd, t) if k % 2 == 0 else None)


# ------------------------------------------------------------------ steering
@pytest.mark.parametrize("cmd, raw", [
    (90.0, 90.0), (-200.0, -200.0), (1000.0, LOCK), (-1e30, -LOCK), (math.inf, LOCK),
])
def test_steering_angle_is_deg_in_the_reported_frame_and_clamped_to_the_lock(cmd, raw):
    dbw, veh = make(), FakeVehicle()
    t = _hold(dbw, veh, SteeringCmd(cmd=cmd, cmd_rate=-1, cmd_accel=-1, cmd_type=2, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(raw, abs=0.05)
    rep = dbw.reports(t).steering_report
    assert rep.limiting_value == (abs(cmd) > LOCK)
    assert rep.cmd_type == 2


def test_steering_angle_is_rounded_to_0_1_deg():
    dbw, veh = make(), FakeVehicle()
    _hold(dbw, veh, SteeringCmd(cmd=10.04, cmd_rate=-1, cmd_accel=-1, cmd_type=2, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(10.0, abs=1e-6)


@pytest.mark.parametrize("pc, raw", [(50.0, 243.5), (-100.0, -487.0), (150.0, 487.0)])
def test_steering_percent_of_the_lock(pc, raw):
    dbw, veh = make(), FakeVehicle()
    _hold(dbw, veh, SteeringCmd(cmd=pc, cmd_rate=-1, cmd_accel=-1, cmd_type=14, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(raw, abs=0.05)


@pytest.mark.parametrize("kappa", [0.05, -0.1, 0.0])
def test_steering_curvature_through_bicycle_kinematics(kappa):
    dbw, veh = make(), FakeVehicle(speed=5.0)
    _hold(dbw, veh, SteeringCmd(cmd=kappa, cmd_type=3, enable=True))
    expect = CENTER + RATIO * math.degrees(math.atan(L * kappa))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(expect, abs=0.05)


def test_steering_curvature_is_clamped_to_the_encodable_0_1999():
    dbw, veh = make(), FakeVehicle(speed=5.0)
    _hold(dbw, veh, SteeringCmd(cmd=0.3, cmd_type=3, enable=True))
    expect = CENTER + RATIO * math.degrees(math.atan(L * 0.1999))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(expect, abs=0.05)


def test_steering_yaw_rate_beyond_the_lock_is_clipped():
    dbw, veh = make(), FakeVehicle(speed=1.0)
    t = _hold(dbw, veh, SteeringCmd(cmd=2.0, cmd_type=4, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(LOCK, abs=0.05)
    assert dbw.reports(t).steering_report.limiting_value


@pytest.mark.parametrize("r, v", [(0.3, 4.0), (-0.2, 5.0), (0.2, -3.0)])
def test_steering_yaw_rate_at_the_current_speed(r, v):
    dbw, veh = make(), FakeVehicle(speed=v, gear=2 if v < 0.0 else 4)  # reversing in R
    _hold(dbw, veh, SteeringCmd(cmd=r, cmd_type=4, enable=True))
    expect = CENTER + RATIO * math.degrees(math.atan(L * r / v))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(expect, abs=0.1)


def test_steering_torque_moves_the_free_column():
    dbw, veh = make(), FakeVehicle()
    _hold(dbw, veh, SteeringCmd(cmd=1.0, cmd_type=1, enable=True), duration=0.5)
    # column model at stand-still (no aligning moment): (1 + assist 2) x 1 Nm / 0.01 Nm s/deg
    # = 300 deg/s for 0.5 s (steering_column.py)
    assert dbw.outputs.steering_wheel_deg - CENTER == pytest.approx(150.0, abs=5.0)


def test_steering_calibrate_and_set_offset():
    dbw, veh = make(), FakeVehicle()
    dbw.step(0.0, veh)
    assert dbw.reports(0.0).steering_report.steering_wheel_angle == pytest.approx(12.5, abs=0.05)
    dbw.submit(STEERING_CALIBRATE, 0.0)
    assert dbw.reports(0.0).steering_report.steering_wheel_angle == pytest.approx(0.0, abs=0.05)
    dbw.submit(SteeringCmd(cmd=5.0, cmd_type=15), 0.0)  # present position is 5 deg
    assert dbw.reports(0.0).steering_report.steering_wheel_angle == pytest.approx(5.0, abs=0.05)
    dbw.submit(SteeringCmd(cmd=-2.0, cmd_type=13), 0.0)  # offset written directly
    assert dbw.steering.offset_deg == pytest.approx(-2.0)
    # an angle command is in the reported frame: 0 deg now means raw 2 deg
    _hold(dbw, veh, SteeringCmd(cmd=0.0, cmd_rate=-1, cmd_accel=-1, cmd_type=2, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize("typ", [13, 15])
@pytest.mark.parametrize("value", [math.inf, -math.inf, 1e30, 3000.0, -600.0])
def test_an_offset_beyond_the_lock_is_refused_with_a_reason_and_changes_nothing(typ, value):
    """CMD_SET_OFFSET / CMD_CALIBRATE whose offset would exceed the lock (487 deg) are refused and
    logged; the next CMD_ANGLE 90 then steers to 90 deg as on a fresh vehicle (it once drove the
    wheel to the opposite lock and reported 819 deg until a reset)."""
    fresh, veh0 = make(), FakeVehicle()
    _hold(fresh, veh0, SteeringCmd(cmd=90.0, cmd_type=2, enable=True))
    dbw, veh = make(), FakeVehicle()
    dbw.step(0.0, veh)
    before = dbw.steering.offset_deg
    dbw.drain_log()
    dbw.submit(SteeringCmd(cmd=value, cmd_type=typ), 0.0)
    assert dbw.steering.offset_deg == before
    log = dbw.drain_log()
    assert any("refused" in text and "lock" in text for _level, text in log), log
    _hold(dbw, veh, SteeringCmd(cmd=90.0, cmd_type=2, enable=True))
    assert dbw.outputs.steering_wheel_deg == pytest.approx(fresh.outputs.steering_wheel_deg, abs=1e-9)
    rep = dbw.reports(1.0).steering_report
    assert abs(rep.steering_wheel_angle) <= dbw.p.steering_lock_deg + abs(dbw.steering.offset_deg)


# ------------------------------------------------------------------ brake
@pytest.mark.parametrize("typ, cmd, bar", [
    (1, 40.0, 40.0), (1, 100.0, 80.0), (1, -10.0, 0.0), (1, math.inf, 80.0),
    (2, 680.0, 10.0), (2, 1e9, 80.0),
    (14, 50.0, 40.0), (13, 25.0, 20.0), (14, 300.0, 80.0),
    (8, -2.0, 1233.0 * 2.0 * 0.3429 / 68.0), (9, -1.0, 1233.0 * 0.3429 / 68.0),
    (10, -50.0, 1233.0 * 10.0 * 0.3429 / 68.0), (8, 2.0, 0.0), (8, 0.5, 0.0),
])
def test_brake_types_units_and_clamps(typ, cmd, bar):
    dbw, veh = make(), FakeVehicle()
    _hold(dbw, veh, BrakeCmd(cmd=cmd, cmd_type=typ, enable=True))
    assert dbw.outputs.brake_line_bar == pytest.approx(min(bar, 80.0), abs=0.05)


@pytest.mark.parametrize("typ, filled", [
    (1, ("pressure_input", "pressure_cmd", "pressure_output")),
    (2, ("torque_input", "torque_cmd", "torque_output")),
    (8, ("torque_input", "accel_cmd", "accel_output")),
    (14, ("percent_input", "percent_cmd", "percent_output")),
])
def test_brake_report_fills_only_the_group_of_the_type(typ, filled):
    dbw, veh = make(), FakeVehicle()
    t = _hold(dbw, veh, BrakeCmd(cmd=-1.0 if typ == 8 else 10.0, cmd_type=typ, enable=True))
    rep = dbw.reports(t).brake_report
    for name in ("pressure_input", "pressure_cmd", "pressure_output", "torque_input", "torque_cmd",
                 "torque_output", "accel_cmd", "accel_output", "percent_input", "percent_cmd", "percent_output"):
        assert math.isnan(getattr(rep, name)) == (name not in filled), name


def test_brake_report_pressure_in_0_05_bar_steps():
    dbw, veh = make(), FakeVehicle()
    t = _hold(dbw, veh, BrakeCmd(cmd=33.33, cmd_type=1, enable=True))
    rep = dbw.reports(t).brake_report
    assert rep.pressure_output == pytest.approx(33.35, abs=1e-9)  # 33.33 bar -> nearest 0.05


# ------------------------------------------------------------------ throttle
@pytest.mark.parametrize("typ, cmd, pedal", [
    (14, 40.0, 0.40), (13, 40.0, 0.40), (14, 150.0, 1.0), (14, -5.0, 0.0), (14, 33.3, 0.33),
])
def test_throttle_percent_to_pedal(typ, cmd, pedal):
    dbw, veh = make(), FakeVehicle()
    _hold(dbw, veh, ThrottleCmd(cmd=cmd, cmd_type=typ, enable=True))
    # 0.025 % steps: 33.3 % -> 33.3 (a multiple), so pedal 0.333
    assert dbw.outputs.pedal == pytest.approx(pedal if cmd != 33.3 else 0.333, abs=1e-6)


# ------------------------------------------------------------------ invalid input
@pytest.mark.parametrize("cmd", [
    BrakeCmd(cmd=math.nan, cmd_type=1, enable=True),
    BrakeCmd(cmd="40", cmd_type=1, enable=True),
    BrakeCmd(cmd=40.0, cmd_type=77, enable=True),
    BrakeCmd(cmd=40.0, cmd_type=None, enable=True),
    BrakeCmd(cmd=40.0, cmd_type=1, enable="yes"),
])
def test_invalid_brake_commands_never_actuate(cmd):
    dbw, veh = make(), FakeVehicle()
    t = _hold(dbw, veh, cmd)
    assert dbw.outputs.brake_line_bar == 0.0
    rep = dbw.reports(t).brake_report
    assert not rep.enabled and not rep.timeout  # the stream is alive but carries no valid command


def test_nan_command_counts_as_invalid():
    dbw, veh = make(), FakeVehicle()
    dbw.submit(SteeringCmd(cmd=math.nan, cmd_type=2, enable=True), 0.0)
    dbw.submit(ThrottleCmd(cmd=math.nan, cmd_type=14, enable=True), 0.0)
    assert dbw.invalid_commands == 2


def test_submit_rejects_unknown_objects_and_bad_times():
    dbw = make()
    with pytest.raises(TypeError):
        dbw.submit(object(), 0.0)
    with pytest.raises(ValueError):
        dbw.submit(ENABLE, math.nan)


# ------------------------------------------------------------------ ULC decoder
@pytest.mark.parametrize("cmd, expect", [(100.0, 45.0), (-100.0, -7.0), (5.001, 5.0), (math.inf, 45.0)])
def test_ulc_velocity_clamp(cmd, expect):
    dbw = make()
    dbw.submit(UlcCmd(cmd=cmd, cmd_type=1, enable=True), 0.0)
    assert dbw.ulc.cmd == pytest.approx(expect, abs=1e-9)


@pytest.mark.parametrize("cmd, expect", [(10.0, 3.0), (-10.0, -6.0)])
def test_ulc_accel_clamp(cmd, expect):
    dbw = make()
    dbw.submit(UlcCmd(cmd=cmd, cmd_type=2, enable=True), 0.0)
    assert dbw.ulc.cmd == expect


def test_ulc_times_out_after_100_ms_and_is_preempted_by_user_pedals():
    dbw, veh = make(), FakeVehicle(speed=3.0)
    dbw.submit(ENABLE, 0.0)
    t = run(dbw, veh, 0.0, 0.5, lambda k, t: dbw.submit(UlcCmd(cmd=3.0, cmd_type=1, enable=True), t) if k % 2 == 0 else None)
    rep = dbw.reports(t)
    assert rep.ulc_report.enabled and rep.throttle_report.cmd_src == 1  # CmdSrc.ULC
    def both(k, t):
        if k % 2 == 0:
            dbw.submit(UlcCmd(cmd=3.0, cmd_type=1, enable=True), t)
            dbw.submit(BrakeCmd(cmd=10.0, cmd_type=1, enable=True), t)
    t = run(dbw, veh, t, 1.0, both)
    rep = dbw.reports(t)
    assert rep.ulc_report.preempted and rep.brake_report.cmd_src == 0
    assert dbw.outputs.brake_line_bar == pytest.approx(10.0, abs=0.1)
    t = run(dbw, veh, t, 0.15)
    assert dbw.reports(t).ulc_report.timeout and not dbw.reports(t).ulc_report.enabled


# ------------------------------------------------------------------ gear, turn signal, drive mode, misc
def test_gear_rejects():
    dbw, veh = make(), FakeVehicle(speed=0.0, gear=4)
    dbw.step(0.0, veh)
    dbw.submit(GearCmd(cmd=2), 0.0)  # not enabled: forwarded as NONE
    assert dbw.gear.pending == 0 and dbw.gear.reject == 0
    dbw.submit(ENABLE, 0.0)
    dbw.submit(GearCmd(cmd=6), 0.0)
    assert dbw.gear.reject == 7 - 5  # UNSUPPORTED (2)
    dbw.set_fault("gear")
    dbw.submit(GearCmd(cmd=2), 0.0)
    assert dbw.gear.reject == 1  # FAULT
    dbw.set_fault("gear", False)
    veh.set_speed(1.0)
    dbw.step(DT, veh)
    dbw.submit(GearCmd(cmd=2), DT)
    assert dbw.gear.reject == 6  # VEHICLE_SPEED
    veh.set_speed(0.0)
    dbw.step(2 * DT, veh)
    dbw.submit(GearCmd(cmd=2), 2 * DT)
    assert dbw.gear.reject == 0 and dbw.gear.pending == 2
    run(dbw, veh, 3 * DT, 1.5)
    assert veh.gear == 2 and dbw.gear.pending == 0


def test_turn_signal_only_while_enabled_and_times_out_after_250_ms():
    dbw, veh = make(), FakeVehicle()
    dbw.submit(TurnSignalCmd(cmd=1), 0.0)
    dbw.step(0.0, veh)
    assert dbw.reports(0.0).turn_signal_report.cmd == 0
    dbw.submit(ENABLE, 0.0)
    dbw.submit(TurnSignalCmd(cmd=1), 0.0)
    dbw.step(0.0, veh)
    assert dbw.reports(0.0).turn_signal_report.output == 1
    t = run(dbw, veh, DT, 0.3)
    rep = dbw.reports(t).turn_signal_report
    assert rep.timeout and rep.output == 0


def test_drive_mode_command_maps_to_the_awd_switch():
    dbw, veh = make(), FakeVehicle()
    dbw.submit(ENABLE, 0.0)
    dbw.submit(DriveModeCmd(awd_mode_cmd=1, rear_diff_cmd=1), 0.0)  # 2WD high, rear unlocked = turf
    assert dbw.step(0.0, veh).drive_mode == 0
    dbw.submit(DriveModeCmd(awd_mode_cmd=1, rear_diff_cmd=2), 0.0)
    assert dbw.step(DT, veh).drive_mode == 1
    dbw.submit(DriveModeCmd(awd_mode_cmd=2), 0.0)
    assert dbw.step(2 * DT, veh).drive_mode == 2


def test_misc_parking_brake_is_not_actuated_and_reported_unknown():
    dbw, veh = make(), FakeVehicle()
    dbw.submit(ENABLE, 0.0)
    dbw.submit(MiscCmd(parking_brake=1), 0.0)
    dbw.step(0.0, veh)
    assert dbw.reports(0.0).misc_report.parking_brake == 0


@pytest.mark.parametrize("cmd_type, value, expected", [
    (UlcCmd.CMD_VELOCITY, 4.49423283715579e+305, 45.0),    # huge but finite: no overflow
    (UlcCmd.CMD_VELOCITY, -1e300, -7.0),
    (UlcCmd.CMD_ACCEL, 8.98846567431158e+304, 3.0),
    (UlcCmd.CMD_ACCEL, -math.inf, -6.0),
])
def test_ulc_huge_finite_commands_saturate(cmd_type, value, expected):
    """Found by the property test: a finite value whose quotient by the CAN step
    overflows must saturate like +/-inf, in the set-point and in every limit field."""
    dbw = make()
    dbw.submit(UlcCmd(cmd=value, cmd_type=cmd_type, limit_accel=1e308, limit_decel=4.5e305,
                      limit_jerk_throttle=6.2e16, limit_jerk_brake=1e300, enable=True), 0.0)
    assert dbw.ulc.cmd == expected
    for name, hi in (("limit_accel", 3.0), ("limit_decel", 6.0)):
        assert getattr(dbw.ulc, name) == hi
