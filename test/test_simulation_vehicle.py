"""Vehicle-level acceptance tests: DBW + ULC driving the real model (issue 5, "Done means").

Each test runs the shipped parameter file through ``Simulation``; thresholds
are the issue's. Speeds are the signed body speed.
"""

import math

import pytest

from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, SteeringCmd, UlcCmd
from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.simulation import Simulation

def _drive(sim, duration, ulc=None, steer=None, every=2, log=None):
    n = int(round(duration / sim.dt_s))
    for k in range(n):
        if k % every == 0:  # 60 Hz command stream
            if ulc is not None:
                sim.submit(ulc)
            if steer is not None:
                sim.submit(steer)
        sim.step()
        if log is not None:
            log.append((sim.time_s, sim.vehicle.velocity_body_mps[0], sim.vehicle.yaw_rate_rad_s, sim.vehicle.gear))


def test_simulation_is_deterministic():
    runs = []
    for _ in range(2):
        sim = Simulation(gear=Gear.DRIVE)
        sim.submit(ENABLE)
        log = []
        _drive(sim, 3.0, ulc=UlcCmd(cmd=3.0, cmd_type=1, enable=True), log=log)
        runs.append(log)
    assert runs[0] == runs[1]


def _ideal_ramp(t, limit_accel=1.0, jerk=None):
    """Speed of the jerk-limited reference from rest [m/s], before its end rounding."""
    j = load_parameters().kit.ulc_limit_jerk_throttle_default_mps3 if jerk is None else jerk
    t1 = limit_accel / j  # the acceleration reaches limit_accel after t1
    return 0.5 * j * t * t if t < t1 else 0.5 * j * t1 * t1 + limit_accel * (t - t1)


def test_ulc_step_0_to_5_with_limit_accel_1_tracks_the_ramp():
    """Issue 5: <= 0.2 m/s overshoot, <= 0.05 m/s steady error on asphalt (shipped gains)."""
    sim = Simulation(gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 25.0, ulc=UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0, enable=True), log=log)
    v_max = max(v for _, v, _, _ in log)
    assert v_max - 5.0 <= 0.2
    assert max(abs(v - 5.0) for t, v, _, _ in log if t > 20.0) <= 0.05
    # it follows the 1 m/s^2 ramp (the launch through the slipping clutch included) ...
    assert max(abs(v - _ideal_ramp(t)) for t, v, _, _ in log if 1.0 <= t <= 4.5) <= 0.2
    # ... and is there within 2 s of the end of the ramp
    t_end = 5.0 + 0.25
    assert min(v for t, v, _, _ in log if t > t_end + 2.0) >= 4.9


@pytest.mark.parametrize("grade", [10.0, -10.0])
def test_ulc_holds_5_mps_on_a_10_percent_grade(grade):
    sim = Simulation(terrain=FlatTerrain(grade_pct=grade), gear=Gear.DRIVE)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 25.0, ulc=UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True), log=log)
    settled = [v for t, v, _, _ in log if t > 5.0]
    assert max(abs(v - 5.0) for v in settled) <= 0.2


@pytest.mark.parametrize("grade", [10.0, -10.0])
def test_ulc_climbs_to_5_mps_on_a_10_percent_grade_from_rest(grade):
    sim = Simulation(terrain=FlatTerrain(grade_pct=grade), gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 20.0, ulc=UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0, enable=True), log=log)
    assert max(v for _, v, _, _ in log) - 5.0 <= 0.2
    assert max(abs(v - 5.0) for t, v, _, _ in log if t > 12.0) <= 0.05


def test_ulc_slows_down_with_the_brake_without_undershoot():
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=8.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 15.0, ulc=UlcCmd(cmd=3.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_decel=2.0, enable=True), log=log)
    assert min(v for _, v, _, _ in log) >= 3.0 - 0.2
    assert max(abs(v - 3.0) for t, v, _, _ in log if t > 8.0) <= 0.05


