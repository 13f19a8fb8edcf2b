"""Brakes (reference "Brakes").

    P_out = clamp(P_line + P_bias, 0, P_max)          [bar]
    T_brake = G_f P_out (wheels 0, 1),  G_r P_out (wheels 2, 3)   [N m]

The torque does not depend on the wheel load. The park pawl (gearbox.py,
driveline.py) holds the rear carrier with up to ``gearbox.park_hold_nm``.
"""
from __future__ import annotations

from ._jit import njit

__all__ = ["brake_output_bar", "brake_torques_nm"]


@njit
def brake_output_bar(line_bar: float, bias_bar: float, max_bar: float) -> float:
    """Output pressure P_out [bar] of line pressure ``line_bar`` [bar]."""
    p = line_bar + bias_bar
    return 0.0 if p < 0.0 else max_bar if p > max_bar else p


def brake_torques_nm(line_bar: float, brakes) -> tuple:
    """Brake torque of each wheel (FL, FR, RL, RR) [N m].

    Parameters
    ----------
    line_bar : float
        Line pressure P_line [bar].
    brakes : BrakeParams
    """
    p = brake_output_bar(line_bar, brakes.pressure_bias_bar, brakes.max_bar)
    tf = brakes.front_nm_per_bar * p
    tr = brakes.rear_nm_per_bar * p
    return (tf, tf, tr, tr)
