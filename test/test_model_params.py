"""Parameter file and loader (polaris-ranger-dynamics.md "Parameters"; gaps.md)."""
import copy
import json
import math
import os

import pytest

from acres_dbw_sim.model.params import ParameterError, assembled_tree
from acres_dbw_sim.model.overrides import parse_overrides
from acres_dbw_sim.vehicles.polaris.params import default_config_path, load_parameters


@pytest.fixture(scope="module")
def raw():
    """The shipped parameters as one combined file: the Ranger's, the world's and the DBW kit's sections."""
    return copy.deepcopy(assembled_tree(default_config_path()))


def _leaves(node, prefix=""):
    for k, v in node.items():
        if not prefix and k == "vehicle":     # the file names its vehicle (a text, not a parameter)
            assert v == "polaris"
            continue
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict) and "value" in v:
            yield path, v
        else:
            yield from _leaves(v, path)


def test_every_entry_has_the_documented_fields(raw):
    for key, entry in _leaves(raw):
        assert {"value", "basis", "source", "note"} <= set(entry), key
        assert "sd" in entry or "range" in entry, key
        assert entry["basis"] in {"oem", "dataspeed", "installed", "fitted", "derived", "estimate"}, key


@pytest.mark.parametrize("key,value", [
    ("geometry.wheelbase_m", 2.8702), ("mass.dry_kg", 1063), ("suspension.travel_m", 0.2794),
    ("tyres.radius_m", 0.3429), ("steering.ratio", 11.9764), ("steering.center_deg", 12.5314),
    ("engine.idle_rpm", 1250), ("engine.max_rpm", 8000), ("cvt.low_ratio", 3.2), ("cvt.high_ratio", 0.72),
    ("gearbox.rear_high_ratio", 13.01), ("gearbox.park_hold_nm", 20000), ("brakes.front_nm_per_bar", 22),
    ("brakes.rear_nm_per_bar", 12), ("aero.drag_area_m2", 2.5), ("fuel.tank_l", 43.5),
    ("dbw.steering.lock_deg", 487.0), ("dbw.brake.max_bar", 80.0),
])
def test_documented_defaults(raw, key, value):
    entry = dict(_leaves(raw))[key]
    assert entry["value"] == value


def test_basis_of_the_fitted_and_estimated_keys(raw):
    leaves = dict(_leaves(raw))
    assert leaves["steering.ratio"]["basis"] == "fitted"
    assert leaves["steering.ratio"]["sd"] == pytest.approx(0.4265)
    assert leaves["dbw.throttle.dead_time_s"]["basis"] == "estimate"
    assert leaves["surfaces.grass.mu"]["basis"] == "estimate"
    for name in ("asphalt", "concrete", "gravel", "dirt", "grass", "silt_loam", "sand", "slick"):
        assert f"surfaces.{name}.mu" in leaves


def test_si_conversion_once():
    p = load_parameters()
    assert p.tyres.front_inflation_pa == pytest.approx(124e3)
    assert p.tyres.carcass_pa == pytest.approx(15e3)
    assert p.fuel.lhv_j_kg == pytest.approx(43.4e6)
    assert p.engine.idle_rad_s == pytest.approx(1250 * 2 * math.pi / 60)
    assert p.engine.displacement_m3 == pytest.approx(0.999e-3)
    assert p.kit.steering_lock_deg == 487.0
    assert p.kit.gear_max_shift_speed_mps == 0.3
    assert p.cvt.ebs is True and p.cvt.adc is False


def test_overrides_scalar_array_element_and_bool():
    p = load_parameters(overrides="mass.cargo_kg=150; engine.torque_curve_rpm[3]=4100;cvt.adc=true")
    assert p.mass.cargo_kg == 150.0
    assert p.engine.torque_curve_rpm[3] == 4100.0
    assert p.engine.torque_curve_rpm[2] == 3000.0
    assert p.cvt.adc is True
    assert p.mass_properties.mass_kg == pytest.approx(1233.0 + 150.0)


