"""The everyday `ros2` verbs for a venv without the ros2 command line.

    python examples/ros.py node list
    python examples/ros.py topic list -t                  # with types; -v adds publishers, subscribers, QoS
    python examples/ros.py topic info /vehicle/odom -v
    python examples/ros.py service list
    python examples/ros.py service call /vehicle/dbw_node/reset std_srvs/srv/Trigger
    python examples/ros.py service call /vehicle/dbw_node/set_parameters rcl_interfaces/srv/SetParameters \\
        "{parameters: [{name: rate_factor, value: {type: 3, double_value: 2.0}}]}"
    python examples/ros.py param list /vehicle/dbw_node
    python examples/ros.py param get /vehicle/dbw_node step_hz
    python examples/ros.py param set /vehicle/dbw_node rate_factor 4.0
    python examples/ros.py param describe /vehicle/dbw_node step_hz
    python examples/ros.py param dump /vehicle/dbw_node > params.yaml   # for --params-file

Each verb prints what `ros2 <verb>` prints, near enough to read the README's examples by.
The graph is discovered for --spin-time seconds (default 2) as `ros2 ... --no-daemon` does.
`python examples/watch.py TOPIC` is `ros2 topic echo`. Exit status 0, 1 when the node,
service or parameter is not found or a set is refused, 2 for bad arguments.
"""
from __future__ import annotations

import argparse
import sys
import time

import rclpy
import yaml
from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
from rcl_interfaces.srv import DescribeParameters, GetParameters, ListParameters, SetParameters
from watch import message_class as interface_class, to_plain   # examples/watch.py, beside this file

#: ParameterValue field of each ParameterType
FIELD = {ParameterType.PARAMETER_BOOL: "bool_value", ParameterType.PARAMETER_INTEGER: "integer_value",
         ParameterType.PARAMETER_DOUBLE: "double_value", ParameterType.PARAMETER_STRING: "string_value",
         ParameterType.PARAMETER_BYTE_ARRAY: "byte_array_value", ParameterType.PARAMETER_BOOL_ARRAY: "bool_array_value",
         ParameterType.PARAMETER_INTEGER_ARRAY: "integer_array_value",
         ParameterType.PARAMETER_DOUBLE_ARRAY: "double_array_value",
         ParameterType.PARAMETER_STRING_ARRAY: "string_array_value"}
TYPE_NAME = {ParameterType.PARAMETER_BOOL: "boolean", ParameterType.PARAMETER_INTEGER: "integer",
             ParameterType.PARAMETER_DOUBLE: "double", ParameterType.PARAMETER_STRING: "string",
             ParameterType.PARAMETER_BYTE_ARRAY: "byte array", ParameterType.PARAMETER_BOOL_ARRAY: "boolean array",
             ParameterType.PARAMETER_INTEGER_ARRAY: "integer array",
             ParameterType.PARAMETER_DOUBLE_ARRAY: "double array",
             ParameterType.PARAMETER_STRING_ARRAY: "string array"}


def fill(msg, data: dict):
    """Set the fields of ``msg`` from a YAML mapping (nested messages and lists of messages too)."""
    for key, val in (data or {}).items():
        if not hasattr(msg, key):
            raise ValueError(f"{type(msg).__name__} has no field {key!r}")
        cur = getattr(msg, key)
        if hasattr(cur, "get_fields_and_field_types"):
            fill(cur, val)
        elif isinstance(val, list) and val and isinstance(val[0], dict):
            kind = msg.get_fields_and_field_types()[key]          # sequence<pkg/Type>
            cls = interface_class(kind[kind.index("<") + 1:kind.rindex(">")].replace("/", "/msg/", 1))
            setattr(msg, key, [fill(cls(), v) for v in val])
        else:
            setattr(msg, key, val)
    return msg


def parameter_value(text: str) -> ParameterValue:
    """A command-line value as `ros2 param set` reads it (YAML: 2 is an integer, 2.0 a double, [a, b] a list)."""
    v = yaml.safe_load(text)
    pv = ParameterValue()
    if isinstance(v, bool):
        pv.type, pv.bool_value = ParameterType.PARAMETER_BOOL, v
    elif isinstance(v, int):
        pv.type, pv.integer_value = ParameterType.PARAMETER_INTEGER, v
    elif isinstance(v, float):
        pv.type, pv.double_value = ParameterType.PARAMETER_DOUBLE, v
    elif isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        pv.type, pv.string_array_value = ParameterType.PARAMETER_STRING_ARRAY, v
    elif isinstance(v, list) and v and all(isinstance(x, float) for x in v):
        pv.type, pv.double_array_value = ParameterType.PARAMETER_DOUBLE_ARRAY, v
    elif isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        pv.type, pv.integer_array_value = ParameterType.PARAMETER_INTEGER_ARRAY, v
    else:
        pv.type, pv.string_value = ParameterType.PARAMETER_STRING, text
    return pv


