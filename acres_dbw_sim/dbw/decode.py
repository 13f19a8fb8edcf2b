"""Boundary of the DBW emulation: what the driver and firmware make of a command.

The ROS driver ``ds_dbw_can`` encodes each command into a CAN frame and the
firmware decodes it (dbw-interface.md §4.1 "Command forwarding", §4.5). This
module reproduces that path for the plain command dataclasses, once per
received command, so that nothing invalid reaches the actuators:

* **Unknown enum values** (an unknown ``cmd_type``, gear, turn signal ...) are
  replaced by NONE, as the driver does (§4.1, §2.2).
* **Wrong Python types** (a string, ``None``, a list) cannot occur on a real
  ROS topic; here a non-number float field is read as NaN, a non-integer enum
  field as unknown (-> NONE) and a non-bool flag as False.
* **NaN ``cmd`` with a non-NONE type**: the real driver only warns and sends an
  undefined encoded value (§4.1). The emulator treats the frame as a CMD_NONE
  frame: it keeps the command stream fresh (no timeout) but the actuator does
  not actuate (``enabled`` false, report ``cmd_type`` NONE). The decision is
  counted in ``CommandDecoder.invalid_count``.
* **+/-inf ``cmd``**: the driver's encoder saturates, so the value is clamped to
  the encodable range (§4.5) and then to the platform range, like any other
  out-of-range value.
* **Negative brake or throttle** values clamp to 0 (§4.5).
* **Rate fields**: 0 or NaN = firmware default; +inf or any negative value =
  unlimited; otherwise rounded to the CAN step, clamped to the largest code
  (254 steps; 255 means unlimited) and raised to the firmware floor (§4.5).
  A positive rate smaller than half a step is treated as the smallest code
  (then floored) rather than silently becoming "default".
"""

from __future__ import annotations

import math
import numbers
from dataclasses import fields
from operator import attrgetter

import numpy as np

__all__ = ["as_float", "as_flag", "as_enum", "decode_rate", "decode_ulc_limit", "LastCommand"]


def as_float(x: object) -> float:
    """Read a ``float32`` field; anything that is not a real number gives NaN.

    Parameters
    ----------
    x : object
        Field value as received.

    Returns
    -------
    float
        ``float(x)`` for int/float (bool excluded), NaN otherwise.
    """
    if type(x) is float:   # what every message gives: no ABC check (the 120 Hz path)
        return x
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return math.nan
    try:
        return float(x)
    except (OverflowError, ValueError):  # e.g. an int too large for a float
        return math.inf if x > 0 else -math.inf


def as_flag(x: object) -> bool:
    """Read a ``bool`` field; only ``True`` (or a non-zero integer) is true."""
    if isinstance(x, bool):
        return x
    if isinstance(x, numbers.Integral):
        return int(x) != 0
    return False


def as_enum(x: object, valid: frozenset[int]) -> int:
    """Read a one-byte enum field; unknown or ill-typed values give NONE (0).

    Parameters
    ----------
    x : object
        Field value as received.
    valid : frozenset of int
        The values the firmware understands.

    Returns
    -------
    int
        ``int(x)`` if it is in ``valid``, else 0 (the driver sends NONE, §4.1).
    """
    if type(x) is int:   # what every message gives: no ABC check (the 120 Hz path)
        return x if x in valid else 0
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        return 0
    v = int(x)
    return v if v in valid else 0


def decode_rate(x: object, step: float, floor: float, default: float) -> float:
    """Decode a command rate/accel field to the limit the firmware applies.

    Parameters
    ----------
    x : object
        ROS field value [unit/s].
    step : float
        CAN quantum of the field [unit/s] (e.g. 4 deg/s for steering rate).
    floor : float
        Firmware minimum of a non-zero user limit [unit/s] (§4.5).
    default : float
        Firmware default used for 0 / NaN [unit/s]; ``math.inf`` = unlimited.

    Returns
    -------
    float
        Limit [unit/s] > 0, ``math.inf`` when unlimited.

    Notes
    -----
    dbw-interface.md §2.2-2.4 and §4.5: 0 (or NaN) = default, +inf or negative
    = unlimited (code 255), codes 1..254 in ``step`` units, floor applied.
    """
    r = as_float(x)
    if r != r or r == 0.0:
        return default
    if r < 0.0 or r == math.inf:
        return math.inf
    code = min(254, max(1, int(round(min(r, 255.0 * step) / step))))   # huge finite r: no inf
    return max(code * step, floor)


