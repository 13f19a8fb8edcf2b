"""Recorded signals: the CSV columns, stop conditions and metrics.

Frames and signs (polaris-ranger-dynamics.md "Conventions"): ``odom`` is the
world frame (ENU, z up); the body frame has x forward, y left, z up;
``base_footprint`` is the ground point below the rear-axle centre at rest.
Wheels FL, FR, RL, RR. Angles positive counter-clockwise seen from the
axis they turn about (yaw left, steering left).

Every column is named with its unit. One row holds the state at the end of a
step (``t_s``) and the model inputs applied during that step; the first row
(t = 0) is the initial state with the initial inputs.
"""
from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..model._jit import njit, specialise
from ..model.body import VehicleBody
from ..model.energy import ledger_residual_j
from ..model.stages import (O_ANGLE, O_FUEL_RATE, O_LOAD, O_OMEGA, O_POS, O_Q, O_SF, O_SINK, O_SLIP, O_SW, O_TC, O_TE,
                            O_VB, O_WB)

__all__ = ["COLUMNS", "COLUMN_NAMES", "INT_COLUMNS", "RowReader", "compiled_row_writer", "write_row",
           "euler_zyx_rad", "Condition", "parse_condition", "stop_table", "first_met", "evaluate_metric",
           "eval_expression", "expression_names", "csv_format"]

_WHEELS = ("fl", "fr", "rl", "rr")

#: (name, description) of every CSV column, in order. Units are in the names.
COLUMNS: tuple = (
    ("t_s", "simulation time at the end of the step"),
    ("x_m", "base_footprint x in odom"),
    ("y_m", "base_footprint y in odom"),
    ("z_m", "base_footprint z in odom"),
    ("roll_rad", "roll (Z-Y-X Euler angles of the body in odom)"),
    ("pitch_rad", "pitch, positive nose down"),
    ("yaw_rad", "yaw (heading), positive to the left of +x"),
    ("vx_mps", "velocity of base_footprint, body x (forward)"),
    ("vy_mps", "velocity of base_footprint, body y (left)"),
    ("vz_mps", "velocity of base_footprint, body z (up)"),
    ("speed_mps", "signed forward speed (= vx_mps; negative when reversing)"),
    ("yaw_rate_rad_s", "body z angular velocity"),
    ("ax_mps2", "specific force at base_footprint, body x (accelerometer reading: includes gravity)"),
    ("ay_mps2", "specific force, body y"),
    ("engine_rpm", "engine speed [rev/min]"),
    ("cvt_ratio", "CVT ratio r (engine / secondary)"),
    ("gear", "lever position (ds_dbw_msgs/Gear: 1 P, 2 R, 3 N, 4 D = H, 5 L)"),
    ("drive_mode", "AWD switch (0 Turf, 1 2WD, 2 AWD)"),
    ("pedal", "accelerator pedal seen by the engine, 0..1"),
    ("brake_bar", "brake line pressure input"),
    ("steering_wheel_deg", "actual raw steering-wheel angle (straight ahead at steering.center_deg)"),
    ("wheel_angle_fl_rad", "road-wheel steer angle, front left"),
    ("wheel_angle_fr_rad", "road-wheel steer angle, front right"),
) + tuple((f"wheel_speed_{w}_rad_s", f"wheel spin, {w.upper()}") for w in _WHEELS) + tuple(
    (f"wheel_load_{w}_n", f"tyre normal load, {w.upper()}") for w in _WHEELS) + tuple(
    (f"sinkage_{w}_m", f"tyre sinkage, {w.upper()} (depth of the rut on soil, 0 on hard ground)") for w in _WHEELS) + (
    ("clutch_torque_nm", "primary-clutch torque"),
    ("fuel_used_l", "fuel burnt since t = 0 (from the ledger's fuel energy)"),
    ("energy_fuel_j", "fuel energy since t = 0"),
    ("energy_residual_j", "energy-ledger residual: fuel minus every sink and store"),
    ("dbw_enabled", "1 when /vehicle/dbw_enabled is true (always 0 at actuator level)"),
    ("az_mps2", "specific force, body z (9.81 at rest on level ground)"),
    ("engine_torque_nm", "engine brake torque T_e"),
    ("engine_power_kw", "engine brake power T_e omega_e"),
    ("fuel_rate_l_h", "fuel flow"),
) + tuple((f"wheel_slip_{w}", f"longitudinal slip (tread deflection / relaxation length), {w.upper()}")
          for w in _WHEELS)

