"""A stream of speed set-points that the DBW's ULC follows, held until the stream goes quiet, then a stop.

What the ``cmd_vel`` (``msg_adapters.cmd_vel``) and ``ackermann`` (``msg_adapters.ackermann``)
interfaces share: each message refreshes a speed set-point [m/s] (along body x, REP-103; negative
= reverse) that goes to the ULC as a ``UlcCmd`` ``CMD_VELOCITY`` with ``enable`` and
``enable_shift`` (and ``enable_shift_park`` when asked), re-sent on every call so that the DBW's
command timeout never fires while the stream lives. When no message has arrived for
``timeout_s`` the set-point becomes 0 m/s: the ULC brakes the vehicle to a stop and holds it
there (with ``shift_park`` it also shifts to PARK after its park delay), until a new message
arrives or :meth:`SetpointStream.reset` is called (another interface takes over,
``msg_adapters.arbiter``). A message with a non-finite value is ignored, as the DBW1 ULC node
suppresses a command with a NaN.
"""

from __future__ import annotations

import math

from acres_dbw_sim.dbw.commands import UlcCmd

__all__ = ["SetpointStream", "IDLE", "TRACKING", "STOPPING"]

#: Stream states: nothing to send, a fresh message in force, the stop after the timeout.
IDLE, TRACKING, STOPPING = "idle", "tracking", "stopping"


class SetpointStream:
    """The ULC speed command of a set-point stream, with its timeout (module docstring).

    Parameters
    ----------
    timeout_s : float
        Age of the last message after which the vehicle is stopped [s], > 0.
    shift_park : bool
        Set ``enable_shift_park`` (leave PARK to drive, park after a stop).

    Raises
    ------
    ValueError
        If ``timeout_s`` is not a positive finite number.

    Attributes
    ----------
    state : str
        ``IDLE``, ``TRACKING`` or ``STOPPING``.
    v_ref_mps : float
        The speed set-point in force [m/s].
    last_message_s : float
        Simulation time of the last message taken [s] (-inf before the first).
    ignored : int
        Messages ignored for a non-finite value since the last reset.
    """

    #: The ``DbwReports`` attributes the stream reads from the reports it is given (the node fills those
    #: every step); the gear report, which :meth:`park_warning` reads, is filled on every call anyway.
    REPORTS_READ: tuple = ()

    def __init__(self, timeout_s: float = 0.5, shift_park: bool = False) -> None:
        if not (isinstance(timeout_s, (int, float)) and math.isfinite(timeout_s) and timeout_s > 0):
            raise ValueError(f"timeout_s={timeout_s!r}: must be a positive number of seconds")
        self.timeout_s = float(timeout_s)
        self.shift_park = bool(shift_park)
        self._ulc = UlcCmd(cmd_type=UlcCmd.CMD_VELOCITY, enable=True, enable_shift=True,
                           enable_shift_park=self.shift_park)
        self.reset()

    def reset(self) -> None:
        """Forget the set-point: send nothing until the next message."""
        self.state = IDLE
        self.v_ref_mps = 0.0
        self.last_message_s = -math.inf
        self.ignored = 0
        self._park_warned = False

    def vehicle_reset(self) -> None:
        """The node reset the vehicle (``~/reset``, ``/initialpose``; the DBW back at power-on). A stream
        keeps its set-point: the client's next message drives again."""

    def ignored_warning(self) -> str | None:
        """After a message was ignored for a NaN or infinite value: the warning to log for the first one and
        every 100th (None for the others)."""
        n = self.ignored
        if n == 1 or n % 100 == 0:
            return (f"ignored a message with a NaN or infinite value ({n} so far); the last valid one stays in "
                    f"force until the timeout")
        return None

    def park_warning(self, reports) -> str | None:
        """A warning, once per stand-still in PARK, when the stream asks to move while the vehicle is in
        PARK and ``shift_park`` is off: the ULC does not leave PARK then, and nothing would say why
        (the DBW's brake hold also shifts to PARK by itself after a long stop). None otherwise.

        Parameters
        ----------
        reports : acres_dbw_sim.dbw.state.DbwReports
            The latest reports (``gear_report.gear``, ds_dbw_msgs/Gear: PARK = 1).
        """
        in_park = reports.gear_report.gear == 1
        if not in_park:
            self._park_warned = False
            return None
        if self.state != TRACKING or self.v_ref_mps == 0.0 or self.shift_park or self._park_warned:
            return None
        self._park_warned = True
        return ("the vehicle is in PARK and the ULC may not leave it: shift out of PARK (a gear command, "
                "initial_gear:=H at start-up) or let the ULC do it (the interface's *_shift_park parameter)")

    def take(self, v_ref_mps: float, t_s: float) -> None:
        """A message with the speed set-point ``v_ref_mps`` [m/s] (finite) arrived at ``t_s`` [s]."""
        self.v_ref_mps = float(v_ref_mps)
        self.last_message_s = t_s
        self.state = TRACKING

    def timed_out(self, t_s: float) -> bool:
        """At ``t_s`` [s]: True on the call that finds the stream quiet for longer than ``timeout_s``
        (the set-point is then 0 m/s at the DBW's default limits, 0 in every limit field, and the state
        ``STOPPING``), else False."""
        if self.state == TRACKING and t_s - self.last_message_s > self.timeout_s + 1e-9:
            self.state = STOPPING
            self.v_ref_mps = 0.0
            ulc = self._ulc
            ulc.limit_accel = ulc.limit_decel = ulc.limit_jerk_throttle = ulc.limit_jerk_brake = 0.0
            return True
        return False

    def ulc_command(self) -> UlcCmd:
        """The ``UlcCmd`` with the set-point in force (the same object every call, overwritten)."""
        self._ulc.cmd = self.v_ref_mps
        return self._ulc
