"""Parameters as ROS users meet them (issue 13 item 3, issue 20 item 1), over real DDS:
integers for floating-point parameters from the command line and a params file,
gear names that survive ROS's YAML, descriptors, read-only parameters and a
set-parameters callback that applies good values and refuses bad ones with a reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import rclpy
import ds_dbw_msgs.msg as dbw_msgs
from ament_index_python.packages import get_package_prefix
from rcl_interfaces.msg import Parameter as ParameterMsg, ParameterType, ParameterValue
from rcl_interfaces.srv import DescribeParameters, GetParameters, ListParameters, SetParameters
from std_srvs.srv import Trigger

from helpers.dds import call_service, matched, spin_for, wait_for

pytestmark = pytest.mark.dds

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
SERVICE = "/{ns}/dbw_node/{name}"


class ParamClient:
    """The parameter services of ``/<ns>/dbw_node``, called as ``ros2 param`` calls them."""

    def __init__(self, node, ns: str) -> None:
        self.node = node
        self.clients = {n: node.create_client(t, SERVICE.format(ns=ns, name=n)) for n, t in (
            ("get_parameters", GetParameters), ("set_parameters", SetParameters),
            ("describe_parameters", DescribeParameters), ("list_parameters", ListParameters),
            ("reset", Trigger))}

    def ready(self, proc, subscriptions=()) -> None:
        """Every service matched, and the test's ``subscriptions`` with a message."""
        matched(self.node, proc, clients=list(self.clients.values()), subscriptions=subscriptions)

    def call(self, name: str, request):
        return call_service(self.node, self.clients[name], request)

    def get(self, name: str):
        value = self.call("get_parameters", GetParameters.Request(names=[name])).values[0]
        return {ParameterType.PARAMETER_DOUBLE: value.double_value,
                ParameterType.PARAMETER_INTEGER: value.integer_value,
                ParameterType.PARAMETER_STRING: value.string_value,
                ParameterType.PARAMETER_BOOL: value.bool_value}.get(value.type), value.type

    def set(self, name: str, value):
        v = ParameterValue()
        if isinstance(value, bool):
            v.type, v.bool_value = ParameterType.PARAMETER_BOOL, value
        elif isinstance(value, int):
            v.type, v.integer_value = ParameterType.PARAMETER_INTEGER, value
        elif isinstance(value, float):
            v.type, v.double_value = ParameterType.PARAMETER_DOUBLE, value
        else:
            v.type, v.string_value = ParameterType.PARAMETER_STRING, value
        req = SetParameters.Request(parameters=[ParameterMsg(name=name, value=v)])
        return self.call("set_parameters", req).results[0]

    def describe(self, name: str):
        return self.call("describe_parameters", DescribeParameters.Request(names=[name])).descriptors[0]


@pytest.fixture
def client_node():
    rclpy.init()
    node = rclpy.create_node("param_client")
    yield node
    node.destroy_node()
    rclpy.try_shutdown()


