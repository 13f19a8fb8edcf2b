"""``plots.png``: six panels of a run (matplotlib, Agg backend, no display needed).

Speed; engine speed and CVT ratio; wheel speeds; tyre loads; path in odom;
steering-wheel and road-wheel angles. Imported only when plots are asked
for (``--plots``), so a plain run does not pay matplotlib's import time.
"""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["plot_run"]

_WHEELS = ("fl", "fr", "rl", "rr")


def plot_run(result, path: str | Path) -> None:
    """Draw the six panels of ``result`` (a RunResult) into the PNG ``path``."""
    col = result.column
    t = col("t_s")
    sc = result.scenario
    fig, ax = plt.subplots(3, 2, figsize=(12, 10), constrained_layout=True)
    title = sc.name + (f": {sc.description}" if sc.description else "")
    fig.suptitle(f"{title}\n{sc.control} level, {sc.step_hz:g} Hz, {result.simulated_s:g} s ({result.stop_reason})",
                 fontsize=10)

    a = ax[0, 0]
    a.plot(t, col("speed_mps"), color="C0", label="speed")
    a.set_ylabel("speed [m/s]")
    b = a.twinx()
    b.plot(t, col("pedal") * 100.0, color="C2", lw=0.8, label="pedal [%]")
    b.plot(t, col("brake_bar"), color="C3", lw=0.8, label="brake [bar]")
    b.set_ylabel("pedal [%], brake [bar]")
    _legend(a, b)
    a.set_title("Speed and pedals")

    a = ax[0, 1]
    a.plot(t, col("engine_rpm"), color="C0", label="engine")
    a.set_ylabel("engine speed [rev/min]")
    b = a.twinx()
    b.plot(t, col("cvt_ratio"), color="C1", label="CVT ratio")
    b.set_ylabel("CVT ratio [-]")
    _legend(a, b)
    a.set_title("Engine speed and CVT ratio")

    a = ax[1, 0]
    for w in _WHEELS:
        a.plot(t, col(f"wheel_speed_{w}_rad_s"), lw=0.9, label=w.upper())
    a.set_ylabel("wheel spin [rad/s]")
    a.legend(fontsize=8)
    a.set_title("Wheel speeds")

    a = ax[1, 1]
    for w in _WHEELS:
        a.plot(t, col(f"wheel_load_{w}_n"), lw=0.9, label=w.upper())
    a.set_ylabel("tyre load [N]")
    a.legend(fontsize=8)
    a.set_title("Tyre loads")

    a = ax[2, 0]
    a.plot(col("x_m"), col("y_m"), color="C0")
    a.plot(col("x_m")[:1], col("y_m")[:1], "o", color="C2", label="start")
    a.plot(col("x_m")[-1:], col("y_m")[-1:], "s", color="C3", label="end")
    a.set_xlabel("x [m]")
    a.set_ylabel("y [m]")
    a.set_aspect("equal", adjustable="datalim")
    a.legend(fontsize=8)
    a.set_title("Path (odom)")

    a = ax[2, 1]
    a.plot(t, col("steering_wheel_deg"), color="C0", label="steering wheel")
    a.set_ylabel("steering wheel [deg]")
    b = a.twinx()
    b.plot(t, col("wheel_angle_fl_rad") * (180.0 / math.pi), color="C1", lw=0.9, label="FL road wheel")
    b.plot(t, col("wheel_angle_fr_rad") * (180.0 / math.pi), color="C4", lw=0.9, label="FR road wheel")
    b.set_ylabel("road-wheel angle [deg]")
    _legend(a, b)
    a.set_title("Steering")

    for a in (ax[0, 0], ax[0, 1], ax[1, 0], ax[1, 1], ax[2, 1]):
        a.set_xlabel("t [s]")
        a.grid(True, lw=0.3)
    ax[2, 0].grid(True, lw=0.3)
    fig.savefig(path, dpi=100, format="png", metadata={"Software": None})
    plt.close(fig)


def _legend(a, b) -> None:
    h1, l1 = a.get_legend_handles_labels()
    h2, l2 = b.get_legend_handles_labels()
    a.legend(h1 + h2, l1 + l2, fontsize=8, loc="best")
