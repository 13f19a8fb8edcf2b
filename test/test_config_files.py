"""The configuration in its own files: the world, the DBW kit and one file per vehicle."""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest

from acres_dbw_sim.model import params as P
from acres_dbw_sim.model import world as W
from acres_dbw_sim.vehicles.polaris.params import default_config_path, load_parameters
from acres_dbw_sim.simulation import Simulation
from acres_dbw_sim.vehicles import REGISTRY, vehicle_spec
from helpers.tools import load_tool

CONFIG = Path(__file__).resolve().parents[1] / "config"


def test_each_part_has_its_own_file():
    world = json.loads((CONFIG / "world.json").read_text())
    kit = json.loads((CONFIG / "dbw_kit.json").read_text())
    assert set(world) == {"soils", "surfaces"} and set(kit) == {"dbw"}
    for name in REGISTRY:
        tree = json.loads((CONFIG / f"{name}.json").read_text())
        assert tree["vehicle"] == name
        assert not set(tree) & {"soils", "surfaces", "dbw"}, name


def test_an_override_of_a_moved_key_names_its_new_key():
    with pytest.raises(P.ParameterError, match="now 'installation.steering_ratio'"):
        vehicle_spec("maxxum150").load_parameters(None, "dbw.steering_ratio=14", None, None)
    assert vehicle_spec("maxxum150").load_parameters(None, "installation.steering_ratio=14", None,
                                                     None).dbw_steering_ratio == 14.0


def test_the_tractor_reads_no_file_of_the_ranger(monkeypatch):
    """Loading, building and running the tractor (once the modules are imported) reads its own file, the world
    and the kit."""
    read = []
    real = P._read_json_object

    def spy(p):
        read.append(Path(p).name)
        return real(p)

    monkeypatch.setattr(P, "_read_json_object", spy)
    monkeypatch.setattr(P, "_TREES", {})
    sim = Simulation(vehicle="maxxum150")
    sim.step()
    vehicle_spec("maxxum150").surfaces(sim.params)
    assert set(read) == {"maxxum150.json", "world.json", "dbw_kit.json"}


def test_a_combined_file_of_before_the_split_loads_with_the_same_values(tmp_path):
    """A parameter file that carries the world and the kit (as every file did before they had their own) keeps
    them; one that does not takes the shipped ones. Same key paths either way."""
    combined = copy.deepcopy(P.assembled_tree(default_config_path()))
    f = tmp_path / "old_polaris.json"
    f.write_text(json.dumps(combined))
    old, new = load_parameters(f), load_parameters()
    assert old.values == new.values and old.surfaces == new.surfaces and old.kit == new.kit
    assert P.assembled_from(f) == [str(f.resolve())]
    assert [Path(x).name for x in P.assembled_from(default_config_path())] == ["polaris.json", "world.json", "dbw_kit.json"]
    combined["surfaces"]["sand"]["mu"]["value"] = 0.31      # its own world wins
    f.write_text(json.dumps(combined))
    assert load_parameters(f).surfaces[load_parameters(f).surface_index("sand")].mu == 0.31


def test_overrides_keep_their_key_paths():
    p = load_parameters(overrides="surfaces.sand.mu=0.33;dbw.brake.max_bar=70;soils.clay.n=0.2")
    assert p.surfaces[p.surface_index("sand")].mu == 0.33 and p.kit.brake_max_bar == 70.0
    assert p.soils["clay"].n == 0.2
    t = vehicle_spec("maxxum150").load_parameters(None, "surfaces.sand.mu=0.33", None, None)
    assert vehicle_spec("maxxum150").surfaces(t)[W.surface_index(t.surfaces, "sand")].mu == 0.33
    with pytest.raises(P.ParameterError, match="surfaces.sand.mu"):
        vehicle_spec("maxxum150").load_parameters(None, "surfaces.sand.mu=-1", None, None)


def test_the_parsed_file_cache_follows_the_part_files(tmp_path):
    """A change of the world's file is seen by the next load of a vehicle assembled with it."""
    world = tmp_path / "world.json"
    world.write_text((CONFIG / "world.json").read_text())
    vehicle = tmp_path / "v.json"
    vehicle.write_text(json.dumps({"geometry": {"wheelbase_m": {"value": 2.0}}}))
    parts = ((P.WORLD_SECTIONS, world),)
    assert P.read_parameter_tree(vehicle, parts=parts)[2]["surfaces.sand.mu"] != 0.29
    tree = json.loads(world.read_text())
    tree["surfaces"]["sand"]["mu"]["value"] = 0.29
    time.sleep(0.01)
    world.write_text(json.dumps(tree))
    assert P.read_parameter_tree(vehicle, parts=parts)[2]["surfaces.sand.mu"] == 0.29


