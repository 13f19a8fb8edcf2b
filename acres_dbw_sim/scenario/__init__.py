"""Headless scenario runner: a YAML scenario in; a CSV time series, a summary and plots out.

Drives the same :class:`~acres_dbw_sim.simulation.Simulation` the ROS node
steps (vehicle model + DBW emulation + terrain), deterministically and as fast
as the CPU allows, without ROS. The format is documented in
``docs/scenarios.md``; ``scenarios/`` holds examples and the reference's
Model Tests.

>>> from acres_dbw_sim.scenario import load_scenario, run_scenario, write_outputs
>>> sc = load_scenario("scenarios/wot_high.yaml", sets="duration_s=5")
>>> res = run_scenario(sc)
>>> res.metrics, res.column("speed_mps")[-1]
>>> write_outputs(res, "out/wot_high", plots=True)

Modules: :mod:`.source` (YAML with line numbers, ``--set``, the error type),
:mod:`.schema` (validation), :mod:`.validated` (the :class:`Scenario` it
makes), :mod:`.signals` (CSV columns, conditions, metrics), :mod:`.runner`
(the stepping loops, outputs), :mod:`.plots` (matplotlib), :mod:`.cli`
(``acres-scenario``).
"""
from .cli import main
from .runner import RunResult, run_scenario, write_outputs
from .schema import load_scenario
from .signals import COLUMN_NAMES, COLUMNS
from .source import ScenarioError
from .validated import Scenario

__all__ = ["main", "load_scenario", "run_scenario", "write_outputs", "Scenario", "RunResult", "ScenarioError",
           "COLUMNS", "COLUMN_NAMES"]
