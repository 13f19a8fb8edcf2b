#!/usr/bin/env python3
"""Derive the kinematic level's parameters from the full Polaris model and write them into the parameter file.

Usage::

    . .venv/setup.sh && python tools/derive_kinematic.py                 # measure and print
    . .venv/setup.sh && python tools/derive_kinematic.py --write         # ... and write config/polaris.json

Every figure is measured on the full model (acres_dbw_sim.vehicles.polaris.vehicle.Vehicle,
driven at the actuator level: pedal, brake line pressure, steering-wheel angle,
lever) on level asphalt at 120 Hz with the shipped parameters:

* full throttle in H, L and REVERSE from rest (60 s): ``speed_max_mps`` is the
  final speed; ``accel_max_mps2`` is the a_max with which the kinematic model
  (its own step, kinematic.py, with that v_max) best fits the full model's
  speed trace up to 95 % of v_max (least squares over a grid of candidates,
  all stepped at once as one KinematicFleet);
* a 70 bar stop from 10 m/s in H with the pedal released: ``decel_max_mps2``
  is the d_max for which the kinematic model (brake port 70 / brakes.max_bar,
  the resistance of H) stops in the same distance;
* the steepest grade climbed at full throttle from rest in each range
  (``slope_max_pct``): bisection on the grade of a plane to 0.25 %, a climb
  being 10 m covered uphill within 30 s;
* the minimum turning radius (``turning_radius_m``): full lock on the side
  with the larger bicycle angle, speed held at 1.5 m/s in L by a proportional
  pedal, radius of base_footprint's path from a least-squares circle over the
  last 10 s of 30 s.

``--write`` replaces the ``kinematic`` block of the file (value, basis
``derived``, source naming this script and the measurement, sd from the
measurement's resolution or fit, note). Runs in about a minute on one core.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.vehicles.polaris.kinematic import (KI_BRAKE, KI_DIRECTION, KI_RANGE, KI_THROTTLE, KS_SPEED_MPS,
                                                      KS_X_M, KinematicFleet, KinematicParameters, RANGES)
from acres_dbw_sim.vehicles.polaris.params import default_config_path, load_parameters
from acres_dbw_sim.model.steering import bicycle_angle_rad
from acres_dbw_sim.vehicles.polaris.steering import rack_limited_deg
from acres_dbw_sim.model.terrain import FlatTerrain
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
from acres_dbw_sim.model.inputs import VehicleInputs

DT_S = 1.0 / 120.0
_GEAR = {"high": Gear.DRIVE, "low": Gear.LOW, "reverse": Gear.REVERSE}
_DIR = {"high": 1.0, "low": 1.0, "reverse": -1.0}


def full_throttle(P, rng: str, duration_s: float = 60.0) -> np.ndarray:
    """Speed trace [m/s] (|v| along the direction of travel) at full throttle from rest in range ``rng``."""
    v = Vehicle(P, FlatTerrain(), DT_S)
    v.reset(gear=_GEAR[rng])
    inp = VehicleInputs(pedal=1.0, steering_wheel_deg=P.steering.center_deg, gear_request=Gear.NONE)
    out = [0.0]
    for _ in range(int(round(duration_s / DT_S))):
        v.step(inp)
        out.append(_DIR[rng] * v.speed_mps)
    return np.array(out)


def stop_distance(P, bar: float, v0_mps: float = 10.0) -> float:
    """Distance [m] to stop from ``v0_mps`` in H with the pedal released and ``bar`` in the brake line."""
    v = Vehicle(P, FlatTerrain(), DT_S)
    v.reset(gear=Gear.DRIVE, speed_mps=v0_mps)
    inp = VehicleInputs(pedal=0.0, brake_line_bar=bar, steering_wheel_deg=P.steering.center_deg)
    x0 = v.position_m[0]
    for _ in range(int(round(20.0 / DT_S))):
        v.step(inp)
        if v.speed_mps <= 0.01:
            break
    return v.position_m[0] - x0


def climbs(P, rng: str, grade_pct: float) -> bool:
    """True if full throttle from rest covers 10 m uphill within 30 s on a ``grade_pct`` plane."""
    v = Vehicle(P, FlatTerrain(grade_pct=grade_pct), DT_S)
    yaw = math.pi if rng == "reverse" else 0.0       # reversing up: facing downhill
    v.reset(yaw_rad=yaw, gear=_GEAR[rng])
    inp = VehicleInputs(pedal=1.0, steering_wheel_deg=P.steering.center_deg)
    x0 = v.position_m[0]
    for _ in range(int(round(30.0 / DT_S))):
        v.step(inp)
        if v.position_m[0] - x0 >= 10.0:
            return True
        if not all(map(math.isfinite, v.position_m)):
            return False
    return False


def steepest_grade(P, rng: str, tol_pct: float = 0.25) -> float:
    """Steepest grade [%] climbed in ``rng`` (bisection)."""
    lo, hi = 0.0, 120.0
    if not climbs(P, rng, lo):
        raise RuntimeError(f"{rng}: does not climb the level")
    while hi - lo > tol_pct:
        mid = 0.5 * (lo + hi)
        if climbs(P, rng, mid):
            lo = mid
        else:
            hi = mid
    return lo


def lock_side(P) -> float:
    """Raw steering-wheel angle [deg] of the DBW's lock (``dbw.steering.lock_deg``) with the larger bicycle angle,
    after the full model's rack stops (steering.py ``rack_limited_deg``; the stops are symmetric about straight
    ahead, the raw command limit is not, so the right lock reaches the stop and is the larger)."""
    lock = P.kit.steering_lock_deg
    s = P.steering
    return max((lock, -lock), key=lambda a: abs(bicycle_angle_rad(rack_limited_deg(a, s.center_deg, s.rack_stop_deg),
                                                                  s.ratio, s.center_deg)))


def turning_radius(P, speed_mps: float = 1.5, duration_s: float = 30.0) -> float:
    """Radius [m] of base_footprint's path at full lock and ``speed_mps`` (circle fit of the last 10 s)."""
    v = Vehicle(P, FlatTerrain(), DT_S)
    v.reset(gear=Gear.LOW)
    inp = VehicleInputs(pedal=0.0, steering_wheel_deg=lock_side(P))
    xs, ys = [], []
    n = int(round(duration_s / DT_S))
    for k in range(n):
        inp.pedal = min(1.0, max(0.0, 0.15 + 0.5 * (speed_mps - v.speed_mps)))
        v.step(inp)
        if k * DT_S >= duration_s - 10.0:
            xs.append(v.position_m[0])
            ys.append(v.position_m[1])
    x, y = np.array(xs), np.array(ys)
    # Kasa fit: x^2 + y^2 = 2 a x + 2 b y + c
    A = np.column_stack([2.0 * x, 2.0 * y, np.ones_like(x)])
    (a, b, c), *_ = np.linalg.lstsq(A, x * x + y * y, rcond=None)
    return float(math.sqrt(c + a * a + b * b))


