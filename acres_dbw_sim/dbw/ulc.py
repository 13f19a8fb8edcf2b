"""Longitudinal ULC of DBW2: speed/acceleration commands onto throttle and brake.

Interface facts (dbw-interface.md §2.7, §4.5, §4.12): ``cmd_type`` VELOCITY
(m/s, signed, clamped to -7..45) or ACCEL (m/s^2, clamped to -6..3);
``limit_accel``/``limit_decel`` shape the speed reference (m/s^2, 0 = default,
+inf/negative = maximum, clamped 0.3..3.0 / 0.3..6.0); ``limit_jerk_throttle``
/ ``limit_jerk_brake`` shape the acceleration reference (m/s^3, clamped
1..25); ``enable_shift``, ``enable_shift_park``, ``coast_decel``; 100 ms
timeout; user brake/throttle commands pre-empt it. The controller itself is
not public; this one is (gaps.md "Drive-by-Wire and ULC"):

Reference shaping (speed magnitude; moving away from 0 uses ``limit_accel``,
towards 0 ``limit_decel``): the acceleration reference ``a_ref`` heads for
``sgn(e) min(a_lim, sqrt(2 j |e|), |e| / dt)`` with ``e = v_cmd - v_ref``,
changing by at most ``limit_jerk_throttle dt`` upwards and
``limit_jerk_brake dt`` downwards; ``v_ref += a_ref dt`` without crossing the
command. While speeding up, the reference waits for a vehicle that falls
behind by more than ``dbw.ulc.ref_lead_mps`` (a reference governor: the
clutch engagement and CVT lag would otherwise wind up the integrator and
overshoot the command).

Control: ``a_des = a_ref + k_p (v_ref - v) + I - k_d (a - a_ref)``,
``dI/dt = k_i (v_ref - v)`` (the ``k_d`` acceleration feedback damps what
the feed-forward misses; ``a`` is the measured acceleration) (conditional
integration: frozen while the output saturates in the error's direction or
the reference governor holds the reference, clamped to
``dbw.ulc.integral_limit_mps2``). Feed-forward force along the gear's
direction ``d`` (+1 forward gears, -1 reverse)::

    F = m_r d a_des + d m g_x + sgn(d v) F_res,   F_res = m g f_r + 0.5 rho C_dA v^2

where ``m_r = m + (4 J_w + J_s i_r^2) / R_t^2`` adds the wheels and the
secondary clutch, and ``g_x = g sin(pitch)`` is the grade estimate from the
IMU (specific force along x minus the measured acceleration, low-pass
filtered). The ULC's powertrain model (vehicles/polaris/ulc_plant.py) turns ``F`` into the
engine torque request ``u`` from the measured engine speed and belt ratio,
including the engine's own inertia and the power the belt's up- or
down-shift moves between engine and vehicle, and gives the force ``F_0`` of
the powertrain with the pedal released (engine braking). Throttle: percent
``100 clamp(u, 0, 1)^(1/gamma)`` (inverse of the engine's pedal map
``u = p^gamma``). Brake: pressure ``(F_0 - F) R_t / G`` with
``G = 2 G_f + 2 G_r``. Hysteresis: the brake takes over when
``F < F_0 - m h`` and hands back when ``F > F_0 + m h`` (``h`` =
``dbw.ulc.hysteresis_mps2``); in between the pedal is released.
``coast_decel`` removes every brake application. A zero speed command holds
the vehicle with ``dbw.ulc.hold_bar`` once ``v_ref`` and the speed are near 0.

Measured on the model with the shipped gains (test_simulation_vehicle.py):
0 -> 5 m/s at ``limit_accel`` 1 on asphalt overshoots 0.06 m/s and settles
within 0.001 m/s; 5 m/s up and down a 10 % grade holds within 0.06 m/s and
0.07 m/s from a moving start. Without the belt's and the engine's terms of the
feed-forward the same step overshot 0.36 m/s (kp 2.5, ki 1.0): at the end of
the ramp the engine is near 4700 rev/min with the belt at a low ratio, and
the upshift hands the engine's kinetic energy to the vehicle.

Shifting: with ``enable_shift`` the ULC requests DRIVE (or keeps LOW) for a
positive and REVERSE for a negative speed command when the vehicle is slower
than the shift speed; leaving or entering PARK also needs
``enable_shift_park``; with it a zero command held for
``dbw.ulc.park_delay_s`` at stand-still requests PARK. While the gear does not
match the wanted direction, the throttle is 0 and the brake holds.

Compiled form: the ULC's state is the ``u_*`` fields of the DBW's record (:data:`STATE`); its
per-step logic is compiled functions of that record ``s`` and the parameter record ``p``. The
plant (the vehicle's, see ``Ulc``'s ``plant``) is called in the middle of the step, and the DBW
package names no vehicle, so the step is split around the plant's calls. A compiled caller
(the per-vehicle composition of the DBW's step) calls, while the ULC drives the pedals::

    m_rot = <plant>_rotating_mass_kg(q, gear)               # wheels and secondary clutch [kg]
    go, f, a_dir, v_d = ulc_reference(s, p, v, gear, shifting, grade, accel, m_rot)
    if go:                                                  # False: held or wrong gear, outputs set
        u = <plant>_solve(q, curves, f, a_dir, gear, v_d, engine_rpm, cvt_ratio)
        ulc_control(s, p, u, q.<force with the pedal released>)

(for the Ranger and the Maxxum: ``plant_rotating_mass_kg``, ``plant_solve`` and ``q.pl_force0_n`` of
vehicles/polaris/ulc_plant.py), and :func:`ulc_disengage` when it stops driving them.
:func:`ulc_reference` does the reference shaping, the gear management and the stand-still hold
and leaves ``f``, the error, the direction and the governor's flag for :func:`ulc_control` in the
record's ``u_f_n``, ``u_err_mps``, ``u_dir``, ``u_governed``; :func:`ulc_control` does the
hysteresis, the outputs and the integrator. The rotating mass depends on the gear only, so
asking for it before the reference (also in a step that then holds) changes no number.
:func:`ulc_reset` is the power-on state (the ULC's status too). ``Ulc.command`` decodes a
``UlcCmd`` in Python into the record.
"""