def test_ulc_reverses_with_enable_shift():
    sim = Simulation(gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 15.0, ulc=UlcCmd(cmd=-2.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0, enable=True,
                                 enable_shift=True), log=log)
    assert sim.vehicle.gear == Gear.REVERSE
    assert max(abs(v + 2.0) for t, v, _, _ in log if t > 10.0) <= 0.05  # v is the signed body speed
    assert min(v for _, v, _, _ in log) >= -2.2


def test_ulc_stops_and_holds_at_zero():
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 15.0, ulc=UlcCmd(cmd=0.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_decel=1.0, enable=True), log=log)
    late = [abs(v) for t, v, _, _ in log if t > 10.0]
    assert max(late) < 0.02
    assert sim.dbw.outputs.brake_line_bar > 5.0  # held by the brake, not by luck


def test_ulc_stops_and_holds_on_a_grade():
    sim = Simulation(terrain=FlatTerrain(grade_pct=10.0), gear=Gear.DRIVE)
    sim.reset(speed_mps=3.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 15.0, ulc=UlcCmd(cmd=0.0, cmd_type=1, enable=True), log=log)
    assert max(abs(v) for t, v, _, _ in log if t > 10.0) < 0.02


def test_ulc_enable_shift_park_leaves_park_for_high_and_moves():
    sim = Simulation(gear=Gear.PARK)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 10.0, ulc=UlcCmd(cmd=3.0, cmd_type=1, enable=True, enable_shift=True,
                                 enable_shift_park=True), log=log)
    assert sim.vehicle.gear == Gear.DRIVE
    assert sim.vehicle.speed_mps > 2.0
    assert sim.reports().gear_report.cmd_src == 1  # CmdSrc.ULC


def test_ulc_without_enable_shift_park_stays_in_park():
    sim = Simulation(gear=Gear.PARK)
    sim.submit(ENABLE)
    _drive(sim, 3.0, ulc=UlcCmd(cmd=3.0, cmd_type=1, enable=True, enable_shift=True))
    assert sim.vehicle.gear == Gear.PARK
    assert abs(sim.vehicle.speed_mps) < 0.05


def test_ulc_enable_shift_goes_from_neutral_to_high():
    sim = Simulation(gear=Gear.NEUTRAL)
    sim.submit(ENABLE)
    _drive(sim, 8.0, ulc=UlcCmd(cmd=3.0, cmd_type=1, enable=True, enable_shift=True))
    assert sim.vehicle.gear == Gear.DRIVE and sim.vehicle.speed_mps > 2.0


def test_user_gear_command_too_fast_is_rejected_with_vehicle_speed():
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    sim.step()
    sim.submit(GearCmd(cmd=Gear.REVERSE))
    sim.step()
    rep = sim.reports().gear_report
    assert rep.reject == 6 and sim.vehicle.gear == Gear.DRIVE


def _steady_yaw(steer, v, mode):
    """Mean yaw rate and speed over 9..12 s with the ULC holding ``v`` in drive mode ``mode``."""
    sim = Simulation(gear=Gear.DRIVE, drive_mode=mode)
    sim.reset(speed_mps=v, gear=Gear.DRIVE, drive_mode=mode)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 12.0, ulc=UlcCmd(cmd=v, cmd_type=1, enable=True), steer=steer, log=log)
    tail = [(v_, r) for t, v_, r, _ in log if t > 9.0]
    return sum(r for _, r in tail) / len(tail), sum(v_ for v_, _ in tail) / len(tail), sim


def _kinematic_wheel_deg(p, kappa):
    """Raw steering-wheel angle of bicycle kinematics: centre + i_s atan(L kappa) (Steering section)."""
    return p.steering.center_deg + p.steering.ratio * math.degrees(math.atan(p.geometry.wheelbase_m * kappa))


