"""Accel and brake maps for Autoware's ``raw_vehicle_cmd_converter``, measured on the model.

Usage::

    python -m acres_dbw_sim.autoware_maps OUT_DIR [--vehicle polaris] [--surface asphalt] [--set OVERRIDES]

writes ``OUT_DIR/accel_map.csv`` and ``OUT_DIR/brake_map.csv`` in the format the converter's CSV
loader reads (autoware_universe's ``raw_vehicle_cmd_converter``; the release Autoware 1.8.0
pins): the first row is the map's name followed by the velocities [m/s]; every other row is a
pedal stroke (0 to 1) followed by the acceleration [m/s^2] it gives at each velocity. The
converter requires the accelerations of the accel map to rise strictly down each column (more
pedal, more acceleration) and those of the brake map to fall strictly. A stroke that adds nothing
at some velocity (past the tyres' friction limit on a loose surface, or inside the pedal's dead
band) is left out, saying so; a map left with fewer than two strokes is refused.

What the strokes mean (what the actuation path of the DBW takes): the accel stroke is the
accelerator pedal seen by the engine (``VehicleInputs.pedal``, 0 to 1), the brake stroke the line
pressure over the brakes' full scale (``brakes.max_bar``).

How a cell is measured, on the chosen surface, flat, in DRIVE, wheels straight, on the model alone
(no DBW: a map describes the vehicle; the DBW's lags only delay it): the vehicle accelerates from
rest at full pedal to a switch speed and cruises there (a PI loop on the pedal, :data:`CRUISE_S`),
as a stack's vehicle does before it asks for a change; then the cell's strokes are held, and the
acceleration is the slope of the forward speed over a window after the switch: 1.5 to 2.5 s for
the accel map (the engine and the belt settle to a new pedal in about 1.5 s), 0.4 to 0.9 s for the
brake map (the pressure builds up in a few tenths). The switch speed is moved ahead (behind, when
slowing) by the window's middle times the acceleration, twice, so that the window is centred on the
cell's velocity. The brake map's zero stroke is the accel map's row (both are the released pedals;
two measurements of the one state, in two windows, left the converter a dead band between them of
up to 0.7 m/s^2). The zero-velocity column is measured at :data:`V_ZERO_MPS`: at rest the
acceleration is zero whatever the brake, and the converter needs the column to fall with the
brake stroke. A run that stops inside the window is fitted up to the stop.

How well a map predicts (the Ranger on asphalt, the strokes read off the map for the acceleration
asked at the current speed every 30 ms through the DBW, from a cruise, measured 1.5 to 3 s after):
1.0 m/s^2 asked gives 0.98 at 8 m/s, 0.89 at 4.5 m/s; 0.5 asked gives 0.55 at 10 m/s, 0.44 at
4.5 m/s; 1.5 asked at 2 m/s gives 1.71. The belt's state depends on the way the vehicle came to a
speed, which one map cell cannot hold; Autoware's longitudinal controller closes the rest of the
loop on the velocity, as on a vehicle.
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

import numpy as np

__all__ = ["VELOCITIES_MPS", "STROKES", "V_ZERO_MPS", "ACCEL_WINDOW_S", "BRAKE_WINDOW_S", "MapError", "Unreachable",
           "measure_maps",
           "check_monotonic", "keep_monotonic", "write_map", "read_map", "stroke_for", "main"]

#: The velocities of the maps [m/s]: 0 to 50 km/h in 5 km/h steps, the converter's default grid.
VELOCITIES_MPS = tuple(round(i * 5.0 / 3.6, 2) for i in range(11))
#: The pedal strokes of the maps' rows.
STROKES = tuple(round(0.1 * i, 1) for i in range(11))
#: Where the zero-velocity column is measured [m/s].
V_ZERO_MPS = 0.1
#: The windows after the switch to a cell's strokes over which its acceleration is measured [s]: the
#: engine and the belt settle to a new pedal in about 1.5 s (the accel map), the brakes' pressure builds
#: up in a few tenths (the brake map), before the speed has moved far.
ACCEL_WINDOW_S, BRAKE_WINDOW_S = (1.5, 2.5), (0.4, 0.9)
#: How long the vehicle cruises at the switch speed before the switch [s].
CRUISE_S = 6.0
#: Below this forward speed the vehicle counts as stopped (its samples leave the fit) [m/s].
STOPPED_MPS = 0.05


class MapError(ValueError):
    """A map the converter would refuse (not monotonic), naming the cell."""


class Unreachable(ValueError):
    """A speed the vehicle does not reach at full pedal on the surface."""


def _speed_trace(sim, cruise_mps: float, pedal: float, bar: float, seconds: float) -> np.ndarray:
    """Body forward speed [m/s] at every step: from rest in DRIVE, to ``cruise_mps`` at full pedal and held
    there for :data:`CRUISE_S` by a PI loop on the pedal (none when 0: at rest), then ``seconds`` with the
    strokes held; returns the last phase's speeds only.

    Raises
    ------
    Unreachable
        If the vehicle does not reach ``cruise_mps`` at full pedal in 60 s.
    """
    from .model.enums import Gear
    from .model.inputs import VehicleInputs
    veh = sim.vehicle
    dt = sim.dt_s
    sim.reset(gear=Gear.DRIVE, drive_mode=veh.drive_mode)
    centre, mode = veh.steering_wheel_deg, veh.drive_mode
    if cruise_mps > 0.0:
        full = VehicleInputs(1.0, 0.0, centre, Gear.NONE, mode)
        for _ in range(int(round(60.0 / dt))):
            veh.step(full)
            if veh.velocity_body_mps[0] >= cruise_mps:
                break
        else:
            raise Unreachable(f"the vehicle does not reach {cruise_mps:.2f} m/s at full pedal in 60 s")
        integral = 0.3
        for _ in range(int(round(CRUISE_S / dt))):
            err = cruise_mps - veh.velocity_body_mps[0]
            integral = min(1.0, max(0.0, integral + 0.5 * err * dt))
            veh.step(VehicleInputs(min(1.0, max(0.0, integral + 0.5 * err)), 0.0, centre, Gear.NONE, mode))
    hold = VehicleInputs(pedal, bar, centre, Gear.NONE, mode)
    out = np.empty(int(round(seconds / dt)))
    for k in range(len(out)):
        veh.step(hold)
        out[k] = veh.velocity_body_mps[0]
    return out


def _cell(sim, velocity: float, pedal: float, bar: float, window: tuple) -> float:
    """The acceleration [m/s^2] over ``window`` [s] after switching to the strokes from a cruise at ``velocity``
    [m/s] (from rest when 0), fitted to the samples that still move (a hard stop may come inside the
    window; without enough of them, from the switch to the stop)."""
    dt = sim.dt_s
    v = _speed_trace(sim, velocity, pedal, bar, window[1])
    t = np.arange(len(v)) * dt
    lo = int(round(window[0] / dt))
    moving = v[lo:] > STOPPED_MPS
    if moving.sum() >= 6:
        return float(np.polyfit(t[lo:][moving], v[lo:][moving], 1)[0])
    k = int((v > STOPPED_MPS).sum())
    return float((v[k - 1] - v[0]) / ((k - 1) * dt)) if k >= 2 else 0.0


def measure_maps(vehicle: str = "polaris", surface: str = "asphalt", velocities=VELOCITIES_MPS,
                 strokes=STROKES, overrides: str | None = None) -> tuple:
    """The accel and brake maps of ``vehicle`` on ``surface`` (module docstring), with its parameter
    file's values changed by ``overrides`` (``"key=value;..."``, e.g. ``acres-calibrate``'s
    ``overrides.txt``: maps of the vehicle a bag was fitted to).

    Returns
    -------
    (ndarray, ndarray)
        Accelerations [m/s^2], shape (len(strokes), len(velocities)): accel, brake; NaN in the columns of a
        velocity the vehicle does not reach at full pedal on the surface.

    Raises
    ------
    ValueError
        An unknown vehicle or surface.
    ParameterError
        A bad override, naming its key.
    """
    from .model.terrain import FlatTerrain
    from .simulation import Simulation
    from .vehicles import vehicle_spec
    params = vehicle_spec(vehicle).load_parameters(None, overrides, None, None)
    sim = Simulation(params, FlatTerrain(surface=surface), vehicle=vehicle)
    max_bar = vehicle_spec(vehicle).installation(params).brake_full_bar
    maps = []
    for kind in ("accel", "brake"):
        table = np.empty((len(strokes), len(velocities)))
        for i, s in enumerate(strokes):
            if kind == "brake" and s == 0.0 and 0.0 in strokes:   # pedal and brake released: one state, one row
                table[i] = maps[0][list(strokes).index(0.0)]       # (the accel map's, measured settled)
                continue
            pedal, bar = (s, 0.0) if kind == "accel" else (0.0, s * max_bar)
            window = ACCEL_WINDOW_S if kind == "accel" else BRAKE_WINDOW_S
            mid = 0.5 * (window[0] + window[1])
            guess = 0.0
            # the brake map from the highest velocity down: a cell's switch speed starts from the faster
            # cell's deceleration (at the lowest velocities the vehicle stops before a first guess of 0 shows it)
            order = range(len(velocities)) if kind == "accel" else reversed(range(len(velocities)))
            for j in order:
                target = max(velocities[j], V_ZERO_MPS)
                # switch early (late, when slowing) by the window's middle times the acceleration, twice,
                # so that the window's mean speed is the cell's velocity
                try:
                    a = guess if kind == "brake" and guess < 0.0 else _cell(sim, target, pedal, bar, window)
                    for _ in range(2):
                        a = _cell(sim, max(0.0, target - a * mid), pedal, bar, window)
                    guess = a
                except Unreachable:
                    a = math.nan   # out of the vehicle's reach here: the column is left out
                table[i, j] = a
        maps.append(table)
    return tuple(maps)


def check_monotonic(table: np.ndarray, rising: bool, strokes=STROKES, velocities=VELOCITIES_MPS) -> None:
    """Refuse a map whose accelerations do not rise (``rising``) or fall strictly down each column.

    Raises
    ------
    MapError
        Naming the first cell at fault (its stroke and velocity) and both values.
    """
    for j, vel in enumerate(velocities):
        for i in range(1, len(strokes)):
            up = table[i, j] > table[i - 1, j]
            if up != rising or table[i, j] == table[i - 1, j]:
                raise MapError(f"at {vel} m/s the acceleration at stroke {strokes[i]} ({table[i, j]:.4f} m/s^2) does "
                               f"not {'exceed' if rising else 'fall below'} that at {strokes[i - 1]} "
                               f"({table[i - 1, j]:.4f}): the converter requires it")


def keep_monotonic(table: np.ndarray, rising: bool, strokes=STROKES, velocities=VELOCITIES_MPS) -> tuple:
    """The rows to write: each stroke whose accelerations go strictly beyond those of the last row kept,
    at every velocity (a stroke past the tyres' friction limit, or inside the pedal's dead band, adds
    nothing the converter could tell apart and is left out).

    Returns
    -------
    (list of int, list of str)
        The kept rows' indices, and why each other row was left out.
    """
    kept, dropped = [0], []
    for i in range(1, len(strokes)):
        last = table[kept[-1]]
        beyond = table[i] > last if rising else table[i] < last
        if beyond.all():
            kept.append(i)
        else:
            j = int(np.flatnonzero(~beyond)[0])
            dropped.append(f"stroke {strokes[i]:g} left out: at {velocities[j]:g} m/s it gives {table[i, j]:.4f} "
                           f"m/s^2, "
                           f"no {'more' if rising else 'less'} than stroke {strokes[kept[-1]]:g} ({last[j]:.4f})")
    return kept, dropped


def write_map(path: str | Path, name: str, table: np.ndarray, velocities=VELOCITIES_MPS, strokes=STROKES) -> None:
    """Write one map in the converter's CSV format (module docstring): ``name`` and the velocities [m/s],
    then a row per stroke (0..1) with its accelerations [m/s^2], ``table`` of shape (strokes, velocities).

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([name] + [f"{v:g}" for v in velocities])
        for s, row in zip(strokes, table):
            w.writerow([f"{s:g}"] + [f"{x:.4f}" for x in row])