def _kin_params(a, v, slope, d, r, P) -> KinematicParameters:
    return KinematicParameters({k: a for k in RANGES}, {k: v for k in RANGES}, {k: slope for k in RANGES}, d, r,
                               P.geometry.wheelbase_m, 0.5 * P.geometry.track_rear_m)


def fit_accel(P, trace: np.ndarray, v_max: float) -> tuple:
    """(a_max [m/s^2], rms speed error [m/s]) of the kinematic model fitted to ``trace`` up to 95 % of v_max."""
    end = int(np.argmax(trace >= 0.95 * v_max)) or len(trace) - 1
    target = trace[:end + 1]
    cands = np.linspace(0.2, 12.0, 237)
    for _ in range(2):
        fleet = KinematicFleet(len(cands), [_kin_params(a, v_max, 30.0, 5.0, 5.0, P) for a in cands],
                               FlatTerrain(), DT_S, [s.name for s in P.surfaces])
        fleet.reset(0.0, 0.0, 0.0)
        fleet.u[:, KI_THROTTLE] = 1.0
        fleet.u[:, KI_DIRECTION] = 1.0
        fleet.u[:, KI_RANGE] = 0
        err = np.zeros(len(cands))
        for k in range(1, end + 1):
            fleet.step()
            err += (fleet.s[:, KS_SPEED_MPS] - target[k]) ** 2
        best = int(np.argmin(err))
        step = cands[1] - cands[0]
        lo, hi = cands[max(0, best - 1)], cands[min(len(cands) - 1, best + 1)]
        if _ == 0:
            cands = np.linspace(lo, hi, 201)
    return float(cands[best]), float(math.sqrt(err[best] / end)), float(step)


def fit_decel(P, dist_m: float, bar: float, a_h: float, v_h: float, v0_mps: float = 10.0) -> float:
    """d_max [m/s^2] for which the kinematic model stops from ``v0_mps`` in ``dist_m`` at ``bar``."""
    cands = np.linspace(0.5, 20.0, 3901)
    fleet = KinematicFleet(len(cands), [_kin_params(a_h, v_h, 30.0, d, 5.0, P) for d in cands], FlatTerrain(),
                           DT_S, [s.name for s in P.surfaces])
    fleet.reset(0.0, 0.0, 0.0, v0_mps)
    fleet.u[:, KI_BRAKE] = bar / P.brakes.max_bar
    fleet.u[:, KI_DIRECTION] = 1.0
    for _ in range(int(round(20.0 / DT_S))):
        fleet.step()
    d = fleet.s[:, KS_X_M]
    return float(cands[int(np.argmin(np.abs(d - dist_m)))])


