"""Sign source of ``vehicle_velocity`` and ``wheel_speeds`` (dbw-interface.md §2.10, §4.13).

``DIR_PRNDL`` (1, the shipped ``dbw.vehicle_velocity_dir_src``): the sign is
that of the gear, negative in REVERSE, positive otherwise, whatever way the
wheels turn. ``DIR_SENSOR`` (2): the true sign from direction-sensing wheel
sensors. The DBW's own users of the speed (ULC, yaw-rate conversion, wheel
counters) see the same measured value.
"""

import pytest

from acres_dbw_sim.dbw.commands import ENABLE, UlcCmd
from acres_dbw_sim.dbw.msg_fields import Gear
from acres_dbw_sim.dbw.params import DbwParameters, ParameterError
from acres_dbw_sim.model.enums import Gear as ModelGear
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.simulation import Simulation

from helpers.dbw import FakeVehicle, make, run

DIR_PRNDL, DIR_SENSOR = 1, 2


def _reports(dbw, veh, t=1.0):
    run(dbw, veh, 0.0, t)
    return dbw.reports(t, veh)


def test_the_shipped_sign_source_is_prndl():
    rep = _reports(make(), FakeVehicle(speed=3.0, gear=int(Gear.DRIVE)))
    assert rep.vehicle_velocity.dir_src == DIR_PRNDL


@pytest.mark.parametrize("gear,v,expect", [
    (Gear.REVERSE, -2.0, -2.0),   # reversing
    (Gear.DRIVE, 3.0, 3.0),
    (Gear.DRIVE, -1.5, 1.5),      # rolling back in H: the gear says forward
    (Gear.NEUTRAL, -1.5, 1.5),
    (Gear.REVERSE, 1.0, -1.0),    # rolling forward in R: the gear says backward
])
def test_prndl_takes_the_sign_from_the_gear(gear, v, expect):
    rep = _reports(make(), FakeVehicle(speed=v, gear=int(gear)))
    vv = rep.vehicle_velocity
    assert vv.vehicle_velocity_brake == pytest.approx(expect, abs=0.01 / 3.6)
    assert vv.vehicle_velocity_propulsion == vv.vehicle_velocity_brake
    ws = rep.wheel_speeds
    for w in (ws.front_left, ws.front_right, ws.rear_left, ws.rear_right):
        assert w == pytest.approx(expect / 0.3429, abs=0.01)
    assert rep.ulc_report.vel_meas == pytest.approx(expect, abs=0.01)


@pytest.mark.parametrize("gear,v", [(Gear.REVERSE, -2.0), (Gear.DRIVE, -1.5), (Gear.REVERSE, 1.0)])
def test_dir_sensor_reports_the_true_sign(gear, v):
    dbw = make(**{"dbw.vehicle_velocity_dir_src": DIR_SENSOR})
    rep = _reports(dbw, FakeVehicle(speed=v, gear=int(gear)))
    assert rep.vehicle_velocity.dir_src == DIR_SENSOR
    assert rep.vehicle_velocity.vehicle_velocity_brake == pytest.approx(v, abs=0.01 / 3.6)
    assert rep.wheel_speeds.rear_left == pytest.approx(v / 0.3429, abs=0.01)


@pytest.mark.parametrize("dir_src,grows", [(DIR_PRNDL, True), (DIR_SENSOR, False)])
def test_wheel_counters_follow_the_measured_sign(dir_src, grows):
    dbw = make(**{"dbw.vehicle_velocity_dir_src": dir_src})
    veh = FakeVehicle(speed=-1.0, gear=int(Gear.DRIVE))  # rolling back in H for 1 s
    rep = _reports(dbw, veh)
    counts = rep.wheel_positions.rear_left
    expect = 1.0 / (2 * 3.14159265 * 0.3429) * dbw.p.wheel_counts_per_rev  # ~46 counts
    assert (counts > 0) == grows and abs(counts) == pytest.approx(expect, abs=1.5)


@pytest.mark.parametrize("value", [0, 3, 1.5, True])
def test_unsupported_sign_sources_are_rejected(value):
    with pytest.raises(ParameterError) as exc:
        DbwParameters.from_json(overrides={"dbw.vehicle_velocity_dir_src": value})
    assert exc.value.key == "dbw.vehicle_velocity_dir_src"


def test_rolling_back_in_neutral_on_a_grade_reads_positive_with_prndl():
    """The full model: in N on a 10 % grade the vehicle rolls back; the report says forward."""
    sim = Simulation(terrain=FlatTerrain(grade_pct=10.0), gear=ModelGear.NEUTRAL)
    sim.run(3.0)
    v_true = sim.vehicle.velocity_body_mps[0]
    assert v_true < -1.0
    vv = sim.reports().vehicle_velocity
    assert vv.vehicle_velocity_brake == pytest.approx(-v_true, abs=0.01)
    assert vv.dir_src == DIR_PRNDL


def test_ulc_still_holds_the_vehicle_on_a_grade_with_the_gear_signed_speed():
    """A stop on a 10 % grade in H: the ULC sees |v| (the sign of H) and holds with the brake."""
    sim = Simulation(terrain=FlatTerrain(grade_pct=10.0), gear=ModelGear.DRIVE)
    sim.reset(speed_mps=2.0, gear=ModelGear.DRIVE)
    sim.submit(ENABLE)
    cmd = UlcCmd(cmd=0.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True)
    sim.run(12.0, before_step=lambda s: s.submit(cmd))
    assert abs(sim.vehicle.velocity_body_mps[0]) < 0.02
    assert sim.dbw.outputs.brake_line_bar > 5.0
