"""Maxxum 150: parameter file and mass properties (maxxum-150-dynamics.md, "Parameters", "Chassis and Mass
Properties")."""
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.vehicles.maxxum150 import mass
from acres_dbw_sim.vehicles.maxxum150.params import (ParameterError, default_config_path,
                                                     load_maxxum_parameters)


@pytest.fixture(scope="module")
def p():
    return load_maxxum_parameters()


def test_every_key_has_value_basis_source_spread_and_note():
    tree = json.loads(default_config_path().read_text())
    assert tree.pop("vehicle") == "maxxum150"      # the file names its vehicle
    n = 0
    def leaves(node, path):
        if "value" in node:
            yield path, node
        else:
            for key, item in node.items():
                yield from leaves(item, f"{path}.{key}" if path else key)

    for key, item in leaves(tree, ""):
        n += 1
        assert {"value", "basis", "source", "note"} <= set(item), key
        assert ("sd" in item) or ("range" in item) or item["basis"] in ("reference", "project"), \
            f"{key} has no sd or range"
    assert n > 90


def test_page_parameter_values(p):
    ch, e, tr = p.chassis, p.engine, p.transmission
    assert (ch.mass_kg, ch.wheelbase_m, ch.track_m, ch.cg_height_m) == (5820, 2.6416, 1.9, 1.1)
    assert ch.inertia_kg_m2 == (6168, 12915, 12791)
    assert e.idle_rpm == 800 and e.max_rpm == 2300 and e.peak_torque_nm == 700
    assert len(tr.forward_gears) == 16 and tr.initial_gear == 10 and tr.final_drive == 10
    assert p.implement.type == "custom" and p.implement.soil_texture == "auto"


@pytest.mark.parametrize("override, key", [
    ("chassis.mass_kg=400", "chassis.mass_kg"),
    ("chassis.mass_kg=\"heavy\"", "chassis.mass_kg"),
    ("engine.idle_rpm=2400", "engine.idle_rpm"),
    ("engine.torque_curve_rpm[3]=900", "engine.torque_curve_rpm[3]"),
    ("transmission.forward_gears=[1, 2]", "transmission.forward_gears"),
    ("transmission.initial_gear=17", "transmission.initial_gear"),
    ("transmission.initial_gear=2.5", "transmission.initial_gear"),
    ("transmission.front_lead_ratio=0.2", "transmission.front_lead_ratio"),
    ("transmission.diff_lock=front", "transmission.diff_lock"),
    ("implement.type=harrow", "implement.type"),
    ("implement.soil_texture=loamy", "implement.soil_texture"),
    ("implement.payload_kg=2500", "implement.payload_kg"),
    ("pto.pto_kw=100", "pto.pto_kw"),
    ("engine.no_such_key=1", "engine.no_such_key"),
    ("steering.max_steer_rad=-0.1", "steering.max_steer_rad"),
    ("constants.max_load_factor=0.5", "constants.max_load_factor"),
    ("tyres.lug_correction=1e6", "tyres.lug_correction"),
    ("tyres.water_density_kg_m3=1e9", "tyres.water_density_kg_m3"),
    ("constants.speed_governor_band_mps=100", "constants.speed_governor_band_mps"),
    ("fuel.indicated_efficiency=0.9", "fuel.indicated_efficiency"),
    ("tyres.sinkage_limit_m=0.9", "tyres.sinkage_limit_m"),
])
def test_bad_parameter_names_the_key(override, key):
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(overrides=override)
    assert err.value.key == key
    assert key in str(err.value)


def test_bad_file_names_the_key(tmp_path):
    tree = json.loads(default_config_path().read_text())
    del tree["engine"]["governor_droop_rpm"]
    f = tmp_path / "m.json"
    f.write_text(json.dumps(tree))
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(f)
    assert err.value.key == "engine.governor_droop_rpm"
    f.write_text("{")
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(f)
    assert err.value.key == "<file>"


def test_overrides_apply(p):
    q = load_maxxum_parameters(overrides="chassis.mass_kg=6000;engine.torque_curve_nm[3]=650")
    assert q.chassis.mass_kg == 6000
    # the curve is scaled so that its maximum is peak_torque_nm (700 N m)
    assert max(q.engine.torque_curve_nm) == pytest.approx(700.0)


def test_mass_centre_and_static_loads(p):
    tm = mass.tractor_mass(p)
    assert tm.mass_kg == 5820
    assert round(tm.cg_ahead_of_rear_axle_m, 3) == 1.057
    assert tm.cg_height_m == pytest.approx(1.10)
    nf, _, nr, _ = tm.static_loads_n
    # 11414.9 N: the page's 11.42 kN comes from the rounded 1.057 m (0.4 L is 1.05664 m, s_f = 0.4 exactly)
    assert nf / 1e3 == pytest.approx(11.42, abs=0.006)
    assert nf == pytest.approx(5820 * G_MPS2 * 0.4 / 2)
    assert round(nr / 1e3, 2) == 17.12
    # with the centre of mass at 1.057 m exactly both of the page's figures come out to the digit
    q = load_maxxum_parameters(overrides=f"chassis.cg_forward_m={1.057 - 0.4 * 2.6416}")
    nf2, _, nr2, _ = mass.tractor_mass(q).static_loads_n
    assert (round(nf2 / 1e3, 2), round(nr2 / 1e3, 2)) == (11.42, 17.12)
    assert sum(tm.static_loads_n) == pytest.approx(5820 * G_MPS2)
    assert tm.inertia_kg_m2 == (6168, 12915, 12791)