def test_occupants_and_cargo_arguments():
    assert load_parameters(occupants=4).mass_properties.mass_kg == pytest.approx(1233.0 + 3 * 85)
    assert load_parameters(cargo_kg=100.0).mass.cargo_kg == 100.0


@pytest.mark.parametrize("overrides,key,reason", [
    ("engine.idle_rmp=1300", "engine.idle_rmp", "unknown key (did you mean 'engine.idle_rpm'?)"),
    ("engine.idle_rpm=fast", "engine.idle_rpm", "wrong type"),
    ("engine.torque_curve_nm=[1,2,3]", "engine.torque_curve_nm", "wrong array length"),
    ("engine.torque_curve_rpm[10]=9000", "engine.torque_curve_rpm[10]", "index out of range"),
    ("mass.dry_kg=-5", "mass.dry_kg", "out of range"),
    ("engine.max_rpm=1000", "engine.idle_rpm", "below"),
    ("cvt.ebs=1", "cvt.ebs", "wrong type"),
    ("mass.occupants=7", "mass.occupants", "out of range"),
    ("engine", "engine", "key=value"),
    # the constants out of the compiled code (issue 12): bounded, so a typing error is refused, not run as NaN
    ("tyres.lug_correction=1e6", "tyres.lug_correction", "out of range"),
    ("resistances.water_density_kg_m3=1e9", "resistances.water_density_kg_m3", "out of range"),
    ("engine.speed_governor_band_mps=100", "engine.speed_governor_band_mps", "out of range"),
    ("resistances.rolling_coefficient_max=0", "resistances.rolling_coefficient_max", "out of range"),
    ("suspension.max_load_factor=0.5", "suspension.max_load_factor", "out of range"),
    ("soils.dry_sand.slip_sinkage_m=0.5", "soils.dry_sand.slip_sinkage_m", "out of range"),
    # what the step would clamp is refused instead
    ("engine.indicated_efficiency=0.9", "engine.indicated_efficiency", "exceeds engine.indicated_efficiency_max"),
    ("engine.indicated_efficiency_min=0.5", "engine.indicated_efficiency", "is below engine.indicated_efficiency_min"),
    ("engine.indicated_efficiency_max=0.1", "engine.indicated_efficiency", "exceeds engine.indicated_efficiency_max"),
    ("engine.indicated_efficiency_min=0.8", "engine.indicated_efficiency_min", "exceeds"),
    ("surfaces.grass.rolling_resistance=0.9", "surfaces.grass.rolling_resistance", "rolling_coefficient_max"),
    ("tyres.sinkage_limit_m=5", "tyres.sinkage_limit_m", "radius"),
])
def test_bad_overrides_name_key_and_reason(overrides, key, reason):
    with pytest.raises(ParameterError) as exc:
        load_parameters(overrides=overrides)
    assert exc.value.key == key
    assert reason in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_bad_occupant_count_argument():
    with pytest.raises(ParameterError, match="mass.occupants"):
        load_parameters(occupants=-1)


def test_bad_file(tmp_path):
    f = tmp_path / "p.json"
    f.write_text('{"geometry": {"wheelbase_m": {"value": 2.87}}}')
    with pytest.raises(ParameterError):
        load_parameters(f)


def test_parse_overrides():
    assert parse_overrides("a.b=1;c.d[2]=x") == [("a.b", None, "1"), ("c.d", 2, "x")]
    assert parse_overrides(None) == []


@pytest.mark.parametrize("key,value", [("soils.dry_sand.slip_sinkage_m", "0.001"), ("tyres.lug_correction", None),
                                       ("resistances.rolling_coefficient_max", [0.45]), ("brakes.max_bar", "80"),
                                       ("engine.speed_governor_band_mps", True)])