def test_a_sweeps_identity_covers_the_world_and_the_kit():
    from acres_dbw_sim.sweep.spec import load_sweep
    sweep = load_sweep(Path(__file__).resolve().parents[1] / "sweeps" / "braking_uncertainty.yaml")
    names = [Path(e["file"]).name for e in sweep.identity()["assembled_from"]]
    assert names == ["world.json", "dbw_kit.json"]
    assert all(len(e["sha256"]) == 64 for e in sweep.identity()["assembled_from"])


def test_the_code_line_counter_leaves_out_docstrings_comments_and_blank_lines(tmp_path):
    tool = load_tool("count_code_lines")
    f = tmp_path / "m.py"
    f.write_text('"""Doc\nstring."""\n\n# a comment\nX = {"a": 1,\n     "b": 2}  # trailing\n\n\ndef f(x):\n'
                 '    """Doc."""\n    return x\n')
    assert tool.code_lines(f) == 4          # X = {..., ...} (2 lines), def f, return x


def test_the_tractor_takes_overrides_of_the_dbw_kit():
    tractor = vehicle_spec("maxxum150")
    p = tractor.load_parameters(None, "dbw.brake.lag_s=0.1;surfaces.sand.mu=0.3", None, None)
    assert tractor.dbw_parameters(p).brake_lag_s == 0.1
    assert tractor.dbw_parameters(tractor.load_parameters(None, None, None, None)).brake_lag_s != 0.1
    with pytest.raises(P.ParameterError, match=r"dbw.brake.lagg_s.*did you mean 'dbw.brake.lag_s'"):
        tractor.load_parameters(None, "dbw.brake.lagg_s=0.1", None, None)


def test_a_tractor_file_carrying_the_world_and_the_kit_keeps_them(tmp_path):
    """The tractor's file is assembled as the Ranger's: sections of its own are used, not ignored."""
    tree = json.loads((CONFIG / "maxxum150.json").read_text())
    world = json.loads((CONFIG / "world.json").read_text())
    tree.update(soils=world["soils"], surfaces=world["surfaces"],
                dbw=json.loads((CONFIG / "dbw_kit.json").read_text())["dbw"])
    tree["dbw"]["brake"]["lag_s"]["value"] = 0.123
    tree["surfaces"]["sand"]["mu"]["value"] = 0.31
    f = tmp_path / "tractor.json"
    f.write_text(json.dumps(tree))
    p = vehicle_spec("maxxum150").load_parameters(f, None, None, None)
    assert p.kit.brake_lag_s == 0.123
    assert p.surfaces[W.surface_index(p.surfaces, "sand")].mu == 0.31
    assert P.assembled_from(f) == [str(f.resolve())]


def test_an_old_tractor_file_with_its_dbw_mapping_is_refused_naming_the_new_keys(tmp_path):
    tree = json.loads((CONFIG / "maxxum150.json").read_text())
    tree["dbw"] = {"steering_ratio": tree["installation"]["steering_ratio"]}
    f = tmp_path / "old_tractor.json"
    f.write_text(json.dumps(tree))
    with pytest.raises(P.ParameterError, match="installation.steering_ratio") as exc:
        vehicle_spec("maxxum150").load_parameters(f, None, None, None)
    assert exc.value.key == "dbw.steering_ratio"


def test_a_file_naming_no_vehicle_is_read_as_the_rangers_and_says_so(tmp_path, capsys):
    tree = json.loads((CONFIG / "maxxum150.json").read_text())
    del tree["vehicle"]
    f = tmp_path / "anonymous.json"
    f.write_text(json.dumps(tree))
    with pytest.raises(P.ParameterError, match="the file names no vehicle and was read as the Ranger's"):
        load_parameters(f)
    from acres_dbw_sim import description
    assert description.main([str(f)]) == 2
    assert "error: " in (err := capsys.readouterr().err) and "the file names no vehicle and was read as the Ranger's" \
        in err
