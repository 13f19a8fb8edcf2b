"""The Ranger's step through the DBW in one compiled call: the DBW, then the vehicle.

:func:`ranger_dbw_step` runs what ``Simulation.step`` does for the full Polaris model (the
Physics Step of polaris-ranger-dynamics.md behind the DBW of dbw-interface.md), over the
arrays of both and without a Python call in between:

1. the DBW reads the vehicle (:func:`~acres_dbw_sim.dbw.state.measured_of_outputs`, from the
   vehicle's output array and its engine, belt, tank and lever state, as the attributes
   ``MeasuredState.read`` reads would give it),
2. the DBW's step with the Ranger's ULC plant (:func:`~acres_dbw_sim.vehicles.polaris.ulc_plant.dbw_step`),
3. the vehicle's step with the DBW's outputs as its inputs
   (:func:`~acres_dbw_sim.vehicles.polaris.vehicle.model_step`: lever, steering, powertrain,
   wheels, driveline, chassis).

The Python side (``Simulation.step``) then tells the vehicle that its outputs are new (its
attributes read them when asked, ``Vehicle.stepped``) and turns queued log events into texts, as
for the step in two calls. :func:`ranger_measured` alone is the DBW's reading for the reports
after a step (``Vehicle.dbw_reading``).
"""
from __future__ import annotations

from ...dbw.state import measured_of_outputs
from ...model._jit import njit
from ...model.enums import AwdSwitch, Gear
from ...model.stages import K_DT
from .gearbox import LV_GEAR, LV_REJECT, LV_REMAINING, LV_TARGET
from .ulc_plant import dbw_step
from .vehicle import _RAD_S_TO_RPM, S_FUEL, S_MODE, S_R, S_WE, model_step

__all__ = ["ranger_dbw_step", "ranger_measured"]

_LAST_GEAR = max(int(g) for g in Gear)
_LAST_MODE = max(int(m) for m in AwdSwitch)


@njit
def ranger_measured(S, out, s, lv) -> None:
    """Step 1: the DBW's reading of the Ranger (:func:`~acres_dbw_sim.dbw.state.measured_of_outputs`) from its
    output array ``out``, powertrain state ``s`` (vehicle.py ``S_*``: engine speed, belt ratio, tank, AWD switch)
    and lever ``lv`` (gearbox.py ``LV_*``); the Ranger has no manual gears."""
    measured_of_outputs(S, out, int(lv[LV_GEAR]), int(lv[LV_TARGET]), lv[LV_REMAINING] > 0.0, int(lv[LV_REJECT]), 0,
                        int(s[S_MODE]), s[S_WE] * _RAD_S_TO_RPM, s[S_R], s[S_FUEL])


@njit
def ranger_dbw_step(S, P, Q, dbw_curves, k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios,
                    t_s: float) -> tuple:
    """One step of the DBW and the Ranger at simulation time ``t_s`` [s] (module docstring).

    Parameters
    ----------
    S, P, Q, dbw_curves
        The DBW's record, its parameters and the ULC plant's record (one-element arrays,
        :mod:`acres_dbw_sim.dbw.record`) and the plant's engine curves (ulc_plant.py ``dbw_step``).
    k .. ratios
        The vehicle's arrays (``Vehicle.step_arrays``, the arguments of ``model_step`` before its inputs).
    t_s : float
        Simulation time at the start of the step [s].

    Returns
    -------
    tuple
        The DBW's outputs (pedal [-], line pressure [bar], steering-wheel angle [deg], gear request,
        drive mode, manual gear request), the number of queued log events, and False when the drive
        mode is not an AWD switch position (the vehicle is then not stepped; the caller raises).
    """
    ranger_measured(S, out, s, lv)
    pedal, bar, steer, gear, mode, manual, n_log = dbw_step(S, P, Q, dbw_curves, t_s, k[K_DT])
    if mode < 0 or mode > _LAST_MODE:
        return pedal, bar, steer, gear, mode, manual, n_log, False
    model_step(k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios, pedal, bar, steer,
               gear if 0 <= gear <= _LAST_GEAR else 0, mode)
    return pedal, bar, steer, gear, mode, manual, n_log, True
