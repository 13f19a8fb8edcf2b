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
           within a window of at most 10 s, from 1 s before it first moves
turn       a sweep reaching a lateral acceleration |v r| >= 2 m/s^2
========== ============================================================================

Of each kind, the :data:`MAX_PER_KIND` segments with the largest excitation
are kept. Bags driven by the ULC (``ulc/cmd``) carry no pedal commands: their
longitudinal segments are not found (steering ones are).

Each segment is replayed **open loop from the recorded state** with
:func:`acres_dbw_sim.replay.run_replay`: a copy of the bag's
:class:`~acres_dbw_sim.replay.ReplayInput` cut to the segment, with the DBW
enabled if it was and the latest command of each stream re-delivered at step
0, the actuators, wheels and powertrain as the reports give them
(:func:`recorded_start`), and the pose dead-reckoned (:func:`recorded_pose`).
Where the replay starts is the segment's *anchor* (``k_warm``):

* the last standstill (speed below 0.02 m/s and throttle released for 0.5 s,
  no gear command in the 1.5 s before) within 15 s before the segment, 0.8 s
  before the standstill ends (the actuators settle on the re-delivered
  commands), or the bag's first step (the segment then starts as the whole
  bag does);
* the recorded state 0.5 s before a segment rolling at 1.5 m/s or more (at
  both instants) when there is no such standstill, or on a slope steeper
  than 2 % (a standstill there holds in its tyres what the stop wound into
  them, which sets how the vehicle moves off and no report shows), unless
  the recorded speed gives that state only to more than 0.003 m/s
  (:func:`recorded_se`: a noisy sensor);
* otherwise 2 s before the segment.

The time from the anchor to the segment is replayed but left out of the
residual; it is driven by the parameters of groups fitted before (see
:data:`.keys.GROUPS` for the order).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..dbw import commands as C
from ..replay import ReplayInput, run_replay
from ..simulation import RecordedStart
from ..replay.params import GEARS

__all__ = ["Segment", "MAX_PER_KIND", "find_segments", "segment_input", "recorded_start", "recorded_at", "recorded_se",
           "recorded_pose",
           "replay_segment", "residual"]

