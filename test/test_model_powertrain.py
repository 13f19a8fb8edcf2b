"""Engine, CVT, steering, gear lever and driveline solve (reference sections of the same names)."""
import math
import random

import numpy as np
import pytest

from acres_dbw_sim.vehicles.polaris import cvt, engine
from acres_dbw_sim.model import filters
from acres_dbw_sim.model.driveline import (FRONT_FREE, FRONT_OVERRUN, ROOT_TOL_RAD_S, DrivelineSolver, root_next,
                                           root_start)
from acres_dbw_sim.model.enums import Gear, GearReject
from acres_dbw_sim.vehicles.polaris.gearbox import GearLever, gear_table
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from helpers.model import peak_power
from acres_dbw_sim.model.steering import ackermann_rad, bicycle_angle_rad, steering_wheel_for_curvature_deg


def rising_root(f, x0, h, tol=ROOT_TOL_RAD_S, max_iter=100):
    """The compiled solve's root finder (driveline.root_start / root_next) driven by a Python callable
    ``f(x) -> (value, slope)``, as solve_driveline drives it."""
    st = root_start(x0, h)
    while True:
        fx, dfx = f(st[0])
        done, st = root_next(st, fx, dfx, tol, max_iter)
        if done:
            return st[0]


@pytest.fixture(scope="module")
def p():
    return load_parameters()


@pytest.fixture(scope="module")
def curves(p):
    return engine.EngineCurves.from_params(p.engine)


def test_friction_and_pumping_at_idle(curves):
    assert round(engine.friction_torque_nm(1250.0, curves), 1) == 7.9
    assert round(curves.pumping_nm, 1) == 6.4
    assert curves.nm_per_bar == pytest.approx(7.95, abs=0.005)


def test_peak_power_and_torque(curves):
    p_w, n, t = peak_power(curves)
    assert round(p_w / 1000, 1) == 61.1
    assert n == pytest.approx(7000.0, abs=1.0)
    assert t == pytest.approx(84.1)


def test_full_load_curve_interpolation_and_limiter(curves):
    assert engine.full_load_torque_nm(5375.0, curves) == pytest.approx(0.5 * (81 + 84.1))
    assert engine.full_load_torque_nm(8000.0, curves) == 0.0
    assert engine.full_load_torque_nm(9000.0, curves) == 0.0
    assert engine.full_load_torque_nm(800.0, curves) == 52.0


def test_engine_torque_limits(curves):
    t_wot, t_fr, t_pu = 80.0, 10.0, 6.4
    assert engine.engine_torque_nm(1.0, True, t_wot, t_fr, t_pu) == pytest.approx(t_wot)
    assert engine.engine_torque_nm(0.0, True, t_wot, t_fr, t_pu) == pytest.approx(-t_fr - t_pu)
    assert engine.engine_torque_nm(0.5, False, t_wot, t_fr, t_pu) == pytest.approx(-t_fr - 0.5 * t_pu)


def test_governors_and_pedal_map(p, curves):
    band = p.engine.speed_governor_band_mps
    assert engine.speed_governor(27.7, 27.2, band) == pytest.approx(1.0)
    assert engine.speed_governor(27.7, 27.45, band) == pytest.approx(0.5)
    assert engine.speed_governor(0.0, 100.0, band) == 1.0
    e = p.engine
    u_ff = engine.idle_request(e.idle_rad_s, e.idle_rad_s, 1.0, 52.0, 7.95, 6.36, 1.5)
    assert u_ff == pytest.approx((7.95 + 6.36 + 1.5) / (52 + 7.95 + 6.36))
    assert engine.torque_target(0.5, 0.85, 1.0, 0.0, False) == pytest.approx(0.5 ** 0.85)
    assert engine.torque_target(1.0, 0.85, 1.0, 0.2, True) == 0.0


def test_lag():
    dt = 1 / 120
    assert filters.lag(0.0, 1.0, 0.1, dt) == pytest.approx(1 - math.exp(-dt / 0.1))
    assert filters.lag(0.0, 1.0, 0.0, dt) == pytest.approx(1.0)


