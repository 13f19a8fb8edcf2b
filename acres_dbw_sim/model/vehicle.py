"""The Polaris vehicle: one physics step in the reference's order.

Physics Step (polaris-ranger-dynamics.md):

1. gear lever (shift rule of the DBW gear actuator, applied here to the request),
2. steering (road-wheel angles),
3. powertrain (engine, CVT, clutch capacities),
4. wheels (ground probe, load, brake, tyre coefficients) for I = 0..3,
5. driveline solve (wheel spins, engine speed, fuel, ledger),
6. chassis (forces of the wheels, drag, gravity; 6-DOF integration).

Frames: body x forward, y left, z up; ``base_footprint`` is the ground point
below the rear-axle centre at rest; world frame ``odom`` (ENU). Wheels 0 FL,
1 FR, 2 RL, 3 RR. SI units; the steering wheel in degrees and the brake line
pressure in bar as on the DBW interface.

Stages 1 (the lever, a Python object) and the input checks run in
:meth:`Vehicle.step`; stages 2 to 6 are one kernel, :func:`physics_step`,
compiled by numba when present (_jit.py), which calls each section's
functions (steering.py, engine.py, cvt.py, gearbox.py, brakes.py,
terrain.py, suspension.py, tyre.py, soil.py, resistances.py, driveline.py,
chassis.py, energy.py) in this order over
flat arrays: the constants ``k`` (indices ``K_*``), the state ``s``
(``S_*``) and the chassis state (chassis.py), scratch, the ledger terms
(energy.py ``L_*``) and the outputs ``out`` (``O_*``) that :meth:`Vehicle.step`
publishes as the attributes below.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import transforms3d

from . import cvt as _cvt
from . import engine as _eng
from ._jit import JIT, array, njit, to_list
from .brakes import brake_torques_nm
from .chassis import Chassis, box_contact_force_n, effective_mass_kg, integrate, kinetic_energy_j, quat_to_matrix
from .driveline import (D_CARRIER, D_DRIVEN, D_FX, D_HELD, D_OMEGA, D_SHAFT, D_TC, D_TRES, D_TSUP, FRONT_FREE,
                        FRONT_LOCKED, FRONT_OVERRUN, WH_A0, WH_A1, WH_FMAX_R, WH_JDT, WH_LK,
                        WH_SPIN_RATE, WH_TBRAKE, WH_TRES, WH_W0, DrivelineSolver, solve_driveline)
from .energy import (L_AERO, L_ANGULAR_DAMPING, L_BODY_CONTACT, L_BRAKE, L_CHASSIS_KINETIC, L_CLUTCH, L_COUPLING,
                     L_DRIVELINE, L_ENGINE_KINETIC, L_ENGINE_LOSS, L_FUEL, L_PARASITIC, L_POTENTIAL, L_ROLLING,
                     L_SOIL, L_SUSPENSION, L_TYRE_SLIP, L_WATER, L_WHEEL_KINETIC, LEDGER_TERMS, EnergyLedger,
                     fuel_power_w)
from .enums import DriveMode, Gear, GearReject
from .gearbox import GearLever, gear_table, two_way_lock
from .mass import G_MPS2
from .params import VehicleParameters, load_parameters
from .resistances import aero_drag_n, rolling_torque_nm, spin_factor, water_drag_coefficient_kg_m, water_drag_n
from .soil import motion_resistance_n, tyre_on_soil
from .steering import ackermann_rad, bicycle_angle_rad, rack_limited_deg, steering_wheel_for_curvature_deg
from .suspension import corner_springs, suspension_load_n, tyre_membrane_rate_n_m
from .terrain import FlatTerrain, Terrain, probe, query
from .tyre import (SATURATION, carcass_damping_s, deflection_end_m, lateral_force_and_state, reported_slip,
                   slip_coefficients)

__all__ = ["VehicleInputs", "Vehicle"]

_RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)

_sqrt = math.sqrt

# ------------------------------------------------------------------ kernel layout
# Constants k: scalars (name, unit), then per-wheel, per-corner and per-surface blocks.
_K_NAMES = (
    "dt",                # physics step [s]
    "radius",            # unloaded tyre radius R_t [m]
    "rack_stop_deg",     # rack stop from straight ahead, steering-wheel [deg]
    "steer_ratio",       # i_s [-]
    "steer_center_deg",  # theta_c [deg]
    "wheelbase",         # L [m]
    "track_front",       # b_f [m]
    "idle_rad_s",        # omega_idle [rad/s]
    "idle_gain",         # k_idle [-]
    "t_wot_idle",        # full-load torque at idle [N m]
    "t_fr_idle",         # friction torque at idle [N m]
    "t_acc",             # accessory drag [N m]
    "max_speed",         # v_max [m/s]
    "pedal_exponent",    # gamma [-]
    "torque_lag",        # tau_e [s]
    "j_engine",          # J_e [kg m^2]
    "eta_indicated",     # eta_i [-]
    "engage_rad_s",      # omega_eng [rad/s]
    "full_engage_rad_s",  # omega_full [rad/s]
    "clutch_cap",        # C_max [N m]
    "ebs_cap",           # C_ebs [N m]
    "ebs_on",            # 1.0 with EBS
    "shift_rpm_light",   # n_light [rev/min]
    "shift_rpm_full",    # n_full [rev/min]
    "r_high",            # r_high [-]
    "r_low",             # r_low [-]
    "shift_tau",         # tau_cvt [s]
    "eta",               # eta of belt and gears [-]
    "adc",               # 1.0 with ADC
    "j_secondary",       # J_s [kg m^2]
    "tank_l",            # tank [L]
    "lhv",               # H_u [J/kg]
    "fuel_density",      # rho_f [kg/L]
    "p_bias",            # P_bias [bar]
    "p_max",             # P_max [bar]
    "gain_front",        # G_f [N m/bar]
    "gain_rear",         # G_r [N m/bar]
    "datum",             # compression datum (no contact above this extension) [m]
    "droop",             # x_0 [m]
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
    "j_wheel",           # J_w [kg m^2]
    "air_density",       # rho [kg/m^3]
    "drag_area",         # C_d A [m^2]
    "park_hold",         # T_park [N m]
    "spin_rate",         # 1 / omega_s of the resistances' tanh [s/rad]
    "cd_water",          # C_d,w [-]
    "probe_iterations",  # re-linearisations of the ground probe on a height map [-]
    "box_stiffness",     # body-box contact stiffness [N/m]
    "box_damping",       # body-box contact damping [N s/m]
    "box_friction",      # body-box friction [-]
    "z_max",             # sinkage limit [m]
    "mr_speed",          # speed scale of the soil's motion resistance tanh [m/s]
    "hysteresis",        # h_y [-]
    "section_height",    # h_s [m]
    "lug_height",        # h [m]
    "tread_k",           # tread shear compliance added to K [m]
    "n_surfaces",        # number of surfaces [-]
)
(K_DT, K_RADIUS, K_RACK_STOP_DEG, K_STEER_RATIO, K_STEER_CENTER_DEG, K_WHEELBASE, K_TRACK_FRONT,
 K_IDLE_RAD_S, K_IDLE_GAIN, K_T_WOT_IDLE, K_T_FR_IDLE, K_T_ACC, K_MAX_SPEED, K_PEDAL_EXPONENT,
 K_TORQUE_LAG, K_J_ENGINE, K_ETA_INDICATED, K_ENGAGE_RAD_S, K_FULL_ENGAGE_RAD_S, K_CLUTCH_CAP,
 K_EBS_CAP, K_EBS_ON, K_SHIFT_RPM_LIGHT, K_SHIFT_RPM_FULL, K_R_HIGH, K_R_LOW, K_SHIFT_TAU, K_ETA,
 K_ADC, K_J_SECONDARY, K_TANK_L, K_LHV, K_FUEL_DENSITY, K_P_BIAS, K_P_MAX, K_GAIN_FRONT,
 K_GAIN_REAR, K_DATUM, K_DROOP, K_BUMP_START, K_BUMP_RATE, K_MASS, K_ANGULAR_DAMPING, K_SIGMA_X,
 K_TAU_C, K_FADE_SPEED, K_K_SLIP, K_SLIP_FLOOR, K_SIGMA_Y, K_C_ALPHA, K_J_WHEEL, K_AIR_DENSITY, K_DRAG_AREA,
 K_PARK_HOLD, K_SPIN_RATE, K_CD_WATER, K_PROBE_ITERATIONS, K_BOX_STIFFNESS, K_BOX_DAMPING, K_BOX_FRICTION,
 K_Z_MAX, K_MR_SPEED, K_HYSTERESIS, K_SECTION_HEIGHT, K_LUG_HEIGHT, K_TREAD_K,
 K_N_SURFACES) = range(len(_K_NAMES))
K_MOUNT = len(_K_NAMES)            # 4 x (x, y, z): wheel mounts relative to the centre of mass, body frame [m]
K_RATE = K_MOUNT + 12              # 4 corner rates k_j [N/m]
K_DAMPER = K_RATE + 4              # 4 dampers c_j [N s/m]
K_N0 = K_DAMPER + 4                # 4 static loads N_0j [N]
K_WIDTH = K_N0 + 4                 # 4 tyre widths b_j [m]
K_PG = K_WIDTH + 4                 # 4 ground pressures p_i + p_c [Pa]
K_KTYRE = K_PG + 4                 # 4 membrane rates k_tyre [N/m]
K_BF = K_KTYRE + 4                 # base_footprint relative to the centre of mass (3) [m]
K_INERTIA = K_BF + 3               # inertia tensor, row-major (9) [kg m^2]
K_INERTIA_INV = K_INERTIA + 9      # its inverse (9) [1/(kg m^2)]
K_BOX = K_INERTIA_INV + 9          # 8 x (x, y, z): corners of the body box relative to the centre of mass [m]
K_SURF = K_BOX + 24                # per surface, SURF_SIZE values (SF_*)
# Per surface: friction mu [-], rolling coefficient f [-], water depth h_w [m], 1.0 on soil, then the soil
# class: Bekker n [-], k_c [N/m^(n+1)], k_phi [N/m^(n+2)], cohesion c [Pa], friction angle phi [rad], K [m].
SF_MU, SF_F, SF_WATER, SF_SOIL, SF_N, SF_KC, SF_KPHI, SF_C, SF_PHI, SF_K = range(10)
SURF_SIZE = 10
# State s (the chassis state is Chassis.x).
S_WE = 0                           # engine speed omega_e [rad/s]
S_UREQ = 1                         # torque request u [-]
S_R = 2                            # belt ratio r [-]
S_TC_PREV = 3                      # clutch torque of the previous step [N m]
S_FUEL = 4                         # fuel in the tank [L]
S_HEAT = 5                         # clutch slip heat [J]
S_OMEGA = 6                        # 4 wheel spins [rad/s]
S_ANGLE = S_OMEGA + 4              # 4 wheel angles [rad]
S_U = S_ANGLE + 4                  # 4 longitudinal tread deflections [m]
S_Y = S_U + 4                      # 4 lateral deflections [m]
S_Z = S_Y + 4                      # 4 sinkages (depth of the rut below the surface) [m]
N_STATE = S_Z + 4
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
N_OUT = O_SINK + 4
_AWD = int(DriveMode.AWD)
_TURF = int(DriveMode.TURF)


@njit
def kinematics(k, chx, out):
    """Position and velocity of base_footprint (odom; body frame) from the chassis state, into ``out``."""
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


@njit
def powertrain(k, curves, s, pedal, d_dir, i_r):
    """Stage 3, StepUtvPowertrain: engine torque, free engine speed, clutch capacities, belt ratio.

    Updates the torque request and the belt ratio in ``s``; returns (T_e, u, fuel on, T_fr, T_pu,
    omega_free, C_fwd, C_rev, R = d r i_r).
    """
    dt = k[K_DT]
    Rt = k[K_RADIUS]
    in_gear = d_dir != 0
    om = s[S_OMEGA:S_OMEGA + 4]
    we0 = s[S_WE]
    n_rpm = we0 * _RAD_S_TO_RPM
    t_wot = _eng.full_load_torque_nm(n_rpm, curves)
    t_fr = _eng.friction_torque_nm(n_rpm, curves)
    t_pu = curves[7]
    t_acc = k[K_T_ACC]
    idle = k[K_IDLE_RAD_S]
    v_r = abs(0.5 * (om[2] + om[3])) * Rt
    g_v = _eng.speed_governor(k[K_MAX_SPEED], v_r)
    u_idle = _eng.idle_request(we0, idle, k[K_IDLE_GAIN], k[K_T_WOT_IDLE], k[K_T_FR_IDLE], t_pu, t_acc)
    empty = k[K_TANK_L] > 0.0 and s[S_FUEL] <= 0.0
    u_star = _eng.torque_target(pedal, k[K_PEDAL_EXPONENT], g_v, u_idle, empty)
    u = _eng.lag(s[S_UREQ], u_star, k[K_TORQUE_LAG], dt)
    s[S_UREQ] = u
    fuel_on = u > 0.0 and t_wot > 0.0 and not empty
    t_e = _eng.engine_torque_nm(u, fuel_on, t_wot, t_fr, t_pu)
    j_e = k[K_J_ENGINE]
    w_free = _eng.free_speed_rad_s(we0, t_e, t_acc, j_e, dt)
    cap = _cvt.clutch_capacity_nm(w_free, k[K_ENGAGE_RAD_S], k[K_FULL_ENGAGE_RAD_S], k[K_CLUTCH_CAP])
    cap_ebs = _cvt.ebs_capacity_nm(w_free, idle, k[K_ENGAGE_RAD_S], k[K_EBS_CAP], k[K_EBS_ON] != 0.0)
    if in_gear:
        cap_fwd = cap
        cap_rev = cap if cap > cap_ebs else cap_ebs
    else:
        cap_fwd = cap_rev = 0.0
    tc_prev = s[S_TC_PREV]
    n_s = _cvt.shift_speed_rpm(tc_prev, curves[8], k[K_SHIFT_RPM_LIGHT], k[K_SHIFT_RPM_FULL])
    w_s = abs(0.5 * (om[2] + om[3])) * i_r
    grips = in_gear and (cap > 0.0 or (cap_ebs > 0.0 and tc_prev < 0.0))
    r_star = _cvt.ratio_target(grips, n_s, w_s, k[K_R_HIGH], k[K_R_LOW])
    r = _eng.lag(s[S_R], r_star, k[K_SHIFT_TAU], dt)
    s[S_R] = r
    R_all = d_dir * r * i_r
    return t_e, u, fuel_on, t_fr, t_pu, w_free, cap_fwd, cap_rev, R_all


@njit
def physics_step(k, curves, td, chx, s, wd, box, wh, dres, led, out, pedal, brake_line_bar, steering_wheel_deg,
                 d_dir, i_r, ring_ratio, park, mode):
    """Stages 2 to 6 of the Physics Step (module docstring), in place on ``chx``, ``s``, ``led``, ``out``.

    ``pedal`` is already clamped to 0..1; ``d_dir``, ``i_r``, ``ring_ratio`` and
    ``park`` describe the lever position after stage 1; ``mode`` is the drive mode.
    """
    dt = k[K_DT]
    Rt = k[K_RADIUS]
    in_gear = d_dir != 0
    om = s[S_OMEGA:S_OMEGA + 4]   # spins at the start of the step (read only)

    # 2. Steering ------------------------------------------------------------------------
    sw = rack_limited_deg(steering_wheel_deg, k[K_STEER_CENTER_DEG], k[K_RACK_STOP_DEG])
    delta = bicycle_angle_rad(sw, k[K_STEER_RATIO], k[K_STEER_CENTER_DEG])
    dl, dr = ackermann_rad(delta, k[K_WHEELBASE], k[K_TRACK_FRONT])
    out[O_SW] = sw
    out[O_DELTA] = delta
    out[O_ANGLE] = dl
    out[O_ANGLE + 1] = dr
    out[O_ANGLE + 2] = 0.0
    out[O_ANGLE + 3] = 0.0

    # 3. Powertrain ----------------------------------------------------------------------
    t_e, u, fuel_on, t_fr, t_pu, w_free, cap_fwd, cap_rev, R_all = powertrain(k, curves, s, pedal, d_dir, i_r)
    we0 = s[S_WE]
    j_e = k[K_J_ENGINE]
    t_acc = k[K_T_ACC]

    # 4. Wheels --------------------------------------------------------------------------
    R0, R1, R2, R3, R4, R5, R6, R7, R8 = quat_to_matrix(chx[6], chx[7], chx[8], chx[9])
    px, py, pz = chx[0], chx[1], chx[2]
    vx0, vy0, vz0 = chx[3], chx[4], chx[5]
    wbx, wby, wbz = chx[10], chx[11], chx[12]
    wwx = R0 * wbx + R1 * wby + R2 * wbz
    wwy = R3 * wbx + R4 * wby + R5 * wbz
    wwz = R6 * wbx + R7 * wby + R8 * wbz
    dxr, dyr, dzr = -R2, -R5, -R8            # ray direction: body down axis
    n_iter = int(k[K_PROBE_ITERATIONS])
    datum = k[K_DATUM]
    x0s, xbs, kbs = k[K_DROOP], k[K_BUMP_START], k[K_BUMP_RATE]
    sig_x, tau_c, k_s, v_fade = k[K_SIGMA_X], k[K_TAU_C], k[K_K_SLIP], k[K_FADE_SPEED]
    tb_f, tb_r = brake_torques_nm(brake_line_bar, k[K_P_BIAS], k[K_P_MAX], k[K_GAIN_FRONT], k[K_GAIN_REAR])
    j_rear = k[K_J_WHEEL] + 0.5 * k[K_J_SECONDARY] * i_r * i_r
    jdt, w0s, fmr, a1s, a0s, tres, lks, wss, tbk = (wh[WH_JDT], wh[WH_W0], wh[WH_FMAX_R], wh[WH_A1], wh[WH_A0],
                                                    wh[WH_TRES], wh[WH_LK], wh[WH_SPIN_RATE], wh[WH_TBRAKE])
    z_max = k[K_Z_MAX]
    ip = td[1]
    all_contact = True
    for j in range(4):
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
        z = s[S_Z + j] if on_soil else 0.0
        t_rut = t + z / cos_n if on_soil else t
        s_ext = t_rut - Rt
        tb = tb_f if j < 2 else tb_r
        jj = k[K_J_WHEEL] if j < 2 else j_rear
        b = W_SIZE * j
        # driveline coefficients of a wheel off the ground: inertia and brake only
        jdt[j] = jj / dt
        w0s[j] = om[j]
        fmr[j] = 0.0
        a1s[j] = 0.0
        a0s[j] = 0.0
        tres[j] = tb
        lks[j] = 0.0
        wss[j] = k[K_SPIN_RATE]
        tbk[j] = tb
        wd[b + W_CONTACT] = 0.0
        wd[b + W_TB] = tb
        wd[b + W_TROLL] = 0.0
        wd[b + W_MR] = 0.0
        out[O_LOAD + j] = 0.0
        out[O_CONTACT + j] = 0.0
        out[O_EXT + j] = s_ext
        if s_ext > datum:
            s[S_U + j] = 0.0
            s[S_Y + j] = 0.0
            s[S_Z + j] = 0.0
            out[O_SINK + j] = 0.0
            all_contact = False
            continue
        rx = pmx + t_rut * dxr - px
        ry = pmy + t_rut * dyr - py
        rz = pmz + t_rut * dzr - pz
        vcx = vx0 + wwy * rz - wwz * ry
        vcy = vy0 + wwz * rx - wwx * rz
        vcz = vz0 + wwx * ry - wwy * rx
        a = out[O_ANGLE + j]
        ca, sa = math.cos(a), math.sin(a)
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
        # suspension load; on soil the load and the sinkage are solved together (fixed point on z)
        n0 = k[K_N0 + j]
        nl = suspension_load_n(n0, k[K_RATE + j], k[K_DAMPER + j], datum - s_ext, v_n, x0s, xbs, kbs)
        bw = k[K_WIDTH + j]
        if on_soil:
            for _ in range(2):
                z1, _f, _l, _r, _m = tyre_on_soil(
                    nl, bw, Rt, k[K_PG + j], k[K_KTYRE + j], k[sb + SF_N], k[sb + SF_KC], k[sb + SF_KPHI],
                    k[sb + SF_C], k[sb + SF_PHI], k[sb + SF_K], z_max, k[K_LUG_HEIGHT], k[K_TREAD_K],
                    k[K_HYSTERESIS], k[K_SECTION_HEIGHT])
                s_ext += (z1 - z) / cos_n
                z = z1
                nl = suspension_load_n(n0, k[K_RATE + j], k[K_DAMPER + j], datum - s_ext, v_n, x0s, xbs, kbs)
            s[S_Z + j] = z
            t_rut = t + z / cos_n
            rx = pmx + t_rut * dxr - px
            ry = pmy + t_rut * dyr - py
            rz = pmz + t_rut * dzr - pz
            out[O_EXT + j] = s_ext
        out[O_SINK + j] = z if on_soil else 0.0
        if nl < 1.0:
            s[S_U + j] = 0.0
            s[S_Y + j] = 0.0
            all_contact = False
            continue
        # tyre on the ground: force limit, slip law, rolling resistance
        tau = carcass_damping_s(tau_c, v_x, v_fade)
        if on_soil:
            # the last fixed-point pass was evaluated at this load's predecessor: re-evaluate at nl
            _z, f_max, lk, ff, f_mr = tyre_on_soil(
                nl, bw, Rt, k[K_PG + j], k[K_KTYRE + j], k[sb + SF_N], k[sb + SF_KC], k[sb + SF_KPHI],
                k[sb + SF_C], k[sb + SF_PHI], k[sb + SF_K], z_max, k[K_LUG_HEIGHT], k[K_TREAD_K],
                k[K_HYSTERESIS], k[K_SECTION_HEIGHT])
            lks[j] = lk
            a1, a0 = slip_coefficients(s[S_U + j], v_x, dt, Rt, sig_x, tau, 1.0)
            wd[b + W_MR] = f_mr
            mu = f_max / nl
        else:
            mu = k[sb + SF_MU]
            f_max = mu * nl
            a1, a0 = slip_coefficients(s[S_U + j], v_x, dt, Rt, sig_x, tau, k_s)
            ff = k[sb + SF_F]
        t_roll = rolling_torque_nm(ff, nl, Rt)
        fmr[j] = f_max * Rt
        a1s[j] = a1
        a0s[j] = a0
        tres[j] = tb + t_roll
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
        wd[b + W_KW] = water_drag_coefficient_kg_m(k[K_CD_WATER], bw, Rt, k[sb + SF_WATER])
        wd[b + W_TROLL] = t_roll
    out[O_TB] = out[O_TB + 1] = tb_f
    out[O_TB + 2] = out[O_TB + 3] = tb_r

    # 5. Driveline solve -----------------------------------------------------------------
    if mode == _AWD:
        front_mode = FRONT_LOCKED if two_way_lock(park, True, k[K_ADC] != 0.0, pedal) else FRONT_OVERRUN
    else:
        front_mode = FRONT_FREE
    open_rear = mode == _TURF
    eta = k[K_ETA]
    solve_driveline(wh, dres, dt, in_gear, park, open_rear, front_mode, ring_ratio, R_all, eta, j_e, w_free,
                    cap_fwd, cap_rev, k[K_PARK_HOLD], Rt)
    c1 = dres[D_CARRIER]
    t_c = dres[D_TC]
    t_sup = dres[D_TSUP]
    c0 = 0.5 * (om[2] + om[3])
    c_mean = 0.5 * (c0 + c1)
    we1 = w_free - dt * t_c / j_e
    if we1 < 0.0:
        we1 = 0.0
    heat = t_c * (we1 - R_all * c1)
    if heat > 0.0:
        s[S_HEAT] += heat * dt
    s[S_WE] = we1
    s[S_TC_PREV] = t_c
    we_mean = 0.5 * (we0 + we1)
    p_fuel, p_b = fuel_power_w(fuel_on, t_e, t_fr, t_pu, u, we_mean, k[K_ETA_INDICATED])
    vol = p_fuel * dt / (k[K_LHV] * k[K_FUEL_DENSITY])
    if k[K_TANK_L] > 0.0:
        f = s[S_FUEL] - vol
        s[S_FUEL] = f if f > 0.0 else 0.0
    out[O_FUEL_RATE] = vol / dt * 3600.0
    out[O_TE] = t_e
    out[O_U] = u
    out[O_TC] = t_c
    out[O_CARRIER] = c1
    out[O_FRONT] = dres[D_DRIVEN]
    out[O_FRONT + 1] = dres[D_DRIVEN + 1]

    # ledger: powertrain side
    led[L_FUEL] += p_fuel * dt
    led[L_ENGINE_LOSS] += (p_fuel - p_b) * dt
    led[L_PARASITIC] += t_acc * we_mean * dt
    led[L_ENGINE_KINETIC] += 0.5 * j_e * (we1 * we1 - we0 * we0)
    if in_gear:
        led[L_CLUTCH] += t_c * (we_mean - R_all * c_mean) * dt
        led[L_DRIVELINE] += (t_c * R_all - t_sup) * c_mean * dt
    elif park:
        led[L_BRAKE] -= t_sup * c_mean * dt
    shaft_work = 0.0
    for j in range(4):
        w0 = om[j]
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

    # 6. Chassis -------------------------------------------------------------------------
    m = k[K_MASS]
    fx_t, fy_t, fz_t = 0.0, 0.0, -m * G_MPS2
    mx_t, my_t, mz_t = 0.0, 0.0, 0.0
    sig_y = k[K_SIGMA_Y]
    k_s = k[K_K_SLIP]
    tau_c = k[K_TAU_C]
    c_al = k[K_C_ALPHA]
    for j in range(4):
        b = W_SIZE * j
        w1 = dres[D_OMEGA + j]
        s[S_ANGLE + j] += w1 * dt
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
        u_end = deflection_end_m(s[S_U + j], v_x, w1, dt, Rt, sig_x, s_lim)
        s[S_U + j] = u_end
        out[O_SLIP + j] = reported_slip(w1, v_x, Rt, k[K_SLIP_FLOOR])
        tau = carcass_damping_s(tau_c, v_x, k[K_FADE_SPEED])
        fyl, y_end = lateral_force_and_state(s[S_Y + j], v_x, v_y, dt, sig_y, tau, c_al, nl, mu, fxl)
        s[S_Y + j] = y_end
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
        rx, ry, rz = wd[b + W_R], wd[b + W_R + 1], wd[b + W_R + 2]
        fx_t += Fx
        fy_t += Fy
        fz_t += Fz
        mx_t += ry * Fz - rz * Fy
        my_t += rz * Fx - rx * Fz
        mz_t += rx * Fy - ry * Fx
    # body box against the ground (only when a wheel has lost contact: roll-over, fall)
    nbox = 0
    if not all_contact:
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
            fx_t += Fx
            fy_t += Fy
            fz_t += Fz
            mx_t += ry * Fz - rz * Fy
            my_t += rz * Fx - rx * Fz
            mz_t += rx * Fy - ry * Fx
            bb = 6 * nbox
            box[bb], box[bb + 1], box[bb + 2], box[bb + 3], box[bb + 4], box[bb + 5] = rx, ry, rz, Fx, Fy, Fz
            nbox += 1
    # aerodynamic drag at the centre of mass
    fax, fay, faz = aero_drag_n(vx0, vy0, vz0, k[K_AIR_DENSITY], k[K_DRAG_AREA])
    fx_t += fax
    fy_t += fay
    fz_t += faz
    mbx = R0 * mx_t + R3 * my_t + R6 * mz_t
    mby = R1 * mx_t + R4 * my_t + R7 * mz_t
    mbz = R2 * mx_t + R5 * my_t + R8 * mz_t
    inertia = k[K_INERTIA:K_INERTIA + 9]
    ke0 = kinetic_energy_j(chx, inertia, m)
    z0 = pz
    damp_loss, wmb0, wmb1, wmb2 = integrate(chx, inertia, k[K_INERTIA_INV:K_INERTIA_INV + 9], m,
                                            k[K_ANGULAR_DAMPING], fx_t, fy_t, fz_t, mbx, mby, mbz, dt)
    ke1 = kinetic_energy_j(chx, inertia, m)
    vx1, vy1, vz1 = chx[3], chx[4], chx[5]
    # ledger: chassis side (mean velocities of the step, see energy.py)
    vmx, vmy, vmz = 0.5 * (vx0 + vx1), 0.5 * (vy0 + vy1), 0.5 * (vz0 + vz1)
    wmx = R0 * wmb0 + R1 * wmb1 + R2 * wmb2
    wmy = R3 * wmb0 + R4 * wmb1 + R5 * wmb2
    wmz = R6 * wmb0 + R7 * wmb1 + R8 * wmb2
    susp = slip = water = soil_w = 0.0
    for j in range(4):
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
        wm = 0.5 * (om[j] + dres[D_OMEGA + j])
        v_h = cvx * hx + cvy * hy + cvz * hz
        slip += fxl * (Rt * wm - v_h) - fyl * (cvx * lx + cvy * ly + cvz * lz)
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
    led[L_BODY_CONTACT] += body * dt
    led[L_SUSPENSION] += susp * dt
    led[L_TYRE_SLIP] += slip * dt
    led[L_WATER] += water * dt
    led[L_SOIL] += soil_w * dt
    led[L_AERO] -= (fax * vmx + fay * vmy + faz * vmz) * dt
    led[L_ANGULAR_DAMPING] += damp_loss
    led[L_CHASSIS_KINETIC] += ke1 - ke0
    led[L_POTENTIAL] += m * G_MPS2 * (chx[2] - z0)

    # outputs: wheel spins, specific force at base_footprint (body frame, gravity included)
    for j in range(4):
        s[S_OMEGA + j] = dres[D_OMEGA + j]
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
    kinematics(k, chx, out)


@dataclass
class VehicleInputs:
    """Inputs of one step (the outputs of the DBW actuators).

    Attributes
    ----------
    pedal : float
        Accelerator pedal p, 0..1.
    brake_line_bar : float
        Brake line pressure P_line [bar], >= 0.
    steering_wheel_deg : float
        Actual steering-wheel angle theta_sw [deg], positive to the left.
    gear_request : Gear
        Requested lever position; ``Gear.NONE`` = no request.
    drive_mode : DriveMode
        Position of the AWD switch.
    """

    pedal: float = 0.0
    brake_line_bar: float = 0.0
    steering_wheel_deg: float = 0.0
    gear_request: Gear = Gear.NONE
    drive_mode: DriveMode = DriveMode.AWD


class Vehicle:
    """Polaris Ranger CREW XP 1000 model (ROS-free).

    Parameters
    ----------
    params : VehicleParameters, optional
        Default: :func:`~acres_dbw_sim.model.params.load_parameters` of the shipped file.
    terrain : Terrain, optional
        Default: level asphalt (:class:`~acres_dbw_sim.model.terrain.FlatTerrain`).
    dt_s : float
        Physics step [s], 1/1000 to 1/60 (default 1/120).

    Raises
    ------
    ValueError
        For a step outside 1/1000..1/60 s; KeyError for a terrain surface not
        in the parameter file's table.

    Notes
    -----
    After :meth:`step` the attributes listed in the module docstring of the
    project interface are plain floats or tuples: ``time_s``, ``position_m``,
    ``orientation_wxyz``, ``velocity_body_mps``, ``angular_velocity_body_rad_s``,
    ``specific_force_body_mps2``, ``speed_mps``, ``yaw_rate_rad_s``,
    ``wheel_spin_rad_s``, ``wheel_angle_rad``, ``road_wheel_angle_rad``,
    ``wheel_load_n``, ``wheel_in_contact``, ``contact_point_m`` (odom, None in the
    air, at the start of the step), ``wheel_extension_m``, ``wheel_fx_n``, ``wheel_fy_n``,
    ``wheel_slip`` (kinematic, -1 at lock), ``sinkage_m`` (depth of each wheel's rut, 0 on hard ground),
    ``steering_wheel_deg``, ``bicycle_angle_rad``,
    ``engine_rpm``, ``engine_torque_nm``, ``torque_request``, ``cvt_ratio``,
    ``gear``, ``gear_target``, ``shift_in_progress``, ``last_gear_reject``,
    ``drive_mode``, ``brake_torque_nm``, ``fuel_l``, ``fuel_rate_l_h``,
    ``ledger`` (:class:`~acres_dbw_sim.model.energy.EnergyLedger`), ``params``.
    """

    def __init__(self, params: VehicleParameters | None = None, terrain: Terrain | None = None,
                 dt_s: float = 1.0 / 120.0) -> None:
        if not (1.0 / 1000.0 - 1e-12 <= dt_s <= 1.0 / 60.0 + 1e-12):
            raise ValueError(f"dt_s={dt_s!r} outside 1/1000..1/60 s")
        self.params = params if params is not None else load_parameters()
        self.terrain = terrain if terrain is not None else FlatTerrain()
        self.terrain.bind([s.name for s in self.params.surfaces])
        self.dt_s = float(dt_s)
        P = self.params
        mp = P.mass_properties
        self.mass_properties = mp
        self.springs = corner_springs(P)
        self.curves = _eng.EngineCurves.from_params(P.engine)
        self._curves_k = tuple(self.curves)       # the kernel takes a plain tuple
        self.gears = gear_table(P.gearbox)
        # lever position -> (d, i_r, K) with fixed types: one compiled signature of physics_step
        self._gear_k = {g: (int(i.direction), float(i.rear_ratio), float(i.ring_ratio)) for g, i in self.gears.items()}
        self.lever = GearLever(P.gearbox.max_shift_speed_mps, P.gearbox.shift_time_s)
        self.chassis = Chassis(mp.mass_kg, mp.inertia_tensor_kg_m2, P.resistances.angular_damping_per_s)
        self.solver = DrivelineSolver(P.tyres.radius_m)
        self._ledger = EnergyLedger()
        self._ledger_stale = False
        self._o = None
        # Geometry: mounts relative to the centre of mass, body frame.
        L, bf, br = P.geometry.wheelbase_m, P.geometry.track_front_m, P.geometry.track_rear_m
        Rt = P.tyres.radius_m
        zm = Rt + P.chassis.rest_extension_m
        cg = mp.cg_m
        self._mount_rel = ((L - cg[0], 0.5 * bf - cg[1], zm - cg[2]), (L - cg[0], -0.5 * bf - cg[1], zm - cg[2]),
                           (-cg[0], 0.5 * br - cg[1], zm - cg[2]), (-cg[0], -0.5 * br - cg[1], zm - cg[2]))
        self._bf_rel = (-cg[0], -cg[1], -cg[2])
        # Corners of the body box (collides with the ground, like the Chaos box of the game).
        ch = P.chassis
        self._box_rel = tuple((x - cg[0], y - cg[1], z - cg[2]) for x in (ch.box_rear_m, L + ch.box_front_overhang_m)
                              for y in (-ch.box_half_width_m, ch.box_half_width_m)
                              for z in (ch.box_bottom_m, ch.box_top_m))
        ty = P.tyres
        self._widths = (ty.front_width_m, ty.front_width_m, ty.rear_width_m, ty.rear_width_m)
        pg = (ty.front_inflation_pa + ty.carcass_pa,) * 2 + (ty.rear_inflation_pa + ty.carcass_pa,) * 2
        k_tyre = tuple(tyre_membrane_rate_n_m(pg[j] - ty.carcass_pa, ty.carcass_pa, Rt, self._widths[j])
                       for j in range(4))
        self._eta = min(1.0, max(0.05, P.cvt.belt_efficiency * P.cvt.gear_efficiency))
        # Idle-governor constants (curves at idle).
        n_idle = P.engine.idle_rpm
        self._t_wot_idle = _eng.full_load_torque_nm(n_idle, self.curves)
        self._t_fr_idle = _eng.friction_torque_nm(n_idle, self.curves)
        # Kernel constants, computed once (module docstring, K_*).
        e, cv, spr = P.engine, P.cvt, self.springs
        named = dict(
            dt=self.dt_s, radius=Rt, rack_stop_deg=P.steering.rack_stop_deg, steer_ratio=P.steering.ratio,
            steer_center_deg=P.steering.center_deg, wheelbase=L, track_front=bf, idle_rad_s=e.idle_rad_s,
            idle_gain=e.idle_gain, t_wot_idle=self._t_wot_idle, t_fr_idle=self._t_fr_idle,
            t_acc=e.accessory_drag_nm, max_speed=e.max_speed_mps, pedal_exponent=e.pedal_exponent,
            torque_lag=e.torque_lag_s, j_engine=e.inertia_kg_m2, eta_indicated=e.indicated_efficiency,
            engage_rad_s=cv.engage_rad_s, full_engage_rad_s=cv.full_engage_rad_s,
            clutch_cap=cv.clutch_capacity_nm, ebs_cap=cv.ebs_capacity_nm, ebs_on=float(bool(cv.ebs)),
            shift_rpm_light=cv.shift_rpm_light, shift_rpm_full=cv.shift_rpm_full, r_high=cv.high_ratio,
            r_low=cv.low_ratio, shift_tau=cv.shift_tau_s, eta=self._eta, adc=float(bool(cv.adc)),
            j_secondary=cv.secondary_inertia_kg_m2, tank_l=P.fuel.tank_l, lhv=P.fuel.lhv_j_kg,
            fuel_density=P.fuel.density_kg_l, p_bias=P.brakes.pressure_bias_bar, p_max=P.brakes.max_bar,
            gain_front=P.brakes.front_nm_per_bar, gain_rear=P.brakes.rear_nm_per_bar,
            datum=P.chassis.compression_datum_m, droop=spr.droop_m, bump_start=spr.bump_start_m,
            bump_rate=spr.bump_rate_n_m2, mass=mp.mass_kg, angular_damping=P.resistances.angular_damping_per_s,
            sigma_x=ty.longitudinal_relaxation_m, tau_c=ty.carcass_damping_s, fade_speed=ty.damping_fade_speed_mps,
            k_slip=ty.hard_slip_stiffness, slip_floor=ty.slip_speed_floor_mps,
            sigma_y=ty.relaxation_m, c_alpha=ty.cornering_per_load_1_rad, j_wheel=ty.wheel_inertia_kg_m2,
            air_density=P.aero.air_density_kg_m3, drag_area=P.aero.drag_area_m2,
            park_hold=P.gearbox.park_hold_nm, spin_rate=1.0 / P.resistances.spin_scale_rad_s,
            cd_water=P.resistances.water_drag_coefficient, probe_iterations=ch.probe_iterations,
            box_stiffness=ch.box_stiffness_n_m, box_damping=ch.box_damping_n_s_m, box_friction=ch.box_friction,
            z_max=ty.sinkage_limit_m, mr_speed=P.resistances.motion_resistance_speed_mps,
            hysteresis=ty.hysteresis, section_height=ty.section_height_m, lug_height=ty.lug_height_m,
            tread_k=ty.tread_k_m, n_surfaces=len(P.surfaces))
        kv = [float(named[n]) for n in _K_NAMES]
        kv += [c for m in self._mount_rel for c in m] + list(spr.rate_n_m) + list(spr.damper_n_s_m)
        kv += list(spr.static_load_n) + list(self._widths) + list(pg) + list(k_tyre)
        kv += list(self._bf_rel) + list(self.chassis.inertia)
        kv += list(self.chassis.inertia_inv) + [c for b in self._box_rel for c in b]
        for sf in P.surfaces:
            so = sf.soil
            kv += [sf.mu, sf.rolling_resistance, sf.water_depth_m, 0.0 if so is None else 1.0]
            kv += [0.0] * 6 if so is None else [so.n, so.k_c, so.k_phi, so.cohesion_pa, so.friction_angle_rad,
                                                so.shear_modulus_m]
        assert len(kv) == K_SURF + SURF_SIZE * len(P.surfaces)
        self._k = array(kv)
        self._s = array([0.0] * N_STATE)
        self._wd = array([0.0] * (4 * W_SIZE))
        self._box = array([0.0] * 48)
        self._led = array([0.0] * len(LEDGER_TERMS))
        self._out = array([0.0] * N_OUT)
        self.reset()

    # ------------------------------------------------------------------ helpers
    def steering_wheel_for_curvature_deg(self, curvature_1_m: float) -> float:
        """Steering-wheel angle [deg] for a path curvature [1/m] of the rear-axle centre.

        Bicycle kinematics through the steering ratio and centre:
        theta_sw = theta_c + i_s atan(L kappa) (in degrees).
        """
        s = self.params.steering
        return steering_wheel_for_curvature_deg(curvature_1_m, self.params.geometry.wheelbase_m, s.ratio,
                                                s.center_deg)

    def static_loads_n(self) -> tuple:
        """Static corner loads N_0 (FL, FR, RL, RR) [N]."""
        return self.mass_properties.static_loads_n

    # ------------------------------------------------------------------ reset
    def reset(self, x_m: float = 0.0, y_m: float = 0.0, yaw_rad: float = 0.0, speed_mps: float = 0.0,
              gear: Gear = Gear.LOW, drive_mode: DriveMode = DriveMode.AWD) -> None:
        """Reset state (reference "Reset State").

        Places base_footprint on the ground at (x, y) with the body z axis on
        the ground normal and the heading ``yaw_rad``; engine at idle with
        the idle feed-forward request, belt at r_low, tank full, wheels at
        their static load and extension 0.4 m. With ``speed_mps`` = v0 a
        moving start: body and wheels at v0 (wheels v0 / R_t), belt at the
        light-load shift speed.

        Raises
        ------
        ValueError
            If ``gear`` is not a lever position.
        """
        P = self.params
        self.lever.reset(gear)
        self.drive_mode = DriveMode(drive_mode)
        z, nx, ny, nz, _ = self.terrain.height_normal_surface(x_m, y_m)
        hx, hy, hz = math.cos(yaw_rad), math.sin(yaw_rad), 0.0
        d = hx * nx + hy * ny + hz * nz
        fx, fy, fz = hx - d * nx, hy - d * ny, hz - d * nz
        fn = _sqrt(fx * fx + fy * fy + fz * fz)
        fx, fy, fz = fx / fn, fy / fn, fz / fn
        lx, ly, lz = ny * fz - nz * fy, nz * fx - nx * fz, nx * fy - ny * fx
        rot = ((fx, lx, nx), (fy, ly, ny), (fz, lz, nz))
        q = transforms3d.quaternions.mat2quat(np.array(rot))
        ch = self.chassis
        ch.set_quaternion(q)
        cg = self.mass_properties.cg_m
        # On soil each wheel starts in the rut of its static load; the body sits lower by their mean.
        sink = self._static_sinkage_m(x_m, y_m, (fx, fy, fz), (lx, ly, lz))
        zs = -0.25 * sum(sink)
        ch.p = [x_m + fx * cg[0] + lx * cg[1] + nx * (cg[2] + zs), y_m + fy * cg[0] + ly * cg[1] + ny * (cg[2] + zs),
                z + fz * cg[0] + lz * cg[1] + nz * (cg[2] + zs)]
        v0 = float(speed_mps)
        ch.v = [v0 * fx, v0 * fy, v0 * fz]
        ch.w = [0.0, 0.0, 0.0]
        Rt = P.tyres.radius_m
        w = v0 / Rt
        st = self._s
        for j in range(4):
            st[S_OMEGA + j] = w
            st[S_ANGLE + j] = 0.0
            st[S_U + j] = 0.0
            st[S_Y + j] = 0.0
            st[S_Z + j] = sink[j]
        e = P.engine
        we = e.idle_rad_s
        info = self.gears[self.lever.gear]
        r = P.cvt.low_ratio
        if info.direction != 0 and v0 != 0.0:
            ws = abs(v0) / Rt * info.rear_ratio
            r = P.cvt.shift_rpm_light / _RAD_S_TO_RPM / ws
            r = min(P.cvt.low_ratio, max(P.cvt.high_ratio, r))
            we = max(e.idle_rad_s, r * ws)
        st[S_WE] = we
        st[S_R] = r
        st[S_UREQ] = _eng.idle_request(e.idle_rad_s, e.idle_rad_s, e.idle_gain, self._t_wot_idle,
                                       self._t_fr_idle, self.curves.pumping_nm, e.accessory_drag_nm)
        st[S_TC_PREV] = 0.0
        st[S_FUEL] = P.fuel.tank_l
        st[S_HEAT] = 0.0
        self._ledger.reset()
        self._ledger_stale = False
        for i in range(len(LEDGER_TERMS)):
            self._led[i] = 0.0
        self.time_s = 0.0
        n0 = self.springs.static_load_n
        self.wheel_load_n = tuple(n0)
        self.wheel_in_contact = (True, True, True, True)
        self._o = None
        self._sink_reset = sink
        self.wheel_extension_m = (P.chassis.rest_extension_m,) * 4
        self.steering_wheel_deg = P.steering.center_deg
        self.road_wheel_angle_rad = (0.0, 0.0, 0.0, 0.0)
        self.bicycle_angle_rad = 0.0
        self.brake_torque_nm = (0.0, 0.0, 0.0, 0.0)
        self.engine_torque_nm = 0.0
        self.torque_request = st[S_UREQ]
        self.fuel_rate_l_h = 0.0
        self.clutch_torque_nm = 0.0
        self.carrier_speed_rad_s = w
        self.wheel_fx_n = (0.0,) * 4
        self.wheel_fy_n = (0.0,) * 4
        self.wheel_slip = (0.0,) * 4
        self.front_engaged = (False, False)
        self.specific_force_body_mps2 = (0.0, 0.0, G_MPS2)
        kinematics(self._k, ch.x, self._out)
        self._publish_kinematics(to_list(self._out))

    def _static_sinkage_m(self, x_m: float, y_m: float, fwd: tuple, left: tuple) -> tuple:
        """Sinkage [m] of each wheel at its static load on the surface below it (0 on hard ground), for a
        vehicle with base_footprint at (x, y) and the given forward and left axes (odom)."""
        P = self.params
        ty = P.tyres
        out = []
        for j in range(4):
            mx, my = self._mount_rel[j][0] - self._bf_rel[0], self._mount_rel[j][1] - self._bf_rel[1]
            wx = x_m + fwd[0] * mx + left[0] * my
            wy = y_m + fwd[1] * mx + left[1] * my
            si = self.terrain.height_normal_surface(wx, wy)[4]
            pinned = self.terrain.wheel_surfaces[j]
            sf = P.surfaces[P.surface_index(pinned)] if pinned is not None else P.surfaces[si]
            so = sf.soil
            if so is None:
                out.append(0.0)
                continue
            k = self._k
            z = tyre_on_soil(self.springs.static_load_n[j], self._widths[j], ty.radius_m, k[K_PG + j],
                             k[K_KTYRE + j], so.n, so.k_c, so.k_phi, so.cohesion_pa, so.friction_angle_rad,
                             so.shear_modulus_m, ty.sinkage_limit_m, ty.lug_height_m, ty.tread_k_m, ty.hysteresis,
                             ty.section_height_m)[0]
            out.append(float(z))
        return tuple(out)

    # ------------------------------------------------------------------ outputs
    def _publish_kinematics(self, o: list) -> None:
        x = to_list(self.chassis.x)
        st = to_list(self._s)
        self.position_m = tuple(o[O_POS:O_POS + 3])
        self.orientation_wxyz = tuple(x[6:10])
        self.velocity_body_mps = tuple(o[O_VB:O_VB + 3])
        self.angular_velocity_body_rad_s = tuple(x[10:13])
        self.speed_mps = o[O_VB]
        self.yaw_rate_rad_s = x[12]
        self.wheel_spin_rad_s = tuple(st[S_OMEGA:S_OMEGA + 4])
        self.wheel_angle_rad = tuple(st[S_ANGLE:S_ANGLE + 4])
        self._we = st[S_WE]
        self.engine_rpm = st[S_WE] * _RAD_S_TO_RPM
        self.cvt_ratio = st[S_R]
        lever = self.lever
        self.gear = lever.gear
        self.gear_target = lever.target
        self.shift_in_progress = lever.remaining_s > 0.0
        self.last_gear_reject = lever.last_reject

    @property
    def fuel_l(self) -> float:
        """Fuel in the tank [L]."""
        return float(self._s[S_FUEL])

    @fuel_l.setter
    def fuel_l(self, value: float) -> None:
        self._s[S_FUEL] = float(value)

    @property
    def clutch_heat_j(self) -> float:
        """Heat of the primary clutch's slip since the reset [J]."""
        return float(self._s[S_HEAT])

    @property
    def engine_speed_rad_s(self) -> float:
        """Engine speed omega_e [rad/s]."""
        return self._we

    # ------------------------------------------------------------------ step
    def step(self, inputs: VehicleInputs) -> None:
        """Advance the model by one physics step ``dt_s``.

        Parameters
        ----------
        inputs : VehicleInputs
            Pedal, line pressure, steering-wheel angle, gear request, drive mode.
        """
        pedal = inputs.pedal
        pedal = 0.0 if pedal != pedal or pedal < 0.0 else 1.0 if pedal > 1.0 else float(pedal)

        # 1. Gear lever (shift rule) and drive mode --------------------------------------------
        lever = self.lever
        if inputs.gear_request != Gear.NONE:
            lever.request(inputs.gear_request, self.speed_mps)
        gear = lever.gear
        mode = inputs.drive_mode
        self.drive_mode = mode
        d_dir, i_r, ring = self._gear_k[gear]

        # 2.-6. Steering, powertrain, wheels, driveline solve, chassis (physics_step) ----------
        sv = self.solver
        physics_step(self._k, self._curves_k, self.terrain.data, self.chassis.x, self._s, self._wd, self._box,
                     sv.wh, sv.out, self._led, self._out, pedal, float(inputs.brake_line_bar),
                     float(inputs.steering_wheel_deg), d_dir, i_r, ring, gear == Gear.PARK, int(mode))
        lever.advance(self.dt_s)
        self.time_s += self.dt_s

        # outputs
        o = to_list(self._out)
        self.steering_wheel_deg = o[O_SW]
        self.bicycle_angle_rad = o[O_DELTA]
        self.road_wheel_angle_rad = tuple(o[O_ANGLE:O_ANGLE + 4])
        self.wheel_load_n = tuple(o[O_LOAD:O_LOAD + 4])
        contact = o[O_CONTACT:O_CONTACT + 4]
        self.wheel_in_contact = (contact[0] != 0.0, contact[1] != 0.0, contact[2] != 0.0, contact[3] != 0.0)
        self._o = o
        self.wheel_extension_m = tuple(o[O_EXT:O_EXT + 4])
        self.brake_torque_nm = tuple(o[O_TB:O_TB + 4])
        self.engine_torque_nm = o[O_TE]
        self.torque_request = o[O_U]
        self.fuel_rate_l_h = o[O_FUEL_RATE]
        self.clutch_torque_nm = o[O_TC]
        self.carrier_speed_rad_s = o[O_CARRIER]
        self.front_engaged = (o[O_FRONT] != 0.0, o[O_FRONT + 1] != 0.0)
        self.wheel_fx_n = tuple(o[O_FX:O_FX + 4])
        self.wheel_fy_n = tuple(o[O_FY:O_FY + 4])
        self.wheel_slip = tuple(o[O_SLIP:O_SLIP + 4])
        self.specific_force_body_mps2 = tuple(o[O_SF:O_SF + 3])
        self._ledger_stale = True
        self._publish_kinematics(o)

    # outputs read less often than every step: built on access
    @property
    def ledger(self) -> EnergyLedger:
        """The energy ledger since the reset (:class:`~acres_dbw_sim.model.energy.EnergyLedger`)."""
        if self._ledger_stale:
            self._ledger.__dict__.update(zip(LEDGER_TERMS, to_list(self._led)))
            self._ledger_stale = False
        return self._ledger

    @property
    def contact_point_m(self) -> tuple:
        """Contact point of each wheel (odom) [m] at the start of the last step, None in the air."""
        o = self._o
        if o is None:
            return (None, None, None, None)
        return tuple(tuple(o[O_CP + 3 * j:O_CP + 3 * j + 3]) if o[O_CONTACT + j] != 0.0 else None
                     for j in range(4))

    @property
    def sinkage_m(self) -> tuple:
        """Depth of each wheel's rut below the surface [m] (0 on hard ground; soil.py)."""
        o = self._o
        if o is None:
            return self._sink_reset
        return tuple(o[O_SINK:O_SINK + 4])


def _compile() -> None:
    """Compile (or load from numba's cache) the step's kernels at import, not in a caller's first step.

    A process that drives the model in real time (the node) would otherwise stall for the compile
    (seconds, once per machine) in its first step; with the cache this takes a fraction of a second.
    """
    v = Vehicle(dt_s=1.0 / 120.0)
    v.step(VehicleInputs())


if JIT:
    _compile()
