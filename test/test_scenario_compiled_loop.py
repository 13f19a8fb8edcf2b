"""The runner's compiled headless loop (``Simulation.run_recorded``) against the per-step path.

Between two timeline entries the runner runs the Ranger's steps through the DBW in one compiled loop: the
re-sends of the streamed commands as their kept decodings (``DbwSystem.kept_command``, ``store_kept``), the
step, the row and the stop conditions. Every row, stop and progress report must be what stepping
``Simulation.step`` once per tick gives (a controller that sends nothing makes the runner take that path).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from acres_dbw_sim.dbw.commands import ENABLE, BrakeCmd, SteeringCmd, ThrottleCmd, UlcCmd
from acres_dbw_sim.dbw.params import DbwParameters
from acres_dbw_sim.dbw.record import record_array, run
from acres_dbw_sim.dbw.state import DriverInput
from acres_dbw_sim.dbw.resend import command_bits, store_kept
from acres_dbw_sim.scenario import load_scenario, run_scenario
from acres_dbw_sim.scenario.signals import COLUMN_NAMES, first_met, parse_condition, stop_table
from acres_dbw_sim.simulation import Simulation

ROOT = Path(__file__).resolve().parents[1]
SYNC = "dbw.system_sync_mode=2"


def _per_step(sim, _inputs) -> None:
    """Sends nothing: the runner then steps once per tick."""


def _same_run(sc_path, sets=None) -> tuple:
    """The compiled run and the per-step run of one scenario; asserts the loop ran and both agree bitwise."""
    seen: list = [[], []]
    fast = run_scenario(load_scenario(sc_path, sets), progress=lambda k, n: seen[0].append(k))
    slow = run_scenario(load_scenario(sc_path, sets), progress=lambda k, n: seen[1].append(k), controller=_per_step)
    assert fast.stop_reason == slow.stop_reason and fast.steps == slow.steps
    assert fast.data.shape == slow.data.shape
    np.testing.assert_array_equal(fast.data, slow.data)   # NaN in the same places
    assert seen[0] == seen[1]
    return fast, slow


def _shipped_dbw_scenarios() -> list:
    out = []
    for p in sorted((ROOT / "scenarios").rglob("*.yaml")):
        sc = load_scenario(p)
        if sc.control == "dbw" and not sc.vehicles:
            out.append(p)
    return out


@pytest.mark.parametrize("path", _shipped_dbw_scenarios(), ids=lambda p: p.stem)
def test_every_shipped_dbw_scenario_gives_the_rows_of_the_per_step_path(path):
    _same_run(path)


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


RICH = """
    duration_s: 9
    initial: {gear: P}
    command_rate_hz: 50
    timeline:
      - t: 0
        enable: true
        brake: {cmd: 20, cmd_type: PRESSURE, enable: true}
        steering: {cmd: 30, cmd_type: ANGLE, cmd_rate: 100, enable: true}
      - t: 0.5
        gear: {cmd: DRIVE}
      - t: 1
        brake: {cmd: 0.2, cmd_type: PERCENT, enable: true, ignore: true}
        throttle: {cmd: 35, cmd_type: PERCENT, rate_inc: 50, enable: true}
      - t: 2.5
        throttle: null
        ulc: {cmd: 4, cmd_type: 1, limit_accel: 1.5, enable: true, enable_shift: true}
      - t: 3.5
        steering: {cmd: 1.5, cmd_type: 13}
      - t: 3.8
        steering: {cmd: 30, cmd_type: ANGLE, cmd_rate: 100, enable: true}
      - t: 4.5
        brake: null
        driver: {steering_torque_nm: 6, accel_pedal_pct: 60}
      - t: 5
        driver: null
        fault: {throttle: true}
        throttle: {cmd: 20, cmd_type: PERCENT, enable: true}
      - t: 5.5
        fault: {throttle: false}
        enable: true
      - t: 6
        ulc: {cmd: 0.5, cmd_type: 2, enable: true}
      - t: 7
        steering: {cmd: 2, cmd_type: TORQUE, enable: true, clear: true}
    stop_when: "t_s > 8.5 and speed_mps > 100"
    """


@pytest.mark.parametrize("sets", [None, SYNC, f"{SYNC};command_rate_hz=7", "command_rate_hz=9;output_every=7"])
def test_streams_events_faults_timeouts_and_the_sync_mode_give_the_rows_of_the_per_step_path(tmp_path, sets):
    # the stretches: re-sends with enable, clear and ignore bits, a command decoded anew at every
    # re-send (a steering CMD_SET_OFFSET: the per-step path for that stretch), an angle after the offset
    # changed, a driver override, a fault, re-enable, command
    # timeouts (a re-send rate below the 0.1 s timeout: log events inside a stretch), the firmware-managed
    # mode's one-shot clears
    fast, _slow = _same_run(_write(tmp_path, RICH), sets)
    en = fast.column("dbw_enabled")
    assert en.max() == 1.0 and en.min() == 0.0   # it engaged and dropped out


def test_a_stop_condition_met_inside_a_stretch_stops_at_the_same_row(tmp_path):
    p = _write(tmp_path, """
        duration_s: 10
        initial: {gear: H}
        timeline:
          - t: 0
            enable: true
            throttle: {cmd: 50, cmd_type: PERCENT, enable: true}
        stop_when: ["speed_mps > 3.3", "abs(yaw_rate_rad_s) > 5"]
        output_every: 5
        """)
    fast, _ = _same_run(p)
    assert fast.stop_reason == "stop_when: speed_mps > 3.3" and fast.steps < 1200
    assert fast.column("speed_mps")[-1] > 3.3 >= fast.column("speed_mps")[-2]


def test_the_loop_runs_the_stretches_and_the_entries_step():
    sc = load_scenario(ROOT / "scenarios" / "examples" / "ulc_speed_step.yaml")
    sim = Simulation(sc.params, sc.terrain.build(), sc.dt_s, gear=sc.initial.gear)
    assert sim.runs_recorded
    calls = []
    real = sim.run_recorded
    sim.run_recorded = lambda *a: calls.append(a[0]) or real(*a)
    steps: list = []
    sim.step = (lambda step: lambda: steps.append(sim.time_s) or step())(sim.step)
    from acres_dbw_sim.scenario import runner
    runner._run_single(sc, sim.terrain, None, None, sim)
    entries = len(sc.timeline)
    assert len(steps) == entries and len(calls) >= entries - 1


def _driven(sync: bool, cmd, override: bool) -> Simulation:
    """A simulation streaming ``cmd`` at 40 Hz, its subsystem overridden by the driver and released (with
    ``override``), enabled again: the next re-send takes the enable mask and the clears of its mode."""
    sim = Simulation(dbw_params=DbwParameters.from_json(overrides={"dbw.system_sync_mode": 2}) if sync else None)
    sim.submit(ENABLE)
    for k in range(60):
        if k % 3 == 0:
            sim.submit(cmd)
        if override and k == 30:   # every subsystem overridden while enabled: latched until a clear
            sim.set_driver(DriverInput(accel_pedal_pct=60.0, brake_pedal_pct=60.0, steering_torque_nm=6.0))
        if override and k == 40:
            sim.set_driver(DriverInput())
        sim.step()
    sim.submit(ENABLE)   # the request stands again (driver-managed) or one-shot clears queue (firmware-managed)
    return sim


def _record(sim: Simulation):
    """The DBW's record as comparable data: its bytes (compiled) or its attributes (interpreted, a StandIn)."""
    s = sim.dbw.state
    if hasattr(s, "tobytes"):
        return s.tobytes()

    def value(v):   # the interpreted stores may hold numpy scalars where Python gave floats: equal values
        if isinstance(v, list):
            return tuple(value(x) for x in v)
        x = float(v)
        return "nan" if x != x else x
    return {k: value(v) for k, v in vars(s).items()}


