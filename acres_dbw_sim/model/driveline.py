"""Driveline solve (reference "Driveline Solve", "Drive Modes").

Backward Euler on the rear-carrier speed c at the end of the step. Wheel j
needs the shaft torque

    T_j(w) = J_j (w - w_j) / dt + F_x,j(w) R_t + (T_roll,j + T_brake,j) tanh(w / 0.1)

(increasing in w). With the hard-surface tyre of tyre.py, ``F_x = mu N tanh(a1 w + a0)``; on soil
(soil.py) the slip state gives the slip ``s = a1 w + a0`` itself and ``F_x = F_max g(s)``, the
Janosi-Hanamoto shear over the contact (:func:`~acres_dbw_sim.model.soil.shear_shape`). The
resistance's sign factor is :func:`~acres_dbw_sim.model.resistances.spin_factor`.
Rear axle: locked ``T_rear(c) = T_2(c) + T_3(c)``; open: w_2 from
``T_2(w_2) = T_3(2c - w_2)``. Engaged front wheels turn at K c and add
``K T_j(K c)`` (both at K c with the front axle locked; an open front axle splits
``w_0 + w_1 = 2 K c`` with ``T_0(w_0) = T_1(w_1)`` and adds ``K (T_0 + T_1)``, the Maxxum's MFD with the
front differential open: maxxum-150-dynamics.md "Front-Wheel Drive", "Axle and Differential"). The clutch torque for a locked clutch is
``T_c(c) = J_e (w_free - R c) / dt``; the carrier receives D(T_c) = R eta T_c
(T_c >= 0) or R T_c / eta. Cases: gear with capacity ``T_need(c) = D(T_c(c))``,
clamped to the capacities when they are exceeded; park ``c = 0`` while
``|T_need(0)| <= T_park``; neutral or no capacity ``T_need(c) = 0``.

Wheels: 0 FL, 1 FR, 2 RL, 3 RR. Front modes: 0 not driven (Turf, 2WD),
1 overrunning clutches (AWD), 2 locked both ways (park + AWD, ADC; the Maxxum's MFD with
the front lock), 3 an open front differential driven rigidly (the Maxxum's MFD).

The solve is a set of kernels (compiled by numba when present, see _jit.py)
over the wheel coefficients ``wh = (J/dt [kg m^2/s], w_0 [rad/s], F_max R_t [N m], a1 [s/rad], a0 [-],
T_res [N m], l/K' [-] (0 on hard ground), 1/omega_s [s/rad], T_brake [N m], R_t [m])``, ten arrays
of four (``WH_*``; the radius is the wheel's own: the Maxxum's front and rear tyres differ); :class:`DrivelineSolver` wraps them for callers in Python.
"""
from __future__ import annotations

import math

from ._jit import array, njit
from .resistances import spin_factor
from .soil import shear_shape

__all__ = ["root_start", "root_next", "DrivelineSolver", "solve_driveline", "wheel_torque",
           "FRONT_FREE", "FRONT_OVERRUN", "FRONT_LOCKED", "FRONT_OPEN", "ROOT_TOL_RAD_S"]

WH_JDT, WH_W0, WH_FMAX_R, WH_A1, WH_A0, WH_TRES, WH_LK, WH_SPIN_RATE, WH_TBRAKE, WH_RADIUS = range(10)
WH_SIZE = 10
D_CARRIER = 0    # carrier speed c at the end of the step [rad/s]
D_TC = 1         # clutch torque T_c [N m]
D_TSUP = 2       # torque delivered to the carrier [N m]
D_OMEGA = 3      # 4 wheel spins [rad/s]
D_SHAFT = 7      # 4 shaft torques [N m]
D_FX = 11        # 4 tyre forces F_x (shear on soil) [N]
D_DRIVEN = 15    # 4 flags, 1.0 when connected to the carrier
D_TRES = 19      # 4 resistance torques applied [N m]
D_HELD = 23      # 4 flags, 1.0 when the brake holds the wheel at rest
N_OUT = 27
"""Layout and length of the solve's result array (:func:`solve_driveline`)."""
"""Indices of the wheel-coefficient arrays in ``wh`` (module docstring)."""

