"""Vehicle-level acceptance tests: DBW + ULC driving the real model (issue 5, "Done means").

Each test runs the shipped parameter file through ``Simulation``; thresholds
are the issue's. Tests marked xfail document a requirement the present ULC
tuning does not meet yet, with the measured figure in the reason.
"""

import math

import pytest

from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, SteeringCmd, UlcCmd
from acres_dbw_sim.dbw.params import DbwParameters
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.model.params import load_parameters
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.simulation import Simulation

#: ULC gains proposed for config/polaris.json (the shipped kp 0.3, ki 0.1 are too slow).
PROPOSED_GAINS = {"dbw.ulc.kp_speed": 2.5, "dbw.ulc.ki_speed": 1.0}


def _proposed_dbw_params():
    vp = load_parameters()
    flat = dict(vp.values)
    flat["vehicle.mass_kg"] = vp.mass_kg
    flat.update(PROPOSED_GAINS)
    return DbwParameters.from_mapping(flat)


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
            log.append((sim.time_s, sim.vehicle.speed_mps, sim.vehicle.yaw_rate_rad_s, sim.vehicle.gear))


def test_simulation_is_deterministic():
    runs = []
    for _ in range(2):
        sim = Simulation(gear=Gear.DRIVE)
        sim.submit(ENABLE)
        log = []
        _drive(sim, 3.0, ulc=UlcCmd(cmd=3.0, cmd_type=1, enable=True), log=log)
        runs.append(log)
    assert runs[0] == runs[1]


@pytest.mark.xfail(strict=True, reason="ULC tuning: overshoot 0.56 m/s, steady error 0.11 m/s with the "
                   "shipped gains (kp 0.3, ki 0.1); 0.36 m/s / 0.002 m/s with kp 2.5, ki 1.0; "
                   "requirement 0.2 / 0.05 (the CVT and engine inertia unload at the end of the ramp)")
@pytest.mark.parametrize("proposed", [False, True])
def test_ulc_step_0_to_5_with_limit_accel_1(proposed):
    sim = Simulation(gear=Gear.DRIVE, dbw_params=_proposed_dbw_params() if proposed else None)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 25.0, ulc=UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, limit_accel=1.0, enable=True), log=log)
    v_max = max(v for _, v, _, _ in log)
    late = [v for t, v, _, _ in log if t > 20.0]
    assert v_max - 5.0 <= 0.2
    assert max(abs(v - 5.0) for v in late) <= 0.05


@pytest.mark.parametrize("grade", [10.0, -10.0])
@pytest.mark.parametrize("proposed", [
    pytest.param(False, marks=pytest.mark.xfail(strict=True, reason="shipped gains kp 0.3, ki 0.1: deviation "
                                                "0.43 m/s uphill, 1.14 m/s downhill after 5 s")),
    True])
def test_ulc_holds_5_mps_on_a_10_percent_grade(grade, proposed):
    sim = Simulation(terrain=FlatTerrain(grade_pct=grade), gear=Gear.DRIVE,
                     dbw_params=_proposed_dbw_params() if proposed else None)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 25.0, ulc=UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True), log=log)
    settled = [v for t, v, _, _ in log if t > 5.0]
    assert max(abs(v - 5.0) for v in settled) <= 0.2


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


def _steady_yaw(steer, v):
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=v, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    log = []
    _drive(sim, 12.0, ulc=UlcCmd(cmd=v, cmd_type=1, enable=True), steer=steer, log=log)
    tail = [(v_, r) for t, v_, r, _ in log if t > 9.0]
    return sum(r for _, r in tail) / len(tail), sum(v_ for v_, _ in tail) / len(tail)


def test_curvature_command_sets_the_model_steering_angle_for_that_curvature():
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=5.0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    _drive(sim, 2.0, steer=SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, enable=True))
    p = sim.params
    expect = p.steering.center_deg + p.steering.ratio * math.degrees(math.atan(p.geometry.wheelbase_m * 0.05))
    assert sim.vehicle.steering_wheel_deg == pytest.approx(expect, abs=0.01)


_UNDERSTEER = pytest.mark.xfail(strict=True, reason="the model's steady yaw rate is ~14 % below the kinematic "
                                "v*kappa at 5 m/s (0.223 vs 0.260 rad/s) although the steering-wheel angle equals "
                                "the model's own curvature map; DBW converts through bicycle kinematics as specified")


@_UNDERSTEER
def test_curvature_command_gives_the_kinematic_yaw_rate():
    r, v = _steady_yaw(SteeringCmd(cmd=0.05, cmd_type=SteeringCmd.CMD_CURVATURE, enable=True), 5.0)
    assert r == pytest.approx(0.05 * v, rel=0.02)
    assert r == pytest.approx(0.25, rel=0.02 + 0.05)  # the ULC holds v near 5 m/s


@_UNDERSTEER
def test_yaw_rate_command_gives_that_yaw_rate():
    r, v = _steady_yaw(SteeringCmd(cmd=0.3, cmd_type=SteeringCmd.CMD_YAW_RATE, enable=True), 4.0)
    assert r == pytest.approx(0.3, rel=0.02)
