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

from ..model._jit import njit
from .commands import GearCmd
from .decode import as_enum
from .msg_fields import G_CALIBRATE, G_DRIVE, G_LOW, G_MANUAL, G_NONE, G_PARK, SRC_USER, GearReject
from .record import Field, Slot, record_array, run

__all__ = ["GearActuator", "STATE", "gear_reset", "gear_command", "gear_lever_checks", "gear_take_manual",
           "gear_request_park", "gear_update"]

_KNOWN = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 15})

#: ``GearReject`` numbers as plain ints for the compiled code.
R_NONE, R_FAULT, R_UNSUPPORTED, R_SHIFT_IN_PROGRESS, R_OVERRIDE, R_BRAKE_HOLD, R_VEHICLE_SPEED = (
    int(GearReject.NONE), int(GearReject.FAULT), int(GearReject.UNSUPPORTED), int(GearReject.SHIFT_IN_PROGRESS),
    int(GearReject.OVERRIDE), int(GearReject.BRAKE_HOLD), int(GearReject.VEHICLE_SPEED))

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the gear actuator (``gr_*``).
STATE = (
    Field("gr_max_shift_speed_mps", "m/s", "highest speed at which a shift is accepted (constant)"),
    Field("gr_manual_gears", "-", "manual gears MANUAL may select, 0: MANUAL is UNSUPPORTED (constant)", 0, "int"),
    Field("gr_pending", "enum", "Gear requested from the lever (NONE: no request)", 0, "int"),
    Field("gr_reject", "enum", "GearReject of the last command (or of the lever)", 0, "int"),
    Field("gr_cmd_src", "enum", "CmdSrc of the last accepted request (USER or ULC)", 0, "int"),
    Field("gr_fault_injected", "bool", "gear fault set by the user (DbwSystem.set_fault)", 0, "bool"),
    Field("gr_override_active", "bool", "the driver is moving the lever", 0, "bool"),
    Field("gr_return_to_park", "bool", "return_to_park of the last forwarded command", 0, "bool"),
    Field("gr_manual_request", "-", "manual gear to pass to the vehicle (0: none), taken once", 0, "int"),
    Field("gr_manual_cmd", "-", "cmd_manual of the last accepted MANUAL command", 0, "int"),
    Field("gr_sent", "bool", "the lever has seen the pending request (judge it from the next step)", 0, "bool"),
)


@njit
def gear_reset(S) -> None:
    """Power-on state of the gear actuator: no request, no reject (the constants are kept)."""
    s = S[0]
    s.gr_pending = G_NONE
    s.gr_reject = R_NONE
    s.gr_cmd_src = SRC_USER
    s.gr_fault_injected = False
    s.gr_override_active = False
    s.gr_return_to_park = False
    s.gr_manual_request = 0
    s.gr_manual_cmd = 0
    s.gr_sent = False


@njit
def gear_lever_checks(S, cmd: int, gear: int, shifting: bool, speed_mps: float, park_locked: bool) -> int:
    """The lever's reject for a move to ``cmd`` (checks 4 to 6 of the module docstring), NONE if it may."""
    s = S[0]
    if shifting:
        return R_SHIFT_IN_PROGRESS
    if abs(speed_mps) >= s.gr_max_shift_speed_mps:
        return R_VEHICLE_SPEED
    if park_locked and cmd != G_PARK and (gear == G_PARK or s.gr_pending == G_PARK):
        return R_BRAKE_HOLD
    return R_NONE


@njit
def gear_command(S, cmd: int, return_to_park: bool, cmd_manual: int, dbw_enabled: bool, speed_mps: float,
                 gear: int, shifting: bool, override_any: bool, src: int, park_locked: bool) -> int:
    """Handle one decoded gear command event (§4.1, §4.9; the checks of the module docstring); return the
    reject reason (``GearReject``), also left in ``gr_reject``.

    ``cmd``: a known ``Gear`` value (unknown ones decoded as NONE); ``return_to_park``; ``cmd_manual``: the
    manual gear number (0 when absent or ill-typed); ``dbw_enabled``: requests are forwarded only while
    enabled; ``speed_mps`` [m/s] (magnitude is used); ``gear``: present gear; ``shifting``: the lever is
    moving; ``override_any``: a driver override is active on steering, brake or throttle; ``src``: ``CmdSrc``
    of the request; ``park_locked``: the brake-hold budget is exhausted (no shift out of PARK).
    """
    s = S[0]
    if cmd == G_CALIBRATE:
        return s.gr_reject
    if not dbw_enabled or cmd == G_NONE:
        return s.gr_reject  # forwarded as NONE: no request, nothing changes
    s.gr_return_to_park = return_to_park
    manual = 0
    if cmd == G_MANUAL:
        manual = cmd_manual
        if not 1 <= manual <= s.gr_manual_gears:
            manual = -1
    if s.gr_fault_injected:
        r = R_FAULT
    elif manual < 0 or (not G_PARK <= cmd <= G_LOW and cmd != G_MANUAL):
        r = R_UNSUPPORTED
    elif manual > 0 and override_any:
        r = R_OVERRIDE
    elif manual > 0:
        # a powershift in DRIVE at any speed; from another position the lever's checks apply
        r = R_NONE
        if gear != G_DRIVE or shifting:
            r = gear_lever_checks(S, G_DRIVE, gear, shifting, speed_mps, park_locked)
        if r == R_NONE:
            s.gr_manual_request = manual
            s.gr_manual_cmd = manual
            if gear != G_DRIVE:
                s.gr_pending = G_DRIVE
                s.gr_cmd_src = src
                s.gr_sent = False
    elif override_any:
        r = R_OVERRIDE
    elif cmd == gear and not shifting:
        r = R_NONE
    else:
        r = gear_lever_checks(S, cmd, gear, shifting, speed_mps, park_locked)
        if r == R_NONE:
            s.gr_pending = cmd
            s.gr_cmd_src = src
            s.gr_sent = False
    s.gr_reject = r
    return r


