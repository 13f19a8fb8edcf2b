"""The rclpy node: a drop-in stand-in for Dataspeed's DBW2 driver on a Polaris Ranger.

Wiring only. The node stores nothing of the vehicle: it hands every received
command to :class:`acres_dbw_sim.simulation.Simulation`, steps it, and publishes
what the simulation reports through the converters of :mod:`msg_adapters`.

Topics (relative to the namespace, default ``/vehicle``; dbw-interface.md §1.3,
§1.4): every subscription and publication is KEEP_LAST(depth), RELIABLE,
VOLATILE with the real driver's depths. Beyond the real driver: ground-truth
``odom`` (nav_msgs/Odometry), ``/tf`` and ``/tf_static``, ``joint_states``,
and ``/clock`` in ``sim`` and ``lockstep`` time modes.

Command interfaces (parameter ``interfaces``, docs/adapters.md): ``ds_dbw`` (the DBW2 topics
above, the default), ``polaris_legacy`` (the DBW1 topics of ``dbw_polaris_can``, §3.1; with it
``dbw_enabled`` and ``vin`` take the DBW1 QoS, depth 1 TRANSIENT_LOCAL), ``autoware`` and
``ackermann`` (``msg_adapters.autonomy_topics``) and ``cmd_vel`` (``geometry_msgs/Twist``).
Which interface's commands are used when several command at once is decided by
``msg_adapters.arbiter`` (in that order) and reported in the log and on ``/diagnostics``.

Time modes (parameter ``time_mode``):

``realtime``
    Paced by the wall clock; stamps are the wall-clock time at start plus the
    simulation time, so clients that do not use sim time see current stamps.
``sim``
    Runs at ``rate_factor`` times real time, publishes ``/clock``; stamps are
    the simulation time from 0.
``lockstep``
    Advances only when asked: each call of the service ``~/step``
    (std_srvs/Trigger) runs ``lockstep_steps`` physics steps and publishes
    after each. Deterministic: identical inputs give identical outputs. After
    the call's steps the node waits until every reliable subscriber has
    acknowledged their messages (``LOCKSTEP_ACK_TIMEOUT_S`` at most), so a
    subscriber whose depth is at least ``lockstep_steps`` has every message of
    the call before the response arrives. Nothing but the latched topics is
    published before the first step (a stamp of 0 means "latest" to tf2).

Several vehicles in one process (parameter ``vehicles``, :class:`acres_dbw_sim.fleet_node.FleetNode`):
one :class:`SimNode` per vehicle in ``/<name>/vehicle`` with frames prefixed
``<name>/``, stepped together by one loop, one ``/clock``.
"""

from __future__ import annotations

import logging
import math
import os
import time

from acres_dbw_sim.usage import silence_stdout

from rclpy.clock import Clock as RosClock, ClockType
from rclpy.duration import Duration as RosDuration
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PoseWithCovarianceStamped, Twist, TwistStamped
from rclpy.exceptions import ParameterUninitializedException
from rclpy.node import Node
from rclpy.parameter import Parameter
from rcl_interfaces.msg import SetParametersResult
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from std_msgs.msg import Bool, Empty, String
from std_srvs.srv import SetBool, Trigger
from tf2_msgs.msg import TFMessage
from geometry_msgs.msg import TransformStamped

import ds_dbw_msgs.msg as dbw_msgs
from msg_adapters.arbiter import CommandArbiter, parse_interfaces
from msg_adapters.autonomy_topics import (AUTOWARE_STATUS_PERIOD_S, AutowareTopics, InterfaceMissing,
                                          create_ackermann)
from msg_adapters.cmd_vel import CmdVelAdapter
from msg_adapters.diagnostics import interface_diagnostics
from msg_adapters.node_parameters import as_declared, parameter_descriptor
from msg_adapters.polaris_legacy import LEGACY_COMMAND_TOPICS, LEGACY_REPORT_TOPICS, LEGACY_TWIST_PERIOD_S
from msg_adapters.ds_dbw import RawCommandConverter, ReportFiller, ReportPacker, stamp_from_seconds
from msg_adapters.vehicle_state import (ImuBuilder, JointStateBuilder, JointTransforms, OdometryBuilder,
                                        TfBuilder, static_transforms)
from nav_msgs.msg import Odometry
from sensor_msgs.msg import Imu, JointState

from . import description
from .dbw.commands import DISABLE, ENABLE, STEERING_CALIBRATE
from .dbw.schedule import CanSchedule, report_schedule
from .interface import (COMMAND_TOPICS, DBW_ENABLED_PERIOD_S, DRIVE_MODE_VALUES, ECU_INFO_PERIOD_S,
                        IMU_PERIOD_S, PARAMETERS, REPORT_DEPTH, REPORT_TOPICS, RUNTIME_PARAMETERS,
                        TRACTOR_PARAMETERS, parameter_error)
from .dbw.report_content import ALWAYS_FILLED
from .dbw.system import SUBSYSTEMS
from .dbw.state import DriverInput
from .model.enums import Gear
from .model.params import ParameterError
from .model.overrides import check_once, option_message
from .fleet import FLEET_WIDE, FleetMember
from .pacing import clock_due, pace, steps_due
from .model.terrain import FlatTerrain
from .simulation import Simulation
from .vehicles import REGISTRY, vehicle_spec

CMD_VEL_DEPTH = 2          # DBW1 ulc_node: cmd_vel and cmd_vel_stamped, depth 2 (§3.4)
DIAGNOSTICS_PERIOD_S = 1.0
GRAPH_WATCH_PERIOD_S = 1.0  # the watch for a second publisher on a command topic or dbw_enabled (wall time) [s]
CLOCK_CHECK_PERIOD_S = 2.0  # a /clock owner looks for other /clock publishers this often (wall time) [s]
LOCKSTEP_ACK_TIMEOUT_S = 2.0  # lockstep: longest wait per ~/step call for subscribers' acknowledgements [s]
LISTENER_CHECK_PUBLICATIONS = 12  # publications between two looks at each topic's subscribers (10 Hz at 120 Hz)
#: Parameters every rclpy node declares itself: a ``ros2 param dump`` lists them, and its file given back
#: with ``--params-file`` must start the node (``qos_overrides.*`` entries are rclpy's too).
RCLPY_PARAMETERS = frozenset({"use_sim_time", "start_type_description_service"})
#: Parameters of the process, not of a vehicle: ``launcher.main`` reads them from the command line and only
#: the node they create declares them (``vehicles``: ``fleet_node.FleetNode``, with the names given). A
#: vehicle node leaves them out, so that every parameter it lists has a value (``ros2 param dump``).
PROCESS_PARAMETERS = frozenset({"vehicles"})


