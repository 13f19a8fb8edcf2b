"""Parameter file loader (reference "Parameters").

``config/polaris.json`` holds every parameter as an object with the fields
``value``, ``basis``, ``source``, ``sd`` or ``range`` and ``note``. The model
reads only ``value``. The name of a parameter is its JSON path, e.g.
``engine.idle_rpm``; an index selects one array element, e.g.
``engine.torque_curve_rpm[3]``.

:func:`load_parameters` reads the file, applies overrides
(``"key=value;key=value"``, the ``-PolarisSet=`` option of the reference), the
number of occupants (0 to 6) and the cargo, validates everything once and
returns frozen dataclasses in SI units (kPa -> Pa, MJ/kg -> J/kg, rev/min ->
rad/s where the field name says so). Any problem raises :class:`ParameterError`
naming the key and the reason.
"""
from __future__ import annotations

import copy
import difflib
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

__all__ = [
    "ParameterError",
    "read_parameter_tree",
    "file_vehicle",
    "assembly",
    "assembled_tree",
    "assembled_from",
    "shipped_config",
    "World",
    "load_world",
    "kit_values",
    "file_stamp",
    "apply_overrides",
    "GeometryParams",
    "MassParams",
    "SuspensionParams",
    "TyreParams",
    "SteeringParams",
    "EngineParams",
    "FuelParams",
    "CvtParams",
    "GearboxParams",
    "BrakeParams",
    "AeroParams",
    "ResistanceParams",
    "ChassisParams",
    "Surface",
    "SoilClass",
    "VehicleParameters",
    "default_config_path",
    "load_parameters",
    "parse_overrides",
]

RPM_TO_RAD_S = 2.0 * math.pi / 60.0

#: The registry name of the vehicle this module loads (its parameter file's ``vehicle`` key).
VEHICLE = "polaris"


class ParameterError(ValueError):
    """A parameter file or override is invalid.

    Parameters
    ----------
    key : str
        JSON path of the offending parameter (e.g. ``engine.idle_rpm``).
    reason : str
        Why it is rejected.
    """

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"parameter {key!r}: {reason}")


# --------------------------------------------------------------------------- dataclasses


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
class SoilClass:
    """One soil class of the ``soils`` block (Wong's terrain values), in SI units (soil.py).

    Attributes
    ----------
    name : str
    n : float
        Bekker exponent [-].
    k_c : float
        Cohesive modulus [N/m^(n+1)] (file: kN/m^(n+1)).
    k_phi : float
        Frictional modulus [N/m^(n+2)] (file: kN/m^(n+2)).
    cohesion_pa : float
        c [Pa] (file: kPa).
    friction_angle_rad : float
        phi [rad] (file: degrees).
    shear_modulus_m : float
        Janosi-Hanamoto K [m].
    unit_weight_n_m3 : float
        gamma_s [N/m^3] (file: kN/m^3).
    slip_sinkage_m : float
        Slip-sinkage length k_d [m] (soil.py :func:`~acres_dbw_sim.model.soil.slip_sinkage_m`; 0: none).
    """

    name: str
    n: float
    k_c: float
    k_phi: float
    cohesion_pa: float
    friction_angle_rad: float
    shear_modulus_m: float
    unit_weight_n_m3: float
    slip_sinkage_m: float


@dataclass(frozen=True)
class Surface:
    """One entry of the surface table (gaps.md "Tyre and Soil").

    Attributes
    ----------
    name : str
    mu : float
        Friction coefficient [-].
    rolling_resistance : float
        Rolling-resistance coefficient f [-].
    water_depth_m : float
        Standing water depth h_w [m] for the water drag.
    soil_class : str or None
        Name of the soil class in the ``soils`` block that makes the surface deformable; None: hard ground.
    soil : SoilClass or None
        That class.
    """

    name: str
    mu: float
    rolling_resistance: float
    water_depth_m: float
    soil_class: str | None
    soil: SoilClass | None = None


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
    mass_properties : acres_dbw_sim.model.mass.MassProperties
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
        """Index of surface ``name`` in :attr:`surfaces`.

        Raises
        ------
        ParameterError
            If the surface is not in the table.
        """
        for i, s in enumerate(self.surfaces):
            if s.name == name:
                return i
        raise ParameterError(f"surfaces.{name}", "unknown surface; known: "
                             + ", ".join(s.name for s in self.surfaces))

    @property
    def wheelbase_m(self) -> float:
        """Wheelbase L [m]."""
        return self.geometry.wheelbase_m

    @property
    def mass_kg(self) -> float:
        """Total mass m [kg] with occupants and cargo."""
        return self.mass_properties.mass_kg


