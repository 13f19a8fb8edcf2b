"""Tyre on soil (reference "Tyres": the shared tyre and soil model; Wong, Theory of Ground Vehicles, ch. 2).

Vehicle-agnostic: every function takes the tyre (width b, diameter D,
ground pressure p_g = p_i + p_c, lug height) and the soil class (Bekker n,
k_c, k_phi; Mohr-Coulomb c, phi; Janosi-Hanamoto K) as numbers. The soil
table is data (``soils`` block of the parameter file, :class:`SoilClass` in
params.py); a surface names its soil class, a terrain region names its
surface, so the terrain's regions are the soil map.

Equations (SI: k_c [N/m^(n+1)], k_phi [N/m^(n+2)], c [Pa], phi [rad], K [m]):

* Pressure-sinkage (Bekker): p = (k_c / b + k_phi) z^n = k_eq z^n.
* Rigid wheel (Bekker, as given by Wong): z_0 = [3 W / ((3 - n)(k_c + b k_phi) sqrt(D))]^(2 / (2n + 1)).
* Rigid or flat (Wong, after Bekker): the critical pressure p_gcr = k_eq z_0^n
  is the pressure under a rigid wheel of the same size and load. When p_g > p_gcr
  the tyre stays round and sinks as a rigid wheel; otherwise it flattens,
  the flat part presses at p_g, z = (p_g / k_eq)^(1/n), and the flat contact
  carries the load over the area A = W / p_g (the reference's membrane
  contact N / (p_i + p_c)). Contact length: rigid ``l = sqrt(D z - z^2)``
  (the chord from the lowest point to the entry), flat ``l = A / b``.
  The sinkage is limited to ``z_max`` (0.2 m on the Polaris).
* Compaction resistance: the work of pressing a rut of width b to depth z
  per unit travel, R_c = b k_eq z^(n+1) / (n + 1) (both modes).
* Slip sinkage (a decision beyond the reference, docs/tyre_and_soil.md): a tyre
  that slips digs its rut deeper. The lugs carry soil out of the contact at a
  rate proportional to the slip speed ``v_s = omega R_t - v_x``, and forward
  travel moves the tyre onto fresh soil over one contact length:
  ``dz_d/dt = (k_d |v_s| - z_d |v_x|) / l``, with the soil class's slip-sinkage
  length ``k_d`` (``soils.*.slip_sinkage_m``). At a steady slip the extra depth is
  ``z_d = k_d |v_s| / |v_x|`` (a few millimetres at 20 % slip); a wheel that
  spins on the spot digs down to ``z_max``. The rut depth is the static sinkage
  plus ``z_d`` (limited to ``z_max``), and the compaction resistance is that of
  the whole depth.
* Bulldozing: not modelled; at the sinkages where the compaction formula
  holds (z < D/6) Wong's bulldozing term is small against R_c for these soils.
* Thrust (Mohr-Coulomb with Janosi-Hanamoto over a flat contact of length l):
  F = F_max [1 - K'/(i l) (1 - exp(-i l / K'))], with K' = K + tread
  compliance (``tyres.tread_k_m``) and the limit
  F_max = A c (1 + 2 h/b) + W tan(phi) (1 + c_l (h/b) atan(b/h)) (Bekker's
  lug correction with lug height h; c_l = 0.64, ``tyres.lug_correction``).
* Rolling resistance of the flexing tyre on soil: f = h_y delta_t / h_s
  (``tyres.hysteresis``, deflection delta_t, section height h_s).
* Motion resistance on the chassis (reference "Resistances"):
  F_x = F_shear - clamp(F_mr tanh(v / v_s), -N_0 |v| / (g dt), N_0 |v| / (g dt)).
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["tyre_on_soil", "sinkage_m", "compaction_resistance_n", "thrust_limit_n", "shear_shape",
           "soil_rolling_coefficient", "motion_resistance_n", "slip_sinkage_m"]


@njit
def sinkage_m(load_n: float, width_m: float, diameter_m: float, ground_pressure_pa: float, n: float,
              k_c: float, k_phi: float, z_max_m: float) -> tuple:
    """Sinkage, contact length and mode of an inflated tyre on soil.

    Parameters
    ----------
    load_n : float
        Normal load W [N] (>= 0).
    width_m, diameter_m : float
        Tyre width b and diameter D = 2 R_t [m].
    ground_pressure_pa : float
        p_g = p_i + p_c [Pa].
    n, k_c, k_phi : float
        Bekker exponent [-], cohesive modulus [N/m^(n+1)], frictional modulus [N/m^(n+2)].
    z_max_m : float
        Sinkage limit [m].

    Returns
    -------
    (z [m], contact length l [m], k_eq [N/m^(n+2)], 1.0 when the tyre is flat / 0.0 rigid)
    """
    k_eq = k_c / width_m + k_phi
    if load_n <= 0.0:
        return 0.0, 0.0, k_eq, 0.0
    z0 = (3.0 * load_n / ((3.0 - n) * (k_c + width_m * k_phi) * math.sqrt(diameter_m))) ** (2.0 / (2.0 * n + 1.0))
    p_cr = k_eq * z0 ** n
    if ground_pressure_pa > p_cr:
        z = z0 if z0 < z_max_m else z_max_m
        c2 = diameter_m * z - z * z
        return z, math.sqrt(c2 if c2 > 0.0 else 0.0), k_eq, 0.0
    z = (ground_pressure_pa / k_eq) ** (1.0 / n)
    if z > z_max_m:
        z = z_max_m
    return z, load_n / (width_m * ground_pressure_pa), k_eq, 1.0


@njit
def compaction_resistance_n(z_m: float, width_m: float, k_eq: float, n: float) -> float:
    """R_c = b k_eq z^(n+1) / (n + 1) [N] (Wong: rigid wheel; flexible tyre with z at p_g)."""
    return width_m * k_eq * z_m ** (n + 1.0) / (n + 1.0)


@njit
def thrust_limit_n(area_m2: float, load_n: float, c_pa: float, phi_rad: float, lug_height_m: float,
                   width_m: float, lug_factor: float) -> float:
    """F_max = A c (1 + 2 h/b) + W tan(phi) (1 + c_l (h/b) atan(b/h)) [N] (Mohr-Coulomb with lugs).

    ``lug_factor`` is Bekker's lug correction c_l [-] (0.64).
    """
    hb = lug_height_m / width_m
    lug_phi = 1.0 + lug_factor * hb * math.atan(width_m / lug_height_m) if lug_height_m > 0.0 else 1.0
    return area_m2 * c_pa * (1.0 + 2.0 * hb) + load_n * math.tan(phi_rad) * lug_phi


@njit(inline=True)
def shear_shape(slip: float, l_over_k: float) -> tuple:
    """Janosi-Hanamoto shear over the contact: (g, dg/ds) with F = F_max g(s).

    g(s) = sgn(s) [1 - (1 - exp(-x)) / x], x = |s| l / K' (F3 of the flat patch, odd in s).
    Increasing in s, g'(0) = l / (2 K'), |g| < 1.
    """
    x = abs(slip) * l_over_k
    if x < 1e-6:
        return slip * l_over_k * 0.5, l_over_k * 0.5
    e = math.exp(-x)
    g = 1.0 - (1.0 - e) / x
    dg = l_over_k * ((1.0 - e) / (x * x) - e / x)
    return (g if slip > 0.0 else -g), dg


@njit
def soil_rolling_coefficient(hysteresis: float, deflection_m: float, section_height_m: float) -> float:
    """f = h_y delta_t / h_s [-] (reference "Tyres", rolling resistance on soil)."""
    return hysteresis * deflection_m / section_height_m


@njit
def motion_resistance_n(f_mr_n: float, v_mps: float, static_load_n: float, g_mps2: float, dt_s: float,
                        speed_scale_mps: float) -> float:
    """clamp(F_mr tanh(v / v_s), -N_0 |v| / (g dt), N_0 |v| / (g dt)) [N] (reference "Resistances").

    The clamp keeps the resistance from reversing the wheel's share of the mass
    (N_0 / g) within one step.
    """
    f = f_mr_n * math.tanh(v_mps / speed_scale_mps)
    lim = static_load_n / g_mps2 * abs(v_mps) / dt_s
    return lim if f > lim else -lim if f < -lim else f


@njit
def slip_sinkage_m(z_d_m: float, slip_speed_mps: float, speed_mps: float, contact_length_m: float, k_d_m: float,
                   dt_s: float, z_max_m: float) -> float:
    """The slip sinkage z_d [m] after one step: dz_d/dt = (k_d |v_s| - z_d |v_x|) / l (module docstring).

    Implicit Euler (stable at any speed): z_d' = (z_d + dt k_d |v_s| / l) / (1 + dt |v_x| / l),
    limited to 0..z_max.

    Parameters
    ----------
    z_d_m : float
        Slip sinkage at the start of the step [m].
    slip_speed_mps, speed_mps : float
        v_s = omega R_t - v_x and the contact point's speed v_x along the wheel's heading [m/s].
    contact_length_m : float
        l [m] (:func:`sinkage_m`), > 0.
    k_d_m : float
        The soil class's slip-sinkage length k_d [m] (0: no slip sinkage).
    dt_s, z_max_m : float
        Step [s]; sinkage limit [m].
    """
    z = (z_d_m + dt_s * k_d_m * abs(slip_speed_mps) / contact_length_m) / (1.0 + dt_s * abs(speed_mps)
                                                                          / contact_length_m)
    return z if z < z_max_m else z_max_m


@njit
def tyre_on_soil(load_n: float, width_m: float, radius_m: float, ground_pressure_pa: float, tyre_rate_n_m: float,
                 n: float, k_c: float, k_phi: float, c_pa: float, phi_rad: float, k_m: float, z_max_m: float,
                 lug_height_m: float, tread_k_m: float, hysteresis: float, section_height_m: float,
                 lug_factor: float, z_d_m: float) -> tuple:
    """The tyre on soil at one load: everything the step needs from this module (module docstring).

    Parameters
    ----------
    load_n : float
        Normal load N [N].
    width_m, radius_m : float
        Tyre width b and unloaded radius R_t [m].
    ground_pressure_pa : float
        p_i + p_c [Pa].
    tyre_rate_n_m : float
        Membrane rate k_tyre [N/m] (suspension.py): the deflection is N / k_tyre.
    n, k_c, k_phi, c_pa, phi_rad, k_m : float
        Soil class (Bekker, Mohr-Coulomb, Janosi-Hanamoto K [m]).
    z_max_m, lug_height_m, tread_k_m, hysteresis, section_height_m : float
        Sinkage limit, lug height, tread compliance [m], hysteresis h_y [-], section height h_s [m].
    lug_factor : float
        Bekker's lug correction c_l [-] (:func:`thrust_limit_n`).
    z_d_m : float
        Slip sinkage [m] (:func:`slip_sinkage_m`) added to the static sinkage (0 at rest).

    Returns
    -------
    (z [m]: the rut's depth, static sinkage + z_d up to z_max; F_max [N]; l / K' [-]; rolling
    coefficient f [-]; compaction resistance F_mr [N] of the whole depth; contact length l [m])
    """
    z, l_c, k_eq, flat = sinkage_m(load_n, width_m, 2.0 * radius_m, ground_pressure_pa, n, k_c, k_phi, z_max_m)
    z = z + z_d_m
    if z > z_max_m:
        z = z_max_m
    area = load_n / ground_pressure_pa if flat != 0.0 else width_m * l_c
    f_max = thrust_limit_n(area, load_n, c_pa, phi_rad, lug_height_m, width_m, lug_factor)
    l_eff = l_c if l_c > 1e-3 else 1e-3
    lk = l_eff / (k_m + tread_k_m)
    f = soil_rolling_coefficient(hysteresis, load_n / tyre_rate_n_m, section_height_m)
    return z, f_max, lk, f, compaction_resistance_n(z, width_m, k_eq, n), l_eff
