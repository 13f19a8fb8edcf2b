"""The composed Maxxum 150 (vehicles/maxxum150/vehicle.py) against the page's figures (maxxum-150-dynamics.md).

The parts are tested one by one in the other test_maxxum_*.py files; here the whole step runs: the
tractor's own parts with the shared stages (stages.py) and the shared driveline solve.
"""
import math

import pytest

from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.vehicles.maxxum150.implement import asabe_draft_n
from acres_dbw_sim.vehicles.maxxum150.params import load_maxxum_parameters
from acres_dbw_sim.vehicles.maxxum150.vehicle import Tractor, TractorInputs

DT = 1.0 / 120.0
CHISEL = 'implement.attachment="mounted";implement.type="chisel";implement.width_m=3.0;implement.depth_cm=18.0'


def _scripted(t: Tractor) -> dict:
    """The page's scripted test: brake 3 s, command 0.7 until 11 s, then brake; 2040 steps."""
    seen = {}
    for i in range(2040):
        ts = i * DT
        t.step(TractorInputs(throttle=0.7 if 3.0 <= ts < 11.0 else 0.0, brake=0.0 if 3.0 <= ts < 11.0 else 1.0))
        if i == 1319:
            seen["rpm"], seen["kmh"] = t.engine_rpm, 3.6 * t.speed_mps
    seen["loads"] = t.wheel_load_n
    return seen


def test_scripted_test_on_concrete():
    t = Tractor()
    t.reset(gear=10)
    r = _scripted(t)
    assert r["rpm"] == pytest.approx(1842.0, abs=3.0)       # page: 1842 rev/min
    assert round(r["kmh"], 1) == pytest.approx(10.6, abs=0.051)   # page: 10.6 km/h
    assert r["loads"][2] == pytest.approx(17.12e3, abs=10.0)  # page: a rear wheel carries 17.12 kN at rest
    assert t.speed_mps == pytest.approx(0.0, abs=1e-3)
    assert abs(t.ledger.relative_residual) < 3e-4


def test_at_rest_loads_carry_the_weight():
    t = Tractor()
    for _ in range(240):
        t.step(TractorInputs(park_brake=True))
    loads = t.wheel_load_n
    assert loads[0] == pytest.approx(11.42e3, abs=10.0) and loads[2] == pytest.approx(17.12e3, abs=10.0)
    assert sum(loads) == pytest.approx(5820.0 * G_MPS2, rel=1e-6)
    # the suspension: tyre in series with the axle (page: 177.2 and 335.1 kN/m, 20.1 and 33.9 kN s/m)
    assert t.rates_n_m[0] == pytest.approx(177.2e3, rel=2e-3) and t.rates_n_m[2] == pytest.approx(335.1e3, rel=2e-3)
    assert t.dampers_n_s_m[0] == pytest.approx(20.1e3, rel=5e-3) and t.dampers_n_s_m[2] == pytest.approx(33.9e3,
                                                                                                          rel=5e-3)


def test_carried_implement_moves_the_load_and_the_dampers():
    p = load_maxxum_parameters(overrides=CHISEL)
    t = Tractor(p)
    bare = Tractor()
    assert t.mass.mass_kg == pytest.approx(5820.0 + p.implement.mass_kg)
    assert t.mass.static_loads_n[2] > bare.mass.static_loads_n[2]      # the hitch load goes to the rear
    assert t.mass.static_loads_n[0] < bare.mass.static_loads_n[0]
    assert t.dampers_n_s_m[2] > bare.dampers_n_s_m[2]                  # C = 2 zeta sqrt(k N_0 / g) again
    for _ in range(240):
        t.step(TractorInputs(park_brake=True))
    assert sum(t.wheel_load_n) == pytest.approx(t.mass.mass_kg * G_MPS2, rel=1e-6)
    assert t.wheel_load_n[2] == pytest.approx(t.mass.static_loads_n[2], rel=1e-4)
    # a payload below the page's thresholds writes nothing; a real one re-computes the loads
    assert not t.set_payload(0.3)
    assert t.set_payload(800.0)
    assert t.mass.mass_kg == pytest.approx(5820.0 + p.implement.empty_mass_kg + 800.0)
    for _ in range(360):
        t.step(TractorInputs(park_brake=True))
    assert sum(t.wheel_load_n) == pytest.approx(t.mass.mass_kg * G_MPS2, rel=1e-5)
    with pytest.raises(ValueError, match="rated_payload"):
        t.set_payload(1e6)
    with pytest.raises(ValueError, match="attachment"):
        bare.set_payload(10.0)


