"""Which command interface drives the vehicle when more than one is served.

The node serves the interfaces named in its parameter ``interfaces``
(:data:`INTERFACES`): ``ds_dbw`` (DBW2, ``ds_dbw_msgs``), ``polaris_legacy``
(DBW1, ``dbw_polaris_msgs``), ``autoware`` (Autoware's vehicle interface), ``ackermann``
(``ackermann_msgs/AckermannDriveStamped``) and ``cmd_vel`` (``geometry_msgs/Twist``). The
simulated vehicle takes one set of commands, so two interfaces commanding at
once is an error. It is resolved by a fixed precedence, never by mixing:

1. ``ds_dbw``, 2. ``polaris_legacy``, 3. ``autoware``, 4. ``ackermann``, 5. ``cmd_vel``

(the order of :data:`INTERFACES`): the more direct interface wins, as a safety
driver's joystick (per-actuator commands) wins over an autonomy stack's
velocity commands, and a steering angle over a yaw rate. An interface is *active* while its last command message
is at most :data:`HOLD_S` old (simulation time). While an interface of
higher precedence is active, every command of a lower one is dropped whole
(its steering, pedals and gear alike), and the conflict is reported: the node
logs an error when it begins and when it ends and publishes the state on
``/diagnostics`` (``msg_adapters.diagnostics``). The ``enable``/``disable``
topics are shared by all interfaces and are never dropped.

Pure logic, no ROS: the node calls :meth:`CommandArbiter.claim` for each
command message and :meth:`CommandArbiter.may_command` for the commands the
``cmd_vel``, ``ackermann`` and ``autoware`` adapters re-send by themselves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["INTERFACES", "HOLD_S", "parse_interfaces", "CommandArbiter", "ConflictEvent"]

#: Every interface name, highest precedence first.
INTERFACES = ("ds_dbw", "polaris_legacy", "autoware", "ackermann", "cmd_vel")
#: Time an interface stays active after its last command message [s].
HOLD_S = 0.5


def parse_interfaces(values: Iterable[object]) -> tuple[str, ...]:
    """Validate the ``interfaces`` parameter; return the names in precedence order.

    Parameters
    ----------
    values : iterable of str
        Interface names as given (any order).

    Returns
    -------
    tuple of str
        The names, sorted by precedence (:data:`INTERFACES`).

    Raises
    ------
    ValueError
        If the list is empty, a name is unknown or not a string, or a name
        repeats; the message lists the offending names and the known ones.
    """
    names = list(values)
    if not names:
        raise ValueError(f"is empty; give one or more of {list(INTERFACES)}")
    unknown = [n for n in names if n not in INTERFACES]
    if unknown:
        raise ValueError(f"unknown interface(s) {unknown}; known: {list(INTERFACES)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"interface(s) {repeated} given more than once")
    return tuple(n for n in INTERFACES if n in names)


@dataclass(frozen=True, slots=True)
class ConflictEvent:
    """A conflict began (``started``) or ended.

    Attributes
    ----------
    started : bool
        True when two or more interfaces became active together.
    owner : str
        The interface whose commands are used (highest precedence active one);
        for an end event, the one that remained active ("" if none).
    dropped : tuple of str
        The other active interfaces (whose commands are dropped).
    """

    started: bool
    owner: str
    dropped: tuple[str, ...]


class CommandArbiter:
    """Precedence between the served command interfaces.

    Parameters
    ----------
    interfaces : sequence of str
        The served interfaces (validated with :func:`parse_interfaces`).
    hold_s : float
        Activity window [s] (:data:`HOLD_S`).

    Raises
    ------
    ValueError
        As :func:`parse_interfaces`, or for a non-positive ``hold_s``.

    Attributes
    ----------
    dropped : dict
        Number of command messages dropped per interface.
    conflicts : int
        Number of conflicts that began.
    in_conflict : bool
        Two or more interfaces are active now (as of the last call).
    """

    def __init__(self, interfaces: Sequence[str], hold_s: float = HOLD_S) -> None:
        if not hold_s > 0.0:
            raise ValueError(f"hold_s={hold_s!r}: must be > 0")
        self.interfaces = parse_interfaces(interfaces)
        self.hold_s = float(hold_s)
        self._last = {n: -math.inf for n in self.interfaces}
        self.dropped = {n: 0 for n in self.interfaces}
        self.conflicts = 0
        self.in_conflict = False
        self._events: list[ConflictEvent] = []

    def active(self, t_s: float) -> tuple[str, ...]:
        """Interfaces with a command message in the last ``hold_s`` [s], by precedence."""
        return tuple(n for n in self.interfaces if t_s - self._last[n] <= self.hold_s + 1e-9)

    def owner(self, t_s: float) -> str:
        """The active interface of highest precedence ("" if none is active)."""
        act = self.active(t_s)
        return act[0] if act else ""

    def may_command(self, name: str, t_s: float) -> bool:
        """True if no interface of higher precedence than ``name`` is active at ``t_s``."""
        for n in self.interfaces:
            if n == name:
                return True
            if t_s - self._last[n] <= self.hold_s + 1e-9:
                return False
        raise ValueError(f"interface {name!r} is not served (served: {list(self.interfaces)})")

    def claim(self, name: str, t_s: float) -> bool:
        """A command message of ``name`` arrived at ``t_s`` [s]: may it be used?

        Records the activity first, so a message that is dropped still marks
        its interface active (it is still commanding, and so in conflict).

        Returns
        -------
        bool
            False if an interface of higher precedence is active (the message
            is to be dropped; counted in ``dropped``).

        Raises
        ------
        ValueError
            If ``name`` is not a served interface (a wiring error).
        """
        if name not in self._last:
            raise ValueError(f"interface {name!r} is not served (served: {list(self.interfaces)})")
        self._last[name] = t_s
        ok = self.may_command(name, t_s)
        if not ok:
            self.dropped[name] += 1
        self.update(t_s)
        return ok

    def update(self, t_s: float) -> None:
        """Re-evaluate the conflict state at ``t_s`` [s] (activity expires with time).

        Called on every tick of the node: allocates only when the state changes.
        """
        n = 0
        for last in self._last.values():
            if t_s - last <= self.hold_s + 1e-9:
                n += 1
        conflict = n > 1
        if conflict != self.in_conflict:
            act = self.active(t_s)
            if conflict:
                self.conflicts += 1
                self._events.append(ConflictEvent(True, act[0], act[1:]))
            else:
                self._events.append(ConflictEvent(False, act[0] if act else "", ()))
        self.in_conflict = conflict

    def take_events(self) -> Sequence[ConflictEvent]:
        """Conflict begin/end events since the last call, oldest first (empty if none)."""
        if not self._events:
            return ()
        out, self._events = self._events, []
        return out

    def describe_event(self, event: ConflictEvent) -> str:
        """One line for the log of a conflict event."""
        order = " > ".join(self.interfaces)
        if event.started:
            return (f"two command interfaces at once: {', '.join((event.owner,) + event.dropped)}; "
                    f"{event.owner} has precedence ({order}), commands of "
                    f"{', '.join(event.dropped)} are dropped while it commands")
        rest = f"; {event.owner} commands" if event.owner else ""
        return f"command interface conflict over{rest}"

    def describe(self, t_s: float) -> str:
        """One line for a log or a diagnostic message."""
        act = self.active(t_s)
        order = " > ".join(self.interfaces)
        if len(act) > 1:
            return (f"interfaces {', '.join(act)} command at once: {act[0]} has precedence "
                    f"({order}); commands of {', '.join(act[1:])} are dropped")
        if act:
            return f"commanded through {act[0]}"
        return "no interface commanding"
