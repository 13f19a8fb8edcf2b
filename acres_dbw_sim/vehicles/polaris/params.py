"""The Polaris Ranger's parameters (polaris-ranger-dynamics.md, "Parameters"): ``config/polaris.json``.

The file is read with the world (``config/world.json``) and the DBW kit
(``config/dbw_kit.json``) assembled into it, so that every key keeps its path
(``surfaces.sand.mu``, ``dbw.brake.lag_s``) (:mod:`acres_dbw_sim.model.params`,
the parameter layer of every vehicle).

:func:`load_parameters` reads the file, applies overrides
(``"key=value;key=value"``, the ``-PolarisSet=`` option of the reference), the
number of occupants (0 to 6) and the cargo, validates everything once and
returns frozen dataclasses in SI units (kPa -> Pa, MJ/kg -> J/kg, rev/min ->
rad/s where the field name says so). Any problem raises
:class:`~acres_dbw_sim.model.params.ParameterError` naming the key and the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...dbw.params import KIT_KEYS, KIT_VEHICLE_LIMITS, MASS_KEY, PLANT_RULES, DbwParameters
from ...model.param_lines import located
from ...model.parts import BodyBox, TyreContact
from ...model.params import (FRACTION, GOVERNOR_BAND_LIMITS, MAX_LOAD_FACTOR_LIMITS, NON_NEGATIVE, POSITIVE,
                             ROLLING_MAX_LIMITS, RPM_TO_RAD_S, UNIT_INTERVAL, WATER_DENSITY_LIMITS, ParameterError,
                             assembly, check_declared, check_order, check_params, check_torque_curve, check_type,
                             declared_keys, fill_params, narrowest, param, param_limits, read_as_hint,
                             read_parameter_tree, shipped_config)
from ...model.overrides import apply_overrides
from ..registry import REGISTRY
from ...model.world import SurfaceTable, assemble_world, check_world, world_keys

__all__ = ["VEHICLE", "GeometryParams", "MassParams", "SuspensionParams", "TyreParams", "SteeringParams",
           "EngineParams", "FuelParams", "CvtParams", "GearboxParams", "BrakeParams", "AeroParams",
           "ResistanceParams", "ChassisParams", "VehicleParameters", "LIMITS", "KINEMATIC_RANGES",
           "KINEMATIC_PER_RANGE", "KINEMATIC_KEYS", "default_config_path", "load_parameters"]

#: The registry name of the vehicle this module loads (its parameter file's ``vehicle`` key).
VEHICLE = "polaris"


@dataclass(frozen=True)
class GeometryParams:
    """Axle geometry [m] (reference "Geometry"); section ``geometry``."""

    wheelbase_m: float = param("wheelbase_m", POSITIVE)
    track_front_m: float = param("track_front_m", POSITIVE)
    track_rear_m: float = param("track_rear_m", POSITIVE)


@dataclass(frozen=True)
class MassParams:
    """Point masses and their positions from base_footprint [kg, m] (reference "Mass"); section ``mass``."""

    dry_kg: float = param("dry_kg", POSITIVE)
    fluids_kg: float = param("fluids_kg", NON_NEGATIVE)
    roof_equipment_kg: float = param("roof_equipment_kg", NON_NEGATIVE)
    bay_equipment_kg: float = param("bay_equipment_kg", NON_NEGATIVE)
    occupant_kg: float = param("occupant_kg", NON_NEGATIVE)
    occupants: int = param("occupants", (0, 6, True), kind="int")
    cargo_kg: float = param("cargo_kg", NON_NEGATIVE)
    dry_cg_m: tuple = param(("dry_cg_forward_m", "dry_cg_left_m", "dry_cg_height_m"), kind="vector")
    dry_gyration_m: tuple = param(("dry_gyration_roll_m", "dry_gyration_pitch_m", "dry_gyration_yaw_m"), POSITIVE,
                                  kind="vector")
    fluids_m: tuple = param(("fluids_x_m", "fluids_y_m", "fluids_z_m"), kind="vector")
    roof_m: tuple = param(("roof_x_m", "roof_y_m", "roof_z_m"), kind="vector")
    bay_m: tuple = param(("bay_x_m", "bay_y_m", "bay_z_m"), kind="vector")
    front_seat_x_m: float = param("front_seat_x_m")
    rear_seat_x_m: float = param("rear_seat_x_m")
    seat_lateral_m: float = param("seat_lateral_m")
    seat_z_m: float = param("seat_z_m")
    cargo_m: tuple = param(("cargo_x_m", 0.0, "cargo_z_m"), kind="vector")


@dataclass(frozen=True)
class SuspensionParams:
    """Corner suspension (reference "Suspension"); section ``suspension``."""

    travel_m: float = param("travel_m", POSITIVE)
    droop_m: float = param("droop_m", POSITIVE)
    front_wheel_rate_n_m: float = param("front_wheel_rate_n_m", POSITIVE)
    rear_wheel_rate_n_m: float = param("rear_wheel_rate_n_m", POSITIVE)
    damping_ratio: float = param("damping_ratio", NON_NEGATIVE)
    bump_stop_length_m: float = param("bump_stop_length_m", NON_NEGATIVE)
    bump_stop_rate_n_m2: float = param("bump_stop_rate_n_m2", NON_NEGATIVE)
    max_load_factor: float = param("max_load_factor", MAX_LOAD_FACTOR_LIMITS)


@dataclass(frozen=True)
class TyreParams(TyreContact):
    """Tyres (reference "Tyres"); pressures in Pa (file: kPa); section ``tyres``: the shared contact constants
    (:class:`~acres_dbw_sim.model.parts.TyreContact`) and the Ranger's own."""

    radius_m: float = param("radius_m", POSITIVE)
    front_width_m: float = param("front_width_m", POSITIVE)
    rear_width_m: float = param("rear_width_m", POSITIVE)
    section_height_m: float = param("section_height_m", POSITIVE)
    front_inflation_pa: float = param("front_inflation_kpa", POSITIVE, scale=1e3)
    rear_inflation_pa: float = param("rear_inflation_kpa", POSITIVE, scale=1e3)
    lug_area_ratio: float = param("lug_area_ratio", UNIT_INTERVAL)
    wheel_inertia_kg_m2: float = param("wheel_inertia_kg_m2", POSITIVE)


