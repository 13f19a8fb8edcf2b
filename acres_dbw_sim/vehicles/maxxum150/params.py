"""Parameter file of the Maxxum 150 (maxxum-150-dynamics.md, "Parameters").

``config/maxxum150.json`` has the form of ``config/polaris.json``: each
parameter is an object with ``value``, ``basis``, ``source``, ``sd`` or
``range`` and ``note``; the model reads only ``value``. The sections follow
the page's parameter tables (chassis, steering, engine, transmission = "Clutch,
Transmission and Axles", pto = "PTO and Hydraulics", implement = "Legacy
Implement Block") plus ``tyres`` (the two radii the page's sections use),
``constants`` ("Constants in the Source Code" and the fixed numbers of the
equations), ``installation`` (the DBW kit's mapping: steering ratio, brake full
scale) and ``ulc_plant`` (the figures of the ULC's plant model). The file is read
with the world (``config/world.json``) and the DBW kit (``config/dbw_kit.json``)
assembled into it, as the Ranger's is, so that their keys keep their paths
(``surfaces.sand.mu``, ``dbw.brake.lag_s``).

The page's ``torque_curve`` is a list of pairs; here it is the two arrays
``engine.torque_curve_rpm`` and ``engine.torque_curve_nm`` (the shared
type check accepts arrays of numbers, as for the Ranger).

The generic pieces (:class:`ParameterError`, the flattening of the tree, the
``key=value;key[i]=value`` overrides, the type and range checks) are those of
:mod:`acres_dbw_sim.model.params`, imported, not copied.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...dbw.params import KIT_KEYS, KIT_VEHICLE_LIMITS, MASS_KEY, VEHICLE_ARRAY_KEYS, VEHICLE_KEYS, DbwParameters
from ...model.param_lines import located
from ...model.parts import BodyBox, TyreContact
from ...model.params import (FRACTION, GOVERNOR_BAND_LIMITS, MAX_LOAD_FACTOR_LIMITS, NON_NEGATIVE, POSITIVE,
                             ROLLING_MAX_LIMITS, RPM_TO_RAD_S, UNIT_INTERVAL, WATER_DENSITY_LIMITS, ParameterError,
                             assembly, check_declared, check_order, check_params, check_torque_curve, declared_keys,
                             fill_params, narrowest, param, param_limits, read_as_hint, read_parameter_tree,
                             shipped_config)
from ...model.overrides import apply_overrides, parse_overrides
from ..registry import REGISTRY
from ...model.world import assemble_world, check_world, world_keys

__all__ = ["ParameterError", "ChassisParams", "TyreParams", "SteeringParams", "EngineParams",
           "TransmissionParams", "PtoParams", "ImplementParams", "FuelParams", "Constants", "MaxxumParameters",
           "default_config_path", "load_maxxum_parameters", "IMPLEMENT_TYPES", "SOIL_TEXTURES",
           "DIFF_LOCK_STATES", "MODELS", "ATTACHMENTS", "ULC_PLANT_SECTION", "tractor_dbw_parameters", "LIMITS"]

MODELS = ("maxxum_150", "legacy")
IMPLEMENT_TYPES = ("moldboard", "chisel", "disk", "cultivator", "planter", "potato_digger", "custom")
SOIL_TEXTURES = ("auto", "fine", "medium", "coarse")
DIFF_LOCK_STATES = ("off", "rear", "all")
ATTACHMENTS = ("none", "mounted", "trailed")



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
    wheelbase_m: float = param("wheelbase_m", POSITIVE)
    track_m: float = param("track_m", POSITIVE)
    cg_height_m: float = param("cg_height_m", POSITIVE)
    cg_forward_m: float = param("cg_forward_m")
    inertia_kg_m2: tuple = param("inertia_kg_m2", POSITIVE, kind="array")
    body_length_m: float = param("body_length_m", POSITIVE)
    front_axle_stiffness_n_m: float = param("front_axle_stiffness_n_m", POSITIVE)
    rear_axle_stiffness_n_m: float = param("rear_axle_stiffness_n_m", POSITIVE)
    suspension_damping_ratio: float = param("suspension_damping_ratio", NON_NEGATIVE)
    bump_stiffness_n_m2: float = param("bump_stiffness_n_m", NON_NEGATIVE)
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

    front_radius_m: float = param("front_radius_m", POSITIVE)
    rear_radius_m: float = param("rear_radius_m", POSITIVE)
    front_width_m: float = param("front_width_m", POSITIVE)
    rear_width_m: float = param("rear_width_m", POSITIVE)
    front_section_height_m: float = param("front_section_height_m", POSITIVE)
    rear_section_height_m: float = param("rear_section_height_m", POSITIVE)
    inflation_pa: float = param("inflation_kpa", POSITIVE, scale=1e3)
    front_rate_n_m: float = param("front_rate_n_m", POSITIVE)
    rear_rate_n_m: float = param("rear_rate_n_m", POSITIVE)
    water_drag_coefficient: float = param("water_drag_coefficient", NON_NEGATIVE)
    motion_resistance_speed_mps: float = param("motion_resistance_speed_mps", POSITIVE)
    rolling_coefficient_max: float = param("rolling_coefficient_max", ROLLING_MAX_LIMITS)
    water_density_kg_m3: float = param("water_density_kg_m3", WATER_DENSITY_LIMITS)


@dataclass(frozen=True)
class SteeringParams:
    """Steering chain (page "Steering"): tau_d [s], tau_s [s], delta_dot_max [rad/s], delta_max [rad]."""

    delay_s: float = param("steer_delay_s", NON_NEGATIVE)
    time_constant_s: float = param("steer_time_constant_s", NON_NEGATIVE)
    rate_rad_s: float = param("steer_rate_rad_s", POSITIVE)
    max_steer_rad: float = param("max_steer_rad", (0.0, 1.5, False))


@dataclass(frozen=True)
class EngineParams:
    """Engine (page "Engine"); speeds in rev/min and rad/s, powers in W.

    ``torque_curve_nm`` is the file's curve scaled so that its maximum is
    ``peak_torque_nm`` (page "Torque Curve").
    """

    idle_rpm: float = param("idle_rpm", POSITIVE)
    max_rpm: float = param("max_rpm", POSITIVE)
    rated_rpm: float = param("rated_rpm", POSITIVE)
    idle_rad_s: float = param("idle_rpm", scale=RPM_TO_RAD_S)
    max_rad_s: float = param("max_rpm", scale=RPM_TO_RAD_S)
    peak_torque_nm: float = param("peak_torque_nm", POSITIVE)
    torque_curve_rpm: tuple = param("torque_curve_rpm", NON_NEGATIVE, kind="array")
    torque_curve_nm: tuple = param("torque_curve_nm", NON_NEGATIVE, kind="array")
    rated_power_w: float = param("rated_power_kw", NON_NEGATIVE, scale=1e3)
    max_power_w: float = param("max_power_kw", NON_NEGATIVE, scale=1e3)
    boost_power_w: float = param("boost_power_kw", NON_NEGATIVE, scale=1e3)
    boost_enabled: bool = param("boost_enabled", kind="bool")
    governor_droop_rpm: float = param("governor_droop_rpm", NON_NEGATIVE)
    inertia_kg_m2: float = param("engine_inertia_kg_m2", POSITIVE)
    drag_nm: float = param("engine_drag_nm", NON_NEGATIVE)
    max_speed_mps: float = param("max_speed_mps", NON_NEGATIVE)


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

    clutch_capacity_nm: float = param("clutch_capacity_nm", NON_NEGATIVE)
    clutch_engagement_s: float = param("clutch_engagement_s", POSITIVE)
    forward_gears: tuple = param("forward_gears", POSITIVE, kind="array")
    reverse_gears: tuple = param("reverse_gears", POSITIVE, kind="array")
    gear_ratio: float = param("gear_ratio", POSITIVE)
    initial_gear: int = param("initial_gear", (1, 16, True), kind="int")
    shift_time_s: float = param("shift_time_s", NON_NEGATIVE)
    final_drive: float = param("final_drive", POSITIVE)
    efficiency: float = param("efficiency", FRACTION)
    front_drive: bool = param("front_drive", kind="bool")
    front_lead_ratio: float = param("front_lead_ratio", (0.0, 0.1, True))
    diff_lock: int = param("diff_lock", kind="index", choices=DIFF_LOCK_STATES)
    direction_change_mps: float = param("direction_change_mps", NON_NEGATIVE)


@dataclass(frozen=True)
class PtoParams:
    """PTO and hydraulics; powers in W, speeds in rev/min."""

    pto_w: float = param("pto_kw", NON_NEGATIVE, scale=1e3)
    max_pto_w: float = param("max_pto_kw", NON_NEGATIVE, scale=1e3)
    pto_efficiency: float = param("pto_efficiency", FRACTION)
    hydraulic_w: float = param("hydraulic_kw", NON_NEGATIVE, scale=1e3)
    hydraulic_efficiency: float = param("hydraulic_efficiency", FRACTION)
    pto_540_engine_rpm: float = param("pto_540_engine_rpm", POSITIVE)
    pto_1000_engine_rpm: float = param("pto_1000_engine_rpm", POSITIVE)


@dataclass(frozen=True)
class FuelParams:
    """Fuel (the shared Willans line, energy.py): tank [L], H_u [J/kg], rho_f [kg/L], eta_i and its clamp [-]."""

    tank_l: float = param("tank_l", NON_NEGATIVE)
    lhv_j_kg: float = param("lhv_j_kg", POSITIVE)
    density_kg_l: float = param("density_kg_l", POSITIVE)
    indicated_efficiency: float = param("indicated_efficiency", FRACTION)
    indicated_efficiency_min: float = param("indicated_efficiency_min", FRACTION)
    indicated_efficiency_max: float = param("indicated_efficiency_max", FRACTION)


@dataclass(frozen=True)
class ImplementParams:
    """Legacy implement block (page "Parameters/Legacy Implement Block")."""

    attachment: str = param("attachment", kind="str", choices=ATTACHMENTS)
    empty_mass_kg: float = param("empty_mass_kg", NON_NEGATIVE)
    payload_kg: float = param("payload_kg", NON_NEGATIVE)
    rated_payload_kg: float = param("rated_payload_kg", NON_NEGATIVE)
    hitch_overhang_m: float = param("hitch_overhang_m", NON_NEGATIVE)
    hitch_to_cg_m: float = param("hitch_to_cg_m", POSITIVE)
    hitch_transfer: float = param("hitch_transfer", UNIT_INTERVAL)
    cg_height_m: float = param("cg_height_m", POSITIVE)
    type: str = param("type", kind="str", choices=IMPLEMENT_TYPES)
    width_m: float = param("width_m", POSITIVE)
    depth_cm: float = param("depth_cm", NON_NEGATIVE)
    design_speed_kmh: float = param("design_speed_kmh", POSITIVE)
    draft_n: float = param("draft_n", NON_NEGATIVE)
    soil_texture: str = param("soil_texture", kind="str", choices=SOIL_TEXTURES)
    custom_speed_factor_h_km: float = param("custom_speed_factor_h_km", NON_NEGATIVE)

    @property
    def mass_kg(self) -> float:
        """Empty mass plus payload [kg]."""
        return self.empty_mass_kg + self.payload_kg


@dataclass(frozen=True)
class Constants:
    """The page's "Constants in the Source Code" and the fixed numbers of its equations (see the JSON notes)."""

    rest_extension_m: float = param("rest_extension_m", POSITIVE)
    compression_datum_m: float = param("compression_datum_m", POSITIVE)
    rest_compression_m: float = param("rest_compression_m", NON_NEGATIVE)
    bump_start_m: float = param("bump_start_m", NON_NEGATIVE)
    max_load_factor: float = param("max_load_factor", MAX_LOAD_FACTOR_LIMITS)
    front_wheel_mass_kg: float = param("front_wheel_mass_kg", POSITIVE)
    rear_wheel_mass_kg: float = param("rear_wheel_mass_kg", POSITIVE)
    brake_gain: float = param("brake_gain", NON_NEGATIVE)
    air_density_kg_m3: float = param("air_density_kg_m3", NON_NEGATIVE)
    drag_coefficient: float = param("drag_coefficient", NON_NEGATIVE)
    frontal_area_m2: float = param("frontal_area_m2", NON_NEGATIVE)
    idle_gain_s_rad: float = param("idle_gain_s_rad", NON_NEGATIVE)
    idle_limit: float = param("idle_limit", UNIT_INTERVAL)
    speed_governor_band_mps: float = param("speed_governor_band_mps", GOVERNOR_BAND_LIMITS)
    power_speed_floor_rad_s: float = param("power_speed_floor_rad_s", POSITIVE)
    stall_low_fraction: float = param("stall_low_fraction", UNIT_INTERVAL)
    clutch_command_min: float = param("clutch_command_min", UNIT_INTERVAL)
    clutch_brake_max: float = param("clutch_brake_max", FRACTION)
    spin_scale_rad_s: float = param("spin_scale_rad_s", POSITIVE)
    angular_damping: float = param("angular_damping", NON_NEGATIVE)
    implement_force_limit_n: float = param("implement_force_limit_n", POSITIVE)
    axle_oscillation_limit_rad: float = param("axle_oscillation_limit_rad", (0.0, math.pi / 2, False))
    draft_speed_lag_s: float = param("draft_speed_lag_s", NON_NEGATIVE)
    draft_direction_speed_mps: float = param("draft_direction_speed_mps", POSITIVE)
    draft_point_below_origin_m: float = param("draft_point_below_origin_m", NON_NEGATIVE)
    mounted_behind_hitch_m: float = param("mounted_behind_hitch_m", NON_NEGATIVE)
    mounted_box_m: tuple = param("mounted_box_m", POSITIVE, kind="array")
    legacy_box_margin_m: tuple = param("legacy_box_margin_m", NON_NEGATIVE, kind="array")


