"""The kinematic level (vehicles/polaris/kinematic.py): one test per rule of the page's tick, the support plane,
the vectorised step, the single-vehicle wrapper and its place behind the DBW."""
from __future__ import annotations

import math

import numpy as np
import pytest
import transforms3d

from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, UlcCmd
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.vehicles.polaris.kinematic import (KI_BRAKE, KI_DIRECTION, KI_HAS_PEDALS, KI_HAS_STEER, KI_PARK,
                                                      KI_RANGE, KI_STEER, KI_THROTTLE, KS_ACCEL_MPS2, KS_PITCH_RAD,
                                                      KS_ROLL_RAD, KS_SPEED_MPS, KS_X_M, KS_Y_M, KS_YAW_RAD,
                                                      KS_YAW_RATE_RAD_S, KS_Z_M, UNAVAILABLE, KinematicFleet,
                                                      KinematicParameters, KinematicVehicle,
                                                      calculate_acceleration_mps2, heading_rate_rad_s, step_vehicles)
from acres_dbw_sim.model.params import ParameterError
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.model.steering import steering_wheel_for_curvature_deg
from acres_dbw_sim.model.terrain import FlatTerrain, HeightMapTerrain
from acres_dbw_sim.model.inputs import VehicleInputs
from acres_dbw_sim.simulation import Simulation

DT = 1.0 / 120.0
# A test vehicle, not the Ranger: round numbers so that every expectation is hand-computable.
A_H, V_H, SLOPE_H = 3.0, 20.0, 40.0
A_L, V_L, SLOPE_L = 4.0, 10.0, 60.0
A_R, V_R, SLOPE_R = 2.0, 8.0, 30.0
D_MAX, R_MIN = 8.0, 5.0
KP = KinematicParameters({"high": A_H, "low": A_L, "reverse": A_R}, {"high": V_H, "low": V_L, "reverse": V_R},
                         {"high": SLOPE_H, "low": SLOPE_L, "reverse": SLOPE_R}, D_MAX, R_MIN, 2.8, 0.65)
SURFACES = [s.name for s in load_parameters().surfaces]


def fleet(n=1, terrain=None, **ports):
    f = KinematicFleet(n, KP, terrain if terrain is not None else FlatTerrain(), DT, SURFACES)
    f.reset(0.0, 0.0, 0.0)
    f.u[:, KI_DIRECTION] = 1.0
    for col, v in ports.items():
        f.u[:, globals()[col]] = v
    return f


# ------------------------------------------------------------------ tick rules
def test_dt_zero_returns_without_change():
    f = fleet(KI_THROTTLE=1.0, KI_STEER=0.7)
    f.s[:, KS_SPEED_MPS] = 5.0
    before = f.s.copy()
    step_vehicles(f.terrain.data, f.p, f.u, f.s, 0.0)
    assert np.array_equal(f.s, before)


@pytest.mark.parametrize("port", ["park", "no_pedal_ports"])
def test_parking_brake_or_missing_port_gives_zero_speed(port):
    f = fleet(KI_THROTTLE=1.0)
    f.s[:, KS_SPEED_MPS] = 7.0
    if port == "park":
        f.u[:, KI_PARK] = 1.0
    else:
        f.u[:, KI_HAS_PEDALS] = 0.0
    for _ in range(10):
        f.step()
    assert f.s[0, KS_SPEED_MPS] == 0.0 and f.s[0, KS_ACCEL_MPS2] == 0.0
    assert f.s[0, KS_X_M] == 0.0 and f.s[0, KS_Y_M] == 0.0


def test_throttle_and_brake_are_proportional_shares():
    # throttle share at rest on the level: a = u_t a_max
    assert calculate_acceleration_mps2(0.5, 0.0, 1.0, 0.0, 0.0, A_H, D_MAX, V_H, 0.3, DT) == pytest.approx(0.5 * A_H)
    # brake share while moving: a = -u_b d_max - a_max v / v_max
    a = calculate_acceleration_mps2(0.0, 0.25, 1.0, 10.0, 0.0, A_H, D_MAX, V_H, 0.3, DT)
    assert a == pytest.approx(-0.25 * D_MAX - A_H * 10.0 / V_H)
    # reverse drives backwards
    assert calculate_acceleration_mps2(1.0, 0.0, -1.0, 0.0, 0.0, A_R, D_MAX, V_R, 0.3, DT) == pytest.approx(-A_R)
    # neutral: no drive
    assert calculate_acceleration_mps2(1.0, 0.0, 0.0, 0.0, 0.0, A_H, D_MAX, V_H, 0.3, DT) == 0.0


