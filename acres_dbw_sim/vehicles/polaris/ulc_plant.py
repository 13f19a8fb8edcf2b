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

The full-load and friction curves, the clutch capacity, the shift speed, the
ratio target and the efficiency clamp are the model's own functions
(:mod:`acres_dbw_sim.vehicles.polaris.engine`, :mod:`acres_dbw_sim.vehicles.polaris.cvt`,
:func:`acres_dbw_sim.model.energy.clamped_efficiency`), called in their Python
form (a call from Python into compiled code would cost more than they do).
Everything is built at construction; ``solve`` does float arithmetic only
(STYLE.md "The hot loop").
"""

from __future__ import annotations

import math

from . import cvt as _cvt
from . import engine as _engine
from ...model.energy import clamped_efficiency
from ...model.filters import python_form
from ...dbw.msg_fields import G_DRIVE, G_LOW, G_REVERSE
from ...dbw.params import DbwParameters

__all__ = ["PowertrainModel"]

_RPM_TO_RAD_S = math.pi / 30.0
# The model's section functions, called from Python here (model/filters.py, python_form).
_full_load_torque_nm = python_form(_engine.full_load_torque_nm)
_friction_torque_nm = python_form(_engine.friction_torque_nm)
_clutch_capacity_nm = python_form(_cvt.clutch_capacity_nm)
_shift_speed_rpm = python_form(_cvt.shift_speed_rpm)
_ratio_target = python_form(_cvt.ratio_target)
#: The clutch counts as slipping when the engine turns faster than
#: ``R c (1 + _SLIP_REL) + _SLIP_ABS_RAD_S`` (measurement tolerance of the lock test).
_SLIP_REL = 0.05
_SLIP_ABS_RAD_S = 5.0


class PowertrainModel:
    """Inverse model of engine, primary clutch, CVT and gears for the ULC.

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
    """

    __slots__ = ("_curves", "_k_bar", "_t_pu", "_t_acc", "_j_e", "_r_low", "_r_high", "_w_eng", "_w_full",
                 "_w_eng2", "_dw2", "_c_max", "_c_ebs", "_w_idle", "_ebs_span", "_n_light", "_n_full", "_t_peak",
                 "_tau_cvt", "_eta", "_rt", "_ir", "_j_wheels", "_j_s", "_tau_slip", "u", "force0_n", "slipping")

    def __init__(self, p: DbwParameters) -> None:
        self._k_bar = 1e5 * p.engine_displacement_l * 1e-3 / (4.0 * math.pi)  # N m per bar of mean pressure
        self._t_pu = p.engine_pumping_bar * self._k_bar
        self._t_peak = max(p.engine_torque_curve_nm)
        self._curves = _engine.EngineCurves(
            tuple(p.engine_torque_curve_rpm), tuple(p.engine_torque_curve_nm), p.engine_max_rpm, self._k_bar,
            p.engine_fmep_bar, p.engine_fmep_bar_per_krpm, p.engine_fmep_bar_per_krpm2, self._t_pu, self._t_peak)
        self._t_acc = p.engine_accessory_drag_nm
        self._j_e = p.engine_inertia_kg_m2
        self._r_low, self._r_high = p.cvt_low_ratio, p.cvt_high_ratio
        w_eng = p.cvt_engage_rpm * _RPM_TO_RAD_S
        w_full = p.cvt_full_engage_rpm * _RPM_TO_RAD_S
        self._w_eng, self._w_full = w_eng, w_full
        self._w_eng2 = w_eng * w_eng
        self._dw2 = max(1e-9, w_full * w_full - w_eng * w_eng)
        self._c_max = p.cvt_clutch_capacity_nm
        self._c_ebs = p.cvt_ebs_capacity_nm
        self._w_idle = p.engine_idle_rpm * _RPM_TO_RAD_S
        self._ebs_span = max(1.0, w_eng - self._w_idle)
        self._n_light, self._n_full = p.cvt_shift_rpm_light, p.cvt_shift_rpm_full
        self._tau_cvt = max(1e-4, p.cvt_shift_tau_s)
        self._eta = clamped_efficiency(p.cvt_belt_efficiency * p.cvt_gear_efficiency, 0.05, 1.0)
        self._rt = p.tyres_radius_m
        ir = [0.0] * 16  # rear reduction by Gear value (0 for P, N and NONE)
        ir[G_DRIVE] = p.gearbox_rear_high_ratio
        ir[G_LOW] = p.gearbox_rear_low_ratio
        ir[G_REVERSE] = p.gearbox_rear_reverse_ratio
        self._ir = tuple(ir)
        self._j_wheels = 4.0 * p.tyres_wheel_inertia_kg_m2
        self._j_s = p.cvt_secondary_inertia_kg_m2
        self._tau_slip = max(1e-3, p.ulc_clutch_slip_tau_s)
        self.u = 0.0
        self.force0_n = 0.0
        self.slipping = False

    def rear_ratio(self, gear: int) -> float:
        """Rear reduction ``i_r`` of a forward/reverse gear (0 for P, N, NONE)."""
        return self._ir[gear] if 0 <= gear < 16 else 0.0

    def rotating_mass_kg(self, i_r: float) -> float:
        """Wheels and secondary clutch as an equivalent mass [kg]: ``(4 J_w + J_s i_r^2) / R_t^2``."""
        return (self._j_wheels + self._j_s * i_r * i_r) / (self._rt * self._rt)

    def full_load_nm(self, n_rpm: float) -> float:
        """Full-load torque ``T_wot`` [N m] at ``n_rpm`` (:func:`acres_dbw_sim.vehicles.polaris.engine.full_load_torque_nm`)."""
        return _full_load_torque_nm(n_rpm, self._curves)

    def friction_nm(self, n_rpm: float) -> float:
        """Friction torque ``T_fr`` [N m] at ``n_rpm`` (:func:`acres_dbw_sim.vehicles.polaris.engine.friction_torque_nm`)."""
        return _friction_torque_nm(n_rpm, self._curves)

    def solve(self, force_n: float, accel_mps2: float, gear: int, speed_mps: float, engine_rpm: float,
              cvt_ratio: float) -> float:
        """Torque request for a tractive force; also sets ``force0_n`` and ``slipping``.

        Parameters
        ----------
        force_n : float
            Tractive force along the gear's direction [N] (wheels and
            secondary clutch included, engine excluded).
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
        i_r = self._ir[gear] if 0 <= gear < 16 else 0.0
        rt = self._rt
        eta = self._eta
        r = cvt_ratio if cvt_ratio > self._r_high else self._r_high
        big_r = r * i_r
        if big_r <= 0.0:
            self.u = 0.0
            self.force0_n = 0.0
            self.slipping = False
            return 0.0
        t = force_n * rt
        t_c = t / (eta * big_r) if t >= 0.0 else t * eta / big_r
        c = speed_mps / rt if speed_mps > 0.0 else 0.0
        w_lock = big_r * c
        w_e = engine_rpm * _RPM_TO_RAD_S
        cap_lock = _clutch_capacity_nm(w_lock, self._w_eng, self._w_full, self._c_max)
        slip = t_c > cap_lock or w_e > w_lock * (1.0 + _SLIP_REL) + _SLIP_ABS_RAD_S
        j_e = self._j_e
        if slip:
            y = t_c / self._c_max if t_c > 0.0 else 0.0
            w_t = math.sqrt(self._w_eng2 + (y if y < 1.0 else 1.0) * self._dw2)
            if w_t < w_lock:
                w_t = w_lock
            w_dot = (w_t - w_e) / self._tau_slip
            t_e = (t_c if t_c > 0.0 else 0.0) + self._t_acc + j_e * w_dot
        else:
            n_s = _shift_speed_rpm(t_c, self._t_peak, self._n_light, self._n_full)
            r_t = _ratio_target(True, n_s, c * i_r, self._r_high, self._r_low)
            w_dot = i_r * (c * (r_t - r) / self._tau_cvt + r * accel_mps2 / rt)
            t_e = t_c + self._t_acc + j_e * w_dot
        n = w_e / _RPM_TO_RAD_S
        t_wot = _full_load_torque_nm(n, self._curves)
        t_fr = _friction_torque_nm(n, self._curves)
        den = t_wot + t_fr + self._t_pu
        u = (t_e + t_fr + self._t_pu) / (den if den > 1.0 else 1.0)
        if slip:
            f0 = 0.0
        else:
            t_c0 = -t_fr - self._t_pu - self._t_acc - j_e * w_dot
            x = (w_lock - self._w_idle) / self._ebs_span
            c_rev = max(cap_lock, self._c_ebs * (0.0 if x < 0.0 else 1.0 if x > 1.0 else x))
            t_c0 = -c_rev if t_c0 < -c_rev else cap_lock if t_c0 > cap_lock else t_c0
            f0 = (t_c0 * big_r * eta if t_c0 >= 0.0 else t_c0 * big_r / eta) / rt
        self.u = u
        self.force0_n = f0
        self.slipping = slip
        return u
