"""The world every vehicle drives on: the soil classes and the surface table (``config/world.json``).

soil-and-surface-facts.md and gaps.md "Tyre and Soil" give the values and their ranges: a soil class is
Wong's terrain values for Bekker's pressure-sinkage law and Janosi-Hanamoto's shear (soil.py); a surface
is a friction coefficient, a rolling-resistance coefficient, a standing water depth and, for deformable
ground, the soil class it is made of. A vehicle's file is assembled with the world's sections
(:func:`~acres_dbw_sim.model.params.assembly`), so their keys keep their paths (``surfaces.sand.mu``,
``soils.clay.n``); :func:`check_world` and :func:`assemble_world` turn those flat values into
:class:`SoilClass` and :class:`Surface` in SI units (:class:`World` holds them for a vehicle's model).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .params import NON_NEGATIVE, POSITIVE, ParameterError, check_params, fill_params, param, param_specs

__all__ = ["SoilClass", "Surface", "SurfaceTable", "World", "check_world", "world_keys", "assemble_world",
           "surface_index"]


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
    n: float = param("n", (0.0, 2.0, False))
    k_c: float = param("k_c_kn", NON_NEGATIVE, scale=1e3)
    k_phi: float = param("k_phi_kn", NON_NEGATIVE, scale=1e3)
    cohesion_pa: float = param("cohesion_kpa", NON_NEGATIVE, scale=1e3)
    friction_angle_rad: float = param("friction_angle_deg", (0.0, 60.0, True), scale=math.pi / 180.0)
    shear_modulus_m: float = param("shear_modulus_m", POSITIVE)
    unit_weight_n_m3: float = param("unit_weight_kn_m3", POSITIVE, scale=1e3)
    slip_sinkage_m: float = param("slip_sinkage_m", (0.0, 0.1, True))


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
    mu: float = param("mu", POSITIVE)
    rolling_resistance: float = param("rolling_resistance", NON_NEGATIVE)
    water_depth_m: float = param("water_depth_m", NON_NEGATIVE)
    soil_class: str | None = param("soil_class", kind="str")
    soil: SoilClass | None = None



def check_world(values: dict, rolling_max: float | None = None) -> None:
    """Checks of the world's keys among flat values: every soil class (``soils.<name>.*``) and surface
    (``surfaces.<name>.*``) complete and in range (:class:`SoilClass`, :class:`Surface`: soil-and-surface-facts.md's
    ranges; mu > 0, rolling resistance and water depth >= 0).

    Parameters
    ----------
    values : dict
        Flat ``{key: value}``.
    rolling_max : float, optional
        The vehicle's largest rolling-resistance coefficient: a surface's above it is refused (the rolling
        torque would be taken at the limit, reference "Resistances").

    Raises
    ------
    ParameterError
        Naming the first key at fault.
    """
    for name in _names(values, "soils"):
        check_params(SoilClass, values, f"soils.{name}")
    for name in _names(values, "surfaces"):
        check_params(Surface, values, f"surfaces.{name}")
        key, v = f"surfaces.{name}.rolling_resistance", values[f"surfaces.{name}.rolling_resistance"]
        if rolling_max is not None and v > rolling_max:
            raise ParameterError(key, f"{v} is above resistances.rolling_coefficient_max {rolling_max}: the "
                                 f"rolling torque would be taken at {rolling_max} (reference \"Resistances\")")


def world_keys(values: dict) -> list:
    """The full keys the world's tables read for the soil classes and surfaces that ``values`` names
    (``soils.<name>.*``, ``surfaces.<name>.*``): the world's part of a loader's
    :func:`~acres_dbw_sim.model.params.declared_keys`."""
    return [k for section, cls in (("soils", SoilClass), ("surfaces", Surface)) for name in _names(values, section)
            for _n, _s, keys in param_specs(cls, f"{section}.{name}") for k in keys]


def _names(values: dict, section: str) -> list:
    """The entry names under ``section`` among flat keys (``soils.sand.n`` -> ``sand``), in file order."""
    return list(dict.fromkeys(k.split(".")[1] for k in values if k.startswith(section + ".")))



def assemble_world(v: dict) -> tuple:
    """(soil classes by name, surface table) of the flat values' ``soils.*`` and ``surfaces.*``, in SI
    (checked by :func:`check_world` first: complete and in range).

    Raises
    ------
    ParameterError
        A surface naming an unknown soil class, or no surface.
    """
    soils = {name: fill_params(SoilClass, v, f"soils.{name}", name=name) for name in _names(v, "soils")}
    surfaces = []
    for name in _names(v, "surfaces"):
        sc = v[f"surfaces.{name}.soil_class"]
        if sc is not None and sc not in soils:
            raise ParameterError(f"surfaces.{name}.soil_class",
                                 f"unknown soil class {sc!r}: not in the soils block ({', '.join(sorted(soils))})")
        surfaces.append(fill_params(Surface, v, f"surfaces.{name}", name=name, soil=soils.get(sc)))
    if not surfaces:
        raise ParameterError("surfaces", "the surface table is empty")
    return soils, tuple(surfaces)


class SurfaceTable:
    """A surface lookup by name for anything that holds a surface table in ``surfaces`` (a tuple of
    :class:`Surface`): the world, a vehicle's parameters."""

    def surface_index(self, name: str) -> int:
        """Index of surface ``name`` in ``self.surfaces`` (:func:`surface_index`).

        Raises
        ------
        ParameterError
            If the surface is not in the table.
        """
        return surface_index(self.surfaces, name)


@dataclass(frozen=True)
class World(SurfaceTable):
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


def surface_index(surfaces: tuple, name: str) -> int:
    """Index of surface ``name`` in a surface table (the terrain's ``surface_index``).

    Parameters
    ----------
    surfaces : tuple of Surface
    name : str

    Raises
    ------
    ParameterError
        If the surface is not in the table (key ``surfaces.<name>``, listing the known ones).
    """
    for i, s in enumerate(surfaces):
        if s.name == name:
            return i
    raise ParameterError(f"surfaces.{name}", "unknown surface; known: " + ", ".join(s.name for s in surfaces))
