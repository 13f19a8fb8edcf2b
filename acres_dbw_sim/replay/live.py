"""Live replay: publish a bag's DBW command topics over DDS at their recorded timing (needs rclpy).

For users without ``ros2 bag play``. The recorded CDR bytes are published
unchanged (``Publisher.publish(bytes)``) on our topics (``<namespace>/...``;
``--topic-map`` reads them from other bag topics), in file order, the first
command at once and every later one at its log-time offset divided by
``speed``. Backwards log times are clamped to their predecessor's
(:mod:`.offline` explains the rule). QoS: RELIABLE, VOLATILE, KEEP_LAST as the
node subscribes (§1.3). A bag without any ``enable`` message gets an ``enable`` /
``disable`` where its reports show the vehicle engaged / disengaged, as in the
offline replay (:func:`.engagement.engagement_changes`).

With ``clock_hz`` the bag's time is also published on ``/clock`` (rosgraph_msgs/Clock)
at that rate, starting at the first command's log time, for a node run with
``use_sim_time:=true`` in ``time_mode:=realtime`` and no other clock source.
A node in ``time_mode:=sim`` or ``lockstep`` publishes ``/clock`` itself: do not
add a second source then.
"""
from __future__ import annotations

import bisect
import itertools
import os
import sys
import time
from pathlib import Path

from .channels import select_channels
from .engagement import engagement_changes
from .reader import exit_status, scan_bag
from .topics import COMMAND_TOPICS, ENGAGEMENT_TOPICS, EVENT_TOPICS, TopicMap

__all__ = ["play"]

_DISCOVERY_S = 5.0
#: The live replay prints where it is every this many seconds of wall time.
PROGRESS_S = 10.0


def play(bag: str | Path, topic_map: TopicMap | None = None, speed: float = 1.0, clock_hz: float | None = None,
         quiet: bool = False, discovery_s: float = _DISCOVERY_S) -> int:
    """Publish the bag's command topics in real time (scaled by ``speed``); returns an exit status.

    Parameters
    ----------
    bag : str or Path
    topic_map : TopicMap, optional
    speed : float
        Playback rate, > 0 (2.0 = twice as fast as recorded).
    clock_hz : float, optional
        Publish ``/clock`` at this rate [Hz] with the bag's time.
    quiet : bool
        Print only problems.
    discovery_s : float
        Wait up to this long [s] for the node's subscriptions before starting.

    Returns
    -------
    int
        0 done, 1 done but a serious bag problem was listed (:func:`.reader.exit_status`), 2 nothing to
        publish or invalid ``speed``, 130 interrupted.
    """
    import rclpy
    from rosgraph_msgs.msg import Clock
    from std_msgs.msg import Empty

    import ds_dbw_msgs.msg as dbw_msgs

    if not speed > 0:
        print(f"acres-replay: error: --speed {speed}: must be > 0", file=sys.stderr)
        return 2
    tm = topic_map or TopicMap()
    cmds = {t: getattr(dbw_msgs, n) for t, n in COMMAND_TOPICS}
    cmds.update({t: Empty for t, _ in EVENT_TOPICS})
    problems: list = []
    records, usable = _command_records(bag, tm, cmds, problems)
    for pr in problems:
        print(f"  bag problem{' (serious)' if pr.serious else ''}: {pr}", file=sys.stderr)
    if not records:
        print(f"acres-replay: error: {bag}: no DBW command messages to publish", file=sys.stderr)
        return 2
    ctx_owned = not rclpy.ok()
    if ctx_owned:
        rclpy.init()
    node = rclpy.create_node("acres_replay")
    try:
        pubs = _publishers(node, usable, cmds, tm)
        clock_pub = node.create_publisher(Clock, "/clock", 10) if clock_hz else None
        _await_subscribers(pubs, discovery_s, quiet, tm)
        t_first = records[0][0]
        span_s = (records[-1][0] - t_first) * 1e-9
        if not quiet:
            n_topics = len({usable[cid] for _t, cid, _d in records})
            print(f"{Path(bag).name}: publishing {len(records)} commands on {n_topics} topics over {span_s:.2f} s "
                  f"of bag time at {speed:g}x" + (f", /clock at {clock_hz:g} Hz" if clock_hz else "")
                  + f" (ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID', '0 (unset)')})", flush=True)
        wall0 = time.monotonic()
        sent, used, last = _publish_at_log_times(records, usable, pubs, speed, clock_pub, clock_hz, quiet, wall0)
        if not quiet:
            print(f"{Path(bag).name}: published {sent} commands on {len(used)} topics over "
                  f"{time.monotonic() - wall0:.2f} s (bag {(last - t_first) * 1e-9:.2f} s at {speed:g}x)")
        if not any(p.get_subscription_count() for p in pubs.values()):
            print("acres-replay: error: no node subscribed to any command topic, so no vehicle received the "
                  "commands: start the node first, with the same ROS_DOMAIN_ID (and --namespace if it has one)",
                  file=sys.stderr)
            return 2
        return exit_status(problems)
    except KeyboardInterrupt:
        return 130
    finally:
        node.destroy_node()
        if ctx_owned:
            rclpy.try_shutdown()


