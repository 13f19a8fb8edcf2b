"""Mass properties and suspension rates (reference "Mass and Geometry", "Suspension")."""
import math

import numpy as np
import pytest

from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.vehicles.polaris.mass import compute_mass_properties
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.model.suspension import corner_springs, suspension_load_n


@pytest.fixture(scope="module")
def p():
    return load_parameters()


def test_one_occupant_figures(p):
    mp = p.mass_properties
    assert round(mp.mass_kg, 1) == 1233.0
    assert round(mp.cg_m[0], 3) == 1.243
    assert round(mp.cg_m[1], 3) == 0.014
    assert round(mp.cg_m[2], 3) == 0.655
    assert round(100 * mp.front_axle_share, 1) == 43.3
    assert tuple(round(v) for v in mp.inertia_kg_m2) == (318, 1374, 1475)


def test_inertia_cross_check_with_tensor_algebra(p):
    """Second way: numpy parallel-axis theorem on the table of the reference."""
    parts = [(1063, (1.205, 0, 0.62)), (40, (0.9, 0, 0.45)), (15, (2.3, 0, 1.95)), (30, (0.95, -0.45, 0.7)),
             (85, (1.8, 0.36, 0.95))]
    m = sum(mi for mi, _ in parts)
    cg = sum(mi * np.array(r) for mi, r in parts) / m
    inertia = np.diag([1063 * 0.5 ** 2, 1063 * 1.1 ** 2, 1063 * 1.15 ** 2])
    for mi, r in parts:
        d = np.array(r) - cg
        inertia += mi * (d @ d * np.eye(3) - np.outer(d, d))
    np.testing.assert_allclose(np.array(p.mass_properties.inertia_tensor_kg_m2), inertia, rtol=1e-12, atol=1e-9)
    assert abs(inertia[0, 1]) > 1.0  # lateral offsets give real products of inertia


def test_static_loads_balance_weight_and_moments(p):
    mp = p.mass_properties
    n = mp.static_loads_n
    w = mp.mass_kg * G_MPS2
    assert sum(n) == pytest.approx(w, rel=1e-12)
    L, t = p.geometry.wheelbase_m, p.geometry.track_front_m
    assert (n[0] + n[1]) * L == pytest.approx(w * mp.cg_m[0], rel=1e-12)
    assert ((n[0] - n[1]) + (n[2] - n[3])) * t / 2 == pytest.approx(w * mp.cg_m[1], rel=1e-9)


@pytest.mark.parametrize("occupants", range(7))
def test_occupants_follow_the_seat_table(occupants):
    seats = [(1.8, 0.36), (1.8, -0.36), (0.85, 0.36), (0.85, -0.36), (0.85, 0.0), (1.8, 0.0)]
    mp = load_parameters(occupants=occupants).mass_properties
    base = [(1063, 1.205, 0.0, 0.62), (40, 0.9, 0.0, 0.45), (15, 2.3, 0.0, 1.95), (30, 0.95, -0.45, 0.7)]
    parts = base + [(85, x, y, 0.95) for x, y in seats[:occupants]]
    m = sum(q[0] for q in parts)
    assert mp.mass_kg == pytest.approx(m)
    for k in range(3):
        assert mp.cg_m[k] == pytest.approx(sum(q[0] * q[1 + k] for q in parts) / m)


def test_cargo_moves_the_centre_of_mass_back_and_up(p):
    mp1 = p.mass_properties
    mp2 = load_parameters(cargo_kg=200.0).mass_properties
    assert mp2.mass_kg == pytest.approx(mp1.mass_kg + 200.0)
    assert mp2.cg_m[0] < mp1.cg_m[0] and mp2.cg_m[2] > mp1.cg_m[2]
    assert mp2.front_axle_share < mp1.front_axle_share
    assert mp2.inertia_kg_m2[1] > mp1.inertia_kg_m2[1]


def test_corner_rates_and_bump_stop(p):
    s = corner_springs(p)
    assert round(s.rate_n_m[0] / 1000, 1) == 17.9
    assert round(s.rate_n_m[2] / 1000, 1) == 24.7
    assert s.bump_start_m == pytest.approx(0.2494)
    # damper: c = 2 zeta sqrt(k N0 / g)
    assert s.damper_n_s_m[0] == pytest.approx(2 * 0.35 * math.sqrt(s.rate_n_m[0] * s.static_load_n[0] / G_MPS2))


def test_suspension_load_law(p):
    s = corner_springs(p)
    n0, k, c = s.static_load_n[2], s.rate_n_m[2], s.damper_n_s_m[2]
    args = (s.droop_m, s.bump_start_m, s.bump_rate_n_m2, p.suspension.max_load_factor)
    assert suspension_load_n(n0, k, c, 0.1, 0.0, *args) == pytest.approx(n0)
    assert suspension_load_n(n0, k, c, 0.15, 0.0, *args) == pytest.approx(n0 + k * 0.05)
    assert suspension_load_n(n0, k, c, 0.26, 0.0, *args) == pytest.approx(n0 + k * 0.16 + 2e6 * (0.26 - 0.2494) ** 2)
    assert suspension_load_n(n0, k, c, 0.0, 0.0, *args) == pytest.approx(n0 - 0.1 * k)
    assert suspension_load_n(n0, k, c, 0.1, 5.0, *args) == 0.0  # a wheel cannot pull the ground
    assert suspension_load_n(n0, k, c, 0.5, -10.0, *args) == pytest.approx(6 * n0)
    assert suspension_load_n(n0, k, c, 0.1, 0.1, *args) == pytest.approx(n0 - 0.1 * c)
