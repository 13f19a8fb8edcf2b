"""Parameter file of the Maxxum 150 (maxxum-150-dynamics.md, "Parameters").

``config/maxxum150.json`` has the form of ``config/polaris.json``: each
parameter is an object with ``value``, ``basis``, ``source``, ``sd`` or
``range`` and ``note``; the model reads only ``value``. The sections follow
the page's parameter tables (chassis, steering, engine, transmission = "Clutch,
Transmission and Axles", pto = "PTO and Hydraulics", implement = "Legacy
Implement Block") plus ``tyres`` (the two radii the page's sections use),
``constants`` ("Constants in the Source Code" and the fixed numbers of the
equations) and ``dbw`` (the steering ratio of the DBW mapping).

The page's ``torque_curve`` is a list of pairs; here it is the two arrays
``engine.torque_curve_rpm`` and ``engine.torque_curve_nm`` (the shared
type check accepts arrays of numbers, as for the Ranger).

The generic pieces (:class:`ParameterError`, the flattening of the tree, the
``key=value;key[i]=value`` overrides, the type and range checks) are those of
:mod:`acres_dbw_sim.model.params`, imported, not copied.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...model.params import (GOVERNOR_BAND_LIMITS, LUG_CORRECTION_LIMITS, MAX_LOAD_FACTOR_LIMITS, ROLLING_MAX_LIMITS,
                             RPM_TO_RAD_S, WATER_DENSITY_LIMITS, ParameterError, check_range, apply_overrides,
                             check_between, kit_values, load_world, parse_overrides, read_parameter_tree)

__all__ = ["ParameterError", "ChassisParams", "TyreParams", "SteeringParams", "EngineParams",
           "TransmissionParams", "PtoParams", "ImplementParams", "FuelParams", "Constants", "MaxxumParameters",
           "default_config_path", "load_maxxum_parameters", "IMPLEMENT_TYPES", "SOIL_TEXTURES",
           "DIFF_LOCK_STATES", "MODELS", "ATTACHMENTS"]

MODELS = ("maxxum_150", "legacy")
IMPLEMENT_TYPES = ("moldboard", "chisel", "disk", "cultivator", "planter", "potato_digger", "custom")
SOIL_TEXTURES = ("auto", "fine", "medium", "coarse")
DIFF_LOCK_STATES = ("off", "rear", "all")
ATTACHMENTS = ("none", "mounted", "trailed")


#: The registry name of the vehicle this module loads (its parameter file's ``vehicle`` key).
VEHICLE = "maxxum150"


@dataclass(frozen=True)
class ChassisParams:
    """Chassis and suspension (page "Parameters/Chassis and Suspension").

    Attributes
    ----------
    model : str
        ``maxxum_150`` or ``legacy``.
    mass_kg, wheelbase_m, track_m, cg_height_m, cg_forward_m : float
        m [kg], L [m], T [m], h_cg [m], x_cg [m].
    inertia_kg_m2 : tuple of 3 float
        Principal inertia about the centre of mass (roll, pitch, yaw) [kg m^2].
    body_length_m : float
        Length of the collision box [m].
    front_axle_stiffness_n_m, rear_axle_stiffness_n_m : float
        k_a per wheel [N/m].
    suspension_damping_ratio : float
        zeta [-].
    bump_stiffness_n_m2 : float
        k_b [N/m^2] (key ``bump_stiffness_n_m``).
    probe_iterations : int
        Re-linearisations of the ground probe on a height map.
    box_rear_m, box_front_overhang_m, box_half_width_m, box_bottom_m, box_top_m : float
        The body box (behind the rear axle is negative; heights above base_footprint) [m].
    box_stiffness_n_m, box_damping_n_s_m, box_friction : float
        Its contact law per corner (chassis.py).
    """

    model: str
    mass_kg: float
    wheelbase_m: float
    track_m: float
    cg_height_m: float
    cg_forward_m: float
    inertia_kg_m2: tuple
    body_length_m: float
    front_axle_stiffness_n_m: float
    rear_axle_stiffness_n_m: float
    suspension_damping_ratio: float
    bump_stiffness_n_m2: float
    probe_iterations: int
    box_rear_m: float
    box_front_overhang_m: float
    box_half_width_m: float
    box_bottom_m: float
    box_top_m: float
    box_stiffness_n_m: float
    box_damping_n_s_m: float
    box_friction: float


@dataclass(frozen=True)
class TyreParams:
    """The tractor's tyres for the shared tyre and soil model (stages.py, tyre.py, soil.py).

    Attributes
    ----------
    front_radius_m, rear_radius_m : float
        Unloaded radii r_f, r_r [m].
    front_width_m, rear_width_m : float
        Widths b [m].
    front_section_height_m, rear_section_height_m : float
        Section heights h_s [m].
    inflation_pa, carcass_pa : float
        p_i and p_c [Pa] (the ground pressure on soil is p_i + p_c).
    front_rate_n_m, rear_rate_n_m : float
        Vertical tyre rates k_t [N/m] (page "Suspension and Wheel Load", at 80 kPa).
    lug_height_m, tread_k_m, hysteresis : float
        h [m], the tread's shear compliance [m], h_y [-].
    cornering_per_load_1_rad, relaxation_m, longitudinal_relaxation_m : float
        C_alpha / N [1/rad], sigma_y [m], sigma_x [m].
    carcass_damping_s, damping_fade_speed_mps, hard_slip_stiffness, slip_speed_floor_mps : float
        tau_c [s], its fade speed [m/s], k_s [-], the reported slip's speed floor [m/s].
    sinkage_limit_m, water_drag_coefficient, motion_resistance_speed_mps : float
        z_max [m], C_d,w [-], the motion resistance's tanh speed [m/s].
    lug_correction, rolling_coefficient_max, water_density_kg_m3 : float
        Bekker's lug correction c_l [-], the largest rolling coefficient f [-], the water's density [kg/m^3].
    """

    front_radius_m: float
    rear_radius_m: float
    front_width_m: float
    rear_width_m: float
    front_section_height_m: float
    rear_section_height_m: float
    inflation_pa: float
    carcass_pa: float
    front_rate_n_m: float
    rear_rate_n_m: float
    lug_height_m: float
    tread_k_m: float
    hysteresis: float
    cornering_per_load_1_rad: float
    relaxation_m: float
    longitudinal_relaxation_m: float
    carcass_damping_s: float
    damping_fade_speed_mps: float
    hard_slip_stiffness: float
    slip_speed_floor_mps: float
    sinkage_limit_m: float
    water_drag_coefficient: float
    motion_resistance_speed_mps: float
    lug_correction: float
    rolling_coefficient_max: float
    water_density_kg_m3: float


@dataclass(frozen=True)
class SteeringParams:
    """Steering chain (page "Steering"): tau_d [s], tau_s [s], delta_dot_max [rad/s], delta_max [rad]."""

    delay_s: float
    time_constant_s: float
    rate_rad_s: float
    max_steer_rad: float


@dataclass(frozen=True)
class EngineParams:
    """Engine (page "Engine"); speeds in rev/min and rad/s, powers in W.

    ``torque_curve_nm`` is the file's curve scaled so that its maximum is
    ``peak_torque_nm`` (page "Torque Curve").
    """

    idle_rpm: float
    max_rpm: float
    rated_rpm: float
    idle_rad_s: float
    max_rad_s: float
    peak_torque_nm: float
    torque_curve_rpm: tuple
    torque_curve_nm: tuple
    rated_power_w: float
    max_power_w: float
    boost_power_w: float
    boost_enabled: bool
    governor_droop_rpm: float
    inertia_kg_m2: float
    drag_nm: float
    max_speed_mps: float


@dataclass(frozen=True)
class TransmissionParams:
    """Clutch, transmission and axles (page "Parameters/Clutch, Transmission and Axles").

    Attributes
    ----------
    forward_gears, reverse_gears : tuple of 16 float
        i_g, gear 1 first [-].
    diff_lock : int
        0 open, 1 rear locked, 2 rear and front locked.
    """

    clutch_capacity_nm: float
    clutch_engagement_s: float
    forward_gears: tuple
    reverse_gears: tuple
    gear_ratio: float
    initial_gear: int
    shift_time_s: float
    final_drive: float
    efficiency: float
    front_drive: bool
    front_lead_ratio: float
    diff_lock: int
    direction_change_mps: float


@dataclass(frozen=True)
class PtoParams:
    """PTO and hydraulics; powers in W, speeds in rev/min."""

    pto_w: float
    max_pto_w: float
    pto_efficiency: float
    hydraulic_w: float
    hydraulic_efficiency: float
    pto_540_engine_rpm: float
    pto_1000_engine_rpm: float


@dataclass(frozen=True)
class FuelParams:
    """Fuel (the shared Willans line, energy.py): tank [L], H_u [J/kg], rho_f [kg/L], eta_i and its clamp [-]."""

    tank_l: float
    lhv_j_kg: float
    density_kg_l: float
    indicated_efficiency: float
    indicated_efficiency_min: float
    indicated_efficiency_max: float


@dataclass(frozen=True)
class ImplementParams:
    """Legacy implement block (page "Parameters/Legacy Implement Block")."""

    attachment: str
    empty_mass_kg: float
    payload_kg: float
    rated_payload_kg: float
    hitch_overhang_m: float
    hitch_to_cg_m: float
    hitch_transfer: float
    cg_height_m: float
    type: str
    width_m: float
    depth_cm: float
    design_speed_kmh: float
    draft_n: float
    soil_texture: str
    custom_speed_factor_h_km: float

    @property
    def mass_kg(self) -> float:
        """Empty mass plus payload [kg]."""
        return self.empty_mass_kg + self.payload_kg


@dataclass(frozen=True)
class Constants:
    """The page's "Constants in the Source Code" and the fixed numbers of its equations (see the JSON notes)."""

    rest_extension_m: float
    compression_datum_m: float
    rest_compression_m: float
    bump_start_m: float
    max_load_factor: float
    front_wheel_mass_kg: float
    rear_wheel_mass_kg: float
    brake_gain: float
    air_density_kg_m3: float
    drag_coefficient: float
    frontal_area_m2: float
    idle_gain_s_rad: float
    idle_limit: float
    speed_governor_band_mps: float
    power_speed_floor_rad_s: float
    stall_low_fraction: float
    clutch_command_min: float
    clutch_brake_max: float
    spin_scale_rad_s: float
    angular_damping: float
    implement_force_limit_n: float
    axle_oscillation_limit_rad: float
    draft_speed_lag_s: float
    draft_direction_speed_mps: float
    draft_point_below_origin_m: float
    mounted_behind_hitch_m: float
    mounted_box_m: tuple
    legacy_box_margin_m: tuple