@dataclass(frozen=True)
class SteeringParams:
    """Steering ratio i_s, centre theta_c [deg] and rack stop from straight ahead [deg] (reference "Steering")."""

    ratio: float = param("ratio", POSITIVE)
    center_deg: float = param("center_deg")
    rack_stop_deg: float = param("rack_stop_deg", POSITIVE)


@dataclass(frozen=True)
class EngineParams:
    """Engine (reference "Engine"); speeds in rev/min and rad/s, displacement in m^3 (file: L)."""

    idle_rpm: float = param("idle_rpm", POSITIVE)
    max_rpm: float = param("max_rpm", POSITIVE)
    idle_rad_s: float = param("idle_rpm", scale=RPM_TO_RAD_S)
    max_rad_s: float = param("max_rpm", scale=RPM_TO_RAD_S)
    torque_curve_rpm: tuple = param("torque_curve_rpm", NON_NEGATIVE, kind="array")
    torque_curve_nm: tuple = param("torque_curve_nm", NON_NEGATIVE, kind="array")
    inertia_kg_m2: float = param("inertia_kg_m2", POSITIVE)
    accessory_drag_nm: float = param("accessory_drag_nm", NON_NEGATIVE)
    displacement_m3: float = param("displacement_l", POSITIVE, scale=1e-3)
    indicated_efficiency: float = param("indicated_efficiency", FRACTION)
    fmep_bar: float = param("fmep_bar")
    fmep_bar_per_krpm: float = param("fmep_bar_per_krpm")
    fmep_bar_per_krpm2: float = param("fmep_bar_per_krpm2")
    pumping_bar: float = param("pumping_bar", NON_NEGATIVE)
    torque_lag_s: float = param("torque_lag_s", NON_NEGATIVE)
    idle_gain: float = param("idle_gain", NON_NEGATIVE)
    pedal_exponent: float = param("pedal_exponent", POSITIVE)
    max_speed_mps: float = param("max_speed_mps", NON_NEGATIVE)
    speed_governor_band_mps: float = param("speed_governor_band_mps", GOVERNOR_BAND_LIMITS)
    indicated_efficiency_min: float = param("indicated_efficiency_min", FRACTION)
    indicated_efficiency_max: float = param("indicated_efficiency_max", FRACTION)


