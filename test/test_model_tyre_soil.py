"""Tyre transients, the hard-surface faults of issue 12, and the tyre on soil.

Each test drives the functions the step runs (the kernel calls them) or the
whole :class:`Vehicle`; the figures are the reference's ("Model Tests",
"Tyres", "Resistances", "Steering") or the issue's.
"""
import math

import numpy as np
import pytest

from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.model.resistances import water_drag_coefficient_kg_m
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.model.tyre import carcass_damping_s, lateral_force_and_state, slip_coefficients
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
from acres_dbw_sim.model.inputs import VehicleInputs

DT = 1.0 / 120.0


@pytest.fixture(scope="module")
def params():
    return load_parameters()


def _inp(v, **kw):
    return VehicleInputs(steering_wheel_deg=v.params.steering.center_deg, **kw)


def _run(v, inp, seconds, record=None):
    rows = []
    for _ in range(int(round(seconds / v.dt_s))):
        v.step(inp)
        if record is not None:
            rows.append(record(v))
    return np.array(rows)


# --------------------------------------------------------------------------- relaxation


def _lateral_step(params, vx, n_steps):
    """F_y / F_y,steady after a slip-angle step tan(alpha) = 0.02 (1.15 deg) at speed vx."""
    ty = params.tyres
    vy = 0.02 * vx
    load, mu = 3000.0, 0.9
    y = 0.0
    out = []
    for _ in range(n_steps):
        tau = carcass_damping_s(ty.carcass_damping_s, vx, ty.damping_fade_speed_mps)
        fy, y = lateral_force_and_state(y, vx, vy, DT, ty.relaxation_m, tau, ty.cornering_per_load_1_rad, load, mu,
                                        0.0)
        out.append(fy)
    steady = -ty.cornering_per_load_1_rad * load * 0.02
    return np.array(out) / steady


def test_lateral_relaxation_is_a_lag_at_10_mps(params):
    """First step about 22 % (dt v / sigma / (1 + dt v / sigma)), 63 % after about one relaxation length."""
    f = _lateral_step(params, 10.0, 120)
    a = DT * 10.0 / params.tyres.relaxation_m
    assert f[0] == pytest.approx(a / (1.0 + a), rel=0.02)
    steps_per_sigma = params.tyres.relaxation_m / (10.0 * DT)      # 3.6 steps for 0.3 m
    i63 = int(np.argmax(f >= 1.0 - math.exp(-1.0)))
    assert abs(i63 + 1 - steps_per_sigma) <= 1.5          # backward Euler: 5 steps = 0.42 m
    assert f[-1] == pytest.approx(1.0, rel=1e-3)


@pytest.mark.parametrize("vx", [5.0, 10.0, 20.0, 30.0])
def test_lateral_relaxation_never_overshoots(params, vx):
    f = _lateral_step(params, vx, 240)
    assert f.max() <= 1.0 + 1e-9
    assert np.all(np.diff(f) >= -1e-12)


def test_longitudinal_relaxation_is_a_lag_at_5_mps(params):
    """Slip step (omega R - v = 0.05 v) at 5 m/s: the first step carries the lag's share, not the full slip."""
    ty = params.tyres
    vx, R = 5.0, ty.radius_m
    omega = 1.05 * vx / R
    u = 0.0
    s = []
    for _ in range(60):
        tau = carcass_damping_s(ty.carcass_damping_s, vx, ty.damping_fade_speed_mps)
        a1, a0 = slip_coefficients(u, vx, DT, R, ty.longitudinal_relaxation_m, tau, 1.0)
        s.append(a1 * omega + a0)
        u = (u + DT * (omega * R - vx)) / (1.0 + DT * vx / ty.longitudinal_relaxation_m)
    s = np.array(s) / 0.05
    a = DT * vx / ty.longitudinal_relaxation_m
    assert s[0] == pytest.approx(a / (1.0 + a), rel=0.02)
    assert s.max() <= 1.0 + 1e-9