def test_brake_stops_but_never_reverses_and_holds_at_rest():
    # a full brake from 0.02 m/s removes the speed within one tick and stops at 0
    a = calculate_acceleration_mps2(0.0, 1.0, 1.0, 0.02, 0.0, A_H, D_MAX, V_H, 0.3, DT)
    assert 0.02 + a * DT == 0.0
    # on a slope the brake holds up to u_b d_max
    sin_up = 0.2
    slope_a = A_H * sin_up / 0.3
    assert slope_a < D_MAX
    assert calculate_acceleration_mps2(0.0, 1.0, 1.0, 0.0, sin_up, A_H, D_MAX, V_H, 0.3, DT) == 0.0
    a = calculate_acceleration_mps2(0.0, 0.1, 1.0, 0.0, sin_up, A_H, D_MAX, V_H, 0.3, DT)
    assert a == pytest.approx(-(slope_a - 0.1 * D_MAX))


@pytest.mark.parametrize("rng,yaw,direction,slope_pct", [(0, 0.0, 1.0, SLOPE_H), (1, 0.0, 1.0, SLOPE_L),
                                                         (2, math.pi, -1.0, SLOPE_R)])
def test_full_throttle_up_the_maximum_slope_gives_zero_acceleration(rng, yaw, direction, slope_pct):
    f = fleet(terrain=FlatTerrain(grade_pct=slope_pct), KI_THROTTLE=1.0, KI_RANGE=rng, KI_DIRECTION=direction)
    f.reset(0.0, 0.0, yaw)
    for _ in range(240):
        f.step()
    assert abs(f.s[0, KS_ACCEL_MPS2]) < 1e-9
    assert abs(f.s[0, KS_SPEED_MPS]) < 1e-9
    # half the slope: half the throttle's share remains (at rest, before the resistance)
    f = fleet(terrain=FlatTerrain(grade_pct=math.tan(0.5 * math.atan(slope_pct / 100.0)) * 100.0),
              KI_THROTTLE=1.0, KI_RANGE=rng, KI_DIRECTION=direction)
    f.reset(0.0, 0.0, yaw)
    a_max = (A_H, A_L, A_R)[rng]
    sin_max = math.sin(math.atan(slope_pct / 100.0))
    f.step()
    assert f.s[0, KS_ACCEL_MPS2] * direction == pytest.approx(a_max * (1.0 - math.sin(0.5 * math.atan(
        slope_pct / 100.0)) / sin_max), rel=1e-9)


def test_coasting_downhill_accelerates_with_the_slope_term():
    f = fleet(terrain=FlatTerrain(grade_pct=-SLOPE_H))   # facing +x: downhill
    f.step()
    sin_down = math.sin(math.atan(SLOPE_H / 100.0))
    assert f.s[0, KS_ACCEL_MPS2] == pytest.approx(A_H * sin_down / sin_down)


@pytest.mark.parametrize("rng,v_max", [(0, V_H), (1, V_L)])
def test_resistance_caps_the_speed_at_the_maximum(rng, v_max):
    f = fleet(KI_THROTTLE=1.0, KI_RANGE=rng)
    a_max = (A_H, A_L)[rng]
    speeds = []
    for _ in range(int(20 * v_max / a_max / DT)):      # 20 time constants v_max / a_max
        f.step()
        speeds.append(f.s[0, KS_SPEED_MPS])
    speeds = np.array(speeds)
    assert speeds.max() <= v_max
    assert np.all(np.diff(speeds) >= 0.0)
    assert speeds[-1] == pytest.approx(v_max, rel=1e-6)


def test_heading_rate_is_steering_times_speed_over_turning_radius():
    assert heading_rate_rad_s(0.5, 4.0, R_MIN) == pytest.approx(0.5 * 4.0 / R_MIN)
    assert heading_rate_rad_s(0.5, 0.0, R_MIN) == 0.0
    f = fleet(KI_STEER=0.5)
    f.s[:, KS_SPEED_MPS] = 4.0
    f.p[:, 0] = 0.0                                      # no brake, no resistance change to check:
    f.step()
    assert f.s[0, KS_YAW_RAD] == pytest.approx(0.5 * 4.0 / R_MIN * DT, rel=1e-12)
    assert f.s[0, KS_YAW_RATE_RAD_S] == pytest.approx(0.5 * 4.0 / R_MIN, rel=1e-12)
    # without a valid steering port the heading holds
    g = fleet(KI_STEER=0.5, KI_HAS_STEER=0.0)
    g.s[:, KS_SPEED_MPS] = 4.0
    g.step()
    assert g.s[0, KS_YAW_RAD] == 0.0