@dataclass(frozen=True)
class FuelParams:
    """Fuel (reference "Fuel and Energy"); heating value in J/kg (file: MJ/kg)."""

    lhv_j_kg: float = param("lhv_mj_kg", POSITIVE, scale=1e6)
    density_kg_l: float = param("density_kg_l", POSITIVE)
    tank_l: float = param("tank_l", NON_NEGATIVE)


@dataclass(frozen=True)
class CvtParams:
    """CVT and primary clutch (reference "CVT and Primary Clutch"); engagement speeds in rad/s (file: rev/min)."""

    low_ratio: float = param("low_ratio", POSITIVE)
    high_ratio: float = param("high_ratio", POSITIVE)
    engage_rad_s: float = param("engage_rpm", POSITIVE, scale=RPM_TO_RAD_S)
    full_engage_rad_s: float = param("full_engage_rpm", POSITIVE, scale=RPM_TO_RAD_S)
    clutch_capacity_nm: float = param("clutch_capacity_nm", NON_NEGATIVE)
    ebs_capacity_nm: float = param("ebs_capacity_nm", NON_NEGATIVE)
    shift_rpm_light: float = param("shift_rpm_light", POSITIVE)
    shift_rpm_full: float = param("shift_rpm_full", POSITIVE)
    shift_tau_s: float = param("shift_tau_s", NON_NEGATIVE)
    belt_efficiency: float = param("belt_efficiency", FRACTION)
    gear_efficiency: float = param("gear_efficiency", FRACTION)
    secondary_inertia_kg_m2: float = param("secondary_inertia_kg_m2", NON_NEGATIVE)
    ebs: bool = param("ebs", kind="bool")
    adc: bool = param("adc", kind="bool")


@dataclass(frozen=True)
class GearboxParams:
    """Gear reductions and park pawl (reference "Gear Lever"); the lever's shift limits are the DBW kit's keys."""

    rear_low_ratio: float = param("rear_low_ratio", POSITIVE)
    rear_high_ratio: float = param("rear_high_ratio", POSITIVE)
    rear_reverse_ratio: float = param("rear_reverse_ratio", POSITIVE)
    front_low_ratio: float = param("front_low_ratio", POSITIVE)
    front_high_ratio: float = param("front_high_ratio", POSITIVE)
    front_reverse_ratio: float = param("front_reverse_ratio", POSITIVE)
    front_drive_ratio: float = param("front_drive_ratio", POSITIVE)
    park_hold_nm: float = param("park_hold_nm", NON_NEGATIVE)
    max_shift_speed_mps: float = param("dbw.gear.max_shift_speed_mps", absolute=True)
    shift_time_s: float = param("dbw.gear.shift_time_s", absolute=True)


@dataclass(frozen=True)
class BrakeParams:
    """Brake gains [N m/bar] and pressures [bar] (reference "Brakes")."""

    front_nm_per_bar: float = param("front_nm_per_bar", NON_NEGATIVE)
    rear_nm_per_bar: float = param("rear_nm_per_bar", NON_NEGATIVE)
    pressure_bias_bar: float = param("pressure_bias_bar")
    max_bar: float = param("max_bar", POSITIVE)


@dataclass(frozen=True)
class AeroParams:
    """Aerodynamic drag (reference "Resistances")."""

    drag_area_m2: float = param("drag_area_m2", NON_NEGATIVE)
    air_density_kg_m3: float = param("air_density_kg_m3", NON_NEGATIVE)


@dataclass(frozen=True)
class ResistanceParams:
    """Water drag, chassis angular damping, the resistances' speed scales and the rolling coefficient's limit
    (reference "Resistances")."""

    water_drag_coefficient: float = param("water_drag_coefficient", NON_NEGATIVE)
    angular_damping_per_s: float = param("angular_damping_per_s", NON_NEGATIVE)
    spin_scale_rad_s: float = param("spin_scale_rad_s", POSITIVE)
    motion_resistance_speed_mps: float = param("motion_resistance_speed_mps", POSITIVE)
    rolling_coefficient_max: float = param("rolling_coefficient_max", ROLLING_MAX_LIMITS)
    water_density_kg_m3: float = param("water_density_kg_m3", WATER_DENSITY_LIMITS)