COLUMN_NAMES: tuple = tuple(c[0] for c in COLUMNS)
INDEX = {n: i for i, n in enumerate(COLUMN_NAMES)}
#: Columns written as integers.
INT_COLUMNS = frozenset({"gear", "drive_mode", "dbw_enabled"})


def csv_format() -> str:
    """printf-style row format: integers as ``%d``, floats with 10 significant digits."""
    return ",".join("%d" if n in INT_COLUMNS else "%.10g" for n in COLUMN_NAMES)


@njit
def euler_zyx_rad(qw: float, qx: float, qy: float, qz: float) -> tuple:
    """(roll, pitch, yaw) [rad]: the Z-Y-X Euler angles of the unit quaternion (w, x, y, z) from base_link to odom
    (the recorder's ``roll_rad``, ``pitch_rad``, ``yaw_rad``; pitch positive nose down, clamped at +-pi/2)."""
    s = 2.0 * (qw * qy - qz * qx)
    s = 1.0 if s > 1.0 else -1.0 if s < -1.0 else s
    return (math.atan2(2.0 * (qw * qx + qy * qz), 1.0 - 2.0 * (qx * qx + qy * qy)), math.asin(s),
            math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz)))


@njit
def write_row(data, i: int, t_s: float, out, led, engine_rpm: float, engine_speed_rad_s: float, cvt_ratio: float,
              gear: int, drive_mode: int, pedal: float, brake_bar: float, dbw_enabled: int, inv_fuel: float) -> None:
    """Write the row of :data:`COLUMNS` at ``t_s`` [s] into ``data[i]`` for a vehicle on the shared core.

    Parameters
    ----------
    data : array (rows x len(COLUMNS)) of float
    out : array of float
        The vehicle's output array (model/stages.py ``O_*``) after the step that ended at ``t_s``.
    led : array of float
        Its energy ledger (model/energy.py ``L_*``, in :data:`~acres_dbw_sim.model.energy.LEDGER_TERMS` order).
    engine_rpm, engine_speed_rad_s, cvt_ratio, gear, drive_mode
        The vehicle's own quantities of the row [rev/min, rad/s, -, Gear, AwdSwitch].
    pedal, brake_bar, dbw_enabled
        The inputs applied in the step [-, bar, 0/1].
    inv_fuel : float
        1 / (heating value times density) [l/J].

    The orientation as :func:`euler_zyx_rad`, the ledger's residual as
    :func:`~acres_dbw_sim.model.energy.ledger_residual_j`.
    """
    r = data[i]
    r[0] = t_s
    r[1], r[2], r[3] = out[O_POS], out[O_POS + 1], out[O_POS + 2]
    r[4], r[5], r[6] = euler_zyx_rad(out[O_Q], out[O_Q + 1], out[O_Q + 2], out[O_Q + 3])
    r[7], r[8], r[9] = out[O_VB], out[O_VB + 1], out[O_VB + 2]
    r[10], r[11] = out[O_VB], out[O_WB + 2]
    r[12], r[13] = out[O_SF], out[O_SF + 1]
    r[14], r[15], r[16], r[17] = engine_rpm, cvt_ratio, gear, drive_mode
    r[18], r[19], r[20] = pedal, brake_bar, out[O_SW]
    r[21], r[22] = out[O_ANGLE], out[O_ANGLE + 1]
    for j in range(4):
        r[23 + j] = out[O_OMEGA + j]
        r[27 + j] = out[O_LOAD + j]
        r[31 + j] = out[O_SINK + j]
        r[44 + j] = out[O_SLIP + j]
    fuel_j = led[0]
    r[35], r[36], r[37], r[38] = out[O_TC], fuel_j * inv_fuel, fuel_j, ledger_residual_j(led)
    r[39], r[40] = dbw_enabled, out[O_SF + 2]
    te = out[O_TE]
    r[41], r[42], r[43] = te, te * engine_speed_rad_s * 1e-3, out[O_FUEL_RATE]