# --------------------------------------------------------------------------- file handling


def shipped_config(name: str) -> Path:
    """Path of the shipped ``config/<name>``.

    Looks beside the source tree first, then under
    ``sys.prefix/share/acres_dbw_sim/config/`` (installed package).

    Raises
    ------
    ParameterError
        If neither exists.
    """
    candidates = [
        Path(__file__).resolve().parents[2] / "config" / name,
        Path(sys.prefix) / "share" / "acres_dbw_sim" / "config" / name,
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise ParameterError("<file>", f"{name} not found in " + ", ".join(map(str, candidates)))


def default_config_path() -> Path:
    """Path of the shipped ``config/polaris.json`` (:func:`shipped_config`).

    Raises
    ------
    ParameterError
        If it is not found.
    """
    return shipped_config("polaris.json")


#: The world's file and its sections: the soil classes and the surface table every vehicle drives on.
WORLD_FILE, WORLD_SECTIONS = "world.json", ("soils", "surfaces")
#: The DBW kit's file and its section: the firmware's parameters (``dbw.*``), the same on every vehicle.
KIT_FILE, KIT_SECTIONS = "dbw_kit.json", ("dbw",)


def assembly() -> tuple:
    """What a vehicle file is assembled with: ``((sections, shipped path), ...)`` of the world and the kit.

    A vehicle file that has none of a part's sections gets them from the part's shipped file; one
    that has them (a combined parameter file written before the world and the kit had files of their
    own, or a user's file that carries its own world) keeps its own. The key paths are the same
    either way (``surfaces.mud.mu``, ``dbw.brake.lag_s``).

    Raises
    ------
    ParameterError
        If a shipped file is not found.
    """
    return ((WORLD_SECTIONS, shipped_config(WORLD_FILE)), (KIT_SECTIONS, shipped_config(KIT_FILE)))


def _flatten(node: Mapping, prefix: str, out: dict) -> None:
    """Collect ``{path: value}`` from the nested parameter objects."""
    for name, item in node.items():
        path = f"{prefix}.{name}" if prefix else name
        if not isinstance(item, dict):
            raise ParameterError(path, "expected an object with a 'value' field or a section")
        if "value" in item:
            out[path] = copy.deepcopy(item["value"])
        else:
            _flatten(item, path, out)


_OVERRIDE_RE = re.compile(r"^\s*([A-Za-z0-9_.]+?)\s*(?:\[\s*(\d+)\s*\])?\s*$")


def parse_overrides(text: str | None) -> list:
    """Split ``"key=value;key[3]=value"`` into ``[(key, index or None, raw_value)]``.

    Raises
    ------
    ParameterError
        For a pair without ``=`` or a malformed key.
    """
    result = []
    if not text:
        return result
    for part in text.split(";"):
        if not part.strip():
            continue
        if "=" not in part:
            raise ParameterError(part.strip(), "override must be key=value")
        key, raw = part.split("=", 1)
        m = _OVERRIDE_RE.match(key)
        if not m:
            raise ParameterError(key.strip(), "malformed key")
        idx = int(m.group(2)) if m.group(2) is not None else None
        result.append((m.group(1), idx, raw.strip()))
    return result


def parse_value(raw: str) -> Any:
    """The value of an override's text: JSON if possible (numbers, true/false in any case, null, arrays),
    else the text itself (a string parameter). Raises nothing."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        low = raw.lower()
        if low in ("true", "false"):
            return low == "true"
        return raw


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _check_type(key: str, default: Any, value: Any) -> Any:
    """Coerce ``value`` to the type of the shipped ``default`` or raise."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ParameterError(key, f"wrong type: expected true/false, got {value!r}")
        return value
    if _is_number(default):
        if not _is_number(value):
            raise ParameterError(key, f"wrong type: expected a finite number, got {value!r}")
        return value
    if isinstance(default, list):
        if not isinstance(value, list):
            raise ParameterError(key, f"wrong type: expected an array of {len(default)} numbers, got {value!r}")
        if len(value) != len(default):
            raise ParameterError(key, f"wrong array length: expected {len(default)}, got {len(value)}")
        for i, v in enumerate(value):
            if not _is_number(v):
                raise ParameterError(f"{key}[{i}]", f"wrong type: expected a finite number, got {v!r}")
        return list(value)
    if default is None or isinstance(default, str):
        if value is not None and not isinstance(value, str):
            raise ParameterError(key, f"wrong type: expected a string or null, got {value!r}")
        return value
    raise ParameterError(key, f"unsupported parameter type {type(default).__name__}")


# Physical limits: (lower, upper, lower_inclusive). Keys not listed are only type-checked.
_POS = (0.0, math.inf, False)
_NONNEG = (0.0, math.inf, True)
_UNIT = (0.0, 1.0, False)
# Limits of the constants both vehicles' files carry (vehicles/maxxum150/params.py uses them too): wide
# enough for any real tyre, water or engine, narrow enough that a typing error is refused, not run as NaN.
LUG_CORRECTION_LIMITS = (0.0, 2.0, True)      # Bekker's lug correction (0.64)
ROLLING_MAX_LIMITS = (0.0, 1.0, False)        # the largest rolling-resistance coefficient (0.45)
WATER_DENSITY_LIMITS = (900.0, 1300.0, True)  # fresh water 1000 kg/m^3, sea water 1025, muddy water more
GOVERNOR_BAND_LIMITS = (0.0, 5.0, False)      # speed band over which the top-speed governor closes [m/s]
MAX_LOAD_FACTOR_LIMITS = (1.0, 20.0, True)    # a wheel's load limit in static loads
#: The Ranger's scalar keys -> (lower, upper, lower inclusive): what the loader accepts (calibration's bounds too).
LIMITS = {
    "geometry.wheelbase_m": _POS, "geometry.track_front_m": _POS, "geometry.track_rear_m": _POS,
    "mass.dry_kg": _POS, "mass.fluids_kg": _NONNEG, "mass.roof_equipment_kg": _NONNEG,
    "mass.bay_equipment_kg": _NONNEG, "mass.occupant_kg": _NONNEG, "mass.cargo_kg": _NONNEG,
    "mass.occupants": (0, 6, True),
    "mass.dry_gyration_roll_m": _POS, "mass.dry_gyration_pitch_m": _POS, "mass.dry_gyration_yaw_m": _POS,
    "suspension.travel_m": _POS, "suspension.droop_m": _POS, "suspension.front_wheel_rate_n_m": _POS,
    "suspension.rear_wheel_rate_n_m": _POS, "suspension.damping_ratio": _NONNEG,
    "suspension.bump_stop_length_m": _NONNEG, "suspension.bump_stop_rate_n_m2": _NONNEG,
    "suspension.max_load_factor": MAX_LOAD_FACTOR_LIMITS,
    "tyres.radius_m": _POS, "tyres.front_width_m": _POS, "tyres.rear_width_m": _POS,
    "tyres.section_height_m": _POS, "tyres.front_inflation_kpa": _POS, "tyres.rear_inflation_kpa": _POS,
    "tyres.carcass_kpa": _NONNEG, "tyres.hysteresis": _NONNEG, "tyres.lug_height_m": _NONNEG,
    "tyres.lug_area_ratio": (0.0, 1.0, True), "tyres.tread_k_m": _NONNEG, "tyres.lug_correction": LUG_CORRECTION_LIMITS,
    "tyres.cornering_per_load": _POS, "tyres.relaxation_m": _POS, "tyres.hard_slip_stiffness": _POS,
    "tyres.wheel_inertia_kg_m2": _POS, "tyres.longitudinal_relaxation_m": _POS,
    "tyres.carcass_damping_s": _NONNEG, "tyres.damping_fade_speed_mps": _POS,
    "tyres.slip_speed_floor_mps": _POS, "tyres.sinkage_limit_m": _POS,
    "steering.ratio": _POS, "steering.rack_stop_deg": _POS,
    "engine.idle_rpm": _POS, "engine.max_rpm": _POS, "engine.inertia_kg_m2": _POS,
    "engine.accessory_drag_nm": _NONNEG, "engine.displacement_l": _POS,
    "engine.indicated_efficiency": _UNIT, "engine.pumping_bar": _NONNEG, "engine.torque_lag_s": _NONNEG,
    "engine.idle_gain": _NONNEG, "engine.pedal_exponent": _POS, "engine.max_speed_mps": _NONNEG,
    "engine.speed_governor_band_mps": GOVERNOR_BAND_LIMITS, "engine.indicated_efficiency_min": _UNIT,
    "engine.indicated_efficiency_max": _UNIT,
    "fuel.lhv_mj_kg": _POS, "fuel.density_kg_l": _POS, "fuel.tank_l": _NONNEG,
    "cvt.low_ratio": _POS, "cvt.high_ratio": _POS, "cvt.engage_rpm": _POS, "cvt.full_engage_rpm": _POS,
    "cvt.clutch_capacity_nm": _NONNEG, "cvt.ebs_capacity_nm": _NONNEG, "cvt.shift_rpm_light": _POS,
    "cvt.shift_rpm_full": _POS, "cvt.shift_tau_s": _NONNEG, "cvt.belt_efficiency": _UNIT,
    "cvt.gear_efficiency": _UNIT, "cvt.secondary_inertia_kg_m2": _NONNEG,
    "gearbox.rear_low_ratio": _POS, "gearbox.rear_high_ratio": _POS, "gearbox.rear_reverse_ratio": _POS,
    "gearbox.front_low_ratio": _POS, "gearbox.front_high_ratio": _POS, "gearbox.front_reverse_ratio": _POS,
    "gearbox.front_drive_ratio": _POS, "gearbox.park_hold_nm": _NONNEG,
    "brakes.front_nm_per_bar": _NONNEG, "brakes.rear_nm_per_bar": _NONNEG, "brakes.max_bar": _POS,
    "aero.drag_area_m2": _NONNEG, "aero.air_density_kg_m3": _NONNEG,
    "resistances.water_drag_coefficient": _NONNEG, "resistances.angular_damping_per_s": _NONNEG,
    "resistances.spin_scale_rad_s": _POS, "resistances.motion_resistance_speed_mps": _POS,
    "resistances.rolling_coefficient_max": ROLLING_MAX_LIMITS, "resistances.water_density_kg_m3": WATER_DENSITY_LIMITS,
    "chassis.rest_extension_m": _POS, "chassis.compression_datum_m": _POS,
    "chassis.probe_iterations": (0, 20, True), "chassis.body_box.half_width_m": _POS,
    "chassis.body_box.bottom_m": _NONNEG, "chassis.body_box.top_m": _POS,
    "chassis.body_box.stiffness_n_m": _POS, "chassis.body_box.damping_n_s_m": _NONNEG,
    "chassis.body_box.friction": _NONNEG,
}
_ARRAY_LIMITS = {"engine.torque_curve_rpm": _NONNEG, "engine.torque_curve_nm": _NONNEG}


_SOIL_LEAVES = ("n", "k_c_kn", "k_phi_kn", "cohesion_kpa", "friction_angle_deg", "shear_modulus_m",
                "unit_weight_kn_m3", "slip_sinkage_m")
_SOIL_LIMITS = {"n": (0.0, 2.0, False), "k_c_kn": _NONNEG, "k_phi_kn": _NONNEG, "cohesion_kpa": _NONNEG,
                "friction_angle_deg": (0.0, 60.0, True), "shear_modulus_m": _POS, "unit_weight_kn_m3": _POS,
                "slip_sinkage_m": (0.0, 0.1, True)}


def check_range(key: str, v: float, lim: tuple) -> None:
    """Refuse a value outside its limits.

    Parameters
    ----------
    key : str
        The parameter's key (named in the error).
    v : float
        Its value.
    lim : tuple
        ``(lower, upper, lower_inclusive)``; the upper bound is inclusive, inf for none.

    Raises
    ------
    ParameterError
        For a value that is not a finite number or lies outside the limits.
    """
    if not _is_number(v):
        raise ParameterError(key, f"wrong type: expected a finite number, got {v!r}")
    lo, hi, inclusive = lim
    ok = (v >= lo if inclusive else v > lo) and v <= hi
    if not ok:
        rel = ">=" if inclusive else ">"
        raise ParameterError(key, f"non-physical value {v!r}: must be {rel} {lo}"
                             + (f" and <= {hi}" if math.isfinite(hi) else ""))


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
    f_max = values["resistances.rolling_coefficient_max"]
    for key, v in values.items():
        if key.startswith("surfaces."):
            leaf = key.rsplit(".", 1)[1]
            if leaf in ("mu", "rolling_resistance", "water_depth_m"):
                check_range(key, v, _NONNEG if leaf != "mu" else _POS)
            if leaf == "rolling_resistance" and v > f_max:
                raise ParameterError(key, f"{v} is above resistances.rolling_coefficient_max {f_max}: the rolling "
                                     f"torque would be taken at {f_max} (reference \"Resistances\")")
        if key.startswith("soils."):
            leaf = key.rsplit(".", 1)[1]
            if leaf in _SOIL_LIMITS:
                check_range(key, v, _SOIL_LIMITS[leaf])
        if key.startswith("dbw.") and _is_number(v) and v < 0.0:
            raise ParameterError(key, f"non-physical value {v!r}: must be >= 0")


def check_between(key: str, values: dict, key_min: str, key_max: str) -> None:
    """Refuse ``values[key_min] > values[key_max]`` and a ``values[key]`` outside them (the step clamps ``key``
    to them: a value outside would be changed silently).

    Raises
    ------
    ParameterError
        Naming the key at fault.
    """
    lo, hi, v = values[key_min], values[key_max], values[key]
    if lo > hi:
        raise ParameterError(key_min, f"{lo} exceeds {key_max} {hi}")
    if not lo <= v <= hi:
        raise ParameterError(key, f"{v} is outside {key_min} .. {key_max} ({lo} .. {hi}): the model would clamp it")


def _tree_keys(tree: dict, prefix: str = "") -> list:
    """Dotted keys of every parameter (an entry with a ``value``) of a parameter file's tree."""
    out = []
    for name, item in tree.items():
        key = f"{prefix}.{name}" if prefix else name
        if isinstance(item, dict) and "value" in item:
            out.append(key)
        elif isinstance(item, dict):
            out += _tree_keys(item, key)
    return out


def _tree_get(tree: dict, key: str) -> dict:
    node = tree
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            close = difflib.get_close_matches(key, _tree_keys(tree), 1, 0.75)
            raise ParameterError(key, "unknown key" + (f" (did you mean {close[0]!r}?)" if close else ""))
        node = node[part]
    if not isinstance(node, dict) or "value" not in node:
        raise ParameterError(key, "unknown key (a section, not a parameter)")
    return node


def _build_dbw(values: dict) -> dict:
    out: dict = {}
    for key, v in values.items():
        if not key.startswith("dbw."):
            continue
        parts = key.split(".")[1:]
        node = out
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = float(v) if _is_number(v) else v
    return out


def read_parameter_tree(path: str | Path, shipped: str | Path | None = None, vehicle: str | None = None,
                        parts: tuple = ()) -> tuple:
    """Read a parameter file (polaris.json form) into its tree and flat value tables.

    Shared by every vehicle's loader (the Ranger's :func:`load_parameters`, the
    Maxxum's ``load_maxxum_parameters``).

    Parameters
    ----------
    path : str or Path
        JSON file of sections whose leaves are ``{"value": ..., "basis": ...}``.
    shipped : str or Path, optional
        The vehicle's shipped file: each value of ``path`` must have the type of the
        same key there (a number where it has a number; keys it lacks keep their own).
    vehicle : str, optional
        The registry name of the vehicle the caller loads: a file whose top-level ``vehicle`` key
        (:func:`file_vehicle`) names another is refused.
    parts : tuple, optional
        ``((sections, path), ...)``: the sections to take from ``path`` when the file has none of
        them (:func:`assembly`: the world and the DBW kit); ``shipped`` is assembled the same way.

    Returns
    -------
    tuple
        ``(tree, defaults, values)``: the parsed JSON object; the flat table
        ``{"section.key": value}`` as in the file; a deep copy of it with each
        value type-checked, to be overridden and validated by the caller.

    Raises
    ------
    ParameterError
        Unreadable file, invalid JSON, a file that is not an object of sections,
        a value of the wrong type (the message names the key), or a file of another vehicle
        (key ``<file>``, naming both).

    Notes
    -----
    A file read before is not parsed again while its inode, modification and change times and size
    are unchanged:
    ``tree`` and ``defaults`` are then the same objects as before (read them, do not change
    them); ``values`` is always a fresh copy. A sweep loads the file once per run, and parsing
    it is most of a load.
    """
    p = Path(path)
    tree, defaults, values, named = _cached_tree(p, shipped, parts)
    if vehicle is not None and named is not None and named != vehicle:
        raise ParameterError("<file>", f"{p} is the parameter file of vehicle {named!r} (its 'vehicle' key), "
                             f"not of {vehicle!r}: give vehicle {named!r} to run it")
    return tree, defaults, {k: copy.deepcopy(v) if isinstance(v, (list, dict)) else v for k, v in values.items()}


#: (file key of the file, of the shipped file) -> (tree, defaults, checked values, vehicle named): read_parameter_tree
_TREES: dict = {}


def file_vehicle(path: str | Path) -> str | None:
    """The vehicle a parameter file names: its top-level ``"vehicle"`` key (a registry name), None without one.

    A parameter file says whose it is, as a Chrono vehicle file says its ``"Template"``: a scenario
    or the URDF generator given only the file loads it with that vehicle's loader.

    Raises
    ------
    ParameterError
        Key ``<file>``: unreadable file, invalid JSON, or a ``vehicle`` key that is not a text.
    """
    return _cached_tree(Path(path), None, ())[3]


def assembled_tree(path: str | Path | None = None) -> dict:
    """The parameter file's tree as the Ranger's loader assembles it (:func:`assembly`), entries whole
    (``value``, ``basis``, ``source``, ``sd`` or ``range``, ``note``): for tools that read more than the
    values (sweeps, calibration). Default: the shipped file. Do not change the returned object.

    Raises
    ------
    ParameterError
        As :func:`read_parameter_tree`.
    """
    p = Path(path) if path is not None else default_config_path()
    return _cached_tree(p, None, assembly())[0]


def assembled_from(path: str | Path | None = None, parts: tuple | None = None) -> list:
    """Every file a vehicle's parameters are read from: the file itself, then the part files it takes
    sections from (:func:`assembly`), as resolved paths; what a run's identity covers.

    Raises
    ------
    ParameterError
        As :func:`read_parameter_tree`.
    """
    p = Path(path) if path is not None else default_config_path()
    parts = assembly() if parts is None else parts
    tree = _cached_tree(p, None, ())[0]
    return [str(p.resolve())] + [str(Path(f).resolve()) for sections, f in parts
                                 if not any(sec in tree for sec in sections)]


def _cached_tree(p: Path, shipped: str | Path | None, parts: tuple) -> tuple:
    """:func:`_read_parameter_tree` of ``p`` through the cache of parsed files (see :func:`read_parameter_tree`);
    the key covers the part files too."""
    key = (_file_key(p), None if shipped is None else _file_key(Path(shipped)),
           tuple((sections, _file_key(Path(f))) for sections, f in parts))
    hit = _TREES.get(key)
    if hit is None:
        hit = _read_parameter_tree(p, shipped, parts)
        if len(_TREES) >= 16:
            _TREES.clear()
        _TREES[key] = hit
    return hit


def file_stamp(path: str | Path) -> tuple:
    """What tells a file's content apart without reading it, for the caches of parsed files.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    tuple
        (resolved path, device, inode, modification and change times [ns], size [bytes]). The change
        time moves on every write and cannot be set back (``touch -r``, ``cp -p`` and archive tools
        restore only the modification time), so an edit of the same size changes the stamp too.

    Raises
    ------
    OSError
        If the file cannot be examined.
    """
    p = Path(path)
    st = p.stat()
    return (str(p.resolve()), st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def _file_key(p: Path) -> tuple:
    """:func:`file_stamp` of ``p``; ParameterError if it cannot be read."""
    try:
        return file_stamp(p)
    except OSError as exc:
        raise ParameterError("<file>", f"cannot read {p}: {exc}") from exc


def _read_json_object(p: Path) -> dict:
    """The JSON object of file ``p``; ParameterError (key ``<file>``) if it cannot be read or is not one."""
    try:
        tree = json.loads(p.read_text())
    except OSError as exc:
        raise ParameterError("<file>", f"cannot read {p}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ParameterError("<file>", f"invalid JSON in {p}: {exc}") from exc
    if not isinstance(tree, dict):
        raise ParameterError("<file>", f"{p} must hold a JSON object of sections")
    return tree


def _read_parameter_tree(p: Path, shipped: str | Path | None, parts: tuple) -> tuple:
    """:func:`read_parameter_tree` without its cache."""
    tree = _read_json_object(p)
    for sections, f in parts:
        if not any(sec in tree for sec in sections):
            part = _read_json_object(Path(f))
            for sec in sections:
                if sec not in part:
                    raise ParameterError("<file>", f"{f} has no {sec!r} section")
                tree[sec] = part[sec]
    named = tree.pop("vehicle", None)
    if named is not None and not isinstance(named, str):
        raise ParameterError("<file>", f"{p}: 'vehicle' must be a vehicle's name (text), got {named!r}")
    defaults: dict = {}
    _flatten(tree, "", defaults)
    values = copy.deepcopy(defaults)
    kinds = defaults
    if shipped is not None and Path(shipped).resolve() != p.resolve():
        kinds = read_parameter_tree(shipped, parts=parts)[1]
    for key, v in defaults.items():
        values[key] = _check_type(key, kinds.get(key, v), v)
    return tree, defaults, values, named


def apply_overrides(tree: dict, defaults: dict, values: dict, overrides: str | None) -> None:
    """Apply ``"key=value;key[i]=value"`` overrides to ``values`` in place.

    Parameters
    ----------
    tree, defaults, values
        As returned by :func:`read_parameter_tree`.
    overrides : str or None
        Semicolon-separated ``key=value`` pairs, values in JSON syntax (plain
        text for strings); ``key[i]`` sets element ``i`` of an array.

    Raises
    ------
    ParameterError
        Unknown key, wrong type, an index on a scalar or out of range; the
        message names the key.
    """
    for key, idx, raw in parse_overrides(overrides):
        _tree_get(tree, key)
        new = parse_value(raw)
        if idx is None:
            values[key] = _check_type(key, defaults[key], new)
            continue
        if not isinstance(defaults[key], list):
            raise ParameterError(f"{key}[{idx}]", "index given but the parameter is not an array")
        if idx >= len(defaults[key]):
            raise ParameterError(f"{key}[{idx}]", f"index out of range: the array has {len(defaults[key])} elements")
        if not _is_number(new):
            raise ParameterError(f"{key}[{idx}]", f"wrong type: expected a finite number, got {new!r}")
        arr = list(values[key])
        arr[idx] = new
        values[key] = arr


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
        values["mass.cargo_kg"] = _check_type("mass.cargo_kg", 0.0, cargo_kg)
    for key in LIMITS:
        if key not in values:
            raise ParameterError(key, "missing from the parameter file")
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
    soils, surfaces = _assemble_world(v)
    mp = compute_mass_properties(mass, geometry)
    return VehicleParameters(geometry, mass, suspension, tyres, steering, engine, fuel, cvt, gearbox, brakes,
                             aero, resistances, chassis, surfaces, _build_dbw(v), mp, dict(v), source_path,
                             soils)


def _assemble_world(v: dict) -> tuple:
    """(soil classes by name, surface table) of the flat values' ``soils.*`` and ``surfaces.*``, in SI.

    Raises
    ------
    ParameterError
        A soil class or surface missing a leaf, a surface naming an unknown soil class, or no surface.
    """
    f = lambda k: float(v[k])  # noqa: E731
    soils = {}
    for key in v:
        if key.startswith("soils."):
            name = key.split(".")[1]
            if name in soils:
                continue
            for leaf in _SOIL_LEAVES:
                if f"soils.{name}.{leaf}" not in v:
                    raise ParameterError(f"soils.{name}.{leaf}", "missing from the soil class")
            soils[name] = SoilClass(
                name, f(f"soils.{name}.n"), 1e3 * f(f"soils.{name}.k_c_kn"), 1e3 * f(f"soils.{name}.k_phi_kn"),
                1e3 * f(f"soils.{name}.cohesion_kpa"), math.radians(f(f"soils.{name}.friction_angle_deg")),
                f(f"soils.{name}.shear_modulus_m"), 1e3 * f(f"soils.{name}.unit_weight_kn_m3"),
                f(f"soils.{name}.slip_sinkage_m"))
    names = []
    for key in v:
        if key.startswith("surfaces."):
            name = key.split(".")[1]
            if name not in names:
                names.append(name)
    surfaces = []
    for name in names:
        for leaf in ("mu", "rolling_resistance", "water_depth_m", "soil_class"):
            if f"surfaces.{name}.{leaf}" not in v:
                raise ParameterError(f"surfaces.{name}.{leaf}", "missing from the surface table")
        sc = v[f"surfaces.{name}.soil_class"]
        if sc is not None and sc not in soils:
            raise ParameterError(f"surfaces.{name}.soil_class",
                                 f"unknown soil class {sc!r}: not in the soils block ({', '.join(sorted(soils))})")
        surfaces.append(Surface(name, f(f"surfaces.{name}.mu"), f(f"surfaces.{name}.rolling_resistance"),
                                f(f"surfaces.{name}.water_depth_m"), sc, soils.get(sc) if sc is not None else None))
    if not surfaces:
        raise ParameterError("surfaces", "the surface table is empty")
    return soils, tuple(surfaces)


@dataclass(frozen=True)
class World:
    """The world's tables (``config/world.json``), for a vehicle whose parameter file does not carry them.

    Attributes
    ----------
    surfaces : tuple of Surface
        The surface table; a surface's index here is its ``surface_index`` in the terrain.
    soils : dict of str to SoilClass
        The soil classes by name.
    """

    surfaces: tuple
    soils: dict

    def surface_index(self, name: str) -> int:
        """Index of surface ``name`` in :attr:`surfaces`.

        Raises
        ------
        ParameterError
            If the surface is not in the table.
        """
        for i, s in enumerate(self.surfaces):
            if s.name == name:
                return i
        raise ParameterError(f"surfaces.{name}", "unknown surface; known: " + ", ".join(s.name for s in self.surfaces))


def load_world(overrides: str | None = None) -> World:
    """Load the shipped world (soil classes and surfaces) with ``surfaces.*`` / ``soils.*`` overrides.

    Parameters
    ----------
    overrides : str, optional
        ``"key=value;..."`` of world keys (as for :func:`load_parameters`).

    Returns
    -------
    World

    Raises
    ------
    ParameterError
        An unknown key, a wrong type, or a value outside its range (soil-and-surface-facts.md;
        the same limits as the Ranger's loader), naming the key.
    """
    path = shipped_config(WORLD_FILE)
    tree, defaults, values = read_parameter_tree(path, path)
    apply_overrides(tree, defaults, values, overrides)
    for key, v in values.items():
        leaf = key.rsplit(".", 1)[1]
        if key.startswith("surfaces.") and leaf in ("mu", "rolling_resistance", "water_depth_m"):
            check_range(key, v, _NONNEG if leaf != "mu" else _POS)
        if key.startswith("soils.") and leaf in _SOIL_LIMITS:
            check_range(key, v, _SOIL_LIMITS[leaf])
    soils, surfaces = _assemble_world(values)
    return World(surfaces, soils)


def kit_values() -> dict:
    """The shipped DBW kit's values (``config/dbw_kit.json``) as ``{"dbw.<key>": value}``, to be fitted to a
    vehicle (:meth:`acres_dbw_sim.dbw.params.DbwParameters.from_mapping` checks them).

    Raises
    ------
    ParameterError
        If the file cannot be read or a value has the wrong type.
    """
    path = shipped_config(KIT_FILE)
    return read_parameter_tree(path, path)[2]
