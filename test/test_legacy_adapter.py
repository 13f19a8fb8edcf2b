"""The legacy (DBW1) adapter, msg_adapters.polaris_legacy, without DDS.

Two layers: the translation of each ``dbw_polaris_msgs`` command into the core
command (golden numbers from dbw-interface.md §3.2/§3.3: units, pedal table,
CAN rounding and clamping), and the semantics through the simulated vehicle
(the core drives, the legacy reports must show it: pedal signals, brake
torque, the steering angle under its rate limit, gear and rejects, enable,
override, timeout, fault, calibration, twist).
"""

from __future__ import annotations

import math

import pytest
from dbw_polaris_msgs.msg import (BrakeCmd, Gear as LGear, GearCmd, GearReject, SteeringCmd,
                                  SteeringReport, ThrottleCmd)

from acres_dbw_sim.dbw import commands as core
from acres_dbw_sim.dbw.state import DriverInput
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation
from msg_adapters import polaris_legacy as L

DEG = 180.0 / math.pi


# ---------------------------------------------------------------------- translation
@pytest.mark.parametrize("pedal, fraction", [
    (0.0, 0.0), (0.2, 0.0), (0.25, 0.0005), (0.3, 0.001), (0.55, 0.5005), (0.8, 1.0), (1.0, 1.0)])
def test_pedal_table(pedal, fraction):
    assert L.pedal_to_fraction(pedal) == pytest.approx(fraction, abs=1e-12)
    if 0.2 <= pedal <= 0.8:
        assert L.fraction_to_pedal(fraction) == pytest.approx(pedal, abs=1e-12)


@pytest.mark.parametrize("name, msg, cmd, cmd_type", [
    ("pedal full", ThrottleCmd(pedal_cmd=0.8, pedal_cmd_type=1), 100.0, 14),
    ("pedal mid", ThrottleCmd(pedal_cmd=0.55, pedal_cmd_type=1), 50.05, 14),
    ("pedal released", ThrottleCmd(pedal_cmd=0.2, pedal_cmd_type=1), 0.0, 14),
    ("percent", ThrottleCmd(pedal_cmd=0.4, pedal_cmd_type=2), 40.0, 14),
    ("percent over 1 clamps", ThrottleCmd(pedal_cmd=1.7, pedal_cmd_type=2), 100.0, 14),
    ("negative clamps", ThrottleCmd(pedal_cmd=-0.3, pedal_cmd_type=2), 0.0, 14),
    ("none", ThrottleCmd(pedal_cmd=0.5, pedal_cmd_type=0), 0.0, 0),
    ("unknown type", ThrottleCmd(pedal_cmd=0.5, pedal_cmd_type=9), 0.0, 0),
])
def test_throttle_command(name, msg, cmd, cmd_type):
    out = L.throttle_cmd(msg)
    assert isinstance(out, core.ThrottleCmd)
    assert out.cmd == pytest.approx(cmd, abs=1e-3) and out.cmd_type == cmd_type, name
    assert (out.rate_inc, out.rate_dec) == (0.0, 0.0)   # DBW1 has no rates: firmware default


def test_command_flags_pass_through_and_nan_reaches_the_core():
    out = L.throttle_cmd(ThrottleCmd(pedal_cmd=math.nan, pedal_cmd_type=2, enable=True, clear=True,
                                     ignore=True, count=7))
    assert math.isnan(out.cmd) and out.cmd_type == 14
    assert (out.enable, out.clear, out.ignore) == (True, True, True)
    out = L.brake_cmd(BrakeCmd(pedal_cmd=math.nan, pedal_cmd_type=3, enable=True))
    assert math.isnan(out.cmd) and out.cmd_type == 2 and out.enable


