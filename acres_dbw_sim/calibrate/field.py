"""A generated "field" bag: the drive a team would record for calibration, made by the simulator.

The drive repeats a 17 s cycle with varied amplitudes: brake held, a
throttle step (pedal percent), a coast-down, a steering sweep left and right
on a light throttle, and a brake step to standstill. Commands are what the
team would send: raw steering angles around the *shipped* steering centre
(what they believe is straight ahead). The vehicle that "drives" it is the
simulator with the parameters given as ``truth`` overrides, so the bag holds
the reports of a vehicle whose parameters are known exactly: the test data of
the calibration (``test/test_calibrate.py``, ``bench/bench_calibrate.py``,
``docs/calibration.md``).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from ..replay import scenario_to_bag
from ..scenario import load_scenario

__all__ = ["field_scenario_yaml", "make_field_bag", "round_trip_truth", "CYCLE_S"]

#: Length of one cycle [s].
CYCLE_S = 17.0
# (throttle step %, steering amplitude deg, cruise throttle %, brake step bar) per cycle, repeated
_AMPLITUDES = ((70.0, 90.0, 40.0, 12.0), (85.0, 150.0, 45.0, 20.0), (60.0, 60.0, 35.0, 8.0),
               (75.0, 120.0, 42.0, 15.0))


def round_trip_truth(shipped: dict) -> dict:
    """The perturbed vehicle: the "truth" of the round-trip test, the bench and the docs.

    Steering centre +3 deg, steering ratio +5 %, both brake gains -10 %,
    throttle lag +40 ms, dry mass +150 kg, gravel rolling coefficient x1.5.

    Parameters
    ----------
    shipped : dict
        ``{key: value}`` of the parameter file (``keys.file_entries()`` values).

    Returns
    -------
    dict
        ``{key: perturbed value}`` for the seven keys (units of the file: deg, -,
        N m/bar, s, kg, -).

    Raises
    ------
    KeyError
        If ``shipped`` lacks one of the keys.
    """
    return {
        "steering.center_deg": shipped["steering.center_deg"] + 3.0,
        "steering.ratio": shipped["steering.ratio"] * 1.05,
        "brakes.front_nm_per_bar": shipped["brakes.front_nm_per_bar"] * 0.9,
        "brakes.rear_nm_per_bar": shipped["brakes.rear_nm_per_bar"] * 0.9,
        "dbw.throttle.lag_s": shipped["dbw.throttle.lag_s"] + 0.04,
        "mass.dry_kg": shipped["mass.dry_kg"] + 150.0,
        "surfaces.gravel.rolling_resistance": shipped["surfaces.gravel.rolling_resistance"] * 1.5,
    }


def field_scenario_yaml(cycles: int = 1, surface: str = "gravel", truth: str = "", center_deg: float = 12.53,
                        steering_only: bool = False, name: str = "field", grade_pct: float = 0.0) -> str:
    """The scenario (YAML text) of the field drive.

    Parameters
    ----------
    cycles : int
        Number of 17 s cycles (>= 1).
    surface : str
        Surface of the flat terrain.
    truth : str
        ``key=value;...``: the parameters of the vehicle that drives (the "real" one).
    center_deg : float
        Steering angle [deg] the driver commands as straight ahead.
    steering_only : bool
        Start at 4 m/s in D with a constant throttle, then steering sweeps only (no pedal
        step, no coast, no brake): a bag that excites the steering alone.
    name : str
    grade_pct : float
        Grade of the plane [%], uphill along the start heading (+x).

    Returns
    -------
    str
        Scenario YAML for :func:`acres_dbw_sim.scenario.load_scenario`.
    """
    c0 = center_deg
    lines = [f"name: {name}", "description: generated field drive for calibration",
             f"duration_s: {cycles * CYCLE_S + 0.5:g}", "step_hz: 120", "command_rate_hz: 50",
             f"terrain: {{surface: {surface}, grade_pct: {grade_pct:g}}}",
             "initial: {gear: H, speed_mps: 4.0}" if steering_only else "initial: {gear: P}"]
    if truth:
        lines.append(f"vehicle: {{overrides: {json.dumps(truth)}}}")
    ev = []

    def at(t: float, **cmds) -> None:
        ev.append((t, cmds))

    def steer(a: float, rate: float = 150) -> str:
        return f"{{cmd: {c0 + a:.2f}, cmd_type: CMD_ANGLE, cmd_rate: {rate:g}, enable: true}}"

    thr = lambda p: f"{{cmd: {p:g}, cmd_type: CMD_PERCENT, enable: true}}"  # noqa: E731
    brk = lambda b: f"{{cmd: {b:g}, cmd_type: CMD_PRESSURE, enable: true}}"  # noqa: E731
    if steering_only:
        at(0.0, enable="true", throttle=thr(35), steering=steer(0.0))
    else:
        at(0.0, enable="true", brake=brk(20), steering=steer(0.0))
        at(0.5, gear="{cmd: DRIVE}")
    for i in range(cycles):
        c = 1.0 + i * CYCLE_S
        step, amp, cruise, bar = _AMPLITUDES[i % len(_AMPLITUDES)]
        if steering_only:
            at(c + 4.0, steering=steer(amp))
            at(c + 8.0, steering=steer(-amp))
            at(c + 12.0, steering=steer(0.0))
            at(c + 14.0, steering=steer(amp / 2))
            at(c + 16.0, steering=steer(0.0))
            continue
        at(c, brake=brk(0), throttle=thr(step))
        at(c + 3.0, throttle=thr(0))
        at(c + 6.0, throttle=thr(cruise), steering=steer(amp))
        at(c + 8.0, steering=steer(-amp))
        at(c + 10.0, steering=steer(0.0))
        at(c + 11.0, throttle=thr(0))
        at(c + 11.5, brake=brk(bar))
    lines.append("timeline:")
    for t, cmds in ev:
        lines.append(f"  - t: {t:g}")
        for k, v in cmds.items():
            lines.append(f"    {k}: {v}")
    return "\n".join(lines) + "\n"


def make_field_bag(path: str | Path, cycles: int = 1, surface: str = "gravel", truth: str = "",
                   steering_only: bool = False, grade_pct: float = 0.0) -> dict:
    """Write the field drive as a rosbag2 at ``path`` (as from the vehicle: no node metadata).

    The drive of :func:`field_scenario_yaml` with the same arguments; a bag on a grade is
    replayed and calibrated with ``grade_pct`` given (``--param grade_pct=...``), as a real
    bag's slope would be.

    Returns
    -------
    dict
        :func:`acres_dbw_sim.replay.scenario_to_bag`'s summary.

    Raises
    ------
    acres_dbw_sim.scenario.ScenarioError
        For a bad ``surface`` or ``truth`` override: the message names the
        command-line option and the key, not the generated scenario file.
    msg_adapters.bag.BagError
        If ``path`` exists.
    """
    from ..scenario import ScenarioError
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "field.yaml"
        f.write_text(field_scenario_yaml(cycles, surface, truth, steering_only=steering_only, grade_pct=grade_pct))
        try:
            sc = load_scenario(f)
        except ScenarioError as err:
            option = {"terrain.surface": "--surface", "terrain.grade_pct": "--grade"}.get(err.key, "--truth")
            raise ScenarioError(option, err.key, err.reason) from None
        return scenario_to_bag(sc, path)
