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

from collections.abc import Sequence

__all__ = ["ActuatorStatus", "EngageLogic", "FirmwareEngage"]


class ActuatorStatus:
    """Firmware status flags of one actuator (steering, brake, throttle or ULC).

    Parameters
    ----------
    timeout_s : float
        Command timeout [s] (100 ms on the real system, §4.4).

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

    __slots__ = ("timeout_s", "ready", "enabled", "override_active", "override_latched",
                 "timeout", "fault", "fault_injected", "ignore", "enable_bit", "received",
                 "last_cmd_t", "disengage", "driven_by_ulc", "dropped")

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.reset()

    def reset(self) -> None:
        """Return to the power-on state: nothing received, no flags."""
        self.ready = True
        self.enabled = False
        self.override_active = False
        self.override_latched = False
        self.timeout = False
        self.fault = False
        self.fault_injected = False
        self.ignore = False
        self.enable_bit = False
        self.received = False
        self.last_cmd_t = float("-inf")
        self.disengage = 0
        self.driven_by_ulc = False
        self.dropped = False

    def command(self, t_s: float, active: bool, enable: bool, clear: bool, ignore: bool) -> None:
        """Accept one command frame.

        Parameters
        ----------
        t_s : float
            Arrival time [s].
        active : bool
            The frame carries a command type other than NONE (after decoding).
        enable : bool
            Enable bit after the driver's masking (§4.1).
        clear : bool
            Clear bit (user's ``clear`` or the driver's automatic clear).
        ignore : bool
            Ignore bit.
        """
        self.last_cmd_t = t_s
        self.received = True
        self.enable_bit = enable and active
        self.ignore = ignore
        if clear:
            self.clear_latch()

    def clear_latch(self) -> None:
        """Clear a latched override if the driver has let go (``clear`` bit)."""
        if not self.override_active:
            self.override_latched = False

    def update(self, t_s: float, driver_override: bool, ulc_driving: bool = False,
               permitted: bool = True, ulc_stream: bool = False, ulc_cause: int = 0) -> None:
        """Recompute the flags at time ``t_s`` [s].

        Parameters
        ----------
        t_s : float
            Simulation time [s].
        driver_override : bool
            Driver input above its threshold now.
        ulc_driving : bool
            The ULC commands this actuator through its own (fresh) stream.
        permitted : bool
            The firmware lets the subsystem engage (always True in
            driver-managed mode; the system state ACTIVE in the
            firmware-managed mode).
        ulc_stream : bool
            A fresh ULC command stream with its enable bit commands this
            pedal (brake, throttle): no ``timeout`` even when the ULC has just
            been overridden, so that the override counts (§4.1, §4.12).
        ulc_cause : int
            The ULC's own ``disengage`` code when the ULC dropped out in this
            step, else 0. A pedal that only the ULC drove (its own stream stale
            or never received) and is let go takes the ULC's cause: the ULC's
            enable bit cleared is a disengage, not this pedal's timeout; let go
            while the ULC stays enabled (pre-empted by the user's pedal
            commands, §4.12) it is a disengage too.
        """
        was_enabled = self.enabled
        was_ulc = self.driven_by_ulc
        self.driven_by_ulc = ulc_driving
        stale = (t_s - self.last_cmd_t) > self.timeout_s + 1e-9  # never received: last_cmd_t = -inf
        self.timeout = stale and not (ulc_driving or ulc_stream)
        self.fault = self.fault_injected
        self.override_active = driver_override and not self.ignore
        if self.override_active and was_enabled:
            self.override_latched = True
        self.ready = not (self.fault or self.override_latched or self.override_active)
        user = not stale and self.enable_bit
        self.enabled = self.ready and permitted and (user or ulc_driving)
        self.dropped = was_enabled and not self.enabled
        if self.dropped:
            if self.fault:
                self.disengage = 5
            elif self.override_active or self.override_latched:
                self.disengage = 6
            elif stale and was_ulc:   # it followed the ULC, which dropped out or was pre-empted
                self.disengage = ulc_cause or 1
            elif stale:
                self.disengage = 4
            else:
                self.disengage = 1


class EngageLogic:
    """The driver's enable request and ``dbw_enabled`` (dbw-interface.md §4.1).

    ``enabled`` = request and not fault and not override, where fault and
    override are read from the steering, brake and throttle statuses (each
    masked by its own ``timeout``) and the gear's fault/override. When
    ``enabled`` falls the request is dropped; a new ``enable`` is needed.

    Attributes
    ----------
    request : bool
        The enable request flag (``enable_`` of the driver).
    enabled : bool
        What ``dbw_enabled`` publishes.
    refused : int
        Number of ``enable`` events refused because of a fault.
    """

    __slots__ = ("request", "enabled", "refused", "next_tick_s", "tick_s")

    def __init__(self, tick_s: float = 0.05) -> None:
        self.tick_s = tick_s
        self.reset()

    def reset(self) -> None:
        """Power-on state: no request, not enabled."""
        self.request = False
        self.enabled = False
        self.refused = 0
        self.next_tick_s = 0.0

    @staticmethod
    def fault(subsystems: Sequence[ActuatorStatus], gear_fault: bool) -> bool:
        """Driver's fault predicate: any unmasked actuator fault or a gear fault."""
        for s in subsystems:
            if s.fault and not s.timeout:
                return True
        return gear_fault

    @staticmethod
    def override(subsystems: Sequence[ActuatorStatus], gear_override: bool) -> bool:
        """Driver's override predicate: active or latched overrides (timeout-masked)."""
        for s in subsystems:
            if (s.override_active or s.override_latched) and not s.timeout:
                return True
        return gear_override

    def on_enable(self, subsystems: Sequence[ActuatorStatus], gear_fault: bool,
                  gear_override: bool) -> bool:
        """``enable`` event (§4.1 event 1). Returns False if refused by a fault."""
        if self.request:
            return True
        if self.fault(subsystems, gear_fault):
            self.refused += 1
            return False
        self.request = True
        self.update(subsystems, gear_fault, gear_override)
        return True

    def on_disable(self) -> None:
        """``disable`` event (§4.1 event 2): drop the request."""
        self.request = False
        self.enabled = False

    def update(self, subsystems: Sequence[ActuatorStatus], gear_fault: bool,
               gear_override: bool) -> None:
        """Recompute ``enabled``; drop the request on a true -> false edge (§4.1 event 4)."""
        en = (self.request and not self.fault(subsystems, gear_fault)
              and not self.override(subsystems, gear_override))
        if self.enabled and not en:
            self.request = False
        self.enabled = en

    def tick(self, t_s: float, latched: Sequence[ActuatorStatus]) -> None:
        """50 ms timer (§4.1 event 3): clear-only frames for latched overrides.

        Parameters
        ----------
        t_s : float
            Simulation time [s]; the timer fires at multiples of ``tick_s``.
        latched : sequence of ActuatorStatus
            Steering, brake, throttle and ULC statuses.
        """
        if t_s + 1e-9 < self.next_tick_s:
            return
        while self.next_tick_s <= t_s + 1e-9:
            self.next_tick_s += self.tick_s
        if self.request:
            for s in latched:
                if s.override_latched:
                    s.clear_latch()


