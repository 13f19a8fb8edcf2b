"""The ROS topics of the interfaces an autonomy stack speaks besides DBW2: Ackermann and Autoware.

The node creates them when ``interfaces`` names them; the adapters (``msg_adapters.ackermann``,
``msg_adapters.autoware``) hold the logic, and the node re-sends their commands every tick like
cmd_vel's (``SimNode._serve_interfaces``). A command message is handed to the adapter only when
the interface arbiter lets the interface command (``claim``); a control-mode request and an
``Engage`` are never dropped, as ``enable``/``disable`` are not.

Autoware (autoware_msgs 1.12.0, Autoware 1.8.0; topic names, rates and QoS from Autoware's
vehicle-interface pages): commands in on ``/control/command/{control_cmd, actuation_cmd, gear_cmd,
turn_indicators_cmd, hazard_lights_cmd}``, ``/vehicle/engage`` and the service
``/control/control_mode_request``; the reports out on ``/vehicle/status/{velocity_status,
steering_status, gear_status, control_mode, turn_indicators_status, hazard_lights_status,
actuation_status}`` at 10 Hz (the actuation pair with ``tier4_vehicle_msgs`` installed), every
topic RELIABLE, VOLATILE, depth 1 (the pages allow TRANSIENT_LOCAL published on change for the
gear, indicators and control mode; periodic VOLATILE serves both kinds of subscriber). The names are
absolute, as Autoware's: one vehicle per DDS domain. With it, what Autoware's planning simulator
adds (docs/autoware.md, "In place of the planning simulator"): ``/localization/acceleration`` at
every odometry, and ``autoware_initial_engage`` as its ``initial_engage_state``.
"""

from __future__ import annotations

from typing import Any, Callable

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from .ackermann import AckermannAdapter
from .autoware import AUTONOMOUS, MANUAL, AutowareAdapter, kinematic_acceleration_body

__all__ = ["ACKERMANN_TOPIC", "AUTOWARE_QOS", "AUTOWARE_STATUS_PERIOD_S", "create_ackermann", "AutowareTopics",
           "InterfaceMissing"]

#: The Ackermann command topic (relative: under the node's namespace, ``/vehicle``) and its depth.
ACKERMANN_TOPIC, ACKERMANN_DEPTH = "ackermann_cmd", 2
#: Every Autoware topic: RELIABLE, VOLATILE, depth 1.
AUTOWARE_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)
#: Period of the six Autoware status topics [s] (10 Hz).
AUTOWARE_STATUS_PERIOD_S = 0.1


class InterfaceMissing(RuntimeError):
    """An interface's message package is not installed (the message says which and how to get it)."""


def _need(package: str, interface: str):
    """Import and return ``package.msg``, or raise InterfaceMissing naming ``interface``."""
    import importlib
    try:
        return importlib.import_module(f"{package}.msg")
    except ImportError as err:
        raise InterfaceMissing(f"interface {interface!r} needs the package {package} ({err}); run 'make bootstrap'") \
            from err


def create_ackermann(node: Any, dbw: Any, timeout_s: float, shift_park: bool, claim: Callable[[str, float], bool],
                     now: Callable[[], float], warn: Callable[[str, str | None], None]) -> AckermannAdapter:
    """Subscribe ``node`` to ``ackermann_cmd`` (``AckermannDriveStamped``, header ignored); return its adapter.

    Parameters
    ----------
    node : rclpy.node.Node
    dbw : acres_dbw_sim.dbw.params.DbwParameters
        The vehicle's DBW parameters (``steering_ratio``, ``steering_center_deg``).
    timeout_s, shift_park
        The adapter's (:class:`~msg_adapters.ackermann.AckermannAdapter`).
    claim : callable
        ``claim(interface, t_s)``: may the interface command now (the arbiter)?
    now : callable
        The simulation time [s].
    warn : callable
        ``warn(interface, text or None)``: log a warning of the stream's.

    Raises
    ------
    InterfaceMissing
        Without ``ackermann_msgs``.
    """
    msgs = _need("ackermann_msgs", "ackermann")
    adapter = AckermannAdapter(dbw.steering_ratio, dbw.steering_center_deg, timeout_s, shift_park)

    def on_drive(msg) -> None:
        t = now()
        if claim("ackermann", t) and not adapter.on_drive(msg.drive, t):
            warn("ackermann", adapter.ignored_warning())
    node.create_subscription(msgs.AckermannDriveStamped, ACKERMANN_TOPIC, on_drive, ACKERMANN_DEPTH)
    return adapter


