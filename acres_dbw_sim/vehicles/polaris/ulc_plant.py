"""The ULC's model of the powertrain: tractive force -> engine torque request.

The ULC's feed-forward (ulc.py) asks for a tractive force ``F`` [N] along the
gear's direction and an acceleration ``a`` [m/s^2]. This module turns them
into the engine's torque request ``u`` (0..1, the pedal is ``u^(1/gamma)``)
and gives the force the powertrain makes with the pedal released (engine
braking through the clutch and the EBS). It uses what the real Ranger's DBW
can read (engine speed and transmission ratio are on its CAN: ThrottleInfo
``engine_rpm``, PropulsionInfo ``transmission_ratio``, dbw-interface.md
§2.10, §5.1) and the engine, CVT and gear data of the parameter file (the
equations of polaris-ranger-dynamics.md, "Engine", "CVT and Primary Clutch",
"Driveline Solve"), inverted:

Clutch torque for ``F`` (``R = r i_r`` with the measured belt ratio ``r``,
``eta = eta_belt eta_gear``)::

    T_c = F R_t / (eta R)      (F >= 0),        T_c = F R_t eta / R      (F < 0)

Locked clutch (the engine turns at ``R c``, ``c = v / R_t``). The belt moves
towards the ratio that holds the engine at the shift speed of that torque,
``r* = clamp(n_s(T_c) / (c i_r), r_high, r_low)`` with
``n_s = sqrt(n_light^2 + (n_full^2 - n_light^2) clamp(T_c / T_peak, 0, 1))``,
with the time constant ``tau_cvt``. The engine therefore accelerates at::

    dw_e/dt = i_r (c (r* - r) / tau_cvt + r a / R_t)

and the engine torque the ULC must ask for is ``T_e = T_c + T_acc + J_e dw_e/dt``.
The last term is what makes the controller know the powertrain's state: at
the end of a speed ramp the belt shifts up from a low ratio and the engine's
kinetic energy (about 2.5 kJ from 3950 to 3300 rev/min) flows into the
vehicle; ``dw_e/dt < 0`` lowers the request by exactly that power, down to
engine braking, so the energy is not added to the vehicle's speed. While
the ratio is at ``r_low`` the same term adds the engine's inertia,
``J_e R^2 / R_t^2`` (about 1500 kg in H), to the vehicle's mass.

Slipping clutch (launch, or the clutch capacity ``C(R c)`` below ``T_c``):
the clutch transmits its capacity ``C(w_e)``, so the ULC drives the engine
towards the speed at which ``C = T_c`` (but not below ``R c``) with the time
constant ``dbw.ulc.clutch_slip_tau_s``.

Torque request at the measured engine speed ``n`` (the engine's torque
equation ``T_e = u (T_wot + T_fr) - T_fr - (1 - u) T_pu`` solved for ``u``)::

    u = (T_e + T_fr(n) + T_pu) / (T_wot(n) + T_fr(n) + T_pu)

``u < 0`` means the engine cannot absorb that much even with the pedal
released; ``u > 1`` that it cannot give that much.

Engine braking (pedal released): ``T_c0 = -T_fr - T_pu - T_acc - J_e dw_e/dt``,
limited to the capacities ``C`` and ``max(C, C_ebs)`` at ``R c``, gives the
force ``F_0 = D(T_c0) / R_t`` (0 while the clutch slips).

The full-load and friction curves, the clutch capacity, the shift speed and the
ratio target are the model's own compiled functions
(:mod:`acres_dbw_sim.vehicles.polaris.engine`, :mod:`acres_dbw_sim.vehicles.polaris.cvt`), called from the
compiled functions here; the efficiency clamp
(:func:`acres_dbw_sim.model.energy.clamped_efficiency`) is applied once at construction.

Compiled form (the ULC's step composed per vehicle into one compiled call, dbw/ulc.py): the plant's
constants and outputs are a record of their own, :data:`PLANT` (``pl_*`` fields; the DBW's record
names no vehicle), made by :func:`new_plant` with the engine's curves as a plain tuple of floats
(:func:`plant_curves`). A compiled caller calls, per ULC step, :func:`plant_rotating_mass_kg` (any
time before the ULC's ``ulc_reference``) and, when that says the control stage runs,
:func:`plant_solve`, then reads ``q.pl_force0_n``. :class:`PowertrainModel` is the Python view of that
record (``q``, ``curves``) with the same functions as methods.
"""

from __future__ import annotations

import math

