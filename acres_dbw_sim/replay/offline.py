"""Offline replay: a bag's DBW commands into the :class:`~acres_dbw_sim.simulation.Simulation`, no ROS.

Time: simulation time 0 is bag time ``epoch_s`` (stored by the node's
recorder in ``custom_data``; otherwise the bag's first log time). A command
logged at ``t`` is delivered before the first physics step that starts at or
after ``t`` (``k = ceil((t - epoch) / dt)``, with 1/1000 of a step of slack for
the rounding of nanosecond stamps) -- exactly when the node, which stamps a
command with the step it applies it to, applied it. Outputs are stamped
``round((epoch_s + sim.time_s) * 1e9)`` ns, as the node stamps its headers.
So a bag recorded from the node replays step for step: same commands at the
same steps, same outputs.

Messages are taken in file order. A log time earlier than its predecessor's
is "going backwards": up to ``max_backjump_s`` it is replayed at its
predecessor's time; a larger jump (a clock reset) shifts every later message
so that time continues. Either is reported (:class:`~.reader.Problem`).

Outputs (:func:`replay_bag`): the scenario runner's ``timeseries.csv``,
``summary.json``, ``plots.png`` (:func:`acres_dbw_sim.scenario.write_outputs`),
a rosbag2 ``bag/`` with the simulated topics (the node's names, QoS and
stamps; the reports at the real CAN periods unless ``report_rates`` is
``mission``), and ``replay.json`` (problems, timing, and the comparison with the
recorded reports, :mod:`.compare`) with ``overlay.png``.
"""
from __future__ import annotations

import array
import json
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from msg_adapters import bag as B

from ..dbw import commands as core_cmd
from ..dbw.schedule import CanSchedule, report_schedule
from ..model.enums import AwdSwitch, Gear
from ..interface import GEAR_NAMES
from ..model.params import ParameterError
from ..model.terrain import FlatTerrain
from ..scenario.runner import RunResult, finite_json, write_outputs
from ..scenario.schema import InitialSpec, Scenario, TerrainSpec
from ..scenario.signals import RowReader
from ..simulation import MODELS, RecordedStart, Simulation
from ..vehicles import REGISTRY, vehicle_spec
from .reader import BagScan, Problem, scan_bag
from .topics import (COMMAND_TOPICS, DBW_ENABLED_PERIOD_S, ENGAGEMENT_TOPICS, EVENT_TOPICS, IMU_PERIOD_S,
                     NODE_DEFAULTS, REFERENCE_TOPICS, REPORT_TOPICS, TopicMap, ds_type)

__all__ = ["ReplayError", "ReplayInput", "ReplayResult", "load_replay", "check_parameters", "run_replay", "replay_bag",
           "check_output_dir", "OUTPUT_NAMES", "engagement_changes",
           "SIM_SIGNALS", "STATE_SIGNALS", "GEARS", "DRIVE_MODES", "REPLAY_DEFAULTS"]

GEARS = {"P": Gear.PARK, "R": Gear.REVERSE, "N": Gear.NEUTRAL, "H": Gear.DRIVE, "D": Gear.DRIVE, "L": Gear.LOW}
DRIVE_MODES = {"Turf": AwdSwitch.TURF, "2WD": AwdSwitch.TWO_WD, "AWD": AwdSwitch.AWD}
_GEAR_LETTER = {1: "P", 2: "R", 3: "N", 4: "D", 5: "L"}
#: Recorded state read besides the compared signals (a segment's start, :class:`RecordedStart`):
#: ``brake/report`` pressure output [bar], ``throttle/report`` percent output [%], ``throttle/info``
#: engine speed [rpm].
STATE_SIGNALS = ("brake_pressure_bar", "pedal_pct", "engine_rpm")
#: Simulated signals kept per step for the comparison: name -> unit.
SIM_SIGNALS = {"speed_mps": "m/s", "yaw_rate_rad_s": "rad/s", "steering_wheel_angle_deg": "deg",
               "wheel_speed_fl_rad_s": "rad/s", "wheel_speed_fr_rad_s": "rad/s", "wheel_speed_rl_rad_s": "rad/s",
               "wheel_speed_rr_rad_s": "rad/s"}
_STEP_SLACK = 1e-3
_EXACT = ("speed_mps", "yaw_rate_rad_s")   # ReplayResult.exact_signals, after SIM_SIGNALS in each row
#: Where the replay's default differs from the node's (:data:`.topics.NODE_DEFAULTS`): the output bag
#: carries the reports at the real CAN periods, as the vehicle sends them (the node's default,
#: ``mission``, is every report at every physics step). A value recorded in the bag or given as an
#: override still wins.
REPLAY_DEFAULTS = {"report_rates": "vehicle"}
REPORT_RATES = ("mission", "vehicle")


class ReplayError(ValueError):
    """The bag cannot be replayed at all (no command topic or message, bad parameter or output directory);
    the message says why. ``problems`` holds what was found in the bag on the way (may be empty)."""

    def __init__(self, message: str, problems: list | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems or [])


@dataclass
class ReplayInput:
    """A bag read and decoded for replay.

    Attributes
    ----------
    bag : Path
    scan : BagScan
    params : dict
        Node parameters in force (the node's defaults with :data:`REPLAY_DEFAULTS` <- bag <- overrides).
    param_source : dict
        ``{name: 'default' | 'bag' | 'reports' | 'override'}``.
    epoch_s : float
        Bag time of simulation time 0 [s].
    dt_s : float
        Physics step [s].
    n_steps : int
        Steps replayed (to the bag's last message).
    events : list of (int, object)
        ``(step index, core command or event)`` in delivery order.
    command_counts : dict
        ``{bag topic: commands delivered}``.
    references : dict
        ``{signal: (t_s array, value array)}``: recorded reports on the sim time axis: the
        compared signals (:data:`SIM_SIGNALS`) and the recorded state (:data:`STATE_SIGNALS`).
    problems : list of Problem
    start : RecordedStart or None
        Actuator and powertrain state at step 0 beyond the ``initial_*`` parameters
        (``Simulation.reset``); None for a power-on start (a whole bag).
    """

    bag: Path
    scan: BagScan
    params: dict
    param_source: dict
    epoch_s: float
    dt_s: float
    n_steps: int
    events: list
    command_counts: dict
    references: dict
    problems: list = field(default_factory=list)
    start: RecordedStart | None = None


