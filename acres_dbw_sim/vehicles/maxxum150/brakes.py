"""Brakes and park brake of the Maxxum 150 (maxxum-150-dynamics.md, "Brakes and Park Brake").

Each wheel's brake torque is proportional to its load (PrepareWheel):

    T_b = 1.5 b_k N r          (N_0 instead of N for a wheel in the air)

That law is the shared stage's :func:`acres_dbw_sim.model.stages.load_brake_torque_nm`
(``per_load = 1.5 b_k``), which the tractor's step passes to
:func:`~acres_dbw_sim.model.stages.prepare_wheels`; this module maps the controls to b_k.

The shared driveline solve limits the brake force at the ground to the tyre's
grip (no anti-lock). A brake command of 0.1 or more also opens the clutch
(:func:`~.clutch.engagement_target`). The park brake sets b_k = 1 until it is
released.
"""
from __future__ import annotations

from ...model._jit import njit

__all__ = ["brake_command"]


@njit
def brake_command(brake: float, park_brake: bool) -> float:
    """b_k [-]: 1 with the park brake, else the brake command clamped to 0..1."""
    if park_brake:
        return 1.0
    return 0.0 if brake < 0.0 else 1.0 if brake > 1.0 else brake