def test_a_file_value_of_the_wrong_type_names_its_key(tmp_path, key, value):
    """A user's copy of the parameter file is type-checked against the shipped one: a string, null, list or
    boolean where the shipped file has a number is refused with the key, not a traceback or a silent 1.0."""
    tree = copy.deepcopy(assembled_tree(default_config_path()))
    node = tree
    for part in key.split("."):
        node = node[part]
    node["value"] = value
    f = tmp_path / "p.json"
    f.write_text(json.dumps(tree))
    with pytest.raises(ParameterError) as exc:
        load_parameters(f)
    assert exc.value.key == key and "wrong type" in str(exc.value)


def test_a_file_read_again_is_reread_when_it_changes_and_each_load_gets_its_own_values(tmp_path):
    """read_parameter_tree keeps a parsed file while its inode, time and size stay: a changed file is
    read again, and what one load's caller changes in its values does not reach the next load."""
    from acres_dbw_sim.model.params import read_parameter_tree
    raw = json.loads(default_config_path().read_text())
    f = tmp_path / "p.json"
    f.write_text(json.dumps(raw))
    assert load_parameters(f).geometry.wheelbase_m == raw["geometry"]["wheelbase_m"]["value"]
    _, _, values = read_parameter_tree(f, default_config_path())
    curve = next(k for k, v in values.items() if isinstance(v, list))
    values[curve].append(1e9)
    values["geometry.wheelbase_m"] = 9.0
    _, _, again = read_parameter_tree(f, default_config_path())
    assert 1e9 not in again[curve] and again["geometry.wheelbase_m"] == raw["geometry"]["wheelbase_m"]["value"]
    raw["geometry"]["wheelbase_m"]["value"] = 2.5
    f.write_text(json.dumps(raw, indent=1))
    assert load_parameters(f).geometry.wheelbase_m == 2.5
    # an edit of the same size with the modification time put back (cp -p, tar, touch -r): still seen
    before = f.stat()
    f.write_text(f.read_text().replace('"value": 2.5,', '"value": 2.6,', 1))
    os.utime(f, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert f.stat().st_size == before.st_size and f.stat().st_mtime_ns == before.st_mtime_ns
    assert load_parameters(f).geometry.wheelbase_m == 2.6
    f.unlink()
    with pytest.raises(ParameterError, match="cannot read"):
        load_parameters(f)


def test_an_unchanged_file_is_parsed_once(tmp_path, monkeypatch):
    from acres_dbw_sim.model import params as P
    f = tmp_path / "p.json"
    f.write_text(default_config_path().read_text())
    parsed = []
    real = P.json.loads
    monkeypatch.setattr(P.json, "loads", lambda text, *a, **k: parsed.append(len(text)) or real(text, *a, **k))
    first = load_parameters(f, "brakes.front_nm_per_bar=20")
    n = len(parsed)
    assert n >= 1
    second = load_parameters(f, "brakes.front_nm_per_bar=21")
    big = [x for x in parsed[n:] if x > 1000]
    assert big == [], "the file was parsed again"
    assert first.brakes.front_nm_per_bar != second.brakes.front_nm_per_bar


# --------------------------------------------------------------------------- where in the file


def test_json_key_line_finds_the_member_by_its_whole_path():
    from acres_dbw_sim.model.param_lines import json_key_line
    text = ('{\n  "a": {"idle_rpm": 1,\n    "b": {\n      "idle_rpm": {"value": 2}\n    }\n  },\n'
            '  "c": [{"idle_rpm": 3}],\n  "d \\" x": {"e": [1, 2]},\n  "idle_rpm": 4\n}\n')
    assert json_key_line(text, "a") == 2
    assert json_key_line(text, "a.idle_rpm") == 2
    assert json_key_line(text, "a.b.idle_rpm") == 4
    assert json_key_line(text, "a.b.idle_rpm.value") == 4
    assert json_key_line(text, 'd " x.e') == 8
    assert json_key_line(text, "idle_rpm") == 9
    assert json_key_line(text, "c.idle_rpm") is None and json_key_line(text, "a.x") is None


def _edited(tmp_path, source, section, key, value):
    data = json.loads(source.read_text())
    data[section][key]["value"] = value
    out = tmp_path / source.name
    out.write_text(json.dumps(data, indent=2))
    line = next(i for i, ln in enumerate(out.read_text().splitlines(), 1) if f'"{key}"' in ln and i > next(
        j for j, l2 in enumerate(out.read_text().splitlines(), 1) if f'"{section}"' in l2))
    return out, line


def test_a_bad_value_of_the_file_is_named_with_its_file_and_line(tmp_path):
    f, line = _edited(tmp_path, default_config_path(), "engine", "idle_rpm", -5)
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    assert err.value.origin == f"{f}:{line}" and str(err.value).startswith(f"{f}:{line}: parameter 'engine.idle_rpm'")
    # a rule between two keys names the line of the key it blames
    f, line = _edited(tmp_path, default_config_path(), "engine", "idle_rpm", 20000)
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    assert err.value.key == "engine.idle_rpm" and err.value.origin == f"{f}:{line}"
    # the same value from an override: no line of the file (the override is what is wrong)
    with pytest.raises(ParameterError) as err:
        load_parameters(None, "engine.idle_rpm=-5")
    assert err.value.origin is None and str(err.value).startswith("parameter 'engine.idle_rpm'")


def test_the_tractors_file_errors_carry_their_line_too(tmp_path):
    from acres_dbw_sim.vehicles.maxxum150.params import default_config_path as tractor_file, load_maxxum_parameters
    data = json.loads(tractor_file().read_text())
    section = next(s for s, v in data.items() if isinstance(v, dict) and "idle_rpm" in v)
    f, line = _edited(tmp_path, tractor_file(), section, "idle_rpm", "fast")
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(f)
    assert err.value.origin == f"{f}:{line}", str(err.value)


def _with_entry(tmp_path, source, path, entry, drop=None):
    """``source`` with ``entry`` added at the key path ``path`` (and the key path ``drop`` removed); (file, line)."""
    data = json.loads(source.read_text())
    if drop is not None:
        *head, last = drop
        node = data
        for name in head:
            node = node[name]
        del node[last]
    *head, last = path
    node = data
    for name in head:
        node = node.setdefault(name, {})
    node[last] = entry
    out = tmp_path / source.name
    out.write_text(json.dumps(data, indent=2))
    line = 0
    lines = out.read_text().splitlines()
    for name in path:   # each name's first line after its parent's
        line = next(i for i, ln in enumerate(lines, 1) if i > line and f'"{name}"' in ln)
    return out, line


@pytest.mark.parametrize("path, drop, reason", [
    (("engine", "idle_rmp"), ("engine", "idle_rpm"), "unknown key (did you mean 'engine.idle_rpm'?)"),
    (("engine", "idle_rpm_target"), None, "unknown key (did you mean 'engine.idle_rpm'?)"),
    (("brakes", "fade_per_k"), None, "unknown key"),
    (("trailer", "mass_kg"), None, "unknown key: the Ranger has no section 'trailer'"),
    (("kinematic", "high", "speed_max_mps2"), None, "unknown key (did you mean 'kinematic.high.speed_max_mps'?)"),
])
def test_a_key_of_the_file_that_nothing_reads_is_refused_with_its_line(tmp_path, path, drop, reason):
    """A misspelt key or a parameter the model does not have would be ignored and the run not be the one the
    file describes: refused, naming the key, its line and the closest key the vehicle reads."""
    f, line = _with_entry(tmp_path, default_config_path(), path, {"value": 1.0}, drop)
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    assert (err.value.key, err.value.reason) == (".".join(path), reason)
    assert err.value.origin == f"{f}:{line}"


@pytest.mark.parametrize("source, path, reason", [
    ("world.json", ("soils", "silt_loam", "k_phi_knn"), "unknown key (did you mean 'soils.silt_loam.k_phi_kn'?)"),
    ("dbw_kit.json", ("dbw", "brake", "lag_ss"), "unknown key (did you mean 'dbw.brake.lag_s'?)"),
])
def test_a_key_nothing_reads_in_the_world_or_the_kit_is_refused_with_its_file_and_line(tmp_path, monkeypatch, source,
                                                                                      path, reason):
    from acres_dbw_sim.model import params as model_params
    f, line = _with_entry(tmp_path, model_params.shipped_config(source), path, {"value": 1.0})
    shipped = model_params.shipped_config
    monkeypatch.setattr(model_params, "shipped_config", lambda name: f if name == source else shipped(name))
    with pytest.raises(ParameterError) as err:
        load_parameters()
    assert (err.value.key, err.value.reason, err.value.origin) == (".".join(path), reason, f"{f}:{line}")


def test_the_tractor_refuses_a_key_nothing_reads_and_keeps_its_migration_hints(tmp_path):
    from acres_dbw_sim.vehicles.maxxum150.params import default_config_path as tractor_file, load_maxxum_parameters
    # the ULC plant's section takes the kit's vehicle keys that the tractor's own keys do not fill
    f, line = _with_entry(tmp_path, tractor_file(), ("ulc_plant", "geometry", "wheelbase_m"), {"value": 2.0})
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(f)
    assert (err.value.key, err.value.reason, err.value.origin) == ("ulc_plant.geometry.wheelbase_m", "unknown key",
                                                                   f"{f}:{line}")
    # a key that moved is named with its new key, not as unknown
    f, _line = _with_entry(tmp_path, tractor_file(), ("dbw", "steering_ratio"), {"value": 20.0})
    with pytest.raises(ParameterError, match="now 'installation.steering_ratio'"):
        load_maxxum_parameters(f)


def test_fault_source_says_which_input_gave_the_bad_value(tmp_path):
    """A tool names its own option that gave a bad value: the file (its line known), the overrides, or neither."""
    import json
    from acres_dbw_sim.model.overrides import fault_source
    tree = json.loads(default_config_path().read_text())
    tree["engine"]["idle_rpm"]["value"] = -5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tree, indent=1))
    tree = json.loads(default_config_path().read_text())
    del tree["engine"]["pumping_bar"]
    gone = tmp_path / "gone.json"
    gone.write_text(json.dumps(tree, indent=1))
    cases = [(bad, None, "file"), (None, "engine.idle_rpm=-5", "overrides"),
             (None, "engine.idle_rpm=900;engine.max_rpm=800", "overrides"), (gone, None, "file")]
    for path, overrides, source in cases:
        with pytest.raises(ParameterError) as exc:
            load_parameters(path, overrides)
        assert fault_source(exc.value, overrides) == source, (path, overrides, exc.value)


