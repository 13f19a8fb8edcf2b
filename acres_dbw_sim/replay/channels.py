"""Which of a bag's channels a replay reads, and the type store that decodes each.

Shared by the offline replay (:mod:`.offline`) and the live one (:mod:`.live`).
A channel is read when the topic map (:class:`~.topics.TopicMap`) names it one of
our topics and its message type is the one that topic carries
(:func:`expected_types`); anything else found on the way is a
:class:`~.reader.Problem` appended to the caller's list (docs/bags.md, "Problems").
"""
from __future__ import annotations

from msg_adapters import bag as B

from .reader import BagScan, Problem
from .topics import COMMAND_TOPICS, ENGAGEMENT_TOPICS, EVENT_TOPICS, REFERENCE_TOPICS, TopicMap, ds_type

__all__ = ["expected_types", "select_channels", "report_unreadable_types"]


def expected_types() -> dict:
    """``{our relative topic: message type}`` of every topic the replay reads."""
    out = {t: ds_type(n) for t, n in COMMAND_TOPICS}
    out.update({t: "std_msgs/msg/Empty" for t, _ in EVENT_TOPICS})
    out.update(dict(REFERENCE_TOPICS))
    out.update({t: typ for t, typ, _f in ENGAGEMENT_TOPICS})
    return out


def report_unreadable_types(scan: BagScan, tm: TopicMap, problems: list) -> None:
    """Append a problem for every channel of the bag whose messages cannot be decoded for want of a type.

    ``missing_type``: the bag stores no message type for the channel (or ``__schemaless__``);
    ``unknown_type``: the type is neither in our type store nor defined in the bag. Each is
    serious when the channel is one of ours under ``tm``.
    """
    store = B.typestore()
    for ch in scan.channels.values():
        if not ch.msgtype or ch.msgtype == "__schemaless__":
            problems.append(Problem("missing_type", ch.topic, "no message type stored for this topic: its "
                                    f"{ch.count} messages cannot be decoded", ch.count, tm.ours(ch.topic) is not None))
        elif ch.msgtype not in store.fielddefs and not ch.msgdef:
            problems.append(Problem("unknown_type", ch.topic, f"type {ch.msgtype} is neither ours (ds_dbw_msgs, "
                                    "tf2_msgs, ROS 2 Kilted) nor defined in the bag: its messages cannot be "
                                    "decoded", ch.count, tm.ours(ch.topic) is not None))


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