@dataclass(frozen=True)
class InstallationParams:
    """The DBW kit's installation on the tractor (section ``installation``): steering-wheel degrees per degree
    of bicycle angle [-] and the line pressure that means full braking b_k = 1 [bar]."""

    steering_ratio: float = param("steering_ratio", (1.0, math.inf, True))
    brake_full_bar: float = param("brake_full_bar", POSITIVE)


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
    surfaces : tuple of Surface
        The world's surface table (``config/world.json``, assembled with the file as the Ranger's is) with the
        run's ``surfaces.*`` overrides; a surface's index here is its ``surface_index`` in the terrain.
    soils : dict of str to SoilClass
        The world's soil classes by name, with the run's ``soils.*`` overrides.
    vehicle : str
        The registry name of the vehicle (:data:`VEHICLE`).
    kit : acres_dbw_sim.dbw.params.DbwParameters
        The DBW kit fitted to the tractor (:func:`tractor_dbw_parameters`), checked when the file is loaded.
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
    surfaces: tuple = ()
    soils: dict = field(default_factory=dict)
    vehicle: str = VEHICLE
    kit: Any = field(default=None, repr=False, compare=False)


def default_config_path() -> Path:
    """Path of the shipped ``config/maxxum150.json`` (:func:`~acres_dbw_sim.model.params.shipped_config`).

    Raises
    ------
    ParameterError
        If it is not found.
    """
    return shipped_config("maxxum150.json")