from __future__ import annotations

import math

from ..model._jit import njit
from ..model.filters import python_form
from .actuators import quantize, clamp
from .commands import UlcCmd
from .decode import LastCommand, as_enum, as_flag, as_float, decode_ulc_limit
from .msg_fields import G_DRIVE, G_LOW, G_NONE, G_PARK, G_REVERSE
from .params import DbwParameters
from .record import Field, Slot, param_record, record_array, run
from .status import ULC, ActuatorStatus, status_command, status_reset

#: Acceleration [m/s^2] along the wanted direction above which the vehicle counts as
#: catching up with the reference (the governor may then hold the reference).
_CATCHING_UP_MPS2 = 0.05

__all__ = ["Ulc", "STATE", "ulc_reset", "ulc_wanted_gear", "ulc_store", "ulc_shape_reference", "ulc_reference", "ulc_control", "ulc_disengage"]

_TYPES = frozenset({0, 1, 2})
G = 9.80665
_clamp, _quantize = python_form(clamp), python_form(quantize)   # command() decodes in Python

#: The record's fields of this module (:mod:`acres_dbw_sim.dbw.record`): the ULC's command, references,
#: controller state and outputs (``u_*``), its constants, and the step's hand-over from
#: :func:`ulc_reference` to :func:`ulc_control`.
STATE = (
    Field("u_dt_s", "s", "physics step"),
    Field("u_brake_gain_nm_per_bar", "N m/bar", "brake torque of all four wheels per bar, 2 G_f + 2 G_r"),
    Field("u_inv_gamma", "-", "1 / engine pedal exponent (inverse pedal map)"),
    Field("u_cmd_type", "enum", "decoded command type: 0 NONE, 1 VELOCITY, 2 ACCEL", 0, "int"),
    Field("u_cmd", "m/s", "decoded set-point (m/s for VELOCITY, m/s^2 for ACCEL)"),
    Field("u_limit_accel", "m/s^2", "speed reference's acceleration limit away from 0"),
    Field("u_limit_decel", "m/s^2", "speed reference's deceleration limit towards 0"),
    Field("u_jerk_throttle", "m/s^3", "acceleration reference's rate upwards"),
    Field("u_jerk_brake", "m/s^3", "acceleration reference's rate downwards"),
    Field("u_enable_shift", "bool", "the ULC may shift between DRIVE/LOW and REVERSE", 0, "bool"),
    Field("u_enable_shift_park", "bool", "the ULC may shift out of and into PARK", 0, "bool"),
    Field("u_coast_decel", "bool", "no brake application", 0, "bool"),
    Field("u_preempted", "bool", "direct user brake/throttle commands are in force", 0, "bool"),
    Field("u_engaged", "bool", "the ULC drove the pedals at its last step (bumpless start otherwise)", 0, "bool"),
    Field("u_v_ref", "m/s", "shaped speed reference"),
    Field("u_a_ref", "m/s^2", "shaped acceleration reference"),
    Field("u_integ", "m/s^2", "integral term of the speed controller"),
    Field("u_braking", "bool", "the brake has taken over (hysteresis state)", 0, "bool"),
    Field("u_throttle_pct", "%", "request to the throttle actuator"),
    Field("u_brake_bar", "bar", "request to the brake actuator"),
    Field("u_gear_request", "enum", "gear the ULC asks for (Gear), NONE if none", 0, "int"),
    Field("u_stopped_s", "s", "time held at stand-still with a zero speed command"),
    Field("u_invalid_count", "-", "commands with a NaN set-point (treated as CMD_NONE)", 0, "int"),
    Field("u_f_n", "N", "step hand-over: feed-forward force along the gear's direction"),
    Field("u_err_mps", "m/s", "step hand-over: speed error v_ref - v (0 for ACCEL)"),
    Field("u_dir", "-", "step hand-over: the gear's direction d (+1 forward, -1 reverse)"),
    Field("u_governed", "bool", "step hand-over: the reference governor held the reference", 0, "bool"),
)


