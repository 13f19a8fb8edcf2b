"""Actuator pieces, step responses (dead time + lag), rate limits and floors (gaps.md, §4.5)."""

import math

import pytest

from acres_dbw_sim.dbw.actuators import (DELAY_CELLS, delay_fill, delay_line_steps, lag_line_factor, rate_accel_limit,
                                         rate_limit)
from acres_dbw_sim.dbw.commands import BrakeCmd, SteeringCmd, ThrottleCmd
from acres_dbw_sim.dbw.decode import decode_rate, decode_ulc_limit
from acres_dbw_sim.model.filters import delay_push, lag_toward
from helpers.dbw import DT, FakeVehicle, make, run


# ---------------------------------------------------------------- pure pieces
def _line(delay_s: float, dt_s: float, initial: float = 0.0):
    """A dead-time line as the DBW's record holds one: DELAY_CELLS cells, the first n in use."""
    n = delay_line_steps(delay_s, dt_s)
    buf = [0.0] * DELAY_CELLS
    delay_fill(buf, n, initial)
    return buf, n


def test_dead_time_delays_by_round_delay_over_dt():
    buf, n = _line(0.05, 1.0 / 120.0)
    assert n == 6
    out, head = [], 0
    for k in range(10):
        y, head = delay_push(buf, head, float(k + 1), n)
        out.append(y)
    assert out == [0.0] * 6 + [1.0, 2.0, 3.0, 4.0]


def test_dead_time_zero_is_identity():
    buf, n = _line(0.0, 0.01)
    assert n == 0 and delay_push(buf, 0, 3.5, n) == (3.5, 0)


@pytest.mark.parametrize("delay, dt", [(-0.1, 0.01), (0.1, 0.0), (math.nan, 0.01), (1.0, 0.0005)])
def test_dead_time_rejects_bad_sizes(delay, dt):
    with pytest.raises(ValueError):   # the last: 2000 cells, more than a line of the record holds
        delay_line_steps(delay, dt)


def test_first_order_lag_reaches_63_percent_after_tau():
    a, y = lag_line_factor(0.12, 0.001), 0.0
    for _ in range(120):
        y = lag_toward(y, 1.0, a)
    assert y == pytest.approx(1.0 - math.exp(-1.0), abs=1e-9)


def test_lag_minimum_time_constant_is_a_pass_through():
    assert lag_toward(0.0, 2.0, lag_line_factor(0.0, 0.01)) == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("tau, dt", [(-0.1, 0.01), (0.1, 0.0), (math.inf, 0.01)])
def test_lag_rejects_bad_sizes(tau, dt):
    with pytest.raises(ValueError):
        lag_line_factor(tau, dt)


@pytest.mark.parametrize("prev, target, up, down, expect", [
    (0.0, 10.0, 100.0, 100.0, 1.0),     # rising, limited to 100/s * 0.01
    (0.0, -10.0, 100.0, 50.0, -0.5),    # falling, limited by rate_down
    (0.0, 0.3, 100.0, 100.0, 0.3),      # within the limit
    (0.0, 10.0, math.inf, 1.0, 10.0),   # unlimited
])
def test_rate_limit_table(prev, target, up, down, expect):
    assert rate_limit(prev, target, up, down, 0.01) == pytest.approx(expect)


def test_rate_accel_limit_respects_both_limits_and_settles_without_overshoot():
    x, v, dt = 0.0, 0.0, 0.001
    xs, vs = [], []
    for _ in range(3000):
        x, v = rate_accel_limit(x, v, 100.0, 50.0, 200.0, dt)
        xs.append(x)
        vs.append(v)
    assert max(abs(b) for b in vs) <= 50.0 + 1e-9
    acc = [abs(vs[i + 1] - vs[i]) / dt for i in range(len(vs) - 1)]
    assert max(acc) <= 200.0 + 1e-6
    assert max(xs) <= 100.0 + 1e-9
    assert xs[-1] == pytest.approx(100.0)


# ---------------------------------------------------------------- decoders (§4.5)
@pytest.mark.parametrize("raw, expect", [
    (0.0, 500.0),            # 0 = firmware default
    (math.nan, 500.0),       # NaN = default
    (math.inf, math.inf),    # unlimited
    (-1.0, math.inf),        # negative = unlimited
    (10.0, 100.0),           # raised to the 100 deg/s floor
    (1.0, 100.0),            # below half a step: smallest code, then floor
    (301.0, 300.0),          # quantised to 4 deg/s
    (5000.0, 1016.0),        # largest code 254 * 4
    ("fast", 500.0),         # wrong type read as NaN -> default
])
def test_steering_rate_field(raw, expect):
    assert decode_rate(raw, 4.0, 100.0, 500.0) == expect


