"""The simulation: vehicle model + drive-by-wire + terrain, stepped deterministically.

This is the object both the ROS node and a headless scenario runner drive:

>>> sim = Simulation()                       # shipped parameters, level asphalt
>>> sim.submit(ENABLE)
>>> sim.submit(UlcCmd(cmd=5.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True))
>>> sim.step()                               # one physics step
>>> rep = sim.reports()                      # every DBW report at sim.time_s

One ``step`` follows the Physics Step of polaris-ranger-dynamics.md: the DBW
(actuators, ULC, gear) first, then the model (steering, powertrain, wheels,
driveline, chassis) with the DBW's outputs as its inputs. Commands carry their
arrival time; by default the present simulation time. Nothing here is random,
so the same calls give the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from .dbw.commands import DISABLE, ENABLE, STEERING_CALIBRATE
from .dbw.params import DbwParameters
from .dbw.state import DbwOutputs, DbwReports, DriverInput
from .dbw.system import DbwSystem
from .model.enums import AwdSwitch, Gear
from .model.terrain import FlatTerrain, Terrain
from .model.inputs import VehicleInputs
from .vehicles import REGISTRY, vehicle_spec

#: the DBW's integer gear request and AWD switch as the model's enums (a lookup, not an enum call per step)
_GEAR_OF = {int(g): g for g in Gear}
_DRIVE_MODE_OF = {int(m): m for m in AwdSwitch}

__all__ = ["Simulation", "RecordedStart", "ENABLE", "DISABLE", "STEERING_CALIBRATE", "MODELS", "VEHICLES"]

#: Model levels behind the DBW: the full Polaris model, or the kinematic one (vehicles/polaris/kinematic.py).
MODELS = ("full", "kinematic")
#: Vehicles behind the DBW, by public name: the registry's (acres_dbw_sim.vehicles.REGISTRY).
VEHICLES = tuple(REGISTRY)


@dataclass(frozen=True)
class RecordedStart:
    """The state a recording gives at the moment a replay starts, beyond pose, speed and gear.

    A reset starts the DBW at power-on (actuators released) and the model at
    the reference's reset state. A replay started in the middle of a recording
    (a calibration segment) needs the vehicle as it was there: the brake
    holding it on a slope, the throttle pressed, the wheels slipping, the
    engine above idle. Each field is the recorded report's value; None keeps
    the reset's.

    Attributes
    ----------
    brake_bar : float or None
        Brake pressure output [bar] (``brake/report`` ``pressure_output``).
    pedal_pct : float or None
        Throttle pedal output [%] (``throttle/report`` ``percent_output``).
    steering_wheel_deg : float or None
        Reported steering-wheel angle [deg] (``steering/report``; the report's
        offset is taken off to give the servo's raw angle).
    wheel_spin_rad_s : tuple of 4 float or None
        FL, FR, RL, RR [rad/s] (``wheel_speeds``).
    engine_rpm : float or None
        Engine speed [rpm] (``throttle/info``).
    """

    brake_bar: float | None = None
    pedal_pct: float | None = None
    steering_wheel_deg: float | None = None
    wheel_spin_rad_s: tuple | None = None
    engine_rpm: float | None = None


class Simulation:
    """Vehicle model, DBW emulation and terrain behind one deterministic step.

    Parameters
    ----------
    params : optional
        The vehicle's parameters (default: its registry row's loader, the shipped file).
    terrain : Terrain, optional
        Default: level asphalt.
    dt_s : float
        Physics step [s], 1/1000 to 1/60 (default 1/120, the reference's).
    dbw_params : DbwParameters, optional
        DBW parameters; default read from ``params`` (``dbw.*`` keys, vehicle
        mass with occupants and cargo).
    gear : Gear, optional
        Initial lever position (default PARK).
    drive_mode : AwdSwitch, optional
        Initial AWD switch (default AWD).
    vehicle : str
        A name of the vehicle registry (:data:`acres_dbw_sim.vehicles.REGISTRY`): ``polaris`` (default) or
        ``maxxum150`` (the tractor, full model only); its row loads the default ``params``, builds the
        model, fits the DBW kit (``dbw_params`` default) and gives the VIN.
    model : str
        ``full`` (default) or ``kinematic`` (:class:`~acres_dbw_sim.vehicles.polaris.kinematic.KinematicVehicle`,
        parameters from the file's ``kinematic`` block): the same DBW emulation on top; the reports'
        fields the kinematic level has no quantity for (``kinematic.UNAVAILABLE``: engine speed,
        engine torque, transmission ratio; and the fuel level, its ``fuel_l`` being NaN) are NaN, the
        DBW's "invalid".

    Attributes
    ----------
    vehicle : acres_dbw_sim.vehicles.polaris.vehicle.Vehicle or KinematicVehicle
        The model; its attributes are the vehicle state (read-only for callers).
    dbw : DbwSystem
        The drive-by-wire emulation.
    time_s : float
        Simulation time [s] at the start of the next step.

    Raises
    ------
    ValueError
        For a step outside 1/1000..1/60 s, an unknown ``model`` or ``vehicle``, or the kinematic tractor.
    ParameterError
        ``model="kinematic"`` with no valid ``kinematic`` block in the parameters.

    Notes
    -----
    A simulation copies (``copy.deepcopy``) and pickles: the copy has its own arrays and compiled step (loaded
    from numba's cache) and, given the same commands, steps exactly as the original from where it was copied
    (a branch for look-ahead or a rollout).
    """

    def __init__(self, params: object | None = None, terrain: Terrain | None = None,
                 dt_s: float = 1.0 / 120.0, dbw_params: DbwParameters | None = None,
                 gear: Gear = Gear.PARK, drive_mode: AwdSwitch = AwdSwitch.AWD, model: str = "full",
                 vehicle: str = "polaris") -> None:
        if model not in MODELS:
            raise ValueError(f"model={model!r}: must be one of {', '.join(MODELS)}")
        spec = vehicle_spec(vehicle)
        build = spec.build if model == "full" else spec.build_kinematic
        if build is None:
            raise ValueError(f"model={model!r} for vehicle {vehicle!r}: not available yet (full model only)")
        self.model = model
        self.vehicle_name = vehicle
        self.terrain = terrain if terrain is not None else FlatTerrain()
        self.params = params if params is not None else spec.load_parameters(None, None, None, None)
        self.vehicle = build(self.params, self.terrain, dt_s)
        self.dt_s = self.vehicle.dt_s
        dp = dbw_params if dbw_params is not None else spec.dbw_parameters(self.params)
        self.dbw = DbwSystem(dp, self.dt_s, vin=spec.vin, ulc_plant=spec.ulc_plant)
        self._inputs = VehicleInputs()
        self._steps = 0
        self._join()
        self.reset(gear=gear, drive_mode=drive_mode)

    def _join(self) -> None:
        """The vehicle's own compiled step through the DBW (its ``dbw_step``), if it has one: (``step(t_s)``,
        its arguments, the terrain's arrays they hold); else None and :meth:`step` calls the DBW and the
        vehicle in turn."""
        own = getattr(self.vehicle, "dbw_step", None)
        joined = own(self.dbw) if own is not None else None
        self._joined = None if joined is None else joined + (self.vehicle.terrain.data,)
        self._run = None   # its compiled headless loop (run_recorded), made on first use
        # the vehicle's own reading of itself into the DBW's record (the record MeasuredState.read gives from the
        # attributes), for the DBW's step and the reports; None: the DBW reads the attributes
        own_reading = getattr(self.vehicle, "dbw_reading", None)
        self._reading = own_reading(self.dbw) if own_reading is not None else None

    def __getstate__(self) -> dict:
        # the compiled step, loop and reading hold the arrays of this simulation's vehicle and DBW: a copy
        # (copy.deepcopy, pickle) joins its own
        state = dict(self.__dict__)
        for name in ("_joined", "_run", "_reading"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._join()

    def reset(self, x_m: float = 0.0, y_m: float = 0.0, yaw_rad: float = 0.0, speed_mps: float = 0.0,
              gear: Gear = Gear.PARK, drive_mode: AwdSwitch = AwdSwitch.AWD,
              start: RecordedStart | None = None) -> None:
        """Reset the vehicle (pose, speed, gear, drive mode) and the DBW to power-on.

        With ``start`` the actuators are settled at the recorded outputs
        (``DbwSystem.hold_actuators``, the steering servo at the recorded angle)
        and, for a vehicle model with a powertrain state to set (the full Polaris
        model: ``Vehicle.start_running``), the wheel spins, engine speed, belt
        ratio and torque request are set from the recording; other models start
        from the speed alone. The DBW's engagement stays at power-on.

        Raises
        ------
        ValueError
            If ``gear`` is not a lever position (P R N D L) or a value is not finite.
        """
        for name, v in (("x_m", x_m), ("y_m", y_m), ("yaw_rad", yaw_rad), ("speed_mps", speed_mps)):
            if not math.isfinite(v):
                raise ValueError(f"{name}={v!r}: must be finite")
        self.vehicle.reset(x_m, y_m, yaw_rad, speed_mps, Gear(gear), AwdSwitch(drive_mode))
        steer = self.vehicle.steering_wheel_deg
        if start is not None and start.steering_wheel_deg is not None:
            steer = float(start.steering_wheel_deg) - self.dbw.steering.offset0_deg
        self.dbw.reset(steer, int(drive_mode))
        if start is not None:
            pedal = start.pedal_pct if start.pedal_pct is not None else 0.0
            self.dbw.hold_actuators(pedal, start.brake_bar if start.brake_bar is not None else 0.0)
            running = getattr(self.vehicle, "start_running", None)
            if running is not None:
                running(start.wheel_spin_rad_s, start.engine_rpm, pedal * 0.01)
        self._steps = 0
        self.time_s = 0.0

    # ------------------------------------------------------------------ inputs
    def submit(self, command: object, t_s: float | None = None) -> None:
        """Deliver a command or event (see ``DbwSystem.submit``) at ``t_s`` (default: now)."""
        self.dbw.submit(command, self.time_s if t_s is None else t_s)

    def enable(self) -> bool:
        """``/vehicle/enable``; False if a fault refuses it (driver-managed mode; in the
        firmware-managed mode the System Enable is queued and True returned, §4.2)."""
        return self.dbw.enable(self.time_s)

    def disable(self) -> None:
        """``/vehicle/disable``."""
        self.dbw.submit(DISABLE, self.time_s)

    def steering_calibrate(self) -> None:
        """``/vehicle/steering/calibrate`` (deprecated Empty topic)."""
        self.dbw.submit(STEERING_CALIBRATE, self.time_s)

    def set_driver(self, driver: DriverInput) -> None:
        """Set the driver's pedals, steering torque/angle, lever and switches."""
        self.dbw.set_driver(driver)

    def set_fault(self, subsystem: str, active: bool = True) -> None:
        """Inject or clear a fault (``steering``, ``brake``, ``throttle``, ``gear``)."""
        self.dbw.set_fault(subsystem, active)

    # ------------------------------------------------------------------ stepping
    def step(self) -> DbwOutputs:
        """Advance one physics step: DBW, then the model. Returns the DBW outputs used.

        Raises
        ------
        ValueError
            If the DBW's drive mode is not an AWD switch position (the model is not stepped).
        """
        joined = self._joined
        if joined is not None:
            if joined[2] is not self.vehicle.terrain.data:   # the terrain was bound again: new arrays
                self._join()
                joined = self._joined
            out = self.dbw.outputs
            (out.pedal, out.brake_line_bar, out.steering_wheel_deg, out.gear_request, out.drive_mode,
             out.gear_manual_request, n_log, ok, stepped) = joined[0](self.time_s)
            self.dbw.take_log(n_log)
            if not ok:
                AwdSwitch(out.drive_mode)   # raises
            if not stepped:                 # the vehicle's own step left this one to Python
                return self._step_vehicle(out)
            if out.gear_manual_request:
                self.vehicle.select_gear(out.gear_manual_request)
            self.vehicle.stepped()
            self._steps += 1
            self.time_s = self._steps * self.dt_s
            return out
        reading = self._reading
        if reading is not None:
            reading()
            out = self.dbw.step(self.time_s, None)
        else:
            out = self.dbw.step(self.time_s, self.vehicle)
        return self._step_vehicle(out)

    def _step_vehicle(self, out: DbwOutputs) -> DbwOutputs:
        """The vehicle's step in Python with the DBW's outputs ``out`` of this step as its inputs; returns ``out``.

        Raises
        ------
        ValueError
            If the drive mode is not an AWD switch position (the model is not stepped).
        """
        inp = self._inputs
        inp.pedal = out.pedal
        inp.brake_line_bar = out.brake_line_bar
        inp.steering_wheel_deg = out.steering_wheel_deg
        inp.gear_request = _GEAR_OF.get(out.gear_request, Gear.NONE)
        mode = _DRIVE_MODE_OF.get(out.drive_mode)
        inp.drive_mode = mode if mode is not None else AwdSwitch(out.drive_mode)  # raises for a bad number
        if out.gear_manual_request:
            self.vehicle.select_gear(out.gear_manual_request)   # only a vehicle with manual gears gets one
        self.vehicle.step(inp)
        self._steps += 1
        self.time_s = self._steps * self.dt_s
        return out

    @property
    def runs_recorded(self) -> bool:
        """Whether :meth:`run_recorded` can run this simulation (its vehicle has a compiled headless loop
        through the DBW)."""
        return self._joined is not None and hasattr(self.vehicle, "dbw_run")

    def run_recorded(self, step_end: int, resends: list, next_send: float, send_period: float, data: np.ndarray,
                     i_row: int, every: int, n_steps: int, inv_fuel: float, stops: np.ndarray) -> tuple | None:
        """Run the steps from now to ``step_end`` in the vehicle's compiled headless loop (the Ranger's:
        :func:`~acres_dbw_sim.vehicles.polaris.dbw_step.ranger_dbw_run`), with the rows a scenario run records;
        what :meth:`step` gives step by step, with ``submit(command)`` of every command of ``resends`` at the
        first step ``j >= next_send - 1e-9`` and every ``send_period`` steps after.

        Parameters
        ----------
        step_end : int
            The step to stop before (no other command or event may be due before it).
        resends : list
            The streamed commands re-sent (steering, brake, throttle, ULC), in their send order; each must be
            an unchanged re-send of the last one its actuator received.
        next_send, send_period : float
            The re-sends' next step and period [steps].
        data, i_row, every, n_steps, inv_fuel, stops
            The rows (rows x len(COLUMNS)) and the next to write, a row every ``every`` steps and after
            step ``n_steps``, 1 / (heating value times density) [l/J], the stop conditions
            (``scenario.signals.stop_table``).

        Returns
        -------
        tuple or None
            ``(steps, i_row, next_send, met)``: the steps run since the reset (``step_end``, or fewer after a
            step that queued log events, whose texts are taken, or met a stop condition), the next row, the
            re-sends' next step and the index of the stop condition met (-1: none). None, with nothing run,
            when :attr:`runs_recorded` is False or a command of ``resends`` is not an unchanged re-send
            (``DbwSystem.kept_command``): the caller steps instead.

        Raises
        ------
        ValueError
            As :meth:`step`, for a drive mode that is not an AWD switch position (the steps before it are run).
        """
        if not self.runs_recorded:
            return None
        if step_end <= self._steps:
            return self._steps, i_row, next_send, -1
        kept = [self.dbw.kept_command(c) for c in resends]
        if None in kept:
            return None
        if self._run is None or self._joined[2] is not self.vehicle.terrain.data:
            if self._joined[2] is not self.vehicle.terrain.data:
                self._join()
            self._run = self.vehicle.dbw_run(self._joined[1])
        slots = np.array([s for s, _a in kept], dtype=np.int64)
        rows = np.full((len(kept), 11), np.nan)
        for j, (_s, a) in enumerate(kept):
            rows[j, :a.size] = a
        v = self.vehicle
        (steps, i_row, next_send, vehicle_t_s, pedal, bar, steer, gear, mode, manual, n_log, ok, met) = self._run(
            *self._joined[1], self._steps, int(step_end), self.dt_s, v.time_s, slots, rows, float(next_send),
            float(send_period), data, int(i_row), int(every), int(n_steps), float(inv_fuel), stops)
        if steps > self._steps:
            v.stepped()
            v.time_s = vehicle_t_s   # the loop advanced the vehicle's clock step by step, as stepped() does
        out = self.dbw.outputs
        (out.pedal, out.brake_line_bar, out.steering_wheel_deg, out.gear_request, out.drive_mode,
         out.gear_manual_request) = pedal, bar, steer, gear, mode, manual
        self._steps = steps
        self.time_s = steps * self.dt_s
        self.dbw.take_log(n_log)
        if not ok:
            AwdSwitch(mode)   # raises
        if manual:
            v.select_gear(manual)
        return steps, i_row, next_send, met

    def run(self, duration_s: float, before_step: Callable[["Simulation"], None] | None = None) -> None:
        """Step for ``duration_s`` [s]; ``before_step(sim)`` may submit commands each step."""
        n = int(round(duration_s / self.dt_s))
        for _ in range(n):
            if before_step is not None:
                before_step(self)
            self.step()

    # ------------------------------------------------------------------ outputs
    @property
    def dbw_enabled(self) -> bool:
        """``/vehicle/dbw_enabled``."""
        return self.dbw.dbw_enabled

    @property
    def state(self):
        """The vehicle state (the model object; read its attributes)."""
        return self.vehicle

    def reports(self, only: Iterable[str] | None = None, on_change: bool = True) -> DbwReports:
        """The DBW reports for the present time (overwritten by the next call): every one, or those
        named in ``only`` (``DbwReports`` attributes; see ``DbwSystem.reports``, which also fills
        the gear and system reports on every call unless ``on_change`` is False).

        Fields a model level has no quantity for (its ``UNAVAILABLE``: the kinematic level's engine speed,
        torque and transmission ratio) are NaN (not modelled).

        Raises
        ------
        KeyError
            For a name in ``only`` that is not a report."""
        reading = self._reading
        if reading is not None:   # the vehicle's own compiled reading of its arrays
            reading()
            rep = self.dbw.reports(self.time_s, None, only, on_change)
        else:
            rep = self.dbw.reports(self.time_s, self.vehicle, only, on_change)
        unavailable = getattr(self.vehicle, "UNAVAILABLE", None)   # a model level without these quantities
        if unavailable:
            for msg, names in unavailable.items():
                m = getattr(rep, msg)
                for name in names:
                    setattr(m, name, math.nan)
        return rep

