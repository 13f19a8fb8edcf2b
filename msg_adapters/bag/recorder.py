"""Recording an rclpy node into a bag (:class:`NodeBagRecorder`): the one part of the bag package that uses rclpy.

rclpy is imported inside :class:`NodeBagRecorder` only, so this module imports without ROS.
Messages the rmw serializes in a form rosbags cannot read back (:func:`rmw_bytes_unreadable`)
are converted (:func:`to_rosbags`) and serialized by rosbags instead.
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rosbags.interfaces import Nodetype

from .store import ARRAY_DTYPES, CUSTOM_PREFIX, BagError, msgtype_name, qos_to_rosbags, typestore
from .writer import ProcessBagWriter


_WIDE = frozenset({"float64", "int64", "uint64", "double"})


def rmw_bytes_unreadable(typename: str, store: Any = None) -> bool:
    """True if the rmw's serialization of ``typename`` may not be readable by rosbags.

    Fast-CDR (rmw_fastrtps) aligns an *empty* sequence of 8-byte numbers
    (``float64[] effort`` of ``sensor_msgs/JointState``) to 8 bytes; rosbags'
    deserializer aligns only a non-empty one, so it finds 4 bytes too many
    ("CDR message size mismatch") or reads the next field from the padding.
    Types holding such a sequence, at any depth, are recorded through
    :func:`to_rosbags` and rosbags' serializer instead.
    """
    store = store or typestore()
    seen: set = set()

    def wide(name: str) -> bool:
        if name in seen:
            return False
        seen.add(name)
        for _f, (nt, desc) in store.fielddefs[name][1]:
            if nt == Nodetype.NAME and wide(desc):
                return True
            if nt == Nodetype.SEQUENCE and desc[0][0] == Nodetype.BASE and desc[0][1][0] in _WIDE:
                return True
            if nt in (Nodetype.ARRAY, Nodetype.SEQUENCE) and desc[0][0] == Nodetype.NAME and wide(desc[0][1]):
                return True
        return False

    return typename in store.fielddefs and wide(typename)


def to_rosbags(msg: Any, typename: str, store: Any = None) -> Any:
    """An rclpy message -> the rosbags message of ``typename`` with the same values, field by field.

    Raises
    ------
    BagError
        If the store does not know ``typename``.
    """
    import numpy as np
    store = store or typestore()
    if typename not in store.fielddefs:
        raise BagError(f"unknown message type {typename!r}")
    values = {}
    for name, (nt, desc) in store.fielddefs[typename][1]:
        v = getattr(msg, name)
        if nt == Nodetype.NAME:
            values[name] = to_rosbags(v, desc, store)
        elif nt == Nodetype.BASE:
            values[name] = v
        else:
            sub = desc[0]
            if sub[0] == Nodetype.BASE and sub[1][0] in ARRAY_DTYPES:
                dtype = ARRAY_DTYPES[sub[1][0]]
                values[name] = (np.frombuffer(bytes(v), dtype=dtype) if isinstance(v, (bytes, bytearray))
                                else np.asarray(v, dtype=dtype))
            elif sub[0] == Nodetype.NAME:
                values[name] = [to_rosbags(x, sub[1], store) for x in v]
            else:
                values[name] = list(v)
    return store.types[typename](**values)


class NodeBagRecorder:
    """Record every topic an rclpy node publishes and every message it receives, into a new bag.

    Taps the node in place, no extra DDS traffic and no change of behaviour:

    * each publisher's ``publish`` is wrapped: the message is serialized
      (``rclpy.serialization``; for types :func:`rmw_bytes_unreadable` by
      rosbags, :func:`to_rosbags` and rosbags' serializer; a message published
      already serialized, as ``bytes``, as it is) and written, then published
      as before;
      ``get_subscription_count`` reports at least one subscriber (the bag), so a
      node that skips topics nobody listens to fills and records them all. A
      message is handed to DDS only when a real subscriber exists, as before;
    * each subscription's callback is wrapped: the received message is written (a raw
      subscription's bytes as they came), then the node's callback runs (``/clock`` the node
      reads is not recorded);
    * a TRANSIENT_LOCAL publisher (``/tf_static``), whose one message was sent
      before the recorder existed, is recorded through an extra raw subscription
      with the same QoS.

    Every message is stamped with ``clock_ns()``: by default the node's ROS
    clock; :class:`acres_dbw_sim.node.SimNode` passes its simulation time
    (``epoch_s + sim.time_s``), so a command is stamped with the physics step
    it is applied to and outputs with the stamp in their headers. That is what
    makes an offline replay of the bag step-exact.

    The bag is written by a child process (:class:`ProcessBagWriter`): in the
    node's thread a message costs its serialization and a copy into the batch that
    :meth:`flush` (or 64 KiB held) sends down a pipe; rosbags' ``Writer.write`` and
    the MCAP chunks run on the other core.

    The node's parameters, ``epoch_s`` and the recorder's version go into the
    bag's ``custom_data`` (keys ``acres_dbw_sim.*``). The bag is closed (summary
    and ``metadata.yaml`` written) by :meth:`close`, which is also registered
    with ``atexit``: the node's SIGINT/SIGTERM handling ends ``main`` normally,
    so a recording stopped by a signal is complete.

    Parameters
    ----------
    node : rclpy.node.Node
        After its publishers and subscriptions are created.
    path : str or Path
        New bag directory.
    storage : {'mcap', 'sqlite3'}
    clock_ns : callable, optional
        ``clock_ns() -> int`` [ns], the log time of each message.
    epoch_s : float, optional
        Bag time [s] of simulation time 0 (stored for the replay).
    exclude : sequence of str
        Topics not recorded.

    Raises
    ------
    BagError
        If the bag cannot be created (path exists, not writable); the message names the path.
    """

    def __init__(self, node: Any, path: str | Path, storage: str = "mcap",
                 clock_ns: Callable[[], int] | None = None, epoch_s: float | None = None,
                 exclude: Sequence[str] = ("/rosout", "/parameter_events")) -> None:
        from rclpy.qos import DurabilityPolicy, QoSProfile
        from rclpy.serialization import serialize_message

        params = {name: p.value for name, p in node.get_parameters_by_prefix("").items()}
        custom = {CUSTOM_PREFIX + "node": node.get_fully_qualified_name(),
                  CUSTOM_PREFIX + "parameters": json.dumps(params, sort_keys=True, default=str)}
        if epoch_s is not None:
            custom[CUSTOM_PREFIX + "epoch_s"] = repr(float(epoch_s))
        self.writer = ProcessBagWriter(path, storage, custom)   # written off the node's thread
        self.path = self.writer.path
        self._clock = clock_ns if clock_ns is not None else (lambda: node.get_clock().now().nanoseconds)
        self.topics: list[str] = []
        self._restore: list = []
        skip = set(exclude)
        write = self.writer.write
        clock = self._clock
        store = typestore()

        def serializer(typename: str) -> Callable[[Any], bytes]:
            if rmw_bytes_unreadable(typename, store):   # joint_states: rosbags' own bytes (see the function)
                return lambda msg: store.serialize_cdr(to_rosbags(msg, typename, store), typename)
            return serialize_message

        own: set = set()   # this recorder's own subscriptions (TRANSIENT_LOCAL topics)
        for pub in list(node.publishers):
            topic = pub.topic_name
            if topic in skip:
                continue
            cid = self.writer.add_topic(topic, msgtype_name(pub.msg_type), qos_to_rosbags(pub.qos_profile))
            self.topics.append(topic)
            if pub.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL:
                qos = QoSProfile(depth=max(1, pub.qos_profile.depth), reliability=pub.qos_profile.reliability,
                                 durability=DurabilityPolicy.TRANSIENT_LOCAL)
                own.add(node.create_subscription(pub.msg_type, topic, lambda data, c=cid: write(c, clock(), data),
                                                 qos, raw=True))
                continue
            real_publish, real_count = pub.publish, pub.get_subscription_count

            def publish(msg, c=cid, real_publish=real_publish, real_count=real_count,
                        serialize=serializer(msgtype_name(pub.msg_type))):
                # already serialized (the node's reports, msg_adapters.ds_dbw.ReportPacker): as is
                write(c, clock(), msg if isinstance(msg, bytes) else serialize(msg))
                if real_count() > 0:
                    real_publish(msg)

            pub.publish = publish
            pub.get_subscription_count = lambda real_count=real_count: max(1, real_count())
            self._restore.append((pub, ("publish", "get_subscription_count")))
        for sub in list(node.subscriptions):
            topic = sub.topic_name
            if topic in skip or topic == "/clock" or sub in own:
                continue
            cid = self.writer.add_topic(topic, msgtype_name(sub.msg_type), qos_to_rosbags(sub.qos_profile))
            self.topics.append(topic)
            callback = sub.callback

            def on_message(msg, c=cid, callback=callback, serialize=serializer(msgtype_name(sub.msg_type))):
                # a raw subscription (the node's ds_dbw commands) gives the serialized bytes: as is
                write(c, clock(), msg if isinstance(msg, bytes) else serialize(msg))
                callback(msg)

            sub.callback = on_message
        atexit.register(self.close)

    @property
    def message_count(self) -> int:
        """Messages written so far."""
        return self.writer.message_count

    def flush(self) -> None:
        """Hand the messages recorded since the last call to the writer process (the node
        calls it at the end of each tick; one pipe write)."""
        self.writer.flush()

    def close(self) -> None:
        """Close the bag and wait until it is complete (idempotent); messages published
        afterwards are not recorded."""
        self.writer.close()
