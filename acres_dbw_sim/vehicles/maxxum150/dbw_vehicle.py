"""The Maxxum 150 behind the Dataspeed DBW emulation: the mapping of the DBW's outputs onto the tractor.

The DBW emulation (``acres_dbw_sim.dbw``) drives a vehicle through the Ranger's
actuator outputs (``model.inputs.VehicleInputs``) and reads its state by attribute
name. :class:`DbwTractor` gives the tractor that face ("the same
interface"; docs/maxxum150.md "Behind the DBW"):

================================  ==============================================
DBW output                        Tractor control
================================  ==============================================
pedal 0..1 (throttle actuator)    engine command u (the governor's), the larger of
                                  it and the hand throttle
brake line pressure [bar]         b_k = P_line / ``installation.brake_full_bar``, 0..1
steering-wheel angle [deg]        delta_cmd = angle / ``installation.steering_ratio``
                                  (``steering.steering_command_rad``)
gear PARK                         park brake on, no drive
gear REVERSE / DRIVE or LOW       direction -1 / +1 (taken below
                                  ``transmission.direction_change_mps``; a refused
                                  request leaves the lever where it is)
gear NEUTRAL                      no drive
drive mode AWD / TWO_WD, TURF    MFD on / MFD off; the differential lock stays at
                                  ``transmission.diff_lock`` (an operator's switch
                                  for field work: locked axles resist turning)
================================  ==============================================

The powershift gear (1..16) starts at ``transmission.initial_gear``; ``GearCmd`` MANUAL
with ``cmd_manual`` = n selects gear n (the DBW's gear actuator, ``dbw.gear.manual_gears``
= 16, calls :meth:`DbwTractor.select_gear`; a powershift at any speed, the clutch opened
for the shift time), and ``GearReport.gear_manual`` reports the gear. The state the DBW
reports is the tractor's, as its attributes give it (read from its arrays by
:func:`tractor_measured`); ``gear`` reads as the lever position above, ``cvt_ratio`` as the
overall ratio of the present gear (its magnitude), ``last_gear_reject`` as VEHICLE_SPEED when
a direction change was refused.

The DBW and the tractor step in one compiled call (:func:`tractor_dbw_step`) whenever the DBW's
outputs leave the lever, the drive mode and the powershift gear as they are; any other step is
mapped by :meth:`DbwTractor.step` in Python after the same compiled DBW step
(docs/maxxum150.md, "Behind the DBW").
"""
from __future__ import annotations

from functools import partial
from typing import Callable

from ...dbw.record import record_array
from ...dbw.state import measured_of_outputs
from ...model._jit import array, njit, packed_call, specialise
from ...model.enums import AwdSwitch, Gear, GearReject
from ...model.stages import K_DT
from ...model.terrain import Terrain
from ...scenario.signals import compiled_row_writer, write_row
from ..polaris.ulc_plant import dbw_step
from .params import MaxxumParameters
from .steering import steering_command_rad
from .transmission import FORWARD, REVERSE
from .vehicle import (_RAD_S_TO_RPM, S_FUEL, S_WE, TV_DIRECTION, TV_GEAR, TV_IMPLEMENT, TV_SETUP, Tractor,
                      TractorInputs, present_ratio, tractor_advance)

__all__ = ["DbwTractor", "tractor_measured", "tractor_dbw_step", "tractor_dbw_tick",
           "tractor_write_row"]

# The face's state fv (DbwTractor attributes are views of it; the compiled step through the DBW reads it): the
# lever the DBW sees, its target, shift flag and last refusal, the drive mode, and the mapping's two figures.
F_GEAR = 0          # lever position (Gear: PARK, REVERSE, NEUTRAL, DRIVE)
F_TARGET = 1        # the lever's target (the lever: the tractor's direction changes at once)
F_SHIFTING = 2      # 1: the lever is moving (never: reported as the DBW sees it)
F_REJECT = 3        # last refusal (GearReject)
F_MODE = 4          # drive mode (AwdSwitch)
F_BRAKE_FULL = 5    # installation.brake_full_bar [bar]
F_STEER_RATIO = 6   # installation.steering_ratio [-]
N_FV = 7

_LAST_MODE = max(int(m) for m in AwdSwitch)
_PARK, _REVERSE, _NEUTRAL, _DRIVE, _LOW = (int(Gear.PARK), int(Gear.REVERSE), int(Gear.NEUTRAL), int(Gear.DRIVE),
                                           int(Gear.LOW))


