"""Driveline solve (reference "Driveline Solve", "Drive Modes").

Backward Euler on the rear-carrier speed c at the end of the step. Wheel j
needs the shaft torque

    T_j(w) = J_j (w - w_j) / dt + F_x,j(w) R_t + (T_roll,j + T_brake,j) tanh(w / 0.1)

(increasing in w). With the hard-surface tyre of tyre.py, ``F_x = mu N tanh(a1 w + a0)``.
Rear axle: locked ``T_rear(c) = T_2(c) + T_3(c)``; open: w_2 from
``T_2(w_2) = T_3(2c - w_2)``. Engaged front wheels turn at K c and add
``K T_j(K c)``. The clutch torque for a locked clutch is
``T_c(c) = J_e (w_free - R c) / dt``; the carrier receives D(T_c) = R eta T_c
(T_c >= 0) or R T_c / eta. Cases: gear with capacity ``T_need(c) = D(T_c(c))``,
clamped to the capacities when they are exceeded; park ``c = 0`` while
``|T_need(0)| <= T_park``; neutral or no capacity ``T_need(c) = 0``.

Wheels: 0 FL, 1 FR, 2 RL, 3 RR. Front modes: 0 not driven (Turf, 2WD),
1 overrunning clutches (AWD), 2 locked both ways (park + AWD, ADC).
"""
from __future__ import annotations

import math

__all__ = ["rising_root", "DrivelineSolver", "FRONT_FREE", "FRONT_OVERRUN", "FRONT_LOCKED",
           "ROOT_TOL_RAD_S"]

FRONT_FREE = 0
FRONT_OVERRUN = 1
FRONT_LOCKED = 2

ROOT_TOL_RAD_S = 1e-10
"""Absolute part of the root tolerance [rad/s]; see :func:`rising_root`."""

_tanh = math.tanh