def decode_ulc_limit(x: object, step: float, lo: float, hi: float, default: float) -> float:
    """Decode a ULC limit field (``limit_accel`` ... ``limit_jerk_brake``).

    Parameters
    ----------
    x : object
        ROS field value [m/s^2 or m/s^3].
    step : float
        CAN quantum (0.025 m/s^2 for accel/decel, 0.1 m/s^3 for jerk).
    lo, hi : float
        Decoder clamp (§4.12: accel 0.3-3.0, decel 0.3-6.0, jerk 1.0-25.0).
    default : float
        Firmware default used for 0 / NaN.

    Returns
    -------
    float
        The limit in force: ``default`` for 0/NaN, ``hi`` (the maximum) for
        +inf or negative values, else the quantised value clamped to
        ``[lo, hi]``.
    """
    r = as_float(x)
    if r != r or r == 0.0:
        return default
    if r < 0.0 or r == math.inf:
        return hi
    q = round(min(r, hi) / step) * step   # huge finite r: no inf
    return min(hi, max(lo, q))


class LastCommand:
    """The last command of one stream and what it decoded to, so that an unchanged re-send skips the decoding.

    A stack re-sends its set-point at 50 Hz or more (the DBW's timeout is 100 ms); each re-send refreshes the
    timeout, the enable and the clear (§4.1, §4.11), which the caller still stores, but decodes to what the
    last one did. A re-send is unchanged when it is of the command's class and every field has the value and
    the type of the last one's (``1`` is not ``True`` and ``2.0`` is not ``2`` to the decoders). Only a
    decoding that depends on the message alone may be kept: the caller does not keep one that counted an
    invalid set-point (every such command counts).

    Parameters
    ----------
    cls : type
        The command dataclass (``acres_dbw_sim.dbw.commands``).
    """

    __slots__ = ("_cls", "_get", "_values", "_types", "decoded", "_flat")

    def __init__(self, cls: type) -> None:
        self._cls = cls
        self._get = attrgetter(*(f.name for f in fields(cls)))
        self._values = None
        self._types = None
        self.decoded = None
        self._flat = None

    def find(self, msg: object):
        """What ``msg`` decodes to when it is an unchanged re-send of the kept command; else None."""
        if self._values is None or type(msg) is not self._cls:
            return None
        values = self._get(msg)
        if values != self._values or tuple(map(type, values)) != self._types:
            return None
        return self.decoded

    def keep(self, msg: object, decoded) -> None:
        """Keep ``msg`` (its field values, not the object: a caller may change it) and what it decoded to."""
        if type(msg) is not self._cls:
            self._values = None
            return
        values = self._get(msg)
        self._values, self._types, self.decoded = values, tuple(map(type, values)), decoded
        self._flat = None

    def arguments(self, msg: object, decode, t_s: float, dbw_enabled: bool, auto_clear: bool) -> tuple:
        """The arguments of an actuator's compiled store after its record, for ``msg`` arriving at ``t_s`` [s]:
        ``(t_s, *set-points, enable, clear[, ignore])``. The set-points and the message's own enable, clear (and
        ignore) bits are the last decoding for an unchanged re-send, else ``decode(msg)``, which returns
        ``((set-points...), enable, clear[, ignore]), keep`` (``keep`` False: not reusable, see the class); the
        enable bit is masked by ``dbw_enabled`` and ``auto_clear`` added to the clear (§4.1)."""
        d = self.find(msg)
        if d is None:
            d, reusable = decode(msg)
            if reusable:
                self.keep(msg, d)
            else:
                self.forget()
        return (float(t_s),) + d[0] + (bool(d[1] and dbw_enabled), bool(d[2] or auto_clear)) + d[3:]

    def kept(self, msg: object):
        """The kept decoding as one float array (the same array for every re-send of one decoding; not to be
        changed) when ``msg`` is an unchanged re-send of the kept command, else None: the set-points, then the
        message's enable and clear (and ignore) bits, integers and flags as numbers (the form
        :func:`~acres_dbw_sim.dbw.resend.store_kept` stores from compiled code)."""
        d = self.find(msg)
        if d is None:
            return None
        if self._flat is None:   # made once per kept decoding (the callers do not change it)
            self._flat = np.array(d[0] + d[1:], dtype=np.float64)
        return self._flat

    def forget(self) -> None:
        """Keep nothing (the next command is decoded)."""
        self._values = None
        self._flat = None
