"""The Ranger's steps through the DBW in one compiled call each (the full model and the kinematic level):
the DBW, then the vehicle.

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

:func:`kinematic_dbw_step` is the same for the kinematic level (kinematic.py: the reading from its output
array, which ``kinematic_outputs`` fills in the full model's layout, then ``kinematic_advance``, the tick
``KinematicVehicle.step`` runs). The ``*_tick`` functions take the arrays packed once
(:class:`~acres_dbw_sim.model._jit.Packed`): the call ``Simulation.step`` makes.

:func:`ranger_dbw_run` is the headless loop over that step between two entries of a scenario's
timeline (``Simulation.run_recorded``, the scenario runner): the streamed commands re-sent at their
rate as the kept decodings (:func:`~acres_dbw_sim.dbw.resend.store_kept`), the step, the recorder's
row (:func:`~acres_dbw_sim.scenario.signals.write_row`) and the stop conditions
(:func:`~acres_dbw_sim.scenario.signals.first_met`), with no Python call in between.
"""
from __future__ import annotations

from ...dbw.state import measured_of_outputs
from ...dbw.resend import store_kept
from ...dbw.system import dbw_enabled_of
from ...model._jit import njit
from ...model.enums import AwdSwitch, Gear
from ...model.stages import K_DT
from .gearbox import LV_GEAR, LV_REJECT, LV_REMAINING, LV_TARGET
from ...scenario.signals import first_met, write_row
from .kinematic import KV_DRIVE_MODE, KV_DT_S, kinematic_advance
from .ulc_plant import dbw_step
from .vehicle import _RAD_S_TO_RPM, S_FUEL, S_MODE, S_R, S_WE, model_step