def test_gear_change_drops_the_engagement():
    t = Tractor()
    t.reset(gear=9)
    for _ in range(600):
        t.step(TractorInputs(throttle=0.8))
    assert t.clutch_engagement == 1.0
    t.step(TractorInputs(throttle=0.8, gear_request=10))
    low = t.clutch_engagement
    while t.shift_in_progress:
        t.step(TractorInputs(throttle=0.8))
        low = min(low, t.clutch_engagement)
    assert t.gear == 10
    assert low == pytest.approx(0.635, abs=0.01)                       # page: about 0.63
    assert low * t.params.transmission.clutch_capacity_nm == pytest.approx(570.0, abs=5.0)
    for _ in range(240):
        t.step(TractorInputs(throttle=0.8))
    assert t.clutch_engagement == 1.0


def test_steering_lock_and_lock_to_lock():
    t = Tractor()
    lock = t.params.steering.max_steer_rad
    for _ in range(360):
        t.step(TractorInputs(steering_rad=-2.0))
    assert t.bicycle_angle_rad == pytest.approx(-lock)
    t0, t1 = None, None
    for i in range(480):
        t.step(TractorInputs(steering_rad=2.0))
        if t0 is None and t.bicycle_angle_rad > -lock:
            t0 = t.time_s
        if t1 is None and t.bicycle_angle_rad >= lock:
            t1 = t.time_s
    assert t1 - t0 == pytest.approx(1.9, abs=2 * DT)                  # page: lock to lock in 1.9 s
    left, right = t.road_wheel_angle_rad[:2]
    assert round(math.degrees(left), 1) == 47.4 and round(math.degrees(right), 1) == 31.4
    assert round(t.turn_radius_m, 2) == 3.38


def test_engine_without_load_in_neutral():
    t = Tractor()
    for _ in range(1200):
        t.step(TractorInputs(throttle=1.0, neutral=True))
    assert t.engine_rpm == pytest.approx(2267.0, abs=4.0)              # page: 2267 rev/min
    for _ in range(1200):
        t.step(TractorInputs(throttle=0.7, neutral=True))
    assert t.engine_rpm == pytest.approx(1850.0, abs=8.0)              # page: 1850 rev/min (drag: 1844)


def test_pto_hand_throttle_and_shaft_speed():
    t = Tractor()
    t.engage_pto(540)
    assert t.hand_throttle == pytest.approx(0.81, abs=0.005)
    for _ in range(1200):
        t.step(TractorInputs(neutral=True))
    assert t.pto_shaft_rpm == pytest.approx(t.engine_rpm * 540.0 / t.params.pto.pto_540_engine_rpm)
    t.engage_pto(0)
    t.nudge_hand_throttle(-2)
    assert t.hand_throttle == pytest.approx(0.71, abs=0.005)
    with pytest.raises(ValueError):
        t.engage_pto(750)


