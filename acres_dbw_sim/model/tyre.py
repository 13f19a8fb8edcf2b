"""Hard-surface tyre (reference "Tyres"; gaps.md "Tyre and Soil").

Longitudinal force ``F_x = mu N tanh(k_s s)`` and lateral force
``F_y = -C_alpha N alpha`` limited by the friction circle
``sqrt(F_x^2 + F_y^2) <= mu N``. No load sensitivity, camber or aligning torque.

Slip definition (finite at standstill and at lock)
--------------------------------------------------
The slip is the state of a contact-patch deflection u [m] with relaxation
length sigma_x (``tyres.longitudinal_relaxation_m``):

    du/dt = (omega R_t - v_x) - |v_x| u / sigma_x,     s = (u + tau_c du/dt) / sigma_x

In steady rolling s = (omega R_t - v_x) / |v_x|, the usual slip referred to the
unloaded radius; at lock (omega = 0, v_x > 0) s -> -1; at standstill the
deflection is a spring (a parked vehicle is held without creep) and the term
tau_c du/dt damps it. That damping is a low-speed term only: at speed the
relaxation itself is the tyre's lag, and a lead tau_c du/dt comparable to the
relaxation time sigma / |v_x| would cancel it (at 10 m/s and tau_c = 0.03 s
the first step would carry the full steady force). So the damping time fades
out with speed as in Pacejka's low-speed treatment (Tyre and Vehicle
Dynamics, 3rd ed., section 8.7):

    tau(v) = tau_c (1 + cos(pi |v_x| / v_low)) / 2  for |v_x| < v_low, else 0

with v_low = ``tyres.damping_fade_speed_mps`` (:func:`carcass_damping_s`). The state is integrated
with backward Euler inside the driveline solve, so k_s s is an affine,
increasing function of the trial spin omega: ``k_s s = a1 omega + a0``. The
deflection is clamped after each step to |k_s u / sigma_x| <= 3 (full
sliding): that saturates the force, not the slip the wheel reports. The
reported slip (:func:`reported_slip`) is the kinematic one,
(omega R_t - v_x) / max(|v_x|, v_floor): -1 at lock, +1 when the tread runs
at twice the ground speed, finite at standstill (v_floor =
``tyres.slip_speed_floor_mps``). The lateral deflection y obeys the same law with the lateral
relaxation length sigma (``tyres.relaxation_m``): dy/dt = v_y - |v_x| y / sigma,
alpha = (y + tau_c dy/dt) / sigma, which is tan(slip angle) in steady state.
"""
from __future__ import annotations

import math

from ._jit import njit

__all__ = ["carcass_damping_s", "slip_coefficients", "deflection_end_m", "reported_slip",
           "lateral_force_and_state", "SATURATION"]

SATURATION = 3.0
"""Largest |k_s s| kept in the slip state (tanh(3) = 0.995: full sliding). Not a physics constant: the
point at which tanh no longer changes in double precision beyond 0.5 %, which only bounds the state."""


@njit(inline=True)
def carcass_damping_s(tau_c_s: float, vx_mps: float, fade_speed_mps: float) -> float:
    """Carcass damping time at the speed ``vx_mps`` [s]: tau_c faded out by ``fade_speed_mps`` (module docstring).

    Parameters
    ----------
    tau_c_s : float
        Damping time at standstill [s] (``tyres.carcass_damping_s``).
    vx_mps : float
        Speed of the contact point along the wheel heading [m/s].
    fade_speed_mps : float
        v_low [m/s]: no damping term at and above it (``tyres.damping_fade_speed_mps``).
    """
    a = abs(vx_mps)
    if a >= fade_speed_mps:
        return 0.0
    return tau_c_s * 0.5 * (1.0 + math.cos(math.pi * a / fade_speed_mps))


@njit
def slip_coefficients(u_m: float, vx_mps: float, dt_s: float, radius_m: float, sigma_x_m: float,
                      tau_c_s: float, k_s: float) -> tuple:
    """Coefficients (a1 [s/rad], a0 [-]) with k_s s = a1 omega + a0 at the end of the step.

    Parameters
    ----------
    u_m : float
        Deflection at the start of the step [m].
    vx_mps : float
        Forward speed of the contact point along the wheel heading [m/s].
    dt_s, radius_m, sigma_x_m, tau_c_s, k_s : float
        Step [s], R_t [m], relaxation length [m], carcass damping at this speed [s]
        (:func:`carcass_damping_s`), slip stiffness [-].
    """
    a = 1.0 + dt_s * abs(vx_mps) / sigma_x_m
    g = 1.0 + tau_c_s / dt_s
    k = k_s / sigma_x_m
    a1 = k * g * dt_s * radius_m / a
    a0 = k * (g * (u_m - dt_s * vx_mps) / a - (tau_c_s / dt_s) * u_m)
    return a1, a0