def test_carcass_damping_still_acts_at_standstill(params):
    ty = params.tyres
    assert carcass_damping_s(ty.carcass_damping_s, 0.0, ty.damping_fade_speed_mps) == ty.carcass_damping_s
    assert carcass_damping_s(ty.carcass_damping_s, ty.damping_fade_speed_mps, ty.damping_fade_speed_mps) == 0.0


# --------------------------------------------------------------------------- reported slip


def test_reported_slip_reaches_minus_one_at_lock(params):
    v = Vehicle(params, FlatTerrain(surface="asphalt"))
    v.reset(speed_mps=10.0, gear=Gear.DRIVE)
    slips = _run(v, _inp(v, brake_line_bar=80.0), 0.3, lambda v: v.wheel_slip)
    assert slips[-1].min() == pytest.approx(-1.0, abs=0.02)      # the front wheels lock
    assert v.wheel_spin_rad_s[0] * v.params.tyres.radius_m < 0.05 * 10.0


def test_reported_slip_exceeds_the_force_saturation_in_wheel_spin(params):
    v = Vehicle(params, FlatTerrain(surface="slick"))
    v.reset(speed_mps=3.0, gear=Gear.LOW)
    slips = _run(v, _inp(v, pedal=1.0), 2.0, lambda v: v.wheel_slip)
    assert slips[:, 2:].max() > 1.0


# --------------------------------------------------------------------------- water drag


def test_water_drag_uses_the_tyre_width():
    """A_w = b min(2 R_t, h_w): the ledger's water term over one step equals sum k_w |v|^3 dt."""
    p = load_parameters(overrides="surfaces.asphalt.water_depth_m=0.2")
    v = Vehicle(p, FlatTerrain(surface="asphalt"))
    v.reset(speed_mps=5.0, gear=Gear.NEUTRAL)
    v.step(_inp(v))
    ty = p.tyres
    kw = sum(water_drag_coefficient_kg_m(p.resistances.water_drag_coefficient, b, ty.radius_m, 0.2,
                                         p.resistances.water_density_kg_m3)
             for b in (ty.front_width_m, ty.front_width_m, ty.rear_width_m, ty.rear_width_m))
    assert kw == pytest.approx(0.5 * 1000.0 * 1.0 * 0.2 * 2.0 * (ty.front_width_m + ty.rear_width_m))
    assert v.ledger.water_j == pytest.approx(kw * 5.0 ** 3 * v.dt_s, rel=0.02)


# --------------------------------------------------------------------------- steering lock


@pytest.mark.parametrize("side", [1.0, -1.0])
def test_steering_lock_is_symmetric_about_straight_ahead(params, side):
    """Rack stop at theta_c +/- 487 deg: 40.66 deg of bicycle angle and 3.34 m turning radius both ways."""
    v = Vehicle(params, FlatTerrain(surface="asphalt"))
    v.reset(gear=Gear.LOW)
    c = params.steering.center_deg
    v.step(VehicleInputs(steering_wheel_deg=c + side * 900.0))
    delta = v.bicycle_angle_rad
    assert side * math.degrees(delta) == pytest.approx(487.0 / params.steering.ratio, abs=1e-6)
    assert math.degrees(abs(delta)) == pytest.approx(40.7, abs=0.05)
    assert params.geometry.wheelbase_m / math.tan(abs(delta)) == pytest.approx(3.34, abs=0.01)
    assert v.steering_wheel_deg == pytest.approx(c + side * 487.0)


# --------------------------------------------------------------------------- cruise, hold, roll-over


@pytest.mark.parametrize("gear,pedal,v0", [(Gear.DRIVE, 0.2792, 10.0), (Gear.DRIVE, 0.35, 13.0),
                                           (Gear.DRIVE, 0.45, 16.0)])
def test_cruise_has_one_steady_operating_point(params, gear, pedal, v0):
    v = Vehicle(params, FlatTerrain(surface="asphalt"))
    v.reset(speed_mps=v0, gear=gear)
    rec = _run(v, _inp(v, pedal=pedal), 30.0, lambda v: (v.clutch_torque_nm, v.cvt_ratio, v.engine_rpm))
    tail = rec[-240:]
    for col in range(3):
        x = tail[:, col]
        step = np.abs(np.diff(x))
        assert step.max() <= 0.01 * max(abs(x).mean(), 1.0), (col, step.max(), x.mean())