def read_map(path: str | Path) -> tuple:
    """Read a map in the converter's format.

    Returns
    -------
    (name, velocities, strokes, table)
        ``velocities`` [m/s] and ``strokes`` as tuples, ``table`` [m/s^2] an array (strokes x velocities).

    Raises
    ------
    ValueError
        A row of another length than the header, fewer than two rows or columns, or a cell that is not a number.
    """
    with open(path, newline="") as fh:
        rows = [r for r in csv.reader(fh) if r]
    if len(rows) < 3 or len(rows[0]) < 3:
        raise ValueError(f"{path}: a map needs a header and at least two rows and two velocities")
    for k, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise ValueError(f"{path}: row {k + 1} has {len(r)} cells, the header {len(rows[0])}")
    velocities = tuple(float(x) for x in rows[0][1:])
    strokes = tuple(float(r[0]) for r in rows[1:])
    return rows[0][0], velocities, strokes, np.array([[float(x) for x in r[1:]] for r in rows[1:]])


def stroke_for(velocities, strokes, table: np.ndarray, v_mps: float, accel_mps2: float) -> float:
    """The stroke (0..1) that gives ``accel_mps2`` [m/s^2] at ``v_mps`` [m/s] by the map ``table`` (shape
    (strokes, velocities)), as the converter looks it up: linear in velocity, clamped to the velocity
    range, then linear in acceleration, clamped to the strokes."""
    v = min(max(v_mps, velocities[0]), velocities[-1])
    column = np.array([np.interp(v, velocities, row) for row in table])
    order = np.argsort(column)
    return float(np.interp(accel_mps2, column[order], np.asarray(strokes)[order]))


