"""Drawbar pull against slip of the Ranger's rear tyre on each soil class (not a test).

For the rear tyre (27x11-14) at its static load, on each soil class of the
parameter file's ``soils`` block, steady slip i from 0 to 1:

    thrust(i) = F_max g(i)                   (soil.shear_shape, Janosi-Hanamoto over the contact)
    drawbar pull(i) = thrust(i) - F_mr - f N  (compaction resistance and the flexing tyre's rolling resistance)

with F_max, l/K', F_mr and f from :func:`acres_dbw_sim.model.soil.tyre_on_soil`,
the function the model's step calls for each wheel on soil. The curves rise
and then saturate, as Wong's tyre-on-soil curves do; the plot is drawn as
drawbar pull over load (drawbar-pull coefficient).

Run: ``python bench/drawbar_pull.py [--out docs/img/drawbar_pull.png]``; it
also prints the table of each class's sinkage, F_max / N, resistance / N and
the pull coefficient at 20 % and 100 % slip.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from acres_dbw_sim.vehicles.polaris.params import load_parameters  # noqa: E402
from acres_dbw_sim.model.soil import shear_shape, tyre_on_soil  # noqa: E402
from acres_dbw_sim.model.suspension import tyre_membrane_rate_n_m  # noqa: E402


def curves(params, slips):
    """{soil name: (sinkage [m], pull coefficient array, thrust coefficient array, resistance / N)}."""
    ty = params.tyres
    load = params.mass_properties.static_loads_n[2]
    pg = ty.rear_inflation_pa + ty.carcass_pa
    k_tyre = tyre_membrane_rate_n_m(ty.rear_inflation_pa, ty.carcass_pa, ty.radius_m, ty.rear_width_m)
    soils = params.soils
    result = {}
    for name, so in soils.items():
        z, f_max, lk, f_roll, f_mr, _l = tyre_on_soil(
            load, ty.rear_width_m, ty.radius_m, pg, k_tyre, so.n, so.k_c, so.k_phi, so.cohesion_pa,
            so.friction_angle_rad, so.shear_modulus_m, ty.sinkage_limit_m, ty.lug_height_m, ty.tread_k_m,
            ty.hysteresis, ty.section_height_m, ty.lug_correction, 0.0)   # the static rut: no slip sinkage
        thrust = np.array([f_max * shear_shape(float(i), lk)[0] for i in slips]) / load
        resist = (f_mr + f_roll * load) / load
        result[name] = (z, thrust - resist, thrust, resist)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "drawbar_pull.png"))
    args = ap.parse_args()
    params = load_parameters()
    slips = np.linspace(0.0, 1.0, 201)
    res = curves(params, slips)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    print(f"{'soil':12s} {'z [cm]':>7s} {'Fmax/N':>7s} {'R/N':>6s} {'DP/N@20%':>9s} {'DP/N@100%':>10s}")
    for name, (z, pull, thrust, resist) in res.items():
        ax.plot(100 * slips, pull, label=f"{name.replace('_', ' ')} (z = {100 * z:.1f} cm)")
        i20 = int(np.argmin(np.abs(slips - 0.2)))
        print(f"{name:12s} {100 * z:7.2f} {thrust[-1]:7.3f} {resist:6.3f} {pull[i20]:9.3f} "
              f"{pull[-1]:10.3f}")
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_xlabel("slip i [%]")
    ax.set_ylabel("drawbar pull / load [-]")
    load = params.mass_properties.static_loads_n[2]
    ax.set_title(f"Rear tyre 27x11-14 at {load:.0f} N on each soil class")
    ax.grid(alpha=0.3)
    ax.legend()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
