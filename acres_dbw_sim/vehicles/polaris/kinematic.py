"""Kinematic ground vehicle (ground-vehicle-kinematics-model.md, "Ground Vehicle Kinematics Model").

A second fidelity level beside the full Polaris model: throttle and brake give
proportional shares of a maximum acceleration and deceleration, a slope term
makes full throttle up the maximum slope give zero acceleration, a resistance
caps the speed at the maximum, the heading turns at steering x speed / turning
radius, and the vehicle is placed on the terrain through a three-point support
plane (section "The Ground Vehicle Support Plane").

One tick of one vehicle (:func:`tick`, in the page's order):

1. ``dt = 0`` returns (nothing changes). Heading: with a valid steering port
   and a non-zero speed ``psi += s dt v / R_min`` (:func:`heading_rate_rad_s`).
2. The heading's rotation about z.
3. Parking brake on (``park = 1``) or no valid throttle/brake port: the
   acceleration and the speed are 0. Otherwise :func:`calculate_acceleration_mps2`:

       a_free = d u_t a_max                        (throttle share, d = +1 / -1 / 0 by the gear)
              - a_max sin(theta_up) / sin(theta_max) (slope: zero at full throttle on the maximum slope)
              - a_max v / v_max                    (resistance: full throttle on the level stops at v_max)

   and the brake, a deceleration ``u_b d_max`` against the motion that stops
   the vehicle but never reverses it (at rest it holds up to ``u_b d_max``).
4.-6. ``v' = v + a dt``, then the x-y position moves by ``v' dt`` along the
   new heading (motion on the x-y plane only).
7. Support plane (:func:`support_plane`): three support points (front-axle
   centre, rear-left and rear-right wheels, offsets from ``base_footprint``),
   rotated by the heading, their heights from the terrain's one query
   (terrain.py :func:`~acres_dbw_sim.model.terrain.query`); the plane's
   normal, the orientation for that heading and normal, the height of the
   plane below ``base_footprint``, and the Tait-Bryan angles.
8. Published: position, roll/pitch/yaw of the plane, speed ``v'`` along the
   nose, acceleration ``a``.

The page writes step 4-6 as ``bodyAcceleration = a dT``,
``bodyVelocity = v + bodyAcceleration dT`` and ``newPosition = old + xyVelocity``;
taken literally the units do not close (dT twice in the speed, none in the
position). Here the speed changes by ``a dt`` and the position by ``v' dt``
(semi-implicit Euler), which is what the prose of the page describes.
Extensions, each needed behind a DBW and said so in docs/kinematic.md: the
heading also turns when reversing (signed speed), the gear gives the throttle's
direction (REVERSE: -1, NEUTRAL: 0) and selects one of three parameter sets
(H, L, REVERSE), and the brake holds the vehicle at rest.

Frames: odom (ENU, z up); body x forward, y left, z up; ``base_footprint`` is
the ground point below the rear-axle centre; roll, pitch, yaw are Z-Y-X
Tait-Bryan angles, pitch positive nose down (REP-103), so a vehicle climbing
forwards has ``sin(theta_up) = -sin(pitch)``.

Arrays (many vehicles in one call, :func:`step_vehicles`; one vehicle is
N = 1 of the same call): the state ``s`` (N, ``N_KS``), the parameters ``p``
(N, ``N_KP``) and the inputs ``u`` (N, ``N_KI``), float64, columns named by the
``KS_*``, ``KP_*``, ``KI_*`` indices below. :class:`KinematicVehicle` is the
single vehicle with the full model's interface (``reset``, ``step`` with
``VehicleInputs``, the state attributes the DBW and the recorder read), and
:class:`KinematicFleet` holds N vehicles on one terrain.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import transforms3d

from ...model._jit import HoldsEntry, array, njit, specialise
from ...model.energy import EnergyLedger, LEDGER_TERMS
from ...model.enums import AwdSwitch, Gear, GearReject
from .gearbox import LV_GEAR, GearLever, lever_advance, lever_request
from ...model.chassis import G_MPS2
from ...model.stages import N_OUT, O_ANGLE, O_DELTA, O_OMEGA, O_POS, O_SF, O_SW, O_VB, O_WB, O_WHEEL_ANGLE
from ...model.params import ParameterError
from .params import KINEMATIC_PER_RANGE, KINEMATIC_RANGES, VehicleParameters, load_parameters
from ...model.steering import ackermann_rad, bicycle_angle_rad
from .steering import rack_limited_deg
from ...model.terrain import FlatTerrain, Terrain, query

__all__ = ["KinematicParameters", "KinematicVehicle", "KinematicFleet", "tick", "step_vehicles", "gear_ports",
           "steering_port_of", "kinematic_outputs", "kinematic_advance", "N_KV",
           "heading_rate_rad_s", "calculate_acceleration_mps2", "support_plane", "place_vehicles", "RANGES",
           "KS_X_M", "KS_Y_M", "KS_Z_M", "KS_YAW_RAD", "KS_PITCH_RAD", "KS_ROLL_RAD", "KS_SPEED_MPS",
           "KS_ACCEL_MPS2", "KS_YAW_RATE_RAD_S", "N_KS", "KP_D_MAX_MPS2", "KP_TURN_RADIUS_M", "KP_FRONT_X_M",
           "KP_HALF_TRACK_M", "KP_RANGE0", "KP_PER_RANGE", "KP_A_MAX", "KP_V_MAX", "KP_SIN_SLOPE_MAX", "N_KP",
           "KI_THROTTLE", "KI_BRAKE", "KI_STEER", "KI_DIRECTION", "KI_RANGE", "KI_PARK", "KI_HAS_STEER",
           "KI_HAS_PEDALS", "N_KI", "UNAVAILABLE"]

# ------------------------------------------------------------------ array layout
# State s[i, :] of vehicle i.
KS_X_M = 0              #: base_footprint x in odom [m]
KS_Y_M = 1              #: base_footprint y in odom [m]
KS_Z_M = 2              #: base_footprint z in odom (on the support plane) [m]
KS_YAW_RAD = 3          #: heading psi [rad], left of +x positive
KS_PITCH_RAD = 4        #: pitch of the support plane [rad], nose down positive
KS_ROLL_RAD = 5         #: roll of the support plane [rad], right side down positive
KS_SPEED_MPS = 6        #: signed speed v along the nose [m/s] (x-y speed of the page)
KS_ACCEL_MPS2 = 7       #: acceleration a of the last tick [m/s^2]
KS_YAW_RATE_RAD_S = 8   #: heading rate of the last tick [rad/s]
N_KS = 9
# Parameters p[i, :]: common, then one block per range (RANGES order).
KP_D_MAX_MPS2 = 0       #: maximum deceleration d_max (full brake) [m/s^2]
KP_TURN_RADIUS_M = 1    #: minimum turning radius R_min of base_footprint at full steering [m]
KP_FRONT_X_M = 2        #: support point ahead of base_footprint (front-axle centre) [m]
KP_HALF_TRACK_M = 3     #: half the rear track: rear support points at +/- this [m]
KP_RANGE0 = 4           #: first per-range column
KP_PER_RANGE = 3        #: columns per range, offsets below
KP_A_MAX = 0            #: + maximum acceleration a_max (full throttle, level, from rest) [m/s^2]
KP_V_MAX = 1            #: + maximum speed v_max (full throttle, level) [m/s]
KP_SIN_SLOPE_MAX = 2    #: + sine of the maximum slope climbed at full throttle [-]
N_KP = KP_RANGE0 + 3 * KP_PER_RANGE
# Inputs u[i, :] (the ports of the page).
KI_THROTTLE = 0         #: throttle port u_t, 0..1
KI_BRAKE = 1            #: brake port u_b, 0..1
KI_STEER = 2            #: steering port s, -1..1 (left positive), s = 1 turns at R_min
KI_DIRECTION = 3        #: drive direction d of the gear: +1, -1 (REVERSE) or 0 (NEUTRAL)
KI_RANGE = 4            #: parameter set: 0 H, 1 L, 2 REVERSE
KI_PARK = 5             #: parking brake port (1.0 = applied)
KI_HAS_STEER = 6        #: 1.0 when the steering port is valid this frame
KI_HAS_PEDALS = 7       #: 1.0 when the throttle and brake ports are valid
N_KI = 8

# The single vehicle's own state kv (KinematicVehicle: the mapping of the DBW's outputs onto the ports and
# what it publishes besides the tick's state; constants first).
KV_CENTER_DEG = 0       #: steering-wheel angle of straight ahead theta_c [deg]
KV_RACK_STOP_DEG = 1    #: the rack stops at theta_c +/- this [deg]
KV_RATIO = 2            #: steering ratio [-]
KV_TAN_LOCK = 3         #: tan of the bicycle angle at a rack stop (where R_min is measured) [-]
KV_MAX_BAR = 4          #: line pressure of the full brake port u_b = 1 [bar]
KV_RADIUS_M = 5         #: tyre radius (the wheel spins of the path without slip) [m]
KV_WHEELBASE_M = 6      #: wheelbase (road-wheel angles) [m]
KV_TRACK_FRONT_M = 7    #: front track (road-wheel angles) [m]
KV_WHEEL_X_M = 8        #: + 4 wheels (FL, FR, RL, RR): x of each wheel from base_footprint [m]
KV_WHEEL_Y_M = 12       #: + 4 wheels: y [m]
KV_DT_S = 16            #: tick [s]
KV_DRIVE_MODE = 17      #: AWD switch of the last tick (AwdSwitch)
N_KV = 18

#: Names of the per-range parameter sets, in their index order (KI_RANGE).
RANGES = KINEMATIC_RANGES

#: DBW report fields the kinematic level cannot fill (no engine, CVT, fuel): published NaN,
#: the DBW protocol's "invalid" (dbw-interface.md: "NaN invalid").
UNAVAILABLE = {"throttle_info": ("engine_rpm",),
               "propulsion_info": ("engine_torque_request", "engine_torque_actual", "transmission_ratio")}


# ------------------------------------------------------------------ the rules of the tick
@njit
def heading_rate_rad_s(steer: float, speed_mps: float, turning_radius_m: float) -> float:
    """Heading rate of tick step 1: steering x speed / turning radius [rad/s].

    Parameters
    ----------
    steer : float
        Steering port value s [-], -1..1, left positive.
    speed_mps : float
        Signed speed v [m/s] (the page turns for v > 0; reversing turns the other way).
    turning_radius_m : float
        Minimum turning radius R_min [m] (> 0).

    Returns
    -------
    float
        ``s v / R_min``; 0 when v = 0.
    """
    if speed_mps == 0.0:
        return 0.0
    return steer * speed_mps / turning_radius_m


@njit
def calculate_acceleration_mps2(throttle: float, brake: float, direction: float, speed_mps: float,
                                sin_up: float, a_max: float, d_max: float, v_max: float, sin_slope_max: float,
                                dt_s: float) -> float:
    """Acceleration along the nose for one tick (tick step 3, ``calculateAcceleration``) [m/s^2].

    ``a_free = d u_t a_max - a_max sin_up / sin_slope_max - a_max v / v_max``;
    the brake then removes up to ``u_b d_max dt`` of speed against the motion
    without reversing it, so the returned ``a`` gives ``v + a dt`` with the
    sign of ``v + a_free dt`` or 0.

    Parameters
    ----------
    throttle, brake : float
        Port values u_t, u_b [-], 0..1 (clamped).
    direction : float
        d: +1 forward gears, -1 REVERSE, 0 NEUTRAL.
    speed_mps : float
        Signed speed v [m/s].
    sin_up : float
        Sine of the nose-up angle of the support plane [-] (``-sin(pitch)``).
    a_max, d_max, v_max, sin_slope_max : float
        Parameters of the active range (all > 0).
    dt_s : float
        Tick [s] (> 0).
    """
    ut = 0.0 if throttle < 0.0 else 1.0 if throttle > 1.0 else throttle
    ub = 0.0 if brake < 0.0 else 1.0 if brake > 1.0 else brake
    a_free = direction * ut * a_max - a_max * sin_up / sin_slope_max - a_max * speed_mps / v_max
    v_free = speed_mps + a_free * dt_s
    dv_brake = ub * d_max * dt_s
    if v_free > dv_brake:
        v_new = v_free - dv_brake
    elif v_free < -dv_brake:
        v_new = v_free + dv_brake
    else:
        v_new = 0.0
    return (v_new - speed_mps) / dt_s


@njit
def support_plane(td, x_m: float, y_m: float, yaw_rad: float, front_x_m: float, half_track_m: float) -> tuple:
    """Place the vehicle on the terrain (section "The Ground Vehicle Support Plane").

    The support points (front-axle centre ``(front_x, 0)``, rear wheels
    ``(0, +/-half_track)`` in the body frame, base_footprint at the origin) are
    rotated by the heading about z, their heights queried from the terrain;
    the plane through them gives the normal ``n`` (z up); the body x axis is the
    heading projected on the plane, y = n x x, z = n; base_footprint sits on the
    plane at (x, y).

    Parameters
    ----------
    td : TerrainData
        ``Terrain.data`` (terrain.py).
    x_m, y_m : float
        base_footprint in odom [m].
    yaw_rad : float
        Heading [rad].
    front_x_m, half_track_m : float
        Support-point offsets [m] (> 0).

    Returns
    -------
    tuple
        (z [m], roll [rad], pitch [rad]) of base_footprint; the yaw is ``yaw_rad``.
    """
    c = math.cos(yaw_rad)
    s = math.sin(yaw_rad)
    x1 = x_m + c * front_x_m
    y1 = y_m + s * front_x_m
    x2 = x_m - s * half_track_m
    y2 = y_m + c * half_track_m
    x3 = x_m + s * half_track_m
    y3 = y_m - c * half_track_m
    z1 = query(td, x1, y1)[0]
    z2 = query(td, x2, y2)[0]
    z3 = query(td, x3, y3)[0]
    ax, ay, az = x2 - x1, y2 - y1, z2 - z1
    bx, by, bz = x3 - x1, y3 - y1, z3 - z1
    nx = ay * bz - az * by
    ny = az * bx - ax * bz
    nz = ax * by - ay * bx
    if nz < 0.0:
        nx, ny, nz = -nx, -ny, -nz
    inv = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx * inv, ny * inv, nz * inv
    # body x: the heading projected on the plane
    d = c * nx + s * ny
    fx, fy, fz = c - d * nx, s - d * ny, -d * nz
    inv = 1.0 / math.sqrt(fx * fx + fy * fy + fz * fz)
    fz = fz * inv
    # body y = n x f, of which only the z component is needed for the roll
    ly_z = (nx * (fy * inv) - ny * (fx * inv))
    z0 = z1 - (nx * (x_m - x1) + ny * (y_m - y1)) / nz
    sp = -fz
    sp = -1.0 if sp < -1.0 else 1.0 if sp > 1.0 else sp
    pitch = math.asin(sp)
    roll = math.atan2(ly_z, nz)
    return z0, roll, pitch


@njit
def tick(td, p, u, s, i: int, dt_s: float) -> None:
    """One tick of vehicle ``i`` (module docstring, steps 1 to 8), in place on ``s[i]``.

    Parameters
    ----------
    td : TerrainData
        The shared terrain.
    p, u, s : ndarray
        Parameters (N, N_KP), inputs (N, N_KI), state (N, N_KS).
    i : int
        Row.
    dt_s : float
        Tick [s]; 0 returns at once.
    """
    if dt_s == 0.0:
        return
    v = s[i, KS_SPEED_MPS]
    yaw0 = s[i, KS_YAW_RAD]
    # 1. heading
    rate = 0.0
    if u[i, KI_HAS_STEER] != 0.0:
        steer = u[i, KI_STEER]
        steer = -1.0 if steer < -1.0 else 1.0 if steer > 1.0 else steer
        rate = heading_rate_rad_s(steer, v, p[i, KP_TURN_RADIUS_M])
    yaw = yaw0 + rate * dt_s
    # 3. acceleration
    if u[i, KI_PARK] == 1.0 or u[i, KI_HAS_PEDALS] == 0.0:
        a = 0.0
        v_new = 0.0
    else:
        rng = int(u[i, KI_RANGE])
        rng = 0 if rng < 0 or rng > 2 else rng
        b = KP_RANGE0 + KP_PER_RANGE * rng
        a = calculate_acceleration_mps2(u[i, KI_THROTTLE], u[i, KI_BRAKE], u[i, KI_DIRECTION], v,
                                        -math.sin(s[i, KS_PITCH_RAD]), p[i, b + KP_A_MAX], p[i, KP_D_MAX_MPS2],
                                        p[i, b + KP_V_MAX], p[i, b + KP_SIN_SLOPE_MAX], dt_s)
        v_new = v + a * dt_s
    # 4.-6. x-y velocity along the heading, new position
    x = s[i, KS_X_M] + math.cos(yaw) * v_new * dt_s
    y = s[i, KS_Y_M] + math.sin(yaw) * v_new * dt_s
    # 7. support plane
    z, roll, pitch = support_plane(td, x, y, yaw, p[i, KP_FRONT_X_M], p[i, KP_HALF_TRACK_M])
    # 8. publish
    s[i, KS_X_M] = x
    s[i, KS_Y_M] = y
    s[i, KS_Z_M] = z
    s[i, KS_YAW_RAD] = yaw
    s[i, KS_PITCH_RAD] = pitch
    s[i, KS_ROLL_RAD] = roll
    s[i, KS_SPEED_MPS] = v_new
    s[i, KS_ACCEL_MPS2] = a
    s[i, KS_YAW_RATE_RAD_S] = rate


@njit
def step_vehicles(td, p, u, s, dt_s: float) -> None:
    """Tick every vehicle (rows of ``s``) once on the shared terrain ``td``.

    Vehicles do not interact (no collisions between them). Shapes: ``p``
    (N, N_KP), ``u`` (N, N_KI), ``s`` (N, N_KS), float64.
    """
    for i in range(s.shape[0]):
        tick(td, p, u, s, i, dt_s)


@njit
def place_vehicles(td, p, s) -> None:
    """Put every vehicle on its support plane at its present x, y, heading (no motion)."""
    for i in range(s.shape[0]):
        z, roll, pitch = support_plane(td, s[i, KS_X_M], s[i, KS_Y_M], s[i, KS_YAW_RAD], p[i, KP_FRONT_X_M],
                                       p[i, KP_HALF_TRACK_M])
        s[i, KS_Z_M] = z
        s[i, KS_ROLL_RAD] = roll
        s[i, KS_PITCH_RAD] = pitch


# ------------------------------------------------------------------ one vehicle behind the DBW
_PARK, _REVERSE, _DRIVE, _LOW = int(Gear.PARK), int(Gear.REVERSE), int(Gear.DRIVE), int(Gear.LOW)


@njit
def gear_ports(gear: int) -> tuple:
    """(direction d, range index) of the ports for lever position ``gear`` (Gear): H and L drive forward on
    their own parameter sets, REVERSE backward on its set; P, N and NONE give no throttle direction (the
    gear's extension of ground-vehicle-kinematics-model.md, docs/kinematic.md "Ports from the DBW")."""
    if gear == _DRIVE:
        return 1.0, 0
    if gear == _LOW:
        return 1.0, 1
    if gear == _REVERSE:
        return -1.0, 2
    return 0.0, 0


@njit
def steering_port_of(kv, steering_wheel_deg: float) -> tuple:
    """(steering port s [-], bicycle angle delta [rad], angle after the rack stops [deg]) of a raw
    steering-wheel angle [deg] (NaN reads as straight ahead), with the constants of ``kv`` (``KV_*``):
    ``s = tan(delta) / tan(delta_lock)`` (:meth:`KinematicVehicle.steering_port`; the steering port of
    ground-vehicle-kinematics-model.md's heading step, docs/kinematic.md "Ports from the DBW")."""
    sw = steering_wheel_deg
    sw = kv[KV_CENTER_DEG] if sw != sw else rack_limited_deg(sw, kv[KV_CENTER_DEG], kv[KV_RACK_STOP_DEG])
    delta = bicycle_angle_rad(sw, kv[KV_RATIO], kv[KV_CENTER_DEG])
    return math.tan(delta) / kv[KV_TAN_LOCK], delta, sw


@njit
def kinematic_outputs(s, kv, out) -> None:
    """What vehicle 0 of ``s`` (N_KS) publishes but its orientation and angles, into ``out`` (model/stages.py
    ``O_*``, the full model's layout, which the DBW's reading takes): its position in odom [m], the body
    velocity (v, 0, 0), the heading rate about odom z in the body frame, the specific force (a, v psi_dot,
    0) plus gravity in the body frame, and each wheel's rolling speed of its path without slip (sign of its
    forward speed) [rad/s] (ground-vehicle-kinematics-model.md step 8; docs/kinematic.md "What the level
    publishes"). Frames: body x forward, y left, z up; pitch nose down positive."""
    v = float(s[0, KS_SPEED_MPS])
    pitch = float(s[0, KS_PITCH_RAD])
    roll = float(s[0, KS_ROLL_RAD])
    rate = float(s[0, KS_YAW_RATE_RAD_S])
    # odom z expressed in the body frame: the third row of the body-to-odom matrix
    sp, cp, sr, cr = math.sin(pitch), math.cos(pitch), math.sin(roll), math.cos(roll)
    gz0, gz1, gz2 = -sp, cp * sr, cp * cr
    out[O_POS] = float(s[0, KS_X_M])
    out[O_POS + 1] = float(s[0, KS_Y_M])
    out[O_POS + 2] = float(s[0, KS_Z_M])
    out[O_VB] = v
    out[O_VB + 1] = 0.0
    out[O_VB + 2] = 0.0
    out[O_WB] = rate * gz0
    out[O_WB + 1] = rate * gz1
    out[O_WB + 2] = rate * gz2
    a = float(s[0, KS_ACCEL_MPS2])
    out[O_SF] = a + G_MPS2 * gz0
    out[O_SF + 1] = v * rate + G_MPS2 * gz1
    out[O_SF + 2] = G_MPS2 * gz2
    inv_r = 1.0 / kv[KV_RADIUS_M]
    for j in range(4):
        vx = v - rate * kv[KV_WHEEL_Y_M + j]
        vy = rate * kv[KV_WHEEL_X_M + j]
        w = math.sqrt(vx * vx + vy * vy) * inv_r
        out[O_OMEGA + j] = w if vx >= 0.0 else -w


@njit
def kinematic_advance(td, p, u, s, lv, kv, out, pedal: float, brake_line_bar: float, steering_wheel_deg: float,
                      gear_request: int, drive_mode: int) -> None:
    """One tick of the single vehicle with the DBW's outputs as its inputs (:meth:`KinematicVehicle.step`): the
    lever's request (``lv``, gearbox.py's shift rule at the present speed), the ports (throttle = pedal
    clamped to 0..1, brake = line pressure / ``KV_MAX_BAR``, steering :func:`steering_port_of`, direction and
    range :func:`gear_ports`, parking brake in P), :func:`step_vehicles`, the lever's shift timer, then what it
    publishes into ``out``: steering-wheel angle, bicycle and road-wheel angles (Ackermann), :func:`kinematic_outputs`
    and the wheel angles integrated with the new spins (ground-vehicle-kinematics-model.md steps 1-8 in
    :func:`tick`; the ports, docs/kinematic.md "Ports from the DBW").

    Parameters
    ----------
    td, p, u, s : TerrainData, (1, N_KP), (1, N_KI), (1, N_KS)
    lv : array (N_LEVER,)
    kv : array (N_KV,)
        Constants and the drive mode (``KV_*``).
    out : array (N_OUT,)
    pedal [-], brake_line_bar [bar], steering_wheel_deg [deg], gear_request (Gear, 0: none), drive_mode (AwdSwitch)
    """
    if gear_request != 0:
        lever_request(lv, gear_request, float(s[0, KS_SPEED_MPS]))
    kv[KV_DRIVE_MODE] = drive_mode
    gear = int(lv[LV_GEAR])
    d, rng = gear_ports(gear)
    pedal = 0.0 if pedal != pedal or pedal < 0.0 else 1.0 if pedal > 1.0 else pedal
    bar = 0.0 if brake_line_bar != brake_line_bar or brake_line_bar < 0.0 else brake_line_bar
    steer, delta, sw = steering_port_of(kv, steering_wheel_deg)
    u[0, KI_THROTTLE] = pedal
    u[0, KI_BRAKE] = bar / kv[KV_MAX_BAR]
    u[0, KI_STEER] = steer
    u[0, KI_DIRECTION] = d
    u[0, KI_RANGE] = rng
    u[0, KI_PARK] = 1.0 if gear == _PARK else 0.0
    dt = kv[KV_DT_S]
    step_vehicles(td, p, u, s, dt)
    lever_advance(lv, dt)
    out[O_SW] = sw
    out[O_DELTA] = delta
    dl, dr = ackermann_rad(delta, kv[KV_WHEELBASE_M], kv[KV_TRACK_FRONT_M])
    out[O_ANGLE] = dl
    out[O_ANGLE + 1] = dr
    kinematic_outputs(s, kv, out)
    for j in range(4):
        out[O_WHEEL_ANGLE + j] = out[O_WHEEL_ANGLE + j] + out[O_OMEGA + j] * dt


# ------------------------------------------------------------------ parameters
_PER_RANGE_KEYS = KINEMATIC_PER_RANGE


@dataclass(frozen=True)
class KinematicParameters:
    """Parameters of the kinematic level (``kinematic`` block of the parameter file).

    Attributes
    ----------
    accel_max_mps2, speed_max_mps, slope_max_pct : dict
        Per range (``high``, ``low``, ``reverse``): a_max [m/s^2], v_max [m/s]
        and the steepest grade climbed [%] (rise / run x 100).
    decel_max_mps2 : float
        d_max at full brake (``brakes.max_bar``) [m/s^2].
    turning_radius_m : float
        R_min of base_footprint at full steering lock [m].
    front_x_m, half_track_m : float
        Support points: front-axle centre (the wheelbase) and half the rear track [m].
    """

    accel_max_mps2: dict
    speed_max_mps: dict
    slope_max_pct: dict
    decel_max_mps2: float
    turning_radius_m: float
    front_x_m: float
    half_track_m: float

    @classmethod
    def from_vehicle_parameters(cls, vp: VehicleParameters) -> "KinematicParameters":
        """Read the ``kinematic.*`` keys of ``vp.values``.

        Raises
        ------
        ParameterError
            A key missing (the file has no ``kinematic`` block: run
            ``tools/derive_kinematic.py``) or not a positive finite number.
        """
        vals = vp.values

        def get(key: str) -> float:
            if key not in vals:
                raise ParameterError(key, "missing from the parameter file (tools/derive_kinematic.py writes it)")
            v = vals[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0.0:
                raise ParameterError(key, f"non-physical value {v!r}: must be a finite number > 0")
            return float(v)

        per = {k: {r: get(f"kinematic.{r}.{k}") for r in RANGES} for k in _PER_RANGE_KEYS}
        return cls(per["accel_max_mps2"], per["speed_max_mps"], per["slope_max_pct"],
                   get("kinematic.decel_max_mps2"), get("kinematic.turning_radius_m"),
                   vp.geometry.wheelbase_m, 0.5 * vp.geometry.track_rear_m)

    def row(self) -> np.ndarray:
        """The parameter row p[i, :] (N_KP,) of one vehicle."""
        r = np.zeros(N_KP)
        r[KP_D_MAX_MPS2] = self.decel_max_mps2
        r[KP_TURN_RADIUS_M] = self.turning_radius_m
        r[KP_FRONT_X_M] = self.front_x_m
        r[KP_HALF_TRACK_M] = self.half_track_m
        for k, name in enumerate(RANGES):
            b = KP_RANGE0 + KP_PER_RANGE * k
            r[b + KP_A_MAX] = self.accel_max_mps2[name]
            r[b + KP_V_MAX] = self.speed_max_mps[name]
            g = self.slope_max_pct[name] / 100.0
            r[b + KP_SIN_SLOPE_MAX] = g / math.sqrt(1.0 + g * g)
        return r


class KinematicVehicle(HoldsEntry):
    """One kinematic vehicle with the full model's interface (``Vehicle``'s ``reset``, ``step``, attributes).

    The DBW's outputs become the page's ports: throttle ``u_t`` = pedal;
    brake ``u_b`` = line pressure / ``brakes.max_bar``; steering
    ``s = tan(delta) / tan(delta_lock)`` with delta the bicycle angle of the
    steering wheel (steering.py, held by the rack stops, ``steering.rack_stop_deg``) and
    delta_lock the lock at which R_min was measured (:meth:`steering_port`);
    the parking brake is the lever in PARK, and
    the lever follows the full model's shift rule (gearbox.py ``GearLever``).

    Parameters
    ----------
    params : VehicleParameters, optional
        Default the shipped file; needs its ``kinematic`` block.
    terrain : Terrain, optional
        Default level asphalt.
    dt_s : float
        Tick [s] (> 0).
    kinematic : KinematicParameters, optional
        Default read from ``params``.

    Attributes
    ----------
    position_m, orientation_wxyz, velocity_body_mps, angular_velocity_body_rad_s, speed_mps,
    yaw_rate_rad_s, specific_force_body_mps2, wheel_spin_rad_s, wheel_angle_rad, road_wheel_angle_rad,
    steering_wheel_deg, gear, gear_target, shift_in_progress, last_gear_reject, drive_mode :
        As ``Vehicle``; ``velocity_body_mps`` is (v, 0, 0) along the nose, the
        angular velocity is the heading rate about odom z expressed in the body
        frame (no pitch or roll rates), the specific force is (a, v psi_dot, 0)
        plus gravity in the body frame, the wheel spins are the rolling speeds
        of each wheel's path without slip, integrated into the wheel angles.
    engine_rpm, engine_speed_rad_s, engine_torque_nm, cvt_ratio, clutch_torque_nm, fuel_l,
    fuel_rate_l_h, wheel_load_n, sinkage_m, wheel_slip, brake_torque_nm :
        NaN: not modelled at this level.
    ledger : EnergyLedger
        Every term NaN (no energy model).
    UNAVAILABLE : dict
        The DBW report fields this level has no quantity for (:data:`UNAVAILABLE`); ``Simulation`` reports them NaN.

    Raises
    ------
    ParameterError
        If the ``kinematic`` block is missing or invalid.
    ValueError
        If ``dt_s`` is not a positive finite number.
    """

    level = "kinematic"

    UNAVAILABLE = UNAVAILABLE

    def __init__(self, params: VehicleParameters | None = None, terrain: Terrain | None = None,
                 dt_s: float = 1.0 / 120.0, kinematic: KinematicParameters | None = None) -> None:
        if not (isinstance(dt_s, (int, float)) and math.isfinite(dt_s) and dt_s > 0.0):
            raise ValueError(f"dt_s={dt_s!r}: must be a finite number > 0")
        self.params = params if params is not None else load_parameters()
        self.terrain = terrain if terrain is not None else FlatTerrain()
        self.terrain.bind([sf.name for sf in self.params.surfaces])
        self.dt_s = float(dt_s)
        self.kinematic = kinematic if kinematic is not None else KinematicParameters.from_vehicle_parameters(self.params)
        P = self.params
        self._p = self.kinematic.row()[None, :].copy()
        self._u = np.zeros((1, N_KI))
        self._u[0, KI_HAS_STEER] = 1.0
        self._u[0, KI_HAS_PEDALS] = 1.0
        self._s = np.zeros((1, N_KS))
        self.lever = GearLever(P.gearbox.max_shift_speed_mps, P.gearbox.shift_time_s)
        s = P.steering
        kv = self._kv = array([0.0] * N_KV)
        kv[KV_CENTER_DEG], kv[KV_RACK_STOP_DEG], kv[KV_RATIO] = s.center_deg, s.rack_stop_deg, s.ratio
        # the rack stops (steering.py, symmetric about straight ahead): the lock where R_min is measured, |s| <= 1
        kv[KV_TAN_LOCK] = max(math.tan(abs(bicycle_angle_rad(rack_limited_deg(lk, s.center_deg, s.rack_stop_deg),
                                                             s.ratio, s.center_deg)))
                              for lk in (s.center_deg + s.rack_stop_deg, s.center_deg - s.rack_stop_deg))
        kv[KV_MAX_BAR] = P.brakes.max_bar
        kv[KV_RADIUS_M] = P.tyres.radius_m
        g = P.geometry
        kv[KV_WHEELBASE_M], kv[KV_TRACK_FRONT_M] = g.wheelbase_m, g.track_front_m
        kv[KV_WHEEL_X_M:KV_WHEEL_X_M + 4] = (g.wheelbase_m, g.wheelbase_m, 0.0, 0.0)
        kv[KV_WHEEL_Y_M:KV_WHEEL_Y_M + 4] = (0.5 * g.track_front_m, -0.5 * g.track_front_m, 0.5 * g.track_rear_m,
                                             -0.5 * g.track_rear_m)
        kv[KV_DT_S] = self.dt_s
        # what the tick publishes, in the full model's output layout (model/stages.py O_*); the quantities this
        # level has no model for stay NaN (the DBW reads them as 0, its reports publish NaN)
        self._out = array([math.nan] * N_OUT)
        # the compiled tick for these argument types (_jit.specialise)
        self._advance = self._make_entry()
        nan = math.nan
        self.engine_rpm = self.engine_speed_rad_s = self.engine_torque_nm = nan
        self.cvt_ratio = self.clutch_torque_nm = self.fuel_l = self.fuel_rate_l_h = self.torque_request = nan
        self.wheel_load_n = self.sinkage_m = self.wheel_slip = self.brake_torque_nm = (nan,) * 4
        self.wheel_fx_n = self.wheel_fy_n = (nan,) * 4
        self.ledger = EnergyLedger(**{n: nan for n in LEDGER_TERMS})
        self.reset()

    def _arrays(self) -> tuple:
        """The arrays :func:`kinematic_advance` runs on (its arguments before the inputs), in its order."""
        return (self.terrain.data, self._p, self._u, self._s, self.lever.lv, self._kv, self._out)

    _ENTRY = "_advance"   # made anew by a copy (_jit.HoldsEntry)

    def _make_entry(self):
        """:func:`kinematic_advance` specialised for :meth:`_arrays` (``_jit.specialise``)."""
        return specialise(kinematic_advance, self._arrays() + (0.0, 0.0, 0.0, 0, 0))

    # ------------------------------------------------------------------ reset
    def reset(self, x_m: float = 0.0, y_m: float = 0.0, yaw_rad: float = 0.0, speed_mps: float = 0.0,
              gear: Gear = Gear.LOW, drive_mode: AwdSwitch = AwdSwitch.AWD) -> None:
        """Put the vehicle at (x, y) with heading ``yaw_rad`` on its support plane, at ``speed_mps``.

        Raises
        ------
        ValueError
            If ``gear`` is not a lever position.
        """
        self.lever.reset(gear)
        self._kv[KV_DRIVE_MODE] = int(AwdSwitch(drive_mode))
        st = self._s
        st[0, :] = 0.0
        st[0, KS_X_M], st[0, KS_Y_M], st[0, KS_YAW_RAD] = float(x_m), float(y_m), float(yaw_rad)
        st[0, KS_SPEED_MPS] = float(speed_mps)
        place_vehicles(self.terrain.data, self._p, st)
        self.time_s = 0.0
        out = self._out
        out[O_SW] = self.params.steering.center_deg
        out[O_DELTA] = 0.0
        for j in range(4):
            out[O_ANGLE + j] = out[O_WHEEL_ANGLE + j] = 0.0
        kinematic_outputs(st, self._kv, out)

    # ------------------------------------------------------------------ step
    def steering_port(self, steering_wheel_deg: float) -> tuple:
        """(steering port s [-], bicycle angle delta [rad], clamped angle [deg]) of a raw steering-wheel
        angle [deg] (NaN reads as straight ahead) (:func:`steering_port_of`).

        delta is the bicycle angle of steering.py after the full model's rack stops
        (:func:`~acres_dbw_sim.vehicles.polaris.steering.rack_limited_deg`, theta_c +/- ``steering.rack_stop_deg``); the
        port is ``s = tan(delta) / tan(delta_lock)`` with delta_lock the bicycle angle at a rack stop (where
        ``turning_radius_m`` is measured), so the path curvature ``s / R_min`` is linear in tan(delta) and
        ``1 / R_min`` at that lock. The full model turns about 12 % wider than the ideal bicycle
        ``tan(delta) / L`` at walking pace, and this scaling carries that over to every angle (docs/kinematic.md)."""
        steer, delta, sw = steering_port_of(self._kv, float(steering_wheel_deg))
        return float(steer), float(delta), float(sw)

    def step(self, inputs) -> None:
        """Advance one tick with the DBW's outputs (``VehicleInputs``: pedal, line pressure,
        steering-wheel angle, gear request, drive mode) (:func:`kinematic_advance`)."""
        drive_mode = AwdSwitch(inputs.drive_mode)   # raises for a number that is no switch position
        self._advance(self.terrain.data, self._p, self._u, self._s, self.lever.lv, self._kv, self._out,
                      float(inputs.pedal), float(inputs.brake_line_bar), float(inputs.steering_wheel_deg),
                      int(inputs.gear_request), int(drive_mode))
        self.stepped()

    def stepped(self) -> None:
        """After a tick on :meth:`_arrays` (:meth:`step`, or the step through the DBW, dbw_step.py): the clock
        advances (the attributes read the arrays)."""
        self.time_s += self.dt_s

    # ------------------------------------------------------------------ behind the DBW
    def dbw_step(self, dbw) -> tuple | None:
        """``(step, arguments)``: the tick through the DBW ``dbw`` in one compiled call, ``step(t_s)``
        (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.kinematic_dbw_step` over these arrays, packed once),
        and its arguments but the time; None when ``dbw``'s ULC plant is not the Ranger's, whose compiled form
        that step runs. Made anew when the terrain's arrays change."""
        from ...model._jit import packed_call
        from .dbw_step import kinematic_dbw_tick
        from .ulc_plant import PowertrainModel
        if not isinstance(dbw.ulc.powertrain, PowertrainModel):
            return None
        args = dbw.step_arguments() + self._arrays()
        return packed_call(kinematic_dbw_tick, args, 0.0), args

    def dbw_reading(self, dbw):
        """A call that writes the DBW ``dbw``'s reading of this vehicle into its record from the arrays
        (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.kinematic_measured`), for the reports after a step."""
        from functools import partial

        from ...dbw.record import record_array
        from .dbw_step import kinematic_measured
        args = (record_array(dbw.state), self._out, self.lever.lv, self._kv)
        return partial(specialise(kinematic_measured, args), *args)

    # ------------------------------------------------------------------ outputs (read from the arrays)
    wheel_in_contact = (True, True, True, True)

    def _o(self, k: int, n: int) -> tuple:
        return tuple(float(x) for x in self._out[k:k + n])

    @property
    def position_m(self) -> tuple:
        """base_footprint in odom [m]."""
        return self._o(O_POS, 3)

    @property
    def orientation_wxyz(self) -> tuple:
        """Orientation of the support plane for the heading, (w, x, y, z) body -> odom (transforms3d, Z-Y-X)."""
        s = self._s[0]
        q = transforms3d.euler.euler2quat(float(s[KS_YAW_RAD]), float(s[KS_PITCH_RAD]), float(s[KS_ROLL_RAD]), "rzyx")
        return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))

    @property
    def velocity_body_mps(self) -> tuple:
        """(v, 0, 0) along the nose [m/s]."""
        return self._o(O_VB, 3)

    @property
    def speed_mps(self) -> float:
        """Signed speed v along the nose [m/s]."""
        return float(self._s[0, KS_SPEED_MPS])

    @property
    def yaw_rate_rad_s(self) -> float:
        """Heading rate of the last tick [rad/s]."""
        return float(self._s[0, KS_YAW_RATE_RAD_S])

    @property
    def angular_velocity_body_rad_s(self) -> tuple:
        """The heading rate about odom z in the body frame [rad/s] (:func:`kinematic_outputs`)."""
        return self._o(O_WB, 3)

    @property
    def specific_force_body_mps2(self) -> tuple:
        """(a, v psi_dot, 0) plus gravity in the body frame [m/s^2] (:func:`kinematic_outputs`)."""
        return self._o(O_SF, 3)

    @property
    def wheel_spin_rad_s(self) -> tuple:
        """Rolling speed of each wheel's path without slip [rad/s] (FL, FR, RL, RR)."""
        return self._o(O_OMEGA, 4)

    @property
    def wheel_angle_rad(self) -> tuple:
        """Each wheel's rotation angle, the spins integrated [rad]."""
        return self._o(O_WHEEL_ANGLE, 4)

    @property
    def road_wheel_angle_rad(self) -> tuple:
        """Road-wheel angles (front left, front right by Ackermann of the bicycle angle; rear 0) [rad]."""
        return self._o(O_ANGLE, 4)

    @property
    def steering_wheel_deg(self) -> float:
        """Steering-wheel angle of the last tick after the rack stops [deg]."""
        return float(self._out[O_SW])

    @property
    def bicycle_angle_rad(self) -> float:
        """Bicycle angle delta of the last tick [rad]."""
        return float(self._out[O_DELTA])

    @property
    def drive_mode(self) -> AwdSwitch:
        """AWD switch of the last tick."""
        return AwdSwitch(int(self._kv[KV_DRIVE_MODE]))

    @property
    def gear(self) -> Gear:
        """Lever position (NEUTRAL during a shift)."""
        return self.lever.gear

    @property
    def gear_target(self) -> Gear:
        """Lever position at the end of the shift."""
        return self.lever.target

    @property
    def shift_in_progress(self) -> bool:
        """True while the lever is in neutral for a shift."""
        return self.lever.remaining_s > 0.0

    @property
    def last_gear_reject(self) -> GearReject:
        """Reason of the last refused lever request."""
        return self.lever.last_reject