__all__ = ["ranger_dbw_step", "ranger_dbw_tick", "ranger_measured", "ranger_dbw_run", "ranger_write_row",
           "kinematic_measured", "kinematic_dbw_step", "kinematic_dbw_tick"]

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
def ranger_write_row(data, i: int, t_s: float, out, led, s, lv, pedal: float, brake_bar: float, dbw_enabled: int,
                     inv_fuel: float) -> None:
    """The scenario recorder's row ``data[i]`` at ``t_s`` [s] of the Ranger after a step
    (:func:`~acres_dbw_sim.scenario.signals.write_row` with its engine speed, belt ratio, lever and AWD switch
    from ``s`` and ``lv``): the headless loop's rows and ``Vehicle.row_writer``'s."""
    w = s[S_WE]
    write_row(data, i, t_s, out, led, w * _RAD_S_TO_RPM, w, s[S_R], int(lv[LV_GEAR]), int(s[S_MODE]), pedal,
              brake_bar, dbw_enabled, inv_fuel)


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
        drive mode, manual gear request), the number of queued log events, False when the drive
        mode is not an AWD switch position (the vehicle is then not stepped; the caller raises), and whether
        the vehicle was stepped (the Ranger always is when the mode is valid; ``Simulation.step``'s protocol).
    """
    ranger_measured(S, out, s, lv)
    pedal, bar, steer, gear, mode, manual, n_log = dbw_step(S, P, Q, dbw_curves, t_s, k[K_DT])
    if mode < 0 or mode > _LAST_MODE:
        return pedal, bar, steer, gear, mode, manual, n_log, False, False
    model_step(k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios, pedal, bar, steer,
               gear if 0 <= gear <= _LAST_GEAR else 0, mode)
    return pedal, bar, steer, gear, mode, manual, n_log, True, True


@njit
def ranger_dbw_tick(pack, t_s: float) -> tuple:
    """:func:`ranger_dbw_step` with its arrays packed (``pack.args``: ``S .. ratios``,
    :class:`~acres_dbw_sim.model._jit.Packed`): the call ``Simulation.step`` makes every step, converting one
    value from Python instead of some thirty. Returns what :func:`ranger_dbw_step` returns."""
    return ranger_dbw_step(*pack.args, t_s)


@njit
def ranger_dbw_run(S, P, Q, dbw_curves, k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios,
                   step0: int, step_end: int, dt_s: float, vehicle_t_s: float, slots, kept, next_send: float,
                   send_period: float, data, i_row: int, every: int, n_steps: int, inv_fuel: float, stops) -> tuple:
    """Steps ``step0`` .. ``step_end - 1`` of a headless run through the DBW (module docstring), each as
    the scenario runner's loop does it: the re-sends due, :func:`ranger_dbw_step`, the row.

    Parameters
    ----------
    S .. ratios
        As :func:`ranger_dbw_step`.
    step0, step_end : int
        The first step to run and the step to stop before (the next timeline entry's, or the run's end).
    dt_s : float
        Step [s]; step ``j`` starts at ``j * dt_s`` (``Simulation.time_s``).
    vehicle_t_s : float
        The vehicle's own clock [s], advanced by ``dt_s`` each step (``Vehicle.stepped``).
    slots, kept : arrays (n,) of int, (n, >= 11) of float
        The streamed commands re-sent, in their send order: status slot and kept decoding
        (``DbwSystem.kept_command``).
    next_send, send_period : float
        The re-sends' next step (they go out at the first step ``j >= next_send - 1e-9``) and period [steps]
        (``TimelinePlayer``).
    data : array (rows x len(COLUMNS)) of float
        The run's rows; ``i_row`` is the next row to write.
    every, n_steps : int
        A row every ``every`` steps and after the run's last step ``n_steps``.
    inv_fuel : float
        1 / (heating value times density) [l/J] (``RowReader``).
    stops : array (m, 5) of float
        The stop conditions (:func:`~acres_dbw_sim.scenario.signals.stop_table`): with any, the row is written
        after every step and tested.

    Returns
    -------
    tuple
        ``(steps, i_row, next_send, vehicle_t_s, pedal, bar, steer, gear, mode, manual, n_log, ok, met)``:
        the steps run so far (``step_end`` unless the loop stopped early), the next row, the re-sends' next
        step, the vehicle's clock, the last step's DBW outputs and log count as :func:`ranger_dbw_step`
        returns them, and the index of the stop condition met (-1: none). The loop stops after a step that
        queued log events or asks for a manual gear (Python handles them as after ``Simulation.step``),
        before counting a step whose drive mode is not an AWD switch position (``ok`` False: the vehicle was
        not stepped), and after the row that met a stop condition.
    """
    kk = step0
    pedal = bar = steer = 0.0
    gear = mode = manual = n_log = 0
    met = -1
    has_stops = stops.shape[0] > 0
    while kk < step_end:
        t_s = kk * dt_s
        if kk >= next_send - 1e-9:
            for j in range(slots.shape[0]):
                store_kept(S, int(slots[j]), t_s, kept[j])
            next_send += send_period
        pedal, bar, steer, gear, mode, manual, n_log, ok, _stepped = ranger_dbw_step(
            S, P, Q, dbw_curves, k, kp, curves, td, chx, s, sw, wd, box, wh, dres, led, out, lv, ratios, t_s)
        if not ok:
            return kk, i_row, next_send, vehicle_t_s, pedal, bar, steer, gear, mode, manual, n_log, False, met
        vehicle_t_s += dt_s
        kk += 1
        due = kk % every == 0 or kk == n_steps
        if due or has_stops:
            ranger_write_row(data, i_row, kk * dt_s, out, led, s, lv, pedal, bar, 1 if dbw_enabled_of(S) else 0,
                             inv_fuel)
            if has_stops:
                met = first_met(data[i_row], stops)
                if met >= 0:
                    return (kk, i_row + 1, next_send, vehicle_t_s, pedal, bar, steer, gear, mode, manual, n_log, True,
                            met)
            if due:
                i_row += 1
        if n_log or manual:
            break
    return kk, i_row, next_send, vehicle_t_s, pedal, bar, steer, gear, mode, manual, n_log, True, met


# ------------------------------------------------------------------ the kinematic level
_NAN = float("nan")


@njit
def kinematic_measured(S, out, lv, kv) -> None:
    """The DBW's reading of the kinematic level (:func:`~acres_dbw_sim.dbw.state.measured_of_outputs`) from its
    output array ``out`` (the full model's layout, kinematic.py ``kinematic_outputs``), lever ``lv`` and state
    ``kv`` (its drive mode); no engine, belt or tank: NaN, which the reading takes as 0 (the fuel as NaN)
    (the vehicle state the DBW measures, dbw-interface.md; units of ``dbw/state.py`` ``STATE``)."""
    measured_of_outputs(S, out, int(lv[LV_GEAR]), int(lv[LV_TARGET]), lv[LV_REMAINING] > 0.0, int(lv[LV_REJECT]), 0,
                        int(kv[KV_DRIVE_MODE]), _NAN, _NAN, _NAN)


@njit
def kinematic_dbw_step(S, P, Q, dbw_curves, td, p, u, s, lv, kv, out, t_s: float) -> tuple:
    """One step of the DBW and the kinematic level at simulation time ``t_s`` [s], as ``Simulation.step`` runs
    the DBW and then ``KinematicVehicle.step``: the reading (:func:`kinematic_measured`), the DBW's step with the
    Ranger's ULC plant (:func:`~acres_dbw_sim.vehicles.polaris.ulc_plant.dbw_step`), then the tick with its
    outputs (kinematic.py ``kinematic_advance``).

    Parameters
    ----------
    S, P, Q, dbw_curves
        As :func:`ranger_dbw_step`.
    td .. out
        The kinematic vehicle's arrays (``KinematicVehicle._arrays``).

    Returns
    -------
    tuple
        As :func:`ranger_dbw_step`.
    """
    kinematic_measured(S, out, lv, kv)
    pedal, bar, steer, gear, mode, manual, n_log = dbw_step(S, P, Q, dbw_curves, t_s, kv[KV_DT_S])
    if mode < 0 or mode > _LAST_MODE:
        return pedal, bar, steer, gear, mode, manual, n_log, False, False
    kinematic_advance(td, p, u, s, lv, kv, out, pedal, bar, steer, gear if 0 <= gear <= _LAST_GEAR else 0, mode)
    return pedal, bar, steer, gear, mode, manual, n_log, True, True


@njit
def kinematic_dbw_tick(pack, t_s: float) -> tuple:
    """:func:`kinematic_dbw_step` with its arrays packed (``pack.args``: ``S .. out``,
    :class:`~acres_dbw_sim.model._jit.Packed`): the call ``Simulation.step`` makes every step."""
    return kinematic_dbw_step(*pack.args, t_s)
