"""The one way a test waits for DDS, and the only place a test asks the ROS graph.

A DDS test starts a node (``ros_process``), creates its own endpoints, then calls :func:`matched`
before it sends or counts anything::

    odom = node.create_subscription(Odometry, "/vehicle/odom", got.append, 10)
    enable = node.create_publisher(Empty, "/vehicle/enable", 10)
    step = node.create_client(Trigger, "/vehicle/dbw_node/step")
    matched(node, proc, publishers=[enable], subscriptions=[odom], clients=[step])

"Matched on both sides" means:

- a test **publisher**: its writer has matched the node's reader(s) (``get_subscription_count``);
  the node's reader matches the test's writer on its own schedule, and a reliable writer keeps
  what it sent for a reader it has matched, so a command sent after this is delivered;
- a test **subscription**: its reader has matched the node's writer(s) (``get_publisher_count``)
  *and* (with ``data=True``, the default) a message has arrived since, which only happens once the
  node's writer has matched this reader (the node publishes only to readers it has matched). With
  ``data=False`` (lockstep before the first step, a topic sent only on change) the settle stands in
  for that second half;
- a **client**: ``service_is_ready`` (its request writer and response reader matched the server's).

Then ``settle_s`` of spinning lets the node's side catch up with what this side saw.

A node's readers can match long before it steps (a node that opens a bag first: 1.5 s): a test whose
commands must all be taken lists one of the node's periodic outputs (``dbw_enabled``, odometry) with
``data=True``, whose first message proves the node runs its loop.

These helpers spin ``node`` with ``rclpy.spin_once`` (the global executor): call them before the node
is handed to an executor of the test's own (a background thread), never while one spins it. On time-out
:class:`DiscoveryTimeout` names every endpoint still missing and carries the node's output.

Also here: :func:`wait_for` and :func:`spin_for` (polling and observing, not discovery), :class:`BackgroundSpin`
(a test's node spun in a thread, stopped before the node goes),
:func:`call_service`, and the graph queries (:func:`publishers_info`, :func:`subscriptions_info`,
:func:`node_names`, :func:`topic_names`). ``test/test_suite_hygiene.py`` fails any test module that asks the graph or
waits for discovery by itself.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Iterable

#: Seconds of spinning after every endpoint matched, for the node's side.
SETTLE_S = 0.5
#: Default limit of one discovery wait [s]: a node's start-up (imports, numba cache) plus discovery
#: on a loaded 2-core machine.
DISCOVERY_TIMEOUT_S = 60.0
#: Spin granularity of the waits [s].
SPIN_S = 0.02


class DiscoveryTimeout(AssertionError):
    """Raised by :func:`matched`: the endpoints still missing and the node's output."""


def _spin(node, timeout_s: float = SPIN_S) -> None:
    import rclpy
    rclpy.spin_once(node, timeout_sec=timeout_s)


def _with_count(items) -> list:
    """``[(entity, required count)]`` from entities or ``(entity, count)`` pairs."""
    out = []
    for item in items:
        if isinstance(item, tuple):
            out.append(item)
        else:
            out.append((item, 1))
    return out


