"""Brake-hold budget of the DBW brake actuator (dbw-interface.md §4.7).

The real brake actuator can hold the vehicle at stand-still only for a
limited time; it reports what is left (``BrakeReport.brake_available_duration``,
``brake_available_full``), raises ``req_park_brake`` as the budget runs low and
``req_shift_park`` when it is exhausted, after which gear commands out of PARK
are rejected with ``GearReject.BRAKE_HOLD`` (§4.7, §4.9). The size of the
budget, the threshold and the recharge are firmware data that no public source
gives (§7); the emulation's rule set, with the parameters ``dbw.brake.hold_*``
(estimates, config/polaris.json; docs/dbw.md, Brake hold):

* the budget drains at 1 s/s while the DBW actuator (not the driver's foot)
  holds more than ``hold_min_bar`` with the vehicle slower than
  ``hold_speed_mps``, and recharges at ``hold_recharge_ratio`` s/s otherwise,
  up to ``hold_budget_s``;
* ``req_park_brake`` while the remaining time is below ``hold_low_s``;
* ``req_shift_park`` from exhaustion until the budget has recharged above
  ``hold_low_s`` (hysteresis, so the request does not chatter).

``DbwSystem`` acts on the requests (system.py): with ``req_shift_park`` at
stand-still it shifts to PARK, rejects gear commands out of PARK with
``BRAKE_HOLD``, and once PARK is engaged lets the exhausted actuator release.
"""

from __future__ import annotations

from .params import DbwParameters

__all__ = ["BrakeHold"]


class BrakeHold:
    """Brake-hold budget (dbw-interface.md §4.7).

    Parameters
    ----------
    p : DbwParameters
        ``brake_hold_budget_s``, ``brake_hold_low_s``,
        ``brake_hold_recharge_ratio``, ``brake_hold_min_bar``,
        ``brake_hold_speed_mps``.
    dt_s : float
        Physics step [s].

    Attributes
    ----------
    remaining_s : float
        Remaining hold time [s], 0..``budget_s``.
    req_park_brake : bool
        The budget is low (below ``hold_low_s``).
    req_shift_park : bool
        The budget was exhausted and has not recharged above ``hold_low_s``.
    """

    __slots__ = ("budget_s", "low_s", "recharge", "min_bar", "speed_mps", "dt_s", "remaining_s",
                 "req_park_brake", "req_shift_park")

    def __init__(self, p: DbwParameters, dt_s: float) -> None:
        self.budget_s = p.brake_hold_budget_s
        self.low_s = min(p.brake_hold_low_s, p.brake_hold_budget_s)
        self.recharge = p.brake_hold_recharge_ratio
        self.min_bar = p.brake_hold_min_bar
        self.speed_mps = p.brake_hold_speed_mps
        self.dt_s = dt_s
        self.reset()

    def reset(self) -> None:
        """Power-on state: full budget, no requests."""
        self.remaining_s = self.budget_s
        self.req_park_brake = False
        self.req_shift_park = False

    @property
    def full(self) -> bool:
        """The budget is full (``brake_available_full``)."""
        return self.remaining_s >= self.budget_s

    def step(self, actuator_bar: float, speed_mps: float) -> None:
        """Drain or recharge the budget for one step.

        Parameters
        ----------
        actuator_bar : float
            Pressure the DBW actuator produces [bar] (the driver's pedal excluded).
        speed_mps : float
            Vehicle speed magnitude [m/s].
        """
        r = self.remaining_s
        if actuator_bar > self.min_bar and speed_mps < self.speed_mps:
            r -= self.dt_s
            if r <= 0.0:
                r = 0.0
                self.req_shift_park = True
        else:
            r += self.recharge * self.dt_s
            if r > self.budget_s:
                r = self.budget_s
        self.remaining_s = r
        self.req_park_brake = r < self.low_s
        if self.req_shift_park and r > self.low_s:
            self.req_shift_park = False

    def reported_duration_s(self) -> float:
        """``brake_available_duration`` [s]: 0.1 s steps up to 25.4 s, else 2 s steps (§4.7 modes 2, 1)."""
        r = self.remaining_s
        if self.budget_s <= 25.4:
            return round(r * 10.0) * 0.1
        return min(508.0, round(r * 0.5) * 2.0)
