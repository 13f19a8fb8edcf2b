"""tools/derive_kinematic.py: the shipped kinematic block is what the full model measures, and writing
the block leaves the rest of the parameter file byte for byte."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from acres_dbw_sim.vehicles.polaris.kinematic import KinematicParameters
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from helpers.tools import load_tool

ROOT = Path(__file__).resolve().parents[1]
derive = load_tool("derive_kinematic")

P = load_parameters()
K = KinematicParameters.from_vehicle_parameters(P)
RAW = json.loads((ROOT / "config" / "polaris.json").read_text())["kinematic"]


@pytest.mark.parametrize("rng", ["high", "low"])
def test_shipped_top_speed_is_the_full_models(rng):
    trace = derive.full_throttle(P, rng, duration_s=60.0)
    assert K.speed_max_mps[rng] == pytest.approx(trace[-120:].mean(), abs=RAW[rng]["speed_max_mps"]["sd"] + 1e-3)


def test_shipped_slope_is_the_steepest_the_full_model_climbs_in_h():
    s = K.slope_max_pct["high"]
    assert derive.climbs(P, "high", s - 0.5)
    assert not derive.climbs(P, "high", s + 0.5)


def test_shipped_turning_radius_is_the_full_models_at_lock():
    assert K.turning_radius_m == pytest.approx(derive.turning_radius(P), abs=0.01)
    # wider than the ideal bicycle at that lock (tyre scrub of the locked rear axle)
    lock = derive.lock_side(P)
    delta = abs(math.radians(lock - P.steering.center_deg) / P.steering.ratio)
    assert K.turning_radius_m > P.geometry.wheelbase_m / math.tan(delta) * 1.05


def test_every_key_has_value_basis_source_spread_and_note():
    def leaves(node, path=()):
        for k, v in node.items():
            if "value" in v:
                yield path + (k,), v
            else:
                yield from leaves(v, path + (k,))
    keys = dict(leaves(RAW))
    assert len(keys) == 11
    for key, e in keys.items():
        assert {"value", "basis", "source", "note"} <= set(e), key
        assert ("sd" in e) != ("range" in e), key
        assert e["basis"] in ("fitted", "derived") and "tools/derive_kinematic.py" in e["source"], key


def test_writing_the_block_keeps_the_rest_of_the_file():
    text = (ROOT / "config" / "polaris.json").read_text()
    head = text[:text.index('\n  "kinematic": ')]
    new = derive.with_block(text, {"decel_max_mps2": {"value": 1.0}})
    assert new.startswith(head) and json.loads(new)["kinematic"] == {"decel_max_mps2": {"value": 1.0}}
    assert derive.with_block(new, RAW) == text
    bare = json.dumps({"a": {"value": 1}}, indent=2) + "\n"
    assert json.loads(derive.with_block(bare, {"b": {"value": 2}})) == {"a": {"value": 1}, "kinematic": {"b": {"value": 2}}}
