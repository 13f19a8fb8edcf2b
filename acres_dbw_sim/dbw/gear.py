"""Gear actuator: event commands, reject reasons, requests to the gear lever.

Gear commands are events (no timeout, no counter, dbw-interface.md §4.4,
§4.9). The driver forwards the requested gear only while DBW is enabled,
otherwise it sends NONE (§4.1); ``CALIBRATE`` is forwarded in any state and
is a no-op here (the simulated shifter needs no calibration).

A forwarded request is checked in this order; the first failing check is the
``GearReport.reject`` reason and the request is dropped:

1. ``FAULT``: gear fault injected;
2. ``UNSUPPORTED``: SPORT or an unknown value (the Ranger has P R N H L); MANUAL
   when the vehicle has no manual gears (``dbw.gear.manual_gears`` = 0, the Ranger)
   or ``cmd_manual`` is not one of them;
3. ``OVERRIDE``: a driver override is active on steering, brake or throttle;
4. ``SHIFT_IN_PROGRESS``: the lever is still moving;
5. ``VEHICLE_SPEED``: at or above ``dbw.gear.max_shift_speed_mps`` (0.3 m/s);
6. ``BRAKE_HOLD``: out of PARK while the brake actuator's hold budget is
   exhausted (``req_shift_park``, §4.7; brake_hold.py).

A shift out of PARK without the brake pressed is accepted: §4.9 lists the
reject ``VEHICLE`` ("try pressing the brake") for platforms whose shifter has
a brake interlock, and no source says the Ranger's has one (a decision,
docs/dbw.md). The lever of the model may still refuse a shift.

An accepted request is passed to the model's gear lever (``gear_request``)
until the lever reaches it, which applies the Gear Lever rule of the Polaris
page (1 s through neutral) and may itself refuse (its ``last_gear_reject`` is
then reported).

MANUAL with ``cmd_manual`` = n selects manual gear n of a vehicle that has them
(the Maxxum 150's powershift, ``dbw.gear.manual_gears`` = 16): the lever goes to
DRIVE (with the checks above when it is not there yet) and gear n is passed on
(``manual_request``); a gear change in DRIVE is a powershift, taken at any speed.
The ``uint8`` field carries the gear number; ``GearManual`` names only M01..M10,
so gears 11..16 are sent as their numbers.
"""

from __future__ import annotations

from .commands import GearCmd
from .decode import as_enum
from .msg_fields import G_CALIBRATE, G_DRIVE, G_MANUAL, G_NONE, G_PARK, SRC_USER, GearReject

__all__ = ["GearActuator"]

_KNOWN = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 15})
_SUPPORTED = frozenset({1, 2, 3, 4, 5})
_MANUAL = G_MANUAL


