"""Parameters of the drive-by-wire emulation (``dbw.*`` keys of config/polaris.json).

All values are converted to the units the DBW works in (deg, bar, percent, s,
SI otherwise) once, at construction; the step never looks anything up.
Keys that the parameter file does not (yet) hold fall back to the documented
defaults in ``DEFAULTS`` (each an engineering estimate, see its comment).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

__all__ = ["DbwParameters", "ParameterError", "DEFAULTS", "flatten_config"]


class ParameterError(ValueError):
    """A DBW parameter is missing, not a number, or out of its allowed range."""


#: key -> (default, lower bound, upper bound). Defaults not in the parameter
#: file are engineering estimates (gaps.md: "every default ... is an estimate").
DEFAULTS: dict[str, tuple[float, float, float]] = {
    # interface facts (dbw-interface.md §4.4)
    "dbw.command_timeout_s": (0.1, 0.01, 10.0),
    # throttle (gaps.md): percent 0..100 -> pedal 0..1
    "dbw.throttle.dead_time_s": (0.02, 0.0, 1.0),
    "dbw.throttle.lag_s": (0.05, 0.0, 5.0),
    "dbw.throttle.rate_inc_default_pct_s": (0.0, 0.0, math.inf),  # 0 = unlimited
    "dbw.throttle.rate_dec_default_pct_s": (0.0, 0.0, math.inf),  # 0 = unlimited
    "dbw.throttle.override_pct": (10.0, 0.0, 100.0),  # estimate: driver pedal threshold
    # brake (gaps.md): line pressure, bar
    "dbw.brake.dead_time_s": (0.05, 0.0, 1.0),
    "dbw.brake.lag_s": (0.12, 0.0, 5.0),
    "dbw.brake.rate_bar_s": (300.0, 1.0, math.inf),
    "dbw.brake.max_bar": (80.0, 1.0, 500.0),
    "dbw.brake.rate_inc_default_bar_s": (0.0, 0.0, math.inf),  # 0 = only the actuator limit
    "dbw.brake.rate_dec_default_bar_s": (0.0, 0.0, math.inf),
    "dbw.brake.override_pct": (20.0, 0.0, 100.0),  # estimate: driver pedal threshold
    # steering (gaps.md): steering-wheel angle, deg
    "dbw.steering.lock_deg": (487.0, 1.0, 3276.0),
    "dbw.steering.cmd_rate_default_deg_s": (500.0, 1.0, math.inf),
    "dbw.steering.cmd_accel_default_deg_s2": (2500.0, 1.0, math.inf),
    "dbw.steering.dead_time_s": (0.04, 0.0, 1.0),
    "dbw.steering.lag_s": (0.06, 0.0, 5.0),
    "dbw.steering.override_torque_nm": (3.0, 0.0, 100.0),  # estimate
    "dbw.steering.max_torque_nm": (8.0, 0.0, 255.0),  # joystick demo scale (§2.2)
    "dbw.steering.column_damping_nm_s_deg": (0.01, 1e-4, 10.0),  # estimate: 1 Nm -> 100 deg/s
    "dbw.steering.min_yaw_speed_mps": (0.5, 0.01, 10.0),  # yaw-rate -> curvature below this
    # gear (polaris-ranger-dynamics.md, Gear Lever)
    "dbw.gear.max_shift_speed_mps": (0.3, 0.0, 10.0),
    "dbw.gear.shift_time_s": (1.0, 0.0, 10.0),
    # ULC (gaps.md, dbw-interface.md §4.12)
    "dbw.ulc.limit_accel_default_mps2": (1.0, 0.3, 3.0),
    "dbw.ulc.limit_decel_default_mps2": (1.0, 0.3, 6.0),
    "dbw.ulc.limit_jerk_throttle_default_mps3": (2.0, 1.0, 25.0),
    "dbw.ulc.limit_jerk_brake_default_mps3": (2.0, 1.0, 25.0),
    "dbw.ulc.kp_speed": (0.3, 0.0, 100.0),  # (m/s^2) per (m/s)
    "dbw.ulc.ki_speed": (0.1, 0.0, 100.0),  # (m/s^2) per m
    "dbw.ulc.hysteresis_mps2": (0.1, 0.0, 5.0),
    "dbw.ulc.integral_limit_mps2": (3.0, 0.0, 10.0),  # estimate: anti-windup clamp
    "dbw.ulc.hold_bar": (20.0, 0.0, 80.0),  # estimate: stand-still hold pressure
    "dbw.ulc.stop_speed_mps": (0.1, 0.0, 2.0),  # estimate: below this a 0 command holds
    "dbw.ulc.park_delay_s": (1.0, 0.0, 60.0),  # estimate: stand-still time before P (enable_shift_park)
    # sensors / reports
    "dbw.wheel_counts_per_rev": (100.0, 1.0, 10000.0),  # estimate, not public (§7)
    # vehicle quantities the DBW needs (owned by the model's keys)
    "steering.ratio": (11.9764, 1.0, 100.0),
    "steering.center_deg": (12.5314, -90.0, 90.0),
    "geometry.wheelbase_m": (2.8702, 0.5, 10.0),
    "tyres.radius_m": (0.3429, 0.05, 2.0),
    "tyres.front_inflation_kpa": (124.0, 0.0, 1000.0),
    "tyres.rear_inflation_kpa": (138.0, 0.0, 1000.0),
    "brakes.front_nm_per_bar": (22.0, 0.0, 1000.0),
    "brakes.rear_nm_per_bar": (12.0, 0.0, 1000.0),
    "vehicle.mass_kg": (1233.0, 100.0, 10000.0),  # dry 1063 + 40 + 15 + 30 + one occupant 85
    "aero.drag_area_m2": (2.5, 0.0, 20.0),
    "aero.air_density_kg_m3": (1.2, 0.0, 5.0),
    "dbw.ulc.rolling_coeff": (0.015, 0.0, 0.5),  # estimate: asphalt, for the feed-forward
    "dbw.ulc.drive_force_max_n": (6000.0, 100.0, 1e5),  # estimate: full-pedal tractive force
    "dbw.ulc.drive_power_max_w": (45000.0, 1000.0, 1e6),  # estimate: 61 kW peak x driveline
    "dbw.ulc.throttle_offset_u": (0.27, 0.0, 0.9),  # estimate: (T_fr + T_pu + T_acc) / T_wot at ~2100 rpm
    "dbw.ulc.grade_filter_s": (0.5, 0.0, 10.0),  # estimate: IMU grade estimate filter
    "dbw.ulc.coast_band_mps2": (0.4, 0.0, 5.0),  # estimate: throttle fades out over this decel
    "dbw.ulc.kd_accel": (0.5, 0.0, 10.0),  # estimate: acceleration feedback (damping), (m/s^2)/(m/s^2)
    "dbw.ulc.ref_lead_mps": (0.3, 0.05, 10.0),  # estimate: the speed reference leads the speed by at most this
    "engine.pedal_exponent": (0.85, 0.1, 5.0),
    "fuel.tank_l": (43.5, 1.0, 1000.0),
}


def flatten_config(tree: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Flatten a polaris.json tree to ``{"dbw.brake.lag_s": 0.12, ...}``.

    Parameters
    ----------
    tree : mapping
        Parsed JSON; a leaf is an object with a ``value`` field or a number.
    prefix : str
        Key prefix used in the recursion.

    Returns
    -------
    dict
        Dotted key -> numeric value (non-numeric leaves are skipped).
    """
    out: dict[str, float] = {}
    for k, v in tree.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping):
            if "value" in v:
                val = v["value"]
                if isinstance(val, (int, float)) and not isinstance(val, bool):
                    out[key] = float(val)
            else:
                out.update(flatten_config(v, key))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[key] = float(v)
    return out


