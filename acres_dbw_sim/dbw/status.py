"""Subsystem status flags (firmware side) and engage logic (driver side).

Two layers of the real system are visible from ROS (dbw-interface.md §4):

* the **firmware** of each actuator, which keeps the flags ``ready``,
  ``enabled``, ``override_active``, ``override_latched``, ``timeout`` and
  ``fault`` (§4.3; the emulation rule set marked *inferred* there), modelled
  by ``ActuatorStatus``;
* the **ROS driver** ``ds_dbw_can`` in driver-managed mode (SystemSyncMode
  NONE, §4.1), which holds the enable request, masks the command ``enable``
  bits, clears latched overrides every 50 ms and publishes ``dbw_enabled``,
  modelled by ``EngageLogic``;
* or, with SystemSyncMode ALL_OR_NONE (§4.2, ``dbw.system_sync_mode`` = 2),
  the driver's System Enable/Disable commands and the firmware's system state
  that engages and disengages all subsystems together, modelled by
  ``FirmwareEngage``.

Rules of ``ActuatorStatus`` (evaluated every physics step):

* ``timeout`` = no command arrived within the command timeout (100 ms,
  §4.4), unless the ULC drives the actuator through its own command stream.
  A module that was never commanded reports ``timeout`` too (a decision,
  docs/dbw.md: "valid commands stopped for >100 ms" holds from power-on, and
  it is what lets the driver's timeout mask of §4.1 disregard an override of
  a subsystem the stack does not use, as Dataspeed's drivers intend).
* ``override_active`` = driver input above its threshold, unless the last
  command carried ``ignore``.
* ``override_latched`` is set when ``override_active`` rises while the
  actuator is enabled; it falls on a command with ``clear`` (or the driver's
  clear-only frame) once ``override_active`` is false.
* ``ready`` = no fault, no latched or active override.
* ``enabled`` = ready and (fresh command with the enable bit and a type other
  than NONE, or driven by the ULC), and, in the firmware-managed mode, the
  system ACTIVE.
"""
from __future__ import annotations

import math

from ..model._jit import njit
from .record import Field, Slot, record_array, run

__all__ = ["ActuatorStatus", "EngageLogic", "FirmwareEngage", "STATE", "STEERING", "BRAKE", "THROTTLE", "ULC",
           "status_reset", "status_command", "status_clear_latch", "status_update", "any_fault", "any_override",
           "engage_reset", "engage_on_enable", "engage_on_disable", "engage_update", "engage_tick",
           "sync_reset", "sync_on_enable", "sync_on_disable", "sync_take_clear", "sync_update", "sync_tick"]

