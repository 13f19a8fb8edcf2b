"""The engagement a bag without ``enable`` messages shows in its recorded reports.

A vehicle engaged with its steering-wheel buttons leaves no ``enable``
message in its bag, but its reports (:data:`.topics.ENGAGEMENT_TOPICS`) carry
the engaged flag. :func:`engagement_changes` reads the changes from them; the
offline replay (:mod:`.offline`) applies them as ``enable`` / ``disable`` in
the physics step of each change, the live one (:mod:`.live`) publishes them at
their log time (docs/bags.md, "Engagement").
"""
from __future__ import annotations

import bisect

from .reader import Problem
from .topics import TopicMap

__all__ = ["engagement_changes"]


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
