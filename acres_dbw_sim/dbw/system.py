"""The DBW system: commands in, model inputs out, reports from the vehicle state.

``DbwSystem`` joins the pieces of this package the way the real Polaris kit
joins them (dbw-interface.md §4): the ROS driver's engage logic
(``EngageLogic``), the steering, brake, throttle and gear modules, the ULC,
turn signal, drive mode and misc. ``reports`` fills every report through the
functions of report_content.py, which read this object and never write it; the
driver, output, report and measured-state types live in state.py.

Per physics step (``step``), in this order (the "StepDbw" of the Physics Step):

1. driver input -> override detection; ULC status; pre-emption;
2. actuator statuses (timeouts, overrides, enabled; ``<X>CmdTimeout`` and
   ``<X>CmdDisengage``, §4.11);
3. driver logic: ``dbw_enabled``, request drop, 50 ms auto-clear timer;
4. ULC control (when it drives the pedals), gear requests;
5. brake (and its hold budget, §4.7), throttle and steering dynamics (the
   column model of steering_column.py reads the front tyres' lateral forces
   of the model's last step); drive mode and its 250 ms command timeout;
   gear lever request;
6. wheel-encoder counters and the measured acceleration.

What the real driver would print (engage and disengage, enable refused for a
fault, a subsystem's command timeout, the one-time ULC pre-emption warning,
gear rejects, the brake-hold requests; §4.1, §4.7, §4.9, §4.12) is collected
as ``(level, text)`` log events (``logging`` levels); the node drains them
into its logger (``drain_log``). The core stays ROS-free.

The returned ``DbwOutputs`` always hold finite values within the physical
limits: pedal 0..1, line pressure 0..``dbw.brake.max_bar``, steering-wheel
angle within +/-``dbw.steering.lock_deg``, a valid ``Gear`` and ``AwdSwitch``.

Engagement is driver-managed (SystemSyncMode NONE, §4.1, the default) or,
with ``dbw.system_sync_mode`` = 2, managed by the firmware (ALL_OR_NONE,
§4.2, see ``status.FirmwareEngage``). The other sync modes (DISENGAGES, the
``*_WITH_BTN`` modes with their physical buttons, PARTIAL) are not emulated.
"""

from __future__ import annotations

import logging
import math

import numpy as np
from collections.abc import Iterable

from . import reports as R
from ..model._jit import njit
from ..model.filters import lag_factor, lag_toward
from .actuators import clamp
from .commands import (
    BrakeCmd, DisableEvent, DriveModeCmd, EnableEvent, GearCmd, MiscCmd, SteeringCalibrateEvent,
    SteeringCmd, ThrottleCmd, TurnSignalCmd, UlcCmd,
)
from .decode import as_enum
from .msg_fields import G_NONE, G_PARK, SRC_ULC, SRC_USER, AwdMode, DiffLock, TurnSignal
from .params import DbwParameters
from .record import Field, Slot, entry, new_state, param_record, record_array, run
from .brake_hold import BrakeHold, hold_step
from .gear import GearActuator, gear_command, gear_request_park, gear_take_manual, gear_update
from .pedals import BrakeActuator, ThrottleActuator, brake_step, throttle_step
from .status import (BRAKE, STEERING, THROTTLE, ULC, EngageLogic, FirmwareEngage, engage_tick, engage_update,
                     status_update, sync_tick, sync_update)
from .resend import command_bits, store_kept
from .steering import SteeringActuator, steering_step
from .ulc import Ulc, ulc_disengage
from .report_content import ALWAYS_FILLED, FILLERS, REASON_DISENGAGE, fill_ecu_identities
from .state import (AWD, EPOCH_S, SIM_VIN, TURF, TWO_WD, DbwOutputs, DbwReports, DriverInput, MeasuredState,
                    driver_store)

__all__ = ["DbwSystem", "SUBSYSTEMS", "GEAR_REJECT_TEXT", "STATE", "LOG_CELLS", "log_push", "command_timeouts",
           "sensors_step", "dbw_enabled_of", "subsystem_dropped", "disengage_code"]

#: Log levels of the log events (``DbwSystem.drain_log``).
INFO, WARN = logging.INFO, logging.WARNING

#: Subsystem names of the log lines (steering, brake, throttle).
_NAMES = ("Steering", "Brake", "Throttle")

#: GearReject -> the text the driver logs once per new reject (§4.9, own words).
GEAR_REJECT_TEXT = {
    1: "gear fault", 2: "unsupported gear", 3: "shift in progress",
    4: "override on brake, throttle or steering", 5: "brake-hold time depleted, staying in PARK",
    6: "vehicle speed too high", 7: "vehicle refused the shift (try pressing the brake)",
}

#: Subsystem names accepted by ``set_fault``.
SUBSYSTEMS = ("steering", "brake", "throttle", "gear")

#: Log events the compiled step queues in the record (``log_code``, with ``log_arg``); :meth:`DbwSystem.drain_log`
#: turns them into their texts: enabled; disabled (arg: the ReasonDisengage); the ULC pre-empted; brake
#: hold running low; brake hold exhausted; a gear reject (arg: the GearReject); a subsystem's command
#: timeout (arg: its status slot).
LOG_ENABLED, LOG_DISABLED, LOG_ULC_PREEMPTED, LOG_HOLD_LOW, LOG_HOLD_EXHAUSTED, LOG_GEAR_REJECT, LOG_TIMEOUT = \
    1, 2, 3, 4, 5, 6, 7
#: Log events the record holds between two drains (a step queues at most a few).
LOG_CELLS = 64

