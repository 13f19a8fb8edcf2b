"""Field decoding of received commands (dbw/decode.py): every Python type a field can hold,
including the plain ``float`` and ``int`` of the fast path, decodes as documented."""

import math

import numpy as np
import pytest

from acres_dbw_sim.dbw.decode import as_enum, as_float


@pytest.mark.parametrize("x, expected", [
    (2.5, 2.5), (-0.0, -0.0), (7, 7.0), (np.float32(1.5), 1.5), (np.float64(-3.25), -3.25), (np.int16(-4), -4.0),
    (math.inf, math.inf), (-math.inf, -math.inf), (10 ** 400, math.inf), (-(10 ** 400), -math.inf),
])
def test_a_real_number_reads_as_its_float(x, expected):
    y = as_float(x)
    assert type(y) is float and y == expected and math.copysign(1.0, y) == math.copysign(1.0, expected)


@pytest.mark.parametrize("x", [math.nan, np.float32("nan"), True, False, "1.0", None, b"1", [1.0], 1j])
def test_anything_else_reads_as_nan(x):
    assert math.isnan(as_float(x))


@pytest.mark.parametrize("x, expected", [
    (2, 2), (3, 0), (0, 0), (-1, 0), (np.uint8(2), 2), (np.int64(1), 1), (10 ** 30, 0),
    (True, 0), (False, 0), (2.0, 0), ("2", 0), (None, 0),
])
def test_an_enum_reads_as_itself_when_known_and_none_otherwise(x, expected):
    y = as_enum(x, frozenset({1, 2}))
    assert type(y) is int and y == expected
