"""Print the messages of a topic as YAML: `ros2 topic echo` for a venv without the ros2 CLI.

    python examples/watch.py /vehicle/gear/report --once
    python examples/watch.py /vehicle/ulc/report --field vel_meas --count 5

The type is found from the graph (the topic must have a publisher); `--field` prints one
field (dotted path, e.g. `gear.value`); `--count N` stops after N messages, `--once` after one.
Exit status 1 if no publisher appears or nothing arrives within --timeout seconds.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

import rclpy
import yaml


def message_class(type_name: str):
    """``ds_dbw_msgs/msg/GearReport`` -> the generated Python class."""
    pkg, kind, name = type_name.split("/")
    return getattr(importlib.import_module(f"{pkg}.{kind}"), name)


def to_plain(value):
    """A message as nested dicts and lists (what `ros2 topic echo` prints)."""
    if hasattr(value, "get_fields_and_field_types"):
        return {f: to_plain(getattr(value, f)) for f in value.get_fields_and_field_types()}
    if isinstance(value, (list, tuple)) or type(value).__name__ in ("ndarray", "array"):
        return [to_plain(v) for v in value]
    return value.item() if hasattr(value, "item") else value


def main(argv: list[str] | None = None) -> int:
    """Print the topic's messages; return 0, or 1 when nothing came within --timeout [s]."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("topic")
    ap.add_argument("--field", help="print only this field (dotted path)")
    ap.add_argument("--count", type=int, default=0, help="stop after N messages (0: never)")
    ap.add_argument("--once", action="store_true", help="same as --count 1")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds to wait [10]")
    args = ap.parse_args(argv)
    count = 1 if args.once else args.count

    rclpy.init()
    node = rclpy.create_node("watch")
    try:
        deadline = time.monotonic() + args.timeout
        types = []
        while not types and time.monotonic() < deadline:
            types = dict(node.get_topic_names_and_types()).get(args.topic, [])
            rclpy.spin_once(node, timeout_sec=0.1)
        if not types:
            print(f"no publisher on {args.topic} after {args.timeout} s", file=sys.stderr)
            return 1
        seen = []

        def show(msg) -> None:
            if args.field:
                for part in args.field.split("."):
                    msg = getattr(msg, part)
                print(msg, flush=True)
            else:
                print(yaml.safe_dump(to_plain(msg), sort_keys=False) + "---", flush=True)
            seen.append(1)

        node.create_subscription(message_class(types[0]), args.topic, show, 10)
        deadline = time.monotonic() + args.timeout
        while rclpy.ok() and (count == 0 or len(seen) < count):
            rclpy.spin_once(node, timeout_sec=0.1)
            if not seen and time.monotonic() > deadline:
                print(f"nothing on {args.topic} after {args.timeout} s", file=sys.stderr)
                return 1
        return 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # the reader went away (watch.py ... | head): end quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    sys.exit(main())