def _written(tmp_path, tree, name="p.json"):
    """``tree`` (a parameter file's object) written as JSON to ``tmp_path/name``; its path."""
    f = tmp_path / name
    f.write_text(json.dumps(tree, indent=2))
    return f


def _edited_text(tmp_path, old, new, name="p.json"):
    """The shipped file with its first ``old`` replaced by ``new``, written to ``tmp_path/name``."""
    text = default_config_path().read_text()
    assert old in text
    f = tmp_path / name
    f.write_text(text.replace(old, new, 1))
    return f


@pytest.mark.parametrize("fields, reason", [
    ({"sdd": 0.01}, "unknown field 'sdd' of its entry (did you mean 'sd'?); an entry has value, basis, source, sd, "
                    "range, note"),
    ({"sd": -1}, "its sd must be a number >= 0, got -1"),
    ({"range": [2.1, 1.9]}, "its range [2.1, 1.9] has the lower bound above the upper"),
    ({"range": 2.0}, "its range must be [lower, upper] or the list of values to choose from, got 2.0"),
])
def test_an_entry_field_that_would_be_ignored_is_refused(tmp_path, fields, reason):
    """A misspelt ``sd`` would leave the key fixed in every sweep without a word; a bad sd or range too."""
    tree = json.loads(default_config_path().read_text())
    entry = tree["geometry"]["wheelbase_m"]
    entry.pop("sd", None)
    entry.pop("range", None)
    entry.update(fields)
    f = _written(tmp_path, tree)
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    line = next(i for i, ln in enumerate(f.read_text().splitlines(), 1) if '"wheelbase_m"' in ln)
    assert (err.value.key, err.value.reason, err.value.origin) == ("geometry.wheelbase_m", reason, f"{f}:{line}")


