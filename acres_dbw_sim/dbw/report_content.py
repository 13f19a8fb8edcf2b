"""The content of every report, as functions of a read-only view of the DBW state.

Each ``fill_<report>(d, r)`` writes one report of ``r`` (a ``DbwReports``) from the DBW
state ``d`` and its parameters ``d.p``; it reads ``d`` and never writes it (a test checks
that no function here assigns to an attribute of ``d``). ``d`` is a :class:`ReportView`:
today the ``DbwSystem`` itself. The content of the steering, brake, throttle, gear, system and
ULC reports and of the measured motion is computed by compiled functions of the DBW's record
(``*_report_values``, :func:`motion_report_values`, :func:`status_flags`, :func:`not_ready_reason`),
each returning the report's fields in the order of its ``*_FIELDS`` table; their fill functions
store them. The other reports are filled in Python from the views.

The reports, their fields and their quantisation follow dbw-interface.md §2.9 (the CAN
scaling of each field), §4.4-§4.13 (what the firmware puts in them) and §1.6 (NaN for a
quantity the vehicle does not report). ``FILLERS`` maps a ``DbwReports`` attribute to its
function; ``ALWAYS_FILLED`` are the on-change reports, filled on every call because their
change counters decide their early publication (schedule.py).
"""

from __future__ import annotations

import math
from typing import Protocol

from ..model._jit import njit
from ..model.filters import python_form
from .actuators import clamp as _compiled_clamp, quantize as _compiled_quantize
from .msg_fields import SRC_ULC, SRC_USER, AwdMode, DiffLock, PrkBrkStat, SystemState
from .params import DbwParameters
from .schedule import ON_CHANGE
from .state import AWD, EPOCH_S, TURF, TWO_WD, DbwReports, MeasuredState
from .brake_hold import hold_reported_duration_s
from .record import record_array, run
from .status import BRAKE, STEERING, THROTTLE, ULC

# the Python form: the reports are filled in Python, where a call into compiled code costs more
clamp, quantize = python_form(_compiled_clamp), python_form(_compiled_quantize)

__all__ = ["ReportView", "FILLERS", "ALWAYS_FILLED", "REASON_NOT_READY", "REASON_DISENGAGE",
           "not_ready_reason", "fill_ecu_identities"]

#: ReasonNotReady codes of 2.1.8+ used here (§4.11) -> name.
REASON_NOT_READY = {
    0x00: "", 0x18: "FaultSteer", 0x19: "FaultBrake", 0x1A: "FaultThrtl", 0x1B: "FaultGear",
    0x20: "OverrideActiveSteer", 0x21: "OverrideActiveBrake", 0x22: "OverrideActiveThrtl",
    0x23: "OverrideActiveGear", 0x24: "OverrideLatchedSteer", 0x25: "OverrideLatchedBrake",
    0x26: "OverrideLatchedThrtl", 0x38: "MissingCmdSteer", 0x39: "MissingCmdBrake",
    0x3A: "MissingCmdThrtl", 0xC0: "NotEnableCmdSteer", 0xC1: "NotEnableCmdBrake",
    0xC2: "NotEnableCmdThrtl", 0xFE: "SystemDisabled",
}

#: ReasonDisengage codes used here (§4.11) -> name.
REASON_DISENGAGE = {0x00: ""}
for _base, _name in ((0x20, "Steer"), (0x40, "Brake"), (0x60, "Thrtl")):
    REASON_DISENGAGE[_base + 1] = f"{_name}CmdDisengage"
    REASON_DISENGAGE[_base + 4] = f"{_name}CmdTimeout"
    REASON_DISENGAGE[_base + 5] = f"{_name}RptFault"
    REASON_DISENGAGE[_base + 6] = f"{_name}RptOverride"
REASON_DISENGAGE.update({0x85: "GearRptFault", 0x86: "GearRptOverride", 0xC0: "SystemDisableCmd"})

#: Reports filled on every call of ``DbwSystem.reports``, whatever its ``only`` asks: the on-change
#: reports, whose change counters decide their early publication (schedule.py).
ALWAYS_FILLED = frozenset(ON_CHANGE)


