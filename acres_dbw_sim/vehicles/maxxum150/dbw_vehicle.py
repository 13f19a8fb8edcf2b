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
reports comes from the tractor's attributes;
``gear`` reads as the lever position above, ``cvt_ratio`` as the overall ratio of the
present gear (its magnitude), ``last_gear_reject`` as VEHICLE_SPEED when a direction
change was refused.
"""
from __future__ import annotations

from typing import Callable

from ...dbw.record import record_array
from ...dbw.state import measured_of_outputs
from ...model._jit import specialise
from ...model.enums import AwdSwitch, Gear, GearReject
from ...model.terrain import Terrain
from .params import MaxxumParameters
from .steering import steering_command_rad
from .transmission import FORWARD, REVERSE
from .vehicle import S_FUEL, Tractor, TractorInputs

__all__ = ["DbwTractor", "tractor_dbw_parameters", "ULC_PLANT_SECTION"]


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

    def __init__(self, params: MaxxumParameters, terrain: Terrain, dt_s: float) -> None:
        self.tractor = Tractor(params, terrain, dt_s)
        self.params = params
        self.dt_s = self.tractor.dt_s
        self._in = TractorInputs()
        self.reset()

    def __getattr__(self, name: str):
        """Any other state quantity: the tractor's attribute of that name."""
        return getattr(self.__dict__["tractor"], name)

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
        """A call that writes the DBW ``dbw``'s reading of the tractor into its record: the motion, wheel and
        engine-torque quantities from the tractor's output array, compiled
        (:func:`~acres_dbw_sim.dbw.state.measured_of_outputs`), the lever, powershift gear, drive mode, engine
        speed, ratio and tank from this face's attributes: the record ``MeasuredState.read`` gives from the
        attributes, without reading each through them (``Simulation`` calls it before the DBW's step and the
        reports)."""
        S = record_array(dbw.state)
        t = self.tractor
        out = t._out
        entry = specialise(measured_of_outputs, (S, out, 0, 0, False, 0, 0, 0, 0.0, 0.0, 0.0))

        def read() -> None:
            setup = t._setup
            entry(S, out, int(self.gear), int(self.gear_target), bool(self.shift_in_progress),
                  int(self.last_gear_reject), int(t.gear), int(self.drive_mode), float(t.engine_rpm),
                  abs(setup.overall_ratio) if setup is not None else 0.0, float(t._s[S_FUEL]))
        return read

    @property
    def body(self):
        """The model on the shared core under this face (:class:`~.vehicle.Tractor`, a
        :class:`~acres_dbw_sim.model.body.VehicleBody`): the scenario recorder reads its arrays."""
        return self.tractor

    @property
    def cvt_ratio(self) -> float:
        """|i| of the present gear and direction [-] (the DBW reports it as the transmission ratio)."""
        setup = self.tractor._setup
        return abs(setup.overall_ratio) if setup is not None else 0.0

    @property
    def manual_gear(self) -> int:
        """The powershift gear 1..16 (``GearReport.gear_manual``)."""
        return self.tractor.gear

    @property
    def mass_kg(self) -> float:
        """The tractor's mass with a carried implement [kg]."""
        return self.tractor.mass.mass_kg


#: The section of the tractor's file with the figures of its ULC plant model, under the key paths the DBW
#: kit reads (``ulc_plant.engine.displacement_l`` -> ``engine.displacement_l``).
ULC_PLANT_SECTION = "ulc_plant."


def tractor_dbw_parameters(tp):
    """The DBW kit (``config/dbw_kit.json``) fitted to the Maxxum 150 through the kit's declared vehicle keys
    (``dbw.params.VEHICLE_KEYS``): the tractor's steering ratio (centre 0), wheelbase, rear tyre radius, tyre
    pressure, engine speeds, fuel tank and mass with a mounted implement, and the ``ulc_plant`` section of
    its file for the ULC's plant model.

    Parameters
    ----------
    tp : MaxxumParameters

    Returns
    -------
    acres_dbw_sim.dbw.params.DbwParameters

    Raises
    ------
    ParameterError
        A kit value or a vehicle figure outside the kit's range (naming the key).
    """
    from ...dbw.params import MASS_KEY, DbwParameters
    from ...model.params import kit_values
    e, ty = tp.engine, tp.tyres
    flat = kit_values(tp.kit_overrides)
    flat.update((k[len(ULC_PLANT_SECTION):], v) for k, v in tp.values.items() if k.startswith(ULC_PLANT_SECTION))
    flat.update({
        "steering.ratio": tp.dbw_steering_ratio, "steering.center_deg": 0.0,
        "geometry.wheelbase_m": tp.chassis.wheelbase_m, "tyres.radius_m": ty.rear_radius_m,
        "tyres.front_inflation_kpa": ty.inflation_pa / 1e3, "tyres.rear_inflation_kpa": ty.inflation_pa / 1e3,
        "engine.idle_rpm": e.idle_rpm, "engine.max_rpm": e.max_rpm, "fuel.tank_l": tp.fuel.tank_l,
        "dbw.gear.manual_gears": 16,
        MASS_KEY: tp.chassis.mass_kg + (tp.implement.mass_kg if tp.implement.attachment == "mounted" else 0.0)})
    return DbwParameters.from_mapping(flat)