def test_one_dead_time_two_rounding_rules():
    """The DBW rounds its dead times to the nearest step (half to even), the tractor's steering takes the newest
    command at least tau_d old (ceil); both lines are the same ring buffer."""
    dt = 1 / 120
    assert filters.delay_steps(0.05, dt) == 6 and filters.delay_steps(0.0, dt) == 0
    assert filters.delay_steps(0.0125, dt) == 2 and filters.delay_steps(0.0125, dt, "ceil") == 2
    assert filters.delay_steps(0.01, dt) == 1 and filters.delay_steps(0.01, dt, "ceil") == 2
    with pytest.raises(ValueError, match="rounding='floor'"):
        filters.delay_steps(0.1, dt, "floor")
    with pytest.raises(ValueError, match="delay_s=-0.1"):
        filters.delay_steps(-0.1, dt)
    from acres_dbw_sim.dbw.actuators import DELAY_CELLS, delay_line_steps, lag_line_factor
    n = delay_line_steps(0.05, dt)   # the DBW's line: the first n cells of a record's field
    line, line_head, buf, head = np.zeros(DELAY_CELLS), 0, np.zeros(6), 0
    a, y, lagged = lag_line_factor(0.06, dt), 0.0, 0.0
    for k in range(20):
        out, head = filters.delay_push(buf, head, float(k))
        dbw_out, line_head = filters.delay_push(line, line_head, float(k), n)
        assert dbw_out == out
        y = filters.lag(y, out, 0.06, dt)
        lagged = filters.lag_toward(lagged, out, a)
        assert lagged == y


def test_clutch_and_ebs_capacity(p):
    c = p.cvt
    w_eng, w_full = c.engage_rad_s, c.full_engage_rad_s
    assert cvt.clutch_capacity_nm(w_eng, w_eng, w_full, 150) == 0.0
    assert cvt.clutch_capacity_nm(w_full, w_eng, w_full, 150) == pytest.approx(150)
    w_mid = math.sqrt(0.5 * (w_eng ** 2 + w_full ** 2))
    assert cvt.clutch_capacity_nm(w_mid, w_eng, w_full, 150) == pytest.approx(75)
    idle = p.engine.idle_rad_s
    assert cvt.ebs_capacity_nm(idle, idle, w_eng, 60, True) == 0.0
    assert cvt.ebs_capacity_nm(w_eng, idle, w_eng, 60, True) == pytest.approx(60)
    assert cvt.ebs_capacity_nm(w_eng, idle, w_eng, 60, False) == 0.0


def test_shift_speed_and_ratio(p):
    assert cvt.shift_speed_rpm(0.0, 84.1, 3000, 6800) == pytest.approx(3000)
    assert cvt.shift_speed_rpm(84.1, 84.1, 3000, 6800) == pytest.approx(6800)
    assert cvt.shift_speed_rpm(-50, 84.1, 3000, 6800) == pytest.approx(3000)
    assert cvt.ratio_target(False, 6800, 500, 0.72, 3.2) == 3.2
    assert cvt.ratio_target(True, 6800, 1e-9, 0.72, 3.2) == 3.2
    assert cvt.ratio_target(True, 6000, 6000 * math.pi / 30 / 2.0, 0.72, 3.2) == pytest.approx(2.0)


def test_steering_lock_gives_40_7_degrees(p):
    s = p.steering
    lock = p.kit.steering_lock_deg
    assert round(math.degrees(bicycle_angle_rad(s.center_deg + lock, s.ratio, s.center_deg)), 1) == 40.7
    assert bicycle_angle_rad(s.center_deg, s.ratio, s.center_deg) == 0.0


@pytest.mark.parametrize("delta_deg", [-40.7, -15.0, 1.0, 10.0, 40.7])
def test_ideal_ackermann(p, delta_deg):
    L, b = p.geometry.wheelbase_m, p.geometry.track_front_m
    dl, dr = ackermann_rad(math.radians(delta_deg), L, b)
    inner, outer = (dl, dr) if delta_deg > 0 else (dr, dl)
    assert abs(inner) > abs(outer)
    # cot(outer) - cot(inner) = b / L, both on one turn centre on the rear-axle line
    assert 1 / math.tan(abs(outer)) - 1 / math.tan(abs(inner)) == pytest.approx(b / L, rel=1e-9)
    assert math.copysign(1, dl) == math.copysign(1, delta_deg)


def test_curvature_round_trip(p):
    s = p.steering
    sw = steering_wheel_for_curvature_deg(0.1, p.geometry.wheelbase_m, s.ratio, s.center_deg)
    assert math.tan(bicycle_angle_rad(sw, s.ratio, s.center_deg)) / p.geometry.wheelbase_m == pytest.approx(0.1)


def test_gear_table(p):
    t = gear_table(p.gearbox)
    assert round(t[Gear.LOW].ring_ratio, 3) == 0.925
    assert round(t[Gear.DRIVE].ring_ratio, 3) == 0.926
    assert round(t[Gear.REVERSE].ring_ratio, 3) == 0.926
    assert t[Gear.PARK].ring_ratio == t[Gear.LOW].ring_ratio
    assert (t[Gear.REVERSE].direction, t[Gear.NEUTRAL].direction, t[Gear.DRIVE].direction) == (-1, 0, 1)
    assert t[Gear.NEUTRAL].rear_ratio == 0.0