class ReportView(Protocol):
    """What the report content reads of the DBW (``DbwSystem`` provides it; read-only here).

    The actuators (``steering``, ``brake``, ``throttle``: steering.py, pedals.py; ``gear``:
    gear.py; ``ulc``: ulc.py; ``hold``: brake_hold.py; ``sync``: status.FirmwareEngage) with
    their ``status`` (status.ActuatorStatus); ``statuses`` = the steering, brake and throttle
    statuses in that order; ``measured`` = the vehicle state as the DBW measures it.
    Times in s, angles in deg, pressures in bar, speeds in m/s, accelerations in m/s^2.
    """

    p: DbwParameters
    measured: MeasuredState
    statuses: tuple
    steering: object
    brake: object
    throttle: object
    gear: object
    ulc: object
    hold: object
    sync: object
    driver: object
    outputs: object
    dbw_enabled: bool
    firmware_managed: bool
    disengage_reason: int
    turn_signal_cmd: int
    turn_signal_t: float
    t_s: float
    drive_mode: int
    drive_mode_cmd: tuple
    accel_meas: float
    angle_rate: float
    wheel_counts: list
    odometer_km: float


#: The status flags of an actuator's report that :func:`status_flags` gives, in its order.
FLAG_FIELDS = ("ready", "enabled", "override_active", "override_other", "override_latched", "timeout", "fault")


@njit
def status_flags(S, i: int) -> tuple:
    """The status flags of actuator ``i`` (status.py ``STEERING``, ``BRAKE``, ``THROTTLE``) in the order of
    :data:`FLAG_FIELDS` (§4.3): ``override_other`` is set when the firmware-managed mode disengaged it for
    another subsystem's override (§4.2) and this one is neither overridden nor latched."""
    s = S[0]
    over, latched = s.st_override_active[i] != 0, s.st_override_latched[i] != 0
    return (s.st_ready[i] != 0, s.st_enabled[i] != 0, over, s.sync_override_other != 0 and not (over or latched),
            latched, s.st_timeout[i] != 0, s.st_fault[i] != 0)


#: The steering report's fields that :func:`steering_report_values` gives, in its order.
STEERING_REPORT_FIELDS = ("steering_wheel_angle", "steering_column_torque", "cmd_type", "cmd", "limiting_value",
                          "limiting_rate", "limit_rate", "limit_value") + FLAG_FIELDS


@njit
def steering_report_values(S) -> tuple:
    """The computed fields of ``steering_report`` (§2.9, §4.5, §4.6) from the DBW's record ``S`` (one-element
    array, dbw/record.py), in the order of :data:`STEERING_REPORT_FIELDS`: the reported angle (raw + offset)
    and the driver's column torque at their CAN scaling [deg, N m], the command in force while fresh (type 1:
    torque [N m]; an angle type: 2 and the angle set-point [deg]; else 0 and NaN), the limit flags, the
    servo's present rate limit [deg/s] (inf: none) and angle limit [deg], and the status flags
    (:func:`status_flags`)."""
    s = S[0]
    i = STEERING
    fresh = s.st_received[i] != 0 and s.st_timeout[i] == 0
    cmd_type = int(s.str_cmd_type)
    if fresh and cmd_type == 1:
        rep_type, cmd = 1, _compiled_quantize(s.str_torque_cmd_nm, 1.0 / 128.0)
    elif fresh and (cmd_type == 2 or cmd_type == 3 or cmd_type == 4 or cmd_type == 14):
        rep_type, cmd = 2, _compiled_quantize(s.str_target_raw + s.str_offset_deg, 0.1)
    else:
        rep_type, cmd = 0, math.nan
    rate = s.str_rate_limit
    return (_compiled_quantize(_compiled_clamp(s.str_angle_deg + s.str_offset_deg, -819.1, 819.1), 0.1),
            _compiled_quantize(_compiled_clamp(s.str_driver_torque_nm, -7.9375, 7.9375), 0.0625), rep_type, cmd,
            s.str_limiting_value != 0 and fresh, s.str_limiting_rate != 0 and s.st_enabled[i] != 0,
            rate if rate == math.inf else _compiled_quantize(rate, 4.0),
            _compiled_quantize(s.str_angle_limit_deg, 1.0)) + status_flags(S, i)


def _store(rep: object, names: tuple, values: tuple) -> None:
    """Set the fields ``names`` of report ``rep`` to ``values``."""
    for name, value in zip(names, values):
        setattr(rep, name, value)