def test_steady_turn_is_a_circle_of_r_min_over_steer():
    f = fleet(KI_STEER=1.0, KI_THROTTLE=0.25)            # steady speed 0.25 v_max
    f.s[:, KS_SPEED_MPS] = 0.25 * V_H
    xs, ys = [], []
    for _ in range(int(2 * math.pi * R_MIN / (0.25 * V_H) / DT)):
        f.step()
        xs.append(f.s[0, KS_X_M])
        ys.append(f.s[0, KS_Y_M])
    x, y = np.array(xs), np.array(ys)
    A = np.column_stack([2.0 * x, 2.0 * y, np.ones_like(x)])
    (cx, cy, c), *_ = np.linalg.lstsq(A, x * x + y * y, rcond=None)
    assert math.sqrt(c + cx * cx + cy * cy) == pytest.approx(R_MIN, rel=1e-4)
    # centre (0, R_min), shifted back by half a step's travel v dt / 2 by the position update of step 6
    assert cx == pytest.approx(-0.5 * 0.25 * V_H * DT, rel=1e-3) and cy == pytest.approx(R_MIN, rel=1e-4)


def test_position_advances_by_the_new_speed_along_the_new_heading():
    f = fleet(KI_THROTTLE=1.0, KI_STEER=0.3)
    f.s[:, KS_SPEED_MPS] = 2.0
    f.step()
    yaw = 0.3 * 2.0 / R_MIN * DT
    v = 2.0 + f.s[0, KS_ACCEL_MPS2] * DT
    assert f.s[0, KS_SPEED_MPS] == pytest.approx(v)
    assert f.s[0, KS_X_M] == pytest.approx(math.cos(yaw) * v * DT, rel=1e-12)
    assert f.s[0, KS_Y_M] == pytest.approx(math.sin(yaw) * v * DT, rel=1e-12)


# ------------------------------------------------------------------ support plane
@pytest.mark.parametrize("grade,bank,yaw", [(10.0, 0.0, 0.0), (0.0, 15.0, 0.0), (10.0, -5.0, 0.7), (-20.0, 8.0, 2.5)])
def test_support_plane_on_a_plane_gives_its_pitch_and_roll(grade, bank, yaw):
    f = fleet(terrain=FlatTerrain(grade_pct=grade, bank_pct=bank))
    f.reset(3.0, -2.0, yaw)
    s = f.s[0]
    assert s[KS_Z_M] == pytest.approx(0.01 * grade * 3.0 - 0.01 * bank * 2.0, abs=1e-12)
    # body axes: x is the heading projected on the plane; pitch/roll of the plane's normal
    n = np.array([-grade / 100.0, -bank / 100.0, 1.0])
    n /= np.linalg.norm(n)
    h = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    fx = h - h.dot(n) * n
    fx /= np.linalg.norm(fx)
    ly = np.cross(n, fx)
    assert s[KS_PITCH_RAD] == pytest.approx(-math.asin(fx[2]), abs=1e-12)
    assert s[KS_ROLL_RAD] == pytest.approx(math.atan2(ly[2], n[2]), abs=1e-12)
    if bank == 0.0 and yaw == 0.0:
        assert s[KS_PITCH_RAD] == pytest.approx(-math.atan(grade / 100.0))
        assert s[KS_ROLL_RAD] == pytest.approx(0.0, abs=1e-15)


def test_pose_follows_the_three_point_support_plane_on_a_height_map():
    # a bowl: z = 0.02 (x^2 + y^2) on a 0.25 m grid; the plane through the three support points differs
    # from the local tangent plane at base_footprint
    xs = np.arange(-10.0, 10.01, 0.25)
    hm = 0.02 * (xs[None, :] ** 2 + xs[:, None] ** 2)
    terr = HeightMapTerrain(hm, 0.25, (-10.0, -10.0))
    f = fleet(terrain=terr)
    x, y, yaw = 1.3, -0.7, 0.4
    f.reset(x, y, yaw)
    c, s = math.cos(yaw), math.sin(yaw)
    pts = [(x + c * 2.8, y + s * 2.8), (x - s * 0.65, y + c * 0.65), (x + s * 0.65, y - c * 0.65)]
    P = np.array([[px, py, terr.height_m(px, py)] for px, py in pts])
    n = np.cross(P[1] - P[0], P[2] - P[0])
    n /= np.linalg.norm(n) * np.sign(n[2])
    z_plane = P[0, 2] - (n[0] * (x - P[0, 0]) + n[1] * (y - P[0, 1])) / n[2]
    assert f.s[0, KS_Z_M] == pytest.approx(z_plane, abs=1e-12)
    assert abs(z_plane - terr.height_m(x, y)) > 0.005         # not the ground height under the point (8.5 mm)
    h = np.array([c, s, 0.0])
    fx = h - h.dot(n) * n
    fx /= np.linalg.norm(fx)
    assert f.s[0, KS_PITCH_RAD] == pytest.approx(-math.asin(fx[2]), abs=1e-12)
    assert f.s[0, KS_ROLL_RAD] == pytest.approx(math.atan2(np.cross(n, fx)[2], n[2]), abs=1e-12)
    # and while driving across it
    f.u[:, KI_THROTTLE] = 0.5
    for _ in range(120):
        f.step()
    x, y, yaw = f.s[0, KS_X_M], f.s[0, KS_Y_M], f.s[0, KS_YAW_RAD]
    g = fleet(terrain=terr)
    g.reset(x, y, yaw)
    assert f.s[0, KS_Z_M] == g.s[0, KS_Z_M] and f.s[0, KS_PITCH_RAD] == g.s[0, KS_PITCH_RAD]


