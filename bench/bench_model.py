"""Benchmark of the Polaris model step (not a test).

Prints, on one core:

* the powertrain + driveline part of a step (engine, CVT, clutch capacities,
  driveline solve), replayed from the recorded inputs of a real drive [us],
* the whole :meth:`Vehicle.step` over a mixed drive [us] and its real-time
  factor at 120 Hz (target: <= 83 us, >= 100x real time),
* CommonRoad's multi-body model (``commonroad-vehicle-models`` 3.0.2,
  ``vehicle_dynamics_mb``, vehicle 2) with fixed-step RK4 at the same dt, and
  the ratio ours / theirs (target <= 0.5).

Run: ``python bench/bench_model.py [--seconds 20]``.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from acres_dbw_sim.model import cvt as _cvt  # noqa: E402
from acres_dbw_sim.model import engine as _eng  # noqa: E402
from acres_dbw_sim.model.enums import DriveMode, Gear  # noqa: E402
from acres_dbw_sim.model.params import load_parameters  # noqa: E402
from acres_dbw_sim.model.terrain import FlatTerrain  # noqa: E402
from acres_dbw_sim.model.vehicle import Vehicle, VehicleInputs  # noqa: E402

DT = 1.0 / 120.0


def _scenario(v: Vehicle, i: int, inp: VehicleInputs, centre: float) -> None:
    """Mixed drive: full throttle, weaving cruise, braking, in a 20 s cycle."""
    t = (i * DT) % 20.0
    inp.pedal = 1.0 if t < 8.0 else (0.35 if t < 15.0 else 0.0)
    inp.brake_line_bar = 30.0 if t >= 16.0 else 0.0
    inp.steering_wheel_deg = centre + (40.0 * math.sin(0.5 * t) if 8.0 <= t < 15.0 else 0.0)


def bench_whole_step(seconds: float) -> tuple:
    p = load_parameters()
    v = Vehicle(p, FlatTerrain(surface="asphalt"), DT)
    v.reset(gear=Gear.DRIVE, drive_mode=DriveMode.AWD)
    inp = VehicleInputs(steering_wheel_deg=p.steering.center_deg)
    n = int(seconds / DT)
    # warm-up
    for i in range(240):
        _scenario(v, i, inp, p.steering.center_deg)
        v.step(inp)
    v.reset(gear=Gear.DRIVE, drive_mode=DriveMode.AWD)
    t0 = time.perf_counter()
    for i in range(n):
        _scenario(v, i, inp, p.steering.center_deg)
        v.step(inp)
    el = time.perf_counter() - t0
    return el / n * 1e6, v


def bench_powertrain_driveline(seconds: float) -> float:
    """Record the per-step inputs of the powertrain and solve, then replay only those parts."""
    p = load_parameters()
    v = Vehicle(p, FlatTerrain(surface="asphalt"), DT)
    v.reset(gear=Gear.DRIVE, drive_mode=DriveMode.AWD)
    inp = VehicleInputs(steering_wheel_deg=p.steering.center_deg)
    sv = v.solver
    record = []
    orig = sv.solve

    def spy(*args):
        record.append((v._we, v._ureq, v._r, v._tc_prev, tuple(v._omega), inp.pedal, tuple(sv.jdt),
                       tuple(sv.w0), tuple(sv.munr), tuple(sv.a1), tuple(sv.a0), tuple(sv.tres), args))
        return orig(*args)
    sv.solve = spy
    for i in range(int(seconds / DT)):
        _scenario(v, i, inp, p.steering.center_deg)
        v.step(inp)
    sv.solve = orig
    e, cv, curves = p.engine, p.cvt, v.curves
    t_wot_idle, t_fr_idle = v._t_wot_idle, v._t_fr_idle
    rt = p.tyres.radius_m
    t0 = time.perf_counter()
    for (we0, ureq, r0, tc_prev, om, pedal, jdt, w0, munr, a1, a0, tres, args) in record:
        # StepUtvPowertrain
        n_rpm = we0 * 9.549296585513721
        t_wot = _eng.full_load_torque_nm(n_rpm, curves)
        t_fr = _eng.friction_torque_nm(n_rpm, curves)
        t_pu = curves.pumping_nm
        g_v = _eng.speed_governor(e.max_speed_mps, abs(0.5 * (om[2] + om[3])) * rt)
        u_idle = _eng.idle_request(we0, e.idle_rad_s, e.idle_gain, t_wot_idle, t_fr_idle, t_pu, e.accessory_drag_nm)
        u = _eng.lag(ureq, _eng.torque_target(pedal, e.pedal_exponent, g_v, u_idle, False), e.torque_lag_s, DT)
        t_e = _eng.engine_torque_nm(u, True, t_wot, t_fr, t_pu)
        w_free = _eng.free_speed_rad_s(we0, t_e, e.accessory_drag_nm, e.inertia_kg_m2, DT)
        cap = _cvt.clutch_capacity_nm(w_free, cv.engage_rad_s, cv.full_engage_rad_s, cv.clutch_capacity_nm)
        _cvt.ebs_capacity_nm(w_free, e.idle_rad_s, cv.engage_rad_s, cv.ebs_capacity_nm, cv.ebs)
        n_s = _cvt.shift_speed_rpm(tc_prev, curves.peak_nm, cv.shift_rpm_light, cv.shift_rpm_full)
        r_star = _cvt.ratio_target(cap > 0.0, n_s, abs(0.5 * (om[2] + om[3])) * 13.01, cv.high_ratio, cv.low_ratio)
        _eng.lag(r0, r_star, cv.shift_tau_s, DT)
        # SolveUtvDriveline (same coefficients as recorded)
        for j in range(4):
            sv.jdt[j], sv.w0[j], sv.munr[j], sv.a1[j], sv.a0[j], sv.tres[j] = (
                jdt[j], w0[j], munr[j], a1[j], a0[j], tres[j])
        orig(*args)
    el = time.perf_counter() - t0
    return el / len(record) * 1e6


def bench_commonroad(seconds: float) -> float | None:
    try:
        from vehiclemodels.init_mb import init_mb
        from vehiclemodels.parameters_vehicle2 import parameters_vehicle2
        from vehiclemodels.vehicle_dynamics_mb import vehicle_dynamics_mb
    except ImportError:
        return None
    p = parameters_vehicle2()
    x = init_mb([0.0, 0.0, 0.0, 15.0, 0.0, 0.0, 0.0], p)
    n = int(seconds / DT)

    def f(xx, uu):
        return vehicle_dynamics_mb(xx, uu, p)

    t0 = time.perf_counter()
    for i in range(n):
        t = (i * DT) % 20.0
        u = [0.02 * math.cos(0.5 * t) if 8.0 <= t < 15.0 else 0.0, 0.3 if t < 8.0 else (0.0 if t < 15.0 else -0.5)]
        k1 = f(x, u)
        k2 = f([a + 0.5 * DT * b for a, b in zip(x, k1)], u)
        k3 = f([a + 0.5 * DT * b for a, b in zip(x, k2)], u)
        k4 = f([a + DT * b for a, b in zip(x, k3)], u)
        x = [a + DT / 6.0 * (b + 2.0 * c + 2.0 * d + e) for a, b, c, d, e in zip(x, k1, k2, k3, k4)]
    el = time.perf_counter() - t0
    assert all(math.isfinite(v) for v in x)
    return el / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="simulated time per measurement [s]")
    a = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    pt = bench_powertrain_driveline(a.seconds)
    whole, v = bench_whole_step(a.seconds)
    cr = bench_commonroad(a.seconds)
    print(f"python {sys.version.split()[0]}, dt = 1/120 s, {a.seconds:.0f} s simulated per figure, one core")
    print(f"powertrain + driveline part: {pt:8.1f} us/step")
    print(f"whole Vehicle.step:          {whole:8.1f} us/step   real-time factor at 120 Hz: "
          f"{1e6 / 120.0 / whole:6.1f}x   (target <= 83 us, >= 100x)")
    print(f"  ledger residual of the run: {v.ledger.relative_residual:.2e} of the fuel energy")
    if cr is None:
        print("commonroad-vehicle-models not installed: pip install commonroad-vehicle-models==3.0.2")
    else:
        print(f"CommonRoad MB model, RK4:    {cr:8.1f} us/step   real-time factor: {1e6 / 120.0 / cr:6.1f}x")
        print(f"ratio ours / CommonRoad:     {whole / cr:8.2f}   (target <= 0.5)")


if __name__ == "__main__":
    main()
