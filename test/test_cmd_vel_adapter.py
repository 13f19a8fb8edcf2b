"""The cmd_vel adapter (msg_adapters.cmd_vel) driving the simulation, without DDS.

The issue's acceptance figure, "cmd_vel at 1.0 m/s and 0.2 rad/s for 20 s on
asphalt gives a circle of radius 5 m within 5 %", is checked here on the core
in the node's default drive mode (AWD) and in the other two, and the open-loop
conversion is shown to miss it by the locked axle's understeer (the reason for
the adapter's yaw-rate feedback). The circle is a least-squares fit to the
rear-axle path over the whole 20 s from a standing start in DRIVE.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from acres_dbw_sim.dbw.commands import ENABLE, SteeringCmd, UlcCmd
from acres_dbw_sim.model.enums import AwdSwitch, Gear
from acres_dbw_sim.simulation import Simulation
from msg_adapters.cmd_vel import IDLE, STOPPING, TRACKING, CmdVelAdapter
from helpers.geometry import fit_circle


def drive(adapter: CmdVelAdapter, seconds: float, twist=(1.0, 0.2), gear=Gear.DRIVE,
          mode=AwdSwitch.AWD, twist_until_s=math.inf, sim=None):
    """Run the simulation with ``adapter`` fed a Twist at 20 Hz until ``twist_until_s``.

    Returns the simulation and a log of (t [s], x [m], y [m], speed [m/s], yaw rate [rad/s]).
    """
    if sim is None:
        sim = Simulation(gear=gear, drive_mode=mode)
        sim.submit(ENABLE)
    log = []
    every = int(round(0.05 / sim.dt_s))
    for k in range(int(round(seconds / sim.dt_s))):
        t = sim.time_s
        if k % every == 0 and t < twist_until_s:
            adapter.on_twist(twist[0], twist[1], t)
        for cmd in adapter.commands(t, sim.reports()):
            sim.submit(cmd)
        sim.step()
        v = sim.vehicle
        log.append((sim.time_s, v.position_m[0], v.position_m[1], v.velocity_body_mps[0],
                    v.yaw_rate_rad_s))
    return sim, np.array(log)


@pytest.mark.parametrize("mode", [AwdSwitch.AWD, AwdSwitch.TWO_WD, AwdSwitch.TURF])
def test_one_metre_per_second_at_0_2_rad_s_drives_a_5_m_circle(mode):
    _, log = drive(CmdVelAdapter(), 20.0, mode=mode)
    radius, *_ = fit_circle(log[:, 1:3])
    assert radius == pytest.approx(5.0, rel=0.05)
    late = log[log[:, 0] > 10.0]
    assert late[:, 3].mean() == pytest.approx(1.0, abs=0.02)
    assert late[:, 4].mean() == pytest.approx(0.2, rel=0.02)


def test_without_the_feedback_the_locked_axle_misses_the_radius():
    """Open loop (kp = ki = 0) in AWD the radius is 11-12 % too large: why the feedback exists."""
    _, log = drive(CmdVelAdapter(kp=0.0, ki=0.0), 20.0)
    radius, *_ = fit_circle(log[:, 1:3])
    assert 1.08 * 5.0 < radius < 1.16 * 5.0


def test_reverse_circle_keeps_the_twist_signs():
    """linear.x < 0: the ULC shifts to REVERSE; a positive yaw rate still turns left (REP-103).

    A 10 m circle: on tighter ones in reverse the steering reaches its lock at the
    launch and the core's ULC then holds a speed error (docs/adapters.md, "Limits").
    """
    sim, log = drive(CmdVelAdapter(), 25.0, twist=(-1.0, 0.1), gear=Gear.NEUTRAL)
    assert Gear(sim.vehicle.gear) == Gear.REVERSE
    late = log[log[:, 0] > 10.0]
    assert late[:, 3].mean() == pytest.approx(-1.0, abs=0.03)
    assert late[:, 4].mean() == pytest.approx(0.1, rel=0.03)
    radius, *_ = fit_circle(late[:, 1:3])
    assert radius == pytest.approx(10.0, rel=0.05)


def test_timeout_stops_the_vehicle_and_holds_it():
    adapter = CmdVelAdapter(timeout_s=0.5)
    sim, log = drive(adapter, 12.0, twist=(3.0, 0.0), twist_until_s=6.0)
    assert adapter.state == STOPPING
    at_stop = log[log[:, 0] < 6.0][-1]
    assert at_stop[3] > 2.5
    # 0.5 s of timeout, then the ULC's default deceleration: still within 6 s
    assert np.all(np.abs(log[log[:, 0] > 11.0][:, 3]) < 0.02)
    ulc, steer = adapter.commands(sim.time_s, sim.reports())
    assert (ulc.cmd, ulc.cmd_type, ulc.enable) == (0.0, UlcCmd.CMD_VELOCITY, True)
    assert (steer.cmd, steer.cmd_type) == (0.0, SteeringCmd.CMD_YAW_RATE)


def test_a_new_twist_after_the_timeout_drives_again():
    adapter = CmdVelAdapter(timeout_s=0.2)
    sim, _ = drive(adapter, 6.0, twist=(2.0, 0.0), twist_until_s=3.0)
    assert adapter.state == STOPPING
    sim, log = drive(adapter, 6.0, twist=(2.0, 0.0), sim=sim)
    assert adapter.state == TRACKING
    assert log[-1, 3] == pytest.approx(2.0, abs=0.05)


def test_commands_content_and_idle_states():
    a = CmdVelAdapter(timeout_s=0.5, shift_park=True)
    sim = Simulation()
    rep = sim.reports()
    assert a.state == IDLE and a.commands(0.0, rep) == ()
    assert a.on_twist(1.5, -0.3, 0.0)
    ulc, steer = a.commands(0.0, rep)
    assert (ulc.cmd, ulc.cmd_type, ulc.enable, ulc.enable_shift, ulc.enable_shift_park) == (
        1.5, UlcCmd.CMD_VELOCITY, True, True, True)
    # standing still: no feedback, the yaw rate goes to the core as given
    assert (steer.cmd, steer.cmd_type, steer.enable) == (-0.3, SteeringCmd.CMD_YAW_RATE, True)
    assert not a.on_twist(math.nan, 0.0, 0.1) and not a.on_twist(1.0, math.inf, 0.1)
    assert a.v_ref_mps == 1.5 and a.last_twist_s == 0.0    # non-finite twists are ignored
    a.reset()
    assert a.state == IDLE and a.commands(0.2, rep) == ()


@pytest.mark.parametrize("kwargs", [dict(timeout_s=0.0), dict(timeout_s=math.inf),
                                    dict(timeout_s=-1.0), dict(kp=-0.1), dict(ki=math.nan)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        CmdVelAdapter(**kwargs)