@pytest.mark.parametrize("msg, cmd, cmd_type", [
    (BrakeCmd(pedal_cmd=0.25, pedal_cmd_type=BrakeCmd.CMD_PERCENT), 25.0, 14),
    (BrakeCmd(pedal_cmd=1.5, pedal_cmd_type=BrakeCmd.CMD_PERCENT), 100.0, 14),
    (BrakeCmd(pedal_cmd=1234.4, pedal_cmd_type=BrakeCmd.CMD_TORQUE), 1234.0, 2),
    (BrakeCmd(pedal_cmd=1234.6, pedal_cmd_type=BrakeCmd.CMD_TORQUE_RQ), 1235.0, 2),
    (BrakeCmd(pedal_cmd=70000.0, pedal_cmd_type=BrakeCmd.CMD_TORQUE), 65535.0, 2),
    (BrakeCmd(pedal_cmd=-5.0, pedal_cmd_type=BrakeCmd.CMD_TORQUE), 0.0, 2),
    (BrakeCmd(pedal_cmd=500.0, pedal_cmd_type=BrakeCmd.CMD_NONE), 0.0, 0),
    (BrakeCmd(pedal_cmd=500.0, pedal_cmd_type=1), 0.0, 0),
])
def test_brake_command(msg, cmd, cmd_type):
    out = L.brake_cmd(msg)
    assert isinstance(out, core.BrakeCmd)
    assert out.cmd == pytest.approx(cmd, abs=1e-3) and out.cmd_type == cmd_type   # 1/65535 steps


@pytest.mark.parametrize("velocity_rad_s, rate_deg_s", [
    (0.0, 0.0), (math.nan, 0.0), (1.0, 56.0), (2.0, 116.0), (17.5, 1004.0), (100.0, 1016.0),
    (math.inf, 1016.0), (-1.0, 4.0), (0.01, 4.0)])
def test_steering_rate_in_4_deg_s_units(velocity_rad_s, rate_deg_s):
    out = L.steering_cmd(SteeringCmd(steering_wheel_angle_cmd=1.0,
                                     steering_wheel_angle_velocity=velocity_rad_s,
                                     cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
    assert out.cmd_type == core.SteeringCmd.CMD_ANGLE
    assert out.cmd == pytest.approx(57.3, abs=1e-9)          # 1 rad in 0.1 deg steps
    assert out.cmd_rate == rate_deg_s


def test_steering_torque_calibrate_and_unknown():
    out = L.steering_cmd(SteeringCmd(steering_wheel_torque_cmd=2.51, cmd_type=SteeringCmd.CMD_TORQUE))
    assert (out.cmd, out.cmd_type) == (round(2.51 * 128) / 128, core.SteeringCmd.CMD_TORQUE)
    out = L.steering_cmd(SteeringCmd(steering_wheel_angle_cmd=-0.5, calibrate=True,
                                     cmd_type=SteeringCmd.CMD_TORQUE))
    assert (out.cmd, out.cmd_type) == (-28.6, core.SteeringCmd.CMD_CALIBRATE)
    assert L.steering_cmd(SteeringCmd(cmd_type=5)).cmd_type == core.SteeringCmd.CMD_NONE


@pytest.mark.parametrize("gear, expected", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5),
                                            (6, 6), (7, 7), (8, 0), (255, 0)])
def test_gear_numbers(gear, expected):
    assert L.gear_cmd(GearCmd(cmd=LGear(gear=gear), clear=True)).cmd == expected


def test_gear_reject_numbering_follows_dbw1():
    want = {0: GearReject.NONE, 1: GearReject.FAULT, 2: GearReject.UNSUPPORTED,
            3: GearReject.SHIFT_IN_PROGRESS, 4: GearReject.OVERRIDE, 5: GearReject.VEHICLE,
            6: GearReject.VEHICLE, 7: GearReject.VEHICLE}
    assert L.LEGACY_GEAR_REJECT == want


