"""Scenario format: validation of a parsed document into a runnable :class:`~.validated.Scenario`.

Every check happens here, once, before anything runs or is written: unknown
keys (with the closest known key as a hint), types, units (a value such as
``'30 mph'`` where a number in the key's unit is expected), ranges, time
going backwards, missing files, surfaces not in the parameter table, and
parameter overrides (checked by :func:`~acres_dbw_sim.vehicles.polaris.params.load_parameters`).
Each failure is a :class:`~acres_dbw_sim.scenario.source.ScenarioError`
naming the file, the line and the key. The format itself is documented in
``docs/scenarios.md``.
"""
from __future__ import annotations

import difflib
import json
import math
from dataclasses import fields as dc_fields
from pathlib import Path
from typing import Any

import numpy as np

from ..dbw import msg_fields as MF
from ..dbw.commands import (
    DISABLE, ENABLE, STEERING_CALIBRATE, BrakeCmd, DriveModeCmd, GearCmd, MiscCmd, SteeringCmd, ThrottleCmd,
    TurnSignalCmd, UlcCmd,
)
from ..dbw.system import SUBSYSTEMS, DriverInput
from ..model.enums import DRIVE_MODE_NAMES, GEAR_NAMES, AwdSwitch, Gear
from ..model.param_lines import located
from ..model.params import ParameterError, file_vehicle
from ..model.overrides import check_once, fault_source
from ..model.terrain import Region
from ..simulation import MODELS, Simulation
from ..vehicles import REGISTRY, default_vehicle, vehicle_spec
from .signals import COLUMN_NAMES, expression_names
from .source import (SCENARIO_SECTIONS, Check, Document, ScenarioError, apply_sets, describe, read_document,
                     split_sets)
from .validated import Entry, Expectation, InitialSpec, MetricSpec, Scenario, TerrainSpec, VehicleSpec

__all__ = ["load_scenario", "validate", "ACTUATOR_KEYS", "DBW_KEYS", "STREAMED", "EVENT_ORDER"]

#: Timeline keys of the actuator level (bypass the DBW) -> VehicleInputs attribute.
ACTUATOR_KEYS = ("pedal", "brake_bar", "steering_wheel_deg", "steering_from_center_deg", "gear", "drive_mode")
#: Timeline keys of the DBW level.
DBW_KEYS = ("enable", "disable", "steering_calibrate", "fault", "driver", "drive_mode", "gear", "turn_signal",
            "misc", "steering", "brake", "throttle", "ulc")
#: DBW messages re-sent at ``command_rate_hz`` until changed or set to null.
STREAMED = {"steering": SteeringCmd, "brake": BrakeCmd, "throttle": ThrottleCmd, "ulc": UlcCmd}
#: Order in which the keys of one DBW entry are delivered.
EVENT_ORDER = ("disable", "enable", "steering_calibrate", "fault", "driver", "drive_mode", "gear", "turn_signal",
               "misc", "steering", "brake", "throttle", "ulc")
_SHARED = frozenset({"gear", "drive_mode"})
_ACT_ONLY = frozenset(ACTUATOR_KEYS) - _SHARED
_DBW_ONLY = frozenset(DBW_KEYS) - _SHARED

_GEAR_NAMES = GEAR_NAMES          # the one table of model/enums.py
_MODE_NAMES = DRIVE_MODE_NAMES
#: DriveModeCmd content for the drive-mode shorthand at the DBW level.
_MODE_CMD = {AwdSwitch.TURF: dict(awd_mode_cmd=int(MF.AwdMode.TWO_HIGH), rear_diff_cmd=int(MF.DiffLock.UNLOCKED)),
             AwdSwitch.TWO_WD: dict(awd_mode_cmd=int(MF.AwdMode.TWO_HIGH), rear_diff_cmd=int(MF.DiffLock.LOCKED)),
             AwdSwitch.AWD: dict(awd_mode_cmd=int(MF.AwdMode.FOUR_AUTO))}
_WHEEL_KEYS = ("fl", "fr", "rl", "rr")


def _consts(cls, prefix: str) -> dict:
    return {k: v for k, v in vars(cls).items() if k.startswith(prefix) and isinstance(v, int)}


def _enum_names(enum) -> dict:
    return {m.name: int(m) for m in enum}