@dataclass(frozen=True)
class MaxxumParameters:
    """All parameters of the Maxxum 150, validated, in SI units.

    Attributes
    ----------
    chassis, tyres, steering, engine, transmission, pto, fuel, implement, constants :
        Frozen per-section dataclasses.
    dbw_steering_ratio : float
        Steering-wheel degrees per degree of bicycle angle [-] of the DBW mapping.
    dbw_brake_full_bar : float
        The DBW's line pressure that means full braking b_k = 1 [bar].
    values : dict
        Flat ``{json_path: value}`` after overrides.
    source_path : str
    world_overrides : str
        The overrides of the world's tables (``surfaces.*``, ``soils.*``: ``config/world.json``,
        shared by both vehicles), for the Tractor's :func:`~acres_dbw_sim.model.params.load_world`.
    kit_overrides : str
        The overrides of the DBW kit's keys (``dbw.*``: ``config/dbw_kit.json``), for
        :func:`~acres_dbw_sim.vehicles.maxxum150.dbw_vehicle.tractor_dbw_parameters`.
    vehicle : str
        The registry name of the vehicle (:data:`VEHICLE`).
    """

    chassis: ChassisParams
    tyres: TyreParams
    steering: SteeringParams
    engine: EngineParams
    transmission: TransmissionParams
    pto: PtoParams
    fuel: FuelParams
    implement: ImplementParams
    constants: Constants
    dbw_steering_ratio: float
    dbw_brake_full_bar: float
    values: dict = field(repr=False)
    source_path: str = ""
    world_overrides: str = ""
    kit_overrides: str = ""
    vehicle: str = VEHICLE


