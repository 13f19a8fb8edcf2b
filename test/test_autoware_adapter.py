"""The Autoware adapter (msg_adapters.autoware) on the simulation, without DDS: modes, control, gear, indicators."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from acres_dbw_sim.dbw import msg_fields as MF
from acres_dbw_sim.dbw.commands import DISABLE, ENABLE, GearCmd, SteeringCmd, TurnSignalCmd, UlcCmd
from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.simulation import Simulation
from msg_adapters import autoware as AW


def control(v=0.0, delta=0.0, a=None, j=None, rate=None):
    """A ``Control``'s two parts as the adapter reads them (None: the field is not defined)."""
    lon = SimpleNamespace(velocity=v, acceleration=a or 0.0, jerk=j or 0.0, is_defined_acceleration=a is not None,
                          is_defined_jerk=j is not None)
    lat = SimpleNamespace(steering_tire_angle=delta, steering_tire_rotation_rate=rate or 0.0,
                          is_defined_steering_tire_rotation_rate=rate is not None)
    return lat, lon


def adapter_for(sim, **kw):
    return AW.AutowareAdapter(sim.dbw.p.steering_ratio, sim.dbw.p.steering_center_deg, sim.dbw.p.brake_max_bar, **kw)


def run(sim, a, seconds, ctrl=None):
    """Step with ``ctrl`` sent at 30 Hz; log of (t, speed, yaw rate, tyre angle reported)."""
    log = []
    every = int(round(sim.dt_s ** -1 / 30))
    for k in range(int(round(seconds / sim.dt_s))):
        t = sim.time_s
        if ctrl is not None and k % every == 0:
            a.on_control(*ctrl, t)
        for cmd in a.commands(t, sim.reports()):
            sim.submit(cmd)
        sim.step()
        log.append((sim.time_s, sim.vehicle.velocity_body_mps[0], sim.vehicle.yaw_rate_rad_s,
                    a.steering.angle_of(sim.reports())))
    return np.array(log)


def test_autonomous_drives_at_the_speed_and_the_bicycle_yaw_rate_and_reports_the_mode():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    a = adapter_for(sim)
    assert a.control_mode(sim.reports()) == AW.MANUAL and a.commands(0.0, sim.reports()) == ()
    assert a.request_mode(AW.AUTONOMOUS)
    log = run(sim, a, 9.0, control(3.0, 0.2))
    late = log[log[:, 0] > 5.0]
    assert np.all(np.abs(late[:, 1] - 3.0) < 0.1)
    bicycle = 3.0 * math.tan(0.2) / sim.params.geometry.wheelbase_m
    assert np.all(np.abs(late[:, 2] / bicycle - 1.0) < 0.05)
    assert late[-1, 3] == pytest.approx(0.2, abs=0.005)
    assert a.control_mode(sim.reports()) == AW.AUTONOMOUS


def test_a_driver_override_disengages_and_the_mode_stays_manual():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    a = adapter_for(sim)
    a.request_mode(AW.AUTONOMOUS)
    run(sim, a, 4.0, control(2.0))
    from acres_dbw_sim.dbw.state import DriverInput
    sim.set_driver(DriverInput(brake_pedal_pct=50.0))
    run(sim, a, 0.5, control(2.0))
    sim.set_driver(DriverInput())
    assert a.mode == AW.MANUAL and a.control_mode(sim.reports()) == AW.MANUAL
    cmds = a.commands(sim.time_s, sim.reports())
    assert not any(isinstance(c, (UlcCmd, SteeringCmd)) for c in cmds)   # it stopped commanding
    assert not sim.reports().dbw_enabled


def test_the_partial_modes_command_one_side_and_let_the_other_go_and_manual_disables():
    reports = SimpleNamespace(dbw_enabled=True, steering_offset=SimpleNamespace(steering_wheel_angle_offset=0.0),
                              gear_report=SimpleNamespace(gear=int(MF.Gear.DRIVE)))
    a = AW.AutowareAdapter(15.0, 0.0, 80.0)
    a.on_control(*control(1.0, 0.1, a=0.8, j=2.0, rate=0.2), 0.0)
    assert a.request_mode(AW.AUTONOMOUS_STEER_ONLY)
    enable, ulc, steer = a.commands(0.0, reports)
    assert enable is ENABLE and not ulc.enable and steer.enable      # the ULC let go by command, not by timeout
    assert a.request_mode(AW.AUTONOMOUS_VELOCITY_ONLY)
    enable, ulc, steer = a.commands(0.01, reports)
    assert enable is ENABLE and ulc.enable and not steer.enable
    assert (ulc.cmd, ulc.limit_accel, ulc.limit_decel, ulc.limit_jerk_throttle) == (1.0, 0.8, 0.8, 2.0)
    assert not ulc.enable_shift                                      # the gear is Autoware's
    assert a.request_mode(AW.NO_COMMAND) and a.mode == AW.AUTONOMOUS_VELOCITY_ONLY
    assert not a.request_mode(7) and not a.request_mode(AW.MANUAL + 1)
    assert a.request_mode(AW.MANUAL) and a.commands(0.02, reports) == (DISABLE,)
    assert a.control_mode(reports) == AW.MANUAL


