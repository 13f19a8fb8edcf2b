"""Parameters of the drive-by-wire emulation (``dbw.*`` keys of config/polaris.json).

Every value comes from the parameter file: the ``dbw`` section holds the
DBW's own keys (each an object with ``value``, ``basis``, ``source``, ``sd``
or ``range`` and ``note``, like the model's keys), and the DBW also reads a
few vehicle keys that the model owns (steering ratio, wheelbase, brake gains,
the engine and CVT data the ULC's feed-forward needs). There are no defaults
in the code: a key missing from the file, or a ``dbw.*`` key the DBW does not
know, is a ``ParameterError`` that names the key, as the model's loader does.

Values are converted to the units the DBW works in (deg, bar, percent, s, SI
otherwise) once, at construction; the step never looks anything up.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..model.params import ParameterError

__all__ = ["DbwParameters", "ParameterError", "DBW_KEYS", "VEHICLE_KEYS", "VEHICLE_ARRAY_KEYS",
           "ENUM_KEYS", "MASS_KEY"]


# ParameterError is the model's (one class for every parameter: ``key``, ``reason``), re-exported here.

_INF = math.inf

#: ``dbw.*`` keys the DBW reads -> (lower, upper) bound of the allowed value.
#: The values, their basis, source and spread are in config/polaris.json.
DBW_KEYS: dict[str, tuple[float, float]] = {
    "dbw.command_timeout_s": (0.01, 10.0),
    "dbw.wheel_counts_per_rev": (1.0, 10000.0),
    "dbw.accel_filter_s": (0.0, 5.0),
    "dbw.throttle.dead_time_s": (0.0, 1.0),
    "dbw.throttle.lag_s": (0.0, 5.0),
    "dbw.throttle.rate_inc_default_pct_s": (0.0, _INF),
    "dbw.throttle.rate_dec_default_pct_s": (0.0, _INF),
    "dbw.throttle.override_pct": (0.0, 100.0),
    "dbw.brake.dead_time_s": (0.0, 1.0),
    "dbw.brake.lag_s": (0.0, 5.0),
    "dbw.brake.rate_bar_s": (1.0, _INF),
    "dbw.brake.max_bar": (1.0, 500.0),
    "dbw.brake.rate_inc_default_bar_s": (0.0, _INF),
    "dbw.brake.rate_dec_default_bar_s": (0.0, _INF),
    "dbw.brake.override_pct": (0.0, 100.0),
    "dbw.brake.hold_budget_s": (1.0, 3600.0),
    "dbw.brake.hold_low_s": (0.0, 3600.0),
    "dbw.brake.hold_recharge_ratio": (0.0, 100.0),
    "dbw.brake.hold_min_bar": (0.0, 100.0),
    "dbw.brake.hold_speed_mps": (0.0, 5.0),
    "dbw.steering.lock_deg": (1.0, 3276.0),
    "dbw.steering.cmd_rate_default_deg_s": (1.0, _INF),
    "dbw.steering.cmd_accel_default_deg_s2": (1.0, _INF),
    "dbw.steering.dead_time_s": (0.0, 1.0),
    "dbw.steering.lag_s": (0.0, 5.0),
    "dbw.steering.override_torque_nm": (0.0, 100.0),
    "dbw.steering.max_torque_nm": (0.0, 255.0),
    "dbw.steering.column_damping_nm_s_deg": (1e-4, 10.0),
    "dbw.steering.min_yaw_speed_mps": (0.01, 10.0),
    "dbw.steering.max_rate_deg_s": (1.0, _INF),
    "dbw.steering.lat_accel_limit_mps2": (0.0, 50.0),
    "dbw.steering.assist_gain": (0.0, 20.0),
    "dbw.steering.pneumatic_trail_m": (0.0, 0.2),
    "dbw.steering.mechanical_trail_m": (0.0, 0.2),
    "dbw.gear.max_shift_speed_mps": (0.0, 10.0),
    "dbw.gear.shift_time_s": (0.0, 10.0),
    "dbw.gear.manual_gears": (0.0, 32.0),
    "dbw.ulc.limit_accel_default_mps2": (0.3, 3.0),
    "dbw.ulc.limit_decel_default_mps2": (0.3, 6.0),
    "dbw.ulc.limit_jerk_throttle_default_mps3": (1.0, 25.0),
    "dbw.ulc.limit_jerk_brake_default_mps3": (1.0, 25.0),
    "dbw.ulc.kp_speed": (0.0, 100.0),
    "dbw.ulc.ki_speed": (0.0, 100.0),
    "dbw.ulc.kd_accel": (0.0, 10.0),
    "dbw.ulc.integral_limit_mps2": (0.0, 10.0),
    "dbw.ulc.hysteresis_mps2": (0.0, 5.0),
    "dbw.ulc.ref_lead_mps": (0.05, 10.0),
    "dbw.ulc.hold_bar": (0.0, 80.0),
    "dbw.ulc.stop_speed_mps": (0.0, 2.0),
    "dbw.ulc.park_delay_s": (0.0, 60.0),
    "dbw.ulc.rolling_coeff": (0.0, 0.5),
    "dbw.ulc.grade_filter_s": (0.0, 10.0),
    "dbw.ulc.clutch_slip_tau_s": (0.01, 2.0),
}

#: ``dbw.*`` keys whose value is one of a few codes -> the codes the emulation supports.
ENUM_KEYS: dict[str, frozenset[int]] = {
    "dbw.vehicle_velocity_dir_src": frozenset({1, 2}),  # DIR_PRNDL, DIR_SENSOR (§2.10)
    "dbw.system_sync_mode": frozenset({0, 2}),  # NONE (§4.1), ALL_OR_NONE (§4.2)
    "dbw.steering.calibrated": frozenset({0, 1}),  # 0 reference kit (offset 0), 1 calibrated to straight ahead
}

#: Vehicle keys (owned and validated by the model) that the DBW reads -> (lower, upper).
VEHICLE_KEYS: dict[str, tuple[float, float]] = {
    "steering.ratio": (1.0, 100.0),
    "steering.center_deg": (-90.0, 90.0),
    "geometry.wheelbase_m": (0.5, 10.0),
    "tyres.radius_m": (0.05, 2.0),
    "tyres.front_inflation_kpa": (0.0, 1000.0),
    "tyres.rear_inflation_kpa": (0.0, 1000.0),
    "brakes.front_nm_per_bar": (0.0, 1000.0),
    "brakes.rear_nm_per_bar": (0.0, 1000.0),
    "aero.drag_area_m2": (0.0, 20.0),
    "aero.air_density_kg_m3": (0.0, 5.0),
    "fuel.tank_l": (0.0, 1000.0),
    # the ULC's powertrain model (vehicles/polaris/ulc_plant.py)
    "tyres.wheel_inertia_kg_m2": (0.0, 100.0),
    "engine.idle_rpm": (100.0, 5000.0),
    "engine.max_rpm": (1000.0, 20000.0),
    "engine.inertia_kg_m2": (1e-3, 10.0),
    "engine.accessory_drag_nm": (0.0, 100.0),
    "engine.displacement_l": (0.05, 20.0),
    "engine.fmep_bar": (-5.0, 10.0),
    "engine.fmep_bar_per_krpm": (-5.0, 10.0),
    "engine.fmep_bar_per_krpm2": (-5.0, 10.0),
    "engine.pumping_bar": (0.0, 10.0),
    "engine.pedal_exponent": (0.1, 5.0),
    "cvt.low_ratio": (0.1, 20.0),
    "cvt.high_ratio": (0.1, 20.0),
    "cvt.engage_rpm": (100.0, 10000.0),
    "cvt.full_engage_rpm": (100.0, 10000.0),
    "cvt.clutch_capacity_nm": (1.0, 10000.0),
    "cvt.ebs_capacity_nm": (0.0, 10000.0),
    "cvt.shift_rpm_light": (100.0, 20000.0),
    "cvt.shift_rpm_full": (100.0, 20000.0),
    "cvt.shift_tau_s": (0.0, 10.0),
    "cvt.belt_efficiency": (0.01, 1.0),
    "cvt.gear_efficiency": (0.01, 1.0),
    "cvt.secondary_inertia_kg_m2": (0.0, 10.0),
    "gearbox.rear_high_ratio": (0.1, 200.0),
    "gearbox.rear_low_ratio": (0.1, 200.0),
    "gearbox.rear_reverse_ratio": (0.1, 200.0),
}

#: Vehicle array keys the DBW reads -> (lower, upper) bound of every element.
VEHICLE_ARRAY_KEYS: dict[str, tuple[float, float]] = {
    "engine.torque_curve_rpm": (0.0, 20000.0),
    "engine.torque_curve_nm": (0.0, 10000.0),
}

#: Total mass with occupants and cargo [kg]; not a file key, computed by the
#: model's loader (``VehicleParameters.mass_kg``) and passed in by
#: ``from_vehicle_parameters``.
MASS_KEY = "vehicle.mass_kg"
_MASS_RANGE = (100.0, 10000.0)


@dataclass(frozen=True, slots=True)
class DbwParameters:
    """Frozen DBW parameters in working units (s, deg, bar, %, SI).

    Attribute names follow the key without its ``dbw.`` prefix, dots replaced
    by underscores (``dbw.brake.lag_s`` -> ``brake_lag_s``); the vehicle
    quantities keep their section (``steering_ratio``, ``tyres_radius_m``).
    ``DBW_KEYS``, ``VEHICLE_KEYS`` and ``VEHICLE_ARRAY_KEYS`` give each key's
    allowed range; config/polaris.json gives its value and where it comes from.
    """

    command_timeout_s: float
    wheel_counts_per_rev: float
    accel_filter_s: float
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
    brake_hold_budget_s: float
    brake_hold_low_s: float
    brake_hold_recharge_ratio: float
    brake_hold_min_bar: float
    brake_hold_speed_mps: float
    steering_lock_deg: float
    steering_cmd_rate_default_deg_s: float
    steering_cmd_accel_default_deg_s2: float
    steering_dead_time_s: float
    steering_lag_s: float
    steering_override_torque_nm: float
    steering_max_torque_nm: float
    steering_column_damping_nm_s_deg: float
    steering_min_yaw_speed_mps: float
    steering_max_rate_deg_s: float
    steering_lat_accel_limit_mps2: float
    steering_assist_gain: float
    steering_pneumatic_trail_m: float
    steering_mechanical_trail_m: float
    gear_max_shift_speed_mps: float
    gear_shift_time_s: float
    gear_manual_gears: float
    ulc_limit_accel_default_mps2: float
    ulc_limit_decel_default_mps2: float
    ulc_limit_jerk_throttle_default_mps3: float
    ulc_limit_jerk_brake_default_mps3: float
    ulc_kp_speed: float
    ulc_ki_speed: float
    ulc_kd_accel: float
    ulc_integral_limit_mps2: float
    ulc_hysteresis_mps2: float
    ulc_ref_lead_mps: float
    ulc_hold_bar: float
    ulc_stop_speed_mps: float
    ulc_park_delay_s: float
    ulc_rolling_coeff: float
    ulc_grade_filter_s: float
    ulc_clutch_slip_tau_s: float
    steering_ratio: float
    steering_center_deg: float
    geometry_wheelbase_m: float
    tyres_radius_m: float
    tyres_front_inflation_kpa: float
    tyres_rear_inflation_kpa: float
    brakes_front_nm_per_bar: float
    brakes_rear_nm_per_bar: float
    aero_drag_area_m2: float
    aero_air_density_kg_m3: float
    fuel_tank_l: float
    tyres_wheel_inertia_kg_m2: float
    engine_idle_rpm: float
    engine_max_rpm: float
    engine_inertia_kg_m2: float
    engine_accessory_drag_nm: float
    engine_displacement_l: float
    engine_fmep_bar: float
    engine_fmep_bar_per_krpm: float
    engine_fmep_bar_per_krpm2: float
    engine_pumping_bar: float
    engine_pedal_exponent: float
    cvt_low_ratio: float
    cvt_high_ratio: float
    cvt_engage_rpm: float
    cvt_full_engage_rpm: float
    cvt_clutch_capacity_nm: float
    cvt_ebs_capacity_nm: float
    cvt_shift_rpm_light: float
    cvt_shift_rpm_full: float
    cvt_shift_tau_s: float
    cvt_belt_efficiency: float
    cvt_gear_efficiency: float
    cvt_secondary_inertia_kg_m2: float
    gearbox_rear_high_ratio: float
    gearbox_rear_low_ratio: float
    gearbox_rear_reverse_ratio: float
    engine_torque_curve_rpm: tuple
    engine_torque_curve_nm: tuple
    vehicle_mass_kg: float
    vehicle_velocity_dir_src: int
    system_sync_mode: int
    steering_calibrated: int

    @staticmethod
    def attribute_of(key: str) -> str:
        """Attribute name of a dotted parameter key (``dbw.brake.lag_s`` -> ``brake_lag_s``)."""
        k = key[4:] if key.startswith("dbw.") else key
        return k.replace(".", "_")

    @classmethod
    def from_mapping(cls, flat: Mapping[str, Any]) -> "DbwParameters":
        """Build from a flat ``{dotted key: value}`` mapping (JSON paths, as ``VehicleParameters.values``).

        Keys outside ``dbw.*`` that the DBW does not read are ignored (they
        belong to the model).

        Parameters
        ----------
        flat : mapping
            Every key of ``DBW_KEYS``, ``VEHICLE_KEYS`` and ``VEHICLE_ARRAY_KEYS``
            and ``MASS_KEY`` with its value.

        Returns
        -------
        DbwParameters

        Raises
        ------
        ParameterError
            If a key is missing, a ``dbw.*`` key is unknown, a value is not a
            number (inf only where the upper bound is inf), lies outside its
            range, or is not one of the supported codes of an ``ENUM_KEYS`` key.
        """
        for key in flat:
            if key.startswith("dbw.") and key not in DBW_KEYS and key not in ENUM_KEYS:
                raise ParameterError(key, "unknown DBW parameter (not read by acres_dbw_sim.dbw)")
        values: dict[str, Any] = {}
        for key, (lo, hi) in (*DBW_KEYS.items(), *VEHICLE_KEYS.items(), (MASS_KEY, _MASS_RANGE)):
            values[cls.attribute_of(key)] = _number(key, _get(flat, key), lo, hi)
        for key, allowed in ENUM_KEYS.items():
            v = _get(flat, key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v not in allowed:
                raise ParameterError(key, f"{v!r} is not supported; allowed: {sorted(allowed)}")
            values[cls.attribute_of(key)] = int(v)
        for key, (lo, hi) in VEHICLE_ARRAY_KEYS.items():
            v = _get(flat, key)
            if isinstance(v, (str, bytes)) or not hasattr(v, "__len__") or len(v) < 2:
                raise ParameterError(key, f"expected an array of at least 2 numbers, got {v!r}")
            values[cls.attribute_of(key)] = tuple(_number(f"{key}[{i}]", x, lo, hi) for i, x in enumerate(v))
        names = {f.name for f in fields(cls)}
        if names != set(values):  # pragma: no cover - consistency of the key tables and the fields
            raise ParameterError("<DbwParameters>", f"fields {sorted(names ^ set(values))} do not match the key tables")
        return cls(**values)

    @classmethod
    def from_vehicle_parameters(cls, vp: Any, overrides: Mapping[str, Any] | None = None) -> "DbwParameters":
        """Build from the model's ``VehicleParameters`` (``acres_dbw_sim.model.params``).

        Parameters
        ----------
        vp : VehicleParameters
            Its ``values`` (flat JSON paths after the model's overrides) and
            its total mass ``mass_kg`` (occupants and cargo included).
        overrides : mapping, optional
            ``{dotted key: value}`` applied on top, for tests and tools; a key
            must be one the DBW reads.

        Raises
        ------
        ParameterError
            As ``from_mapping``; also for an override of a key the DBW does not read.
        """
        flat = dict(vp.values)
        flat[MASS_KEY] = float(vp.mass_kg)
        for k, v in (overrides or {}).items():
            if k not in DBW_KEYS and k not in VEHICLE_KEYS and k not in VEHICLE_ARRAY_KEYS \
                    and k not in ENUM_KEYS and k != MASS_KEY:
                raise ParameterError(k, "unknown DBW parameter (not read by acres_dbw_sim.dbw)")
            flat[k] = v
        return cls.from_mapping(flat)

    @classmethod
    def from_json(cls, path: str | Path | None = None, overrides: Mapping[str, Any] | None = None
                  ) -> "DbwParameters":
        """Load a vehicle's parameter file with its loader (the vehicle its ``vehicle`` key names, through the
        registry; the default vehicle's for a file that names none), then build (default: its shipped file).

        Parameters
        ----------
        path : str or Path, optional
            Parameter file; default the default vehicle's (``config/polaris.json``).
        overrides : mapping, optional
            As ``from_vehicle_parameters``.

        Raises
        ------
        ParameterError
            Anything the model's loader or ``from_vehicle_parameters`` rejects.
        """
        from ..model.params import file_vehicle
        from ..vehicles import default_vehicle, vehicle_spec   # the vehicle's loader validates the file
        name = (file_vehicle(path) if path is not None else None) or default_vehicle()
        return cls.from_vehicle_parameters(vehicle_spec(name).load_parameters(path, None, None, None), overrides)


def _get(flat: Mapping[str, Any], key: str) -> Any:
    if key not in flat:
        raise ParameterError(key, "missing from the parameter file")
    return flat[key]


def _number(key: str, v: Any, lo: float, hi: float) -> float:
    """``float(v)`` after the type and range checks (inf only if ``hi`` is inf)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ParameterError(key, f"wrong type: expected a number, got {v!r}")
    v = float(v)
    if v != v or not (lo <= v <= hi) or (math.isinf(v) and not math.isinf(hi)):
        raise ParameterError(key, f"{v!r} outside [{lo}, {hi}]")
    return v
