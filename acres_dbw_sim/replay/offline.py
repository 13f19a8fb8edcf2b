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
from operator import attrgetter
from pathlib import Path

import numpy as np

from msg_adapters import bag as B

from ..dbw import commands as core_cmd
from ..dbw.schedule import CanSchedule, report_schedule
from ..scenario.runner import RunResult, finite_json, write_outputs
from ..scenario.validated import Scenario
from ..scenario.signals import RowReader
from ..simulation import RecordedStart, Simulation
from .channels import report_unreadable_types, select_channels
from .engagement import engagement_changes
from .params import ReplayError, build_simulation, check_node_parameters, resolve_params
from .reader import BagScan, Problem, scan_bag
from .topics import (COMMAND_TOPICS, DBW_ENABLED_PERIOD_S, ENGAGEMENT_TOPICS, EVENT_TOPICS, IMU_PERIOD_S,
                     REFERENCE_TOPICS, REPORT_TOPICS, TopicMap, ds_type)

__all__ = ["ReplayError", "ReplayInput", "ReplayResult", "load_replay", "run_replay", "replay_bag",
           "check_output_dir", "OUTPUT_NAMES", "SIM_SIGNALS", "STATE_SIGNALS"]

#: The reports the kept signals (``keep_signals``) are read from.
_SIGNAL_REPORTS = ("vehicle_velocity", "imu", "steering_report", "wheel_speeds")

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


