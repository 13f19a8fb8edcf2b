"""Engine of the Maxxum 150 (maxxum-150-dynamics.md, "Engine", "Hand Throttle").

Torque Curve: T_full(n) interpolates the curve linearly, scaled so that its
maximum is ``peak_torque_nm``, 0 at and above n_max, the first point's torque
below the first point (the shared :func:`acres_dbw_sim.vehicles.polaris.engine.full_load_torque_nm`,
the same rule as the Ranger's). With the power limit P_max:

    T_avail = min(T_full(n), P_max / max(omega_e, 20))          (0 with an empty tank)

With boost the curve is multiplied by P_boost / P_max and the limit is P_boost.

All-Speed Governor: the command u sets the no-load speed

    n_0 = n_idle + u (n_max - n_idle),   d = clamp((n_0 - n) / Delta n, 0, 1)   (d = u for Delta n = 0)

road speed governor g_v = clamp((v_max - v_w) / 0.5, 0, 1) (the shared
:func:`acres_dbw_sim.vehicles.polaris.engine.speed_governor`), idle governor
d_idle = clamp(0.02 (omega_idle - omega_e), 0, 0.35), and

    T_e = T_avail max(d g_v, d_idle)

Loads on the Engine:

    T_drag = T_d0 omega_e / omega_idle,   T_acc = (P_pto / eta_pto + P_hyd / eta_hyd) / max(omega_e, 20)
    omega_free = max(0, omega_e + dt (T_e - T_drag - T_acc) / J_e)     (shared free_speed_rad_s)

Hand Throttle: u = max(u_pedal, u_hand); engaging the PTO raises the hand
throttle to (n_pto + Delta n / 2 - n_idle) / (n_max - n_idle).
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ...model._jit import array, njit
from ..polaris.engine import EngineCurves, free_speed_rad_s, full_load_torque_nm, speed_governor

__all__ = ["RAD_S_TO_RPM", "TractorEngine", "engine_arrays", "engine_from_arrays", "engine_curves", "available_torque_nm", "no_load_speed_rpm",
           "governor_demand", "idle_demand", "engine_torque_nm", "drag_torque_nm", "accessory_torque_nm",
           "engine_command", "pto_hand_throttle", "engage_pto_hand_throttle", "nudge_hand_throttle",
           "step_engine"]

RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)


def engine_curves(e) -> EngineCurves:
    """The full-load curve as the shared :class:`~acres_dbw_sim.vehicles.polaris.engine.EngineCurves`.

    The curve is already scaled to ``peak_torque_nm`` by the loader; with
    boost it is multiplied by P_boost / P_max here. The Ranger's friction and
    pumping fields are zero: the tractor's losses are T_drag and T_acc.

    Parameters
    ----------
    e : EngineParams
        Of :func:`~acres_dbw_sim.vehicles.maxxum150.params.load_maxxum_parameters`.
    """
    factor = e.boost_power_w / e.max_power_w if e.boost_enabled else 1.0
    nm = tuple(factor * x for x in e.torque_curve_nm)
    return EngineCurves(tuple(e.torque_curve_rpm), nm, float(e.max_rpm), 0.0, 0.0, 0.0, 0.0, 0.0, max(nm))


@njit
def available_torque_nm(t_full_nm: float, omega_e_rad_s: float, p_limit_w: float, omega_floor_rad_s: float,
                        tank_empty: bool) -> float:
    """T_avail = min(T_full, P_max / max(omega_e, 20)) [N m]; P_max = 0 is no limit; 0 with an empty tank.

    Parameters
    ----------
    t_full_nm : float
        T_full(n) [N m].
    omega_e_rad_s : float
        Engine speed [rad/s].
    p_limit_w : float
        P_max (or P_boost with boost) [W].
    omega_floor_rad_s : float
        Floor of the speed in the limit, 20 rad/s.
    tank_empty : bool
    """
    if tank_empty:
        return 0.0
    if p_limit_w <= 0.0:
        return t_full_nm
    w = omega_e_rad_s if omega_e_rad_s > omega_floor_rad_s else omega_floor_rad_s
    t = p_limit_w / w
    return t if t < t_full_nm else t_full_nm


@njit
def no_load_speed_rpm(u: float, idle_rpm: float, max_rpm: float) -> float:
    """Governor set speed n_0 = n_idle + u (n_max - n_idle) [rev/min] for the command u [-] (clamped to 0..1)."""
    uu = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
    return idle_rpm + uu * (max_rpm - idle_rpm)


@njit
def governor_demand(u: float, n_rpm: float, idle_rpm: float, max_rpm: float, droop_rpm: float) -> float:
    """Fuel demand d = clamp((n_0 - n) / Delta n, 0, 1) of the all-speed governor; d = u when Delta n = 0.

    Parameters
    ----------
    u : float
        Command [-], the larger of pedal and hand throttle.
    n_rpm : float
        Engine speed [rev/min].
    idle_rpm, max_rpm, droop_rpm : float
        n_idle, n_max, Delta n [rev/min].
    """
    if droop_rpm <= 0.0:
        return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
    d = (no_load_speed_rpm(u, idle_rpm, max_rpm) - n_rpm) / droop_rpm
    return 0.0 if d < 0.0 else 1.0 if d > 1.0 else d


@njit
def idle_demand(omega_e_rad_s: float, omega_idle_rad_s: float, gain_s_rad: float, limit: float) -> float:
    """Idle governor d_idle = clamp(0.02 (omega_idle - omega_e), 0, 0.35) [-] (for any command)."""
    d = gain_s_rad * (omega_idle_rad_s - omega_e_rad_s)
    return 0.0 if d < 0.0 else limit if d > limit else d


@njit
def engine_torque_nm(t_avail_nm: float, d: float, g_v: float, d_idle: float) -> float:
    """T_e = T_avail max(d g_v, d_idle) [N m]."""
    a = d * g_v
    return t_avail_nm * (a if a > d_idle else d_idle)


@njit
def drag_torque_nm(omega_e_rad_s: float, omega_idle_rad_s: float, drag_idle_nm: float) -> float:
    """T_drag = T_d0 omega_e / omega_idle [N m]."""
    return drag_idle_nm * omega_e_rad_s / omega_idle_rad_s


@njit
def accessory_torque_nm(pto_w: float, pto_efficiency: float, hydraulic_w: float, hydraulic_efficiency: float,
                        omega_e_rad_s: float, omega_floor_rad_s: float) -> float:
    """T_acc = (P_pto / eta_pto + P_hyd / eta_hyd) / max(omega_e, 20) [N m].

    ``pto_w`` and ``hydraulic_w`` are the sums of the constant loads
    (``pto_kw``, ``hydraulic_kw``) and the implement's powers of the last step [W].
    """
    w = omega_e_rad_s if omega_e_rad_s > omega_floor_rad_s else omega_floor_rad_s
    return (pto_w / pto_efficiency + hydraulic_w / hydraulic_efficiency) / w


@njit
def engine_command(pedal: float, hand_throttle: float) -> float:
    """u = max(u_pedal, u_hand), clamped to 0..1 (page "Hand Throttle")."""
    u = pedal if pedal > hand_throttle else hand_throttle
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


@njit
def pto_hand_throttle(pto_engine_rpm: float, droop_rpm: float, idle_rpm: float, max_rpm: float) -> float:
    """Hand throttle for the rated PTO speed: (n_pto + Delta n / 2 - n_idle) / (n_max - n_idle) [-].

    ``pto_engine_rpm`` is ``pto_540_engine_rpm`` or ``pto_1000_engine_rpm``: the
    governor's droop band is then centred on the rated PTO engine speed.
    """
    u = (pto_engine_rpm + 0.5 * droop_rpm - idle_rpm) / (max_rpm - idle_rpm)
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


@njit
def engage_pto_hand_throttle(hand_throttle: float, pto_engine_rpm: float, droop_rpm: float, idle_rpm: float,
                             max_rpm: float) -> float:
    """Hand throttle after the PTO engages: at least :func:`pto_hand_throttle` (u_hand >= ...)."""
    u = pto_hand_throttle(pto_engine_rpm, droop_rpm, idle_rpm, max_rpm)
    return hand_throttle if hand_throttle > u else u


@njit
def nudge_hand_throttle(hand_throttle: float, steps: float) -> float:
    """Hand throttle after ``steps`` presses of = (+) or - (-), 0.05 each, clamped to 0..1."""
    u = hand_throttle + 0.05 * steps
    return 0.0 if u < 0.0 else 1.0 if u > 1.0 else u


class TractorEngine(NamedTuple):
    """Engine constants for :func:`step_engine`, built once (a tuple for the compiled step).

    Attributes
    ----------
    curves : EngineCurves
        The full-load curve (boost applied).
    idle_rpm, max_rpm, droop_rpm : float
        n_idle, n_max, Delta n [rev/min].
    idle_rad_s : float
        omega_idle [rad/s].
    p_limit_w : float
        P_max or P_boost [W] (0: no limit).
    inertia_kg_m2, drag_nm : float
        J_e [kg m^2], T_d0 [N m].
    max_speed_mps : float
        v_max of the road speed governor [m/s] (0: none).
    pto_efficiency, hydraulic_efficiency : float
    idle_gain_s_rad, idle_limit, omega_floor_rad_s : float
        0.02 s/rad, 0.35, 20 rad/s.
    governor_band_mps : float
        Band of the road speed governor [m/s] (0.5).
    """

    curves: EngineCurves
    idle_rpm: float
    max_rpm: float
    droop_rpm: float
    idle_rad_s: float
    p_limit_w: float
    inertia_kg_m2: float
    drag_nm: float
    max_speed_mps: float
    pto_efficiency: float
    hydraulic_efficiency: float
    idle_gain_s_rad: float
    idle_limit: float
    omega_floor_rad_s: float
    governor_band_mps: float

    @classmethod
    def from_params(cls, params) -> "TractorEngine":
        """Build from :class:`~acres_dbw_sim.vehicles.maxxum150.params.MaxxumParameters`.

        The legacy tractor (``chassis.model = legacy``) has no droop: the command multiplies the torque.
        """
        e, c, pto = params.engine, params.constants, params.pto
        droop = 0.0 if params.chassis.model == "legacy" else e.governor_droop_rpm
        return cls(engine_curves(e), e.idle_rpm, e.max_rpm, droop, e.idle_rad_s,
                   e.boost_power_w if e.boost_enabled else e.max_power_w, e.inertia_kg_m2, e.drag_nm,
                   e.max_speed_mps, pto.pto_efficiency, pto.hydraulic_efficiency, c.idle_gain_s_rad,
                   c.idle_limit, c.power_speed_floor_rad_s, c.speed_governor_band_mps)


def engine_arrays(en: TractorEngine) -> tuple:
    """(curves as a plain tuple, the 14 scalars as a float array) of ``en`` for the compiled step.

    A named tuple costs the compiled step's caller about 5 us per call to type; a plain tuple of the
    curves and an array of the scalars cost a fraction of that. :func:`engine_from_arrays` rebuilds
    ``en`` inside the step.
    """
    return tuple(en.curves), array([float(x) for x in en[1:]])


@njit
def engine_from_arrays(curves, scalars) -> TractorEngine:
    """The :class:`TractorEngine` of :func:`engine_arrays`' output (inside the compiled step)."""
    s = scalars
    return TractorEngine(curves, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12],
                         s[13])


