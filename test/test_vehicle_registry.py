"""The vehicle registry: one table the simulation, the node and the replay look a vehicle up in."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from acres_dbw_sim.simulation import VEHICLES, Simulation
from acres_dbw_sim.vehicles import REGISTRY, VehicleSpec, register, vehicle_spec

PACKAGE = Path(__file__).resolve().parents[1] / "acres_dbw_sim"
#: Files that still choose a vehicle by its name (to move behind the registry); the list only shrinks.
NOT_YET: set = set()


def test_the_registry_names_every_vehicle_and_refuses_others():
    assert VEHICLES == tuple(REGISTRY) == ("polaris", "maxxum150")
    assert vehicle_spec("maxxum150").display_name == "Case IH Maxxum 150"
    with pytest.raises(ValueError, match="vehicle='tractor': must be one of polaris, maxxum150"):
        vehicle_spec("tractor")
    with pytest.raises(TypeError):
        register("maxxum150")
    with pytest.raises(TypeError, match="the row needs dimensions, installation, surfaces, mass_summary"):
        register(dataclasses.replace(vehicle_spec("polaris"), name="bare", dimensions=None, installation=None,
                                     surfaces=None, mass_summary=None))
    assert "bare" not in REGISTRY


@pytest.mark.parametrize("name", list(REGISTRY))
def test_a_simulation_is_built_from_its_row(name):
    spec = vehicle_spec(name)
    sim = Simulation(vehicle=name)
    assert sim.reports().vin == spec.vin
    assert type(sim.params) is type(spec.load_parameters(None, None, None, None))
    if spec.build_kinematic is None:
        with pytest.raises(ValueError, match="full model only"):
            Simulation(vehicle=name, model="kinematic")


def test_a_row_registered_at_run_time_is_simulated_without_a_production_change():
    """A third name for the Ranger's parts with another VIN: Simulation takes it through the registry."""
    spec = dataclasses.replace(vehicle_spec("polaris"), name="ranger_test", display_name="Test Ranger",
                               build_kinematic=None, vin="1FTEST00000000001")
    register(spec)
    try:
        sim = Simulation(vehicle="ranger_test")
        sim.step()
        assert sim.reports().vin == "1FTEST00000000001"
    finally:
        del REGISTRY["ranger_test"]


def test_no_vehicle_name_is_compared_outside_the_registry():
    compared = re.compile(r"""(==|!=|startswith\()\s*["'](polaris|maxxum150)["']"""
                          r"""|["'](polaris|maxxum150)["']\s*(==|!=)""")
    found = set()
    for f in PACKAGE.rglob("*.py"):
        rel = f.relative_to(PACKAGE).as_posix()
        if rel.startswith("vehicles/"):
            continue
        if compared.search(f.read_text(encoding="utf-8")):
            found.add(rel)
    assert found <= NOT_YET, sorted(found - NOT_YET)


def test_a_parameter_file_names_its_vehicle_and_another_loader_refuses_it():
    from acres_dbw_sim.model.params import ParameterError, file_vehicle
    tractor_file = vehicle_spec("maxxum150").load_parameters(None, None, None, None).source_path
    assert file_vehicle(tractor_file) == "maxxum150"
    with pytest.raises(ParameterError, match=r"parameter file of vehicle 'maxxum150' .*not of 'polaris': "
                                             r"give vehicle 'maxxum150'"):
        vehicle_spec("polaris").load_parameters(tractor_file, None, None, None)
    ranger_file = vehicle_spec("polaris").load_parameters(None, None, None, None).source_path
    with pytest.raises(ParameterError, match="parameter file of vehicle 'polaris'"):
        vehicle_spec("maxxum150").load_parameters(ranger_file, None, None, None)


def test_a_scenario_given_only_the_tractors_file_runs_the_tractor(tmp_path):
    """No ``type``: the file's ``vehicle`` key chooses the loader (it used to fail on a Ranger key)."""
    from acres_dbw_sim.scenario import load_scenario
    tractor_file = vehicle_spec("maxxum150").load_parameters(None, None, None, None).source_path
    f = tmp_path / "t.yaml"
    f.write_text(f"name: t\nduration_s: 1\nvehicle: {{parameters: {tractor_file}}}\n")
    sc = load_scenario(f)
    assert sc.vehicle_type == "maxxum150" and sc.params.vehicle == "maxxum150"


def test_the_urdf_tool_reads_a_file_with_its_vehicles_loader(tmp_path, capsys):
    from acres_dbw_sim import description
    tractor_file = vehicle_spec("maxxum150").load_parameters(None, None, None, None).source_path
    copy = tmp_path / "my_tractor.json"          # the name says nothing: the file's key does
    copy.write_text(Path(tractor_file).read_text())
    assert description.main([str(copy)]) == 0
    assert '<robot name="case_ih_maxxum_150">' in capsys.readouterr().out


def test_no_module_outside_vehicles_imports_a_vehicles_own_module():
    """The core, the DBW, the node and the tools reach a vehicle through the registry (its row's loader,
    builder, kit fit, ULC plant, figures), not by importing its modules."""
    import ast
    found = set()
    for f in PACKAGE.rglob("*.py"):
        rel = f.relative_to(PACKAGE).as_posix()
        if rel.startswith("vehicles/"):
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(re.search(r"(^|\.)vehicles\.(?!registry\b)\w+", n) for n in names):
                found.add(rel)
    assert not found, sorted(found)