def main(argv: list | None = None) -> int:
    """Measure and write both maps; 0, 1 when a map is refused, 2 for a bad argument."""
    from .vehicles import REGISTRY
    ap = argparse.ArgumentParser(prog="python -m acres_dbw_sim.autoware_maps", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="folder for accel_map.csv and brake_map.csv")
    ap.add_argument("--vehicle", default="polaris", choices=list(REGISTRY))
    ap.add_argument("--surface", default="asphalt", help="a surface of the world's table (flat ground)")
    ap.add_argument("--set", default=None, metavar="OVERRIDES",
                    help='parameter overrides "key=value;...", e.g. "$(cat cal/overrides.txt)" from acres-calibrate')
    args = ap.parse_args(argv)
    from .model.params import ParameterError
    try:
        tables = measure_maps(args.vehicle, args.surface, overrides=args.set)
    except (ValueError, KeyError) as err:
        text = str(err) if isinstance(err, ParameterError) or not err.args else err.args[0]
        print(f"autoware_maps: error: {text}", file=sys.stderr)
        return 2
    name = f"{args.vehicle}_{args.surface}"
    reach = [j for j in range(len(VELOCITIES_MPS)) if not np.isnan(tables[0][:, j]).any()
             and not np.isnan(tables[1][:, j]).any()]
    velocities = tuple(VELOCITIES_MPS[j] for j in reach)
    if len(reach) < len(VELOCITIES_MPS):
        print(f"autoware_maps: velocities above {velocities[-1]:g} m/s left out: out of reach on {args.surface} "
              f"(the converter holds the last column beyond)")
    written = []
    for file, table, rising in (("accel_map.csv", tables[0][:, reach], True),
                                ("brake_map.csv", tables[1][:, reach], False)):
        kept, dropped = keep_monotonic(table, rising, velocities=velocities)
        for why in dropped:
            print(f"autoware_maps: {file}: {why}")
        if len(kept) < 2:
            print(f"autoware_maps: refused: {file} would keep fewer than two strokes", file=sys.stderr)
            return 1
        strokes = tuple(STROKES[i] for i in kept)
        check_monotonic(table[kept], rising, strokes, velocities)   # what is written is what the converter takes
        written.append((args.out / file, table[kept], strokes))
    args.out.mkdir(parents=True, exist_ok=True)
    for path, table, strokes in written:
        write_map(path, name, table, velocities, strokes)
    print(f"wrote {written[0][0]} ({len(written[0][2])} strokes) and {written[1][0]} ({len(written[1][2])} strokes): "
          f"{args.vehicle} on {args.surface}, {len(velocities)} velocities")
    return 0


if __name__ == "__main__":
    sys.exit(main())
