"""The DBW's per-step state as one record, and its parameters as another, for compiled code.

Every value the DBW keeps from one physics step to the next lives in one record: a numpy
structured scalar whose fields are declared once, by the module whose logic owns them (its
``STATE`` tuple of :class:`Field`), with their unit. The per-step logic is compiled functions
(:func:`acres_dbw_sim.model._jit.njit`) of that record ``s`` and of the parameter record ``p``
(:func:`param_record`: the numeric fields of :class:`~acres_dbw_sim.dbw.params.DbwParameters`,
same names), so one compiled call can run the whole DBW step; the Python classes of the DBW
are views over the record (:class:`Slot`).

A field of ``shape`` n holds one value per instance of a subsystem that exists n times (the
four actuator statuses: steering, brake, throttle, ULC), indexed by the instance's slot.
Booleans are stored as ``uint8`` (numba's records have no boolean arrays); a view reads them
as ``bool``.

Without numba (``ACRES_MODEL_NO_JIT=1``) the same functions run as Python over a stand-in
object with the same attribute names (:class:`StandIn`; arrays are lists) and over the
:class:`DbwParameters` itself.
"""
from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, fields

from ..model._jit import JIT

__all__ = ["Field", "STATE_MODULES", "state_fields", "record_dtype", "state_dtype", "new_record", "new_state",
           "StandIn", "param_record", "record_array", "entry", "run", "Slot"]

_KINDS = ("float", "int", "bool")


@dataclass(frozen=True)
class Field:
    """One field of the DBW's state record.

    Attributes
    ----------
    name : str
        Field name, prefixed by its subsystem (``st_enabled``, ``ulc_v_ref``).
    unit : str
        Unit (``s``, ``bar``, ``m/s``, ``%``, ``-`` for a number without one, ``bool``, ``enum``).
    doc : str
        What it holds.
    shape : int
        0 for a scalar, n for one value per slot of a subsystem that exists n times (or an n-vector).
    kind : str
        ``float`` (float64), ``int`` (int64) or ``bool`` (uint8, read as bool).
    """

    name: str
    unit: str = "-"
    doc: str = ""
    shape: int = 0
    kind: str = "float"

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"field {self.name!r}: kind {self.kind!r} is not one of {_KINDS}")


#: The modules of ``acres_dbw_sim.dbw`` whose ``STATE`` tuples make the record, in record order (a module
#: without ``STATE`` adds nothing).
STATE_MODULES = ("status", "actuators", "pedals", "brake_hold", "steering", "steering_column", "gear", "ulc",
                 "state", "system")


@functools.lru_cache(maxsize=None)
def state_fields() -> tuple:
    """Every :class:`Field` of the record, module by module (:data:`STATE_MODULES`).

    Raises
    ------
    ValueError
        If two modules declare one name.
    """
    out, seen = [], {}
    for mod in STATE_MODULES:
        for f in getattr(importlib.import_module(f"{__package__}.{mod}"), "STATE", ()):
            if f.name in seen:
                raise ValueError(f"state field {f.name!r} declared by {mod} and {seen[f.name]}")
            seen[f.name] = mod
            out.append(f)
    return tuple(out)


_NUMPY_KIND = {"float": "f8", "int": "i8", "bool": "u1"}


def record_dtype(declared: tuple):
    """The numpy structured dtype (aligned) of a tuple of :class:`Field`."""
    import numpy as np
    return np.dtype([(f.name, _NUMPY_KIND[f.kind], (f.shape,)) if f.shape else (f.name, _NUMPY_KIND[f.kind])
                     for f in declared], align=True)


@functools.lru_cache(maxsize=None)
def state_dtype():
    """The numpy structured dtype of the DBW's record (:func:`state_fields`)."""
    return record_dtype(state_fields())


class StandIn:
    """A record without numba: an object with one attribute per :class:`Field` (lists for arrays), zeros."""

    def __init__(self, declared: tuple) -> None:
        for f in declared:
            zero = {"float": 0.0, "int": 0, "bool": False}[f.kind]
            setattr(self, f.name, [zero] * f.shape if f.shape else zero)


def new_record(declared: tuple, dtype=None):
    """A new record of the fields ``declared``, all zeros: a numpy record (compiled; ``dtype`` if given, the
    dtype of ``declared`` computed once by the caller) or a :class:`StandIn` (interpreted)."""
    if JIT:
        import numpy as np
        return np.zeros(1, record_dtype(declared) if dtype is None else dtype).view(np.recarray)[0]
    return StandIn(declared)


def _rebuild_record(data: bytes, dtype):
    """A record of ``dtype`` holding ``data``, in a one-element array of its own (unpickling, deep copies)."""
    import numpy as np
    return np.frombuffer(bytearray(data), dtype=dtype).view(np.recarray)[0]