#: Slots of the four actuator statuses in the record's ``st_*`` fields.
STEERING, BRAKE, THROTTLE, ULC = 0, 1, 2, 3

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the four actuator statuses
#: (``st_*``, one slot each), the driver's engage logic (``eng_*``) and the firmware's (``sync_*``).
STATE = (
    Field("st_timeout_s", "s", "command timeout", 4),
    Field("st_ready", "bool", "no fault, no latched or active override", 4, "bool"),
    Field("st_enabled", "bool", "the actuator follows its commands (or the ULC)", 4, "bool"),
    Field("st_override_active", "bool", "driver input above its threshold, not ignored", 4, "bool"),
    Field("st_override_latched", "bool", "an override rose while enabled; cleared by a clear bit", 4, "bool"),
    Field("st_timeout", "bool", "no fresh command (and not driven by the ULC's stream)", 4, "bool"),
    Field("st_fault", "bool", "fault flag", 4, "bool"),
    Field("st_fault_injected", "bool", "fault set by the user (DbwSystem.set_fault)", 4, "bool"),
    Field("st_ignore", "bool", "ignore bit of the last command", 4, "bool"),
    Field("st_enable_bit", "bool", "enable bit of the last command after the driver's masking", 4, "bool"),
    Field("st_received", "bool", "a command arrived since reset", 4, "bool"),
    Field("st_last_cmd_t", "s", "arrival time of the last command (-inf: none)", 4),
    Field("st_disengage", "enum", "cause of the last enabled -> disabled transition (low nibble, §4.11)", 4, "int"),
    Field("st_driven_by_ulc", "bool", "the ULC drove the actuator at the last update", 4, "bool"),
    Field("st_dropped", "bool", "the last update was an enabled -> disabled transition", 4, "bool"),
    Field("eng_request", "bool", "the driver's enable request", 0, "bool"),
    Field("eng_enabled", "bool", "dbw_enabled of the driver-managed mode", 0, "bool"),
    Field("eng_refused", "-", "enable events refused for a fault", 0, "int"),
    Field("eng_next_tick_s", "s", "time of the next 50 ms auto-clear tick"),
    Field("eng_tick_s", "s", "auto-clear period"),
    Field("sync_active", "bool", "system state ACTIVE (firmware-managed mode)", 0, "bool"),
    Field("sync_enable_pending", "bool", "an enable waits for its clears", 0, "bool"),
    Field("sync_pending_clear", "bool", "one-shot clear of steering, brake, throttle, ULC", 4, "bool"),
    Field("sync_override_other", "bool", "ACTIVE was left because of a driver override", 0, "bool"),
    Field("sync_refused", "-", "System Enable commands refused", 0, "int"),
    Field("sync_next_tick_s", "s", "time of the next 50 ms tick"),
    Field("sync_tick_s", "s", "tick period"),
)


# --------------------------------------------------------------------------- actuator status (firmware)


@njit
def status_reset(S, i: int, timeout_s: float) -> None:
    """Power-on state of status slot ``i``: nothing received, no flags; command timeout ``timeout_s`` [s]."""
    s = S[0]
    s.st_timeout_s[i] = timeout_s
    s.st_ready[i] = True
    s.st_enabled[i] = False
    s.st_override_active[i] = False
    s.st_override_latched[i] = False
    s.st_timeout[i] = False
    s.st_fault[i] = False
    s.st_fault_injected[i] = False
    s.st_ignore[i] = False
    s.st_enable_bit[i] = False
    s.st_received[i] = False
    s.st_last_cmd_t[i] = -math.inf
    s.st_disengage[i] = 0
    s.st_driven_by_ulc[i] = False
    s.st_dropped[i] = False


@njit
def status_clear_latch(S, i: int) -> None:
    """Clear a latched override of slot ``i`` if the driver has let go (``clear`` bit)."""
    s = S[0]
    if not s.st_override_active[i]:
        s.st_override_latched[i] = False


@njit
def status_command(S, i: int, t_s: float, active: bool, enable: bool, clear: bool, ignore: bool) -> None:
    """Accept one command frame for slot ``i`` at ``t_s`` [s]: ``active`` (a command type other than NONE),
    ``enable`` (after the driver's masking, §4.1), ``clear`` (the user's or the driver's automatic clear),
    ``ignore``."""
    s = S[0]
    s.st_last_cmd_t[i] = t_s
    s.st_received[i] = True
    s.st_enable_bit[i] = enable and active
    s.st_ignore[i] = ignore
    if clear:
        status_clear_latch(S, i)


