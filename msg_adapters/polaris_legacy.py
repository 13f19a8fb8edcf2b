"""The legacy (DBW1) Polaris interface, ``dbw_polaris_msgs``, onto the DBW2 core.

Dataspeed's first-generation Polaris driver (``dbw_polaris_can``,
dbw-interface.md §3) speaks per-subsystem messages in its own units. The
simulated firmware is the DBW2 one (``acres_dbw_sim.dbw``), so this module
translates each legacy command into the DBW2 command the core accepts, and
fills the legacy reports from the DBW2 reports the core produces. Everything
the core does (masking of the enable bit by ``dbw_enabled``, timeouts,
override latching and the 50 ms clear frames, §4.1) therefore applies to the
legacy interface unchanged; §3.3 describes the same driver logic for DBW1.

Units and conventions (§3.2, §3.3). Steering-wheel angles are in radians in
the legacy messages and in degrees in the core, positive to the left
(REP-103). Throttle pedal values are the unitless pedal signal, 0.20 released
to 0.80 full, converted through Dataspeed's pedal table
(:data:`THROTTLE_PEDAL_LUT`: pedal 0.200 <-> 0, 0.300 <-> 0.001, 0.800 <-> 1.0
of full throttle, linear in between); the core works in percent of full
throttle. Brake torque is the total brake torque of the vehicle in Nm; the
core converts it to line pressure with ``2 (G_f + G_r)`` Nm/bar
(:class:`LegacyScales`). Values are rounded as the legacy node encodes them
for CAN (§3.3): pedal and percent to 1/65535, torque to 1 Nm, steering angle
to 0.1 deg, rate to 4 deg/s, steering torque to 1/128 Nm.

Command mapping (legacy -> core):

=====================  ==========================================================
legacy                 core (``acres_dbw_sim.dbw.commands``)
=====================  ==========================================================
Throttle CMD_PEDAL     ThrottleCmd CMD_PERCENT, 100 * lut^-1(pedal_cmd)
Throttle CMD_PERCENT   ThrottleCmd CMD_PERCENT, 100 * pedal_cmd (0..1 clamped)
Brake CMD_PERCENT      BrakeCmd CMD_PERCENT, 100 * pedal_cmd (of the maximum torque
                       = maximum line pressure)
Brake CMD_TORQUE(_RQ)  BrakeCmd CMD_TORQUE, Nm (open and closed loop are the same
                       here: the simulated actuator is pressure controlled)
Steering CMD_ANGLE     SteeringCmd CMD_ANGLE, deg; ``steering_wheel_angle_velocity``
                       -> ``cmd_rate`` deg/s (0 = default)
Steering CMD_TORQUE    SteeringCmd CMD_TORQUE, Nm
Steering ``calibrate`` SteeringCmd CMD_CALIBRATE to ``steering_wheel_angle_cmd``
Gear                   GearCmd, same gear numbers (NONE, P, R, N, D, L)
=====================  ==========================================================

Fields without a counterpart: ``count`` (the watchdog counter is not checked,
so ``watchdog_counter`` is always NONE and ``fault_wdc`` false), ``quiet`` and
``alert`` (no buzzer), ``GearCmd.clear`` (a gear override in the simulation
lasts only while the driver moves the lever). An unknown command type is
treated as NONE. A NaN set-point is passed on and the core treats the command
as invalid (NONE), as it does for ds_dbw_msgs.

Report mapping: ``override`` is the core's active or latched override (the
DBW1 flag stays up until the driver clears it, §3.3); ``driver`` is driver
input on that pedal; an injected fault shows as ``fault_ch1``/``fault_ch2``
(pedals) or ``fault_bus1`` (steering). A report value without a command
(throttle ``pedal_cmd``) is the released pedal, 0.20; the brake's
``torque_cmd`` is 0 Nm without a command; the steering command echo is NaN
(the legacy node decodes the CAN "unknown" code 0xC000 to NaN).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dbw_polaris_msgs.msg import (BrakeReport, GearReport, SteeringReport, ThrottleReport)
from geometry_msgs.msg import TwistStamped

from acres_dbw_sim.dbw import commands as core

__all__ = ["THROTTLE_PEDAL_LUT", "LEGACY_GEAR_REJECT", "LegacyScales", "pedal_to_fraction",
           "fraction_to_pedal", "throttle_cmd", "brake_cmd", "steering_cmd", "gear_cmd",
           "LegacyReports", "LEGACY_REPORT_TOPICS", "LEGACY_COMMAND_TOPICS", "LEGACY_TWIST_PERIOD_S"]

#: Dataspeed's throttle pedal table (dbw_polaris_can pedal_lut.hpp, §3.3):
#: (pedal signal [-], fraction of full throttle [-]), linear in between.
THROTTLE_PEDAL_LUT = ((0.200, 0.0), (0.300, 0.001), (0.800, 1.0))

#: DBW2 ``GearReject`` (core) -> DBW1 ``dbw_polaris_msgs/GearReject`` (§2.1, §3.2; the
#: numbering differs). BRAKE_HOLD, VEHICLE_SPEED and VEHICLE have no DBW1 name of
#: their own and become VEHICLE (rejected by the vehicle).
LEGACY_GEAR_REJECT = {0: 0, 1: 7, 2: 6, 3: 1, 4: 2, 5: 5, 6: 5, 7: 5}

_DEG = 180.0 / math.pi
_RAD = math.pi / 180.0
_U16 = 65535.0
_U16_INT = 65535     # the same as an integer field's maximum
_I16 = 32767         # a signed 16-bit field's maximum

# legacy command types (dbw_polaris_msgs constants, §3.2)
_THR_PEDAL, _THR_PERCENT = 1, 2
_BRK_PERCENT, _BRK_TORQUE, _BRK_TORQUE_RQ = 2, 3, 4
_STEER_ANGLE, _STEER_TORQUE = 0, 1

# (topic, LegacyReports method, dbw_polaris_msgs type, period [s]) of the DBW1 reports
# (§3.1). The DBW1 CAN periods are not in the sources (§7): those of the matching
# DBW2 frames are used in the 'vehicle' report profile; twist follows the steering report.
LEGACY_REPORT_TOPICS = (
    ("steering_report", "steering_report", "SteeringReport", 0.010),
    ("brake_report", "brake_report", "BrakeReport", 0.020),
    ("throttle_report", "throttle_report", "ThrottleReport", 0.020),
    ("gear_report", "gear_report", "GearReport", 0.100),
)
# (topic, dbw_polaris_msgs type, depth, translation function) of the DBW1 commands (§3.1).
LEGACY_COMMAND_TOPICS = (
    ("throttle_cmd", "ThrottleCmd", 1, "throttle_cmd"),
    ("brake_cmd", "BrakeCmd", 1, "brake_cmd"),
    ("steering_cmd", "SteeringCmd", 1, "steering_cmd"),
    ("gear_cmd", "GearCmd", 1, "gear_cmd"),
)
#: Period of the DBW1 ``twist`` report [s]: it follows the steering report.
LEGACY_TWIST_PERIOD_S = 0.010



def _interp(x: float, points: tuple[tuple[float, float], ...], col_in: int) -> float:
    """Piecewise-linear interpolation in ``points`` from column ``col_in`` to the other,
    clamped to the end values."""
    col_out = 1 - col_in
    if x <= points[0][col_in]:
        return points[0][col_out]
    for a, b in zip(points, points[1:]):
        if x <= b[col_in]:
            return a[col_out] + (x - a[col_in]) * (b[col_out] - a[col_out]) / (b[col_in] - a[col_in])
    return points[-1][col_out]


def pedal_to_fraction(pedal: float) -> float:
    """Fraction of full throttle [0..1] of a throttle pedal signal [-] (0.20..0.80).

    Through :data:`THROTTLE_PEDAL_LUT`; below 0.20 gives 0, above 0.80 gives 1.
    """
    return _interp(pedal, THROTTLE_PEDAL_LUT, 0)


def fraction_to_pedal(fraction: float) -> float:
    """Throttle pedal signal [-] (0.20..0.80) of a fraction of full throttle [0..1]."""
    return _interp(fraction, THROTTLE_PEDAL_LUT, 1)


def _u16_fraction(x: float) -> float:
    """``x`` as the legacy node sends it: clamped to 0..1, then ``x * 65535`` rounded (so ±inf
    saturates at 0 or 1); NaN stays NaN (the core takes the command as invalid)."""
    if x != x:
        return x
    return round(min(1.0, max(0.0, x)) * _U16) / _U16


def _fixed(x: float, scale: float, lo: int, hi: int) -> float:
    """``x`` in the legacy node's fixed-point field: ``x * scale`` clamped to the integer range
    ``lo..hi`` of the CAN signal, rounded, divided back (±inf saturates); NaN stays NaN."""
    if x != x:
        return x
    return round(min(float(hi), max(float(lo), x * scale))) / scale


def throttle_cmd(msg: Any) -> core.ThrottleCmd:
    """Core ``ThrottleCmd`` for a ``dbw_polaris_msgs/ThrottleCmd``.

    Parameters
    ----------
    msg : dbw_polaris_msgs.msg.ThrottleCmd
        ``pedal_cmd`` is a pedal signal (CMD_PEDAL, 0.20..0.80) or a fraction of
        full throttle (CMD_PERCENT, 0..1); both are clamped to 0..1 first, as
        the legacy node encodes them.

    Returns
    -------
    acres_dbw_sim.dbw.commands.ThrottleCmd
        CMD_PERCENT with ``cmd`` in percent [0..100], or CMD_NONE.
    """
    typ = msg.pedal_cmd_type
    value = _u16_fraction(msg.pedal_cmd)
    if typ == _THR_PEDAL:
        pct = 100.0 * pedal_to_fraction(value) if value == value else value
    elif typ == _THR_PERCENT:
        pct = 100.0 * value
    else:
        return core.ThrottleCmd(enable=msg.enable, clear=msg.clear, ignore=msg.ignore)
    return core.ThrottleCmd(cmd=pct, cmd_type=core.ThrottleCmd.CMD_PERCENT, enable=msg.enable,
                            clear=msg.clear, ignore=msg.ignore)


def brake_cmd(msg: Any) -> core.BrakeCmd:
    """Core ``BrakeCmd`` for a ``dbw_polaris_msgs/BrakeCmd``.

    Parameters
    ----------
    msg : dbw_polaris_msgs.msg.BrakeCmd
        CMD_PERCENT: fraction 0..1 of the maximum torque; CMD_TORQUE and
        CMD_TORQUE_RQ: total brake torque [Nm], 0..65535 whole Nm as encoded.

    Returns
    -------
    acres_dbw_sim.dbw.commands.BrakeCmd
        CMD_PERCENT [%] or CMD_TORQUE [Nm], or CMD_NONE.
    """
    typ = msg.pedal_cmd_type
    v = msg.pedal_cmd
    if typ == _BRK_PERCENT:
        cmd, ctype = 100.0 * _u16_fraction(v), core.BrakeCmd.CMD_PERCENT
    elif typ in (_BRK_TORQUE, _BRK_TORQUE_RQ):
        cmd = _fixed(v, 1.0, 0, _U16_INT)
        ctype = core.BrakeCmd.CMD_TORQUE
    else:
        return core.BrakeCmd(enable=msg.enable, clear=msg.clear, ignore=msg.ignore)
    return core.BrakeCmd(cmd=cmd, cmd_type=ctype, enable=msg.enable, clear=msg.clear,
                         ignore=msg.ignore)


def _steering_rate_deg_s(rad_s: float) -> float:
    """Legacy rate field [rad/s] -> core ``cmd_rate`` [deg/s]: 0 (or NaN) = default,
    else 4 deg/s units clamped to 1..254 (§3.3)."""
    if rad_s != rad_s or rad_s == 0.0:
        return 0.0
    if math.isinf(rad_s):
        return 254 * 4.0 if rad_s > 0 else 4.0
    return 4.0 * min(254, max(1, round(rad_s * _DEG / 4.0)))


def steering_cmd(msg: Any) -> core.SteeringCmd:
    """Core ``SteeringCmd`` for a ``dbw_polaris_msgs/SteeringCmd``.

    Parameters
    ----------
    msg : dbw_polaris_msgs.msg.SteeringCmd
        Steering-wheel angle [rad] and rate limit [rad/s] (CMD_ANGLE), column
        torque [Nm] (CMD_TORQUE); ``calibrate`` declares the present angle to be
        ``steering_wheel_angle_cmd``.

    Returns
    -------
    acres_dbw_sim.dbw.commands.SteeringCmd
        CMD_ANGLE [deg, deg/s], CMD_TORQUE [Nm], CMD_CALIBRATE [deg] or CMD_NONE.
    """
    flags = dict(enable=msg.enable, clear=msg.clear, ignore=msg.ignore)
    angle = msg.steering_wheel_angle_cmd
    angle_deg = _fixed(angle * _DEG, 10.0, -_I16, _I16)   # int16 in 0.1 deg
    if msg.calibrate:
        return core.SteeringCmd(cmd=angle_deg, cmd_type=core.SteeringCmd.CMD_CALIBRATE, **flags)
    if msg.cmd_type == _STEER_ANGLE:
        return core.SteeringCmd(cmd=angle_deg,
                                cmd_rate=_steering_rate_deg_s(msg.steering_wheel_angle_velocity),
                                cmd_type=core.SteeringCmd.CMD_ANGLE, **flags)
    if msg.cmd_type == _STEER_TORQUE:
        tq = msg.steering_wheel_torque_cmd
        return core.SteeringCmd(cmd=_fixed(tq, 128.0, -_I16, _I16),   # int16 in 1/128 Nm
                                cmd_type=core.SteeringCmd.CMD_TORQUE, **flags)
    return core.SteeringCmd(**flags)


def gear_cmd(msg: Any) -> core.GearCmd:
    """Core ``GearCmd`` for a ``dbw_polaris_msgs/GearCmd``.

    The gear numbers are the same in both generations (NONE 0, PARK 1, REVERSE
    2, NEUTRAL 3, DRIVE 4, LOW 5). 6 and 7 reach the core, which rejects them
    as UNSUPPORTED; larger values do not fit the 3-bit CAN field and become
    NONE (*inferred*). ``clear`` has no effect (see the module notes).
    """
    g = msg.cmd.gear
    return core.GearCmd(cmd=g if g <= 7 else 0)


@dataclass(frozen=True, slots=True)
class LegacyScales:
    """Vehicle constants the legacy units need.

    Attributes
    ----------
    brake_nm_per_bar : float
        Total brake torque per bar of line pressure [Nm/bar], ``2 (G_f + G_r)``.
    brake_max_bar : float
        Line pressure of a 100 % brake command [bar].
    steering_ratio : float
        Steering-wheel to road-wheel angle ratio [-] (for ``twist``).
    wheelbase_m : float
        Wheelbase [m] (for ``twist``).
    """

    brake_nm_per_bar: float
    brake_max_bar: float
    steering_ratio: float
    wheelbase_m: float

    @classmethod
    def from_dbw_parameters(cls, p: Any) -> "LegacyScales":
        """From the core's ``DbwParameters`` (``Simulation.dbw.p``)."""
        return cls(2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar), p.brake_max_bar,
                   p.steering_ratio, p.geometry_wheelbase_m)

    @property
    def brake_max_nm(self) -> float:
        """Total brake torque of a 100 % command [Nm]."""
        return self.brake_nm_per_bar * self.brake_max_bar