#: The cross-field rules of the tractor's values (:func:`~acres_dbw_sim.model.params.check_order`).
RULES = (("fuel.indicated_efficiency_min", "<=", "fuel.indicated_efficiency_max"),
         ("fuel.indicated_efficiency", ">=", "fuel.indicated_efficiency_min"),
         ("fuel.indicated_efficiency", "<=", "fuel.indicated_efficiency_max"),
         ("tyres.sinkage_limit_m", "<", "tyres.front_radius_m"), ("tyres.sinkage_limit_m", "<", "tyres.rear_radius_m"),
         ("engine.idle_rpm", "<", "engine.max_rpm"),
         *((key, rel, bound) for key in ("engine.rated_rpm", "pto.pto_540_engine_rpm", "pto.pto_1000_engine_rpm")
           for rel, bound in ((">", "engine.idle_rpm"), ("<=", "engine.max_rpm"))),
         ("pto.pto_kw", "<=", "pto.max_pto_kw"), ("implement.payload_kg", "<=", "implement.rated_payload_kg"),
         ("implement.hitch_transfer", "<", 1.0), ("chassis.body_box.bottom_m", "<", "chassis.body_box.top_m"),
         ("constants.rest_extension_m", "<", "constants.compression_datum_m"))


def _validate(v: dict) -> None:
    """Presence, range, choice and integer checks of every section (:func:`check_params`), then the
    cross-field rules, on the flat value table (after the type checks)."""
    for name, cls in SECTIONS.items():
        check_params(cls, v, name, narrower=_KIT_LIMITS)
    check_torque_curve(v)
    check_order(v, RULES)
    check_world(v, v["tyres.rolling_coefficient_max"])
    if v["engine.boost_enabled"]:   # the curve factor is boost / max
        check_order(v, (("engine.boost_power_kw", ">", 0.0), ("engine.max_power_kw", ">", 0.0)))


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
    parts = assembly()
    with located(p, overrides, parts):
        _tree, defaults, values = read_parameter_tree(p, default_config_path(), VEHICLE, parts, REGISTRY)
        for key in [k for k in MOVED_KEYS if k in values] + [k for k, _, _ in parse_overrides(overrides)]:
            if key in MOVED_KEYS:
                raise ParameterError(key, f"this key is now {MOVED_KEYS[key]!r} (the DBW kit's parameters have a file "
                                     "of their own, config/dbw_kit.json; the tractor's file keeps its installation "
                                     "figures)")
        check_declared(values, declared_keys(SECTIONS, KIT_KEYS, ULC_PLANT_KEYS, world_keys(values)), "the Maxxum 150",
                       read_as_hint(p, "the Maxxum 150"))
        apply_overrides(defaults, values, overrides)
        _validate(values)
        tp = _assemble(values, str(p))
        return replace(tp, kit=tractor_dbw_parameters(tp))   # the kit's keys are checked by the kit's ranges