@njit
def ulc_reset(S, P) -> None:
    """Power-on state of the ULC and its status (:func:`~acres_dbw_sim.dbw.status.status_reset` of slot
    :data:`~acres_dbw_sim.dbw.status.ULC`); the default limits of ``p``. ``u_invalid_count`` is kept."""
    s = S[0]
    p = P[0]
    status_reset(S, ULC, s.st_timeout_s[ULC])
    s.u_cmd_type = 0
    s.u_cmd = 0.0
    s.u_limit_accel = p.ulc_limit_accel_default_mps2
    s.u_limit_decel = p.ulc_limit_decel_default_mps2
    s.u_jerk_throttle = p.ulc_limit_jerk_throttle_default_mps3
    s.u_jerk_brake = p.ulc_limit_jerk_brake_default_mps3
    s.u_enable_shift = False
    s.u_enable_shift_park = False
    s.u_coast_decel = False
    s.u_preempted = False
    s.u_engaged = False
    s.u_v_ref = 0.0
    s.u_a_ref = 0.0
    s.u_integ = 0.0
    s.u_braking = False
    s.u_throttle_pct = 0.0
    s.u_brake_bar = 0.0
    s.u_gear_request = G_NONE
    s.u_stopped_s = 0.0


@njit
def ulc_wanted_gear(gear: int, direction: int) -> int:
    """Gear the ULC would like for a travel direction (+1, -1, 0)."""
    if direction > 0:
        return gear if (gear == G_DRIVE or gear == G_LOW) else G_DRIVE
    if direction < 0:
        return G_REVERSE
    return gear