@dataclass(frozen=True)
class ChassisParams(BodyBox):
    """Ground-probe constants and the shared body box (:class:`~acres_dbw_sim.model.parts.BodyBox`; gaps.md
    "Chassis"); section ``chassis``."""

    rest_extension_m: float = param("rest_extension_m", POSITIVE)
    compression_datum_m: float = param("compression_datum_m", POSITIVE)
    probe_iterations: int = param("probe_iterations", (0, 20, True), kind="int")


#: The sections of the Ranger's file and their dataclasses, in the order of :class:`VehicleParameters`.
SECTIONS = {"geometry": GeometryParams, "mass": MassParams, "suspension": SuspensionParams, "tyres": TyreParams,
            "steering": SteeringParams, "engine": EngineParams, "fuel": FuelParams, "cvt": CvtParams,
            "gearbox": GearboxParams, "brakes": BrakeParams, "aero": AeroParams, "resistances": ResistanceParams,
            "chassis": ChassisParams}


@dataclass(frozen=True)
class VehicleParameters(SurfaceTable):
    """All parameters of the Polaris model, validated, in SI units.

    Attributes
    ----------
    geometry, mass, suspension, tyres, steering, engine, fuel, cvt, gearbox,
    brakes, aero, resistances, chassis :
        Frozen per-subsystem dataclasses.
    surfaces : tuple of Surface
        The surface table; a surface's index in this tuple is its
        ``surface_index`` in the terrain.
    mass_properties : acres_dbw_sim.vehicles.polaris.mass.MassProperties
        Total mass, centre of mass, inertia and static loads for the chosen
        occupants and cargo.
    values : dict
        Flat ``{json_path: value}`` of every parameter after overrides.
    source_path : str
        File the parameters were read from.
    soils : dict of str to SoilClass
        The soil table (``soils`` block), by class name; vehicle-agnostic data that a surface names.
    vehicle : str
        The registry name of the vehicle (:data:`VEHICLE`): ``acres_dbw_sim.vehicles.vehicle_spec(vehicle)``
        is its row.
    kit : acres_dbw_sim.dbw.params.DbwParameters
        The DBW kit fitted to these values (``dbw.*`` and the vehicle keys the kit reads, the total mass),
        checked against the kit's declared ranges when the file is loaded: the one rule of every ``dbw.*`` key.
    """

    geometry: GeometryParams
    mass: MassParams
    suspension: SuspensionParams
    tyres: TyreParams
    steering: SteeringParams
    engine: EngineParams
    fuel: FuelParams
    cvt: CvtParams
    gearbox: GearboxParams
    brakes: BrakeParams
    aero: AeroParams
    resistances: ResistanceParams
    chassis: ChassisParams
    surfaces: tuple
    mass_properties: Any
    values: dict = field(repr=False)
    source_path: str = ""
    soils: dict = field(default_factory=dict)
    vehicle: str = VEHICLE
    kit: Any = field(default=None, repr=False, compare=False)

    @property
    def wheelbase_m(self) -> float:
        """Wheelbase L [m]."""
        return self.geometry.wheelbase_m

    @property
    def mass_kg(self) -> float:
        """Total mass m [kg] with occupants and cargo."""
        return self.mass_properties.mass_kg


def default_config_path() -> Path:
    """Path of the shipped ``config/polaris.json`` (:func:`shipped_config`).

    Raises
    ------
    ParameterError
        If it is not found.
    """
    return shipped_config("polaris.json")


#: The Ranger's number keys -> (lower, upper, lower inclusive): what the loader accepts (calibration's bounds too).
LIMITS = {k: narrowest(lim, KIT_VEHICLE_LIMITS.get(k)) for name, cls in SECTIONS.items()
          for k, lim in param_limits(cls, name).items()}