from . import engine as _engine
from .cvt import clutch_capacity_nm, ratio_target, shift_speed_rpm
from .engine import friction_torque_nm, full_load_torque_nm
from ...model._jit import JIT, njit, specialise
from ...model.energy import clamped_efficiency
from ...dbw.msg_fields import G_DRIVE, G_LOW, G_REVERSE
from ...dbw.params import DbwParameters
from ...dbw.record import Field, Slot, new_record, record_array, record_dtype, run
from ...dbw.system import dbw_step_begin, dbw_step_end, dbw_ulc_gear, dbw_ulc_idle
from ...dbw.ulc import ulc_control, ulc_reference

__all__ = ["PowertrainModel", "PLANT", "GEARS", "new_plant", "plant_curves", "plant_rear_ratio",
           "plant_rotating_mass_kg", "plant_rotating_mass_of_ratio_kg", "plant_solve"]

_RPM_TO_RAD_S = math.pi / 30.0
#: The clutch counts as slipping when the engine turns faster than
#: ``R c (1 + _SLIP_REL) + _SLIP_ABS_RAD_S`` (measurement tolerance of the lock test).
_SLIP_REL = 0.05
_SLIP_ABS_RAD_S = 5.0
#: Cells of the rear-reduction table ``pl_ir``, indexed by ``Gear`` value.
GEARS = 16

#: The plant's record (:func:`acres_dbw_sim.dbw.record.new_record`): constants built from the parameters
#: at construction, and the outputs of the last :func:`plant_solve`.
PLANT = (
    Field("pl_t_pu", "N m", "pumping torque T_pu"),
    Field("pl_t_peak", "N m", "highest torque of the full-load curve T_peak"),
    Field("pl_t_acc", "N m", "accessory drag T_acc"),
    Field("pl_j_e", "kg m^2", "engine inertia J_e"),
    Field("pl_r_low", "-", "lowest belt ratio r_low (largest number)"),
    Field("pl_r_high", "-", "highest belt ratio r_high (smallest number)"),
    Field("pl_w_eng", "rad/s", "clutch engagement speed"),
    Field("pl_w_full", "rad/s", "clutch full-engagement speed"),
    Field("pl_w_eng2", "rad^2/s^2", "square of the engagement speed"),
    Field("pl_dw2", "rad^2/s^2", "w_full^2 - w_eng^2 (at least 1e-9)"),
    Field("pl_c_max", "N m", "clutch capacity C_max"),
    Field("pl_c_ebs", "N m", "EBS capacity C_ebs,max"),
    Field("pl_w_idle", "rad/s", "idle speed"),
    Field("pl_ebs_span", "rad/s", "max(1, w_eng - w_idle), the EBS ramp"),
    Field("pl_n_light", "rev/min", "shift speed at light load"),
    Field("pl_n_full", "rev/min", "shift speed at full load"),
    Field("pl_tau_cvt", "s", "belt shift time constant (at least 1e-4)"),
    Field("pl_eta", "-", "belt and gear efficiency eta (clamped 0.05..1)"),
    Field("pl_rt", "m", "tyre radius R_t"),
    Field("pl_ir", "-", "rear reduction i_r by Gear value (0 for P, N and NONE)", GEARS),
    Field("pl_j_wheels", "kg m^2", "four wheels' inertia 4 J_w"),
    Field("pl_j_s", "kg m^2", "secondary clutch inertia J_s"),
    Field("pl_tau_slip", "s", "time constant towards the slip target speed (at least 1e-3)"),
    Field("pl_u", "-", "torque request of the last solve, may lie outside 0..1"),
    Field("pl_force0_n", "N", "tractive force with the pedal released of the last solve"),
    Field("pl_slipping", "bool", "the last solve assumed a slipping clutch", 0, "bool"),
)

_DTYPE = record_dtype(PLANT) if JIT else None


def plant_curves(p: DbwParameters) -> tuple:
    """The engine's curves for the compiled functions: the fields of
    :class:`~acres_dbw_sim.vehicles.polaris.engine.EngineCurves` as a plain tuple of floats (``rpm`` and
    ``nm`` tuples of floats), built from the ``engine.*`` keys of ``p``."""
    k_bar = 1e5 * p.engine_displacement_l * 1e-3 / (4.0 * math.pi)  # N m per bar of mean pressure
    c = _engine.EngineCurves(
        tuple(float(v) for v in p.engine_torque_curve_rpm), tuple(float(v) for v in p.engine_torque_curve_nm),
        float(p.engine_max_rpm), float(k_bar), float(p.engine_fmep_bar), float(p.engine_fmep_bar_per_krpm),
        float(p.engine_fmep_bar_per_krpm2), float(p.engine_pumping_bar * k_bar),
        float(max(p.engine_torque_curve_nm)))
    return tuple(c)