# ---------------------------------------------------------------------- through the core
class Legacy:
    """A simulation driven through the legacy translation, with its reports."""

    def __init__(self, gear=Gear.PARK):
        self.sim = Simulation(gear=gear)
        self.scales = L.LegacyScales.from_dbw_parameters(self.sim.dbw.p)
        self.rep = L.LegacyReports(self.scales)
        self.sim.submit(core.ENABLE)

    def run(self, seconds, *msgs):
        """Send ``msgs`` at 50 Hz for ``seconds`` [s]."""
        conv = {ThrottleCmd: L.throttle_cmd, BrakeCmd: L.brake_cmd, SteeringCmd: L.steering_cmd,
                GearCmd: L.gear_cmd}
        every = int(round(0.02 / self.sim.dt_s))
        for k in range(int(round(seconds / self.sim.dt_s))):
            if k % every == 0:
                for m in msgs:
                    self.sim.submit(conv[type(m)](m))
            self.sim.step()

    def report(self, name):
        return getattr(self.rep, name)(self.sim.reports(), None)


def test_scales_of_the_shipped_vehicle():
    s = Legacy().scales
    p = Simulation().dbw.p
    assert s.brake_nm_per_bar == 2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar)
    assert s.brake_max_nm == pytest.approx(s.brake_nm_per_bar * p.brake_max_bar)


def test_throttle_percent_drives_and_the_report_shows_pedal_signals():
    v = Legacy(gear=Gear.DRIVE)
    v.run(4.0, ThrottleCmd(pedal_cmd=0.3, pedal_cmd_type=ThrottleCmd.CMD_PERCENT, enable=True))
    assert v.sim.vehicle.velocity_body_mps[0] > 1.0
    tr = v.report("throttle_report")
    assert tr.enabled and not tr.override and not tr.timeout and not tr.driver
    assert tr.pedal_cmd == pytest.approx(L.fraction_to_pedal(0.3), abs=2e-5)
    assert tr.pedal_output == pytest.approx(tr.pedal_cmd, abs=2e-5)
    assert tr.pedal_input == pytest.approx(0.2, abs=2e-5)       # driver's pedal released
    sr = v.report("steering_report")
    assert sr.speed == pytest.approx(v.sim.vehicle.velocity_body_mps[0], abs=0.01)


def test_throttle_pedal_type_goes_through_the_pedal_table():
    v = Legacy(gear=Gear.PARK)
    v.run(0.5, ThrottleCmd(pedal_cmd=0.55, pedal_cmd_type=ThrottleCmd.CMD_PEDAL, enable=True))
    assert v.sim.reports().throttle_report.percent_cmd == pytest.approx(50.05, abs=0.025)
    assert v.report("throttle_report").pedal_cmd == pytest.approx(0.55, abs=1e-4)


@pytest.mark.parametrize("msg, torque_nm", [
    (BrakeCmd(pedal_cmd=1000.0, pedal_cmd_type=BrakeCmd.CMD_TORQUE, enable=True), 1000.0),
    (BrakeCmd(pedal_cmd=1000.0, pedal_cmd_type=BrakeCmd.CMD_TORQUE_RQ, enable=True), 1000.0),
    (BrakeCmd(pedal_cmd=0.5, pedal_cmd_type=BrakeCmd.CMD_PERCENT, enable=True), None),
])
def test_brake_report_in_newton_metres(msg, torque_nm):
    v = Legacy()
    expected = torque_nm if torque_nm is not None else 0.5 * v.scales.brake_max_nm
    v.run(1.0, msg)
    br = v.report("brake_report")
    assert br.enabled and not br.driver and br.torque_input == 0.0
    assert br.torque_cmd == pytest.approx(expected, abs=4.0)
    assert br.torque_output == pytest.approx(expected, rel=0.01)
    assert v.sim.reports().brake_info.brake_torque_actual == pytest.approx(expected, rel=0.01)


def test_brake_report_without_a_command():
    v = Legacy()
    v.run(0.2)
    br = v.report("brake_report")
    # never commanded: timed out (docs/dbw.md, overrides of subsystems the stack does not command)
    assert (br.torque_cmd, br.torque_output, br.enabled, br.timeout) == (0.0, 0.0, False, True)