#: Keys of the tractor's file that moved: ``{old key: new key}`` (an old file's or an override's is refused naming
#: the new).
MOVED_KEYS = {"dbw.steering_ratio": "installation.steering_ratio", "dbw.brake_full_bar": "installation.brake_full_bar"}


def _assemble(v: dict, source_path: str) -> MaxxumParameters:
    """Convert the flat value table to SI dataclasses; the torque curve scaled to ``engine.peak_torque_nm``
    (page "Torque Curve")."""
    parts = {name: fill_params(cls, v, name) for name, cls in SECTIONS.items()}
    engine = parts["engine"]
    scale = engine.peak_torque_nm / max(engine.torque_curve_nm)
    parts["engine"] = replace(engine, torque_curve_nm=tuple(scale * x for x in engine.torque_curve_nm))
    inst = parts.pop("installation")
    soils, surfaces = assemble_world(v)
    return MaxxumParameters(**parts, dbw_steering_ratio=inst.steering_ratio, dbw_brake_full_bar=inst.brake_full_bar,
                            values=dict(v), source_path=source_path, surfaces=surfaces, soils=soils)


#: The section of the tractor's file with the figures of its ULC plant model, under the key paths the DBW
#: kit reads (``ulc_plant.engine.displacement_l`` -> ``engine.displacement_l``).
ULC_PLANT_SECTION = "ulc_plant."


