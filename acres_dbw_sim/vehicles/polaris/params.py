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

from ...model.params import (FRACTION, GOVERNOR_BAND_LIMITS, LUG_CORRECTION_LIMITS, MAX_LOAD_FACTOR_LIMITS,
                             NON_NEGATIVE, POSITIVE, ROLLING_MAX_LIMITS, RPM_TO_RAD_S, WATER_DENSITY_LIMITS,
                             ParameterError, apply_overrides, assemble_world, assembly, check_between, check_range,
                             check_type, check_world, file_vehicle, is_number, read_parameter_tree,
                             shipped_config, surface_index)

__all__ = ["VEHICLE", "GeometryParams", "MassParams", "SuspensionParams", "TyreParams", "SteeringParams",
           "EngineParams", "FuelParams", "CvtParams", "GearboxParams", "BrakeParams", "AeroParams",
           "ResistanceParams", "ChassisParams", "VehicleParameters", "LIMITS", "default_config_path",
           "load_parameters"]

#: The registry name of the vehicle this module loads (its parameter file's ``vehicle`` key).
VEHICLE = "polaris"


@dataclass(frozen=True)
class GeometryParams:
    """Axle geometry [m] (reference "Geometry")."""

    wheelbase_m: float
    track_front_m: float
    track_rear_m: float


@dataclass(frozen=True)
class MassParams:
    """Point masses and their positions from base_footprint [kg, m] (reference "Mass")."""

    dry_kg: float
    fluids_kg: float
    roof_equipment_kg: float
    bay_equipment_kg: float
    occupant_kg: float
    occupants: int
    cargo_kg: float
    dry_cg_m: tuple
    dry_gyration_m: tuple
    fluids_m: tuple
    roof_m: tuple
    bay_m: tuple
    front_seat_x_m: float
    rear_seat_x_m: float
    seat_lateral_m: float
    seat_z_m: float
    cargo_m: tuple


@dataclass(frozen=True)
class SuspensionParams:
    """Corner suspension (reference "Suspension")."""

    travel_m: float
    droop_m: float
    front_wheel_rate_n_m: float
    rear_wheel_rate_n_m: float
    damping_ratio: float
    bump_stop_length_m: float
    bump_stop_rate_n_m2: float
    max_load_factor: float


@dataclass(frozen=True)
class TyreParams:
    """Tyres (reference "Tyres"); pressures in Pa."""

    radius_m: float
    front_width_m: float
    rear_width_m: float
    section_height_m: float
    front_inflation_pa: float
    rear_inflation_pa: float
    carcass_pa: float
    hysteresis: float
    lug_height_m: float
    lug_correction: float
    lug_area_ratio: float
    tread_k_m: float
    cornering_per_load_1_rad: float
    relaxation_m: float
    hard_slip_stiffness: float
    wheel_inertia_kg_m2: float
    longitudinal_relaxation_m: float
    carcass_damping_s: float
    damping_fade_speed_mps: float
    slip_speed_floor_mps: float
    sinkage_limit_m: float


@dataclass(frozen=True)
class SteeringParams:
    """Steering ratio i_s, centre theta_c [deg] and rack stop from straight ahead [deg] (reference "Steering")."""

    ratio: float
    center_deg: float
    rack_stop_deg: float


@dataclass(frozen=True)
class EngineParams:
    """Engine (reference "Engine"); speeds in rev/min and rad/s, displacement in m^3."""

    idle_rpm: float
    max_rpm: float
    idle_rad_s: float
    max_rad_s: float
    torque_curve_rpm: tuple
    torque_curve_nm: tuple
    inertia_kg_m2: float
    accessory_drag_nm: float
    displacement_m3: float
    indicated_efficiency: float
    fmep_bar: float
    fmep_bar_per_krpm: float
    fmep_bar_per_krpm2: float
    pumping_bar: float
    torque_lag_s: float
    idle_gain: float
    pedal_exponent: float
    max_speed_mps: float
    speed_governor_band_mps: float
    indicated_efficiency_min: float
    indicated_efficiency_max: float


@dataclass(frozen=True)
class FuelParams:
    """Fuel (reference "Fuel and Energy"); heating value in J/kg."""

    lhv_j_kg: float
    density_kg_l: float
    tank_l: float