@dataclass
class ReplayResult:
    """What :func:`run_replay` produced.

    Attributes
    ----------
    input : ReplayInput
    run : RunResult
        The scenario runner's result (CSV rows, summary) for the replay.
    sim_t_s : ndarray
        End time of every step [s].
    sim_signals : dict
        ``{name: ndarray}`` per step (:data:`SIM_SIGNALS`), as the simulated reports give them.
    exact_signals : dict
        ``{name: ndarray}`` per step, the same reports before their quantum: ``speed_mps``
        (``DbwSystem.measured_speed_mps``) and ``yaw_rate_rad_s`` (the body's yaw rate); empty
        without references.
    comparison : dict
        From :func:`acres_dbw_sim.replay.compare.compare` (empty without references).
    wall_s : float
        Wall time of the whole replay (stepping and bag writing) [s].
    bag_messages : int
        Messages written to the output bag.
    files : list of Path
    """

    input: ReplayInput
    run: RunResult
    sim_t_s: np.ndarray
    sim_signals: dict
    comparison: dict = field(default_factory=dict)
    exact_signals: dict = field(default_factory=dict)
    wall_s: float = 0.0
    bag_messages: int = 0
    files: list = field(default_factory=list)

    @property
    def real_time_factor(self) -> float:
        """Simulated time / wall time of the replay."""
        return self.run.simulated_s / self.wall_s if self.wall_s > 0 else math.inf


# ---------------------------------------------------------------------------------- reading


def _parse_param(name: str, text: str):
    default = NODE_DEFAULTS[name]
    if isinstance(default, bool):
        if text.lower() not in ("true", "false"):
            raise ReplayError(f"--param {name}={text}: expected true or false")
        return text.lower() == "true"
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ReplayError(f"--param {name}={text}: expected an integer") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise ReplayError(f"--param {name}={text}: expected a number") from None
    return text


def _resolve_params(scan: BagScan, overrides: dict, problems: list) -> tuple:
    params = dict(NODE_DEFAULTS, **REPLAY_DEFAULTS)
    source = {k: "default" for k in params}
    raw = scan.custom.get(B.CUSTOM_PREFIX + "parameters")
    if raw:
        try:
            recorded = json.loads(raw)
            for k, v in recorded.items():
                if k in params and type(v) is type(params[k]) or (k in params and isinstance(params[k], float)
                                                                   and isinstance(v, int)):
                    params[k] = float(v) if isinstance(params[k], float) else v
                    source[k] = "bag"
        except (ValueError, AttributeError):
            problems.append(Problem("corrupt", None, "custom_data acres_dbw_sim.parameters is not JSON: ignored"))
    for k, v in overrides.items():
        if k not in NODE_DEFAULTS:
            raise ReplayError(f"--param {k}: unknown; known: {', '.join(sorted(NODE_DEFAULTS))}")
        params[k] = _parse_param(k, v) if isinstance(v, str) else v
        source[k] = "override"
    return params, source


