"""The Maxxum 150 behind the DBW emulation (vehicles/maxxum150/dbw_vehicle.py) through ``Simulation``.

The same Dataspeed commands that drive the Ranger drive the tractor: throttle pedal -> the governor's
command, brake -> b_k, steering-wheel angle -> delta_cmd through ``installation.steering_ratio``, the lever ->
direction, neutral and the park brake.
"""
import math

import pytest

from acres_dbw_sim.dbw import msg_fields as MF
from acres_dbw_sim.dbw.commands import ENABLE, BrakeCmd, GearCmd, SteeringCmd, ThrottleCmd
from acres_dbw_sim.model.enums import Gear, GearReject
from acres_dbw_sim.simulation import Simulation


def _drive(sim, seconds, throttle=0.0, brake=0.0, steer_deg=0.0):
    """Commands at 60 Hz for ``seconds``; returns the DBW's outputs of the last step."""
    out = None
    for k in range(int(round(seconds / sim.dt_s))):
        if k % 2 == 0:
            sim.submit(ThrottleCmd(cmd=throttle, cmd_type=ThrottleCmd.CMD_PERCENT, enable=True))
            sim.submit(BrakeCmd(cmd=brake, cmd_type=BrakeCmd.CMD_PERCENT, enable=True))
            sim.submit(SteeringCmd(cmd=steer_deg, cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
        out = sim.step()
    return out


def test_two_minute_dbw_drive():
    """Engage, DRIVE, throttle, a left turn, stop, PARK: 120 s through the DBW."""
    sim = Simulation(vehicle="maxxum150")
    v = sim.vehicle
    v.select_gear(8)
    assert sim.enable()
    _drive(sim, 4.0, brake=100.0)
    sim.submit(GearCmd(cmd=Gear.DRIVE))
    _drive(sim, 1.0, brake=100.0)
    assert v.gear == Gear.DRIVE and v.tractor.gear == 8
    _drive(sim, 25.0, throttle=60.0)
    rpm, speed = v.engine_rpm, v.speed_mps
    # gear 8 without slip: v = omega_e r_r / i; the driven tyres' slip takes a little of it
    i8 = v.tractor._setup.overall_ratio
    assert speed == pytest.approx(rpm * math.pi / 30.0 * 0.905 / i8, rel=0.03)
    assert speed > 1.0 and sim.dbw_enabled
    _drive(sim, 20.0, throttle=60.0, steer_deg=300.0)
    delta = math.radians(300.0 / v.params.dbw_steering_ratio)
    assert v.bicycle_angle_rad == pytest.approx(delta, abs=1e-6)
    r_kin = v.params.chassis.wheelbase_m / math.tan(delta)
    assert v.yaw_rate_rad_s == pytest.approx(v.speed_mps / r_kin, rel=0.15)   # a left turn near Ackermann's
    _drive(sim, 35.0, throttle=60.0)
    _drive(sim, 10.0, brake=100.0)
    assert abs(v.speed_mps) < 0.01
    sim.submit(GearCmd(cmd=Gear.PARK))
    _drive(sim, 25.0)
    assert v.gear == Gear.PARK and v.tractor.park_brake and abs(v.speed_mps) < 1e-3
    rep = sim.reports()
    assert rep.gear_report.gear == int(Gear.PARK)
    assert abs(v.ledger.relative_residual) < 3e-4
    assert sim.time_s == pytest.approx(120.0)


def test_direction_change_refused_at_speed():
    sim = Simulation(vehicle="maxxum150", gear=Gear.DRIVE)
    v = sim.vehicle
    assert sim.enable()
    _drive(sim, 10.0, throttle=50.0)
    assert v.speed_mps > 1.0
    # the DBW's own speed check refuses first; the tractor's rule stands behind it
    sim.submit(GearCmd(cmd=Gear.REVERSE))
    _drive(sim, 0.5, throttle=50.0)
    assert v.gear == Gear.DRIVE and v.tractor.direction == 1
    assert sim.reports().gear_report.reject == int(GearReject.VEHICLE_SPEED)


def test_brake_pressure_maps_to_the_brake_command():
    sim = Simulation(vehicle="maxxum150", gear=Gear.DRIVE)
    v = sim.vehicle
    assert sim.enable()
    _drive(sim, 8.0, throttle=60.0)
    out = _drive(sim, 3.0, brake=50.0)
    tb = v.brake_torque_nm
    loads = v.wheel_load_n
    b_k = [tb[j] / (1.5 * loads[j] * (0.707 if j < 2 else 0.905)) for j in range(4)]
    assert max(b_k) - min(b_k) < 1e-9                      # T_b = 1.5 b_k N r on every wheel
    assert out.brake_line_bar > 10.0
    assert b_k[0] == pytest.approx(out.brake_line_bar / v.params.dbw_brake_full_bar, rel=1e-9)
    assert abs(v.speed_mps) < 0.01


def test_kinematic_tractor_and_unknown_vehicle_are_refused():
    with pytest.raises(ValueError, match="maxxum150"):
        Simulation(vehicle="maxxum150", model="kinematic")
    with pytest.raises(ValueError, match="vehicle"):
        Simulation(vehicle="combine")


def test_gearcmd_manual_selects_the_powershift_gear():
    sim = Simulation(vehicle="maxxum150")
    v = sim.vehicle
    assert sim.enable()
    _drive(sim, 1.0, brake=100.0)
    sim.submit(GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=6))        # from PARK: the lever goes to DRIVE, gear 6
    _drive(sim, 1.0, brake=100.0)
    assert v.gear == Gear.DRIVE and v.tractor.gear == 6
    _drive(sim, 15.0, throttle=70.0)
    v6 = v.speed_mps
    sim.submit(GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=9))        # a powershift while driving
    _drive(sim, 15.0, throttle=70.0)
    assert v.tractor.gear == 9 and v.speed_mps > 1.3 * v6     # gear step 1.2211 per gear: 1.82x
    rep = sim.reports().gear_report
    assert (rep.gear_manual, rep.cmd_manual, rep.support_cmd_manual) == (9, 9, True)
    assert rep.reject == int(GearReject.NONE)
    for bad in (0, 17):
        sim.submit(GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=bad))
        _drive(sim, 0.2, throttle=70.0)
        assert sim.reports().gear_report.reject == int(GearReject.UNSUPPORTED) and v.tractor.gear == 9