@njit
def status_update(S, i: int, t_s: float, driver_override: bool, ulc_driving: bool, permitted: bool,
                  ulc_stream: bool, ulc_cause: int) -> None:
    """Recompute the flags of slot ``i`` at ``t_s`` [s] (the module's rules; dbw-interface.md §4.3, §4.11).

    ``driver_override``: driver input above its threshold now; ``ulc_driving``: the ULC commands this
    actuator through its own fresh stream; ``permitted``: the firmware lets the subsystem engage
    (always in driver-managed mode, system ACTIVE in the firmware-managed mode); ``ulc_stream``: a
    fresh, enabled ULC stream commands this pedal (no ``timeout`` even when the ULC was just
    overridden, §4.1, §4.12); ``ulc_cause``: the ULC's own ``disengage`` code when it dropped out in
    this step, else 0 (a pedal that only the ULC drove and is let go takes it).
    """
    s = S[0]
    was_enabled = s.st_enabled[i] != 0
    was_ulc = s.st_driven_by_ulc[i] != 0
    s.st_driven_by_ulc[i] = ulc_driving
    stale = (t_s - s.st_last_cmd_t[i]) > s.st_timeout_s[i] + 1e-9  # never received: last_cmd_t = -inf
    s.st_timeout[i] = stale and not (ulc_driving or ulc_stream)
    fault = s.st_fault_injected[i] != 0
    s.st_fault[i] = fault
    over = driver_override and not s.st_ignore[i]
    s.st_override_active[i] = over
    if over and was_enabled:
        s.st_override_latched[i] = True
    latched = s.st_override_latched[i] != 0
    ready = not (fault or latched or over)
    s.st_ready[i] = ready
    user = not stale and s.st_enable_bit[i] != 0
    enabled = ready and permitted and (user or ulc_driving)
    s.st_enabled[i] = enabled
    dropped = was_enabled and not enabled
    s.st_dropped[i] = dropped
    if dropped:
        if fault:
            s.st_disengage[i] = 5
        elif over or latched:
            s.st_disengage[i] = 6
        elif stale and was_ulc:   # it followed the ULC, which dropped out or was pre-empted
            s.st_disengage[i] = ulc_cause if ulc_cause != 0 else 1
        elif stale:
            s.st_disengage[i] = 4
        else:
            s.st_disengage[i] = 1


@njit
def any_fault(S, n: int, gear_fault: bool) -> bool:
    """The driver's fault predicate over status slots ``0..n-1``: an unmasked (not timed-out) fault, or a
    gear fault (§4.1)."""
    s = S[0]
    for i in range(n):
        if s.st_fault[i] and not s.st_timeout[i]:
            return True
    return gear_fault


@njit
def any_override(S, n: int, gear_override: bool) -> bool:
    """The driver's override predicate over status slots ``0..n-1``: an active or latched override that is
    not timed out, or the gear's override (§4.1)."""
    s = S[0]
    for i in range(n):
        if (s.st_override_active[i] or s.st_override_latched[i]) and not s.st_timeout[i]:
            return True
    return gear_override


class ActuatorStatus:
    """Firmware status flags of one actuator (steering, brake, throttle or ULC): a view of its slot of the
    record (:mod:`acres_dbw_sim.dbw.record`).

    Parameters
    ----------
    timeout_s : float
        Command timeout [s] (100 ms on the real system, §4.4).
    s : record
        The DBW's state record.
    slot : int
        :data:`STEERING`, :data:`BRAKE`, :data:`THROTTLE` or :data:`ULC`.

    Attributes
    ----------
    ready, enabled, override_active, override_latched, timeout, fault : bool
        The report flags (dbw-interface.md §4.3).
    fault_injected : bool
        Fault set by the user for tests (``DbwSystem.set_fault``).
    ignore : bool
        ``ignore`` bit of the last command.
    enable_bit : bool
        Enable bit of the last command after the driver's masking.
    received : bool
        A command has been received since reset.
    last_cmd_t : float
        Arrival time of the last command [s].
    disengage : int
        Cause of the last enabled -> disabled transition: 0 none, 1 enable
        bit dropped, 4 command timeout, 5 fault, 6 override (the low nibble of
        the ``ReasonDisengage`` codes, §4.11).
    dropped : bool
        The last ``update`` was an enabled -> disabled transition (cause in
        ``disengage``).
    """

    __slots__ = ("_s", "_i")

    timeout_s = Slot("st_timeout_s", "float", True)
    ready = Slot("st_ready", "bool", True)
    enabled = Slot("st_enabled", "bool", True)
    override_active = Slot("st_override_active", "bool", True)
    override_latched = Slot("st_override_latched", "bool", True)
    timeout = Slot("st_timeout", "bool", True)
    fault = Slot("st_fault", "bool", True)
    fault_injected = Slot("st_fault_injected", "bool", True)
    ignore = Slot("st_ignore", "bool", True)
    enable_bit = Slot("st_enable_bit", "bool", True)
    received = Slot("st_received", "bool", True)
    last_cmd_t = Slot("st_last_cmd_t", "float", True)
    disengage = Slot("st_disengage", "int", True)
    driven_by_ulc = Slot("st_driven_by_ulc", "bool", True)
    dropped = Slot("st_dropped", "bool", True)

    def __init__(self, timeout_s: float, s, slot: int) -> None:
        self._s = s
        self._i = slot
        s.st_timeout_s[slot] = timeout_s
        self.reset()

    def reset(self) -> None:
        """Return to the power-on state: nothing received, no flags (:func:`status_reset`)."""
        run(status_reset, record_array(self._s), int(self._i), float(self.timeout_s))

    def command(self, t_s: float, active: bool, enable: bool, clear: bool, ignore: bool) -> None:
        """Accept one command frame (:func:`status_command`)."""
        run(status_command, record_array(self._s), int(self._i), float(t_s), bool(active), bool(enable), bool(clear),
            bool(ignore))