def new_plant(p: DbwParameters):
    """A new plant record (:data:`PLANT`) with the constants of ``p``, outputs zero.

    Parameters
    ----------
    p : DbwParameters
        Engine (``engine.*``), CVT (``cvt.*``), gear (``gearbox.rear_*_ratio``) and tyre
        (``tyres.radius_m``, ``tyres.wheel_inertia_kg_m2``) keys, ``dbw.ulc.clutch_slip_tau_s``.
    """
    q = new_record(PLANT, _DTYPE)
    k_bar = 1e5 * p.engine_displacement_l * 1e-3 / (4.0 * math.pi)
    q.pl_t_pu = p.engine_pumping_bar * k_bar
    q.pl_t_peak = max(p.engine_torque_curve_nm)
    q.pl_t_acc = p.engine_accessory_drag_nm
    q.pl_j_e = p.engine_inertia_kg_m2
    q.pl_r_low, q.pl_r_high = p.cvt_low_ratio, p.cvt_high_ratio
    w_eng = p.cvt_engage_rpm * _RPM_TO_RAD_S
    w_full = p.cvt_full_engage_rpm * _RPM_TO_RAD_S
    q.pl_w_eng, q.pl_w_full = w_eng, w_full
    q.pl_w_eng2 = w_eng * w_eng
    q.pl_dw2 = max(1e-9, w_full * w_full - w_eng * w_eng)
    q.pl_c_max = p.cvt_clutch_capacity_nm
    q.pl_c_ebs = p.cvt_ebs_capacity_nm
    w_idle = p.engine_idle_rpm * _RPM_TO_RAD_S
    q.pl_w_idle = w_idle
    q.pl_ebs_span = max(1.0, w_eng - w_idle)
    q.pl_n_light, q.pl_n_full = p.cvt_shift_rpm_light, p.cvt_shift_rpm_full
    q.pl_tau_cvt = max(1e-4, p.cvt_shift_tau_s)
    q.pl_eta = clamped_efficiency(p.cvt_belt_efficiency * p.cvt_gear_efficiency, 0.05, 1.0)
    q.pl_rt = p.tyres_radius_m
    ir = q.pl_ir  # rear reduction by Gear value (0, as made, for P, N and NONE)
    ir[G_DRIVE] = p.gearbox_rear_high_ratio
    ir[G_LOW] = p.gearbox_rear_low_ratio
    ir[G_REVERSE] = p.gearbox_rear_reverse_ratio
    q.pl_j_wheels = 4.0 * p.tyres_wheel_inertia_kg_m2
    q.pl_j_s = p.cvt_secondary_inertia_kg_m2
    q.pl_tau_slip = max(1e-3, p.ulc_clutch_slip_tau_s)
    q.pl_u = 0.0
    q.pl_force0_n = 0.0
    q.pl_slipping = False
    return q


@njit
def plant_rear_ratio(Q, gear: int) -> float:
    """Rear reduction ``i_r`` [-] of a forward/reverse gear (0 for P, N, NONE and any other value)."""
    q = Q[0]
    return q.pl_ir[gear] if 0 <= gear and gear < GEARS else 0.0


@njit
def plant_rotating_mass_of_ratio_kg(Q, i_r: float) -> float:
    """Wheels and secondary clutch as an equivalent mass [kg]: ``(4 J_w + J_s i_r^2) / R_t^2``."""
    q = Q[0]
    return (q.pl_j_wheels + q.pl_j_s * i_r * i_r) / (q.pl_rt * q.pl_rt)


@njit
def plant_rotating_mass_kg(Q, gear: int) -> float:
    """The rotating mass [kg] in ``gear`` (:func:`plant_rotating_mass_of_ratio_kg` of :func:`plant_rear_ratio`):
    what the ULC adds to the vehicle's mass, ``m_r = m + (4 J_w + J_s i_r^2) / R_t^2``."""
    return plant_rotating_mass_of_ratio_kg(Q, plant_rear_ratio(Q, gear))