@dataclass(frozen=True)
class CvtParams:
    """CVT and primary clutch (reference "CVT and Primary Clutch")."""

    low_ratio: float
    high_ratio: float
    engage_rad_s: float
    full_engage_rad_s: float
    clutch_capacity_nm: float
    ebs_capacity_nm: float
    shift_rpm_light: float
    shift_rpm_full: float
    shift_tau_s: float
    belt_efficiency: float
    gear_efficiency: float
    secondary_inertia_kg_m2: float
    ebs: bool
    adc: bool


@dataclass(frozen=True)
class GearboxParams:
    """Gear reductions and park pawl (reference "Gear Lever")."""

    rear_low_ratio: float
    rear_high_ratio: float
    rear_reverse_ratio: float
    front_low_ratio: float
    front_high_ratio: float
    front_reverse_ratio: float
    front_drive_ratio: float
    park_hold_nm: float
    max_shift_speed_mps: float
    shift_time_s: float


@dataclass(frozen=True)
class BrakeParams:
    """Brake gains [N m/bar] and pressures [bar] (reference "Brakes")."""

    front_nm_per_bar: float
    rear_nm_per_bar: float
    pressure_bias_bar: float
    max_bar: float


@dataclass(frozen=True)
class AeroParams:
    """Aerodynamic drag (reference "Resistances")."""

    drag_area_m2: float
    air_density_kg_m3: float


@dataclass(frozen=True)
class ResistanceParams:
    """Water drag, chassis angular damping, the resistances' speed scales and the rolling coefficient's limit
    (reference "Resistances")."""

    water_drag_coefficient: float
    angular_damping_per_s: float
    spin_scale_rad_s: float
    motion_resistance_speed_mps: float
    rolling_coefficient_max: float
    water_density_kg_m3: float


