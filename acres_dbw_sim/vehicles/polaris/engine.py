"""Engine (reference "Engine").

Full-load torque T_wot(n): linear interpolation of the torque curve, 0 at and
above ``engine.max_rpm`` (below the first point: the first point's torque).
Friction and pumping torques from mean effective pressures (bar) with
``1 bar = 1e5 V_d / (4 pi)`` N m (7.95 N m for 0.999 L):

    T_fr = max(0, f0 + f1 n_k + f2 n_k^2) 1e5 V_d / (4 pi),   T_pu = p_pu 1e5 V_d / (4 pi)

Top-speed governor g_v, idle governor u_idle, pedal map u* = max(p^max(0.1, gamma) g_v, u_idle),
torque lag, and the brake torque

    T_e = f u (T_wot + T_fr) - T_fr - (1 - u) T_pu

with f = 1 when the engine has fuel (u > 0, T_wot > 0, tank not empty).
The free engine speed is omega_free = max(0, omega_e + dt (T_e - T_acc) / J_e).
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ...model._jit import njit

__all__ = ["EngineCurves", "full_load_torque_nm", "friction_torque_nm",
           "speed_governor", "idle_request", "torque_target", "engine_torque_nm", "free_speed_rad_s"]

RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)


class EngineCurves(NamedTuple):
    """Curves and constants of the engine, built once from EngineParams.

    A named tuple: the compiled step passes it as a plain tuple, and the
    functions below unpack it by position.

    Attributes
    ----------
    rpm, nm : tuple of float
        Torque curve points [rev/min], [N m].
    max_rpm : float
    nm_per_bar : float
        Torque of 1 bar mean effective pressure [N m/bar].
    f0, f1, f2 : float
        FMEP coefficients [bar, bar/krpm, bar/krpm^2].
    pumping_nm : float
        T_pu [N m].
    peak_nm : float
        T_peak, highest torque of the curve [N m].
    """

    rpm: tuple
    nm: tuple
    max_rpm: float
    nm_per_bar: float
    f0: float
    f1: float
    f2: float
    pumping_nm: float
    peak_nm: float

    @classmethod
    def from_params(cls, e) -> "EngineCurves":
        """Build from :class:`~acres_dbw_sim.vehicles.polaris.params.EngineParams`."""
        k = 1e5 * e.displacement_m3 / (4.0 * math.pi)
        return cls(tuple(float(v) for v in e.torque_curve_rpm), tuple(float(v) for v in e.torque_curve_nm),
                   float(e.max_rpm), k, float(e.fmep_bar), float(e.fmep_bar_per_krpm), float(e.fmep_bar_per_krpm2),
                   float(e.pumping_bar) * k, float(max(e.torque_curve_nm)))


@njit
def full_load_torque_nm(n_rpm: float, c: EngineCurves) -> float:
    """T_wot [N m] at engine speed ``n_rpm`` [rev/min]."""
    rpm, nm, max_rpm, _, _, _, _, _, _ = c
    if n_rpm >= max_rpm:
        return 0.0
    if n_rpm <= rpm[0]:
        return nm[0]
    last = len(rpm) - 1
    for i in range(1, last + 1):
        if n_rpm <= rpm[i]:
            t = (n_rpm - rpm[i - 1]) / (rpm[i] - rpm[i - 1])
            return nm[i - 1] + t * (nm[i] - nm[i - 1])
    return nm[last]


@njit
def friction_torque_nm(n_rpm: float, c: EngineCurves) -> float:
    """T_fr [N m] at ``n_rpm`` [rev/min]."""
    _, _, _, nm_per_bar, f0, f1, f2, _, _ = c
    nk = n_rpm * 1e-3
    f = f0 + f1 * nk + f2 * nk * nk
    return f * nm_per_bar if f > 0.0 else 0.0


@njit
def speed_governor(v_max_mps: float, rear_speed_mps: float, band_mps: float) -> float:
    """g_v = clamp((v_max - v_r) / v_band, 0, 1); 1 when v_max is 0 (no governor).

    ``band_mps`` is the governor's band v_band [m/s] (0.5 in both references).
    """
    if v_max_mps <= 0.0:
        return 1.0
    g = (v_max_mps - rear_speed_mps) / band_mps
    return 0.0 if g < 0.0 else 1.0 if g > 1.0 else g


@njit
def idle_request(omega_e: float, omega_idle: float, idle_gain: float, t_wot_idle: float,
                 t_fr_idle: float, t_pu: float, t_acc: float) -> float:
    """Idle-governor request u_idle [-] (feed-forward plus proportional term)."""
    den = t_wot_idle + t_fr_idle + t_pu
    u = (t_fr_idle + t_pu + t_acc) / (den if den > 1.0 else 1.0) + idle_gain * (omega_idle - omega_e) / omega_idle
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


@njit
def torque_target(pedal: float, pedal_exponent: float, g_v: float, u_idle: float, tank_empty: bool) -> float:
    """u* = max(p^max(0.1, gamma) g_v, u_idle); 0 with an empty tank."""
    if tank_empty:
        return 0.0
    p = 0.0 if pedal < 0.0 else 1.0 if pedal > 1.0 else pedal
    up = p ** (pedal_exponent if pedal_exponent > 0.1 else 0.1) * g_v
    return up if up > u_idle else u_idle


@njit
def engine_torque_nm(u: float, fuel: bool, t_wot: float, t_fr: float, t_pu: float) -> float:
    """T_e = f u (T_wot + T_fr) - T_fr - (1 - u) T_pu [N m]."""
    return (u * (t_wot + t_fr) if fuel else 0.0) - t_fr - (1.0 - u) * t_pu


@njit
def free_speed_rad_s(omega_e: float, t_e: float, t_acc: float, j_e: float, dt_s: float) -> float:
    """omega_free = max(0, omega_e + dt (T_e - T_acc) / J_e) [rad/s]."""
    w = omega_e + dt_s * (t_e - t_acc) / j_e
    return w if w > 0.0 else 0.0
