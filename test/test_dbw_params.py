"""DBW parameter loader: every ``dbw.*`` key comes from config/polaris.json (issue 5).

The loader has no defaults in the code: a missing key, an unknown ``dbw.*``
key, a wrong type or a value out of range is a ``ParameterError`` naming the
key, as the model's loader does for its keys.
"""

import copy
import json

import pytest

from acres_dbw_sim.dbw.params import (
    DBW_KEYS, ENUM_KEYS, MASS_KEY, VEHICLE_ARRAY_KEYS, VEHICLE_KEYS, DbwParameters, ParameterError,
)
from acres_dbw_sim.model.params import ParameterError as ModelParameterError
from acres_dbw_sim.model.params import assembled_tree
from acres_dbw_sim.vehicles.polaris.params import default_config_path, load_parameters


def _tree():
    """A combined parameter file (the vehicle, the world and the kit in one, as files were before the kit had
    its own): its ``dbw`` section replaces the kit's."""
    return copy.deepcopy(assembled_tree(default_config_path()))


def _dbw_leaves(node, prefix="dbw"):
    for k, v in node.items():
        key = f"{prefix}.{k}"
        if "value" in v:
            yield key, v
        else:
            yield from _dbw_leaves(v, key)


def _write(tmp_path, tree):
    p = tmp_path / "polaris.json"
    p.write_text(json.dumps(tree, indent=2))
    return p


def test_every_dbw_key_of_the_file_is_read_and_every_read_key_is_in_the_file():
    in_file = {k for k, _ in _dbw_leaves(_tree()["dbw"])}
    read = set(DBW_KEYS) | set(ENUM_KEYS)
    assert in_file == read


@pytest.mark.parametrize("key", sorted(set(DBW_KEYS) | set(ENUM_KEYS)))
def test_each_dbw_key_has_value_basis_source_spread_and_note(key):
    leaves = dict(_dbw_leaves(_tree()["dbw"]))
    e = leaves[key]
    assert set(e) >= {"value", "basis", "source", "note"}
    assert ("sd" in e) != ("range" in e)
    assert e["basis"] in ("oem", "dataspeed", "installed", "fitted", "derived", "estimate")
    assert e["source"] and e["note"]
    if "range" in e:
        lo, hi = e["range"]
        assert lo <= e["value"] <= hi


def test_values_come_from_the_file(tmp_path):
    tree = _tree()
    tree["dbw"]["ulc"]["hold_bar"]["value"] = 33.0
    tree["dbw"]["steering"]["override_torque_nm"]["value"] = 4.5
    tree["dbw"]["wheel_counts_per_rev"]["value"] = 48
    p = DbwParameters.from_json(_write(tmp_path, tree))
    assert (p.ulc_hold_bar, p.steering_override_torque_nm, p.wheel_counts_per_rev) == (33.0, 4.5, 48.0)
    shipped = DbwParameters.from_json()
    assert shipped.ulc_hold_bar == _tree()["dbw"]["ulc"]["hold_bar"]["value"]


def test_total_mass_comes_from_the_model_loader():
    vp = load_parameters(occupants=4, cargo_kg=100.0)
    assert DbwParameters.from_vehicle_parameters(vp).vehicle_mass_kg == pytest.approx(vp.mass_kg)
    assert vp.mass_kg > load_parameters().mass_kg + 300.0


@pytest.mark.parametrize("section,leaf", [("ulc", "hold_bar"), ("brake", "override_pct"),
                                          ("steering", "column_damping_nm_s_deg"), (None, "wheel_counts_per_rev")])
def test_a_missing_key_is_an_error_naming_it(tmp_path, section, leaf):
    tree = _tree()
    del (tree["dbw"][section] if section else tree["dbw"])[leaf]
    for load in (load_parameters, DbwParameters.from_json):   # the kit is fitted when the file is loaded
        with pytest.raises(ParameterError, match="missing") as exc:
            load(_write(tmp_path, tree))
        assert exc.value.key == (f"dbw.{section}.{leaf}" if section else f"dbw.{leaf}")


def test_an_unknown_dbw_key_is_an_error_naming_it(tmp_path):
    tree = _tree()
    tree["dbw"]["ulc"]["kp_sped"] = dict(tree["dbw"]["ulc"]["kp_speed"])
    with pytest.raises(ParameterError, match="unknown") as exc:
        DbwParameters.from_json(_write(tmp_path, tree))
    assert exc.value.key == "dbw.ulc.kp_sped"


def test_an_override_of_a_key_the_dbw_does_not_read_is_an_error():
    with pytest.raises(ParameterError, match="unknown"):
        DbwParameters.from_json(overrides={"dbw.ulc.kp": 1.0})


@pytest.mark.parametrize("key,value,match", [
    ("dbw.ulc.limit_accel_default_mps2", 0.1, "out of range: 0.1 not in .0.3, 3."),
    ("dbw.brake.max_bar", float("nan"), "must be finite"),
    ("dbw.command_timeout_s", float("inf"), "must be finite"),
    ("dbw.steering.lock_deg", "487", "expected a plain number"),
    ("dbw.ulc.hold_bar", True, "wrong type"),
    ("steering.ratio", 0.5, "out of range"),
])
def test_bad_values_are_errors_naming_the_key(key, value, match):
    with pytest.raises(ParameterError, match=match) as exc:
        DbwParameters.from_json(overrides={key: value})
    assert exc.value.key == key


def test_one_parameter_error_class_for_the_model_and_the_dbw():
    assert ParameterError is ModelParameterError and issubclass(ParameterError, ValueError)


def test_from_mapping_needs_the_total_mass():
    flat = dict(load_parameters().values)
    with pytest.raises(ParameterError, match="missing") as exc:
        DbwParameters.from_mapping(flat)
    assert exc.value.key == MASS_KEY


def test_vehicle_keys_are_read_from_the_model_section():
    p = DbwParameters.from_json(overrides={"steering.ratio": 15.0, "geometry.wheelbase_m": 2.5})
    assert (p.steering_ratio, p.geometry_wheelbase_m) == (15.0, 2.5)
    for key in (*VEHICLE_KEYS, *VEHICLE_ARRAY_KEYS):
        assert not key.startswith("dbw.")