class StartupError(RuntimeError):
    """A parameter is invalid: start-up stops with this message (names the parameter)."""


#: Subscriptions the graph watch looks at: the command topics of every interface.
COMMAND_TOPIC_ENDINGS = ("/cmd", "_cmd", "/cmd_vel", "/cmd_vel_stamped")


def _node_name(info) -> str:
    """``/namespace/name`` of an endpoint's node (``TopicEndpointInfo``)."""
    ns = info.node_namespace.rstrip("/")
    return f"{ns}/{info.node_name}"


def _period_steps(period_s: float, dt_s: float) -> int:
    return max(1, int(round(period_s / dt_s)))


class SimNode(Node):
    """``/vehicle/dbw_node``: subscriptions, publications and pacing around a Simulation.

    ``member`` (given by ``fleet_node.FleetNode`` only) makes it one vehicle of several
    in one process: its namespace, default ``frame_prefix`` and ``/initialpose``
    topic come from ``member``; it has no timer, ``~/step`` or ``/clock``
    subscription of its own (the fleet's step loop calls :meth:`_advance` or
    :meth:`_lockstep_step`), and only the lead publishes ``/clock``.

    Raises
    ------
    StartupError
        If a parameter has the wrong type or value; the message names it.
    """

    def __init__(self, member: FleetMember | None = None, **kwargs) -> None:
        self._member = member
        super().__init__("dbw_node", namespace=member.namespace if member else "vehicle", **kwargs)
        p = self._read_parameters()
        self._p = p
        if member is not None and p["record_bag"]:
            raise StartupError(f"parameter 'record_bag' of {self.get_fully_qualified_name()}: "
                               f"not available with 'vehicles' (one vehicle per process records)")
        terrain = FlatTerrain(grade_pct=p["grade_pct"], bank_pct=p["bank_pct"], surface=p["surface"])
        # A params file written for either vehicle may list the other's parameters at their defaults (the
        # shipped config/sim.yaml lists occupants and cargo_kg): only a value that would change something is
        # refused.
        spec = vehicle_spec(p["vehicle"])
        if not spec.carries_payload:
            given = sorted(n for n in ("occupants", "cargo_kg") if p[n] != PARAMETERS[n][0])
            if given:
                raise StartupError(f"parameter(s) {given}: not for vehicle '{spec.name}' ({spec.display_name} "
                                   f"carries no occupants or cargo; {spec.payload_hint})")
        if p["model"] != "full" and spec.build_kinematic is None:
            raise StartupError(f"parameter 'model' = {p['model']!r}: not available for vehicle '{spec.name}' "
                               "(full model only)")
        given = sorted(n for n in TRACTOR_PARAMETERS if n not in spec.controls and p[n] != PARAMETERS[n][0])
        if given:
            owners = [v.name for v in REGISTRY.values() if set(given) & set(v.controls)]
            raise StartupError(f"parameter(s) {given}: only for vehicle {', '.join(map(repr, owners))} "
                               f"(its own controls)")
        try:
            check_once(p["overrides"])
            params = spec.load_parameters(p["vehicle_config"] or None, p["overrides"] or None,
                                          p["occupants"], p["cargo_kg"])
            self.sim = Simulation(params, terrain, 1.0 / p["step_hz"], gear=p["initial_gear"],
                                  drive_mode=p["drive_mode"], model=p["model"], vehicle=p["vehicle"])
        except ParameterError as err:   # the node parameter that gave the value, then the fault
            raise StartupError(option_message(err, p["vehicle_config"], p["overrides"])) from err
        except KeyError as err:   # the terrain names a surface the table lacks
            raise StartupError(f"parameter 'surface': {err.args[0]}") from err
        except ValueError as err:
            raise StartupError(f"parameter 'step_hz' or 'initial_*': {err}") from err
        self._initial = (p["initial_x_m"], p["initial_y_m"], p["initial_yaw_rad"],
                         p["initial_speed_mps"], p["initial_gear"], p["drive_mode"])
        # Time (README "Time"): a stamp is _epoch_s + sim.time_s; the run of the
        # simulation since the last reset started at steady time _wall_t0.
        self._epoch_s = 0.0
        self._wall_t0 = time.monotonic()
        self._steps_at_t0 = 0
        self._last_stamp_s = -math.inf
        self._streams: dict = {}   # the interfaces that re-send their commands every step: name -> adapter
        self._reset(*self._initial)
        self._driver = DriverInput()
        self._create_interfaces()
        self._last_status = time.monotonic()
        self._stdout_closed = False   # the status line stops when its reader has gone
        self._cpu_t0 = time.process_time()
        self._timer = None
        if member is not None:
            pass   # stepped by the FleetNode's timer, /clock subscription or ~/step
        elif p["time_mode"] == "lockstep":
            self.create_service(Trigger, "~/step", self._on_lockstep)
        elif p["time_mode"] == "sim" and not p["clock_owner"]:
            pass   # paced by the owner's /clock (_on_clock)
        else:
            # Paced by the steady clock even with use_sim_time: this node is the
            # source of /clock, so a ROS-time timer would wait for itself.
            self._timer = self.create_timer(self._tick_period_s(), self._on_tick,
                                            clock=RosClock(clock_type=ClockType.STEADY_TIME))
            self._align_to_timer()
        self._recorder = None
        if p["record_bag"]:   # imported only here: rosbags takes a third of a second to import
            from msg_adapters.bag import BagError, NodeBagRecorder, stamp_ns
            try:  # records every published topic and received command (msg_adapters/bag/recorder.py)
                # Opened after the clock is set: its opening time is caught up at the
                # first tick, it never shifts the stamps.
                self._recorder = NodeBagRecorder(
                    self, p["record_bag"], epoch_s=self._epoch_s,
                    clock_ns=lambda: stamp_ns(self._epoch_s + self.sim.time_s))
            except BagError as err:
                raise StartupError(f"parameter 'record_bag': {err}") from err
        if p["time_mode"] != "sim" and p["rate_factor"] != PARAMETERS["rate_factor"][0]:
            self.get_logger().warning(f"rate_factor {p['rate_factor']:g} has no effect in time_mode "
                                      f"{p['time_mode']} (sim mode only)")
        level = "" if p["model"] == "full" else f" ({p['model']} model level)"
        self.get_logger().info(
            f"simulating a {vehicle_spec(p['vehicle']).display_name}{level} "
            f"at {p['step_hz']:g} Hz, time_mode={p['time_mode']}, "
            f"reports={p['report_rates']}, interfaces={','.join(p['interfaces'])}, "
            f"namespace={self.get_namespace()}, ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID', '0 (unset)')}"
            + (f", recording to {p['record_bag']}" if p["record_bag"] else "")
            + ("" if p["status_period_s"] > 0 else
               "; running, no live status line (-p status_period_s:=1.0 prints one)"))

    def create_publisher(self, msg_type, topic, qos_profile, **kwargs):
        """``Node.create_publisher``; in ``lockstep`` a depth given as a number is raised to at least
        ``lockstep_steps`` (as set at start-up): a writer keeps every message of a ~/step call until its
        readers have acknowledged it (:func:`await_acknowledgements`), so a reader that takes them late
        loses none. In the other modes the depths are the real driver's (2 for the DBW reports)."""
        p = getattr(self, "_p", None)
        if p is not None and p["time_mode"] == "lockstep" and isinstance(qos_profile, int):
            qos_profile = max(qos_profile, p["lockstep_steps"])
        return super().create_publisher(msg_type, topic, qos_profile, **kwargs)

    # ------------------------------------------------------------------ parameters
    def _read_parameters(self) -> dict:
        known = set(PARAMETERS) | RCLPY_PARAMETERS
        overrides = getattr(self, "_parameter_overrides", {})  # rclpy keeps them here only
        unknown = sorted(n for n in overrides if n not in known and not n.startswith("qos_overrides."))
        if unknown:
            import difflib
            hints = [f"'{n}' (did you mean '{close[0]}'?)" if (close := difflib.get_close_matches(n, known, 1))
                     else f"'{n}'" for n in unknown]
            raise StartupError(f"unknown parameter(s) {', '.join(hints)}; known: {sorted(PARAMETERS)} "
                               f"(sim_node --help)")
        for name, prm in list(overrides.items()):   # declare_parameter checks the type first
            if name in PARAMETERS:
                overrides[name] = as_declared(prm)
        if self._member is not None and "frame_prefix" not in overrides:
            overrides["frame_prefix"] = Parameter("frame_prefix", Parameter.Type.STRING,
                                                  self._member.frame_prefix)
        if self._member is not None and "initial_y_m" not in overrides:   # side by side, not stacked
            overrides["initial_y_m"] = Parameter("initial_y_m", Parameter.Type.DOUBLE, self._member.initial_y_m)
        values = {}
        for name, (default, text) in PARAMETERS.items():
            if name in PROCESS_PARAMETERS:   # main() reads it; a vehicle node has no value to list for it
                continue
            try:
                self.declare_parameter(name, default, parameter_descriptor(name, default, text))
                value = self.get_parameter(name).value
            except ParameterUninitializedException as err:  # rclpy reads '[]' as unset
                if not isinstance(default, list):
                    raise StartupError(f"parameter '{name}': {err}") from err
                value = []
            except Exception as err:  # wrong type or out of range (params file, CLI, launch)
                given = overrides.get(name)   # our own words for it where we have them, else rclpy's
                text = parameter_error(name, given.value) if given is not None else ""
                raise StartupError(text or f"parameter '{name}': {err}") from err
            text = parameter_error(name, value)
            if text:
                raise StartupError(text)
            values[name] = value
        try:
            values["interfaces"] = parse_interfaces(values["interfaces"])
        except ValueError as err:
            raise StartupError(f"parameter 'interfaces' = {values['interfaces']!r}: {err}") from err
        for name in ("odom_frame", "base_frame", "base_link_frame", "frame_id"):
            values[name] = values["frame_prefix"] + values[name]
        if values["world_frame"] and self._member is not None:
            raise StartupError("parameter 'world_frame': the 'vehicles' mode links its vehicles' odometry "
                               "frames itself; leave it empty")
        if values["world_frame"] == values["odom_frame"]:
            raise StartupError(f"parameter 'world_frame' = {values['world_frame']!r}: names this node's "
                               f"odometry frame; give a frame_prefix, or leave world_frame empty")
        values["initial_gear"] = Gear.from_name(values["initial_gear"])
        values["drive_mode"] = DRIVE_MODE_VALUES[values["drive_mode"]]
        # Run-time changes: types first (an integer for a double), then values.
        self.add_pre_set_parameters_callback(
            lambda params: [as_declared(prm) if prm.name in PARAMETERS else prm for prm in params])
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)
        return values

    def _on_set_parameters(self, params: list[Parameter]) -> SetParametersResult:
        """Refuse a run-time value that start-up would refuse, with the reason."""
        for prm in params:
            if prm.name == "use_sim_time":   # rclpy's own parameter: start-up only here, like time_mode
                return SetParametersResult(successful=False, reason=(
                    "use_sim_time: set at start-up only (the stamps follow time_mode; "
                    "a clock follower in sim mode starts with use_sim_time:=true)"))
            if self._member is not None and prm.name in FLEET_WIDE:
                return SetParametersResult(successful=False, reason=(
                    f"{prm.name}: shared by every vehicle of this process ('vehicles'); "
                    f"set it at start-up for all (params file '/**')"))
            if prm.name in PARAMETERS:
                text = parameter_error(prm.name, prm.value)
                if text:
                    return SetParametersResult(successful=False, reason=text)
                if prm.name == "rate_factor" and self._p["time_mode"] != "sim":
                    return SetParametersResult(successful=False, reason=(
                        f"rate_factor: applies in time_mode sim only (this node runs in {self._p['time_mode']}, "
                        f"set at start-up)"))
                spec = vehicle_spec(self._p["vehicle"])
                if prm.name in TRACTOR_PARAMETERS and prm.name not in spec.controls:
                    owners = [v.name for v in REGISTRY.values() if prm.name in v.controls]
                    return SetParametersResult(successful=False, reason=(
                        f"{prm.name}: only for vehicle {', '.join(map(repr, owners))} (this node simulates a "
                        f"{spec.display_name})"))
        return SetParametersResult(successful=True)

    def _apply_parameters(self, params: list[Parameter]) -> None:
        """Apply accepted run-time values (``RUNTIME_PARAMETERS``)."""
        p = self._p
        for prm in params:
            name, value = prm.name, prm.value
            if name not in RUNTIME_PARAMETERS:
                continue
            if name == "initial_gear":
                value = Gear.from_name(value)
            elif name == "drive_mode":
                value = DRIVE_MODE_VALUES[value]
            p[name] = value
            if name == "rate_factor":
                self._set_rate_factor(value)
            elif name == "report_rates":
                self._set_report_rates(value)
            elif name in TRACTOR_PARAMETERS:
                self._apply_tractor_controls()
        self._initial = (p["initial_x_m"], p["initial_y_m"], p["initial_yaw_rad"],
                         p["initial_speed_mps"], p["initial_gear"], p["drive_mode"])

    # ------------------------------------------------------------------ interfaces
    def _create_interfaces(self) -> None:
        p = self._p
        dt = self.sim.dt_s
        every = self._every
        vehicle_rates = p["report_rates"] == "vehicle"
        served = p["interfaces"]
        self._arbiter = CommandArbiter(served)
        self._reports = []   # ds_dbw: (publisher, DbwReports attribute, packer, CanSchedule, period [s])
        self._ecu = []
        self._legacy = []    # polaris_legacy: (publisher, builder, every, period [s])
        self._cmd_vel: CmdVelAdapter | None = None
        if "ds_dbw" in served:
            self._create_ds_dbw(every)
        if "polaris_legacy" in served:
            self._create_polaris_legacy(every)
        self._autoware = None
        self._create_autonomy(served)
        if "cmd_vel" in served:
            self._create_cmd_vel()
        self._stream_reports = sorted({n for s in self._streams.values() for n in s.REPORTS_READ})
        # enable / disable: one pair of topics shared by every interface (§1.3, §3.1)
        self.create_subscription(Empty, "enable", lambda _m: self.sim.submit(ENABLE), 10)
        self.create_subscription(Empty, "disable", lambda _m: self.sim.submit(DISABLE), 10)
        # Absolute like RViz's tool (a launch remaps it per vehicle); a fleet's vehicle takes /<name>/initialpose.
        self.create_subscription(PoseWithCovarianceStamped,
                                 self._member.initialpose_topic if self._member else "/initialpose",
                                 self._on_initialpose, 1)

        self._imu_every = CanSchedule(IMU_PERIOD_S if vehicle_rates else 0.0, dt)
        self._pub_imu = self.create_publisher(Imu, "imu/data_raw", 10)
        self._imu = ImuBuilder(p["frame_id"])
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        # DBW2 publishes dbw_enabled and vin VOLATILE depth 2, DBW1 TRANSIENT_LOCAL depth 1
        # (§1.2, §3.1); the latter also serves volatile subscribers, so it is used whenever
        # the legacy interface is served.
        legacy_qos = latched if "polaris_legacy" in served else 2
        self._pub_enabled = self.create_publisher(Bool, "dbw_enabled", legacy_qos)
        self._enabled_every = _period_steps(DBW_ENABLED_PERIOD_S, dt)
        self._last_enabled: bool | None = None
        self._ecu_every = _period_steps(ECU_INFO_PERIOD_S, dt)
        self._autoware_every = _period_steps(AUTOWARE_STATUS_PERIOD_S, dt)
        self._pub_vin = self.create_publisher(String, "vin", legacy_qos)
        self._pub_diag = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        self._diag_every = _period_steps(DIAGNOSTICS_PERIOD_S, dt)
        self._pub_odom = self.create_publisher(Odometry, "odom", 10)
        self._odom = OdometryBuilder(p["odom_frame"], p["base_frame"])
        self._pub_tf = (self.create_publisher(TFMessage, "/tf", 100)
                        if p["publish_tf"] or p["publish_wheel_tf"] else None)
        self._tf = TfBuilder(p["odom_frame"], p["base_frame"])
        self._pub_joints = self.create_publisher(JointState, "joint_states", 10)
        self._heard: dict = {}       # publisher -> has a subscriber (_listeners), refreshed ...
        self._publications = 0       # ... every LISTENER_CHECK_PUBLICATIONS publications
        self._joints = JointStateBuilder()
        self._pub_tf_static = self.create_publisher(TFMessage, "/tf_static", latched)
        statics = static_transforms(p["base_frame"], p["base_link_frame"], p["frame_id"],
                                    description.base_link_offset_m(self.sim.params))
        prefix = p["frame_prefix"]
        # publish_wheel_tf: the URDF's joints, fixed ones on /tf_static, moving ones on /tf each step
        self._wheel_tf = JointTransforms(
            description.joints(self.sim.params, p["base_frame"], p["base_link_frame"]) if p["publish_wheel_tf"] else (),
            description.JOINT_NAMES, prefix)
        statics += self._wheel_tf.fixed
        if p["world_frame"]:   # one TF tree for vehicles started as separate nodes
            t = TransformStamped()
            t.header.frame_id, t.child_frame_id = p["world_frame"], p["odom_frame"]
            t.transform.rotation.w = 1.0
            statics.append(t)
        self._pub_tf_static.publish(TFMessage(transforms=statics))
        if p["publish_description"]:
            self._pub_description = self.create_publisher(String, "robot_description", latched)
            self._pub_description.publish(String(data=description.urdf(
                self.sim.params, base_frame=p["base_frame"][len(prefix):],
                base_link_frame=p["base_link_frame"][len(prefix):])))
        clock_node = self._member is None or self._member.lead   # one /clock per process
        self._pub_clock = (self.create_publisher(Clock, "/clock", 10)
                           if p["time_mode"] != "realtime" and p["clock_owner"] and clock_node
                           else None)
        self._clock_checked_s = time.monotonic()   # _check_clock_alone: last look at /clock's publishers
        self._clock_shared = False
        self._graph_checked_s = -math.inf     # _watch_graph: last look, and what it found
        self._shared: dict = {}
        if p["time_mode"] == "sim" and not p["clock_owner"] and self._member is None:
            self.create_subscription(Clock, "/clock", self._on_clock, 10)
        self.create_service(Trigger, "~/reset", self._on_reset)
        for name in SUBSYSTEMS:
            self.create_service(SetBool, f"~/inject_fault/{name}",
                                lambda req, res, n=name: self._on_fault(n, req, res))
        self.create_service(SetBool, "~/inject_override", self._on_override)

    def _every(self, period_s: float) -> int:
        """Physics steps between two messages of a topic with CAN period ``period_s``:
        1 with ``report_rates: mission``, the real period with ``vehicle``."""
        return _period_steps(period_s, self.sim.dt_s) if self._p["report_rates"] == "vehicle" else 1

    def _set_report_rates(self, _profile: str) -> None:
        """Apply a new ``report_rates`` (``self._p`` already holds it)."""
        every, dt = self._every, self.sim.dt_s
        vehicle_rates = self._p["report_rates"] == "vehicle"
        self._reports = [(pub, a, f, report_schedule(a, period, dt, vehicle_rates), period)
                         for pub, a, f, _s, period in self._reports]
        self._legacy = [(pub, b, every(period), period) for pub, b, _e, period in self._legacy]
        self._imu_every = CanSchedule(IMU_PERIOD_S if vehicle_rates else 0.0, dt)

    def _create_ds_dbw(self, every) -> None:
        """The DBW2 topics (§1.3, §1.4): ds_dbw_msgs commands, reports, ecu_info."""
        for topic, type_name, depth in COMMAND_TOPICS:
            msg_type = getattr(dbw_msgs, type_name)
            # raw: an unchanged re-send (bytes equal but for the stamp) is not deserialized again
            convert = RawCommandConverter(msg_type)
            self.create_subscription(msg_type, topic,
                                     lambda data, c=convert: self._submit("ds_dbw", c(data)), depth, raw=True)
        self.create_subscription(Empty, "steering/calibrate",
                                 lambda _m: self._submit("ds_dbw", STEERING_CALIBRATE), 1)
        reports = self.sim.reports()
        vehicle_rates = self._p["report_rates"] == "vehicle"
        for topic, attr, type_name, period_s in REPORT_TOPICS:
            msg_type = getattr(dbw_msgs, type_name)
            # CAN periods by time (one schedule implementation with the offline replay)
            # serialized by struct and published raw: a fraction of the CPU of a message object
            self._reports.append((self.create_publisher(msg_type, topic, REPORT_DEPTH), attr,
                                  ReportPacker(msg_type, getattr(reports, attr)),
                                  report_schedule(attr, period_s, self.sim.dt_s, vehicle_rates),
                                  period_s))
        self._pub_ecu = self.create_publisher(dbw_msgs.EcuInfo, "ecu_info", 10)
        self._ecu = [ReportFiller(dbw_msgs.EcuInfo, e) for e in reports.ecu_info]

    def _create_polaris_legacy(self, every) -> None:
        """The DBW1 topics of dbw_polaris_can (§3.1) through msg_adapters.polaris_legacy."""
        try:
            import dbw_polaris_msgs.msg as legacy_msgs
            from msg_adapters import polaris_legacy
        except ImportError as err:
            raise StartupError(f"parameter 'interfaces': polaris_legacy needs the package "
                               f"dbw_polaris_msgs ({err}); run 'make bootstrap'") from err
        for topic, type_name, depth, fn in LEGACY_COMMAND_TOPICS:
            convert = getattr(polaris_legacy, fn)
            self.create_subscription(getattr(legacy_msgs, type_name), topic,
                                     lambda m, c=convert: self._submit("polaris_legacy", c(m)), depth)
        self.create_subscription(Empty, "calibrate_steering",
                                 lambda _m: self._submit("polaris_legacy", STEERING_CALIBRATE), 1)
        build = polaris_legacy.LegacyReports(
            polaris_legacy.LegacyScales.from_dbw_parameters(self.sim.dbw.p), self._p["frame_id"])
        for topic, method, type_name, period_s in LEGACY_REPORT_TOPICS:
            self._legacy.append((self.create_publisher(getattr(legacy_msgs, type_name), topic,
                                                       REPORT_DEPTH),
                                 getattr(build, method), every(period_s), period_s))
        self._legacy.append((self.create_publisher(TwistStamped, "twist", 10), build.twist,
                             every(LEGACY_TWIST_PERIOD_S), LEGACY_TWIST_PERIOD_S))

    def _create_cmd_vel(self) -> None:
        """cmd_vel (Twist) and cmd_vel_stamped (TwistStamped, header ignored), as DBW1's ULC node."""
        p = self._p
        self._cmd_vel = self._streams["cmd_vel"] = CmdVelAdapter(p["cmd_vel_timeout_s"], p["cmd_vel_shift_park"])
        self.create_subscription(Twist, "cmd_vel", self._on_twist, CMD_VEL_DEPTH)
        self.create_subscription(TwistStamped, "cmd_vel_stamped", lambda m: self._on_twist(m.twist), CMD_VEL_DEPTH)

    def _create_autonomy(self, served) -> None:
        """The Ackermann and Autoware interfaces (msg_adapters.autonomy_topics), as ``served`` names them."""
        p, dbw = self._p, self.sim.dbw.p
        hooks = (self._arbiter.claim, lambda: self.sim.time_s, self._stream_warning)
        try:
            if "autoware" in served:
                self._autoware = aw = AutowareTopics(self, dbw, p["autoware_timeout_s"], p["base_frame"], *hooks,
                                                     engage=p["autoware_initial_engage"])
                self._streams["autoware"] = aw.adapter
            if "ackermann" in served:
                self._streams["ackermann"] = create_ackermann(self, dbw, p["ackermann_timeout_s"],
                                                              p["ackermann_shift_park"], *hooks)
        except InterfaceMissing as err:
            raise StartupError(f"parameter 'interfaces': {err}") from err

    # ------------------------------------------------------------------ callbacks
    def _submit(self, interface: str, command: object) -> None:
        """Hand ``command`` to the simulation unless an interface of higher precedence commands."""
        if self._arbiter.claim(interface, self.sim.time_s):
            self.sim.submit(command)

    def _on_twist(self, msg: Twist) -> None:
        t = self.sim.time_s
        if self._arbiter.claim("cmd_vel", t) and not self._cmd_vel.on_twist(msg.linear.x, msg.angular.z, t):
            self._stream_warning("cmd_vel", self._cmd_vel.ignored_warning())

    def _stream_warning(self, interface: str, text: str | None) -> None:
        if text:   # a set-point stream's warning (setpoint_stream: NaN messages, PARK)
            self.get_logger().warning(f"{interface}: {text}")

    def _tick_period_s(self) -> float:
        """Period of the pacing timer: one physics step of wall time, shorter in fast sim mode."""
        p = self._p
        return self.sim.dt_s / max(1.0, p["rate_factor"]) if p["time_mode"] == "sim" else self.sim.dt_s

    def _align_to_timer(self) -> None:
        """Put the step grid on the timer's calls, and in realtime the epoch on the wall clock.

        The timer calls at fixed steady-clock instants; a physics step falls due at
        each of them (not up to a period earlier), so a stamp trails the wall clock
        only by the callback's latency. Realtime: ``_epoch_s`` is the wall-clock
        time [s] of simulation time 0, i.e. of ``_wall_t0``.
        """
        self._align_to(time.monotonic(), time.time(),
                       (self._timer.time_until_next_call() or 0) * 1e-9)

    def _align_to(self, mono: float, wall: float, next_call_s: float) -> None:
        """:meth:`_align_to_timer` for a timer calling next in ``next_call_s`` [s] after
        steady time ``mono`` [s] = wall-clock time ``wall`` [s] (a fleet aligns all
        its vehicles with one reading, so their stamps are equal)."""
        self._wall_t0 = mono + next_call_s - self._tick_period_s()
        if self._p["time_mode"] == "realtime":
            self._epoch_s = wall + (self._wall_t0 - mono)

    def _rate(self) -> float:
        """Simulated seconds per steady-clock second (1 in realtime)."""
        return self._p["rate_factor"] if self._p["time_mode"] == "sim" else 1.0

    def _reset(self, x_m, y_m, yaw_rad, speed_mps, gear, drive_mode) -> None:
        """Reset the vehicle; time goes on: the next stamp follows the last one. The simulated time since the
        last reset moves into the epoch (the stamp of simulation time 0), and the steady-clock start of the run
        with it, so stamps, ``/clock`` and the realtime step grid continue without a jump. The tractor's PTO
        and hand throttle are set again from the parameters; the command streams hear of it (Autoware's mode)."""
        t_s = self.sim.time_s
        self.sim.reset(x_m, y_m, yaw_rad, speed_mps, gear, drive_mode)
        for stream in self._streams.values():
            stream.vehicle_reset()
        self._apply_tractor_controls()
        self._epoch_s += t_s
        self._wall_t0 += t_s / self._rate()
        self._steps_at_t0 = 0

    def _apply_tractor_controls(self) -> None:
        """The tractor's PTO, then its hand throttle, from ``pto_rpm`` and ``hand_throttle`` (tractor only)."""
        tractor = getattr(self.sim.vehicle, "tractor", None)
        if tractor is None:
            return
        tractor.engage_pto(self._p["pto_rpm"])
        if self._p["hand_throttle"] > tractor.hand_throttle or self._p["pto_rpm"] == 0:
            tractor.set_hand_throttle(self._p["hand_throttle"])

    def _set_rate_factor(self, rate_factor: float) -> None:
        """Apply a new ``rate_factor`` (``self._p`` holds it): the simulation goes on from now."""
        if self._timer is None or self._p["time_mode"] != "sim":
            return
        self._wall_t0 = time.monotonic() - self.sim.time_s / rate_factor
        self._timer.timer_period_ns = int(round(self._tick_period_s() * 1e9))

    def _on_reset(self, _req, res):
        self._reset(*self._initial)
        x, y, yaw, v, gear, mode = self._initial
        res.success = True
        res.message = (f"reset to x={x:g} m, y={y:g} m, yaw={yaw:g} rad, {v:g} m/s, gear {Gear(gear).name}: "
                       f"the DBW is at power-on (disengaged, steering calibration and odometer restarted; the "
                       f"real vehicle has no reset); time goes on")
        self.get_logger().info(res.message)
        return res

    def _on_initialpose(self, msg: PoseWithCovarianceStamped) -> None:
        q = msg.pose.pose.orientation
        yaw = math.atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z))
        x, y = msg.pose.pose.position.x, msg.pose.pose.position.y
        if not all(math.isfinite(v) for v in (x, y, yaw)):
            self.get_logger().warning("/initialpose with a non-finite pose ignored")
            return
        self._reset(x, y, yaw, 0.0, self._initial[4], self._initial[5])
        self.get_logger().info(f"/initialpose: reset to x={x:g} m, y={y:g} m, yaw={yaw:g} rad at rest; the DBW is at "
                               f"power-on (disengaged)")

    def _on_fault(self, name: str, req, res):
        self.sim.set_fault(name, req.data)
        res.success, res.message = True, f"{name} fault {'set' if req.data else 'cleared'}"
        return res

    def _on_override(self, req, res):
        """Driver presses the brake pedal hard (true) or releases everything (false)."""
        self._driver.brake_pedal_pct = 50.0 if req.data else 0.0
        self.sim.set_driver(self._driver)
        res.success, res.message = True, "driver brake pedal " + ("pressed" if req.data else "released")
        return res

    def _on_tick(self) -> None:
        due, wall_shift_s, epoch_shift_s = self._pace(time.monotonic())
        if due > 0:
            self._advance(due, wall_shift_s, epoch_shift_s)
            self._maybe_print_status()

    def _pace(self, now_s: float) -> tuple[int, float, float]:
        """What the timer's call at steady time ``now_s`` [s] owes, changing nothing:
        (physics steps to run, shift [s] of the steady-clock start ``_wall_t0``, shift
        [s] of the epoch). A fleet asks its lead and applies the answer to every
        vehicle (:meth:`_advance`), so all step alike."""
        dt = self.sim.dt_s
        factor = self._rate()
        due = steps_due(now_s, self._wall_t0, factor, dt, self._steps_at_t0)
        paced = pace(due, dt, factor, self._p["time_mode"] == "sim", self._recorder is not None)
        if paced.skipped_s > 0.0:
            self.get_logger().warning(
                f"fell {due * dt:.3f} s behind the wall clock (process stopped or machine stalled): "
                f"caught up {paced.steps * dt:.3f} s, skipped {paced.skipped_s:.3f} s (stamps jump forward)")
        return paced.steps, paced.wall_shift_s, paced.epoch_shift_s

    def _advance(self, due: int, wall_shift_s: float = 0.0, epoch_shift_s: float = 0.0) -> None:
        """Apply a pacing decision (:meth:`_pace`, :meth:`_clock_due`): shift the
        steady-clock start and the epoch [s], run ``due`` physics steps, publish."""
        self._wall_t0 += wall_shift_s
        self._epoch_s += epoch_shift_s
        for _ in range(due):
            self.sim.step()
            self._steps_at_t0 += 1
        self._publish()

    def _maybe_print_status(self) -> None:
        """The live status line when ``status_period_s`` has passed since the last one."""
        period_s = self._p["status_period_s"]
        if period_s > 0.0 and time.monotonic() - self._last_status >= period_s and not self._stdout_closed:
            try:
                self._print_status()
            except BrokenPipeError:   # nobody reads stdout any more (| head, a killed launch): go on silently
                self._stdout_closed = True
                silence_stdout()

    def _on_clock(self, msg: Clock) -> None:
        """Sim mode without the clock: step the simulation up to the owner's ``/clock``."""
        due, epoch_shift_s = self._clock_due(msg.clock.sec + msg.clock.nanosec * 1e-9)
        if due > 0:
            self._advance(due, 0.0, epoch_shift_s)
            self._maybe_print_status()

    def _clock_due(self, target_s: float) -> tuple[int, float]:
        """(physics steps, epoch shift [s]) that bring the simulation to the owner's
        ``/clock`` time ``target_s`` [s]; changes nothing (:meth:`_advance` applies)."""
        return clock_due(target_s, self._epoch_s, self.sim.dt_s, self._steps_at_t0)

    def _on_lockstep(self, _req, res):
        for _ in range(self._p["lockstep_steps"]):
            self._lockstep_step()
        await_acknowledgements([self], time.monotonic() + LOCKSTEP_ACK_TIMEOUT_S)
        res.success, res.message = True, f"t={self.sim.time_s:.6f}"
        return res

    def _lockstep_step(self) -> None:
        """One lockstep physics step and its publication (every topic)."""
        self.sim.step()
        self._publish(force=True)

    # ------------------------------------------------------------------ output
    def _listeners(self, force: bool) -> dict:
        """{publisher: True when it has a subscriber} of the topics that are skipped without one.

        Asking DDS costs a call per topic and tick; the answer is refreshed every
        LISTENER_CHECK_PUBLICATIONS publications (and at each forced one, lockstep), so a
        new subscriber is served within 0.1 s of its discovery at 120 Hz.
        """
        self._publications += 1
        if force or self._publications >= LISTENER_CHECK_PUBLICATIONS or not self._heard:
            self._publications = 0
            pubs = [r[0] for r in self._reports] + [g[0] for g in self._legacy]
            pubs += [self._pub_imu, self._pub_odom, self._pub_joints]
            pubs += [p for p in (self._pub_tf, self._autoware and self._autoware.pub_accel) if p is not None]
            self._heard = {pub: pub.get_subscription_count() > 0 for pub in pubs}
        return self._heard

    def _check_clock_alone(self) -> None:
        """Warn once (until it is alone again) when another publisher shares ``/clock``.

        Two clock owners interleave their times on ``/clock``, which then runs back and
        forth for every node on ``use_sim_time`` (docs/node.md, Time: one owner per domain).
        The ROS graph is asked every CLOCK_CHECK_PERIOD_S of wall time."""
        now = time.monotonic()
        if now - self._clock_checked_s < CLOCK_CHECK_PERIOD_S:
            return
        self._clock_checked_s = now
        others = self.count_publishers("/clock") - 1
        if others > 0 and not self._clock_shared:
            self.get_logger().warning(
                f"{others} other publisher(s) on /clock besides this node (a second clock owner, a bag "
                f"played with --clock, another simulator): the time on /clock will jump back and forth; "
                f"one publisher per domain (clock_owner:=false on every vehicle but one; docs/node.md, Time)")
        self._clock_shared = others > 0

    def _watch_graph(self) -> None:
        """Every GRAPH_WATCH_PERIOD_S of wall time: which command topics have more than one publisher
        (the last message wins, as on the CAN bus; a stand-in can tell) and whether another node
        publishes this node's ``dbw_enabled`` (a second DBW node on this namespace: the reports of both
        interleave). A change is logged (WARN naming the publishers; INFO when it clears) and the state
        goes to ``/diagnostics`` (msg_adapters.diagnostics.publishers_status)."""
        now = time.monotonic()
        if now - self._graph_checked_s < GRAPH_WATCH_PERIOD_S:
            return
        self._graph_checked_s = now
        shared = {}
        for sub in self.subscriptions:
            topic = sub.topic_name
            if not topic.endswith(COMMAND_TOPIC_ENDINGS):
                continue
            names = sorted(_node_name(i) for i in self.get_publishers_info_by_topic(topic))
            if len(names) > 1:
                shared[topic] = names
        enabled = self._pub_enabled.topic_name
        names = sorted(_node_name(i) for i in self.get_publishers_info_by_topic(enabled))
        if len(names) > 1:   # this node and another (of the same name when both are simulators)
            shared[enabled] = names
        if shared != self._shared:
            for topic, names in shared.items():
                if self._shared.get(topic) != names:
                    why = ("another DBW node on this namespace: the reports of both interleave"
                           if topic == enabled else "the last message wins, as on the CAN bus")
                    self.get_logger().warning(f"{len(names)} publishers on {topic} ({', '.join(names)}): {why}")
            for topic in self._shared:
                if topic not in shared:
                    self.get_logger().info(f"{topic} has a single publisher again (or none)")
            self._shared = shared

    def _publish(self, force: bool = False) -> None:
        sim = self.sim
        step = int(round(sim.time_s / sim.dt_s))
        stamp = stamp_from_seconds(self._epoch_s + sim.time_s)
        if self._pub_clock is not None:
            self._pub_clock.publish(Clock(clock=stamp))
            self._check_clock_alone()
        vehicle = sim.state
        # A topic nobody subscribes to is neither filled nor handed to DDS: nothing
        # can observe the difference, and it is most of the node's CPU (README).
        heard = self._listeners(force)
        # What goes out this step, in the table's order. A periodic report's turn is known before
        # the reports are filled, so only those due are; the on-change ones (schedule.ON_CHANGE,
        # always filled) are decided after the fill, from their change counters.
        sends = []
        wanted = []
        for pub, attr, fill, schedule, _period in self._reports:
            if attr in ALWAYS_FILLED:
                sends.append((pub, attr, fill, schedule))
            elif (schedule.due(step) or force) and heard[pub]:
                sends.append((pub, attr, fill, None))
                wanted.append(attr)
        imu_due = (self._imu_every.due(step) or force) and heard[self._pub_imu]
        if imu_due:
            wanted.append("imu")
        # the DBW1 builders read several reports each: with them, all are filled; the set-point
        # interfaces name theirs (SetpointStream.REPORTS_READ)
        reports = sim.reports(None if self._legacy else wanted + self._stream_reports)
        for pub, attr, fill, schedule in sends:
            if schedule is None or ((schedule.due(step, reports) or force) and heard[pub]):
                pub.publish(fill(getattr(reports, attr), stamp))
        for pub, build, every, _period in self._legacy:
            if (step % every == 0 or force) and heard[pub]:
                pub.publish(build(reports, stamp))
        if imu_due:
            self._pub_imu.publish(self._imu.packed(reports.imu, stamp))
        if sim.dbw.log_events:  # what the real driver would print (dbw/system.py, drain_log)
            log = self.get_logger()
            for level, text in sim.dbw.drain_log():
                if level >= logging.WARNING:  # one call site per severity (rclpy requires it)
                    log.warning(text)
                else:
                    log.info(text)
        enabled = sim.dbw_enabled
        if enabled != self._last_enabled or step % self._enabled_every == 0:
            self._pub_enabled.publish(Bool(data=enabled))
            self._last_enabled = enabled
        if step % self._ecu_every == 0:
            for fill, info in zip(self._ecu, reports.ecu_info):   # ds_dbw only
                self._pub_ecu.publish(fill(info, stamp))
            self._pub_vin.publish(String(data=reports.vin))
        # odom, /tf and the IMU go out serialized (msg_adapters.vehicle_state: packed)
        if heard[self._pub_odom]:
            self._pub_odom.publish(self._odom.packed(vehicle, stamp))
        if heard[self._pub_joints]:
            self._pub_joints.publish(self._joints(vehicle, stamp))
        if self._pub_tf is not None and heard[self._pub_tf]:
            if not self._wheel_tf.moving:   # publish_tf alone: the one transform
                self._pub_tf.publish(self._tf.packed(vehicle, stamp))
            else:
                transforms = [self._tf(vehicle, stamp)] if self._p["publish_tf"] else []
                transforms += self._wheel_tf.at(self._joints(vehicle, stamp).position, stamp)
                self._pub_tf.publish(TFMessage(transforms=transforms))
        if self._autoware is not None:
            self._autoware.publish(reports, vehicle, stamp, statuses=step % self._autoware_every == 0,
                                   motion=heard[self._autoware.pub_accel])
        self._serve_interfaces(reports, stamp, step)
        if self._recorder is not None:   # this tick's messages to the bag's writer process
            self._recorder.flush()

    def _serve_interfaces(self, reports, stamp, step: int) -> None:
        """The commands cmd_vel and ackermann re-send for the next steps; conflicts to the log and /diagnostics."""
        t = self.sim.time_s
        arbiter = self._arbiter
        for name, stream in self._streams.items():
            if arbiter.may_command(name, t):
                for command in stream.commands(t, reports):
                    self.sim.submit(command)
                self._stream_warning(name, stream.park_warning(reports))
            else:   # another interface has the vehicle: forget the set-point and the stop
                stream.reset()
        arbiter.update(t)
        events = arbiter.take_events()
        for event in events:
            if event.started:
                self.get_logger().error(arbiter.describe_event(event))
            else:
                self.get_logger().info(arbiter.describe_event(event))
        self._watch_graph()
        if events or step % self._diag_every == 0:
            # several vehicles on one /diagnostics: the hardware_id says whose status it is
            self._pub_diag.publish(interface_diagnostics(
                arbiter, t, stamp, shared=self._shared,
                **({"hardware_id": f"acres_dbw_sim:{self.get_namespace()}"} if self._member else {})))

    def _print_status(self) -> None:
        now = time.monotonic()
        v = self.sim.state
        wall = now - self._last_status
        cpu = time.process_time() - self._cpu_t0
        self._cpu_t0 = time.process_time()
        self._last_status = now
        where = f"{self.get_namespace()}  " if self._member else ""
        print(f"{where}t={self.sim.time_s:8.2f} s  v={round(v.speed_mps, 2) + 0.0:6.2f} m/s  engine={v.engine_rpm:6.0f} rpm  "
              f"gear={Gear(v.gear).name:<7} dbw_enabled={str(self.sim.dbw_enabled):<5}  "
              f"cpu={100.0 * cpu / max(wall, 1e-9):5.1f} %", flush=True)