def plain_value(pv: ParameterValue):
    """The Python value of a ParameterValue (None when not set)."""
    f = FIELD.get(pv.type)
    return to_plain(getattr(pv, f)) if f else None


class Client:
    """A node that discovers the graph and calls services, as ``ros2 --no-daemon`` does."""

    def __init__(self, spin_time_s: float) -> None:
        rclpy.init()
        self.node = rclpy.create_node("ros_verbs")
        self.spin_time_s = spin_time_s
        end = time.monotonic() + spin_time_s
        while time.monotonic() < end:
            rclpy.spin_once(self.node, timeout_sec=0.05)

    def call(self, srv_type, name: str, request, timeout_s: float = 10.0):
        """Call ``name``; None if the service does not appear or answer within ``timeout_s``."""
        cli = self.node.create_client(srv_type, name)
        if not cli.wait_for_service(timeout_sec=max(self.spin_time_s, 1.0)):
            print(f"service {name} not available (is the node running, in this ROS_DOMAIN_ID?)", file=sys.stderr)
            return None
        future = cli.call_async(request)
        rclpy.spin_until_future_complete(self.node, future, timeout_sec=timeout_s)
        if future.result() is None:
            print(f"no answer from {name} within {timeout_s:g} s", file=sys.stderr)
        return future.result()

    def close(self) -> None:
        """Destroy the node and shut rclpy down."""
        self.node.destroy_node()
        rclpy.try_shutdown()


def qos_text(q) -> str:
    """A QoS profile as `ros2 topic info -v` prints its main fields."""
    return (f"Reliability: {q.reliability.name}, Durability: {q.durability.name}, History: {q.history.name}, "
            f"Depth: {q.depth}")


def cmd_node(c: Client, a) -> int:
    """`node list`: every node of the graph but this one; returns 0."""
    for name, ns in sorted(c.node.get_node_names_and_namespaces()):
        if name != c.node.get_name():
            print(f"{ns.rstrip('/')}/{name}")
    return 0


def cmd_topic(c: Client, a) -> int:
    """`topic list` / `topic info`; returns 0, or 1 for a topic not seen."""
    topics = dict(c.node.get_topic_names_and_types())
    if a.verb == "list":
        for t in sorted(topics):
            line = t + (f" [{', '.join(topics[t])}]" if a.show_types or a.verbose else "")
            if a.verbose:
                line += (f" {c.node.count_publishers(t)} publisher(s), "
                         f"{c.node.count_subscribers(t)} subscriber(s)")
            print(line)
        return 0
    if a.topic not in topics:
        print(f"unknown topic {a.topic!r} (no publisher or subscriber seen in {c.spin_time_s:g} s)", file=sys.stderr)
        return 1
    print(f"Type: {', '.join(topics[a.topic])}")
    for what, infos in (("Publisher", c.node.get_publishers_info_by_topic(a.topic)),
                        ("Subscription", c.node.get_subscriptions_info_by_topic(a.topic))):
        print(f"{what} count: {len(infos)}")
        if a.verbose:
            for i in infos:
                print(f"  {i.node_namespace.rstrip('/')}/{i.node_name}: {qos_text(i.qos_profile)}")
    return 0


def cmd_service(c: Client, a) -> int:
    """`service list` / `service call`; returns 0, or 1 when the call got no answer."""
    services = dict(c.node.get_service_names_and_types())
    if a.verb == "list":
        own = f"/{c.node.get_name()}/"
        for s in sorted(x for x in services if not x.startswith(own)):   # not this tool's own
            print(s + (f" [{', '.join(services[s])}]" if a.show_types else ""))
        return 0
    req_cls = interface_class(a.type).Request
    request = fill(req_cls(), yaml.safe_load(a.values) if a.values else {})
    print(f"requester: making request: {request}\n")
    res = c.call(interface_class(a.type), a.service, request)
    if res is None:
        return 1
    print("response:\n" + yaml.safe_dump(to_plain(res), sort_keys=False).rstrip())
    return 0


