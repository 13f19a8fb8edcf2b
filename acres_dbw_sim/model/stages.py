"""The shared stages of the Physics Step that every vehicle composes.

Both vehicles' pages run the same per-wheel and chassis stages around their own
steering and powertrain (polaris-ranger-dynamics.md "Physics Step" stages 4 and 6;
maxxum-150-dynamics.md "The Physics Step" steps 6, 8 to 10):

* :func:`prepare_wheels` (PrepareWheel): for each wheel the ground probe, the
  suspension load (suspension.py), on soil the load and the sinkage solved together
  (soil.py), the brake, the rolling resistance and the tyre's slip coefficients
  (tyre.py); it fills the wheel coefficients of the driveline solve (driveline.py).
* :func:`wheel_ledger`: the ledger terms of the wheels after the solve (wheel kinetic
  energy, brakes, rolling resistance, differential coupling).
* :func:`chassis_stage` (SettleWheels and the forces on the chassis): tyre forces,
  soil motion resistance, water drag, the body box, air drag and an external force
  (an implement's draft) into the 6-DOF integration (chassis.py), and the chassis
  side of the ledger.
* :func:`kinematics`: base_footprint's pose and velocity from the chassis state.

A vehicle supplies what is its own: the road-wheel angles (``out[O_ANGLE..]``), the
wheels' inertias and brake torques, the powertrain and the driveline solve's
arguments, and the powertrain side of the ledger (``vehicles/polaris/vehicle.py`` for the
Ranger, ``vehicles/maxxum150/vehicle.py`` for the tractor).

The stages run over flat arrays (compiled by numba when present, _jit.py): the shared
constants ``k`` (``K_*``, built by :func:`shared_constants`), the wheel state ``sw``
(``SW_*``), per-wheel scratch ``wd`` (``W_*``), the body-box scratch, the driveline
coefficients ``wh`` and results ``dres`` (driveline.py), the ledger ``led``
(energy.py ``L_*``) and the outputs ``out`` (``O_*``).

Frames: body x forward, y left, z up; world frame ``odom`` (ENU). Wheels 0 FL, 1 FR,
2 RL, 3 RR. SI units.
"""
from __future__ import annotations

import math

import numpy as np
import transforms3d

from ._jit import array, njit
from .chassis import box_contact_force_n, effective_mass_kg, integrate, kinetic_energy_j, quat_to_matrix
from .driveline import (D_CARRIER, D_DRIVEN, D_FX, D_HELD, D_OMEGA, D_SHAFT, D_TC, D_TRES, D_TSUP, WH_A0, WH_A1,
                        WH_FMAX_R, WH_JDT, WH_LK, WH_SPIN_RATE, WH_TBRAKE, WH_TRES, WH_W0)
from .energy import (L_AERO, L_ANGULAR_DAMPING, L_BODY_CONTACT, L_BRAKE, L_CHASSIS_KINETIC, L_CLUTCH, L_COUPLING,
                     L_DRIVELINE, L_ENGINE_KINETIC, L_ENGINE_LOSS, L_FUEL, L_IMPLEMENT, L_PARASITIC, L_POTENTIAL,
                     L_ROLLING, L_SOIL, L_SUSPENSION, L_TYRE_SLIP, L_WATER, L_WHEEL_KINETIC, fuel_power_w)
from .chassis import G_MPS2
from .resistances import aero_drag_n, rolling_torque_nm, spin_factor, water_drag_coefficient_kg_m, water_drag_n
from .soil import motion_resistance_n, slip_sinkage_m, tyre_on_soil
from .suspension import suspension_load_n
from .terrain import probe, query
from .tyre import (SATURATION, carcass_damping_s, deflection_end_m, lateral_force_and_state, reported_slip,
                   slip_coefficients)

__all__ = ["K_NAMES", "shared_constants", "prepare_wheels", "settle_powertrain", "wheel_ledger", "chassis_stage",
           "kinematics",
           "load_brake_torque_nm", "static_sinkage_m", "place_on_ground"]

_sqrt = math.sqrt

# ------------------------------------------------------------------ layout
# Shared constants k: scalars (name, unit), then per-wheel, per-corner and per-surface blocks.
K_NAMES = (
    "dt",                # physics step [s]
    "datum",             # compression datum (no contact above this extension) [m]
    "droop",             # static compression x_0 [m]
    "bump_start",        # x_b [m]
    "bump_rate",         # k_b [N/m^2]
    "mass",              # m [kg]
    "angular_damping",   # [1/s]
    "sigma_x",           # longitudinal relaxation length [m]
    "tau_c",             # carcass damping at standstill [s]
    "fade_speed",        # speed at which the carcass damping has faded out [m/s]
    "k_slip",            # hard-ground slip stiffness k_s [-]
    "slip_floor",        # speed floor of the reported slip [m/s]
    "sigma_y",           # lateral relaxation length [m]
    "c_alpha",           # cornering stiffness per load [1/rad]
    "air_density",       # rho [kg/m^3]
    "drag_area",         # C_d A [m^2]
    "spin_rate",         # 1 / omega_s of the resistances' tanh [s/rad]
    "cd_water",          # C_d,w [-]
    "probe_iterations",  # re-linearisations of the ground probe on a height map [-]
    "box_stiffness",     # body-box contact stiffness [N/m]
    "box_damping",       # body-box contact damping [N s/m]
    "box_friction",      # body-box friction [-]
    "z_max",             # sinkage limit [m]
    "mr_speed",          # speed scale of the soil's motion resistance tanh [m/s]
    "hysteresis",        # h_y [-]
    "lug_height",        # h [m]
    "tread_k",           # tread shear compliance added to K [m]
    "n_surfaces",        # number of surfaces [-]
    "max_load_factor",   # largest wheel load / static load N_0 [-]
    "rolling_max",       # largest rolling coefficient f of T_roll = min(f, f_max) N R_t [-]
    "water_density",     # rho_w of the water drag [kg/m^3]
    "lug_factor",        # Bekker's lug correction of the soil thrust [-]
)
(K_DT, K_DATUM, K_DROOP, K_BUMP_START, K_BUMP_RATE, K_MASS, K_ANGULAR_DAMPING, K_SIGMA_X, K_TAU_C, K_FADE_SPEED,
 K_K_SLIP, K_SLIP_FLOOR, K_SIGMA_Y, K_C_ALPHA, K_AIR_DENSITY, K_DRAG_AREA, K_SPIN_RATE, K_CD_WATER,
 K_PROBE_ITERATIONS, K_BOX_STIFFNESS, K_BOX_DAMPING, K_BOX_FRICTION, K_Z_MAX, K_MR_SPEED, K_HYSTERESIS,
 K_LUG_HEIGHT, K_TREAD_K, K_N_SURFACES, K_MAX_LOAD_FACTOR, K_ROLLING_MAX, K_WATER_DENSITY,
 K_LUG_FACTOR) = range(len(K_NAMES))