def fill_steering_report(d: ReportView, r: DbwReports) -> None:
    """``steering_report`` (§2.9, §4.5, §4.6): :func:`steering_report_values` and the constant fields."""
    sr = r.steering_report
    _store(sr, STEERING_REPORT_FIELDS, run(steering_report_values, record_array(d.steering._s)))
    sr.external_control = sr.bad_crc = sr.bad_rc = sr.degraded = sr.hardware_disable = False
    sr.actuator_temp = math.nan
    sr.cmd_src = SRC_USER


#: The brake report's fields that :func:`brake_report_values` gives, in its order.
BRAKE_REPORT_FIELDS = ("cmd_type", "pressure_input", "pressure_cmd", "pressure_output", "torque_input", "torque_cmd",
                       "torque_output", "accel_cmd", "accel_output", "percent_input", "percent_cmd", "percent_output",
                       "limiting_value", "limiting_rate", "limit_value", "brake_available_duration",
                       "brake_available_full", "req_shift_park", "req_park_brake", "cmd_src") + FLAG_FIELDS


@njit
def brake_report_values(S, P) -> tuple:
    """The computed fields of ``brake_report`` (§2.9, §4.7) from the DBW's record ``S`` and parameter record
    ``P`` (one-element arrays, dbw/record.py), in the order of :data:`BRAKE_REPORT_FIELDS`: the type of the
    command in force (1 pressure while the ULC drives; none when stale) and, in that type's unit alone (NaN in
    the others), the driver's input, the set-point and the output (pressure [bar], torque [N m], deceleration
    [m/s^2] with the measured one, percent of full scale); the limit flags, the set-point limit in the command's
    unit (% for the percent types, m/s^2 for the accel types, bar otherwise), the brake-hold budget
    (:func:`~acres_dbw_sim.dbw.brake_hold.hold_reported_duration_s`, full, its requests), the command's source
    and the status flags (:func:`status_flags`)."""
    s = S[0]
    p = P[0]
    i = BRAKE
    q = _compiled_quantize
    nan = math.nan
    by_ulc = s.st_driven_by_ulc[i] != 0
    btype = 1 if by_ulc else int(s.brk_cmd_type) if s.st_received[i] != 0 and s.st_timeout[i] == 0 else 0
    pi = pc = po = ti = tc = to = ac = ao = qi = qc = qo = nan
    g = s.brk_gain_nm_per_bar
    accel_type = btype == 8 or btype == 9 or btype == 10
    percent_type = btype == 13 or btype == 14
    if btype == 1:
        pi, pc, po = q(s.brk_driver_bar, 0.05), q(s.brk_setpoint_bar, 0.05), q(s.brk_line_bar, 0.05)
    elif btype == 2:
        ti, tc, to = q(s.brk_driver_bar * g, 4.0), q(s.brk_setpoint_bar * g, 4.0), q(s.brk_line_bar * g, 4.0)
    elif accel_type:
        ti = q(s.brk_driver_bar * g, 4.0)
        ac = q(_compiled_clamp(s.brk_cmd_value, -10.2, 10.2), 0.005)
        ao = q(_compiled_clamp(s.sys_accel_meas, -10.2, 10.2), 0.005)
    elif percent_type:
        k = 100.0 / p.brake_max_bar
        qi, qc, qo = q(s.brk_driver_bar * k, 0.025), q(s.brk_setpoint_bar * k, 0.025), q(s.brk_line_bar * k, 0.025)
    if percent_type:
        limit = 100.0
    elif accel_type:
        limit = q(min(10.0, p.brake_max_bar / s.brk_bar_per_mps2), 0.02)
    else:
        limit = q(p.brake_max_bar, 0.2)
    return (btype, pi, pc, po, ti, tc, to, ac, ao, qi, qc, qo, s.brk_limiting_value != 0 and btype != 0,
            s.brk_limiting_rate != 0 and s.st_enabled[i] != 0, limit, hold_reported_duration_s(S),
            s.hold_remaining_s >= s.hold_budget_s, s.hold_req_shift_park != 0, s.hold_req_park_brake != 0,
            SRC_ULC if by_ulc else SRC_USER) + status_flags(S, i)


def fill_brake_report(d: ReportView, r: DbwReports) -> None:
    """``brake_report`` (§2.9, §4.7): :func:`brake_report_values` and the constant fields."""
    br = r.brake_report
    _store(br, BRAKE_REPORT_FIELDS, run(brake_report_values, record_array(d.brake._s), d.brake._p))
    br.btsi_cmd = br.yield_request = br.external_button = br.comms_loss_armed = False
    br.external_control = br.bad_crc = br.bad_rc = br.degraded = br.hardware_disable = False
    br.brake_available_partial_inf = 0  # BrakeInfDur UNSUPPORTED: the hold is finite