# ------------------------------------------------------------------ vectorised = N times the single vehicle
def test_many_vehicles_in_one_step_equal_one_at_a_time():
    rng = np.random.default_rng(16)
    n = 37
    terr = FlatTerrain(grade_pct=6.0, bank_pct=-3.0)
    many = fleet(n, terrain=terr)
    many.reset(rng.uniform(-50, 50, n), rng.uniform(-50, 50, n), rng.uniform(-3, 3, n), rng.uniform(-3, 10, n))
    many.u[:, KI_THROTTLE] = rng.uniform(0, 1, n)
    many.u[:, KI_BRAKE] = rng.uniform(0, 0.3, n)
    many.u[:, KI_STEER] = rng.uniform(-1, 1, n)
    many.u[:, KI_RANGE] = rng.integers(0, 3, n)
    many.u[:, KI_DIRECTION] = rng.choice([-1.0, 0.0, 1.0], n)
    many.u[:, KI_PARK] = rng.random(n) < 0.1
    singles = []
    for i in range(n):
        one = fleet(1, terrain=terr)
        one.s[0] = many.s[i]
        one.u[0] = many.u[i]
        singles.append(one)
    for _ in range(100):
        many.step()
        for one in singles:
            one.step()
    assert np.array_equal(many.s, np.vstack([o.s for o in singles]))


def test_fleet_rejects_bad_sizes():
    with pytest.raises(ValueError, match="n="):
        KinematicFleet(0, KP)
    with pytest.raises(ValueError, match="parameter sets"):
        KinematicFleet(3, [KP, KP])
    with pytest.raises(ValueError, match="dt_s"):
        KinematicFleet(2, KP, dt_s=0.0)


# ------------------------------------------------------------------ the single vehicle behind the DBW
def kin_vehicle(terrain=None, gear=Gear.DRIVE):
    v = KinematicVehicle(terrain=terrain)
    v.reset(gear=gear)
    return v


def test_shipped_parameters_have_a_kinematic_block():
    k = KinematicParameters.from_vehicle_parameters(load_parameters())
    for rng in ("high", "low", "reverse"):
        assert k.accel_max_mps2[rng] > 0.0 and k.speed_max_mps[rng] > 0.0 and k.slope_max_pct[rng] > 0.0
    assert k.speed_max_mps["low"] < k.speed_max_mps["high"]
    assert k.slope_max_pct["low"] >= k.slope_max_pct["high"]


def test_missing_or_bad_kinematic_key_is_named():
    with pytest.raises(ParameterError, match="kinematic.decel_max_mps2"):
        KinematicVehicle(load_parameters(overrides="kinematic.decel_max_mps2=-1"))


def test_vehicle_in_park_does_not_move_and_reverse_goes_back():
    v = kin_vehicle(gear=Gear.PARK)
    inp = VehicleInputs(pedal=1.0, steering_wheel_deg=v.params.steering.center_deg)
    for _ in range(120):
        v.step(inp)
    assert v.speed_mps == 0.0 and v.position_m[0] == pytest.approx(0.0, abs=1e-12)
    inp.gear_request = Gear.REVERSE
    for _ in range(240):
        v.step(inp)
        inp.gear_request = Gear.NONE
    assert v.gear == Gear.REVERSE and v.speed_mps < -1.0 and v.position_m[0] < 0.0


