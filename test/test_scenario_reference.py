"""The reference's "Model Tests" figures, reproduced through the shipped scenarios.

Each test runs a file of ``scenarios/`` with the command-line entry point (as a
user or CI would) and computes the figure from ``timeseries.csv`` itself, not
from the scenario's own metrics; the scenario's ``expect`` section must pass
too (exit status 0). Bands are 2 % as in the model's own tests
(test_model_vehicle.py) unless noted. Figures: polaris-ranger-dynamics.md,
"Model Tests".
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from acres_dbw_sim.model.chassis import G_MPS2
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.scenario import load_scenario, main

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
MPH30 = 30 * 0.44704


def run(tmp_path_factory, name: str, sets: str | None = None) -> tuple:
    """Run scenarios/<name>.yaml; return (exit status, CSV as a structured array, summary dict)."""
    out = tmp_path_factory.mktemp(name)
    load_scenario(SCENARIOS / f"{name}.yaml", sets)  # a ScenarioError here says what is wrong (exit status 2)
    argv = [str(SCENARIOS / f"{name}.yaml"), "--out", str(out), "--quiet"]
    if sets:
        argv += ["--set", sets]
    rc = main(argv)
    data = np.genfromtxt(out / "timeseries.csv", delimiter=",", names=True)
    summary = json.loads((out / "summary.json").read_text())
    return rc, data, summary


@pytest.fixture(scope="module")
def wot_high(tmp_path_factory):
    return run(tmp_path_factory, "wot_high")


def test_wot_high_runs_and_meets_its_expectations(wot_high):
    rc, _, summary = wot_high
    assert rc == 0 and summary["passed"]


def test_wot_high_0_to_30_mph_in_4_4_s(wot_high):
    _, d, _ = wot_high
    t30 = d["t_s"][np.argmax(d["speed_mps"] >= MPH30)]
    assert t30 == pytest.approx(4.4, rel=0.02)


def test_wot_high_top_speed_26_72(wot_high):
    _, d, _ = wot_high
    assert d["speed_mps"][-1] == pytest.approx(26.72, rel=0.02)
    assert abs(d["speed_mps"][-1] - d["speed_mps"][-120]) < 0.01  # settled


def test_wot_high_engine_band_6686_to_7347(wot_high):
    _, d, _ = wot_high
    rpm = d["engine_rpm"]
    band = rpm[np.argmax(rpm >= 0.98 * 6686.0):]
    assert band.min() == pytest.approx(6686.0, rel=0.02)
    assert band.max() == pytest.approx(7347.0, rel=0.02)


def test_wot_high_peak_power_61_1_kw(wot_high):
    """Engine curve row: 61.1 kW; T_e is taken at the step's start speed, the CSV's power at its end (1 %)."""
    _, d, _ = wot_high
    assert d["engine_power_kw"].max() == pytest.approx(61.1, rel=0.01)


def test_wot_low_top_speed_13_63_at_7926_rpm(tmp_path_factory):
    rc, d, _ = run(tmp_path_factory, "wot_low")
    assert rc == 0
    assert d["speed_mps"][-1] == pytest.approx(13.63, rel=0.02)
    assert d["engine_rpm"][-1] == pytest.approx(7926.0, rel=0.02)


@pytest.mark.parametrize("name,decel", [("brake_70bar_asphalt", 8.88), ("brake_70bar_gravel", 5.93),
                                        ("brake_15bar_asphalt", 2.96)])
def test_braking_from_15_mps(tmp_path_factory, name, decel):
    rc, d, summary = run(tmp_path_factory, name)
    assert rc == 0
    assert d["speed_mps"][0] == pytest.approx(15.0)
    assert d["speed_mps"][-1] <= 0.05 < d["speed_mps"][-2]  # stopped by stop_when at the first row <= 0.05
    assert summary["run"]["stop_reason"] == "stop_when: speed_mps <= 0.05"
    assert 15.0 / d["t_s"][-1] == pytest.approx(decel, rel=0.02)


def test_friction_limited_stops_rank_by_surface(tmp_path_factory):
    """70 bar: the friction is the limit, so gravel stops later than asphalt; 15 bar on asphalt later still."""
    t = {n: run(tmp_path_factory, n)[1]["t_s"][-1]
         for n in ("brake_70bar_asphalt", "brake_70bar_gravel", "brake_15bar_asphalt")}
    assert t["brake_70bar_asphalt"] < t["brake_70bar_gravel"] < t["brake_15bar_asphalt"]


@pytest.mark.parametrize("surface", ["asphalt", "gravel", "silt_loam"])
def test_parked_loads_equal_the_weight(tmp_path_factory, surface):
    rc, d, summary = run(tmp_path_factory, "parked", f"terrain.surface={surface}")
    assert rc == 0
    v = summary["vehicle"]
    loads = [d[f"wheel_load_{w}_n"][-1] for w in ("fl", "fr", "rl", "rr")]
    assert sum(loads) == pytest.approx(v["mass_kg"] * G_MPS2, rel=1e-3)
    # on soil the heavier rear-left sinks a little more than rear-right: that warp moves ~3 N between diagonals
    for w, n in zip(("fl", "fr", "rl", "rr"), loads):
        assert n == pytest.approx(v["static_loads_n"][w], rel=1e-3 if surface != "silt_loam" else 2e-3)
    assert np.all(np.abs(d["speed_mps"]) < 1e-3)
    # the reference's rear sinkage on silt loam is 2.24 cm; hard ground does not yield
    for w in ("rl", "rr"):
        if surface == "silt_loam":
            assert d[f"sinkage_{w}_m"][-1] == pytest.approx(0.0224, rel=0.05)
        else:
            assert np.all(d[f"sinkage_{w}_m"] == 0.0)


@pytest.mark.parametrize("surface", ["asphalt", "silt_loam", "grass"])
def test_energy_ledger_closes(tmp_path_factory, surface):
    """The reference's residuals are 0.0235 %, 0.0099 %, 0.0189 %; ours must stay within 0.03 %."""
    rc, d, summary = run(tmp_path_factory, "energy_ledger", f"terrain.surface={surface}")
    assert rc == 0
    fuel = d["energy_fuel_j"][-1]
    assert fuel > 1e6
    assert abs(d["energy_residual_j"][-1]) < 3e-4 * fuel
    assert summary["ledger"]["residual_j"] == pytest.approx(d["energy_residual_j"][-1], rel=1e-6, abs=1e-3)
    # fuel volume from the heating value and density of the parameter file
    fp = load_parameters().fuel
    assert d["fuel_used_l"][-1] == pytest.approx(fuel / (fp.lhv_j_kg * fp.density_kg_l), rel=1e-9)


@pytest.mark.parametrize("path", sorted(p.relative_to(SCENARIOS).as_posix()
                                        for p in SCENARIOS.rglob("*.yaml")))
def test_every_shipped_scenario_meets_its_expectations(tmp_path, path):
    assert main([str(SCENARIOS / path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
