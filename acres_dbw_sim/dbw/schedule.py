"""When each report goes out: the CAN periods of the real vehicle, by time.

The real node publishes a report each time its CAN frame arrives, so a
topic's rate is the frame's period (dbw-interface.md §1.4, §4.4), whatever
the physics rate of this simulation. ``CanSchedule`` decides, at the end of a
physics step, whether a report is due:

* **periodic**: due when the simulation time has crossed a multiple of the
  period since the last decision (``floor(t / period)`` changed), so the mean
  period equals the real one at any ``step_hz`` (a 10 ms topic at 120 Hz goes
  out on 5 of 6 steps, not on every step; a 20 ms topic at 100 Hz on every
  second step). A period shorter than the step gives one report per step.
  Decisions may skip steps (the node steps in batches): a crossing since the
  last decision counts once.
* **early on a change** (``GearReport``, ``SystemReport``; §1.4: "down to
  20 ms on change", the system report 10 ms in 2.3.x): also due when the
  report's content changed since it was last sent and at least the minimum
  period has passed since then (a change inside the minimum period goes out
  when it has passed). ``DbwReports.gear_report_changes`` and
  ``system_report_changes`` count the changes (system.py).

The node (``report_rates: vehicle``) and the offline replay both build their
schedules with ``report_schedule``: one implementation for both.
"""

from __future__ import annotations

import math

__all__ = ["CanSchedule", "report_schedule", "ON_CHANGE"]

#: DbwReports attribute -> (minimum period on a change [s], change-counter attribute) (§1.4).
ON_CHANGE = {
    "gear_report": (0.020, "gear_report_changes"),
    "system_report": (0.010, "system_report_changes"),
}


class CanSchedule:
    """Publication schedule of one topic (module docstring).

    Parameters
    ----------
    period_s : float
        CAN period [s]; 0 = every step.
    dt_s : float
        Physics step [s], > 0.
    min_period_s : float, optional
        Minimum period of an early publication on a change [s] (``ON_CHANGE``).
    change_attr : str, optional
        Attribute of the report container (``DbwReports``) that counts the
        report's changes; needed with ``min_period_s``.

    Raises
    ------
    ValueError
        If ``dt_s`` is not positive or ``period_s`` is negative or not finite.
    """

    __slots__ = ("_steps_per_period", "_min_steps", "_change_attr", "_k", "_last_step", "_changes",
                 "_pending")

    def __init__(self, period_s: float, dt_s: float, min_period_s: float = 0.0,
                 change_attr: str | None = None) -> None:
        if not (dt_s > 0.0 and math.isfinite(dt_s)):
            raise ValueError(f"dt_s={dt_s!r}: must be a positive number of seconds")
        if not (period_s >= 0.0 and math.isfinite(period_s)):
            raise ValueError(f"period_s={period_s!r}: must be a finite number >= 0")
        self._steps_per_period = period_s / dt_s if period_s > dt_s else 0.0
        self._min_steps = min_period_s / dt_s - 1e-6
        self._change_attr = change_attr
        self.reset()

    def reset(self) -> None:
        """Forget the past decisions (the next call is due)."""
        self._k = None
        self._last_step = -(1 << 60)
        self._changes = None
        self._pending = False

    def due(self, step: int, reports: object = None) -> bool:
        """Whether the report is due at the end of physics step ``step``.

        Parameters
        ----------
        step : int
            Number of the step (simulation time / dt); decisions are made in
            increasing order (a smaller number than the last one restarts).
        reports : DbwReports, optional
            The report container, read for the change counter (on-change topics).

        Returns
        -------
        bool
        """
        q = self._steps_per_period
        if q == 0.0:
            hit = True
        else:
            k = math.floor(step / q + 1e-9)
            hit = k != self._k
            self._k = k
        if step < self._last_step:  # time restarted (reset)
            self._last_step = -(1 << 60)
        attr = self._change_attr
        if attr is not None and reports is not None:
            c = getattr(reports, attr)
            if c != self._changes:
                self._pending = self._changes is not None
                self._changes = c
            if self._pending and step - self._last_step >= self._min_steps:
                hit = True
        if hit:
            self._last_step = step
            self._pending = False
        return hit


def report_schedule(attr: str, period_s: float, dt_s: float, vehicle_rates: bool = True) -> CanSchedule:
    """The schedule of report ``attr`` (a ``DbwReports`` attribute) with CAN period ``period_s``.

    Parameters
    ----------
    attr : str
        ``DbwReports`` attribute (``steering_report``, ...); those of
        ``ON_CHANGE`` also go out early on a change.
    period_s : float
        CAN period [s] (interface.REPORT_TOPICS).
    dt_s : float
        Physics step [s].
    vehicle_rates : bool
        True: the real CAN periods; False (``report_rates: mission``): every step.

    Returns
    -------
    CanSchedule
    """
    if not vehicle_rates:
        return CanSchedule(0.0, dt_s)
    min_s, change_attr = ON_CHANGE.get(attr, (0.0, None))
    return CanSchedule(period_s, dt_s, min_s, change_attr)