K_MOUNT = len(K_NAMES)             # 4 x (x, y, z): wheel mounts relative to the centre of mass, body frame [m]
K_RATE = K_MOUNT + 12              # 4 corner rates k_j [N/m]
K_DAMPER = K_RATE + 4              # 4 dampers c_j [N s/m]
K_N0 = K_DAMPER + 4                # 4 static loads N_0j [N]
K_WIDTH = K_N0 + 4                 # 4 tyre widths b_j [m]
K_PG = K_WIDTH + 4                 # 4 ground pressures p_i + p_c [Pa]
K_KTYRE = K_PG + 4                 # 4 tyre rates k_t (deflection on soil) [N/m]
K_RADIUS = K_KTYRE + 4             # 4 unloaded tyre radii R_t [m]
K_SECTION = K_RADIUS + 4           # 4 section heights h_s [m]
K_BF = K_SECTION + 4               # base_footprint relative to the centre of mass (3) [m]
K_INERTIA = K_BF + 3               # inertia tensor, row-major (9) [kg m^2]
K_INERTIA_INV = K_INERTIA + 9      # its inverse (9) [1/(kg m^2)]
K_BOX = K_INERTIA_INV + 9          # 8 x (x, y, z): corners of the body box relative to the centre of mass [m]
K_SURF = K_BOX + 24                # per surface, SURF_SIZE values (SF_*)
# Per surface: friction mu [-], rolling coefficient f [-], water depth h_w [m], 1.0 on soil, then the soil
# class: Bekker n [-], k_c [N/m^(n+1)], k_phi [N/m^(n+2)], cohesion c [Pa], friction angle phi [rad], K [m],
# slip-sinkage length k_d [m] (soil.py slip_sinkage_m).
SF_MU, SF_F, SF_WATER, SF_SOIL, SF_N, SF_KC, SF_KPHI, SF_C, SF_PHI, SF_K, SF_DIG = range(11)
SURF_SIZE = 11
# Wheel state sw.
SW_OMEGA = 0                       # 4 wheel spins [rad/s]
SW_ANGLE = 4                       # 4 wheel angles [rad]
SW_U = 8                           # 4 longitudinal tread deflections [m]
SW_Y = 12                          # 4 lateral deflections [m]
SW_Z = 16                          # 4 sinkages (depth of the rut below the surface) [m]
SW_DIG = 20                        # 4 slip sinkages z_d (soil.py slip_sinkage_m), part of SW_Z [m]
N_WHEEL_STATE = 24
# Per-wheel scratch (W_SIZE per wheel).
W_CONTACT = 0                      # 1.0 in contact
W_R = 1                            # contact point from the centre of mass, odom (3) [m]
W_N = 4                            # ground normal (3)
W_H = 7                            # wheel heading in the ground plane (3)
W_VX, W_VY = 10, 11                # contact-point speed along the heading and to its left [m/s]
W_MU = 12                          # friction limit / N [-] (mu, or F_max / N on soil)
W_KW = 13                          # water drag k_w [kg/m]
W_TB = 14                          # brake torque [N m]
W_TROLL = 15                       # rolling-resistance torque [N m]
W_MR = 16                          # soil motion resistance F_mr before the clamp [N]
W_FX, W_FY, W_LOAD = 17, 18, 19    # tyre forces [N], normal load [N]
W_WATER = 20                       # water drag force (3) [N]
W_MRC = 23                         # motion resistance applied (after the clamp) [N]
W_SIZE = 24
# External force on the chassis (an implement): ext = (r from the centre of mass, odom (3) [m], F, odom (3) [N]).
N_EXT = 6
NO_EXTERNAL_FORCE = (0.0,) * N_EXT
"""``ext`` of a vehicle that carries nothing (the Ranger): a compile-time constant, so its kernel skips the term."""
# Outputs out.
O_SW, O_DELTA, O_TE, O_U, O_FUEL_RATE, O_TC, O_CARRIER = range(7)   # [deg], [rad], [N m], [-], [L/h], [N m], [rad/s]
O_FRONT = 7                        # 2 (1.0 front wheel engaged)
O_ANGLE = O_FRONT + 2              # 4 road-wheel angles [rad]
O_LOAD = O_ANGLE + 4               # 4 normal loads [N]
O_CONTACT = O_LOAD + 4             # 4 (1.0 in contact)
O_CP = O_CONTACT + 4               # 4 x 3 contact points (odom) [m]
O_EXT = O_CP + 12                  # 4 probe extensions [m]
O_TB = O_EXT + 4                   # 4 brake torques [N m]
O_FX = O_TB + 4                    # 4 [N]
O_FY = O_FX + 4                    # 4 [N]
O_SLIP = O_FY + 4                  # 4 [-]
O_SF = O_SLIP + 4                  # 3 specific force at base_footprint, body frame [m/s^2]
O_POS = O_SF + 3                   # 3 base_footprint in odom [m]
O_VB = O_POS + 3                   # 3 velocity of base_footprint, body frame [m/s]
O_SINK = O_VB + 3                  # 4 sinkages [m]
O_Q = O_SINK + 4                   # 4 orientation quaternion w, x, y, z (body -> odom) [-]
O_WB = O_Q + 4                     # 3 angular velocity, body frame [rad/s]
O_OMEGA = O_WB + 3                 # 4 wheel spins [rad/s]
O_WHEEL_ANGLE = O_OMEGA + 4        # 4 wheel rotation angles [rad]
N_OUT = O_WHEEL_ANGLE + 4


def shared_constants(named: dict, mounts: tuple, rates: tuple, dampers: tuple, static_loads: tuple, widths: tuple,
                     ground_pressures: tuple, tyre_rates: tuple, radii: tuple, section_heights: tuple,
                     base_footprint: tuple, inertia: tuple, inertia_inv: tuple, box: tuple, surfaces) -> object:
    """The shared constants array ``k`` of :func:`prepare_wheels` and :func:`chassis_stage`.

    Parameters
    ----------
    named : dict
        A value for each name of :data:`K_NAMES` (units as listed there).
    mounts : 4 x (x, y, z)
        Wheel mounts relative to the centre of mass, body frame [m] (FL, FR, RL, RR).
    rates, dampers, static_loads, widths, ground_pressures, tyre_rates, radii, section_heights : 4 floats each
        k_j [N/m], c_j [N s/m], N_0j [N], b_j [m], p_i + p_c [Pa], k_t [N/m], R_t [m], h_s [m].
    base_footprint : 3 floats
        base_footprint relative to the centre of mass, body frame [m].
    inertia, inertia_inv : 9 floats
        Inertia tensor about the centre of mass and its inverse, row-major [kg m^2], [1/(kg m^2)].
    box : 8 x (x, y, z)
        Corners of the body box relative to the centre of mass, body frame [m].
    surfaces : sequence of Surface
        The surface table (params.py): mu, rolling coefficient, water depth and the soil class.

    Raises
    ------
    KeyError
        If ``named`` lacks a name of :data:`K_NAMES`.
    """
    kv = [float(named[n]) for n in K_NAMES]
    kv += [c for m in mounts for c in m] + list(rates) + list(dampers) + list(static_loads) + list(widths)
    kv += list(ground_pressures) + list(tyre_rates) + list(radii) + list(section_heights)
    kv += list(base_footprint) + list(inertia) + list(inertia_inv) + [c for b in box for c in b]
    for sf in surfaces:
        so = sf.soil
        kv += [sf.mu, sf.rolling_resistance, sf.water_depth_m, 0.0 if so is None else 1.0]
        kv += [0.0] * 7 if so is None else [so.n, so.k_c, so.k_phi, so.cohesion_pa, so.friction_angle_rad,
                                            so.shear_modulus_m, so.slip_sinkage_m]
    assert len(kv) == K_SURF + SURF_SIZE * len(surfaces)
    return array(kv)