#: The record's fields of the system itself (:mod:`acres_dbw_sim.dbw.record`): ``sys_*`` and the queued
#: log events ``log_*``.
STATE = (
    Field("sys_t_s", "s", "simulation time at the start of the last step"),
    Field("sys_firmware_managed", "bool", "SystemSyncMode ALL_OR_NONE (§4.2)", 0, "bool"),
    Field("sys_drive_mode", "enum", "AWD switch position in force (model AwdSwitch)", 0, "int"),
    Field("sys_drive_mode_cmd", "enum", "DriveModeCmd (awd_mode_cmd, rear_diff_cmd) in force", 2, "int"),
    Field("sys_turn_signal_cmd", "enum", "TurnSignalCmd in force", 0, "int"),
    Field("sys_turn_signal_t", "s", "arrival of the last TurnSignalCmd (-inf: none)"),
    Field("sys_drive_mode_t", "s", "arrival of the last DriveModeCmd (-inf: none)"),
    Field("sys_wheel_counts", "counts", "wheel-encoder counters FL, FR, RL, RR (mod 65536)", 4),
    Field("sys_odometer_km", "km", "distance travelled"),
    Field("sys_v_prev", "m/s", "measured speed of the step before (NaN: none)"),
    Field("sys_accel_meas", "m/s^2", "measured acceleration, low-pass filtered"),
    Field("sys_accel_factor", "-", "lag factor of the acceleration filter"),
    Field("sys_grade_mps2", "m/s^2", "grade estimate g sin(pitch), low-pass filtered"),
    Field("sys_grade_factor", "-", "lag factor of the grade filter"),
    Field("sys_disengage_reason", "enum", "ReasonDisengage of the last disengagement (§4.11)", 0, "int"),
    Field("sys_ulc_preempt_warned", "bool", "the one-time ULC pre-emption warning was given", 0, "bool"),
    Field("sys_angle_prev", "deg", "steering-wheel output of the step before"),
    Field("sys_angle_rate", "deg/s", "steering-wheel output rate"),
    Field("sys_logged_enabled", "bool", "dbw_enabled as last logged", 0, "bool"),
    Field("sys_logged_reject", "enum", "gear reject as last logged", 0, "int"),
    Field("sys_logged_park_brake", "bool", "brake-hold parking-brake request as last logged", 0, "bool"),
    Field("sys_logged_shift_park", "bool", "brake-hold shift-to-PARK request as last logged", 0, "bool"),
    Field("log_n", "-", "queued log events", 0, "int"),
    Field("log_code", "enum", "queued log events (LOG_*)", LOG_CELLS, "int"),
    Field("log_arg", "-", "argument of each queued log event", LOG_CELLS),
)


@njit
def log_push(S, code: int, arg: float) -> None:
    """Queue log event ``code`` (``LOG_*``) with ``arg``; when the queue is full the oldest goes."""
    s = S[0]
    n = s.log_n
    if n == LOG_CELLS:
        for k in range(1, LOG_CELLS):
            s.log_code[k - 1] = s.log_code[k]
            s.log_arg[k - 1] = s.log_arg[k]
        n -= 1
    s.log_code[n] = code
    s.log_arg[n] = arg
    s.log_n = n + 1


@njit
def command_timeouts(S, t_s: float) -> None:
    """The turn-signal and drive-mode commands' 250 ms timeouts at ``t_s`` [s] (§4.4): the command in force
    returns to none."""
    s = S[0]
    if t_s - s.sys_turn_signal_t > 0.25 + 1e-9:
        s.sys_turn_signal_cmd = 0
    if t_s - s.sys_drive_mode_t > 0.25 + 1e-9:  # drive-mode command timeout 250 ms (§4.4)
        s.sys_drive_mode_cmd[0] = 0
        s.sys_drive_mode_cmd[1] = 0


@njit
def sensors_step(S, dt_s: float, counts_per_rev: float) -> None:
    """The sensors integrated over one step of ``dt_s`` [s] from the measured state (``m_*``): the wheel
    encoders (``counts_per_rev`` per turn, modulo 65536), the odometer, the measured acceleration (the
    speed's difference quotient through its lag) and the grade estimate (specific force along x minus
    that acceleration, clamped to +/-9.81 m/s^2, through its lag; gaps.md "Drive-by-Wire and ULC")."""
    s = S[0]
    cpr = counts_per_rev / (2.0 * math.pi)
    for i in range(4):
        c = s.sys_wheel_counts[i] + s.m_wheel_spin[i] * dt_s * cpr
        s.sys_wheel_counts[i] = np.fmod(c, 65536.0)   # C fmod, as math.fmod (which numba lacks)
    s.sys_odometer_km += s.m_speed * dt_s * 1e-3
    v = s.m_v
    if s.sys_v_prev == s.sys_v_prev:
        s.sys_accel_meas = lag_toward(s.sys_accel_meas, (v - s.sys_v_prev) / dt_s, s.sys_accel_factor)
    s.sys_v_prev = v
    s.sys_grade_mps2 = lag_toward(s.sys_grade_mps2, clamp(s.m_f_spec[0] - s.sys_accel_meas, -9.81, 9.81),
                                  s.sys_grade_factor)


@njit
def dbw_enabled_of(S) -> bool:
    """What ``/vehicle/dbw_enabled`` publishes: the driver's ``eng_enabled`` (§4.1) or, firmware-managed, the
    system state ACTIVE (§4.2)."""
    s = S[0]
    return s.sync_active != 0 if s.sys_firmware_managed else s.eng_enabled != 0


