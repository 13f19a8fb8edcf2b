"""Suspension (reference "Suspension"; SuspensionLoad of the Maxxum page).

Corner spring: tyre membrane in series with the wheel rate,

    k_tyre = 2 pi (p_i + p_c) sqrt(R_t b / 2),   1/k_j = 1/k_tyre + 1/k_wheel

damper ``c_j = 2 zeta sqrt(k_j N_0j / g)`` and the normal load

    N_j = clamp(N_0j + k_j (x_s - x_0) + k_b max(0, x_s - x_b)^2 - c_j v_n, 0, a N_0j)

with the compression x_s = 0.5 - s of the ground-probe extension s [m] and the
speed v_n [m/s] of the contact point along the ground normal (positive away
from the ground). x_b = max(x_0 + 0.01, travel - bump stop length). The load limit
factor a is 6 in both references (``suspension.max_load_factor``, the tractor's
``constants.max_load_factor``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ._jit import njit
from .chassis import G_MPS2

__all__ = ["CornerSprings", "tyre_membrane_rate_n_m", "series_rate_n_m", "damper_n_s_m", "corner_springs",
           "suspension_load_n"]


@dataclass(frozen=True)
class CornerSprings:
    """Spring, damper and bump stop of the four corners (FL, FR, RL, RR).

    Attributes
    ----------
    rate_n_m : tuple of 4 float
        k_j [N/m].
    damper_n_s_m : tuple of 4 float
        c_j [N s/m].
    static_load_n : tuple of 4 float
        N_0j [N].
    droop_m : float
        x_0 [m].
    bump_start_m : float
        x_b [m].
    bump_rate_n_m2 : float
        k_b [N/m^2].
    """

    rate_n_m: tuple
    damper_n_s_m: tuple
    static_load_n: tuple
    droop_m: float
    bump_start_m: float
    bump_rate_n_m2: float


def tyre_membrane_rate_n_m(inflation_pa: float, carcass_pa: float, radius_m: float, width_m: float) -> float:
    """Rate of the inflated membrane k_tyre [N/m]."""
    return 2.0 * math.pi * (inflation_pa + carcass_pa) * math.sqrt(radius_m * width_m / 2.0)


def series_rate_n_m(tyre_rate_n_m: float, spring_rate_n_m: float) -> float:
    """Rate of the tyre in series with the wheel's (or the axle's) spring: (1/k_t + 1/k_a)^-1 [N/m].

    polaris-ranger-dynamics.md "Suspension"; maxxum-150-dynamics.md "Suspension and Wheel Load".
    """
    return 1.0 / (1.0 / tyre_rate_n_m + 1.0 / spring_rate_n_m)


def damper_n_s_m(damping_ratio: float, rate_n_m: float, static_load_n: float, g: float = G_MPS2) -> float:
    """Damper C = 2 zeta sqrt(k N_0 / g) [N s/m] of a corner of rate k [N/m] carrying N_0 [N] (same sources)."""
    return 2.0 * damping_ratio * math.sqrt(rate_n_m * static_load_n / g)


def corner_springs(params, g: float = G_MPS2) -> CornerSprings:
    """Corner rates, dampers and bump stop from the parameters.

    Parameters
    ----------
    params : VehicleParameters
    """
    t, s = params.tyres, params.suspension
    kt_f = tyre_membrane_rate_n_m(t.front_inflation_pa, t.carcass_pa, t.radius_m, t.front_width_m)
    kt_r = tyre_membrane_rate_n_m(t.rear_inflation_pa, t.carcass_pa, t.radius_m, t.rear_width_m)
    kf = series_rate_n_m(kt_f, s.front_wheel_rate_n_m)
    kr = series_rate_n_m(kt_r, s.rear_wheel_rate_n_m)
    rates = (kf, kf, kr, kr)
    n0 = params.mass_properties.static_loads_n
    dampers = tuple(damper_n_s_m(s.damping_ratio, rates[j], n0[j], g) for j in range(4))
    xb = max(s.droop_m + 0.01, s.travel_m - s.bump_stop_length_m)
    return CornerSprings(rates, dampers, tuple(n0), s.droop_m, xb, s.bump_stop_rate_n_m2)


@njit
def suspension_load_n(n0: float, k: float, c: float, x_s: float, v_n: float, x0: float, xb: float,
                      kb: float, max_factor: float) -> float:
    """Normal load N [N] of one corner (SuspensionLoad).

    Parameters
    ----------
    n0, k, c : float
        Static load [N], rate [N/m], damper [N s/m].
    x_s : float
        Compression [m].
    v_n : float
        Contact-point speed along the ground normal [m/s].
    x0, xb, kb : float
        Static compression [m], bump-stop start [m], bump-stop rate [N/m^2].
    max_factor : float
        Largest load as a multiple of the static load [-] (a, 6 in the references).
    """
    b = x_s - xb
    n = n0 + k * (x_s - x0) - c * v_n
    if b > 0.0:
        n += kb * b * b
    hi = max_factor * n0
    return 0.0 if n < 0.0 else hi if n > hi else n
