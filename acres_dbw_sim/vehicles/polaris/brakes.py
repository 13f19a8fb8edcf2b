"""Brakes (reference "Brakes").

    P_out = clamp(P_line + P_bias, 0, P_max)          [bar]
    T_brake = G_f P_out (wheels 0, 1),  G_r P_out (wheels 2, 3)   [N m]

The torque does not depend on the wheel load. The park pawl (gearbox.py,
driveline.py) holds the rear carrier with up to ``gearbox.park_hold_nm``.
"""
from __future__ import annotations

from ...model._jit import njit

__all__ = ["brake_output_bar", "brake_torques_nm"]


@njit
def brake_output_bar(line_bar: float, bias_bar: float, max_bar: float) -> float:
    """Output pressure P_out [bar] of line pressure ``line_bar`` [bar]."""
    p = line_bar + bias_bar
    return 0.0 if p < 0.0 else max_bar if p > max_bar else p


@njit(inline=True)
def brake_torques_nm(line_bar: float, bias_bar: float, max_bar: float, front_nm_per_bar: float,
                     rear_nm_per_bar: float) -> tuple:
    """Brake torque of a front and of a rear wheel (T_front, T_rear) [N m] for line pressure ``line_bar`` [bar].

    T = G P_out with P_out = :func:`brake_output_bar`; G_f for wheels 0, 1 and G_r for 2, 3.
    """
    p = brake_output_bar(line_bar, bias_bar, max_bar)
    return front_nm_per_bar * p, rear_nm_per_bar * p