def test_vehicle_steering_port_is_tan_delta_over_tan_lock():
    v = kin_vehicle()
    P = v.params
    kappa = 0.1
    sw = steering_wheel_for_curvature_deg(kappa, P.geometry.wheelbase_m, P.steering.ratio, P.steering.center_deg)
    s, delta, _ = v.steering_port(sw)
    assert math.tan(delta) / P.geometry.wheelbase_m == pytest.approx(kappa)
    lock = P.kit.steering_lock_deg
    tan_locks = [abs(math.tan(v.steering_port(a)[1])) for a in (lock, -lock)]
    assert s == pytest.approx(kappa * P.geometry.wheelbase_m / max(tan_locks), rel=1e-12)
    # +/-1 at the rack stops (symmetric about straight ahead, as the full model's), never beyond; the DBW's
    # raw command limit reaches the right stop but stops 12.5 deg of steering wheel short of the left one
    assert tan_locks[1] > tan_locks[0]
    assert v.steering_port(-lock)[0] == pytest.approx(-1.0) and v.steering_port(-1e4)[0] == pytest.approx(-1.0)
    assert 0.9 < v.steering_port(lock)[0] < 1.0
    assert v.steering_port(1e4)[0] == pytest.approx(1.0)
    assert v.steering_port(math.nan)[0] == 0.0


def test_vehicle_outputs_are_finite_where_modelled_and_nan_where_not():
    v = kin_vehicle(terrain=FlatTerrain(grade_pct=8.0))
    inp = VehicleInputs(pedal=0.6, steering_wheel_deg=v.params.steering.center_deg + 90.0)
    for _ in range(240):
        v_prev = v.speed_mps
        v.step(inp)
    for name in ("position_m", "orientation_wxyz", "velocity_body_mps", "angular_velocity_body_rad_s",
                 "specific_force_body_mps2", "wheel_spin_rad_s", "road_wheel_angle_rad"):
        assert all(math.isfinite(x) for x in getattr(v, name)), name
    assert sum(q * q for q in v.orientation_wxyz) == pytest.approx(1.0)
    for name in ("engine_rpm", "engine_torque_nm", "cvt_ratio", "fuel_l", "clutch_torque_nm"):
        assert math.isnan(getattr(v, name)), name
    assert all(math.isnan(x) for x in v.wheel_load_n)
    # accelerometer: (a, v psi_dot, 0) plus gravity in the body frame; gyro: psi_dot about odom z
    R = transforms3d.quaternions.quat2mat(v.orientation_wxyz)
    g_body = R.T @ np.array([0.0, 0.0, 9.80665])
    a = (v.speed_mps - v_prev) / v.dt_s
    assert np.allclose(v.specific_force_body_mps2, g_body + [a, v.speed_mps * v.yaw_rate_rad_s, 0.0], atol=1e-9)
    assert np.allclose(R @ np.array(v.angular_velocity_body_rad_s), [0.0, 0.0, v.yaw_rate_rad_s], atol=1e-12)
    assert g_body[0] > 0.0                       # climbing: gravity's share along the nose
    assert v.yaw_rate_rad_s > 0.0 and v.speed_mps > 0.0
    # joint states: the wheel angles integrate the rolling speeds (outer rear wheel faster)
    assert v.wheel_angle_rad[3] > v.wheel_angle_rad[2] > 0.0


# ------------------------------------------------------------------ the Simulation
def test_simulation_rejects_an_unknown_model():
    with pytest.raises(ValueError, match="model='quantum'"):
        Simulation(model="quantum")


def test_simulation_kinematic_same_dbw_and_nan_for_what_it_lacks():
    sim = Simulation(model="kinematic", gear=Gear.PARK)
    sim.submit(ENABLE)
    sim.step()
    assert sim.dbw_enabled
    sim.submit(GearCmd(cmd=int(Gear.DRIVE)))
    for _ in range(120):
        sim.step()
    assert sim.vehicle.gear == Gear.DRIVE
    ulc = UlcCmd(cmd=4.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True)
    for k in range(int(15.0 / sim.dt_s)):
        if k % 2 == 0:
            sim.submit(ulc)
        sim.step()
    assert sim.dbw_enabled
    assert sim.vehicle.speed_mps == pytest.approx(4.0, abs=0.25)
    rep = sim.reports()
    for msg, names in UNAVAILABLE.items():
        for name in names:
            assert math.isnan(getattr(getattr(rep, msg), name)), (msg, name)
    assert math.isnan(rep.fuel_level.fuel_level)
    assert rep.vehicle_velocity.vehicle_velocity_brake == pytest.approx(sim.vehicle.speed_mps, abs=0.05)
    # the full model fills the same fields
    full = Simulation(gear=Gear.DRIVE).reports()
    assert math.isfinite(full.throttle_info.engine_rpm) and full.throttle_info.engine_rpm > 0.0