#: The throttle report's fields that :func:`throttle_report_values` gives, in its order.
THROTTLE_REPORT_FIELDS = ("cmd_type", "percent_input", "percent_cmd", "percent_output", "limiting_value",
                          "limiting_rate", "cmd_src") + FLAG_FIELDS


@njit
def throttle_report_values(S) -> tuple:
    """The computed fields of ``throttle_report`` (§2.9, §4.8) from the DBW's record ``S``, in the order of
    :data:`THROTTLE_REPORT_FIELDS`: the type of the command in force (14, percent, while the ULC drives; none
    when stale), the driver's input, the set-point and the output [%] (NaN without a command), the limit
    flags, the command's source and the status flags (:func:`status_flags`)."""
    s = S[0]
    i = THROTTLE
    q = _compiled_quantize
    by_ulc = s.st_driven_by_ulc[i] != 0
    ttype = 14 if by_ulc else int(s.thr_cmd_type) if s.st_received[i] != 0 and s.st_timeout[i] == 0 else 0
    if ttype:
        pi, pc, po = q(s.thr_driver_pct, 0.025), q(s.thr_setpoint_pct, 0.025), q(s.thr_output_pct, 0.025)
    else:
        pi = pc = po = math.nan
    return (ttype, pi, pc, po, s.thr_limiting_value != 0 and ttype != 0,
            s.thr_limiting_rate != 0 and s.st_enabled[i] != 0, SRC_ULC if by_ulc else SRC_USER) + status_flags(S, i)


def fill_throttle_report(d: ReportView, r: DbwReports) -> None:
    """``throttle_report`` (§2.9, §4.8): :func:`throttle_report_values` and the constant fields."""
    tr = r.throttle_report
    _store(tr, THROTTLE_REPORT_FIELDS, run(throttle_report_values, record_array(d.throttle._s)))
    tr.yield_request = tr.external_control = tr.bad_crc = tr.bad_rc = tr.degraded = tr.hardware_disable = False
    tr.limit_value = 100.0  # the percent set-point is clipped to 100 % (§4.8, pedals.py)


#: The gear report's fields that :func:`gear_report_values` gives, in its order (the first four decide its
#: change counter).
GEAR_REPORT_FIELDS = ("gear", "cmd", "driver", "reject", "gear_manual", "cmd_manual", "ready", "override_active",
                      "override_other", "fault", "support_cmd_manual", "cmd_src")


@njit
def gear_report_values(S) -> tuple:
    """The computed fields of ``gear_report`` (§2.9, §4.9) from the DBW's record ``S``, in the order of
    :data:`GEAR_REPORT_FIELDS`: the measured lever position, the pending command, the driver's lever, the
    last refusal, the powershift gear and its command, the status (ready unless a fault is injected, the
    override, another subsystem's override in the firmware-managed mode), whether manual gears are offered
    and the command's source."""
    s = S[0]
    over = s.gr_override_active != 0
    fault = s.gr_fault_injected != 0
    return (int(s.m_gear), int(s.gr_pending), int(s.m_gear_target), int(s.gr_reject), int(s.m_gear_manual),
            int(s.gr_manual_cmd), not fault, over, s.sync_override_other != 0 and not over, fault,
            s.gr_manual_gears > 0, int(s.gr_cmd_src))


def fill_gear_report(d: ReportView, r: DbwReports) -> None:
    """``gear_report`` and its change counter (§2.9, §4.9): :func:`gear_report_values` and the constant fields."""
    gr = r.gear_report
    v = run(gear_report_values, record_array(d.gear._s))
    if gr.gear != v[0] or gr.cmd != v[1] or gr.driver != v[2] or gr.reject != v[3]:
        r.gear_report_changes += 1
    _store(gr, GEAR_REPORT_FIELDS, v)
    gr.power_latched = gr.external_control = gr.bad_crc = gr.degraded = False
    gr.ready_to_calibrate = gr.req_brake_cal = False
    gr.actuator_temp = math.nan


_FAULT, _ACTIVE, _READY, _MANUAL = (int(SystemState.FAULT), int(SystemState.ACTIVE), int(SystemState.READY),
                                    int(SystemState.MANUAL))


