"""Parameter sweeps and Monte Carlo: the parameter file's uncertainty, run through scenarios.

``acres-sweep SWEEP.yaml`` draws samples of the parameters that
``config/polaris.json`` marks uncertain (``sd`` or ``range``), runs the
sweep's scenarios once per sample (headless, :mod:`acres_dbw_sim.scenario`),
and writes a table of samples x metrics, a summary per metric, a sensitivity
ranking of the parameters and plots. The format and outputs are documented in
``docs/sweeps.md``; ``sweeps/`` holds examples.

>>> from acres_dbw_sim.sweep import load_sweep, run_sweep
>>> sw = load_sweep("sweeps/braking_uncertainty.yaml")      # ScenarioError if invalid
>>> res = run_sweep(sw, "out/braking", engine="local", jobs=2)
>>> res.summary["metrics"]["stopping_distance_m"]["summary"]["q95"]

Modules: :mod:`.spec` (sweep file, distributions), :mod:`.design` (Monte
Carlo, LHS, Sobol', grid; checks of each draw), :mod:`.worker` (one sample's
runs), :mod:`.engines` (local processes, Ray), :mod:`.store` (streamed,
resumable results), :mod:`.analysis` (statistics, SRC, Sobol' indices),
:mod:`.plots`, :mod:`.cli` (``acres-sweep``). Ray is imported only by the Ray
engine.
"""
from .cli import SweepOutcome, main, run_sweep
from .spec import ParamSpec, ScenarioSpec, Sweep, load_sweep

__all__ = ["main", "run_sweep", "load_sweep", "Sweep", "SweepOutcome", "ParamSpec", "ScenarioSpec"]