def load_replay(bag: str | Path, topic_map: TopicMap | None = None, params: dict | None = None,
                max_backjump_s: float = 1.0) -> ReplayInput:
    """Read and decode a bag's command and reference topics.

    Parameters
    ----------
    bag : str or Path
        rosbag2 directory, ``.mcap`` or ``.db3``.
    topic_map : TopicMap, optional
        Default: ``/vehicle`` namespace, no remapping.
    params : dict, optional
        Node-parameter overrides (``{"step_hz": 200.0}`` or text values from ``--param``).
    max_backjump_s : float
        A backwards jump of the log time above this [s] is taken as a clock reset.

    Returns
    -------
    ReplayInput

    Raises
    ------
    ReplayError
        If no command topic can be read, or a parameter is invalid.
    acres_dbw_sim.replay.reader.BagReadError
        If the path is not a bag.
    """
    tm = topic_map or TopicMap()
    scan = scan_bag(bag, lambda t: tm.ours(t) is not None)
    problems = list(scan.problems)
    store = B.typestore()
    p, source = _resolve_params(scan, params or {}, problems)
    if not 60.0 <= p["step_hz"] <= 1000.0:
        raise ReplayError(f"step_hz = {p['step_hz']}: must be within 60..1000 Hz")
    if p["report_rates"] not in REPORT_RATES:
        raise ReplayError(f"report_rates = {p['report_rates']!r}: must be one of {', '.join(REPORT_RATES)}")
    dt = 1.0 / p["step_hz"]
    dt_ns = dt * 1e9

    decoders = {t: B.CommandDecoder(getattr(core_cmd, n)) for t, n in COMMAND_TOPICS}
    events_by_topic = dict(EVENT_TOPICS)

    # unknown or missing types anywhere in the bag
    for cid, ch in scan.channels.items():
        if not ch.msgtype or ch.msgtype == "__schemaless__":
            problems.append(Problem("missing_type", ch.topic, "no message type stored for this topic: its "
                                    f"{ch.count} messages cannot be decoded", ch.count, tm.ours(ch.topic) is not None))
        elif ch.msgtype not in store.fielddefs and not ch.msgdef:
            problems.append(Problem("unknown_type", ch.topic, f"type {ch.msgtype} is neither ours (ds_dbw_msgs, "
                                    "tf2_msgs, ROS 2 Kilted) nor defined in the bag: its messages cannot be "
                                    "decoded", ch.count, tm.ours(ch.topic) is not None))

    usable = select_channels(scan, tm, problems)
    if not any(ours in decoders or ours in events_by_topic for ours, _ in usable.values()):
        cmd_topics = ", ".join(tm.bag_topic(t) for t, _ in COMMAND_TOPICS)
        listing = "; ".join(f"{ch.topic} [{ch.msgtype or '?'}]" for ch in scan.topics().values()) or "none"
        raise ReplayError(f"{bag}: no DBW command topic to replay (looked for {cmd_topics}); the bag's topics: "
                          f"{listing}. Use --namespace or --topic-map BAG_TOPIC=steering/cmd", problems)

    # pass 1, file order: backwards log times clamped to their predecessor's, or (jumps over
    # max_backjump_s) taken as clock resets that shift every later message
    timeline: list = []
    back = {"n": 0, "max": 0, "resets": 0, "first": None}
    last = None
    shift = 0
    max_back_ns = int(max_backjump_s * 1e9)
    for t, cid, data in scan.records:
        u = usable.get(cid)
        if u is None:
            continue
        t += shift
        if last is not None and t < last:
            jump = last - t
            back["n"] += 1
            back["max"] = max(back["max"], jump)
            if back["first"] is None:
                back["first"] = (scan.channels[cid].topic, last)
            if jump > max_back_ns:
                back["resets"] += 1
                shift += jump
            t = last
        last = t
        timeline.append((t, cid, data, u))

    # simulation time 0: the recorder's epoch, else the bag's first message (in file order if time was reset)
    first = min(scan.start_ns, timeline[0][0]) if timeline and not back["resets"] else (
        timeline[0][0] if timeline else scan.start_ns)
    epoch_raw = scan.custom.get(B.CUSTOM_PREFIX + "epoch_s")
    try:
        epoch_s = float(epoch_raw) if epoch_raw is not None else first * 1e-9
    except ValueError:
        epoch_s = first * 1e-9
    t0_ns = B.stamp_ns(epoch_s) if epoch_raw is not None else first
    if timeline and abs(timeline[0][0] - t0_ns) > 86_400 * 10**9:
        problems.append(Problem("corrupt", None, f"custom_data epoch_s = {epoch_s} is a day or more away from the "
                                "first message: ignored, time 0 is the bag's first message"))
        epoch_s, t0_ns = first * 1e-9, first
    end_ns = max(scan.end_ns if not back["resets"] else 0, timeline[-1][0] if timeline else 0)

    # the engagement from the reports when the bag has no enable message (docs/bags.md, "Engagement")
    engagement = {t: (f, []) for t, _typ, f in ENGAGEMENT_TOPICS}
    need_engagement = not any(u[0] == "enable" for _t, _c, _d, u in timeline)
    skip = set() if need_engagement else {t for t in engagement if t not in dict(REFERENCE_TOPICS)}

    # pass 2: decode
    events: list = []
    counts: dict = {}
    refs: dict = {name: ([], []) for name in ("speed_mps", "speed_brake_mps", "yaw_rate_rad_s",
                                              "steering_wheel_angle_deg", "wheel_speed_fl_rad_s",
                                              "wheel_speed_fr_rad_s", "wheel_speed_rl_rad_s", "wheel_speed_rr_rad_s")
                                 + STATE_SIGNALS}
    first_gear = None
    first_cmd_ns = None
    bad: dict = {}
    before = 0
    for t, cid, data, u in timeline:
        ours, ts = u
        if ours in skip:
            continue
        rel = (t - t0_ns) / dt_ns
        k = math.ceil(rel - _STEP_SLACK)
        if k < 0:
            before += 1
            k = 0
        if first_cmd_ns is None and (ours in events_by_topic or ours in decoders):
            first_cmd_ns = t
        if ours in events_by_topic:
            events.append((k, events_by_topic[ours]))
            counts[scan.channels[cid].topic] = counts.get(scan.channels[cid].topic, 0) + 1
            continue
        try:
            msg = ts.deserialize_cdr(data, scan.channels[cid].msgtype)
            if ours in decoders:
                events.append((k, decoders[ours](msg)))
                counts[scan.channels[cid].topic] = counts.get(scan.channels[cid].topic, 0) + 1
                continue
            if need_engagement and ours in engagement:
                flag, samples = engagement[ours]
                samples.append((t, bool(getattr(msg, flag))))
            t_s = (t - t0_ns) * 1e-9
            if ours == "vehicle_velocity":
                _add(refs, "speed_mps", t_s, msg.vehicle_velocity_propulsion)
                _add(refs, "speed_brake_mps", t_s, msg.vehicle_velocity_brake)
            elif ours == "imu/data_raw":
                _add(refs, "yaw_rate_rad_s", t_s, msg.angular_velocity.z)
            elif ours == "steering/report":
                _add(refs, "steering_wheel_angle_deg", t_s, msg.steering_wheel_angle)
            elif ours == "wheel_speeds":
                for w, v in zip(("fl", "fr", "rl", "rr"), (msg.front_left, msg.front_right, msg.rear_left,
                                                          msg.rear_right)):
                    _add(refs, f"wheel_speed_{w}_rad_s", t_s, v)
            elif ours == "gear/report":
                if first_gear is None:
                    first_gear = (t_s, int(msg.gear.value))
            elif ours == "brake/report":
                _add(refs, "brake_pressure_bar", t_s, msg.pressure_output)
            elif ours == "throttle/report":
                _add(refs, "pedal_pct", t_s, msg.percent_output)
            elif ours == "throttle/info":
                _add(refs, "engine_rpm", t_s, msg.engine_rpm)
        except Exception as err:  # corrupt bytes or a definition mismatch: count, report once per topic
            b = bad.setdefault(scan.channels[cid].topic, [0, str(err)])
            b[0] += 1
    for topic, (n, err) in bad.items():
        problems.append(Problem("undecodable", topic, f"{n} messages cannot be decoded ({err}); skipped", n))
    if not events:
        found = ", ".join(f"{tm.bag_topic(t)} ({scan.topic_counts().get(tm.bag_topic(t), 0)})"
                          for t, _ in COMMAND_TOPICS + EVENT_TOPICS if tm.bag_topic(t) in scan.topic_counts())
        raise ReplayError(f"{bag}: no DBW command message could be read, nothing to replay (command topics and "
                          f"messages read: {found or 'none'})", problems)
    if need_engagement:
        events[:0] = _engagement_events(engagement, t0_ns, dt_ns, tm, problems)
    if back["n"]:
        topic, at_ns = back["first"]
        at = (at_ns - t0_ns) * 1e-9
        problems.append(Problem(
            "backwards", None, f"{back['n']} log times go backwards (first on {topic} at t={at:.3f} s, largest jump "
            f"{back['max'] * 1e-9:.6f} s); replayed at the preceding message's time"
            + (f"; {back['resets']} jumps over {max_backjump_s:g} s taken as clock resets: later messages shifted"
               if back["resets"] else ""), back["n"]))
    if before:
        problems.append(Problem("before_start", None, f"{before} commands logged before simulation time 0 "
                                "delivered at the first step", before))
    if any(ch.topic == "/initialpose" and ch.count for ch in scan.channels.values()):
        problems.append(Problem("not_replayed", "/initialpose", "pose resets are not replayed offline"))

    # initial state from the recorded reports when the bag has no node parameters
    if source["initial_speed_mps"] == "default" and refs["speed_mps"][0]:
        t_first, v_first = refs["speed_mps"][0][0], refs["speed_mps"][1][0]
        t_cmd = (first_cmd_ns - t0_ns) * 1e-9 if first_cmd_ns is not None else math.inf
        # the first report within 0.1 s of the start and at most 50 ms after the first command still
        # shows the vehicle as it was (a command needs its dead time and lag to act)
        if t_first < min(0.1, t_cmd + 0.05 + 1e-9) and math.isfinite(v_first) and abs(v_first) > 0.05:
            p["initial_speed_mps"], source["initial_speed_mps"] = float(v_first), "reports"
    # the first gear report is the initial lever position when it comes before any command, or, for a
    # vehicle the reports show rolling at the start, within 0.15 s and before any gear command (a
    # rolling lever does not move sooner)
    t_cmd0 = (first_cmd_ns - t0_ns) * 1e-9 if first_cmd_ns is not None else math.inf
    t_gear_cmd = min((k * dt_ns * 1e-9 for k, obj in events if isinstance(obj, core_cmd.GearCmd)), default=math.inf)
    rolling = source["initial_speed_mps"] == "reports"
    if (source["initial_gear"] == "default" and first_gear is not None and first_gear[1] in _GEAR_LETTER
            and (first_gear[0] < t_cmd0 or (rolling and first_gear[0] < min(0.15, t_gear_cmd + 1e-9)))):
        p["initial_gear"], source["initial_gear"] = _GEAR_LETTER[first_gear[1]], "reports"

    n_steps = max(1, math.ceil((end_ns - t0_ns) / dt_ns - _STEP_SLACK), (events[-1][0] + 1) if events else 1)
    events.sort(key=lambda e: e[0])   # stable: file order within a step
    references = {k: (np.asarray(t, dtype=float), np.asarray(v, dtype=float)) for k, (t, v) in refs.items() if t}
    _check_speed_jumps(references, problems)
    return ReplayInput(Path(bag), scan, p, source, epoch_s, dt, n_steps, events, counts, references, problems)


