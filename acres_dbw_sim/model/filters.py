"""Signal filters shared by the vehicles' models and the DBW emulation: first-order lag, dead time, rate limit.

Every actuator of the references is a dead time, a first-order lag and a rate
limit (polaris-ranger-dynamics.md, Physics Step: ``lag``; maxxum-150-dynamics.md,
Steering: the delay line; gaps.md, "Drive-by-Wire and ULC"). Each is written
once here as a compiled scalar function over floats and 1-D buffers, so that
the step kernels call it (numba inlines it) and the DBW's Python objects call
the same function (its Python form where a call into compiled code from Python
would cost more than the arithmetic).

Units are those of the signal; times are in seconds.
"""
from __future__ import annotations

import math

from ._jit import JIT, njit

__all__ = ["MIN_TAU_S", "lag_factor", "lag_toward", "lag", "delay_steps", "delay_push", "python_form"]

#: Smallest time constant of a lag [s]: the reference's ``lag`` uses max(1e-4, tau).
MIN_TAU_S = 1e-4


@njit
def lag_factor(tau_s: float, dt_s: float) -> float:
    """exp(-dt / max(1e-4, tau)) [-]: the share of the old output a lag keeps over one step.

    Parameters
    ----------
    tau_s : float
        Time constant [s] (>= 0; floored at :data:`MIN_TAU_S`).
    dt_s : float
        Step [s] > 0.
    """
    return math.exp(-dt_s / (tau_s if tau_s > MIN_TAU_S else MIN_TAU_S))


@njit
def lag_toward(y: float, target: float, factor: float) -> float:
    """One step of a first-order lag with its factor: ``target + (y - target) factor`` [unit of y].

    Exact for a target held over the step (polaris-ranger-dynamics.md, Physics Step, ``lag``).
    """
    return target + (y - target) * factor


@njit
def lag(x: float, target: float, tau_s: float, dt_s: float) -> float:
    """First-order lag (polaris-ranger-dynamics.md, Physics Step: AcresSim::Lag):
    ``x* + (x - x*) exp(-dt / max(1e-4, tau))`` [unit of x]."""
    return lag_toward(x, target, lag_factor(tau_s, dt_s))


def delay_steps(delay_s: float, dt_s: float, rounding: str = "nearest") -> int:
    """Length of a dead-time line [steps].

    Parameters
    ----------
    delay_s : float
        Dead time [s] >= 0.
    dt_s : float
        Step [s] > 0.
    rounding : str
        ``nearest``: ``round(tau_d / dt)`` (the DBW's actuators, half to even);
        ``ceil``: ``ceil(tau_d / dt)``, the newest output at least tau_d old
        (maxxum-150-dynamics.md, Steering), 0 for no delay.

    Raises
    ------
    ValueError
        For a negative or non-finite ``delay_s``, a ``dt_s`` that is not finite and > 0, or an
        unknown ``rounding``.
    """
    if not (math.isfinite(delay_s) and delay_s >= 0.0):
        raise ValueError(f"delay_s={delay_s!r} must be finite and >= 0")
    if not (math.isfinite(dt_s) and dt_s > 0.0):
        raise ValueError(f"dt_s={dt_s!r} must be finite and > 0")
    if rounding == "nearest":
        return int(round(delay_s / dt_s))
    if rounding == "ceil":
        return int(math.ceil(delay_s / dt_s - 1e-9)) if delay_s > 0.0 else 0
    raise ValueError(f"rounding={rounding!r}: must be 'nearest' or 'ceil'")


@njit
def delay_push(buffer, head: int, value: float, n: int = -1) -> tuple:
    """Push ``value`` into a dead-time ring buffer and read the value ``len(buffer)`` steps old.

    Parameters
    ----------
    buffer : 1-D float array (or list) of :func:`delay_steps` cells, modified in place
        Filled with the initial value (the output until the delay has passed).
    head : int
        Index of the oldest cell.
    value : float
        This step's input [unit].
    n : int, optional
        Cells in use: the first ``n`` of ``buffer`` (a line of fixed capacity in a record, sized by the
        delay); default (-1) all of them.

    Returns
    -------
    tuple
        (the delayed value [unit], the new head); with an empty buffer (no delay) ``value`` itself.
    """
    if n < 0:
        n = len(buffer)
    if n == 0:
        return value, head
    out = buffer[head]
    buffer[head] = value
    head += 1
    return out, (0 if head == n else head)


def python_form(fn):
    """The Python function behind a compiled one (``fn.py_func``; ``fn`` itself when not compiled).

    A Python caller (the DBW's actuator objects) calls this form: a call from Python into
    compiled code costs more than a filter's few operations, and the source is the same.
    """
    return fn.py_func if JIT else fn
