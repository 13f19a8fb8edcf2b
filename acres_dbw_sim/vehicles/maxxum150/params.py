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

from ...model.param_lines import located
from ...model.parts import BodyBox, TyreContact
from ...model.params import (GOVERNOR_BAND_LIMITS, MAX_LOAD_FACTOR_LIMITS, ROLLING_MAX_LIMITS,
                             RPM_TO_RAD_S, WATER_DENSITY_LIMITS, ParameterError, apply_overrides, check_between,
                             check_params, fill_params, kit_values, load_world, param, parse_overrides,
                             read_parameter_tree)

__all__ = ["ParameterError", "ChassisParams", "TyreParams", "SteeringParams", "EngineParams",
           "TransmissionParams", "PtoParams", "ImplementParams", "FuelParams", "Constants", "MaxxumParameters",
           "default_config_path", "load_maxxum_parameters", "IMPLEMENT_TYPES", "SOIL_TEXTURES",
           "DIFF_LOCK_STATES", "MODELS", "ATTACHMENTS"]

MODELS = ("maxxum_150", "legacy")
IMPLEMENT_TYPES = ("moldboard", "chisel", "disk", "cultivator", "planter", "potato_digger", "custom")
SOIL_TEXTURES = ("auto", "fine", "medium", "coarse")
DIFF_LOCK_STATES = ("off", "rear", "all")
ATTACHMENTS = ("none", "mounted", "trailed")


_POS = (0.0, math.inf, False)
_NONNEG = (0.0, math.inf, True)
_UNIT = (0.0, 1.0, False)
_UNIT0 = (0.0, 1.0, True)

#: The registry name of the vehicle this module loads (its parameter file's ``vehicle`` key).
VEHICLE = "maxxum150"