#: A recorded speed changing faster than this between two reports 50 ms or less apart is
#: no vehicle's motion: a ``~/reset`` of the recording node, a jump of the log [m/s^2].
SPEED_JUMP_MPS2 = 30.0


def _check_speed_jumps(references: dict, problems: list) -> None:
    """Append a serious ``not_replayed`` problem where the recorded speed jumps (docs/bags.md).

    A node reset (``~/reset`` service) while recording puts the vehicle back at
    rest at its initial pose; the service call is not in the bag, so the replay
    cannot do the same and its comparison after that point is meaningless. The
    jump in ``vehicle_velocity`` shows it (a reset at standstill does not).
    """
    if "speed_mps" not in references:
        return
    t, v = references["speed_mps"]
    dt, dv = np.diff(t), np.abs(np.diff(v))
    jumps = np.nonzero((dt > 0) & (dt <= 0.05) & (dv > SPEED_JUMP_MPS2 * np.maximum(dt, 1e-3)))[0]
    if len(jumps):
        k = jumps[0]
        problems.append(Problem("not_replayed", None, f"the recorded speed jumps {len(jumps)} time(s), first at "
                                f"t={t[k + 1]:.3f} s from {v[k]:.2f} to {v[k + 1]:.2f} m/s (a node reset while "
                                "recording, or a jump in the log): not replayed, the comparison after it is not "
                                "meaningful", len(jumps), serious=True))