@njit
def not_ready_reason(S, dbw_enabled: bool) -> int:
    """ReasonNotReady (2.1.8+ codes, :data:`REASON_NOT_READY`) from the actuator states in the DBW's record ``S``
    (§4.11, inferred mapping): the first fault, override, latched override, missing or not enabling command of
    steering, brake, throttle (and the gear's), in that order; 0 when all three are enabled."""
    s = S[0]
    for i in range(3):
        if s.st_fault[i] != 0:
            return 0x18 + i
    if s.gr_fault_injected != 0:
        return 0x1B
    for i in range(3):
        if s.st_override_active[i] != 0:
            return 0x20 + i
    if s.gr_override_active != 0:
        return 0x23
    for i in range(3):
        if s.st_override_latched[i] != 0:
            return 0x24 + i
    if s.st_enabled[0] != 0 and s.st_enabled[1] != 0 and s.st_enabled[2] != 0:
        return 0x00
    for i in range(3):
        if s.st_enabled[i] == 0 and (s.st_received[i] == 0 or s.st_timeout[i] != 0) and s.st_driven_by_ulc[i] == 0:
            return 0x38 + i
    for i in range(3):
        if s.st_enabled[i] == 0:
            return 0xC0 + i if dbw_enabled else 0xFE
    return 0xFE


@njit
def system_report_values(S, dbw_enabled: bool) -> tuple:
    """The computed fields of ``system_report`` (§2.9, §4.11) from the DBW's record ``S``: (fault, override,
    ready, enabled, state, reason_not_ready). Enabled is "all three enabled" in the driver-managed mode and
    "any enabled" in the firmware-managed modes, where the state is ACTIVE while the firmware is active;
    :func:`not_ready_reason` with ``dbw_enabled``."""
    s = S[0]
    g_fault = s.gr_fault_injected != 0
    fault = s.st_fault[0] != 0 or s.st_fault[1] != 0 or s.st_fault[2] != 0 or g_fault
    override = (s.st_override_active[0] != 0 or s.st_override_active[1] != 0 or s.st_override_active[2] != 0
                or s.gr_override_active != 0)
    ready = s.st_ready[0] != 0 and s.st_ready[1] != 0 and s.st_ready[2] != 0 and not g_fault
    if s.sys_firmware_managed != 0:
        enabled = (s.st_enabled[0] != 0 or s.st_enabled[1] != 0 or s.st_enabled[2] != 0) and not g_fault
        active = s.sync_active != 0
    else:
        enabled = s.st_enabled[0] != 0 and s.st_enabled[1] != 0 and s.st_enabled[2] != 0 and not g_fault
        active = enabled
    state = _FAULT if fault else _ACTIVE if active else _READY if ready else _MANUAL
    return fault, override, ready, enabled, state, not_ready_reason(S, dbw_enabled)


def fill_system_report(d: ReportView, r: DbwReports) -> None:
    """``system_report`` and its change counter (§2.9, §4.11): :func:`system_report_values`, the disengage
    reason and the constant fields (``r.dbw_enabled``, filled first by ``DbwSystem.reports``)."""
    sy = r.system_report
    fault, override, ready, enabled, state, nr = run(system_report_values, record_array(d.gear._s),
                                                      bool(r.dbw_enabled))
    dr = d.disengage_reason
    if state != sy.state or nr != sy.reason_not_ready or dr != sy.reason_disengage:
        r.system_report_changes += 1
    sy.fault, sy.override, sy.ready, sy.enabled, sy.state, sy.reason_not_ready = fault, override, ready, enabled, \
        state, nr
    sy.reason_not_ready_str = REASON_NOT_READY.get(nr, "Unknown")
    sy.reason_disengage = dr
    sy.reason_disengage_str = REASON_DISENGAGE.get(dr, "Unknown")
    sy.system_sync_mode = d.p.system_sync_mode
    sy.inhibit = sy.validate_cmd_crc_rc = sy.btn_enable = sy.btn_disable = sy.lockout = False
    sy.bad_crc = sy.bad_rc = False


#: The ULC report's fields that :func:`ulc_report_values` gives, in its order.
ULC_REPORT_FIELDS = ("cmd_type", "vel_ref", "vel_meas", "accel_ref", "accel_meas", "coast_decel", "ready", "enabled",
                     "override_active", "override_latched", "preempted", "timeout")


