"""No physics constant in the compiled code (issue 12): every float literal of a compiled function is a numeric.

The compiled functions (``@njit``, which includes the step kernels ``physics_step``,
``tractor_step`` and the shared stages) of the ROS-free model are parsed with ``ast``;
each float literal in them must be in :data:`NUMERICS`, an explicit list of numbers that
are not properties of the world, the vehicle, the tyre or a reference's modelling choice.
A physics constant belongs in ``config/polaris.json`` / ``config/maxxum150.json`` and
reaches the kernels through the shared constants ``k`` (model/stages.py) or as an argument.
Integer literals are not checked: in the compiled code they are indices, counts and flags.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "acres_dbw_sim" / "model").glob("*.py")) + sorted(
    (ROOT / "acres_dbw_sim" / "vehicles").rglob("*.py"))

# The numerics: number -> why it is not physics. A new entry needs a reason of the same kind.
NUMERICS = {
    0.0: "zero: initial sums, empty results, sign tests and lower clamps",
    0.5: "one half of a formula: the mean of a step's two ends, 1/2 m v^2, 1/2 rho C_d A, half a track, "
         "bisection, the root finder's first step; and the 0.5 kg threshold of mass_update_needed (a tolerance)",
    1.0: "one: unit factors, upper clamps of a fraction, 1.0 flags, 1 N and 1 rad/s floors against division by "
         "small numbers",
    2.0: "two of a formula's shape: 2 R_t, 2 h/b, quaternion to matrix, 2 c - w of an open differential, step "
         "doubling",
    3.0: "three of Bekker's rigid-wheel sinkage z_0 = [3 W / ((3 - n) ...)] (a formula's shape)",
    4.0: "four of the harmonic combination 4 d_l d_r / (d_l + d_r) of two slopes (driveline.py open_axle_torque)",
    12.0: "1/12 of the inertia of a solid box (a formula's shape)",
    3.6: "unit conversion m/s to km/h",
    3600.0: "unit conversion per second to per hour (fuel rate in L/h)",
    1e-3: "krpm per rpm (unit conversion) and the 1 mm floor of the contact length (division guard)",
    0.1: "guards: the smallest pedal exponent and the smallest turning radius of the inner wheel (no division by 0)",
    0.05: "the hand throttle's step per key press (an operator interface step); the lower clamp of the static "
          "front load share (guard: both axles keep a positive static load for any centre of mass)",
    0.95: "the upper clamp of the static front load share (the same guard as 0.05)",
    0.005: "the 5 mm threshold of mass_update_needed (when to rewrite the body's mass properties: a tolerance)",
    1e-4: "floor of a lag's time constant (division guard)",
    1e-5: "steering angle below which the Ackermann geometry is straight ahead (division guard of 1 / tan)",
    1e-6: "tolerances: the series branch of the shear shape, a ray parallel to a plane, a standstill test",
    1e-9: "the lever's shift timer counts as run out within 1 ns (rounding of the repeated subtraction of dt); "
          "a stream's re-send is due within 1e-9 step of its time (the timeline player's clock, which the "
          "headless loop runs)",
    1e-12: "zero-length guards (rotation angle of the quaternion update, a trailer axle on its hitch)",
    4.4e-16: "twice the double-precision epsilon in the root finder's stopping test",
    1e8: "sentinel: a probe distance beyond this is 'no ground'",
    1e9: "sentinel distance of a ray that misses",
}
# Numerics that are not generic get the functions they may appear in: the same number elsewhere is flagged.
WHERE = {
    0.05: {"nudge_hand_throttle", "front_load_share"},
    0.95: {"front_load_share"},
    0.005: {"mass_update_needed"},
    0.1: {"torque_target", "ackermann_rad"},
    3.0: {"sinkage_m"},
    4.0: {"open_axle_torque"},
    12.0: {"box_inertia_kg_m2"},
    3.6: {"lagged_speed_kmh"},
    3600.0: {"settle_powertrain"},
    1e-9: {"lever_advance", "ranger_dbw_run"},
}


def _is_compiled(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) in ("njit", "jit"):
            return True
    return False


def compiled_float_literals() -> dict:
    """{value: ["file:line function", ...]} of the float literals in the compiled functions."""
    found: dict = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and _is_compiled(fn):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Constant) and type(node.value) is float:
                        where = f"{path.relative_to(ROOT)}:{node.lineno} {fn.name}"
                        found.setdefault(node.value, []).append(where)
    return found


def test_the_kernels_are_among_the_scanned_functions():
    names = set()
    for path in SOURCES:
        names |= {fn.name for fn in ast.walk(ast.parse(path.read_text()))
                  if isinstance(fn, ast.FunctionDef) and _is_compiled(fn)}
    assert {"physics_step", "tractor_step", "prepare_wheels", "chassis_stage", "settle_powertrain",
            "rolling_torque_nm", "thrust_limit_n", "suspension_load_n", "fuel_power_w"} <= names


def _listed(value: float, where: str) -> bool:
    return value in NUMERICS and (value not in WHERE or where.rsplit(" ", 1)[1] in WHERE[value])


def test_no_physics_literal_in_compiled_code():
    unexplained = {}
    for v, places in compiled_float_literals().items():
        bad = [w for w in places if not _listed(v, w)]
        if bad:
            unexplained[v] = bad
    assert not unexplained, ("float literals in compiled code that are not listed numerics; move a physics "
                             "constant to the parameter files, or list a numeric with its reason: "
                             + "; ".join(f"{v!r} at {', '.join(w)}" for v, w in sorted(unexplained.items())))


@pytest.mark.parametrize("value", sorted(NUMERICS))
def test_every_listed_numeric_has_a_reason(value):
    assert NUMERICS[value].strip()


def test_restricted_numerics_are_listed():
    assert set(WHERE) <= set(NUMERICS)