@njit
def step_engine(en: TractorEngine, u: float, omega_e_rad_s: float, rear_speed_mps: float, pto_w: float,
                hydraulic_w: float, tank_empty: bool, dt_s: float) -> tuple:
    """The engine part of StepDrivetrain: torques and the free engine speed of one step.

    Parameters
    ----------
    en : TractorEngine
    u : float
        Command [-] (:func:`engine_command`).
    omega_e_rad_s : float
        Engine speed at the start of the step [rad/s].
    rear_speed_mps : float
        v_w, mean speed of the rear tyres in the direction of travel [m/s].
    pto_w, hydraulic_w : float
        P_pto, P_hyd [W] (constant loads plus the implement's of the last step).
    tank_empty : bool
    dt_s : float
        Physics step [s].

    Returns
    -------
    tuple
        (T_e, T_drag, T_acc [N m], omega_free [rad/s]) for the driveline solve.
    """
    n = omega_e_rad_s * RAD_S_TO_RPM
    t_avail = available_torque_nm(full_load_torque_nm(n, en.curves), omega_e_rad_s, en.p_limit_w,
                                  en.omega_floor_rad_s, tank_empty)
    d = governor_demand(u, n, en.idle_rpm, en.max_rpm, en.droop_rpm)
    g_v = speed_governor(en.max_speed_mps, rear_speed_mps, en.governor_band_mps)
    d_idle = idle_demand(omega_e_rad_s, en.idle_rad_s, en.idle_gain_s_rad, en.idle_limit)
    t_e = engine_torque_nm(t_avail, d, g_v, d_idle)
    t_drag = drag_torque_nm(omega_e_rad_s, en.idle_rad_s, en.drag_nm)
    t_acc = accessory_torque_nm(pto_w, en.pto_efficiency, hydraulic_w, en.hydraulic_efficiency, omega_e_rad_s,
                                en.omega_floor_rad_s)
    return t_e, t_drag, t_acc, free_speed_rad_s(omega_e_rad_s, t_e, t_drag + t_acc, en.inertia_kg_m2, dt_s)