@njit(inline=True)
def load_brake_torque_nm(axle_nm: float, per_load: float, load_n: float, radius_m: float) -> float:
    """Brake torque of one wheel [N m]: a fixed part plus one proportional to the wheel load.

    The Ranger's hydraulic brakes give the fixed part from the line pressure
    (brakes.py, polaris-ranger-dynamics.md "Brakes"), ``per_load = 0``; the Maxxum's
    brakes are proportional to the load, ``T_b = 1.5 b_k N r`` (maxxum-150-dynamics.md
    "Brakes and Park Brake"), ``axle_nm = 0`` and ``per_load = 1.5 b_k``. ``load_n`` is the
    wheel's load N [N] (its static load N_0 in the air), ``radius_m`` its tyre radius [m].
    """
    return axle_nm + per_load * load_n * radius_m


@njit(inline=True)
def pose_and_rates(chx):
    """(R0..R8 row-major rotation body -> odom, the angular velocity in odom (3)) of the chassis state."""
    R0, R1, R2, R3, R4, R5, R6, R7, R8 = quat_to_matrix(chx[6], chx[7], chx[8], chx[9])
    wbx, wby, wbz = chx[10], chx[11], chx[12]
    return (R0, R1, R2, R3, R4, R5, R6, R7, R8, R0 * wbx + R1 * wby + R2 * wbz, R3 * wbx + R4 * wby + R5 * wbz,
            R6 * wbx + R7 * wby + R8 * wbz)


@njit
def kinematics(k, chx, sw, out):
    """The published kinematic state, into ``out``: base_footprint's position (odom) and velocity (body
    frame) from the chassis state; the chassis orientation and body rates; the wheels' spins and angles.

    One array for every per-step output, so that a vehicle's Python side converts one array (``O_*``).
    """
    R0, R1, R2, R3, R4, R5, R6, R7, R8 = quat_to_matrix(chx[6], chx[7], chx[8], chx[9])
    bx, by, bz = k[K_BF], k[K_BF + 1], k[K_BF + 2]
    out[O_POS] = chx[0] + R0 * bx + R1 * by + R2 * bz
    out[O_POS + 1] = chx[1] + R3 * bx + R4 * by + R5 * bz
    out[O_POS + 2] = chx[2] + R6 * bx + R7 * by + R8 * bz
    vx, vy, vz = chx[3], chx[4], chx[5]
    wx, wy, wz = chx[10], chx[11], chx[12]
    out[O_VB] = R0 * vx + R3 * vy + R6 * vz + wy * bz - wz * by
    out[O_VB + 1] = R1 * vx + R4 * vy + R7 * vz + wz * bx - wx * bz
    out[O_VB + 2] = R2 * vx + R5 * vy + R8 * vz + wx * by - wy * bx
    for i in range(4):
        out[O_Q + i] = chx[6 + i]
        out[O_OMEGA + i] = sw[SW_OMEGA + i]
        out[O_WHEEL_ANGLE + i] = sw[SW_ANGLE + i]
    for i in range(3):
        out[O_WB + i] = chx[10 + i]


@njit(inline=True)
def _wheel_in_air(k, sw, wd, wh, out, j, jj, tb, s_ext):
    """The start of wheel ``j``'s PrepareWheel: the driveline coefficients of a wheel off the ground (inertia
    ``jj`` [kg m^2] and brake ``tb`` [N m] only), no contact, no load, the probe extension ``s_ext`` [m]."""
    b = W_SIZE * j
    wh[WH_JDT][j] = jj / k[K_DT]
    wh[WH_W0][j] = sw[SW_OMEGA + j]
    wh[WH_FMAX_R][j] = 0.0
    wh[WH_A1][j] = 0.0
    wh[WH_A0][j] = 0.0
    wh[WH_TRES][j] = tb
    wh[WH_LK][j] = 0.0
    wh[WH_SPIN_RATE][j] = k[K_SPIN_RATE]
    wh[WH_TBRAKE][j] = tb
    wd[b + W_CONTACT] = 0.0
    wd[b + W_TB] = tb
    wd[b + W_TROLL] = 0.0
    wd[b + W_MR] = 0.0
    out[O_TB + j] = tb
    out[O_LOAD + j] = 0.0
    out[O_CONTACT + j] = 0.0
    out[O_EXT + j] = s_ext


@njit(inline=True)
def _heading_and_speeds(pose, vx0, vy0, vz0, rx, ry, rz, nx, ny, nz, angle):
    """The wheel's heading in the ground plane (odom, unit) at road-wheel angle ``angle`` [rad] and the speeds
    of its contact point (r from the centre of mass, odom [m]) along the normal n, the heading and to its left:
    (hx, hy, hz, v_n, v_x, v_y) [m/s]."""
    R0, R1, R2, R3, R4, R5, R6, R7, R8, wwx, wwy, wwz = pose
    vcx = vx0 + wwy * rz - wwz * ry
    vcy = vy0 + wwz * rx - wwx * rz
    vcz = vz0 + wwx * ry - wwy * rx
    ca, sa = math.cos(angle), math.sin(angle)
    f0x = R0 * ca + R1 * sa
    f0y = R3 * ca + R4 * sa
    f0z = R6 * ca + R7 * sa
    dn = f0x * nx + f0y * ny + f0z * nz
    hx, hy, hz = f0x - dn * nx, f0y - dn * ny, f0z - dn * nz
    hn = 1.0 / _sqrt(hx * hx + hy * hy + hz * hz)
    hx *= hn
    hy *= hn
    hz *= hn
    lx, ly, lz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx
    v_n = vcx * nx + vcy * ny + vcz * nz
    v_x = vcx * hx + vcy * hy + vcz * hz
    v_y = vcx * lx + vcy * ly + vcz * lz
    return hx, hy, hz, v_n, v_x, v_y


@njit(inline=True)
def _soil_tyre(k, j, sb, load_n, z_d):
    """soil.py :func:`~acres_dbw_sim.model.soil.tyre_on_soil` of wheel ``j`` at ``load_n`` [N] on the soil of
    the surface block ``sb`` of ``k``, slip sinkage ``z_d`` [m]: (z [m], F_max [N], l/K', f, F_mr [N], l_c [m])."""
    return tyre_on_soil(load_n, k[K_WIDTH + j], k[K_RADIUS + j], k[K_PG + j], k[K_KTYRE + j], k[sb + SF_N],
                        k[sb + SF_KC], k[sb + SF_KPHI], k[sb + SF_C], k[sb + SF_PHI], k[sb + SF_K], k[K_Z_MAX],
                        k[K_LUG_HEIGHT], k[K_TREAD_K], k[K_HYSTERESIS], k[K_SECTION + j], k[K_LUG_FACTOR], z_d)


