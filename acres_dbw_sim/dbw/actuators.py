"""Small reusable actuator pieces: dead time, first-order lag (on the shared filters of
:mod:`acres_dbw_sim.model.filters`), rate limits.

Every drive-by-wire actuator of the Polaris is modelled as dead time +
first-order lag + rate limit (gaps.md "Drive-by-Wire and ULC"). The pieces here
are sized once at construction; their ``step`` methods and the free functions
only do float arithmetic (STYLE.md "The hot loop").

Units are those of the signal (bar, percent, deg); times are in seconds.
"""

from __future__ import annotations

import math

from ..model._jit import njit
from ..model.filters import MIN_TAU_S, delay_push, delay_steps, lag_factor, lag_toward, python_form

__all__ = [
    "MIN_TAU_S", "DeadTime", "FirstOrderLag", "clamp", "rate_limit",
    "rate_accel_limit", "quantize",
]

# The shared filters' Python form: these objects step from Python (model/filters.py, python_form).
#: Capacity of a dead-time line in the DBW's record [cells]: the longest dead time (1 s) at the shortest
#: step (1 ms). A line uses its first ``delay_steps`` cells (``delay_push``'s ``n``).
DELAY_CELLS = 1001

_delay_push = python_form(delay_push)
_lag_factor = python_form(lag_factor)
_lag_toward = python_form(lag_toward)


@njit
def clamp(x: float, lo: float, hi: float) -> float:
    """Clamp ``x`` to ``[lo, hi]`` (``lo <= hi``); a NaN ``x`` returns ``lo``.

    Parameters
    ----------
    x, lo, hi : float
        Value and bounds, any unit.

    Returns
    -------
    float
        ``min(max(x, lo), hi)``, never NaN when the bounds are not NaN.
    """
    if x != x:  # NaN never reaches the model
        return lo
    return hi if x > hi else lo if x < lo else x


def quantize(x: float, step: float) -> float:
    """Round ``x`` to the nearest multiple of ``step`` (CAN encoding, §4.5).

    Parameters
    ----------
    x : float
        Finite value, any unit.
    step : float
        Quantum (> 0), same unit.

    Returns
    -------
    float
        ``round(x / step) * step`` (round half to even, as Python's ``round``).
    """
    return round(x / step) * step


def rate_limit(previous: float, target: float, rate_up: float, rate_down: float,
               dt_s: float) -> float:
    """Move ``previous`` towards ``target`` by at most the given rates.

    ``y = clamp(target, previous - rate_down dt, previous + rate_up dt)``.

    Parameters
    ----------
    previous : float
        Output of the previous step [unit].
    target : float
        Set-point [unit].
    rate_up, rate_down : float
        Largest rise and fall rate [unit/s], positive; ``math.inf`` = unlimited.
    dt_s : float
        Step [s].

    Returns
    -------
    float
        The rate-limited value [unit].
    """
    hi = previous + rate_up * dt_s
    lo = previous - rate_down * dt_s
    if target > hi:
        return hi
    if target < lo:
        return lo
    return target