@njit
def deflection_end_m(u_m: float, vx_mps: float, omega: float, dt_s: float, radius_m: float,
                     sigma_x_m: float, slip_limit: float) -> float:
    """Deflection u at the end of the step (backward Euler), clamped to full sliding [m].

    ``slip_limit`` is the largest |u| / sigma_x kept: SATURATION / k_s on hard ground (tanh saturated),
    1 on soil (100 % slip).
    """
    a = 1.0 + dt_s * abs(vx_mps) / sigma_x_m
    u = (u_m + dt_s * (omega * radius_m - vx_mps)) / a
    lim = slip_limit * sigma_x_m
    return lim if u > lim else -lim if u < -lim else u


def steady_deflection_m(omega: float, vx_mps: float, radius_m: float, sigma_x_m: float,
                        slip_limit: float) -> float:
    """The deflection :func:`deflection_end_m` settles at for constant spin and speed [m].

    The fixed point of the tread's relaxation that :func:`deflection_end_m` steps
    (reference "Tyres", gaps.md "Tyre and Soil":
    ``du/dt = (omega R_t - v_x) - |v_x| u / sigma_x``, set to zero):
    ``u = sigma_x (omega R_t - v_x) / |v_x|``, clamped to ``slip_limit sigma_x``;
    0 below 0.05 m/s, where the fixed point is the history's, not the speed's.
    Used to start a rolling wheel from a recorded state (``Vehicle.start_running``),
    not by the step.

    Parameters
    ----------
    omega : float
        Wheel spin [rad/s].
    vx_mps : float
        Forward speed of the contact point [m/s].
    radius_m, sigma_x_m : float
        R_t [m], relaxation length [m].
    slip_limit : float
        Largest |u| / sigma_x [-].

    Returns
    -------
    float
        Longitudinal tread deflection u [m], wheel frame (positive when driving).
    """
    if abs(vx_mps) < 0.05:
        return 0.0
    u = sigma_x_m * (omega * radius_m - vx_mps) / abs(vx_mps)
    lim = slip_limit * sigma_x_m
    return lim if u > lim else -lim if u < -lim else u


@njit(inline=True)
def reported_slip(omega_rad_s: float, vx_mps: float, radius_m: float, floor_mps: float) -> float:
    """Kinematic longitudinal slip (omega R_t - v_x) / max(|v_x|, v_floor) [-] that the wheel reports.

    -1 at lock while moving, 0 in free rolling, positive when driving; not
    clamped (the force saturates in the slip state, not this figure).
    """
    d = abs(vx_mps)
    return (omega_rad_s * radius_m - vx_mps) / (d if d > floor_mps else floor_mps)


@njit
def lateral_force_and_state(y_m: float, vx_mps: float, vy_mps: float, dt_s: float, sigma_m: float,
                            tau_c_s: float, c_alpha: float, load_n: float, mu: float, fx_n: float) -> tuple:
    """Lateral force and the new lateral deflection.

    Parameters
    ----------
    y_m : float
        Lateral deflection at the start of the step [m].
    vx_mps, vy_mps : float
        Contact-point speed along the heading and to its left [m/s].
    dt_s, sigma_m, tau_c_s : float
        Step [s], relaxation length [m], carcass damping at this speed [s] (:func:`carcass_damping_s`).
    c_alpha : float
        Cornering stiffness per load [1/rad].
    load_n, mu, fx_n : float
        Normal load [N], friction [-], longitudinal force of this step [N].

    Returns
    -------
    (F_y [N], y_end [m])
        F_y along n x f (to the left of the wheel); y_end clamped so that
        C_alpha |y| / sigma <= mu.
    """
    a = 1.0 + dt_s * abs(vx_mps) / sigma_m
    y = (y_m + dt_s * vy_mps) / a
    lim = mu * sigma_m / c_alpha
    if y > lim:
        y = lim
    elif y < -lim:
        y = -lim
    alpha = (y + tau_c_s * (y - y_m) / dt_s) / sigma_m
    fy = -c_alpha * load_n * alpha
    cap2 = mu * mu * load_n * load_n - fx_n * fx_n
    cap = math.sqrt(cap2) if cap2 > 0.0 else 0.0
    if fy > cap:
        fy = cap
    elif fy < -cap:
        fy = -cap
    return fy, y
