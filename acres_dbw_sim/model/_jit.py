"""Compilation of the model's hot path with numba (optional).

The step's kernels (the driveline solve, the wheels, the tyres, the chassis,
the terrain query) are plain Python functions over flat arrays, decorated
with :func:`njit`. With numba installed they are compiled to machine code on
first use and cached next to their modules (``cache=True``: a later process
loads them in a fraction of a second instead of compiling again). Without
numba, or with ``ACRES_MODEL_NO_JIT=1`` or numba's ``NUMBA_DISABLE_JIT=1``,
the same functions run as Python over Python lists (``array`` below), about
as fast as the hand-written Python model they replaced; a warning says so
once. The results agree to the last bits of the root solver's tolerance.

Kernels use only scalar arithmetic and 1-D indexing, so that the same code
runs on a numpy array (compiled) and on a Python list (interpreted).
"""
from __future__ import annotations

import os
import warnings

__all__ = ["JIT", "njit", "array", "to_list", "specialise", "compiled_sources", "Packed", "packed_call",
           "HoldsEntry"]

JIT = False
_reason = ""
if os.environ.get("ACRES_MODEL_NO_JIT", "") not in ("", "0"):
    _reason = "ACRES_MODEL_NO_JIT is set"
else:
    try:
        import numba
        from numba.core import config as _numba_config
    except ImportError:  # pragma: no cover - depends on the environment
        _reason = "numba is not installed (pip install -r requirements/python.txt)"
    else:
        if _numba_config.DISABLE_JIT:
            _reason = "NUMBA_DISABLE_JIT is set"
        else:
            JIT = True



def compiled_sources(pkg) -> list:
    """The package's modules with compiled code and every package module they import, transitively.

    A module has compiled code when its source uses :func:`njit`; numba freezes the globals a
    kernel reads (constants, other kernels) into its machine code, so the modules those come
    from count too.

    Parameters
    ----------
    pkg : pathlib.Path
        The package's folder (``acres_dbw_sim/``).

    Returns
    -------
    list of pathlib.Path
        Sorted.
    """
    import re
    from pathlib import Path

    pkg = Path(pkg)
    root = pkg.parent
    relative = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
    texts = {f: f.read_text(encoding="utf-8") for f in pkg.rglob("*.py")}
    files = {f for f, text in texts.items() if "njit" in text}
    todo = list(files)
    while todo:
        f = todo.pop()
        here = f.relative_to(root).with_suffix("").parts[:-1]   # the importing module's package
        for dots, module, names in relative.findall(texts[f]):
            base = here[:len(here) - len(dots) + 1] + (tuple(module.split(".")) if module else ())
            targets = [base] + [base + (n.split()[0],) for n in names.strip("()").replace("\n", " ").split(",")
                                if n.strip() and not n.strip().startswith("#")]
            for parts in targets:
                for cand in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
                    if cand in texts and cand not in files:
                        files.add(cand)
                        todo.append(cand)
    return sorted(files)


def _kernel_cache_dir() -> str | None:
    """A numba cache directory named after a digest of every compiled module's source (:func:`compiled_sources`).

    numba keys a cached function on its own file's timestamp only: a kernel that calls (or
    inlines) a function of another module would load its old machine code after that other
    module changed, and run the old physics. A directory per digest of all the sources makes any
    change compile afresh, wherever in the package the compiled code lives; the directories of
    older digests are removed. None (numba's default, next to each module) when
    ``NUMBA_CACHE_DIR`` is set by the user or the directory cannot be written.
    """
    import hashlib
    import shutil
    from pathlib import Path

    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    pkg = Path(__file__).resolve().parents[1]
    h = hashlib.sha1()
    for f in compiled_sources(pkg):
        h.update(f.relative_to(pkg).as_posix().encode())
        h.update(f.read_bytes())
    base = Path(__file__).resolve().parent / "__pycache__"
    target = base / f"numba-{h.hexdigest()[:16]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
        for old in base.glob("numba-*"):
            if old != target:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return None
    return str(target)