@pytest.mark.parametrize("raw, lo, hi, expect", [
    (0.0, 0.3, 3.0, 1.0), (math.inf, 0.3, 3.0, 3.0), (-2.0, 0.3, 6.0, 6.0),
    (0.1, 0.3, 3.0, 0.3), (10.0, 0.3, 3.0, 3.0), (1.5, 0.3, 3.0, 1.5), (1.012, 0.3, 3.0, 1.0), (1.013, 0.3, 3.0, 1.025),
])
def test_ulc_limit_field(raw, lo, hi, expect):
    assert decode_ulc_limit(raw, 0.025, lo, hi, 1.0) == pytest.approx(expect)


# ---------------------------------------------------------------- step responses
def _pressure_step(dbw, veh, bar, **kw):
    rec = []
    every = lambda k, t: dbw.submit(BrakeCmd(cmd=bar, cmd_type=1, enable=True, **kw), t) if k % 2 == 0 else None
    run(dbw, veh, 0.0, 1.5, every, record=rec)
    # (time at the end of the step, line pressure)
    return [(t + DT, p) for (t, _, p, _, _) in rec]


def _value_at(series, t_query):
    for (t0, y0), (t1, y1) in zip(series, series[1:]):
        if t0 <= t_query <= t1:
            return y0 + (y1 - y0) * (t_query - t0) / (t1 - t0)
    raise AssertionError("time out of range")


@pytest.mark.parametrize("dt", [1.0 / 120.0, 1.0 / 1000.0])
def test_brake_step_dead_time_and_lag(dt):
    dbw, veh = make(dt=dt), FakeVehicle()
    dbw.enable(0.0)
    rec = []
    every = lambda k, t: dbw.submit(BrakeCmd(cmd=40.0, cmd_type=1, enable=True), t) if k % max(1, int(0.02 / dt)) == 0 else None
    run(dbw, veh, 0.0, 1.5, every, dt=dt, record=rec)
    series = [(t + dt, p) for (t, _, p, _, _) in rec]
    assert _value_at(series, 0.05 - 0.5 * dt) < 0.02 * 40.0  # nothing during the dead time
    # 63.2 % at dead time + lag; the 300 bar/s limit slows the first 4 bar by < 1 ms
    assert _value_at(series, 0.05 + 0.12) == pytest.approx(0.632 * 40.0, rel=0.03)
    assert series[-1][1] == pytest.approx(40.0, abs=0.05)
    slope = max((p1 - p0) / dt for (_, p0), (_, p1) in zip(series, series[1:]))
    assert slope <= 300.0 + 1e-6


def test_brake_large_step_is_rate_limited_to_300_bar_per_s():
    dbw, veh = make(**{"dbw.brake.lag_s": 0.0}), FakeVehicle()
    dbw.enable(0.0)
    series = _pressure_step(dbw, veh, 80.0)
    slope = max((p1 - p0) / DT for (_, p0), (_, p1) in zip(series, series[1:]))
    assert slope == pytest.approx(300.0, rel=1e-6)


@pytest.mark.parametrize("dt", [1.0 / 120.0, 1.0 / 1000.0])
def test_throttle_step_dead_time_and_lag(dt):
    dbw, veh = make(dt=dt), FakeVehicle()
    dbw.enable(0.0)
    rec = []
    every = lambda k, t: dbw.submit(ThrottleCmd(cmd=50.0, cmd_type=14, enable=True), t) if k % max(1, int(0.02 / dt)) == 0 else None
    run(dbw, veh, 0.0, 1.0, every, dt=dt, record=rec)
    series = [(t + dt, pedal) for (t, pedal, _, _, _) in rec]
    dead = round(0.02 / dt) * dt  # the buffer holds round(delay / dt) steps (STYLE.md)
    assert _value_at(series, dead - 0.5 * dt) < 0.01
    assert _value_at(series, dead + 0.05) == pytest.approx(0.632 * 0.5, rel=0.02)
    assert series[-1][1] == pytest.approx(0.5, abs=1e-3)


def test_steering_step_unlimited_rate_dead_time_and_lag():
    # without the servo's rate ceiling (dbw.steering.max_rate_deg_s) an unlimited cmd_rate shows
    # the bare dead time and lag
    dbw, veh = make(**{"dbw.steering.max_rate_deg_s": math.inf}), FakeVehicle()
    dbw.enable(0.0)
    c = dbw.p.steering_center_deg
    rec = []
    cmd = SteeringCmd(cmd=c + 100.0, cmd_rate=-1.0, cmd_accel=-1.0, cmd_type=2, enable=True)
    every = lambda k, t: dbw.submit(cmd, t) if k % 2 == 0 else None
    run(dbw, veh, 0.0, 1.0, every, record=rec)
    series = [(t + DT, a - c) for (t, _, _, a, _) in rec]
    assert abs(_value_at(series, 0.04 - 0.5 * DT)) < 1.0
    assert _value_at(series, 0.04 + 0.06) == pytest.approx(63.2, rel=0.03)
    assert series[-1][1] == pytest.approx(100.0, abs=0.05)