FRONT_FREE = 0
FRONT_OVERRUN = 1
FRONT_LOCKED = 2
FRONT_OPEN = 3

ROOT_TOL_RAD_S = 1e-10
"""Absolute part of the root tolerance [rad/s]; see :func:`root_start`."""

_MAX_ITER = 100


@njit
def root_start(x0, h):
    """Root of an increasing function by safeguarded Newton with a bracket found on the way.

    The reference's RisingRoot brackets the root around a first estimate,
    doubles the bracket until ``f`` changes sign, then bisects 44 (or 48)
    times, i.e. it ends with a bracket ``2**-44`` times the initial one
    (about 1e-10 rad/s for a bracket of 1e3 rad/s). This routine finds the
    same root with far fewer evaluations of ``f``:

    * It starts with Newton from ``x0`` and keeps the largest point with
      ``f < 0`` (lo) and the smallest with ``f > 0`` (hi) seen so far; the
      function being increasing, the root lies in [lo, hi] at every step, as
      with bisection. The first Newton steps form the bracket themselves
      (no separate bracket evaluation); only when the slope gives no
      direction does it step outward by ``h``, doubling (the reference's
      bracket expansion).
    * Once both ends are known, a Newton step that leaves the bracket, or
      does not at least halve ``|f|``'s share of the bracket
      (``|2 f| > |dx_old f'|``, rtsafe), is replaced by bisection, so the
      bracket width halves at least every two steps, as fast as bisection.
    * It stops when the step is below ``tol + 4 eps |x|`` -- before
      evaluating ``f`` at the new point, which would not change the
      returned x -- or when the bracket is that narrow.

    The root of a strictly increasing function is unique, so the result is
    the root that 44 bisections find, to the same or a smaller width. Newton
    converges quadratically on the smooth (tanh) pieces and bisection guards
    the kinks (max, the overrunning clutch): a solve takes typically 3 to 5
    evaluations instead of ~50.

    A caller evaluates the function at ``st[0]`` and passes the value and
    slope (f(x) increasing in x, slope > 0, an estimate is fine) to
    :func:`root_next` until it says done (the compiled solve has no callbacks).

    Returns the state before the first evaluation, at ``x0`` [rad/s] with the
    bracket expansion step ``h`` [rad/s]:

    (x, lo, hi, expansion step, step before last, last step, iterations):
    the function will be evaluated at x; lo and hi are the nearest points
    known below and above the root (infinite while unknown).
    """
    return (x0, -math.inf, math.inf, h, math.inf, math.inf, 0.0)


@njit
def root_next(st, fx, dfx, tol, max_iter):
    """One step of the root finder (:func:`root_start`) given f(x) and f'(x) at ``st[0]``: (done, new state).

    When done, ``st[0]`` is the root.
    """
    x, lo, hi, step, dx_old, dx, it = st
    if fx == 0.0:
        return True, st
    if fx < 0.0:
        lo = x
    else:
        hi = x
    bracketed = lo > -math.inf and hi < math.inf
    if hi - lo <= tol + 4.4e-16 * abs(x):
        return True, st
    if it >= max_iter:
        return True, ((0.5 * (lo + hi) if bracketed else x), lo, hi, step, dx_old, dx, it)
    newton = dfx > 0.0
    xn = x - fx / dfx if newton else x
    if bracketed:
        # rtsafe safeguard: bisect when Newton leaves the bracket or |f| does not fall fast enough
        if not newton or not (lo <= xn <= hi) or abs(2.0 * fx) > abs(dx_old * dfx):
            xn = 0.5 * (lo + hi)
    elif not newton:
        # one side open and the slope gives no direction: step outward, doubling
        xn = x + step if fx < 0.0 else x - step
        step *= 2.0
    dx_old = dx
    dx = xn - x
    st = (xn, lo, hi, step, dx_old, dx, it + 1.0)
    return abs(dx) <= tol + 4.4e-16 * abs(xn), st