class FirmwareEngage:
    """Engagement managed by the firmware, SystemSyncMode ALL_OR_NONE (dbw-interface.md §4.2).

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

    Attributes
    ----------
    active : bool
        System state ACTIVE (what ``dbw_enabled`` publishes).
    enable_pending : bool
        An ``enable`` waits for its clears before the System *Enable* goes out.
    pending_clear : list of bool
        One-shot clear flags of steering, brake, throttle, ULC.
    override_other : bool
        ACTIVE was left because of a driver override (reported by the
        subsystems without an override of their own).
    refused : int
        Number of System *Enable* commands the firmware refused.
    """

    __slots__ = ("active", "enable_pending", "pending_clear", "override_other", "refused",
                 "next_tick_s", "tick_s")

    def __init__(self, tick_s: float = 0.05) -> None:
        self.tick_s = tick_s
        self.pending_clear = [False, False, False, False]
        self.reset()

    def reset(self) -> None:
        """Power-on state: not active, nothing pending."""
        self.active = False
        self.enable_pending = False
        for i in range(4):
            self.pending_clear[i] = False
        self.override_other = False
        self.refused = 0
        self.next_tick_s = 0.0

    def on_enable(self, subsystems: Sequence[ActuatorStatus]) -> None:
        """``enable`` event: queue the clears of latched overrides and the System *Enable*.

        Parameters
        ----------
        subsystems : sequence of ActuatorStatus
            Steering, brake, throttle and ULC statuses (this order).
        """
        for i, s in enumerate(subsystems):
            if s.override_latched:
                self.pending_clear[i] = True
        self.enable_pending = True

    def on_disable(self) -> bool:
        """``disable`` event: System *Disable*. Returns True if the system was ACTIVE."""
        for i in range(4):
            self.pending_clear[i] = False
        self.enable_pending = False
        was = self.active
        self.active = False
        self.override_other = False
        return was

    def take_clear(self, index: int) -> bool:
        """The one-shot clear bit for the next command of subsystem ``index`` (0..3)."""
        c = self.pending_clear[index]
        self.pending_clear[index] = False
        return c

    def update(self, subsystems: Sequence[ActuatorStatus], gear_fault: bool, gear_override: bool) -> bool:
        """Firmware: leave ACTIVE on a fault or an override. Returns True on that transition.

        Parameters
        ----------
        subsystems : sequence of ActuatorStatus
            Steering, brake and throttle statuses.
        gear_fault, gear_override : bool
            The gear's fault and override.
        """
        if not self.active:
            return False
        if EngageLogic.fault(subsystems, gear_fault):
            self.active = False
            return True
        if EngageLogic.override(subsystems, gear_override):
            self.active = False
            self.override_other = True
            return True
        return False

    def tick(self, t_s: float, subsystems: Sequence[ActuatorStatus], gear_fault: bool,
             gear_override: bool) -> bool:
        """50 ms timer: send the pending System *Enable* once its clears are out.

        Parameters
        ----------
        t_s : float
            Simulation time [s]; the timer fires at multiples of ``tick_s``.
        subsystems : sequence of ActuatorStatus
            Steering, brake, throttle and ULC statuses (this order); the
            firmware's readiness uses the first three.
        gear_fault, gear_override : bool
            The gear's fault and override.

        Returns
        -------
        bool
            True when a System *Enable* was sent on this tick and made the
            system ACTIVE.
        """
        if t_s + 1e-9 < self.next_tick_s:
            return False
        while self.next_tick_s <= t_s + 1e-9:
            self.next_tick_s += self.tick_s
        if not self.enable_pending:
            return False
        for i, s in enumerate(subsystems):
            if self.pending_clear[i] and not s.timeout:
                return False  # its clear has not gone out yet
        self.enable_pending = False  # clears still pending (timed-out subsystems) go with their next command
        trio = subsystems[:3]
        if EngageLogic.fault(trio, gear_fault) or EngageLogic.override(trio, gear_override):
            self.refused += 1
            return False
        self.active = True
        self.override_other = False
        return True