def test_control_fields_map_onto_the_dbw_commands_and_nan_is_ignored():
    reports = SimpleNamespace(dbw_enabled=True, steering_offset=SimpleNamespace(steering_wheel_angle_offset=0.0),
                              gear_report=SimpleNamespace(gear=int(MF.Gear.REVERSE)))
    a = AW.AutowareAdapter(15.0, 5.0, 80.0)
    a.request_mode(AW.AUTONOMOUS)
    k = 15.0 * 180.0 / math.pi
    assert a.on_control(*control(-2.0, -0.3, rate=-0.1), 0.0)
    _enable, ulc, steer = a.commands(0.0, reports)
    assert (ulc.cmd, ulc.limit_accel, ulc.limit_jerk_brake) == (-2.0, 0.0, 0.0)     # undefined: the DBW's defaults
    assert (steer.cmd_type, steer.cmd) == (SteeringCmd.CMD_ANGLE, pytest.approx(5.0 - 0.3 * k))
    assert steer.cmd_rate == pytest.approx(0.1 * k)
    assert not a.on_control(*control(math.nan), 0.1) and a.ignored == 1
    lat, lon = control(1.0)
    lon.acceleration = math.nan                                    # an undefined field is not read
    assert a.on_control(lat, lon, 0.1) is True
    assert not a.on_control(*control(1.0, a=math.inf), 0.1)        # a defined one is


@pytest.mark.parametrize("gear, asked", [(MF.Gear.PARK, 0.0), (MF.Gear.NEUTRAL, 0.0), (MF.Gear.DRIVE, 3.0),
                                         (MF.Gear.LOW, 3.0), (MF.Gear.REVERSE, 3.0)])
def test_the_ulc_is_asked_for_nothing_until_a_drive_gear_is_in(gear, asked):
    """The ULC does not shift for Autoware: in PARK or NEUTRAL its set-point is 0 m/s, so its integrator
    does not wind up while the lever moves (3 m/s held 8 s in PARK overshot to 3.34 m/s after the shift)."""
    reports = SimpleNamespace(dbw_enabled=True, steering_offset=SimpleNamespace(steering_wheel_angle_offset=0.0),
                              gear_report=SimpleNamespace(gear=int(gear)))
    a = AW.AutowareAdapter(15.0, 5.0, 80.0)
    a.request_mode(AW.AUTONOMOUS)
    assert a.on_control(*control(3.0, 0.1), 0.0)
    _enable, ulc, _steer = a.commands(0.0, reports)
    assert ulc.cmd == asked and ulc.enable
    assert a.ulc_command().cmd == 3.0                              # the set-point itself is kept


def test_a_vehicle_reset_keeps_an_engaged_mode_and_sends_the_gear_again():
    reports = SimpleNamespace(dbw_enabled=True, steering_offset=SimpleNamespace(steering_wheel_angle_offset=0.0),
                              gear_report=SimpleNamespace(gear=int(MF.Gear.DRIVE)))
    a = AW.AutowareAdapter(15.0, 5.0, 80.0)
    a.request_mode(AW.AUTONOMOUS)
    a.on_gear(2)                                                   # DRIVE
    a.commands(0.0, reports)
    a.commands(0.1, reports)                                       # engaged, in DRIVE
    a.vehicle_reset()                                              # /initialpose3d: DBW at power-on, PARK
    reports.dbw_enabled, reports.gear_report.gear = False, int(MF.Gear.PARK)
    sent = a.commands(0.2, reports)
    assert sent[0] is ENABLE and a.mode == AW.AUTONOMOUS
    reports.dbw_enabled = True
    assert any(isinstance(c, GearCmd) and c.cmd == int(MF.Gear.DRIVE) for c in a.commands(0.21, reports))
    b = AW.AutowareAdapter(15.0, 5.0, 80.0)                        # MANUAL stays MANUAL
    b.vehicle_reset()
    assert b.commands(0.0, reports) == () and b.mode == AW.MANUAL