def _reduce_record(rec) -> tuple:
    """Pickle a numpy record as its bytes and dtype: numpy's own pickle of a record scalar comes back
    detached from any array, and writes into its array fields would be lost."""
    return _rebuild_record, (rec.tobytes(), rec.dtype)


if JIT:
    import copyreg

    import numpy as _np
    copyreg.pickle(_np.record, _reduce_record)


def record_array(s):
    """The one-element array a record ``s`` (of :func:`new_record`) lives in, as a plain ndarray: what the
    compiled functions take (``S``, reading ``s = S[0]``; numba unboxes an array in about 0.1 us, a record
    scalar in about 8 us); ``[s]`` when interpreted. Kept with the record's memoryviews (:func:`_accessor`)."""
    if not JIT:
        return [s]
    acc = _ACCESS.get(id(s))
    return (acc if acc is not None else _accessor(s))[2]


_ENTRIES: dict = {}


def entry(fn, example: tuple):
    """The compiled entry point of ``fn`` for the kinds of the arguments ``example`` (``_jit.specialise``), made
    once per function: a Python caller that always passes the same kinds (the command decoders: the record
    array, floats, ints, bools) skips numba's working out of the types (about 0.1 us an argument)."""
    e = _ENTRIES.get(fn)
    if e is None:
        from ..model._jit import specialise
        e = _ENTRIES[fn] = specialise(fn, example)
    return e


def run(fn, *args):
    """Call the compiled ``fn`` with ``args`` through its entry point (:func:`entry`, made from the first call's
    arguments): what a Python view does to run a compiled function on its record. Numba's dispatcher would work
    out the record array's type on every call (0.3 to 9 us for a structured dtype; this entry point 0.1 us), so
    every call of one function must pass the same kinds of value (the callers convert with ``float``, ``int``,
    ``bool``). Returns what ``fn`` returns."""
    e = _ENTRIES.get(fn)
    if e is None:
        e = entry(fn, args)
    return e(*args)


def new_state():
    """A new DBW record, all zeros (:func:`new_record` of :func:`state_fields`)."""
    return new_record(state_fields(), state_dtype() if JIT else None)


@functools.lru_cache(maxsize=64)
def param_record(p):
    """The numeric fields of ``p`` (a :class:`~acres_dbw_sim.dbw.params.DbwParameters`) as a record of the same
    names (tuples as arrays, booleans as uint8; texts left out) in a one-element array, as the compiled
    functions take it (``P``, reading ``p = P[0]``); ``[p]`` when interpreted. Built once per parameter set."""
    if not JIT:
        return [p]
    import numpy as np
    spec, values = [], []
    for f in fields(p):
        v = getattr(p, f.name)
        if isinstance(v, bool):
            spec.append((f.name, "u1"))
        elif isinstance(v, int):
            spec.append((f.name, "i8"))
        elif isinstance(v, float):
            spec.append((f.name, "f8"))
        elif isinstance(v, tuple):
            spec.append((f.name, "f8", (len(v),)))
        else:
            continue
        values.append(v)
    rec = np.zeros(1, np.dtype(spec, align=True))
    for (name, *_), v in zip(spec, values):
        rec[name][0] = v
    return rec


_ACCESS: dict = {}
_LAYOUTS: dict = {}
_CODE = {"f": "d", "i": "q", "u": "B"}