@dataclass(frozen=True)
class ChassisParams(BodyBox):
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

    The body box is the shared part's (:class:`~acres_dbw_sim.model.parts.BodyBox`).
    """

    model: str = param("model", kind="str", choices=MODELS)
    mass_kg: float = param("mass_kg", (500.0, math.inf, True))
    wheelbase_m: float = param("wheelbase_m", _POS)
    track_m: float = param("track_m", _POS)
    cg_height_m: float = param("cg_height_m", _POS)
    cg_forward_m: float = param("cg_forward_m")
    inertia_kg_m2: tuple = param("inertia_kg_m2", _POS, kind="array")
    body_length_m: float = param("body_length_m", _POS)
    front_axle_stiffness_n_m: float = param("front_axle_stiffness_n_m", _POS)
    rear_axle_stiffness_n_m: float = param("rear_axle_stiffness_n_m", _POS)
    suspension_damping_ratio: float = param("suspension_damping_ratio", _NONNEG)
    bump_stiffness_n_m2: float = param("bump_stiffness_n_m", _NONNEG)
    probe_iterations: int = param("probe_iterations", (1, 10, True), kind="int")


@dataclass(frozen=True)
class TyreParams(TyreContact):
    """The tractor's tyres for the shared tyre and soil model (stages.py, tyre.py, soil.py): the shared contact
    constants (:class:`~acres_dbw_sim.model.parts.TyreContact`) and the tractor's own.

    Attributes
    ----------
    front_radius_m, rear_radius_m : float
        Unloaded radii r_f, r_r [m].
    front_width_m, rear_width_m : float
        Widths b [m].
    front_section_height_m, rear_section_height_m : float
        Section heights h_s [m].
    inflation_pa : float
        p_i [Pa] (the ground pressure on soil is p_i + p_c).
    front_rate_n_m, rear_rate_n_m : float
        Vertical tyre rates k_t [N/m] (page "Suspension and Wheel Load", at 80 kPa).
    water_drag_coefficient, motion_resistance_speed_mps : float
        C_d,w [-], the motion resistance's tanh speed [m/s].
    rolling_coefficient_max, water_density_kg_m3 : float
        The largest rolling coefficient f [-], the water's density [kg/m^3].
    """

    front_radius_m: float = param("front_radius_m", _POS)
    rear_radius_m: float = param("rear_radius_m", _POS)
    front_width_m: float = param("front_width_m", _POS)
    rear_width_m: float = param("rear_width_m", _POS)
    front_section_height_m: float = param("front_section_height_m", _POS)
    rear_section_height_m: float = param("rear_section_height_m", _POS)
    inflation_pa: float = param("inflation_kpa", _POS, scale=1e3)
    front_rate_n_m: float = param("front_rate_n_m", _POS)
    rear_rate_n_m: float = param("rear_rate_n_m", _POS)
    water_drag_coefficient: float = param("water_drag_coefficient", _NONNEG)
    motion_resistance_speed_mps: float = param("motion_resistance_speed_mps", _POS)
    rolling_coefficient_max: float = param("rolling_coefficient_max", ROLLING_MAX_LIMITS)
    water_density_kg_m3: float = param("water_density_kg_m3", WATER_DENSITY_LIMITS)


@dataclass(frozen=True)
class SteeringParams:
    """Steering chain (page "Steering"): tau_d [s], tau_s [s], delta_dot_max [rad/s], delta_max [rad]."""

    delay_s: float = param("steer_delay_s", _NONNEG)
    time_constant_s: float = param("steer_time_constant_s", _NONNEG)
    rate_rad_s: float = param("steer_rate_rad_s", _POS)
    max_steer_rad: float = param("max_steer_rad", (0.0, 1.5, False))


@dataclass(frozen=True)
class EngineParams:
    """Engine (page "Engine"); speeds in rev/min and rad/s, powers in W.

    ``torque_curve_nm`` is the file's curve scaled so that its maximum is
    ``peak_torque_nm`` (page "Torque Curve").
    """

    idle_rpm: float = param("idle_rpm", _POS)
    max_rpm: float = param("max_rpm", _POS)
    rated_rpm: float = param("rated_rpm", _POS)
    idle_rad_s: float = param("idle_rpm", scale=RPM_TO_RAD_S)
    max_rad_s: float = param("max_rpm", scale=RPM_TO_RAD_S)
    peak_torque_nm: float = param("peak_torque_nm", _POS)
    torque_curve_rpm: tuple = param("torque_curve_rpm", _NONNEG, kind="array")
    torque_curve_nm: tuple = param("torque_curve_nm", _NONNEG, kind="array")
    rated_power_w: float = param("rated_power_kw", _NONNEG, scale=1e3)
    max_power_w: float = param("max_power_kw", _NONNEG, scale=1e3)
    boost_power_w: float = param("boost_power_kw", _NONNEG, scale=1e3)
    boost_enabled: bool = param("boost_enabled", kind="bool")
    governor_droop_rpm: float = param("governor_droop_rpm", _NONNEG)
    inertia_kg_m2: float = param("engine_inertia_kg_m2", _POS)
    drag_nm: float = param("engine_drag_nm", _NONNEG)
    max_speed_mps: float = param("max_speed_mps", _NONNEG)


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

    clutch_capacity_nm: float = param("clutch_capacity_nm", _NONNEG)
    clutch_engagement_s: float = param("clutch_engagement_s", _POS)
    forward_gears: tuple = param("forward_gears", _POS, kind="array")
    reverse_gears: tuple = param("reverse_gears", _POS, kind="array")
    gear_ratio: float = param("gear_ratio", _POS)
    initial_gear: int = param("initial_gear", (1, 16, True), kind="int")
    shift_time_s: float = param("shift_time_s", _NONNEG)
    final_drive: float = param("final_drive", _POS)
    efficiency: float = param("efficiency", _UNIT)
    front_drive: bool = param("front_drive", kind="bool")
    front_lead_ratio: float = param("front_lead_ratio", (0.0, 0.1, True))
    diff_lock: int = param("diff_lock", kind="index", choices=DIFF_LOCK_STATES)
    direction_change_mps: float = param("direction_change_mps", _NONNEG)


@dataclass(frozen=True)
class PtoParams:
    """PTO and hydraulics; powers in W, speeds in rev/min."""

    pto_w: float = param("pto_kw", _NONNEG, scale=1e3)
    max_pto_w: float = param("max_pto_kw", _NONNEG, scale=1e3)
    pto_efficiency: float = param("pto_efficiency", _UNIT)
    hydraulic_w: float = param("hydraulic_kw", _NONNEG, scale=1e3)
    hydraulic_efficiency: float = param("hydraulic_efficiency", _UNIT)
    pto_540_engine_rpm: float = param("pto_540_engine_rpm", _POS)
    pto_1000_engine_rpm: float = param("pto_1000_engine_rpm", _POS)


@dataclass(frozen=True)
class FuelParams:
    """Fuel (the shared Willans line, energy.py): tank [L], H_u [J/kg], rho_f [kg/L], eta_i and its clamp [-]."""

    tank_l: float = param("tank_l", _NONNEG)
    lhv_j_kg: float = param("lhv_j_kg", _POS)
    density_kg_l: float = param("density_kg_l", _POS)
    indicated_efficiency: float = param("indicated_efficiency", _UNIT)
    indicated_efficiency_min: float = param("indicated_efficiency_min", _UNIT)
    indicated_efficiency_max: float = param("indicated_efficiency_max", _UNIT)


@dataclass(frozen=True)
class ImplementParams:
    """Legacy implement block (page "Parameters/Legacy Implement Block")."""

    attachment: str = param("attachment", kind="str", choices=ATTACHMENTS)
    empty_mass_kg: float = param("empty_mass_kg", _NONNEG)
    payload_kg: float = param("payload_kg", _NONNEG)
    rated_payload_kg: float = param("rated_payload_kg", _NONNEG)
    hitch_overhang_m: float = param("hitch_overhang_m", _NONNEG)
    hitch_to_cg_m: float = param("hitch_to_cg_m", _POS)
    hitch_transfer: float = param("hitch_transfer", (0.0, 1.0, True))
    cg_height_m: float = param("cg_height_m", _POS)
    type: str = param("type", kind="str", choices=IMPLEMENT_TYPES)
    width_m: float = param("width_m", _POS)
    depth_cm: float = param("depth_cm", _NONNEG)
    design_speed_kmh: float = param("design_speed_kmh", _POS)
    draft_n: float = param("draft_n", _NONNEG)
    soil_texture: str = param("soil_texture", kind="str", choices=SOIL_TEXTURES)
    custom_speed_factor_h_km: float = param("custom_speed_factor_h_km", _NONNEG)

    @property
    def mass_kg(self) -> float:
        """Empty mass plus payload [kg]."""
        return self.empty_mass_kg + self.payload_kg


@dataclass(frozen=True)
class Constants:
    """The page's "Constants in the Source Code" and the fixed numbers of its equations (see the JSON notes)."""

    rest_extension_m: float = param("rest_extension_m", _POS)
    compression_datum_m: float = param("compression_datum_m", _POS)
    rest_compression_m: float = param("rest_compression_m", _NONNEG)
    bump_start_m: float = param("bump_start_m", _NONNEG)
    max_load_factor: float = param("max_load_factor", MAX_LOAD_FACTOR_LIMITS)
    front_wheel_mass_kg: float = param("front_wheel_mass_kg", _POS)
    rear_wheel_mass_kg: float = param("rear_wheel_mass_kg", _POS)
    brake_gain: float = param("brake_gain", _NONNEG)
    air_density_kg_m3: float = param("air_density_kg_m3", _NONNEG)
    drag_coefficient: float = param("drag_coefficient", _NONNEG)
    frontal_area_m2: float = param("frontal_area_m2", _NONNEG)
    idle_gain_s_rad: float = param("idle_gain_s_rad", _NONNEG)
    idle_limit: float = param("idle_limit", _UNIT0)
    speed_governor_band_mps: float = param("speed_governor_band_mps", GOVERNOR_BAND_LIMITS)
    power_speed_floor_rad_s: float = param("power_speed_floor_rad_s", _POS)
    stall_low_fraction: float = param("stall_low_fraction", (0.0, 1.0, True))
    clutch_command_min: float = param("clutch_command_min", _UNIT0)
    clutch_brake_max: float = param("clutch_brake_max", _UNIT)
    spin_scale_rad_s: float = param("spin_scale_rad_s", _POS)
    angular_damping: float = param("angular_damping", _NONNEG)
    implement_force_limit_n: float = param("implement_force_limit_n", _POS)
    axle_oscillation_limit_rad: float = param("axle_oscillation_limit_rad", (0.0, math.pi / 2, False))
    draft_speed_lag_s: float = param("draft_speed_lag_s", _NONNEG)
    draft_direction_speed_mps: float = param("draft_direction_speed_mps", _POS)
    draft_point_below_origin_m: float = param("draft_point_below_origin_m", _NONNEG)
    mounted_behind_hitch_m: float = param("mounted_behind_hitch_m", _NONNEG)
    mounted_box_m: tuple = param("mounted_box_m", _POS, kind="array")
    legacy_box_margin_m: tuple = param("legacy_box_margin_m", _NONNEG, kind="array")