@pytest.mark.parametrize("code, gear", [(1, MF.Gear.NEUTRAL), (2, MF.Gear.DRIVE), (19, MF.Gear.DRIVE),
                                        (20, MF.Gear.REVERSE), (21, MF.Gear.REVERSE), (22, MF.Gear.PARK),
                                        (23, MF.Gear.LOW), (24, MF.Gear.LOW), (0, None), (25, None)])
def test_gear_codes_map_both_ways(code, gear):
    assert AW.gear_from_autoware(code) == (None if gear is None else int(gear))
    if gear is not None and code in (1, 2, 20, 22, 23):
        assert AW.GEAR_TO_AUTOWARE[int(gear)] == code


def test_the_gear_request_is_sent_until_the_gear_shows_it_and_indicators_are_held_with_hazard_first():
    reports = SimpleNamespace(dbw_enabled=True, gear_report=SimpleNamespace(gear=int(MF.Gear.PARK)))
    a = AW.AutowareAdapter(15.0, 0.0, 80.0)
    a.on_gear(2)
    assert a.commands(0.0, reports) == ()                           # MANUAL: nothing goes to the DBW
    a.request_mode(AW.AUTONOMOUS)
    enable, gear = a.commands(0.0, reports)                          # the enable, then the gear
    assert enable is ENABLE and isinstance(gear, GearCmd) and gear.cmd == int(MF.Gear.DRIVE)
    a.on_gear(2)
    assert a.commands(0.2, reports) == ()                           # asked again only after GEAR_RESEND_S
    assert [type(c) for c in a.commands(AW.GEAR_RESEND_S, reports)] == [GearCmd]   # refused: again
    reports.gear_report.gear = int(MF.Gear.DRIVE)
    assert a.commands(5.0, reports) == ()                           # the gear shows it: done
    a.on_turn_indicators(2)
    (turn,) = a.commands(5.1, reports)
    assert isinstance(turn, TurnSignalCmd) and turn.cmd == int(MF.TurnSignal.LEFT)
    a.on_hazard_lights(2)
    assert a.commands(5.2, reports)[0].cmd == int(MF.TurnSignal.HAZARD)
    a.on_turn_indicators(0)                                       # NO_COMMAND keeps the state
    a.on_hazard_lights(1)
    assert a.commands(5.3, reports)[0].cmd == int(MF.TurnSignal.LEFT)
    a.request_mode(AW.MANUAL)                                     # MANUAL forgets the indicators
    a.request_mode(AW.AUTONOMOUS)
    assert [type(c) for c in a.commands(5.4, reports)] == [type(DISABLE), type(ENABLE)]
    fb = lambda v: SimpleNamespace(turn_signal_report=SimpleNamespace(feedback=v))   # noqa: E731
    assert (AW.AutowareAdapter.turn_indicators(fb(1)), AW.AutowareAdapter.hazard_lights(fb(1))) == (2, 1)
    assert (AW.AutowareAdapter.turn_indicators(fb(3)), AW.AutowareAdapter.hazard_lights(fb(3))) == (1, 2)


def test_a_refused_shift_to_park_while_moving_happens_once_stopped():
    """Autoware asks for PARK while still rolling: the DBW refuses; the adapter asks again and it parks."""
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    a = adapter_for(sim)
    a.request_mode(AW.AUTONOMOUS)
    a.on_gear(2)
    run(sim, a, 4.0, control(2.0))
    a.on_gear(22)                                                 # PARK at 2 m/s: refused
    run(sim, a, 6.0, control(0.0))
    assert Gear(sim.vehicle.gear) == Gear.PARK and AW.AutowareAdapter.gear(sim.reports()) == 22


def test_negative_speed_in_drive_does_not_shift_by_itself():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    a = adapter_for(sim)
    a.request_mode(AW.AUTONOMOUS)
    a.on_gear(2)
    log = run(sim, a, 4.0, control(-1.0))
    assert Gear(sim.vehicle.gear) == Gear.DRIVE and np.all(log[:, 1] > -0.05)


@pytest.fixture(scope="module")
def accel_map(tmp_path_factory):
    from acres_dbw_sim import autoware_maps as maps
    out = tmp_path_factory.mktemp("maps")
    assert maps.main([str(out)]) == 0
    return maps.read_map(out / "accel_map.csv")[1:]


@pytest.mark.parametrize("cruise_mps, asked, rel", [(8.0, 1.0, 0.05), (4.5, 1.0, 0.15), (10.0, 0.5, 0.15),
                                                    (4.5, 0.5, 0.15), (2.0, 1.5, 0.15)])