# --------------------------------------------------------------------------- engage logic (driver)


@njit
def engage_reset(S, tick_s: float) -> None:
    """Power-on state of the driver's engage logic: no request, not enabled; auto-clear period ``tick_s``."""
    s = S[0]
    s.eng_tick_s = tick_s
    s.eng_request = False
    s.eng_enabled = False
    s.eng_refused = 0
    s.eng_next_tick_s = 0.0


@njit
def engage_update(S, gear_fault: bool, gear_override: bool) -> None:
    """Recompute ``eng_enabled`` from steering, brake and throttle (slots 0..2) and the gear; drop the request
    on a true -> false edge (§4.1 event 4)."""
    s = S[0]
    en = (s.eng_request != 0 and not any_fault(S, 3, gear_fault) and not any_override(S, 3, gear_override))
    if s.eng_enabled and not en:
        s.eng_request = False
    s.eng_enabled = en


@njit
def engage_on_enable(S, gear_fault: bool, gear_override: bool) -> bool:
    """``enable`` event (§4.1 event 1); False if refused by a fault."""
    s = S[0]
    if s.eng_request:
        return True
    if any_fault(S, 3, gear_fault):
        s.eng_refused += 1
        return False
    s.eng_request = True
    engage_update(S, gear_fault, gear_override)
    return True


@njit
def engage_on_disable(S) -> None:
    """``disable`` event (§4.1 event 2): drop the request."""
    s = S[0]
    s.eng_request = False
    s.eng_enabled = False


@njit
def engage_tick(S, t_s: float) -> None:
    """The 50 ms timer (§4.1 event 3) at ``t_s`` [s]: clear-only frames for the latched overrides of all
    four statuses while the request stands."""
    s = S[0]
    if t_s + 1e-9 < s.eng_next_tick_s:
        return
    while s.eng_next_tick_s <= t_s + 1e-9:
        s.eng_next_tick_s += s.eng_tick_s
    if s.eng_request:
        for i in range(4):
            if s.st_override_latched[i]:
                status_clear_latch(S, i)