# ----------------------------------------------------------------- wheel level
@njit(inline=True)
def tyre_shape(wh, j, w):
    """(F_x / F_max, its slope d/dw [s/rad]) of wheel ``j`` at trial spin ``w``: tanh(a1 w + a0) on hard
    ground, the soil's shear shape g(a1 w + a0) on soil."""
    a1 = wh[WH_A1][j]
    x = a1 * w + wh[WH_A0][j]
    lk = wh[WH_LK][j]
    if lk > 0.0:
        g, dg = shear_shape(x, lk)
        return g, dg * a1
    th = math.tanh(x)
    return th, a1 * (1.0 - th * th)


@njit(inline=True)
def wheel_torque(wh, j, w):
    """(T_j(w) [N m], dT_j/dw [N m s/rad]) of wheel ``j`` at trial spin ``w`` (reference "Wheel")."""
    jdt = wh[WH_JDT][j]
    tres = wh[WH_TRES][j]
    rs = wh[WH_SPIN_RATE][j]
    g, dg = tyre_shape(wh, j, w)
    tr = spin_factor(w, rs)
    fr = wh[WH_FMAX_R][j]
    return (jdt * (w - wh[WH_W0][j]) + fr * g + tres * tr,
            jdt + fr * dg + tres * (1.0 - tr * tr) * rs)


@njit(inline=True)
def brake_holds(torque_at_rest_nm, brake_nm):
    """True when a brake (or the brakes of a carrier) holds a wheel at rest: |T(0)| <= T_brake.

    ``torque_at_rest_nm`` is the shaft torque the wheels need to end the step at rest without the
    brake, ``T_j(0)`` (the resistances' tanh(0 / omega_s) is 0). A disc brake is dry friction: it
    holds exactly (static friction up to T_brake) rather than the slow creep that the tanh law
    alone leaves (the reference's tanh(omega / 0.1) applies while the wheel turns).
    """
    return brake_nm > 0.0 and -brake_nm <= torque_at_rest_nm <= brake_nm


@njit
def free_spin(wh, j):
    """Spin of wheel ``j`` without a shaft: T_j(w) = 0; 0 when its brake holds it (:func:`brake_holds`)."""
    t0, _ = wheel_torque(wh, j, 0.0)
    if brake_holds(t0, wh[WH_TBRAKE][j]):
        return 0.0
    st = root_start(wh[1][j], 0.5)
    while True:
        t, d = wheel_torque(wh, j, st[0])
        done, st = root_next(st, t, d, ROOT_TOL_RAD_S, _MAX_ITER)
        if done:
            return st[0]


@njit
def open_split(wh, c, left=2):
    """Spin of the left wheel of an open axle at carrier speed ``c``: T_l(w_l) = T_r(2c - w_l).

    ``left`` is 2 for the rear axle (wheels 2, 3), 0 for the front axle (wheels 0, 1).
    """
    w0 = wh[1]
    right = left + 1
    st = root_start(c + 0.5 * (w0[left] - w0[right]), 0.5)
    while True:
        wl = st[0]
        tl, dl = wheel_torque(wh, left, wl)
        tr, dr = wheel_torque(wh, right, 2.0 * c - wl)
        done, st = root_next(st, tl - tr, dl + dr, ROOT_TOL_RAD_S, _MAX_ITER)
        if done:
            return st[0]


@njit
def open_axle_torque(wh, c, left):
    """(T_l + T_r [N m], slope d/dc [N m s/rad]) of an open axle at carrier speed ``c`` [rad/s].

    The wheels split as :func:`open_split` finds (``left`` = 2: the rear axle, 0: the front); the
    slope is that of the two wheels in series, ``4 T_l' T_r' / (T_l' + T_r')`` (reference "Wheels in
    total", open rear; maxxum-150-dynamics.md "Axle and Differential" for the open front).
    """
    wl = open_split(wh, c, left)
    tl, dl = wheel_torque(wh, left, wl)
    tr, dr = wheel_torque(wh, left + 1, 2.0 * c - wl)
    ds = dl + dr
    return tl + tr, (4.0 * dl * dr / ds if ds > 0.0 else 0.0)