def _layout(dtype) -> dict:
    """``{field: (memoryview format, first element's index, elements)}`` of a record dtype (computed once)."""
    lay = _LAYOUTS.get(dtype)
    if lay is None:
        lay = {}
        for name, (sub, offset) in dtype.fields.items():
            code = _CODE[sub.base.kind]
            size = sub.base.itemsize
            lay[name] = (code, offset // size, int(sub.shape[0]) if sub.shape else 0)
        _LAYOUTS[dtype] = lay
    return lay


def _accessor(rec) -> tuple:
    """``(layout, {format: memoryview}, one-element array)`` of record ``rec``, kept while ``rec`` lives: a read
    through a memoryview costs about 40 ns, numpy's attribute access on a record about 1.4 us."""
    import weakref

    import numpy as np
    key = id(rec)
    arr = rec.base.view(np.ndarray)
    if arr.ndim != 1:
        arr = arr.reshape(1)   # a rebuilt record (unpickled, copied) sits in a 0-d array
    buf = memoryview(arr.view("u1"))
    acc = (_layout(rec.dtype), {"d": buf.cast("d"), "q": buf.cast("q"), "B": buf}, arr)
    _ACCESS[key] = acc
    weakref.finalize(rec, _ACCESS.pop, key, None)
    return acc


class Slot:
    """A view class's attribute over one field of the record: ``enabled = Slot("st_enabled", "bool")``.

    The owning object keeps the record in ``_s`` and, for a field with a shape, its slot index in
    ``_i`` (``indexed``), or reads the whole array as a new ``list`` or ``tuple`` (``whole``).
    Reading converts to the Python type of ``kind`` (float, int, bool); writing stores into the
    record (a test that sets a flag, a command that is decoded in Python). Compiled, the record's
    bytes are read and written through a memoryview (:func:`_accessor`); the descriptor keeps the
    record it last served with its memoryview (a reference: the record of the last DBW used stays
    alive until another is used), so a read of the same DBW's field costs about 0.1 us.
    """

    __slots__ = ("field", "conv", "indexed", "whole", "_rec", "_mv", "_k", "_n", "_put")

    def __init__(self, field: str, kind: str = "float", indexed: bool = False, whole: type | None = None) -> None:
        self.field = field
        #: the memoryview gives floats and ints as they are; a flag is read as bool
        self.conv = bool if kind == "bool" else None
        self.indexed = indexed
        #: for an array field read whole: the sequence type it is read as (``list``, ``tuple``), a copy
        self.whole = whole
        self._rec = None

    def _bind(self, rec) -> None:
        """Look up the memoryview and index of this field in record ``rec`` (compiled only)."""
        acc = _ACCESS.get(id(rec)) or _accessor(rec)
        code, self._k, self._n = acc[0][self.field]
        self._mv = acc[1][code]
        self._put = float if code == "d" else int
        self._rec = rec

    def _interpreted(self, obj):
        """The field of the :class:`StandIn` record of ``obj``."""
        conv = self.conv or (lambda x: x)
        v = getattr(obj._s, self.field)
        if self.whole is not None:
            return self.whole([conv(x) for x in v])
        return conv(v[obj._i] if self.indexed else v)

    def __new__(cls, field: str, kind: str = "float", indexed: bool = False, whole: type | None = None):
        # the common kinds get a __get__ of their own, without the branches of the general one (a report
        # reads about 160 fields: 0.08 us a read against 0.18 us)
        if cls is Slot and whole is None:
            cls = (_IndexedSlot if indexed else _FlagSlot if kind == "bool" else _NumberSlot)
        return object.__new__(cls)

    def _slow(self, obj):
        """A read of the general kind: a record other than the last served, a view of the interpreted
        stand-in, an indexed or whole field, a flag."""
        rec = obj._s
        if rec is not self._rec:
            if not JIT:
                return self._interpreted(obj)
            self._bind(rec)
        if self.indexed:
            v = self._mv[self._k + obj._i]
        elif self.whole is None:
            v = self._mv[self._k]
        else:
            mv, k, conv = self._mv, self._k, self.conv
            return self.whole([conv(mv[j]) if conv else mv[j] for j in range(k, k + self._n)])
        return v if self.conv is None else self.conv(v)

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return self._slow(obj)

    def __set__(self, obj, value) -> None:
        rec = obj._s
        if rec is not self._rec:
            if not JIT:
                if self.whole is not None:
                    arr = getattr(rec, self.field)
                    for j, x in enumerate(value):
                        arr[j] = x
                elif self.indexed:
                    getattr(rec, self.field)[obj._i] = value
                else:
                    setattr(rec, self.field, value)
                return
            self._bind(rec)
        mv, k, put = self._mv, self._k, self._put
        if self.whole is not None:
            for j, x in enumerate(value):
                mv[k + j] = put(x)
        else:
            mv[k + obj._i if self.indexed else k] = put(value)


class _NumberSlot(Slot):
    """A :class:`Slot` of a float or int field (its value as the memoryview gives it)."""

    __slots__ = ()

    def __get__(self, obj, cls=None):
        try:
            if obj._s is self._rec:
                return self._mv[self._k]
        except AttributeError:   # the class's attribute (obj None)
            return self
        return self._slow(obj)


class _FlagSlot(Slot):
    """A :class:`Slot` of a flag (a uint8 field read as bool)."""

    __slots__ = ()

    def __get__(self, obj, cls=None):
        try:
            if obj._s is self._rec:
                return self._mv[self._k] != 0
        except AttributeError:
            return self
        return self._slow(obj)


class _IndexedSlot(Slot):
    """A :class:`Slot` of one element of an array field, at the owner's ``_i``."""

    __slots__ = ()

    def __get__(self, obj, cls=None):
        try:
            if obj._s is self._rec:
                v = self._mv[self._k + obj._i]
                return v if self.conv is None else v != 0
        except AttributeError:
            return self
        return self._slow(obj)
