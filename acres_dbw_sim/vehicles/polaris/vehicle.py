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

Stage 1 (the lever, its state an array of gearbox.py) and the pedal's clamp are
:func:`model_step`, which calls stages 2 to 6, :func:`physics_step`: one kernel,
compiled by numba when present (_jit.py), that :meth:`Vehicle.step` and the
step through the DBW (dbw_step.py) call. What is the Ranger's own is here:
the steering (steering.py), the powertrain (engine.py, cvt.py, gearbox.py),
the hydraulic brakes (brakes.py) and the powertrain side of the ledger. The
wheels (stage 4), the driveline solve (stage 5) and the chassis (stage 6) are
the shared stages that the Maxxum composes too (stages.py, driveline.py).

Arrays: the shared constants ``k`` (stages.py ``K_*``), the Ranger's own
constants ``kp`` (``P_*``), its powertrain state ``s`` (``S_*``), the wheel
state ``sw`` (stages.py ``SW_*``), the chassis state (chassis.py), scratch,
the ledger terms (energy.py ``L_*``) and the outputs ``out`` (stages.py
``O_*``) that :meth:`Vehicle.step` publishes as the attributes below.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Callable

from . import cvt as _cvt
from . import engine as _eng
from ...model._jit import JIT, HoldsEntry, array, njit, packed_call, specialise, to_list
from .brakes import brake_torques_nm
from ...model.body import VehicleBody
from ...model.chassis import Chassis
from ...model.driveline import D_TC, D_TSUP, FRONT_FREE, FRONT_LOCKED, FRONT_OVERRUN, DrivelineSolver, solve_driveline
from ...model.energy import LEDGER_TERMS, EnergyLedger, clamped_efficiency
from ...model.filters import lag
from ...model.inputs import VehicleInputs
from ...model.enums import AwdSwitch, Gear, GearReject
from .gearbox import (LV_GEAR, LV_REJECT, LV_REMAINING, LV_TARGET, GearLever, gear_ratios, gear_table, lever_advance,
                      lever_request, two_way_lock)
from .params import VehicleParameters, load_parameters
from ...model.stages import (K_DT, K_K_SLIP, K_RADIUS, K_SIGMA_X, N_OUT, N_WHEEL_STATE, NO_EXTERNAL_FORCE,
                             O_ANGLE, O_CARRIER, O_CONTACT, O_CP, O_DELTA, O_SW, O_U, O_VB, SW_ANGLE,
                             SW_DIG, SW_OMEGA, SW_U, SW_Y, SW_Z, W_SIZE, chassis_stage, kinematics, place_on_ground,
                             prepare_wheels, settle_powertrain, shared_constants, wheel_ledger)
from ...model.steering import ackermann_rad, bicycle_angle_rad, steering_wheel_for_curvature_deg
from .steering import rack_limited_deg
from ...model.suspension import corner_springs, tyre_membrane_rate_n_m
from ...model.tyre import SATURATION, steady_deflection_m
from ...model.terrain import FlatTerrain, Terrain

__all__ = ["VehicleInputs", "Vehicle"]

_RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)


# ------------------------------------------------------------------ kernel layout
# The Ranger's own constants kp (name, unit).
_P_NAMES = (
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
    "park_hold",         # T_park [N m]
    "j_wheel",           # J_w [kg m^2]
    "radius",            # R_t [m]
    "governor_band",     # band of the top speed governor v_band [m/s]
)
(P_RACK_STOP_DEG, P_STEER_RATIO, P_STEER_CENTER_DEG, P_WHEELBASE, P_TRACK_FRONT, P_IDLE_RAD_S, P_IDLE_GAIN,
 P_T_WOT_IDLE, P_T_FR_IDLE, P_T_ACC, P_MAX_SPEED, P_PEDAL_EXPONENT, P_TORQUE_LAG, P_J_ENGINE, P_ETA_INDICATED,
 P_ENGAGE_RAD_S, P_FULL_ENGAGE_RAD_S, P_CLUTCH_CAP, P_EBS_CAP, P_EBS_ON, P_SHIFT_RPM_LIGHT, P_SHIFT_RPM_FULL,
 P_R_HIGH, P_R_LOW, P_SHIFT_TAU, P_ETA, P_ADC, P_J_SECONDARY, P_TANK_L, P_LHV, P_FUEL_DENSITY, P_P_BIAS, P_P_MAX,
 P_GAIN_FRONT, P_GAIN_REAR, P_PARK_HOLD, P_J_WHEEL, P_RADIUS, P_GOVERNOR_BAND) = range(len(_P_NAMES))