@njit
def ulc_shape_reference(S, P, v_mps: float, accel_mps2: float) -> tuple:
    """The ULC's reference shaping (the module's docstring): the acceleration reference ``u_a_ref`` heads for
    the command within the jerk limits; in VELOCITY mode the speed reference ``u_v_ref`` follows it
    without crossing the command, held by the reference governor while the vehicle (speed ``v_mps``
    [m/s], measured acceleration ``accel_mps2`` [m/s^2]) falls behind; in ACCEL mode it follows the
    vehicle.

    Returns
    -------
    tuple (bool, float, int, bool)
        ``(velocity, target, direction, governed)``: VELOCITY mode, its target speed [m/s] (NaN in ACCEL
        mode), the wanted travel direction (+1, -1, 0) and whether the governor held the reference.
    """
    s = S[0]
    p = P[0]
    dt = s.u_dt_s
    velocity = s.u_cmd_type == 1
    if velocity:
        target = s.u_cmd
        v_ref = s.u_v_ref
        e = target - v_ref
        away = (e > 0.0 and v_ref >= 0.0) or (e < 0.0 and v_ref <= 0.0)
        a_lim = s.u_limit_accel if away else s.u_limit_decel
        j = s.u_jerk_throttle if e > 0.0 else s.u_jerk_brake
        if e != 0.0:
            a_abs = a_lim   # min(a_lim, sqrt(2 j |e|), |e| / dt), Python's order
            x = math.sqrt(2.0 * j * abs(e))
            if x < a_abs:
                a_abs = x
            x = abs(e) / dt
            if x < a_abs:
                a_abs = x
            a_d = math.copysign(a_abs, e)
        else:
            a_d = 0.0
    else:
        target = math.nan
        a_d = s.u_cmd
    da = a_d - s.u_a_ref
    s.u_a_ref += clamp(da, -s.u_jerk_brake * dt, s.u_jerk_throttle * dt)
    if velocity:
        v_ref = s.u_v_ref
        v_new = v_ref + s.u_a_ref * dt
        if (target - v_new) * (target - v_ref) < 0.0:
            v_new = target
            s.u_a_ref = (v_new - v_ref) / dt
        # reference governor: while speeding up, lead the vehicle by at most ref_lead,
        # but only while the vehicle is catching up (accelerating that way): a vehicle
        # that does not follow (scrubbing at full lock, a steep grade) needs the
        # reference to go on and the integrator to act, or it stalls short of it.
        lead = p.ulc_ref_lead_mps
        governed = False
        if (v_new > 0.0 and target > v_new and v_new > v_mps + lead
                and accel_mps2 > _CATCHING_UP_MPS2):
            x = v_mps + lead   # max(v_ref, v + lead), Python's order
            v_new = x if x > v_ref else v_ref
            governed = True
        elif (v_new < 0.0 and target < v_new and v_new < v_mps - lead
                and accel_mps2 < -_CATCHING_UP_MPS2):
            x = v_mps - lead   # min(v_ref, v - lead)
            v_new = x if x < v_ref else v_ref
            governed = True
        s.u_v_ref = v_new
        direction = 1 if target > 0.0 else -1 if target < 0.0 else 0
    else:
        s.u_v_ref = v_mps
        governed = False
        cmd = s.u_cmd
        direction = 1 if cmd > 0.0 else -1 if cmd < 0.0 else 0
    return velocity, target, direction, governed