@njit(inline=True)
def _front_engaged(front, kc, tj):
    """True when a front wheel turning at ``kc`` = K c [rad/s] and needing ``tj`` [N m] there is driven: always
    when the front is locked, through the overrunning clutches when it needs torque in its direction of turning."""
    return front == FRONT_LOCKED or (kc > 0.0 and tj > 0.0) or (kc < 0.0 and tj < 0.0)


@njit
def need_torque(wh, open_rear, front, k, c):
    """(T_need(c) [N m], slope) at the rear carrier for carrier speed ``c`` (reference "Wheels in total")."""
    if open_rear:
        t, d = open_axle_torque(wh, c, 2)
    else:
        t2, d2 = wheel_torque(wh, 2, c)
        t3, d3 = wheel_torque(wh, 3, c)
        t = t2 + t3
        d = d2 + d3
    if front == FRONT_OPEN:
        tf, df = open_axle_torque(wh, k * c, 0)
        t += k * tf
        d += k * k * df
    elif front != FRONT_FREE:
        kc = k * c
        for j in range(2):
            tj, dj = wheel_torque(wh, j, kc)
            if _front_engaged(front, kc, tj):
                t += k * tj
                d += k * k * dj
    return t, d


# ----------------------------------------------------------------- carrier level
@njit
def carrier_for_torque(wh, open_rear, front, k, target, c0):
    """c with T_need(c) = ``target`` [N m] (clutch at its capacity, park pawl, or neutral: 0)."""
    st = root_start(c0, 0.5)
    while True:
        t, d = need_torque(wh, open_rear, front, k, st[0])
        done, st = root_next(st, t - target, d, ROOT_TOL_RAD_S, _MAX_ITER)
        if done:
            return st[0]


@njit
def carrier_locked_clutch(wh, open_rear, front, k, r, eta, je_dt, w_free):
    """c with T_need(c) = D(T_c(c)), T_c(c) = J_e (w_free - R c) / dt (clutch holds)."""
    st = root_start(w_free / r, 0.5)
    while True:
        c = st[0]
        t, d = need_torque(wh, open_rear, front, k, c)
        tc = je_dt * (w_free - r * c)
        if tc >= 0.0:
            dd = r * eta * tc
            slope = r * r * eta * je_dt
        else:
            dd = r * tc / eta
            slope = r * r * je_dt / eta
        done, st = root_next(st, t - dd, d + slope, ROOT_TOL_RAD_S, _MAX_ITER)
        if done:
            return st[0]


@njit(inline=True)
def delivered_nm(r, eta, tc):
    """D(T_c) [N m] at the rear carrier (reference "Engine side")."""
    return r * eta * tc if tc >= 0.0 else r * tc / eta


@njit(inline=True)
def _clutch_drives(in_gear, r, cap_fwd, cap_rev):
    """True in a gear (overall ratio ``r`` != 0) with clutch capacity (``cap_fwd``, ``cap_rev`` [N m])."""
    return in_gear and r != 0.0 and (cap_fwd > 0.0 or cap_rev > 0.0)


@njit(inline=True)
def _carrier_brake_capacity_nm(tbk, k, front_mode):
    """The brakes' total capacity at the rear carrier [N m]: the rear brakes ``tbk[2..3]``, and the front
    brakes through K when the front turns rigidly with the carrier (locked, or the open front of the MFD)."""
    rigid_front = front_mode == FRONT_LOCKED or front_mode == FRONT_OPEN
    return tbk[2] + tbk[3] + (k * (tbk[0] + tbk[1]) if rigid_front else 0.0)


@njit(inline=True)
def _clutch_at_rest_nm(in_gear, r, je_dt, omega_free, cap_fwd, cap_rev):
    """T_c [N m] of the clutch with the carrier at rest: J_e omega_free / dt within the capacities; 0 without
    drive (:func:`_clutch_drives`)."""
    tc_h = 0.0
    if _clutch_drives(in_gear, r, cap_fwd, cap_rev):
        tc_h = je_dt * omega_free
        tc_h = cap_fwd if tc_h > cap_fwd else -cap_rev if tc_h < -cap_rev else tc_h
    return tc_h