@njit(inline=True)
def _load_and_sinkage(k, j, sb, on_soil, s_ext, v_n, z, z_d, cos_n):
    """Wheel ``j``'s load (suspension.py) at the probe extension ``s_ext`` [m] and compression speed ``v_n``
    [m/s]; on soil the load and the sinkage solved together (fixed point on z from the rut ``z`` [m],
    :func:`_soil_tyre`; ``cos_n`` the ray's cosine to the normal): (N [N], z [m], s_ext [m])."""
    datum = k[K_DATUM]
    x0s, xbs, kbs, a_max = k[K_DROOP], k[K_BUMP_START], k[K_BUMP_RATE], k[K_MAX_LOAD_FACTOR]
    n0 = k[K_N0 + j]
    nl = suspension_load_n(n0, k[K_RATE + j], k[K_DAMPER + j], datum - s_ext, v_n, x0s, xbs, kbs, a_max)
    if on_soil:
        for _ in range(2):
            z1 = _soil_tyre(k, j, sb, nl, z_d)[0]
            s_ext += (z1 - z) / cos_n
            z = z1
            nl = suspension_load_n(n0, k[K_RATE + j], k[K_DAMPER + j], datum - s_ext, v_n, x0s, xbs, kbs, a_max)
    return nl, z, s_ext


@njit(inline=True)
def _tyre_on_ground(k, sw, wd, wh, j, sb, on_soil, nl, v_x, z_d):
    """Wheel ``j``'s tyre on the ground at load ``nl`` [N]: force limit, slip law and rolling resistance.

    Writes the driveline coefficients F_max R_t, a1, a0 and l/K' (0 on hard ground) of ``wh``,
    the slip sinkage of the next step (soil.py slip_sinkage_m, from the slip of this step's
    start) and the soil's motion resistance; returns (mu = F_max / N [-], T_roll [N m]).
    """
    dt = k[K_DT]
    Rt = k[K_RADIUS + j]
    tau = carcass_damping_s(k[K_TAU_C], v_x, k[K_FADE_SPEED])
    if on_soil:
        # the last fixed-point pass was evaluated at this load's predecessor: re-evaluate at nl
        _z, f_max, lk, ff, f_mr, l_c = _soil_tyre(k, j, sb, nl, z_d)
        # the rut deepens with the slip of this step's start (soil.py slip_sinkage_m): next step's depth
        z_d_next = slip_sinkage_m(z_d, sw[SW_OMEGA + j] * Rt - v_x, v_x, l_c, k[sb + SF_DIG], dt, k[K_Z_MAX])
        a1, a0 = slip_coefficients(sw[SW_U + j], v_x, dt, Rt, k[K_SIGMA_X], tau, 1.0)
        mu = f_max / nl
    else:
        lk = f_mr = z_d_next = 0.0
        mu = k[sb + SF_MU]
        f_max = mu * nl
        a1, a0 = slip_coefficients(sw[SW_U + j], v_x, dt, Rt, k[K_SIGMA_X], tau, k[K_K_SLIP])
        ff = k[sb + SF_F]
    sw[SW_DIG + j] = z_d_next
    wh[WH_LK][j] = lk
    wd[W_SIZE * j + W_MR] = f_mr
    wh[WH_FMAX_R][j] = f_max * Rt
    wh[WH_A1][j] = a1
    wh[WH_A0][j] = a0
    return mu, rolling_torque_nm(ff, nl, Rt, k[K_ROLLING_MAX])


@njit(inline=True)
def prepare_wheels(k, td, chx, sw, wd, wh, out, j_front, j_rear, tb_front, tb_rear, brake_per_load):
    """Stage 4 (PrepareWheel) for the four wheels; returns True when all four touch the ground.

    Reads the road-wheel angles ``out[O_ANGLE..]`` that the vehicle's steering wrote;
    writes the driveline coefficients ``wh`` (driveline.py), the scratch ``wd``, the
    sinkages ``sw[SW_Z..]`` and the outputs (loads, contacts, contact points,
    extensions, brake torques, sinkages).

    Parameters
    ----------
    j_front, j_rear : float
        Inertia of a front and of a rear wheel with what turns with it [kg m^2].
    tb_front, tb_rear : float
        Fixed brake torque of a front and of a rear wheel [N m].
    brake_per_load : float
        Brake torque per load and radius [-] (:func:`load_brake_torque_nm`).

    Per wheel (polaris-ranger-dynamics.md "Physics Step", PrepareUtvWheel; maxxum-150-dynamics.md "The
    Physics Step" step 6): the ground probe along the body's down axis (terrain.py probe), :func:`_wheel_in_air`,
    :func:`_heading_and_speeds`, :func:`_load_and_sinkage`, :func:`_tyre_on_ground`.
    """
    pose = pose_and_rates(chx)
    R0, R1, R2, R3, R4, R5, R6, R7, R8, _wwx, _wwy, _wwz = pose
    px, py, pz = chx[0], chx[1], chx[2]
    vx0, vy0, vz0 = chx[3], chx[4], chx[5]
    dxr, dyr, dzr = -R2, -R5, -R8            # ray direction: body down axis
    n_iter = int(k[K_PROBE_ITERATIONS])
    ip = td[1]
    all_contact = True
    for j in range(4):
        Rt = k[K_RADIUS + j]
        mx, my, mz = k[K_MOUNT + 3 * j], k[K_MOUNT + 3 * j + 1], k[K_MOUNT + 3 * j + 2]
        pmx = px + R0 * mx + R1 * my + R2 * mz
        pmy = py + R3 * mx + R4 * my + R5 * mz
        pmz = pz + R6 * mx + R7 * my + R8 * mz
        t, nx, ny, nz, si = probe(td, pmx, pmy, pmz, dxr, dyr, dzr, n_iter)
        if ip[5 + j] >= 0:
            si = ip[5 + j]
        sb = K_SURF + SURF_SIZE * si
        on_soil = k[sb + SF_SOIL] != 0.0 and t < 1e8
        # the wheel rides at the bottom of its rut: z below the surface along the normal
        cos_n = -(nx * dxr + ny * dyr + nz * dzr)
        z = sw[SW_Z + j] if on_soil else 0.0
        t_rut = t + z / cos_n if on_soil else t
        s_ext = t_rut - Rt
        tb = load_brake_torque_nm(tb_front if j < 2 else tb_rear, brake_per_load, k[K_N0 + j], Rt)   # N_0 in the air
        _wheel_in_air(k, sw, wd, wh, out, j, j_front if j < 2 else j_rear, tb, s_ext)
        if s_ext > k[K_DATUM]:
            sw[SW_U + j] = sw[SW_Y + j] = sw[SW_Z + j] = sw[SW_DIG + j] = 0.0
            out[O_SINK + j] = 0.0
            all_contact = False
            continue
        rx = pmx + t_rut * dxr - px
        ry = pmy + t_rut * dyr - py
        rz = pmz + t_rut * dzr - pz
        hx, hy, hz, v_n, v_x, v_y = _heading_and_speeds(pose, vx0, vy0, vz0, rx, ry, rz, nx, ny, nz,
                                                        out[O_ANGLE + j])
        # suspension load; on soil the load and the sinkage are solved together (fixed point on z)
        z_d = sw[SW_DIG + j] if on_soil else 0.0
        nl, z, s_ext = _load_and_sinkage(k, j, sb, on_soil, s_ext, v_n, z, z_d, cos_n)
        if on_soil:
            sw[SW_Z + j] = z
            t_rut = t + z / cos_n
            rx = pmx + t_rut * dxr - px
            ry = pmy + t_rut * dyr - py
            rz = pmz + t_rut * dzr - pz
            out[O_EXT + j] = s_ext
        out[O_SINK + j] = z if on_soil else 0.0
        if nl < 1.0:
            sw[SW_U + j] = sw[SW_Y + j] = sw[SW_DIG + j] = 0.0
            all_contact = False
            continue
        b = W_SIZE * j
        if brake_per_load != 0.0:
            tb = load_brake_torque_nm(tb_front if j < 2 else tb_rear, brake_per_load, nl, Rt)
            wh[WH_TBRAKE][j] = tb
            wd[b + W_TB] = tb
            out[O_TB + j] = tb
        # tyre on the ground: force limit, slip law, rolling resistance
        mu, t_roll = _tyre_on_ground(k, sw, wd, wh, j, sb, on_soil, nl, v_x, z_d)
        wh[WH_TRES][j] = tb + t_roll
        out[O_LOAD + j] = nl
        out[O_CONTACT + j] = 1.0
        out[O_CP + 3 * j] = px + rx
        out[O_CP + 3 * j + 1] = py + ry
        out[O_CP + 3 * j + 2] = pz + rz
        wd[b + W_CONTACT] = 1.0
        wd[b + W_R], wd[b + W_R + 1], wd[b + W_R + 2] = rx, ry, rz
        wd[b + W_N], wd[b + W_N + 1], wd[b + W_N + 2] = nx, ny, nz
        wd[b + W_H], wd[b + W_H + 1], wd[b + W_H + 2] = hx, hy, hz
        wd[b + W_VX] = v_x
        wd[b + W_VY] = v_y
        wd[b + W_MU] = mu
        wd[b + W_KW] = water_drag_coefficient_kg_m(k[K_CD_WATER], k[K_WIDTH + j], Rt, k[sb + SF_WATER],
                                                   k[K_WATER_DENSITY])
        wd[b + W_TROLL] = t_roll
    return all_contact