def engagement_changes(engagement: dict, t0_ns: int, tm: TopicMap, problems: list) -> list:
    """Where the recorded reports show the vehicle engaged or disengaged, for a bag without ``enable``.

    The first of :data:`.topics.ENGAGEMENT_TOPICS` with messages (``dbw_enabled``,
    ``system/report``, the actuator reports) is the source of the state. A
    first message already showing the vehicle engaged engages it from the
    start. A later change is placed at the earliest change to the same state
    of any of those topics after the source's previous message (a 10 ms
    steering report narrows a 100 ms system report). The problem
    ``engaged_from_reports`` (or ``not_engaged`` without any source) is
    appended to ``problems`` (docs/bags.md, "Engagement").

    Parameters
    ----------
    engagement : dict
        ``{our topic: (flag field, [(log time [ns], engaged)])}`` in file order.
    t0_ns : int
        Bag time of simulation time 0 [ns] (for the message).
    tm : TopicMap
    problems : list of Problem

    Returns
    -------
    list of (int or None, bool)
        ``(log time [ns], engaged)`` of every change; None: from the start.
    """
    import bisect
    src = next((t for t, (_f, samples) in engagement.items() if samples), None)
    if src is None:
        names = ", ".join(tm.bag_topic(t) for t in engagement)
        problems.append(Problem("not_engaged", None, f"the bag has no enable message and no report showing the "
                                f"engagement ({names}): the simulation stays disengaged and ignores the commands; "
                                "map the topic that shows it with --topic-map, or replay a bag with enable"))
        return []
    changes: dict = {True: [], False: []}   # log times at which any of the topics changes to engaged / not
    for _f, samples in engagement.values():
        was = False
        for t, on in samples:
            if on != was:
                changes[on].append(t)
                was = on
    changes = {on: sorted(ts) for on, ts in changes.items()}
    out: list = []
    prev, prev_t = False, None
    for ts, on in engagement[src][1]:
        if on != prev:
            if prev_t is None:   # engaged from the first message on: from the start
                out.append((None, on))
            else:                # the change happened in (prev_t, ts]: the first topic to show it
                later = changes[on][bisect.bisect_right(changes[on], prev_t):]
                out.append((min(ts, later[0]) if later else ts, on))
            prev = on
        prev_t = ts
    ons = [t for t, on in out if on]
    topic = tm.bag_topic(src)
    if ons:
        first = 0.0 if ons[0] is None else (ons[0] - t0_ns) * 1e-9
        problems.append(Problem("engaged_from_reports", topic, f"the bag has no enable message: the vehicle is "
                                f"engaged and disengaged as {topic} shows ({len(ons)} engagement(s), the first at "
                                f"t={first:.3f} s)", len(out)))
    else:
        problems.append(Problem("engaged_from_reports", topic, f"the bag has no enable message and {topic} never "
                                "shows the vehicle engaged: the simulation stays disengaged, as the vehicle was"))
    return out


def _engagement_events(engagement: dict, t0_ns: int, dt_ns: float, tm: TopicMap, problems: list) -> list:
    """``[(step, ENABLE | DISABLE)]`` from :func:`engagement_changes`: each applied in the physics step that
    ends at its log time, so the simulation's report of that step shows the same state at the same time."""
    out = []
    for t, on in engagement_changes(engagement, t0_ns, tm, problems):
        k = 0 if t is None else math.ceil((t - t0_ns) / dt_ns - _STEP_SLACK) - 1
        out.append((max(0, k), core_cmd.ENABLE if on else core_cmd.DISABLE))
    return out


def expected_types() -> dict:
    """``{our relative topic: message type}`` of every topic the replay reads."""
    out = {t: ds_type(n) for t, n in COMMAND_TOPICS}
    out.update({t: "std_msgs/msg/Empty" for t, _ in EVENT_TOPICS})
    out.update(dict(REFERENCE_TOPICS))
    out.update({t: typ for t, typ, _f in ENGAGEMENT_TOPICS})
    return out


def select_channels(scan: BagScan, tm: TopicMap, problems: list) -> dict:
    """``{channel id: (our topic, type store)}`` of the channels to read; a type that differs from the
    expected one is reported and the channel left out; a definition that differs (RIHS01) is decoded
    with the bag's own definition when the bag holds it."""
    store = B.typestore()
    expected = expected_types()
    usable: dict = {}
    for cid, ch in scan.channels.items():
        ours = tm.ours(ch.topic)
        if ours is None or not ch.msgtype:
            continue
        want = expected[ours]
        if ch.msgtype != want:
            problems.append(Problem("type_mismatch", ch.topic, f"type {ch.msgtype}, expected {want}: not replayed "
                                    "(--topic-map maps another topic here)", ch.count, True))
            continue
        ts = store
        if ch.digest and ch.digest != store.hash_rihs01(want):
            ts = _bag_store(ch, want)
            problems.append(Problem("type_mismatch", ch.topic, f"the bag's definition of {want} differs from ours "
                                    f"({ch.digest[:20]}...); decoded " + ("with the bag's definition, by field name"
                                                                          if ts is not store else "with ours"), 0))
        usable[cid] = (ours, ts)
    return usable


def _add(refs: dict, name: str, t_s: float, v: float) -> None:
    ts, vs = refs[name]
    ts.append(t_s)
    vs.append(float(v))


def _bag_store(ch, typename: str):
    """A type store holding the bag's own definition of ``typename``, or ours if it has none."""
    if not ch.msgdef or ch.encoding not in ("ros2msg", ""):
        return B.typestore()
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    try:
        st = get_typestore(Stores.EMPTY)
        st.register(get_types_from_msg(ch.msgdef, typename))
        return st
    except Exception:  # an unparsable definition: decode with ours
        return B.typestore()


# ---------------------------------------------------------------------------------- stepping