#: The kinematic level's block (``kinematic.*``, written by ``tools/derive_kinematic.py``; read by
#: :class:`~acres_dbw_sim.vehicles.polaris.kinematic.KinematicParameters`): per gear range the largest
#: acceleration, top speed and steepest grade, then the braking deceleration and the turning radius.
KINEMATIC_RANGES = ("high", "low", "reverse")
KINEMATIC_PER_RANGE = ("accel_max_mps2", "speed_max_mps", "slope_max_pct")
KINEMATIC_KEYS = tuple(f"kinematic.{r}.{k}" for r in KINEMATIC_RANGES for k in KINEMATIC_PER_RANGE) + (
    "kinematic.decel_max_mps2", "kinematic.turning_radius_m")


#: The cross-field rules of the Ranger's values (:func:`~acres_dbw_sim.model.params.check_order`).
RULES = PLANT_RULES + (  # the plant model's rules are the Ranger's own engine and CVT's
         ("engine.indicated_efficiency_min", "<=", "engine.indicated_efficiency_max"),
         ("engine.indicated_efficiency", ">=", "engine.indicated_efficiency_min"),
         ("engine.indicated_efficiency", "<=", "engine.indicated_efficiency_max"),
         ("tyres.sinkage_limit_m", "<", "tyres.radius_m"), ("suspension.droop_m", "<", "suspension.travel_m"),
         ("chassis.rest_extension_m", "<", "chassis.compression_datum_m"),
         ("chassis.body_box.bottom_m", "<", "chassis.body_box.top_m"))


def _validate(values: dict) -> None:
    """The cross-field checks of the flat value table (after :func:`check_params` of every section)."""
    check_torque_curve(values)
    check_order(values, RULES)
    check_world(values, values["resistances.rolling_coefficient_max"])


def load_parameters(path: str | Path | None = None, overrides: str | None = None,
                    occupants: int | None = None, cargo_kg: float | None = None) -> VehicleParameters:
    """Load, override and validate the parameter file.

    Parameters
    ----------
    path : str or Path, optional
        Parameter file; default :func:`default_config_path`.
    overrides : str, optional
        ``"key=value;key=value"``; array elements as ``engine.torque_curve_rpm[3]=4100``;
        values in JSON syntax (``true``, ``[1, 2]``) or plain text for strings.
    occupants : int, optional
        Number of occupants 0..6 (overrides ``mass.occupants``).
    cargo_kg : float, optional
        Cargo in the bed [kg] (overrides ``mass.cargo_kg``).

    Returns
    -------
    VehicleParameters

    Raises
    ------
    ParameterError
        Unknown key, wrong type, wrong array length, non-physical value, or an
        unreadable file. The message names the key and the reason.
    """
    p = Path(path) if path is not None else default_config_path()
    parts = assembly()
    with located(p, overrides, parts):
        _tree, defaults, values = read_parameter_tree(p, default_config_path(), VEHICLE, parts, REGISTRY)
        unnamed = read_as_hint(p, "the Ranger")
        check_declared(values, declared_keys(SECTIONS, KINEMATIC_KEYS, KIT_KEYS, world_keys(values)), "the Ranger",
                       unnamed)
        apply_overrides(defaults, values, overrides)
        if occupants is not None:
            if isinstance(occupants, bool) or not isinstance(occupants, int):
                raise ParameterError("mass.occupants", f"wrong type: expected an integer, got {occupants!r}")
            values["mass.occupants"] = occupants
        if cargo_kg is not None:
            values["mass.cargo_kg"] = check_type("mass.cargo_kg", 0.0, cargo_kg)
        for name, cls in SECTIONS.items():
            check_params(cls, values, name, unnamed, KIT_VEHICLE_LIMITS)
        _validate(values)
        return _assemble(values, str(p))


def _assemble(v: dict, source_path: str) -> VehicleParameters:
    """Convert the flat value table to SI dataclasses, the mass properties and the fitted DBW kit."""
    from .mass import compute_mass_properties  # local: mass.py imports this module's types

    parts = {name: fill_params(cls, v, name) for name, cls in SECTIONS.items()}
    soils, surfaces = assemble_world(v)
    mp = compute_mass_properties(parts["mass"], parts["geometry"])
    kit = DbwParameters.from_mapping({**v, MASS_KEY: float(mp.mass_kg)})
    return VehicleParameters(**parts, surfaces=surfaces, mass_properties=mp, values=dict(v),
                             source_path=source_path, soils=soils, kit=kit)