class AutowareTopics:
    """Autoware's vehicle-interface topics and service on ``node`` for ``adapter`` (module docstring).

    Parameters
    ----------
    node : rclpy.node.Node
    dbw : acres_dbw_sim.dbw.params.DbwParameters
        The vehicle's DBW parameters (``steering_ratio``, ``steering_center_deg``).
    timeout_s : float
        The adapter's (:class:`~msg_adapters.autoware.AutowareAdapter`).
    frame_id : str
        ``header.frame_id`` of ``velocity_status`` and ``/localization/acceleration``: the node's
        ``base_frame``, the rear axle's centre on the ground, which is where Autoware's ``base_link`` is.
    claim, now, warn : callable
        As for :func:`create_ackermann`.
    engage : bool
        Request AUTONOMOUS at once (``autoware_initial_engage``; the planning simulator's
        ``initial_engage_state``).

    Attributes
    ----------
    adapter : AutowareAdapter

    Raises
    ------
    InterfaceMissing
        Without ``autoware_control_msgs`` or ``autoware_vehicle_msgs``.
    """

    def __init__(self, node: Any, dbw: Any, timeout_s: float, frame_id: str, claim: Callable[[str, float], bool],
                 now: Callable[[], float], warn: Callable[[str, str | None], None],
                 engage: bool = False) -> None:
        from geometry_msgs.msg import AccelWithCovarianceStamped
        ctrl = _need("autoware_control_msgs", "autoware")
        veh = _need("autoware_vehicle_msgs", "autoware")
        import autoware_vehicle_msgs.srv as veh_srv
        self.adapter = adapter = AutowareAdapter(dbw.steering_ratio, dbw.steering_center_deg, dbw.brake_max_bar,
                                                 timeout_s)
        self._msgs = veh
        self._frame_id = frame_id

        def command(handler):
            def callback(msg) -> None:
                t = now()
                if claim("autoware", t):
                    handler(msg, t)
            return callback

        def on_control(msg, t) -> None:
            if not adapter.on_control(msg.lateral, msg.longitudinal, t):
                warn("autoware", adapter.ignored_warning())

        def on_mode(request, response):
            response.success = adapter.request_mode(request.mode)
            if not response.success:
                node.get_logger().warning(f"/control/control_mode_request: mode {request.mode} refused "
                                          f"(AUTONOMOUS 1, AUTONOMOUS_STEER_ONLY 2, AUTONOMOUS_VELOCITY_ONLY 3, "
                                          f"MANUAL 4, NO_COMMAND 0)")
            return response

        qos = AUTOWARE_QOS
        node.create_subscription(ctrl.Control, "/control/command/control_cmd", command(on_control), qos)
        node.create_subscription(veh.GearCommand, "/control/command/gear_cmd",
                                 command(lambda m, _t: adapter.on_gear(m.command)), qos)
        node.create_subscription(veh.TurnIndicatorsCommand, "/control/command/turn_indicators_cmd",
                                 command(lambda m, _t: adapter.on_turn_indicators(m.command)), qos)
        node.create_subscription(veh.HazardLightsCommand, "/control/command/hazard_lights_cmd",
                                 command(lambda m, _t: adapter.on_hazard_lights(m.command)), qos)
        node.create_subscription(veh.Engage, "/vehicle/engage",
                                 lambda m: adapter.request_mode(AUTONOMOUS if m.engage else MANUAL), qos)
        node.create_service(veh_srv.ControlModeCommand, "/control/control_mode_request", on_mode)
        try:   # the actuation path (tier4_vehicle_msgs): optional where a ROS install lacks the package
            import tier4_vehicle_msgs.msg as tier4
        except ImportError:
            tier4 = None
        self._tier4, self._pub_actuation = tier4, None
        if tier4 is not None:
            def on_actuation(msg, t) -> None:
                a = msg.actuation
                if not adapter.on_actuation(a.accel_cmd, a.brake_cmd, a.steer_cmd, t):
                    warn("autoware", adapter.ignored_warning())
            node.create_subscription(tier4.ActuationCommandStamped, "/control/command/actuation_cmd",
                                     command(on_actuation), qos)
            self._pub_actuation = node.create_publisher(tier4.ActuationStatusStamped,
                                                        "/vehicle/status/actuation_status", qos)
        self._accel = AccelWithCovarianceStamped()
        self._accel.header.frame_id = frame_id
        #: the one topic published every step: the node publishes it only while it has a subscriber
        self.pub_accel = node.create_publisher(AccelWithCovarianceStamped, "/localization/acceleration", qos)
        if engage:
            adapter.request_mode(AUTONOMOUS)
        self._pubs = [node.create_publisher(t, f"/vehicle/status/{name}", qos) for t, name in (
            (veh.VelocityReport, "velocity_status"), (veh.SteeringReport, "steering_status"),
            (veh.GearReport, "gear_status"), (veh.ControlModeReport, "control_mode"),
            (veh.TurnIndicatorsReport, "turn_indicators_status"), (veh.HazardLightsReport, "hazard_lights_status"))]

    def publish(self, reports: Any, vehicle: Any, stamp: Any, statuses: bool = True, motion: bool = True) -> None:
        """Publish ``/localization/acceleration`` when ``motion`` and the status messages when ``statuses``,
        stamped ``stamp``.

        Parameters
        ----------
        reports : acres_dbw_sim.dbw.state.DbwReports
            The DBW's reports, filled this step.
        vehicle : object
            The model's state: ``velocity_body_mps`` [m/s] and ``angular_velocity_body_rad_s`` [rad/s] of
            ``base_footprint`` (the rear axle's centre on the ground; the simulation's truth, as
            Autoware's own simulator reports it), ``specific_force_body_mps2`` [m/s^2] and
            ``orientation_wxyz``.
        stamp : builtin_interfaces.msg.Time
        statuses : bool
            The status topics are due (every :data:`AUTOWARE_STATUS_PERIOD_S`).
        motion : bool
            ``pub_accel`` has a subscriber (the node's listener check; it is published every step).
        """
        if motion:
            accel = self._accel
            accel.header.stamp = stamp
            lin = accel.accel.accel.linear
            lin.x, lin.y, lin.z = kinematic_acceleration_body(vehicle.specific_force_body_mps2,
                                                              vehicle.orientation_wxyz)
            self.pub_accel.publish(accel)
        if not statuses:
            return
        m, a = self._msgs, self.adapter
        velocity = m.VelocityReport()
        velocity.header.stamp, velocity.header.frame_id = stamp, self._frame_id
        velocity.longitudinal_velocity, velocity.lateral_velocity = vehicle.velocity_body_mps[:2]
        velocity.heading_rate = vehicle.angular_velocity_body_rad_s[2]
        out = (velocity, m.SteeringReport(stamp=stamp, steering_tire_angle=a.steering.angle_of(reports)),
               m.GearReport(stamp=stamp, report=a.gear(reports)),
               m.ControlModeReport(stamp=stamp, mode=a.control_mode(reports)),
               m.TurnIndicatorsReport(stamp=stamp, report=a.turn_indicators(reports)),
               m.HazardLightsReport(stamp=stamp, report=a.hazard_lights(reports)))
        for pub, msg in zip(self._pubs, out):
            pub.publish(msg)
        if self._pub_actuation is not None:
            status = self._tier4.ActuationStatusStamped()
            status.header.stamp, status.header.frame_id = stamp, self._frame_id
            s = status.status
            s.accel_status, s.brake_status, s.steer_status = a.actuation_status(reports)
            self._pub_actuation.publish(status)
