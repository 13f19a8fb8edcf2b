"""Chassis: one rigid body with six degrees of freedom (gaps.md "Chassis").

State: centre-of-mass position and velocity in odom (ENU) [m, m/s], the
attitude as a unit quaternion (w, x, y, z) body -> odom, and the angular
velocity in the body frame [rad/s]. Semi-implicit (symplectic) Euler:

    v1 = v0 + dt F / m,            p1 = p0 + dt v1
    w1 = w0 + dt I^-1 (M_b - w0 x I w0),   w1 <- w1 max(0, 1 - 0.08 dt)
    q1 = q0 (x) exp(dt w1 / 2)

with the full inertia tensor (products of inertia included). The hot loop uses
plain-float quaternion and matrix arithmetic in compiled kernels (_jit.py) over
the state vector ``x`` = (p, v, q, w) of 13 floats;
conversions outside the loop use transforms3d.
"""
from __future__ import annotations

import math

import transforms3d

from ._jit import array, njit, to_list

G_MPS2 = 9.80665
"""Standard gravity g [m/s^2] (gaps.md "Conventions")."""

__all__ = ["G_MPS2", "Chassis", "quat_to_matrix", "invert3", "integrate", "kinetic_energy_j", "effective_mass_kg",
           "box_contact_force_n"]

X_P, X_V, X_Q, X_W = 0, 3, 6, 10
"""Offsets of position, velocity, attitude and angular velocity in the state vector."""


@njit
def quat_to_matrix(w: float, x: float, y: float, z: float) -> tuple:
    """Rotation matrix (row-major 9-tuple) of a unit quaternion (plain floats, hot loop)."""
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    return (1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy),
            2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx),
            2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy))


def invert3(m: tuple) -> tuple:
    """Inverse of a 3x3 matrix given as 3 rows (returns a row-major 9-tuple)."""
    (a, b, c), (d, e, f), (g, h, i) = m
    A = e * i - f * h
    B = -(d * i - f * g)
    C = d * h - e * g
    det = a * A + b * B + c * C
    if det == 0.0:
        raise ValueError("singular inertia tensor")
    inv = 1.0 / det
    return (A * inv, -(b * i - c * h) * inv, (b * f - c * e) * inv,
            B * inv, (a * i - c * g) * inv, -(a * f - c * d) * inv,
            C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv)


@njit
def kinetic_energy_j(x, inertia, mass_kg):
    """Translational plus rotational kinetic energy [J] of state ``x`` (inertia: row-major 9)."""
    I = inertia
    vx, vy, vz = x[3], x[4], x[5]
    wx, wy, wz = x[10], x[11], x[12]
    iw0 = I[0] * wx + I[1] * wy + I[2] * wz
    iw1 = I[3] * wx + I[4] * wy + I[5] * wz
    iw2 = I[6] * wx + I[7] * wy + I[8] * wz
    return 0.5 * mass_kg * (vx * vx + vy * vy + vz * vz) + 0.5 * (wx * iw0 + wy * iw1 + wz * iw2)


