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

The per-step logic is compiled functions over the DBW's state record
(:mod:`acres_dbw_sim.dbw.record`; fields ``hold_*``, :data:`STATE`): ``hold_reset``,
``hold_step``, ``hold_full``, ``hold_reported_duration_s``; ``BrakeHold`` is a view over the record.
"""

from __future__ import annotations

from ..model._jit import njit
from .params import DbwParameters
from .record import Field, Slot, record_array, run

__all__ = ["BrakeHold", "STATE", "hold_reset", "hold_step", "hold_reported_duration_s"]

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the brake-hold budget (``hold_*``).
STATE = (
    Field("hold_budget_s", "s", "size of the budget, brake_hold_budget_s"),
    Field("hold_low_s", "s", "low threshold, min(brake_hold_low_s, brake_hold_budget_s)"),
    Field("hold_recharge", "s/s", "recharge rate, brake_hold_recharge_ratio"),
    Field("hold_min_bar", "bar", "actuator pressure above which the budget drains, brake_hold_min_bar"),
    Field("hold_speed_mps", "m/s", "speed below which the budget drains, brake_hold_speed_mps"),
    Field("hold_remaining_s", "s", "remaining hold time, 0..hold_budget_s"),
    Field("hold_req_park_brake", "bool", "the budget is low (below hold_low_s)", 0, "bool"),
    Field("hold_req_shift_park", "bool", "the budget was exhausted and has not recharged above hold_low_s", 0,
          "bool"),
)


@njit
def hold_reset(S) -> None:
    """Power-on state of the brake hold: full budget, no requests."""
    s = S[0]
    s.hold_remaining_s = s.hold_budget_s
    s.hold_req_park_brake = False
    s.hold_req_shift_park = False


@njit
def hold_step(S, dt_s: float, actuator_bar: float, speed_mps: float) -> None:
    """Drain or recharge the budget for one step of ``dt_s`` [s] (the module's rules, §4.7).

    ``actuator_bar``: pressure the DBW actuator produces [bar] (the driver's pedal excluded);
    ``speed_mps``: vehicle speed magnitude [m/s].
    """
    s = S[0]
    r = s.hold_remaining_s
    if actuator_bar > s.hold_min_bar and speed_mps < s.hold_speed_mps:
        r -= dt_s
        if r <= 0.0:
            r = 0.0
            s.hold_req_shift_park = True
    else:
        r += s.hold_recharge * dt_s
        if r > s.hold_budget_s:
            r = s.hold_budget_s
    s.hold_remaining_s = r
    s.hold_req_park_brake = r < s.hold_low_s
    if s.hold_req_shift_park and r > s.hold_low_s:
        s.hold_req_shift_park = False


@njit
def hold_reported_duration_s(S) -> float:
    """``brake_available_duration`` [s] of the record's budget: 0.1 s steps up to a 25.4 s budget, else 2 s
    steps up to 508 s (§4.7 modes 2, 1)."""
    s = S[0]
    r = s.hold_remaining_s
    if s.hold_budget_s <= 25.4:
        return round(r * 10.0) * 0.1
    return min(508.0, round(r * 0.5) * 2.0)


class BrakeHold:
    """Brake-hold budget (dbw-interface.md §4.7): a view of the record's ``hold_*`` fields.

    Parameters
    ----------
    p : DbwParameters
        ``brake_hold_budget_s``, ``brake_hold_low_s``,
        ``brake_hold_recharge_ratio``, ``brake_hold_min_bar``,
        ``brake_hold_speed_mps``.
    dt_s : float
        Physics step [s].
    s : record
        The DBW's state record (:mod:`acres_dbw_sim.dbw.record`).

    Attributes
    ----------
    remaining_s : float
        Remaining hold time [s], 0..``budget_s``.
    req_park_brake : bool
        The budget is low (below ``hold_low_s``).
    req_shift_park : bool
        The budget was exhausted and has not recharged above ``hold_low_s``.
    """

    __slots__ = ("_s", "dt_s", "_dt")

    budget_s = Slot("hold_budget_s")
    low_s = Slot("hold_low_s")
    recharge = Slot("hold_recharge")
    min_bar = Slot("hold_min_bar")
    speed_mps = Slot("hold_speed_mps")
    remaining_s = Slot("hold_remaining_s")
    req_park_brake = Slot("hold_req_park_brake", "bool")
    req_shift_park = Slot("hold_req_shift_park", "bool")

    def __init__(self, p: DbwParameters, dt_s: float, s) -> None:
        self._s = s
        s.hold_budget_s = p.brake_hold_budget_s
        s.hold_low_s = min(p.brake_hold_low_s, p.brake_hold_budget_s)
        s.hold_recharge = p.brake_hold_recharge_ratio
        s.hold_min_bar = p.brake_hold_min_bar
        s.hold_speed_mps = p.brake_hold_speed_mps
        self.dt_s = dt_s
        self._dt = float(dt_s)
        self.reset()

    def reset(self) -> None:
        """Power-on state: full budget, no requests (:func:`hold_reset`)."""
        run(hold_reset, record_array(self._s))

    @property
    def full(self) -> bool:
        """The budget is full (``brake_available_full``, §4.7)."""
        return self.remaining_s >= self.budget_s

    def reported_duration_s(self) -> float:
        """``brake_available_duration`` [s] (:func:`hold_reported_duration_s`)."""
        return float(run(hold_reported_duration_s, record_array(self._s)))