@dataclass
class ReplayInput:
    """A bag read and decoded for replay.

    Attributes
    ----------
    bag : Path
    scan : BagScan
    params : dict
        Node parameters in force (the node's defaults with :data:`.params.REPLAY_DEFAULTS` <- bag <- overrides).
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
    p, source = resolve_params(scan, params or {}, problems)
    check_node_parameters(p)
    dt = 1.0 / p["step_hz"]
    dt_ns = dt * 1e9
    report_unreadable_types(scan, tm, problems)
    usable = select_channels(scan, tm, problems)
    _require_command_topic(bag, scan, tm, usable, problems)
    timeline = _file_order_timeline(scan, usable, max_backjump_s)
    epoch_s, t0_ns, end_ns = _time_zero(scan, timeline, problems)
    dec = _decode(scan, timeline.records, t0_ns, dt_ns)
    _require_commands(bag, scan, tm, dec, problems)
    events = dec.events
    if dec.need_engagement:
        events[:0] = _engagement_events(dec.engagement, t0_ns, dt_ns, tm, problems)
    _report_backwards(timeline, t0_ns, max_backjump_s, problems)
    _report_not_replayed(scan, dec.before, problems)
    _initial_state_from_reports(p, source, dec, events, t0_ns, dt_ns)
    n_steps = max(1, math.ceil((end_ns - t0_ns) / dt_ns - _STEP_SLACK), (events[-1][0] + 1) if events else 1)
    events.sort(key=lambda e: e[0])   # stable: file order within a step
    references = {k: (np.asarray(t, dtype=float), np.asarray(v, dtype=float))
                  for k, (t, v) in dec.refs.items() if t}
    _check_speed_jumps(references, problems)
    return ReplayInput(Path(bag), scan, p, source, epoch_s, dt, n_steps, events, dec.counts, references, problems)


def _require_command_topic(bag, scan: BagScan, tm: TopicMap, usable: dict, problems: list) -> None:
    """Refuse a bag none of whose readable channels is a command or event topic (:class:`ReplayError`)."""
    wanted = {t for t, _ in COMMAND_TOPICS} | {t for t, _ in EVENT_TOPICS}
    if not any(ours in wanted for ours, _ in usable.values()):
        cmd_topics = ", ".join(tm.bag_topic(t) for t, _ in COMMAND_TOPICS)
        listing = "; ".join(f"{ch.topic} [{ch.msgtype or '?'}]" for ch in scan.topics().values()) or "none"
        raise ReplayError(f"{bag}: no DBW command topic to replay (looked for {cmd_topics}); the bag's topics: "
                          f"{listing}. Use --namespace or --topic-map BAG_TOPIC=steering/cmd", problems)


@dataclass
class _Timeline:
    """Pass 1 of :func:`load_replay`: the messages to read, in file order, with log times that never go back.

    ``records`` holds ``(log time [ns], channel id, CDR bytes, (our topic, type store))``; the
    other fields count the backwards log times (``largest_ns``: the largest jump back [ns];
    ``resets``: jumps taken as clock resets; ``first``: ``(topic, log time [ns])`` of the first).
    """

    records: list = field(default_factory=list)
    backwards: int = 0
    largest_ns: int = 0
    resets: int = 0
    first: tuple | None = None


def _file_order_timeline(scan: BagScan, usable: dict, max_backjump_s: float) -> _Timeline:
    """Pass 1, file order: backwards log times clamped to their predecessor's, or (jumps over
    ``max_backjump_s``) taken as clock resets that shift every later message."""
    tl = _Timeline()
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
            tl.backwards += 1
            tl.largest_ns = max(tl.largest_ns, jump)
            if tl.first is None:
                tl.first = (scan.channels[cid].topic, last)
            if jump > max_back_ns:
                tl.resets += 1
                shift += jump
            t = last
        last = t
        tl.records.append((t, cid, data, u))
    return tl


def _time_zero(scan: BagScan, tl: _Timeline, problems: list) -> tuple:
    """``(epoch_s, t0_ns, end_ns)``: bag time of simulation time 0 [s] and [ns], and of the last message [ns].

    Time 0 is the recorder's epoch (``custom_data``), else the bag's first message (in file order if
    the clock was reset); an epoch a day or more away from the first message is reported and ignored.
    """
    records = tl.records
    first = min(scan.start_ns, records[0][0]) if records and not tl.resets else (
        records[0][0] if records else scan.start_ns)
    epoch_raw = scan.custom.get(B.CUSTOM_PREFIX + "epoch_s")
    try:
        epoch_s = float(epoch_raw) if epoch_raw is not None else first * 1e-9
    except ValueError:
        epoch_s = first * 1e-9
    t0_ns = B.stamp_ns(epoch_s) if epoch_raw is not None else first
    if records and abs(records[0][0] - t0_ns) > 86_400 * 10**9:
        problems.append(Problem("corrupt", None, f"custom_data epoch_s = {epoch_s} is a day or more away from the "
                                "first message: ignored, time 0 is the bag's first message"))
        epoch_s, t0_ns = first * 1e-9, first
    end_ns = max(scan.end_ns if not tl.resets else 0, records[-1][0] if records else 0)
    return epoch_s, t0_ns, end_ns


#: Recorded reports read as references: our topic -> ``(signal, message field)`` pairs (``a.b``: nested).
_REFERENCE_FIELDS = {
    "vehicle_velocity": (("speed_mps", "vehicle_velocity_propulsion"), ("speed_brake_mps", "vehicle_velocity_brake")),
    "imu/data_raw": (("yaw_rate_rad_s", "angular_velocity.z"),),
    "steering/report": (("steering_wheel_angle_deg", "steering_wheel_angle"),),
    "wheel_speeds": tuple((f"wheel_speed_{w}_rad_s", f) for w, f in zip(
        ("fl", "fr", "rl", "rr"), ("front_left", "front_right", "rear_left", "rear_right"))),
    "brake/report": (("brake_pressure_bar", "pressure_output"),),
    "throttle/report": (("pedal_pct", "percent_output"),),
    "throttle/info": (("engine_rpm", "engine_rpm"),),
}
_REFERENCE_GETTERS = {topic: tuple((name, attrgetter(f)) for name, f in pairs)
                      for topic, pairs in _REFERENCE_FIELDS.items()}


@dataclass
class _Decoded:
    """Pass 2 of :func:`load_replay`: what the bag's messages say, commands placed on the step grid.

    ``engagement``: ``{our topic: (flag field, [(log time [ns], engaged)])}``, read only when
    ``need_engagement`` (the bag has no ``enable`` message). ``events``: ``(step, command or
    event)`` in file order; ``counts``: commands per bag topic; ``refs``: ``{signal: ([t_s],
    [value])}``; ``first_gear``: ``(t_s, gear)`` of the first gear report; ``first_cmd_ns``: log
    time of the first command [ns]; ``bad``: ``{topic: [count, first error]}`` of undecodable
    messages; ``before``: commands logged before time 0.
    """

    engagement: dict
    need_engagement: bool
    events: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    refs: dict = field(default_factory=lambda: {name: ([], []) for name in (
        "speed_mps", "speed_brake_mps", "yaw_rate_rad_s", "steering_wheel_angle_deg", "wheel_speed_fl_rad_s",
        "wheel_speed_fr_rad_s", "wheel_speed_rl_rad_s", "wheel_speed_rr_rad_s") + STATE_SIGNALS})
    first_gear: tuple | None = None
    first_cmd_ns: int | None = None
    bad: dict = field(default_factory=dict)
    before: int = 0

    def deliver(self, k: int, topic: str, command) -> None:
        """A command or event for step ``k``, counted for its bag topic."""
        self.events.append((k, command))
        self.counts[topic] = self.counts.get(topic, 0) + 1

    def record_report(self, ours: str, t: int, t_s: float, msg) -> None:
        """A recorded report at log time ``t`` [ns] (``t_s`` on the sim time axis [s]): its engaged flag,
        its reference signals, or the first gear."""
        if self.need_engagement and ours in self.engagement:
            flag, samples = self.engagement[ours]
            samples.append((t, bool(getattr(msg, flag))))
        if ours == "gear/report":
            if self.first_gear is None:
                self.first_gear = (t_s, int(msg.gear.value))
            return
        for name, value in _REFERENCE_GETTERS.get(ours, ()):
            _add(self.refs, name, t_s, value(msg))


def _decode(scan: BagScan, records: list, t0_ns: int, dt_ns: float) -> _Decoded:
    """Pass 2: every message of :class:`_Timeline` ``records`` decoded; a command goes to the first step
    that starts at or after its log time (module docstring), a message that cannot be decoded is counted."""
    decoders = {t: B.CommandDecoder(getattr(core_cmd, n)) for t, n in COMMAND_TOPICS}
    events_by_topic = dict(EVENT_TOPICS)
    need_engagement = not any(u[0] == "enable" for _t, _c, _d, u in records)
    dec = _Decoded({t: (f, []) for t, _typ, f in ENGAGEMENT_TOPICS}, need_engagement)
    # with enable messages, a report that only shows the engagement is not read at all
    skip = set() if need_engagement else {t for t in dec.engagement if t not in dict(REFERENCE_TOPICS)}
    for t, cid, data, (ours, ts) in records:
        if ours in skip:
            continue
        k = math.ceil((t - t0_ns) / dt_ns - _STEP_SLACK)
        if k < 0:
            dec.before += 1
            k = 0
        if dec.first_cmd_ns is None and (ours in events_by_topic or ours in decoders):
            dec.first_cmd_ns = t
        topic = scan.channels[cid].topic
        if ours in events_by_topic:
            dec.deliver(k, topic, events_by_topic[ours])
            continue
        try:
            msg = ts.deserialize_cdr(data, scan.channels[cid].msgtype)
            if ours in decoders:
                dec.deliver(k, topic, decoders[ours](msg))
            else:
                dec.record_report(ours, t, (t - t0_ns) * 1e-9, msg)
        except Exception as err:  # corrupt bytes or a definition mismatch: count, report once per topic
            b = dec.bad.setdefault(topic, [0, str(err)])
            b[0] += 1
    return dec


def _require_commands(bag, scan: BagScan, tm: TopicMap, dec: _Decoded, problems: list) -> None:
    """Report the undecodable messages; refuse a bag none of whose commands could be read (:class:`ReplayError`)."""
    for topic, (n, err) in dec.bad.items():
        problems.append(Problem("undecodable", topic, f"{n} messages cannot be decoded ({err}); skipped", n))
    if not dec.events:
        found = ", ".join(f"{tm.bag_topic(t)} ({scan.topic_counts().get(tm.bag_topic(t), 0)})"
                          for t, _ in COMMAND_TOPICS + EVENT_TOPICS if tm.bag_topic(t) in scan.topic_counts())
        raise ReplayError(f"{bag}: no DBW command message could be read, nothing to replay (command topics and "
                          f"messages read: {found or 'none'})", problems)


def _report_backwards(tl: _Timeline, t0_ns: int, max_backjump_s: float, problems: list) -> None:
    """The ``backwards`` problem: how often and how far the log time went back, and the clock resets."""
    if not tl.backwards:
        return
    topic, at_ns = tl.first
    at = (at_ns - t0_ns) * 1e-9
    problems.append(Problem(
        "backwards", None, f"{tl.backwards} log times go backwards (first on {topic} at t={at:.3f} s, largest jump "
        f"{tl.largest_ns * 1e-9:.6f} s); replayed at the preceding message's time"
        + (f"; {tl.resets} jumps over {max_backjump_s:g} s taken as clock resets: later messages shifted"
           if tl.resets else ""), tl.backwards))


def _report_not_replayed(scan: BagScan, before: int, problems: list) -> None:
    """The problems of what the replay cannot do as recorded: commands before time 0, pose resets."""
    if before:
        problems.append(Problem("before_start", None, f"{before} commands logged before simulation time 0 "
                                "delivered at the first step", before))
    if any(ch.topic == "/initialpose" and ch.count for ch in scan.channels.values()):
        problems.append(Problem("not_replayed", "/initialpose", "pose resets are not replayed offline"))


def _initial_state_from_reports(p: dict, source: dict, dec: _Decoded, events: list, t0_ns: int,
                                dt_ns: float) -> None:
    """Initial speed and lever position from the recorded reports, when the bag has no node parameters
    for them (``p`` and ``source`` updated, the source ``reports``; docs/bags.md)."""
    refs = dec.refs
    t_cmd0 = (dec.first_cmd_ns - t0_ns) * 1e-9 if dec.first_cmd_ns is not None else math.inf
    if source["initial_speed_mps"] == "default" and refs["speed_mps"][0]:
        t_first, v_first = refs["speed_mps"][0][0], refs["speed_mps"][1][0]
        # the first report within 0.1 s of the start and at most 50 ms after the first command still
        # shows the vehicle as it was (a command needs its dead time and lag to act)
        if t_first < min(0.1, t_cmd0 + 0.05 + 1e-9) and math.isfinite(v_first) and abs(v_first) > 0.05:
            p["initial_speed_mps"], source["initial_speed_mps"] = float(v_first), "reports"
    # the first gear report is the initial lever position when it comes before any command, or, for a
    # vehicle the reports show rolling at the start, within 0.15 s and before any gear command (a
    # rolling lever does not move sooner)
    first_gear = dec.first_gear
    t_gear_cmd = min((k * dt_ns * 1e-9 for k, obj in events if isinstance(obj, core_cmd.GearCmd)), default=math.inf)
    rolling = source["initial_speed_mps"] == "reports"
    if (source["initial_gear"] == "default" and first_gear is not None and first_gear[1] in _GEAR_LETTER
            and (first_gear[0] < t_cmd0 or (rolling and first_gear[0] < min(0.15, t_gear_cmd + 1e-9)))):
        p["initial_gear"], source["initial_gear"] = _GEAR_LETTER[first_gear[1]], "reports"


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


def _engagement_events(engagement: dict, t0_ns: int, dt_ns: float, tm: TopicMap, problems: list) -> list:
    """``[(step, ENABLE | DISABLE)]`` from :func:`engagement_changes`: each applied in the physics step that
    ends at its log time, so the simulation's report of that step shows the same state at the same time."""
    out = []
    for t, on in engagement_changes(engagement, t0_ns, tm, problems):
        k = 0 if t is None else math.ceil((t - t0_ns) / dt_ns - _STEP_SLACK) - 1
        out.append((max(0, k), core_cmd.ENABLE if on else core_cmd.DISABLE))
    return out


def _add(refs: dict, name: str, t_s: float, v: float) -> None:
    """Append the sample ``(t_s, v)`` to reference signal ``name`` of ``refs``."""
    ts, vs = refs[name]
    ts.append(t_s)
    vs.append(float(v))


# ---------------------------------------------------------------------------------- stepping


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
    sim, params, terrain, initial = build_simulation(p, inp.start)
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
                # the signals read four reports: fill those alone when no bag is written (the same content;
                # neither the on-change reports nor their counters are read then)
                reports = sim.reports() if outs is not None else sim.reports(_SIGNAL_REPORTS, on_change=False)
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