@njit
def plant_solve(Q, curves, force_n: float, accel_mps2: float, gear: int, speed_mps: float, engine_rpm: float,
                cvt_ratio: float) -> float:
    """Torque request for a tractive force (the inversion of the module's docstring); also writes
    ``q.pl_u``, ``q.pl_force0_n`` and ``q.pl_slipping``.

    Parameters
    ----------
    q : record
        The plant's record (:func:`new_plant`).
    curves : tuple
        The engine's curves (:func:`plant_curves`).
    force_n : float
        Tractive force along the gear's direction [N] (wheels and secondary clutch included, engine
        excluded).
    accel_mps2 : float
        Desired acceleration along the gear's direction [m/s^2].
    gear : int
        Present gear (``Gear``); DRIVE, LOW or REVERSE.
    speed_mps : float
        Speed along the gear's direction [m/s] (negative = rolling back).
    engine_rpm : float
        Measured engine speed [rev/min].
    cvt_ratio : float
        Measured belt ratio [-].

    Returns
    -------
    float
        Torque request ``u`` [-] (outside 0..1 when the engine cannot do it).
    """
    q = Q[0]
    i_r = q.pl_ir[gear] if 0 <= gear and gear < GEARS else 0.0
    rt = q.pl_rt
    eta = q.pl_eta
    r = cvt_ratio if cvt_ratio > q.pl_r_high else q.pl_r_high
    big_r = r * i_r
    if big_r <= 0.0:
        q.pl_u = 0.0
        q.pl_force0_n = 0.0
        q.pl_slipping = False
        return 0.0
    t = force_n * rt
    t_c = t / (eta * big_r) if t >= 0.0 else t * eta / big_r
    c = speed_mps / rt if speed_mps > 0.0 else 0.0
    w_lock = big_r * c
    w_e = engine_rpm * _RPM_TO_RAD_S
    c_max = q.pl_c_max
    cap_lock = clutch_capacity_nm(w_lock, q.pl_w_eng, q.pl_w_full, c_max)
    slip = t_c > cap_lock or w_e > w_lock * (1.0 + _SLIP_REL) + _SLIP_ABS_RAD_S
    j_e = q.pl_j_e
    t_pu = q.pl_t_pu
    t_acc = q.pl_t_acc
    if slip:
        y = t_c / c_max if t_c > 0.0 else 0.0
        w_t = math.sqrt(q.pl_w_eng2 + (y if y < 1.0 else 1.0) * q.pl_dw2)
        if w_t < w_lock:
            w_t = w_lock
        w_dot = (w_t - w_e) / q.pl_tau_slip
        t_e = (t_c if t_c > 0.0 else 0.0) + t_acc + j_e * w_dot
    else:
        n_s = shift_speed_rpm(t_c, q.pl_t_peak, q.pl_n_light, q.pl_n_full)
        r_t = ratio_target(True, n_s, c * i_r, q.pl_r_high, q.pl_r_low)
        w_dot = i_r * (c * (r_t - r) / q.pl_tau_cvt + r * accel_mps2 / rt)
        t_e = t_c + t_acc + j_e * w_dot
    n = w_e / _RPM_TO_RAD_S
    t_wot = full_load_torque_nm(n, curves)
    t_fr = friction_torque_nm(n, curves)
    den = t_wot + t_fr + t_pu
    u = (t_e + t_fr + t_pu) / (den if den > 1.0 else 1.0)
    if slip:
        f0 = 0.0
    else:
        t_c0 = -t_fr - t_pu - t_acc - j_e * w_dot
        x = (w_lock - q.pl_w_idle) / q.pl_ebs_span
        c_e = q.pl_c_ebs * (0.0 if x < 0.0 else 1.0 if x > 1.0 else x)
        c_rev = c_e if c_e > cap_lock else cap_lock   # max(cap_lock, c_e), Python's order
        t_c0 = -c_rev if t_c0 < -c_rev else cap_lock if t_c0 > cap_lock else t_c0
        f0 = (t_c0 * big_r * eta if t_c0 >= 0.0 else t_c0 * big_r / eta) / rt
    q.pl_u = u
    q.pl_force0_n = f0
    q.pl_slipping = slip
    return u