def _simulation(p: dict, start: RecordedStart | None = None) -> tuple:
    try:
        if p["vehicle"] not in REGISTRY:
            raise ReplayError(f"vehicle = {p['vehicle']!r}: must be one of {', '.join(REGISTRY)}")
        params = vehicle_spec(p["vehicle"]).load_parameters(p["vehicle_config"] or None, p["overrides"] or None,
                                                             p["occupants"], p["cargo_kg"])
        gear_name = str(p["initial_gear"]).strip().upper()
        if gear_name not in GEAR_NAMES:   # the node's names (interface.GEAR_NAMES), any case
            raise ReplayError(f"initial_gear = {p['initial_gear']!r}: must be one of "
                              f"{', '.join(GEAR_NAMES)} (any case), as for the node")
        if p["drive_mode"] not in DRIVE_MODES:
            raise ReplayError(f"drive_mode = {p['drive_mode']!r}: must be one of {sorted(DRIVE_MODES)}")
        gear, mode = Gear.from_name(gear_name), DRIVE_MODES[p["drive_mode"]]
        terrain = TerrainSpec(surface=p["surface"], grade_pct=p["grade_pct"], bank_pct=p["bank_pct"])
        if p["model"] not in MODELS:
            raise ReplayError(f"model = {p['model']!r}: must be one of {', '.join(MODELS)}")
        sim = Simulation(params, FlatTerrain(p["grade_pct"], p["bank_pct"], p["surface"]), 1.0 / p["step_hz"],
                         gear=gear, drive_mode=mode, model=p["model"], vehicle=p["vehicle"])
        initial = InitialSpec(p["initial_x_m"], p["initial_y_m"], p["initial_yaw_rad"], p["initial_speed_mps"],
                              gear, mode)
        sim.reset(initial.x_m, initial.y_m, initial.yaw_rad, initial.speed_mps, gear, mode, start)
    except ParameterError as err:   # names the key: "parameter 'mass.cargo_kg': ..."
        if err.key == "<file>":     # the file itself: the replay parameter that named it
            raise ReplayError(f"parameter 'vehicle_config' = {p['vehicle_config']!r}: {err.reason}") from err
        raise ReplayError(str(err)) from err
    except KeyError as err:
        raise ReplayError(f"parameter 'surface': {err.args[0]}") from err
    except ValueError as err:
        if isinstance(err, ReplayError):
            raise
        raise ReplayError(f"parameter 'initial_*': {err}") from err
    return sim, params, terrain, initial


def check_parameters(params: dict) -> None:
    """Check a replay's parameters (``ReplayInput.params``) as the replay would, without replaying.

    Builds the simulation the replay would step (vehicle file, overrides,
    occupants, cargo, surface, grade, initial state, model) and drops it.

    Raises
    ------
    ReplayError
        The first bad parameter, named as the replay names it.
    """
    _simulation(params)


class _Outputs:
    """The simulated topics written to the output bag, with the node's periods and names.

    One rosbags message per topic (:mod:`msg_adapters.bag` fillers), overwritten
    every time and serialized by rosbags (:meth:`~msg_adapters.bag.BagWriter.write_message`).
    """

    def __init__(self, writer: B.BagWriter, tm: TopicMap, p: dict, sim: Simulation) -> None:
        dt = sim.dt_s
        vehicle = p["report_rates"] == "vehicle"
        reports = sim.reports()
        qos = B.reliable_qos(2)
        self.w = writer
        self.reports = []
        for topic, attr, name, period in REPORT_TOPICS:
            every = report_schedule(attr, period, dt, vehicle)  # the node's schedule (dbw/schedule.py)
            cid = writer.add_topic(tm.output_topic(topic), ds_type(name), qos)
            self.reports.append((cid, attr, B.ReportFiller(ds_type(name), getattr(reports, attr)), every))
        self.imu = (writer.add_topic(tm.output_topic("imu/data_raw"), "sensor_msgs/msg/Imu", B.reliable_qos(10)),
                    B.ImuFiller(p["frame_id"]), CanSchedule(IMU_PERIOD_S if vehicle else 0.0, dt))
        self.odom = (writer.add_topic(tm.output_topic("odom"), "nav_msgs/msg/Odometry", B.reliable_qos(10)),
                     B.OdometryFiller(p["odom_frame"], p["base_frame"]))
        self.tf = ((writer.add_topic("/tf", "tf2_msgs/msg/TFMessage", B.reliable_qos(100)),
                    B.TfFiller(p["odom_frame"], p["base_frame"])) if p["publish_tf"] else None)
        self.enabled = (writer.add_topic(tm.output_topic("dbw_enabled"), "std_msgs/msg/Bool", B.reliable_qos(2)),
                        B.default_message("std_msgs/msg/Bool"), max(1, int(round(DBW_ENABLED_PERIOD_S / dt))))
        self.last_enabled = None

    def write(self, step: int, t_ns: int, reports, vehicle) -> None:
        sec, nsec = t_ns // 1_000_000_000, t_ns % 1_000_000_000
        write = self.w.write_message
        for cid, attr, fill, every in self.reports:
            if every.due(step, reports):
                write(cid, t_ns, fill(getattr(reports, attr), sec, nsec))
        cid, fill, every = self.imu
        if every.due(step):
            write(cid, t_ns, fill(sec, nsec, reports.imu))
        cid, msg, every = self.enabled
        en = reports.dbw_enabled
        if en != self.last_enabled or step % every == 0:
            msg.data = bool(en)
            write(cid, t_ns, msg)
            self.last_enabled = en
        cid, fill = self.odom
        write(cid, t_ns, fill(sec, nsec, vehicle))
        if self.tf is not None:
            cid, fill = self.tf
            write(cid, t_ns, fill(sec, nsec, vehicle))