def test_steering_angle_follows_its_rate_limit():
    """2 rad/s -> 116 deg/s (4 deg/s units): the wheel turns 57.3 deg in about 0.5 s."""
    v = Legacy()
    start = v.report("steering_report").steering_wheel_angle
    cmd = SteeringCmd(steering_wheel_angle_cmd=start + 1.0, steering_wheel_angle_velocity=2.0,
                      cmd_type=SteeringCmd.CMD_ANGLE, enable=True)
    v.run(0.25, cmd)
    mid = v.report("steering_report").steering_wheel_angle - start
    v.run(0.75, cmd)
    sr = v.report("steering_report")
    assert sr.enabled and sr.steering_wheel_cmd_type == SteeringReport.CMD_ANGLE
    # 0.25 s at 116 deg/s minus the acceleration ramp and the servo's dead time and lag
    assert 0.15 < mid < math.radians(116.0) * 0.25
    assert sr.steering_wheel_cmd == pytest.approx(start + 1.0, abs=math.radians(0.1))
    assert sr.steering_wheel_angle == pytest.approx(start + 1.0, abs=math.radians(0.2))


def test_steering_torque_report_type():
    v = Legacy()
    v.run(0.3, SteeringCmd(steering_wheel_torque_cmd=1.0, cmd_type=SteeringCmd.CMD_TORQUE,
                           enable=True))
    sr = v.report("steering_report")
    assert sr.steering_wheel_cmd_type == SteeringReport.CMD_TORQUE and sr.steering_wheel_cmd == 1.0


def test_steering_calibrate_sets_the_reported_angle():
    v = Legacy()
    v.run(0.1, SteeringCmd(steering_wheel_angle_cmd=0.0, calibrate=True))
    assert v.report("steering_report").steering_wheel_angle == pytest.approx(0.0, abs=1e-6)
    sr = v.report("steering_report")
    assert math.isnan(sr.steering_wheel_cmd)                     # no command: NaN echo


def test_gear_shift_and_dbw1_reject_numbers():
    v = Legacy()
    hold = BrakeCmd(pedal_cmd=0.3, pedal_cmd_type=BrakeCmd.CMD_PERCENT, enable=True)
    v.run(2.0, hold, GearCmd(cmd=LGear(gear=LGear.DRIVE)))
    gr = v.report("gear_report")
    assert gr.state.gear == LGear.DRIVE and gr.reject.value == GearReject.NONE
    v.run(3.0, ThrottleCmd(pedal_cmd=0.3, pedal_cmd_type=ThrottleCmd.CMD_PERCENT, enable=True))
    v.run(0.1, GearCmd(cmd=LGear(gear=LGear.REVERSE)))
    gr = v.report("gear_report")
    assert gr.state.gear == LGear.DRIVE and gr.reject.value == GearReject.VEHICLE


def test_override_is_reported_until_cleared_and_drops_dbw():
    v = Legacy()
    thr = ThrottleCmd(pedal_cmd=0.1, pedal_cmd_type=ThrottleCmd.CMD_PERCENT, enable=True)
    v.run(0.2, thr)
    assert v.sim.dbw_enabled and v.report("throttle_report").enabled
    v.sim.set_driver(DriverInput(accel_pedal_pct=60.0))
    v.run(0.2, thr)
    tr = v.report("throttle_report")
    assert tr.override and tr.driver and not tr.enabled and not v.sim.dbw_enabled
    assert tr.pedal_input == pytest.approx(L.fraction_to_pedal(0.6), abs=1e-4)
    v.sim.set_driver(DriverInput())
    v.run(0.2, thr)
    assert v.report("throttle_report").override                # latched until cleared
    v.sim.submit(core.ENABLE)
    v.run(0.3, thr)                                            # the driver's clear frames
    tr = v.report("throttle_report")
    assert not tr.override and tr.enabled and v.sim.dbw_enabled