def test_the_ranger_has_no_manual_gears():
    sim = Simulation(gear=Gear.DRIVE)
    assert sim.enable()
    sim.submit(GearCmd(cmd=MF.Gear.MANUAL, cmd_manual=3))
    sim.step()
    rep = sim.reports().gear_report
    assert rep.reject == int(GearReject.UNSUPPORTED) and not rep.support_cmd_manual and rep.gear_manual == 0


def test_a_tractor_bag_replays_as_the_tractor(tmp_path):
    """A bag of a DBW drive of the tractor carries ``vehicle: maxxum150`` in its node parameters; the replay
    simulates the tractor and reproduces the recorded reports (``--param vehicle=`` for a bag without them)."""
    import json

    from acres_dbw_sim.replay.cli import main
    from acres_dbw_sim.replay.synth import scenario_to_bag
    from acres_dbw_sim.scenario.schema import load_scenario

    sc_path = tmp_path / "drive.yaml"
    sc_path.write_text("""
name: tractor_dbw
duration_s: 12
vehicle: {type: maxxum150}
terrain: {surface: concrete}
initial: {gear: P}
timeline:
  - {t: 0, enable: true, brake: {cmd: 100, cmd_type: 14, enable: true}}
  - {t: 1, gear: D}
  - {t: 2, brake: {cmd: 0, cmd_type: 14, enable: true}, throttle: {cmd: 60, cmd_type: 14, enable: true}}
  - {t: 6, steering: {cmd: 200, cmd_type: 2, enable: true}}
  - {t: 9, throttle: {cmd: 0, cmd_type: 14, enable: true}, brake: {cmd: 100, cmd_type: 14, enable: true}}
""")
    sc = load_scenario(sc_path)
    for name, meta, extra in (("with", True, []), ("without", False, ["--param", "vehicle=maxxum150",
                                                                      "--param", "surface=concrete"])):
        scenario_to_bag(sc, tmp_path / name, node_metadata=meta)
        out = tmp_path / f"out_{name}"
        assert main([str(tmp_path / name), "--out", str(out), "--no-plots", *extra]) == 0
        rep = json.loads((out / "replay.json").read_text())
        assert rep["parameters"]["vehicle"] == "maxxum150"
        assert rep["comparison"]["speed_mps"]["rms"] < 1e-4
        assert rep["comparison"]["steering_wheel_angle_deg"]["rms"] < 1e-3     # float32 report fields
