"""Parameters of the drive-by-wire emulation (``dbw.*`` keys of config/polaris.json).

Every value comes from the parameter file: the ``dbw`` section holds the
DBW's own keys (each an object with ``value``, ``basis``, ``source``, ``sd``
or ``range`` and ``note``, like the model's keys), and the DBW also reads a
few vehicle keys that the model owns (steering ratio, wheelbase, brake gains,
the engine and CVT data the ULC's feed-forward needs). There are no defaults
in the code: a key missing from the file, or a ``dbw.*`` key the DBW does not
know, is a ``ParameterError`` that names the key, as the model's loader does.

Values are converted to the units the DBW works in (deg, bar, percent, s, SI
otherwise) once, at construction; the step never looks anything up. Each field of
:class:`DbwParameters` declares its key and range (``model.params.param``); the key
tables below are read from those declarations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.params import (ParameterError, check_order, check_params, check_torque_curve, fill_params, param,
                            param_specs)

__all__ = ["DbwParameters", "ParameterError", "DBW_KEYS", "VEHICLE_KEYS", "VEHICLE_ARRAY_KEYS", "KIT_KEYS",
           "KIT_VEHICLE_LIMITS", "PLANT_RULES",
           "ENUM_KEYS", "MASS_KEY"]


# ParameterError is the model's (one class for every parameter: ``key``, ``reason``), re-exported here.

_INF = math.inf

#: Total mass with occupants and cargo [kg]; not a file key, computed by the
#: model's loader (``VehicleParameters.mass_kg``) and passed in by
#: ``from_vehicle_parameters``.
MASS_KEY = "vehicle.mass_kg"


def _key(key: str, lo: float = -_INF, hi: float = _INF, kind: str = "float", choices: tuple = ()) -> Any:
    """A field of :class:`DbwParameters` read from the full ``key``, within ``[lo, hi]`` (``model.params.param``);
    +inf (no limit) is accepted where ``hi`` is +inf."""
    return param(key, (lo, hi, True) if kind != "int" else None, kind=kind, choices=choices, absolute=True,
                 unlimited=hi == _INF)


@dataclass(frozen=True, slots=True)
class DbwParameters:
    """Frozen DBW parameters in working units (s, deg, bar, %, SI).

    Attribute names follow the key without its ``dbw.`` prefix, dots replaced
    by underscores (``dbw.brake.lag_s`` -> ``brake_lag_s``); the vehicle
    quantities keep their section (``steering_ratio``, ``tyres_radius_m``).
    Each field declares its key and allowed range; config/dbw_kit.json and the
    vehicle's file give its value and where it comes from.
    """

    # the kit's own keys (config/dbw_kit.json)
    command_timeout_s: float = _key("dbw.command_timeout_s", 0.01, 10.0)
    wheel_counts_per_rev: float = _key("dbw.wheel_counts_per_rev", 1.0, 10000.0)
    accel_filter_s: float = _key("dbw.accel_filter_s", 0.0, 5.0)
    throttle_dead_time_s: float = _key("dbw.throttle.dead_time_s", 0.0, 1.0)
    throttle_lag_s: float = _key("dbw.throttle.lag_s", 0.0, 5.0)
    throttle_rate_inc_default_pct_s: float = _key("dbw.throttle.rate_inc_default_pct_s", 0.0, _INF)
    throttle_rate_dec_default_pct_s: float = _key("dbw.throttle.rate_dec_default_pct_s", 0.0, _INF)
    throttle_override_pct: float = _key("dbw.throttle.override_pct", 0.0, 100.0)
    brake_dead_time_s: float = _key("dbw.brake.dead_time_s", 0.0, 1.0)
    brake_lag_s: float = _key("dbw.brake.lag_s", 0.0, 5.0)
    brake_rate_bar_s: float = _key("dbw.brake.rate_bar_s", 1.0, _INF)
    brake_max_bar: float = _key("dbw.brake.max_bar", 1.0, 500.0)
    brake_rate_inc_default_bar_s: float = _key("dbw.brake.rate_inc_default_bar_s", 0.0, _INF)
    brake_rate_dec_default_bar_s: float = _key("dbw.brake.rate_dec_default_bar_s", 0.0, _INF)
    brake_override_pct: float = _key("dbw.brake.override_pct", 0.0, 100.0)
    brake_hold_budget_s: float = _key("dbw.brake.hold_budget_s", 1.0, 3600.0)
    brake_hold_low_s: float = _key("dbw.brake.hold_low_s", 0.0, 3600.0)
    brake_hold_recharge_ratio: float = _key("dbw.brake.hold_recharge_ratio", 0.0, 100.0)
    brake_hold_min_bar: float = _key("dbw.brake.hold_min_bar", 0.0, 100.0)
    brake_hold_speed_mps: float = _key("dbw.brake.hold_speed_mps", 0.0, 5.0)
    steering_lock_deg: float = _key("dbw.steering.lock_deg", 1.0, 3276.0)
    steering_cmd_rate_default_deg_s: float = _key("dbw.steering.cmd_rate_default_deg_s", 1.0, _INF)
    steering_cmd_accel_default_deg_s2: float = _key("dbw.steering.cmd_accel_default_deg_s2", 1.0, _INF)
    steering_dead_time_s: float = _key("dbw.steering.dead_time_s", 0.0, 1.0)
    steering_lag_s: float = _key("dbw.steering.lag_s", 0.0, 5.0)
    steering_override_torque_nm: float = _key("dbw.steering.override_torque_nm", 0.0, 100.0)
    steering_max_torque_nm: float = _key("dbw.steering.max_torque_nm", 0.0, 255.0)
    steering_column_damping_nm_s_deg: float = _key("dbw.steering.column_damping_nm_s_deg", 1e-4, 10.0)
    steering_min_yaw_speed_mps: float = _key("dbw.steering.min_yaw_speed_mps", 0.01, 10.0)
    steering_max_rate_deg_s: float = _key("dbw.steering.max_rate_deg_s", 1.0, _INF)
    steering_lat_accel_limit_mps2: float = _key("dbw.steering.lat_accel_limit_mps2", 0.0, 50.0)
    steering_assist_gain: float = _key("dbw.steering.assist_gain", 0.0, 20.0)
    steering_pneumatic_trail_m: float = _key("dbw.steering.pneumatic_trail_m", 0.0, 0.2)
    steering_mechanical_trail_m: float = _key("dbw.steering.mechanical_trail_m", 0.0, 0.2)
    gear_max_shift_speed_mps: float = _key("dbw.gear.max_shift_speed_mps", 0.0, 10.0)
    gear_shift_time_s: float = _key("dbw.gear.shift_time_s", 0.0, 10.0)
    gear_manual_gears: float = _key("dbw.gear.manual_gears", 0.0, 32.0)
    ulc_limit_accel_default_mps2: float = _key("dbw.ulc.limit_accel_default_mps2", 0.3, 3.0)
    ulc_limit_decel_default_mps2: float = _key("dbw.ulc.limit_decel_default_mps2", 0.3, 6.0)
    ulc_limit_jerk_throttle_default_mps3: float = _key("dbw.ulc.limit_jerk_throttle_default_mps3", 1.0, 25.0)
    ulc_limit_jerk_brake_default_mps3: float = _key("dbw.ulc.limit_jerk_brake_default_mps3", 1.0, 25.0)
    ulc_kp_speed: float = _key("dbw.ulc.kp_speed", 0.0, 100.0)
    ulc_ki_speed: float = _key("dbw.ulc.ki_speed", 0.0, 100.0)
    ulc_kd_accel: float = _key("dbw.ulc.kd_accel", 0.0, 10.0)
    ulc_integral_limit_mps2: float = _key("dbw.ulc.integral_limit_mps2", 0.0, 10.0)
    ulc_hysteresis_mps2: float = _key("dbw.ulc.hysteresis_mps2", 0.0, 5.0)
    ulc_ref_lead_mps: float = _key("dbw.ulc.ref_lead_mps", 0.05, 10.0)
    ulc_hold_bar: float = _key("dbw.ulc.hold_bar", 0.0, 80.0)
    ulc_stop_speed_mps: float = _key("dbw.ulc.stop_speed_mps", 0.0, 2.0)
    ulc_park_delay_s: float = _key("dbw.ulc.park_delay_s", 0.0, 60.0)
    ulc_rolling_coeff: float = _key("dbw.ulc.rolling_coeff", 0.0, 0.5)
    ulc_grade_filter_s: float = _key("dbw.ulc.grade_filter_s", 0.0, 10.0)
    ulc_clutch_slip_tau_s: float = _key("dbw.ulc.clutch_slip_tau_s", 0.01, 2.0)
    # the vehicle's keys the DBW reads (owned and validated by the vehicle's loader); the ULC's plant model
    steering_ratio: float = _key("steering.ratio", 1.0, 100.0)
    steering_center_deg: float = _key("steering.center_deg", -90.0, 90.0)
    geometry_wheelbase_m: float = _key("geometry.wheelbase_m", 0.5, 10.0)
    tyres_radius_m: float = _key("tyres.radius_m", 0.05, 2.0)
    tyres_front_inflation_kpa: float = _key("tyres.front_inflation_kpa", 0.0, 1000.0)
    tyres_rear_inflation_kpa: float = _key("tyres.rear_inflation_kpa", 0.0, 1000.0)
    brakes_front_nm_per_bar: float = _key("brakes.front_nm_per_bar", 0.0, 1000.0)
    brakes_rear_nm_per_bar: float = _key("brakes.rear_nm_per_bar", 0.0, 1000.0)
    aero_drag_area_m2: float = _key("aero.drag_area_m2", 0.0, 20.0)
    aero_air_density_kg_m3: float = _key("aero.air_density_kg_m3", 0.0, 5.0)
    fuel_tank_l: float = _key("fuel.tank_l", 0.0, 1000.0)
    tyres_wheel_inertia_kg_m2: float = _key("tyres.wheel_inertia_kg_m2", 0.0, 100.0)
    engine_idle_rpm: float = _key("engine.idle_rpm", 100.0, 5000.0)
    engine_max_rpm: float = _key("engine.max_rpm", 1000.0, 20000.0)
    engine_inertia_kg_m2: float = _key("engine.inertia_kg_m2", 1e-3, 10.0)
    engine_accessory_drag_nm: float = _key("engine.accessory_drag_nm", 0.0, 100.0)
    engine_displacement_l: float = _key("engine.displacement_l", 0.05, 20.0)
    engine_fmep_bar: float = _key("engine.fmep_bar", -5.0, 10.0)
    engine_fmep_bar_per_krpm: float = _key("engine.fmep_bar_per_krpm", -5.0, 10.0)
    engine_fmep_bar_per_krpm2: float = _key("engine.fmep_bar_per_krpm2", -5.0, 10.0)
    engine_pumping_bar: float = _key("engine.pumping_bar", 0.0, 10.0)
    engine_pedal_exponent: float = _key("engine.pedal_exponent", 0.1, 5.0)
    cvt_low_ratio: float = _key("cvt.low_ratio", 0.1, 20.0)
    cvt_high_ratio: float = _key("cvt.high_ratio", 0.1, 20.0)
    cvt_engage_rpm: float = _key("cvt.engage_rpm", 100.0, 10000.0)
    cvt_full_engage_rpm: float = _key("cvt.full_engage_rpm", 100.0, 10000.0)
    cvt_clutch_capacity_nm: float = _key("cvt.clutch_capacity_nm", 1.0, 10000.0)
    cvt_ebs_capacity_nm: float = _key("cvt.ebs_capacity_nm", 0.0, 10000.0)
    cvt_shift_rpm_light: float = _key("cvt.shift_rpm_light", 100.0, 20000.0)
    cvt_shift_rpm_full: float = _key("cvt.shift_rpm_full", 100.0, 20000.0)
    cvt_shift_tau_s: float = _key("cvt.shift_tau_s", 0.0, 10.0)
    cvt_belt_efficiency: float = _key("cvt.belt_efficiency", 0.01, 1.0)
    cvt_gear_efficiency: float = _key("cvt.gear_efficiency", 0.01, 1.0)
    cvt_secondary_inertia_kg_m2: float = _key("cvt.secondary_inertia_kg_m2", 0.0, 10.0)
    gearbox_rear_high_ratio: float = _key("gearbox.rear_high_ratio", 0.1, 200.0)
    gearbox_rear_low_ratio: float = _key("gearbox.rear_low_ratio", 0.1, 200.0)
    gearbox_rear_reverse_ratio: float = _key("gearbox.rear_reverse_ratio", 0.1, 200.0)
    engine_torque_curve_rpm: tuple = _key("engine.torque_curve_rpm", 0.0, 20000.0, kind="array")
    engine_torque_curve_nm: tuple = _key("engine.torque_curve_nm", 0.0, 10000.0, kind="array")
    vehicle_mass_kg: float = _key(MASS_KEY, 100.0, 10000.0)
    vehicle_velocity_dir_src: int = _key("dbw.vehicle_velocity_dir_src", kind="int", choices=(1, 2))  # DIR_PRNDL, DIR_SENSOR (§2.10)
    system_sync_mode: int = _key("dbw.system_sync_mode", kind="int", choices=(0, 2))  # NONE (§4.1), ALL_OR_NONE (§4.2)
    steering_calibrated: int = _key("dbw.steering.calibrated", kind="int", choices=(0, 1))  # 0 reference kit, 1 calibrated

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
            finite number, lies outside its range, or is not one of the supported
            codes of an ``ENUM_KEYS`` key (the wording of ``model.params.check_params``), or
            the ULC plant's figures break one of :data:`PLANT_RULES` or the full-load curve's rules.
        """
        for key in flat:
            if key.startswith("dbw.") and key not in DBW_KEYS and key not in ENUM_KEYS:
                raise ParameterError(key, "unknown DBW parameter (not read by acres_dbw_sim.dbw)")
        check_params(cls, flat, "")
        for key in VEHICLE_ARRAY_KEYS:   # interpolation tables: two points at least
            if len(flat[key]) < 2:
                raise ParameterError(key, f"expected an array of at least 2 numbers, got {flat[key]!r}")
        check_torque_curve(flat)
        check_order(flat, PLANT_RULES)
        return fill_params(cls, flat, "")

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
        spec = vehicle_spec(name)
        vp = spec.load_parameters(path, None, None, None)
        return cls.from_vehicle_parameters(vp, overrides) if overrides else spec.dbw_parameters(vp)