@njit(inline=True)
def _open_rear_holds(wh, sup_nm):
    """(True when each rear brake holds its wheel at rest against half of ``sup_nm`` [N m] (an open rear axle
    gives both the same torque), T_2(0) + T_3(0) [N m])."""
    tbk = wh[WH_TBRAKE]
    t2, _ = wheel_torque(wh, 2, 0.0)
    t3, _ = wheel_torque(wh, 3, 0.0)
    return brake_holds(t2 - 0.5 * sup_nm, tbk[2]) and brake_holds(t3 - 0.5 * sup_nm, tbk[3]), t2 + t3


@njit(inline=True)
def _settle_wheel(wh, j, w, driven, held, mu_hold, tsup, open_rear):
    """SettleWheels of wheel ``j`` at its spin ``w`` [rad/s]: (shaft torque (0 without a shaft) [N m], F_x [N],
    resistance torque applied [N m], 1.0 when its brake holds it at rest).

    A wheel at rest whose brake holds it (off the carrier, or on a carrier the brakes hold)
    gets from the brake what it needs: all of it off the carrier, the open axle's half of
    ``tsup`` on an open rear axle, else its share ``mu_hold`` of its brake's capacity.
    """
    t, _ = wheel_torque(wh, j, w)
    g, _ = tyre_shape(wh, j, w)
    fx = wh[WH_FMAX_R][j] / wh[WH_RADIUS][j] * g
    t_res = wh[WH_TRES][j] * spin_factor(w, wh[WH_SPIN_RATE][j])
    hold = 0.0
    tb = wh[WH_TBRAKE][j]
    if w == 0.0 and tb > 0.0:
        on_carrier = held and driven
        if on_carrier or not driven:
            # held at rest: the brake supplies what the wheel needs (its share mu_hold on the carrier)
            if not on_carrier:
                t_app = -t
            elif open_rear and j >= 2:
                t_app = 0.5 * tsup - t       # an open axle gives both wheels the same shaft torque
            else:
                t_app = mu_hold * tb
            t_res = t_app
            hold = 1.0
            t += t_app
    return (t if driven else 0.0), fx, t_res, hold