def run_replay(inp: ReplayInput, bag_out: str | Path | None = None, output_every: int = 1,
               speed: float | None = None, storage: str = "mcap", topic_map: TopicMap | None = None) -> ReplayResult:
    """Step the simulation through the bag's commands.

    Parameters
    ----------
    inp : ReplayInput
        From :func:`load_replay`.
    bag_out : str or Path, optional
        New bag directory for the simulated topics (none written if None).
    output_every : int
        A CSV row every this many steps (and the first and last), >= 1.
    speed : float, optional
        Pace the replay at this many times real time (default: as fast as possible).
    storage : {'mcap', 'sqlite3'}
        Storage of ``bag_out``.
    topic_map : TopicMap, optional
        For the output names' namespace (default ``/vehicle``).

    Returns
    -------
    ReplayResult

    Raises
    ------
    ReplayError
        For an invalid parameter or ``output_every`` / ``speed``.
    """
    if output_every < 1:
        raise ReplayError(f"output_every = {output_every}: must be >= 1")
    if speed is not None and not (speed > 0 and math.isfinite(speed)):
        raise ReplayError(f"speed = {speed}: must be a positive number")
    p = inp.params
    sim, params, terrain, initial = _simulation(p, inp.start)
    tm = topic_map or TopicMap()
    n = inp.n_steps
    dt = sim.dt_s
    vehicle = sim.vehicle
    reader = RowReader(vehicle, params.fuel.lhv_j_kg * params.fuel.density_kg_l)
    buf = array.array("d")
    buf.extend(reader.row(0.0, 0.0, 0.0, 0))
    sig = array.array("d")
    keep_signals = bool(inp.references)
    epoch_s = inp.epoch_s
    writer = None
    if bag_out is not None:
        writer = B.BagWriter(bag_out, storage, {
            B.CUSTOM_PREFIX + "replay_of": str(inp.bag), B.CUSTOM_PREFIX + "epoch_s": repr(epoch_s),
            B.CUSTOM_PREFIX + "parameters": json.dumps(p, sort_keys=True)})
    outs = _Outputs(writer, tm, p, sim) if writer is not None else None
    events = inp.events
    n_ev = len(events)
    ei = 0
    next_k = events[0][0] if n_ev else n
    submit = sim.submit
    step = sim.step
    dbw = sim.dbw
    extend = buf.extend
    row = reader.row
    t_wall0 = time.perf_counter()
    try:
        for k in range(n):
            while k == next_k:
                submit(events[ei][1])
                ei += 1
                next_k = events[ei][0] if ei < n_ev else n
            out = step()
            kk = k + 1
            if kk % output_every == 0 or kk == n:
                extend(row(kk * dt, out.pedal, out.brake_line_bar, 1 if dbw.dbw_enabled else 0))
            if outs is not None or keep_signals:
                reports = sim.reports()
                if outs is not None:
                    outs.write(kk, int(round((epoch_s + sim.time_s) * 1e9)), reports, vehicle)
                if keep_signals:
                    ws = reports.wheel_speeds
                    sig.extend((reports.vehicle_velocity.vehicle_velocity_propulsion,
                                reports.imu.angular_velocity_z, reports.steering_report.steering_wheel_angle,
                                ws.front_left, ws.front_right, ws.rear_left, ws.rear_right,
                                dbw.measured_speed_mps, vehicle.yaw_rate_rad_s))
            if speed is not None and not kk & 63:
                ahead = kk * dt / speed - (time.perf_counter() - t_wall0)
                if ahead > 0:
                    time.sleep(ahead)
    finally:
        if writer is not None:
            writer.close()
    wall = time.perf_counter() - t_wall0
    data = np.frombuffer(buf, dtype=np.float64).reshape(-1, len(reader.row(0.0, 0.0, 0.0, 0)))
    sc = Scenario(name=inp.bag.name or str(inp.bag), description=f"replay of {inp.bag}", source=inp.bag,
                  params=params, vehicle={"type": p["vehicle"], "parameters": p["vehicle_config"] or None,
                                          "overrides": p["overrides"], "occupants": p["occupants"],
                                          "cargo_kg": p["cargo_kg"]},
                  step_hz=p["step_hz"], dt_s=dt, duration_s=n * dt, n_steps=n, output_every=output_every,
                  terrain=terrain, initial=initial, control="dbw", command_rate_hz=p["step_hz"], timeline=(),
                  stop_when=(), metrics=(), expect=(), model=p["model"])
    led = vehicle.ledger.as_dict()
    led["relative_residual"] = vehicle.ledger.relative_residual if math.isfinite(vehicle.ledger.fuel_j) else math.nan
    run = RunResult(sc, data, n, n * dt, "end of bag", wall, ledger=led)
    t_sim = np.arange(1, n + 1, dtype=float) * dt
    names = list(SIM_SIGNALS)
    width = len(names) + len(_EXACT)
    s = np.frombuffer(sig, dtype=np.float64).reshape(-1, width) if keep_signals else np.zeros((0, width))
    signals = {name: s[:, i] for i, name in enumerate(names)}
    exact = {name: s[:, len(names) + i] for i, name in enumerate(_EXACT)} if keep_signals else {}
    res = ReplayResult(inp, run, t_sim, signals, wall_s=wall,
                       bag_messages=writer.message_count if writer is not None else 0, exact_signals=exact)
    if keep_signals:
        from .compare import compare
        res.comparison = compare(t_sim, signals, inp.references)
    return res


#: What :func:`replay_bag` writes into its output directory (the only names it ever replaces there).
OUTPUT_NAMES = ("timeseries.csv", "summary.json", "plots.png", "overlay.png", "replay.json", "bag")


def check_output_dir(bag: str | Path, out_dir: str | Path, names: tuple = OUTPUT_NAMES) -> None:
    """Refuse an output directory whose outputs would touch the input bag or files this tool did not write.

    The outputs (:data:`OUTPUT_NAMES`) replace files of the same name in
    ``out_dir``. That is allowed only for the outputs of an earlier replay:
    ``bag/`` when its ``metadata.yaml`` says it is a replay's
    (``custom_data`` ``acres_dbw_sim.replay_of``), the other files when
    ``out_dir`` holds a ``replay.json`` written by this tool. Paths are
    compared after resolving symbolic links and ``..``.

    Parameters
    ----------
    bag : str or Path
        The input bag (directory, or a storage file in it: then the directory is the bag; a storage
        file without ``metadata.yaml`` beside it is a bag of its own).
    out_dir : str or Path
        The output directory (need not exist).
    names : tuple of str
        The outputs that will be written or replaced (default all of :data:`OUTPUT_NAMES`).

    Raises
    ------
    ReplayError
        If ``out_dir`` is the bag or lies inside it, if an output would be the
        bag or contain it, or if an output name exists and was not written by a
        replay; the message names the path.
    """
    src = Path(bag).resolve()
    if src.is_file() and (src.parent / "metadata.yaml").is_file():
        src = src.parent   # the storage file of a bag folder (drive_01/drive_01.mcap) names the folder
    out = Path(out_dir).resolve()
    if out == src or src in out.parents:
        raise ReplayError(f"--out {out_dir}: that is the input bag or a directory inside it; a replay never "
                          "writes into its input: choose another output directory")
    ours = _is_replay_output(out)
    foreign = []
    for name in names:
        target = out / name
        real = target.resolve()
        if real == src or real in src.parents:
            raise ReplayError(f"--out {out_dir}: its output {target} would replace the input bag {bag}; the input "
                              "is never removed or overwritten: choose another output directory")
        if not (target.exists() or target.is_symlink()):
            continue
        if name == "bag":
            if target.is_symlink() or not _is_replay_bag(target):
                foreign.append(name)
        elif target.is_symlink() or not target.is_file() or not ours:
            foreign.append(name)
    if foreign:
        raise ReplayError(f"--out {out_dir} already holds {', '.join(foreign)}, not written by an earlier replay "
                          "(no replay.json of acres-replay, or a bag/ that is not a replay's output); nothing "
                          "the tool did not create is replaced: choose a new output directory")