def test_a_name_given_twice_in_one_json_object_is_refused_with_its_key_and_line(tmp_path):
    """JSON keeps the last of a repeated name without a word (as YAML does not: the scenario refuses it)."""
    tree_text = default_config_path().read_text()
    f = _edited_text(tmp_path, '"idle_rpm": {', '"idle_rpm": {\n      "value": 1300,')
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    line = next(i for i, ln in enumerate(f.read_text().splitlines(), 1) if '"idle_rpm"' in ln)
    assert (err.value.key, err.value.origin) == ("engine.idle_rpm", f"{f}:{line}")
    assert "'value' is given twice in one object" in err.value.reason
    g = tmp_path / "twice.json"   # a whole section given twice
    g.write_text(tree_text.replace('"engine": {', '"engine": {"idle_rpm": {"value": 1}}, "engine": {', 1))
    with pytest.raises(ParameterError, match="'engine' is given twice"):
        load_parameters(g)
    h = tmp_path / "deep_twice.json"   # below lists of lists too
    h.write_text(tree_text.replace('"value": 0.03', '"value": [[{"a": 1, "a": 2}]]', 1))
    with pytest.raises(ParameterError, match="'a' is given twice in one object") as err:
        load_parameters(h)
    assert err.value.key.endswith(".value.0.0"), err.value.key


