"""Ground truth of the simulated vehicle as standard ROS messages.

Frames (REP-103/105): ``odom`` is the fixed world frame (ENU), ``base_footprint``
the ground point below the rear-axle centre, body x forward, y left, z up
(polaris-ranger-dynamics.md, gaps.md "Conventions"). Wheels 0 FL, 1 FR, 2 RL,
3 RR. Each builder keeps one message and overwrites it; ``OdometryBuilder``,
``TfBuilder`` and ``ImuBuilder`` also give the serialized message
(``packed``, :mod:`msg_adapters.cdr`) for rclpy's raw publish path, its
constant parts (frames, covariances) taken from that message.
"""

from __future__ import annotations

import math

from typing import Any

from geometry_msgs.msg import TransformStamped
from msg_adapters.cdr import CDR_LE, cdr_struct
from nav_msgs.msg import Odometry
from sensor_msgs.msg import Imu, JointState

__all__ = ["OdometryBuilder", "TfBuilder", "ImuBuilder", "JointStateBuilder",
           "JOINT_NAMES", "static_transforms", "JointTransforms"]

# Honest covariances of a ground-truth source: tiny (1 mm, 1 mrad) but not
# zero, so that consumers that invert them (robot_localization) stay finite.
POSE_VAR = (1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6)
TWIST_VAR = (1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6)

JOINT_NAMES = ("front_left_wheel_joint", "front_right_wheel_joint",
               "rear_left_wheel_joint", "rear_right_wheel_joint",
               "front_left_steer_joint", "front_right_steer_joint",
               "steering_wheel_joint")


def diag6(var: tuple[float, ...]) -> list[float]:
    cov = [0.0] * 36
    for i, v in enumerate(var):
        cov[7 * i] = v
    return cov


class OdometryBuilder:
    """``nav_msgs/Odometry``: pose of ``base_footprint`` in ``odom``, twist in ``base_footprint``.

    Parameters
    ----------
    odom_frame, base_frame : str
        ``header.frame_id`` and ``child_frame_id``.
    """

    def __init__(self, odom_frame: str, base_frame: str) -> None:
        m = self.msg = Odometry()
        m.header.frame_id = odom_frame
        m.child_frame_id = base_frame
        m.pose.covariance = diag6(POSE_VAR)
        m.twist.covariance = diag6(TWIST_VAR)
        self._struct = None   # packed(): built at the first call, from the message

    def __call__(self, vehicle: Any, stamp: Any) -> Odometry:
        """Fill from the model's ``position_m``, ``orientation_wxyz``,
        ``velocity_body_mps`` [m/s] and ``angular_velocity_body_rad_s`` [rad/s]."""
        m = self.msg
        m.header.stamp = stamp
        p, q = m.pose.pose.position, m.pose.pose.orientation
        p.x, p.y, p.z = vehicle.position_m
        q.w, q.x, q.y, q.z = vehicle.orientation_wxyz
        v, w = m.twist.twist.linear, m.twist.twist.angular
        v.x, v.y, v.z = vehicle.velocity_body_mps
        w.x, w.y, w.z = vehicle.angular_velocity_body_rad_s
        return m

    def packed(self, vehicle: Any, stamp: Any) -> bytes:
        """The same message as :meth:`__call__`, serialized (CDR) without filling it."""
        if self._struct is None:
            m = self.msg
            frame, child = m.header.frame_id.encode(), m.child_frame_id.encode()
            self._head = (len(frame) + 1, frame, len(child) + 1, child)
            self._pose_cov, self._twist_cov = tuple(m.pose.covariance), tuple(m.twist.covariance)
            self._struct = cdr_struct(["i", "I", ("S", len(frame) + 1), ("S", len(child) + 1)]
                                      + ["d"] * (7 + 36 + 6 + 36))
        w, x, y, z = vehicle.orientation_wxyz
        return self._struct.pack(CDR_LE, stamp.sec, stamp.nanosec, *self._head, *vehicle.position_m,
                                 x, y, z, w, *self._pose_cov, *vehicle.velocity_body_mps,
                                 *vehicle.angular_velocity_body_rad_s, *self._twist_cov)