class EngageLogic:
    """The driver's enable request and ``dbw_enabled`` (dbw-interface.md §4.1): a view of the record's
    ``eng_*`` fields.

    ``enabled`` = request and not fault and not override, where fault and
    override are read from the steering, brake and throttle statuses (each
    masked by its own ``timeout``) and the gear's fault/override. When
    ``enabled`` falls the request is dropped; a new ``enable`` is needed.

    Parameters
    ----------
    tick_s : float
        Auto-clear period [s].
    s : record
        The DBW's state record (the statuses are its ``st_*`` slots).

    Attributes
    ----------
    request : bool
        The enable request flag (``enable_`` of the driver).
    enabled : bool
        What ``dbw_enabled`` publishes.
    refused : int
        Number of ``enable`` events refused because of a fault.
    """

    __slots__ = ("_s",)

    request = Slot("eng_request", "bool")
    enabled = Slot("eng_enabled", "bool")
    refused = Slot("eng_refused", "int")
    next_tick_s = Slot("eng_next_tick_s")
    tick_s = Slot("eng_tick_s")

    def __init__(self, tick_s: float, s) -> None:
        self._s = s
        run(engage_reset, record_array(s), float(tick_s))

    def reset(self) -> None:
        """Power-on state: no request, not enabled (:func:`engage_reset`)."""
        run(engage_reset, record_array(self._s), float(self.tick_s))

    def on_enable(self, gear_fault: bool, gear_override: bool) -> bool:
        """``enable`` event (:func:`engage_on_enable`). Returns False if refused by a fault."""
        return bool(run(engage_on_enable, record_array(self._s), bool(gear_fault), bool(gear_override)))

    def on_disable(self) -> None:
        """``disable`` event (:func:`engage_on_disable`)."""
        run(engage_on_disable, record_array(self._s))

# --------------------------------------------------------------------------- firmware engagement (ALL_OR_NONE)


@njit
def sync_reset(S, tick_s: float) -> None:
    """Power-on state of the firmware engagement: not active, nothing pending; tick period ``tick_s`` [s]."""
    s = S[0]
    s.sync_tick_s = tick_s
    s.sync_active = False
    s.sync_enable_pending = False
    for i in range(4):
        s.sync_pending_clear[i] = False
    s.sync_override_other = False
    s.sync_refused = 0
    s.sync_next_tick_s = 0.0


@njit
def sync_on_enable(S) -> None:
    """``enable`` event: queue the clears of the latched overrides (all four statuses) and the System
    *Enable*."""
    s = S[0]
    for i in range(4):
        if s.st_override_latched[i]:
            s.sync_pending_clear[i] = True
    s.sync_enable_pending = True


@njit
def sync_on_disable(S) -> bool:
    """``disable`` event: System *Disable*; True if the system was ACTIVE."""
    s = S[0]
    for i in range(4):
        s.sync_pending_clear[i] = False
    s.sync_enable_pending = False
    was = s.sync_active != 0
    s.sync_active = False
    s.sync_override_other = False
    return was


@njit
def sync_take_clear(S, i: int) -> bool:
    """The one-shot clear bit for the next command of status slot ``i`` (0..3)."""
    s = S[0]
    c = s.sync_pending_clear[i] != 0
    s.sync_pending_clear[i] = False
    return c


@njit
def sync_update(S, gear_fault: bool, gear_override: bool) -> bool:
    """Firmware: leave ACTIVE on a fault or an override of steering, brake or throttle (slots 0..2) or the
    gear; True on that transition."""
    s = S[0]
    if not s.sync_active:
        return False
    if any_fault(S, 3, gear_fault):
        s.sync_active = False
        return True
    if any_override(S, 3, gear_override):
        s.sync_active = False
        s.sync_override_other = True
        return True
    return False


@njit
def sync_tick(S, t_s: float, gear_fault: bool, gear_override: bool) -> bool:
    """The 50 ms timer at ``t_s`` [s]: send the pending System *Enable* once the clears of all four statuses
    are out (or timed out); True when it made the system ACTIVE. The firmware's readiness reads steering,
    brake and throttle."""
    s = S[0]
    if t_s + 1e-9 < s.sync_next_tick_s:
        return False
    while s.sync_next_tick_s <= t_s + 1e-9:
        s.sync_next_tick_s += s.sync_tick_s
    if not s.sync_enable_pending:
        return False
    for i in range(4):
        if s.sync_pending_clear[i] and not s.st_timeout[i]:
            return False  # its clear has not gone out yet
    s.sync_enable_pending = False  # clears still pending (timed-out subsystems) go with their next command
    if any_fault(S, 3, gear_fault) or any_override(S, 3, gear_override):
        s.sync_refused += 1
        return False
    s.sync_active = True
    s.sync_override_other = False
    return True