def matched(node, proc=None, *, publishers: Iterable = (), subscriptions: Iterable = (),
            clients: Iterable = (), data: bool = True, settle_s: float = SETTLE_S,
            timeout_s: float = DISCOVERY_TIMEOUT_S, procs: Iterable = ()) -> None:
    """Wait until every named endpoint is matched on both sides, then spin ``settle_s`` more.

    Parameters
    ----------
    node : rclpy.node.Node
        The test's node; spun while waiting (its callbacks run).
    proc : helpers.processes.RosProcess, optional
        The node process under test (``procs`` for several): its output goes into the error, and a
        process that exits ends the wait at once.
    publishers : iterable of Publisher or (Publisher, n)
        The test's writers; each must match at least ``n`` (default 1) readers.
    subscriptions : iterable of Subscription or (Subscription, n)
        The test's readers; each must match at least ``n`` writers and, with ``data``, receive a
        message after matching.
    clients : iterable of Client
        Service clients that must find their server.
    data : bool
        Require a message on every subscription (module docstring); with ``(sub, n)`` one message
        proves one writer's side, the settle the others'.
    settle_s, timeout_s : float
        [s]; see the module docstring.

    Raises
    ------
    DiscoveryTimeout
        Naming each endpoint not matched (and on which side), with the process output.
    """
    pubs, subs, clients = _with_count(publishers), _with_count(subscriptions), list(clients)
    procs = ([proc] if proc is not None else []) + list(procs)
    heard: dict = {}
    originals = {}
    if data:
        for sub, _n in subs:
            originals[sub] = sub.callback

            def tap(*args, _sub=sub, _cb=sub.callback):
                if _sub.get_publisher_count() > 0:
                    heard[_sub] = True
                return _cb(*args)

            sub.callback = tap

    def missing() -> list[str]:
        out = [f"publisher {p.topic_name}: {p.get_subscription_count()} of {n} subscriber(s) matched"
               for p, n in pubs if p.get_subscription_count() < n]
        for s, n in subs:
            if s.get_publisher_count() < n:
                out.append(f"subscription {s.topic_name}: {s.get_publisher_count()} of {n} publisher(s) matched")
            elif data and s not in heard:
                out.append(f"subscription {s.topic_name}: matched, but no message yet (the node's side)")
        out += [f"client {c.srv_name}: no server" for c in clients if not c.service_is_ready()]
        return out

    try:
        deadline = time.monotonic() + timeout_s
        left = missing()
        while left and time.monotonic() < deadline:
            if any(not p.alive() for p in procs):
                break
            _spin(node)
            left = missing()
        if left:
            outputs = "\n".join(f"--- {' '.join(map(str, p.argv[1:3]))} "
                                f"({'running' if p.alive() else f'exited {p.proc.returncode}'}):\n{p.output()}"
                                for p in procs)
            raise DiscoveryTimeout(f"not matched within {timeout_s:g} s:\n  " + "\n  ".join(left) +
                                   (f"\n{outputs}" if outputs else ""))
    finally:
        for sub, cb in originals.items():
            sub.callback = cb
    spin_for(node, settle_s)


def spin_for(node, seconds: float) -> None:
    """Spin ``node`` for ``seconds`` of wall time: an observation window (what arrives in it), never
    a discovery wait (that is :func:`matched`)."""
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0.0:
            return
        _spin(node, min(SPIN_S, left))


class BackgroundSpin:
    """Spin nodes in a thread of their own until :meth:`stop`, which joins that thread before it returns.

    For a test that must act while its node's callbacks run (command streams, kept reports). Start it
    after :func:`matched` (which spins the node itself). ``stop`` before the nodes are destroyed: rclpy's
    ``Executor.shutdown`` does not wait for a thread inside ``spin`` (its wait set still holds the
    node's entities), and a node destroyed under it can leave that thread spinning for ever.

    Parameters
    ----------
    *nodes : rclpy.node.Node
        Handed to one ``SingleThreadedExecutor``.
    """

    #: Longest wait of one ``spin_once`` [s]: how soon the thread sees :meth:`stop`.
    PERIOD_S = 0.05

    def __init__(self, *nodes) -> None:
        from rclpy.executors import SingleThreadedExecutor
        self.executor = SingleThreadedExecutor()
        for node in nodes:
            self.executor.add_node(node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="test-spin")
        self._thread.start()

    def _run(self) -> None:
        import rclpy
        while not self._stop.is_set() and rclpy.ok():
            self.executor.spin_once(timeout_sec=self.PERIOD_S)

    def stop(self, timeout_s: float = 10.0) -> None:
        """End the thread (joined) and the executor. Idempotent.

        Raises
        ------
        RuntimeError
            If the thread has not ended in ``timeout_s`` (a callback that never returns).
        """
        self._stop.set()
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            raise RuntimeError(f"the test's spin thread did not end within {timeout_s:g} s")
        self.executor.shutdown()


