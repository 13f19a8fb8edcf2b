"""The validated scenario: what :func:`~acres_dbw_sim.scenario.schema.validate` makes of a scenario file.

:class:`Scenario` and its parts (terrain, initial state, timeline entries,
metrics, expectations, the vehicles of a ``vehicles`` list) as checked data,
ready for the runner (:mod:`acres_dbw_sim.scenario.runner`). Nothing here
reads or checks a file; the format is documented in ``docs/scenarios.md``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.enums import AwdSwitch, Gear
from ..model.terrain import FlatTerrain, HeightMapTerrain, Terrain
from ..vehicles import default_vehicle
from .signals import Condition

__all__ = ["Scenario", "TerrainSpec", "InitialSpec", "Entry", "MetricSpec", "Expectation", "VehicleSpec"]


@dataclass(frozen=True)
class TerrainSpec:
    """Validated terrain section (see :class:`acres_dbw_sim.model.terrain.Terrain`).

    Attributes
    ----------
    surface : str
    grade_pct, bank_pct : float
        Plane rise along +x and +y [%].
    z0_m : float
        Plane height at the origin [m].
    regions : tuple of Region
    wheel_surfaces : tuple of 4 (str or None)
    heights : tuple of tuples or None
        Height-map grid [m] (rows along y); None for a plane.
    resolution_m : float
    origin_m : tuple of 2 float
    """

    surface: str = "asphalt"
    grade_pct: float = 0.0
    bank_pct: float = 0.0
    z0_m: float = 0.0
    regions: tuple = ()
    wheel_surfaces: tuple = (None, None, None, None)
    heights: tuple | None = None
    resolution_m: float = 1.0
    origin_m: tuple = (0.0, 0.0)

    def build(self) -> Terrain:
        """A new terrain object."""
        if self.heights is not None:
            return HeightMapTerrain(self.heights, self.resolution_m, self.origin_m, self.surface, self.regions,
                                    self.wheel_surfaces)
        return FlatTerrain(self.grade_pct, self.bank_pct, self.surface, self.regions, self.wheel_surfaces,
                           self.z0_m)


@dataclass(frozen=True)
class InitialSpec:
    """Initial pose [m, rad], forward speed [m/s], lever position and AWD switch."""

    x_m: float = 0.0
    y_m: float = 0.0
    yaw_rad: float = 0.0
    speed_mps: float = 0.0
    gear: Gear = Gear.PARK
    drive_mode: AwdSwitch = AwdSwitch.AWD


@dataclass(frozen=True)
class Entry:
    """One timeline entry, in force from step ``step`` until the next entry.

    Attributes
    ----------
    t_s : float
        Time as written [s].
    step : int
        First step index whose start time is at or after ``t_s``.
    key : str
        ``timeline[i]`` (for messages).
    actuator : tuple of (VehicleInputs attribute, value)
        Actuator level: the inputs this entry changes (the others keep their values).
    commands : tuple of (key, object)
        DBW level, in :data:`.schema.EVENT_ORDER`: events and one-shot commands
        (delivered once), ``driver`` (DriverInput), ``fault`` ((subsystem,
        active) pairs) and streamed messages (a command, or None = stop sending).
    """

    t_s: float
    step: int
    key: str
    actuator: tuple = ()
    commands: tuple = ()


@dataclass(frozen=True)
class MetricSpec:
    """One metric: ``kind`` of ``arg`` over a window of rows.

    ``kind``: ``final``, ``initial``, ``max``, ``min``, ``mean`` (arg = column),
    ``first_t`` (arg = Condition), ``value_at`` (arg = column, at ``at_t``),
    ``expr`` (arg = arithmetic over earlier metrics).
    """

    name: str
    kind: str
    arg: Any
    from_t: float | None = None
    to_t: float | None = None
    from_when: Condition | None = None
    at_t: float | None = None


@dataclass(frozen=True)
class Expectation:
    """A check of a metric: ``value`` within ``rel``/``abs``, or within [``min``, ``max``]."""

    metric: str
    value: float | None = None
    rel: float | None = None
    abs: float | None = None
    lo: float | None = None
    hi: float | None = None

    def check(self, measured: float | None) -> bool:
        """True when ``measured`` meets the expectation (None never does)."""
        if measured is None or not math.isfinite(measured):
            return False
        if self.value is not None:
            tol = 0.0
            if self.rel is not None:
                tol = max(tol, self.rel * abs(self.value))
            if self.abs is not None:
                tol = max(tol, self.abs)
            if abs(measured - self.value) > tol:
                return False
        if self.lo is not None and measured < self.lo:
            return False
        if self.hi is not None and measured > self.hi:
            return False
        return True

    def describe(self) -> str:
        """Human-readable form (``26.72 +/- 2 %``, ``in [0, 0.0003]``)."""
        parts = []
        if self.value is not None:
            tol = []
            if self.rel is not None:
                tol.append(f"{100 * self.rel:g} %")
            if self.abs is not None:
                tol.append(f"{self.abs:g}")
            parts.append(f"{self.value:g}" + (f" +/- {' or '.join(tol)}" if tol else " exactly"))
        if self.lo is not None or self.hi is not None:
            lo = "-inf" if self.lo is None else f"{self.lo:g}"
            hi = "inf" if self.hi is None else f"{self.hi:g}"
            parts.append(f"in [{lo}, {hi}]")
        return ", ".join(parts)


@dataclass(frozen=True)
class VehicleSpec:
    """One vehicle of a ``vehicles`` list: its name, model level, initial state, control level and timeline.

    Vehicles share the scenario's parameters, terrain, step, duration, stop conditions, metrics and
    expectations (evaluated for each vehicle); they do not collide with each other.
    """

    name: str
    model: str
    initial: InitialSpec
    control: str
    timeline: tuple


@dataclass
class Scenario:
    """A validated scenario, ready to run (see :func:`acres_dbw_sim.scenario.runner.run_scenario`).

    Attributes
    ----------
    name : str
    description : str
    source : Path or None
    params : Any or MaxxumParameters
        Loaded with the scenario's overrides, occupants and cargo.
    vehicle : dict
        The vehicle section as used: ``type`` (a name of the vehicle registry), ``parameters`` (path),
        ``overrides``, and for the Ranger ``occupants``, ``cargo_kg``.
    step_hz : float
    dt_s : float
    duration_s : float
    n_steps : int
        round(duration_s * step_hz).
    output_every : int
        A CSV row every this many steps (and the first and last).
    terrain : TerrainSpec
    initial : InitialSpec
    control : str
        ``actuator`` (inputs straight into the model) or ``dbw`` (commands through the DBW).
    command_rate_hz : float
        Rate at which the streamed DBW messages are re-sent.
    timeline : tuple of Entry
    stop_when : tuple of Condition
        The run stops after the first step at which any of them holds.
    metrics : tuple of MetricSpec
    expect : tuple of Expectation
    model : str
        Model level behind the DBW: ``full`` or ``kinematic`` (:data:`acres_dbw_sim.simulation.MODELS`).
    vehicles : tuple of VehicleSpec
        Empty for one vehicle; otherwise every vehicle, and ``initial``, ``control``, ``timeline`` and
        ``model`` above are those of the first.

    Validation builds the simulation of a one-vehicle scenario to check that it can be built; that
    simulation, never stepped, is kept for the scenario's first run (building one costs about as
    much as a short run's stepping: a sweep of short runs would build each twice). It is not part of
    a copy, a pickle or ``dataclasses.replace``, and not used once ``params``, ``terrain``, ``dt_s``,
    ``model`` or ``vehicle`` has been replaced.
    """

    name: str
    description: str
    source: Path | None
    params: Any
    vehicle: dict
    step_hz: float
    dt_s: float
    duration_s: float
    n_steps: int
    output_every: int
    terrain: TerrainSpec
    initial: InitialSpec
    control: str
    command_rate_hz: float
    timeline: tuple
    stop_when: tuple
    metrics: tuple
    expect: tuple
    sets: tuple = field(default_factory=tuple)
    model: str = "full"
    vehicles: tuple = ()

    def __post_init__(self) -> None:
        self._prebuilt: list = []   # not a field: asdict, fields and replace leave it out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_prebuilt"] = []
        return state

    def _built_from(self) -> tuple:
        """What a simulation of this scenario is built from (compared by identity: these are objects)."""
        return (self.params, self.terrain, self.dt_s, self.model, self.vehicle_type, self.vehicles)

    @property
    def vehicle_type(self) -> str:
        """The registry name of the scenario's vehicle (``vehicle.type``; the registry's first if none)."""
        return self.vehicle.get("type") or default_vehicle()

    def keep_built(self, sim) -> None:
        """Keep ``sim``, built (and reset, never stepped) from this scenario, for its next run."""
        self._prebuilt[:] = [(self._built_from(), sim)]

    def take_built(self):
        """The simulation kept by :meth:`keep_built`, or None if there is none or a field it was built from
        has been replaced since; it is handed out once."""
        try:
            made_from, sim = self._prebuilt.pop()   # atomic: two threads running one scenario get it once
        except IndexError:
            return None
        now = self._built_from()
        same = made_from[0] is now[0] and made_from[1] is now[1] and made_from[2:] == now[2:]
        return sim if same else None
