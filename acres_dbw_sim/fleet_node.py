"""The rclpy node that runs several vehicles in one process (parameter ``vehicles``): one
:class:`acres_dbw_sim.node.SimNode` per vehicle (:func:`acres_dbw_sim.fleet.parse_vehicles`), stepped by
one loop, one ``/clock``.
"""
from __future__ import annotations

import time

from geometry_msgs.msg import TransformStamped
from rcl_interfaces.msg import ParameterDescriptor
from rclpy.clock import Clock as RosClock, ClockType
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage

from .fleet import FLEET_WIDE, parse_vehicles
from .interface import PARAMETERS
from .node import LOCKSTEP_ACK_TIMEOUT_S, SimNode, StartupError, await_acknowledgements

__all__ = ["FleetNode"]

class FleetNode(Node):
    """``/dbw_fleet``: several vehicles in one process (parameter ``vehicles``).

    Each vehicle is a :class:`SimNode` in its own namespace (:func:`parse_vehicles`)
    with its own parameters (a params file's ``/car1/vehicle/dbw_node`` section,
    ``/**`` for all), DBW state, topics, services and frames; this node owns the
    one step loop: a steady timer (realtime, sim), the ``/clock`` subscription
    (sim with ``clock_owner: false``) or ``~/step`` (lockstep), which asks the lead
    vehicle how many steps are due and runs the same per-vehicle code
    (:meth:`SimNode._advance`) for each. The lead publishes the one ``/clock``.
    This node publishes on ``/tf_static`` each vehicle's odometry frame as the
    shared world frame (the lead's ``odom_frame`` without prefix), so one TF tree
    holds all: ``odom -> car1/odom -> car1/base_footprint``. Vehicles share the
    terrain but do not collide.

    Raises
    ------
    StartupError
        ``vehicles`` malformed, a vehicle's parameter invalid, a fleet-wide
        parameter (``FLEET_WIDE``) differing between vehicles, two vehicles with
        the same frames, or a ``__ns``/``__node`` remap that would move them all.
    """

    def __init__(self, names: object, **kwargs) -> None:
        super().__init__("dbw_fleet", **kwargs)
        try:
            members = parse_vehicles(names)
        except ValueError as err:
            raise StartupError(f"parameter 'vehicles' = {names!r}: {err}") from err
        self.declare_parameter("vehicles", Parameter.Type.STRING_ARRAY, ParameterDescriptor(
            description=PARAMETERS["vehicles"][1], read_only=True))
        self.vehicles: list[SimNode] = []
        try:
            for m in members:
                v = SimNode(member=m)
                self.vehicles.append(v)
                if v.get_fully_qualified_name() != f"{m.namespace}/dbw_node":
                    raise StartupError(
                        f"parameter 'vehicles': the vehicle {m.namespace} was started as "
                        f"{v.get_fully_qualified_name()}; a '__ns' or '__node' remap moves every "
                        f"node of the process, leave it out with 'vehicles'")
            self._check_shared()
        except Exception:
            self.destroy_vehicles()
            raise
        lead = self.vehicles[0]
        p = lead._p
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        world = p["odom_frame"][len(p["frame_prefix"]):]
        links = []
        for v in self.vehicles:
            if v._p["odom_frame"] != world:
                t = TransformStamped()
                t.header.frame_id, t.child_frame_id = world, v._p["odom_frame"]
                t.transform.rotation.w = 1.0
                links.append(t)
        self._pub_tf_static = self.create_publisher(TFMessage, "/tf_static", latched)
        self._pub_tf_static.publish(TFMessage(transforms=links))
        self._timer = None
        if p["time_mode"] == "lockstep":
            self.create_service(Trigger, "~/step", self._on_lockstep)
        elif p["time_mode"] == "sim" and not p["clock_owner"]:
            self.create_subscription(Clock, "/clock", self._on_clock, 10)
        else:   # one steady timer for all (see SimNode.__init__)
            self._timer = self.create_timer(lead._tick_period_s(), self._on_tick,
                                            clock=RosClock(clock_type=ClockType.STEADY_TIME))
            mono, wall = time.monotonic(), time.time()
            next_call_s = (self._timer.time_until_next_call() or 0) * 1e-9
            for v in self.vehicles:
                v._align_to(mono, wall, next_call_s)
        self.get_logger().info(f"{len(self.vehicles)} vehicles in one process: "
                               + ", ".join(v.get_namespace() for v in self.vehicles))

    def nodes(self) -> list[Node]:
        """This node and the vehicles' nodes, for one executor."""
        return [self, *self.vehicles]

    def destroy_vehicles(self) -> None:
        """Destroy the vehicles' nodes (then destroy this one as any node)."""
        for v in self.vehicles:
            v.destroy_node()
        self.vehicles = []

    def _check_shared(self) -> None:
        """Refuse fleet-wide parameters that differ and frames two vehicles share."""
        for name in FLEET_WIDE:
            values = {v.get_namespace(): v._p[name] for v in self.vehicles}
            if len(set(values.values())) > 1:
                raise StartupError(f"parameter '{name}' differs between the vehicles {values}: "
                                   f"one step loop paces them all; set it for all ('/**')")
        owner: dict[str, str] = {}
        for v in self.vehicles:
            for key in ("base_frame", "base_link_frame"):
                frame = v._p[key]
                if frame in owner:
                    raise StartupError(f"parameter 'frame_prefix': {owner[frame]} and "
                                       f"{v.get_namespace()} both name the frame {frame!r}; "
                                       f"give each vehicle its own prefix")
                owner[frame] = v.get_namespace()

    def _on_tick(self) -> None:
        due, wall_shift_s, epoch_shift_s = self.vehicles[0]._pace(time.monotonic())
        if due > 0:
            for v in self.vehicles:
                v._advance(due, wall_shift_s, epoch_shift_s)
                v._maybe_print_status()

    def _on_clock(self, msg: Clock) -> None:
        due, epoch_shift_s = self.vehicles[0]._clock_due(msg.clock.sec + msg.clock.nanosec * 1e-9)
        if due > 0:
            for v in self.vehicles:
                v._advance(due, 0.0, epoch_shift_s)
                v._maybe_print_status()

    def _on_lockstep(self, _req, res):
        lead = self.vehicles[0]
        for _ in range(lead._p["lockstep_steps"]):
            for v in self.vehicles:
                v._lockstep_step()
        await_acknowledgements([self, *self.vehicles], time.monotonic() + LOCKSTEP_ACK_TIMEOUT_S)
        res.success = True
        res.message = f"clock={lead._epoch_s + lead.sim.time_s:.6f}"
        return res