@njit
def subsystem_dropped(S) -> None:
    """§4.11: steering, brake or throttle (status slots 0..2) left ``enabled`` because of its own command
    stream in this step.

    A command timeout gives ``<X>CmdTimeout`` (0x20, 0x40, 0x60 + 4) and, while DBW is enabled, the
    driver's warning (§3.3; after a disable the stack's commands stop by design and Dataspeed's driver
    warns only of a subsystem still enabled when it times out); an enable bit the stack cleared while
    DBW was enabled gives ``<X>CmdDisengage`` (+ 1; the driver's own masking after a disable or an
    override keeps the reason of that event). Overrides and faults are coded when ``dbw_enabled``
    drops (:func:`disengage_code`).
    """
    s = S[0]
    for k in range(3):
        if not s.st_dropped[k]:
            continue
        base = 0x20 * (k + 1)
        if s.st_disengage[k] == 4:
            s.sys_disengage_reason = base + 4
            if dbw_enabled_of(S):
                log_push(S, LOG_TIMEOUT, k)
        elif s.st_disengage[k] == 1 and dbw_enabled_of(S):
            s.sys_disengage_reason = base + 1


@njit
def disengage_code(S) -> int:
    """ReasonDisengage of the transition that just dropped ``dbw_enabled`` (§4.11): the gear's fault (0x85)
    or override (0x86), else the first unmasked fault (+5) or override (+6) of steering, brake,
    throttle (0x20, 0x40, 0x60), else 0."""
    s = S[0]
    if s.gr_fault_injected:
        return 0x85
    if s.gr_override_active:
        return 0x86
    for k in range(3):
        if s.st_fault[k] and not s.st_timeout[k]:
            return 0x20 * (k + 1) + 5
    for k in range(3):
        if (s.st_override_active[k] or s.st_override_latched[k]) and not s.st_timeout[k]:
            return 0x20 * (k + 1) + 6
    return 0


@njit
def any_override_active(S) -> bool:
    """A driver override is active on steering, brake or throttle (status slots 0..2), the gear's check."""
    s = S[0]
    return s.st_override_active[0] != 0 or s.st_override_active[1] != 0 or s.st_override_active[2] != 0


@njit
def dbw_step_begin(S, P, t_s: float) -> bool:
    """Steps 1 to 3 of the DBW's physics step at ``t_s`` [s] (the module's docstring), from the record's
    measured state (``m_*``) and driver input (``drv_*``): the driver's overrides, the ULC's status and its
    pre-emption by fresh user pedal commands (§4.12), the actuator statuses (§4.3, §4.11), then the
    driver's engage logic (§4.1) or the firmware's system state (§4.2).

    Returns
    -------
    bool
        The ULC drives the pedals this step: the caller runs the ULC with the vehicle's plant model
        (:func:`acres_dbw_sim.dbw.ulc.ulc_reference`, the plant, :func:`~acres_dbw_sim.dbw.ulc.ulc_control`)
        or, when False, :func:`dbw_ulc_idle`; then :func:`dbw_step_end`.
    """
    s = S[0]
    p = P[0]
    s.sys_t_s = t_s
    driver_brake = s.drv_brake_pedal_pct
    over_brake = driver_brake > p.brake_override_pct
    over_throttle = s.drv_accel_pedal_pct > p.throttle_override_pct
    over_steer = abs(s.drv_steering_torque_nm) > p.steering_override_torque_nm
    s.gr_override_active = s.drv_gear != 0 and s.drv_gear != s.m_gear_target

    # 1. ULC status and pre-emption by fresh, enabled user pedal commands (§4.12)
    s.st_fault_injected[ULC] = s.st_fault_injected[BRAKE] != 0 or s.st_fault_injected[THROTTLE] != 0
    fw = s.sys_firmware_managed != 0
    permitted = s.sync_active != 0 or not fw  # §4.2: the firmware engages only while ACTIVE
    status_update(S, ULC, t_s, over_brake or over_throttle, False, permitted, False, 0)
    fresh_user = False
    for i in (BRAKE, THROTTLE):
        if (s.st_received[i] and s.st_enable_bit[i] and (t_s - s.st_last_cmd_t[i]) <= p.command_timeout_s + 1e-9):
            fresh_user = True
    ulc_enabled = s.st_enabled[ULC] != 0
    s.u_preempted = fresh_user and ulc_enabled
    ulc_drives = ulc_enabled and not fresh_user
    if s.u_preempted and not s.sys_ulc_preempt_warned:  # one-time warning (§4.12, 2.1.8+)
        s.sys_ulc_preempt_warned = True
        log_push(S, LOG_ULC_PREEMPTED, 0.0)

    # 2. actuator statuses
    status_update(S, STEERING, t_s, over_steer, False, permitted, False, 0)
    ulc_stream = s.st_enable_bit[ULC] != 0 and not s.st_timeout[ULC]
    ulc_cause = s.st_disengage[ULC] if s.st_dropped[ULC] else 0
    status_update(S, BRAKE, t_s, over_brake, ulc_drives, permitted, ulc_stream, ulc_cause)
    status_update(S, THROTTLE, t_s, over_throttle, ulc_drives, permitted, ulc_stream, ulc_cause)
    if s.st_dropped[STEERING] or s.st_dropped[BRAKE] or s.st_dropped[THROTTLE]:
        subsystem_dropped(S)

    # 3. driver logic (§4.1) or the firmware's system state (§4.2)
    g_fault, g_over = s.gr_fault_injected != 0, s.gr_override_active != 0
    if fw:
        if sync_update(S, g_fault, g_over):
            s.sys_disengage_reason = disengage_code(S)
        sync_tick(S, t_s, g_fault, g_over)
    else:
        was = s.eng_enabled != 0
        engage_update(S, g_fault, g_over)
        if was and not s.eng_enabled:
            s.sys_disengage_reason = disengage_code(S)
        engage_tick(S, t_s)
    return ulc_drives