def test_a_file_naming_a_vehicle_there_is_not_is_refused_alike_everywhere(tmp_path, capsys):
    from acres_dbw_sim import description
    from acres_dbw_sim.model.params import file_vehicle
    from acres_dbw_sim.vehicles import REGISTRY
    f = _edited_text(tmp_path, '"vehicle": "polaris"', '"vehicle": "polars"')
    expected = f"{f} names vehicle 'polars', which is not one of polaris, maxxum150"
    for call in (lambda: load_parameters(f), lambda: file_vehicle(f, REGISTRY)):
        with pytest.raises(ParameterError) as err:
            call()
        assert err.value.reason == expected
    assert description.main([str(f)]) == 2 and expected in capsys.readouterr().err


def test_a_files_nan_is_worded_as_every_wrong_number(tmp_path):
    from acres_dbw_sim.model.params import file_vehicle
    f = _edited_text(tmp_path, '"value": 0.03', '"value": NaN')
    for call in (lambda: load_parameters(f), lambda: file_vehicle(f)):   # with and without the shipped file
        with pytest.raises(ParameterError, match="wrong type: expected a finite number, got nan"):
            call()


def test_a_value_the_kit_also_bounds_is_refused_with_the_one_range_it_must_meet():
    """The loader's own rule (idle > 0) and the DBW kit's ([100, 5000]) are checked as one: the message gives
    the range that admits a value, whichever rule the value breaks."""
    from acres_dbw_sim.vehicles import vehicle_spec
    for vehicle in ("polaris", "maxxum150"):
        for value in (-5, 50, 6000):
            with pytest.raises(ParameterError) as err:
                vehicle_spec(vehicle).load_parameters(None, f"engine.idle_rpm={value}", None, None)
            assert err.value.reason == f"out of range: {value} not in [100, 5000]", (vehicle, str(err.value))


