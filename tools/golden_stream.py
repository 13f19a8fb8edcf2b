#!/usr/bin/env python3
"""Record the golden report stream: every message the node publishes in a scripted lockstep run.

Usage::

    . .venv/setup.sh
    python tools/golden_stream.py OUT_DIR            # OUT_DIR/<vehicle>/<topic>.csv
    python tools/compare_runs.py BASE_DIR OUT_DIR     # against the stream of another commit

``timeseries.csv`` of a scenario covers the vehicle's state, not the 24 DBW reports, the legacy
reports, odometry, TF, the IMU or ``/diagnostics`` as the node fills them. This script runs the
node itself (:class:`acres_dbw_sim.node.SimNode`, in this process, ``time_mode: lockstep``,
one physics step per ``~/step``) and drives it with a fixed script of commands through every
interface (ds_dbw, polaris_legacy, cmd_vel; ``enable``/``disable``, a steering calibration, an
injected override), handed to the node's own subscription callbacks and service handlers between
the steps. So the run is the same at every repetition: no DDS timing enters it (a participant
exists, as for any rclpy node, but nothing is discovered or sent). Every publisher reports a
subscriber, so every topic is filled at every step it is due, as with a listener on each.

Each published message is decoded into its fields (``a.b[2].c``) and written as one row of
``OUT_DIR/<vehicle>/<topic with / as __>.csv``, with the physics ``step`` and ``t_s`` before the
fields. Two vehicles are run: ``polaris`` (all three interfaces) and ``maxxum150`` (ds_dbw).

Takes about 15 s. Exit 0, or 2 for a bad argument.
"""
from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass
from pathlib import Path

#: Physics rate of the run [Hz] and its length [s].
STEP_HZ = 120.0
DURATION_S = 16.0
#: A held command is re-sent every this many steps (60 Hz at 120 Hz, inside the DBW's 100 ms timeout).
RESEND_EVERY = 2


@dataclass(frozen=True)
class Command:
    """One line of the script: ``topic`` (relative to the namespace) gets ``fields`` of ``type_name``.

    ``start_s``..``end_s`` [s] of simulated time; ``end_s`` None: sent once at ``start_s``. ``package``
    is the message package (``ds_dbw_msgs``, ``dbw_polaris_msgs``, ``std_msgs``, ``geometry_msgs``);
    a ``service`` line calls the node's service ``topic`` with ``fields`` as the request instead."""

    start_s: float
    end_s: float | None
    topic: str
    package: str
    type_name: str
    fields: dict
    service: bool = False


def _script_polaris() -> list[Command]:
    """The Ranger's script: every interface in turn, and the events between them."""
    d, leg = "ds_dbw_msgs", "dbw_polaris_msgs"
    return [
        Command(0.05, None, "enable", "std_msgs", "Empty", {}),
        Command(0.1, 1.5, "brake/cmd", d, "BrakeCmd", {"cmd_type": 1, "cmd": 30.0, "enable": True}),
        Command(0.3, None, "gear/cmd", d, "GearCmd", {"cmd.value": 4}),
        Command(0.1, 6.0, "steering/cmd", d, "SteeringCmd", {"cmd_type": 2, "cmd": 90.0, "cmd_rate": 200.0,
                                                             "enable": True}),
        Command(1.5, 5.0, "ulc/cmd", d, "UlcCmd", {"cmd_type": 1, "cmd": 5.0, "enable": True,
                                                   "limit_accel": 1.5, "limit_decel": 2.0}),
        Command(1.0, 4.0, "turn_signal/cmd", d, "TurnSignalCmd", {"cmd.value": 1}),
        Command(2.0, None, "drive_mode/cmd", d, "DriveModeCmd", {"drive_mode_cmd.value": 0}),
        Command(5.0, 7.0, "throttle/cmd", d, "ThrottleCmd", {"cmd_type": 14, "cmd": 30.0, "enable": True}),
        Command(6.0, 8.0, "steering/cmd", d, "SteeringCmd", {"cmd_type": 1, "cmd": 2.0, "enable": True}),
        Command(7.0, 8.5, "brake/cmd", d, "BrakeCmd", {"cmd_type": 14, "cmd": 40.0, "enable": True}),
        Command(7.5, None, "inject_override", "std_srvs", "SetBool", {"data": True}, service=True),
        Command(7.8, None, "inject_override", "std_srvs", "SetBool", {"data": False}, service=True),
        Command(8.0, None, "enable", "std_msgs", "Empty", {}),
        Command(8.2, None, "steering/calibrate", "std_msgs", "Empty", {}),
        Command(9.0, 11.0, "throttle_cmd", leg, "ThrottleCmd", {"pedal_cmd_type": 2, "pedal_cmd": 0.25,
                                                                "enable": True}),
        Command(9.0, 11.0, "steering_cmd", leg, "SteeringCmd", {"cmd_type": 0, "steering_wheel_angle_cmd": -1.5,
                                                                "enable": True}),
        Command(11.0, 12.0, "brake_cmd", leg, "BrakeCmd", {"pedal_cmd_type": 2, "pedal_cmd": 0.4,
                                                           "enable": True}),
        Command(12.0, 14.5, "cmd_vel", "geometry_msgs", "Twist", {"linear.x": 2.0, "angular.z": 0.15}),
        Command(15.0, None, "disable", "std_msgs", "Empty", {}),
    ]


