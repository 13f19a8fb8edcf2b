"""Maxxum 150 brakes, air drag, front-axle oscillation and the legacy implement (maxxum-150-dynamics.md,
"Brakes and Park Brake", "Chassis and Mass Properties", "Front-Axle Oscillation", "Legacy Tractor",
"Implement Coupling")."""
import math

import pytest

from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.model.resistances import aero_drag_n
from acres_dbw_sim.model.stages import load_brake_torque_nm
from acres_dbw_sim.vehicles.maxxum150 import brakes as B
from acres_dbw_sim.vehicles.maxxum150 import chassis as CH
from acres_dbw_sim.vehicles.maxxum150 import implement as I
from acres_dbw_sim.vehicles.maxxum150.params import load_maxxum_parameters

DT = 1.0 / 120.0


@pytest.fixture(scope="module")
def p():
    return load_maxxum_parameters()


def test_brake_torque_proportional_to_load(p):
    g = p.constants.brake_gain
    assert load_brake_torque_nm(0.0, g * 1.0, 17.12e3, 0.905) == pytest.approx(1.5 * 17.12e3 * 0.905)
    assert load_brake_torque_nm(0.0, g * 0.5, 20e3, 0.905) == pytest.approx(0.75 * 20e3 * 0.905)
    assert load_brake_torque_nm(0.0, g * 0.0, 20e3, 0.905) == 0.0


def test_park_brake_sets_full_brake():
    assert B.brake_command(0.0, True) == 1.0
    assert B.brake_command(0.3, False) == 0.3
    assert B.brake_command(1.7, False) == 1.0 and B.brake_command(-1.0, False) == 0.0


def test_air_drag(p):
    c = p.constants
    area = c.drag_coefficient * c.frontal_area_m2
    fx, fy, fz = aero_drag_n(10.0, 0.0, 0.0, c.air_density_kg_m3, area)
    assert fx == pytest.approx(-0.5 * 1.225 * 0.8 * 4.0 * 100.0) and fy == 0.0 and fz == 0.0
    fx, fy, _ = aero_drag_n(3.0, 4.0, 0.0, 1.225, 3.2)
    assert math.hypot(fx, fy) == pytest.approx(0.5 * 1.225 * 3.2 * 25.0)


def test_front_axle_oscillation(p):
    lim = p.constants.axle_oscillation_limit_rad
    assert CH.front_axle_angle_rad(0.35, 0.45, 1.9, lim) == pytest.approx(math.atan(0.1 / 1.9))
    assert CH.front_axle_angle_rad(0.45, 0.35, 1.9, lim) == pytest.approx(-math.atan(0.1 / 1.9))
    assert CH.front_axle_angle_rad(0.0, 0.6, 1.9, lim) == pytest.approx(math.radians(10.0))
    assert CH.front_axle_angle_rad(0.35, 0.35, 1.9, lim) == 0.0


# (type, speed km/h, width m, depth cm, texture, expected D [N]) from D = F_i (A + B S + C S^2) W T_d
CASES = [
    ("moldboard", 7.0, 1.8, 20.0, "fine", 1.0 * (652 + 5.1 * 49) * 1.8 * 20),
    ("moldboard", 7.0, 1.8, 20.0, "coarse", 0.45 * (652 + 5.1 * 49) * 1.8 * 20),
    ("chisel", 8.0, 3.0, 18.0, "medium", 0.85 * (91 + 5.4 * 8) * 10 * 18),
    ("disk", 9.0, 4.0, 10.0, "medium", 0.88 * (309 + 16 * 9) * 4.0 * 10),
    ("cultivator", 10.0, 6.0, 8.0, "coarse", 0.65 * (46 + 2.8 * 10) * 30 * 8),
    ("planter", 7.0, 6.08, 5.0, "fine", 500.0 * 8),
    ("potato_digger", 4.0, 1.5, 25.0, "medium", 0.88 * (250 + 12 * 4) * 1.5 * 25),
]


@pytest.mark.parametrize("kind, s, w, d, texture, expected", CASES)
def test_asabe_draft_equals_formula(p, kind, s, w, d, texture, expected):
    q = load_maxxum_parameters(overrides=f"implement.type={kind};implement.width_m={w};implement.depth_cm={d};"
                                         f"implement.soil_texture={texture}")
    k = I.draft_coefficients(q.implement)
    assert I.implement_draft_n(k, s) == pytest.approx(expected)