@njit
def ulc_reference(S, P, v_mps: float, gear: int, shifting: bool, grade_mps2: float, accel_mps2: float,
                  m_rot_kg: float) -> tuple:
    """First part of the ULC's step (call only while it drives the pedals): bumpless start, reference
    shaping, gear management, stand-still hold, and the feed-forward force (the module's docstring).

    Parameters
    ----------
    v_mps : float
        Signed longitudinal speed [m/s].
    gear : int
        Present gear (``Gear`` value).
    shifting : bool
        The lever is moving.
    grade_mps2 : float
        Gravity component along body x, ``g sin(pitch)`` [m/s^2], positive nose up (estimated from the IMU).
    accel_mps2 : float
        Measured longitudinal acceleration [m/s^2] (filtered).
    m_rot_kg : float
        The plant's rotating mass in ``gear`` [kg] (wheels and secondary clutch, ``m_r - m``).

    Returns
    -------
    tuple (bool, float, float, float)
        ``(go, f, a_dir, v_d)``: ``go`` False when the step ends here (stand-still hold or wrong gear:
        ``u_throttle_pct``, ``u_brake_bar`` set); else the plant's inputs, force ``f`` [N] and desired
        acceleration ``a_dir`` [m/s^2] along the gear's direction and the speed ``v_d`` [m/s] along it;
        then call the plant's solve and :func:`ulc_control`. Updates ``u_gear_request``, ``u_v_ref``,
        ``u_a_ref`` and the hand-over fields.
    """
    s = S[0]
    p = P[0]
    dt = s.u_dt_s
    if not s.u_engaged:  # bumpless start from the measured state
        s.u_engaged = True
        s.u_v_ref = v_mps
        s.u_a_ref = 0.0
        s.u_integ = 0.0
        s.u_braking = False
        s.u_stopped_s = 0.0
    velocity, target, direction, governed = ulc_shape_reference(S, P, v_mps, accel_mps2)
    # ---- gear management
    s.u_gear_request = G_NONE
    want = ulc_wanted_gear(gear, direction)
    slow = abs(v_mps) <= p.gear_max_shift_speed_mps
    stopping = velocity and target == 0.0 and abs(s.u_v_ref) < 1e-6
    if stopping and abs(v_mps) < p.ulc_stop_speed_mps:
        s.u_stopped_s += dt
    else:
        s.u_stopped_s = 0.0
    if direction != 0 and want != gear and slow and not shifting:
        park_involved = gear == G_PARK
        if s.u_enable_shift and (not park_involved or s.u_enable_shift_park):
            s.u_gear_request = want
    elif (stopping and s.u_enable_shift and s.u_enable_shift_park and gear != G_PARK
          and not shifting and s.u_stopped_s >= p.ulc_park_delay_s):
        s.u_gear_request = G_PARK
    d = -1.0 if gear == G_REVERSE else 1.0 if (gear == G_DRIVE or gear == G_LOW) else 0.0
    wrong_gear = shifting or (direction != 0 and want != gear) or d == 0.0
    # ---- stand-still hold
    hold = stopping and abs(v_mps) < p.ulc_stop_speed_mps
    if hold or wrong_gear:
        s.u_integ = 0.0
        s.u_braking = True
        s.u_throttle_pct = 0.0
        s.u_brake_bar = 0.0 if s.u_coast_decel else p.ulc_hold_bar
        if wrong_gear and not hold and direction == 0 and d == 0.0 and not shifting:
            # in P/N with nothing to do: no need to hold the pedals
            if gear == G_PARK:
                s.u_brake_bar = 0.0
        return False, 0.0, 0.0, 0.0
    # ---- control: the feed-forward force
    err = (s.u_v_ref - v_mps) if velocity else 0.0
    a_des = s.u_a_ref + p.ulc_kp_speed * err + s.u_integ
    if velocity:
        a_des -= p.ulc_kd_accel * (accel_mps2 - s.u_a_ref)
    m = p.vehicle_mass_kg
    v_d = d * v_mps  # speed along the gear's direction
    x = abs(v_mps) / 0.5   # min(1, |v| / 0.5), Python's order
    f_res = m * G * p.ulc_rolling_coeff * (x if x < 1.0 else 1.0) \
        + 0.5 * p.aero_air_density_kg_m3 * p.aero_drag_area_m2 * v_mps * v_mps
    m_r = m + m_rot_kg
    f = m_r * d * a_des + d * m * grade_mps2 + (f_res if v_d >= 0.0 else -f_res)
    s.u_f_n = f
    s.u_err_mps = err
    s.u_dir = d
    s.u_governed = governed
    return True, f, d * a_des, v_d