def test_timeout_and_fault_flags():
    v = Legacy()
    v.run(0.2, BrakeCmd(pedal_cmd=100.0, pedal_cmd_type=BrakeCmd.CMD_TORQUE, enable=True))
    v.run(0.3)
    br = v.report("brake_report")
    assert br.timeout and not br.enabled and v.sim.dbw_enabled
    v.sim.set_fault("steering")
    v.run(0.05)
    assert v.report("steering_report").fault_bus1
    v.sim.set_fault("brake")
    v.run(0.05)
    br = v.report("brake_report")
    assert br.fault_ch1 and br.fault_ch2


def test_twist_uses_the_legacy_formula():
    v = Legacy(gear=Gear.DRIVE)
    v.run(0.1, SteeringCmd(steering_wheel_angle_cmd=0.0, calibrate=True))
    v.run(5.0, SteeringCmd(steering_wheel_angle_cmd=2.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True),
          ThrottleCmd(pedal_cmd=0.3, pedal_cmd_type=ThrottleCmd.CMD_PERCENT, enable=True))
    r = v.sim.reports()
    tw = v.report("twist")
    sr = v.report("steering_report")
    s = v.scales
    assert tw.twist.linear.x == pytest.approx(sr.speed, abs=1e-6) and sr.speed > 1.0
    assert tw.twist.angular.z == pytest.approx(
        sr.speed * math.tan(sr.steering_wheel_angle / s.steering_ratio) / s.wheelbase_m, rel=1e-5)
    # calibrated: the measured yaw rate is the kinematic one less the AWD understeer
    assert r.imu.angular_velocity_z == pytest.approx(tw.twist.angular.z, rel=0.2)


@pytest.mark.parametrize("value", [math.inf, -math.inf, 1e30, -1e30])
@pytest.mark.parametrize("msg, field, saturated", [
    (ThrottleCmd(pedal_cmd_type=ThrottleCmd.CMD_PEDAL, enable=True), "pedal_cmd", (100.0, 0.0)),
    (ThrottleCmd(pedal_cmd_type=ThrottleCmd.CMD_PERCENT, enable=True), "pedal_cmd", (100.0, 0.0)),
    (BrakeCmd(pedal_cmd_type=BrakeCmd.CMD_PERCENT, enable=True), "pedal_cmd", (100.0, 0.0)),
    (BrakeCmd(pedal_cmd_type=BrakeCmd.CMD_TORQUE, enable=True), "pedal_cmd", (65535.0, 0.0)),
    (BrakeCmd(pedal_cmd_type=BrakeCmd.CMD_TORQUE_RQ, enable=True), "pedal_cmd", (65535.0, 0.0)),
    (SteeringCmd(cmd_type=SteeringCmd.CMD_ANGLE, enable=True), "steering_wheel_angle_cmd", (3276.7, -3276.7)),
    (SteeringCmd(cmd_type=SteeringCmd.CMD_TORQUE, enable=True), "steering_wheel_torque_cmd",
     (32767 / 128.0, -32767 / 128.0)),
])
def test_an_infinite_or_huge_command_saturates_as_its_can_field(msg, field, saturated, value):
    """The legacy node clamps each value into its fixed-point CAN field before it rounds (±inf
    saturates, README); rounding first raised OverflowError and ended the node."""
    setattr(msg, field, value)
    conv = {ThrottleCmd: L.throttle_cmd, BrakeCmd: L.brake_cmd, SteeringCmd: L.steering_cmd}[type(msg)]
    assert conv(msg).cmd == pytest.approx(saturated[0] if value > 0 else saturated[1])


def test_a_nan_brake_command_reports_no_nan_torque():
    """The legacy brake report's torque_cmd is a whole-Nm CAN field: 0 while the command is invalid."""
    v = Legacy()
    for t in (BrakeCmd.CMD_PERCENT, BrakeCmd.CMD_TORQUE):
        v.run(0.2, BrakeCmd(pedal_cmd=math.nan, pedal_cmd_type=t, enable=True))
        br = v.report("brake_report")
        assert math.isfinite(br.torque_cmd) and math.isfinite(br.torque_output), br