def compiled_row_writer(fn, arrays: tuple, inv_fuel: float) -> Callable:
    """A vehicle's compiled row for the recorder: ``write(data, i, t_s, pedal, brake_bar, dbw_enabled)`` calls
    ``fn(data, i, t_s, *arrays, pedal, brake_bar, dbw_enabled, inv_fuel)`` (a compiled function that fills
    ``data[i]``, rows x len(COLUMNS), through :func:`write_row` with the vehicle's own quantities read from
    ``arrays``) through its entry point for these arrays. ``inv_fuel`` is 1 / (heating value times density)
    [l/J]; ``t_s`` [s], ``pedal`` [-], ``brake_bar`` [bar], ``dbw_enabled`` 0/1."""
    entry = specialise(fn, (np.zeros((1, len(COLUMNS))), 0, 0.0) + tuple(arrays) + (0.0, 0.0, 0, 0.0))
    inv = float(inv_fuel)

    def write(data, i: int, t_s: float, pedal: float, brake_bar: float, dbw_enabled: int) -> None:
        entry(data, i, t_s, *arrays, pedal, brake_bar, dbw_enabled, inv)
    return write


class RowReader:
    """Reads one CSV row from the vehicle.

    A vehicle with its own compiled row (its ``row_writer``, made with :func:`compiled_row_writer`: the full
    Ranger, the tractor behind its DBW face) writes it; another on the shared core
    (:class:`~acres_dbw_sim.model.body.VehicleBody`, with its output array and ledger) is read by the compiled
    :func:`write_row` with its own quantities from its attributes; another model level (the kinematic one) from
    its attributes, the same quantities.

    Parameters
    ----------
    vehicle : acres_dbw_sim.vehicles.polaris.vehicle.Vehicle or another model
    fuel_j_per_l : float
        Heating value times density [J/l], to convert the ledger's fuel energy to litres.
    """

    def __init__(self, vehicle, fuel_j_per_l: float) -> None:
        self.v = vehicle
        self.inv_fuel = 1.0 / fuel_j_per_l
        self._has_sinkage = hasattr(vehicle, "sinkage_m")
        self._scratch = np.zeros((1, len(COLUMNS)))
        self._arrays = self._write = None
        own = getattr(vehicle, "row_writer", None)
        if own is not None:
            self.write = own(self.inv_fuel)   # the instance's write: the vehicle's compiled row
        elif isinstance(vehicle, VehicleBody):
            self._arrays = (vehicle._out, vehicle._led)
            self._write = specialise(write_row, (self._scratch, 0, 0.0) + self._arrays
                                     + (0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0, 0.0))
        self._compiled = own is not None or self._write is not None

    def write(self, data: np.ndarray, i: int, t_s: float, pedal: float, brake_bar: float, dbw_enabled: int) -> None:
        """Write the row at ``t_s`` [s] (the inputs applied in the step that ended then) into ``data[i]``
        (``data``: rows x len(COLUMNS), float64)."""
        if self._write is None:
            data[i] = self.row(t_s, pedal, brake_bar, dbw_enabled)
            return
        v = self.v
        out, led = self._arrays
        self._write(data, i, t_s, out, led, v.engine_rpm, v.engine_speed_rad_s, v.cvt_ratio, int(v.gear),
                    int(v.drive_mode), pedal, brake_bar, dbw_enabled, self.inv_fuel)

    def row(self, t_s: float, pedal: float, brake_bar: float, dbw_enabled: int) -> tuple:
        """The row at ``t_s`` [s] with the inputs applied in the step that ended then."""
        if self._compiled:
            self.write(self._scratch, 0, t_s, pedal, brake_bar, dbw_enabled)
            return tuple(self._scratch[0].tolist())
        v = self.v
        roll, pitch, yaw = euler_zyx_rad(*v.orientation_wxyz)
        p = v.position_m
        vb = v.velocity_body_mps
        f = v.specific_force_body_mps2
        ra = v.road_wheel_angle_rad
        ws = v.wheel_spin_rad_s
        wl = v.wheel_load_n
        sk = v.sinkage_m if self._has_sinkage else (0.0, 0.0, 0.0, 0.0)
        sl = v.wheel_slip
        led = v.ledger
        fuel_j = led.fuel_j
        return (t_s, p[0], p[1], p[2], roll, pitch, yaw,
                vb[0], vb[1], vb[2], v.speed_mps, v.yaw_rate_rad_s, f[0], f[1],
                v.engine_rpm, v.cvt_ratio, int(v.gear), int(v.drive_mode), pedal, brake_bar, v.steering_wheel_deg,
                ra[0], ra[1], ws[0], ws[1], ws[2], ws[3], wl[0], wl[1], wl[2], wl[3], sk[0], sk[1], sk[2], sk[3],
                v.clutch_torque_nm, fuel_j * self.inv_fuel, fuel_j, led.residual_j, dbw_enabled,
                f[2], v.engine_torque_nm, v.engine_torque_nm * v.engine_speed_rad_s * 1e-3, v.fuel_rate_l_h,
                sl[0], sl[1], sl[2], sl[3])