@njit
def ulc_control(S, P, u: float, f0_n: float) -> None:
    """Second part of the ULC's step, after the plant's solve (only when :func:`ulc_reference` returned
    ``go``): brake/throttle hysteresis, the outputs ``u_throttle_pct`` [%] and ``u_brake_bar`` [bar], and
    the conditional integration (the module's docstring).

    Parameters
    ----------
    u : float
        The plant's torque request [-] for the force ``u_f_n`` (may lie outside 0..1).
    f0_n : float
        The plant's tractive force with the pedal released [N].
    """
    s = S[0]
    p = P[0]
    dt = s.u_dt_s
    f = s.u_f_n
    err = s.u_err_mps
    d = s.u_dir
    coast = s.u_coast_decel != 0
    m = p.vehicle_mass_kg
    h = m * p.ulc_hysteresis_mps2
    if s.u_braking and f > f0_n + h:
        s.u_braking = False
    elif not s.u_braking and f < f0_n - h:
        s.u_braking = True
    sat_hi = sat_lo = False
    if s.u_braking:
        s.u_throttle_pct = 0.0
        x = f0_n - f   # max(0, f0 - f), Python's order
        bar = 0.0 if coast else (x if x > 0.0 else 0.0) * p.tyres_radius_m / s.u_brake_gain_nm_per_bar
        s.u_brake_bar = clamp(bar, 0.0, p.brake_max_bar)
        sat_lo = coast or bar >= p.brake_max_bar  # cannot decelerate more
    else:
        s.u_brake_bar = 0.0
        uc = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
        s.u_throttle_pct = 100.0 * uc ** s.u_inv_gamma if uc > 0.0 else 0.0
        sat_hi = u >= 1.0  # full throttle: cannot accelerate more
    # drive direction sign: err > 0 asks for more speed along the gear direction
    e_dir = err * d
    if not s.u_governed and ((e_dir > 0.0 and not sat_hi) or (e_dir < 0.0 and not sat_lo)):
        lim = p.ulc_integral_limit_mps2
        s.u_integ = clamp(s.u_integ + p.ulc_ki_speed * err * dt, -lim, lim)


@njit
def ulc_disengage(S, v_mps: float) -> None:
    """The ULC stops driving: outputs to zero, references follow the vehicle (speed ``v_mps`` [m/s])."""
    s = S[0]
    s.u_engaged = False
    s.u_throttle_pct = 0.0
    s.u_brake_bar = 0.0
    s.u_gear_request = G_NONE
    s.u_v_ref = v_mps
    s.u_a_ref = 0.0
    s.u_integ = 0.0


@njit
def ulc_store(S, t_s: float, typ: int, cmd: float, limit_accel: float, limit_decel: float, jerk_throttle: float,
              jerk_brake: float, enable_shift: bool, enable_shift_park: bool, coast_decel: bool, enable: bool,
              clear: bool) -> None:
    """Store one decoded ``UlcCmd`` arriving at ``t_s`` [s] (:meth:`Ulc.command`): type, set-point [m/s or m/s^2],
    the reference limits [m/s^2, m/s^3], the shift and coast flags; then the status slot ULC takes the
    frame's ``enable`` and ``clear``."""
    s = S[0]
    s.u_cmd = cmd
    s.u_limit_accel = limit_accel
    s.u_limit_decel = limit_decel
    s.u_jerk_throttle = jerk_throttle
    s.u_jerk_brake = jerk_brake
    s.u_enable_shift = enable_shift
    s.u_enable_shift_park = enable_shift_park
    s.u_coast_decel = coast_decel
    s.u_cmd_type = typ
    status_command(S, ULC, t_s, typ != 0, enable, clear, False)