@pytest.mark.parametrize("v0", [10.0, 13.0, 16.0])
def test_cruise_through_the_ulc_has_one_steady_operating_point(v0):
    from acres_dbw_sim.dbw.commands import ENABLE, UlcCmd
    from acres_dbw_sim.simulation import Simulation
    sim = Simulation(gear=Gear.DRIVE)
    sim.reset(speed_mps=v0, gear=Gear.DRIVE)
    sim.submit(ENABLE)
    rec = []
    every = int(round(0.02 / sim.dt_s))
    for i in range(int(round(30.0 / sim.dt_s))):
        if i % every == 0:
            sim.submit(UlcCmd(cmd=v0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True))
        sim.step()
        v = sim.vehicle
        rec.append((v.clutch_torque_nm, v.cvt_ratio, v.engine_rpm, v.speed_mps))
    tail = np.array(rec[-240:])
    assert tail[:, 3].mean() == pytest.approx(v0, abs=0.1)
    for col in range(3):
        x = tail[:, col]
        assert np.abs(np.diff(x)).max() <= 0.01 * max(abs(x).mean(), 1.0), (col, x.mean())


@pytest.mark.parametrize("gear", [Gear.REVERSE, Gear.LOW])
def test_held_brakes_hold_exactly(params, gear):
    v = Vehicle(params, FlatTerrain(surface="asphalt"))
    v.reset(gear=gear, speed_mps=-3.0 if gear == Gear.REVERSE else 3.0)
    _run(v, _inp(v, brake_line_bar=80.0), 3.0)
    assert abs(v.speed_mps) < 1e-3
    p0 = np.array(v.position_m)
    _run(v, _inp(v, brake_line_bar=80.0), 15.0)
    assert np.linalg.norm(np.array(v.position_m) - p0) < 1e-5


def test_body_comes_to_rest_on_its_side(params):
    v = Vehicle(params, FlatTerrain(surface="asphalt"))
    v.reset(gear=Gear.NEUTRAL)
    ch = v.chassis
    ch.set_pose([0.0, 0.0, 1.0], (math.pi / 2, 0.0, 0.0))
    ch.v = [0.0, 0.0, 0.0]
    ch.w = [0.0, 0.0, 0.0]
    rec = _run(v, _inp(v), 6.0, lambda v: v.specific_force_body_mps2 + v.position_m)
    tail = rec[-120:]
    f = np.linalg.norm(tail[:, :3], axis=1)
    assert np.all(np.abs(f - G_MPS2) < 0.01)
    drift = np.linalg.norm(tail[-1, 3:5] - tail[0, 3:5])
    assert drift < 1e-4                                        # 1 s: below 0.1 mm/s


# --------------------------------------------------------------------------- soil


@pytest.mark.parametrize("surface", ["asphalt", "gravel", "silt_loam", "sand"])
def test_parked_sinkage(params, surface):
    v = Vehicle(params, FlatTerrain(surface=surface))
    v.reset(gear=Gear.PARK)
    _run(v, _inp(v), 2.0)
    assert sum(v.wheel_load_n) == pytest.approx(params.mass_properties.mass_kg * G_MPS2, rel=1e-3)
    if surface in ("asphalt", "gravel"):
        assert v.sinkage_m == (0.0, 0.0, 0.0, 0.0)
    elif surface == "silt_loam":
        for z in v.sinkage_m[2:]:
            assert z == pytest.approx(0.0224, rel=0.05)
    else:
        assert min(v.sinkage_m) > 0.03


