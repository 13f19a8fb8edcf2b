"""Maxxum 150 steering chain and Ackermann (maxxum-150-dynamics.md, "Steering")."""
import math

import numpy as np
import pytest

from acres_dbw_sim.model import filters as F
from acres_dbw_sim.vehicles.maxxum150 import steering as S
from acres_dbw_sim.vehicles.maxxum150.params import load_maxxum_parameters

DT = 1.0 / 120.0


@pytest.fixture(scope="module")
def p():
    return load_maxxum_parameters()


def test_full_lock_geometry(p):
    L, T, d = p.chassis.wheelbase_m, p.chassis.track_m, p.steering.max_steer_rad
    assert round(S.turn_radius_m(d, L), 2) == 3.38
    left, right = S.front_wheel_angles_rad(d, L, T)
    assert round(math.degrees(left), 1) == 47.4     # a left turn: the left wheel is inner
    assert round(math.degrees(right), 1) == 31.4
    left, right = S.front_wheel_angles_rad(-d, L, T)
    assert round(math.degrees(right), 1) == -47.4 and round(math.degrees(left), 1) == -31.4
    assert S.front_wheel_angles_rad(5e-6, L, T) == (0.0, 0.0)


def _run(p, tau_s, seconds=3.0, start=None):
    st = p.steering
    n = F.delay_steps(st.delay_s, DT, "ceil")
    buf = np.zeros(n)
    delta = -st.max_steer_rad if start is None else start
    buf[:] = delta
    head = 0
    out = []
    for _ in range(int(seconds / DT)):
        delta, head = S.step_steering(delta, buf, head, st.max_steer_rad, tau_s, st.max_steer_rad, st.rate_rad_s,
                                      DT)
        out.append(delta)
    return np.array(out)


def test_delay_is_newest_command_at_least_tau_old(p):
    assert F.delay_steps(0.12, DT, "ceil") == 15      # 14.4 steps: the command of 15 steps ago
    assert F.delay_steps(0.125, DT, "ceil") == 15
    assert F.delay_steps(0.0, DT, "ceil") == 0
    buf = np.zeros(15)
    head, seen = 0, []
    for k in range(20):
        d1, head = F.delay_push(buf, head, float(k + 1))
        seen.append(d1)
    assert seen[:15] == [0.0] * 15 and seen[15:] == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_chain_lock_to_lock_in_19s_at_the_rate_limit(p):
    st = p.steering
    # without the lag the chain moves lock to lock in exactly 2 delta_max / rate after the delay
    tr = _run(p, 0.0)
    t_start = 15 * DT
    t_end = (np.argmax(tr >= st.max_steer_rad - 1e-12) + 1) * DT
    assert t_end - t_start == pytest.approx(1.9, abs=1.5 * DT)
    # with the shipped lag the rate limit still governs most of the travel; the lag adds a tail
    tr = _run(p, st.time_constant_s)
    rate = np.diff(tr) / DT
    assert rate.max() == pytest.approx(st.rate_rad_s)
    assert np.all(rate <= st.rate_rad_s * (1 + 1e-9))
    t_95 = (np.argmax(tr >= st.max_steer_rad - 0.05 * 2 * st.max_steer_rad) + 1) * DT
    assert 1.9 < t_95 < 2.1   # 1.97 s: 0.125 s delay, 1.72 s at the rate limit, the lag's tail
    assert tr[-1] == pytest.approx(st.max_steer_rad, abs=1e-3)


def test_lock_clamps_command(p):
    st = p.steering
    d = S.lock_and_rate_limit(st.max_steer_rad, 2.0, st.max_steer_rad, st.rate_rad_s, DT)
    assert d == st.max_steer_rad
    d = S.lock_and_rate_limit(0.0, 2.0, st.max_steer_rad, st.rate_rad_s, DT)
    assert d == pytest.approx(st.rate_rad_s * DT)


def test_dbw_steering_ratio(p):
    assert S.steering_command_rad(487.0, p.dbw_steering_ratio) == pytest.approx(math.radians(487 / 12.8))
    assert S.steering_command_rad(487.0, p.dbw_steering_ratio) >= p.steering.max_steer_rad
