"""Autoware's vehicle_info.param.yaml from each vehicle's parameter file (acres_dbw_sim.autoware_vehicle_info):
every field checked against the shipped files' own numbers, read here as plain JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from acres_dbw_sim.autoware_vehicle_info import FIELDS, main, vehicle_info
from acres_dbw_sim.vehicles import vehicle_spec

CONFIG = Path(__file__).resolve().parents[1] / "config"


def _values(name: str) -> dict:
    """``{dotted key: value}`` of a shipped parameter file."""
    out = {}

    def walk(node, path):
        if isinstance(node, dict) and "value" in node and not isinstance(node["value"], dict):
            out[path] = node["value"]
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else k)
    walk(json.loads((CONFIG / name).read_text()), "")
    return out


def _expected(vehicle: str) -> dict:
    if vehicle == "polaris":
        f, kit = _values("polaris.json"), _values("dbw_kit.json")
        track, radius, width = f["geometry.track_rear_m"], f["tyres.radius_m"], f["tyres.rear_width_m"]
        # the bicycle angle at the lock: (lock - |centre|) / ratio, the centre off the wheel's zero
        steer = math.radians((kit["dbw.steering.lock_deg"] - abs(f["steering.center_deg"])) / f["steering.ratio"])
        base = f["geometry.wheelbase_m"]
    else:
        f = _values("maxxum150.json")
        track, radius, width = f["chassis.track_m"], f["tyres.rear_radius_m"], f["tyres.rear_width_m"]
        steer, base = f["steering.max_steer_rad"], f["chassis.wheelbase_m"]
    side = max(f["chassis.body_box.half_width_m"], track / 2 + width / 2) - track / 2
    return {"wheel_radius": radius, "wheel_width": width, "wheel_base": base, "wheel_tread": track,
            "front_overhang": f["chassis.body_box.front_overhang_m"], "rear_overhang": -f["chassis.body_box.rear_m"],
            "left_overhang": side, "right_overhang": side, "vehicle_height": f["chassis.body_box.top_m"],
            "max_steer_angle": steer}


@pytest.mark.parametrize("vehicle", ["polaris", "maxxum150"])
def test_every_field_comes_from_the_parameter_file(vehicle, tmp_path):
    out = tmp_path / "vehicle_info.param.yaml"
    assert main([str(out), "--vehicle", vehicle]) == 0
    written = yaml.safe_load(out.read_text())["/**"]["ros__parameters"]
    assert tuple(written) == FIELDS
    want = _expected(vehicle)
    for k in FIELDS:
        assert written[k] == pytest.approx(want[k], rel=1e-5), k


def test_the_ranger_is_as_wide_as_its_tyres_and_the_tractor_as_its_rear_wheels():
    ranger = vehicle_info(vehicle_spec("polaris").load_parameters(None, None, None, None))
    # 1.31 m track + two 0.14 m half tyres: 1.59 m (the 1.5 m body box is narrower than the tyres)
    assert ranger["wheel_tread"] + 2 * ranger["left_overhang"] == pytest.approx(1.5894, abs=1e-4)
    tractor = vehicle_info(vehicle_spec("maxxum150").load_parameters(None, None, None, None))
    assert tractor["wheel_tread"] + 2 * tractor["left_overhang"] == pytest.approx(1.9 + 0.467)


def test_an_override_reaches_the_file_and_a_bad_one_is_named(tmp_path, capsys):
    out = tmp_path / "v.yaml"
    assert main([str(out), "--set", "geometry.wheelbase_m=3.0;chassis.body_box.top_m=2.1"]) == 0
    p = yaml.safe_load(out.read_text())["/**"]["ros__parameters"]
    assert p["wheel_base"] == 3.0 and p["vehicle_height"] == 2.1
    assert main([str(out), "--set", "chassis.body_box.top_m=x"]) == 2
    assert "chassis.body_box.top_m" in capsys.readouterr().err