_TIMEOUT_S = 0.1
#: Segments kept per kind (the most excited): the fit's cost grows with them, its information
#: soon stops growing (a 5-minute drive has about 18 of each).
MAX_PER_KIND = 6
#: The replay of a segment starts this long before the end of the last standstill [s]
#: (the actuators settle on the re-delivered commands) ...
_SETTLE_S = 0.8
#: ... and at most this long before it [s]; without one, this long before it from the recorded speed:
_LOOKBACK_S = 15.0
_FALLBACK_S = 2.0
#: A segment that starts rolling (recorded speed at least this [m/s]) is replayed from the recorded
#: state this long before it [s].
_ROLLING_MPS = 1.5
_LEAD_S = 0.5
#: ... on ground steeper than this [%] (or without a standstill within the lookback), and when the
#: recorded speed gives that state to this standard error [m/s] (:func:`recorded_se`); a noisier
#: recording starts from the last standstill within the lookback, which is exact.
_LEVEL_PCT = 2.0
_START_SE_MPS = 0.003
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

    # on a slope a standstill holds in its tyres what the stop wound into them (no report shows it,
    # and it sets how the vehicle moves off): there a rolling segment starts from the recorded state
    sloped = math.hypot(float(inp.params.get("grade_pct") or 0.0), float(inp.params.get("bank_pct") or 0.0)) \
        > _LEVEL_PCT

    def add(kind: str, k0: int, k1: int, peak: float, kw: int | None = None) -> int | None:
        """Append a segment (replayed from ``kw`` if given); returns its ``k_warm``."""
        k0, k1 = max(0, int(k0)), min(n, int(k1))
        if k1 - k0 < s(0.8) or not math.isfinite(v[k0]):
            return None
        if kw is None:
            i = np.searchsorted(rest_k, k0, side="right") - 1
            k_lead = k0 - s(_LEAD_S)
            rolling = k_lead >= 0 and min(v[k0], v[k_lead]) >= _ROLLING_MPS
            anchored = i >= 0 and rest_k[i] >= k0 - s(_LOOKBACK_S)
            if rolling and (not anchored or (sloped and recorded_se(inp, "speed_mps", k_lead * dt) <= _START_SE_MPS)):
                kw = k_lead              # rolling: from the recorded state just before
            elif anchored:
                kw = int(rest_k[i])
            else:
                kw = max(0, k0 - s(_FALLBACK_S))
        if rest[kw]:          # a standstill: at rest, whatever the report's last quantum says
            speed = 0.0
        else:
            vk = recorded_at(inp, "speed_mps", kw * dt)
            speed = max(0.0, vk) if vk is not None else float(inp.params["initial_speed_mps"])
        segs.append(Segment(kind, kw, k0, k1, k0 * dt, k1 * dt, speed, gear[kw], float(peak)))
        return kw

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
        # a window begins 1 s before the steering command first moves in the run (not in a launch)
        held = steer[a:b]
        moved = np.flatnonzero(np.isfinite(held) & (np.abs(held - held[0]) > 1.0)) if np.isfinite(held[0]) else []
        if len(moved):
            k = max(a, a + int(moved[0]) - s(1.0))
        warm = None     # the windows after the first of a run replay from the first's start (not mid-turn)
        while k < b - s(0.8):
            e = min(b, k + s(10.0))
            w = steer[k:e]
            if np.isfinite(w).any() and np.nanmax(w) - np.nanmin(w) >= 10.0:
                kw = add("sweep", k, e, float(np.nanmax(w) - np.nanmin(w)), warm)
                warm = kw if warm is None else warm
                ay = np.abs(v[k:e] * r[k:e])
                if np.isfinite(ay).any() and np.nanmax(ay) >= 2.0:
                    add("turn", k, e, float(np.nanmax(ay)), kw)
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
    start = None
    if kw > 0:    # at the bag's first step the segment starts as the whole bag does
        p["initial_speed_mps"] = float(seg.speed_mps)
        p["initial_gear"] = seg.gear if not (seg.gear == "P" and seg.speed_mps > 0.3) else "D"
        start = recorded_start(inp, kw, seg.speed_mps == 0.0, latest if enabled else {})
        p["initial_x_m"], p["initial_y_m"], p["initial_yaw_rad"] = recorded_pose(inp, kw * inp.dt_s)
    t0 = kw * inp.dt_s
    refs = {}
    for name in signals:
        if name in inp.references:
            tr, vr = (np.asarray(x, float) for x in inp.references[name])
            m = (tr >= t0) & (tr <= ke * inp.dt_s + 1e-9)
            refs[name] = (tr[m] - t0, vr[m])
    return dataclasses.replace(inp, params=p, n_steps=ke - kw, events=prefix + body, references=refs,
                               problems=[], start=start)


