"""The model's static figures against the repository's reference figures (test/data).

The figures come from ``test/data/ranger_reference_figures.yaml`` (the reference's "Mass and
Geometry", "Suspension", "Steering", "Engine" and "Model Tests" sections); each is computed
here with the model's own functions, the ones the physics step runs, and must round to the
stated figure. The dynamic figures of the same file (acceleration, braking, ledger) are run
by test_model_vehicle.py and test_scenario_reference.py.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from acres_dbw_sim.vehicles.polaris import engine
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.model.steering import bicycle_angle_rad
from acres_dbw_sim.model.suspension import corner_springs
from helpers.model import peak_power

FIGURES_PATH = Path(__file__).resolve().parent / "data" / "ranger_reference_figures.yaml"
FIGURES = yaml.safe_load(FIGURES_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def p():
    return load_parameters()


def _rounded(name: str, got) -> None:
    fig = FIGURES[name]
    want = fig["value"] if isinstance(fig["value"], list) else [fig["value"]]
    got = got if isinstance(got, (list, tuple)) else [got]
    digits = fig["rounding"] if isinstance(fig["rounding"], list) else [fig["rounding"]] * len(want)
    assert len(got) == len(want), name
    for g, w, d in zip(got, want, digits):
        assert round(g, d) == pytest.approx(w, abs=1e-9), f"{name}: {g} does not round to {w}"


def test_every_figure_names_its_section_and_a_check():
    assert len(FIGURES) >= 20
    for name, fig in FIGURES.items():
        assert fig["section"] and fig["what"] and fig["unit"], name
        assert ("rounding" in fig) != ("band_pct" in fig), name


def test_mass_properties(p):
    mp = p.mass_properties
    _rounded("mass_kg", mp.mass_kg)
    _rounded("centre_of_mass_m", list(mp.cg_m))
    _rounded("front_axle_share_pct", 100.0 * mp.front_axle_share)
    _rounded("inertia_kg_m2", list(mp.inertia_kg_m2))


def test_suspension(p):
    s = corner_springs(p)
    _rounded("corner_rate_kn_m", [s.rate_n_m[0] / 1000.0, s.rate_n_m[2] / 1000.0])
    _rounded("bump_stop_start_m", s.bump_start_m)


def test_steering_lock(p):
    st = p.steering
    lock = p.kit.steering_lock_deg
    _rounded("max_bicycle_angle_deg",
             math.degrees(bicycle_angle_rad(st.center_deg + lock, st.ratio, st.center_deg)))


def test_engine_curves(p):
    c = engine.EngineCurves.from_params(p.engine)
    _rounded("idle_friction_torque_nm", engine.friction_torque_nm(p.engine.idle_rpm, c))
    _rounded("pumping_torque_nm", c.pumping_nm)
    _rounded("nm_per_bar", c.nm_per_bar)
    p_w, n_rpm, t_nm = peak_power(c)
    _rounded("peak_power_kw", [p_w / 1000.0, n_rpm])
    _rounded("peak_torque_nm", t_nm)