def rate_accel_limit(x: float, v: float, target: float, rate_max: float,
                     accel_max: float, dt_s: float) -> tuple[float, float]:
    """Shape a reference with a rate and an acceleration limit (second order).

    The reference ``x`` moves towards ``target`` with a velocity ``v`` bounded
    by ``rate_max`` and changed by at most ``accel_max dt`` per step; it brakes
    in time to stop at the target (desired speed = the discrete stopping
    speed ``a dt (sqrt(1/4 + 2 |e| / (a dt^2)) - 1/2)``, the continuous
    ``sqrt(2 a |e|)`` for small dt) and never overshoots it (speed at most
    ``|e| / dt``). Used for the steering
    reference (gaps.md: rate limit ``cmd_rate``, acceleration limit
    ``cmd_accel``).

    Parameters
    ----------
    x : float
        Present reference [deg].
    v : float
        Present reference rate [deg/s].
    target : float
        Set-point [deg].
    rate_max : float
        Rate limit [deg/s] > 0, ``math.inf`` = unlimited.
    accel_max : float
        Acceleration limit [deg/s^2] > 0, ``math.inf`` = unlimited.
    dt_s : float
        Step [s] > 0.

    Returns
    -------
    tuple of float
        New reference [deg] and its rate [deg/s].
    """
    e = target - x
    mag = abs(e)
    if mag == 0.0 and v == 0.0:
        return x, 0.0
    if accel_max == math.inf:
        v_stop = math.inf
    else:
        # discrete stopping speed: n steps of decreasing speed a dt cover |e|
        adt = accel_max * dt_s
        n = -0.5 + math.sqrt(0.25 + 2.0 * mag / (adt * dt_s))
        v_stop = adt * n
    v_des = math.copysign(min(rate_max, v_stop, mag / dt_s), e)
    dv = accel_max * dt_s
    v_new = clamp(v_des, v - dv, v + dv)
    x_new = x + v_new * dt_s
    # never step across the target
    if (target - x_new) * e < 0.0:
        x_new = target
        v_new = (x_new - x) / dt_s
    return x_new, v_new


class DeadTime:
    """Pure transport delay: a ring buffer of ``round(delay_s / dt_s)`` cells sized once
    (:func:`acres_dbw_sim.model.filters.delay_steps`, rounding ``nearest``), pushed by
    :func:`~acres_dbw_sim.model.filters.delay_push`.

    ``step(u)`` returns the input of ``n`` steps ago (``u`` itself if n = 0).

    Parameters
    ----------
    delay_s : float
        Dead time [s] >= 0.
    dt_s : float
        Physics step [s] > 0.
    initial : float, optional
        Value that fills the buffer [unit].

    Raises
    ------
    ValueError
        If ``delay_s`` < 0, ``dt_s`` <= 0 or either is not finite.
    """

    __slots__ = ("_buf", "_n", "_i")

    def __init__(self, delay_s: float, dt_s: float, initial: float = 0.0) -> None:
        self._n = delay_steps(delay_s, dt_s, "nearest")
        self._buf = [float(initial)] * self._n
        self._i = 0

    @property
    def steps(self) -> int:
        """Delay in physics steps."""
        return self._n

    def reset(self, value: float) -> None:
        """Fill the whole buffer with ``value`` [unit]."""
        for k in range(self._n):
            self._buf[k] = value

    def step(self, u: float) -> float:
        """Push ``u`` [unit] and return the value delayed by ``steps`` steps."""
        out, self._i = _delay_push(self._buf, self._i, u)
        return out


class FirstOrderLag:
    """First-order lag ``y <- u + (y - u) exp(-dt / max(1e-4, tau))``
    (:func:`acres_dbw_sim.model.filters.lag_toward` with the factor
    :func:`~acres_dbw_sim.model.filters.lag_factor` computed once at construction).

    The Polaris page's ``lag`` function (Physics Step): exact for an input held
    over the step.

    Parameters
    ----------
    tau_s : float
        Time constant [s] >= 0 (floored at ``MIN_TAU_S``).
    dt_s : float
        Physics step [s] > 0.
    initial : float, optional
        Initial output [unit].

    Raises
    ------
    ValueError
        If ``tau_s`` < 0 or ``dt_s`` <= 0 or either is not finite.
    """

    __slots__ = ("y", "_a")

    def __init__(self, tau_s: float, dt_s: float, initial: float = 0.0) -> None:
        if not (math.isfinite(tau_s) and tau_s >= 0.0):
            raise ValueError(f"tau_s={tau_s!r} must be finite and >= 0")
        if not (math.isfinite(dt_s) and dt_s > 0.0):
            raise ValueError(f"dt_s={dt_s!r} must be finite and > 0")
        self._a = _lag_factor(tau_s, dt_s)
        self.y = float(initial)

    def step(self, u: float) -> float:
        """Advance one step towards ``u`` [unit]; return the new output."""
        self.y = _lag_toward(self.y, u, self._a)
        return self.y