@njit(inline=True)
def settle_powertrain(dt, s, i_we, i_heat, i_fuel, dres, led, out, c0, we0, w_free, j_e, ratio, in_gear, park,
                      fuel_on, t_e, t_fr, t_pu, u_fuel, eta_i, t_drag, t_acc, u, lhv, density, tank_l):
    """The engine after the driveline solve, its fuel and the powertrain side of the ledger; returns c_mean.

    Both pages' "Clutch and Engine": the engine speed at the end of the step
    ``omega_e = max(0, omega_free - dt T_c / J_e)``, the clutch heat ``max(0, T_c (omega_e - i c)) dt``;
    the fuel of the Willans line (energy.py ``fuel_power_w``) taken from the tank; the outputs of
    the powertrain; the ledger's fuel, engine loss (combustion, plus the engine drag ``t_drag``
    when the vehicle models it apart: the tractor), parasitic (``t_acc``), engine kinetic energy,
    clutch slip, driveline loss and, in PARK, the pawl's work. ``s[i_we]``, ``s[i_heat]`` and
    ``s[i_fuel]`` are the vehicle's engine speed [rad/s], clutch heat [J] and fuel [L]; ``c0`` the
    carrier speed at the start of the step [rad/s]. Units as in the callers (SI; fuel in L).
    """
    c1 = dres[D_CARRIER]
    t_c = dres[D_TC]
    t_sup = dres[D_TSUP]
    c_mean = 0.5 * (c0 + c1)
    we1 = w_free - dt * t_c / j_e
    if we1 < 0.0:
        we1 = 0.0
    heat = t_c * (we1 - ratio * c1)
    if heat > 0.0:
        s[i_heat] += heat * dt
    s[i_we] = we1
    we_mean = 0.5 * (we0 + we1)
    p_fuel, p_b = fuel_power_w(fuel_on, t_e, t_fr, t_pu, u_fuel, we_mean, eta_i)
    vol = p_fuel * dt / (lhv * density)
    if tank_l > 0.0:
        f = s[i_fuel] - vol
        s[i_fuel] = f if f > 0.0 else 0.0
    out[O_FUEL_RATE] = vol / dt * 3600.0
    out[O_TE] = t_e
    out[O_U] = u
    out[O_TC] = t_c
    out[O_CARRIER] = c1
    out[O_FRONT] = dres[D_DRIVEN]
    out[O_FRONT + 1] = dres[D_DRIVEN + 1]
    led[L_FUEL] += p_fuel * dt
    led[L_ENGINE_LOSS] += (p_fuel - p_b) * dt + t_drag * we_mean * dt
    led[L_PARASITIC] += t_acc * we_mean * dt
    led[L_ENGINE_KINETIC] += 0.5 * j_e * (we1 * we1 - we0 * we0)
    if in_gear:
        led[L_CLUTCH] += t_c * (we_mean - ratio * c_mean) * dt
        led[L_DRIVELINE] += (t_c * ratio - t_sup) * c_mean * dt
    elif park:
        led[L_BRAKE] -= t_sup * c_mean * dt
    return c_mean


@njit(inline=True)
def wheel_ledger(k, sw, wd, wh, dres, led, t_sup, c_mean):
    """The wheels' ledger terms of one step after the driveline solve (energy.py).

    Wheel kinetic energy, the brakes (the reaction of a brake that holds its wheel),
    the rolling resistance, and the coupling (carrier work ``t_sup c_mean dt`` minus
    the shaft work of the driven wheels: differential and front-axle engagement).
    ``t_sup`` is the torque delivered to the rear carrier [N m], ``c_mean`` the carrier's
    mean speed over the step [rad/s]; ``sw`` still holds the spins at the start of the step.
    """
    dt = k[K_DT]
    jdt = wh[WH_JDT]
    shaft_work = 0.0
    for j in range(4):
        w0 = sw[SW_OMEGA + j]
        w1 = dres[D_OMEGA + j]
        wm = 0.5 * (w0 + w1)
        jj = jdt[j] * dt
        led[L_WHEEL_KINETIC] += 0.5 * jj * (w1 * w1 - w0 * w0)
        b = W_SIZE * j
        if dres[D_HELD + j] != 0.0:
            led[L_BRAKE] += dres[D_TRES + j] * wm * dt        # the brake holds the wheel: its reaction
        else:
            th = spin_factor(w1, k[K_SPIN_RATE])
            led[L_BRAKE] += wd[b + W_TB] * th * wm * dt
            led[L_ROLLING] += wd[b + W_TROLL] * th * wm * dt
        if dres[D_DRIVEN + j] != 0.0:
            shaft_work += dres[D_SHAFT + j] * wm * dt
    led[L_COUPLING] += t_sup * c_mean * dt - shaft_work


@njit(inline=True)
def _add_force(acc, rx, ry, rz, fx, fy, fz):
    """The sums ``acc`` (force (3) [N], moment about the centre of mass (3) [N m], odom) plus the force
    (fx, fy, fz) [N] applied at (rx, ry, rz) [m] from the centre of mass."""
    fx_t, fy_t, fz_t, mx_t, my_t, mz_t = acc
    return (fx_t + fx, fy_t + fy, fz_t + fz, mx_t + (ry * fz - rz * fy), my_t + (rz * fx - rx * fz),
            mz_t + (rx * fy - ry * fx))