@njit
def solve_driveline(wh, out, dt_s, in_gear, park, open_rear, front_mode, ring_ratio, overall_ratio, efficiency,
                    engine_inertia, omega_free, cap_fwd, cap_rev, park_hold_nm):
    """Run the solve of one step (reference "Balance", then SettleWheels).

    Parameters
    ----------
    wh : tuple of 10 arrays of 4
        J/dt, w_0, F_max R_t, a1, a0, T_res, l/K', 1/omega_s, T_brake, R_t of each wheel (``WH_*``).
    out : array of N_OUT (27)
        Results: carrier speed c [rad/s], clutch torque T_c [N m], torque
        delivered to the carrier (D(T_c), the pawl's or 0) [N m], then per
        wheel the spin [rad/s] (3..6), shaft torque [N m] (7..10), tyre force
        F_x [N] (11..14), 1.0 when connected to the carrier (15..18), the resistance torque
        applied (T_res tanh(w / omega_s), or the brake's reaction while it holds) [N m] (19..22),
        1.0 when the brake holds the wheel at rest (23..26).
    Other parameters: see :meth:`DrivelineSolver.solve`.

    Source: polaris-ranger-dynamics.md "Driveline Solve" (Balance, After the solve); the open front
    of the Maxxum's MFD: maxxum-150-dynamics.md "Axle and Differential".
    """
    je_dt = engine_inertia / dt_s
    k = ring_ratio
    r = overall_ratio
    eta = efficiency
    # Brakes holding the carrier at rest (static friction, brake_holds): the wheels on the carrier at
    # c = 0, the supply of the clutch at c = 0 against the brakes' total capacity at the carrier.
    held = False
    mu_hold = 0.0
    tc = 0.0
    cap_h = 0.0 if park else _carrier_brake_capacity_nm(wh[WH_TBRAKE], k, front_mode)
    if cap_h > 0.0:
        tc_h = _clutch_at_rest_nm(in_gear, r, je_dt, omega_free, cap_fwd, cap_rev)
        sup_h = delivered_nm(r, eta, tc_h) if tc_h != 0.0 else 0.0
        if open_rear:
            held, t0 = _open_rear_holds(wh, sup_h)
        else:
            t0, _ = need_torque(wh, open_rear, front_mode, k, 0.0)
            held = brake_holds(t0 - sup_h, cap_h)
        if held:
            mu_hold = (sup_h - t0) / cap_h
            tc = tc_h
    # Balance: the carrier speed of the four cases
    c0 = 0.5 * (wh[WH_W0][2] + wh[WH_W0][3])
    if held:
        c = 0.0
        tsup = delivered_nm(r, eta, tc) if tc != 0.0 else 0.0
    elif park:
        t0, _ = need_torque(wh, open_rear, front_mode, k, 0.0)
        if -park_hold_nm <= t0 <= park_hold_nm:
            c = 0.0
            tsup = t0
        else:
            tsup = park_hold_nm if t0 > 0.0 else -park_hold_nm
            c = carrier_for_torque(wh, open_rear, front_mode, k, tsup, c0)
    elif _clutch_drives(in_gear, r, cap_fwd, cap_rev):
        c = carrier_locked_clutch(wh, open_rear, front_mode, k, r, eta, je_dt, omega_free)
        tc = je_dt * (omega_free - r * c)
        if tc > cap_fwd or tc < -cap_rev:
            tc = cap_fwd if tc > cap_fwd else -cap_rev
            c = carrier_for_torque(wh, open_rear, front_mode, k, delivered_nm(r, eta, tc), c0)
        tsup = delivered_nm(r, eta, tc)
    else:
        c = carrier_for_torque(wh, open_rear, front_mode, k, 0.0, c0)
        tsup = 0.0
    out[0] = c
    out[1] = tc
    out[2] = tsup
    # SettleWheels: spins, shaft torques and tyre forces at the solved carrier speed.
    if held:
        out[5] = 0.0
        out[6] = 0.0
    elif open_rear:
        w2 = open_split(wh, c, 2)
        out[5] = w2
        out[6] = 2.0 * c - w2
    else:
        out[5] = c
        out[6] = c
    out[17] = 1.0
    out[18] = 1.0
    kc = k * c
    if front_mode == FRONT_OPEN:
        w0f = 0.0 if held else open_split(wh, kc, 0)
        out[3] = w0f
        out[4] = 2.0 * kc - w0f
        out[15] = 1.0
        out[16] = 1.0
    else:
        for j in range(2):
            engaged = False
            if front_mode != FRONT_FREE:
                tj, _ = wheel_torque(wh, j, kc)
                engaged = _front_engaged(front_mode, kc, tj)
            out[15 + j] = 1.0 if engaged else 0.0
            out[3 + j] = kc if engaged else free_spin(wh, j)
    for j in range(4):
        out[7 + j], out[11 + j], out[19 + j], out[23 + j] = _settle_wheel(wh, j, out[3 + j], out[15 + j] != 0.0,
                                                                          held, mu_hold, tsup, open_rear)


