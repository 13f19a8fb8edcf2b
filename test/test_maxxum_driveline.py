"""Maxxum 150 clutch, powershift, MFD and differential locks (maxxum-150-dynamics.md, "Clutch",
"Transmission", "Front-Wheel Drive", "Axle and Differential")."""
import math

import pytest

from acres_dbw_sim.vehicles.maxxum150 import clutch as C
from acres_dbw_sim.vehicles.maxxum150 import transmission as T
from acres_dbw_sim.vehicles.maxxum150.params import load_maxxum_parameters

DT = 1.0 / 120.0
RPM = 2 * math.pi / 60
# The page's gear table: speed [km/h] at 2200 rev/min without slip.
GEAR_TABLE_KMH = [2.08, 2.54, 3.11, 3.79, 4.63, 5.66, 6.91, 8.44, 10.30, 12.58, 15.36, 18.75, 22.90, 27.96,
                  34.14, 41.68]


@pytest.fixture(scope="module")
def p():
    return load_maxxum_parameters()


@pytest.mark.parametrize("gear", range(1, 17))
def test_gear_table_speeds(p, gear):
    tr = p.transmission
    i = T.overall_ratio(gear, T.FORWARD, tr.forward_gears, tr.reverse_gears, tr.final_drive)
    v = (2200 * RPM * p.tyres.rear_radius_m / i) * 3.6
    assert round(v, 2) == pytest.approx(GEAR_TABLE_KMH[gear - 1], abs=0.011)
    ir = T.overall_ratio(gear, T.REVERSE, tr.forward_gears, tr.reverse_gears, tr.final_drive)
    assert ir == -i


def test_gear_step_and_scripted_test_speed(p):
    g = p.transmission.forward_gears
    for a, b in zip(g, g[1:]):
        assert a / b == pytest.approx(1.2211, abs=1e-3)
    i10 = T.overall_ratio(10, 1, g, g, 10.0)
    # "The gear table gives 10.5 km/h for gear 10 at 1842 rpm"
    assert round((1842 * RPM * p.tyres.rear_radius_m / i10) * 3.6, 1) == 10.5
    assert T.overall_ratio(0, 1, g, g, 10.0) == 0.0 and T.overall_ratio(17, 1, g, g, 10.0) == 0.0


def _shift_run(p, steps=120):
    tr = p.transmission
    eps, gear, left = 1.0, 10, 0.0
    gear, left = T.request_gear(gear, 11, left, tr.shift_time_s)
    trace = []
    for _ in range(steps):
        left, shifting = T.advance_shift(left, DT)
        target = C.engagement_target(0.7, 0.0, shifting, 0.01, 0.1)
        eps = C.step_engagement(eps, target, DT, tr.clutch_engagement_s)
        trace.append((eps, shifting))
    return gear, trace


def test_gear_change_drops_engagement_to_063(p):
    gear, trace = _shift_run(p)
    assert gear == 11
    eps_min = min(e for e, _ in trace)
    assert eps_min == pytest.approx(0.63, abs=0.01)
    cap = C.clutch_capacity_nm(p.transmission.clutch_capacity_nm, eps_min, 1900 * RPM, 800 * RPM, 0.6)
    assert cap == pytest.approx(570.0, abs=5.0)
    n_shifting = sum(1 for _, s in trace if s)
    assert n_shifting * DT == pytest.approx(0.3, abs=DT)
    # engagement comes back to 1 at 1/t_c after the change
    assert trace[-1][0] == 1.0


def test_same_or_invalid_gear_does_not_shift(p):
    assert T.request_gear(10, 10, 0.0, 0.3) == (10, 0.0)
    assert T.request_gear(10, 0, 0.0, 0.3) == (10, 0.0)
    assert T.request_gear(10, 17, 0.0, 0.3) == (10, 0.0)


def test_clutch_engagement_rules():
    assert C.engagement_target(0.5, 0.0, False, 0.01, 0.1) == 1.0
    assert C.engagement_target(0.005, 0.0, False, 0.01, 0.1) == 0.0   # command released: coasts
    assert C.engagement_target(0.5, 0.1, False, 0.01, 0.1) == 0.0     # brake 0.1 opens the clutch
    assert C.engagement_target(0.5, 0.0, True, 0.01, 0.1) == 0.0      # gear change
    eps = 0.0
    for k in range(48):
        eps = C.step_engagement(eps, 1.0, DT, 0.8)
    assert eps == pytest.approx(0.5)
    for k in range(200):
        eps = C.step_engagement(eps, 1.0, DT, 0.8)
    assert eps == 1.0


def test_stall_protection():
    wi = 800 * RPM
    assert C.clutch_capacity_nm(900.0, 1.0, wi, wi, 0.6) == 900.0
    assert C.clutch_capacity_nm(900.0, 1.0, 0.8 * wi, wi, 0.6) == pytest.approx(450.0)
    assert C.clutch_capacity_nm(900.0, 1.0, 0.6 * wi, wi, 0.6) == 0.0
    assert C.clutch_capacity_nm(900.0, 0.5, 2.0 * wi, wi, 0.6) == 450.0


def test_direction_change_rule():
    assert T.request_direction(1, -1, 0.2, 0.25) == -1
    assert T.request_direction(1, -1, 0.3, 0.25) == 1
    assert T.request_direction(-1, 1, -0.1, 0.25) == 1
    assert T.request_direction(1, 0, 0.0, 0.25) == 1


def test_mfd_front_lead_and_2wd(p):
    kappa = T.front_speed_ratio(p.transmission.front_lead_ratio, p.tyres.rear_radius_m, p.tyres.front_radius_m)
    assert kappa == pytest.approx(1.300, abs=1.5e-3)   # 1.2993 with r_f = 0.707 m, r_r = 0.905 m
    s = T.driveline_setup(p, 10, 1, True, 0)
    assert s.front_driven and s.front_speed_ratio == pytest.approx(kappa)
    assert s.overall_ratio == pytest.approx(59.69) and s.efficiency == 0.9
    q = load_maxxum_parameters(overrides="transmission.front_drive=false;transmission.front_lead_ratio=0")
    s2 = T.driveline_setup(q, 10, -1, q.transmission.front_drive, 0)
    assert not s2.front_driven and s2.overall_ratio == pytest.approx(-59.69)
    assert s2.front_speed_ratio == pytest.approx(0.905 / 0.707)


@pytest.mark.parametrize("state, rear, front", [(0, False, False), (1, True, False), (2, True, True)])
def test_diff_lock_states(p, state, rear, front):
    assert T.diff_lock_axles(state) == (rear, front)
    s = T.driveline_setup(p, 10, 1, True, state)
    assert (s.rear_locked, s.front_locked) == (rear, front)