def _command_records(bag: str | Path, tm: TopicMap, cmds: dict, problems: list) -> tuple:
    """``(records, usable)``: the bag's command messages ``(log time [ns], channel id, CDR bytes)`` in
    file order, with an ``enable`` / ``disable`` where the reports show the engagement when the bag has
    no enable message (:func:`_with_engagement`), and ``{channel id: our topic}``; the bag's problems
    are appended to ``problems``. No records: nothing to publish."""
    flags = {t: f for t, _typ, f in ENGAGEMENT_TOPICS}
    scan = scan_bag(bag, lambda t: tm.ours(t) in cmds or tm.ours(t) in flags)
    problems.extend(scan.problems)
    channels = select_channels(scan, tm, problems)
    usable = {cid: ours for cid, (ours, _ts) in channels.items() if ours in cmds}
    records = [r for r in scan.records if r[1] in usable]
    if records and not any(usable[cid] == "enable" for _t, cid, _d in records):
        records = _with_engagement(scan, channels, records, usable, flags, tm, problems)
    return records, usable


def _publishers(node, usable: dict, cmds: dict, tm: TopicMap) -> dict:
    """``{our topic: publisher}`` for every topic of ``usable``, with the node's command QoS (RELIABLE,
    VOLATILE, depth 10 for an event, 1 for a command)."""
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import Empty
    pubs = {}
    for ours in sorted(set(usable.values())):
        qos = QoSProfile(depth=10 if cmds[ours] is Empty else 1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.VOLATILE)
        pubs[ours] = node.create_publisher(cmds[ours], tm.output_topic(ours), qos)
    return pubs


def _await_subscribers(pubs: dict, discovery_s: float, quiet: bool, tm: TopicMap) -> None:
    """Wait up to ``discovery_s`` [s] for a subscriber on every topic; name the topics still without one."""
    deadline = time.monotonic() + discovery_s
    while time.monotonic() < deadline and not all(p.get_subscription_count() for p in pubs.values()):
        time.sleep(0.02)
    lonely = [tm.output_topic(t) for t, p in pubs.items() if not p.get_subscription_count()]
    if lonely and not quiet:
        print(f"  no subscriber (yet) on {', '.join(lonely)}", file=sys.stderr)


def _publish_at_log_times(records: list, usable: dict, pubs: dict, speed: float, clock_pub, clock_hz: float | None,
                          quiet: bool, wall0: float) -> tuple:
    """Publish every record at ``wall0`` + its log-time offset / ``speed`` [s] (backwards log times at their
    predecessor's), ``/clock`` at ``clock_hz`` in between, progress every :data:`PROGRESS_S`.

    Returns ``(commands sent, our topics used, last log time [ns])``.
    """
    from builtin_interfaces.msg import Time
    from rosgraph_msgs.msg import Clock
    from std_msgs.msg import Empty

    t_first = records[0][0]
    span_s = (records[-1][0] - t_first) * 1e-9
    period = 1.0 / clock_hz if clock_hz else None
    next_clock = wall0
    next_progress = wall0 + PROGRESS_S
    last = t_first
    sent = 0
    used: set = set()

    def publish_clock(now: float) -> None:
        """``/clock`` at the bag time that wall time ``now`` [s] stands for."""
        ns = t_first + int((now - wall0) * speed * 1e9)
        clock_pub.publish(Clock(clock=Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)))

    for t, cid, data in records:
        t = max(t, last)
        last = t
        due = wall0 + (t - t_first) * 1e-9 / speed
        while True:
            now = time.monotonic()
            if period is not None and now >= next_clock:
                publish_clock(now)
                next_clock += period
            if now >= due:
                break
            time.sleep(min(due - now, (next_clock - now) if period is not None else 0.05, 0.05))
        pubs[usable[cid]].publish(data if data is not None else Empty())
        used.add(usable[cid])
        sent += 1
        if not quiet and now >= next_progress:
            print(f"  {(t - t_first) * 1e-9:.1f} of {span_s:.1f} s, {sent} commands published", flush=True)
            next_progress += PROGRESS_S
    return sent, used, last


def _with_engagement(scan, channels: dict, records: list, usable: dict, flags: dict, tm: TopicMap,
                     problems: list) -> list:
    """``records`` with an ``enable`` / ``disable`` (data None: an Empty message) inserted where the
    recorded reports show the vehicle engaged or disengaged (:func:`.engagement.engagement_changes`); the
    bag has no enable message. ``usable`` gains the synthetic channel ids."""
    engagement = {t: (f, []) for t, f in flags.items()}
    for t, cid, data in scan.records:
        ours_ts = channels.get(cid)
        if ours_ts is None or ours_ts[0] not in flags:
            continue
        ours, ts = ours_ts
        try:
            msg = ts.deserialize_cdr(data, scan.channels[cid].msgtype)
        except Exception:  # counted by the offline replay; here only the engagement matters
            continue
        engagement[ours][1].append((t, bool(getattr(msg, flags[ours]))))
    changes = engagement_changes(engagement, records[0][0], tm, problems)
    if not changes:
        return records
    ids = {True: -1, False: -2}   # channel ids no bag uses
    usable[-1], usable[-2] = "enable", "disable"
    latest = list(itertools.accumulate((t for t, _c, _d in records), max))
    out = list(records)
    for t, on in reversed(changes):   # from the end, so earlier positions stay valid
        at = 0 if t is None else bisect.bisect_left(latest, t)
        out.insert(at, (records[0][0] if t is None else t, ids[on], None))
    return out