def rising_root(f, x0: float, h: float, tol: float = ROOT_TOL_RAD_S, max_iter: int = 100) -> float:
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

    Parameters
    ----------
    f : callable
        ``f(x) -> (value, slope)``; value increasing in x, slope > 0 (an
        estimate is fine).
    x0 : float
        First estimate.
    h : float
        Initial step of the bracket expansion (> 0).
    tol : float
        Absolute tolerance on x.
    max_iter : int

    Returns
    -------
    float
        x with f(x) ~ 0 (or the bracket end nearest to a sign change if f jumps).
    """
    return _rising_root_py(_call, f, x0, h, tol, max_iter)


def _call(f, x):
    return f(x)


def rising_root_ctx(f, ctx, x0, h, tol, max_iter):
    """:func:`rising_root` of ``x -> f(ctx, x)`` (the form the compiled solve uses)."""
    x = x0
    fx, dfx = f(ctx, x)
    if fx == 0.0:
        return x
    inf = math.inf
    lo, hi = -inf, inf
    if fx < 0.0:
        lo = x
    else:
        hi = x
    step = h                         # outward expansion while one side is open
    dx_old = inf
    dx = inf
    for _ in range(max_iter):
        newton = dfx > 0.0
        xn = x - fx / dfx if newton else x
        if lo > -inf and hi < inf:
            # bracketed: rtsafe safeguard
            if not newton or not (lo <= xn <= hi) or abs(2.0 * fx) > abs(dx_old * dfx):
                xn = 0.5 * (lo + hi)
        else:
            # one side open: Newton goes towards it (an overshoot closes the bracket); a step
            # outward, doubling, only when the slope gives no direction
            if not newton:
                xn = x + step if fx < 0.0 else x - step
                step *= 2.0
        dx_old = dx
        dx = xn - x
        x = xn
        if abs(dx) <= tol + 4.4e-16 * abs(x):
            return x
        fx, dfx = f(ctx, x)
        if fx == 0.0:
            return x
        if fx < 0.0:
            lo = x
        else:
            hi = x
        if hi - lo <= tol + 4.4e-16 * abs(x):
            return x
    if lo > -inf and hi < inf:
        return 0.5 * (lo + hi)
    return x


_rising_root_py = rising_root_ctx


class DrivelineSolver:
    """Solve of one step: wheel spins, carrier speed, clutch torque.

    Preallocated per-wheel coefficients are set by the caller for each step
    (:meth:`set_wheel`), then :meth:`solve` runs the reference's four cases.

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
    evaluations : int
        Number of wheel-torque evaluations (for the benchmark).
    """

    def __init__(self, radius_m: float) -> None:
        self.radius_m = radius_m
        self.jdt = [0.0] * 4      # J_j / dt
        self.w0 = [0.0] * 4       # spin at the start [rad/s]
        self.munr = [0.0] * 4     # mu N R_t [N m]
        self.a1 = [0.0] * 4       # slip coefficients k_s s = a1 w + a0
        self.a0 = [0.0] * 4
        self.tres = [0.0] * 4     # T_roll + T_brake [N m]
        self.omega = [0.0] * 4
        self.shaft_torque_nm = [0.0] * 4
        self.fx_n = [0.0] * 4
        self.driven = [False] * 4
        self.carrier_rad_s = 0.0
        self.clutch_torque_nm = 0.0
        self.carrier_torque_nm = 0.0
        self.evaluations = 0
        # per-solve configuration
        self._open = False
        self._front = FRONT_FREE
        self._k = 1.0
        self._c_target = 0.0
        self._r = 0.0
        self._eta = 1.0
        self._je_dt = 0.0
        self._w_free = 0.0
        self._j = 0
        self._c = 0.0

    def set_wheel(self, j: int, inertia_kg_m2: float, dt_s: float, omega0: float, mu_n: float, a1: float,
                  a0: float, t_res_nm: float) -> None:
        """Coefficients of wheel ``j`` for this step (see :func:`wheel_torque`)."""
        self.jdt[j] = inertia_kg_m2 / dt_s
        self.w0[j] = omega0
        self.munr[j] = mu_n * self.radius_m
        self.a1[j] = a1
        self.a0[j] = a0
        self.tres[j] = t_res_nm

    # ----------------------------------------------------------------- wheel level
    def wheel_torque(self, j: int, w: float) -> tuple:
        """(T_j(w) [N m], dT_j/dw [N m s/rad]) of wheel ``j`` at trial spin ``w``."""
        self.evaluations += 1
        a1 = self.a1[j]
        th = _tanh(a1 * w + self.a0[j])
        tr = _tanh(10.0 * w)
        munr = self.munr[j]
        tres = self.tres[j]
        jdt = self.jdt[j]
        return (jdt * (w - self.w0[j]) + munr * th + tres * tr,
                jdt + munr * a1 * (1.0 - th * th) + 10.0 * tres * (1.0 - tr * tr))

    def _free_fn(self, w: float) -> tuple:
        return self.wheel_torque(self._j, w)

    def free_spin(self, j: int) -> float:
        """Spin of wheel ``j`` without a shaft: T_j(w) = 0."""
        self._j = j
        return rising_root(self._free_fn, self.w0[j], 0.5)

    def _split_fn(self, w2: float) -> tuple:
        t2, d2 = self.wheel_torque(2, w2)
        t3, d3 = self.wheel_torque(3, 2.0 * self._c - w2)
        return t2 - t3, d2 + d3

    def open_split(self, c: float) -> float:
        """w_2 of an open rear axle at carrier speed ``c``: T_2(w_2) = T_3(2c - w_2)."""
        self._c = c
        return rising_root(self._split_fn, c + 0.5 * (self.w0[2] - self.w0[3]), 0.5)

    def need_torque(self, c: float) -> tuple:
        """(T_need(c) [N m], slope) at the rear carrier for carrier speed ``c``."""
        if self._open:
            w2 = self.open_split(c)
            t2, d2 = self.wheel_torque(2, w2)
            t3, d3 = self.wheel_torque(3, 2.0 * c - w2)
            t = t2 + t3
            ds = d2 + d3
            d = 4.0 * d2 * d3 / ds if ds > 0.0 else 0.0
        else:
            t2, d2 = self.wheel_torque(2, c)
            t3, d3 = self.wheel_torque(3, c)
            t = t2 + t3
            d = d2 + d3
        front = self._front
        if front != FRONT_FREE:
            k = self._k
            kc = k * c
            for j in (0, 1):
                tj, dj = self.wheel_torque(j, kc)
                if front == FRONT_LOCKED or (kc > 0.0 and tj > 0.0) or (kc < 0.0 and tj < 0.0):
                    t += k * tj
                    d += k * k * dj
        return t, d

    # ----------------------------------------------------------------- carrier level
    def _target_fn(self, c: float) -> tuple:
        t, d = self.need_torque(c)
        return t - self._c_target, d

    def _locked_fn(self, c: float) -> tuple:
        t, d = self.need_torque(c)
        r = self._r
        tc = self._je_dt * (self._w_free - r * c)
        if tc >= 0.0:
            dd = r * self._eta * tc
            slope = r * r * self._eta * self._je_dt
        else:
            dd = r * tc / self._eta
            slope = r * r * self._je_dt / self._eta
        return t - dd, d + slope

    def delivered_nm(self, tc: float) -> float:
        """D(T_c) [N m] at the rear carrier."""
        return self._r * self._eta * tc if tc >= 0.0 else self._r * tc / self._eta

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
        self.evaluations = 0
        self._open = open_rear
        self._front = front_mode
        self._k = ring_ratio
        self._r = overall_ratio
        self._eta = efficiency
        self._je_dt = engine_inertia / dt_s
        self._w_free = omega_free
        c0 = 0.5 * (self.w0[2] + self.w0[3])
        tc = 0.0
        if park:
            t0, _ = self.need_torque(0.0)
            if -park_hold_nm <= t0 <= park_hold_nm:
                c = 0.0
                tsup = t0
            else:
                tsup = park_hold_nm if t0 > 0.0 else -park_hold_nm
                self._c_target = tsup
                c = rising_root(self._target_fn, c0, 0.5)
        elif in_gear and overall_ratio != 0.0 and (cap_fwd > 0.0 or cap_rev > 0.0):
            c = rising_root(self._locked_fn, omega_free / overall_ratio, 0.5)
            tc = self._je_dt * (omega_free - overall_ratio * c)
            if tc > cap_fwd or tc < -cap_rev:
                tc = cap_fwd if tc > cap_fwd else -cap_rev
                self._c_target = self.delivered_nm(tc)
                c = rising_root(self._target_fn, c0, 0.5)
            tsup = self.delivered_nm(tc)
        else:
            self._c_target = 0.0
            c = rising_root(self._target_fn, c0, 0.5)
            tsup = 0.0
        self.carrier_rad_s = c
        self.clutch_torque_nm = tc
        self.carrier_torque_nm = tsup
        self._settle(c)

    def _settle(self, c: float) -> None:
        """Wheel spins, shaft torques and tyre forces at the solved carrier speed."""
        om = self.omega
        if self._open:
            w2 = self.open_split(c)
            om[2] = w2
            om[3] = 2.0 * c - w2
        else:
            om[2] = c
            om[3] = c
        self.driven[2] = True
        self.driven[3] = True
        kc = self._k * c
        for j in (0, 1):
            engaged = False
            if self._front != FRONT_FREE:
                tj, _ = self.wheel_torque(j, kc)
                engaged = self._front == FRONT_LOCKED or (kc > 0.0 and tj > 0.0) or (kc < 0.0 and tj < 0.0)
            self.driven[j] = engaged
            om[j] = kc if engaged else self.free_spin(j)
        for j in range(4):
            w = om[j]
            t, _ = self.wheel_torque(j, w)
            self.shaft_torque_nm[j] = t if self.driven[j] else 0.0
            self.fx_n[j] = self.munr[j] / self.radius_m * _tanh(self.a1[j] * w + self.a0[j])