@dataclass(frozen=True)
class ChassisParams:
    """Ground-probe constants (gaps.md "Chassis")."""

    rest_extension_m: float
    compression_datum_m: float
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
class VehicleParameters:
    """All parameters of the Polaris model, validated, in SI units.

    Attributes
    ----------
    geometry, mass, suspension, tyres, steering, engine, fuel, cvt, gearbox,
    brakes, aero, resistances, chassis :
        Frozen per-subsystem dataclasses.
    surfaces : tuple of Surface
        The surface table; a surface's index in this tuple is its
        ``surface_index`` in the terrain.
    dbw : dict
        Values of the ``dbw`` section (nested dicts of float/bool), validated,
        for the drive-by-wire emulation.
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
    dbw: dict
    mass_properties: Any
    values: dict = field(repr=False)
    source_path: str = ""
    soils: dict = field(default_factory=dict)
    vehicle: str = VEHICLE

    def surface_index(self, name: str) -> int:
        """Index of surface ``name`` in :attr:`surfaces` (:func:`acres_dbw_sim.model.params.surface_index`).

        Raises
        ------
        ParameterError
            If the surface is not in the table.
        """
        return surface_index(self.surfaces, name)

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


#: The Ranger's scalar keys -> (lower, upper, lower inclusive): what the loader accepts (calibration's bounds too).
LIMITS = {
    "geometry.wheelbase_m": POSITIVE, "geometry.track_front_m": POSITIVE, "geometry.track_rear_m": POSITIVE,
    "mass.dry_kg": POSITIVE, "mass.fluids_kg": NON_NEGATIVE, "mass.roof_equipment_kg": NON_NEGATIVE,
    "mass.bay_equipment_kg": NON_NEGATIVE, "mass.occupant_kg": NON_NEGATIVE, "mass.cargo_kg": NON_NEGATIVE,
    "mass.occupants": (0, 6, True),
    "mass.dry_gyration_roll_m": POSITIVE, "mass.dry_gyration_pitch_m": POSITIVE, "mass.dry_gyration_yaw_m": POSITIVE,
    "suspension.travel_m": POSITIVE, "suspension.droop_m": POSITIVE, "suspension.front_wheel_rate_n_m": POSITIVE,
    "suspension.rear_wheel_rate_n_m": POSITIVE, "suspension.damping_ratio": NON_NEGATIVE,
    "suspension.bump_stop_length_m": NON_NEGATIVE, "suspension.bump_stop_rate_n_m2": NON_NEGATIVE,
    "suspension.max_load_factor": MAX_LOAD_FACTOR_LIMITS,
    "tyres.radius_m": POSITIVE, "tyres.front_width_m": POSITIVE, "tyres.rear_width_m": POSITIVE,
    "tyres.section_height_m": POSITIVE, "tyres.front_inflation_kpa": POSITIVE, "tyres.rear_inflation_kpa": POSITIVE,
    "tyres.carcass_kpa": NON_NEGATIVE, "tyres.hysteresis": NON_NEGATIVE, "tyres.lug_height_m": NON_NEGATIVE,
    "tyres.lug_area_ratio": (0.0, 1.0, True), "tyres.tread_k_m": NON_NEGATIVE, "tyres.lug_correction": LUG_CORRECTION_LIMITS,
    "tyres.cornering_per_load": POSITIVE, "tyres.relaxation_m": POSITIVE, "tyres.hard_slip_stiffness": POSITIVE,
    "tyres.wheel_inertia_kg_m2": POSITIVE, "tyres.longitudinal_relaxation_m": POSITIVE,
    "tyres.carcass_damping_s": NON_NEGATIVE, "tyres.damping_fade_speed_mps": POSITIVE,
    "tyres.slip_speed_floor_mps": POSITIVE, "tyres.sinkage_limit_m": POSITIVE,
    "steering.ratio": POSITIVE, "steering.rack_stop_deg": POSITIVE,
    "engine.idle_rpm": POSITIVE, "engine.max_rpm": POSITIVE, "engine.inertia_kg_m2": POSITIVE,
    "engine.accessory_drag_nm": NON_NEGATIVE, "engine.displacement_l": POSITIVE,
    "engine.indicated_efficiency": FRACTION, "engine.pumping_bar": NON_NEGATIVE, "engine.torque_lag_s": NON_NEGATIVE,
    "engine.idle_gain": NON_NEGATIVE, "engine.pedal_exponent": POSITIVE, "engine.max_speed_mps": NON_NEGATIVE,
    "engine.speed_governor_band_mps": GOVERNOR_BAND_LIMITS, "engine.indicated_efficiency_min": FRACTION,
    "engine.indicated_efficiency_max": FRACTION,
    "fuel.lhv_mj_kg": POSITIVE, "fuel.density_kg_l": POSITIVE, "fuel.tank_l": NON_NEGATIVE,
    "cvt.low_ratio": POSITIVE, "cvt.high_ratio": POSITIVE, "cvt.engage_rpm": POSITIVE, "cvt.full_engage_rpm": POSITIVE,
    "cvt.clutch_capacity_nm": NON_NEGATIVE, "cvt.ebs_capacity_nm": NON_NEGATIVE, "cvt.shift_rpm_light": POSITIVE,
    "cvt.shift_rpm_full": POSITIVE, "cvt.shift_tau_s": NON_NEGATIVE, "cvt.belt_efficiency": FRACTION,
    "cvt.gear_efficiency": FRACTION, "cvt.secondary_inertia_kg_m2": NON_NEGATIVE,
    "gearbox.rear_low_ratio": POSITIVE, "gearbox.rear_high_ratio": POSITIVE, "gearbox.rear_reverse_ratio": POSITIVE,
    "gearbox.front_low_ratio": POSITIVE, "gearbox.front_high_ratio": POSITIVE, "gearbox.front_reverse_ratio": POSITIVE,
    "gearbox.front_drive_ratio": POSITIVE, "gearbox.park_hold_nm": NON_NEGATIVE,
    "brakes.front_nm_per_bar": NON_NEGATIVE, "brakes.rear_nm_per_bar": NON_NEGATIVE, "brakes.max_bar": POSITIVE,
    "aero.drag_area_m2": NON_NEGATIVE, "aero.air_density_kg_m3": NON_NEGATIVE,
    "resistances.water_drag_coefficient": NON_NEGATIVE, "resistances.angular_damping_per_s": NON_NEGATIVE,
    "resistances.spin_scale_rad_s": POSITIVE, "resistances.motion_resistance_speed_mps": POSITIVE,
    "resistances.rolling_coefficient_max": ROLLING_MAX_LIMITS, "resistances.water_density_kg_m3": WATER_DENSITY_LIMITS,
    "chassis.rest_extension_m": POSITIVE, "chassis.compression_datum_m": POSITIVE,
    "chassis.probe_iterations": (0, 20, True), "chassis.body_box.half_width_m": POSITIVE,
    "chassis.body_box.bottom_m": NON_NEGATIVE, "chassis.body_box.top_m": POSITIVE,
    "chassis.body_box.stiffness_n_m": POSITIVE, "chassis.body_box.damping_n_s_m": NON_NEGATIVE,
    "chassis.body_box.friction": NON_NEGATIVE,
}


_ARRAY_LIMITS = {"engine.torque_curve_rpm": NON_NEGATIVE, "engine.torque_curve_nm": NON_NEGATIVE}


def _validate(values: dict) -> None:
    """Physical checks on the flat value table (after type checks)."""
    for key, lim in LIMITS.items():
        check_range(key, values[key], lim)
    for key, lim in _ARRAY_LIMITS.items():
        for i, v in enumerate(values[key]):
            check_range(f"{key}[{i}]", v, lim)
    if int(values["mass.occupants"]) != values["mass.occupants"]:
        raise ParameterError("mass.occupants", "must be an integer 0..6")
    rpm = values["engine.torque_curve_rpm"]
    for i in range(1, len(rpm)):
        if rpm[i] <= rpm[i - 1]:
            raise ParameterError(f"engine.torque_curve_rpm[{i}]", "speeds must increase strictly")
    if values["engine.idle_rpm"] >= values["engine.max_rpm"]:
        raise ParameterError("engine.idle_rpm", f"idle {values['engine.idle_rpm']} rev/min must be below "
                             f"engine.max_rpm {values['engine.max_rpm']}")
    if max(values["engine.torque_curve_nm"]) <= 0.0:
        raise ParameterError("engine.torque_curve_nm", "the full-load curve has no positive torque")
    if values["cvt.high_ratio"] >= values["cvt.low_ratio"]:
        raise ParameterError("cvt.high_ratio", "must be below cvt.low_ratio")
    if values["cvt.engage_rpm"] >= values["cvt.full_engage_rpm"]:
        raise ParameterError("cvt.engage_rpm", "must be below cvt.full_engage_rpm")
    if values["cvt.shift_rpm_light"] > values["cvt.shift_rpm_full"]:
        raise ParameterError("cvt.shift_rpm_light", "must not exceed cvt.shift_rpm_full")
    check_between("engine.indicated_efficiency", values, "engine.indicated_efficiency_min",
                  "engine.indicated_efficiency_max")
    if values["tyres.sinkage_limit_m"] >= values["tyres.radius_m"]:
        raise ParameterError("tyres.sinkage_limit_m", f"{values['tyres.sinkage_limit_m']} m: a rut deeper than the "
                             f"tyre's radius tyres.radius_m {values['tyres.radius_m']} m")
    if values["suspension.droop_m"] >= values["suspension.travel_m"]:
        raise ParameterError("suspension.droop_m", "must be below suspension.travel_m")
    if values["chassis.rest_extension_m"] >= values["chassis.compression_datum_m"]:
        raise ParameterError("chassis.rest_extension_m", "must be below chassis.compression_datum_m")
    check_world(values, values["resistances.rolling_coefficient_max"])
    for key, v in values.items():
        if key.startswith("dbw.") and is_number(v) and v < 0.0:
            raise ParameterError(key, f"non-physical value {v!r}: must be >= 0")


def _build_dbw(values: dict) -> dict:
    out: dict = {}
    for key, v in values.items():
        if not key.startswith("dbw."):
            continue
        parts = key.split(".")[1:]
        node = out
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = float(v) if is_number(v) else v
    return out


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
    tree, defaults, values = read_parameter_tree(p, default_config_path(), VEHICLE, assembly())
    apply_overrides(tree, defaults, values, overrides)
    if occupants is not None:
        if isinstance(occupants, bool) or not isinstance(occupants, int):
            raise ParameterError("mass.occupants", f"wrong type: expected an integer, got {occupants!r}")
        values["mass.occupants"] = occupants
    if cargo_kg is not None:
        values["mass.cargo_kg"] = check_type("mass.cargo_kg", 0.0, cargo_kg)
    for key in LIMITS:
        if key not in values:
            unnamed = "" if file_vehicle(p) else (" (the file names no vehicle and was read as the Ranger's; a "
                                                  "file of another vehicle needs its top-level \"vehicle\" key)")
            raise ParameterError(key, "missing from the parameter file" + unnamed)
    _validate(values)
    return _assemble(values, str(p))


def _assemble(v: dict, source_path: str) -> VehicleParameters:
    """Convert the flat value table to SI dataclasses and the mass properties."""
    from .mass import compute_mass_properties  # local: mass.py imports this module's types

    f = lambda k: float(v[k])  # noqa: E731
    geometry = GeometryParams(f("geometry.wheelbase_m"), f("geometry.track_front_m"), f("geometry.track_rear_m"))
    mass = MassParams(
        dry_kg=f("mass.dry_kg"), fluids_kg=f("mass.fluids_kg"), roof_equipment_kg=f("mass.roof_equipment_kg"),
        bay_equipment_kg=f("mass.bay_equipment_kg"), occupant_kg=f("mass.occupant_kg"),
        occupants=int(v["mass.occupants"]), cargo_kg=f("mass.cargo_kg"),
        dry_cg_m=(f("mass.dry_cg_forward_m"), f("mass.dry_cg_left_m"), f("mass.dry_cg_height_m")),
        dry_gyration_m=(f("mass.dry_gyration_roll_m"), f("mass.dry_gyration_pitch_m"), f("mass.dry_gyration_yaw_m")),
        fluids_m=(f("mass.fluids_x_m"), f("mass.fluids_y_m"), f("mass.fluids_z_m")),
        roof_m=(f("mass.roof_x_m"), f("mass.roof_y_m"), f("mass.roof_z_m")),
        bay_m=(f("mass.bay_x_m"), f("mass.bay_y_m"), f("mass.bay_z_m")),
        front_seat_x_m=f("mass.front_seat_x_m"), rear_seat_x_m=f("mass.rear_seat_x_m"),
        seat_lateral_m=f("mass.seat_lateral_m"), seat_z_m=f("mass.seat_z_m"),
        cargo_m=(f("mass.cargo_x_m"), 0.0, f("mass.cargo_z_m")),
    )
    suspension = SuspensionParams(
        f("suspension.travel_m"), f("suspension.droop_m"), f("suspension.front_wheel_rate_n_m"),
        f("suspension.rear_wheel_rate_n_m"), f("suspension.damping_ratio"), f("suspension.bump_stop_length_m"),
        f("suspension.bump_stop_rate_n_m2"), f("suspension.max_load_factor"))
    tyres = TyreParams(
        radius_m=f("tyres.radius_m"), front_width_m=f("tyres.front_width_m"), rear_width_m=f("tyres.rear_width_m"),
        section_height_m=f("tyres.section_height_m"), front_inflation_pa=1e3 * f("tyres.front_inflation_kpa"),
        rear_inflation_pa=1e3 * f("tyres.rear_inflation_kpa"), carcass_pa=1e3 * f("tyres.carcass_kpa"),
        hysteresis=f("tyres.hysteresis"), lug_height_m=f("tyres.lug_height_m"),
        lug_correction=f("tyres.lug_correction"), lug_area_ratio=f("tyres.lug_area_ratio"),
        tread_k_m=f("tyres.tread_k_m"),
        cornering_per_load_1_rad=f("tyres.cornering_per_load"), relaxation_m=f("tyres.relaxation_m"),
        hard_slip_stiffness=f("tyres.hard_slip_stiffness"), wheel_inertia_kg_m2=f("tyres.wheel_inertia_kg_m2"),
        longitudinal_relaxation_m=f("tyres.longitudinal_relaxation_m"),
        carcass_damping_s=f("tyres.carcass_damping_s"), damping_fade_speed_mps=f("tyres.damping_fade_speed_mps"),
        slip_speed_floor_mps=f("tyres.slip_speed_floor_mps"), sinkage_limit_m=f("tyres.sinkage_limit_m"))
    steering = SteeringParams(f("steering.ratio"), f("steering.center_deg"), f("steering.rack_stop_deg"))
    engine = EngineParams(
        idle_rpm=f("engine.idle_rpm"), max_rpm=f("engine.max_rpm"),
        idle_rad_s=f("engine.idle_rpm") * RPM_TO_RAD_S, max_rad_s=f("engine.max_rpm") * RPM_TO_RAD_S,
        torque_curve_rpm=tuple(float(x) for x in v["engine.torque_curve_rpm"]),
        torque_curve_nm=tuple(float(x) for x in v["engine.torque_curve_nm"]),
        inertia_kg_m2=f("engine.inertia_kg_m2"), accessory_drag_nm=f("engine.accessory_drag_nm"),
        displacement_m3=1e-3 * f("engine.displacement_l"), indicated_efficiency=f("engine.indicated_efficiency"),
        fmep_bar=f("engine.fmep_bar"), fmep_bar_per_krpm=f("engine.fmep_bar_per_krpm"),
        fmep_bar_per_krpm2=f("engine.fmep_bar_per_krpm2"), pumping_bar=f("engine.pumping_bar"),
        torque_lag_s=f("engine.torque_lag_s"), idle_gain=f("engine.idle_gain"),
        pedal_exponent=f("engine.pedal_exponent"), max_speed_mps=f("engine.max_speed_mps"),
        speed_governor_band_mps=f("engine.speed_governor_band_mps"),
        indicated_efficiency_min=f("engine.indicated_efficiency_min"),
        indicated_efficiency_max=f("engine.indicated_efficiency_max"))
    fuel = FuelParams(1e6 * f("fuel.lhv_mj_kg"), f("fuel.density_kg_l"), f("fuel.tank_l"))
    cvt = CvtParams(
        low_ratio=f("cvt.low_ratio"), high_ratio=f("cvt.high_ratio"),
        engage_rad_s=f("cvt.engage_rpm") * RPM_TO_RAD_S, full_engage_rad_s=f("cvt.full_engage_rpm") * RPM_TO_RAD_S,
        clutch_capacity_nm=f("cvt.clutch_capacity_nm"), ebs_capacity_nm=f("cvt.ebs_capacity_nm"),
        shift_rpm_light=f("cvt.shift_rpm_light"), shift_rpm_full=f("cvt.shift_rpm_full"),
        shift_tau_s=f("cvt.shift_tau_s"), belt_efficiency=f("cvt.belt_efficiency"),
        gear_efficiency=f("cvt.gear_efficiency"), secondary_inertia_kg_m2=f("cvt.secondary_inertia_kg_m2"),
        ebs=bool(v["cvt.ebs"]), adc=bool(v["cvt.adc"]))
    gearbox = GearboxParams(
        f("gearbox.rear_low_ratio"), f("gearbox.rear_high_ratio"), f("gearbox.rear_reverse_ratio"),
        f("gearbox.front_low_ratio"), f("gearbox.front_high_ratio"), f("gearbox.front_reverse_ratio"),
        f("gearbox.front_drive_ratio"), f("gearbox.park_hold_nm"),
        f("dbw.gear.max_shift_speed_mps"), f("dbw.gear.shift_time_s"))
    brakes = BrakeParams(f("brakes.front_nm_per_bar"), f("brakes.rear_nm_per_bar"),
                         f("brakes.pressure_bias_bar"), f("brakes.max_bar"))
    aero = AeroParams(f("aero.drag_area_m2"), f("aero.air_density_kg_m3"))
    resistances = ResistanceParams(f("resistances.water_drag_coefficient"), f("resistances.angular_damping_per_s"),
                                   f("resistances.spin_scale_rad_s"), f("resistances.motion_resistance_speed_mps"),
                                   f("resistances.rolling_coefficient_max"), f("resistances.water_density_kg_m3"))
    chassis = ChassisParams(
        f("chassis.rest_extension_m"), f("chassis.compression_datum_m"), int(v["chassis.probe_iterations"]),
        f("chassis.body_box.rear_m"), f("chassis.body_box.front_overhang_m"), f("chassis.body_box.half_width_m"),
        f("chassis.body_box.bottom_m"), f("chassis.body_box.top_m"), f("chassis.body_box.stiffness_n_m"),
        f("chassis.body_box.damping_n_s_m"), f("chassis.body_box.friction"))
    soils, surfaces = assemble_world(v)
    mp = compute_mass_properties(mass, geometry)
    return VehicleParameters(geometry, mass, suspension, tyres, steering, engine, fuel, cvt, gearbox, brakes,
                             aero, resistances, chassis, surfaces, _build_dbw(v), mp, dict(v), source_path,
                             soils)