# --------------------------------------------------------------------------- conditions

_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
        "!=": operator.ne}
_CLAUSE_RE = re.compile(r"^\s*(?:abs\(\s*(?P<absname>[A-Za-z_][A-Za-z0-9_]*)\s*\)|(?P<name>[A-Za-z_][A-Za-z0-9_]*))"
                        r"\s*(?P<op><=|>=|==|!=|<|>)\s*(?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


@dataclass(frozen=True)
class Condition:
    """``clause and clause ...``; a clause is ``column OP number`` or ``abs(column) OP number``.

    Attributes
    ----------
    text : str
        As written.
    clauses : tuple of (column index, use abs, operator, number)
    """

    text: str
    clauses: tuple

    def mask(self, data: np.ndarray) -> np.ndarray:
        """Boolean array over the rows of ``data`` (rows x columns)."""
        m = np.ones(data.shape[0], dtype=bool)
        for i, use_abs, op, x in self.clauses:
            col = data[:, i]
            m &= op(np.abs(col) if use_abs else col, x)
        return m


#: Comparison operators of a clause -> their code in a :func:`stop_table`.
_OP_CODES = {operator.lt: 0, operator.le: 1, operator.gt: 2, operator.ge: 3, operator.eq: 4, operator.ne: 5}


def stop_table(conditions) -> np.ndarray:
    """The clauses of ``conditions`` (a sequence of :class:`Condition`) as one array for :func:`first_met`:
    a row per clause, ``(condition's index, column index, 1 for abs(column), operator code, number)``,
    in order (rows x 5, float; 0 rows without conditions)."""
    rows = [(c, i, 1.0 if use_abs else 0.0, _OP_CODES[op], x)
            for c, cond in enumerate(conditions) for i, use_abs, op, x in cond.clauses]
    return np.array(rows, dtype=np.float64).reshape(len(rows), 5)


@njit
def first_met(row, table) -> int:
    """The index of the first condition of ``table`` (:func:`stop_table`) whose clauses all hold for ``row``
    (one row of :data:`COLUMNS`), -1 when none does. A comparison with NaN is false (``!=``: true)."""
    m = table.shape[0]
    j = 0
    while j < m:
        c = table[j, 0]
        ok = True
        while j < m and table[j, 0] == c:
            if ok:
                v = row[int(table[j, 1])]
                if table[j, 2] != 0.0:
                    v = abs(v)
                op, x = int(table[j, 3]), table[j, 4]
                if op == 0:
                    ok = v < x
                elif op == 1:
                    ok = v <= x
                elif op == 2:
                    ok = v > x
                elif op == 3:
                    ok = v >= x
                elif op == 4:
                    ok = v == x
                else:
                    ok = v != x
            j += 1
        if ok:
            return int(c)
    return -1


def parse_condition(text: object) -> Condition:
    """Parse a condition such as ``speed_mps < 0.05 and t_s > 1``.

    Raises
    ------
    ValueError
        With the reason (unknown column, malformed clause).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"expected a condition such as 'speed_mps < 0.05', got {text!r}")
    clauses = []
    for part in re.split(r"\s+and\s+", text.strip()):
        m = _CLAUSE_RE.match(part)
        if not m:
            raise ValueError(f"cannot read {part.strip()!r}: write 'column OP number' or 'abs(column) OP number' "
                             f"with OP one of < <= > >= == != (clauses joined by 'and')")
        name = m.group("absname") or m.group("name")
        if name not in INDEX:
            import difflib
            close = difflib.get_close_matches(name, COLUMN_NAMES, 1, 0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"unknown signal {name!r}{hint}; signals are the CSV columns")
        clauses.append((INDEX[name], m.group("absname") is not None, _OPS[m.group("op")], float(m.group("num"))))
    return Condition(text.strip(), tuple(clauses))


# --------------------------------------------------------------------------- metrics

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.Pow: operator.pow}


def expression_names(text: str) -> tuple:
    """Names used in an arithmetic expression (raises ValueError for anything else)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"cannot read the expression {text!r}: {exc.msg}") from None
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id not in ("abs", "min", "max", "sqrt"):
                names.append(node.id)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in ("abs", "min", "max", "sqrt") \
                    or node.keywords:
                raise ValueError(f"{text!r}: only abs(), min(), max() and sqrt() may be called")
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Load, ast.USub,
                                   ast.UAdd, *_BIN)):
            raise ValueError(f"{text!r}: only numbers, metric names, + - * / ** and abs/min/max/sqrt are allowed")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool)
                                               or not isinstance(node.value, (int, float))):
            raise ValueError(f"{text!r}: only numeric constants are allowed")
    return tuple(names)