#: Symbolic names accepted for integer message fields: {(class, field): {NAME: value}}.
_FIELD_NAMES = {
    (SteeringCmd, "cmd_type"): _consts(SteeringCmd, "CMD_"),
    (BrakeCmd, "cmd_type"): _consts(BrakeCmd, "CMD_"),
    (BrakeCmd, "precharge_aeb"): _consts(BrakeCmd, "PRECHARGE_"),
    (ThrottleCmd, "cmd_type"): _consts(ThrottleCmd, "CMD_"),
    (UlcCmd, "cmd_type"): _consts(UlcCmd, "CMD_"),
    (GearCmd, "cmd"): {**_enum_names(MF.Gear), **{k: int(v) for k, v in _GEAR_NAMES.items()}},
    (GearCmd, "cmd_manual"): _enum_names(MF.GearManual),
    (TurnSignalCmd, "cmd"): _enum_names(MF.TurnSignal),
    (DriveModeCmd, "drive_mode_cmd"): _enum_names(MF.DriveMode),
    (DriveModeCmd, "awd_mode_cmd"): _enum_names(MF.AwdMode),
    (DriveModeCmd, "rear_diff_cmd"): _enum_names(MF.DiffLock),
    (DriveModeCmd, "front_diff_cmd"): _enum_names(MF.DiffLock),
    (MiscCmd, "parking_brake"): _enum_names(MF.PrkBrkCmd),
    (MiscCmd, "door_select"): _enum_names(MF.DoorSelect),
    (MiscCmd, "door_cmd"): _enum_names(MF.DoorCmd),
}
_MESSAGES = {"steering": SteeringCmd, "brake": BrakeCmd, "throttle": ThrottleCmd, "ulc": UlcCmd, "gear": GearCmd,
             "turn_signal": TurnSignalCmd, "drive_mode": DriveModeCmd, "misc": MiscCmd}


# --------------------------------------------------------------------------- sections


def _figures(params) -> tuple:
    """(surface table, steering centre [deg], steering lock [deg], brake full scale [bar]) of a vehicle's
    parameters, from the registry row of the vehicle they name (:class:`~acres_dbw_sim.vehicles.Installation`)."""
    spec = vehicle_spec(params.vehicle)
    fit = spec.installation(params)
    return spec.surfaces(params), fit.steering_center_deg, fit.steering_lock_deg, fit.brake_full_bar


def _vehicle(c: Check, raw: Any, param_sets: str) -> tuple:
    path = ("vehicle",)
    d = c.mapping(raw, path, ("type", "parameters", "overrides", "occupants", "cargo_kg"))
    params_path = c.file(d["parameters"], path + ("parameters",)) if "parameters" in d else None
    if "type" in d:
        vtype = c.choice(d["type"], path + ("type",), {v.upper(): v for v in REGISTRY}, "vehicle")
    else:   # the vehicle the parameter file names, else the registry's first
        named = None
        try:
            if params_path is not None:
                with located(params_path):
                    named = file_vehicle(params_path, REGISTRY)
        except ParameterError as exc:
            raise c.fail(path + ("parameters",), exc.reason if exc.key == "<file>" else str(exc)) from None
        vtype = named or default_vehicle()
    spec = vehicle_spec(vtype)
    ov = d.get("overrides")
    if ov is None:
        overrides = ""
    elif isinstance(ov, str):
        overrides = ov
        try:
            check_once(ov)
        except ParameterError as exc:
            raise c.fail(path + ("overrides",), str(exc)) from None
    elif isinstance(ov, dict):
        pairs = []
        for k, v in ov.items():
            if isinstance(v, (dict, list)) and not (isinstance(v, list) and all(isinstance(x, (int, float))
                                                                              for x in v)):
                raise c.fail(path + ("overrides", k), f"wrong type: expected a number, true/false, text or a list "
                             f"of numbers, got {describe(v)}" + (" (a parameter's key is one dotted name: "
                                                                 "{engine.idle_rpm: 900}, --set engine.idle_rpm=900)"
                                                                 if isinstance(v, dict) else ""))
            pairs.append(f"{k}={v if isinstance(v, str) else json.dumps(v)}")
        overrides = ";".join(pairs)
    else:
        raise c.fail(path + ("overrides",), f"wrong type: expected 'key=value;key=value' or a mapping, got "
                     f"{describe(ov)}")
    if not spec.carries_payload:
        for key in ("occupants", "cargo_kg"):
            if key in d:
                raise c.fail(path + (key,), f"not for vehicle {vtype!r}: the {spec.display_name} carries no "
                             f"occupants or cargo ({spec.payload_hint})")
    occupants = c.integer(d["occupants"], path + ("occupants",), 0, 6) if "occupants" in d else None
    cargo = c.number(d["cargo_kg"], path + ("cargo_kg",), "kg", 0.0, 2000.0) if "cargo_kg" in d else None
    combined = ";".join(x for x in (overrides, param_sets) if x)
    set_keys = {part.split("=", 1)[0].strip().split("[")[0] for part in param_sets.split(";") if "=" in part}
    try:
        params = spec.load_parameters(params_path, combined or None, occupants, cargo)
    except ParameterError as exc:
        base = exc.key.split("[")[0]
        if base in set_keys:
            raise ScenarioError("--set", exc.key, exc.reason) from None
        if exc.key == "<file>":
            raise c.fail(path + ("parameters",), exc.reason) from None
        if exc.key == "mass.occupants" and occupants is not None:
            raise c.fail(path + ("occupants",), exc.reason) from None
        if exc.key == "mass.cargo_kg" and cargo is not None:
            raise c.fail(path + ("cargo_kg",), exc.reason) from None
        src = fault_source(exc, combined)   # the file's value (its line known), an override's, or neither's
        where = path + (("parameters",) if src == "file" and "parameters" in d else ("overrides",)
                        if src == "overrides" and "overrides" in d else ())
        if where[-1:] == ("overrides",) and isinstance(ov, dict):   # the mapping's own line of the key
            exact = [k for k in ov if k.replace(" ", "") == exc.key]
            where += tuple(exact or [k for k in ov if k.split("[")[0].strip() == base])[:1]
        raise c.fail(where, str(exc)) from None
    info = {"type": vtype, "parameters": params.source_path, "overrides": combined}
    if spec.carries_payload:
        info.update(occupants=params.mass.occupants, cargo_kg=params.mass.cargo_kg)
    return params, info


