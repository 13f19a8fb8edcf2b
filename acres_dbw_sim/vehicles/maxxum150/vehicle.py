"""The Maxxum 150 tractor: its own parts composed with the shared stages into one physics step.

The Physics Step (maxxum-150-dynamics.md, "The Physics Step"), steps 4 to 10:

4. controls: the gear and direction requests and the driveline set-up they need
   (``transmission.request_gear``, ``transmission.request_direction``, ``driveline_setup``;
   :meth:`Tractor.step`, Python), then the park brake, the brake and engine commands with the
   hand throttle and the gear change's clock (:func:`tractor_advance`, compiled),
5. StepSteering (``steering.step_steering``, the shared Ackermann), StepDrivetrain:
   the engine (``engine.step_engine``) and the clutch engagement and capacity
   (``clutch.*``),
6. PrepareWheel for each wheel: the shared :func:`~acres_dbw_sim.model.stages.prepare_wheels`
   with the load-proportional brakes ``T_b = 1.5 b_k N r``,
7. SolveDriveline: the shared :func:`~acres_dbw_sim.model.driveline.solve_driveline`
   with the tractor's ratio, efficiency, clutch capacity, MFD at kappa and the
   differential locks; the engine speed, the clutch heat and the fuel,
8. to 10. the shared :func:`~acres_dbw_sim.model.stages.chassis_stage`: the wheels'
   forces, water drag, air drag, the implement's force (``implement.*``, evaluated
   at the start of the step in :meth:`Tractor.step`) and the 6-DOF integration.

Steps 5 to 10 are one compiled kernel, :func:`tractor_step`, over the shared arrays of
stages.py and the tractor's own constants ``kt`` (``T_*``) and state ``s`` (``S_*``);
:func:`tractor_advance` runs the compiled part of step 4 and then the kernel, with the controls
between steps in ``tv`` (``TV_*``), for :meth:`Tractor.step` and for the step through the DBW in
one compiled call (``dbw_vehicle.tractor_dbw_step``).

Frames: body x forward, y left, z up (REP-103); ``base_footprint`` is the ground point
below the rear-axle centre at rest; world frame ``odom``. Wheels 0 FL, 1 FR, 2 RL, 3 RR.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...model._jit import JIT, HoldsEntry, array, njit, specialise, to_list
from ...model.body import VehicleBody
from ...model.chassis import Chassis, quat_to_matrix
from ...model.driveline import D_TSUP, FRONT_FREE, FRONT_LOCKED, FRONT_OPEN, DrivelineSolver, solve_driveline
from ...model.energy import LEDGER_TERMS, EnergyLedger, clamped_efficiency
from ...model.filters import delay_steps
from ...model.chassis import G_MPS2
from ...model.world import World
from ...model.stages import (K_DT, N_EXT, N_OUT, N_WHEEL_STATE, O_ANGLE, O_DELTA, O_SW, SW_ANGLE,
                             SW_DIG, SW_OMEGA, SW_U, SW_Y, SW_Z, W_SIZE, chassis_stage, kinematics,
                             place_on_ground, prepare_wheels, settle_powertrain, shared_constants,
                             wheel_ledger)
from ...model.suspension import damper_n_s_m, series_rate_n_m
from ...model.terrain import FlatTerrain, Terrain
from .brakes import brake_command
from .chassis import front_axle_angle_rad
from .clutch import clutch_capacity_nm, engagement_target, step_engagement
from .engine import (TractorEngine, engage_pto_hand_throttle, engine_arrays, engine_from_arrays, engine_command,
                     nudge_hand_throttle, step_engine)
from .implement import (articulation_angle_rad, draft_coefficients, draft_force_n, draft_point_m, drawbar_force_n,
                        implement_draft_n, lagged_acceleration_mps2, lagged_speed_kmh, limit_force_n, pto_ratio,
                        pto_shaft_speed_rpm, pump_flow_fraction, trailer_axle_distance_m, trailer_axle_follow_m,
                        trailer_drawbar_load_n)
from .mass import mass_update_needed, mounted_implement_part, tractor_mass
from .params import MaxxumParameters, load_maxxum_parameters
from .steering import front_wheel_angles_rad, step_steering, turn_radius_m
from .transmission import (FORWARD, REVERSE, advance_shift, driveline_setup, overall_ratio, request_direction,
                           request_gear)

__all__ = ["TractorInputs", "Tractor", "tractor_step", "tractor_advance", "unit_command", "present_ratio"]

_RAD_S_TO_RPM = 60.0 / (2.0 * math.pi)

# ------------------------------------------------------------------ kernel layout
_T_NAMES = (
    "wheelbase",         # L [m]
    "track",             # T [m]
    "steer_tau",         # tau_s [s]
    "max_steer",         # delta_max [rad]
    "steer_rate",        # maximum steering rate [rad/s]
    "dbw_ratio",         # steering-wheel degrees per degree of delta (DBW mapping) [-]
    "rear_radius",       # r_r [m]
    "clutch_cap",        # T_cl [N m]
    "engage_time",       # t_c [s]
    "command_min",       # u above which the clutch engages [-]
    "brake_max",         # b_k below which the clutch engages [-]
    "stall_low",         # stall protection: capacity 0 at this fraction of idle [-]
    "idle_rad_s",        # omega_idle [rad/s]
    "j_engine",          # J_e [kg m^2]
    "eta",               # driveline efficiency [-]
    "brake_gain",        # 1.5 [-]
    "j_front",           # J_w of a front wheel [kg m^2]
    "j_rear",            # J_w of a rear wheel [kg m^2]
    "eta_indicated",     # eta_i [-]
    "lhv",               # H_u [J/kg]
    "fuel_density",      # rho_f [kg/L]
    "tank_l",            # tank [L]
)
(T_WHEELBASE, T_TRACK, T_STEER_TAU, T_MAX_STEER, T_STEER_RATE, T_DBW_RATIO, T_REAR_RADIUS, T_CLUTCH_CAP,
 T_ENGAGE_TIME, T_COMMAND_MIN, T_BRAKE_MAX, T_STALL_LOW, T_IDLE_RAD_S, T_J_ENGINE, T_ETA, T_BRAKE_GAIN, T_J_FRONT,
 T_J_REAR, T_ETA_INDICATED, T_LHV, T_FUEL_DENSITY, T_TANK_L) = range(len(_T_NAMES))
# The tractor's own state s (the wheels' state is sw, stages.py).
S_WE = 0          # engine speed omega_e [rad/s]
S_DELTA = 1       # bicycle steering angle delta [rad]
S_EPS = 2         # clutch engagement epsilon [-]
S_FUEL = 3        # fuel in the tank [L]
S_HEAT = 4        # clutch slip heat [J]
S_TDRAG = 5       # engine drag torque of the last step [N m]
S_TACC = 6        # accessory torque (PTO and hydraulics) of the last step [N m]
S_CAP = 7         # clutch capacity of the last step [N m]
N_STATE = 8
# The tractor's controls between steps tv (Tractor attributes are views of it; the compiled step through the
# DBW reads and writes it): the powershift, the hand throttle, the steering delay line's head, the park brake,
# the driveline set-up of the present gear (valid or to be made in Python), the constant loads and whether an
# implement acts (its force is evaluated in Python).
TV_GEAR = 0       # powershift gear 1..16
TV_DIRECTION = 1  # +1 forward, -1 reverse
TV_SHIFT_LEFT = 2  # time left of a gear change [s]
TV_HAND = 3       # hand throttle 0..1
TV_HEAD = 4       # steering delay line's head
TV_PARK = 5       # park brake 1 / 0
TV_SETUP = 6      # 1: the set-up below is the present gear's (Tractor._setup), 0: made by the next step
TV_RATIO = 7      # overall ratio i of the set-up [-]
TV_OPEN_REAR = 8  # 1: rear differential open
TV_FRONT_MODE = 9  # driveline.FRONT_FREE / FRONT_OPEN / FRONT_LOCKED
TV_KAPPA = 10     # front carrier speed over rear [-]
TV_PTO_W = 11     # PTO load [W]
TV_HYD_W = 12     # hydraulic load [W]
TV_IMPLEMENT = 13  # 1: an implement is attached
N_TV = 14


def _tv_view(index: int, kind: type, doc: str) -> property:
    """A Tractor attribute stored in ``tv[index]`` (read as ``kind``)."""
    def get(self):
        return kind(self._tv[index])

    def put(self, value) -> None:
        self._tv[index] = float(value)
    return property(get, put, doc=doc)


@njit
def tractor_step(k, kt, curves, ke, td, chx, s, sw, wd, box, wh, dres, led, out, ext, buf, head, u, b_k, delta_cmd,
                 ratio, shifting, open_rear, front_mode, kappa, pto_w, hydraulic_w):
    """Steps 5 to 10 of the tractor's Physics Step (module docstring), in place; returns the delay line's head.

    Parameters
    ----------
    k, kt : arrays
        Shared constants (stages.py ``K_*``) and the tractor's own (``T_*``).
    curves, ke :
        Engine constants (engine.py :func:`~.engine.engine_arrays`).
    td, chx, s, sw, wd, box, wh, dres, led, out, ext :
        Terrain data, chassis state, tractor state, wheel state, scratch, driveline coefficients and
        results, ledger, outputs, the implement's force (stages.py).
    buf, head :
        The steering delay line (steering.py).
    u, b_k : float
        Engine command (pedal or hand throttle) and brake command, 0..1.
    delta_cmd : float
        Steering command delta_cmd [rad], positive to the left.
    ratio : float
        Overall ratio i of the gear and direction [-] (0: no drive).
    shifting : bool
        A gear change is in progress (the clutch target is 0).
    open_rear : bool
        Rear differential open.
    front_mode : int
        driveline.FRONT_FREE (2WD), FRONT_OPEN or FRONT_LOCKED (MFD).
    kappa : float
        Front carrier speed over rear carrier speed [-].
    pto_w, hydraulic_w : float
        PTO and hydraulic loads on the engine [W].
    """
    dt = k[K_DT]
    om = sw[SW_OMEGA:SW_OMEGA + 4]
    en = engine_from_arrays(curves, ke)

    # 5. Steering, engine, clutch ------------------------------------------------------------
    delta, head = step_steering(s[S_DELTA], buf, head, delta_cmd, kt[T_STEER_TAU], kt[T_MAX_STEER],
                                kt[T_STEER_RATE], dt)
    s[S_DELTA] = delta
    dl, dr = front_wheel_angles_rad(delta, kt[T_WHEELBASE], kt[T_TRACK])
    out[O_DELTA] = delta
    out[O_SW] = math.degrees(delta) * kt[T_DBW_RATIO]
    out[O_ANGLE] = dl
    out[O_ANGLE + 1] = dr
    out[O_ANGLE + 2] = 0.0
    out[O_ANGLE + 3] = 0.0
    we0 = s[S_WE]
    v_rear = abs(0.5 * (om[2] + om[3])) * kt[T_REAR_RADIUS]
    empty = kt[T_TANK_L] > 0.0 and s[S_FUEL] <= 0.0
    t_e, t_drag, t_acc, w_free = step_engine(en, u, we0, v_rear, pto_w, hydraulic_w, empty, dt)
    target = engagement_target(u, b_k, shifting, kt[T_COMMAND_MIN], kt[T_BRAKE_MAX])
    eps = step_engagement(s[S_EPS], target, dt, kt[T_ENGAGE_TIME])
    s[S_EPS] = eps
    cap = clutch_capacity_nm(kt[T_CLUTCH_CAP], eps, w_free, kt[T_IDLE_RAD_S], kt[T_STALL_LOW])
    s[S_TDRAG] = t_drag
    s[S_TACC] = t_acc
    s[S_CAP] = cap

    # 6. Wheels (shared stage): load-proportional brakes ---------------------------------------
    all_contact = prepare_wheels(k, td, chx, sw, wd, wh, out, kt[T_J_FRONT], kt[T_J_REAR], 0.0, 0.0,
                                 kt[T_BRAKE_GAIN] * b_k)

    # 7. Driveline solve (shared) ----------------------------------------------------------------
    in_gear = ratio != 0.0
    j_e = kt[T_J_ENGINE]
    solve_driveline(wh, dres, dt, in_gear, False, open_rear, front_mode, kappa, ratio, kt[T_ETA], j_e, w_free,
                    cap, cap, 0.0)
    fuel_on = t_e > 0.0 and not empty
    # the engine after the solve, the fuel and the powertrain ledger (shared): the engine drag is an engine loss,
    # the PTO and hydraulics parasitic; the Willans line without friction and pumping terms (drag is apart)
    c_mean = settle_powertrain(dt, s, S_WE, S_HEAT, S_FUEL, dres, led, out, 0.5 * (om[2] + om[3]), we0, w_free,
                               j_e, ratio, in_gear, False, fuel_on, t_e, 0.0, 0.0, 1.0, kt[T_ETA_INDICATED], t_drag,
                               t_acc, u, kt[T_LHV], kt[T_FUEL_DENSITY], kt[T_TANK_L])
    wheel_ledger(k, sw, wd, wh, dres, led, dres[D_TSUP], c_mean)

    # 8.-10. Chassis (shared stage) ---------------------------------------------------------------
    chassis_stage(k, td, chx, sw, wd, box, wh, dres, led, out, all_contact, ext)
    return head


@njit
def unit_command(v: float) -> float:
    """A command [-] clamped to 0..1; NaN gives 0 (maxxum-150-dynamics.md, "The Physics Step", step 4: the
    throttle and brake commands)."""
    return 0.0 if not v >= 0.0 else 1.0 if v > 1.0 else v


@njit
def present_ratio(tv) -> float:
    """|i| [-], the overall ratio of the present gear and direction from the controls ``tv`` (``TV_*``, shape
    (N_TV,)); 0 while the set-up is not made (after a change, until the next step): what the DBW reads and
    reports as the transmission ratio (maxxum-150-dynamics.md, "Transmission")."""
    return abs(tv[TV_RATIO]) if tv[TV_SETUP] != 0.0 else 0.0


@njit
def tractor_advance(k, kt, curves, ke, td, chx, s, sw, wd, box, wh, dres, led, out, ext, buf, tv, throttle: float,
                    brake: float, steering_rad: float, neutral: bool, park_brake: bool) -> None:
    """Step 4 of the Physics Step (maxxum-150-dynamics.md, "The Physics Step") without the requests (the park
    brake, the brake and engine commands, the gear change's clock, the ratio) and steps 5 to 10
    (:func:`tractor_step`), in place: one step of the tractor whose gear, direction and set-up the requests have
    settled (``tv``, ``TV_*``; ``tv[TV_SETUP]`` must be 1).

    Parameters
    ----------
    k .. buf
        As :func:`tractor_step` (its delay line's head is ``tv[TV_HEAD]``).
    tv : array (N_TV,) of float
        The controls between steps (``TV_*``); the park brake, the gear change's time left and the head are
        written.
    throttle, brake : float
        Pedal and brake commands (:class:`TractorInputs`), clamped to 0..1, NaN as 0.
    steering_rad : float
        delta_cmd [rad]; a non-finite command as 0.
    neutral, park_brake : bool
        As :class:`TractorInputs`.
    """
    dt = k[K_DT]
    throttle = unit_command(throttle)
    tv[TV_PARK] = 1.0 if park_brake else 0.0
    b_k = brake_command(unit_command(brake), park_brake)
    delta_cmd = steering_rad if math.isfinite(steering_rad) else 0.0
    # the gear change runs its clock before the clutch (StepDrivetrain): the step that takes the request counts
    left, shifting = advance_shift(tv[TV_SHIFT_LEFT], dt)
    tv[TV_SHIFT_LEFT] = left
    ratio = 0.0 if neutral else tv[TV_RATIO]
    u = engine_command(throttle, tv[TV_HAND])
    tv[TV_HEAD] = tractor_step(k, kt, curves, ke, td, chx, s, sw, wd, box, wh, dres, led, out, ext, buf,
                               int(tv[TV_HEAD]), u, b_k, delta_cmd, ratio, shifting, tv[TV_OPEN_REAR] != 0.0,
                               int(tv[TV_FRONT_MODE]), tv[TV_KAPPA], tv[TV_PTO_W], tv[TV_HYD_W])


@dataclass
class TractorInputs:
    """Controls of one step (the DBW's actuator outputs or a script).

    Attributes
    ----------
    throttle : float
        Pedal command 0..1; the engine command is the larger of it and the hand throttle.
    brake : float
        Brake command b_k 0..1 (0.1 or more also opens the clutch).
    steering_rad : float
        Steering command delta_cmd [rad] (bicycle angle, positive to the left).
    gear_request : int
        1..16 to change gear (a powershift), 0 for no request.
    direction_request : int
        +1 forward, -1 reverse (taken only below ``transmission.direction_change_mps``), 0 none.
    neutral : bool
        No drive (the clutch disconnected from the gearbox).
    park_brake : bool
        The park brake: b_k = 1.
    """

    throttle: float = 0.0
    brake: float = 0.0
    steering_rad: float = 0.0
    gear_request: int = 0
    direction_request: int = 0
    neutral: bool = False
    park_brake: bool = False


class Tractor(HoldsEntry, VehicleBody):
    """Case IH Maxxum 150 model (ROS-free), on the shared core of stages.py and driveline.py.

    Parameters
    ----------
    params : MaxxumParameters, optional
        Default: :func:`~acres_dbw_sim.vehicles.maxxum150.params.load_maxxum_parameters` of the shipped file.
    terrain : Terrain, optional
        Default: level concrete. Surfaces are the world's table (``config/world.json``
        ``surfaces`` and ``soils``, shared by both vehicles).
    dt_s : float
        Physics step [s], 1/1000 to 1/60 (default 1/120).

    Raises
    ------
    ValueError
        For a step outside 1/1000..1/60 s; KeyError for a terrain surface not in the table.

    Notes
    -----
    After :meth:`step`, plain floats or tuples: ``time_s``, ``position_m``,
    ``orientation_wxyz``, ``velocity_body_mps``, ``angular_velocity_body_rad_s``,
    ``specific_force_body_mps2``, ``speed_mps``, ``yaw_rate_rad_s``, ``wheel_spin_rad_s``,
    ``wheel_angle_rad``, ``road_wheel_angle_rad``, ``wheel_load_n``, ``wheel_in_contact``,
    ``wheel_extension_m``, ``wheel_fx_n``, ``wheel_fy_n``, ``wheel_slip``, ``sinkage_m``,
    ``brake_torque_nm``, ``bicycle_angle_rad``, ``steering_wheel_deg`` (delta through the DBW
    ratio), ``engine_rpm``, ``engine_torque_nm``, ``clutch_torque_nm``, ``clutch_engagement``,
    ``clutch_capacity_nm``, ``gear``, ``direction``, ``shift_in_progress``, ``front_axle_angle_rad``,
    ``implement_force_n`` (odom), ``trailer_axle_m`` and ``trailer_pin_m`` (odom, the kinematic
    trailer), ``articulation_angle_rad``, ``turn_radius_m``, ``pto_shaft_rpm``, ``hydraulic_flow_fraction``,
    ``hand_throttle``, ``park_brake``, ``fuel_l``, ``fuel_rate_l_h``, ``ledger``.
    """

    gear = _tv_view(TV_GEAR, int, "Powershift gear 1..16.")
    direction = _tv_view(TV_DIRECTION, int, "Direction: +1 forward, -1 reverse.")
    shift_left_s = _tv_view(TV_SHIFT_LEFT, float, "Time left of a gear change [s].")
    hand_throttle = _tv_view(TV_HAND, float, "Hand throttle 0..1.")
    park_brake = _tv_view(TV_PARK, bool, "The park brake is on.")
    _head = _tv_view(TV_HEAD, int, "The steering delay line's head.")

    @property
    def _setup(self):
        """The driveline set-up of the present gear, direction, MFD and locks (``transmission.driveline_setup``),
        None until the next step makes it."""
        return self._setup_made

    @_setup.setter
    def _setup(self, ds) -> None:
        self._setup_made = ds
        tv = self._tv
        tv[TV_SETUP] = 0.0 if ds is None else 1.0
        if ds is not None:
            tv[TV_RATIO] = ds.overall_ratio
            tv[TV_OPEN_REAR] = 0.0 if ds.rear_locked else 1.0
            tv[TV_FRONT_MODE] = (FRONT_LOCKED if ds.front_locked else FRONT_OPEN) if ds.front_driven else FRONT_FREE
            tv[TV_KAPPA] = ds.front_speed_ratio

    def __init__(self, params: MaxxumParameters | None = None, terrain: Terrain | None = None,
                 dt_s: float = 1.0 / 120.0) -> None:
        if not (1.0 / 1000.0 - 1e-12 <= dt_s <= 1.0 / 60.0 + 1e-12):
            raise ValueError(f"dt_s={dt_s!r} outside 1/1000..1/60 s")
        self._tv = array([0.0] * N_TV)
        self.params = P = params if params is not None else load_maxxum_parameters()
        self.world = World(P.surfaces, P.soils)   # the world's tables, assembled with the tractor's file
        self.surfaces = self.world.surfaces
        self.terrain = terrain if terrain is not None else FlatTerrain(surface="concrete")
        self.terrain.bind([s.name for s in self.surfaces])
        self.dt_s = float(dt_s)
        ch, ty, c, tr = P.chassis, P.tyres, P.constants, P.transmission
        im = P.implement
        L, T = ch.wheelbase_m, ch.track_m
        radii = (ty.front_radius_m,) * 2 + (ty.rear_radius_m,) * 2
        self.solver = DrivelineSolver(radii)
        self.payload_kg = im.payload_kg
        self._configure_mass()
        st, e, f = P.steering, P.engine, P.fuel
        L, T = ch.wheelbase_m, ch.track_m
        own = dict(
            wheelbase=L, track=T, steer_tau=st.time_constant_s, max_steer=st.max_steer_rad,
            steer_rate=st.rate_rad_s, dbw_ratio=P.dbw_steering_ratio, rear_radius=ty.rear_radius_m,
            clutch_cap=tr.clutch_capacity_nm, engage_time=tr.clutch_engagement_s, command_min=c.clutch_command_min,
            brake_max=c.clutch_brake_max, stall_low=c.stall_low_fraction, idle_rad_s=e.idle_rad_s,
            j_engine=e.inertia_kg_m2, eta=tr.efficiency, brake_gain=c.brake_gain,
            j_front=0.5 * c.front_wheel_mass_kg * ty.front_radius_m ** 2,
            j_rear=0.5 * c.rear_wheel_mass_kg * ty.rear_radius_m ** 2,
            eta_indicated=clamped_efficiency(f.indicated_efficiency, f.indicated_efficiency_min,
                                             f.indicated_efficiency_max),
            lhv=f.lhv_j_kg, fuel_density=f.density_kg_l, tank_l=f.tank_l)
        self._kt = array([float(own[n]) for n in _T_NAMES])
        self.engine = TractorEngine.from_params(P)
        self._curves_k, self._ke = engine_arrays(self.engine)
        self._buf = array([0.0] * delay_steps(st.delay_s, self.dt_s, "ceil"))
        # implement: draft law per surface (the soil texture follows the soil class when "auto")
        self._draft = None
        if im.attachment != "none":
            self._draft = [draft_coefficients(im, sf.soil_class) if sf.soil is not None else None
                           for sf in self.surfaces]
        self._draft_point = draft_point_m(L, im.hitch_overhang_m, c.draft_point_below_origin_m)
        self._trailer_length_m = trailer_axle_distance_m(im.hitch_to_cg_m, im.hitch_transfer)
        self._pto_ratio = 0.0
        self._s = array([0.0] * N_STATE)
        self._sw = array([0.0] * N_WHEEL_STATE)
        self._ext = array([0.0] * N_EXT)
        self._wd = array([0.0] * (4 * W_SIZE))
        self._box = array([0.0] * 48)
        self._led = array([0.0] * len(LEDGER_TERMS))
        self._out = array([0.0] * N_OUT)
        self._ledger = EnergyLedger()
        self._tv[TV_PTO_W], self._tv[TV_HYD_W] = P.pto.pto_w, P.pto.hydraulic_w
        self._tv[TV_IMPLEMENT] = 0.0 if im.attachment == "none" else 1.0
        # the compiled tractor_advance for these argument types (_jit.specialise), called by every step
        self._advance = self._make_entry()
        self.reset()

    _ENTRY = "_advance"   # made anew by a copy (_jit.HoldsEntry)

    def _make_entry(self):
        """:func:`tractor_advance` specialised for :meth:`step_arrays` (``_jit.specialise``)."""
        return specialise(tractor_advance, self.step_arrays() + (0.0, 0.0, 0.0, False, False))

    def step_arrays(self) -> tuple:
        """The arrays of :func:`tractor_advance` before its commands (constants, terrain, state, outputs,
        controls ``tv``); a compiled caller passes them on. The mass properties of a carried implement's load
        (:meth:`set_payload`) are new arrays: take them again after it."""
        return (self._k, self._kt, self._curves_k, self._ke, self.terrain.data, self.chassis.x, self._s, self._sw,
                self._wd, self._box, self.solver.wh, self.solver.out, self._led, self._out, self._ext, self._buf,
                self._tv)

    def _configure_mass(self) -> None:
        """Mass properties and what depends on them (ConfigureBody, ResetVehicle, ApplyImplementMass).

        The carried implement (``implement.attachment`` mounted, with the payload) joins the body;
        the static loads, the dampers ``C = 2 zeta sqrt(k N_0 / g)`` and the shared constants are
        computed again. A trailed implement is not part of the body (kinematic trailer).
        """
        P = self.params
        ch, ty, c, im = P.chassis, P.tyres, P.constants, P.implement
        carried = None
        if im.attachment == "mounted":
            m_i, r_i, i_i = mounted_implement_part(P)
            carried = (im.empty_mass_kg + self.payload_kg, r_i, i_i)
        self.mass = mp = tractor_mass(P, carried)
        L = ch.wheelbase_m
        cg, xr, hcg = mp.cg_m, mp.cg_ahead_of_rear_axle_m, mp.cg_height_m
        # mounts and base_footprint relative to the centre of mass (body frame)
        self._mount_rel = tuple((m[0] - cg[0], m[1] - cg[1], m[2] - cg[2]) for m in mp.mounts_m)
        self._bf_rel = (-xr, -cg[1], -hcg)
        ixx, iyy, izz = mp.inertia_kg_m2
        tensor = ((ixx, 0.0, 0.0), (0.0, iyy, 0.0), (0.0, 0.0, izz))
        if getattr(self, "chassis", None) is None:
            self.chassis = Chassis(mp.mass_kg, tensor, c.angular_damping)
        else:                                   # keep the motion; the new body from here on
            x = to_list(self.chassis.x)
            self.chassis = Chassis(mp.mass_kg, tensor, c.angular_damping)
            for i, v in enumerate(x):
                self.chassis.x[i] = v
        radii = (ty.front_radius_m,) * 2 + (ty.rear_radius_m,) * 2
        kt_axle = (ty.front_rate_n_m,) * 2 + (ty.rear_rate_n_m,) * 2
        ka = (ch.front_axle_stiffness_n_m,) * 2 + (ch.rear_axle_stiffness_n_m,) * 2
        rates = tuple(series_rate_n_m(kt_axle[j], ka[j]) for j in range(4))
        n0 = mp.static_loads_n
        dampers = tuple(damper_n_s_m(ch.suspension_damping_ratio, rates[j], n0[j]) for j in range(4))
        self.rates_n_m, self.dampers_n_s_m = rates, dampers
        widths = (ty.front_width_m,) * 2 + (ty.rear_width_m,) * 2
        pg = (ty.inflation_pa + ty.carcass_pa,) * 4
        sections = (ty.front_section_height_m,) * 2 + (ty.rear_section_height_m,) * 2
        box = ch.box_corners(L, (xr, cg[1], hcg))
        shared = dict(
            dt=self.dt_s, datum=c.compression_datum_m, droop=c.rest_compression_m, bump_start=c.bump_start_m,
            bump_rate=ch.bump_stiffness_n_m2, mass=mp.mass_kg, angular_damping=c.angular_damping,
            air_density=c.air_density_kg_m3, drag_area=c.drag_coefficient * c.frontal_area_m2,
            spin_rate=1.0 / c.spin_scale_rad_s, cd_water=ty.water_drag_coefficient,
            probe_iterations=ch.probe_iterations, mr_speed=ty.motion_resistance_speed_mps,
            n_surfaces=len(self.surfaces), max_load_factor=c.max_load_factor, rolling_max=ty.rolling_coefficient_max,
            water_density=ty.water_density_kg_m3, **ty.kernel_constants(), **ch.kernel_constants())
        self._k = shared_constants(shared, self._mount_rel, rates, dampers, n0, widths, pg, kt_axle, radii, sections,
                                   self._bf_rel, self.chassis.inertia, self.chassis.inertia_inv, box, self.surfaces)

    def set_payload(self, payload_kg: float) -> bool:
        """Change the carried implement's payload [kg] (a sprayer's tank, a bucket's load).

        The mass properties are written again (ApplyImplementMass) when the mass changes by
        0.5 kg or more or the centre of mass moves by 5 mm or more (``mass.mass_update_needed``);
        returns True when they were.

        Raises
        ------
        ValueError
            Without a mounted implement, or for a payload outside 0..``implement.rated_payload_kg``.
        """
        im = self.params.implement
        if im.attachment != "mounted":
            raise ValueError(f"implement.attachment is {im.attachment!r}: no carried implement to load")
        if not isinstance(payload_kg, (int, float)) or not 0.0 <= payload_kg <= im.rated_payload_kg:
            raise ValueError(f"payload {payload_kg!r} kg: 0..{im.rated_payload_kg} (implement.rated_payload_kg)")
        old = self.mass
        _, r_i, i_i = mounted_implement_part(self.params)
        new = tractor_mass(self.params, (im.empty_mass_kg + float(payload_kg), r_i, i_i))
        if not mass_update_needed(new.mass_kg - old.mass_kg, math.dist(old.cg_m, new.cg_m)):
            return False                        # below the page's thresholds: nothing is written
        self.payload_kg = float(payload_kg)
        self._configure_mass()
        return True

    def engage_pto(self, rated_rpm: int) -> None:
        """Engage the PTO at its rated speed (540 or 1000 rev/min), or disengage it (0).

        Engaging sets the hand throttle to at least the value of the rated PTO speed
        (page "Hand Throttle": 0.81 for 540, 0.76 for 1000); the PTO shaft then turns at the
        engine speed times the PTO ratio (page "Implement Coupling").

        Raises
        ------
        ValueError
            For another speed.
        """
        pto, e = self.params.pto, self.engine
        if rated_rpm == 0:
            self._pto_ratio = 0.0
            return
        if rated_rpm not in (540, 1000):
            raise ValueError(f"PTO speed {rated_rpm!r}: 540, 1000 or 0 (off)")
        n = pto.pto_540_engine_rpm if rated_rpm == 540 else pto.pto_1000_engine_rpm
        self.hand_throttle = engage_pto_hand_throttle(self.hand_throttle, n, e.droop_rpm, e.idle_rpm, e.max_rpm)
        self._pto_ratio = pto_ratio(float(rated_rpm), n)

    def nudge_hand_throttle(self, steps: int) -> None:
        """Move the hand throttle by ``steps`` presses of 0.05 (+ up, - down), within 0..1 (keys = and -)."""
        self.hand_throttle = nudge_hand_throttle(self.hand_throttle, float(steps))

    def set_drive(self, front_drive: bool | None = None, diff_lock: int | None = None) -> None:
        """Switch the MFD (front-wheel drive) and the differential lock (0 open, 1 rear, 2 rear and front).

        Raises
        ------
        ValueError
            For a lock state other than 0, 1, 2.
        """
        if diff_lock is not None:
            if diff_lock not in (0, 1, 2):
                raise ValueError(f"diff_lock {diff_lock!r}: 0 open, 1 rear, 2 rear and front")
            self.diff_lock = int(diff_lock)
        if front_drive is not None:
            self.front_drive = bool(front_drive)
        self._setup = None

    # ------------------------------------------------------------------ reset
    def reset(self, x_m: float = 0.0, y_m: float = 0.0, yaw_rad: float = 0.0, speed_mps: float = 0.0,
              gear: int | None = None, direction: int = FORWARD) -> None:
        """Reset state (ResetVehicle): on the ground at (x, y) [m] heading ``yaw_rad``, engine at idle.

        With ``speed_mps`` a moving start (body and wheels at that speed, the clutch engaged).

        Raises
        ------
        ValueError
            If ``gear`` is not 1..16 or ``direction`` not +1 / -1.
        """
        P = self.params
        gear = P.transmission.initial_gear if gear is None else int(gear)
        if not 1 <= gear <= 16:
            raise ValueError(f"gear={gear!r}: 1..16")
        if direction not in (FORWARD, REVERSE):
            raise ValueError(f"direction={direction!r}: +1 forward or -1 reverse")
        self.gear, self.direction = gear, int(direction)
        self.shift_left_s = 0.0
        self.hand_throttle = 0.0
        self.front_drive = bool(P.transmission.front_drive)
        self.diff_lock = int(P.transmission.diff_lock)
        self._setup = None
        self._pto_ratio = 0.0
        sink = place_on_ground(self.chassis, self._k, self.terrain, self.surfaces, self.world.surface_index, x_m, y_m,
                               yaw_rad, speed_mps, self._mount_rel, self._bf_rel)
        ty = P.tyres
        v0 = float(speed_mps)
        sw = self._sw
        for j in range(4):
            sw[SW_OMEGA + j] = v0 / (ty.front_radius_m if j < 2 else ty.rear_radius_m)
            sw[SW_ANGLE + j] = 0.0
            sw[SW_U + j] = 0.0
            sw[SW_Y + j] = 0.0
            sw[SW_Z + j] = sink[j]
            sw[SW_DIG + j] = 0.0   # a reset starts on undisturbed ground
        for b in range(len(self._buf)):
            self._buf[b] = 0.0
        self._head = 0
        st = self._s
        e = P.engine
        ratio = overall_ratio(gear, direction, P.transmission.forward_gears, P.transmission.reverse_gears,
                              P.transmission.final_drive)
        st[S_WE] = max(e.idle_rad_s, abs(v0 / ty.rear_radius_m * ratio)) if v0 != 0.0 else e.idle_rad_s
        st[S_DELTA] = 0.0
        st[S_EPS] = 1.0 if v0 != 0.0 else 0.0
        st[S_FUEL] = P.fuel.tank_l
        st[S_HEAT] = 0.0
        st[S_TDRAG] = st[S_TACC] = st[S_CAP] = 0.0
        for i in range(len(LEDGER_TERMS)):
            self._led[i] = 0.0
        for i in range(N_EXT):
            self._ext[i] = 0.0
        self._ledger.reset()
        self._ledger_stale = False
        self._draft_speed_kmh = 3.6 * abs(v0)
        self._trailer_accel_mps2 = 0.0
        self._trailer_v = (v0 * math.cos(yaw_rad), v0 * math.sin(yaw_rad))
        hp = self._hitch_point_odom()
        self._trailer_axle = (hp[0] - self._trailer_length_m * math.cos(yaw_rad),
                              hp[1] - self._trailer_length_m * math.sin(yaw_rad))
        self.trailer_axle_m, self.trailer_pin_m = self._trailer_axle, (hp[0], hp[1])
        self.articulation_angle_rad = 0.0
        self.time_s = 0.0
        self.park_brake = False
        self._rest_outputs(self.mass.static_loads_n, P.constants.rest_extension_m, sink, 0.0, v0 / ty.rear_radius_m,
                           self.front_drive)
        self.implement_force_n = (0.0, 0.0, 0.0)
        kinematics(self._k, self.chassis.x, self._sw, self._out)
        self._outputs_changed()

    # ------------------------------------------------------------------ controls that are not per step
    def set_hand_throttle(self, value: float) -> None:
        """The hand throttle 0..1 (the engine command is the larger of it and the pedal).

        Raises
        ------
        ValueError
            If ``value`` is not a finite number in 0..1.
        """
        if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ValueError(f"hand throttle {value!r}: a number in 0..1")
        self.hand_throttle = float(value)

    # ------------------------------------------------------------------ step
    def step(self, inputs: TractorInputs) -> None:
        """Advance the model by one physics step ``dt_s``: the gear and direction requests here, the rest in the
        compiled :func:`tractor_advance`.

        Non-finite commands are taken as 0 (no throttle, no brake, straight ahead).
        """
        P = self.params
        tr = P.transmission
        # gear and direction requests (powershift; direction only near standstill)
        if inputs.gear_request:
            gear, self.shift_left_s = request_gear(self.gear, int(inputs.gear_request), self.shift_left_s,
                                                   tr.shift_time_s)
            if gear != self.gear:
                self.gear, self._setup = gear, None
        if inputs.direction_request:
            direction = request_direction(self.direction, int(inputs.direction_request), self.speed_mps,
                                          tr.direction_change_mps)
            if direction != self.direction:
                self.direction, self._setup = direction, None
        if self._setup is None:
            self._setup = driveline_setup(P, self.gear, self.direction, self.front_drive, self.diff_lock)
        self._implement_force()
        self._advance(*self.step_arrays(), _number(inputs.throttle), _number(inputs.brake),
                      float(inputs.steering_rad), bool(inputs.neutral), bool(inputs.park_brake))
        self.stepped()

    def stepped(self) -> None:
        """After a step of the compiled kernels (this class's :meth:`step`, or the step through the DBW): the
        clock, and the attributes read the new outputs."""
        self.time_s += self.dt_s
        self._ledger_stale = True
        self._outputs_changed()

    def _hitch_point_odom(self) -> tuple:
        """The draft point / drawbar pin (``implement.draft_point_m``) in odom [m], and its offset from the
        centre of mass (odom) [m]: (x, y, z, rx, ry, rz)."""
        x = self.chassis.x
        R = quat_to_matrix(x[6], x[7], x[8], x[9])
        dp, cg = self._draft_point, self.mass.cg_m
        r = (dp[0] - cg[0], dp[1] - cg[1], dp[2] - cg[2])
        rx = R[0] * r[0] + R[1] * r[1] + R[2] * r[2]
        ry = R[3] * r[0] + R[4] * r[1] + R[5] * r[2]
        rz = R[6] * r[0] + R[7] * r[1] + R[8] * r[2]
        return x[0] + rx, x[1] + ry, x[2] + rz, rx, ry, rz

    def _implement_force(self) -> None:
        """The implement's force at the start of the step into ``ext`` (page "Implement Coupling").

        Mounted: the ASABE draft at the lagged speed, against the tool point's horizontal velocity
        with tanh(|v| / 0.2), only while the tool point is on deformable ground. Trailed: the
        kinematic one-axle trailer (implement.py): its axle follows the drawbar pin, its drawbar
        load (inertia along its axis with the chassis acceleration lagged by 50 ms, the slope,
        its draft, the hitch's share of its weight) turned by the articulation angle. Both act at
        the drawbar pin / draft point and are limited to 250 kN.
        """
        im = self.params.implement
        if im.attachment == "none":
            return
        c = self.params.constants
        x = to_list(self.chassis.x)
        px, py, pz, rx, ry, rz = self._hitch_point_odom()
        R = quat_to_matrix(x[6], x[7], x[8], x[9])
        wb = x[10:13]
        wx = R[0] * wb[0] + R[1] * wb[1] + R[2] * wb[2]
        wy = R[3] * wb[0] + R[4] * wb[1] + R[5] * wb[2]
        wz = R[6] * wb[0] + R[7] * wb[1] + R[8] * wb[2]
        vx = x[3] + wy * rz - wz * ry
        vy = x[4] + wz * rx - wx * rz
        self._draft_speed_kmh = lagged_speed_kmh(self._draft_speed_kmh, vx, vy, c.draft_speed_lag_s, self.dt_s)
        if im.attachment == "mounted":
            tool_x, tool_y = px, py
        else:
            tool_x, tool_y = self._trailer_axle
        si = self.terrain.height_normal_surface(tool_x, tool_y)[4]
        law = self._draft[si]
        draft = implement_draft_n(law, self._draft_speed_kmh) if law is not None else 0.0
        if im.attachment == "mounted":
            fx, fy = draft_force_n(draft, vx, vy, c.draft_direction_speed_mps, law is not None)
            fz = 0.0
        else:
            ax, ay = trailer_axle_follow_m(self._trailer_axle[0], self._trailer_axle[1], px, py,
                                           self._trailer_length_m)
            self._trailer_axle = (ax, ay)
            self.trailer_axle_m = (ax, ay)      # odom, with the pin it followed at the start of the step
            self.trailer_pin_m = (px, py)
            self.articulation_angle_rad = 0.0
            yaw = math.atan2(R[3], R[0])
            psi = articulation_angle_rad(ax, ay, px, py, yaw)
            self.articulation_angle_rad = psi
            heading = yaw + psi
            ch_, sh_ = math.cos(heading), math.sin(heading)
            # the chassis acceleration along the trailer's axis, lagged by 50 ms; the slope along it
            a_along = ((vx - self._trailer_v[0]) * ch_ + (vy - self._trailer_v[1]) * sh_) / self.dt_s
            self._trailer_v = (vx, vy)
            self._trailer_accel_mps2 = lagged_acceleration_mps2(self._trailer_accel_mps2, a_along, 0.05, self.dt_s)
            _, gnx, gny, gnz, _ = self.terrain.height_normal_surface(ax, ay)
            slope = -(gnx * ch_ + gny * sh_)          # sine of the uphill slope along the trailer's heading
            speed = vx * ch_ + vy * sh_
            d_dir = math.tanh(abs(speed) / c.draft_direction_speed_mps) * (1.0 if speed >= 0.0 else -1.0)
            dx, dy, dz = trailer_drawbar_load_n(im.mass_kg, self._trailer_accel_mps2, slope, draft * d_dir,
                                                im.hitch_transfer, G_MPS2)
            bx, by, bz = drawbar_force_n(dx, dy, dz, psi)     # in the tractor's heading frame
            cy, sy = math.cos(yaw), math.sin(yaw)
            fx, fy, fz = bx * cy - by * sy, bx * sy + by * cy, bz
        fx, fy, fz = limit_force_n(fx, fy, fz, c.implement_force_limit_n)
        e = self._ext
        e[0], e[1], e[2], e[3], e[4], e[5] = rx, ry, rz, fx, fy, fz
        self.implement_force_n = (fx, fy, fz)

    # ------------------------------------------------------------------ outputs
    # the engine speed, the clutch and the shift: read from the state on access
    @property
    def engine_speed_rad_s(self) -> float:
        """Engine speed omega_e [rad/s]."""
        return float(self._s[S_WE])

    @property
    def engine_rpm(self) -> float:
        """Engine speed [rev/min]."""
        return float(self._s[S_WE]) * _RAD_S_TO_RPM

    @property
    def clutch_engagement(self) -> float:
        """Clutch engagement epsilon [-]."""
        return float(self._s[S_EPS])

    @property
    def clutch_capacity_nm(self) -> float:
        """Clutch capacity of the last step [N m]."""
        return float(self._s[S_CAP])

    @property
    def shift_in_progress(self) -> bool:
        """A gear change is in progress (the clutch target is 0)."""
        return self.shift_left_s > 0.0

    # outputs read less often than every step: built on access
    @property
    def front_axle_angle_rad(self) -> float:
        """Oscillation angle of the front axle (UpdateRigs) from the front extensions [rad]."""
        ext = self.wheel_extension_m
        return front_axle_angle_rad(ext[0], ext[1], self.params.chassis.track_m,
                                    self.params.constants.axle_oscillation_limit_rad)

    @property
    def pto_shaft_rpm(self) -> float:
        """PTO shaft speed [rev/min]: the engine speed times the PTO ratio (0 with the PTO off)."""
        return pto_shaft_speed_rpm(self.engine_rpm, self._pto_ratio)

    @property
    def hydraulic_flow_fraction(self) -> float:
        """Pump flow over its rated flow [-]: n / n_rated."""
        return pump_flow_fraction(self.engine_rpm, self.params.engine.rated_rpm)

    @property
    def turn_radius_m(self) -> float:
        """Turn radius of the rear-axle centre R = L / tan|delta| [m] (inf straight ahead)."""
        return turn_radius_m(float(self._s[S_DELTA]), self.params.chassis.wheelbase_m)

    @property
    def engine_drag_nm(self) -> float:
        """Engine drag torque of the last step [N m]."""
        return float(self._s[S_TDRAG])

    @property
    def accessory_torque_nm(self) -> float:
        """PTO and hydraulic torque on the engine of the last step [N m]."""
        return float(self._s[S_TACC])

    @property
    def fuel_l(self) -> float:
        """Fuel in the tank [L]."""
        return float(self._s[S_FUEL])

    @property
    def clutch_heat_j(self) -> float:
        """Heat of the clutch's slip since the reset [J]."""
        return float(self._s[S_HEAT])

    @property
    def ledger(self) -> EnergyLedger:
        """The energy ledger since the reset (:class:`~acres_dbw_sim.model.energy.EnergyLedger`)."""
        if self._ledger_stale:
            self._ledger.__dict__.update(zip(LEDGER_TERMS, to_list(self._led)))
            self._ledger_stale = False
        return self._ledger

    @property
    def cg_from_footprint_m(self) -> tuple:
        """Centre of mass from base_footprint, body frame (x forward, y left, z up) [m]."""
        b = self._bf_rel
        return (-b[0], -b[1], -b[2])

    def static_loads_n(self) -> tuple:
        """Static wheel loads N_0 (FL, FR, RL, RR) [N]."""
        return tuple(self.mass.static_loads_n)


def _number(v) -> float:
    """A command as a float; a non-number as NaN (:func:`unit_command` takes it as 0)."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _compile() -> None:
    """Compile (or load from numba's cache) the tractor's kernel at import, not in a caller's first step."""
    t = Tractor()
    t.step(TractorInputs())


if JIT:
    _compile()
