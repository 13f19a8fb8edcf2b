"""Run a validated scenario and write its outputs.

The run builds one :class:`~acres_dbw_sim.simulation.Simulation` (the object
the ROS node steps) and drives it at one of two levels:

* ``actuator``: the timeline sets the model's inputs (pedal, line pressure,
  steering-wheel angle, lever request, AWD switch) and the vehicle is stepped
  directly with ``sim.vehicle.step(inputs)``; the DBW is not stepped.
* ``dbw``: the timeline delivers ``ds_dbw_msgs`` commands and events through
  ``sim.submit`` and every step is ``sim.step()`` (DBW, then the model).
  Streamed messages (steering, brake, throttle, ulc) are re-sent at
  ``command_rate_hz`` until the timeline changes them or sets them to null.

The model level behind either (``model: full`` or ``kinematic``) is the
scenario's. A scenario with a ``vehicles`` list runs every vehicle (own initial
state, model level, control level and timeline) over the same time span on one
shared terrain object; the vehicles do not interact (no collisions, the
terrain is static), so they are stepped one after the other, which gives the
same rows as stepping them in lockstep.

Nothing here reads a clock or a random source inside the loop except the wall
time for the summary, so the CSV is a function of the scenario alone.

Outputs are written to a temporary directory beside ``out`` and moved into
place only when complete: a failed run leaves ``out`` as it was.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..model.enums import Gear
from ..model._jit import specialise
from ..model.inputs import VehicleInputs
from ..simulation import Simulation
from ..vehicles import vehicle_spec
from .schema import STREAMED
from .signals import COLUMN_NAMES, INDEX, RowReader, csv_format, evaluate_metric, first_met, stop_table
from .timeline import TimelinePlayer
from .validated import Scenario

DIVERGENCE_COLUMNS = ("x_m", "y_m", "z_m", "yaw_rad", "vx_mps", "speed_mps")
"""Columns every model level fills: a non-finite value in one of them fails the run (run_scenario)."""

__all__ = ["RunResult", "run_scenario", "write_outputs", "finite_json", "OUTPUT_FILES"]

#: Files a run writes into its output directory.
OUTPUT_FILES = ("timeseries.csv", "summary.json", "plots.png")
_WHEELS = ("fl", "fr", "rl", "rr")


@dataclass
class RunResult:
    """What a run produced.

    Attributes
    ----------
    scenario : Scenario
    data : ndarray
        Rows x columns of the CSV (``COLUMN_NAMES``), float64.
    steps : int
        Physics steps taken.
    simulated_s : float
        Simulated time [s].
    stop_reason : str
        ``duration``, ``stop_when: <condition>`` or ``diverged: ...`` (a non-finite state: the run fails).
    wall_s : float
        Wall time of the stepping loop [s].
    metrics : dict
        ``{name: value or None}``.
    expect : dict
        ``{metric: {"measured", "expected", "passed"}}``.
    passed : bool
        Every expectation met (True when there are none).
    ledger : dict
        Energy-ledger terms [J], residual and relative residual (NaN: the kinematic level has no ledger).
    vehicles : dict
        ``{name: RunResult}`` of every vehicle of a ``vehicles`` list (empty for one vehicle). The
        fields above are then those of the first vehicle, except ``passed`` (all of them) and
        ``wall_s`` (all of them together).
    """

    scenario: Scenario
    data: np.ndarray
    steps: int
    simulated_s: float
    stop_reason: str
    wall_s: float
    metrics: dict = field(default_factory=dict)
    expect: dict = field(default_factory=dict)
    passed: bool = True
    ledger: dict = field(default_factory=dict)
    vehicles: dict = field(default_factory=dict)

    @property
    def real_time_factor(self) -> float:
        """Simulated time / wall time of the loop."""
        return self.simulated_s / self.wall_s if self.wall_s > 0.0 else math.inf

    @property
    def steps_per_s(self) -> float:
        """Physics steps per wall-clock second."""
        return self.steps / self.wall_s if self.wall_s > 0.0 else math.inf

    def column(self, name: str) -> np.ndarray:
        """One CSV column."""
        return self.data[:, INDEX[name]]

    def csv_lines(self, chunk: int = 4096):
        """The CSV text, header first, in chunks of lines (each ending in a newline)."""
        yield ",".join(COLUMN_NAMES) + "\n"
        fmt = csv_format()
        for i in range(0, self.data.shape[0], chunk):
            yield "".join(fmt % tuple(r) + "\n" for r in self.data[i:i + chunk].tolist())

    def summary(self) -> dict:
        """The content of ``summary.json``."""
        sc = self.scenario
        mp = _mass_summary(sc)
        d = self.data
        fin = bool(np.isfinite(d).all())
        with warnings.catch_warnings():      # a column the model level does not fill is NaN throughout
            warnings.simplefilter("ignore", RuntimeWarning)
            d_max, d_min = np.nanmax(d, axis=0), np.nanmin(d, axis=0)
        scen = {"name": sc.name, "description": sc.description,
                "file": str(sc.source) if sc.source is not None else None, "sets": list(sc.sets),
                "control": sc.control, "model": sc.model, "step_hz": sc.step_hz, "duration_s": sc.duration_s,
                "output_every": sc.output_every}
        if sc.control == "dbw":
            scen["command_rate_hz"] = sc.command_rate_hz
        out = {
            "scenario": scen,
            "vehicle": {**sc.vehicle, **mp},
            "run": {"steps": self.steps, "simulated_s": self.simulated_s, "stop_reason": self.stop_reason,
                    "rows": int(d.shape[0]), "all_finite": fin, "wall_time_s": self.wall_s,
                    "steps_per_s": self.steps_per_s, "real_time_factor": self.real_time_factor},
            "final": _row_dict(d[-1]),
            "max": _row_dict(d_max),
            "min": _row_dict(d_min),
            "ledger": self.ledger,
            "metrics": self.metrics,
        }
        if self.expect:
            out["expect"] = self.expect
        if self.vehicles:
            out["vehicles"] = {
                name: {"model": r.scenario.model, "control": r.scenario.control,
                       "initial": {"x_m": r.scenario.initial.x_m, "y_m": r.scenario.initial.y_m,
                                   "yaw_rad": r.scenario.initial.yaw_rad, "speed_mps": r.scenario.initial.speed_mps},
                       "stop_reason": r.stop_reason, "final": _row_dict(r.data[-1]), "metrics": r.metrics,
                       "expect": r.expect, "passed": r.passed, "outputs": f"vehicles/{name}"}
                for name, r in self.vehicles.items()}
        out["passed"] = self.passed
        return finite_json(out)


def _row_dict(row: np.ndarray) -> dict:
    return {n: (int(v) if n in ("gear", "drive_mode", "dbw_enabled") else float(v))
            for n, v in zip(COLUMN_NAMES, row.tolist())}


def finite_json(x):
    """A copy of ``x`` (nested dicts, lists, tuples) safe for strict JSON: NaN and ±inf become None.

    Used for every JSON file the tools write (scenario results, replay.json,
    calibration.json), which are written with ``allow_nan=False``.
    """
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: finite_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_json(v) for v in x]
    return x


def run_scenario(sc: Scenario, progress: Callable[[int, int], None] | None = None,
                 controller: Callable[[Simulation, VehicleInputs | None], None] | None = None) -> RunResult:
    """Run ``sc`` and return its results (nothing is written).

    Parameters
    ----------
    sc : Scenario
        From :func:`~acres_dbw_sim.scenario.schema.load_scenario`.
    progress : callable, optional
        ``progress(steps_done, n_steps)``, called every 512 steps and at the end.
    controller : callable, optional
        Closed-loop hook ``controller(sim, inputs)``, called before every physics
        step after that step's timeline entries, with ``sim.time_s`` the step's
        start time (also at the actuator level). At the actuator level
        ``inputs`` is the model's :class:`VehicleInputs` (change its fields); at
        the DBW level it is None and the controller sends commands with
        ``sim.submit``. It reads the state from ``sim.vehicle`` (and
        ``sim.reports()``). The run stays deterministic if the controller is.

    Returns
    -------
    RunResult
        With ``vehicles`` filled for a scenario with a vehicles list (the controller, if any, is
        called for every vehicle's simulation).
    """
    if sc.vehicles:
        return _run_vehicles(sc, progress, controller)
    sim = sc.take_built()   # the simulation validation built (never stepped; reset below like a new one)
    if sim is not None:
        return _run_single(sc, sim.terrain, progress, controller, sim)
    return _run_single(sc, sc.terrain.build(), progress, controller)


def _run_vehicles(sc: Scenario, progress, controller) -> RunResult:
    """Every vehicle of ``sc.vehicles`` on one terrain object; the first vehicle's result carries them all."""
    terrain = sc.terrain.build()
    results: dict = {}
    for vs in sc.vehicles:
        sub = dataclasses.replace(sc, name=f"{sc.name}/{vs.name}", initial=vs.initial, control=vs.control,
                                  timeline=vs.timeline, model=vs.model, vehicles=())
        results[vs.name] = _run_single(sub, terrain, progress, controller)
    lead = next(iter(results.values()))
    return dataclasses.replace(lead, scenario=sc, vehicles=results, passed=all(r.passed for r in results.values()),
                               wall_s=sum(r.wall_s for r in results.values()))


def _mass_summary(sc: Scenario) -> dict:
    """Mass [kg], centre of mass from base_footprint [m], principal inertia [kg m^2] and static wheel loads
    [N] of the scenario's vehicle as loaded (its registry row's ``mass_summary``)."""
    m = vehicle_spec(sc.vehicle_type).mass_summary(sc.params)
    return {"mass_kg": m["mass_kg"], "cg_m": list(m["cg_m"]), "inertia_kg_m2": list(m["inertia_kg_m2"]),
            "static_loads_n": dict(zip(_WHEELS, m["static_loads_n"]))}


def _run_single(sc: Scenario, terrain, progress, controller, sim: Simulation | None = None) -> RunResult:
    """One vehicle on ``terrain`` (in ``sim``, built for ``sc`` on ``terrain``, if given)."""
    ini = sc.initial
    if sim is None:
        sim = Simulation(sc.params, terrain, sc.dt_s, gear=ini.gear, drive_mode=ini.drive_mode, model=sc.model,
                         vehicle=sc.vehicle_type)
    sim.reset(ini.x_m, ini.y_m, ini.yaw_rad, ini.speed_mps, ini.gear, ini.drive_mode)
    v = sim.vehicle
    fuel = sc.params.fuel
    reader = RowReader(v, fuel.lhv_j_kg * fuel.density_kg_l)
    # the rows: the initial one, one every output_every steps, the last step's and a stop condition's
    data = np.empty((sc.n_steps // sc.output_every + 3, len(COLUMN_NAMES)))
    reader.write(data, 0, 0.0, 0.0, 0.0, 0)
    loop = _run_actuator if sc.control == "actuator" else _run_dbw
    t0 = time.perf_counter()
    steps, reason, n_rows = loop(sc, sim, reader, data, progress, controller)
    wall = time.perf_counter() - t0
    if progress is not None:
        progress(steps, sc.n_steps)
    data = data[:n_rows]
    led = v.ledger.as_dict()
    led["relative_residual"] = v.ledger.relative_residual if math.isfinite(v.ledger.fuel_j) else math.nan
    # the state every model level fills: a non-finite value means the run diverged (a parameter far outside
    # the model's range); it fails, whatever its expectations say
    state = data[:, [INDEX[c] for c in DIVERGENCE_COLUMNS]]
    bad = np.flatnonzero(~np.isfinite(state).all(axis=1))
    if bad.size:
        reason = f"diverged: non-finite state from t = {data[bad[0], INDEX['t_s']]:.4g} s"
    res = RunResult(sc, data, steps, steps * sc.dt_s, reason, wall, ledger=led)
    res.passed = not bad.size
    values: dict = {}
    for m in sc.metrics:
        values[m.name] = evaluate_metric(m, data, values)
    res.metrics = values
    for e in sc.expect:
        ok = e.check(values[e.metric])
        res.expect[e.metric] = {"measured": values[e.metric], "expected": e.describe(), "passed": ok}
        res.passed = res.passed and ok
    return res


def _run_actuator(sc: Scenario, sim: Simulation, reader: RowReader, data: np.ndarray, progress,
                  controller) -> tuple:
    """Actuator level: the timeline's inputs straight into ``Vehicle.step``. Returns (steps, reason, rows
    written into ``data``, the first being the initial row)."""
    v = sim.vehicle
    inp = VehicleInputs(pedal=0.0, brake_line_bar=0.0, steering_wheel_deg=sim.vehicle.steering_wheel_deg,
                        gear_request=Gear.NONE, drive_mode=sc.initial.drive_mode)
    entries = sc.timeline
    n = sc.n_steps
    dt = sc.dt_s
    every = sc.output_every
    stop = sc.stop_when
    table = stop_table(stop)
    met_of = specialise(first_met, (data[0], table))
    write = reader.write
    i = 1
    ei = 0
    next_k = entries[0].step if entries else n
    for k in range(n):
        if k == next_k:
            for attr, value in entries[ei].actuator:
                setattr(inp, attr, value)
            ei += 1
            next_k = entries[ei].step if ei < len(entries) else n
        if controller is not None:
            sim.time_s = k * dt  # the vehicle is stepped directly: keep the simulation's clock for the hook
            controller(sim, inp)
        v.step(inp)
        kk = k + 1
        due = kk % every == 0 or kk == n
        if due or stop:
            write(data, i, kk * dt, float(inp.pedal), float(inp.brake_line_bar), 0)
            met = met_of(data[i], table) if stop else -1
            if met >= 0:
                return kk, f"stop_when: {stop[met].text}", i + 1
            if due:
                i += 1
        if progress is not None and not kk & 511:
            progress(kk, n)
    return n, "duration", i


def _run_dbw(sc: Scenario, sim: Simulation, reader: RowReader, data: np.ndarray, progress,
             controller) -> tuple:
    """DBW level: commands through ``sim.submit``, ``sim.step()`` per step. Returns as :func:`_run_actuator`.

    Without a controller, the steps between two timeline entries run in the vehicle's compiled headless loop
    where it has one (``Simulation.run_recorded``: the same re-sends, steps, rows and stop conditions); the
    entries' steps, and a stretch whose streamed command is decoded anew at each re-send, step here."""
    n = sc.n_steps
    dt = sc.dt_s
    every = sc.output_every
    stop = sc.stop_when
    table = stop_table(stop)
    met_of = specialise(first_met, (data[0], table))
    write = reader.write
    i = 1
    submit = sim.submit
    dbw = sim.dbw
    player = TimelinePlayer(sc.timeline, STREAMED, sc.step_hz, sc.command_rate_hz, n)
    due_at = player.at
    compiled = controller is None and sim.runs_recorded
    stepped_until = 0   # the steps before it that the compiled loop may not run (a stream decoded anew)
    k = 0
    while k < n:
        if compiled and k >= stepped_until and k != player.next_entry_step:
            end = min(player.next_entry_step, n)
            if progress is not None:
                end = min(end, (k | 511) + 1)   # the next progress report
            ran = sim.run_recorded(end, player.resending(), player.next_send, player.period_steps, data, i, every, n,
                                   reader.inv_fuel, table)
            if ran is not None:
                kk, i, player.next_send, met = ran
                if met >= 0:
                    return kk, f"stop_when: {stop[met].text}", i
                if progress is not None and not kk & 511:
                    progress(kk, n)
                k = kk
                continue
            stepped_until = player.next_entry_step
        for key, obj in due_at(k):
            if key == "driver":
                sim.set_driver(obj)
            elif key == "fault":
                for subsystem, active in obj:
                    sim.set_fault(subsystem, active)
            else:
                submit(obj)
        if controller is not None:
            controller(sim, None)
        out = sim.step()
        kk = k + 1
        due = kk % every == 0 or kk == n
        if due or stop:
            write(data, i, kk * dt, out.pedal, out.brake_line_bar, 1 if dbw.dbw_enabled else 0)
            met = met_of(data[i], table) if stop else -1
            if met >= 0:
                return kk, f"stop_when: {stop[met].text}", i + 1
            if due:
                i += 1
        if progress is not None and not kk & 511:
            progress(kk, n)
        k = kk
    return n, "duration", i


def write_outputs(result: RunResult, out_dir: str | Path, plots: bool = False) -> list:
    """Write ``timeseries.csv``, ``summary.json`` and (with ``plots``) ``plots.png`` into ``out_dir``.

    All files are first written to a temporary directory beside ``out_dir``
    and then moved into it, so ``out_dir`` never holds a half-written file or
    a mix of two runs (a ``plots.png`` of an earlier run is removed when no
    plot is asked for).

    A run with several vehicles also writes each vehicle's files into
    ``out_dir/vehicles/<name>/`` (the top-level ``timeseries.csv`` is the first
    vehicle's; ``summary.json`` lists them all).

    Returns
    -------
    list of Path
        The files written.
    """
    out = Path(out_dir)
    sub_written = []
    for name, r in result.vehicles.items():
        sub_written += write_outputs(r, out / "vehicles" / name, plots)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        with open(tmp / "timeseries.csv", "w", encoding="ascii", newline="") as f:
            for chunk in result.csv_lines():
                f.write(chunk)
        summary = result.summary()
        (tmp / "summary.json").write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n", encoding="utf-8")
        names = ["timeseries.csv", "summary.json"]
        if plots:
            from .plots import plot_run
            plot_run(result, tmp / "plots.png")
            names.append("plots.png")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name in names:
            os.replace(tmp / name, out / name)
            written.append(out / name)
        if not plots and (out / "plots.png").exists():
            (out / "plots.png").unlink()
        return written + sub_written
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