def test_soil_map_on_a_height_map(params):
    """A height map with regions is a soil map: the rear axle on silt loam sinks, the front on asphalt does not."""
    from acres_dbw_sim.model.terrain import HeightMapTerrain, Region
    grid = np.zeros((21, 21))
    t = HeightMapTerrain(grid, 0.5, origin_m=(-5.0, -5.0), surface="asphalt",
                         regions=[Region("silt_loam", rect=(-5.0, -5.0, 1.0, 5.0))])
    v = Vehicle(params, t)
    v.reset(gear=Gear.PARK)
    _run(v, _inp(v), 2.0)
    assert v.sinkage_m[:2] == (0.0, 0.0)
    for z in v.sinkage_m[2:]:
        assert z == pytest.approx(0.0224, rel=0.05)
    assert sum(v.wheel_load_n) == pytest.approx(params.mass_properties.mass_kg * G_MPS2, rel=1e-3)


def test_wheel_rides_in_its_rut(params):
    """On soil the body sits lower by the sinkage: the published z of base_footprint and the contact points."""
    hard = Vehicle(params, FlatTerrain(surface="asphalt"))
    soft = Vehicle(params, FlatTerrain(surface="silt_loam"))
    for v in (hard, soft):
        v.reset(gear=Gear.PARK)
        _run(v, _inp(v), 2.0)
    zr = soft.sinkage_m[2]
    assert hard.position_m[2] - soft.position_m[2] == pytest.approx(
        0.5 * (soft.sinkage_m[0] + zr), rel=0.1)
    assert soft.contact_point_m[2][2] == pytest.approx(-zr, abs=2e-3)


def _climb(params, grade_pct, seconds=8.0):
    v = Vehicle(params, FlatTerrain(grade_pct=grade_pct, surface="sand"))
    v.reset(gear=Gear.LOW, drive_mode=AwdSwitch.AWD)
    x0 = v.position_m[0]
    _run(v, _inp(v, pedal=1.0), seconds)
    return v.position_m[0] - x0, v


def test_dry_sand_40_percent_is_not_climbed(params):
    """It digs in: the spinning wheels' ruts reach the sinkage limit (slip sinkage, within about 15 s), the body
    settles into them, and in 30 s it has made less than 0.5 m (the reference's resistance fades below 0.1 m/s:
    a creep of about 1 cm/s is left, docs/tyre_and_soil.md)."""
    dx, v = _climb(params, 40.0, seconds=30.0)
    assert dx < 0.5
    z_max = params.tyres.sinkage_limit_m
    assert all(z == pytest.approx(z_max) for z in v.sinkage_m)
    assert v.speed_mps < 0.02
    assert v.wheel_spin_rad_s[2] * params.tyres.radius_m > 20.0 * v.speed_mps   # spinning in place


def test_a_reset_starts_on_undisturbed_ground(params):
    """After digging in, a reset places the vehicle at its static sinkage: no slip sinkage carried over."""
    dug = _climb(params, 40.0, seconds=20.0)[1]
    assert min(dug.sinkage_m) == pytest.approx(params.tyres.sinkage_limit_m)
    fresh = Vehicle(params, FlatTerrain(grade_pct=40.0, surface="sand"))
    for v in (dug, fresh):
        v.reset(gear=Gear.PARK)
        v.step(_inp(v))
    assert dug.sinkage_m == fresh.sinkage_m
    assert dug.position_m == fresh.position_m


def test_slip_sinkage_law():
    """dz_d/dt = (k_d |v_s| - z_d |v_x|) / l, implicit Euler: steady state k_d |v_s| / |v_x|; no slip: it fills
    in over the travel; spinning on the spot: it grows to the limit; k_d = 0: none."""
    from acres_dbw_sim.model.soil import slip_sinkage_m
    dt, l, k_d = 1.0 / 120.0, 0.3, 0.003
    z = 0.0
    for _ in range(2400):
        z = slip_sinkage_m(z, 1.0, 4.0, l, k_d, dt, 0.2)
    assert z == pytest.approx(k_d * 1.0 / 4.0, rel=1e-9)
    z1 = slip_sinkage_m(0.05, 0.0, 3.0, l, k_d, dt, 0.2)
    assert z1 == pytest.approx(0.05 / (1.0 + dt * 3.0 / l))
    z = 0.0
    for _ in range(1200):
        z = slip_sinkage_m(z, 2.0, 0.0, l, k_d, dt, 0.2)
    assert z == 0.2
    assert slip_sinkage_m(0.0, 5.0, 0.1, l, 0.0, dt, 0.2) == 0.0
    assert slip_sinkage_m(0.01, -3.0, -1.0, l, k_d, dt, 0.2) == slip_sinkage_m(0.01, 3.0, 1.0, l, k_d, dt, 0.2)


