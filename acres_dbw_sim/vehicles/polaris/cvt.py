"""CVT and primary clutch (reference "CVT and Primary Clutch").

Centrifugal clutch capacity

    C = C_max clamp((w_free^2 - w_eng^2) / (w_full^2 - w_eng^2), 0, 1)

EBS capacity C_ebs = C_ebs,max clamp((w_free - w_idle) / max(1, w_eng - w_idle), 0, 1)
(0 when cvt.ebs is off); C_fwd = C, C_rev = max(C, C_ebs), both 0 in park
and neutral. Shift speed n_s = sqrt(n_light^2 + (n_full^2 - n_light^2) sigma)
with sigma = clamp(max(0, T_c) / T_peak, 0, 1) of the previous step's clutch
torque; belt ratio target r* = clamp(2 pi n_s / 60 / w_s, r_high, r_low) when
the belt grips and w_s > 1e-6, else r_low; r <- lag(r, r*, tau_cvt).
"""
from __future__ import annotations

import math

from ...model._jit import njit

__all__ = ["clutch_capacity_nm", "ebs_capacity_nm", "shift_speed_rpm", "ratio_target"]

RPM_TO_RAD_S = 2.0 * math.pi / 60.0


@njit
def clutch_capacity_nm(omega_free: float, omega_eng: float, omega_full: float, c_max: float) -> float:
    """Capacity C [N m] of the centrifugal clutch at the free engine speed [rad/s]."""
    x = (omega_free * omega_free - omega_eng * omega_eng) / (omega_full * omega_full - omega_eng * omega_eng)
    return c_max * (0.0 if x < 0.0 else 1.0 if x > 1.0 else x)


@njit
def ebs_capacity_nm(omega_free: float, omega_idle: float, omega_eng: float, c_ebs_max: float,
                    ebs_on: bool) -> float:
    """Capacity C_ebs [N m] of the engine braking system."""
    if not ebs_on:
        return 0.0
    d = omega_eng - omega_idle
    x = (omega_free - omega_idle) / (d if d > 1.0 else 1.0)
    return c_ebs_max * (0.0 if x < 0.0 else 1.0 if x > 1.0 else x)


@njit
def shift_speed_rpm(clutch_torque_prev_nm: float, peak_nm: float, n_light: float, n_full: float) -> float:
    """Shift speed n_s [rev/min] from the previous clutch torque T_c [N m]."""
    s = (clutch_torque_prev_nm if clutch_torque_prev_nm > 0.0 else 0.0) / peak_nm
    s = 0.0 if s < 0.0 else 1.0 if s > 1.0 else s
    return math.sqrt(n_light * n_light + (n_full * n_full - n_light * n_light) * s)


@njit
def ratio_target(grips: bool, n_s_rpm: float, omega_s: float, r_high: float, r_low: float) -> float:
    """Belt ratio target r* [-] for secondary speed ``omega_s`` [rad/s]."""
    if grips and omega_s > 1e-6:
        r = n_s_rpm * RPM_TO_RAD_S / omega_s
        return r_high if r < r_high else r_low if r > r_low else r
    return r_low