def test_a_malformed_override_is_the_overrides_fault_and_a_missing_key_the_files(tmp_path):
    from acres_dbw_sim.model.overrides import fault_source, option_message
    for text in ("engine.idle_rpm", "engine.idle_rpm[x]=3"):
        with pytest.raises(ParameterError) as err:
            load_parameters(None, text)
        assert fault_source(err.value, text) == "overrides"
        assert option_message(err.value, "", text).startswith("parameter 'overrides': parameter 'engine.idle_rpm")
    tree = json.loads(default_config_path().read_text())
    del tree["engine"]["max_rpm"]
    f = _written(tmp_path, tree, "gone.json")
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    assert option_message(err.value, str(f), None) == ("parameter 'vehicle_config': parameter 'engine.max_rpm': "
                                                       "missing from the parameter file")


def test_two_overrides_joined_by_a_comma_are_told_to_use_a_semicolon():
    with pytest.raises(ParameterError) as err:
        load_parameters(None, "engine.idle_rpm=1200,brakes.front_nm_per_bar=20")
    assert err.value.key == "engine.idle_rpm" and err.value.reason.endswith("(overrides are separated by ';')")


def test_a_file_the_json_parser_cannot_take_is_refused_as_a_file_not_a_crash(tmp_path):
    """Nesting too deep for the parser, an integer of 5000 digits: an error naming the file, not a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"engine": {"idle_rpm": {"value": ' + "[" * 100_000 + "]" * 100_000 + "}}}")
    big = tmp_path / "big.json"
    big.write_text('{"engine": {"idle_rpm": {"value": 1' + "0" * 5000 + "}}}")
    for f in (deep, big):
        with pytest.raises(ParameterError) as err:
            load_parameters(f)
        assert err.value.key == "<file>" and err.value.reason.startswith(f"cannot read {f}: "), str(err.value)


def test_a_file_with_one_of_the_worlds_sections_without_the_other_is_refused(tmp_path):
    """soils without surfaces would leave the file's runs an empty surface table, blamed on the shipped world."""
    from acres_dbw_sim.model.params import shipped_config
    world = json.loads(shipped_config("world.json").read_text())
    tree = json.loads(default_config_path().read_text())
    tree["soils"] = world["soils"]
    f = _written(tmp_path, tree)
    with pytest.raises(ParameterError) as err:
        load_parameters(f)
    assert (err.value.key, err.value.reason) == ("<file>", f"{f} has the section 'soils' of world.json without "
                                                 "'surfaces': a file carries all of that file's sections (soils, "
                                                 "surfaces) or none")


def test_a_range_with_a_number_that_is_not_finite_is_refused(tmp_path):
    tree = json.loads(default_config_path().read_text())
    entry = tree["geometry"]["wheelbase_m"]
    entry.pop("sd", None)
    entry["range"] = [float("nan"), 3.0]
    f = _written(tmp_path, tree)
    with pytest.raises(ParameterError, match=r"its range \[nan, 3.0\] holds a number that is not finite"):
        load_parameters(f)


def test_the_tractors_ulc_plant_figures_meet_the_plant_models_rules_under_their_own_keys(tmp_path):
    """The kit's plant model has the Ranger's rules (PLANT_RULES, the full-load curve) whoever gives its
    figures; the tractor's refusal names its ulc_plant key, present or missing."""
    from acres_dbw_sim.vehicles.maxxum150.params import default_config_path as tractor_file, load_maxxum_parameters
    for ov, key, reason in (("ulc_plant.cvt.high_ratio=5", "ulc_plant.cvt.high_ratio", "must be below cvt.low_ratio"),
                            ("ulc_plant.engine.torque_curve_rpm[3]=100", "ulc_plant.engine.torque_curve_rpm[3]",
                             "speeds must increase strictly")):
        with pytest.raises(ParameterError) as err:
            load_maxxum_parameters(None, ov)
        assert err.value.key == key and reason in err.value.reason, str(err.value)
    tree = json.loads(tractor_file().read_text())
    del tree["ulc_plant"]["brakes"]
    f = _written(tmp_path, tree, "t.json")
    with pytest.raises(ParameterError) as err:
        load_maxxum_parameters(f)
    assert err.value.key.startswith("ulc_plant.brakes.") and "missing" in err.value.reason, str(err.value)