@njit(inline=True)
def _settle_wheels(k, sw, wd, wh, dres, out, fz0):
    """SettleWheels at the solved spins ``dres`` and the sums of the wheels' forces on the chassis.

    For each wheel: the wheel angle, the tread and lateral deflections (``sw``), the reported
    slip and the tyre forces (``out``, ``wd``), on soil the motion resistance with the
    reference's clamp. Each wheel in contact adds its force at its contact point (odom): the
    load along the normal, F_x less the motion resistance along the heading, F_y to its left,
    and water drag (maxxum-150-dynamics.md "Forces on the Chassis"). Returns the sums (force
    (3) [N], moment about the centre of mass (3) [N m], odom) starting from (0, 0, ``fz0``).
    """
    dt = k[K_DT]
    sig_x = k[K_SIGMA_X]
    sig_y = k[K_SIGMA_Y]
    k_s = k[K_K_SLIP]
    tau_c = k[K_TAU_C]
    c_al = k[K_C_ALPHA]
    acc = (0.0, 0.0, fz0, 0.0, 0.0, 0.0)
    for j in range(4):
        Rt = k[K_RADIUS + j]
        b = W_SIZE * j
        w1 = dres[D_OMEGA + j]
        sw[SW_ANGLE + j] += w1 * dt
        out[O_FX + j] = 0.0
        out[O_FY + j] = 0.0
        out[O_SLIP + j] = 0.0
        wd[b + W_MRC] = 0.0
        if wd[b + W_CONTACT] == 0.0:
            wd[b + W_FX] = wd[b + W_FY] = wd[b + W_LOAD] = 0.0
            continue
        nl = out[O_LOAD + j]
        v_x = wd[b + W_VX]
        v_y = wd[b + W_VY]
        mu = wd[b + W_MU]
        fxl = dres[D_FX + j]
        soil = wh[WH_LK][j] > 0.0
        # the slip state saturates the force (|k_s s| <= SATURATION on hard ground, |s| <= 1 on soil)
        s_lim = 1.0 if soil else SATURATION / k_s
        u_end = deflection_end_m(sw[SW_U + j], v_x, w1, dt, Rt, sig_x, s_lim)
        sw[SW_U + j] = u_end
        out[O_SLIP + j] = reported_slip(w1, v_x, Rt, k[K_SLIP_FLOOR])
        tau = carcass_damping_s(tau_c, v_x, k[K_FADE_SPEED])
        fyl, y_end = lateral_force_and_state(sw[SW_Y + j], v_x, v_y, dt, sig_y, tau, c_al, nl, mu, fxl)
        sw[SW_Y + j] = y_end
        out[O_FX + j] = fxl
        out[O_FY + j] = fyl
        # soil: the motion resistance acts on the chassis force of the wheel, with the reference's clamp
        mrc = 0.0
        if soil:
            mrc = motion_resistance_n(wd[b + W_MR], v_x, k[K_N0 + j], G_MPS2, dt, k[K_MR_SPEED])
        wd[b + W_MRC] = mrc
        fxc = fxl - mrc
        nx, ny, nz = wd[b + W_N], wd[b + W_N + 1], wd[b + W_N + 2]
        hx, hy, hz = wd[b + W_H], wd[b + W_H + 1], wd[b + W_H + 2]
        lx, ly, lz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx
        Fx = nl * nx + fxc * hx + fyl * lx
        Fy = nl * ny + fxc * hy + fyl * ly
        Fz = nl * nz + fxc * hz + fyl * lz
        kw = wd[b + W_KW]
        if kw > 0.0:
            wfx, wfy, wfz = water_drag_n(kw, v_x * hx + v_y * lx, v_x * hy + v_y * ly, v_x * hz + v_y * lz)
            Fx += wfx
            Fy += wfy
            Fz += wfz
        else:
            wfx = wfy = wfz = 0.0
        wd[b + W_FX], wd[b + W_FY], wd[b + W_LOAD] = fxl, fyl, nl
        wd[b + W_WATER], wd[b + W_WATER + 1], wd[b + W_WATER + 2] = wfx, wfy, wfz
        acc = _add_force(acc, wd[b + W_R], wd[b + W_R + 1], wd[b + W_R + 2], Fx, Fy, Fz)
    return acc


@njit(inline=True)
def _body_box_forces(k, td, chx, box, pose, acc):
    """The body box against the ground (a wheel has lost contact: roll-over, fall); returns (acc, corners touching).

    Each corner below the ground adds its contact force (chassis.py
    :func:`~acres_dbw_sim.model.chassis.box_contact_force_n`, the touching corners sharing
    the stop) to the sums ``acc`` (:func:`_add_force`); ``box`` receives each touching
    corner's point from the centre of mass and its force (odom [m], [N]).
    """
    dt = k[K_DT]
    m = k[K_MASS]
    R0, R1, R2, R3, R4, R5, R6, R7, R8, wwx, wwy, wwz = pose
    px, py, pz = chx[0], chx[1], chx[2]
    vx0, vy0, vz0 = chx[3], chx[4], chx[5]
    inv_i = k[K_INERTIA_INV:K_INERTIA_INV + 9]
    n_touch = 0
    for c in range(8):
        bx_, by_, bz_ = k[K_BOX + 3 * c], k[K_BOX + 3 * c + 1], k[K_BOX + 3 * c + 2]
        rx = R0 * bx_ + R1 * by_ + R2 * bz_
        ry = R3 * bx_ + R4 * by_ + R5 * bz_
        rz = R6 * bx_ + R7 * by_ + R8 * bz_
        zg, nx, ny, nz, _ = query(td, px + rx, py + ry)
        depth = (zg - pz - rz) * nz
        box[6 * c] = depth
        if depth > 0.0:
            n_touch += 1
    share = 1.0 / n_touch if n_touch > 0 else 1.0
    nbox = 0
    for c in range(8):
        depth = box[6 * c]
        if depth <= 0.0:
            continue
        bx_, by_, bz_ = k[K_BOX + 3 * c], k[K_BOX + 3 * c + 1], k[K_BOX + 3 * c + 2]
        rx = R0 * bx_ + R1 * by_ + R2 * bz_
        ry = R3 * bx_ + R4 * by_ + R5 * bz_
        rz = R6 * bx_ + R7 * by_ + R8 * bz_
        zg, nx, ny, nz, _ = query(td, px + rx, py + ry)
        vcx = vx0 + wwy * rz - wwz * ry
        vcy = vy0 + wwz * rx - wwx * rz
        vcz = vz0 + wwx * ry - wwy * rx
        v_n = vcx * nx + vcy * ny + vcz * nz
        tx, ty_, tz = vcx - v_n * nx, vcy - v_n * ny, vcz - v_n * nz
        vt = _sqrt(tx * tx + ty_ * ty_ + tz * tz)
        m_n = effective_mass_kg(m, inv_i, R0, R1, R2, R3, R4, R5, R6, R7, R8, rx, ry, rz, nx, ny, nz)
        m_t = m_n
        if vt > 0.0:
            m_t = effective_mass_kg(m, inv_i, R0, R1, R2, R3, R4, R5, R6, R7, R8, rx, ry, rz, tx / vt, ty_ / vt,
                                    tz / vt)
        Fx, Fy, Fz = box_contact_force_n(depth, v_n, tx, ty_, tz, nx, ny, nz, m_n, m_t, share, dt,
                                         k[K_BOX_STIFFNESS], k[K_BOX_DAMPING], k[K_BOX_FRICTION])
        acc = _add_force(acc, rx, ry, rz, Fx, Fy, Fz)
        bb = 6 * nbox
        box[bb], box[bb + 1], box[bb + 2], box[bb + 3], box[bb + 4], box[bb + 5] = rx, ry, rz, Fx, Fy, Fz
        nbox += 1
    return acc, nbox