@njit
def gear_take_manual(S) -> int:
    """The manual gear to pass to the vehicle this step (0: none); forgets it."""
    s = S[0]
    n = s.gr_manual_request
    s.gr_manual_request = 0
    return n


@njit
def gear_request_park(S, gear: int, shifting: bool, speed_mps: float) -> bool:
    """The brake actuator's shift to PARK (``req_shift_park``, §4.7); True if requested now. No request in
    PARK, with PARK pending, while ``shifting``, with a gear fault or at or above the shift speed
    (``speed_mps`` [m/s])."""
    s = S[0]
    if (gear == G_PARK or s.gr_pending == G_PARK or shifting or s.gr_fault_injected
            or abs(speed_mps) >= s.gr_max_shift_speed_mps):
        return False
    s.gr_pending = G_PARK
    s.gr_sent = False
    return True


@njit
def gear_update(S, gear: int, shifting: bool, model_reject: int) -> int:
    """Follow the lever: the present ``gear``, ``shifting`` and the model's ``last_gear_reject``
    (``model_reject``, 0 if none); return the ``Gear`` value to request this step (NONE when nothing is
    pending)."""
    s = S[0]
    if s.gr_pending != G_NONE:
        if s.gr_sent:  # judge the lever only after it has seen the request
            if gear == s.gr_pending and not shifting:
                s.gr_pending = G_NONE
            elif model_reject != 0 and not shifting:
                s.gr_reject = model_reject
                s.gr_pending = G_NONE
        s.gr_sent = s.gr_pending != G_NONE
    return s.gr_pending


class GearActuator:
    """Gear module of the DBW: a view of the record's ``gr_*`` fields (:mod:`acres_dbw_sim.dbw.record`).

    Parameters
    ----------
    max_shift_speed_mps : float
        Highest speed at which a shift is accepted [m/s].
    manual_gears : int
        Manual gears MANUAL may select (0: MANUAL is UNSUPPORTED).
    s : record
        The DBW's state record.

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

    __slots__ = ("_s",)

    max_shift_speed_mps = Slot("gr_max_shift_speed_mps")
    manual_gears = Slot("gr_manual_gears", "int")
    pending = Slot("gr_pending", "int")
    reject = Slot("gr_reject", "int")
    cmd_src = Slot("gr_cmd_src", "int")
    fault_injected = Slot("gr_fault_injected", "bool")
    override_active = Slot("gr_override_active", "bool")
    return_to_park = Slot("gr_return_to_park", "bool")
    manual_request = Slot("gr_manual_request", "int")
    manual_cmd = Slot("gr_manual_cmd", "int")
    sent = Slot("gr_sent", "bool")

    def __init__(self, max_shift_speed_mps: float, manual_gears: int, s) -> None:
        self._s = s
        s.gr_max_shift_speed_mps = float(max_shift_speed_mps)
        s.gr_manual_gears = int(manual_gears)
        self.reset()

    def reset(self) -> None:
        """Power-on state: no request, no reject (:func:`gear_reset`)."""
        run(gear_reset, record_array(self._s))

    def command(self, msg: GearCmd, dbw_enabled: bool, speed_mps: float, gear: int,
                shifting: bool, override_any: bool, src: int = SRC_USER,
                park_locked: bool = False) -> int:
        """Handle one gear command event; return the reject reason (``GearReject``).

        Decodes ``msg`` and hands the rest to :func:`gear_command`.

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
        manual = 0
        if cmd == G_MANUAL:  # 0 (out of range as well) stands for a number that is not an int64 or not positive
            n = getattr(msg, "cmd_manual", 0)
            manual = int(n) if isinstance(n, int) and not isinstance(n, bool) and 0 < n < 1 << 63 else 0
        rtp = getattr(msg, "return_to_park", False) is True
        return int(run(gear_command, record_array(self._s), int(cmd), bool(rtp), int(manual), bool(dbw_enabled),
                       float(speed_mps), int(gear), bool(shifting), bool(override_any), int(src), bool(park_locked)))