def recorded_pose(inp: ReplayInput, t_s: float) -> tuple:
    """``(x_m, y_m, yaw_rad)`` in the odom frame at ``t_s``, dead-reckoned from the recording.

    The heading integrates the recorded IMU yaw rate from the bag's initial yaw
    (``initial_yaw_rad``), the position the recorded speed along it from
    ``initial_x_m, initial_y_m`` (trapezoidal rule, ``scipy.integrate.cumulative_trapezoid``).
    On a slope the heading decides the grade the vehicle climbs; a bag without a yaw rate
    keeps the initial heading, without a speed the initial position. The body's yaw rate is
    taken as the heading's rate, which on a grade of g is off by about g^2/2 (0.5 % at 10 %).

    Returns
    -------
    tuple of float
        x [m], y [m], yaw [rad].
    """
    from scipy.integrate import cumulative_trapezoid
    p = inp.params
    x0, y0, yaw0 = float(p["initial_x_m"]), float(p["initial_y_m"]), float(p["initial_yaw_rad"])

    def integral(name: str, f=None, t_end: float = t_s) -> tuple:
        ref = inp.references.get(name)
        if ref is None or len(ref[0]) < 2:
            return None
        tr, vr = np.asarray(ref[0], float), np.asarray(ref[1], float)
        ok = np.isfinite(vr)
        tr, vr = np.concatenate(([0.0], tr[ok])), np.concatenate(([vr[ok][0] if ok.any() else 0.0], vr[ok]))
        m = tr <= t_end + 1e-9
        tr, vr = tr[m], vr[m]
        return tr, cumulative_trapezoid(vr if f is None else f(tr, vr), tr, initial=0.0)

    yaw = integral("yaw_rate_rad_s")
    yaw_at = (lambda t: yaw0 + np.interp(t, yaw[0], yaw[1])) if yaw is not None else (lambda t: yaw0 + 0.0 * t)
    psi = float(yaw_at(t_s))
    xs = integral("speed_mps", lambda t, v: v * np.cos(yaw_at(t)))
    ys = integral("speed_mps", lambda t, v: v * np.sin(yaw_at(t)))
    if xs is None:
        return x0, y0, psi
    return x0 + float(xs[1][-1]), y0 + float(ys[1][-1]), psi


#: Length of the window of recorded samples before a rolling start its speeds are fitted over [s].
STATE_WINDOW_S = 0.2


def recorded_at(inp: ReplayInput, name: str, t_s: float, window_s: float = STATE_WINDOW_S) -> float | None:
    """A recorded signal's value at ``t_s``: the straight line fitted to its samples within
    ``[t_s - window_s, t_s]`` (``numpy.polynomial.Polynomial.fit``), evaluated at ``t_s``.

    Exact for a signal that changes linearly across the window; averages the report's
    quantum and a sensor's noise over the window's samples (11 of a 50 Hz report, 21 of a
    100 Hz one). The window ends at ``t_s``: a command given then (a rolling start often
    lies where the pedals change) acts only later, after its dead time. With fewer than
    three samples, linear interpolation; None without samples.
    """
    ref = inp.references.get(name)
    if ref is None:
        return None
    tr, vr = np.asarray(ref[0], float), np.asarray(ref[1], float)
    ok = np.isfinite(vr)
    tr, vr = tr[ok], vr[ok]
    if not len(tr):
        return None
    m = (tr >= t_s - window_s - 1e-9) & (tr <= t_s + 1e-9)
    if m.sum() >= 3 and np.ptp(tr[m]) > 0:
        return float(np.polynomial.Polynomial.fit(tr[m], vr[m], 1)(t_s))
    return float(np.interp(t_s, tr, vr))


def recorded_se(inp: ReplayInput, name: str, t_s: float, window_s: float = STATE_WINDOW_S) -> float:
    """Standard error of :func:`recorded_at` at ``t_s`` [unit of the signal] (inf without three samples).

    ``2 s / sqrt(n)``: the scatter ``s`` of the window's ``n`` samples about their line, and the
    factor of a line's value at the end of its window.
    """
    ref = inp.references.get(name)
    if ref is None:
        return math.inf
    tr, vr = np.asarray(ref[0], float), np.asarray(ref[1], float)
    m = np.isfinite(vr) & (tr >= t_s - window_s - 1e-9) & (tr <= t_s + 1e-9)
    if m.sum() < 3 or np.ptp(tr[m]) <= 0:
        return math.inf
    line = np.polynomial.Polynomial.fit(tr[m], vr[m], 1)
    res = vr[m] - line(tr[m])
    return float(2.0 * np.sqrt(np.sum(res * res) / (m.sum() - 2)) / np.sqrt(m.sum()))


