"""Calibration from logs: fit the vehicle's parameters to a recorded bag of the real vehicle.

>>> from acres_dbw_sim.calibrate import calibrate
>>> cal = calibrate("drive_01", out_dir="cal/drive_01", replay_params={"surface": "gravel"})
>>> cal.overrides                        # key=value;... for node, scenario runner and replay

Modules: :mod:`.keys` (fit variables, groups, bounds), :mod:`.segments`
(segments by excitation and their open-loop replay through
:func:`acres_dbw_sim.replay.run_replay`), :mod:`.fit` (least squares, dead-time
grid, standard errors), :mod:`.core` (:func:`calibrate`), :mod:`.report`
(outputs), :mod:`.field` (a generated field bag), :mod:`.cli`
(``acres-calibrate``). Documented in ``docs/calibration.md``.
"""
from .cli import main
from .core import CalibrationResult, calibrate
from .field import field_scenario_yaml, make_field_bag
from .keys import GROUPS, CalibrationError, FitVar

__all__ = ["main", "calibrate", "CalibrationResult", "CalibrationError", "FitVar", "GROUPS",
           "field_scenario_yaml", "make_field_bag"]