@pytest.mark.parametrize("mode", list(AwdSwitch))
def test_curvature_command_sets_the_model_steering_angle_for_that_curvature(mode):
    """The conversion is open-loop bicycle kinematics in every drive mode (no understeer term, no trim)."""
    sim = Simulation(gear=Gear.DRIVE, drive_mode=mode)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE, drive_mode=mode)
    sim.submit(ENABLE)
    _drive(sim, 2.0, steer=SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, enable=True))
    assert sim.vehicle.steering_wheel_deg == pytest.approx(_kinematic_wheel_deg(sim.params, 0.05), abs=0.01)


def test_yaw_rate_command_sets_the_angle_of_that_yaw_rate_at_the_measured_speed():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.AWD)
    sim.reset(speed_mps=4.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    _drive(sim, 2.0, ulc=UlcCmd(cmd=4.0, cmd_type=1, enable=True),
           steer=SteeringCmd(cmd=0.3, cmd_type=SteeringCmd.CMD_YAW_RATE, enable=True))
    v = sim.vehicle.velocity_body_mps[0]
    assert sim.vehicle.steering_wheel_deg == pytest.approx(_kinematic_wheel_deg(sim.params, 0.3 / v), abs=0.3)


# Turf (open rear differential) is the drive mode in which the model's steady
# yaw rate at these low speeds is the kinematic v kappa (tyre slip angles only);
# with the locked rear axle of 2WD and AWD the axle's scrub makes the vehicle
# understeer, see the next test.
def test_curvature_command_gives_the_kinematic_yaw_rate_in_turf():
    r, v, _ = _steady_yaw(SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, enable=True), 5.0,
                          AwdSwitch.TURF)
    assert v == pytest.approx(5.0, abs=0.02)
    assert r == pytest.approx(0.25, rel=0.02)


def test_yaw_rate_command_gives_that_yaw_rate_in_turf():
    r, v, _ = _steady_yaw(SteeringCmd(cmd=0.3, cmd_type=SteeringCmd.CMD_YAW_RATE, enable=True), 4.0,
                          AwdSwitch.TURF)
    assert v == pytest.approx(4.0, abs=0.02)
    assert r == pytest.approx(0.3, rel=0.02)


@pytest.mark.parametrize("mode", [AwdSwitch.TWO_WD, AwdSwitch.AWD])
@pytest.mark.parametrize("steer,v,expect", [
    (SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, enable=True), 5.0, 0.25),
    (SteeringCmd(cmd=0.3, cmd_type=SteeringCmd.CMD_YAW_RATE, enable=True), 4.0, 0.3)])
def test_locked_rear_axle_understeers_and_the_dbw_does_not_hide_it(mode, steer, v, expect):
    """Documented behaviour (steering.py): the DBW converts open-loop, so the
    locked axle's understeer (measured 14 % at these speeds) reaches the stack,
    as it would on the real vehicle; the steering angle is the kinematic one."""
    r, v_meas, _ = _steady_yaw(steer, v, mode)
    assert v_meas == pytest.approx(v, abs=0.02)
    assert 0.80 * expect < r < 0.98 * expect


@pytest.mark.parametrize("cmd", [-1.0, 1.0])
def test_ulc_reaches_a_slow_speed_at_full_lock_in_awd(cmd):
    """At full lock in AWD the locked rear axle scrubs hard, so the vehicle cannot
    follow the reference ramp; the reference governor must not freeze the
    reference and the integrator then, or the vehicle stalls short of the set
    point (it held -0.645 m/s for -1 m/s before the governor waited for the
    vehicle to be catching up)."""
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.AWD)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 25.0, ulc=UlcCmd(cmd=cmd, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0, enable=True,
                                 enable_shift=True),
           steer=SteeringCmd(cmd=100.0, cmd_type=SteeringCmd.CMD_PERCENT, enable=True), log=log)
    late = [v for t, v, _, _ in log if t > 20.0]
    assert max(abs(v - cmd) for v in late) <= 0.05, (min(late), max(late))