def eval_expression(text: str, values: dict) -> float | None:
    """Evaluate an arithmetic expression over ``values`` (None if a value is None or the result is not finite)."""
    funcs = {"abs": abs, "min": min, "max": max, "sqrt": math.sqrt}

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return float(node.value)
        if isinstance(node, ast.Name):
            v = values[node.id]
            if v is None:
                raise _Missing
            return float(v)
        if isinstance(node, ast.UnaryOp):
            x = ev(node.operand)
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp):
            return _BIN[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Call):
            return funcs[node.func.id](*[ev(a) for a in node.args])
        raise ValueError(text)

    try:
        r = ev(ast.parse(text, mode="eval"))
    except (_Missing, ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    return r if math.isfinite(r) else None


class _Missing(Exception):
    pass


def evaluate_metric(spec, data: np.ndarray, values: dict) -> float | None:
    """Value of one metric over the recorded rows (None when undefined, e.g. a condition never held).

    Parameters
    ----------
    spec : acres_dbw_sim.scenario.validated.MetricSpec
    data : ndarray
        Rows x columns of the CSV.
    values : dict
        Metrics computed before this one (for ``expr``).
    """
    if spec.kind == "expr":
        return eval_expression(spec.arg, values)
    t = data[:, 0]
    m = np.ones(data.shape[0], dtype=bool)
    if spec.from_t is not None:
        m &= t >= spec.from_t - 1e-9
    if spec.to_t is not None:
        m &= t <= spec.to_t + 1e-9
    if spec.from_when is not None:
        hits = np.flatnonzero(spec.from_when.mask(data))
        if hits.size == 0:
            return None
        m[:hits[0]] = False
    if spec.kind == "first_t":
        hits = np.flatnonzero(m & spec.arg.mask(data))
        return float(t[hits[0]]) if hits.size else None
    idx = np.flatnonzero(m)
    if idx.size == 0:
        return None
    col = data[idx, INDEX[spec.arg]]
    if spec.kind == "final":
        return float(col[-1])
    if spec.kind == "initial":
        return float(col[0])
    if spec.kind == "max":
        return float(col.max())
    if spec.kind == "min":
        return float(col.min())
    if spec.kind == "mean":
        return float(col.mean())
    if spec.kind == "value_at":
        j = int(np.searchsorted(t[idx], spec.at_t - 1e-9))
        return float(col[j]) if j < idx.size else None
    raise AssertionError(spec.kind)
