"""The command-interface state as ``diagnostic_msgs/DiagnosticArray`` for ``/diagnostics``.

One ``DiagnosticStatus`` named :data:`STATUS_NAME`: level ERROR while two or
more interfaces command at once (``msg_adapters.arbiter``), OK otherwise. Its
values: the served interfaces in precedence order, the active ones, the owner
(whose commands are used), the number of conflicts so far and the dropped
command messages per interface.

A second, named :data:`PUBLISHERS_STATUS_NAME`, from the node's graph watch: level
WARN while a command topic has more than one publisher (the last message wins, as
on the CAN bus) or another node publishes this node's ``dbw_enabled`` (two DBW
nodes on one namespace), each such topic a value naming its publishers; OK
otherwise.
"""

from __future__ import annotations

from typing import Any

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

__all__ = ["STATUS_NAME", "PUBLISHERS_STATUS_NAME", "interface_diagnostics", "publishers_status"]

#: ``DiagnosticStatus.name`` of the interface status.
STATUS_NAME = "dbw_node: command interfaces"
#: ``DiagnosticStatus.name`` of the graph watch's status.
PUBLISHERS_STATUS_NAME = "dbw_node: shared topics"


def publishers_status(shared: dict, hardware_id: str = "acres_dbw_sim") -> DiagnosticStatus:
    """The graph watch's status: ``shared`` is ``{topic: [publisher node, ...]}`` of every topic with a
    publisher too many (empty: OK)."""
    status = DiagnosticStatus(
        level=DiagnosticStatus.WARN if shared else DiagnosticStatus.OK, name=PUBLISHERS_STATUS_NAME,
        message=(f"{len(shared)} topic(s) with more than one publisher: the last message wins" if shared
                 else "one publisher per command topic"), hardware_id=hardware_id)
    status.values = [KeyValue(key=topic, value=", ".join(names)) for topic, names in sorted(shared.items())]
    return status


def interface_diagnostics(arbiter: Any, t_s: float, stamp: Any,
                          hardware_id: str = "acres_dbw_sim", shared: dict | None = None) -> DiagnosticArray:
    """Build the array for ``arbiter`` (a ``CommandArbiter``) at simulation time ``t_s`` [s].

    Parameters
    ----------
    arbiter : msg_adapters.arbiter.CommandArbiter
        The node's arbiter (updated to ``t_s`` here).
    t_s : float
        Simulation time [s].
    stamp : builtin_interfaces.msg.Time
        Header stamp.
    hardware_id : str
        ``DiagnosticStatus.hardware_id``.
    shared : dict, optional
        The graph watch's ``{topic: [publisher node, ...]}``: adds :func:`publishers_status`.
    """
    arbiter.update(t_s)
    status = DiagnosticStatus(
        level=DiagnosticStatus.ERROR if arbiter.in_conflict else DiagnosticStatus.OK,
        name=STATUS_NAME, message=arbiter.describe(t_s), hardware_id=hardware_id)
    values = [("interfaces", " > ".join(arbiter.interfaces)),
              ("active", ", ".join(arbiter.active(t_s))),
              ("owner", arbiter.owner(t_s)),
              ("conflicts", str(arbiter.conflicts))]
    values += [(f"dropped_{n}", str(arbiter.dropped[n])) for n in arbiter.interfaces]
    status.values = [KeyValue(key=k, value=v) for k, v in values]
    out = DiagnosticArray(status=[status] if shared is None else [status, publishers_status(shared, hardware_id)])
    out.header.stamp = stamp
    return out