def test_an_index_that_is_not_a_whole_number_is_worded_alike_in_overrides_set_and_sweeps(tmp_path):
    from acres_dbw_sim.scenario import load_scenario
    from acres_dbw_sim.scenario.source import ScenarioError
    from acres_dbw_sim.sweep import load_sweep
    reason = "malformed key: an index is a whole number from 0, got '-1'"
    with pytest.raises(ParameterError) as err:
        load_parameters(None, "engine.torque_curve_nm[-1]=5")
    assert err.value.reason == reason
    scenario = os.path.join(os.path.dirname(__file__), "..", "scenarios", "brake_70bar_asphalt.yaml")
    with pytest.raises(ScenarioError) as serr:
        load_scenario(scenario, "engine.torque_curve_nm[-1]=5")
    assert serr.value.reason == reason
    sw = tmp_path / "sw.yaml"
    sw.write_text(f"scenarios: [{os.path.abspath(scenario)}]\n"
                  "parameters:\n  - 'engine.torque_curve_nm[-1]': {sd: 2}\nsamples: 4\n")
    with pytest.raises(ScenarioError) as werr:
        load_sweep(sw)
    assert werr.value.reason.endswith(reason)


def test_a_key_given_twice_in_one_overrides_text_is_refused_where_a_user_wrote_it():
    """One text a user wrote (--set, acres-replay --param overrides=): the last would win without a word.
    Layers (a scenario's overrides, then --set, then a sweep's draw) still let the later win."""
    from acres_dbw_sim.model.overrides import check_once
    from acres_dbw_sim.replay.cli import parse_node_params
    from acres_dbw_sim.replay.topics import TopicMapError
    from acres_dbw_sim.scenario import load_scenario
    from acres_dbw_sim.scenario.source import ScenarioError
    with pytest.raises(ParameterError, match="given twice in the overrides"):
        check_once("engine.torque_curve_nm[3]=80;engine.torque_curve_nm[3]=90")
    check_once("engine.torque_curve_nm[3]=80;engine.torque_curve_nm[4]=90")
    scenario = os.path.join(os.path.dirname(__file__), "..", "scenarios", "brake_70bar_asphalt.yaml")
    with pytest.raises(ScenarioError, match="given twice in the overrides"):
        load_scenario(scenario, "engine.idle_rpm=900;engine.idle_rpm=1000")
    sc = load_scenario(scenario, ["engine.idle_rpm=900", "engine.idle_rpm=1000"])   # two --set: the later wins
    assert sc.params.engine.idle_rpm == 1000
    with pytest.raises(TopicMapError, match="--param overrides: parameter 'engine.idle_rpm': given twice"):
        parse_node_params(["overrides=engine.idle_rpm=900;engine.idle_rpm=1000"])


def test_a_misspelt_surface_or_replay_parameter_name_gets_the_closest_name():
    from acres_dbw_sim.model.terrain import FlatTerrain
    from acres_dbw_sim.replay.cli import parse_node_params
    from acres_dbw_sim.replay.topics import TopicMapError
    terrain = FlatTerrain(0.0, 0.0, "Asphalt")
    with pytest.raises(KeyError, match=r"unknown surface 'Asphalt' \(did you mean 'asphalt'\?\)"):
        terrain.bind(("asphalt", "gravel"))
    with pytest.raises(TopicMapError, match=r"--param step_hzz: unknown \(did you mean 'step_hz'\?\)"):
        parse_node_params(["step_hzz=100"])