@njit
def ulc_report_values(S) -> tuple:
    """The computed fields of ``ulc_report`` (§4.12) from the DBW's record ``S``, in the order of
    :data:`ULC_REPORT_FIELDS`: the command type while fresh, the speed reference (the measured speed while
    not engaged) and the measured speed (±81.9, 0.02 m/s steps) [m/s], the acceleration reference (0 while not
    engaged) and the measured one (±6.35, 0.05 m/s^2 steps) [m/s^2], coasting, the ULC's status and pre-emption."""
    s = S[0]
    i = ULC
    q, c = _compiled_quantize, _compiled_clamp
    engaged = s.u_engaged != 0
    return (int(s.u_cmd_type) if s.st_received[i] != 0 and s.st_timeout[i] == 0 else 0,
            q(c(s.u_v_ref if engaged else s.m_v, -81.9, 81.9), 0.02), q(c(s.m_v, -81.9, 81.9), 0.02),
            q(c(s.u_a_ref if engaged else 0.0, -6.35, 6.35), 0.05), q(c(s.sys_accel_meas, -6.35, 6.35), 0.05),
            s.u_coast_decel != 0, s.st_ready[i] != 0, s.st_enabled[i] != 0, s.st_override_active[i] != 0,
            s.st_override_latched[i] != 0, s.u_preempted != 0, s.st_timeout[i] != 0)


def fill_ulc_report(d: ReportView, r: DbwReports) -> None:
    """``ulc_report`` (§4.12): :func:`ulc_report_values` and the constant fields."""
    ur = r.ulc_report
    _store(ur, ULC_REPORT_FIELDS, run(ulc_report_values, record_array(d.ulc._s)))
    ur.bad_crc = ur.bad_rc = False


def fill_misc_report(d: ReportView, r: DbwReports) -> None:
    """``misc_report``: no parking-brake or temperature sensors on the Ranger."""
    nan = math.nan
    mr = r.misc_report
    mr.parking_brake = int(PrkBrkStat.UNKNOWN)  # no electric parking brake (park is a gear)
    for name in ("outside_air_temp", "engine_coolant_temp", "engine_oil_temp", "trans_oil_temp",
                 "trans_clutch_temp", "traction_motor_coil_temp", "traction_motor_elec_temp"):
        setattr(mr, name, nan)


def fill_turn_signal_report(d: ReportView, r: DbwReports) -> None:
    """``turn_signal_report`` (§4.4)."""
    ts = r.turn_signal_report
    ts.input = d.driver.turn_signal
    ts.cmd = d.turn_signal_cmd
    ts.output = d.turn_signal_cmd if d.turn_signal_cmd else d.driver.turn_signal
    ts.feedback = ts.output
    ts.ready = True
    ts.timeout = d.turn_signal_t > -math.inf and (d.t_s - d.turn_signal_t) > 0.25 + 1e-9


def fill_drive_mode_report(d: ReportView, r: DbwReports) -> None:
    """``drive_mode_report``: the AWD switch as AwdMode and DiffLock (§4.4)."""
    s = d.measured
    dm = r.drive_mode_report
    mode = s.drive_mode if s.drive_mode in (TURF, TWO_WD, AWD) else d.drive_mode
    dm.drive_mode = dm.suspension_mode = 0
    dm.awd_mode = int(AwdMode.FOUR_AUTO if mode == AWD else AwdMode.TWO_HIGH)
    dm.rear_diff = int(DiffLock.UNLOCKED if mode == TURF else DiffLock.LOCKED)
    dm.front_diff = int(DiffLock.UNKNOWN)
    dm.awd_mode_cmd, dm.rear_diff_cmd = d.drive_mode_cmd
    dm.ready = True
    dm.support_awd_mode_cmd = dm.support_rear_diff_cmd = True


@njit
def motion_report_values(S) -> tuple:
    """The measured motion at the reports' CAN scaling from the DBW's record ``S`` (one-element array,
    dbw/record.py): the speed (0.01 km/h steps) [m/s], the four wheel spins (±327.67, 0.01 rad/s steps)
    [rad/s], the specific force (0.01 m/s^2 steps) [m/s^2] and the angular velocity (0.0002 rad/s steps)
    [rad/s] (body frame, REP-103), for ``vehicle_velocity``, ``wheel_speeds`` and ``imu``."""
    s = S[0]
    ws, f, w = s.m_wheel_spin, s.m_f_spec, s.m_omega
    return (_compiled_quantize(s.m_v * 3.6, 0.01) / 3.6,
            _compiled_quantize(_compiled_clamp(ws[0], -327.67, 327.67), 0.01),
            _compiled_quantize(_compiled_clamp(ws[1], -327.67, 327.67), 0.01),
            _compiled_quantize(_compiled_clamp(ws[2], -327.67, 327.67), 0.01),
            _compiled_quantize(_compiled_clamp(ws[3], -327.67, 327.67), 0.01),
            _compiled_quantize(f[0], 0.01), _compiled_quantize(f[1], 0.01), _compiled_quantize(f[2], 0.01),
            _compiled_quantize(w[0], 0.0002), _compiled_quantize(w[1], 0.0002), _compiled_quantize(w[2], 0.0002))


