"""The vehicle registry: one table the simulation, the node and the replay look a vehicle up in."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from acres_dbw_sim.simulation import VEHICLES, Simulation
from acres_dbw_sim.vehicles import REGISTRY, VehicleSpec, register, vehicle_spec

PACKAGE = Path(__file__).resolve().parents[1] / "acres_dbw_sim"
#: Files that still choose a vehicle by its name (to move behind the registry); the list only shrinks.
NOT_YET = {"scenario/schema.py", "scenario/runner.py", "description.py"}


def test_the_registry_names_every_vehicle_and_refuses_others():
    assert VEHICLES == tuple(REGISTRY) == ("polaris", "maxxum150")
    assert vehicle_spec("maxxum150").display_name == "Case IH Maxxum 150"
    with pytest.raises(ValueError, match="vehicle='tractor': must be one of polaris, maxxum150"):
        vehicle_spec("tractor")
    with pytest.raises(TypeError):
        register("maxxum150")


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
    ranger = vehicle_spec("polaris")
    spec = VehicleSpec("ranger_test", "Test Ranger", ranger.load_parameters, ranger.build, None,
                       ranger.dbw_parameters, "1FTEST00000000001", carries_payload=True)
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