def measure(P) -> dict:
    """Every measurement and derived parameter (see the module docstring)."""
    res: dict = {"ranges": {}}
    for rng in RANGES:
        tr = full_throttle(P, rng)
        v_max = float(np.mean(tr[-120:]))
        drift = float(tr[-1] - tr[-1200])
        a, rms, res_a = fit_accel(P, tr, v_max)
        slope = steepest_grade(P, rng)
        res["ranges"][rng] = {"speed_max_mps": v_max, "speed_drift_last_10s_mps": drift, "accel_max_mps2": a,
                              "accel_fit_rms_mps": rms, "accel_grid_mps2": res_a,
                              "time_to_95pct_s": float(np.argmax(tr >= 0.95 * v_max) * DT_S),
                              "slope_max_pct": slope}
    bar = 70.0
    dist = stop_distance(P, bar)
    h = res["ranges"]["high"]
    d70 = fit_decel(P, dist, bar, h["accel_max_mps2"], h["speed_max_mps"])
    res["stop_70bar"] = {"v0_mps": 10.0, "distance_m": dist, "mean_decel_mps2": 100.0 / (2.0 * dist)}
    res["decel_max_mps2"] = d70
    res["turning_radius_m"] = turning_radius(P)
    res["lock_deg"] = lock_side(P)
    return res


_SRC = "tools/derive_kinematic.py on the full model (config/polaris.json as shipped), level asphalt, 120 Hz"


def block(res: dict, P) -> dict:
    """The ``kinematic`` block of the parameter file."""
    out: dict = {}
    for rng, m in res["ranges"].items():
        name = {"high": "H", "low": "L", "reverse": "REVERSE"}[rng]
        out[rng] = {
            "accel_max_mps2": {
                "value": round(m["accel_max_mps2"], 3), "basis": "fitted",
                "source": f"{_SRC}: full throttle from rest in {name}, 60 s",
                "sd": round(max(m["accel_grid_mps2"], 0.001), 4),
                "note": (f"a_max: least-squares fit of the kinematic model's speed to the full model's up to 95 % "
                         f"of v_max ({m['time_to_95pct_s']:.1f} s; rms {m['accel_fit_rms_mps']:.2f} m/s).")},
            "speed_max_mps": {
                "value": round(m["speed_max_mps"], 3), "basis": "derived",
                "source": f"{_SRC}: full throttle from rest in {name}, mean of the last 1 s of 60 s",
                "sd": round(max(abs(m["speed_drift_last_10s_mps"]), 0.01), 3),
                "note": "v_max: the resistance term stops full throttle on the level at this speed."},
            "slope_max_pct": {
                "value": round(m["slope_max_pct"], 2), "basis": "derived",
                "source": f"{_SRC}: steepest plane climbed 10 m within 30 s at full throttle from rest in {name}",
                "sd": 0.25,
                "note": "Maximum slope (grade %): full throttle on it gives zero acceleration (bisection, 0.25 %)."},
        }
    s = res["stop_70bar"]
    out["decel_max_mps2"] = {
        "value": round(res["decel_max_mps2"], 3), "basis": "fitted",
        "source": f"{_SRC}: 70 bar stop from 10 m/s in H, pedal released",
        "sd": 0.005,
        "note": (f"d_max at brakes.max_bar; the kinematic model with brake port 70/{P.brakes.max_bar:g} and H's "
                 f"resistance stops in the full model's {s['distance_m']:.2f} m (mean "
                 f"{s['mean_decel_mps2']:.2f} m/s^2).")}
    out["turning_radius_m"] = {
        "value": round(res["turning_radius_m"], 3), "basis": "derived",
        "source": f"{_SRC}: full lock ({res['lock_deg']:+.0f} deg raw) at 1.5 m/s in L, circle fit of the last 10 s",
        "sd": 0.01,
        "note": "R_min of base_footprint (rear-axle centre); steering port 1 turns at this radius."}
    return out


def with_block(text: str, blk: dict) -> str:
    """``text`` (the parameter file) with its ``kinematic`` block set to ``blk``: the block is the file's last
    key, replaced or appended as text so that the rest of the file keeps its layout byte for byte."""
    tree = json.loads(text)
    body = json.dumps({"kinematic": blk}, indent=2)[1:-2]          # '\n  "kinematic": {...}'
    marker = '\n  "kinematic": '
    if "kinematic" in tree:
        if list(tree)[-1] != "kinematic" or text.count(marker) != 1:
            raise ValueError("the kinematic block must be the file's last top-level key")
        head = text[:text.index(marker)].rstrip().rstrip(",")
    else:
        head = text.rstrip()[:-1].rstrip()                          # drop the closing brace
    out = head + "," + body + "\n}\n"
    assert json.loads(out)["kinematic"] == blk
    return out


def main(argv=None) -> int:
    """Measure the kinematic parameters, print them and, with ``--write``, store them; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=None, help="parameter file (default: the shipped config/polaris.json)")
    ap.add_argument("--write", action="store_true", help="write the kinematic block into the parameter file")
    a = ap.parse_args(argv)
    path = Path(a.config) if a.config else default_config_path()
    P = load_parameters(path)
    res = measure(P)
    print(json.dumps(res, indent=2))
    if a.write:
        path.write_text(with_block(path.read_text(), block(res, P)))
        load_parameters(path)  # the file still loads
        print(f"wrote the kinematic block into {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