def _is_replay_output(out: Path) -> bool:
    """True if ``out/replay.json`` is one :func:`replay_bag` wrote."""
    f = out / "replay.json"
    if f.is_symlink() or not f.is_file():
        return False
    try:
        rep = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(rep, dict) and {"bag", "problems", "run", "parameters"} <= set(rep)


def _is_replay_bag(path: Path) -> bool:
    """True if ``path`` is a bag directory written by a replay (``custom_data`` ``acres_dbw_sim.replay_of``)."""
    import yaml
    meta = path / "metadata.yaml"
    if not path.is_dir() or not meta.is_file():
        return False
    try:
        info = yaml.safe_load(meta.read_text(encoding="utf-8"))["rosbag2_bagfile_information"]
        return B.CUSTOM_PREFIX + "replay_of" in (info.get("custom_data") or {})
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError):
        return False


def replay_bag(bag: str | Path, out_dir: str | Path, topic_map: TopicMap | None = None,
               params: dict | None = None, plots: bool = True, write_bag: bool = True, output_every: int = 1,
               speed: float | None = None, storage: str = "mcap", max_backjump_s: float = 1.0) -> ReplayResult:
    """Replay ``bag`` offline and write every output into ``out_dir``.

    Files: ``timeseries.csv``, ``summary.json`` and (``plots``) ``plots.png``
    as the scenario runner writes them; ``bag/`` (a rosbag2 of the simulated
    topics, ``write_bag``; its storage file is ``bag/bag.mcap`` or
    ``bag/bag.db3``); ``replay.json`` (bag, parameters and their source,
    commands per topic, problems, comparison, timing); ``overlay.png``
    (``plots`` and recorded reports present). The output bag is written into
    a temporary directory inside ``out_dir`` and moved to ``bag/`` once
    complete. The input bag is never written, moved or removed, and only the
    outputs of an earlier replay are replaced (:func:`check_output_dir`).

    Returns
    -------
    ReplayResult

    Raises
    ------
    ReplayError, acres_dbw_sim.replay.reader.BagReadError
        When nothing can be replayed, or ``out_dir`` is refused
        (:func:`check_output_dir`); damage inside the bag is reported in
        ``replay.json`` and the result's ``input.problems`` instead.
    """
    import tempfile
    tm = topic_map or TopicMap()
    names = tuple(n for n in OUTPUT_NAMES if (write_bag or n != "bag") and (plots or n != "overlay.png"))
    check_output_dir(bag, out_dir, names)
    inp = load_replay(bag, tm, params, max_backjump_s)
    out = Path(out_dir)
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    try:
        check_output_dir(bag, out_dir, names)   # again: out_dir may have been created meanwhile
        work = Path(tempfile.mkdtemp(prefix=".acres-replay-", suffix=".tmp", dir=out))
        try:
            res = run_replay(inp, work / "bag" if write_bag else None, output_every, speed, storage, tm)
            res.wall_s = time.perf_counter() - t0
            files = write_outputs(res.run, out, plots)
            if write_bag:
                final = out / "bag"
                if final.exists():   # an earlier replay's output bag (checked above): swapped out, then removed
                    os.replace(final, work / "old_bag")
                os.replace(work / "bag", final)
                files.append(final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:   # a refused parameter, Ctrl-C: a folder this call made and left empty goes
        if created and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        raise
    if plots and res.comparison:
        from .compare import plot_overlay
        plot_overlay(res, out / "overlay.png")
        files.append(out / "overlay.png")
    report = replay_report(res)
    fd, tmp = tempfile.mkstemp(prefix=".replay.json.", suffix=".tmp", dir=out)
    os.chmod(tmp, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(report, indent=2, allow_nan=False) + "\n")
    os.replace(tmp, out / "replay.json")
    files.append(out / "replay.json")
    res.files = files
    return res


def replay_report(res: ReplayResult) -> dict:
    """The content of ``replay.json`` (JSON-safe: non-finite numbers as null)."""
    inp = res.input
    sc = inp.scan

    return finite_json({
        "bag": {"path": str(inp.bag), "storage": sc.storage, "messages": sc.message_count,
                "start_ns": sc.start_ns, "end_ns": sc.end_ns, "duration_s": (sc.end_ns - sc.start_ns) * 1e-9,
                "topics": {ch.topic: {"type": ch.msgtype, "messages": ch.count} for ch in sc.topics().values()}},
        "epoch_s": inp.epoch_s,
        "parameters": inp.params,
        "parameter_source": inp.param_source,
        "commands": inp.command_counts,
        "problems": [{"kind": p.kind, "topic": p.topic, "message": p.message, "count": p.count,
                      "serious": p.serious} for p in inp.problems],
        "run": {"steps": res.run.steps, "simulated_s": res.run.simulated_s, "wall_s": res.wall_s,
                "real_time_factor": res.real_time_factor, "bag_messages": res.bag_messages},
        "comparison": res.comparison,
    })