def cmd_param(c: Client, a) -> int:
    """`param list/dump/get/describe/set` on a node; returns 0, or 1 (not found, not set, refused)."""
    node = a.node.rstrip("/")
    if a.verb == "list":
        res = c.call(ListParameters, f"{node}/list_parameters", ListParameters.Request())
        if res is None:
            return 1
        for n in sorted(res.result.names):
            print(f"  {n}")
        return 0
    if a.verb == "dump":
        names = c.call(ListParameters, f"{node}/list_parameters", ListParameters.Request())
        if names is None:
            return 1
        names = sorted(names.result.names)
        got = c.call(GetParameters, f"{node}/get_parameters", GetParameters.Request(names=names))
        if got is None or len(got.values) != len(names):
            print(f"{node}: the parameters could not be read together (one without a value?)", file=sys.stderr)
            return 1
        out = {node: {"ros__parameters": {n: plain_value(v) for n, v in zip(names, got.values)}}}
        print(yaml.safe_dump(out, sort_keys=False).rstrip())
        return 0
    if a.verb == "get":
        got = c.call(GetParameters, f"{node}/get_parameters", GetParameters.Request(names=[a.name]))
        if got is None:
            return 1
        if not got.values or got.values[0].type == ParameterType.PARAMETER_NOT_SET:
            print("Parameter not set.")
            return 1
        v = got.values[0]
        print(f"{TYPE_NAME[v.type].capitalize()} value is: {plain_value(v)}")
        return 0
    if a.verb == "describe":
        res = c.call(DescribeParameters, f"{node}/describe_parameters", DescribeParameters.Request(names=[a.name]))
        if res is None or not res.descriptors:
            return 1
        d = res.descriptors[0]
        print(f"Parameter name: {d.name}\n  Type: {TYPE_NAME.get(d.type, 'not set')}\n  Description: {d.description}")
        if d.additional_constraints:
            print(f"  Constraints: {d.additional_constraints}")
        for r in d.floating_point_range:
            print(f"  Min value: {r.from_value}\n  Max value: {r.to_value}")
        for r in d.integer_range:
            print(f"  Min value: {r.from_value}\n  Max value: {r.to_value}")
        if d.read_only:
            print("  Read only: true")
        return 0
    req = SetParameters.Request(parameters=[Parameter(name=a.name, value=parameter_value(a.value))])
    res = c.call(SetParameters, f"{node}/set_parameters", req)
    if res is None:
        return 1
    r = res.results[0]
    print("Set parameter successful" if r.successful else f"Setting parameter failed: {r.reason}")
    return 0 if r.successful else 1


def parser() -> argparse.ArgumentParser:
    """The command line: one group (node, topic, service, param) and its verb."""
    ap = argparse.ArgumentParser(prog="examples/ros.py", description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--spin-time", type=float, default=2.0, help="seconds to discover the graph (default 2)")
    sub = ap.add_subparsers(dest="group", required=True)
    n = sub.add_parser("node").add_subparsers(dest="verb", required=True)
    n.add_parser("list")
    t = sub.add_parser("topic").add_subparsers(dest="verb", required=True)
    tl = t.add_parser("list")
    tl.add_argument("-t", "--show-types", action="store_true")
    tl.add_argument("-v", "--verbose", action="store_true")
    ti = t.add_parser("info")
    ti.add_argument("topic")
    ti.add_argument("-v", "--verbose", action="store_true")
    s = sub.add_parser("service").add_subparsers(dest="verb", required=True)
    sl = s.add_parser("list")
    sl.add_argument("-t", "--show-types", action="store_true")
    sc = s.add_parser("call")
    sc.add_argument("service")
    sc.add_argument("type", help="e.g. std_srvs/srv/Trigger")
    sc.add_argument("values", nargs="?", help="the request as YAML, e.g. \"{data: true}\"")
    p = sub.add_parser("param").add_subparsers(dest="verb", required=True)
    for verb in ("list", "dump"):
        p.add_parser(verb).add_argument("node")
    for verb in ("get", "describe"):
        q = p.add_parser(verb)
        q.add_argument("node")
        q.add_argument("name")
    ps = p.add_parser("set")
    ps.add_argument("node")
    ps.add_argument("name")
    ps.add_argument("value", help="YAML: 2 is an integer, 2.0 a double, true a boolean")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run one verb; return its exit status."""
    a = parser().parse_args(argv)
    c = Client(a.spin_time)
    try:
        return {"node": cmd_node, "topic": cmd_topic, "service": cmd_service, "param": cmd_param}[a.group](c, a)
    except (ValueError, ModuleNotFoundError, AttributeError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