def test_slip_sinkage_at_a_steady_drive_is_small(params):
    """Full throttle on level dry sand: the ruts are the static sinkage plus a few millimetres."""
    v = Vehicle(params, FlatTerrain(surface="sand"))
    v.reset(gear=Gear.LOW)
    _run(v, _inp(v, pedal=1.0), 30.0)
    parked = Vehicle(params, FlatTerrain(surface="sand"))
    parked.reset(gear=Gear.PARK)
    _run(parked, _inp(parked), 2.0)
    for j in (2, 3):
        assert 0.0 < v.sinkage_m[j] - parked.sinkage_m[j] < 0.005


def test_dry_sand_10_percent_is_climbed(params):
    dx, v = _climb(params, 10.0)
    assert dx > 10.0
    assert v.speed_mps > 1.0


def test_slip_sinkage_leaves_what_the_ranger_climbs_and_drives(params):
    """Slip sinkage digs in a spinning tyre, not one that drives: a 20 % grade of dry sand (AWD, L) is
    still climbed, level dry sand in 2WD at full throttle in H is still driven, and a 35 % grade of silt
    loam (a cohesive soil: no slip sinkage) still climbed."""
    dx, v = _climb(params, 20.0, seconds=20.0)
    assert dx > 50.0 and v.speed_mps > 3.0
    for surface, grade, gear, mode in (("sand", 0.0, Gear.DRIVE, AwdSwitch.TWO_WD),
                                       ("silt_loam", 35.0, Gear.LOW, AwdSwitch.AWD)):
        v = Vehicle(params, FlatTerrain(grade_pct=grade, surface=surface))
        v.reset(gear=gear, drive_mode=mode)
        x0 = v.position_m[0]
        _run(v, VehicleInputs(pedal=1.0, steering_wheel_deg=params.steering.center_deg, drive_mode=mode), 20.0)
        assert v.position_m[0] - x0 > 30.0 and v.speed_mps > 1.0, surface


@pytest.mark.parametrize("surface,gear", [("silt_loam", Gear.LOW), ("silt_loam", Gear.DRIVE),
                                          ("sand", Gear.LOW), ("sand", Gear.DRIVE)])
def test_full_throttle_on_soil_reaches_a_steady_speed(params, surface, gear):
    v = Vehicle(params, FlatTerrain(surface=surface))
    v.reset(gear=gear)
    rec = _run(v, _inp(v, pedal=1.0), 40.0, lambda v: (v.speed_mps, v.wheel_spin_rad_s[2], v.engine_rpm))
    tail = rec[-240:]
    assert 1.0 < tail[:, 0].mean() < 30.0
    for col in (1, 2):
        x = tail[:, col]
        assert np.abs(np.diff(x)).max() < 0.01 * abs(x).mean(), col
        assert (x.max() - x.min()) < 0.01 * abs(x).mean(), col


@pytest.mark.parametrize("surface", ["silt_loam", "sand"])
def test_energy_ledger_closes_on_soil(params, surface):
    v = Vehicle(params, FlatTerrain(surface=surface))
    v.reset(gear=Gear.LOW)
    c = params.steering.center_deg
    for i in range(int(60.0 / v.dt_s)):
        t = i * v.dt_s
        v.step(VehicleInputs(pedal=0.8 if t < 30 else (0.3 if t < 50 else 0.0),
                             brake_line_bar=20.0 if t >= 55 else 0.0,
                             steering_wheel_deg=c + 60.0 * math.sin(0.3 * t)))
    led = v.ledger
    assert led.soil_j > 0.01 * led.fuel_j
    assert abs(led.relative_residual) < 3e-4