#: The imu report's fields that :func:`motion_report_values` gives from its sixth value on.
IMU_FIELDS = ("linear_acceleration_x", "linear_acceleration_y", "linear_acceleration_z", "angular_velocity_x",
              "angular_velocity_y", "angular_velocity_z")


def fill_motion(d: ReportView, r: DbwReports) -> None:
    """``vehicle_velocity``, ``wheel_speeds`` and ``imu``: the measured motion of :func:`motion_report_values`,
    computed once for the three (a caller that names any of them gets all three filled)."""
    v = run(motion_report_values, record_array(d.measured._s))
    vv = r.vehicle_velocity
    vv.vehicle_velocity_brake = vv.vehicle_velocity_propulsion = v[0]
    vv.dir_src = d.p.vehicle_velocity_dir_src
    ws = r.wheel_speeds
    ws.front_left, ws.front_right, ws.rear_left, ws.rear_right = v[1:5]
    _store(r.imu, IMU_FIELDS, v[5:])


def fill_wheel_positions(d: ReportView, r: DbwReports) -> None:
    """``wheel_positions`` (wrapping int16 counts)."""
    wp = r.wheel_positions
    wp.front_left, wp.front_right, wp.rear_left, wp.rear_right = (
        ((int(math.floor(c)) + 32768) % 65536) - 32768 for c in d.wheel_counts)


def fill_tire_pressures(d: ReportView, r: DbwReports) -> None:
    """``tire_pressures`` (the parameter file's inflation)."""
    p = d.p
    nan = math.nan
    tp = r.tire_pressures
    tp.front_left = tp.front_right = float(round(p.tyres_front_inflation_kpa))
    tp.rear_left = tp.rear_right = float(round(p.tyres_rear_inflation_kpa))
    tp.spare = nan


def fill_throttle_info(d: ReportView, r: DbwReports) -> None:
    """``throttle_info``."""
    s = d.measured
    nan = math.nan
    ti = r.throttle_info
    ti.accel_pedal_pc = quantize(d.outputs.pedal * 100.0, 0.025)
    ti.accel_pedal_qf = 0
    ti.one_pedal = 0
    ti.engine_rpm = quantize(s.engine_rpm, 0.25)
    ti.engine_throttle_valve_pc = nan  # Ranger XD only (§5.1)
    ti.drive_mode = 0


def fill_brake_info(d: ReportView, r: DbwReports) -> None:
    """``brake_info``."""
    brk = d.brake
    G = d.brake.gain_nm_per_bar
    s = d.measured
    nan = math.nan
    bi = r.brake_info
    bi.brake_torque_pedal = quantize(brk.driver_bar * G, 4.0)
    bi.brake_torque_request = quantize(max(brk.setpoint_bar, brk.driver_bar) * G, 4.0)
    bt = s.brake_torque if s.brake_torque == s.brake_torque else brk.line_bar * G
    bi.brake_torque_actual = quantize(bt, 4.0)
    bi.brake_pedal_qf = 0
    bi.brake_vacuum = nan
    bi.abs_active = bi.esc_active = bi.trac_active = False
    bi.abs_enabled = bi.esc_enabled = bi.trac_enabled = False


def fill_steering_offset(d: ReportView, r: DbwReports) -> None:
    """``steering_offset``."""
    stg = d.steering
    so = r.steering_offset
    so.steering_wheel_angle = stg.reported_angle_deg
    so.steering_wheel_angle_raw = stg.angle_deg
    so.steering_wheel_angle_offset = stg.offset_deg
    so.offset_type = 1 if stg.offset_deg != 0.0 else 0