@njit
def dbw_ulc_gear(S) -> None:
    """Step 4's gear request of the ULC after it ran: forwarded to the gear actuator as a ``GearCmd`` of the
    ULC (§4.12) when it asks for a gear that is not already pending."""
    s = S[0]
    req = s.u_gear_request
    if req != G_NONE and req != s.gr_pending:
        gear_command(S, req, False, 0, dbw_enabled_of(S), s.m_v, s.m_gear, s.m_shifting != 0,
                     any_override_active(S), SRC_ULC, s.hold_req_shift_park != 0)


@njit
def dbw_ulc_idle(S) -> None:
    """Step 4 when the ULC does not drive: an engaged ULC (or one with an output left) disengages, else its
    speed reference follows the vehicle."""
    s = S[0]
    if s.u_engaged or s.u_throttle_pct or s.u_brake_bar:
        ulc_disengage(S, s.m_v)
    else:
        s.u_v_ref = s.m_v


@njit
def dbw_step_end(S, P, t_s: float, dt_s: float) -> None:
    """Steps 5 and 6 of the DBW's physics step (the module's docstring): brake (with its hold budget, §4.7),
    throttle and steering dynamics, drive mode, the gear lever request, the 250 ms command timeouts,
    the sensors, and the enable/disable log events; the outputs in ``out_*``."""
    s = S[0]
    p = P[0]
    # 5. actuators
    driver_bar = s.drv_brake_pedal_pct * 0.01 * p.brake_max_bar
    s.out_brake_line_bar = brake_step(S, P, dt_s, driver_bar, s.u_brake_bar)
    # brake-hold budget (§4.7, brake_hold.py); nothing to do when released and full
    if s.brk_actuator_bar > s.hold_min_bar or s.hold_remaining_s < s.hold_budget_s:
        hold_step(S, dt_s, s.brk_actuator_bar, s.m_speed)
    if s.hold_req_park_brake != s.sys_logged_park_brake:
        s.sys_logged_park_brake = s.hold_req_park_brake
        if s.hold_req_park_brake:
            log_push(S, LOG_HOLD_LOW, 0.0)
    gear, shifting = s.m_gear, s.m_shifting != 0
    if s.hold_req_shift_park:
        gear_request_park(S, gear, shifting, s.m_v)
        # once PARK holds the vehicle the exhausted actuator lets go
        s.brk_hold_exhausted = gear == G_PARK and not shifting
    else:
        s.brk_hold_exhausted = False
    if s.hold_req_shift_park != s.sys_logged_shift_park:
        s.sys_logged_shift_park = s.hold_req_shift_park
        if s.hold_req_shift_park:
            log_push(S, LOG_HOLD_EXHAUSTED, 0.0)
    s.out_pedal = clamp(throttle_step(S, dt_s, s.drv_accel_pedal_pct, s.u_throttle_pct), 0.0, 1.0)
    angle = steering_step(S, P, s.m_v, s.drv_steering_torque_nm, s.drv_steering_wheel_deg, s.m_fy_front)
    s.out_steering_wheel_deg = angle
    s.sys_angle_rate = (angle - s.sys_angle_prev) / dt_s
    s.sys_angle_prev = angle
    if s.drv_drive_mode >= 0:
        s.sys_drive_mode = s.drv_drive_mode
    s.out_drive_mode = s.sys_drive_mode
    req = gear_update(S, gear, shifting, s.m_gear_reject)
    s.out_gear_request = s.drv_gear if s.drv_gear != 0 else req
    s.out_gear_manual_request = gear_take_manual(S)
    rj = s.gr_reject
    if rj != s.sys_logged_reject:  # the driver logs each new reject once (§4.9)
        s.sys_logged_reject = rj
        if rj:
            log_push(S, LOG_GEAR_REJECT, rj)
    command_timeouts(S, t_s)

    # 6. sensors integrated over the step
    sensors_step(S, dt_s, p.wheel_counts_per_rev)
    en = dbw_enabled_of(S)
    if en != s.sys_logged_enabled:
        s.sys_logged_enabled = en
        if en:
            log_push(S, LOG_ENABLED, 0.0)
        else:
            log_push(S, LOG_DISABLED, s.sys_disengage_reason)