class _PendingClear:
    """``FirmwareEngage.pending_clear[i]``: the record's ``sync_pending_clear`` as a sequence of bools."""

    __slots__ = ("_s",)

    def __init__(self, s) -> None:
        self._s = s

    def __getitem__(self, i: int) -> bool:
        return bool(self._s.sync_pending_clear[i])

    def __setitem__(self, i: int, value: bool) -> None:
        self._s.sync_pending_clear[i] = bool(value)

    def __len__(self) -> int:
        return 4

    def __iter__(self):
        return iter([self[i] for i in range(4)])

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return repr(list(self))


class FirmwareEngage:
    """Engagement managed by the firmware, SystemSyncMode ALL_OR_NONE (dbw-interface.md §4.2): a view of the
    record's ``sync_*`` fields.

    Driver side (2.3.11 ``recvEnable``, ``recvDisable``, ``timerCallback``):

    * ``enable``: remember a one-shot ``clear`` for each of steering, brake,
      throttle and ULC whose report shows ``override_latched``; the next
      command of each carries it (``take_clear``). At the next 50 ms tick, once
      those clears have gone out (or that subsystem has timed out), send one
      System *Enable*.
    * ``disable``: forget the pending flags; send System *Disable* at once.
    * Commands go out with ``enable = msg.enable`` (no masking); gear, misc,
      turn-signal and drive-mode commands always go out.
    * ``dbw_enabled`` follows ``SystemReport.state == ACTIVE``.

    Firmware side (*inferred* from the mode's name and §4.3, the firmware is
    not public): System *Enable* makes the system ACTIVE when nothing is
    faulted and no override is active or latched (timeout-masked, as the
    driver's predicates of §4.1), else it is refused. While ACTIVE a subsystem
    actuates when its own command is fresh and carries ``enable`` (a command
    timeout drops only that subsystem, as in §4.1). A fault or a driver
    override of any subsystem, or System *Disable*, leaves ACTIVE for all
    subsystems together; the subsystems that had no override then report
    ``override_other`` until the next engagement.

    Parameters
    ----------
    tick_s : float
        Tick period [s].
    s : record
        The DBW's state record.

    Attributes
    ----------
    active : bool
        System state ACTIVE (what ``dbw_enabled`` publishes).
    enable_pending : bool
        An ``enable`` waits for its clears before the System *Enable* goes out.
    pending_clear : sequence of 4 bool
        One-shot clear flags of steering, brake, throttle, ULC.
    override_other : bool
        ACTIVE was left because of a driver override (reported by the
        subsystems without an override of their own).
    refused : int
        Number of System *Enable* commands the firmware refused.
    """

    __slots__ = ("_s", "pending_clear")

    active = Slot("sync_active", "bool")
    enable_pending = Slot("sync_enable_pending", "bool")
    override_other = Slot("sync_override_other", "bool")
    refused = Slot("sync_refused", "int")
    next_tick_s = Slot("sync_next_tick_s")
    tick_s = Slot("sync_tick_s")

    def __init__(self, tick_s: float, s) -> None:
        self._s = s
        self.pending_clear = _PendingClear(s)
        run(sync_reset, record_array(s), float(tick_s))

    def reset(self) -> None:
        """Power-on state: not active, nothing pending (:func:`sync_reset`)."""
        run(sync_reset, record_array(self._s), float(self.tick_s))

    def on_enable(self) -> None:
        """``enable`` event (:func:`sync_on_enable`)."""
        run(sync_on_enable, record_array(self._s))

    def on_disable(self) -> bool:
        """``disable`` event (:func:`sync_on_disable`). Returns True if the system was ACTIVE."""
        return bool(run(sync_on_disable, record_array(self._s)))

    def take_clear(self, index: int) -> bool:
        """The one-shot clear bit for the next command of subsystem ``index`` (:func:`sync_take_clear`)."""
        return bool(run(sync_take_clear, record_array(self._s), int(index)))