def test_gear_lever_rule():
    lever = GearLever(0.3, 1.0, Gear.LOW)
    assert lever.request(Gear.DRIVE, 0.31) == GearReject.VEHICLE_SPEED
    assert lever.gear == Gear.LOW
    assert lever.request(Gear.DRIVE, 0.29) == GearReject.NONE
    assert lever.gear == Gear.NEUTRAL and lever.target == Gear.DRIVE
    assert lever.request(Gear.REVERSE, 0.0) == GearReject.SHIFT_IN_PROGRESS
    for _ in range(119):
        lever.advance(1 / 120)
        assert lever.gear == Gear.NEUTRAL
    lever.advance(1 / 120)
    assert lever.gear == Gear.DRIVE and not lever.shift_in_progress


def _bisect44(f, lo, hi):
    for _ in range(44):
        mid = 0.5 * (lo + hi)
        if f(mid)[0] < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def test_root_solver_matches_44_bisections_with_fewer_evaluations():
    """Wheel-torque-like functions: J/dt (w - w0) + mu N R tanh(k w + b) + T_res tanh(10 w) - T."""
    rng = random.Random(3)
    total = 0
    for _ in range(300):
        jdt, c, k, tres = rng.uniform(100, 2500), rng.uniform(0, 1500), rng.uniform(0.3, 1.5), rng.uniform(0, 1800)
        w0, b, load = rng.uniform(-100, 100), rng.uniform(-3, 3), rng.uniform(-3000, 3000)
        count = [0]

        def f(x):
            count[0] += 1
            th = math.tanh(k * x + b)
            t2 = math.tanh(10 * x)
            return (jdt * (x - w0) + c * th + tres * t2 - load,
                    jdt + c * k * (1 - th * th) + 10 * tres * (1 - t2 * t2))
        root = rising_root(f, w0, 0.5)
        assert count[0] < 20
        total += count[0]
        ref = _bisect44(f, -200.0, 200.0)  # 44 bisections of 400 rad/s: 2.3e-11 rad/s
        assert root == pytest.approx(ref, abs=1e-9)
    assert total / 300 < 8


def _solver(p, mu_n=(3000.0,) * 4, vx=5.0):
    s = DrivelineSolver(p.tyres.radius_m)
    dt = 1 / 120
    from acres_dbw_sim.model.tyre import slip_coefficients
    for j in range(4):
        a1, a0 = slip_coefficients(0.0, vx, dt, p.tyres.radius_m, 0.15, 0.03, 12.0)
        s.set_wheel(j, 1.0, dt, vx / p.tyres.radius_m, mu_n[j], a1, a0, 20.0)
    return s


def test_open_rear_axle_splits_torque_equally(p):
    s = _solver(p, mu_n=(3000.0, 3000.0, 300.0, 3000.0))
    s.solve(1 / 120, True, False, True, FRONT_FREE, 0.925, 1.0 * 13.01, 0.836, 0.1, 7000 * math.pi / 30,
            150.0, 150.0, 20000.0)
    assert s.clutch_torque_nm == pytest.approx(150.0)  # the engine drives at its clutch capacity
    assert s.shaft_torque_nm[2] == pytest.approx(s.shaft_torque_nm[3], rel=1e-6, abs=1e-6)
    assert s.omega[2] > s.omega[3]  # the wheel on low friction spins up
    assert 0.5 * (s.omega[2] + s.omega[3]) == pytest.approx(s.carrier_rad_s)


def test_front_overrunning_clutch_engages_only_when_rear_slips(p):
    s = _solver(p)
    free_engine = 7000 * math.pi / 30
    # gentle drive: rear barely slips, fronts overrun
    s.solve(1 / 120, True, False, False, FRONT_OVERRUN, 0.925, 1.0 * 13.01, 0.836, 0.1,
            (5.0 / p.tyres.radius_m) * 13.01 * 1.005, 150.0, 150.0, 20000.0)
    assert s.driven[:2] == [False, False]
    # rear on ice: the rear slips more than 7.5 %, the fronts lock to the ring at K c
    s = _solver(p, mu_n=(3000.0, 3000.0, 30.0, 30.0))
    s.solve(1 / 120, True, False, False, FRONT_OVERRUN, 0.925, 1.0 * 13.01, 0.836, 0.1, free_engine, 150.0, 150.0,
            20000.0)
    assert s.driven[:2] == [True, True]
    assert s.omega[0] == pytest.approx(0.925 * s.carrier_rad_s)


def test_clutch_slips_at_its_capacity(p):
    s = _solver(p, vx=0.0)
    s.solve(1 / 120, True, False, False, FRONT_FREE, 0.925, 3.2 * 28.84, 0.836, 0.1, 5000 * math.pi / 30,
            40.0, 40.0, 20000.0)
    assert s.clutch_torque_nm == pytest.approx(40.0)
    assert s.carrier_torque_nm == pytest.approx(3.2 * 28.84 * 0.836 * 40.0)