def _script_maxxum() -> list[Command]:
    """The tractor's script: the DBW2 interface (its vehicle-specific mapping, docs/maxxum150.md)."""
    d = "ds_dbw_msgs"
    return [
        Command(0.05, None, "enable", "std_msgs", "Empty", {}),
        Command(0.1, 1.0, "brake/cmd", d, "BrakeCmd", {"cmd_type": 1, "cmd": 40.0, "enable": True}),
        Command(0.3, None, "gear/cmd", d, "GearCmd", {"cmd.value": 4}),
        Command(0.1, 8.0, "steering/cmd", d, "SteeringCmd", {"cmd_type": 2, "cmd": 200.0, "cmd_rate": 150.0,
                                                             "enable": True}),
        Command(1.0, 6.0, "ulc/cmd", d, "UlcCmd", {"cmd_type": 1, "cmd": 3.0, "enable": True}),
        Command(6.0, 9.0, "throttle/cmd", d, "ThrottleCmd", {"cmd_type": 14, "cmd": 50.0, "enable": True}),
        Command(9.0, 11.0, "brake/cmd", d, "BrakeCmd", {"cmd_type": 14, "cmd": 60.0, "enable": True}),
        Command(12.0, None, "disable", "std_msgs", "Empty", {}),
    ]


#: rclpy's own topic, stamped with the wall clock: left out.
SKIPPED_TOPICS = frozenset({"/parameter_events"})
#: The pseudo-topic of the DBW's log lines (what the real driver prints; rclpy sends them to /rosout
#: from C, with wall-clock stamps): ``dbw_log.csv`` with step, level and text.
LOG_TOPIC = "dbw_log"

#: {vehicle name: (extra node parameters, script)}.
RUNS = {
    "polaris": ({"interfaces": ["ds_dbw", "polaris_legacy", "cmd_vel"], "cmd_vel_shift_park": True,
                 "publish_wheel_tf": True}, _script_polaris),
    "maxxum150": ({"vehicle": "maxxum150"}, _script_maxxum),
}


def _message(cmd: Command):
    """The ROS message (or service request) of a script line, fields set by their dotted paths."""
    import importlib
    kind = "srv" if cmd.service else "msg"
    cls = getattr(importlib.import_module(f"{cmd.package}.{kind}"), cmd.type_name)
    msg = cls.Request() if cmd.service else cls()
    for path, value in cmd.fields.items():
        *parents, leaf = path.split(".")
        target = msg
        for p in parents:
            target = getattr(target, p)
        setattr(target, leaf, value)
    return msg


def flatten(msg, prefix: str = "") -> dict:
    """``{field path: value}`` of a ROS message; sequences indexed (``transforms[0].header.stamp.sec``).

    Numbers stay numbers, text stays text, a byte or a bool becomes an int."""
    out = {}
    if hasattr(msg, "get_fields_and_field_types"):
        for name in msg.get_fields_and_field_types():
            out.update(flatten(getattr(msg, name), f"{prefix}.{name}" if prefix else name))
        return out
    if isinstance(msg, (list, tuple)) or (hasattr(msg, "__len__") and hasattr(msg, "dtype")):
        for i, v in enumerate(msg):
            out.update(flatten(v, f"{prefix}[{i}]"))
        return out
    if isinstance(msg, bytes):
        return {prefix: int.from_bytes(msg, "little")} if len(msg) == 1 else {prefix: msg.hex()}
    if isinstance(msg, bool):
        return {prefix: int(msg)}
    if hasattr(msg, "item"):   # a numpy scalar
        msg = msg.item()
    return {prefix: msg}


class _Tap:
    """Every message a node publishes, decoded, by topic: ``rows[topic] = [{field: value}, ...]``.

    Installed before the node is built (:meth:`install` wraps ``Node.create_publisher``), so the
    latched messages of its constructor (``/tf_static``, ``robot_description``) are caught too."""

    def __init__(self) -> None:
        self.rows: dict[str, list] = {}
        self.time_s = lambda: 0.0     # the simulation's time, once the node exists

    def wrap(self, pub) -> None:
        """Record every ``pub.publish`` and report a subscriber (every topic is filled)."""
        from rclpy.serialization import deserialize_message
        topic, msg_type, original = pub.topic_name, pub.msg_type, pub.publish
        if topic in SKIPPED_TOPICS:
            return

        def publish(msg):
            if isinstance(msg, (bytes, bytearray, memoryview)):   # published already serialized
                msg = deserialize_message(bytes(msg), msg_type)
            t = self.time_s()
            row = {"step": int(round(t * STEP_HZ)), "t_s": t}
            row.update(flatten(msg))
            self.rows.setdefault(topic, []).append(row)
            original(msg)

        pub.publish = publish
        pub.get_subscription_count = lambda: 1

    def log(self, dbw) -> None:
        """Record every line the DBW hands to the node's log (``DbwSystem.drain_log``)."""
        drain = dbw.drain_log

        def drain_log():
            lines = drain()
            t = self.time_s()
            for level, text in lines:
                self.rows.setdefault(LOG_TOPIC, []).append(
                    {"step": int(round(t * STEP_HZ)), "t_s": t, "level": level, "text": text})
            return lines

        dbw.drain_log = drain_log

    def install(self):
        """Wrap ``rclpy.node.Node.create_publisher``; returns a function that undoes it."""
        from rclpy.node import Node
        create = Node.create_publisher

        def create_publisher(node, *args, **kwargs):
            pub = create(node, *args, **kwargs)
            self.wrap(pub)
            return pub

        Node.create_publisher = create_publisher
        return lambda: setattr(Node, "create_publisher", create)


