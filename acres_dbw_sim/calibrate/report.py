"""Outputs of a calibration: ``calibration.json``, ``overrides.txt``, ``report.md`` and plots.

``overrides.txt`` holds one line ``key=value;key=value`` of the fitted keys
that were identifiable, accepted as it is by the node
(``--ros-args -p overrides:="$(cat overrides.txt)"``), the scenario runner
(``acres-scenario S.yaml --set "$(cat overrides.txt)"``) and the replay
(``acres-replay BAG --param overrides="$(cat overrides.txt)"``).
``report.md`` has the fitted values with standard errors and notes, the
correlation of each group's fitted variables, the error of each segment
before and after, the whole-bag errors before and after, and one figure per
group (``group_<name>.png``) with each segment's recorded, simulated-before
and simulated-after trace (the first :data:`MAX_PLOTTED` segments).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..replay.compare import COMPARED
from .core import IMPROVEMENT_TOL, CalibrationResult, write_json
from .segments import replay_segment, residual

__all__ = ["write_report", "MAX_PLOTTED"]

#: Segments drawn per group figure.
MAX_PLOTTED = 8
_UNITS = {"speed_mps": "speed [m/s]", "yaw_rate_rad_s": "yaw rate [rad/s]"}


def _g(x, digits: int = 5) -> str:
    return "-" if x is None or (isinstance(x, float) and not np.isfinite(x)) else f"{x:.{digits}g}"


def write_report(res: CalibrationResult, out: Path, plots: bool = True) -> list:
    """Write every output into ``out`` (created); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    if res.accepted or not res.candidate_overrides:
        tmp = out / ".overrides.txt.tmp"
        tmp.write_text(res.overrides + "\n", encoding="utf-8")
        os.replace(tmp, out / "overrides.txt")
        files.append(out / "overrides.txt")
    elif (out / "overrides.txt").is_file() and (out / "calibration.json").is_file():
        (out / "overrides.txt").unlink()     # an earlier calibration's: it must not pass for this one's
    write_json(res, out / "calibration.json")
    files.append(out / "calibration.json")
    figs = {}
    if plots:
        for g in res.groups:
            if g.segments:
                figs[g.group] = _plot_group(res, g, out / f"group_{g.group}.png")
                files.append(figs[g.group])
    (out / "report.md").write_text(_markdown(res, figs), encoding="utf-8")
    files.append(out / "report.md")
    return files