def await_acknowledgements(nodes: list, deadline: float) -> bool:
    """Wait until every reliable subscriber of every publisher of ``nodes`` has acknowledged what was
    published, or until ``deadline`` (``time.monotonic()`` seconds) has passed; True when all have.

    The lockstep contract (module docstring): a ~/step call's messages are all sent when its steps
    are done, but a subscriber that reads late (a loaded machine, a stalled process) had lost the
    older ones once the next call's came, since the DBW reports' writers keep 2 messages (the real
    driver's QoS) for resending. Answering only after the acknowledgements paces the client to what
    its subscribers have taken. The acknowledgements come with the writers' heartbeats: the shipped
    Fast DDS profile sends one every 5 ms while a message is unacknowledged (docs/discovery.md); with
    Fast DDS's default of 3 s each call would wait until ``deadline``. On time-out a warning
    (throttled) names the topic and the call answers.
    """
    for node in nodes:
        for pub in node.publishers:
            left = deadline - time.monotonic()
            if left <= 0.0 or not pub.wait_for_all_acked(RosDuration(nanoseconds=int(left * 1e9))):
                node.get_logger().warning(
                    f"lockstep: a subscriber of {pub.topic_name} has not acknowledged within "
                    f"{LOCKSTEP_ACK_TIMEOUT_S:g} s (a stalled process, or a Fast DDS profile without a short "
                    f"heartbeat period: docs/discovery.md); this ~/step answers without waiting, so it may "
                    f"miss messages", throttle_duration_sec=10.0)
                return False
    return True

