"""Model figures shared by the powertrain and reference-figure tests."""
from __future__ import annotations

from acres_dbw_sim.vehicles.polaris import engine


def peak_power(c, step_rpm=1.0):
    """(P_max [W], n at P_max [rev/min], T_max [N m]) of the kernel's full-load curve, by a scan (reference
    "Model Tests": peak power 61.1 kW at 7000 rev/min)."""
    best_p, best_n, n = 0.0, 0.0, c.rpm[0]
    while n < c.max_rpm:
        p = engine.full_load_torque_nm(n, c) * n / engine.RAD_S_TO_RPM
        if p > best_p:
            best_p, best_n = p, n
        n += step_rpm
    return best_p, best_n, c.peak_nm
