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
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import transforms3d

from . import cvt as _cvt
from . import engine as _eng
from .brakes import brake_output_bar
from .chassis import Chassis, quat_to_matrix
from .driveline import FRONT_FREE, FRONT_LOCKED, FRONT_OVERRUN, DrivelineSolver
from .energy import EnergyLedger, fuel_power_w
from .enums import DriveMode, Gear, GearReject
from .gearbox import ADC_PEDAL_THRESHOLD, GearLever, gear_table
from .mass import G_MPS2
from .params import VehicleParameters, load_parameters
from .steering import ackermann_rad, bicycle_angle_rad, steering_wheel_for_curvature_deg
from .suspension import corner_springs
from .terrain import FlatTerrain, Terrain
from .tyre import SATURATION

__all__ = ["VehicleInputs", "Vehicle"]

_RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)

# Body box for roll-overs (not in the reference; a collision stand-in for the game's Chaos box):
# x from 0.6 m behind the rear axle to 0.5 m ahead of the front axle, +/-0.75 m, 0.3 m to the roof.
def _BOX_X_M(wheelbase_m):
    return (-0.6, wheelbase_m + 0.5)


_BOX_Y_M = (-0.75, 0.75)
_BOX_Z_M = (0.3, 1.95)
_BOX_STIFFNESS_N_M = 2.0e5
_BOX_DAMPING_N_S_M = 2.0e4
_BOX_FRICTION = 0.6
_tanh = math.tanh
_sqrt = math.sqrt


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
    ``wheel_slip``, ``steering_wheel_deg``, ``bicycle_angle_rad``,
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
        # Per-wheel scratch, allocated once: [contact, r(3), n(3), heading(3), v_x, v_y, mu, k_water,
        # T_brake, T_roll, relaxation divisor, F_x, F_y, N, -, water force(3)].
        self._wheel_data = [[0.0] * 24 for _ in range(4)]
        self._box_forces = [[0.0] * 6 for _ in range(8)]
        P = self.params
        mp = P.mass_properties
        self.mass_properties = mp
        self.springs = corner_springs(P)
        self.curves = _eng.EngineCurves.from_params(P.engine)
        self.gears = gear_table(P.gearbox)
        self.lever = GearLever(P.gearbox.max_shift_speed_mps, P.gearbox.shift_time_s)
        self.chassis = Chassis(mp.mass_kg, mp.inertia_tensor_kg_m2, P.resistances.angular_damping_per_s)
        self.solver = DrivelineSolver(P.tyres.radius_m)
        self.ledger = EnergyLedger()
        # Geometry: mounts relative to the centre of mass, body frame.
        L, bf, br = P.geometry.wheelbase_m, P.geometry.track_front_m, P.geometry.track_rear_m
        Rt = P.tyres.radius_m
        zm = Rt + P.chassis.rest_extension_m
        cg = mp.cg_m
        self._mount_rel = ((L - cg[0], 0.5 * bf - cg[1], zm - cg[2]), (L - cg[0], -0.5 * bf - cg[1], zm - cg[2]),
                           (-cg[0], 0.5 * br - cg[1], zm - cg[2]), (-cg[0], -0.5 * br - cg[1], zm - cg[2]))
        self._bf_rel = (-cg[0], -cg[1], -cg[2])
        # Corners of the body box (collides with the ground, like the Chaos box of the game).
        self._box_rel = tuple((x - cg[0], y - cg[1], z - cg[2]) for x in _BOX_X_M(L) for y in _BOX_Y_M
                              for z in _BOX_Z_M)
        self._widths = (P.tyres.front_width_m, P.tyres.front_width_m, P.tyres.rear_width_m, P.tyres.rear_width_m)
        self._surf_mu = tuple(s.mu for s in P.surfaces)
        self._surf_f = tuple(s.rolling_resistance for s in P.surfaces)
        self._surf_water = tuple(
            0.5 * 1000.0 * P.resistances.water_drag_coefficient * min(2.0 * Rt, s.water_depth_m)
            if s.water_depth_m > 0.0 else 0.0 for s in P.surfaces)
        self._eta = min(1.0, max(0.05, P.cvt.belt_efficiency * P.cvt.gear_efficiency))
        # Idle-governor constants (curves at idle).
        n_idle = P.engine.idle_rpm
        self._t_wot_idle = _eng.full_load_torque_nm(n_idle, self.curves)
        self._t_fr_idle = _eng.friction_torque_nm(n_idle, self.curves)
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
        ch.p = [x_m + fx * cg[0] + lx * cg[1] + nx * cg[2], y_m + fy * cg[0] + ly * cg[1] + ny * cg[2],
                z + fz * cg[0] + lz * cg[1] + nz * cg[2]]
        v0 = float(speed_mps)
        ch.v = [v0 * fx, v0 * fy, v0 * fz]
        ch.w = [0.0, 0.0, 0.0]
        Rt = P.tyres.radius_m
        w = v0 / Rt
        self._omega = [w, w, w, w]
        self._angle = [0.0, 0.0, 0.0, 0.0]
        self._u = [0.0, 0.0, 0.0, 0.0]
        self._y = [0.0, 0.0, 0.0, 0.0]
        e = P.engine
        self._we = e.idle_rad_s
        info = self.gears[self.lever.gear]
        self._r = P.cvt.low_ratio
        if info.direction != 0 and v0 != 0.0:
            ws = abs(v0) / Rt * info.rear_ratio
            r = P.cvt.shift_rpm_light / _RAD_S_TO_RPM / ws
            self._r = min(P.cvt.low_ratio, max(P.cvt.high_ratio, r))
            self._we = max(e.idle_rad_s, self._r * ws)
        self._ureq = _eng.idle_request(e.idle_rad_s, e.idle_rad_s, e.idle_gain, self._t_wot_idle,
                                       self._t_fr_idle, self.curves.pumping_nm, e.accessory_drag_nm)
        self._tc_prev = 0.0
        self.fuel_l = P.fuel.tank_l
        self.clutch_heat_j = 0.0
        self.ledger.reset()
        self.time_s = 0.0
        n0 = self.springs.static_load_n
        self.wheel_load_n = tuple(n0)
        self.wheel_in_contact = (True, True, True, True)
        self.contact_point_m = (None, None, None, None)
        self.wheel_extension_m = (P.chassis.rest_extension_m,) * 4
        self.steering_wheel_deg = P.steering.center_deg
        self.road_wheel_angle_rad = (0.0, 0.0, 0.0, 0.0)
        self.bicycle_angle_rad = 0.0
        self.brake_torque_nm = (0.0, 0.0, 0.0, 0.0)
        self.engine_torque_nm = 0.0
        self.torque_request = self._ureq
        self.fuel_rate_l_h = 0.0
        self.clutch_torque_nm = 0.0
        self.carrier_speed_rad_s = 0.5 * (self._omega[2] + self._omega[3])
        self.wheel_fx_n = (0.0,) * 4
        self.wheel_fy_n = (0.0,) * 4
        self.wheel_slip = (0.0,) * 4
        self.front_engaged = (False, False)
        self.specific_force_body_mps2 = (0.0, 0.0, G_MPS2)
        self._publish_kinematics()

    # ------------------------------------------------------------------ outputs
    def _publish_kinematics(self) -> None:
        ch = self.chassis
        R = quat_to_matrix(*ch.q)
        bx, by, bz = self._bf_rel
        p, v, w = ch.p, ch.v, ch.w
        self.position_m = (p[0] + R[0] * bx + R[1] * by + R[2] * bz, p[1] + R[3] * bx + R[4] * by + R[5] * bz,
                           p[2] + R[6] * bx + R[7] * by + R[8] * bz)
        self.orientation_wxyz = tuple(ch.q)
        vbx = R[0] * v[0] + R[3] * v[1] + R[6] * v[2]
        vby = R[1] * v[0] + R[4] * v[1] + R[7] * v[2]
        vbz = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]
        vbx += w[1] * bz - w[2] * by
        vby += w[2] * bx - w[0] * bz
        vbz += w[0] * by - w[1] * bx
        self.velocity_body_mps = (vbx, vby, vbz)
        self.angular_velocity_body_rad_s = (w[0], w[1], w[2])
        self.speed_mps = vbx
        self.yaw_rate_rad_s = w[2]
        self.wheel_spin_rad_s = tuple(self._omega)
        self.wheel_angle_rad = tuple(self._angle)
        self.engine_rpm = self._we * _RAD_S_TO_RPM
        self.cvt_ratio = self._r
        self.gear = self.lever.gear
        self.gear_target = self.lever.target
        self.shift_in_progress = self.lever.shift_in_progress
        self.last_gear_reject = self.lever.last_reject

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
        P = self.params
        dt = self.dt_s
        ch = self.chassis
        sv = self.solver
        led = self.ledger
        Rt = P.tyres.radius_m
        pedal = inputs.pedal
        pedal = 0.0 if pedal != pedal or pedal < 0.0 else 1.0 if pedal > 1.0 else pedal

        # 1. Gear lever (shift rule) and drive mode --------------------------------------------
        lever = self.lever
        if inputs.gear_request != Gear.NONE:
            lever.request(inputs.gear_request, self.speed_mps)
        gear = lever.gear
        mode = inputs.drive_mode
        self.drive_mode = mode
        info = self.gears[gear]
        d_dir = info.direction
        i_r = info.rear_ratio
        K = info.ring_ratio
        in_gear = d_dir != 0
        park = gear == Gear.PARK

        # 2. Steering ------------------------------------------------------------------------
        lock = P.dbw["steering"]["lock_deg"]
        sw = inputs.steering_wheel_deg
        sw = -lock if sw < -lock else lock if sw > lock else sw
        self.steering_wheel_deg = sw
        delta = bicycle_angle_rad(sw, P.steering.ratio, P.steering.center_deg)
        dl, dr = ackermann_rad(delta, P.geometry.wheelbase_m, P.geometry.track_front_m)
        angles = (dl, dr, 0.0, 0.0)
        self.road_wheel_angle_rad = angles
        self.bicycle_angle_rad = delta

        # 3. Powertrain ----------------------------------------------------------------------
        e = P.engine
        cv = P.cvt
        curves = self.curves
        om = self._omega
        we0 = self._we
        n_rpm = we0 * _RAD_S_TO_RPM
        t_wot = _eng.full_load_torque_nm(n_rpm, curves)
        t_fr = _eng.friction_torque_nm(n_rpm, curves)
        t_pu = curves.pumping_nm
        t_acc = e.accessory_drag_nm
        v_r = abs(0.5 * (om[2] + om[3])) * Rt
        g_v = _eng.speed_governor(e.max_speed_mps, v_r)
        u_idle = _eng.idle_request(we0, e.idle_rad_s, e.idle_gain, self._t_wot_idle, self._t_fr_idle, t_pu, t_acc)
        empty = P.fuel.tank_l > 0.0 and self.fuel_l <= 0.0
        u_star = _eng.torque_target(pedal, e.pedal_exponent, g_v, u_idle, empty)
        u = _eng.lag(self._ureq, u_star, e.torque_lag_s, dt)
        self._ureq = u
        fuel_on = u > 0.0 and t_wot > 0.0 and not empty
        t_e = _eng.engine_torque_nm(u, fuel_on, t_wot, t_fr, t_pu)
        j_e = e.inertia_kg_m2
        w_free = _eng.free_speed_rad_s(we0, t_e, t_acc, j_e, dt)
        cap = _cvt.clutch_capacity_nm(w_free, cv.engage_rad_s, cv.full_engage_rad_s, cv.clutch_capacity_nm)
        cap_ebs = _cvt.ebs_capacity_nm(w_free, e.idle_rad_s, cv.engage_rad_s, cv.ebs_capacity_nm, cv.ebs)
        if in_gear:
            cap_fwd = cap
            cap_rev = cap if cap > cap_ebs else cap_ebs
        else:
            cap_fwd = cap_rev = 0.0
        n_s = _cvt.shift_speed_rpm(self._tc_prev, curves.peak_nm, cv.shift_rpm_light, cv.shift_rpm_full)
        w_s = abs(0.5 * (om[2] + om[3])) * i_r
        grips = in_gear and (cap > 0.0 or (cap_ebs > 0.0 and self._tc_prev < 0.0))
        r_star = _cvt.ratio_target(grips, n_s, w_s, cv.high_ratio, cv.low_ratio)
        r = _eng.lag(self._r, r_star, cv.shift_tau_s, dt)
        self._r = r
        R_all = d_dir * r * i_r

        # 4. Wheels --------------------------------------------------------------------------
        q0 = ch.q
        Rm = quat_to_matrix(q0[0], q0[1], q0[2], q0[3])
        R0, R1_, R2, R3, R4, R5, R6, R7, R8 = Rm
        px, py, pz = ch.p
        vx0, vy0, vz0 = ch.v
        wbx, wby, wbz = ch.w
        wwx = R0 * wbx + R1_ * wby + R2 * wbz
        wwy = R3 * wbx + R4 * wby + R5 * wbz
        wwz = R6 * wbx + R7 * wby + R8 * wbz
        dxr, dyr, dzr = -R2, -R5, -R8            # ray direction: body down axis
        terrain = self.terrain
        plane = terrain.is_plane
        wsi = terrain.wheel_surface_index
        spr = self.springs
        x0s, xbs, kbs = spr.droop_m, spr.bump_start_m, spr.bump_rate_n_m2
        datum = P.chassis.compression_datum_m
        ty = P.tyres
        sig_x, tau_c, k_s = ty.longitudinal_relaxation_m, ty.carcass_damping_s, ty.hard_slip_stiffness
        p_out = brake_output_bar(inputs.brake_line_bar, P.brakes.pressure_bias_bar, P.brakes.max_bar)
        tb_f = P.brakes.front_nm_per_bar * p_out
        tb_r = P.brakes.rear_nm_per_bar * p_out
        j_rear = ty.wheel_inertia_kg_m2 + 0.5 * cv.secondary_inertia_kg_m2 * i_r * i_r
        wheel_data = self._wheel_data
        loads = [0.0, 0.0, 0.0, 0.0]
        contact = [False, False, False, False]
        exts = [0.0, 0.0, 0.0, 0.0]
        for j in range(4):
            mx, my, mz = self._mount_rel[j]
            pmx = px + R0 * mx + R1_ * my + R2 * mz
            pmy = py + R3 * mx + R4 * my + R5 * mz
            pmz = pz + R6 * mx + R7 * my + R8 * mz
            zg, nx, ny, nz, si = terrain.height_normal_surface(pmx, pmy)
            nd = nx * dxr + ny * dyr + nz * dzr
            t = 1e9
            if nd < -1e-6:
                t = nz * (zg - pmz) / nd
                if not plane:
                    for _ in range(2):
                        cx = pmx + t * dxr
                        cy = pmy + t * dyr
                        zg, nx, ny, nz, si = terrain.height_normal_surface(cx, cy)
                        nd = nx * dxr + ny * dyr + nz * dzr
                        if nd >= -1e-6:
                            t = 1e9
                            break
                        t = (nx * (cx - pmx) + ny * (cy - pmy) + nz * (zg - pmz)) / nd
            if t < 0.0:
                t = 1e9  # the mount is below the ground (body fallen through): no wheel contact
            s_ext = t - Rt
            exts[j] = s_ext
            tb = tb_f if j < 2 else tb_r
            jj = ty.wheel_inertia_kg_m2 if j < 2 else j_rear
            wd = wheel_data[j]
            if s_ext > datum:
                self._u[j] = 0.0
                self._y[j] = 0.0
                wd[0] = 0.0
                sv.set_wheel(j, jj, dt, om[j], 0.0, 0.0, 0.0, tb)
                wd[14] = tb
                wd[15] = 0.0
                continue
            cpx = pmx + t * dxr
            cpy = pmy + t * dyr
            cpz = pmz + t * dzr
            rx, ry, rz = cpx - px, cpy - py, cpz - pz
            vcx = vx0 + wwy * rz - wwz * ry
            vcy = vy0 + wwz * rx - wwx * rz
            vcz = vz0 + wwx * ry - wwy * rx
            a = angles[j]
            ca, sa = math.cos(a), math.sin(a)
            f0x = R0 * ca + R1_ * sa
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
            x_s = datum - s_ext
            n0 = spr.static_load_n[j]
            nl = n0 + spr.rate_n_m[j] * (x_s - x0s) - spr.damper_n_s_m[j] * v_n
            b = x_s - xbs
            if b > 0.0:
                nl += kbs * b * b
            hi = 6.0 * n0
            nl = 0.0 if nl < 0.0 else hi if nl > hi else nl
            if nl < 1.0:
                self._u[j] = 0.0
                self._y[j] = 0.0
                wd[0] = 0.0
                sv.set_wheel(j, jj, dt, om[j], 0.0, 0.0, 0.0, tb)
                wd[14] = tb
                wd[15] = 0.0
                continue
            if wsi[j] >= 0:
                si = wsi[j]
            mu = self._surf_mu[si]
            ff = self._surf_f[si]
            t_roll = (ff if ff < 0.45 else 0.45) * nl * Rt
            # slip coefficients (tyre.slip_coefficients inlined)
            u_j = self._u[j]
            aa = 1.0 + dt * abs(v_x) / sig_x
            gg = 1.0 + tau_c / dt
            kk = k_s / sig_x
            a1 = kk * gg * dt * Rt / aa
            a0 = kk * (gg * (u_j - dt * v_x) / aa - (tau_c / dt) * u_j)
            sv.set_wheel(j, jj, dt, om[j], mu * nl, a1, a0, tb + t_roll)
            loads[j] = nl
            contact[j] = True
            wd[0] = 1.0
            wd[1], wd[2], wd[3] = rx, ry, rz
            wd[4], wd[5], wd[6] = nx, ny, nz
            wd[7], wd[8], wd[9] = hx, hy, hz
            wd[10] = v_x
            wd[11] = v_y
            wd[12] = mu
            wd[13] = self._surf_water[si]
            wd[14] = tb
            wd[15] = t_roll
            wd[16] = aa
        self.wheel_load_n = tuple(loads)
        self.wheel_in_contact = tuple(contact)
        self.contact_point_m = tuple((px + wheel_data[j][1], py + wheel_data[j][2], pz + wheel_data[j][3])
                                     if contact[j] else None for j in range(4))
        self.wheel_extension_m = tuple(exts)
        self.brake_torque_nm = (tb_f, tb_f, tb_r, tb_r)

        # 5. Driveline solve -----------------------------------------------------------------
        if mode == DriveMode.AWD:
            two_way = park or (cv.adc and pedal < ADC_PEDAL_THRESHOLD)
            front_mode = FRONT_LOCKED if two_way else FRONT_OVERRUN
        else:
            front_mode = FRONT_FREE
        open_rear = mode == DriveMode.TURF
        sv.solve(dt, in_gear, park, open_rear, front_mode, K, R_all, self._eta, j_e, w_free, cap_fwd, cap_rev,
                 P.gearbox.park_hold_nm)
        c1 = sv.carrier_rad_s
        t_c = sv.clutch_torque_nm
        t_sup = sv.carrier_torque_nm
        c0 = 0.5 * (om[2] + om[3])
        c_mean = 0.5 * (c0 + c1)
        we1 = w_free - dt * t_c / j_e
        if we1 < 0.0:
            we1 = 0.0
        heat = t_c * (we1 - R_all * c1)
        if heat > 0.0:
            self.clutch_heat_j += heat * dt
        self._we = we1
        self._tc_prev = t_c
        we_mean = 0.5 * (we0 + we1)
        p_fuel, p_b = fuel_power_w(fuel_on, t_e, t_fr, t_pu, u, we_mean, e.indicated_efficiency)
        vol = p_fuel * dt / (P.fuel.lhv_j_kg * P.fuel.density_kg_l)
        if P.fuel.tank_l > 0.0:
            self.fuel_l = max(0.0, self.fuel_l - vol)
        self.fuel_rate_l_h = vol / dt * 3600.0
        self.engine_torque_nm = t_e
        self.torque_request = u
        self.clutch_torque_nm = t_c
        self.carrier_speed_rad_s = c1
        self.front_engaged = (sv.driven[0], sv.driven[1])

        # ledger: powertrain side
        led.fuel_j += p_fuel * dt
        led.engine_loss_j += (p_fuel - p_b) * dt
        led.parasitic_j += t_acc * we_mean * dt
        led.engine_kinetic_j += 0.5 * j_e * (we1 * we1 - we0 * we0)
        if in_gear:
            led.clutch_j += t_c * (we_mean - R_all * c_mean) * dt
            led.driveline_j += (t_c * R_all - t_sup) * c_mean * dt
        elif park:
            led.brake_j -= t_sup * c_mean * dt
        shaft_work = 0.0
        omega_new = sv.omega
        for j in range(4):
            w0 = om[j]
            w1 = omega_new[j]
            wm = 0.5 * (w0 + w1)
            jj = sv.jdt[j] * dt
            led.wheel_kinetic_j += 0.5 * jj * (w1 * w1 - w0 * w0)
            th = _tanh(10.0 * w1)
            wd = wheel_data[j]
            led.brake_j += wd[14] * th * wm * dt
            led.rolling_j += wd[15] * th * wm * dt
            if sv.driven[j]:
                shaft_work += sv.shaft_torque_nm[j] * wm * dt
        led.coupling_j += t_sup * c_mean * dt - shaft_work

        # 6. Chassis -------------------------------------------------------------------------
        m = ch.mass_kg
        fx_t, fy_t, fz_t = 0.0, 0.0, -m * G_MPS2
        mx_t, my_t, mz_t = 0.0, 0.0, 0.0
        fxs = [0.0, 0.0, 0.0, 0.0]
        fys = [0.0, 0.0, 0.0, 0.0]
        slips = [0.0, 0.0, 0.0, 0.0]
        sig_y = ty.relaxation_m
        c_al = ty.cornering_per_load_1_rad
        lim_u = SATURATION * sig_x / k_s
        for j in range(4):
            wd = wheel_data[j]
            w1 = omega_new[j]
            self._angle[j] += w1 * dt
            if wd[0] == 0.0:
                wd[17] = wd[18] = wd[19] = wd[20] = 0.0
                continue
            nl = loads[j]
            v_x = wd[10]
            v_y = wd[11]
            mu = wd[12]
            fxl = sv.fx_n[j]
            # longitudinal deflection state (tyre.deflection_end_m inlined)
            un = (self._u[j] + dt * (w1 * Rt - v_x)) / wd[16]
            self._u[j] = lim_u if un > lim_u else -lim_u if un < -lim_u else un
            slips[j] = self._u[j] / sig_x
            # lateral force with relaxation and friction circle (tyre.lateral_force_and_state inlined)
            ay = 1.0 + dt * abs(v_x) / sig_y
            y0 = self._y[j]
            yv = (y0 + dt * v_y) / ay
            lim = mu * sig_y / c_al
            yv = lim if yv > lim else -lim if yv < -lim else yv
            fyl = -c_al * nl * (yv + tau_c * (yv - y0) / dt) / sig_y
            cap2 = mu * mu * nl * nl - fxl * fxl
            capy = _sqrt(cap2) if cap2 > 0.0 else 0.0
            fyl = capy if fyl > capy else -capy if fyl < -capy else fyl
            self._y[j] = yv
            fxs[j] = fxl
            fys[j] = fyl
            nx, ny, nz = wd[4], wd[5], wd[6]
            hx, hy, hz = wd[7], wd[8], wd[9]
            lx, ly, lz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx
            Fx = nl * nx + fxl * hx + fyl * lx
            Fy = nl * ny + fxl * hy + fyl * ly
            Fz = nl * nz + fxl * hz + fyl * lz
            kw = wd[13]
            if kw > 0.0:
                vhx, vhy, vhz = v_x * hx + v_y * lx, v_x * hy + v_y * ly, v_x * hz + v_y * lz
                sp = _sqrt(vhx * vhx + vhy * vhy + vhz * vhz)
                wfx, wfy, wfz = -kw * sp * vhx, -kw * sp * vhy, -kw * sp * vhz
                Fx += wfx
                Fy += wfy
                Fz += wfz
            else:
                wfx = wfy = wfz = 0.0
            wd[17], wd[18], wd[19], wd[20] = fxl, fyl, nl, 0.0
            wd[21], wd[22], wd[23] = wfx, wfy, wfz
            rx, ry, rz = wd[1], wd[2], wd[3]
            fx_t += Fx
            fy_t += Fy
            fz_t += Fz
            mx_t += ry * Fz - rz * Fy
            my_t += rz * Fx - rx * Fz
            mz_t += rx * Fy - ry * Fx
        self.wheel_fx_n = tuple(fxs)
        self.wheel_fy_n = tuple(fys)
        self.wheel_slip = tuple(slips)
        # body box against the ground (only when a wheel has lost contact: roll-over, fall)
        box = self._box_forces
        nbox = 0
        if not (contact[0] and contact[1] and contact[2] and contact[3]):
            for (bx_, by_, bz_) in self._box_rel:
                rx = R0 * bx_ + R1_ * by_ + R2 * bz_
                ry = R3 * bx_ + R4 * by_ + R5 * bz_
                rz = R6 * bx_ + R7 * by_ + R8 * bz_
                zg, nx, ny, nz, _ = terrain.height_normal_surface(px + rx, py + ry)
                depth = (zg - pz - rz) * nz
                if depth <= 0.0:
                    continue
                vcx = vx0 + wwy * rz - wwz * ry
                vcy = vy0 + wwz * rx - wwx * rz
                vcz = vz0 + wwx * ry - wwy * rx
                v_n = vcx * nx + vcy * ny + vcz * nz
                nb = _BOX_STIFFNESS_N_M * depth - _BOX_DAMPING_N_S_M * v_n
                if nb <= 0.0:
                    continue
                tx, ty_, tz = vcx - v_n * nx, vcy - v_n * ny, vcz - v_n * nz
                vt = _sqrt(tx * tx + ty_ * ty_ + tz * tz)
                ft = -_BOX_FRICTION * nb * _tanh(vt / 0.1) / vt if vt > 1e-9 else 0.0
                Fx = nb * nx + ft * tx
                Fy = nb * ny + ft * ty_
                Fz = nb * nz + ft * tz
                fx_t += Fx
                fy_t += Fy
                fz_t += Fz
                mx_t += ry * Fz - rz * Fy
                my_t += rz * Fx - rx * Fz
                mz_t += rx * Fy - ry * Fx
                bf = box[nbox]
                bf[0], bf[1], bf[2], bf[3], bf[4], bf[5] = rx, ry, rz, Fx, Fy, Fz
                nbox += 1
        # aerodynamic drag at the centre of mass
        ka = -0.5 * P.aero.air_density_kg_m3 * P.aero.drag_area_m2 * _sqrt(vx0 * vx0 + vy0 * vy0 + vz0 * vz0)
        fax, fay, faz = ka * vx0, ka * vy0, ka * vz0
        fx_t += fax
        fy_t += fay
        fz_t += faz
        mbx = R0 * mx_t + R3 * my_t + R6 * mz_t
        mby = R1_ * mx_t + R4 * my_t + R7 * mz_t
        mbz = R2 * mx_t + R5 * my_t + R8 * mz_t
        ke0 = ch.kinetic_energy_j()
        z0 = pz
        damp_loss, wmb = ch.integrate(fx_t, fy_t, fz_t, mbx, mby, mbz, dt)
        ke1 = ch.kinetic_energy_j()
        vx1, vy1, vz1 = ch.v
        # ledger: chassis side (mean velocities of the step, see energy.py)
        vmx, vmy, vmz = 0.5 * (vx0 + vx1), 0.5 * (vy0 + vy1), 0.5 * (vz0 + vz1)
        wmx = R0 * wmb[0] + R1_ * wmb[1] + R2 * wmb[2]
        wmy = R3 * wmb[0] + R4 * wmb[1] + R5 * wmb[2]
        wmz = R6 * wmb[0] + R7 * wmb[1] + R8 * wmb[2]
        susp = slip = water = 0.0
        for j in range(4):
            wd = wheel_data[j]
            if wd[0] == 0.0:
                continue
            rx, ry, rz = wd[1], wd[2], wd[3]
            cvx = vmx + wmy * rz - wmz * ry
            cvy = vmy + wmz * rx - wmx * rz
            cvz = vmz + wmx * ry - wmy * rx
            nx, ny, nz = wd[4], wd[5], wd[6]
            hx, hy, hz = wd[7], wd[8], wd[9]
            lx, ly, lz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx
            fxl, fyl, nl = wd[17], wd[18], wd[19]
            susp -= nl * (cvx * nx + cvy * ny + cvz * nz)
            wm = 0.5 * (om[j] + omega_new[j])
            slip += fxl * (Rt * wm - (cvx * hx + cvy * hy + cvz * hz)) - fyl * (cvx * lx + cvy * ly + cvz * lz)
            water -= wd[21] * cvx + wd[22] * cvy + wd[23] * cvz
        body = 0.0
        for k in range(nbox):
            rx, ry, rz, Fx, Fy, Fz = box[k]
            cvx = vmx + wmy * rz - wmz * ry
            cvy = vmy + wmz * rx - wmx * rz
            cvz = vmz + wmx * ry - wmy * rx
            body -= Fx * cvx + Fy * cvy + Fz * cvz
        led.body_contact_j += body * dt
        led.suspension_j += susp * dt
        led.tyre_slip_j += slip * dt
        led.water_j += water * dt
        led.aero_j -= (fax * vmx + fay * vmy + faz * vmz) * dt
        led.angular_damping_j += damp_loss
        led.chassis_kinetic_j += ke1 - ke0
        led.potential_j += m * G_MPS2 * (ch.p[2] - z0)

        # outputs
        for j in range(4):
            om[j] = omega_new[j]
        lever.advance(dt)
        self.time_s += dt
        # specific force at base_footprint (body frame, gravity included)
        R1m = quat_to_matrix(*ch.q)
        ax, ay_, az = (vx1 - vx0) / dt, (vy1 - vy0) / dt, (vz1 - vz0) / dt + G_MPS2
        abx = R1m[0] * ax + R1m[3] * ay_ + R1m[6] * az
        aby = R1m[1] * ax + R1m[4] * ay_ + R1m[7] * az
        abz = R1m[2] * ax + R1m[5] * ay_ + R1m[8] * az
        w1b = ch.w
        alx, aly, alz = (w1b[0] - wbx) / dt, (w1b[1] - wby) / dt, (w1b[2] - wbz) / dt
        bx, by, bz = self._bf_rel
        cx_ = w1b[1] * bz - w1b[2] * by
        cy_ = w1b[2] * bx - w1b[0] * bz
        cz_ = w1b[0] * by - w1b[1] * bx
        abx += aly * bz - alz * by + w1b[1] * cz_ - w1b[2] * cy_
        aby += alz * bx - alx * bz + w1b[2] * cx_ - w1b[0] * cz_
        abz += alx * by - aly * bx + w1b[0] * cy_ - w1b[1] * cx_
        self.specific_force_body_mps2 = (abx, aby, abz)
        self._publish_kinematics()