@njit
def integrate(x, inertia, inertia_inv, mass_kg, angular_damping_per_s, fx, fy, fz, mbx, mby, mbz, dt):
    """Advance state ``x`` one step with the total force (odom) [N] and moment (body) [N m].

    Semi-implicit Euler of the module docstring, in place.

    Returns
    -------
    tuple
        (rotational kinetic energy removed by the angular damping [J],
        mean angular velocity of the step before damping, body frame (3 floats)).
    """
    m = mass_kg
    x[3] += dt * fx / m
    x[4] += dt * fy / m
    x[5] += dt * fz / m
    x[0] += dt * x[3]
    x[1] += dt * x[4]
    x[2] += dt * x[5]
    I = inertia
    J = inertia_inv
    w0x, w0y, w0z = x[10], x[11], x[12]
    iwx = I[0] * w0x + I[1] * w0y + I[2] * w0z
    iwy = I[3] * w0x + I[4] * w0y + I[5] * w0z
    iwz = I[6] * w0x + I[7] * w0y + I[8] * w0z
    tx = mbx - (w0y * iwz - w0z * iwy)
    ty = mby - (w0z * iwx - w0x * iwz)
    tz = mbz - (w0x * iwy - w0y * iwx)
    w1x = w0x + dt * (J[0] * tx + J[1] * ty + J[2] * tz)
    w1y = w0y + dt * (J[3] * tx + J[4] * ty + J[5] * tz)
    w1z = w0z + dt * (J[6] * tx + J[7] * ty + J[8] * tz)
    k = 1.0 - angular_damping_per_s * dt
    if k < 0.0:
        k = 0.0
    e1 = 0.5 * (w1x * (I[0] * w1x + I[1] * w1y + I[2] * w1z) + w1y * (I[3] * w1x + I[4] * w1y + I[5] * w1z)
                + w1z * (I[6] * w1x + I[7] * w1y + I[8] * w1z))
    damping_loss = e1 * (1.0 - k * k)
    mx, my, mz = 0.5 * (w0x + w1x), 0.5 * (w0y + w1y), 0.5 * (w0z + w1z)
    w1x *= k
    w1y *= k
    w1z *= k
    x[10], x[11], x[12] = w1x, w1y, w1z
    # q <- q (x) exp(dt w / 2), plain floats.
    ang = dt * math.sqrt(w1x * w1x + w1y * w1y + w1z * w1z)
    if ang > 1e-12:
        s = math.sin(0.5 * ang) / ang * dt
        c = math.cos(0.5 * ang)
        dx, dy, dz = w1x * s, w1y * s, w1z * s
    else:
        c, dx, dy, dz = 1.0, 0.5 * dt * w1x, 0.5 * dt * w1y, 0.5 * dt * w1z
    qw, qx, qy, qz = x[6], x[7], x[8], x[9]
    nw = qw * c - qx * dx - qy * dy - qz * dz
    nx = qw * dx + qx * c + qy * dz - qz * dy
    ny = qw * dy - qx * dz + qy * c + qz * dx
    nz = qw * dz + qx * dy - qy * dx + qz * c
    n = 1.0 / math.sqrt(nw * nw + nx * nx + ny * ny + nz * nz)
    x[6], x[7], x[8], x[9] = nw * n, nx * n, ny * n, nz * n
    return damping_loss, mx, my, mz


@njit
def effective_mass_kg(mass_kg, inertia_inv, R0, R1, R2, R3, R4, R5, R6, R7, R8, rx, ry, rz, dx, dy, dz):
    """Mass [kg] that a point of the body at ``r`` (odom axes, from the centre of mass) shows along the unit
    direction ``d`` (odom): 1 / m_eff = 1 / m + (r_b x d_b) . I^-1 (r_b x d_b), body-frame vectors
    (rotation body -> odom ``R0..R8`` row-major, ``inertia_inv`` body frame, row-major)."""
    rbx, rby, rbz = R0 * rx + R3 * ry + R6 * rz, R1 * rx + R4 * ry + R7 * rz, R2 * rx + R5 * ry + R8 * rz
    dbx, dby, dbz = R0 * dx + R3 * dy + R6 * dz, R1 * dx + R4 * dy + R7 * dz, R2 * dx + R5 * dy + R8 * dz
    cx, cy, cz = rby * dbz - rbz * dby, rbz * dbx - rbx * dbz, rbx * dby - rby * dbx
    J = inertia_inv
    q = (cx * (J[0] * cx + J[1] * cy + J[2] * cz) + cy * (J[3] * cx + J[4] * cy + J[5] * cz)
         + cz * (J[6] * cx + J[7] * cy + J[8] * cz))
    return 1.0 / (1.0 / mass_kg + q)


@njit
def box_contact_force_n(depth_m, v_n, tx, ty, tz, nx, ny, nz, m_eff_n, m_eff_t, share, dt, stiffness_n_m,
                        damping_n_s_m, friction):
    """Force [N] (odom) of the ground on one corner of the body box (gaps.md "Chassis": the game's Chaos box).

    Penalty contact: normal ``N = k d - c' v_n`` (not pulling), Coulomb friction
    ``|F_t| = min(mu N, share m_eff,t |v_t| / dt)`` against the tangential velocity ``v_t``.
    The damping ``c' = min(c, share m_eff,n / dt)`` and the friction's velocity
    bound are what the step can resolve: with ``share`` = 1 / (corners in contact)
    neither can reverse the corner's velocity within one step, so a body at rest
    on the box stays at rest (no step-to-step oscillation, no creep) instead of
    the explicit penalty forces' limit cycle.

    Parameters
    ----------
    depth_m : float
        Penetration along the ground normal [m] (> 0).
    v_n : float
        Corner velocity along the normal [m/s].
    tx, ty, tz : float
        Tangential corner velocity (odom) [m/s].
    nx, ny, nz : float
        Ground normal (odom).
    m_eff_n, m_eff_t : float
        Effective mass of the corner along the normal and along the sliding direction [kg]
        (:func:`effective_mass_kg`).
    share : float
        1 / number of corners in contact.
    dt : float
        Step [s].
    stiffness_n_m, damping_n_s_m, friction : float
        ``chassis.body_box.*`` parameters.

    Returns
    -------
    (Fx, Fy, Fz) : floats, all 0 when the corner does not push.
    """
    c = damping_n_s_m
    c_max = share * m_eff_n / dt
    if c > c_max:
        c = c_max
    nb = stiffness_n_m * depth_m - c * v_n
    if nb <= 0.0:
        return 0.0, 0.0, 0.0
    vt = math.sqrt(tx * tx + ty * ty + tz * tz)
    ft = 0.0
    if vt > 0.0:
        f_lim = share * m_eff_t * vt / dt
        f = friction * nb
        ft = -(f if f < f_lim else f_lim) / vt
    return nb * nx + ft * tx, nb * ny + ft * ty, nb * nz + ft * tz


