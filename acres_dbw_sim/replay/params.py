"""The node parameters a replay runs with: where each comes from, their checks, the simulation they build.

A replay runs with the node's parameters (:data:`.topics.NODE_DEFAULTS`, with
:data:`REPLAY_DEFAULTS` where the replay's default differs), overridden by
the values the node's recorder stored in the bag (``custom_data``
``acres_dbw_sim.parameters``), overridden in turn by ``--param`` values
(:func:`resolve_params`). :func:`build_simulation` checks them as the node
does and builds the :class:`~acres_dbw_sim.simulation.Simulation` they
describe; every bad value is a :class:`ReplayError` naming the parameter.
"""
from __future__ import annotations

import json

from msg_adapters import bag as B

from ..interface import DRIVE_MODE_VALUES, PARAMETERS, parameter_error
from ..model.enums import Gear
from ..model.params import ParameterError
from ..model.overrides import option_message
from ..model.terrain import FlatTerrain
from ..scenario.validated import InitialSpec, TerrainSpec
from ..simulation import RecordedStart, Simulation
from ..vehicles import vehicle_spec
from .reader import BagScan, Problem
from .topics import NODE_DEFAULTS

__all__ = ["ReplayError", "GEARS", "REPLAY_DEFAULTS", "resolve_params",
           "check_node_parameters", "build_simulation", "check_parameters"]

#: Lever letters -> lever position (``H``, high, is the Ranger's drive position, reported as DRIVE).
GEARS = {"P": Gear.PARK, "R": Gear.REVERSE, "N": Gear.NEUTRAL, "H": Gear.DRIVE, "D": Gear.DRIVE, "L": Gear.LOW}
#: Where the replay's default differs from the node's (:data:`.topics.NODE_DEFAULTS`): the output bag
#: carries the reports at the real CAN periods, as the vehicle sends them (the node's default,
#: ``mission``, is every report at every physics step). A value recorded in the bag or given as an
#: override still wins.
REPLAY_DEFAULTS = {"report_rates": "vehicle"}


class ReplayError(ValueError):
    """The bag cannot be replayed at all (no command topic or message, bad parameter or output directory);
    the message says why. ``problems`` holds what was found in the bag on the way (may be empty)."""

    def __init__(self, message: str, problems: list | None = None) -> None:
        super().__init__(message)
        self.problems = list(problems or [])


def _parse_param(name: str, text: str):
    """The ``--param name=text`` value in the type of the node's default (bool, int, float or text)."""
    default = NODE_DEFAULTS[name]
    if isinstance(default, bool):
        if text.lower() not in ("true", "false"):
            raise ReplayError(f"--param {name}={text}: expected true or false")
        return text.lower() == "true"
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ReplayError(f"--param {name}={text}: expected an integer") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise ReplayError(f"--param {name}={text}: expected a number") from None
    return text


def resolve_params(scan: BagScan, overrides: dict, problems: list) -> tuple:
    """The parameters in force: the node's defaults <- :data:`REPLAY_DEFAULTS` <- the bag's <- ``overrides``.

    A value recorded in the bag is taken when its type is the default's (an integer for a float
    parameter too); recorded parameters that are not JSON are reported (``corrupt``, appended to
    ``problems``) and ignored.

    Parameters
    ----------
    scan : BagScan
        The bag (its ``custom_data``).
    overrides : dict
        ``{name: value}``; a text value (``--param``) is converted to the default's type.
    problems : list of Problem

    Returns
    -------
    (dict, dict)
        ``{name: value}`` and ``{name: 'default' | 'bag' | 'override'}``.

    Raises
    ------
    ReplayError
        For an unknown override name or a text value of the wrong type.
    """
    params = dict(NODE_DEFAULTS, **REPLAY_DEFAULTS)
    source = {k: "default" for k in params}
    raw = scan.custom.get(B.CUSTOM_PREFIX + "parameters")
    if raw:
        try:
            recorded = json.loads(raw)
            for k, v in recorded.items():
                if k in params and type(v) is type(params[k]) or (k in params and isinstance(params[k], float)
                                                                   and isinstance(v, int)):
                    params[k] = float(v) if isinstance(params[k], float) else v
                    source[k] = "bag"
        except (ValueError, AttributeError):
            problems.append(Problem("corrupt", None, "custom_data acres_dbw_sim.parameters is not JSON: ignored"))
    for k, v in overrides.items():
        if k not in NODE_DEFAULTS:
            raise ReplayError(f"--param {k}: unknown; known: {', '.join(sorted(NODE_DEFAULTS))}")
        params[k] = _parse_param(k, v) if isinstance(v, str) else v
        source[k] = "override"
    return params, source


def check_node_parameters(p: dict) -> None:
    """Check every node parameter of ``p`` (as from :func:`resolve_params`) as the node checks it
    (:func:`~acres_dbw_sim.interface.parameter_error`: its ranges, names and wording).

    Raises
    ------
    ReplayError
        ``parameter 'step_hz' = 2000.0: out of range: ...``, for the first bad one.
    """
    for name, value in p.items():
        text = parameter_error(name, value) if name in PARAMETERS else ""
        if text:
            raise ReplayError(text)


def build_simulation(p: dict, start: RecordedStart | None = None) -> tuple:
    """The simulation parameters ``p`` describe, reset to their initial state (and ``start``).

    Parameters
    ----------
    p : dict
        Replay parameters (:func:`resolve_params`).
    start : RecordedStart, optional
        Actuator and powertrain state at step 0 beyond the ``initial_*`` parameters.

    Returns
    -------
    (Simulation, parameters, TerrainSpec, InitialSpec)
        The simulation, the vehicle parameters loaded for it (vehicle file, overrides, occupants,
        cargo), and the flat terrain and initial state it was built with.

    Raises
    ------
    ReplayError
        The first bad parameter, named.
    """
    check_node_parameters(p)
    try:
        params = vehicle_spec(p["vehicle"]).load_parameters(p["vehicle_config"] or None, p["overrides"] or None,
                                                             p["occupants"], p["cargo_kg"])
        gear, mode = Gear.from_name(p["initial_gear"]), DRIVE_MODE_VALUES[p["drive_mode"]]
        terrain = TerrainSpec(surface=p["surface"], grade_pct=p["grade_pct"], bank_pct=p["bank_pct"])
        sim = Simulation(params, FlatTerrain(p["grade_pct"], p["bank_pct"], p["surface"]), 1.0 / p["step_hz"],
                         gear=gear, drive_mode=mode, model=p["model"], vehicle=p["vehicle"])
        initial = InitialSpec(p["initial_x_m"], p["initial_y_m"], p["initial_yaw_rad"], p["initial_speed_mps"],
                              gear, mode)
        sim.reset(initial.x_m, initial.y_m, initial.yaw_rad, initial.speed_mps, gear, mode, start)
    except ParameterError as err:   # the replay parameter that gave the value, then the fault
        raise ReplayError(option_message(err, p["vehicle_config"], p["overrides"])) from err
    except KeyError as err:
        raise ReplayError(f"parameter 'surface': {err.args[0]}") from err
    except ValueError as err:
        if isinstance(err, ReplayError):
            raise
        raise ReplayError(f"parameter 'initial_*': {err}") from err
    return sim, params, terrain, initial


def check_parameters(params: dict) -> None:
    """Check a replay's parameters (``ReplayInput.params``) as the replay would, without replaying.

    Builds the simulation the replay would step (vehicle file, overrides,
    occupants, cargo, surface, grade, initial state, model) and drops it.

    Raises
    ------
    ReplayError
        The first bad parameter, named as the replay names it.
    """
    build_simulation(params)