class PowertrainModel:
    """Inverse model of engine, primary clutch, CVT and gears for the ULC: a view of its plant record
    (:data:`PLANT`).

    Parameters
    ----------
    p : DbwParameters
        Engine (``engine.*``), CVT (``cvt.*``), gear (``gearbox.rear_*_ratio``)
        and tyre (``tyres.radius_m``, ``tyres.wheel_inertia_kg_m2``) keys,
        ``dbw.ulc.clutch_slip_tau_s``.

    Attributes
    ----------
    u : float
        Torque request of the last ``solve`` [-], may lie outside 0..1.
    force0_n : float
        Tractive force with the pedal released [N] (<= 0 when engine braking).
    slipping : bool
        The last ``solve`` assumed a slipping clutch.
    q : record
        The plant's record (:func:`new_plant`), for a compiled caller.
    curves : tuple
        The engine's curves (:func:`plant_curves`), for a compiled caller.
    """

    __slots__ = ("_s", "curves")

    u = Slot("pl_u")
    force0_n = Slot("pl_force0_n")
    slipping = Slot("pl_slipping", "bool")

    def __init__(self, p: DbwParameters) -> None:
        self._s = new_plant(p)
        self.curves = plant_curves(p)

    @property
    def q(self):
        """The plant's record (:data:`PLANT`)."""
        return self._s

    def dbw_step_arguments(self, s, p) -> tuple:
        """The first four arguments of the compiled DBW step with this plant (:func:`dbw_step`) for the DBW's
        record ``s`` and parameter array ``p`` (:func:`~acres_dbw_sim.dbw.record.param_record`); the caller
        appends the time and the step."""
        return (record_array(s), p, record_array(self._s), self.curves)

    @staticmethod
    def dbw_step_entry(args: tuple, dt_s: float):
        """The compiled DBW step (:func:`dbw_step`) specialised for ``args`` (:meth:`dbw_step_arguments`) and
        the step ``dt_s`` [s] (``_jit.specialise``)."""
        return specialise(dbw_step, args + (0.0, dt_s))

    def rear_ratio(self, gear: int) -> float:
        """Rear reduction ``i_r`` of a forward/reverse gear (0 for P, N, NONE) (:func:`plant_rear_ratio`)."""
        return float(run(plant_rear_ratio, record_array(self._s), int(gear)))

    def rotating_mass_kg(self, i_r: float) -> float:
        """Wheels and secondary clutch as an equivalent mass [kg]: ``(4 J_w + J_s i_r^2) / R_t^2``
        (:func:`plant_rotating_mass_of_ratio_kg`)."""
        return float(run(plant_rotating_mass_of_ratio_kg, record_array(self._s), float(i_r)))

    def solve(self, force_n: float, accel_mps2: float, gear: int, speed_mps: float, engine_rpm: float,
              cvt_ratio: float) -> float:
        """Torque request ``u`` [-] for a tractive force; also sets ``force0_n`` and ``slipping`` (:func:`plant_solve`,
        whose arguments these are, in the same units)."""
        return float(run(plant_solve, record_array(self._s), self.curves, float(force_n), float(accel_mps2),
                         int(gear), float(speed_mps), float(engine_rpm), float(cvt_ratio)))


@njit
def dbw_step(S, P, Q, curves, t_s: float, dt_s: float) -> tuple:
    """One physics step of the DBW with this plant as the ULC's powertrain model, in one compiled call.

    The DBW's step (:func:`acres_dbw_sim.dbw.system.dbw_step_begin`, the ULC's two parts around this
    plant's solve, :func:`~acres_dbw_sim.dbw.system.dbw_step_end`; dbw/ulc.py's docstring gives the order)
    from the measured state and driver input in the record to the outputs ``out_*``.

    Parameters
    ----------
    S, P, Q : one-element arrays
        The DBW's record, its parameter record and this plant's record (:func:`record_array` of each).
    curves : tuple
        The engine's curves (:func:`plant_curves`).
    t_s : float
        Simulation time at the start of the step [s].
    dt_s : float
        Physics step [s].

    Returns
    -------
    tuple
        The outputs (``out_*``: pedal [-], line pressure [bar], steering-wheel angle [deg], gear request,
        drive mode, manual gear request) and the number of queued log events (``log_n``), for a Python
        caller that would otherwise read them one by one from the record.
    """
    s = S[0]
    q = Q[0]
    if dbw_step_begin(S, P, t_s):
        gear = s.m_gear
        m_rot = plant_rotating_mass_kg(Q, gear)
        go, f, a_dir, v_d = ulc_reference(S, P, s.m_v, gear, s.m_shifting != 0, s.sys_grade_mps2, s.sys_accel_meas,
                                          m_rot)
        if go:
            u = plant_solve(Q, curves, f, a_dir, gear, v_d, s.m_engine_rpm, s.m_cvt_ratio)
            ulc_control(S, P, u, q.pl_force0_n)
        dbw_ulc_gear(S)
    else:
        dbw_ulc_idle(S)
    dbw_step_end(S, P, t_s, dt_s)
    return (s.out_pedal, s.out_brake_line_bar, s.out_steering_wheel_deg, s.out_gear_request, s.out_drive_mode,
            s.out_gear_manual_request, s.log_n)