def test_actuation_strokes_read_off_our_accel_map_give_about_the_acceleration_asked(accel_map, cruise_mps, asked, rel):
    """The actuation path as Autoware's raw_vehicle_cmd_converter drives it: from a cruise, the accel stroke for
    the acceleration asked at the current speed, read off acres_dbw_sim.autoware_maps' map by a reader of the
    converter's format, every 30 ms through the DBW. Within 5 % at 8 m/s (the issue's figure), 15 % elsewhere
    (the belt's state is not one map cell's; the measured figures are in the maps' docstring)."""
    from acres_dbw_sim import autoware_maps as maps
    vel, strokes, table = accel_map
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    a = adapter_for(sim)
    a.request_mode(AW.AUTONOMOUS)
    a.on_gear(2)
    run(sim, a, 8.0, control(cruise_mps))                           # cruising on the ULC
    speeds, every = [], int(round(0.03 / sim.dt_s))
    for k in range(int(round(3.0 / sim.dt_s))):
        t, v = sim.time_s, sim.vehicle.velocity_body_mps[0]
        if k % every == 0:
            a.on_actuation(maps.stroke_for(vel, strokes, table, v, asked), 0.0, 0.0, t)
        for cmd in a.commands(t, sim.reports()):
            sim.submit(cmd)
        sim.step()
        speeds.append(sim.vehicle.velocity_body_mps[0])
    t = np.arange(len(speeds)) * sim.dt_s
    late = t > 1.5                                                   # the belt and the engine settled
    accel = np.polyfit(t[late], np.array(speeds)[late], 1)[0]
    assert accel == pytest.approx(asked, rel=rel)
    status = a.actuation_status(sim.reports())
    assert 0.0 < status[0] < 1.0 and status[1] == 0.0 and abs(status[2]) < 0.01


def test_actuation_commands_map_onto_pedal_pressure_and_angle_and_let_the_ulc_go():
    reports = SimpleNamespace(dbw_enabled=True, steering_offset=SimpleNamespace(steering_wheel_angle_offset=0.0),
                              gear_report=SimpleNamespace(gear=int(MF.Gear.DRIVE)))
    a = AW.AutowareAdapter(15.0, 0.0, 80.0)
    a.request_mode(AW.AUTONOMOUS)
    assert a.on_actuation(0.3, 1.7, 0.1, 0.0)
    cmds = a.commands(0.0, reports)[1:]
    ulc, throttle, brake, steer = cmds
    assert not ulc.enable and (throttle.cmd_type, throttle.cmd) == (14, pytest.approx(30.0))
    assert (brake.cmd_type, brake.cmd) == (1, 80.0)                     # stroke clamped to 1: the full scale
    assert steer.cmd == pytest.approx(0.1 * 15.0 * 180.0 / math.pi)
    assert not a.on_actuation(math.nan, 0.0, 0.0, 0.1) and a.ignored == 1
    ulc = a.commands(1.0, reports)[0]                                   # silence: the ULC stops the vehicle
    assert ulc.enable and ulc.cmd == 0.0


def test_control_before_autonomous_is_named_as_such_not_as_park():
    reports = SimpleNamespace(dbw_enabled=False, gear_report=SimpleNamespace(gear=int(MF.Gear.PARK)))
    a = AW.AutowareAdapter(15.0, 5.0, 80.0)
    assert a.on_control(*control(3.0), 0.0)
    assert "MANUAL" in a.park_warning(reports)
    b = AW.AutowareAdapter(15.0, 5.0, 80.0)
    b.request_mode(AW.AUTONOMOUS)
    assert b.on_control(*control(3.0), 0.0)
    assert "Autoware shifts it" in b.park_warning(reports)


def test_the_localization_acceleration_removes_gravity_in_the_body_frame():
    """At rest on a 10 deg slope the accelerometer reads the slope's share of gravity and the acceleration
    is zero; level, the specific force less g upwards is the acceleration itself."""
    pitch = math.radians(10.0)                                    # nose down (REP-103, about +y)
    q = (math.cos(pitch / 2), 0.0, math.sin(pitch / 2), 0.0)
    g = 9.80665
    at_rest = (-g * math.sin(pitch), 0.0, g * math.cos(pitch))    # what an IMU reads there
    assert AW.kinematic_acceleration_body(at_rest, q) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert AW.kinematic_acceleration_body((1.5, -0.6, g), (1.0, 0.0, 0.0, 0.0)) == pytest.approx((1.5, -0.6, 0.0))
