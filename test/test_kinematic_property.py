"""Property test: random command streams through the DBW into the kinematic level never give a
non-finite state or a NaN outside the fields documented as unknown (DBW protocol) or not modelled
(``kinematic.UNAVAILABLE``, fuel level)."""
from __future__ import annotations

import math
from dataclasses import fields

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.vehicles.polaris.kinematic import UNAVAILABLE
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.simulation import Simulation
from helpers.strategies import COMMAND, DRIVER, MAY_BE_NONFINITE

ALLOWED = {k: set(v) for k, v in MAY_BE_NONFINITE.items()}
for _msg, _names in UNAVAILABLE.items():
    ALLOWED.setdefault(_msg, set()).update(_names)
ALLOWED.setdefault("fuel_level", set()).add("fuel_level")

EVENT = st.one_of(
    st.tuples(st.just("cmd"), COMMAND, st.integers(0, 3)),
    st.tuples(st.just("stream"), COMMAND, st.integers(1, 120)),
    st.tuples(st.just("driver"), DRIVER, st.just(0)),
    st.tuples(st.just("fault"), st.sampled_from(["steering", "brake", "throttle", "gear"]), st.booleans()),
)
SIM = Simulation(terrain=FlatTerrain(grade_pct=12.0, bank_pct=-4.0), model="kinematic")


def _check(sim):
    v = sim.vehicle
    for name in ("position_m", "orientation_wxyz", "velocity_body_mps", "angular_velocity_body_rad_s",
                 "specific_force_body_mps2", "wheel_spin_rad_s", "wheel_angle_rad", "road_wheel_angle_rad"):
        assert all(math.isfinite(x) for x in getattr(v, name)), (name, getattr(v, name))
    assert abs(v.speed_mps) < 40.0
    rep = sim.reports()
    for name in ("steering_report", "brake_report", "throttle_report", "gear_report", "system_report",
                 "ulc_report", "misc_report", "turn_signal_report", "drive_mode_report", "vehicle_velocity",
                 "wheel_speeds", "tire_pressures", "throttle_info", "brake_info", "steering_offset",
                 "steering_info", "propulsion_info", "fuel_level", "imu"):
        msg = getattr(rep, name)
        for f in fields(msg):
            x = getattr(msg, f.name)
            if isinstance(x, float) and not math.isfinite(x):
                assert f.name in ALLOWED.get(name, ()), f"{name}.{f.name} = {x}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EVENT, min_size=1, max_size=25), st.floats(-5.0, 20.0), st.sampled_from([Gear.PARK, Gear.DRIVE,
                                                                                          Gear.LOW, Gear.REVERSE]))
def test_random_command_streams_keep_the_kinematic_vehicle_finite(events, v0, gear):
    sim = SIM
    sim.dbw.set_driver(type(sim.dbw.driver)())
    for sub in ("steering", "brake", "throttle", "gear"):
        sim.set_fault(sub, False)
    sim.reset(1.0, -2.0, 0.3, v0 if gear != Gear.PARK else 0.0, gear)
    sim.enable()
    for kind, a, b in events:
        if kind == "cmd":
            for _ in range(b + 1):
                sim.submit(a)
        elif kind == "stream":
            for k in range(b):
                if k % 2 == 0:
                    sim.submit(a)
                sim.step()
        elif kind == "driver":
            sim.set_driver(a)
        elif kind == "fault":
            sim.set_fault(a, b)
        sim.step()
        _check(sim)