def test_wheel_mounts(p):
    tm = mass.tractor_mass(p)
    L, T = 2.6416, 1.9
    fl, fr, rl, rr = tm.mounts_m
    assert fl == pytest.approx((0.6 * L, T / 2, 0.707 + 0.35 - 1.1))
    assert fr == pytest.approx((0.6 * L, -T / 2, 0.707 + 0.35 - 1.1))
    assert rl == pytest.approx((-0.4 * L, T / 2, 0.905 + 0.35 - 1.1))
    assert rr[1] == pytest.approx(-T / 2)
    # axle spacing is the wheelbase
    assert fl[0] - rl[0] == pytest.approx(L)


def test_load_share_clamp():
    assert mass.front_load_share(2.0, 5.0) == 0.95
    assert mass.front_load_share(2.0, -5.0) == 0.05


def test_apply_implement_mass_two_point_masses():
    # two point masses 2 m apart on x: combined centre, parallel-axis terms only in pitch and yaw
    out = mass.apply_implement_mass(1000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1000.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    m, cx, cy, cz, ixx, iyy, izz = out
    assert (m, cx, cy, cz) == (2000.0, 1.0, 0.0, 0.0)
    assert ixx == 0.0 and iyy == pytest.approx(2000.0) and izz == pytest.approx(2000.0)


def test_mounted_implement_moves_load_to_the_rear(p):
    q = load_maxxum_parameters(overrides="implement.attachment=mounted;implement.payload_kg=300")
    part = mass.mounted_implement_part(q)
    mi, ri, ii = part
    L = 2.6416
    assert mi == 1500.0
    assert ri == pytest.approx((-0.4 * L - 0.6 - 1.0, 0.0, 0.9 - 1.1))
    assert ii == pytest.approx((1500 / 12 * (2.4 ** 2 + 0.7 ** 2), 1500 / 12 * (2 ** 2 + 0.7 ** 2),
                                1500 / 12 * (2 ** 2 + 2.4 ** 2)))
    tm = mass.tractor_mass(q, part)
    assert tm.mass_kg == 7320.0
    x = (5820 * 0.0 + 1500 * ri[0]) / 7320
    assert tm.cg_m[0] == pytest.approx(x)
    # re-computed static loads: the moment balance about the rear axle
    nf, _, nr, _ = tm.static_loads_n
    assert 2 * nf * L == pytest.approx(7320 * G_MPS2 * (0.4 * L + x))
    assert 2 * (nf + nr) == pytest.approx(7320 * G_MPS2)
    assert nf < 11.42e3 < 17.12e3 < nr
    z = 1500 * ri[2] / 7320
    iyy = 12915 + 5820 * (x ** 2 + z ** 2) + 1500 * ((ri[0] - x) ** 2 + (ri[2] - z) ** 2) + ii[1]
    assert tm.inertia_kg_m2[1] == pytest.approx(iyy)
    assert tm.cg_height_m == pytest.approx(1.1 + z)


def test_mass_update_threshold():
    assert not mass.mass_update_needed(0.4, 0.004)
    assert mass.mass_update_needed(0.5, 0.0)
    assert mass.mass_update_needed(0.0, -0.005)


def test_legacy_box_inertia(p):
    q = load_maxxum_parameters(overrides="chassis.model=legacy")
    tm = mass.tractor_mass(q)
    lx, ly, lz = 2.6416 + 0.55, 1.9 + 0.5, 2.5
    assert tm.inertia_kg_m2 == pytest.approx((5820 / 12 * (ly ** 2 + lz ** 2), 5820 / 12 * (lx ** 2 + lz ** 2),
                                              5820 / 12 * (lx ** 2 + ly ** 2)))
    assert math.isclose(tm.static_loads_n[2], 17.12e3, rel_tol=2e-4)



_VALUES = load_maxxum_parameters().values
NUMERIC_KEYS = sorted(k for k, v in _VALUES.items() if isinstance(v, (int, float)) and not isinstance(v, bool))


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(NUMERIC_KEYS),
       value=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10 ** 6, 10 ** 6),
                       st.text(max_size=5), st.booleans()))
def test_any_override_loads_or_names_its_key(key, value):
    """Any value for any numeric key either loads (finite) or raises ParameterError naming a known key."""
    raw = (value if isinstance(value, str) else repr(value)).replace(";", ",")
    try:
        q = load_maxxum_parameters(overrides=f"{key}={raw}")
    except ParameterError as err:
        assert err.key.split("[")[0] in _VALUES or err.key == key
        return
    assert math.isfinite(q.values[key])


def test_world_overrides_reach_the_tractors_soil_and_surface_tables():
    """surfaces.* and soils.* live in the world's file (config/world.json, shared by both vehicles, assembled with
    the tractor's): a tractor's override of them reaches its tables; a bad one is refused with its key."""
    from acres_dbw_sim.vehicles.maxxum150.vehicle import Tractor
    p = load_maxxum_parameters(overrides="soils.dry_sand.slip_sinkage_m=0.0008;surfaces.concrete.mu=0.7;"
                                         "engine.idle_rpm=850")
    t = Tractor(p)
    assert t.world.soils["dry_sand"].slip_sinkage_m == 0.0008
    assert t.surfaces[t.world.surface_index("concrete")].mu == 0.7
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(overrides="soils.dry_sand.slip_sinkage_m=0.5")
    assert err.value.key == "soils.dry_sand.slip_sinkage_m"