class Ulc:
    """The DBW2 longitudinal ULC: a view of the record's ``u_*`` fields and of the ULC's status slot.

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.ulc.*`` and the vehicle quantities).
    dt_s : float
        Physics step [s].
    plant : object
        The vehicle's ULC plant model (its registry row's ``ulc_plant`` built with ``p``: ``solve``,
        ``rear_ratio``, ``rotating_mass_kg``, ``u``, ``force0_n``, ``slipping``; the Ranger's
        ``vehicles.polaris.ulc_plant.PowertrainModel``).
    s : record
        The DBW's state record.

    Attributes
    ----------
    status : ActuatorStatus
        ULC flags (ready, enabled, override_*, timeout).
    preempted : bool
        Direct user brake/throttle commands are in force.
    v_ref, a_ref : float
        Shaped speed [m/s] and acceleration [m/s^2] references.
    throttle_pct, brake_bar : float
        Requests to the throttle [%] and brake [bar] actuators.
    gear_request : int
        Gear the ULC asks for (``Gear``), NONE if none.
    """

    cmd_type = Slot("u_cmd_type", "int")
    cmd = Slot("u_cmd")
    limit_accel = Slot("u_limit_accel")
    limit_decel = Slot("u_limit_decel")
    jerk_throttle = Slot("u_jerk_throttle")
    jerk_brake = Slot("u_jerk_brake")
    enable_shift = Slot("u_enable_shift", "bool")
    enable_shift_park = Slot("u_enable_shift_park", "bool")
    coast_decel = Slot("u_coast_decel", "bool")
    preempted = Slot("u_preempted", "bool")
    engaged = Slot("u_engaged", "bool")
    v_ref = Slot("u_v_ref")
    a_ref = Slot("u_a_ref")
    integ = Slot("u_integ")
    braking = Slot("u_braking", "bool")
    throttle_pct = Slot("u_throttle_pct")
    brake_bar = Slot("u_brake_bar")
    gear_request = Slot("u_gear_request", "int")
    stopped_s = Slot("u_stopped_s")
    invalid_count = Slot("u_invalid_count", "int")

    def __init__(self, p: DbwParameters, dt_s: float, plant, s) -> None:
        self.p = p
        self._p = param_record(p)
        self._s = s
        self.dt_s = dt_s
        self.status = ActuatorStatus(p.command_timeout_s, s, ULC)
        s.u_dt_s = dt_s
        s.u_brake_gain_nm_per_bar = 2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar)
        s.u_inv_gamma = 1.0 / p.engine_pedal_exponent
        self.powertrain = plant
        self.invalid_count = 0
        self.last_command = LastCommand(UlcCmd)
        self.reset()

    def reset(self) -> None:
        """Power-on state (:func:`ulc_reset`)."""
        run(ulc_reset, record_array(self._s), self._p)

    def command(self, t_s: float, msg: UlcCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``UlcCmd`` with the decoder's clamps (§4.5, §4.12) and store it (:func:`ulc_store`).

        A NaN ``cmd`` with a non-NONE type is treated as CMD_NONE (see
        decode.py); +/-inf saturate at the clamp limits. An unchanged re-send reuses the last decoding
        (:class:`~acres_dbw_sim.dbw.decode.LastCommand`).
        """
        run(ulc_store, record_array(self._s),
            *self.last_command.arguments(msg, self._decode, t_s, dbw_enabled, auto_clear))

    def _decode(self, msg: UlcCmd) -> tuple:
        """((type, set-point, four limits, three flags), enable bit, clear bit) of ``msg``, and whether
        it may be kept for a re-send (not after an invalid set-point)."""
        p = self.p
        typ = as_enum(getattr(msg, "cmd_type", 0), _TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        invalid = typ != 0 and val != val
        if invalid:
            self.invalid_count += 1
            typ = 0
        if typ == 1:
            cmd = _quantize(_clamp(val, -7.0, 45.0), 0.0025)   # clamp first: 1e305 / step is inf
        elif typ == 2:
            cmd = _quantize(_clamp(val, -6.0, 3.0), 0.0005)
        else:
            cmd = 0.0
        d = ((typ, float(cmd),
              float(decode_ulc_limit(getattr(msg, "limit_accel", 0.0), 0.025, 0.3, 3.0,
                                     p.ulc_limit_accel_default_mps2)),
              float(decode_ulc_limit(getattr(msg, "limit_decel", 0.0), 0.025, 0.3, 6.0,
                                     p.ulc_limit_decel_default_mps2)),
              float(decode_ulc_limit(getattr(msg, "limit_jerk_throttle", 0.0), 0.1, 1.0, 25.0,
                                     p.ulc_limit_jerk_throttle_default_mps3)),
              float(decode_ulc_limit(getattr(msg, "limit_jerk_brake", 0.0), 0.1, 1.0, 25.0,
                                     p.ulc_limit_jerk_brake_default_mps3)),
              bool(as_flag(getattr(msg, "enable_shift", False))),
              bool(as_flag(getattr(msg, "enable_shift_park", False))),
              bool(as_flag(getattr(msg, "coast_decel", False)))),
             bool(as_flag(getattr(msg, "enable", False))), bool(as_flag(getattr(msg, "clear", False))))
        return d, not invalid

    # ------------------------------------------------------------------ helpers