if JIT:
    import numpy as np

    _cache = _kernel_cache_dir()
    if _cache is not None:
        _numba_config.CACHE_DIR = _cache

    def njit(fn=None, *, inline: bool = False):
        """Compile ``fn`` in nopython mode, cached on disk (no fast-math: IEEE results).

        ``inline=True`` (as ``@njit(inline=True)``) inlines a small function into its callers at
        numba's level (the hot per-wheel functions of the driveline solve).
        """
        if fn is None:
            return lambda f: njit(f, inline=inline)
        return numba.njit(cache=True, nogil=True, error_model="numpy", inline="always" if inline else "never")(fn)

    def array(values) -> "np.ndarray":
        """A float64 array of ``values`` (the kernels' state and scratch)."""
        return np.array(values, dtype=np.float64)

    def int_array(values) -> "np.ndarray":
        """An int64 array of ``values``."""
        return np.array(values, dtype=np.int64)

    def to_list(a) -> list:
        """The values of a kernel array as Python floats."""
        return a.tolist()

    #: (kernel, kinds of the arguments) -> compiled entry point (specialise)
    _ENTRY_POINTS: dict = {}

    _INT64 = (-(1 << 63), (1 << 63) - 1)

    def _kind(a):
        """A cheap key for numba's type of ``a``: an array's dtype (record fields included), dimensions,
        layout and flags; a tuple's items; the class of a float, a bool or an int within int64 (a larger
        int is typed uint64). None for anything else, which is then not memoised."""
        t = type(a)
        if t is Packed:
            return (Packed, a._type)
        if t is np.ndarray:
            f = a.flags
            return (a.dtype, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned)
        if t is tuple:
            items = tuple(_kind(x) for x in a)
            return None if None in items else items
        if t is float or t is bool:
            return t
        if t is int:
            return int if _INT64[0] <= a <= _INT64[1] else None
        return None

    def specialise(kernel, args: tuple):
        """The compiled entry point of ``kernel`` for the types of ``args`` (compiled, or loaded from the cache).

        A vehicle calls its step kernel with the same ~20 argument types on every step; numba's
        dispatcher would work out those types again on each call (about 0.4 us of a 9 us step on
        this machine, ``bench/bench_model.py``). The entry point converts each argument to the
        compiled type without that lookup, so every later call must pass the same kinds of value
        as ``args``: the same arrays' dtypes and dimensions (an array of another dtype of the same
        item size is not detected), floats where ``args`` has floats, ints where it has ints.

        Working out the types (``numba.typeof`` of every argument) costs 0.3-0.6 ms, paid by
        every vehicle built (one a sweep run); the entry point is kept per kernel and argument
        kinds (:func:`_kind`: dtype, dimensions, layout and flags of each array), so a process
        works them out once per kind of vehicle.
        """
        kinds = tuple(_kind(a) for a in args)
        key = (kernel, kinds) if None not in kinds else None
        entry = _ENTRY_POINTS.get(key) if key is not None else None
        if entry is None:
            entry = kernel.compile(tuple(numba.typeof(a) for a in args))
            if key is not None:
                _ENTRY_POINTS[key] = entry
        return entry

    from numba.core import types as _types
    from numba.experimental import structref as _structref

    @_structref.register
    class PackedType(_types.StructRef):
        """numba's type of a :class:`Packed`: one field, ``args``, of the packed tuple's type."""

        def preprocess_fields(self, fields):
            """The fields' types as numba gives them, literals widened (an int 3 is an int64)."""
            return tuple((name, _types.unliteral(typ)) for name, typ in fields)

    class Packed(_structref.StructRefProxy):
        """The arguments of a compiled step packed as one compiled value (a numba ``StructRef``).

        A compiled call converts each of its arguments from Python on every call: a step that takes
        some thirty arrays and two tuples of 27 floats spends about 2 us of a 4.4 us step in that
        conversion (docs/performance.md, "The step's arguments packed once"). A ``Packed`` is converted
        once, when it is made; a call that takes it converts one pointer (0.2 us). Inside compiled code
        ``pack.args`` is the tuple, and ``kernel(*pack.args, t_s)`` calls the kernel with it.

        The arrays are held, not copied: the packed step reads and writes the same buffers as the
        Python objects that own them. A tuple of floats is a copy of its values when packed (a
        parameter change that makes new tuples makes a new ``Packed``, as it makes new arrays).
        A copy (``copy.deepcopy``, ``pickle``) packs a copy of the arguments anew.

        Parameters
        ----------
        args : tuple
            The arguments, of the types numba compiles (arrays, floats, ints, tuples of them).
        """

        __slots__ = ("_args",)

        def __new__(cls, args: tuple):
            pack = _pack(args)
            pack._args = args   # the Python objects, for a copy
            return pack

        def __reduce__(self):
            return Packed, (self._args,)

    _structref.define_constructor(Packed, PackedType, ["args"])
    _structref.define_boxing(PackedType, Packed)

    @njit
    def _pack(args):
        """A :class:`Packed` of ``args``, made in compiled code (numba's own constructor is compiled anew in
        every process; this one is loaded from the cache)."""
        return Packed(args)
else:
    warnings.warn(f"acres_dbw_sim.model runs interpreted ({_reason}); a step takes about 8x longer",
                  RuntimeWarning, stacklevel=2)

    def njit(fn=None, *, inline: bool = False):
        """No compiler: ``fn`` runs as Python."""
        if fn is None:
            return lambda f: f
        return fn

    def array(values) -> list:
        """A list of floats (the interpreted kernels index lists faster than arrays)."""
        return [float(v) for v in values]

    def int_array(values) -> list:
        """A list of ints."""
        return [int(v) for v in values]

    def to_list(a) -> list:
        """The values of a kernel list (a copy)."""
        return list(a)

    def specialise(kernel, args: tuple):
        """No compiler: ``kernel`` itself."""
        return kernel

    class Packed:
        """No compiler: the arguments as a plain object (``pack.args`` is the tuple)."""

        __slots__ = ("args",)

        def __init__(self, args: tuple):
            self.args = args


def packed_call(tick, args: tuple, *example):
    """A call of the compiled ``tick(pack, *rest)`` with ``args`` packed once (:class:`Packed`):
    ``call(*rest)``, where ``rest`` are of the kinds of ``example`` (:func:`specialise`).

    ``tick`` is a small compiled function that calls a step kernel with ``*pack.args`` and the rest
    (e.g. ``vehicles/polaris/dbw_step.py ranger_dbw_tick``); the returned call converts one packed
    value and ``rest`` from Python instead of every array of ``args``.
    """
    from functools import partial

    pack = Packed(args)
    return partial(specialise(tick, (pack,) + tuple(example)), pack)


class HoldsEntry:
    """Mixin of an object that keeps one compiled entry point (:func:`specialise`) in the attribute named by
    ``_ENTRY``, made by its ``_make_entry()``: machine code does not pickle, so a copy (``copy.deepcopy``,
    ``pickle``) leaves it out of the state and makes it anew over the copy's own arrays (loaded from numba's
    cache). The vehicles' steps (the Ranger's ``model_step``, the tractor's ``tractor_advance``, the kinematic
    level's ``kinematic_advance``) are kept so."""

    _ENTRY = ""

    def _make_entry(self):
        """The compiled entry point for this object's arrays."""
        raise NotImplementedError

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop(self._ENTRY, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        setattr(self, self._ENTRY, self._make_entry())