class KinematicFleet:
    """N kinematic vehicles on one terrain, stepped in one compiled call.

    The arrays are public: ``s`` (N, N_KS) the state, ``u`` (N, N_KI) the
    ports (set them between steps; steering and pedal ports start valid),
    ``p`` (N, N_KP) the parameters (one row per vehicle, so vehicles may
    differ). Vehicles do not collide with each other.

    Parameters
    ----------
    n : int
        Number of vehicles (>= 1).
    params : KinematicParameters or sequence of them
        One set for all, or one per vehicle.
    terrain : Terrain, optional
        Shared terrain (default level asphalt); bound to ``surface_names``.
    dt_s : float
        Tick [s] (> 0).
    surface_names : sequence of str, optional
        Surface table to bind the terrain to (default: the shipped file's).

    Raises
    ------
    ValueError
        For n < 1, a wrong number of parameter sets or a bad tick.
    """

    def __init__(self, n: int, params, terrain: Terrain | None = None, dt_s: float = 1.0 / 120.0,
                 surface_names=None) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n={n!r}: must be an integer >= 1")
        if not (isinstance(dt_s, (int, float)) and math.isfinite(dt_s) and dt_s > 0.0):
            raise ValueError(f"dt_s={dt_s!r}: must be a finite number > 0")
        sets = [params] * n if isinstance(params, KinematicParameters) else list(params)
        if len(sets) != n:
            raise ValueError(f"{len(sets)} parameter sets for {n} vehicles")
        self.terrain = terrain if terrain is not None else FlatTerrain()
        if surface_names is None:
            surface_names = [sf.name for sf in load_parameters().surfaces]
        self.terrain.bind(list(surface_names))
        self.dt_s = float(dt_s)
        self.p = np.stack([k.row() for k in sets])
        self.u = np.zeros((n, N_KI))
        self.u[:, KI_HAS_STEER] = 1.0
        self.u[:, KI_HAS_PEDALS] = 1.0
        self.s = np.zeros((n, N_KS))

    @property
    def n(self) -> int:
        """Number of vehicles."""
        return self.s.shape[0]

    def reset(self, x_m, y_m, yaw_rad, speed_mps=0.0) -> None:
        """Set every vehicle's pose and speed (scalars or arrays of N) and place it on the terrain."""
        self.s[:, :] = 0.0
        self.s[:, KS_X_M] = x_m
        self.s[:, KS_Y_M] = y_m
        self.s[:, KS_YAW_RAD] = yaw_rad
        self.s[:, KS_SPEED_MPS] = speed_mps
        place_vehicles(self.terrain.data, self.p, self.s)

    def step(self) -> None:
        """Tick every vehicle once."""
        step_vehicles(self.terrain.data, self.p, self.u, self.s, self.dt_s)