@pytest.mark.parametrize("cmd_rate, expect_rate", [
    (0.0, 500.0),     # default 500 deg/s
    (10.0, 100.0),    # floor 100 deg/s
    (200.0, 200.0),
])
def test_steering_rate_limits_with_default_and_floor(cmd_rate, expect_rate):
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    rec = []
    cmd = SteeringCmd(cmd=400.0, cmd_rate=cmd_rate, cmd_accel=-1.0, cmd_type=2, enable=True)
    every = lambda k, t: dbw.submit(cmd, t) if k % 2 == 0 else None
    run(dbw, veh, 0.0, 5.0, every, record=rec)
    angles = [a for (_, _, _, a, _) in rec]
    rates = [(b - a) / DT for a, b in zip(angles, angles[1:])]
    assert max(rates) == pytest.approx(expect_rate, rel=0.01)
    rep = dbw.reports(5.0).steering_report
    assert rep.limit_rate == expect_rate


def test_steering_default_acceleration_limit():
    dbw, veh = make(**{"dbw.steering.lag_s": 0.0}), FakeVehicle()
    dbw.enable(0.0)
    rec = []
    cmd = SteeringCmd(cmd=300.0, cmd_type=2, enable=True)
    every = lambda k, t: dbw.submit(cmd, t) if k % 2 == 0 else None
    run(dbw, veh, 0.0, 2.0, every, record=rec)
    angles = [a for (_, _, _, a, _) in rec]
    rates = [(b - a) / DT for a, b in zip(angles, angles[1:])]
    acc = [(b - a) / DT for a, b in zip(rates, rates[1:])]
    assert max(abs(x) for x in acc) <= 2500.0 * 1.01  # the last step snaps onto the target
    assert max(rates) == pytest.approx(500.0, rel=0.01)


def test_brake_rate_inc_floor_20_bar_per_s():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = lambda k, t: dbw.submit(BrakeCmd(cmd=40.0, rate_inc=5.0, cmd_type=1, enable=True), t) if k % 2 == 0 else None
    t = run(dbw, veh, 0.0, 1.0, every)
    # set-point rises at the 20 bar/s floor, not 5 bar/s
    assert dbw.brake.setpoint_bar == pytest.approx(20.0, abs=0.5)
    rep = dbw.reports(t).brake_report
    assert rep.limiting_rate and rep.pressure_cmd == pytest.approx(20.0, abs=0.5)


def test_brake_percent_rate_floor_50_pct_per_s():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = lambda k, t: dbw.submit(BrakeCmd(cmd=100.0, rate_inc=1.0, cmd_type=14, enable=True), t) if k % 2 == 0 else None
    run(dbw, veh, 0.0, 1.0, every)
    assert dbw.brake.setpoint_bar == pytest.approx(0.5 * 80.0, abs=1.0)  # 50 %/s for 1 s


def test_throttle_rate_floor_100_pct_per_s_and_dec():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = lambda k, t: dbw.submit(ThrottleCmd(cmd=80.0, rate_inc=20.0, rate_dec=150.0, cmd_type=14, enable=True), t) if k % 2 == 0 else None
    t = run(dbw, veh, 0.0, 0.5, every)
    assert dbw.throttle.setpoint_pct == pytest.approx(50.0, abs=1.0)  # floor 100 %/s
    t = run(dbw, veh, t, 0.5, every)
    every0 = lambda k, t: dbw.submit(ThrottleCmd(cmd=0.0, rate_dec=150.0, cmd_type=14, enable=True), t) if k % 2 == 0 else None
    run(dbw, veh, t, 0.2, every0)
    assert dbw.throttle.setpoint_pct == pytest.approx(80.0 - 0.2 * 150.0, abs=1.5)


def test_disengaged_brake_releases_to_the_driver_pedal():
    dbw, veh = make(), FakeVehicle()
    dbw.enable(0.0)
    every = lambda k, t: dbw.submit(BrakeCmd(cmd=60.0, cmd_type=1, enable=True), t) if k % 2 == 0 else None
    t = run(dbw, veh, 0.0, 1.0, every)
    from acres_dbw_sim.dbw.state import DriverInput
    dbw.set_driver(DriverInput(brake_pedal_pct=10.0))  # 8 bar, below the override threshold
    t = run(dbw, veh, t, 2.0)  # stream stops -> timeout -> release
    assert dbw.outputs.brake_line_bar == pytest.approx(8.0, abs=0.01)


def test_throttle_goes_to_the_driver_pedal_when_not_enabled():
    dbw, veh = make(), FakeVehicle()
    from acres_dbw_sim.dbw.state import DriverInput
    dbw.set_driver(DriverInput(accel_pedal_pct=30.0))
    run(dbw, veh, 0.0, 0.1)
    assert dbw.outputs.pedal == pytest.approx(0.30)