def default_config_path() -> Path:
    """Path of the shipped ``config/maxxum150.json`` (source tree, then ``share/acres_dbw_sim/config``).

    Raises
    ------
    ParameterError
        If neither exists.
    """
    candidates = [
        Path(__file__).resolve().parents[3] / "config" / "maxxum150.json",
        Path(sys.prefix) / "share" / "acres_dbw_sim" / "config" / "maxxum150.json",
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise ParameterError("<file>", "maxxum150.json not found in " + ", ".join(map(str, candidates)))


_POS = (0.0, math.inf, False)
_NONNEG = (0.0, math.inf, True)
_UNIT = (0.0, 1.0, False)
_UNIT0 = (0.0, 1.0, True)
_LIMITS = {
    "chassis.mass_kg": (500.0, math.inf, True), "chassis.wheelbase_m": _POS, "chassis.track_m": _POS,
    "chassis.cg_height_m": _POS, "chassis.body_length_m": _POS,
    "chassis.front_axle_stiffness_n_m": _POS, "chassis.rear_axle_stiffness_n_m": _POS,
    "chassis.suspension_damping_ratio": _NONNEG, "chassis.bump_stiffness_n_m": _NONNEG,
    "tyres.front_radius_m": _POS, "tyres.rear_radius_m": _POS, "tyres.front_width_m": _POS,
    "tyres.rear_width_m": _POS, "tyres.front_section_height_m": _POS, "tyres.rear_section_height_m": _POS,
    "tyres.inflation_kpa": _POS, "tyres.carcass_kpa": _NONNEG, "tyres.front_rate_n_m": _POS,
    "tyres.rear_rate_n_m": _POS, "tyres.lug_height_m": _NONNEG, "tyres.tread_k_m": _NONNEG,
    "tyres.hysteresis": _NONNEG, "tyres.cornering_per_load": _POS, "tyres.relaxation_m": _POS,
    "tyres.longitudinal_relaxation_m": _POS, "tyres.carcass_damping_s": _NONNEG,
    "tyres.damping_fade_speed_mps": _POS, "tyres.hard_slip_stiffness": _POS, "tyres.slip_speed_floor_mps": _POS,
    "tyres.sinkage_limit_m": _POS, "tyres.water_drag_coefficient": _NONNEG,
    "tyres.motion_resistance_speed_mps": _POS, "chassis.probe_iterations": (1, 10, True),
    "tyres.lug_correction": LUG_CORRECTION_LIMITS, "tyres.rolling_coefficient_max": ROLLING_MAX_LIMITS,
    "tyres.water_density_kg_m3": WATER_DENSITY_LIMITS,
    "chassis.body_box.front_overhang_m": _NONNEG, "chassis.body_box.half_width_m": _POS,
    "chassis.body_box.bottom_m": _NONNEG, "chassis.body_box.top_m": _POS, "chassis.body_box.stiffness_n_m": _POS,
    "chassis.body_box.damping_n_s_m": _NONNEG, "chassis.body_box.friction": _NONNEG,
    "steering.steer_delay_s": _NONNEG, "steering.steer_time_constant_s": _NONNEG,
    "steering.steer_rate_rad_s": _POS, "steering.max_steer_rad": (0.0, 1.5, False),
    "engine.idle_rpm": _POS, "engine.max_rpm": _POS, "engine.rated_rpm": _POS, "engine.peak_torque_nm": _POS,
    "engine.rated_power_kw": _NONNEG, "engine.max_power_kw": _NONNEG, "engine.boost_power_kw": _NONNEG,
    "engine.governor_droop_rpm": _NONNEG, "engine.engine_inertia_kg_m2": _POS, "engine.engine_drag_nm": _NONNEG,
    "engine.max_speed_mps": _NONNEG,
    "transmission.clutch_capacity_nm": _NONNEG, "transmission.clutch_engagement_s": _POS,
    "transmission.gear_ratio": _POS, "transmission.initial_gear": (1, 16, True),
    "transmission.shift_time_s": _NONNEG, "transmission.final_drive": _POS, "transmission.efficiency": _UNIT,
    "transmission.front_lead_ratio": (0.0, 0.1, True), "transmission.direction_change_mps": _NONNEG,
    "pto.pto_kw": _NONNEG, "pto.max_pto_kw": _NONNEG, "pto.pto_efficiency": _UNIT, "pto.hydraulic_kw": _NONNEG,
    "pto.hydraulic_efficiency": _UNIT, "fuel.tank_l": _NONNEG, "fuel.lhv_j_kg": _POS, "fuel.density_kg_l": _POS,
    "fuel.indicated_efficiency": _UNIT, "fuel.indicated_efficiency_min": _UNIT,
    "fuel.indicated_efficiency_max": _UNIT, "pto.pto_540_engine_rpm": _POS, "pto.pto_1000_engine_rpm": _POS,
    "implement.empty_mass_kg": _NONNEG, "implement.payload_kg": _NONNEG, "implement.rated_payload_kg": _NONNEG,
    "implement.hitch_overhang_m": _NONNEG, "implement.hitch_to_cg_m": _POS,
    "implement.hitch_transfer": (0.0, 1.0, True),
    "implement.cg_height_m": _POS, "implement.width_m": _POS, "implement.depth_cm": _NONNEG,
    "implement.design_speed_kmh": _POS, "implement.draft_n": _NONNEG,
    "implement.custom_speed_factor_h_km": _NONNEG,
    "constants.rest_extension_m": _POS, "constants.compression_datum_m": _POS,
    "constants.rest_compression_m": _NONNEG, "constants.bump_start_m": _NONNEG,
    "constants.max_load_factor": MAX_LOAD_FACTOR_LIMITS,
    "constants.front_wheel_mass_kg": _POS, "constants.rear_wheel_mass_kg": _POS, "constants.brake_gain": _NONNEG,
    "constants.air_density_kg_m3": _NONNEG, "constants.drag_coefficient": _NONNEG,
    "constants.frontal_area_m2": _NONNEG, "constants.idle_gain_s_rad": _NONNEG, "constants.idle_limit": _UNIT0,
    "constants.speed_governor_band_mps": GOVERNOR_BAND_LIMITS,
"constants.power_speed_floor_rad_s": _POS,
    "constants.stall_low_fraction": (0.0, 1.0, True), "constants.clutch_command_min": _UNIT0,
    "constants.clutch_brake_max": _UNIT, "constants.spin_scale_rad_s": _POS, "constants.angular_damping": _NONNEG,
    "constants.implement_force_limit_n": _POS, "constants.axle_oscillation_limit_rad": (0.0, math.pi / 2, False),
    "constants.draft_speed_lag_s": _NONNEG, "constants.draft_direction_speed_mps": _POS,
    "constants.draft_point_below_origin_m": _NONNEG, "constants.mounted_behind_hitch_m": _NONNEG,
    "installation.steering_ratio": (1.0, math.inf, True), "installation.brake_full_bar": _POS,
}
_ARRAY_LIMITS = {"engine.torque_curve_rpm": _NONNEG, "engine.torque_curve_nm": _NONNEG,
                 "transmission.forward_gears": _POS, "transmission.reverse_gears": _POS,
                 "chassis.inertia_kg_m2": _POS, "constants.mounted_box_m": _POS,
                 "constants.legacy_box_margin_m": _NONNEG}
_CHOICES = {"chassis.model": MODELS, "implement.type": IMPLEMENT_TYPES, "implement.soil_texture": SOIL_TEXTURES,
            "transmission.diff_lock": DIFF_LOCK_STATES, "implement.attachment": ATTACHMENTS}
_INTEGERS = ("transmission.initial_gear", "chassis.probe_iterations")


def _validate(v: dict) -> None:
    """Range, choice and cross checks on the flat value table (after the type checks)."""
    for key in list(_LIMITS) + list(_ARRAY_LIMITS) + list(_CHOICES):
        if key not in v:
            raise ParameterError(key, "missing from the parameter file")
    for key, lim in _LIMITS.items():
        check_range(key, v[key], lim)
    for key, lim in _ARRAY_LIMITS.items():
        for i, x in enumerate(v[key]):
            check_range(f"{key}[{i}]", x, lim)
    for key, allowed in _CHOICES.items():
        if v[key] not in allowed:
            raise ParameterError(key, f"unknown value {v[key]!r}; allowed: {', '.join(allowed)}")
    for key in _INTEGERS:
        if int(v[key]) != v[key]:
            raise ParameterError(key, f"must be an integer, got {v[key]!r}")
    rpm = v["engine.torque_curve_rpm"]
    for i in range(1, len(rpm)):
        if rpm[i] <= rpm[i - 1]:
            raise ParameterError(f"engine.torque_curve_rpm[{i}]", "speeds must increase strictly")
    if max(v["engine.torque_curve_nm"]) <= 0.0:
        raise ParameterError("engine.torque_curve_nm", "the full-load curve has no positive torque")
    check_between("fuel.indicated_efficiency", v, "fuel.indicated_efficiency_min", "fuel.indicated_efficiency_max")
    for end in ("front", "rear"):
        if v["tyres.sinkage_limit_m"] >= v[f"tyres.{end}_radius_m"]:
            raise ParameterError("tyres.sinkage_limit_m", f"{v['tyres.sinkage_limit_m']} m: a rut deeper than the "
                                 f"tyre's radius tyres.{end}_radius_m {v[f'tyres.{end}_radius_m']} m")
    if v["engine.idle_rpm"] >= v["engine.max_rpm"]:
        raise ParameterError("engine.idle_rpm", f"idle {v['engine.idle_rpm']} rev/min must be below "
                             f"engine.max_rpm {v['engine.max_rpm']}")
    for key in ("engine.rated_rpm", "pto.pto_540_engine_rpm", "pto.pto_1000_engine_rpm"):
        if not v["engine.idle_rpm"] < v[key] <= v["engine.max_rpm"]:
            raise ParameterError(key, f"{v[key]} rev/min must lie between engine.idle_rpm and engine.max_rpm")
    if v["engine.boost_enabled"] and v["engine.boost_power_kw"] <= 0.0:
        raise ParameterError("engine.boost_power_kw", "must be > 0 when engine.boost_enabled is true")
    if v["engine.boost_enabled"] and v["engine.max_power_kw"] <= 0.0:
        raise ParameterError("engine.max_power_kw", "must be > 0 with boost (the curve factor is boost / max)")
    if v["pto.pto_kw"] > v["pto.max_pto_kw"]:
        raise ParameterError("pto.pto_kw", f"{v['pto.pto_kw']} kW exceeds pto.max_pto_kw {v['pto.max_pto_kw']} kW")
    if v["implement.payload_kg"] > v["implement.rated_payload_kg"]:
        raise ParameterError("implement.payload_kg", f"{v['implement.payload_kg']} kg exceeds "
                             f"implement.rated_payload_kg {v['implement.rated_payload_kg']} kg")
    if v["implement.hitch_transfer"] >= 1.0:
        raise ParameterError("implement.hitch_transfer", "must be below 1 (the trailer axle carries the rest)")
    if v["chassis.body_box.bottom_m"] >= v["chassis.body_box.top_m"]:
        raise ParameterError("chassis.body_box.bottom_m", "must be below chassis.body_box.top_m")
    if v["constants.rest_extension_m"] >= v["constants.compression_datum_m"]:
        raise ParameterError("constants.rest_extension_m", "must be below constants.compression_datum_m")


def load_maxxum_parameters(path: str | Path | None = None, overrides: str | None = None) -> MaxxumParameters:
    """Load, override and validate the Maxxum parameter file.

    Parameters
    ----------
    path : str or Path, optional
        Parameter file; default :func:`default_config_path`.
    overrides : str, optional
        ``"key=value;key[3]=value"`` in JSON syntax (as for the Ranger).

    Returns
    -------
    MaxxumParameters

    Raises
    ------
    ParameterError
        Unreadable file, unknown key, wrong type or length, a value out of its
        range or not among the allowed choices; the message names the key.
    """
    p = Path(path) if path is not None else default_config_path()
    tree, defaults, values = read_parameter_tree(p, default_config_path(), VEHICLE)
    for section, where in (("soils", "config/world.json"), ("surfaces", "config/world.json"),
                           ("dbw", "config/dbw_kit.json")):
        if section in tree:
            moved = " (its steering_ratio and brake_full_bar are now installation.*)" if section == "dbw" else ""
            raise ParameterError("<file>", f"{p}: the tractor's file takes no {section!r} section{moved}: it is "
                                 f"{where}'s; override its keys as {section}.* instead")
    own, world = split_world_overrides(overrides)
    for key, _, _ in parse_overrides(own):
        if key in MOVED_KEYS:
            raise ParameterError(key, f"this key is now {MOVED_KEYS[key]!r} (the DBW kit's parameters have a file of "
                                 "their own, config/dbw_kit.json; the tractor's file keeps its installation figures)")
    own, kit = _split(own, KIT_SECTIONS)
    apply_overrides(tree, defaults, values, own)
    _validate(values)
    if world:
        load_world(world)   # the world's keys are checked where they live: ParameterError names them
    if kit:
        kit_values(kit)     # the same for the DBW kit's (ranges: when the kit is fitted, DbwParameters)
    return replace(_assemble(values, str(p)), world_overrides=world, kit_overrides=kit)


#: Keys of the tractor's file that moved: ``{old key: new key}`` (an override of an old key is refused naming the new).
MOVED_KEYS = {"dbw.steering_ratio": "installation.steering_ratio", "dbw.brake_full_bar": "installation.brake_full_bar"}

WORLD_SECTIONS = ("surfaces.", "soils.")
"""Override keys that belong to the world's tables (config/world.json), not to the tractor's file."""


def split_world_overrides(overrides: str | None) -> tuple:
    """(the tractor's overrides, the world's: keys under :data:`WORLD_SECTIONS`) of ``"key=value;..."``.

    Raises
    ------
    ParameterError
        For a malformed pair (:func:`~acres_dbw_sim.model.params.parse_overrides`).
    """
    return _split(overrides, WORLD_SECTIONS)


#: Override keys that belong to the DBW kit (config/dbw_kit.json).
KIT_SECTIONS = ("dbw.",)


def _split(overrides: str | None, prefixes: tuple) -> tuple:
    """(the pairs of ``overrides`` whose key starts with none of ``prefixes``, those that do), as text."""
    rest, part = [], []
    for key, idx, raw in parse_overrides(overrides):
        pair = f"{key}{'' if idx is None else f'[{idx}]'}={raw}"
        (part if key.startswith(prefixes) else rest).append(pair)
    return ";".join(rest), ";".join(part)


def _assemble(v: dict, source_path: str) -> MaxxumParameters:
    """Convert the flat value table to SI dataclasses."""
    f = lambda k: float(v[k])  # noqa: E731
    t3 = lambda k: tuple(float(x) for x in v[k])  # noqa: E731
    chassis = ChassisParams(
        model=v["chassis.model"], mass_kg=f("chassis.mass_kg"), wheelbase_m=f("chassis.wheelbase_m"),
        track_m=f("chassis.track_m"), cg_height_m=f("chassis.cg_height_m"), cg_forward_m=f("chassis.cg_forward_m"),
        inertia_kg_m2=t3("chassis.inertia_kg_m2"), body_length_m=f("chassis.body_length_m"),
        front_axle_stiffness_n_m=f("chassis.front_axle_stiffness_n_m"),
        rear_axle_stiffness_n_m=f("chassis.rear_axle_stiffness_n_m"),
        suspension_damping_ratio=f("chassis.suspension_damping_ratio"),
        bump_stiffness_n_m2=f("chassis.bump_stiffness_n_m"), probe_iterations=int(v["chassis.probe_iterations"]),
        box_rear_m=f("chassis.body_box.rear_m"), box_front_overhang_m=f("chassis.body_box.front_overhang_m"),
        box_half_width_m=f("chassis.body_box.half_width_m"), box_bottom_m=f("chassis.body_box.bottom_m"),
        box_top_m=f("chassis.body_box.top_m"), box_stiffness_n_m=f("chassis.body_box.stiffness_n_m"),
        box_damping_n_s_m=f("chassis.body_box.damping_n_s_m"), box_friction=f("chassis.body_box.friction"))
    tyres = TyreParams(
        front_radius_m=f("tyres.front_radius_m"), rear_radius_m=f("tyres.rear_radius_m"),
        front_width_m=f("tyres.front_width_m"), rear_width_m=f("tyres.rear_width_m"),
        front_section_height_m=f("tyres.front_section_height_m"),
        rear_section_height_m=f("tyres.rear_section_height_m"), inflation_pa=1e3 * f("tyres.inflation_kpa"),
        carcass_pa=1e3 * f("tyres.carcass_kpa"), front_rate_n_m=f("tyres.front_rate_n_m"),
        rear_rate_n_m=f("tyres.rear_rate_n_m"), lug_height_m=f("tyres.lug_height_m"),
        tread_k_m=f("tyres.tread_k_m"), hysteresis=f("tyres.hysteresis"),
        cornering_per_load_1_rad=f("tyres.cornering_per_load"), relaxation_m=f("tyres.relaxation_m"),
        longitudinal_relaxation_m=f("tyres.longitudinal_relaxation_m"),
        carcass_damping_s=f("tyres.carcass_damping_s"), damping_fade_speed_mps=f("tyres.damping_fade_speed_mps"),
        hard_slip_stiffness=f("tyres.hard_slip_stiffness"), slip_speed_floor_mps=f("tyres.slip_speed_floor_mps"),
        sinkage_limit_m=f("tyres.sinkage_limit_m"), water_drag_coefficient=f("tyres.water_drag_coefficient"),
        motion_resistance_speed_mps=f("tyres.motion_resistance_speed_mps"), lug_correction=f("tyres.lug_correction"),
        rolling_coefficient_max=f("tyres.rolling_coefficient_max"), water_density_kg_m3=f("tyres.water_density_kg_m3"))
    steering = SteeringParams(f("steering.steer_delay_s"), f("steering.steer_time_constant_s"),
                              f("steering.steer_rate_rad_s"), f("steering.max_steer_rad"))
    curve = t3("engine.torque_curve_nm")
    scale = f("engine.peak_torque_nm") / max(curve)
    engine = EngineParams(
        idle_rpm=f("engine.idle_rpm"), max_rpm=f("engine.max_rpm"), rated_rpm=f("engine.rated_rpm"),
        idle_rad_s=f("engine.idle_rpm") * RPM_TO_RAD_S, max_rad_s=f("engine.max_rpm") * RPM_TO_RAD_S,
        peak_torque_nm=f("engine.peak_torque_nm"), torque_curve_rpm=t3("engine.torque_curve_rpm"),
        torque_curve_nm=tuple(scale * x for x in curve), rated_power_w=1e3 * f("engine.rated_power_kw"),
        max_power_w=1e3 * f("engine.max_power_kw"), boost_power_w=1e3 * f("engine.boost_power_kw"),
        boost_enabled=bool(v["engine.boost_enabled"]), governor_droop_rpm=f("engine.governor_droop_rpm"),
        inertia_kg_m2=f("engine.engine_inertia_kg_m2"), drag_nm=f("engine.engine_drag_nm"),
        max_speed_mps=f("engine.max_speed_mps"))
    transmission = TransmissionParams(
        clutch_capacity_nm=f("transmission.clutch_capacity_nm"),
        clutch_engagement_s=f("transmission.clutch_engagement_s"),
        forward_gears=t3("transmission.forward_gears"), reverse_gears=t3("transmission.reverse_gears"),
        gear_ratio=f("transmission.gear_ratio"), initial_gear=int(v["transmission.initial_gear"]),
        shift_time_s=f("transmission.shift_time_s"), final_drive=f("transmission.final_drive"),
        efficiency=f("transmission.efficiency"), front_drive=bool(v["transmission.front_drive"]),
        front_lead_ratio=f("transmission.front_lead_ratio"),
        diff_lock=DIFF_LOCK_STATES.index(v["transmission.diff_lock"]),
        direction_change_mps=f("transmission.direction_change_mps"))
    pto = PtoParams(1e3 * f("pto.pto_kw"), 1e3 * f("pto.max_pto_kw"), f("pto.pto_efficiency"),
                    1e3 * f("pto.hydraulic_kw"), f("pto.hydraulic_efficiency"), f("pto.pto_540_engine_rpm"),
                    f("pto.pto_1000_engine_rpm"))
    implement = ImplementParams(
        attachment=v["implement.attachment"], empty_mass_kg=f("implement.empty_mass_kg"),
        payload_kg=f("implement.payload_kg"), rated_payload_kg=f("implement.rated_payload_kg"),
        hitch_overhang_m=f("implement.hitch_overhang_m"), hitch_to_cg_m=f("implement.hitch_to_cg_m"),
        hitch_transfer=f("implement.hitch_transfer"), cg_height_m=f("implement.cg_height_m"),
        type=v["implement.type"], width_m=f("implement.width_m"), depth_cm=f("implement.depth_cm"),
        design_speed_kmh=f("implement.design_speed_kmh"), draft_n=f("implement.draft_n"),
        soil_texture=v["implement.soil_texture"],
        custom_speed_factor_h_km=f("implement.custom_speed_factor_h_km"))
    c = {name: (t3(f"constants.{name}") if isinstance(v[f"constants.{name}"], list) else f(f"constants.{name}"))
         for name in Constants.__dataclass_fields__}
    constants = Constants(**c)
    fuel = FuelParams(f("fuel.tank_l"), f("fuel.lhv_j_kg"), f("fuel.density_kg_l"), f("fuel.indicated_efficiency"),
                      f("fuel.indicated_efficiency_min"), f("fuel.indicated_efficiency_max"))
    return MaxxumParameters(chassis, tyres, steering, engine, transmission, pto, fuel, implement, constants,
                            f("installation.steering_ratio"), f("installation.brake_full_bar"), dict(v), source_path)