@pytest.mark.parametrize("sync", [False, True], ids=["driver-managed", "firmware-managed"])
@pytest.mark.parametrize("override", [False, True], ids=["no override", "latched override"])
def test_a_kept_decoding_stores_what_submit_stores(sync, override):
    # each streamed kind, with the enable mask and the clears of both modes (§4.1, §4.2)
    cmds = [SteeringCmd(cmd_type=2, cmd=45.0, cmd_rate=120.0, enable=True, clear=True, ignore=True),
            SteeringCmd(cmd_type=1, cmd=1.5, enable=True),
            BrakeCmd(cmd_type=13, cmd=20.0, enable=True, ignore=True), BrakeCmd(cmd_type=9, cmd=-2.0, enable=True),
            ThrottleCmd(cmd_type=14, cmd=130.0, rate_inc=30.0, enable=True, clear=True),
            ThrottleCmd(cmd_type=14, cmd=10.0, enable=True),
            UlcCmd(cmd_type=1, cmd=3.0, limit_accel=1.0, enable=True, enable_shift=True, coast_decel=True)]
    for cmd in cmds:
        a, b = _driven(sync, cmd, override), _driven(sync, cmd, override)
        assert _record(a) == _record(b)
        slot, kept = b.dbw.kept_command(cmd)
        # the Python path: the actuator's own command() with the re-send (its LastCommand's decoding), the bits
        # as submit takes them
        actuator = {SteeringCmd: a.dbw.steering, BrakeCmd: a.dbw.brake, ThrottleCmd: a.dbw.throttle,
                    UlcCmd: a.dbw.ulc}[type(cmd)]
        actuator.command(a.time_s, cmd, *run(command_bits, record_array(a.dbw.state), slot))
        run(store_kept, record_array(b.dbw.state), slot, b.time_s, kept)   # the compiled re-send
        assert _record(a) == _record(b), cmd
        a.step()
        b.step()
        assert _record(a) == _record(b), cmd


def test_a_command_decoded_anew_has_no_kept_decoding():
    sim = Simulation()
    bad = BrakeCmd(cmd_type=1, cmd=float("nan"), enable=True)   # invalid: counted at every arrival
    sim.submit(bad)
    assert sim.dbw.kept_command(bad) is None
    good = BrakeCmd(cmd_type=1, cmd=10.0, enable=True)
    assert sim.dbw.kept_command(good) is None                   # not the last one received
    sim.submit(good)
    assert sim.dbw.kept_command(good)[0] == 1
    assert sim.dbw.kept_command(ENABLE) is None


@pytest.mark.parametrize("text", ["speed_mps < 0.05", "abs(yaw_rate_rad_s) >= 0.2 and t_s > 1",
                                  "gear == 4", "gear != 4 and pedal <= 0.5", "x_m > 1e9"])
def test_first_met_agrees_with_the_condition_mask(text):
    rng = np.random.default_rng(7)
    data = rng.normal(0.0, 1.0, (400, len(COLUMN_NAMES)))
    data[::7, :] = np.nan
    data[::5, COLUMN_NAMES.index("gear")] = 4.0
    conds = [parse_condition(text), parse_condition("t_s > 2.5")]
    table = stop_table(conds)
    expect = np.where(conds[0].mask(data), 0, np.where(conds[1].mask(data), 1, -1))
    got = np.array([first_met(row, table) for row in data])
    np.testing.assert_array_equal(got, expect)
    assert first_met(data[0], stop_table([])) == -1