class TfBuilder:
    """``geometry_msgs/TransformStamped`` ``odom -> base_footprint`` (same pose as the odometry)."""

    def __init__(self, odom_frame: str, base_frame: str) -> None:
        t = self.msg = TransformStamped()
        t.header.frame_id = odom_frame
        t.child_frame_id = base_frame
        self._struct = None

    def __call__(self, vehicle: Any, stamp: Any) -> TransformStamped:
        """Fill from the model's ``position_m`` [m] and ``orientation_wxyz`` (unit
        quaternion, body in ``odom``); returns the builder's one message."""
        t = self.msg
        t.header.stamp = stamp
        tr, q = t.transform.translation, t.transform.rotation
        tr.x, tr.y, tr.z = vehicle.position_m
        q.w, q.x, q.y, q.z = vehicle.orientation_wxyz
        return t

    def packed(self, vehicle: Any, stamp: Any) -> bytes:
        """``tf2_msgs/TFMessage`` holding this one transform, serialized (CDR), not filled."""
        if self._struct is None:
            frame, child = self.msg.header.frame_id.encode(), self.msg.child_frame_id.encode()
            self._head = (len(frame) + 1, frame, len(child) + 1, child)
            # transforms: a sequence of length 1
            self._struct = cdr_struct(["I", "i", "I", ("S", len(frame) + 1), ("S", len(child) + 1)]
                                      + ["d"] * 7)
        w, x, y, z = vehicle.orientation_wxyz
        return self._struct.pack(CDR_LE, 1, stamp.sec, stamp.nanosec, *self._head, *vehicle.position_m,
                                 x, y, z, w)


class ImuBuilder:
    """``sensor_msgs/Imu`` as the DBW publishes it on ``imu/data_raw`` (dbw-interface.md §4.13).

    No orientation (``orientation_covariance[0] = -1``); specific force [m/s²]
    and angular rate [rad/s] in the IMU frame (``frame_id``, default
    ``base_footprint``), from the core's ``ImuData``.
    """

    def __init__(self, frame_id: str) -> None:
        m = self.msg = Imu()
        m.header.frame_id = frame_id
        m.orientation_covariance[0] = -1.0
        self._struct = None

    def __call__(self, imu: Any, stamp: Any) -> Imu:
        """Fill from the core's ``ImuData`` (specific force [m/s²], gravity included,
        and angular rate [rad/s], body frame x forward, y left, z up)."""
        m = self.msg
        m.header.stamp = stamp
        a, w = m.linear_acceleration, m.angular_velocity
        a.x, a.y, a.z = imu.linear_acceleration_x, imu.linear_acceleration_y, imu.linear_acceleration_z
        w.x, w.y, w.z = imu.angular_velocity_x, imu.angular_velocity_y, imu.angular_velocity_z
        return m

    def packed(self, imu: Any, stamp: Any) -> bytes:
        """The same message as :meth:`__call__`, serialized (CDR) without filling it."""
        if self._struct is None:
            m = self.msg
            frame = m.header.frame_id.encode()
            q = m.orientation
            self._head = (len(frame) + 1, frame, q.x, q.y, q.z, q.w, *m.orientation_covariance)
            self._w_cov = tuple(m.angular_velocity_covariance)
            self._a_cov = tuple(m.linear_acceleration_covariance)
            self._struct = cdr_struct(["i", "I", ("S", len(frame) + 1)] + ["d"] * (4 + 9 + 3 + 9 + 3 + 9))
        return self._struct.pack(CDR_LE, stamp.sec, stamp.nanosec, *self._head,
                                 imu.angular_velocity_x, imu.angular_velocity_y, imu.angular_velocity_z,
                                 *self._w_cov, imu.linear_acceleration_x, imu.linear_acceleration_y,
                                 imu.linear_acceleration_z, *self._a_cov)


TWO_PI = 2.0 * math.pi