# The Ranger's powertrain state s (the wheels' state is sw, stages.py).
S_WE = 0                           # engine speed omega_e [rad/s]
S_UREQ = 1                         # torque request u [-]
S_R = 2                            # belt ratio r [-]
S_TC_PREV = 3                      # clutch torque of the previous step [N m]
S_FUEL = 4                         # fuel in the tank [L]
S_HEAT = 5                         # clutch slip heat [J]
S_MODE = 6                         # AWD switch (AwdSwitch) of the last step
N_STATE = 7
_AWD = int(AwdSwitch.AWD)
_TURF = int(AwdSwitch.TURF)


@njit
def powertrain(kp, dt, curves, s, sw, pedal, d_dir, i_r):
    """Stage 3, StepUtvPowertrain: engine torque, free engine speed, clutch capacities, belt ratio.

    Updates the torque request and the belt ratio in ``s``; returns (T_e, u, fuel on, T_fr, T_pu,
    omega_free, C_fwd, C_rev, R = d r i_r).
    """
    Rt = kp[P_RADIUS]
    in_gear = d_dir != 0
    om = sw[SW_OMEGA:SW_OMEGA + 4]
    we0 = s[S_WE]
    n_rpm = we0 * _RAD_S_TO_RPM
    t_wot = _eng.full_load_torque_nm(n_rpm, curves)
    t_fr = _eng.friction_torque_nm(n_rpm, curves)
    t_pu = curves[7]
    t_acc = kp[P_T_ACC]
    idle = kp[P_IDLE_RAD_S]
    v_r = abs(0.5 * (om[2] + om[3])) * Rt
    g_v = _eng.speed_governor(kp[P_MAX_SPEED], v_r, kp[P_GOVERNOR_BAND])
    u_idle = _eng.idle_request(we0, idle, kp[P_IDLE_GAIN], kp[P_T_WOT_IDLE], kp[P_T_FR_IDLE], t_pu, t_acc)
    empty = kp[P_TANK_L] > 0.0 and s[S_FUEL] <= 0.0
    u_star = _eng.torque_target(pedal, kp[P_PEDAL_EXPONENT], g_v, u_idle, empty)
    u = lag(s[S_UREQ], u_star, kp[P_TORQUE_LAG], dt)
    s[S_UREQ] = u
    fuel_on = u > 0.0 and t_wot > 0.0 and not empty
    t_e = _eng.engine_torque_nm(u, fuel_on, t_wot, t_fr, t_pu)
    j_e = kp[P_J_ENGINE]
    w_free = _eng.free_speed_rad_s(we0, t_e, t_acc, j_e, dt)
    cap = _cvt.clutch_capacity_nm(w_free, kp[P_ENGAGE_RAD_S], kp[P_FULL_ENGAGE_RAD_S], kp[P_CLUTCH_CAP])
    cap_ebs = _cvt.ebs_capacity_nm(w_free, idle, kp[P_ENGAGE_RAD_S], kp[P_EBS_CAP], kp[P_EBS_ON] != 0.0)
    if in_gear:
        cap_fwd = cap
        cap_rev = cap if cap > cap_ebs else cap_ebs
    else:
        cap_fwd = cap_rev = 0.0
    tc_prev = s[S_TC_PREV]
    n_s = _cvt.shift_speed_rpm(tc_prev, curves[8], kp[P_SHIFT_RPM_LIGHT], kp[P_SHIFT_RPM_FULL])
    w_s = abs(0.5 * (om[2] + om[3])) * i_r
    grips = in_gear and (cap > 0.0 or (cap_ebs > 0.0 and tc_prev < 0.0))
    r_star = _cvt.ratio_target(grips, n_s, w_s, kp[P_R_HIGH], kp[P_R_LOW])
    r = lag(s[S_R], r_star, kp[P_SHIFT_TAU], dt)
    s[S_R] = r
    R_all = d_dir * r * i_r
    return t_e, u, fuel_on, t_fr, t_pu, w_free, cap_fwd, cap_rev, R_all