@njit(inline=True)
def _chassis_ledger(k, sw, wd, box, nbox, dres, led, vm, wm, fa, ext):
    """The contacts' and the air's terms of the ledger (energy.py) at the chassis' mean velocity of the step.

    ``vm`` and ``wm`` are the mean velocity of the centre of mass and the mean angular velocity
    (odom) [m/s], [rad/s]; ``fa`` the air drag [N]; ``nbox`` corners of ``box`` touched. Each
    contact's power is taken at its point: suspension, tyre slip (``sw`` still holds the spins
    at the start of the step), water, soil, body box, the implement's work, air drag.
    """
    dt = k[K_DT]
    vmx, vmy, vmz = vm
    wmx, wmy, wmz = wm
    susp = slip = water = soil_w = 0.0
    for j in range(4):
        Rt = k[K_RADIUS + j]
        b = W_SIZE * j
        if wd[b + W_CONTACT] == 0.0:
            continue
        rx, ry, rz = wd[b + W_R], wd[b + W_R + 1], wd[b + W_R + 2]
        cvx = vmx + wmy * rz - wmz * ry
        cvy = vmy + wmz * rx - wmx * rz
        cvz = vmz + wmx * ry - wmy * rx
        nx, ny, nz = wd[b + W_N], wd[b + W_N + 1], wd[b + W_N + 2]
        hx, hy, hz = wd[b + W_H], wd[b + W_H + 1], wd[b + W_H + 2]
        lx, ly, lz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx
        fxl, fyl, nl = wd[b + W_FX], wd[b + W_FY], wd[b + W_LOAD]
        susp -= nl * (cvx * nx + cvy * ny + cvz * nz)
        wm_j = 0.5 * (sw[SW_OMEGA + j] + dres[D_OMEGA + j])
        v_h = cvx * hx + cvy * hy + cvz * hz
        slip += fxl * (Rt * wm_j - v_h) - fyl * (cvx * lx + cvy * ly + cvz * lz)
        soil_w += wd[b + W_MRC] * v_h
        water -= wd[b + W_WATER] * cvx + wd[b + W_WATER + 1] * cvy + wd[b + W_WATER + 2] * cvz
    body = 0.0
    for c in range(nbox):
        bb = 6 * c
        rx, ry, rz, Fx, Fy, Fz = box[bb], box[bb + 1], box[bb + 2], box[bb + 3], box[bb + 4], box[bb + 5]
        cvx = vmx + wmy * rz - wmz * ry
        cvy = vmy + wmz * rx - wmx * rz
        cvz = vmz + wmx * ry - wmy * rx
        body -= Fx * cvx + Fy * cvy + Fz * cvz
    erx, ery, erz, efx, efy, efz = ext[0], ext[1], ext[2], ext[3], ext[4], ext[5]
    if efx != 0.0 or efy != 0.0 or efz != 0.0:
        cvx = vmx + wmy * erz - wmz * ery
        cvy = vmy + wmz * erx - wmx * erz
        cvz = vmz + wmx * ery - wmy * erx
        led[L_IMPLEMENT] -= (efx * cvx + efy * cvy + efz * cvz) * dt
    fax, fay, faz = fa
    led[L_BODY_CONTACT] += body * dt
    led[L_SUSPENSION] += susp * dt
    led[L_TYRE_SLIP] += slip * dt
    led[L_WATER] += water * dt
    led[L_SOIL] += soil_w * dt
    led[L_AERO] -= (fax * vmx + fay * vmy + faz * vmz) * dt


@njit(inline=True)
def _specific_force(k, chx, v0, wb0, out):
    """The specific force at base_footprint over the step (body frame, gravity included) [m/s^2] into ``out``.

    ``v0`` is the velocity of the centre of mass (odom) [m/s] and ``wb0`` the body rates [rad/s]
    at the start of the step; ``chx`` holds the chassis state at its end.
    """
    dt = k[K_DT]
    vx0, vy0, vz0 = v0
    wbx, wby, wbz = wb0
    vx1, vy1, vz1 = chx[3], chx[4], chx[5]
    Q0, Q1, Q2, Q3, Q4, Q5, Q6, Q7, Q8 = quat_to_matrix(chx[6], chx[7], chx[8], chx[9])
    ax, ay_, az = (vx1 - vx0) / dt, (vy1 - vy0) / dt, (vz1 - vz0) / dt + G_MPS2
    abx = Q0 * ax + Q3 * ay_ + Q6 * az
    aby = Q1 * ax + Q4 * ay_ + Q7 * az
    abz = Q2 * ax + Q5 * ay_ + Q8 * az
    w1x, w1y, w1z = chx[10], chx[11], chx[12]
    alx, aly, alz = (w1x - wbx) / dt, (w1y - wby) / dt, (w1z - wbz) / dt
    bx, by, bz = k[K_BF], k[K_BF + 1], k[K_BF + 2]
    cx_ = w1y * bz - w1z * by
    cy_ = w1z * bx - w1x * bz
    cz_ = w1x * by - w1y * bx
    out[O_SF] = abx + aly * bz - alz * by + w1y * cz_ - w1z * cy_
    out[O_SF + 1] = aby + alz * bx - alx * bz + w1z * cx_ - w1x * cz_
    out[O_SF + 2] = abz + alx * by - aly * bx + w1x * cy_ - w1y * cx_


