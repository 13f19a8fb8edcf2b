"""Simulated against recorded: errors of speed, yaw rate and steering angle, and the overlay plot.

Both series are on the simulation time axis (bag time minus ``epoch_s``).
The simulation is sampled at the end of every physics step; each recorded
sample at ``t`` is compared with the simulation linearly interpolated at
``t`` (only samples inside the simulated span count). Error = simulated -
recorded, in the recorded message's unit:

======================== ============================================ =======
signal                   recorded from                                unit
======================== ============================================ =======
speed_mps                vehicle_velocity.vehicle_velocity_propulsion m/s
yaw_rate_rad_s           imu/data_raw angular_velocity.z (body z up)  rad/s
steering_wheel_angle_deg steering/report steering_wheel_angle         deg
wheel_speed_*_rad_s      wheel_speeds front_left ... rear_right       rad/s
======================== ============================================ =======

The simulated values are the simulation's own reports (the same quantisation
and sign conventions as the real messages), not the model's raw state.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

__all__ = ["compare", "signal_errors", "plot_overlay", "COMPARED"]

#: Signals compared, in report order; the first three are the issue's headline figures.
COMPARED = ("speed_mps", "yaw_rate_rad_s", "steering_wheel_angle_deg", "wheel_speed_fl_rad_s",
            "wheel_speed_fr_rad_s", "wheel_speed_rl_rad_s", "wheel_speed_rr_rad_s")


def signal_errors(t_sim: np.ndarray, sim: np.ndarray, t_rec: np.ndarray, rec: np.ndarray) -> dict | None:
    """Errors of ``sim`` (at ``t_sim`` [s], increasing) against ``rec`` (at ``t_rec`` [s]).

    Returns
    -------
    dict or None
        ``samples``, ``rms``, ``max_abs``, ``mean`` (bias), ``t_max_s`` (where
        the largest error is) and ``lag_s`` (shift of the simulated trace,
        within +-0.5 s, that minimises the RMS error; positive: the simulation
        lags); None when no finite recorded sample lies inside the simulated span.
    """
    if len(t_sim) == 0:
        return None
    ok = np.isfinite(rec) & (t_rec >= t_sim[0]) & (t_rec <= t_sim[-1])
    if not ok.any():
        return None
    tr, vr = t_rec[ok], rec[ok]
    err = np.interp(tr, t_sim, sim) - vr
    i = int(np.argmax(np.abs(err)))
    dt = float(t_sim[1] - t_sim[0]) if len(t_sim) > 1 else 0.0
    lag = 0.0
    if dt > 0 and len(tr) > 10:
        best = math.inf
        shifts = np.arange(-0.5, 0.5 + dt / 2, max(dt, 0.01))
        for shift in shifts[np.argsort(np.abs(shifts), kind="stable")]:   # ties go to the smallest shift
            e = np.interp(tr + shift, t_sim, sim) - vr
            r = float(np.sqrt(np.mean(e * e)))
            if r < best * (1 - 1e-9) - 1e-15:
                best, lag = r, float(shift)
    return {"samples": int(ok.sum()), "rms": float(np.sqrt(np.mean(err * err))), "max_abs": float(abs(err[i])),
            "mean": float(np.mean(err)), "t_max_s": float(tr[i]), "lag_s": round(lag, 6)}


def compare(t_sim: np.ndarray, signals: dict, references: dict) -> dict:
    """``{signal: signal_errors(...)}`` for every :data:`COMPARED` signal the bag recorded."""
    out = {}
    for name in COMPARED:
        if name in references and name in signals:
            e = signal_errors(t_sim, signals[name], *references[name])
            if e is not None:
                out[name] = e
    return out


def plot_overlay(res, path: str | Path) -> None:
    """Recorded and simulated speed, yaw rate and steering angle, and their errors, into the PNG ``path``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    refs = res.input.references
    names = [n for n in COMPARED[:3] if n in refs]
    fig, ax = plt.subplots(len(names) + 1, 1, figsize=(11, 2.6 * (len(names) + 1)), sharex=True,
                           constrained_layout=True)
    fig.suptitle(f"replay of {res.input.bag.name}: simulated vs recorded", fontsize=10)
    units = {"speed_mps": "speed [m/s]", "yaw_rate_rad_s": "yaw rate [rad/s]",
             "steering_wheel_angle_deg": "steering wheel [deg]"}
    t = res.sim_t_s
    for a, name in zip(ax, names):
        tr, vr = refs[name]
        a.plot(tr, vr, color="C0", lw=1.0, label="recorded")
        a.plot(t, res.sim_signals[name], color="C1", lw=0.9, ls="--", label="simulated")
        e = res.comparison.get(name)
        title = units[name] + (f": RMS {e['rms']:.4g}, max {e['max_abs']:.4g}" if e else "")
        a.set_title(title, fontsize=9)
        a.set_ylabel(units[name])
        a.grid(True, lw=0.3)
        a.legend(fontsize=8, loc="best")
    a = ax[-1]
    for name in names:
        tr, vr = refs[name]
        ok = np.isfinite(vr) & (tr >= t[0]) & (tr <= t[-1])
        if ok.any():
            a.plot(tr[ok], np.interp(tr[ok], t, res.sim_signals[name]) - vr[ok], lw=0.8, label=units[name])
    a.set_ylabel("simulated - recorded")
    a.set_xlabel("t [s]")
    a.grid(True, lw=0.3)
    a.legend(fontsize=8, loc="best")
    fig.savefig(path, dpi=100, format="png", metadata={"Software": None})
    plt.close(fig)