class GearActuator:
    """Gear module of the DBW.

    Parameters
    ----------
    max_shift_speed_mps : float
        Highest speed at which a shift is accepted [m/s].
    manual_gears : int
        Manual gears MANUAL may select (0: MANUAL is UNSUPPORTED).

    Attributes
    ----------
    pending : int
        Gear requested from the lever (``Gear`` value, NONE = no request).
    reject : int
        ``GearReject`` of the last command.
    cmd_src : int
        ``CmdSrc`` of the last accepted request (USER or ULC).
    fault_injected : bool
        Gear fault set by the user.
    manual_request : int
        Manual gear to pass to the vehicle (0: none); cleared by :meth:`take_manual`.
    manual_cmd : int
        ``cmd_manual`` of the last accepted MANUAL command (reported as ``GearReport.cmd_manual``).
    override_active : bool
        The driver is moving the lever.
    """

    def __init__(self, max_shift_speed_mps: float, manual_gears: int = 0) -> None:
        self.max_shift_speed_mps = max_shift_speed_mps
        self.manual_gears = int(manual_gears)
        self.reset()

    def reset(self) -> None:
        """Power-on state: no request, no reject."""
        self.pending = G_NONE
        self.reject = int(GearReject.NONE)
        self.cmd_src = SRC_USER
        self.fault_injected = False
        self.override_active = False
        self.return_to_park = False
        self.manual_request = 0
        self.manual_cmd = 0
        self._sent = False

    def command(self, msg: GearCmd, dbw_enabled: bool, speed_mps: float, gear: int,
                shifting: bool, override_any: bool, src: int = SRC_USER,
                park_locked: bool = False) -> int:
        """Handle one gear command event; return the reject reason (``GearReject``).

        Parameters
        ----------
        msg : GearCmd
            The command as received (any content).
        dbw_enabled : bool
            The driver's enabled state (requests are forwarded only while enabled).
        speed_mps : float
            Vehicle speed [m/s] (magnitude is used).
        gear : int
            Present gear (``Gear`` value).
        shifting : bool
            The lever is moving.
        override_any : bool
            A driver override is active on steering, brake or throttle.
        src : int
            ``CmdSrc`` of the request (USER, or ULC for the ULC's shifts).
        park_locked : bool
            The brake-hold budget is exhausted (``req_shift_park``): no shift out of PARK.
        """
        cmd = as_enum(getattr(msg, "cmd", 0), _KNOWN)
        if cmd == G_CALIBRATE:
            return self.reject
        if not dbw_enabled or cmd == G_NONE:
            return self.reject  # forwarded as NONE: no request, nothing changes
        self.return_to_park = bool(getattr(msg, "return_to_park", False) is True)
        manual = 0
        if cmd == _MANUAL:
            n = getattr(msg, "cmd_manual", 0)
            manual = int(n) if isinstance(n, int) and not isinstance(n, bool) else 0
            if not 1 <= manual <= self.manual_gears:
                manual = -1
        if self.fault_injected:
            r = GearReject.FAULT
        elif manual < 0 or (cmd not in _SUPPORTED and cmd != _MANUAL):
            r = GearReject.UNSUPPORTED
        elif manual > 0 and override_any:
            r = GearReject.OVERRIDE
        elif manual > 0:
            # a powershift in DRIVE at any speed; from another position the lever's checks apply
            r = GearReject.NONE
            if gear != G_DRIVE or shifting:
                r = self._lever_checks(G_DRIVE, gear, shifting, speed_mps, park_locked)
            if r == GearReject.NONE:
                self.manual_request = manual
                self.manual_cmd = manual
                if gear != G_DRIVE:
                    self.pending = G_DRIVE
                    self.cmd_src = src
                    self._sent = False
            self.reject = int(r)
            return self.reject
        elif override_any:
            r = GearReject.OVERRIDE
        elif cmd == gear and not shifting:
            r = GearReject.NONE
        elif shifting:
            r = GearReject.SHIFT_IN_PROGRESS
        elif abs(speed_mps) >= self.max_shift_speed_mps:
            r = GearReject.VEHICLE_SPEED
        elif park_locked and cmd != G_PARK and (gear == G_PARK or self.pending == G_PARK):
            r = GearReject.BRAKE_HOLD
        else:
            r = GearReject.NONE
            self.pending = cmd
            self.cmd_src = src
            self._sent = False
        self.reject = int(r)
        return self.reject

    def _lever_checks(self, cmd: int, gear: int, shifting: bool, speed_mps: float, park_locked: bool) -> int:
        """The lever's reject for a move to ``cmd`` (checks 4 to 6 of the module docstring), NONE if it may."""
        if shifting:
            return GearReject.SHIFT_IN_PROGRESS
        if abs(speed_mps) >= self.max_shift_speed_mps:
            return GearReject.VEHICLE_SPEED
        if park_locked and cmd != G_PARK and (gear == G_PARK or self.pending == G_PARK):
            return GearReject.BRAKE_HOLD
        return GearReject.NONE

    def take_manual(self) -> int:
        """The manual gear to pass to the vehicle this step (0: none); forgets it."""
        n, self.manual_request = self.manual_request, 0
        return n

    def request_park(self, gear: int, shifting: bool, speed_mps: float) -> bool:
        """The brake actuator's shift to PARK (``req_shift_park``, §4.7); True if requested now.

        Parameters
        ----------
        gear : int
            Present gear (``Gear`` value).
        shifting : bool
            The lever is moving.
        speed_mps : float
            Vehicle speed [m/s]; no request at or above ``max_shift_speed_mps``.
        """
        if (gear == G_PARK or self.pending == G_PARK or shifting or self.fault_injected
                or abs(speed_mps) >= self.max_shift_speed_mps):
            return False
        self.pending = G_PARK
        self._sent = False
        return True

    def update(self, gear: int, shifting: bool, model_reject: int) -> int:
        """Follow the lever; return the request to pass to the model this step.

        Parameters
        ----------
        gear : int
            Present gear of the model (``Gear`` value).
        shifting : bool
            The model's lever is moving.
        model_reject : int
            The model's ``last_gear_reject`` (0 if none).

        Returns
        -------
        int
            ``Gear`` value to request, NONE when nothing is pending.
        """
        if self.pending != G_NONE:
            if self._sent:  # judge the lever only after it has seen the request
                if gear == self.pending and not shifting:
                    self.pending = G_NONE
                elif model_reject and not shifting:
                    self.reject = int(model_reject)
                    self.pending = G_NONE
            self._sent = self.pending != G_NONE
        return self.pending
