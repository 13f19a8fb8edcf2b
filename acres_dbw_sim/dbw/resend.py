"""A streamed command arriving: what the driver does to its enable and clear bits, and the store of an
unchanged re-send from compiled code.

``DbwSystem.submit`` stores every steering, brake, throttle and ULC command with the bits
:func:`command_bits` gives (dbw-interface.md §4.1 for the driver-managed mode, §4.2 for the
firmware-managed one). A compiled loop that re-sends an unchanged command (the scenario runner's,
``Simulation.run_recorded``) stores the decoding the actuator kept for it with :func:`store_kept`,
which takes the same bits: the record ends as ``submit`` leaves it (tested field for field).
"""
from __future__ import annotations

from ..model._jit import njit
from .pedals import brake_store, throttle_store
from .status import BRAKE, STEERING, THROTTLE, sync_take_clear
from .steering import steering_store
from .ulc import ulc_store

__all__ = ["command_bits", "store_kept"]


@njit
def command_bits(S, i: int) -> tuple:
    """What the driver does to the enable and clear bits of a command for status slot ``i`` (STEERING, BRAKE,
    THROTTLE, ULC) arriving now: ``(mask, clear)``. Driver-managed (§4.1): the enable bit is masked by the
    driver's enabled state and a clear is added while the enable request stands and the slot's override is
    latched. Firmware-managed (§4.2): the enable bit passes and the clear is the one-shot clear queued after an
    enable event (taken here)."""
    s = S[0]
    if s.sys_firmware_managed:
        return True, sync_take_clear(S, i)
    return s.eng_enabled != 0, s.eng_request != 0 and s.st_override_latched[i] != 0


@njit
def store_kept(S, i: int, t_s: float, a) -> None:
    """Store a command for status slot ``i`` arriving at ``t_s`` [s] whose decoding was kept
    (``DbwSystem.kept_command``: an unchanged re-send), as ``DbwSystem.submit`` stores it.

    ``a`` (float array) holds the decoding the actuator's ``LastCommand`` kept, flattened: the set-points of
    the slot's store function (:func:`~acres_dbw_sim.dbw.steering.steering_store`,
    :func:`~acres_dbw_sim.dbw.pedals.brake_store`, :func:`~acres_dbw_sim.dbw.pedals.throttle_store`,
    :func:`~acres_dbw_sim.dbw.ulc.ulc_store`; integers and flags as numbers), then the message's enable and
    clear bits (and its ignore bit but for the ULC), which :func:`command_bits` masks and adds to (§4.1)."""
    mask, clr = command_bits(S, i)
    if i == STEERING:
        steering_store(S, t_s, int(a[0]), a[1], a[2], a[3], a[4], a[5], a[6] != 0.0, a[7] != 0.0 and mask,
                       a[8] != 0.0 or clr, a[9] != 0.0)
    elif i == BRAKE:
        brake_store(S, t_s, int(a[0]), a[1], a[2], a[3] != 0.0, a[4], a[5], a[6] != 0.0 and mask,
                    a[7] != 0.0 or clr, a[8] != 0.0)
    elif i == THROTTLE:
        throttle_store(S, t_s, int(a[0]), a[1], a[2] != 0.0, a[3], a[4], a[5] != 0.0 and mask, a[6] != 0.0 or clr,
                       a[7] != 0.0)
    else:
        ulc_store(S, t_s, int(a[0]), a[1], a[2], a[3], a[4], a[5], a[6] != 0.0, a[7] != 0.0, a[8] != 0.0,
                  a[9] != 0.0 and mask, a[10] != 0.0 or clr)