@pytest.mark.parametrize("surface, expect_draft", [("concrete", False), ("silt_loam", True)])
def test_mounted_draft_only_on_deformable_ground(surface, expect_draft):
    p = load_maxxum_parameters(overrides=CHISEL)
    t = Tractor(p, FlatTerrain(surface=surface))
    t.reset(gear=7)
    for _ in range(30 * 120):
        t.step(TractorInputs(throttle=0.9))
    f = math.hypot(*t.implement_force_n[:2])
    if not expect_draft:
        assert f == 0.0 and t.ledger.implement_j == 0.0
        return
    # the ASABE draft of a 3 m chisel (10 tools), 18 cm deep, at the lagged speed; silt loam is a medium
    # texture (F_i = 0.85 for the chisel)
    s = t._draft_speed_kmh
    expected = asabe_draft_n(91.0, 5.4, 0.0, 0.85, s, 10, 18.0) * math.tanh(t.speed_mps / 0.2)
    assert f == pytest.approx(expected, rel=1e-3)
    assert s == pytest.approx(3.6 * t.speed_mps, rel=1e-3)              # steady: the lag has caught up
    assert t.ledger.implement_j > 0.0


@pytest.mark.parametrize("attachment", ["mounted", "trailed"])
def test_ledger_closes_over_60_s_with_an_implement_on_silt_loam(attachment):
    p = load_maxxum_parameters(overrides=CHISEL.replace('"mounted"', f'"{attachment}"'))
    t = Tractor(p, FlatTerrain(surface="silt_loam"))
    t.reset(gear=7)
    for i in range(60 * 120):
        ts = i * DT
        t.step(TractorInputs(throttle=0.9 if ts < 45 else 0.0, brake=0.0 if ts < 45 else 0.5,
                             steering_rad=0.25 if 15 < ts < 25 else 0.0, gear_request=8 if ts > 30 else 0))
    L = t.ledger
    assert L.soil_j > 0.0 and L.implement_j > 0.0
    assert abs(L.relative_residual) < 3e-4                              # below 0.03 % of the fuel energy


def test_trailer_follows_and_pulls_back():
    p = load_maxxum_parameters(overrides=CHISEL.replace('"mounted"', '"trailed"'))
    t = Tractor(p, FlatTerrain(surface="silt_loam"))
    t.reset(gear=6)
    for i in range(40 * 120):
        t.step(TractorInputs(throttle=0.9, steering_rad=0.3 if 10 < i * DT < 25 else 0.0))
    hx, hy = t.trailer_pin_m
    ax, ay = t.trailer_axle_m
    assert math.hypot(hx - ax, hy - ay) == pytest.approx(t._trailer_length_m, rel=1e-9)
    assert abs(t.articulation_angle_rad) < 0.05                         # straight again: in line
    yaw = math.atan2(2 * (t.orientation_wxyz[0] * t.orientation_wxyz[3]), 1 - 2 * t.orientation_wxyz[3] ** 2)
    fx, fy, fz = t.implement_force_n
    assert fx * math.cos(yaw) + fy * math.sin(yaw) < 0.0                # the draft pulls back
    assert fz == pytest.approx(-p.implement.hitch_transfer * p.implement.mass_kg * G_MPS2)


def test_mfd_and_diff_lock_states_drive():
    t = Tractor()
    t.reset(gear=8)
    for _ in range(600):
        t.step(TractorInputs(throttle=0.8))
    assert t.front_engaged == (True, True)
    assert t.wheel_spin_rad_s[0] * 0.707 > t.wheel_spin_rad_s[2] * 0.905   # the front lead
    t.set_drive(front_drive=False)
    for _ in range(240):
        t.step(TractorInputs(throttle=0.8))
    assert t.front_engaged == (False, False)
    assert t.wheel_fx_n[0] < 0.0 < t.wheel_fx_n[2]                        # rolling front, driven rear
    with pytest.raises(ValueError):
        t.set_drive(diff_lock=3)


def test_bad_commands_are_taken_as_zero():
    t = Tractor()
    t.step(TractorInputs(throttle=math.nan, brake=math.inf, steering_rad=math.nan))
    assert all(math.isfinite(v) for v in t.position_m + t.wheel_load_n)
    assert t.clutch_engagement == 0.0