def fill_steering_info(d: ReportView, r: DbwReports) -> None:
    """``steering_info``."""
    nan = math.nan
    stg = d.steering
    p = d.p
    st_s = d.steering.status
    si = r.steering_info
    si.override_torque_filtered = stg.driver_torque_nm
    si.override_torque_threshold = p.steering_override_torque_nm
    si.angle_rate = d.angle_rate
    si.angle_cmd_rate = stg.ref_rate if st_s.enabled else 0.0
    si.actuator_current = nan


def fill_propulsion_info(d: ReportView, r: DbwReports) -> None:
    """``propulsion_info``."""
    nan = math.nan
    s = d.measured
    pi = r.propulsion_info
    pi.propulsion_torque_request = pi.propulsion_torque_actual = nan  # Ford only
    gnum = {1: 15, 2: 11, 3: 14, 4: 1, 5: 1}.get(s.gear, 0)
    pi.gear_num_target = {1: 15, 2: 11, 3: 14, 4: 1, 5: 1}.get(s.gear_target, 0)
    pi.gear_num_actual = gnum
    pi.engine_torque_request = quantize(s.engine_torque, 0.25)
    pi.engine_torque_actual = quantize(s.engine_torque, 0.25)
    pi.transmission_ratio = quantize(s.cvt_ratio, 0.01)
    pi.torque_limiting = pi.limp_home = 0


def fill_fuel_level(d: ReportView, r: DbwReports) -> None:
    """``fuel_level`` and the odometer."""
    s = d.measured
    nan = math.nan
    fl = r.fuel_level
    fl.fuel_level = nan if s.fuel_l != s.fuel_l else clamp(100.0 * s.fuel_l / d.p.fuel_tank_l, 0.0, 100.0)
    fl.fuel_range = nan
    fl.odometer = d.odometer_km


def fill_diagnostics(d: ReportView, r: DbwReports) -> None:
    """The four ``*_diag`` reports."""
    g = d.gear
    st_s, st_b, st_t = d.statuses
    for diag, st in ((r.steering_diag, st_s), (r.brake_diag, st_b), (r.throttle_diag, st_t)):
        diag.fault = st.fault
        diag.fault_internal = st.fault
    r.gear_diag.fault = r.gear_diag.fault_internal = g.fault_injected


def fill_ecu_identities(ecus: tuple) -> None:
    """Plausible simulated identities of the Gateway and Throttle modules (§4.13, §5.1), filled at
    construction (the ``EcuInfo`` objects of ``reports().ecu_info``): constant but for
    ``datetime``, which ``reports`` sets."""
    for k, (e, mod) in enumerate(zip(ecus, ("Gateway", "Throttle"))):
        e.name = f"POLARIS_RANGERXP_{mod}"
        e.app_version = "1.4.5"
        e.boot_version = "1.0"
        e.hw_rev = "SIM"
        e.app_signature = f"{0x5A1D0000 + k:08X}"
        e.mac_addr = f"02:00:00:00:00:{k + 1:02X}"
        e.config_hash = f"{0x0C0F1600 + k:08X}"
        e.config_count_modified = 0
        e.config_count_configured = 1
        e.config_nvm_blank = False
        e.config_nvm_write_pending = False
        e.build_date = "2026/01/01"
        e.license_date = "2026/01/01"
        e.control_licensed = True
        e.log_filename = "000001.dbw"
        e.log_filesystem_present = False
        e.log_fault = False
        e.datetime = EPOCH_S


#: ``DbwReports`` attribute -> the function that fills it (``DbwSystem.reports(only=...)``).
FILLERS = {
    "steering_report": fill_steering_report,
    "brake_report": fill_brake_report,
    "throttle_report": fill_throttle_report,
    "gear_report": fill_gear_report,
    "system_report": fill_system_report,
    "ulc_report": fill_ulc_report,
    "misc_report": fill_misc_report,
    "turn_signal_report": fill_turn_signal_report,
    "drive_mode_report": fill_drive_mode_report,
    "vehicle_velocity": fill_motion,
    "wheel_speeds": fill_motion,
    "wheel_positions": fill_wheel_positions,
    "tire_pressures": fill_tire_pressures,
    "throttle_info": fill_throttle_info,
    "brake_info": fill_brake_info,
    "steering_offset": fill_steering_offset,
    "steering_info": fill_steering_info,
    "propulsion_info": fill_propulsion_info,
    "fuel_level": fill_fuel_level,
    "steering_diag": fill_diagnostics,
    "brake_diag": fill_diagnostics,
    "throttle_diag": fill_diagnostics,
    "gear_diag": fill_diagnostics,
    "imu": fill_motion,
}
