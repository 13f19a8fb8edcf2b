"""Segments of a bag that excite each parameter group, and their open-loop replay.

Classification works on the bag's DBW commands (held between messages, and
dropped after the command timeout of 0.1 s like the DBW drops them) and on the
recorded ``vehicle_velocity`` and IMU yaw rate, on the physics-step grid:

========== ============================================================================
kind       chosen where
========== ============================================================================
throttle   a throttle command rises above 2 % with the brake released (after the bag's
           start); from the step to the end of the throttle run (at most 8 s)
coast      throttle <= 2 %, brake released, recorded speed >= 1.5 m/s for >= 1.5 s;
           from 0.3 s after its start to its end (at most 20 s)
brake      a brake command rises above 0.5 (bar or %) at >= 1 m/s; until the speed
           falls below 0.3 m/s (at most 8 s)
sweep      recorded speed >= 1 m/s and the steering angle command moves by >= 10 deg
           within a window of at most 10 s
turn       a sweep reaching a lateral acceleration |v r| >= 2 m/s^2
========== ============================================================================

Of each kind, the :data:`MAX_PER_KIND` segments with the largest excitation
are kept. Bags driven by the ULC (``ulc/cmd``) carry no pedal commands: their
longitudinal segments are not found (steering ones are).

Each segment is replayed **open loop from a recorded initial state** with
:func:`acres_dbw_sim.replay.run_replay`: a copy of the bag's
:class:`~acres_dbw_sim.replay.ReplayInput` cut to the segment, with the DBW
enabled if it was and the latest command of each stream re-delivered at step
0. The simulation's reset state is exact only for a vehicle standing still
(a moving reset puts the engine and belt at a light-load cruise, which a
coasting or accelerating vehicle is not in; the speed error of such a start
never decays in an open-loop replay). So the replay starts at an *anchor*:
the last standstill (speed below 0.02 m/s and throttle released for 0.5 s)
with the lever settled (no gear command in the 1.5 s before), 0.8 s before
the standstill ends (the actuators settle on the re-delivered commands), at
most 15 s before the segment, or the bag's first step. Without one,
it starts 2 s before the segment from the recorded speed, which is
approximate. The time from the anchor to the segment is replayed but left
out of the residual; it is driven by the parameters of groups fitted before
(see :data:`.keys.GROUPS` for the order).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..dbw import commands as C
from ..replay import ReplayInput, run_replay
from ..replay.offline import GEARS
from ..scenario.signals import COLUMN_NAMES

__all__ = ["Segment", "MAX_PER_KIND", "find_segments", "segment_input", "replay_segment", "residual"]

_TIMEOUT_S = 0.1
#: Segments kept per kind (the most excited): the fit's cost grows with them, its information
#: soon stops growing (a 5-minute drive has about 18 of each).
MAX_PER_KIND = 6
_COL = {name: i for i, name in enumerate(COLUMN_NAMES)}
#: The replay of a segment starts this long before the end of the last standstill [s]
#: (the actuators settle on the re-delivered commands) ...
_SETTLE_S = 0.8
#: ... and at most this long before it [s]; without one, this long before it from the recorded speed:
_LOOKBACK_S = 15.0
_FALLBACK_S = 2.0
_GEAR_LETTER = {int(g): letter for letter, g in GEARS.items() if letter != "H"}


@dataclass(frozen=True)
class Segment:
    """A window of the bag replayed on its own.

    Attributes
    ----------
    kind : str
        ``throttle``, ``coast``, ``brake``, ``sweep`` or ``turn``.
    k_warm, k_start, k_end : int
        Physics steps: replay from ``k_warm``, residual over ``[k_start, k_end)``.
    t_start_s, t_end_s : float
        Simulation time of ``k_start`` and ``k_end`` [s] (bag time minus epoch).
    speed_mps : float
        Recorded speed at ``k_warm`` [m/s] (the replay's initial speed).
    gear : str
        Lever position at ``k_warm`` (``P R N D L``).
    peak : float
        Size of the excitation: command step [%, bar], steering travel [deg],
        speed drop [m/s] or lateral acceleration [m/s^2].
    """

    kind: str
    k_warm: int
    k_start: int
    k_end: int
    t_start_s: float
    t_end_s: float
    speed_mps: float
    gear: str
    peak: float

    @property
    def label(self) -> str:
        """``kind t0-t1 s``."""
        return f"{self.kind} {self.t_start_s:.1f}-{self.t_end_s:.1f} s"


def _held(inp: ReplayInput, cls: type, value) -> np.ndarray:
    """Per step the value of the latest ``cls`` command (0 before any, and after the timeout)."""
    n = inp.n_steps
    out = np.zeros(n)
    k_to = max(1, int(round(_TIMEOUT_S / inp.dt_s)))
    last_k, last_v = None, 0.0
    marks = [(k, value(obj)) for k, obj in inp.events if isinstance(obj, cls)]
    j = 0
    for k in range(n):
        while j < len(marks) and marks[j][0] <= k:
            last_k, last_v = marks[j]
            j += 1
        out[k] = last_v if last_k is not None and k - last_k <= k_to else 0.0
    return out


def _runs(mask: np.ndarray) -> list:
    """``[(start, end)]`` of the True runs of ``mask`` (end exclusive)."""
    d = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)))


def _recorded(inp: ReplayInput, name: str, t: np.ndarray) -> np.ndarray:
    ref = inp.references.get(name)
    if ref is None or len(ref[0]) == 0:
        return np.full(len(t), np.nan)
    tr, vr = np.asarray(ref[0], float), np.asarray(ref[1], float)
    ok = np.isfinite(vr)
    return np.interp(t, tr[ok], vr[ok]) if ok.any() else np.full(len(t), np.nan)


def _pedal(cmd) -> float:
    return float(cmd.cmd) if cmd.enable and cmd.cmd_type != 0 and not cmd.ignore else 0.0


def _steer(cmd) -> float:
    return float(cmd.cmd) if cmd.cmd_type == C.SteeringCmd.CMD_ANGLE else math.nan


def find_segments(inp: ReplayInput, max_per_kind: int | None = MAX_PER_KIND) -> list:
    """Segments of the bag by excitation (see the module's table).

    Parameters
    ----------
    inp : ReplayInput
        The whole bag (:func:`acres_dbw_sim.replay.load_replay`).
    max_per_kind : int or None
        Keep at most this many segments of each kind, those with the largest excitation
        (``peak``); None keeps all.

    Returns
    -------
    list of Segment
        Ordered by kind, then time.
    """
    n, dt = inp.n_steps, inp.dt_s
    if n < 2:
        return []
    t = np.arange(n) * dt
    thr = _held(inp, C.ThrottleCmd, _pedal)
    brk = _held(inp, C.BrakeCmd, _pedal)
    steer_marks = [(k, _steer(o)) for k, o in inp.events if isinstance(o, C.SteeringCmd)]
    steer = np.full(n, np.nan)
    for k, v in steer_marks:
        if k < n:
            steer[k:] = v
    v = _recorded(inp, "speed_mps", t)
    r = _recorded(inp, "yaw_rate_rad_s", t)
    gear = _gear_track(inp)
    s = lambda sec: max(1, int(round(sec / dt)))  # noqa: E731
    segs: list = []

    # anchors: steps at which the simulation's reset reproduces the recorded state exactly: standing
    # still (recorded speed < 0.02 m/s, throttle command <= 2 %, for 0.5 s) with the lever settled
    # (no gear command in the 1.5 s before), or the bag's first step
    still = (v < 0.02) & (thr <= 2.0)
    w = s(0.5)            # ... for 0.5 s with the throttle released (the powertrain at idle)
    rest = np.array([bool(still[max(0, k - w):k + 1].all()) for k in range(n)])
    for k, obj in inp.events:
        if isinstance(obj, C.GearCmd) and k < n:
            rest[k:k + s(1.5)] = False
    # the latest anchor of each standstill lies 0.8 s before its end, so that the actuators settle
    # on the re-delivered commands before the next change
    rest_k = sorted({0} | {int(b) - 1 - s(_SETTLE_S) for a, b in _runs(rest) if b - 1 - s(_SETTLE_S) >= a})
    rest_k = np.array(rest_k, dtype=int)

    def add(kind: str, k0: int, k1: int, peak: float) -> None:
        k0, k1 = max(0, int(k0)), min(n, int(k1))
        if k1 - k0 < s(0.8) or not math.isfinite(v[k0]):
            return
        i = np.searchsorted(rest_k, k0, side="right") - 1
        if i >= 0 and rest_k[i] >= k0 - s(_LOOKBACK_S):
            kw = int(rest_k[i])
        else:
            kw = max(0, k0 - s(_FALLBACK_S))
        speed = float(max(0.0, v[kw])) if math.isfinite(v[kw]) else float(inp.params["initial_speed_mps"])
        segs.append(Segment(kind, kw, k0, k1, k0 * dt, k1 * dt, speed, gear[kw], float(peak)))

    driving = (thr > 2.0) & (brk <= 0.5)
    for a, b in _runs(driving):
        if a == 0:          # pressed since before the bag: no step seen
            continue
        add("throttle", a, min(b, a + s(8.0)), float(thr[a:b].max()))
    braking = brk > 0.5
    for a, b in _runs(braking):
        if v[a] < 1.0:
            continue
        slow = np.flatnonzero(v[a:b] < 0.3)
        end = a + int(slow[0]) if len(slow) else b
        add("brake", a, min(end, a + s(8.0)), float(brk[a:b].max()))
    coasting = (thr <= 2.0) & (brk <= 0.5) & (v >= 1.5)
    for a, b in _runs(coasting):
        if b - a >= s(1.5):
            a2 = a + s(0.3)
            add("coast", a2, min(b, a2 + s(20.0)), float(v[a2] - v[b - 1]))
    moving = v >= 1.0
    for a, b in _runs(moving):
        k = a
        while k < b - s(0.8):
            e = min(b, k + s(10.0))
            w = steer[k:e]
            if np.isfinite(w).any() and np.nanmax(w) - np.nanmin(w) >= 10.0:
                add("sweep", k, e, float(np.nanmax(w) - np.nanmin(w)))
                ay = np.abs(v[k:e] * r[k:e])
                if np.isfinite(ay).any() and np.nanmax(ay) >= 2.0:
                    add("turn", k, e, float(np.nanmax(ay)))
            k = e
    order = {"sweep": 0, "turn": 1, "throttle": 2, "coast": 3, "brake": 4}
    if max_per_kind is not None:
        keep = []
        for kind in order:
            of_kind = sorted((g for g in segs if g.kind == kind), key=lambda g: (-g.peak, g.k_start))
            keep += of_kind[:max_per_kind]
        segs = keep
    return sorted(segs, key=lambda g: (order[g.kind], g.k_start))


def _gear_track(inp: ReplayInput) -> list:
    """Lever letter per step: the initial one, then each gear command's."""
    n = inp.n_steps
    letter = inp.params.get("initial_gear", "P")
    out = [letter] * n
    for k, obj in inp.events:
        if isinstance(obj, C.GearCmd) and int(obj.cmd) in _GEAR_LETTER and k < n:
            letter = _GEAR_LETTER[int(obj.cmd)]
            out[k:] = [letter] * (n - k)
    return out


def segment_input(inp: ReplayInput, seg: Segment, overrides: str, signals: tuple) -> ReplayInput:
    """The bag's :class:`ReplayInput` cut to ``seg``: time 0 is ``k_warm``.

    Parameters
    ----------
    inp : ReplayInput
        The whole bag.
    seg : Segment
    overrides : str
        ``key=value;...`` appended to the bag's ``overrides`` (later keys win).
    signals : tuple of str
        Recorded signals to keep (the residual's).

    Returns
    -------
    ReplayInput
        Events of ``[k_warm, k_end)`` shifted by ``-k_warm``, preceded at step 0 by
        ``enable`` (if the last engagement event before was ``enable``) and the
        latest command of each stream younger than the command timeout;
        initial speed and lever from the recording.
    """
    kw, ke = seg.k_warm, seg.k_end
    latest: dict = {}
    enabled = False
    body = []
    k_to = max(1, int(round(_TIMEOUT_S / inp.dt_s)))
    for k, obj in inp.events:
        if k < kw:
            if obj is C.ENABLE:
                enabled = True
            elif obj is C.DISABLE:
                enabled = False
            elif not isinstance(obj, (C.GearCmd, C.SteeringCalibrateEvent)):
                latest[type(obj)] = (k, obj)
        elif k < ke:
            body.append((k - kw, obj))
    prefix = [(0, C.ENABLE)] if enabled else []
    prefix += [(0, obj) for k, obj in sorted(latest.values(), key=lambda x: x[0]) if kw - k <= k_to]
    p = dict(inp.params)
    base = p.get("overrides") or ""
    p["overrides"] = ";".join(x for x in (base, overrides) if x)
    p["initial_speed_mps"] = float(seg.speed_mps)
    p["initial_gear"] = seg.gear if not (seg.gear == "P" and seg.speed_mps > 0.3) else "D"
    t0 = kw * inp.dt_s
    refs = {}
    for name in signals:
        if name in inp.references:
            tr, vr = (np.asarray(x, float) for x in inp.references[name])
            m = (tr >= t0) & (tr <= ke * inp.dt_s + 1e-9)
            refs[name] = (tr[m] - t0, vr[m])
    return dataclasses.replace(inp, params=p, n_steps=ke - kw, events=prefix + body, references=refs,
                               problems=[])


def replay_segment(inp: ReplayInput, seg: Segment, overrides: str, signals: tuple):
    """Run :func:`segment_input` through :func:`acres_dbw_sim.replay.run_replay`.

    Returns
    -------
    acres_dbw_sim.replay.ReplayResult
        On the segment's time axis (0 at ``k_warm``).

    Raises
    ------
    acres_dbw_sim.replay.ReplayError
        If the overrides are invalid (the loader's message names the key).
    """
    return run_replay(segment_input(inp, seg, overrides, signals))


def residual(res, seg: Segment, signal: str) -> tuple:
    """Simulated - recorded ``signal`` at the recorded samples of ``[k_start, k_end)``.

    The simulated side is the model's state (the replay's ``timeseries`` column of the same
    name, at the end of every step, linearly interpolated), not the simulated report: the
    report's quantisation (``vehicle_velocity`` 0.01 km/h, IMU 0.0002 rad/s) would make the sum
    of squares a staircase in the parameters and the finite-difference Jacobian noise. The
    recorded side keeps its quantisation, a zero-mean error.

    ``res`` may be the replay of a longer window from the same ``k_warm`` (segments
    sharing an anchor are replayed once).

    Returns
    -------
    (t_s, residual, recorded) : tuple of ndarray
        On the segment's time axis [s] (0 at ``k_warm``); the unit of the signal.
    """
    tr, vr = res.input.references.get(signal, (np.zeros(0), np.zeros(0)))
    data = res.run.data
    t_sim = data[:, _COL["t_s"]]
    lo = (seg.k_start - seg.k_warm) * res.input.dt_s
    hi = min(t_sim[-1], (seg.k_end - seg.k_warm) * res.input.dt_s)
    m = np.isfinite(vr) & (tr >= lo - 1e-9) & (tr <= hi + 1e-9)
    sim = np.interp(tr[m], t_sim, data[:, _COL[signal]])
    return tr[m], sim - vr[m], vr[m]