class Chassis:
    """Rigid-body state and integrator.

    Parameters
    ----------
    mass_kg : float
    inertia_tensor : 3 rows of 3 float
        Inertia about the centre of mass in the body frame [kg m^2].
    angular_damping_per_s : float
        Angular damping rate (0.08 1/s in the reference).

    Attributes
    ----------
    x : array of 13 float
        State vector (p, v, q, w), the one the compiled step advances.
    p : list of 3 float
        Centre-of-mass position in odom [m] (a copy; assign to set).
    v : list of 3 float
        Centre-of-mass velocity in odom [m/s].
    q : list of 4 float
        Attitude (w, x, y, z), body -> odom.
    w : list of 3 float
        Angular velocity in the body frame [rad/s].
    """

    def __init__(self, mass_kg: float, inertia_tensor, angular_damping_per_s: float) -> None:
        self.mass_kg = mass_kg
        self.inertia = tuple(float(v) for row in inertia_tensor for v in row)
        self.inertia_inv = invert3(tuple(tuple(row) for row in inertia_tensor))
        self.angular_damping_per_s = angular_damping_per_s
        self.x = array([0.0] * 6 + [1.0] + [0.0] * 6)
        self._I = array(self.inertia)
        self._J = array(self.inertia_inv)

    def _get(self, i: int, n: int) -> list:
        return to_list(self.x[i:i + n])

    def _set(self, i: int, values) -> None:
        for k, v in enumerate(values):
            self.x[i + k] = float(v)

    p = property(lambda self: self._get(X_P, 3), lambda self, v: self._set(X_P, v))
    v = property(lambda self: self._get(X_V, 3), lambda self, v: self._set(X_V, v))
    q = property(lambda self: self._get(X_Q, 4), lambda self, v: self._set(X_Q, v))
    w = property(lambda self: self._get(X_W, 3), lambda self, v: self._set(X_W, v))

    def set_pose(self, position, rpy_rad) -> None:
        """Set the centre-of-mass position [m] and roll, pitch, yaw [rad] (sxyz, transforms3d)."""
        self.p = [float(position[0]), float(position[1]), float(position[2])]
        q = transforms3d.euler.euler2quat(rpy_rad[0], rpy_rad[1], rpy_rad[2], "sxyz")
        self.q = [float(c) for c in q]

    def set_quaternion(self, q) -> None:
        """Set the attitude from (w, x, y, z), normalised."""
        n = math.sqrt(sum(c * c for c in q))
        self.q = [float(c) / n for c in q]

    def rotation(self) -> tuple:
        """Rotation matrix body -> odom (row-major 9-tuple)."""
        return quat_to_matrix(*self.q)

    def euler_rpy(self) -> tuple:
        """(roll, pitch, yaw) [rad] of the attitude (transforms3d, sxyz)."""
        return transforms3d.euler.quat2euler(self.q, "sxyz")

    def kinetic_energy_j(self) -> float:
        """Translational plus rotational kinetic energy [J]."""
        return kinetic_energy_j(self.x, self._I, self.mass_kg)

    def integrate(self, fx: float, fy: float, fz: float, mbx: float, mby: float, mbz: float,
                  dt: float) -> tuple:
        """Advance one step with the total force (odom) [N] and moment (body) [N m].

        Returns
        -------
        tuple
            (rotational kinetic energy removed by the angular damping [J],
            mean angular velocity of the step before damping, body frame (3 floats)).
        """
        loss, mx, my, mz = integrate(self.x, self._I, self._J, self.mass_kg, self.angular_damping_per_s,
                                     fx, fy, fz, mbx, mby, mbz, dt)
        return loss, (mx, my, mz)
