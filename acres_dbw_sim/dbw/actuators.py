"""Small reusable actuator pieces: the sizes of dead-time lines and lags (on the shared filters of
:mod:`acres_dbw_sim.model.filters`), rate limits, clamping and quantizing.

Every drive-by-wire actuator of the Polaris is modelled as dead time +
first-order lag + rate limit (gaps.md "Drive-by-Wire and ULC"). The lines and lags
are sized once at construction; the free functions only do float arithmetic
(STYLE.md "The hot loop").

The scalar functions (``clamp``, ``quantize``, ``rate_limit``, ``rate_accel_limit``,
``delay_fill``) are compiled (:func:`acres_dbw_sim.model._jit.njit`): the DBW's compiled step
functions over its state record (:mod:`acres_dbw_sim.dbw.record`) call them, and Python calls
them too. A dead time or a lag inside the record is a buffer field of :data:`DELAY_CELLS` cells
(:func:`delay_line_steps` of them in use, filled by :func:`delay_fill`, pushed by
:func:`~acres_dbw_sim.model.filters.delay_push`) and a lag factor field
(:func:`lag_line_factor`, stepped by :func:`~acres_dbw_sim.model.filters.lag_toward`).

Units are those of the signal (bar, percent, deg); times are in seconds.
"""

from __future__ import annotations

import math

from ..model._jit import njit
from ..model.filters import MIN_TAU_S, delay_steps, lag_factor, python_form

__all__ = [
    "MIN_TAU_S", "DELAY_CELLS", "clamp", "rate_limit",
    "rate_accel_limit", "quantize", "delay_fill", "delay_line_steps",
]

#: Capacity of a dead-time line in the DBW's record [cells]: the longest dead time (1 s) at the shortest
#: step (1 ms). A line uses its first ``delay_steps`` cells (``delay_push``'s ``n``).
DELAY_CELLS = 1001

_lag_factor = python_form(lag_factor)   # at construction, from Python (model/filters.py, python_form)


def delay_line_steps(delay_s: float, dt_s: float) -> int:
    """Cells in use of a dead-time line of the record [steps]: ``round(delay_s / dt_s)``
    (:func:`~acres_dbw_sim.model.filters.delay_steps`, rounding ``nearest``, half to even).

    Raises
    ------
    ValueError
        If ``delay_s`` < 0, ``dt_s`` <= 0, either is not finite, or the line needs more than
        :data:`DELAY_CELLS` cells.
    """
    n = delay_steps(delay_s, dt_s, "nearest")
    if n > DELAY_CELLS:
        raise ValueError(f"delay_s={delay_s!r} at dt_s={dt_s!r}: {n} cells, more than the {DELAY_CELLS} of a "
                         "dead-time line")
    return n


def lag_line_factor(tau_s: float, dt_s: float) -> float:
    """The factor ``exp(-dt / max(1e-4, tau))`` [-] of a lag of the record (the
    Python form of :func:`~acres_dbw_sim.model.filters.lag_factor`, computed once at construction).

    Raises
    ------
    ValueError
        If ``tau_s`` < 0 or ``dt_s`` <= 0 or either is not finite.
    """
    if not (math.isfinite(tau_s) and tau_s >= 0.0):
        raise ValueError(f"tau_s={tau_s!r} must be finite and >= 0")
    if not (math.isfinite(dt_s) and dt_s > 0.0):
        raise ValueError(f"dt_s={dt_s!r} must be finite and > 0")
    return _lag_factor(tau_s, dt_s)


@njit
def delay_fill(buffer, n: int, value: float) -> None:
    """Fill the first ``n`` cells of a dead-time line ``buffer`` (a record's array field) with ``value`` [unit]
    (the line's output until the delay has passed)."""
    for k in range(n):
        buffer[k] = value


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


@njit
def quantize(x: float, step: float) -> float:
    """Round ``x`` to the nearest multiple of ``step`` (CAN encoding, §4.5).

    Parameters
    ----------
    x : float
        Finite value, any unit, with ``|x / step|`` < 2^63 (compiled, a NaN or larger value gives an
        undefined result where Python's ``round`` raised: clamp first).
    step : float
        Quantum (> 0), same unit.

    Returns
    -------
    float
        ``round(x / step) * step`` (round half to even, as Python's ``round``).
    """
    return round(x / step) * step


@njit
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


@njit
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
