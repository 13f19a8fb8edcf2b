"""Benchmark of the kinematic level and of vehicles per core (not a test).

Prints, on one core, CPU time (``time.process_time``) per step as the median
of ``--reps`` interleaved repetitions, with the spread (min..max):

* the kinematic step (kinematic.py ``step_vehicles``) for 1 vehicle and for
  ``--fleet`` (1000) vehicles at once, in us per vehicle-step, and the fleet's
  real-time factor at 120 Hz (target: 1000 vehicles >= 10x real time, i.e.
  <= 833 us per step for all of them);
* one vehicle through the Python wrappers: ``KinematicVehicle.step`` and
  ``Simulation(model="kinematic").step`` (DBW + kinematic level), and the same
  two for the full model (``Vehicle.step``, ``Simulation().step``);
* vehicles per core at 1x real time (120 Hz) for each: (1/120 s) / step time.

Drive (all levels): level asphalt, heights from a 2 % plane, from rest in H:
full throttle for 5 s, then 5 s at 40 % throttle with the steering wheel
weaving 90 deg * sin(0.5 t), repeated; the fleet vehicles start spread over
a 1 km square with random headings and the same inputs. The DBW levels are
enabled with a ULC speed command of 8 m/s and an angle steering command.

Run: ``python bench/bench_kinematic.py [--seconds 5] [--reps 5] [--fleet 1000]``.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acres_dbw_sim.dbw.commands import ENABLE, GearCmd, SteeringCmd, UlcCmd  # noqa: E402
from acres_dbw_sim.model.enums import Gear  # noqa: E402
from acres_dbw_sim.vehicles.polaris.kinematic import (KI_DIRECTION, KI_STEER, KI_THROTTLE,  # noqa: E402
                                                      KinematicFleet, KinematicParameters, KinematicVehicle,
                                                      step_vehicles)
from acres_dbw_sim.vehicles.polaris.params import load_parameters  # noqa: E402
from acres_dbw_sim.model.terrain import FlatTerrain  # noqa: E402
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle  # noqa: E402
from acres_dbw_sim.model.inputs import VehicleInputs  # noqa: E402
from acres_dbw_sim.simulation import Simulation  # noqa: E402

DT = 1.0 / 120.0
P = load_parameters()
KP = KinematicParameters.from_vehicle_parameters(P)


def _inputs(k: int) -> tuple:
    """(throttle, steering-wheel offset [deg]) of step k of the 10 s cycle."""
    t = (k * DT) % 10.0
    return (1.0, 0.0) if t < 5.0 else (0.4, 90.0 * math.sin(0.5 * t))


def fleet_run(n: int, steps: int) -> float:
    """CPU seconds of ``steps`` fleet steps of ``n`` vehicles (inputs set with numpy between steps)."""
    rng = np.random.default_rng(0)
    f = KinematicFleet(n, KP, FlatTerrain(grade_pct=2.0), DT, [s.name for s in P.surfaces])
    f.reset(rng.uniform(-500, 500, n), rng.uniform(-500, 500, n), rng.uniform(-math.pi, math.pi, n))
    f.u[:, KI_DIRECTION] = 1.0
    td, p, u, s = f.terrain.data, f.p, f.u, f.s
    step_vehicles(td, p, u, s, DT)            # compiled before timing
    t0 = time.process_time()
    for k in range(steps):
        thr, sw = _inputs(k)
        u[:, KI_THROTTLE] = thr
        u[:, KI_STEER] = sw / 480.0
        step_vehicles(td, p, u, s, DT)
    return time.process_time() - t0


def model_run(cls, steps: int) -> float:
    v = cls(P, FlatTerrain(grade_pct=2.0), DT)
    v.reset(gear=Gear.DRIVE)
    inp = VehicleInputs(steering_wheel_deg=P.steering.center_deg)
    v.step(inp)
    t0 = time.process_time()
    for k in range(steps):
        thr, sw = _inputs(k)
        inp.pedal = thr
        inp.steering_wheel_deg = P.steering.center_deg + sw
        v.step(inp)
    return time.process_time() - t0


def sim_run(model: str, steps: int) -> float:
    sim = Simulation(P, FlatTerrain(grade_pct=2.0), DT, gear=Gear.PARK, model=model)
    sim.submit(ENABLE)
    sim.submit(GearCmd(cmd=int(Gear.DRIVE)))
    for _ in range(60):
        sim.step()
    ulc = UlcCmd(cmd=8.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True)
    t0 = time.process_time()
    for k in range(steps):
        if k % 2 == 0:
            _thr, sw = _inputs(k)
            sim.submit(ulc)
            sim.submit(SteeringCmd(cmd=P.steering.center_deg + sw, cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
        sim.step()
    return time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="simulated seconds per repetition")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--fleet", type=int, default=1000)
    a = ap.parse_args(argv)
    steps = int(round(a.seconds / DT))
    cases = {
        "kinematic step, 1 vehicle": (lambda: fleet_run(1, steps), 1),
        f"kinematic step, {a.fleet} vehicles": (lambda: fleet_run(a.fleet, steps), a.fleet),
        "KinematicVehicle.step": (lambda: model_run(KinematicVehicle, steps), 1),
        "Simulation(model=kinematic).step": (lambda: sim_run("kinematic", steps), 1),
        "Vehicle.step (full model)": (lambda: model_run(Vehicle, steps), 1),
        "Simulation().step (full model)": (lambda: sim_run("full", steps), 1),
    }
    times: dict = {name: [] for name in cases}
    for _ in range(a.reps):
        for name, (fn, _n) in cases.items():
            times[name].append(fn() / steps)
    print(f"CPU time per step, median of {a.reps} interleaved repetitions of {a.seconds:g} s at 120 Hz (min..max)")
    print(f"{'case':40s} {'us/step':>12s} {'us/vehicle-step':>16s} {'x real time':>12s} {'vehicles/core @1x':>18s}")
    for name, (_fn, n) in cases.items():
        ts = times[name]
        med = statistics.median(ts)
        print(f"{name:40s} {1e6 * med:12.1f} {1e6 * med / n:10.3f} ({1e6 * min(ts) / n:.3f}..{1e6 * max(ts) / n:.3f})"
              f" {DT / med:8.1f} {n * DT / med:14.0f}")
    med = statistics.median(times[f"kinematic step, {a.fleet} vehicles"])
    print(f"target: {a.fleet} kinematic vehicles >= 10x real time at 120 Hz: {DT / med:.1f}x "
          f"({'met' if DT / med >= 10.0 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
