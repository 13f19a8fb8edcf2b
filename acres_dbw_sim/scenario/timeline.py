"""Playing a scenario's DBW timeline: which commands go out at each physics step (no ROS import).

At the entry's step its commands go out in their written order; a streamed command
(:data:`~acres_dbw_sim.scenario.schema.STREAMED`: steering, brake, throttle, ULC) is
also re-sent at ``command_rate_hz`` until the timeline changes it or sets it to null,
as a client that streams at that rate would, so no command timeout fires. Used by the
scenario runner and by replay's bag synthesiser; what a command does (submit it to the
simulation, write it into a bag) and the stepping between entries stay with the caller.
"""
from __future__ import annotations

__all__ = ["TimelinePlayer"]

_NOTHING: tuple = ()


class TimelinePlayer:
    """The commands of a timeline, step by step.

    Parameters
    ----------
    entries : sequence
        Timeline entries in time order, each with ``step`` (its physics step) and ``commands``
        (``(key, command or None)`` pairs; None ends a stream).
    streamed : iterable of str
        The keys that are re-sent (their send order).
    step_hz, command_rate_hz : float
        Physics rate and the streams' rate [Hz].
    n_steps : int
        Steps of the run.

    Attributes
    ----------
    next_entry_step : int
        The step of the next entry (``n_steps`` after the last).
    next_send, period_steps : float
        The streams' next re-send [step] (at the first step ``k >= next_send - 1e-9``) and their period
        [steps]. A caller that runs the steps up to the next entry itself (``Simulation.run_recorded``)
        re-sends :meth:`resending` on this clock and sets ``next_send`` to where it got.
    """

    def __init__(self, entries, streamed, step_hz: float, command_rate_hz: float, n_steps: int) -> None:
        self.entries = entries
        self.streams: dict = {key: None for key in streamed}   # fixed send order
        self.period_steps = step_hz / command_rate_hz
        self.next_send = 0.0
        self._ei = 0
        self._n = n_steps
        self.next_entry_step = entries[0].step if entries else n_steps

    def resending(self) -> list:
        """The streamed commands being re-sent, in their send order."""
        return [msg for msg in self.streams.values() if msg is not None]

    def at(self, k: int) -> tuple | list:
        """The ``(key, command)`` pairs due at step ``k`` (called once per step, k = 0, 1, ... in order): the
        entry's commands (a streamed one only when not None), then the re-sends of the streams not sent
        by the entry, when the stream period has come. An empty tuple when nothing is due."""
        out = _NOTHING
        sent = _NOTHING
        if k == self.next_entry_step:
            out, sent = [], []
            streams = self.streams
            for key, obj in self.entries[self._ei].commands:
                if key in streams:
                    streams[key] = obj
                    if obj is not None:
                        out.append((key, obj))
                        sent.append(key)
                else:
                    out.append((key, obj))
            self._ei += 1
            self.next_entry_step = self.entries[self._ei].step if self._ei < len(self.entries) else self._n
        if k >= self.next_send - 1e-9:
            for key, msg in self.streams.items():
                if msg is not None and key not in sent:
                    if out is _NOTHING:
                        out = []
                    out.append((key, msg))
            self.next_send += self.period_steps
        return out