@dataclass(frozen=True)
class InstallationParams:
    """The DBW kit's installation on the tractor (section ``installation``): steering-wheel degrees per degree
    of bicycle angle [-] and the line pressure that means full braking b_k = 1 [bar]."""

    steering_ratio: float = param("steering_ratio", (1.0, math.inf, True))
    brake_full_bar: float = param("brake_full_bar", _POS)


#: The sections of the tractor's file and their dataclasses.
SECTIONS = {"chassis": ChassisParams, "tyres": TyreParams, "steering": SteeringParams, "engine": EngineParams,
            "transmission": TransmissionParams, "pto": PtoParams, "fuel": FuelParams, "implement": ImplementParams,
            "constants": Constants, "installation": InstallationParams}


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


def _validate(v: dict) -> None:
    """Presence, range, choice and integer checks of every section (:func:`check_params`), then the
    cross-field rules, on the flat value table (after the type checks)."""
    for name, cls in SECTIONS.items():
        check_params(cls, v, name)
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
    with located(p):
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
    with located(p, own):
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
    """Convert the flat value table to SI dataclasses; the torque curve scaled to ``engine.peak_torque_nm``
    (page "Torque Curve")."""
    parts = {name: fill_params(cls, v, name) for name, cls in SECTIONS.items()}
    engine = parts["engine"]
    scale = engine.peak_torque_nm / max(engine.torque_curve_nm)
    parts["engine"] = replace(engine, torque_curve_nm=tuple(scale * x for x in engine.torque_curve_nm))
    inst = parts.pop("installation")
    return MaxxumParameters(**parts, dbw_steering_ratio=inst.steering_ratio, dbw_brake_full_bar=inst.brake_full_bar,
                            values=dict(v), source_path=source_path)