#: The cross-field rules of the ULC plant model's figures (the Ranger's own rules of those keys): whoever gives
#: them, the Ranger's file or the tractor's ``ulc_plant`` section, they describe one engine, clutch and CVT.
PLANT_RULES = (("engine.idle_rpm", "<", "engine.max_rpm"), ("cvt.high_ratio", "<", "cvt.low_ratio"),
               ("cvt.engage_rpm", "<", "cvt.full_engage_rpm"), ("cvt.shift_rpm_light", "<=", "cvt.shift_rpm_full"))
_SPECS = param_specs(DbwParameters, "")
#: ``dbw.*`` keys the DBW reads -> (lower, upper) bound of the allowed value.
DBW_KEYS = {k[0]: s.limits[:2] for _n, s, k in _SPECS if k[0].startswith("dbw.") and s.kind == "float"}
#: ``dbw.*`` keys whose value is one of a few codes -> the codes the emulation supports.
ENUM_KEYS = {k[0]: frozenset(s.choices) for _n, s, k in _SPECS if s.choices}
#: Every ``dbw.*`` key of the kit's file (what a vehicle's loader declares for it).
KIT_KEYS = tuple(k[0] for _n, _s, k in _SPECS if k[0].startswith("dbw."))
#: Vehicle keys (owned and validated by the vehicle's loader) that the DBW reads -> (lower, upper).
VEHICLE_KEYS = {k[0]: s.limits[:2] for _n, s, k in _SPECS
                if not k[0].startswith("dbw.") and s.kind == "float" and k[0] != MASS_KEY}
#: Vehicle keys (numbers and arrays) the kit reads -> its declared (lower, upper, lower inclusive): a vehicle's
#: loader checks its own keys against these too (``model.params.check_params``' ``narrower``), so that one
#: message gives the one range a value must meet.
KIT_VEHICLE_LIMITS = {k[0]: s.limits for _n, s, k in _SPECS
                      if not k[0].startswith("dbw.") and k[0] != MASS_KEY and s.limits is not None}
#: Vehicle array keys the DBW reads -> (lower, upper) bound of every element.
VEHICLE_ARRAY_KEYS = {k[0]: s.limits[:2] for _n, s, k in _SPECS if s.kind == "array"}
