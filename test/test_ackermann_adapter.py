"""The Ackermann adapter (msg_adapters.ackermann) driving the simulation, without DDS.

``AckermannDrive`` 2 m/s and 0.3 rad in Turf on asphalt: the speed within 0.1 m/s and the yaw
rate within 5 % of the bicycle value ``v tan(delta) / L`` after 5 s; reverse; silence -> the
stop of cmd_vel; the fields' mapping onto the DBW's commands.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from acres_dbw_sim.dbw.commands import ENABLE, SteeringCmd, UlcCmd
from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.simulation import Simulation
from msg_adapters.ackermann import IDLE, STOPPING, TRACKING, AckermannAdapter


def drive_msg(speed=0.0, steering_angle=0.0, steering_angle_velocity=0.0, acceleration=0.0, jerk=0.0):
    """An ``AckermannDrive`` stand-in (the adapter reads the five fields by name)."""
    return SimpleNamespace(speed=speed, steering_angle=steering_angle, steering_angle_velocity=steering_angle_velocity,
                           acceleration=acceleration, jerk=jerk)


def adapter_for(sim: Simulation, **kw) -> AckermannAdapter:
    p = sim.dbw.p
    return AckermannAdapter(p.steering_ratio, p.steering_center_deg, **kw)


def run(sim, adapter, seconds, msg, until_s=math.inf):
    """Step ``sim`` with ``msg`` sent at 20 Hz until ``until_s``; log of (t, speed, yaw rate, road-wheel angle)."""
    log = []
    every = int(round(0.05 / sim.dt_s))
    for k in range(int(round(seconds / sim.dt_s))):
        t = sim.time_s
        if k % every == 0 and t < until_s:
            adapter.on_drive(msg, t)
        for cmd in adapter.commands(t, sim.reports()):
            sim.submit(cmd)
        sim.step()
        v = sim.vehicle
        log.append((sim.time_s, v.velocity_body_mps[0], v.yaw_rate_rad_s, v.bicycle_angle_rad))
    return np.array(log)


def test_two_metres_per_second_at_0_3_rad_tracks_speed_and_the_bicycle_yaw_rate():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    sim.submit(ENABLE)
    log = run(sim, adapter_for(sim), 10.0, drive_msg(2.0, 0.3))
    late = log[log[:, 0] > 5.0]
    assert np.all(np.abs(late[:, 1] - 2.0) < 0.1)
    bicycle = 2.0 * math.tan(0.3) / sim.params.geometry.wheelbase_m
    assert np.all(np.abs(late[:, 2] / bicycle - 1.0) < 0.05)
    assert late[-1, 3] == pytest.approx(0.3, abs=0.005)     # the road-wheel angle asked is driven


def test_negative_speed_reverses_and_the_yaw_rate_changes_sign():
    sim = Simulation(gear=Gear.NEUTRAL, drive_mode=AwdSwitch.TURF)
    sim.submit(ENABLE)
    log = run(sim, adapter_for(sim), 12.0, drive_msg(-1.0, 0.2))
    assert Gear(sim.vehicle.gear) == Gear.REVERSE
    late = log[log[:, 0] > 7.0]
    assert late[:, 1].mean() == pytest.approx(-1.0, abs=0.05)
    assert late[:, 2].mean() == pytest.approx(-math.tan(0.2) / sim.params.geometry.wheelbase_m, rel=0.05)


def test_silence_stops_the_vehicle_as_cmd_vel_does_and_keeps_the_angle():
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    sim.submit(ENABLE)
    adapter = adapter_for(sim, timeout_s=0.5)
    log = run(sim, adapter, 12.0, drive_msg(3.0, 0.1, acceleration=0.5), until_s=6.0)
    assert adapter.state == STOPPING
    assert log[log[:, 0] < 6.0][-1, 1] > 2.5
    assert np.all(np.abs(log[log[:, 0] > 11.0][:, 1]) < 0.02)
    ulc, steer = adapter.commands(sim.time_s, sim.reports())
    assert (ulc.cmd, ulc.limit_decel, ulc.limit_accel) == (0.0, 0.0, 0.0)    # the DBW's default limits
    assert adapter.steering_angle_rad == 0.1 and log[-1, 3] == pytest.approx(0.1, abs=0.005)
    run(sim, adapter, 0.1, drive_msg(1.0, 0.0))
    assert adapter.state == TRACKING


def test_the_fields_map_onto_the_dbw_commands():
    a = AckermannAdapter(steering_ratio=15.0, center_deg=10.0, shift_park=True)
    k = 15.0 * 180.0 / math.pi
    assert a.state == IDLE and a.commands(0.0) == ()
    assert a.on_drive(drive_msg(1.5, 0.2, steering_angle_velocity=0.1, acceleration=1.2, jerk=3.0), 0.0)
    ulc, steer = a.commands(0.0)
    assert (ulc.cmd, ulc.cmd_type, ulc.enable, ulc.enable_shift, ulc.enable_shift_park) == (
        1.5, UlcCmd.CMD_VELOCITY, True, True, True)
    assert (ulc.limit_accel, ulc.limit_decel, ulc.limit_jerk_throttle, ulc.limit_jerk_brake) == (1.2, 1.2, 3.0, 3.0)
    assert (steer.cmd_type, steer.enable) == (SteeringCmd.CMD_ANGLE, True)
    assert steer.cmd == pytest.approx(10.0 + k * 0.2)                   # straight ahead + angle x ratio [deg]
    assert steer.cmd_rate == pytest.approx(k * 0.1)                     # the steering wheel's rate [deg/s]
    offset = SimpleNamespace(steering_offset=SimpleNamespace(steering_wheel_angle_offset=-3.0))
    assert a.commands(0.0, offset)[1].cmd == pytest.approx(7.0 + k * 0.2)   # against the calibration offset
    # zero: as fast as the vehicle allows (+inf, the DBW's largest limit); negative: its magnitude
    a.on_drive(drive_msg(-1.0, -0.2, steering_angle_velocity=-0.1, acceleration=-2.0), 0.05)
    ulc, steer = a.commands(0.05)
    assert (ulc.cmd, ulc.limit_accel, ulc.limit_decel, ulc.limit_jerk_brake) == (-1.0, 2.0, 2.0, math.inf)
    assert steer.cmd == pytest.approx(10.0 - k * 0.2) and steer.cmd_rate == pytest.approx(k * 0.1)
    a.on_drive(drive_msg(), 0.1)
    assert a.commands(0.1)[1].cmd_rate == math.inf
    warnings = []
    for bad in (dict(speed=math.nan), dict(steering_angle=math.inf), dict(jerk=-math.inf)):
        assert not a.on_drive(drive_msg(**bad), 0.2)
        warnings.append(a.ignored_warning())
    assert a.last_message_s == 0.1 and a.ignored == 3
    assert "NaN or infinite" in warnings[0] and warnings[1:] == [None, None]    # the first, then every 100th
    a.reset()
    assert a.state == IDLE and a.commands(0.3) == ()


def test_the_whole_lock_is_in_reach_and_the_angle_is_the_one_driven():
    """Beyond the curvature field's 0.1999 1/m (0.52 rad on the Ranger): the lock, 0.71 rad, is reached."""
    sim = Simulation(gear=Gear.DRIVE, drive_mode=AwdSwitch.TURF)
    sim.submit(ENABLE)
    p = sim.dbw.p
    lock_rad = math.radians(p.steering_lock_deg - abs(p.steering_center_deg)) / p.steering_ratio
    log = run(sim, adapter_for(sim), 3.0, drive_msg(0.5, 0.65))
    assert 0.6 < lock_rad and log[-1, 3] == pytest.approx(0.65, abs=0.005)


def test_a_speed_asked_in_park_without_shift_park_is_warned_once():
    sim = Simulation(gear=Gear.PARK)
    sim.submit(ENABLE)
    a = adapter_for(sim)
    run(sim, a, 1.0, drive_msg(2.0, 0.0))
    warning = a.park_warning(sim.reports())
    assert warning and "PARK" in warning and "shift_park" in warning
    assert a.park_warning(sim.reports()) is None                          # once per stand-still in PARK
    assert adapter_for(sim, shift_park=True).park_warning(sim.reports()) is None


@pytest.mark.parametrize("kwargs", [dict(center_deg=math.nan), dict(steering_ratio=math.nan), dict(timeout_s=0.0),
                                    dict(timeout_s=math.inf), dict(steering_ratio="2"), dict(steering_ratio=0.0)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        AckermannAdapter(**{"steering_ratio": 15.0, "center_deg": 0.0, **kwargs})