def test_integers_and_gear_names_from_the_command_line_and_runtime_changes(ros_process, client_node):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/pcli",
                        "-p", "rate_factor:=10", "-p", "step_hz:=100", "-p", "initial_speed_mps:=3",
                        "-p", "initial_gear:=N", "-p", "cargo_kg:=100"], name="cli")
    params = ParamClient(client_node, "pcli")
    gear_reports = []   # for the report rates below, matched with the services
    gear_sub = client_node.create_subscription(dbw_msgs.GearReport, "/pcli/gear/report", gear_reports.append, 10)
    params.ready(proc, subscriptions=[gear_sub])
    assert params.get("rate_factor") == (10.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("step_hz") == (100.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("initial_speed_mps") == (3.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("initial_gear") == ("N", ParameterType.PARAMETER_STRING)

    # Descriptors: description with the unit, range, read-only for start-up parameters.
    d = params.describe("step_hz")
    assert d.read_only and "[Hz]" in d.description
    assert (d.floating_point_range[0].from_value, d.floating_point_range[0].to_value) == (60.0, 1000.0)
    assert params.describe("occupants").integer_range[0].to_value == 6
    assert "one of" in params.describe("time_mode").additional_constraints
    assert not params.describe("rate_factor").read_only

    # Refused, with the reason, and nothing changes.
    for name, value, why in (("step_hz", 5000.0, "read-only"), ("time_mode", "bogus", "read-only"),
                             ("interfaces", "[nonsense]", "read-only"),
                             ("rate_factor", 5000.0, "1000"), ("rate_factor", "fast", "type"),
                             ("report_rates", "bogus", "one of"), ("initial_gear", "X", "one of"),
                             ("status_period_s", -1.0, "0"), ("use_sim_time", True, "start-up only")):
        result = params.set(name, value)
        assert not result.successful and why in result.reason, (name, value, result.reason)
    assert params.get("step_hz")[0] == 100.0 and params.get("time_mode")[0] == "realtime"
    assert params.get("use_sim_time")[0] is False
    assert params.get("rate_factor")[0] == 10.0

    # Accepted and applied: an integer for a double, and the report rates; rate_factor paces sim mode only
    assert params.set("status_period_s", 2).successful
    assert params.get("status_period_s") == (2.0, ParameterType.PARAMETER_DOUBLE)
    result = params.set("rate_factor", 2.0)
    assert not result.successful and "time_mode sim only" in result.reason, result.reason

    def rate(seconds=1.0):
        gear_reports.clear()
        spin_for(client_node, seconds)
        return len(gear_reports) / seconds

    assert rate() > 50.0                         # mission: every step (100 Hz)
    assert params.set("report_rates", "vehicle").successful
    spin_for(client_node, 0.2)   # reports sent before the change, still on their way
    assert rate() < 20.0                         # vehicle: the CAN period, 100 ms
    # initial_gear applies at the next reset, whatever its spelling
    assert params.set("initial_gear", "reverse").successful
    assert params.call("reset", Trigger.Request()).success
    gear_reports.clear()
    assert wait_for(lambda: gear_reports and gear_reports[-1].gear.value == dbw_msgs.Gear.REVERSE, 10.0,
                    spin=lambda: rclpy.spin_once(client_node, timeout_sec=0.02)), gear_reports[-1:]
    assert proc.alive(), proc.output()


def test_integers_and_an_unquoted_n_from_a_params_file(ros_process, client_node, tmp_path):
    params_file = tmp_path / "p.yaml"
    params_file.write_text("/**:\n  ros__parameters:\n    rate_factor: 10\n    step_hz: 100\n"
                           "    initial_speed_mps: 3\n    initial_gear: n\n    cargo_kg: 0\n")
    proc = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/pfile", "--params-file", str(params_file)],
                       name="file")
    params = ParamClient(client_node, "pfile")
    params.ready(proc)
    assert params.get("rate_factor") == (10.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("step_hz") == (100.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("initial_speed_mps") == (3.0, ParameterType.PARAMETER_DOUBLE)
    assert params.get("initial_gear")[0] == "N"


@pytest.mark.parametrize("gear, accepted", [("N", True), ("n", True), ("NEUTRAL", True), ("'N'", True),
                                            ("neutral", True), ("X", False), ("true", False)])
def test_gear_names_survive_ros_yaml(gear, accepted):
    """Start-up reads initial_gear before drive_mode: with a bad drive_mode start-up
    stops (exit 2, fast) naming drive_mode when the gear was accepted, initial_gear if not."""
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", "-p", f"initial_gear:={gear}",
                           "-p", "drive_mode:=Bogus"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    named = "drive_mode" if accepted else "initial_gear"
    assert f"parameter '{named}'" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_rate_factor_outside_sim_mode_is_warned_about_and_refused_at_run_time(ros_process, client_node):
    """rate_factor paces sim mode only: given at start-up to a realtime node it is warned about, and a
    run-time change is refused with the reason (it was accepted and did nothing)."""
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "rate_factor:=4.0"], name="sim_node")
    c = ParamClient(client_node, "vehicle")
    c.ready(proc)
    assert "rate_factor 4 has no effect in time_mode realtime (sim mode only)" in proc.output()
    res = c.set("rate_factor", 2.0)
    assert not res.successful and "time_mode sim only" in res.reason, res.reason


@pytest.mark.parametrize("args, words", [
    (["-p", "stepp_hz:=100.0"], "'stepp_hz' (did you mean 'step_hz'?)"),
    (["--params-file", "/no/such/params.yaml"], "the ROS arguments: failed to initialize rcl: Couldn't parse params"),
    (["--help"], "unknown ROS argument(s) ['--help'] (the program's own options, --help, go before --ros-args)"),
    (["-p", "vehicle_config:=/no/such/vehicle.json"],
     "parameter 'vehicle_config' = '/no/such/vehicle.json': cannot read /no/such/vehicle.json"),
])
def test_a_mistyped_parameter_or_a_missing_params_file_is_one_error_line(args, words):
    proc = subprocess.run([sys.executable, str(NODE_EXE), "--ros-args", *args], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_every_listed_parameter_has_a_value_for_param_dump(ros_process, client_node):
    """``ros2 param dump`` lists the names, then gets them all in one request: rclpy answers an empty
    list when one of them has no value. Every parameter a vehicle node lists has one; the process's
    ``vehicles`` is only declared by the node it creates (with the names given)."""
    proc = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/pdump"], name="dump")
    params = ParamClient(client_node, "pdump")
    params.ready(proc)
    names = params.call("list_parameters", ListParameters.Request()).result.names
    assert "step_hz" in names and "vehicles" not in names, names
    values = params.call("get_parameters", GetParameters.Request(names=list(names))).values
    assert len(values) == len(names), "an uninitialised parameter empties the whole answer"
    unset = [n for n, v in zip(names, values) if v.type == ParameterType.PARAMETER_NOT_SET]
    assert not unset, unset