def _fv_view(index: int, kind: type, doc: str) -> property:
    """A DbwTractor attribute stored in ``fv[index]`` (read as ``kind``)."""
    def get(self):
        return kind(int(self._fv[index]))

    def put(self, value) -> None:
        self._fv[index] = float(int(value))
    return property(get, put, doc=doc)


@njit
def tractor_measured(S, out, s, tv, fv) -> None:
    """The DBW's reading of the tractor (:func:`~acres_dbw_sim.dbw.state.measured_of_outputs`) from its output
    array ``out``, state ``s`` (vehicle.py ``S_*``), controls ``tv`` (``TV_*``: the powershift gear, the set-up's
    ratio) and this face's ``fv`` (``F_*``): the record ``MeasuredState.read`` gives from :class:`DbwTractor`'s
    attributes."""
    measured_of_outputs(S, out, int(fv[F_GEAR]), int(fv[F_TARGET]), fv[F_SHIFTING] != 0.0, int(fv[F_REJECT]),
                        int(tv[TV_GEAR]), int(fv[F_MODE]), s[S_WE] * _RAD_S_TO_RPM, present_ratio(tv), s[S_FUEL])


@njit
def tractor_write_row(data, i: int, t_s: float, out, led, s, tv, fv, pedal: float, brake_bar: float,
                      dbw_enabled: int, inv_fuel: float) -> None:
    """The scenario recorder's row ``data[i]`` at ``t_s`` [s] of the tractor behind this face after a step
    (:func:`~acres_dbw_sim.scenario.signals.write_row` with the engine speed from ``s``, the ratio of the set-up
    from ``tv``, the lever and drive mode from ``fv``: the attributes the recorder reads)."""
    w = s[S_WE]
    write_row(data, i, t_s, out, led, w * _RAD_S_TO_RPM, w, present_ratio(tv), int(fv[F_GEAR]), int(fv[F_MODE]),
              pedal, brake_bar, dbw_enabled, inv_fuel)


@njit
def lever_settled(fv, tv, gear_request: int, drive_mode: int, manual_request: int) -> bool:
    """True when the DBW's outputs change nothing of the lever, the drive mode or the powershift (no request, or
    a request for the lever's position in the tractor's present direction): :meth:`DbwTractor.step` would only
    map the pedal, brake and steering. Any other step is mapped in Python."""
    if manual_request != 0 or drive_mode != int(fv[F_MODE]):
        return False
    if gear_request not in (_REVERSE, _DRIVE, _LOW, _NEUTRAL, _PARK):
        return True
    want = _DRIVE if gear_request == _LOW else gear_request
    if want != int(fv[F_GEAR]):
        return False
    if want == _REVERSE:
        return int(tv[TV_DIRECTION]) == REVERSE
    if want == _DRIVE:
        return int(tv[TV_DIRECTION]) == FORWARD
    return True


@njit
def tractor_dbw_step(S, P, Q, dbw_curves, k, kt, curves, ke, td, chx, s, sw, wd, box, wh, dres, led, out, ext, buf,
                     tv, fv, t_s: float) -> tuple:
    """One step of the DBW and the tractor at simulation time ``t_s`` [s] in one compiled call, as
    ``Simulation.step`` runs the DBW and then :meth:`DbwTractor.step`: the DBW's reading
    (:func:`tractor_measured`), its step with the ULC's plant model
    (:func:`~acres_dbw_sim.vehicles.polaris.ulc_plant.dbw_step`), then, when the outputs leave the lever as
    it is (:func:`lever_settled`), the set-up is made and no implement acts, the mapping of the module
    docstring and :func:`~.vehicle.tractor_advance`.

    Parameters
    ----------
    S, P, Q, dbw_curves
        The DBW's record, its parameters, the ULC plant's record and its engine curves
        (``DbwSystem.step_arguments``).
    k .. tv
        The tractor's arrays (``Tractor.step_arrays``).
    fv : array (N_FV,) of float
        This face's state (``F_*``).

    Returns
    -------
    tuple
        The DBW's outputs (pedal [-], line pressure [bar], steering-wheel angle [deg], gear request, drive mode,
        manual gear request), the number of queued log events, False when the drive mode is not an AWD switch
        position (nothing stepped; the caller raises), and whether the tractor was stepped (False: the caller
        maps these outputs in Python, :meth:`DbwTractor.step`).
    """
    tractor_measured(S, out, s, tv, fv)
    pedal, bar, steer, gear, mode, manual, n_log = dbw_step(S, P, Q, dbw_curves, t_s, k[K_DT])
    if mode < 0 or mode > _LAST_MODE:
        return pedal, bar, steer, gear, mode, manual, n_log, False, False
    if not lever_settled(fv, tv, gear, mode, manual) or tv[TV_SETUP] == 0.0 or tv[TV_IMPLEMENT] != 0.0:
        return pedal, bar, steer, gear, mode, manual, n_log, True, False
    lever = int(fv[F_GEAR])
    tractor_advance(k, kt, curves, ke, td, chx, s, sw, wd, box, wh, dres, led, out, ext, buf, tv, pedal,
                    bar / fv[F_BRAKE_FULL], steering_command_rad(steer, fv[F_STEER_RATIO]),
                    lever == _PARK or lever == _NEUTRAL, lever == _PARK)
    return pedal, bar, steer, gear, mode, manual, n_log, True, True