class DbwSystem:
    """Drive-by-wire emulation of the Polaris Ranger kit (ROS-free).

    Parameters
    ----------
    params : DbwParameters
        DBW parameters (the kit fitted to a vehicle when its file was loaded, ``vp.kit``).
    dt_s : float
        Physics step [s] (1/1000 to 1/60).
    steering_wheel_deg : float, optional
        Initial raw steering-wheel angle [deg]; default the straight-ahead
        centre ``steering.center_deg``.
    drive_mode : int, optional
        Initial AWD switch position (model ``AwdSwitch``), default AWD.
    vin : str, optional
        VIN of the vehicle the kit is fitted to (``system/report``); default :data:`SIM_VIN`,
        the simulated Ranger's.
    ulc_plant : callable
        ``DbwParameters -> plant``: the vehicle's ULC plant model (its registry row's ``ulc_plant``).

    Raises
    ------
    ValueError
        If ``dt_s`` is not within [1e-3, 1/60], the initial values are invalid or ``vin`` is
        not 17 characters of ISO 3779 (capitals and digits, no I, O, Q).
    TypeError
        Without ``ulc_plant``.

    Notes
    -----
    Time is the caller's simulation time in seconds: ``submit(cmd, t_s)`` with
    the arrival time, ``step(t_s, state)`` once per physics step with the
    time at the start of that step, ``reports(t_s, state)`` whenever a
    report is due. The node publishes each report at its real rate (§1.4).
    """

    t_s = Slot("sys_t_s")
    firmware_managed = Slot("sys_firmware_managed", "bool")
    drive_mode = Slot("sys_drive_mode", "int")
    drive_mode_cmd = Slot("sys_drive_mode_cmd", "int", whole=tuple)
    turn_signal_cmd = Slot("sys_turn_signal_cmd", "int")
    turn_signal_t = Slot("sys_turn_signal_t")
    drive_mode_t = Slot("sys_drive_mode_t")
    wheel_counts = Slot("sys_wheel_counts", whole=list)
    odometer_km = Slot("sys_odometer_km")
    accel_meas = Slot("sys_accel_meas")
    grade_mps2 = Slot("sys_grade_mps2")
    disengage_reason = Slot("sys_disengage_reason", "int")
    ulc_preempt_warned = Slot("sys_ulc_preempt_warned", "bool")
    angle_rate = Slot("sys_angle_rate")

    def __init__(self, params: DbwParameters, dt_s: float, steering_wheel_deg: float | None = None,
                 drive_mode: int = AWD, vin: str = SIM_VIN, ulc_plant=None) -> None:
        if ulc_plant is None:
            raise TypeError("DbwSystem: ulc_plant is needed, the vehicle's ULC plant model (its registry row's "
                            "ulc_plant, e.g. vehicle_spec('polaris').ulc_plant)")
        if not (isinstance(dt_s, (int, float)) and 1e-3 - 1e-12 <= dt_s <= 1.0 / 60.0 + 1e-12):
            raise ValueError(f"dt_s={dt_s!r}: must lie in [0.001, 1/60] s")
        if not (isinstance(vin, str) and len(vin) == 17 and vin.isalnum() and vin.isupper()
                and not set("IOQ") & set(vin)):
            raise ValueError(f"vin={vin!r}: 17 capital letters and digits, no I, O or Q (ISO 3779)")
        #: The VIN the system report gives (the vehicle's; ``vehicles.<name>`` defines its own).
        self.vin = vin
        self.p = params
        self.dt_s = float(dt_s)
        #: The DBW's per-step state (:mod:`acres_dbw_sim.dbw.record`), shared by its subsystems' views.
        self.state = new_state()
        self._s = s = self.state
        self.steering = SteeringActuator(params, self.dt_s, s, params.steering_center_deg)
        self.brake = BrakeActuator(params, self.dt_s, s)
        self.throttle = ThrottleActuator(params, self.dt_s, s)
        self.gear = GearActuator(params.gear_max_shift_speed_mps, int(params.gear_manual_gears), s)
        self.ulc = Ulc(params, self.dt_s, ulc_plant(params), s)
        #: the streamed commands' last decodings (decode.LastCommand) and status slots, by command class
        streams = ((SteeringCmd, self.steering, STEERING), (BrakeCmd, self.brake, BRAKE),
                   (ThrottleCmd, self.throttle, THROTTLE), (UlcCmd, self.ulc, ULC))
        self._streams = {c: (a.last_command, i) for c, a, i in streams}
        self._enter_step()
        self.hold = BrakeHold(params, self.dt_s, s)
        #: pending log events ``(level, text)``, drained by the node (``drain_log``)
        self.log_events: list = []
        self.engage = EngageLogic(0.05, s)
        self.sync = FirmwareEngage(0.05, s)
        #: Firmware-managed engagement (SystemSyncMode ALL_OR_NONE, §4.2).
        self.firmware_managed = params.system_sync_mode == 2
        self.outputs = DbwOutputs()
        self.driver = DriverInput()
        self.measured = MeasuredState(params.vehicle_velocity_dir_src, s)
        self._rep = DbwReports()
        s.sys_accel_factor = lag_factor(params.accel_filter_s, self.dt_s)
        s.sys_grade_factor = lag_factor(params.ulc_grade_filter_s, self.dt_s)
        self._ecu = (R.EcuInfo(), R.EcuInfo())
        self._rep.ecu_info = self._ecu
        fill_ecu_identities(self._ecu)   # the identities: filled once, not with every report
        #: the report functions: those of every call, and the others once each (diagnostics fill four)
        self._fill_always = tuple(FILLERS[name] for name in sorted(ALWAYS_FILLED))
        self._fill_every = tuple(dict.fromkeys(f for name, f in FILLERS.items() if name not in ALWAYS_FILLED))
        self.statuses = (self.steering.status, self.brake.status, self.throttle.status)
        self.reset(steering_wheel_deg, drive_mode)

    def _enter_step(self) -> None:
        """The arguments the compiled step with the vehicle's ULC plant is entered with (the records as one-element
        arrays); its entry point is made at the first :meth:`step` (a vehicle with its own step through the DBW
        never needs it, and loading it from numba's cache costs a start some milliseconds)."""
        self._step_entry = None
        self._step_args = self.ulc.powertrain.dbw_step_arguments(self.state, param_record(self.p))
        # an unchanged re-send's store (submit): the record's array and the compiled store_kept's entry point
        self._record = record_array(self.state)
        self._store_kept = entry(store_kept, (self._record, 0, 0.0, np.zeros(11)))
        self._enabled_of = entry(dbw_enabled_of, (self._record,))

    def step_arguments(self) -> tuple:
        """The arguments of the compiled step before the time (the records as one-element arrays, the ULC
        plant's engine curves): what a vehicle's own compiled step through the DBW passes on."""
        return self._step_args

    def kept_command(self, command: object) -> tuple | None:
        """``(status slot, decoding)`` when ``command`` (a steering, brake, throttle or ULC command) would be
        an unchanged re-send of its actuator's last one (:meth:`LastCommand.kept
        <acres_dbw_sim.dbw.decode.LastCommand.kept>`): what a compiled loop re-sends with
        :func:`~acres_dbw_sim.dbw.resend.store_kept`, exactly as :meth:`submit` would store it. None for any
        other command, and for one that :meth:`submit` would decode anew."""
        stream = self._streams.get(type(command))
        if stream is None:
            return None
        a = stream[0].kept(command)
        return None if a is None else (stream[1], a)

    def take_log(self, n_log: int) -> None:
        """After a compiled step that queued ``n_log`` log events: their texts (:meth:`drain_log`)."""
        if n_log:
            self._take_log()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        for name in ("_step_args", "_step_entry", "_record", "_store_kept", "_enabled_of"):
            del state[name]   # arrays over the record and machine code: made anew
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._enter_step()

    # ------------------------------------------------------------------ lifecycle
    def reset(self, steering_wheel_deg: float | None = None, drive_mode: int = AWD) -> None:
        """Return to power-on: disengaged, nothing received, no faults, no driver input.

        Raises
        ------
        ValueError
            If ``steering_wheel_deg`` is not finite or ``drive_mode`` not 0..2.
        """
        a = self.p.steering_center_deg if steering_wheel_deg is None else steering_wheel_deg
        if not math.isfinite(a):
            raise ValueError(f"steering_wheel_deg={a!r}: must be finite")
        if drive_mode not in (TURF, TWO_WD, AWD):
            raise ValueError(f"drive_mode={drive_mode!r}: must be 0 (turf), 1 (2WD) or 2 (AWD)")
        self.steering.reset(a)
        self.brake.reset()
        self.throttle.reset()
        self.gear.reset()
        self.ulc.reset()
        self.hold.reset()
        self.engage.reset()
        self.sync.reset()
        self.driver = DriverInput()
        driver_store(self._s, self.driver)
        self.outputs.pedal = 0.0
        self.outputs.brake_line_bar = 0.0
        self.outputs.steering_wheel_deg = self.steering.angle_deg
        self.outputs.gear_request = G_NONE
        self.outputs.drive_mode = drive_mode
        self.drive_mode = drive_mode
        self.drive_mode_cmd = (0, 0)  # (awd_mode_cmd, rear_diff_cmd) in force
        self.turn_signal_cmd = int(TurnSignal.NONE)
        self.turn_signal_t = -math.inf
        self.drive_mode_t = -math.inf
        self.t_s = 0.0
        self.wheel_counts = [0.0, 0.0, 0.0, 0.0]
        self.odometer_km = 0.0
        s = self._s
        s.sys_v_prev = math.nan
        self.accel_meas = 0.0
        self.grade_mps2 = 0.0
        self.disengage_reason = 0
        self.ulc_preempt_warned = False
        s.sys_angle_prev = self.steering.angle_deg
        self.angle_rate = 0.0
        self.log_events.clear()
        s.log_n = 0
        s.sys_logged_enabled = False
        s.sys_logged_reject = 0
        s.sys_logged_park_brake = False
        s.sys_logged_shift_park = False

    def hold_actuators(self, pedal_pct: float = 0.0, brake_bar: float = 0.0) -> None:
        """Settle the throttle at ``pedal_pct`` [%] and the brake at ``brake_bar`` [bar] after a :meth:`reset`.

        A start from a recorded state (``Simulation.reset`` with a ``RecordedStart``): the
        actuators' set-points, dead-time cells and lags hold the recorded outputs, so the
        re-delivered commands of the recording meet actuators that already produce them. The
        engagement stays at power-on. The steering servo is settled by :meth:`reset`'s angle.

        Raises
        ------
        ValueError
            If a value is not finite.
        """
        self.throttle.hold(pedal_pct)
        self.brake.hold(brake_bar)
        self.outputs.pedal = self.throttle.output_pct * 0.01
        self.outputs.brake_line_bar = self.brake.line_bar

    def _log(self, level: int, text: str) -> None:
        """Queue one log event (``logging`` level, text) for the node (the oldest beyond 1000 dropped)."""
        ev = self.log_events
        if len(ev) >= 1000:  # nobody drains (headless runs): keep memory bounded
            del ev[0]
        ev.append((level, text))

    def drain_log(self) -> list:
        """Return the pending log events ``[(level, text), ...]`` and forget them.

        ``level`` is a ``logging`` level (``INFO``, ``WARN``); the texts are
        what the real driver would print (§4.1, §4.7, §4.9, §4.12), in this
        project's words. Empty most of the time (no allocation then).
        """
        ev = self.log_events
        if not ev:
            return ev
        self.log_events = []
        return ev

    @property
    def dbw_enabled(self) -> bool:
        """What ``/vehicle/dbw_enabled`` publishes (§4.1; §4.2: system state ACTIVE)."""
        return bool(self._enabled_of(self._record))

    @property
    def measured_speed_mps(self) -> float:
        """The speed ``vehicle_velocity`` reports, before its 0.01 km/h quantum [m/s].

        The body's forward speed of the vehicle state read by the last :meth:`reports`;
        under ``DIR_PRNDL`` (``dbw.vehicle_velocity_dir_src`` = 1) its magnitude with the
        lever's sign (a vehicle rolling back in D reports a positive speed).
        """
        return self.measured.v

    @property
    def invalid_commands(self) -> int:
        """Number of commands with a NaN set-point and a non-NONE type (treated as NONE)."""
        return (self.steering.invalid_count + self.brake.invalid_count + self.throttle.invalid_count
                + self.ulc.invalid_count)

    # ------------------------------------------------------------------ inputs
    def _gear_override(self) -> bool:
        return self.gear.override_active

    def enable(self, t_s: float | None = None) -> bool:
        """``/vehicle/enable``: request engagement; False if refused by a fault (§4.1).

        In the firmware-managed mode (§4.2) the System *Enable* goes out at the
        next 50 ms tick and the firmware may still refuse it: True means queued.
        """
        if self.firmware_managed:
            self.sync.on_enable()
            return True
        ok = self.engage.on_enable(self.gear.fault_injected, self._gear_override())
        if not ok:
            faulted = [n for n, st in zip(_NAMES, self.statuses) if st.fault and not st.timeout]
            if self.gear.fault_injected:
                faulted.append("Gear")
            self._log(WARN, f"DBW enable refused: fault on {', '.join(faulted)}")
        return ok

    def disable(self, t_s: float | None = None) -> None:
        """``/vehicle/disable``: drop the request (§4.1 event 2) or send System *Disable* (§4.2)."""
        if self.firmware_managed:
            if self.sync.on_disable():
                self.disengage_reason = 0xC0
            return
        if self.engage.request or self.engage.enabled:
            self.disengage_reason = 0xC0
        self.engage.on_disable()

    def steering_calibrate(self, t_s: float | None = None) -> None:
        """``/vehicle/steering/calibrate`` (deprecated): the present position is 0 deg."""
        self.steering.calibrate(0.0)

    def submit(self, command: object, t_s: float) -> None:
        """Receive one command or event at simulation time ``t_s`` [s].

        Parameters
        ----------
        command : object
            A command dataclass of ``acres_dbw_sim.dbw.commands`` or an event
            (``ENABLE``, ``DISABLE``, ``STEERING_CALIBRATE``). Any field content
            is accepted and handled as documented in ``decode.py``.
        t_s : float
            Arrival time [s], finite.

        Raises
        ------
        TypeError
            If ``command`` is not one of the command or event classes.
        ValueError
            If ``t_s`` is not a finite number.
        """
        if isinstance(t_s, bool) or not isinstance(t_s, (int, float)) or not math.isfinite(t_s):
            raise ValueError(f"t_s={t_s!r}: must be a finite number of seconds")
        stream = self._streams.get(type(command))
        if stream is not None:
            kept = stream[0].kept(command)
            if kept is not None:   # an unchanged re-send: its kept decoding stored in one compiled call
                self._store_kept(self._record, stream[1], float(t_s), kept)
                return
        en = self.dbw_enabled
        # §4.1: enable bit masked by the driver's state, clear added while the request is set;
        # §4.2: enable bit passed through, one-shot clear after an enable event (command_bits)
        if isinstance(command, SteeringCmd):
            self.steering.command(t_s, command, *run(command_bits, record_array(self.state), STEERING))
            if self.steering.refused is not None:
                self._log(WARN, self.steering.refused)
                self.steering.refused = None
        elif isinstance(command, BrakeCmd):
            self.brake.command(t_s, command, *run(command_bits, record_array(self.state), BRAKE))
        elif isinstance(command, ThrottleCmd):
            self.throttle.command(t_s, command, *run(command_bits, record_array(self.state), THROTTLE))
        elif isinstance(command, UlcCmd):
            self.ulc.command(t_s, command, *run(command_bits, record_array(self.state), ULC))
        elif isinstance(command, GearCmd):
            s = self.measured
            self.gear.command(command, en, s.v, s.gear, s.shifting, self._any_override(), SRC_USER,
                              self.hold.req_shift_park)
        elif isinstance(command, TurnSignalCmd):
            self.turn_signal_t = t_s
            self.turn_signal_cmd = as_enum(getattr(command, "cmd", 0), frozenset({0, 1, 2, 3})) if en else 0
        elif isinstance(command, DriveModeCmd):
            self.drive_mode_t = t_s  # the frame goes out either way (NONE values when not enabled)
            if en:
                awd = as_enum(getattr(command, "awd_mode_cmd", 0), frozenset({0, 1, 2, 3, 4}))
                rear = as_enum(getattr(command, "rear_diff_cmd", 0), frozenset({0, 1, 2}))
                self.drive_mode_cmd = (awd, rear)
                self._apply_drive_mode_cmd(awd, rear)
        elif isinstance(command, MiscCmd):
            pass  # no electric parking brake or door actuators on the Ranger: see misc_report
        elif isinstance(command, EnableEvent):
            self.enable(t_s)
        elif isinstance(command, DisableEvent):
            self.disable(t_s)
        elif isinstance(command, SteeringCalibrateEvent):
            self.steering_calibrate(t_s)
        else:
            raise TypeError(f"{type(command).__name__}: not a DBW command or event")

    def _apply_drive_mode_cmd(self, awd: int, rear: int) -> None:
        """Map ``DriveModeCmd`` (AwdMode, DiffLock) onto the Ranger's AWD switch."""
        if awd in (int(AwdMode.FOUR_AUTO), int(AwdMode.FOUR_HIGH), int(AwdMode.FOUR_LOW)):
            self.drive_mode = AWD
        elif awd == int(AwdMode.TWO_HIGH):
            self.drive_mode = TURF if rear == int(DiffLock.UNLOCKED) else TWO_WD
        elif rear == int(DiffLock.UNLOCKED):
            self.drive_mode = TURF
        elif rear == int(DiffLock.LOCKED) and self.drive_mode == TURF:
            self.drive_mode = TWO_WD

    def set_driver(self, driver: DriverInput) -> None:
        """Set the driver's input (held until changed).

        Raises
        ------
        ValueError
            If a pedal, torque or angle is not finite (the angle may be NaN =
            hands off), a pedal is outside 0..100, or an enum is unknown.
        """
        for name in ("accel_pedal_pct", "brake_pedal_pct", "steering_torque_nm"):
            v = getattr(driver, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"DriverInput.{name}={v!r}: must be a finite number")
        for name in ("accel_pedal_pct", "brake_pedal_pct"):
            if not 0.0 <= getattr(driver, name) <= 100.0:
                raise ValueError(f"DriverInput.{name}={getattr(driver, name)!r}: must lie in [0, 100] %")
        a = driver.steering_wheel_deg
        if not isinstance(a, (int, float)) or math.isinf(a):
            raise ValueError(f"DriverInput.steering_wheel_deg={a!r}: must be finite or NaN")
        if driver.gear not in (0, 1, 2, 3, 4, 5):
            raise ValueError(f"DriverInput.gear={driver.gear!r}: must be a Gear value 0..5")
        if driver.turn_signal not in (0, 1, 2, 3):
            raise ValueError(f"DriverInput.turn_signal={driver.turn_signal!r}: must be 0..3")
        if driver.drive_mode not in (-1, 0, 1, 2):
            raise ValueError(f"DriverInput.drive_mode={driver.drive_mode!r}: must be -1 or 0..2")
        self.driver = driver
        driver_store(self._s, driver)

    def set_fault(self, subsystem: str, active: bool = True) -> None:
        """Inject or clear a fault in ``subsystem`` (one of ``SUBSYSTEMS``).

        Raises
        ------
        ValueError
            If ``subsystem`` is unknown.
        """
        if subsystem == "steering":
            self.steering.status.fault_injected = bool(active)
        elif subsystem == "brake":
            self.brake.status.fault_injected = bool(active)
        elif subsystem == "throttle":
            self.throttle.status.fault_injected = bool(active)
        elif subsystem == "gear":
            self.gear.fault_injected = bool(active)
        else:
            raise ValueError(f"subsystem={subsystem!r}: must be one of {SUBSYSTEMS}")

    def _any_override(self) -> bool:
        return bool(run(any_override_active, record_array(self.state)))

    # ------------------------------------------------------------------ step
    def step(self, t_s: float, vehicle_state: object) -> DbwOutputs:
        """Advance the DBW one physics step and return the model inputs.

        Parameters
        ----------
        t_s : float
            Simulation time at the start of the step [s].
        vehicle_state : object or None
            The model's vehicle (attributes read by ``state.MeasuredState``); None when the vehicle's own
            reading of its arrays has just written the record (``Simulation``: the vehicle's ``dbw_reading``).

        Returns
        -------
        DbwOutputs
            The same object every step (overwritten), finite and within limits.
        """
        if vehicle_state is not None:
            self.measured.read(vehicle_state)
        o = self.outputs
        entry = self._step_entry
        if entry is None:
            entry = self._step_entry = self.ulc.powertrain.dbw_step_entry(self._step_args, self.dt_s)
        (o.pedal, o.brake_line_bar, o.steering_wheel_deg, o.gear_request, o.drive_mode, o.gear_manual_request,
         n_log) = entry(*self._step_args, t_s, self.dt_s)
        self.take_log(n_log)
        return o

    def _take_log(self) -> None:
        """Turn the log events the compiled step queued in the record into their texts (:meth:`drain_log`)."""
        s = self._s
        for k in range(s.log_n):
            code, arg = int(s.log_code[k]), s.log_arg[k]
            if code == LOG_ENABLED:
                self._log(INFO, "DBW system enabled")
            elif code == LOG_DISABLED:
                why = REASON_DISENGAGE.get(int(arg), "Unknown") or "no reason given"
                self._log(WARN, f"DBW system disabled: {why}")
            elif code == LOG_ULC_PREEMPTED:
                self._log(WARN, "ULC pre-empted: user brake/throttle commands take priority over the ULC")
            elif code == LOG_HOLD_LOW:
                self._log(WARN, "Brake hold time running low: requesting the parking brake")
            elif code == LOG_HOLD_EXHAUSTED:
                self._log(WARN, "Brake hold time exhausted: shifting to PARK")
            elif code == LOG_GEAR_REJECT:
                self._log(WARN, f"Gear command rejected: {GEAR_REJECT_TEXT.get(int(arg), 'unknown reason')}")
            elif code == LOG_TIMEOUT:
                k_sub = int(arg)
                self._log(WARN, f"{_NAMES[k_sub]} subsystem disengaged: no command for "
                                f"{1000.0 * s.st_timeout_s[k_sub]:.0f} ms (command timeout)")
        s.log_n = 0

    # ------------------------------------------------------------------ reports
    def reports(self, t_s: float, vehicle_state: object | None = None,
                only: Iterable[str] | None = None, on_change: bool = True) -> DbwReports:
        """Fill and return the reports for simulation time ``t_s`` [s].

        Parameters
        ----------
        t_s : float
            Simulation time [s] (the adapter stamps the headers with it).
        vehicle_state : object, optional
            The model's vehicle; default: the state read by the last ``step``.
        only : iterable of str, optional
            ``DbwReports`` attribute names to fill (``steering_report``, ``imu``, ...); default
            every report. The others keep the values of their last fill. ``dbw_enabled``, the
            gear and system reports with their change counters (which the on-change CAN schedules
            read, schedule.py), the ECU clock and ``vin`` are filled on every call: a caller that
            fills only what it sends this step (the node) gets the same content as a full fill.
        on_change : bool
            False, with ``only``: the gear and system reports and their change counters are not filled
            either unless named (for a caller that reads neither them nor the counters: replay's compared
            signals). Every report it fills has the content it would have had.

        Returns
        -------
        DbwReports
            The same object on every call, overwritten in place.

        Raises
        ------
        KeyError
            For a name in ``only`` that is not a report of ``DbwReports``.
        """
        if vehicle_state is not None:
            self.measured.read(vehicle_state)
        r = self._rep
        r.dbw_enabled = self.dbw_enabled
        if on_change or only is None:
            for f in self._fill_always:
                f(self, r)
        if only is None:
            for f in self._fill_every:
                f(self, r)
        else:
            done = set()
            for name in only:
                f = FILLERS[name]
                if f not in done and (name not in ALWAYS_FILLED or not on_change):
                    done.add(f)
                    f(self, r)
        clock_s = EPOCH_S + int(max(0.0, t_s))   # the modules' real-time clock
        for e in self._ecu:
            e.datetime = clock_s
        r.vin = self.vin
        return r

