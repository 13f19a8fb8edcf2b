"""A third vehicle added at run time through the public registry API, run through the DBW in a scenario.

The vehicle is a small cart built only from the shared core (acres_dbw_sim.model: the steering geometry, the
first-order lag, the ledger, the gravity constant, the parameter layer and the world) with its own parameter
file; nothing of the package is changed for it (docs/vehicles.md, "Adding a vehicle").
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pytest

from acres_dbw_sim.dbw.params import VEHICLE_ARRAY_KEYS, VEHICLE_KEYS, DbwParameters
from acres_dbw_sim.description import Dimensions
from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.model.energy import EnergyLedger
from acres_dbw_sim.model.enums import AwdSwitch, Gear, GearReject
from acres_dbw_sim.model.filters import lag
from acres_dbw_sim.model.params import (NON_NEGATIVE, POSITIVE, ParameterError, assembly, check_params, check_range,
                                        fill_params, param, read_parameter_tree)
from acres_dbw_sim.model.overrides import apply_overrides
from acres_dbw_sim.model.world import World, assemble_world, check_world
from acres_dbw_sim.model.steering import ackermann_rad, bicycle_angle_rad
from acres_dbw_sim.scenario import load_scenario, run_scenario
from acres_dbw_sim.vehicles import REGISTRY, Installation, VehicleSpec, register, vehicle_spec

NAME = "test_cart"
FILE = {"vehicle": NAME,
        "geometry": {"wheelbase_m": {"value": 1.6}, "track_m": {"value": 1.1}, "wheel_radius_m": {"value": 0.3}},
        "mass": {"mass_kg": {"value": 400.0}},
        "drive": {"max_force_n": {"value": 2000.0}, "force_lag_s": {"value": 0.2},
                  "brake_n_per_bar": {"value": 60.0}, "max_speed_mps": {"value": 8.0}},
        "steering": {"ratio": {"value": 15.0}, "lock_deg": {"value": 450.0}},
        "fuel": {"lhv_j_kg": {"value": 4.3e7}, "density_kg_l": {"value": 0.74}}}
LIMITS = {"geometry.wheelbase_m": POSITIVE, "geometry.track_m": POSITIVE, "geometry.wheel_radius_m": POSITIVE,
          "mass.mass_kg": POSITIVE, "drive.max_force_n": NON_NEGATIVE, "drive.force_lag_s": NON_NEGATIVE,
          "drive.brake_n_per_bar": NON_NEGATIVE, "drive.max_speed_mps": POSITIVE, "steering.ratio": POSITIVE,
          "steering.lock_deg": POSITIVE}


@dataclass(frozen=True)
class Fuel:
    """The cart's fuel section, declared field by field (model.params.param)."""
    lhv_j_kg: float = param("lhv_j_kg", POSITIVE)
    density_kg_l: float = param("density_kg_l", POSITIVE)


@dataclass(frozen=True)
class CartParameters:
    values: dict
    fuel: Fuel
    source_path: str
    vehicle: str = NAME

    def __getitem__(self, key):
        return self.values[key]


def load_cart(path, overrides, occupants, cargo_kg):
    """The cart's loader on the shared parameter layer: its file assembled with the world and the DBW kit, its
    overrides, its ranges, the world's."""
    _tree, defaults, values = read_parameter_tree(path, path, NAME, assembly())
    apply_overrides(defaults, values, overrides)
    check_world(values)
    for key, lim in LIMITS.items():
        if key not in values:
            raise ParameterError(key, "missing from the parameter file")
        check_range(key, values[key], lim)
    check_params(Fuel, values, "fuel")
    return CartParameters(values, fill_params(Fuel, values, "fuel"), str(path))