@njit
def tractor_dbw_tick(pack, t_s: float) -> tuple:
    """:func:`tractor_dbw_step` with its arrays packed (``pack.args``: ``S .. fv``,
    :class:`~acres_dbw_sim.model._jit.Packed`): the call ``Simulation.step`` makes every step. Returns what
    :func:`tractor_dbw_step` returns."""
    return tractor_dbw_step(*pack.args, t_s)


class DbwTractor:
    """The tractor with the attributes and methods the DBW emulation and ``Simulation`` use.

    Parameters
    ----------
    params : MaxxumParameters
    terrain : Terrain
    dt_s : float
        Physics step [s].

    Attributes
    ----------
    tractor : Tractor
        The model; every attribute not listed here is read from it.
    gear : Gear
        The lever position the DBW sees (PARK, REVERSE, NEUTRAL, DRIVE).

    Raises
    ------
    ValueError
        As :class:`~.vehicle.Tractor`.
    """

    gear = _fv_view(F_GEAR, Gear, "The lever position the DBW sees.")
    gear_target = _fv_view(F_TARGET, Gear, "The lever's target.")
    shift_in_progress = _fv_view(F_SHIFTING, bool, "The lever is moving.")
    last_gear_reject = _fv_view(F_REJECT, GearReject, "The last gear request refused, and why.")
    drive_mode = _fv_view(F_MODE, AwdSwitch, "The drive mode (AWD switch position).")

    def __init__(self, params: MaxxumParameters, terrain: Terrain, dt_s: float) -> None:
        self.__dict__["_fv"] = array([0.0] * N_FV)
        self._fv[F_BRAKE_FULL] = params.dbw_brake_full_bar
        self._fv[F_STEER_RATIO] = params.dbw_steering_ratio
        self.tractor = Tractor(params, terrain, dt_s)
        self.params = params
        self.dt_s = self.tractor.dt_s
        self._in = TractorInputs()
        self.reset()

    def __getattr__(self, name: str):
        """Any other state quantity: the tractor's attribute of that name (AttributeError before there is a
        tractor: an object that a copy is still building)."""
        tractor = self.__dict__.get("tractor")
        if tractor is None:
            raise AttributeError(name)
        return getattr(tractor, name)

    def reset(self, x_m: float = 0.0, y_m: float = 0.0, yaw_rad: float = 0.0, speed_mps: float = 0.0,
              gear: Gear = Gear.PARK, drive_mode: AwdSwitch = AwdSwitch.AWD) -> None:
        """Reset the tractor at a pose with the lever at ``gear`` and the drive mode's MFD and locks.

        Raises
        ------
        ValueError
            If ``gear`` is not PARK, REVERSE, NEUTRAL, DRIVE or LOW.
        """
        gear = Gear(gear)
        if gear not in (Gear.PARK, Gear.REVERSE, Gear.NEUTRAL, Gear.DRIVE, Gear.LOW):
            raise ValueError(f"gear={gear!r}: a lever position (P R N D L)")
        direction = REVERSE if gear == Gear.REVERSE else FORWARD
        self.tractor.reset(x_m, y_m, yaw_rad, speed_mps, direction=direction)
        self._in.gear_request = 0                   # a gear selected before the reset is not carried over
        self.gear = Gear.DRIVE if gear == Gear.LOW else gear
        self.gear_target = self.gear
        self.shift_in_progress = False
        self.last_gear_reject = GearReject.NONE
        self.drive_mode = AwdSwitch(drive_mode)
        self._apply_drive_mode(self.drive_mode)

    def select_gear(self, gear: int) -> None:
        """Request powershift gear 1..16 for the next step (a gear change under load, page "Transmission")."""
        self._in.gear_request = int(gear)

    def _apply_drive_mode(self, mode: AwdSwitch) -> None:
        """AWD: MFD on; TWO_WD and TURF: MFD off (the differential lock is not the DBW's)."""
        self.tractor.set_drive(front_drive=mode == AwdSwitch.AWD)

    def step(self, inputs) -> None:
        """One step with the DBW's outputs (``model.inputs.VehicleInputs``) mapped as the module docstring says."""
        t = self.tractor
        inp = self._in
        request = inputs.gear_request
        inp.direction_request = 0
        if request in (Gear.REVERSE, Gear.DRIVE, Gear.LOW, Gear.NEUTRAL, Gear.PARK):
            want = Gear.DRIVE if request == Gear.LOW else Gear(request)
            if want in (Gear.REVERSE, Gear.DRIVE):
                direction = REVERSE if want == Gear.REVERSE else FORWARD
                if direction != t.direction and abs(t.speed_mps) >= self.params.transmission.direction_change_mps:
                    self.last_gear_reject = GearReject.VEHICLE_SPEED
                    want = self.gear
                else:
                    inp.direction_request = direction
            if want != self.gear:
                self.gear = want
                self.last_gear_reject = GearReject.NONE
        self.gear_target = self.gear
        if inputs.drive_mode != self.drive_mode:
            self.drive_mode = AwdSwitch(inputs.drive_mode)
            self._apply_drive_mode(self.drive_mode)
        inp.throttle = inputs.pedal
        inp.brake = inputs.brake_line_bar / self.params.dbw_brake_full_bar
        inp.steering_rad = steering_command_rad(float(inputs.steering_wheel_deg), self.params.dbw_steering_ratio)
        inp.park_brake = self.gear == Gear.PARK
        inp.neutral = self.gear in (Gear.PARK, Gear.NEUTRAL)
        t.step(inp)
        inp.gear_request = 0

    def dbw_reading(self, dbw) -> Callable[[], None]:
        """A call that writes the DBW ``dbw``'s reading of the tractor into its record, from the arrays and
        compiled (:func:`tractor_measured`: the record ``MeasuredState.read`` gives from the attributes, without
        reading each through them): for the reports after a step and a step in Python."""
        t = self.tractor
        args = (record_array(dbw.state), t._out, t._s, t._tv, self._fv)
        return partial(specialise(tractor_measured, args), *args)

    def dbw_step(self, dbw) -> tuple:
        """``(step, arguments)``: :func:`tractor_dbw_step` over the DBW ``dbw``'s arrays and the tractor's, packed
        once (:func:`tractor_dbw_tick`, :func:`~acres_dbw_sim.model._jit.packed_call`), and those arguments;
        ``Simulation.step`` calls ``step(t_s)``."""
        args = dbw.step_arguments() + self.tractor.step_arrays() + (self._fv,)
        return packed_call(tractor_dbw_tick, args, 0.0), args

    def row_writer(self, inv_fuel: float) -> Callable:
        """The scenario recorder's compiled row (:func:`tractor_write_row`): ``write(data, i, t_s, pedal, brake_bar,
        dbw_enabled)`` fills ``data[i]`` (rows x len(COLUMNS)) after a step; ``inv_fuel`` is 1 / (heating value
        times density) [l/J] (:func:`~acres_dbw_sim.scenario.signals.compiled_row_writer`)."""
        t = self.tractor
        return compiled_row_writer(tractor_write_row, (t._out, t._led, t._s, t._tv, self._fv), inv_fuel)

    def stepped(self) -> None:
        """After :func:`tractor_dbw_step` stepped the tractor: its clock and attributes
        (:meth:`~.vehicle.Tractor.stepped`)."""
        self.tractor.stepped()

    @property
    def cvt_ratio(self) -> float:
        """|i| of the present gear and direction [-] (the DBW reports it as the transmission ratio; 0 before
        the first step after a change has made the set-up)."""
        return float(present_ratio(self.tractor._tv))

    @property
    def manual_gear(self) -> int:
        """The powershift gear 1..16 (``GearReport.gear_manual``)."""
        return self.tractor.gear

    @property
    def mass_kg(self) -> float:
        """The tractor's mass with a carried implement [kg]."""
        return self.tractor.mass.mass_kg