def tractor_dbw_parameters(tp):
    """The DBW kit (``config/dbw_kit.json``) fitted to the Maxxum 150 through the kit's declared vehicle keys
    (``dbw.params.VEHICLE_KEYS``): the tractor's steering ratio (centre 0), wheelbase, rear tyre radius, tyre
    pressure, engine speeds, fuel tank and mass with a mounted implement, and the ``ulc_plant`` section of
    its file for the ULC's plant model.

    Parameters
    ----------
    tp : MaxxumParameters

    Returns
    -------
    acres_dbw_sim.dbw.params.DbwParameters

    Raises
    ------
    ParameterError
        A kit value or a tractor figure outside the kit's range, naming the key the user sets (``dbw.*``, the
        tractor's own key the figure comes from, or ``ulc_plant.*``).
    """
    e, ty = tp.engine, tp.tyres
    flat = {k: v for k, v in tp.values.items() if k.startswith("dbw.")}
    plant = {k[len(ULC_PLANT_SECTION):]: v for k, v in tp.values.items() if k.startswith(ULC_PLANT_SECTION)}
    flat.update(plant)
    flat.update({
        "steering.ratio": tp.dbw_steering_ratio, "steering.center_deg": 0.0,
        "geometry.wheelbase_m": tp.chassis.wheelbase_m, "tyres.radius_m": ty.rear_radius_m,
        "tyres.front_inflation_kpa": ty.inflation_pa / 1e3, "tyres.rear_inflation_kpa": ty.inflation_pa / 1e3,
        "engine.idle_rpm": e.idle_rpm, "engine.max_rpm": e.max_rpm, "fuel.tank_l": tp.fuel.tank_l,
        "dbw.gear.manual_gears": 16,
        MASS_KEY: tp.chassis.mass_kg + (tp.implement.mass_kg if tp.implement.attachment == "mounted" else 0.0)})
    try:
        return DbwParameters.from_mapping(flat)
    except ParameterError as exc:
        base = exc.key.split("[")[0]
        own = ULC_PLANT_SECTION + exc.key if ULC_PLANT_SECTION + base in ULC_PLANT_KEYS else _FIT_KEYS.get(base)
        if own is None:
            raise
        raise ParameterError(own, exc.reason) from None