class Cart:
    """A kinematic cart on flat ground: force lag, brake, drag-free rolling, bicycle steering; the attributes
    the DBW and the scenario recorder read (docs/vehicles.md)."""

    def __init__(self, p, terrain, dt_s):
        self.p, self.dt_s = p, dt_s
        soils, surfaces = assemble_world(p.values)
        self.world = World(surfaces, soils)
        self.reset()

    def reset(self, x_m=0.0, y_m=0.0, yaw_rad=0.0, speed_mps=0.0, gear=Gear.PARK, drive_mode=AwdSwitch.AWD):
        self.x, self.y, self.yaw, self.v = x_m, y_m, yaw_rad, speed_mps
        self.gear = self.gear_target = Gear(gear)
        self.drive_mode = AwdSwitch(drive_mode)
        self.shift_in_progress, self.last_gear_reject = False, GearReject.NONE
        self.force_n, self.accel, self.delta, self.yaw_rate_rad_s = 0.0, 0.0, 0.0, 0.0
        self.steering_wheel_deg = 0.0
        self.ledger = EnergyLedger()
        self.fuel_l, self.fuel_rate_l_h = 10.0, 0.0
        self.brake_torque_nm = (0.0,) * 4

    def step(self, inputs):
        p, dt = self.p, self.dt_s
        if inputs.gear_request in (Gear.PARK, Gear.REVERSE, Gear.NEUTRAL, Gear.DRIVE, Gear.LOW) \
                and abs(self.v) < 0.1:
            self.gear = self.gear_target = Gear(inputs.gear_request)
        direction = -1.0 if self.gear == Gear.REVERSE else 0.0 if self.gear in (Gear.PARK, Gear.NEUTRAL) else 1.0
        target = direction * inputs.pedal * p["drive.max_force_n"] * max(0.0, 1.0 - abs(self.v) /
                                                                          p["drive.max_speed_mps"])
        self.force_n = lag(self.force_n, target, p["drive.force_lag_s"], dt)
        brake = p["drive.brake_n_per_bar"] * inputs.brake_line_bar + (1e4 if self.gear == Gear.PARK else 0.0)
        m = p["mass.mass_kg"]
        a = self.force_n / m
        stop = min(abs(self.v) / dt, brake / m)
        a -= math.copysign(stop, self.v) if self.v else 0.0
        self.accel = a
        self.v += a * dt
        self.steering_wheel_deg = inputs.steering_wheel_deg
        self.delta = bicycle_angle_rad(inputs.steering_wheel_deg, p["steering.ratio"], 0.0)
        self.yaw_rate_rad_s = self.v * math.tan(self.delta) / p["geometry.wheelbase_m"]
        self.yaw += self.yaw_rate_rad_s * dt
        self.x += self.v * math.cos(self.yaw) * dt
        self.y += self.v * math.sin(self.yaw) * dt
        self.ledger.fuel_j += max(0.0, self.force_n * self.v) * dt
        self.ledger.kinetic_j = 0.5 * m * self.v * self.v
        self.drive_mode = AwdSwitch(inputs.drive_mode)

    # what the DBW and the recorder read
    position_m = property(lambda s: (s.x, s.y, 0.0))
    orientation_wxyz = property(lambda s: (math.cos(0.5 * s.yaw), 0.0, 0.0, math.sin(0.5 * s.yaw)))
    velocity_body_mps = property(lambda s: (s.v, 0.0, 0.0))
    angular_velocity_body_rad_s = property(lambda s: (0.0, 0.0, s.yaw_rate_rad_s))
    specific_force_body_mps2 = property(lambda s: (s.accel, s.v * s.yaw_rate_rad_s, G_MPS2))
    speed_mps = property(lambda s: s.v)
    road_wheel_angle_rad = property(lambda s: ackermann_rad(s.delta, s.p["geometry.wheelbase_m"],
                                                            s.p["geometry.track_m"]))
    wheel_spin_rad_s = property(lambda s: (s.v / s.p["geometry.wheel_radius_m"],) * 4)
    wheel_load_n = property(lambda s: (0.25 * s.p["mass.mass_kg"] * G_MPS2,) * 4)
    wheel_slip = property(lambda s: (0.0,) * 4)
    wheel_fy_n = property(lambda s: (0.0,) * 4)
    engine_rpm = engine_speed_rad_s = engine_torque_nm = cvt_ratio = clutch_torque_nm = 0.0
    mass_kg = property(lambda s: s.p["mass.mass_kg"])


def _kit(p):
    """The DBW kit fitted to the cart: its own figures, the Ranger's for the ULC plant model it borrows."""
    ranger = vehicle_spec("polaris").load_parameters(None, None, None, None).values
    flat = {k: v for k, v in p.values.items() if k.startswith("dbw.")}   # the kit assembled with its file
    flat.update({k: ranger[k] for k in list(VEHICLE_KEYS) + list(VEHICLE_ARRAY_KEYS)})
    flat.update({"steering.ratio": p["steering.ratio"], "steering.center_deg": 0.0,
                 "geometry.wheelbase_m": p["geometry.wheelbase_m"], "tyres.radius_m": p["geometry.wheel_radius_m"],
                 "dbw.steering.lock_deg": p["steering.lock_deg"], "vehicle.mass_kg": p["mass.mass_kg"]})
    return DbwParameters.from_mapping(flat)


SPEC = VehicleSpec(
    NAME, "Test cart", load_cart, Cart, None, _kit, "1TESTCART00000001",
    carries_payload=False, payload_hint="a cart carries nothing",
    dimensions=lambda p: Dimensions("test_cart", p["geometry.wheelbase_m"], p["geometry.track_m"],
                                    p["geometry.track_m"], p["geometry.wheel_radius_m"],
                                    p["geometry.wheel_radius_m"], 0.2, 0.2, 0.6, (2.0, 1.2, 1.0)),
    installation=lambda p: Installation(0.0, p["steering.lock_deg"], 80.0),
    surfaces=lambda p: assemble_world(p.values)[1],
    mass_summary=lambda p: {"mass_kg": p["mass.mass_kg"], "cg_m": (0.8, 0.0, 0.4), "inertia_kg_m2": (1, 1, 1),
                            "static_loads_n": (0.25 * p["mass.mass_kg"] * G_MPS2,) * 4},
    ulc_plant=vehicle_spec("polaris").ulc_plant)


@pytest.fixture
def cart(tmp_path):
    f = tmp_path / "cart.json"
    f.write_text(json.dumps(FILE))
    register(SPEC)
    yield f
    del REGISTRY[NAME]


def test_a_third_vehicle_runs_a_scenario_through_the_dbw(cart, tmp_path):
    sc_file = tmp_path / "cart.yaml"
    sc_file.write_text(f"""name: cart
duration_s: 14
command_rate_hz: 50
vehicle: {{parameters: {cart.name}}}
initial: {{gear: P}}
timeline:
  - t: 0
    enable: true
    ulc: {{cmd: 4.0, cmd_type: VELOCITY, limit_accel: 1.0, limit_decel: 1.0, enable: true,
          enable_shift: true, enable_shift_park: true}}
  - t: 2
    steering: {{cmd: 90.0}}
metrics:
  speed_at_12s: {{value_at: speed_mps, t: 12.0}}
  final_x_m: {{final: x_m}}
expect:
  speed_at_12s: {{value: 4.0, abs: 0.3}}
""")
    sc = load_scenario(sc_file)
    assert sc.vehicle_type == NAME          # the file's vehicle key chose the loader
    result = run_scenario(sc)
    assert result.passed, result.expect
    assert result.metrics["final_x_m"] > 5.0       # it drove