def _surface(c: Check, value: Any, path: tuple, names: tuple) -> str:
    s = c.text(value, path)
    if s not in names:
        close = difflib.get_close_matches(s, names, 1, 0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise c.fail(path, f"unknown surface {s!r}{hint}; the parameter file has {', '.join(names)}")
    return s


def _xy(c: Check, value: Any, path: tuple, what: str) -> tuple:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise c.fail(path, f"expected {what} as [x_m, y_m], got {describe(value)}")
    return c.number(value[0], path + (0,), "m"), c.number(value[1], path + (1,), "m")


def _terrain(c: Check, raw: Any, params: Any) -> TerrainSpec:
    path = ("terrain",)
    d = c.mapping(raw, path, ("surface", "grade_pct", "bank_pct", "z0_m", "regions", "wheel_surfaces",
                              "height_map"))
    names = tuple(s.name for s in _figures(params)[0])
    kw: dict = {}
    if "surface" in d:
        kw["surface"] = _surface(c, d["surface"], path + ("surface",), names)
    for k in ("grade_pct", "bank_pct"):
        if k in d:
            kw[k] = c.number(d[k], path + (k,), "%", -100.0, 100.0)
    if "z0_m" in d:
        kw["z0_m"] = c.number(d["z0_m"], path + ("z0_m",), "m")
    regions = d.get("regions") or []
    if not isinstance(regions, list):
        raise c.fail(path + ("regions",), f"expected a list of regions, got {describe(regions)}")
    out = []
    for i, r in enumerate(regions):
        rp = path + ("regions", i)
        r = c.mapping(r, rp, ("surface", "rect", "polygon"), ("surface",), " (a region)")
        surf = _surface(c, r["surface"], rp + ("surface",), names)
        if ("rect" in r) == ("polygon" in r):
            raise c.fail(rp, "a region needs exactly one of rect: [x_min, y_min, x_max, y_max] or polygon: "
                         "[[x, y], ...]")
        if "rect" in r:
            v = r["rect"]
            if not isinstance(v, list) or len(v) != 4:
                raise c.fail(rp + ("rect",), f"expected [x_min, y_min, x_max, y_max] in m, got {describe(v)}")
            x0, y0, x1, y1 = (c.number(v[j], rp + ("rect", j), "m") for j in range(4))
            if not (x0 < x1 and y0 < y1):
                raise c.fail(rp + ("rect",), f"need x_min < x_max and y_min < y_max, got {v}")
            out.append(Region(surf, rect=(x0, y0, x1, y1)))
        else:
            v = r["polygon"]
            if not isinstance(v, list) or len(v) < 3:
                raise c.fail(rp + ("polygon",), f"expected at least 3 vertices [[x, y], ...], got {describe(v)}")
            out.append(Region(surf, polygon=tuple(_xy(c, p, rp + ("polygon", j), "a vertex")
                                                  for j, p in enumerate(v))))
    kw["regions"] = tuple(out)
    if "wheel_surfaces" in d:
        wp = path + ("wheel_surfaces",)
        ws = c.mapping(d["wheel_surfaces"], wp, _WHEEL_KEYS)
        kw["wheel_surfaces"] = tuple(_surface(c, ws[w], wp + (w,), names) if ws.get(w) is not None else None
                                     for w in _WHEEL_KEYS)
    if "height_map" in d:
        hp = path + ("height_map",)
        for k in ("grade_pct", "bank_pct", "z0_m"):
            if k in d:
                raise c.fail(path + (k,), "applies to the plane only; a height map gives the heights itself")
        h = c.mapping(d["height_map"], hp, ("file", "heights", "resolution_m", "origin_m"), ("resolution_m",))
        if ("file" in h) == ("heights" in h):
            raise c.fail(hp, "give exactly one of file (a .npy or .csv grid) or heights (a list of rows)")
        if "file" in h:
            f = c.file(h["file"], hp + ("file",))
            try:
                grid = np.load(f) if f.suffix == ".npy" else np.loadtxt(f, delimiter=",", ndmin=2)
            except (OSError, ValueError) as exc:
                raise c.fail(hp + ("file",), f"cannot read the height map {f}: {exc}") from None
            rows = grid.tolist() if hasattr(grid, "tolist") else grid
            gp = hp + ("file",)
        else:
            rows = h["heights"]
            gp = hp + ("heights",)
        if not isinstance(rows, list) or len(rows) < 2 or not all(isinstance(r, list) for r in rows) \
                or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
            raise c.fail(gp, "the heights must be a rectangular grid of at least 2 x 2 (rows along y)")
        for iy, r in enumerate(rows):
            for ix, z in enumerate(r):
                if isinstance(z, bool) or not isinstance(z, (int, float)) or not math.isfinite(z):
                    raise c.fail(gp + ((iy,) if gp[-1] == "file" else (iy, ix)),
                                 f"height [{iy}][{ix}] = {z!r}: expected a finite number [m]")
        kw["heights"] = tuple(tuple(float(z) for z in r) for r in rows)
        kw["resolution_m"] = c.number(h["resolution_m"], hp + ("resolution_m",), "m", 0.0, lo_open=True)
        if "origin_m" in h:
            kw["origin_m"] = _xy(c, h["origin_m"], hp + ("origin_m",), "the origin")
    spec = TerrainSpec(**kw)
    try:
        spec.build().bind(names)
    except (ValueError, KeyError) as exc:
        raise c.fail(path, str(exc)) from None
    return spec


def _gear(c: Check, value: Any, path: tuple) -> Gear:
    return Gear(c.choice(value, path, _GEAR_NAMES, "gear", numbers=(1, 2, 3, 4, 5)))


def _mode(c: Check, value: Any, path: tuple) -> AwdSwitch:
    return AwdSwitch(c.choice(value, path, _MODE_NAMES, "drive mode (Turf, 2WD, AWD)", numbers=(0, 1, 2)))


def _initial(c: Check, raw: Any, base: tuple = ()) -> InitialSpec:
    path = base + ("initial",)
    d = c.mapping(raw, path, ("pose", "speed_mps", "gear", "drive_mode"))
    kw: dict = {}
    if "pose" in d:
        pp = path + ("pose",)
        p = c.mapping(d["pose"], pp, ("x_m", "y_m", "yaw_deg", "yaw_rad"))
        if "yaw_deg" in p and "yaw_rad" in p:
            raise c.fail(pp + ("yaw_rad",), "give yaw_deg or yaw_rad, not both")
        # within 1000 km of the origin, as the node's initial_x_m (float64 keeps a step's motion to 1e-10 m)
        kw["x_m"] = c.number(p.get("x_m", 0.0), pp + ("x_m",), "m", -1e6, 1e6)
        kw["y_m"] = c.number(p.get("y_m", 0.0), pp + ("y_m",), "m", -1e6, 1e6)
        if "yaw_deg" in p:
            kw["yaw_rad"] = math.radians(c.number(p["yaw_deg"], pp + ("yaw_deg",), "deg", -360.0, 360.0))
        elif "yaw_rad" in p:
            kw["yaw_rad"] = c.number(p["yaw_rad"], pp + ("yaw_rad",), "rad", -2 * math.pi, 2 * math.pi)
    if "speed_mps" in d:
        kw["speed_mps"] = c.number(d["speed_mps"], path + ("speed_mps",), "m/s", -15.0, 40.0)
    if "gear" in d:
        kw["gear"] = _gear(c, d["gear"], path + ("gear",))
    if "drive_mode" in d:
        kw["drive_mode"] = _mode(c, d["drive_mode"], path + ("drive_mode",))
    return InitialSpec(**kw)


def _message(c: Check, value: Any, path: tuple, cls: type) -> object:
    names = tuple(f.name for f in dc_fields(cls))
    d = c.mapping(value, path, names, what=f" ({cls.__name__})")
    kw = {}
    for f in dc_fields(cls):
        if f.name not in d:
            continue
        fp = path + (f.name,)
        v = d[f.name]
        if f.type == "bool":
            kw[f.name] = c.boolean(v, fp)
        elif f.type == "int":
            consts = _FIELD_NAMES.get((cls, f.name))
            if isinstance(v, str) and consts:
                key = v.strip().upper()
                alias = {k.split("_", 1)[1] if k.startswith(("CMD_", "PRECHARGE_")) else k: x
                         for k, x in consts.items()}
                if key in consts:
                    kw[f.name] = consts[key]
                elif key in alias:
                    kw[f.name] = alias[key]
                else:
                    raise c.fail(fp, f"unknown {cls.__name__}.{f.name} {v!r}; use a number 0..255 or one of "
                                 f"{', '.join(consts)}")
            else:
                kw[f.name] = c.integer(v, fp, 0, 255)
        else:
            kw[f.name] = c.number(v, fp)
    return cls(**kw)


def _driver(c: Check, value: Any, path: tuple) -> DriverInput:
    if value is None:
        return DriverInput()
    d = c.mapping(value, path, ("accel_pedal_pct", "brake_pedal_pct", "steering_torque_nm", "steering_wheel_deg",
                                "gear", "turn_signal", "drive_mode"), what=" (DriverInput)")
    kw: dict = {}
    for k in ("accel_pedal_pct", "brake_pedal_pct"):
        if k in d:
            kw[k] = c.number(d[k], path + (k,), "%", 0.0, 100.0)
    if "steering_torque_nm" in d:
        kw["steering_torque_nm"] = c.number(d["steering_torque_nm"], path + ("steering_torque_nm",), "N m",
                                            -100.0, 100.0)
    if "steering_wheel_deg" in d:
        v = d["steering_wheel_deg"]
        kw["steering_wheel_deg"] = math.nan if v is None else c.number(v, path + ("steering_wheel_deg",), "deg",
                                                                       -1000.0, 1000.0)
    if "gear" in d:
        kw["gear"] = int(_gear(c, d["gear"], path + ("gear",))) if d["gear"] is not None else 0
    if "turn_signal" in d:
        kw["turn_signal"] = c.choice(d["turn_signal"], path + ("turn_signal",), _enum_names(MF.TurnSignal),
                                     "turn signal", numbers=(0, 1, 2, 3))
    if "drive_mode" in d:
        kw["drive_mode"] = int(_mode(c, d["drive_mode"], path + ("drive_mode",))) if d["drive_mode"] is not None \
            else -1
    return DriverInput(**kw)


def _entry_dbw(c: Check, e: dict, path: tuple) -> tuple:
    out = []
    for key in EVENT_ORDER:
        if key not in e:
            continue
        kp = path + (key,)
        v = e[key]
        if key in ("enable", "disable", "steering_calibrate"):
            if c.boolean(v, kp) is not True:
                raise c.fail(kp, f"only '{key}: true' is meaningful (it sends the event once)")
            out.append((key, {"enable": ENABLE, "disable": DISABLE, "steering_calibrate": STEERING_CALIBRATE}[key]))
        elif key == "fault":
            f = c.mapping(v, kp, SUBSYSTEMS)
            out.append((key, tuple((s, c.boolean(f[s], kp + (s,))) for s in SUBSYSTEMS if s in f)))
        elif key == "driver":
            out.append((key, _driver(c, v, kp)))
        elif key in STREAMED:
            out.append((key, None if v is None else _message(c, v, kp, STREAMED[key])))
        elif key == "gear" and not isinstance(v, dict):
            out.append((key, GearCmd(cmd=int(_gear(c, v, kp)))))
        elif key == "drive_mode" and not isinstance(v, dict):
            out.append((key, DriveModeCmd(**_MODE_CMD[_mode(c, v, kp)])))
        elif key == "turn_signal" and not isinstance(v, dict):
            out.append((key, TurnSignalCmd(cmd=c.choice(v, kp, _enum_names(MF.TurnSignal), "turn signal",
                                                        numbers=(0, 1, 2, 3)))))
        else:
            out.append((key, _message(c, v, kp, _MESSAGES[key])))
    return tuple(out)


def _entry_actuator(c: Check, e: dict, path: tuple, params: Any) -> tuple:
    out = []
    if "steering_wheel_deg" in e and "steering_from_center_deg" in e:
        raise c.fail(path + ("steering_from_center_deg",), "give steering_wheel_deg or steering_from_center_deg, "
                     "not both")
    _, centre, lock, max_bar = _figures(params)
    for key in ACTUATOR_KEYS:
        if key not in e:
            continue
        kp = path + (key,)
        v = e[key]
        if key == "pedal":
            out.append(("pedal", c.number(v, kp, "0..1", 0.0, 1.0)))
        elif key == "brake_bar":
            out.append(("brake_line_bar", c.number(v, kp, "bar", 0.0, max_bar)))
        elif key == "steering_wheel_deg":
            out.append(("steering_wheel_deg", c.number(v, kp, "deg", -lock, lock)))
        elif key == "steering_from_center_deg":
            out.append(("steering_wheel_deg", centre + c.number(v, kp, "deg", -lock - centre, lock - centre)))
        elif key == "gear":
            out.append(("gear_request", Gear.NONE if v is None else _gear(c, v, kp)))
        elif key == "drive_mode":
            out.append(("drive_mode", _mode(c, v, kp)))
    return tuple(out)


def _control(c: Check, raw_timeline: list, declared: Any, base: tuple = (), declared_path: tuple = ("control",)) -> str:
    first_act = first_dbw = None
    for i, e in enumerate(raw_timeline):
        if not isinstance(e, dict):
            continue
        for k in e:
            if k in _ACT_ONLY and first_act is None:
                first_act = base + ("timeline", i, k)
            if k in _DBW_ONLY and first_dbw is None:
                first_dbw = base + ("timeline", i, k)
    if declared is not None:
        level = c.choice(declared, declared_path, {"ACTUATOR": "actuator", "DBW": "dbw"}, "control level")
        other = first_dbw if level == "actuator" else first_act
        if other is not None:
            raise c.fail(other, f"a {'DBW' if level == 'actuator' else 'actuator'}-level key in a scenario with "
                         f"control: {level}; allowed in a timeline entry: t, "
                         f"{', '.join(ACTUATOR_KEYS if level == 'actuator' else DBW_KEYS)}")
        return level
    if first_act is not None and first_dbw is not None:
        a_line = c.doc.locate(first_act)[1] or 0
        d_line = c.doc.locate(first_dbw)[1] or 0
        later = first_act if (a_line, first_act[-2]) > (d_line, first_dbw[-2]) else first_dbw
        raise c.fail(later, f"mixes the actuator level ({first_act[2]!r}, line {a_line}) with the DBW level "
                     f"({first_dbw[2]!r}, line {d_line}); a scenario drives at one level. At the DBW level a "
                     f"person's pedals and steering are the 'driver' key")
    return "dbw" if first_dbw is not None else "actuator"


def _timeline(c: Check, raw: Any, control: str, params: Any, dt_s: float,
              base: tuple = ()) -> tuple:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise c.fail(base + ("timeline",), f"expected a list of entries {{t: seconds, ...}}, got {describe(raw)}")
    allowed = ("t",) + (ACTUATOR_KEYS if control == "actuator" else DBW_KEYS)
    entries = []
    prev = None
    for i, e in enumerate(raw):
        path = base + ("timeline", i)
        e = c.mapping(e, path, allowed, ("t",), " (a timeline entry)")
        t = c.number(e["t"], path + ("t",), "s", 0.0)
        if prev is not None and t <= prev:
            told = (f"two entries at t = {t:g} s" if t == prev else
                    f"time goes backwards: t = {t:g} s after t = {prev:g} s")
            raise c.fail(path + ("t",), f"{told} (entries must be in strictly increasing time)")
        prev = t
        step = max(0, math.ceil(t / dt_s - 1e-9))
        if control == "actuator":
            entries.append(Entry(t, step, f"timeline[{i}]", actuator=_entry_actuator(c, e, path, params)))
        else:
            entries.append(Entry(t, step, f"timeline[{i}]", commands=_entry_dbw(c, e, path)))
    for a, b in zip(entries, entries[1:]):
        if a.step == b.step:
            raise c.fail(base + ("timeline", entries.index(b), "t"), f"t = {b.t_s:g} s falls in the same physics step as "
                         f"t = {a.t_s:g} s (step {1e3 * dt_s:g} ms); merge the entries")
    return tuple(entries)


_METRIC_KINDS = ("final", "initial", "max", "min", "mean", "first_t", "value_at", "expr")


def _metrics(c: Check, raw: Any) -> tuple:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise c.fail(("metrics",), f"expected a mapping name: {{kind: ...}}, got {describe(raw)}")
    out = []
    for name, spec in raw.items():
        mp = ("metrics", name)
        if not name.isidentifier():
            raise c.fail(mp, "a metric name must be an identifier (letters, digits, _)")
        s = c.mapping(spec, mp, _METRIC_KINDS + ("from_t", "to_t", "from_when", "t"), what=" (a metric)")
        kinds = [k for k in _METRIC_KINDS if k in s]
        if len(kinds) != 1:
            raise c.fail(mp, f"give exactly one of {', '.join(_METRIC_KINDS)}")
        kind = kinds[0]
        kp = mp + (kind,)
        kw: dict = {}
        if kind == "first_t":
            arg = c.condition(s[kind], kp)
        elif kind == "expr":
            try:
                used = expression_names(c.text(s[kind], kp))
            except ValueError as exc:
                raise c.fail(kp, str(exc)) from None
            known = [m.name for m in out]
            for u in used:
                if u not in known:
                    raise c.fail(kp, f"unknown metric {u!r}; an expression may use the metrics defined above it "
                                 f"({', '.join(known) or 'none'})")
            arg = s[kind]
        else:
            arg = c.text(s[kind], kp)
            if arg not in COLUMN_NAMES:
                close = difflib.get_close_matches(arg, COLUMN_NAMES, 1, 0.6)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise c.fail(kp, f"unknown signal {arg!r}{hint}; signals are the CSV columns")
        if kind == "value_at":
            if "t" not in s:
                raise c.fail(mp, "value_at needs t: seconds")
            kw["at_t"] = c.number(s["t"], mp + ("t",), "s", 0.0)
        elif "t" in s:
            raise c.fail(mp + ("t",), "t belongs to value_at only; use from_t/to_t for a window")
        if kind == "expr" and any(k in s for k in ("from_t", "to_t", "from_when")):
            raise c.fail(mp, "an expr metric has no window")
        for k in ("from_t", "to_t"):
            if k in s:
                kw[k] = c.number(s[k], mp + (k,), "s", 0.0)
        if "from_when" in s:
            kw["from_when"] = c.condition(s["from_when"], mp + ("from_when",))
        out.append(MetricSpec(name, kind, arg, **kw))
    return tuple(out)


def _expect(c: Check, raw: Any, metrics: tuple) -> tuple:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise c.fail(("expect",), f"expected a mapping metric: {{value, rel | abs}} or {{min, max}}, got "
                     f"{describe(raw)}")
    names = [m.name for m in metrics]
    out = []
    for name, spec in raw.items():
        ep = ("expect", name)
        if name not in names:
            raise c.fail(ep, f"no metric of that name; metrics: {', '.join(names) or 'none'}")
        s = c.mapping(spec, ep, ("value", "rel", "abs", "min", "max"), what=" (an expectation)")
        if not s:
            raise c.fail(ep, "give value with rel and/or abs, or min and/or max")
        kw: dict = {}
        if "value" in s:
            kw["value"] = c.number(s["value"], ep + ("value",))
        if "rel" in s:
            kw["rel"] = c.number(s["rel"], ep + ("rel",), "fraction", 0.0, 10.0)
        if "abs" in s:
            kw["abs"] = c.number(s["abs"], ep + ("abs",), "", 0.0)
        if ("rel" in s or "abs" in s) and "value" not in s:
            raise c.fail(ep, "rel and abs need value")
        if "min" in s:
            kw["lo"] = c.number(s["min"], ep + ("min",))
        if "max" in s:
            kw["hi"] = c.number(s["max"], ep + ("max",))
        out.append(Expectation(name, **kw))
    return tuple(out)


# --------------------------------------------------------------------------- entry points


def validate(doc: Document, param_sets: str = "") -> Scenario:
    """Validate a parsed document (after ``--set`` edits) into a :class:`Scenario`.

    Parameters
    ----------
    doc : Document
    param_sets : str
        Parameter overrides from ``--set`` (``key=value;...``), applied after the file's.

    Raises
    ------
    ScenarioError
        For the first problem found, naming its line and key.
    """
    c = Check(doc)
    d = c.mapping(doc.data, (), SCENARIO_SECTIONS, ("duration_s",), " (a scenario)")
    name = c.text(d["name"], ("name",)) if "name" in d else (doc.path.stem if doc.path else "scenario")
    description = c.text(d["description"], ("description",)) if "description" in d else ""
    params, vinfo = _vehicle(c, d.get("vehicle"), param_sets)
    step_hz = c.number(d.get("step_hz", 120.0), ("step_hz",), "Hz", 60.0, 1000.0)
    dt = 1.0 / step_hz
    duration = c.number(d["duration_s"], ("duration_s",), "s", 0.0, 1e6, lo_open=True)
    n_steps = max(1, int(round(duration * step_hz)))
    output_every = c.integer(d.get("output_every", 1), ("output_every",), 1, 10**9)
    terrain = _terrain(c, d.get("terrain"), params)
    rate = c.number(d.get("command_rate_hz", step_hz), ("command_rate_hz",), "Hz", 0.0, step_hz, lo_open=True)
    vehicles = _vehicles(c, d, params, dt)
    if vehicles:
        lead = vehicles[0]
        model, initial, control, timeline = lead.model, lead.initial, lead.control, lead.timeline
    else:
        model = _model(c, d.get("model", "full"), ("model",))
        initial = _initial(c, d.get("initial"))
        raw_tl = d.get("timeline")
        control = _control(c, raw_tl if isinstance(raw_tl, list) else [], d.get("control"))
        timeline = _timeline(c, raw_tl, control, params, dt)
    sw = d.get("stop_when")
    if sw is None:
        stop = ()
    elif isinstance(sw, list):
        stop = tuple(c.condition(s, ("stop_when", i)) for i, s in enumerate(sw))
    else:
        stop = (c.condition(sw, ("stop_when",)),)
    metrics = _metrics(c, d.get("metrics"))
    expect = _expect(c, d.get("expect"), metrics)
    # the objects the run builds must build: fail here, not half-way through writing
    each = vehicles if vehicles else (VehicleSpec("", model, initial, control, timeline),)
    built = []
    for i, vs in enumerate(each):
        where = ("vehicles", i) if vehicles else ("vehicle",)
        try:
            sim = Simulation(params, terrain.build(), dt, gear=vs.initial.gear, drive_mode=vs.initial.drive_mode,
                             model=vs.model, vehicle=vinfo["type"])
            ini = vs.initial
            sim.reset(ini.x_m, ini.y_m, ini.yaw_rad, ini.speed_mps, ini.gear, ini.drive_mode)
        except (ValueError, KeyError) as exc:
            raise c.fail(where, f"the simulation cannot be built: {exc}") from None
        built.append(sim)
    sc = Scenario(name=name, description=description, source=doc.path, params=params, vehicle=vinfo,
                  step_hz=step_hz, dt_s=dt, duration_s=duration, n_steps=n_steps, output_every=output_every,
                  terrain=terrain, initial=initial, control=control, command_rate_hz=rate, timeline=timeline,
                  stop_when=stop, metrics=metrics, expect=expect, model=model, vehicles=vehicles)
    if not vehicles:
        sc.keep_built(built[0])
    return sc


def _model(c: Check, value: Any, path: tuple) -> str:
    return c.choice(value, path, {m.upper(): m for m in MODELS}, "model level")


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _vehicles(c: Check, d: dict, params: Any, dt_s: float) -> tuple:
    """The ``vehicles`` list (empty tuple when absent)."""
    raw = d.get("vehicles")
    if raw is None:
        return ()
    for key in ("initial", "timeline", "model"):
        if key in d:
            raise c.fail((key,), f"a scenario with a vehicles list gives each vehicle its own {key} "
                         f"(vehicles[i].{key}), not a top-level one")
    if not isinstance(raw, list) or not raw:
        raise c.fail(("vehicles",), f"expected a non-empty list of vehicles {{name, model, initial, timeline}}, "
                     f"got {describe(raw)}")
    out = []
    seen: dict = {}
    for i, rv in enumerate(raw):
        base = ("vehicles", i)
        e = c.mapping(rv, base, ("name", "model", "initial", "control", "timeline"), ("name",), " (a vehicle)")
        name = c.text(e["name"], base + ("name",))
        if not name or not set(name) <= _NAME_CHARS:
            raise c.fail(base + ("name",), f"{name!r}: use letters, digits, '_' and '-' (it names a directory)")
        if name in seen:
            raise c.fail(base + ("name",), f"{name!r} is already vehicles[{seen[name]}]")
        seen[name] = i
        model = _model(c, e.get("model", "full"), base + ("model",))
        initial = _initial(c, e.get("initial"), base)
        raw_tl = e.get("timeline")
        declared, dpath = (e["control"], base + ("control",)) if "control" in e else (d.get("control"), ("control",))
        control = _control(c, raw_tl if isinstance(raw_tl, list) else [], declared, base, dpath)
        timeline = _timeline(c, raw_tl, control, params, dt_s, base)
        out.append(VehicleSpec(name, model, initial, control, timeline))
    return tuple(out)


def load_scenario(path: str | Path, sets: list | tuple | str | None = None) -> Scenario:
    """Read, edit (``--set``) and validate a scenario file.

    Parameters
    ----------
    path : str or Path
        The YAML file.
    sets : str or sequence of str, optional
        ``key=value;key=value`` edits (see :mod:`acres_dbw_sim.scenario.source`).

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioError
        Naming the file, line and key of the first problem.
    """
    edits, param_sets = split_sets(sets)
    doc = read_document(path)
    apply_sets(doc, edits)
    sc = validate(doc, param_sets)
    if sets:
        sc.sets = tuple([sets] if isinstance(sets, str) else sets)
    return sc