def _pedal(pct: float) -> float:
    """Pedal signal [-] of a throttle percent, rounded to 1/65535 as on CAN."""
    return round(fraction_to_pedal(0.01 * pct) * _U16) / _U16


class LegacyReports:
    """Legacy reports from the core's ``DbwReports``; one preallocated message each.

    Parameters
    ----------
    scales : LegacyScales
        Brake and steering constants of the simulated vehicle.
    frame_id : str
        ``header.frame_id`` of ``twist`` (the legacy node's ``frame_id`` parameter).
    """

    def __init__(self, scales: LegacyScales, frame_id: str = "base_footprint") -> None:
        self.scales = scales
        self._throttle = ThrottleReport()
        self._brake = BrakeReport()
        self._steering = SteeringReport()
        self._gear = GearReport()
        self._twist = TwistStamped()
        self._twist.header.frame_id = frame_id

    def throttle_report(self, r: Any, stamp: Any) -> ThrottleReport:
        """``throttle_report``: pedal signals [-] (0.20..0.80) and status.

        ``pedal_input`` is the driver's pedal, ``pedal_cmd`` the rate-limited
        command, ``pedal_output`` the pedal the engine sees (the core's
        ``percent_*`` fields; without a command input and output are the
        physical pedal, ``ThrottleInfo.accel_pedal_pc``).
        """
        tr = r.throttle_report
        m = self._throttle
        m.header.stamp = stamp
        physical = r.throttle_info.accel_pedal_pc
        driver = tr.percent_input if tr.percent_input == tr.percent_input else physical
        cmd = tr.percent_cmd if tr.percent_cmd == tr.percent_cmd else 0.0
        m.pedal_input = _pedal(driver)
        m.pedal_cmd = _pedal(cmd)
        m.pedal_output = _pedal(physical)
        m.enabled = tr.enabled
        m.override = tr.override_active or tr.override_latched
        m.driver = driver > 0.0
        m.timeout = tr.timeout
        m.fault_ch1 = m.fault_ch2 = tr.fault
        return m

    def _brake_nm(self, br: Any, group: str) -> float:
        """Brake torque [Nm] of one of ``input``/``cmd``/``output`` from whichever
        group of the DBW2 report is filled (pressure, torque or percent); NaN if none."""
        s = self.scales
        t = br.cmd_type
        if t == 1:
            return getattr(br, f"pressure_{group}") * s.brake_nm_per_bar
        if t == 2:
            return getattr(br, f"torque_{group}")
        if t in (13, 14):
            return getattr(br, f"percent_{group}") * 0.01 * s.brake_max_nm
        return math.nan

    def brake_report(self, r: Any, stamp: Any) -> BrakeReport:
        """``brake_report``: brake torques [Nm] (driver, command, output) and status."""
        br = r.brake_report
        bi = r.brake_info
        m = self._brake
        m.header.stamp = stamp
        m.torque_input = bi.brake_torque_pedal
        cmd = self._brake_nm(br, "cmd")
        m.torque_cmd = cmd if cmd == cmd else 0.0   # a whole-Nm CAN field: never NaN
        out = self._brake_nm(br, "output")
        m.torque_output = out if out == out else bi.brake_torque_actual
        m.enabled = br.enabled
        m.override = br.override_active or br.override_latched
        m.driver = bi.brake_torque_pedal > 0.0
        m.timeout = br.timeout
        m.fault_ch1 = m.fault_ch2 = br.fault
        return m

    def steering_report(self, r: Any, stamp: Any) -> SteeringReport:
        """``steering_report``: angle [rad], command [rad or Nm], driver torque [Nm],
        signed speed [m/s] (``VehicleVelocity``) and status."""
        sr = r.steering_report
        m = self._steering
        m.header.stamp = stamp
        m.steering_wheel_angle = sr.steering_wheel_angle * _RAD
        if sr.cmd_type == 1:
            m.steering_wheel_cmd_type = SteeringReport.CMD_TORQUE
            m.steering_wheel_cmd = sr.cmd
        else:
            m.steering_wheel_cmd_type = SteeringReport.CMD_ANGLE
            m.steering_wheel_cmd = sr.cmd * _RAD if sr.cmd_type == 2 else math.nan
        m.steering_wheel_torque = sr.steering_column_torque
        m.speed = r.vehicle_velocity.vehicle_velocity_brake
        m.enabled = sr.enabled
        m.override = sr.override_active or sr.override_latched
        m.timeout = sr.timeout
        m.fault_bus1 = sr.fault
        return m

    def gear_report(self, r: Any, stamp: Any) -> GearReport:
        """``gear_report``: gear, pending command, reject reason (DBW1 numbering), override."""
        gr = r.gear_report
        m = self._gear
        m.header.stamp = stamp
        m.state.gear = gr.gear
        m.cmd.gear = gr.cmd
        m.reject.value = LEGACY_GEAR_REJECT.get(gr.reject, 5)
        m.override = gr.override_active
        m.fault_bus = gr.fault
        return m

    def twist(self, r: Any, stamp: Any) -> TwistStamped:
        """``twist`` as the legacy node computes it from its steering report (§3.3).

        ``linear.x`` = speed [m/s]; ``angular.z`` = speed tan(angle / ratio) / L
        [rad/s] with the reported steering-wheel angle (it includes the
        calibration offset, as on the vehicle) and the simulated vehicle's
        steering ratio and wheelbase.
        """
        s = self.scales
        v = r.vehicle_velocity.vehicle_velocity_brake
        angle = r.steering_report.steering_wheel_angle * _RAD
        m = self._twist
        m.header.stamp = stamp
        m.twist.linear.x = v
        m.twist.angular.z = v * math.tan(angle / s.steering_ratio) / s.wheelbase_m
        return m