def _latest(inp: ReplayInput, name: str, t_s: float) -> float | None:
    """The last finite recorded sample of ``name`` at or before ``t_s`` (None if there is none)."""
    ref = inp.references.get(name)
    if ref is None:
        return None
    tr, vr = np.asarray(ref[0], float), np.asarray(ref[1], float)
    i = int(np.searchsorted(tr, t_s + 1e-9, side="right")) - 1
    while i >= 0 and not math.isfinite(vr[i]):
        i -= 1
    return float(vr[i]) if i >= 0 else None


def recorded_start(inp: ReplayInput, k: int, still: bool, commands: dict) -> RecordedStart:
    """The recorded state at step ``k`` (:class:`~acres_dbw_sim.simulation.RecordedStart`).

    Each value is the last recorded report at or before the step: brake pressure output,
    throttle pedal output, steering-wheel angle, wheel speeds, engine speed. A bag without
    the actuator reports gives the held command instead (``commands``: ``{type: (step,
    command)}`` of the latest command of each stream while the DBW is enabled; pressure and
    percent commands only). ``still``: the vehicle stands (an anchor): wheels at rest.

    Parameters
    ----------
    inp : ReplayInput
        The whole bag.
    k : int
        Physics step of the start.
    still : bool
    commands : dict

    Returns
    -------
    RecordedStart
    """
    t = k * inp.dt_s
    brake = _latest(inp, "brake_pressure_bar", t)
    pedal = _latest(inp, "pedal_pct", t)
    steer = _latest(inp, "steering_wheel_angle_deg", t)
    if brake is None:
        cmd = commands.get(C.BrakeCmd, (0, None))[1]
        brake = float(cmd.cmd) if cmd is not None and cmd.cmd_type == C.BrakeCmd.CMD_PRESSURE else None
    if pedal is None:
        cmd = commands.get(C.ThrottleCmd, (0, None))[1]
        pedal = float(cmd.cmd) if cmd is not None and cmd.cmd_type == C.ThrottleCmd.CMD_PERCENT else None
    if steer is None:
        cmd = commands.get(C.SteeringCmd, (0, None))[1]
        steer = float(cmd.cmd) if cmd is not None and cmd.cmd_type == C.SteeringCmd.CMD_ANGLE else None
    spins = [recorded_at(inp, f"wheel_speed_{w}_rad_s", t) for w in ("fl", "fr", "rl", "rr")]
    wheel = (0.0, 0.0, 0.0, 0.0) if still else (tuple(spins) if all(x is not None for x in spins) else None)
    return RecordedStart(brake_bar=brake, pedal_pct=pedal, steering_wheel_deg=steer, wheel_spin_rad_s=wheel,
                         engine_rpm=_latest(inp, "engine_rpm", t))


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

    The simulated side is the simulated report before its quantum (the replay's
    ``exact_signals``: the speed ``vehicle_velocity`` measures, with the lever's sign under
    DIR_PRNDL, and the body's yaw rate; at the end of every step, linearly interpolated), not
    the quantised report: the quantum (``vehicle_velocity`` 0.01 km/h, IMU 0.0002 rad/s) would
    make the sum of squares a staircase in the parameters and the finite-difference Jacobian
    noise. The recorded side keeps its quantisation, a zero-mean error.

    ``res`` may be the replay of a longer window from the same ``k_warm`` (segments
    sharing an anchor are replayed once).

    Returns
    -------
    (t_s, residual, recorded) : tuple of ndarray
        On the segment's time axis [s] (0 at ``k_warm``); the unit of the signal.
    """
    tr, vr = res.input.references.get(signal, (np.zeros(0), np.zeros(0)))
    t_sim = res.sim_t_s
    lo = (seg.k_start - seg.k_warm) * res.input.dt_s
    hi = min(t_sim[-1], (seg.k_end - seg.k_warm) * res.input.dt_s)
    m = np.isfinite(vr) & (tr >= lo - 1e-9) & (tr <= hi + 1e-9)
    sim = np.interp(tr[m], t_sim, res.exact_signals[signal])
    return tr[m], sim - vr[m], vr[m]