def test_drawbar_pull_rises_then_saturates_on_each_soil_class(params):
    """Wong's tyre-on-soil curves: pull rises with slip and saturates (concave), for the rear tyre at N_0."""
    from acres_dbw_sim.model.soil import shear_shape, tyre_on_soil
    from acres_dbw_sim.model.suspension import tyre_membrane_rate_n_m
    ty = params.tyres
    load = params.mass_properties.static_loads_n[2]
    k_t = tyre_membrane_rate_n_m(ty.rear_inflation_pa, ty.carcass_pa, ty.radius_m, ty.rear_width_m)
    assert {"silt_loam", "sandy_loam", "clay", "dry_sand"} <= set(params.soils)
    slips = np.linspace(0.0, 1.0, 101)
    for so in params.soils.values():
        z, f_max, lk, f, f_mr, _l = tyre_on_soil(
            load, ty.rear_width_m, ty.radius_m, ty.rear_inflation_pa + ty.carcass_pa, k_t, so.n, so.k_c, so.k_phi,
            so.cohesion_pa, so.friction_angle_rad, so.shear_modulus_m, ty.sinkage_limit_m, ty.lug_height_m,
            ty.tread_k_m, ty.hysteresis, ty.section_height_m, ty.lug_correction, 0.0)
        assert 0.0 < z < ty.sinkage_limit_m and f_mr > 0.0
        pull = np.array([f_max * shear_shape(i, lk)[0] for i in slips]) - f_mr - f * load
        assert np.all(np.diff(pull) > 0.0), so.name
        assert np.all(np.diff(pull, 2) < 0.0), so.name
        assert pull[-1] - pull[50] < 0.5 * (pull[50] - pull[0]), so.name
        assert pull[0] < 0.0 < pull[-1], so.name            # at rest the resistance, spinning a net pull


# --------------------------------------------------------------------------- one physics