def wait_for(predicate: Callable[[], object], timeout_s: float, spin: Callable[[], None] | None = None,
             period_s: float = SPIN_S) -> bool:
    """Poll ``predicate`` (calling ``spin()`` between polls, or sleeping ``period_s``) until it is
    true or ``timeout_s`` passed; return its last value as a bool. For the state of a node that is
    already matched (a gear reached, a message count), not for discovery (:func:`matched`)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if spin is not None:
            spin()
        if predicate():
            return True
        if spin is None:
            time.sleep(period_s)
    return bool(predicate())


def call_service(node, client, request, timeout_s: float = 10.0, idempotent: bool = True,
                 done: Callable[[], object] | None = None):
    """Call ``client`` with ``request`` from ``node`` and return the response.

    A server can drop the response to a client it has only half discovered: Fast DDS's service
    waits 100 ms for the client's response reader to match and then gives up ("failed to send
    response (timeout)" in the server's log; ros2/rmw_fastrtps#390, #467). An ``idempotent``
    request is then sent once more. A request that is not (a lockstep step) is not resent:
    ``done()`` must then tell that it took effect, and None is returned for its lost response.

    Raises AssertionError when no response came and the request did not take effect."""
    import rclpy

    future = client.call_async(request)
    rclpy.spin_until_future_complete(node, future, timeout_sec=timeout_s)
    if future.result() is not None:
        return future.result()
    client.remove_pending_request(future)
    if idempotent:
        future = client.call_async(request)
        rclpy.spin_until_future_complete(node, future, timeout_sec=timeout_s)
        assert future.result() is not None, f"no response to {type(request).__name__} in 2 x {timeout_s} s"
        return future.result()
    assert done is not None and wait_for(done, timeout_s, spin=lambda: _spin(node)), \
        f"no response to {type(request).__name__} in {timeout_s} s and it did not take effect"
    return None


# ------------------------------------------------------------------ the graph, asked only here
def publishers_info(node, topic: str) -> list:
    """The writers on ``topic`` this participant has discovered (``TopicEndpointInfo``: node name and
    namespace, QoS, type). Call after :func:`matched`."""
    return node.get_publishers_info_by_topic(topic)


def subscriptions_info(node, topic: str) -> list:
    """The readers on ``topic`` this participant has discovered (as :func:`publishers_info`)."""
    return node.get_subscriptions_info_by_topic(topic)


def node_names(node) -> list[tuple[str, str]]:
    """``[(name, namespace)]`` of every node this participant has discovered."""
    return node.get_node_names_and_namespaces()


def topic_names(node) -> list[str]:
    """Every topic name this participant has discovered."""
    return [name for name, _types in node.get_topic_names_and_types()]


def wait_for_graph(node, predicate: Callable[[], object], timeout_s: float = DISCOVERY_TIMEOUT_S,
                   what: str = "", proc=None, procs: Iterable = (), settle_s: float = SETTLE_S) -> None:
    """Spin until ``predicate()`` over the graph (:func:`publishers_info`, :func:`node_names`) holds,
    for a fact of the graph itself (which nodes own ``/clock``, a node that left), then spin ``settle_s``
    (0 where the test must act at once, e.g. signal a client the moment it appears).

    Raises DiscoveryTimeout naming ``what`` with the output of ``proc`` (``procs`` for several)."""
    if not wait_for(predicate, timeout_s, spin=lambda: _spin(node)):
        procs = ([proc] if proc is not None else []) + list(procs)
        raise DiscoveryTimeout(f"graph: {what or 'condition'} not reached within {timeout_s:g} s" +
                               "".join(f"\n--- {' '.join(map(str, p.argv[1:3]))}:\n{p.output()}" for p in procs))
    spin_for(node, settle_s)
