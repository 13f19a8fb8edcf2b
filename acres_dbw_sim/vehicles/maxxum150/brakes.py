"""Brakes and park brake of the Maxxum 150 (maxxum-150-dynamics.md, "Brakes and Park Brake").

Each wheel's brake torque is proportional to its load (PrepareWheel):

    T_b = 1.5 b_k N r          (N_0 instead of N for a wheel in the air)

The shared driveline solve limits the brake force at the ground to the tyre's
grip (no anti-lock). A brake command of 0.1 or more also opens the clutch
(:func:`~.clutch.engagement_target`). The park brake sets b_k = 1 until it is
released.
"""
from __future__ import annotations

from ...model._jit import njit

__all__ = ["brake_command", "brake_torque_nm"]


@njit
def brake_command(brake: float, park_brake: bool) -> float:
    """b_k [-]: 1 with the park brake, else the brake command clamped to 0..1."""
    if park_brake:
        return 1.0
    return 0.0 if brake < 0.0 else 1.0 if brake > 1.0 else brake


@njit
def brake_torque_nm(b_k: float, load_n: float, static_load_n: float, radius_m: float, in_air: bool,
                    gain: float) -> float:
    """T_b = gain b_k N r [N m] of one wheel (gain 1.5; N_0 for a wheel in the air).

    Parameters
    ----------
    b_k : float
        Brake command [-] (:func:`brake_command`).
    load_n, static_load_n : float
        N and N_0 of the wheel [N].
    radius_m : float
        Unloaded tyre radius r [m].
    in_air : bool
        The wheel has no ground contact (or a load below 1 N).
    gain : float
        ``constants.brake_gain``.
    """
    n = static_load_n if in_air else load_n
    return gain * b_k * n * radius_m