def _module_name(root, f) -> str:
    parts = f.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _call_graph(root):
    """The package's call graph keyed on (module, function name), so that two functions of one name in two
    modules (``cvt.clutch_capacity_nm`` and ``maxxum150.clutch.clutch_capacity_nm``) are told apart.

    A call by a bare name resolves through the module's definitions and relative imports (a name a package
    re-exports to where it is defined); ``mod.f()`` through a module imported by name; ``obj.f()`` on any
    other object stays unresolved ``(None, "f")`` and counts for no function. A kernel handed to
    ``_jit.specialise`` (or to ``scenario.signals.compiled_row_writer`` or ``_jit.packed_call``, which
    specialise it) counts as called, and so do the functions given to a vehicle registry row
    (``VehicleSpec``) and one handed to any call as a keyword's value (a hook). Returns ({(module, name):
    set of (module, name) it calls}, set of every (module, name) called anywhere in the package, the
    functions' bodies and the modules' top levels)."""
    import ast

    files = {_module_name(root, f): f for f in root.rglob("*.py")}
    trees = {m: ast.parse(f.read_text()) for m, f in files.items()}
    defined = {m: {n.name for n in t.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))} for m, t in trees.items()}
    imports, modules = {}, {}
    for m, t in trees.items():
        pkg = m.split(".") if files[m].name == "__init__.py" else m.split(".")[:-1]
        imports[m], modules[m] = {}, {}
        for node in ast.walk(t):
            if isinstance(node, ast.ImportFrom) and node.level:
                src = ".".join(pkg[:len(pkg) - node.level + 1] + ([node.module] if node.module else []))
                for a in node.names:
                    if f"{src}.{a.name}" in files:
                        modules[m][a.asname or a.name] = f"{src}.{a.name}"
                    else:
                        imports[m][a.asname or a.name] = (src, a.name)

    def canon(m, name, depth=0):
        if name in defined.get(m, ()) or depth > 10 or name not in imports.get(m, {}):
            return (m, name)
        return canon(*imports[m][name], depth + 1)

    def resolve(m, func):
        if isinstance(func, ast.Name):
            return canon(m, func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules[m]:
            return canon(modules[m][func.value.id], func.attr)
        return (None, getattr(func, "attr", None))

    def calls_in(m, node):
        out = set()
        for c in ast.walk(node):
            if isinstance(c, ast.Call):
                out.add(resolve(m, c.func))
                name = getattr(c.func, "id", None)
                if name in ("specialise", "compiled_row_writer", "packed_call") and c.args:
                    out.add(resolve(m, c.args[0]))
                if name == "VehicleSpec":
                    out.update(resolve(m, a) for a in list(c.args) + [k.value for k in c.keywords]
                               if isinstance(a, ast.Name))
                # a function handed over as a keyword (a hook: json's object_pairs_hook) is called by the callee
                out.update(resolve(m, k.value) for k in c.keywords if isinstance(k.value, ast.Name))
        return out

    graph, called = {}, set()
    for m, t in trees.items():
        for node in t.body:
            if isinstance(node, ast.FunctionDef):
                graph[(m, node.name)] = calls_in(m, node)
        called |= calls_in(m, t)
    return graph, called


def test_every_compiled_model_function_is_on_the_step_call_graph():
    """ONE PHYSICS: each compiled function of acres_dbw_sim/model (the shared core) and of the Ranger's folder
    (whose model is one compiled step; the tractor's Python step calls some of its own) is called by a step (the Ranger's model_step, the Maxxum's tractor_step, or the Ranger's kinematic
    level's step_vehicles / place_vehicles, or the DBW's step with the ULC's plant model, which inverts the
    model's own engine and CVT functions, ulc_plant.dbw_step, and the Ranger's step through the DBW,
    dbw_step.ranger_dbw_tick over ranger_dbw_step, which composes it with model_step, the kinematic level's,
    dbw_step.kinematic_dbw_tick, which composes it with kinematic_advance, and the headless loop over that step,
    dbw_step.ranger_dbw_run), directly or through the functions they call);
    none exists only for tests. The exception: the inverse relation that the public
    Vehicle.steering_wheel_for_curvature_deg (and the DBW's curvature commands, the adapters' tyre-angle
    commands) need. Both vehicles' steps run the shared stages. Functions are told apart by
    module."""
    import ast
    import pathlib

    import acres_dbw_sim as pkg
    root = pathlib.Path(pkg.__file__).parent
    graph, _ = _call_graph(root)
    files = list((root / "model").glob("*.py")) + list((root / "vehicles" / "polaris").glob("*.py"))
    shared_jit = {(_module_name(root, f), n.name) for f in files
                  for n in ast.parse(f.read_text()).body
                  if isinstance(n, ast.FunctionDef) and any(ast.unparse(d).startswith("njit") for d in n.decorator_list)}

    def reach(*roots):
        seen, todo = set(), list(roots)
        while todo:
            q = todo.pop()
            if q not in seen and q in graph:
                seen.add(q)
                todo.extend(graph[q])
        return seen

    ranger = reach(("acres_dbw_sim.vehicles.polaris.vehicle", "model_step"))
    tractor = reach(("acres_dbw_sim.vehicles.maxxum150.vehicle", "tractor_step"))
    kinematic = reach(("acres_dbw_sim.vehicles.polaris.kinematic", "step_vehicles"),
                      ("acres_dbw_sim.vehicles.polaris.kinematic", "place_vehicles"))
    # the DBW's step with the ULC's plant, alone and in the Ranger's step through the DBW
    dbw = reach(("acres_dbw_sim.vehicles.polaris.ulc_plant", "dbw_step"),
                ("acres_dbw_sim.vehicles.polaris.dbw_step", "ranger_dbw_tick"),
                ("acres_dbw_sim.vehicles.polaris.dbw_step", "kinematic_dbw_tick"),
                ("acres_dbw_sim.vehicles.polaris.dbw_step", "ranger_dbw_run"))
    # the inverse relation and the function it is built on (the Ackermann and Autoware adapters' tyre angle)
    inverse_only = reach(("acres_dbw_sim.model.steering", "steering_wheel_for_curvature_deg"))
    assert inverse_only == {("acres_dbw_sim.model.steering", "steering_wheel_for_curvature_deg"),
                            ("acres_dbw_sim.model.steering", "steering_wheel_for_bicycle_deg")}
    # the recorder's row of every recorded step (scenario/signals.write_row) sums the ledger's residual
    recorder = reach(("acres_dbw_sim.scenario.signals", "write_row"))
    orphans = sorted(f"{m}:{n}" for m, n in shared_jit - ranger - tractor - kinematic - dbw - inverse_only - recorder)
    assert orphans == []
    for stage in ("prepare_wheels", "wheel_ledger", "chassis_stage"):
        assert ("acres_dbw_sim.model.stages", stage) in ranger & tractor, stage
    assert ("acres_dbw_sim.model.driveline", "solve_driveline") in ranger & tractor
    # the name-alike pair: each vehicle's step runs its own
    assert ("acres_dbw_sim.vehicles.polaris.cvt", "clutch_capacity_nm") in ranger - tractor
    assert ("acres_dbw_sim.vehicles.maxxum150.clutch", "clutch_capacity_nm") in tractor - ranger


def test_every_model_function_is_called_by_the_package():
    """ONE PHYSICS, the uncompiled side: every function of acres_dbw_sim/model and vehicles/ is called
    somewhere in the package (the kernels, the Vehicle's construction and publication, the loaders, the
    registry rows), told apart by module (:func:`_call_graph`); none exists only for tests (a test that
    needs a driver or a scan of a kernel function keeps it in the test)."""
    import ast
    import pathlib

    import acres_dbw_sim as pkg
    root = pathlib.Path(pkg.__file__).parent
    _, called = _call_graph(root)
    files = list((root / "model").glob("*.py")) + list((root / "vehicles").rglob("*.py"))
    defined = {(_module_name(root, f), n.name) for f in files for n in ast.parse(f.read_text()).body
               if isinstance(n, ast.FunctionDef)}
    assert sorted(f"{m}:{n}" for m, n in defined - called) == []


def _turn_end(tmp_path, hz: int, pedal: float, steer_deg: float, gear: str) -> tuple[float, float, float]:
    """(x, y, path length) [m] after 20 s on silt loam from rest (docs/model.md, Step size on soil)."""
    import math as _m

    from acres_dbw_sim.scenario import load_scenario, run_scenario
    f = tmp_path / f"turn_{hz}_{pedal}.yaml"
    f.write_text(f"name: turn\nduration_s: 20\nstep_hz: {hz}\nterrain: {{surface: silt_loam}}\n"
                 f"initial: {{gear: {gear}, drive_mode: AWD}}\n"
                 f"timeline:\n  - {{t: 0, pedal: {pedal}, steering_from_center_deg: {steer_deg}}}\n")
    res = run_scenario(load_scenario(f))
    x, y = res.column("x_m"), res.column("y_m")
    return float(x[-1]), float(y[-1]), float(sum(_m.hypot(x[i + 1] - x[i], y[i + 1] - y[i]) for i in range(len(x) - 1)))


def test_step_size_on_soil_as_the_model_page_states(tmp_path):
    """docs/model.md "Step size on soil": an ordinary turn at 120 Hz ends within 0.3 % of the path of a 1000 Hz
    run; full throttle at full lock (rear wheels spinning) is the stated limit, 13 % at 120 Hz, and its error
    falls at least as fast as the step (first order)."""
    import math as _m
    ref = _turn_end(tmp_path, 1000, 0.5, 400, "L")
    end = _turn_end(tmp_path, 120, 0.5, 400, "L")
    assert _m.dist(end[:2], ref[:2]) / ref[2] < 0.003
    ref = _turn_end(tmp_path, 1000, 1.0, -490, "H")
    errors = [_m.dist(_turn_end(tmp_path, hz, 1.0, -490, "H")[:2], ref[:2]) / ref[2] for hz in (120, 240, 480)]
    assert errors[0] == pytest.approx(0.132, abs=0.01)
    assert errors[1] < 0.5 * errors[0] and errors[2] < 0.5 * errors[1]