@njit
def physics_step(k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, pedal, brake_line_bar,
                 steering_wheel_deg, d_dir, i_r, ring_ratio, park, mode):
    """Stages 2 to 6 of the Physics Step (module docstring), in place on ``chx``, ``s``, ``sw``, ``led``, ``out``.

    ``pedal`` is already clamped to 0..1; ``d_dir``, ``i_r``, ``ring_ratio`` and
    ``park`` describe the lever position after stage 1; ``mode`` is the drive mode.
    The Ranger tows and carries nothing: no external force on the chassis (``NO_EXTERNAL_FORCE``).
    """
    dt = k[K_DT]
    in_gear = d_dir != 0
    om = sw[SW_OMEGA:SW_OMEGA + 4]   # spins at the start of the step (read only)

    # 2. Steering ------------------------------------------------------------------------
    sw_deg = rack_limited_deg(steering_wheel_deg, kp[P_STEER_CENTER_DEG], kp[P_RACK_STOP_DEG])
    delta = bicycle_angle_rad(sw_deg, kp[P_STEER_RATIO], kp[P_STEER_CENTER_DEG])
    dl, dr = ackermann_rad(delta, kp[P_WHEELBASE], kp[P_TRACK_FRONT])
    out[O_SW] = sw_deg
    out[O_DELTA] = delta
    out[O_ANGLE] = dl
    out[O_ANGLE + 1] = dr
    out[O_ANGLE + 2] = 0.0
    out[O_ANGLE + 3] = 0.0

    # 3. Powertrain ----------------------------------------------------------------------
    t_e, u, fuel_on, t_fr, t_pu, w_free, cap_fwd, cap_rev, R_all = powertrain(kp, dt, curves, s, sw, pedal, d_dir,
                                                                               i_r)
    we0 = s[S_WE]
    j_e = kp[P_J_ENGINE]
    t_acc = kp[P_T_ACC]

    # 4. Wheels (shared stage; the Ranger's brakes are hydraulic, the rear wheels carry the CVT's secondary)
    tb_f, tb_r = brake_torques_nm(brake_line_bar, kp[P_P_BIAS], kp[P_P_MAX], kp[P_GAIN_FRONT], kp[P_GAIN_REAR])
    j_rear = kp[P_J_WHEEL] + 0.5 * kp[P_J_SECONDARY] * i_r * i_r
    all_contact = prepare_wheels(k, td, chx, sw, wd, wh, out, kp[P_J_WHEEL], j_rear, tb_f, tb_r, 0.0)

    # 5. Driveline solve -----------------------------------------------------------------
    if mode == _AWD:
        front_mode = FRONT_LOCKED if two_way_lock(park, True, kp[P_ADC] != 0.0, pedal) else FRONT_OVERRUN
    else:
        front_mode = FRONT_FREE
    open_rear = mode == _TURF
    eta = kp[P_ETA]
    solve_driveline(wh, dres, dt, in_gear, park, open_rear, front_mode, ring_ratio, R_all, eta, j_e, w_free,
                    cap_fwd, cap_rev, kp[P_PARK_HOLD])
    s[S_TC_PREV] = dres[D_TC]
    c_mean = settle_powertrain(dt, s, S_WE, S_HEAT, S_FUEL, dres, led, out, 0.5 * (om[2] + om[3]), we0, w_free, j_e,
                               R_all, in_gear, park, fuel_on, t_e, t_fr, t_pu, u, kp[P_ETA_INDICATED], 0.0, t_acc,
                               u, kp[P_LHV], kp[P_FUEL_DENSITY], kp[P_TANK_L])
    wheel_ledger(k, sw, wd, wh, dres, led, dres[D_TSUP], c_mean)

    # 6. Chassis (shared stage) ----------------------------------------------------------
    chassis_stage(k, td, chx, sw, wd, box, wh, dres, led, out, all_contact, NO_EXTERNAL_FORCE)


