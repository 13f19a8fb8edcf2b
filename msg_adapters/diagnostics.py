"""The command-interface state as ``diagnostic_msgs/DiagnosticArray`` for ``/diagnostics``.

One ``DiagnosticStatus`` named :data:`STATUS_NAME`: level ERROR while two or
more interfaces command at once (``msg_adapters.arbiter``), OK otherwise. Its
values: the served interfaces in precedence order, the active ones, the owner
(whose commands are used), the number of conflicts so far and the dropped
command messages per interface.
"""

from __future__ import annotations

from typing import Any

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

__all__ = ["STATUS_NAME", "interface_diagnostics"]

#: ``DiagnosticStatus.name`` of the interface status.
STATUS_NAME = "dbw_node: command interfaces"


def interface_diagnostics(arbiter: Any, t_s: float, stamp: Any,
                          hardware_id: str = "acres_dbw_sim") -> DiagnosticArray:
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
    out = DiagnosticArray(status=[status])
    out.header.stamp = stamp
    return out
