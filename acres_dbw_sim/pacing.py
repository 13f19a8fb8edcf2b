"""How many physics steps a node's timer owes, in each time mode (no ROS import, no state).

The node (:mod:`acres_dbw_sim.node`) keeps the steady-clock instant ``wall_t0`` of
simulation time 0 and the count of steps run since then; at each timer call it asks
:func:`pace` what is owed, and in ``sim`` mode without the clock :func:`clock_due`
what brings it to the owner's ``/clock``. Both return shifts of ``wall_t0`` and of the
epoch of the stamps instead of changing anything, so that a fleet can ask its lead
once and apply the answer to every vehicle.

Times in seconds; ``dt_s`` is the physics step.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["MAX_BATCH_S", "MAX_CATCH_UP_S", "MAX_CATCH_UP_RECORDING_S", "Pacing", "steps_due", "pace",
           "clock_due"]

#: sim mode: simulated time stepped at most between two publications [s]. Clients (their timers run on
#: /clock) must see the clock advance in steps shorter than the 100 ms command timeout, or their commands
#: lapse; when the CPU cannot keep up the simulation runs slower instead.
MAX_BATCH_S = 0.025
#: realtime: steps owed caught up in one tick; more are skipped (the stamps jump forward) [s].
MAX_CATCH_UP_S = 1.0
#: The same while recording a bag (a skip would move the bag's steps off its epoch) [s].
MAX_CATCH_UP_RECORDING_S = 60.0


class Pacing(NamedTuple):
    """A timer call's debt: ``steps`` to run, ``wall_shift_s`` to add to ``wall_t0``, ``epoch_shift_s`` to add
    to the stamps' epoch, ``skipped_s`` of simulated time dropped (realtime, far behind; 0 otherwise)."""

    steps: int
    wall_shift_s: float
    epoch_shift_s: float
    skipped_s: float


def steps_due(now_s: float, wall_t0_s: float, rate: float, dt_s: float, steps_done: int) -> int:
    """Physics steps owed at steady time ``now_s``: ``floor((now - wall_t0) rate / dt) - steps_done`` with 1e-6 of
    a step of slack (a timer call on a step's instant owes that step); may be <= 0.

    Parameters
    ----------
    now_s, wall_t0_s : float
        Steady-clock time of the call and of simulation time 0 [s].
    rate : float
        Simulated seconds per wall second (1 in realtime).
    dt_s : float
        Physics step [s].
    steps_done : int
        Steps run since ``wall_t0``.
    """
    return int((now_s - wall_t0_s) * rate / dt_s + 1e-6) - steps_done


def pace(due: int, dt_s: float, rate: float, sim_mode: bool, recording: bool) -> Pacing:
    """What a timer call does with ``due`` owed steps (:func:`steps_due`).

    ``sim`` mode runs at most :data:`MAX_BATCH_S` of simulated time and moves ``wall_t0`` by the rest (the
    simulation runs slower than asked). Realtime catches up at most :data:`MAX_CATCH_UP_S`
    (:data:`MAX_CATCH_UP_RECORDING_S` while recording) and skips the rest, moving both ``wall_t0`` and the
    epoch so that the stamps jump forward and never lag for good.

    Returns
    -------
    Pacing
        ``steps`` 0 when nothing is owed.
    """
    if due <= 0:
        return Pacing(0, 0.0, 0.0, 0.0)
    if sim_mode:
        max_steps = max(1, int(MAX_BATCH_S / dt_s))
        if due > max_steps:
            return Pacing(max_steps, (due - max_steps) * dt_s / rate, 0.0, 0.0)
        return Pacing(due, 0.0, 0.0, 0.0)
    limit_s = MAX_CATCH_UP_RECORDING_S if recording else MAX_CATCH_UP_S
    max_steps = max(1, int(limit_s / dt_s))
    if due > max_steps:
        skipped_s = (due - max_steps) * dt_s
        return Pacing(max_steps, skipped_s, skipped_s, skipped_s)
    return Pacing(due, 0.0, 0.0, 0.0)


def clock_due(target_s: float, epoch_s: float, dt_s: float, steps_done: int) -> tuple:
    """(physics steps, epoch shift [s]) that bring a simulation to the owner's ``/clock`` time ``target_s``:
    at most :data:`MAX_CATCH_UP_S` of steps; an owner further ahead (started earlier) is joined there by
    moving the epoch. ``(0, 0.0)`` when the simulation is not behind.

    Parameters
    ----------
    target_s : float
        The owner's ``/clock`` [s].
    epoch_s : float
        The stamps' epoch [s] (stamp = epoch + simulation time).
    dt_s : float
        Physics step [s].
    steps_done : int
        Steps run since the epoch.
    """
    due = int((target_s - epoch_s) / dt_s + 1e-6) - steps_done
    if due <= 0:
        return 0, 0.0
    max_steps = max(1, int(MAX_CATCH_UP_S / dt_s))
    if due > max_steps:
        return max_steps, (due - max_steps) * dt_s
    return due, 0.0