def test_custom_draft_and_auto_texture(p):
    q = load_maxxum_parameters(overrides="implement.type=custom;implement.draft_n=12000;implement.design_speed_kmh=8")
    k = I.draft_coefficients(q.implement)
    assert I.implement_draft_n(k, 8.0) == pytest.approx(12000.0)
    assert I.implement_draft_n(k, 12.0) == pytest.approx(12000.0 * 1.72 / 1.48)
    assert I.texture_for_soil_class("silt_loam") == "medium"
    assert I.texture_for_soil_class("clay") == "fine"
    assert I.texture_for_soil_class("dry_sand") == "coarse" and I.texture_for_soil_class("sandy_loam") == "coarse"
    q = load_maxxum_parameters(overrides="implement.type=moldboard;implement.width_m=1.8;implement.depth_cm=20")
    assert I.draft_coefficients(q.implement, "clay").texture_factor == 1.0
    assert I.draft_coefficients(q.implement, "silt_loam").texture_factor == 0.70
    with pytest.raises(ValueError):
        I.texture_index("loamy")


def test_draft_direction_and_deformable_ground_only():
    fx, fy = I.draft_force_n(10e3, 2.0, 0.0, 0.2, True)
    assert fx == pytest.approx(-10e3 * math.tanh(10.0)) and fy == 0.0
    fx, fy = I.draft_force_n(10e3, -0.1, 0.0, 0.2, True)       # reversing slowly: small, forward
    assert fx == pytest.approx(10e3 * math.tanh(0.5))
    fx, fy = I.draft_force_n(10e3, 0.0, 1.0, 0.2, True)
    assert fx == 0.0 and fy == pytest.approx(-10e3 * math.tanh(5.0))
    assert I.draft_force_n(10e3, 2.0, 0.0, 0.2, False) == (0.0, 0.0)   # concrete: no draft
    assert I.draft_force_n(10e3, 0.0, 0.0, 0.2, True) == (0.0, 0.0)


def test_speed_lag_of_half_a_second():
    s = 0.0
    for _ in range(60):                   # 0.5 s at 2 m/s = 7.2 km/h
        s = I.lagged_speed_kmh(s, 2.0, 0.0, 0.5, DT)
    assert s == pytest.approx(7.2 * (1 - math.exp(-1.0)), rel=1e-9)


def test_force_limit_and_draft_point(p):
    fx, fy, fz = I.limit_force_n(-300e3, 0.0, -40e3, 250e3)
    assert math.sqrt(fx * fx + fy * fy + fz * fz) == pytest.approx(250e3)
    assert I.limit_force_n(-1e3, 2.0, 3.0, 250e3) == (-1e3, 2.0, 3.0)
    assert I.draft_point_m(2.6416, 0.6, 0.8) == pytest.approx((-0.4 * 2.6416 - 0.6, 0.0, -0.8))


def test_kinematic_trailer(p):
    im = p.implement
    lb = I.trailer_axle_distance_m(im.hitch_to_cg_m, im.hitch_transfer)
    assert lb == pytest.approx(3.2 / 0.85)
    # the hitch carries t_h of the weight: moments about the axle of a trailer with its centre of mass at d_h
    m = im.mass_kg
    assert (lb - im.hitch_to_cg_m) * m * G_MPS2 / lb == pytest.approx(im.hitch_transfer * m * G_MPS2)
    # the axle follows the pin at L_b: tractor drives a quarter circle, the axle stays at L_b and cuts inside
    ax, ay = -lb, 0.0
    r = 10.0
    for k in range(1, 400):
        th = 0.5 * math.pi * k / 399
        hx, hy = r * math.sin(th), r - r * math.cos(th)
        ax, ay = I.trailer_axle_follow_m(ax, ay, hx, hy, lb)
        assert math.hypot(ax - hx, ay - hy) == pytest.approx(lb)
    assert math.hypot(ax, ay - r) < r          # off-tracking: the axle runs inside the pin's circle
    psi = I.articulation_angle_rad(ax, ay, hx, hy, 0.5 * math.pi)
    assert psi < 0.0                           # left turn: the trailer points right of the tractor
    dx, dy, dz = I.trailer_drawbar_load_n(m, 0.0, 0.0, 5000.0, im.hitch_transfer, G_MPS2)
    assert (dx, dy, dz) == pytest.approx((-5000.0, 0.0, -0.15 * 1200 * G_MPS2))
    fx, fy, fz = I.drawbar_force_n(dx, dy, dz, math.radians(30.0))
    assert (fx, fy) == pytest.approx((-5000 * math.cos(math.radians(30)), -5000 * math.sin(math.radians(30))))


def test_pto_and_pump_coupling(p):
    r540 = I.pto_ratio(540.0, p.pto.pto_540_engine_rpm)
    r1000 = I.pto_ratio(1000.0, p.pto.pto_1000_engine_rpm)
    assert I.pto_shaft_speed_rpm(1969.0, r540) == pytest.approx(540.0)
    assert I.pto_shaft_speed_rpm(1893.0, r1000) == pytest.approx(1000.0)
    assert I.pump_flow_fraction(1100.0, p.engine.rated_rpm) == pytest.approx(0.5)
    a = 0.0
    for _ in range(6):                   # 50 ms
        a = I.lagged_acceleration_mps2(a, 1.0, 0.05, DT)
    assert a == pytest.approx(1.0 - math.exp(-1.0))
