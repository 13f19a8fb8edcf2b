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
    return AckermannAdapter(p.geometry_wheelbase_m, p.steering_ratio, **kw)


def run(sim, adapter, seconds, msg, until_s=math.inf):
    """Step ``sim`` with ``msg`` sent at 20 Hz until ``until_s``; log of (t, speed, yaw rate, road-wheel angle)."""
    log = []
    every = int(round(0.05 / sim.dt_s))
    for k in range(int(round(seconds / sim.dt_s))):
        t = sim.time_s
        if k % every == 0 and t < until_s:
            adapter.on_drive(msg, t)
        for cmd in adapter.commands(t):
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
    ulc, steer = adapter.commands(sim.time_s)
    assert (ulc.cmd, ulc.limit_decel, ulc.limit_accel) == (0.0, 0.0, 0.0)    # the DBW's default limits
    assert steer.cmd == pytest.approx(math.tan(0.1) / sim.params.geometry.wheelbase_m)
    assert log[-1, 3] == pytest.approx(0.1, abs=0.005)
    run(sim, adapter, 0.1, drive_msg(1.0, 0.0))
    assert adapter.state == TRACKING


def test_the_fields_map_onto_the_dbw_commands():
    a = AckermannAdapter(wheelbase_m=2.0, steering_ratio=15.0, shift_park=True)
    assert a.state == IDLE and a.commands(0.0) == ()
    assert a.on_drive(drive_msg(1.5, 0.2, steering_angle_velocity=0.1, acceleration=1.2, jerk=3.0), 0.0)
    ulc, steer = a.commands(0.0)
    assert (ulc.cmd, ulc.cmd_type, ulc.enable, ulc.enable_shift, ulc.enable_shift_park) == (
        1.5, UlcCmd.CMD_VELOCITY, True, True, True)
    assert (ulc.limit_accel, ulc.limit_decel, ulc.limit_jerk_throttle, ulc.limit_jerk_brake) == (1.2, 1.2, 3.0, 3.0)
    assert (steer.cmd_type, steer.enable) == (SteeringCmd.CMD_CURVATURE, True)
    assert steer.cmd == pytest.approx(math.tan(0.2) / 2.0)
    assert steer.cmd_rate == pytest.approx(math.degrees(0.1) * 15.0)    # the steering wheel's rate [deg/s]
    # zero: as fast as the vehicle allows (+inf, the DBW's largest limit); negative: its magnitude
    a.on_drive(drive_msg(-1.0, -0.2, steering_angle_velocity=-0.1, acceleration=-2.0), 0.05)
    ulc, steer = a.commands(0.05)
    assert (ulc.cmd, ulc.limit_accel, ulc.limit_decel, ulc.limit_jerk_brake) == (-1.0, 2.0, 2.0, math.inf)
    assert steer.cmd == pytest.approx(-math.tan(0.2) / 2.0) and steer.cmd_rate == pytest.approx(math.degrees(0.1) * 15)
    a.on_drive(drive_msg(), 0.1)
    assert a.commands(0.1)[1].cmd_rate == math.inf
    # beyond a right angle the curvature is the largest of its sign, never the other way
    a.on_drive(drive_msg(steering_angle=3.0), 0.15)
    assert a.commands(0.15)[1].cmd == math.inf
    for bad in (dict(speed=math.nan), dict(steering_angle=math.inf), dict(jerk=-math.inf)):
        assert not a.on_drive(drive_msg(**bad), 0.2)
    assert a.last_message_s == 0.15
    a.reset()
    assert a.state == IDLE and a.commands(0.3) == ()


@pytest.mark.parametrize("kwargs", [dict(wheelbase_m=0.0), dict(steering_ratio=math.nan), dict(timeout_s=0.0),
                                    dict(timeout_s=math.inf), dict(wheelbase_m="2")])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        AckermannAdapter(**{"wheelbase_m": 2.0, "steering_ratio": 15.0, **kwargs})