@njit
def model_step(k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios, pedal, brake_line_bar,
               steering_wheel_deg, gear_request, mode):
    """One Physics Step (module docstring) in place on the arrays: stage 1, the lever (gearbox.py
    :func:`~acres_dbw_sim.vehicles.polaris.gearbox.lever_request` at the speed of the last step, then
    :func:`~acres_dbw_sim.vehicles.polaris.gearbox.lever_advance`), and stages 2 to 6 (:func:`physics_step`).

    Parameters
    ----------
    lv : array of float
        The lever's state (gearbox.py ``LV_*``).
    ratios : array of 18 float
        Direction, i_r and ring ratio of each lever position
        (:func:`~acres_dbw_sim.vehicles.polaris.gearbox.gear_ratios`).
    pedal : float
        Accelerator pedal [-]; NaN or below 0 reads 0, above 1 reads 1.
    brake_line_bar, steering_wheel_deg : float
        Line pressure [bar], steering-wheel angle [deg].
    gear_request : int
        Gear to ask the lever for, 0 (NONE) for none.
    mode : int
        AWD switch (AwdSwitch), kept in ``s[S_MODE]``.
    """
    pedal = 0.0 if pedal != pedal or pedal < 0.0 else 1.0 if pedal > 1.0 else pedal
    if gear_request != 0:
        lever_request(lv, gear_request, out[O_VB])
    gear = int(lv[LV_GEAR])
    s[S_MODE] = mode
    physics_step(k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, pedal, brake_line_bar,
                 steering_wheel_deg, int(ratios[3 * gear]), ratios[3 * gear + 1], ratios[3 * gear + 2], gear == _PARK,
                 mode)
    lever_advance(lv, k[K_DT])


_PARK = int(Gear.PARK)
_MODE_OF = {int(m): m for m in AwdSwitch}
_GEAR_OF = {int(g): g for g in Gear}
_REJECT_OF = {int(r): r for r in GearReject}