#: The kit's vehicle keys that :func:`tractor_dbw_parameters` fills from the tractor's own keys.
_FIT_KEYS = {"steering.ratio": "installation.steering_ratio", "geometry.wheelbase_m": "chassis.wheelbase_m",
             "tyres.radius_m": "tyres.rear_radius_m", "tyres.front_inflation_kpa": "tyres.inflation_kpa",
             "tyres.rear_inflation_kpa": "tyres.inflation_kpa", "engine.idle_rpm": "engine.idle_rpm",
             "engine.max_rpm": "engine.max_rpm", "fuel.tank_l": "fuel.tank_l", MASS_KEY: "chassis.mass_kg"}
#: The keys of the ``ulc_plant`` section: the kit's vehicle keys that the tractor's own keys do not fill.
ULC_PLANT_KEYS = tuple(ULC_PLANT_SECTION + k for k in (*VEHICLE_KEYS, *VEHICLE_ARRAY_KEYS) if k not in _FIT_KEYS)
#: The kit's ranges of the vehicle keys it reads, under the tractor's own keys that fill them.
_KIT_LIMITS = {own: KIT_VEHICLE_LIMITS[kit] for kit, own in _FIT_KEYS.items() if kit in KIT_VEHICLE_LIMITS}
#: The tractor's number keys -> (lower, upper, lower inclusive): what the loader accepts (calibration's bounds too).
LIMITS = {k: narrowest(lim, _KIT_LIMITS.get(k)) for name, cls in SECTIONS.items()
          for k, lim in param_limits(cls, name).items()}