def _markdown(res: CalibrationResult, figs: dict) -> str:
    inp = res.input
    L = [f"# Calibration of `{inp.bag.name}`", "",
         f"Bag `{inp.bag}`: {inp.n_steps * inp.dt_s:.1f} s at {1 / inp.dt_s:g} Hz; surface "
         f"`{inp.params['surface']}`; start values: "
         + (f"`{inp.params['vehicle_config']}`" if inp.params.get("vehicle_config") else "the shipped file")
         + (f" with `{inp.params['overrides']}`" if inp.params.get("overrides") else "") + ".",
         f"{len(res.segments)} segments; calibration took {res.wall_s:.1f} s wall, {res.cpu_s:.1f} s CPU.", "",
         "## Fitted values", "",
         "| variable | group | start | fitted | standard error | bounds | status |",
         "|---|---|---|---|---|---|---|"]
    for g in res.groups:
        for vr in g.variables:
            v = vr.var
            status = "fitted" if vr.identifiable else "**not identifiable**, left at its value"
            if vr.note:
                status += f": {vr.note}" if vr.identifiable else f" ({vr.note.split(': ', 1)[-1]})"
            L.append(f"| `{v.name}` | {g.group} | {_g(v.start)} | {_g(vr.value)} | {_g(vr.se, 3)} | "
                     f"{_g(v.lower)}..{_g(v.upper)} ({v.bound_source}) | {status} |")
    L += ["", "`brakes.gain_scale` multiplies both brake gains (`brakes.front_nm_per_bar`, `brakes.rear_nm_per_bar`): "
          "the speed sees their sum. Standard errors are from the Jacobian (s² (JᵀJ)⁻¹); dead times are "
          "searched on the step grid and carry no standard error.", "",
          "## Overrides", ""]
    if res.accepted:
        L += ["Written to `overrides.txt`: the whole-bag error falls from "
              f"{_g(res.error_before, 4)} to {_g(res.error_after, 4)} (see below).", "",
              "```text", res.overrides, "```", ""]
    elif res.candidate_overrides:
        worse = ", ".join(f"{c} {_g(res.whole_before[c], 4)} -> {_g(res.whole_after[c], 4)}" for c in res.worse)
        L += [f"**Not written.** With the fitted values the whole-bag error goes from {_g(res.error_before, 4)} "
              f"to {_g(res.error_after, 4)}: not a fall of more than {IMPROVEMENT_TOL:.0%}"
              + (f"; worse: {worse}" if worse else "") + ". The fitted values, for reference only:", "",
              "```text", res.candidate_overrides, "```", ""]
    else:
        L += ["```text", "(nothing identifiable was fitted)", "```", ""]
    for g in res.groups:
        if len(g.fitted) > 1:
            L += [f"### Correlation, {g.group}", "", "| | " + " | ".join(f"`{n}`" for n in g.fitted) + " |",
                  "|---" * (len(g.fitted) + 1) + "|"]
            for i, n in enumerate(g.fitted):
                L.append(f"| `{n}` | " + " | ".join(f"{g.correlation[i, j]:+.3f}" for j in range(len(g.fitted))) + " |")
            L.append("")
    L += ["## Segments", "", "| group | segment | signal | RMS before | RMS after |", "|---|---|---|---|---|"]
    for g in res.groups:
        for i, s in enumerate(g.segments):
            b = g.rms_before[i] if i < len(g.rms_before) else None
            a = g.rms_after[i] if i < len(g.rms_after) else None
            L.append(f"| {g.group} | {s.label} | {g.signal} | {_g(b, 4)} | {_g(a, 4)} |")
    L += ["", "## Whole bag, replayed open loop", "",
          "The fit's own residual over the whole bag (simulated report before its quantum minus recorded) on "
          "the fitted channels and the speed; the whole-bag error is sqrt(mean((RMS / resolution)²)) with "
          "resolutions 0.005 m/s and 0.001 rad/s.", "",
          "| channel | RMS before | RMS after |", "|---|---|---|"]
    for c in sorted(res.whole_before):
        L.append(f"| {c} | {_g(res.whole_before[c], 4)} | {_g(res.whole_after.get(c), 4)} |")
    L += [f"| **whole-bag error** | {_g(res.error_before, 4)} | {_g(res.error_after, 4)} |", "",
          "The simulated reports against the recorded ones:", "",
          "| signal | RMS before | RMS after | max before | max after |", "|---|---|---|---|---|"]
    for name in COMPARED:
        b, a = res.comparison_before.get(name), res.comparison_after.get(name)
        if b and a:
            L.append(f"| {name} | {_g(b['rms'], 4)} | {_g(a['rms'], 4)} | {_g(b['max_abs'], 4)} | "
                     f"{_g(a['max_abs'], 4)} |")
    L.append("")
    for group, path in figs.items():
        L += [f"![{group}]({path.name})", ""]
    return "\n".join(L)


def _plot_group(res: CalibrationResult, g, path: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    segs = g.segments[:MAX_PLOTTED]
    fig, axes = plt.subplots(len(segs), 1, figsize=(10, 2.4 * len(segs)), squeeze=False, constrained_layout=True)
    fig.suptitle(f"{g.group}: recorded, simulated before and after ({g.signal})", fontsize=10)
    for ax, seg in zip(axes[:, 0], segs):
        for ov, style, label in (("", "--", "before"), (res.candidate_overrides, "-", "after")):
            r = replay_segment(res.input, seg, ov, (g.signal,))
            t, e, rec = residual(r, seg, g.signal)
            if label == "before":
                ax.plot(t + seg.k_warm * res.input.dt_s, rec, color="k", lw=1.0, label="recorded")
            ax.plot(t + seg.k_warm * res.input.dt_s, rec + e, ls=style, lw=0.9,
                    label=f"{label} (RMS {np.sqrt(np.mean(e * e)) if len(e) else float('nan'):.3g})")
        ax.set_title(seg.label, fontsize=9)
        ax.set_ylabel(_UNITS.get(g.signal, g.signal))
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=7, loc="best")
    axes[-1, 0].set_xlabel("t [s] (bag time - epoch)")
    fig.savefig(path, dpi=80, format="png", metadata={"Software": None})
    plt.close(fig)
    return path