@njit(inline=True)
def chassis_stage(k, td, chx, sw, wd, box, wh, dres, led, out, all_contact, ext):
    """Stage 6: settle the wheels, sum the forces on the chassis, integrate it, and its side of the ledger.

    SettleWheels (the wheel angles, the tread and lateral deflections, the reported slip,
    the tyre forces) at the solved spins ``dres``, then each wheel's contact force (load
    along the normal, F_x less the soil's motion resistance along the heading, F_y to its
    left, water drag), the body box against the ground when a wheel has lost contact,
    air drag at the centre of mass, the external force ``ext`` (an implement: the point
    relative to the centre of mass and the force, odom [m], [N]; zeros for none), and
    gravity into :func:`~acres_dbw_sim.model.chassis.integrate`. Finally the spins are
    stored in ``sw`` and the specific force and base_footprint's pose written to ``out``.
    ``all_contact`` is :func:`prepare_wheels`' result.

    The sums follow maxxum-150-dynamics.md "Forces on the Chassis" (polaris-ranger-dynamics.md
    "Physics Step": the caller applies the wheels' forces to the chassis); frames as in the
    module docstring (odom for the sums, body frame for the moment the integration takes).
    Steps: :func:`_settle_wheels`, :func:`_body_box_forces`, :func:`_chassis_ledger`,
    :func:`_specific_force`.
    """
    dt = k[K_DT]
    m = k[K_MASS]
    pose = pose_and_rates(chx)
    R0, R1, R2, R3, R4, R5, R6, R7, R8, _wwx, _wwy, _wwz = pose
    vx0, vy0, vz0 = chx[3], chx[4], chx[5]
    wb0 = (chx[10], chx[11], chx[12])
    # gravity, then SettleWheels and each wheel's force at its contact point
    acc = _settle_wheels(k, sw, wd, wh, dres, out, -m * G_MPS2)
    # body box against the ground (only when a wheel has lost contact: roll-over, fall)
    nbox = 0
    if not all_contact:
        acc, nbox = _body_box_forces(k, td, chx, box, pose, acc)
    # aerodynamic drag at the centre of mass
    fax, fay, faz = aero_drag_n(vx0, vy0, vz0, k[K_AIR_DENSITY], k[K_DRAG_AREA])
    fx_t, fy_t, fz_t, mx_t, my_t, mz_t = acc
    acc = (fx_t + fax, fy_t + fay, fz_t + faz, mx_t, my_t, mz_t)
    # external force (an implement) at its point
    erx, ery, erz, efx, efy, efz = ext[0], ext[1], ext[2], ext[3], ext[4], ext[5]
    if efx != 0.0 or efy != 0.0 or efz != 0.0:
        acc = _add_force(acc, erx, ery, erz, efx, efy, efz)
    fx_t, fy_t, fz_t, mx_t, my_t, mz_t = acc
    mbx = R0 * mx_t + R3 * my_t + R6 * mz_t
    mby = R1 * mx_t + R4 * my_t + R7 * mz_t
    mbz = R2 * mx_t + R5 * my_t + R8 * mz_t
    inertia = k[K_INERTIA:K_INERTIA + 9]
    ke0 = kinetic_energy_j(chx, inertia, m)
    z0 = chx[2]
    damp_loss, wmb0, wmb1, wmb2 = integrate(chx, inertia, k[K_INERTIA_INV:K_INERTIA_INV + 9], m,
                                            k[K_ANGULAR_DAMPING], fx_t, fy_t, fz_t, mbx, mby, mbz, dt)
    ke1 = kinetic_energy_j(chx, inertia, m)
    vx1, vy1, vz1 = chx[3], chx[4], chx[5]
    # ledger: chassis side (mean velocities of the step, see energy.py)
    vm = (0.5 * (vx0 + vx1), 0.5 * (vy0 + vy1), 0.5 * (vz0 + vz1))
    wm = (R0 * wmb0 + R1 * wmb1 + R2 * wmb2, R3 * wmb0 + R4 * wmb1 + R5 * wmb2, R6 * wmb0 + R7 * wmb1 + R8 * wmb2)
    _chassis_ledger(k, sw, wd, box, nbox, dres, led, vm, wm, (fax, fay, faz), ext)
    led[L_ANGULAR_DAMPING] += damp_loss
    led[L_CHASSIS_KINETIC] += ke1 - ke0
    led[L_POTENTIAL] += m * G_MPS2 * (chx[2] - z0)
    # outputs: wheel spins, specific force at base_footprint (body frame, gravity included)
    for j in range(4):
        sw[SW_OMEGA + j] = dres[D_OMEGA + j]
    _specific_force(k, chx, (vx0, vy0, vz0), wb0, out)
    kinematics(k, chx, sw, out)


# ------------------------------------------------------------------ placement at a reset (Python)
def static_sinkage_m(k, terrain, surfaces, surface_index, x_m: float, y_m: float, forward: tuple, left: tuple,
                     mounts_rel: tuple, bf_rel: tuple) -> tuple:
    """Sinkage [m] of each wheel at its static load on the surface below it (0 on hard ground).

    For a vehicle with base_footprint at (x, y) [m] and the given forward and left unit
    axes (odom); ``mounts_rel`` and ``bf_rel`` are the wheel mounts and base_footprint
    relative to the centre of mass (body frame) [m]; ``surfaces`` is the surface table and
    ``surface_index(name)`` its index of a surface name (a wheel pinned to a surface).
    The sinkage is soil.py's :func:`~acres_dbw_sim.model.soil.tyre_on_soil` with the
    wheel's constants in ``k``.
    """
    out = []
    for j in range(4):
        mx, my = mounts_rel[j][0] - bf_rel[0], mounts_rel[j][1] - bf_rel[1]
        wx = x_m + forward[0] * mx + left[0] * my
        wy = y_m + forward[1] * mx + left[1] * my
        si = terrain.height_normal_surface(wx, wy)[4]
        pinned = terrain.wheel_surfaces[j]
        sf = surfaces[surface_index(pinned)] if pinned is not None else surfaces[si]
        so = sf.soil
        if so is None:
            out.append(0.0)
            continue
        z = tyre_on_soil(float(k[K_N0 + j]), float(k[K_WIDTH + j]), float(k[K_RADIUS + j]), k[K_PG + j],
                         k[K_KTYRE + j], so.n, so.k_c, so.k_phi, so.cohesion_pa, so.friction_angle_rad,
                         so.shear_modulus_m, float(k[K_Z_MAX]), float(k[K_LUG_HEIGHT]), float(k[K_TREAD_K]),
                         float(k[K_HYSTERESIS]), float(k[K_SECTION + j]), float(k[K_LUG_FACTOR]), 0.0)[0]
        out.append(float(z))
    return tuple(out)


def place_on_ground(chassis, k, terrain, surfaces, surface_index, x_m: float, y_m: float, yaw_rad: float,
                    speed_mps: float, mounts_rel: tuple, bf_rel: tuple) -> tuple:
    """Place a chassis at a reset ("Reset State" of both pages); returns each wheel's static sinkage [m].

    base_footprint on the ground at (x, y) [m] (odom) with the body z axis on the ground
    normal and the heading ``yaw_rad``; the body at ``speed_mps`` along its heading, no
    rotation. On soil each wheel starts in the rut of its static load and the body sits
    lower by their mean (:func:`static_sinkage_m`).
    """
    z, nx, ny, nz, _ = terrain.height_normal_surface(x_m, y_m)
    hx, hy, hz = math.cos(yaw_rad), math.sin(yaw_rad), 0.0
    d = hx * nx + hy * ny + hz * nz
    fx, fy, fz = hx - d * nx, hy - d * ny, hz - d * nz
    fn = _sqrt(fx * fx + fy * fy + fz * fz)
    fx, fy, fz = fx / fn, fy / fn, fz / fn
    lx, ly, lz = ny * fz - nz * fy, nz * fx - nx * fz, nx * fy - ny * fx
    rot = ((fx, lx, nx), (fy, ly, ny), (fz, lz, nz))
    chassis.set_quaternion(transforms3d.quaternions.mat2quat(np.array(rot)))
    cg = (-bf_rel[0], -bf_rel[1], -bf_rel[2])
    sink = static_sinkage_m(k, terrain, surfaces, surface_index, x_m, y_m, (fx, fy, fz), (lx, ly, lz), mounts_rel,
                            bf_rel)
    zs = -0.25 * sum(sink)
    chassis.p = [x_m + fx * cg[0] + lx * cg[1] + nx * (cg[2] + zs), y_m + fy * cg[0] + ly * cg[1] + ny * (cg[2] + zs),
                 z + fz * cg[0] + lz * cg[1] + nz * (cg[2] + zs)]
    v0 = float(speed_mps)
    chassis.v = [v0 * fx, v0 * fy, v0 * fz]
    chassis.w = [0.0, 0.0, 0.0]
    return sink