class JointStateBuilder:
    """``sensor_msgs/JointState``: wheel spin angles [rad] and speeds [rad/s], the two
    front steer angles [rad] and the steering-wheel angle [rad] (``JOINT_NAMES``).

    The wheel angles are wrapped with ``fmod(angle, 2 pi)`` (the sign of the angle kept, so within
    (-2 pi, 2 pi)), as Dataspeed's driver publishes them (``dbw_ford_can`` ``DbwNode::publishJointStates``);
    the model's own angle grows without bound. ``header.frame_id`` is empty, as there: joint states
    name joints, not a frame."""

    def __init__(self) -> None:
        self.msg = JointState(name=list(JOINT_NAMES))

    def __call__(self, vehicle: Any, stamp: Any) -> JointState:
        """Fill from the model's ``wheel_angle_rad``, ``wheel_spin_rad_s``,
        ``road_wheel_angle_rad`` (FL, FR, RL, RR) and ``steering_wheel_deg``."""
        m = self.msg
        m.header.stamp = stamp
        a = vehicle.wheel_angle_rad
        w = vehicle.wheel_spin_rad_s
        d = vehicle.road_wheel_angle_rad
        sw = vehicle.steering_wheel_deg * 0.017453292519943295
        m.position = [math.fmod(a[0], TWO_PI), math.fmod(a[1], TWO_PI), math.fmod(a[2], TWO_PI),
                      math.fmod(a[3], TWO_PI), d[0], d[1], sw]
        m.velocity = [w[0], w[1], w[2], w[3], 0.0, 0.0, 0.0]
        return m


def static_transforms(base_frame: str, base_link_frame: str, imu_frame: str,
                      base_link_offset_m: tuple[float, float, float]) -> list[TransformStamped]:
    """Static frames of the vehicle: ``base_footprint -> base_link`` (offset [m]) and,
    when the IMU frame differs from ``base_footprint``, ``base_footprint -> imu``
    (identity: the simulated IMU sits at ``base_footprint``). Unstamped (time 0),
    as static transforms are valid at all times."""
    out = []
    pairs = [(base_frame, base_link_frame, base_link_offset_m)]
    if imu_frame not in (base_frame, base_link_frame):
        pairs.append((base_frame, imu_frame, (0.0, 0.0, 0.0)))
    for parent, child, (x, y, z) in pairs:
        if parent == child:
            continue
        t = TransformStamped()
        t.header.frame_id = parent
        t.child_frame_id = child
        t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = x, y, z
        t.transform.rotation.w = 1.0
        out.append(t)
    return out


class JointTransforms:
    """The URDF's joints as ``TransformStamped`` (``publish_wheel_tf``): the fixed ones once (for
    ``/tf_static``), the moving ones (steer knuckles, wheels, steering wheel) at the angles of
    ``joint_states`` (for ``/tf``).

    Parameters
    ----------
    joints : iterable of acres_dbw_sim.description.Joint
        The URDF's joints (``name``, ``kind``, ``parent``, ``child``, ``xyz_m`` [m], ``axis``); the
        ``base_link_joint`` is left out (the node publishes ``base_footprint -> base_link`` itself).
    joint_names : sequence of str
        The order of ``joint_states.position``.
    prefix : str
        Frame prefix added to a frame name that does not carry it yet.

    Attributes
    ----------
    fixed : list of TransformStamped
        The fixed joints, unstamped.
    moving : list of (TransformStamped, int, tuple)
        Each moving joint with its index in ``joint_states`` and its axis (unit vector, parent frame).
    """

    def __init__(self, joints, joint_names, prefix: str) -> None:
        self.fixed: list = []
        self.moving: list = []
        for j in joints:
            if j.name == "base_link_joint":
                continue
            t = TransformStamped()
            t.header.frame_id = j.parent if j.parent.startswith(prefix) else prefix + j.parent
            t.child_frame_id = j.child if j.child.startswith(prefix) else prefix + j.child
            t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = j.xyz_m
            t.transform.rotation.w = 1.0
            if j.kind == "fixed":
                self.fixed.append(t)
            else:
                self.moving.append((t, list(joint_names).index(j.name), j.axis))

    def at(self, position: list, stamp) -> list:
        """The moving joints as transforms stamped ``stamp``, at the angles ``position`` [rad] of
        ``joint_states`` (the same objects every call, overwritten)."""
        from transforms3d.quaternions import axangle2quat   # only with publish_wheel_tf

        out = []
        for t, index, axis in self.moving:
            t.header.stamp = stamp
            q = t.transform.rotation
            q.w, q.x, q.y, q.z = axangle2quat(axis, position[index])
            out.append(t)
        return out