class Vehicle(HoldsEntry, VehicleBody):
    """Polaris Ranger CREW XP 1000 model (ROS-free).

    Parameters
    ----------
    params : VehicleParameters, optional
        Default: :func:`~acres_dbw_sim.vehicles.polaris.params.load_parameters` of the shipped file.
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
        self._ratios = gear_ratios(self.gears)    # lever position -> d, i_r, K (model_step)
        self.lever = GearLever(P.gearbox.max_shift_speed_mps, P.gearbox.shift_time_s)
        self.chassis = Chassis(mp.mass_kg, mp.inertia_tensor_kg_m2, P.resistances.angular_damping_per_s)
        self.solver = DrivelineSolver(P.tyres.radius_m)
        self._ledger = EnergyLedger()
        self._ledger_stale = False
        self._stepped = False
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
        self._box_rel = ch.box_corners(L, cg)
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
        # Kernel constants, computed once: the shared ones (stages.py K_*) and the Ranger's own (P_*).
        e, cv, spr = P.engine, P.cvt, self.springs
        own = dict(
            radius=Rt, rack_stop_deg=P.steering.rack_stop_deg, steer_ratio=P.steering.ratio,
            steer_center_deg=P.steering.center_deg, wheelbase=L, track_front=bf, idle_rad_s=e.idle_rad_s,
            idle_gain=e.idle_gain, t_wot_idle=self._t_wot_idle, t_fr_idle=self._t_fr_idle,
            t_acc=e.accessory_drag_nm, max_speed=e.max_speed_mps, pedal_exponent=e.pedal_exponent,
            torque_lag=e.torque_lag_s, j_engine=e.inertia_kg_m2,
            eta_indicated=clamped_efficiency(e.indicated_efficiency, e.indicated_efficiency_min,
                                             e.indicated_efficiency_max),
            engage_rad_s=cv.engage_rad_s, full_engage_rad_s=cv.full_engage_rad_s,
            clutch_cap=cv.clutch_capacity_nm, ebs_cap=cv.ebs_capacity_nm, ebs_on=float(bool(cv.ebs)),
            shift_rpm_light=cv.shift_rpm_light, shift_rpm_full=cv.shift_rpm_full, r_high=cv.high_ratio,
            r_low=cv.low_ratio, shift_tau=cv.shift_tau_s, eta=self._eta, adc=float(bool(cv.adc)),
            j_secondary=cv.secondary_inertia_kg_m2, tank_l=P.fuel.tank_l, lhv=P.fuel.lhv_j_kg,
            fuel_density=P.fuel.density_kg_l, p_bias=P.brakes.pressure_bias_bar, p_max=P.brakes.max_bar,
            gain_front=P.brakes.front_nm_per_bar, gain_rear=P.brakes.rear_nm_per_bar,
            park_hold=P.gearbox.park_hold_nm, j_wheel=ty.wheel_inertia_kg_m2,
            governor_band=e.speed_governor_band_mps)
        shared = dict(
            dt=self.dt_s, datum=P.chassis.compression_datum_m, droop=spr.droop_m, bump_start=spr.bump_start_m,
            bump_rate=spr.bump_rate_n_m2, mass=mp.mass_kg, angular_damping=P.resistances.angular_damping_per_s,
            air_density=P.aero.air_density_kg_m3, drag_area=P.aero.drag_area_m2,
            spin_rate=1.0 / P.resistances.spin_scale_rad_s,
            cd_water=P.resistances.water_drag_coefficient, probe_iterations=ch.probe_iterations,
            mr_speed=P.resistances.motion_resistance_speed_mps, n_surfaces=len(P.surfaces),
            max_load_factor=P.suspension.max_load_factor, rolling_max=P.resistances.rolling_coefficient_max,
            water_density=P.resistances.water_density_kg_m3, **ty.kernel_constants(), **ch.kernel_constants())
        self._k = shared_constants(shared, self._mount_rel, spr.rate_n_m, spr.damper_n_s_m, spr.static_load_n,
                                   self._widths, pg, k_tyre, (Rt,) * 4, (ty.section_height_m,) * 4, self._bf_rel,
                                   self.chassis.inertia, self.chassis.inertia_inv, self._box_rel, P.surfaces)
        self._kp = array([float(own[n]) for n in _P_NAMES])
        self._s = array([0.0] * N_STATE)
        self._sw = array([0.0] * N_WHEEL_STATE)
        self._wd = array([0.0] * (4 * W_SIZE))
        self._box = array([0.0] * 48)
        self._led = array([0.0] * len(LEDGER_TERMS))
        self._out = array([0.0] * N_OUT)
        # the compiled model_step for these argument types (_jit.specialise), called by every step
        self._model_step = self._make_entry()
        self.reset()

    _ENTRY = "_model_step"   # made anew by a copy (_jit.HoldsEntry)

    def _make_entry(self):
        """:func:`model_step` specialised for :meth:`step_arrays` (``_jit.specialise``)."""
        return specialise(model_step, self.step_arrays() + (0.0, 0.0, 0.0, 0, int(AwdSwitch.AWD)))

    # ------------------------------------------------------------------ helpers
    def step_arrays(self) -> tuple:
        """The arrays :func:`model_step` runs on (its arguments before the inputs), in its order."""
        sv = self.solver
        return (self._k, self._kp, self._curves_k, self.terrain.data, self.chassis.x, self._s, self._sw, self._wd,
                self._box, sv.wh, sv.out, self._led, self._out, self.lever.lv, self._ratios)

    def dbw_step(self, dbw) -> tuple | None:
        """``(step, arguments)``: the step through the DBW ``dbw`` in one compiled call, ``step(t_s)``
        (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.ranger_dbw_step` over these arrays, packed once:
        ``ranger_dbw_tick``, :func:`~acres_dbw_sim.model._jit.packed_call`), and the step's arguments but the
        time; None when ``dbw``'s ULC plant is not the Ranger's
        (:class:`~acres_dbw_sim.vehicles.polaris.ulc_plant.PowertrainModel`), whose compiled form that step
        runs. Made anew when the terrain's arrays change (``step_arrays``)."""
        from .dbw_step import ranger_dbw_tick
        from .ulc_plant import PowertrainModel
        if not isinstance(dbw.ulc.powertrain, PowertrainModel):
            return None
        args = dbw.step_arguments() + self.step_arrays()
        return packed_call(ranger_dbw_tick, args, 0.0), args

    def dbw_run(self, joined: tuple) -> object:
        """The compiled headless loop through the DBW
        (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.ranger_dbw_run`), specialised for ``joined`` (the
        arguments :meth:`dbw_step` gave: the DBW's records and this vehicle's arrays) and the loop's argument
        kinds (``Simulation.run_recorded``: int steps, float times [s], the re-sends' slots and kept decodings
        (n,) and (n, 11), the rows (rows x len(COLUMNS)), the stop table (m, 5))."""
        import numpy as np
        from .dbw_step import ranger_dbw_run
        from ...scenario.signals import COLUMNS
        example = (0, 0, 0.0, 0.0, np.zeros(0, dtype=np.int64), np.zeros((0, 11)), 0.0, 0.0,
                   np.zeros((1, len(COLUMNS))), 0, 1, 1, 0.0, np.zeros((0, 5)))
        return specialise(ranger_dbw_run, joined + example)

    def dbw_reading(self, dbw) -> Callable[[], None]:
        """A call that writes the DBW ``dbw``'s reading of this vehicle into its record, from the arrays and
        compiled (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.ranger_measured`: the record
        ``MeasuredState.read`` gives from the attributes, without making them): for the reports after a step
        (the step through the DBW reads the vehicle inside its own compiled call)."""
        from .dbw_step import ranger_measured
        from ...dbw.record import record_array
        args = (record_array(dbw.state), self._out, self._s, self.lever.lv)
        return partial(specialise(ranger_measured, args), *args)

    def row_writer(self, inv_fuel: float) -> Callable:
        """The scenario recorder's compiled row of this vehicle
        (:func:`~acres_dbw_sim.vehicles.polaris.dbw_step.ranger_write_row`, as the headless loop writes it):
        ``write(data, i, t_s, pedal, brake_bar, dbw_enabled)`` fills ``data[i]`` (rows x len(COLUMNS)) after a
        step; ``inv_fuel`` is 1 / (heating value times density) [l/J]
        (:func:`~acres_dbw_sim.scenario.signals.compiled_row_writer`)."""
        from .dbw_step import ranger_write_row
        from ...scenario.signals import compiled_row_writer
        return compiled_row_writer(ranger_write_row, (self._out, self._led, self._s, self.lever.lv), inv_fuel)

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
              gear: Gear = Gear.LOW, drive_mode: AwdSwitch = AwdSwitch.AWD) -> None:
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
        mode = AwdSwitch(drive_mode)
        ch = self.chassis
        sink = place_on_ground(ch, self._k, self.terrain, P.surfaces, P.surface_index, x_m, y_m, yaw_rad, speed_mps,
                               self._mount_rel, self._bf_rel)
        v0 = float(speed_mps)
        Rt = P.tyres.radius_m
        w = v0 / Rt
        st = self._s
        sw = self._sw
        for j in range(4):
            sw[SW_OMEGA + j] = w
            sw[SW_ANGLE + j] = 0.0
            sw[SW_U + j] = 0.0
            sw[SW_Y + j] = 0.0
            sw[SW_Z + j] = sink[j]
            sw[SW_DIG + j] = 0.0   # a reset starts on undisturbed ground
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
        st[S_MODE] = int(mode)
        self._ledger.reset()
        self._ledger_stale = False
        for i in range(len(LEDGER_TERMS)):
            self._led[i] = 0.0
        self.time_s = 0.0
        self._stepped = False
        # the outputs of a vehicle at rest on its springs, in the output array the step writes (the attributes
        # and the compiled step through the DBW, dbw_step.py, read the vehicle from it)
        self._rest_outputs(self.springs.static_load_n, P.chassis.rest_extension_m, sink, P.steering.center_deg, w,
                           False)
        self._out[O_U] = st[S_UREQ]
        kinematics(self._k, ch.x, self._sw, self._out)
        self._outputs_changed()

    def start_running(self, wheel_spin_rad_s=None, engine_rpm: float | None = None, pedal: float = 0.0) -> None:
        """Set the powertrain of a moving start to a recorded state, after :meth:`reset`.

        The reference's moving start (Reset State) assumes a light-load cruise:
        wheels at v0 / R_t, belt at the light-load shift speed. A vehicle recorded
        climbing, slipping or under throttle is in none of these. With its
        reports the state is set as it was: the wheel spins (``wheel_speeds``),
        each tread deflection at the value the wheel's slip holds it
        (:func:`~acres_dbw_sim.model.tyre.steady_deflection_m`), the engine
        speed (``throttle/info`` ``engine_rpm``, at least idle) with
        the belt at the ratio that joins it to the rear wheels,
        ``r = clamp(omega_e / omega_s, r_high, r_low)`` with
        ``omega_s = |omega_RL + omega_RR| / 2 i_r`` (the reset's own relation, solved
        for r), and the torque request at its steady value for ``pedal``
        (``u = u*``, polaris-ranger-dynamics.md Engine). ``None`` keeps the reset's value.

        Parameters
        ----------
        wheel_spin_rad_s : sequence of 4 float, optional
            FL, FR, RL, RR [rad/s].
        engine_rpm : float, optional
            Engine speed [rpm].
        pedal : float
            Accelerator pedal 0..1 in force.

        Raises
        ------
        ValueError
            If a value is not finite or ``wheel_spin_rad_s`` has not 4 entries.
        """
        P = self.params
        sw, st = self._sw, self._s
        if wheel_spin_rad_s is not None:
            spins = [float(x) for x in wheel_spin_rad_s]
            if len(spins) != 4 or not all(math.isfinite(x) for x in spins):
                raise ValueError(f"wheel_spin_rad_s={wheel_spin_rad_s!r}: 4 finite values needed")
            k = self._k
            s_lim = min(1.0, SATURATION / k[K_K_SLIP])   # the tighter of the hard-ground and soil limits
            vx = float(self.velocity_body_mps[0])
            for j in range(4):
                sw[SW_OMEGA + j] = spins[j]
                sw[SW_U + j] = steady_deflection_m(spins[j], vx, k[K_RADIUS + j], k[K_SIGMA_X], s_lim)
            self._out[O_CARRIER] = 0.5 * (spins[2] + spins[3])
        if not math.isfinite(pedal):
            raise ValueError(f"pedal={pedal!r}: must be finite")
        e = P.engine
        info = self.gears[self.lever.gear]
        ws = abs(0.5 * (sw[SW_OMEGA + 2] + sw[SW_OMEGA + 3])) * info.rear_ratio
        if engine_rpm is not None:
            if not math.isfinite(engine_rpm):
                raise ValueError(f"engine_rpm={engine_rpm!r}: must be finite")
            we = max(e.idle_rad_s, float(engine_rpm) / _RAD_S_TO_RPM)
            st[S_WE] = we
            if info.direction != 0 and ws > 1e-6:
                st[S_R] = min(P.cvt.low_ratio, max(P.cvt.high_ratio, we / ws))
        we = float(st[S_WE])
        u_idle = _eng.idle_request(we, e.idle_rad_s, e.idle_gain, self._t_wot_idle, self._t_fr_idle,
                                   self.curves.pumping_nm, e.accessory_drag_nm)
        v_r = abs(0.5 * (sw[SW_OMEGA + 2] + sw[SW_OMEGA + 3])) * P.tyres.radius_m
        g_v = _eng.speed_governor(self._kp[P_MAX_SPEED], v_r, self._kp[P_GOVERNOR_BAND])
        st[S_UREQ] = _eng.torque_target(min(1.0, max(0.0, pedal)), self._kp[P_PEDAL_EXPONENT], g_v, u_idle, False)
        self._out[O_U] = st[S_UREQ]
        kinematics(self._k, self.chassis.x, self._sw, self._out)
        self._outputs_changed()

    # ------------------------------------------------------------------ outputs
    # the Ranger's own outputs: its powertrain state and lever, read when asked
    @property
    def engine_rpm(self) -> float:
        """Engine speed [rev/min]."""
        return float(self._s[S_WE]) * _RAD_S_TO_RPM

    @property
    def cvt_ratio(self) -> float:
        """Belt ratio r [-]."""
        return float(self._s[S_R])

    @property
    def drive_mode(self) -> AwdSwitch:
        """AWD switch of the last step (of the reset before one)."""
        mode = int(self._s[S_MODE])
        return _MODE_OF.get(mode, mode)

    @property
    def torque_request(self) -> float:
        """Engine torque request u of the last step [-]."""
        return self._outputs()[O_U]

    @property
    def gear(self) -> Gear:
        """Lever position (NEUTRAL during a shift)."""
        return _GEAR_OF[int(self.lever.lv[LV_GEAR])]

    @property
    def gear_target(self) -> Gear:
        """Lever position at the end of the shift."""
        return _GEAR_OF[int(self.lever.lv[LV_TARGET])]

    @property
    def shift_in_progress(self) -> bool:
        """The transmission is in neutral for a shift."""
        return bool(self.lever.lv[LV_REMAINING] > 0.0)

    @property
    def last_gear_reject(self) -> GearReject:
        """Reason of the lever's last refused request."""
        return _REJECT_OF[int(self.lever.lv[LV_REJECT])]

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
        return float(self._s[S_WE])

    # ------------------------------------------------------------------ step
    def step(self, inputs: VehicleInputs) -> None:
        """Advance the model by one physics step ``dt_s``.

        Parameters
        ----------
        inputs : VehicleInputs
            Pedal, line pressure, steering-wheel angle, gear request, drive mode.
        """
        sv = self.solver
        self._model_step(self._k, self._kp, self._curves_k, self.terrain.data, self.chassis.x, self._s, self._sw,
                         self._wd, self._box, sv.wh, sv.out, self._led, self._out, self.lever.lv, self._ratios,
                         float(inputs.pedal), float(inputs.brake_line_bar), float(inputs.steering_wheel_deg),
                         int(inputs.gear_request), int(inputs.drive_mode))
        self.stepped()

    def stepped(self) -> None:
        """After a step that ran on :meth:`step_arrays` (:meth:`step`, or the step through the DBW,
        dbw_step.py): the attributes read its outputs, ``time_s`` advances."""
        self.time_s += self.dt_s
        self._stepped = True
        self._ledger_stale = True
        self._ol = None

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
        if not self._stepped:
            return (None, None, None, None)
        o = self._outputs()
        return tuple(tuple(o[O_CP + 3 * j:O_CP + 3 * j + 3]) if o[O_CONTACT + j] != 0.0 else None
                     for j in range(4))


def _compile() -> None:
    """Compile (or load from numba's cache) the step's kernels at import, not in a caller's first step.

    A process that drives the model in real time (the node) would otherwise stall for the compile
    (seconds, once per machine) in its first step; with the cache this takes a fraction of a second.
    """
    v = Vehicle(dt_s=1.0 / 120.0)
    v.step(VehicleInputs())


if JIT:
    _compile()