class DrivelineSolver:
    """Solve of one step for callers in Python: wheel spins, carrier speed, clutch torque.

    Per-wheel coefficients are set for each step (:meth:`set_wheel`), then
    :meth:`solve` runs the reference's four cases (:func:`solve_driveline`).

    Attributes (after :meth:`solve`)
    --------------------------------
    carrier_rad_s : float
        c at the end of the step [rad/s].
    clutch_torque_nm : float
        T_c [N m] (positive when the engine drives).
    carrier_torque_nm : float
        Torque delivered to the rear carrier: D(T_c), the pawl torque, or 0 [N m].
    omega : list of 4 float
        Wheel spins at the end of the step [rad/s].
    shaft_torque_nm : list of 4 float
        T_j(omega_j) [N m] (0 for a wheel without a shaft).
    fx_n : list of 4 float
        Tyre force F_x at omega_j [N].
    driven : list of 4 bool
        Wheel connected to the carrier in this step.
    """

    def __init__(self, radius_m) -> None:
        radii = tuple(radius_m) if isinstance(radius_m, (tuple, list)) else (radius_m,) * 4
        if len(radii) != 4:
            raise ValueError(f"radius_m={radius_m!r}: one radius or four (FL, FR, RL, RR)")
        self.radius_m = radii
        self.wh = tuple(array([0.0] * 4) for _ in range(WH_SIZE))
        (self.jdt, self.w0, self.munr, self.a1, self.a0, self.tres, self.lk, self.spin_rate, self.tbrake,
         self.radius) = self.wh
        for j in range(4):
            self.radius[j] = float(radii[j])
        self.out = array([0.0] * N_OUT)
        self._set_results()

    def set_wheel(self, j: int, inertia_kg_m2: float, dt_s: float, omega0: float, mu_n: float, a1: float,
                  a0: float, t_res_nm: float, l_over_k: float = 0.0, spin_scale_rad_s: float = 0.1,
                  brake_nm: float = 0.0) -> None:
        """Coefficients of wheel ``j`` for this step (see :func:`wheel_torque`).

        ``mu_n`` is the force limit [N] (mu N on hard ground, F_max on soil); ``l_over_k`` > 0 selects
        the soil's shear shape; ``spin_scale_rad_s`` is omega_s of the resistances' tanh; ``brake_nm``
        the part of ``t_res_nm`` that is a brake (it holds a wheel at rest, :func:`brake_holds`).
        """
        self.jdt[j] = inertia_kg_m2 / dt_s
        self.w0[j] = omega0
        self.munr[j] = mu_n * self.radius_m[j]
        self.a1[j] = a1
        self.a0[j] = a0
        self.tres[j] = t_res_nm
        self.lk[j] = l_over_k
        self.spin_rate[j] = 1.0 / spin_scale_rad_s
        self.tbrake[j] = brake_nm

    def wheel_torque(self, j: int, w: float) -> tuple:
        """(T_j(w) [N m], dT_j/dw [N m s/rad]) of wheel ``j`` at trial spin ``w``."""
        return wheel_torque(self.wh, j, w)

    def free_spin(self, j: int) -> float:
        """Spin of wheel ``j`` without a shaft: T_j(w) = 0."""
        return free_spin(self.wh, j)

    def solve(self, dt_s: float, in_gear: bool, park: bool, open_rear: bool, front_mode: int,
              ring_ratio: float, overall_ratio: float, efficiency: float, engine_inertia: float,
              omega_free: float, cap_fwd: float, cap_rev: float, park_hold_nm: float) -> None:
        """Run the solve for this step; results in the attributes.

        Parameters
        ----------
        dt_s : float
            Step [s].
        in_gear, park : bool
            Lever in R/H/L; lever in P.
        open_rear : bool
            Open rear differential (Turf).
        front_mode : int
            FRONT_FREE, FRONT_OVERRUN or FRONT_LOCKED.
        ring_ratio : float
            K [-].
        overall_ratio : float
            R = d r i_r [-].
        efficiency : float
            eta = clamp(eta_belt eta_gear, 0.05, 1).
        engine_inertia : float
            J_e [kg m^2].
        omega_free : float
            Free engine speed [rad/s].
        cap_fwd, cap_rev : float
            C_fwd, C_rev [N m].
        park_hold_nm : float
            T_park [N m].
        """
        solve_driveline(self.wh, self.out, float(dt_s), bool(in_gear), bool(park), bool(open_rear),
                        int(front_mode), float(ring_ratio), float(overall_ratio), float(efficiency),
                        float(engine_inertia), float(omega_free), float(cap_fwd), float(cap_rev),
                        float(park_hold_nm))
        self._set_results()

    def _set_results(self) -> None:
        o = list(self.out)
        self.carrier_rad_s, self.clutch_torque_nm, self.carrier_torque_nm = o[0], o[1], o[2]
        self.omega = o[3:7]
        self.shaft_torque_nm = o[7:11]
        self.fx_n = o[11:15]
        self.driven = [v != 0.0 for v in o[15:19]]