def run(vehicle: str, duration_s: float = DURATION_S, overrides: str = "") -> dict[str, list]:
    """Run one vehicle's script in lockstep for ``duration_s`` [s] (the node's parameter ``overrides``
    applied, 'key=value;...'); return the decoded messages by topic."""
    import rclpy
    from rclpy.parameter import Parameter
    from rclpy.serialization import serialize_message
    from std_srvs.srv import Trigger

    from acres_dbw_sim.node import SimNode

    extra, script = RUNS[vehicle]
    params = {"time_mode": "lockstep", "lockstep_steps": 1, "step_hz": STEP_HZ, "overrides": overrides, **extra}
    context = rclpy.Context()
    rclpy.init(args=[], context=context)
    try:
        tap = _Tap()
        undo = tap.install()
        try:
            node = SimNode(context=context,
                           parameter_overrides=[Parameter(k, value=v) for k, v in params.items()])
        finally:
            undo()
        tap.time_s = lambda: node.sim.time_s
        tap.log(node.sim.dbw)
        subs = {s.topic_name: s for s in node.subscriptions}
        services = {s.srv_name: s for s in node.services}
        ns = node.get_namespace().rstrip("/")

        def deliver(cmd: Command) -> None:
            if cmd.service:
                srv = services[f"~/{cmd.topic}"]
                srv.callback(_message(cmd), srv.srv_type.Response())
            else:   # a raw subscription (the ds_dbw commands) takes the bytes DDS would deliver
                sub = subs[f"{ns}/{cmd.topic}"]
                sub.callback(serialize_message(_message(cmd)) if sub.raw else _message(cmd))

        step_srv = services["~/step"]
        lines = script()
        for k in range(int(round(duration_s * STEP_HZ))):
            t = k / STEP_HZ
            for cmd in lines:
                start_k = int(round(cmd.start_s * STEP_HZ))
                if cmd.end_s is None:
                    due = k == start_k
                else:
                    due = start_k <= k < int(round(cmd.end_s * STEP_HZ)) and (k - start_k) % RESEND_EVERY == 0
                if due:
                    deliver(cmd)
            step_srv.callback(Trigger.Request(), Trigger.Response())
            if abs(node.sim.time_s - t - 1.0 / STEP_HZ) > 1e-9:   # one ~/step, one physics step
                raise RuntimeError(f"~/step took the simulation from {t} s to {node.sim.time_s} s")
        node.destroy_node()
        return tap.rows
    finally:
        rclpy.try_shutdown(context=context)


def write(rows: dict[str, list], out: Path) -> list[Path]:
    """One CSV per topic under ``out`` (columns: the union of every row's fields, in first-seen order)."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.csv"):   # a stream of an earlier run
        old.unlink()
    written = []
    for topic, msgs in sorted(rows.items()):
        columns: dict = {}
        for m in msgs:
            for k in m:
                columns.setdefault(k, None)
        path = out / (topic.strip("/").replace("/", "__") + ".csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(list(columns))
            for m in msgs:
                w.writerow([repr(m[c]) if isinstance(m.get(c), float) else m.get(c, "") for c in columns])
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring)."""
    ap = argparse.ArgumentParser(description="Record every message of a scripted lockstep run of the node, "
                                             "one CSV per topic (compare two with tools/compare_runs.py).")
    ap.add_argument("out", type=Path, help="output directory (OUT/<vehicle>/<topic>.csv)")
    ap.add_argument("--vehicle", choices=sorted(RUNS), action="append",
                    help="run only this vehicle (repeatable; default: all)")
    ap.add_argument("--duration-s", type=float, default=DURATION_S,
                    help=f"simulated time [s] (default {DURATION_S:g}: the whole script)")
    ap.add_argument("--overrides", default="", metavar="KEY=VALUE;...",
                    help="vehicle parameter overrides (the node's 'overrides'), e.g. to see what a change moves")
    args = ap.parse_args(argv)
    if not args.duration_s > 0.0:
        ap.error("--duration-s: must be > 0")
    for vehicle in args.vehicle or sorted(RUNS):
        rows = run(vehicle, args.duration_s, args.overrides)
        files = write(rows, args.out / vehicle)
        print(f"{vehicle}: {sum(len(v) for v in rows.values())} messages on {len(files)} topics "
              f"-> {args.out / vehicle}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