@dataclass(frozen=True, slots=True)
class DbwParameters:
    """Frozen DBW parameters in working units (s, deg, bar, %, SI).

    Attribute names follow the key without its ``dbw.`` prefix, dots replaced
    by underscores (``dbw.brake.lag_s`` -> ``brake_lag_s``); the vehicle
    quantities keep their section (``steering_ratio``, ``tyres_radius_m``).
    See ``DEFAULTS`` for each key, its default and its allowed range.
    """

    command_timeout_s: float
    throttle_dead_time_s: float
    throttle_lag_s: float
    throttle_rate_inc_default_pct_s: float
    throttle_rate_dec_default_pct_s: float
    throttle_override_pct: float
    brake_dead_time_s: float
    brake_lag_s: float
    brake_rate_bar_s: float
    brake_max_bar: float
    brake_rate_inc_default_bar_s: float
    brake_rate_dec_default_bar_s: float
    brake_override_pct: float
    steering_lock_deg: float
    steering_cmd_rate_default_deg_s: float
    steering_cmd_accel_default_deg_s2: float
    steering_dead_time_s: float
    steering_lag_s: float
    steering_override_torque_nm: float
    steering_max_torque_nm: float
    steering_column_damping_nm_s_deg: float
    steering_min_yaw_speed_mps: float
    gear_max_shift_speed_mps: float
    gear_shift_time_s: float
    ulc_limit_accel_default_mps2: float
    ulc_limit_decel_default_mps2: float
    ulc_limit_jerk_throttle_default_mps3: float
    ulc_limit_jerk_brake_default_mps3: float
    ulc_kp_speed: float
    ulc_ki_speed: float
    ulc_hysteresis_mps2: float
    ulc_integral_limit_mps2: float
    ulc_hold_bar: float
    ulc_stop_speed_mps: float
    ulc_park_delay_s: float
    wheel_counts_per_rev: float
    steering_ratio: float
    steering_center_deg: float
    geometry_wheelbase_m: float
    tyres_radius_m: float
    tyres_front_inflation_kpa: float
    tyres_rear_inflation_kpa: float
    brakes_front_nm_per_bar: float
    brakes_rear_nm_per_bar: float
    vehicle_mass_kg: float
    aero_drag_area_m2: float
    aero_air_density_kg_m3: float
    ulc_rolling_coeff: float
    ulc_drive_force_max_n: float
    ulc_drive_power_max_w: float
    ulc_throttle_offset_u: float
    ulc_grade_filter_s: float
    ulc_coast_band_mps2: float
    ulc_ref_lead_mps: float
    ulc_kd_accel: float
    engine_pedal_exponent: float
    fuel_tank_l: float

    @staticmethod
    def attribute_of(key: str) -> str:
        """Attribute name of a dotted parameter key (``dbw.brake.lag_s`` -> ``brake_lag_s``)."""
        k = key[4:] if key.startswith("dbw.") else key
        return k.replace(".", "_")

    @classmethod
    def from_lookup(cls, get: Callable[[str], float | None]) -> "DbwParameters":
        """Build from a lookup ``get(key) -> value or None`` (None = use the default).

        Parameters
        ----------
        get : callable
            Returns the value of a dotted key, or None if the source lacks it.

        Returns
        -------
        DbwParameters

        Raises
        ------
        ParameterError
            If a value is not a finite number (inf allowed only where the upper
            bound is inf) or lies outside its range in ``DEFAULTS``.
        """
        values: dict[str, float] = {}
        for key, (default, lo, hi) in DEFAULTS.items():
            raw = get(key)
            v = default if raw is None else raw
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ParameterError(f"{key}={v!r}: not a number")
            v = float(v)
            if v != v or not (lo <= v <= hi):
                raise ParameterError(f"{key}={v!r}: outside [{lo}, {hi}]")
            values[cls.attribute_of(key)] = v
        names = {f.name for f in fields(cls)}
        missing = names - set(values)
        if missing:  # pragma: no cover - consistency of DEFAULTS and the fields
            raise ParameterError(f"no default for {sorted(missing)}")
        return cls(**values)

    @classmethod
    def from_mapping(cls, flat: Mapping[str, float]) -> "DbwParameters":
        """Build from a flat ``{dotted key: value}`` mapping (missing keys -> default)."""
        return cls.from_lookup(flat.get)

    @classmethod
    def defaults(cls) -> "DbwParameters":
        """All defaults of ``DEFAULTS``."""
        return cls.from_lookup(lambda _k: None)

    @classmethod
    def from_vehicle_parameters(cls, vp: Any) -> "DbwParameters":
        """Build from the model's ``VehicleParameters`` (``acres_dbw_sim.model.params``).

        Reads ``vp.values`` (flat JSON paths after overrides) and the total
        mass ``vp.mass_kg`` (occupants and cargo included) as ``vehicle.mass_kg``.
        """
        flat = dict(getattr(vp, "values", {}) or {})
        mass = getattr(vp, "mass_kg", None)
        if mass is not None:
            flat["vehicle.mass_kg"] = float(mass)
        return cls.from_mapping(flat)

    @classmethod
    def from_json(cls, path: str | Path, overrides: Mapping[str, float] | None = None
                  ) -> "DbwParameters":
        """Read the ``value`` fields of a polaris.json file, then apply ``overrides``.

        Raises
        ------
        ParameterError
            As ``from_lookup``; also if an override names an unknown key.
        OSError, json.JSONDecodeError
            If the file cannot be read or parsed.
        """
        flat = flatten_config(json.loads(Path(path).read_text()))
        for k, v in (overrides or {}).items():
            if k not in DEFAULTS:
                raise ParameterError(f"{k}: unknown DBW parameter key")
            flat[k] = v
        return cls.from_mapping(flat)
