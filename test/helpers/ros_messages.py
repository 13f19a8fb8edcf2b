"""Random ROS messages for property tests: every numeric and bool field drawn, nested messages recursed."""
from __future__ import annotations

import math

from hypothesis import strategies as st

__all__ = ["FLOATS", "UINT8", "fill_message"]

FLT_MAX = 3.4028234663852886e38
#: float values every float field gets: ordinary, edge, out of range, huge, non-finite
FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 90.0, -487.0, 487.0, 3000.0, -3000.0, 100.0, 101.0, -5.0,
                     1e6, -1e6, 1e30, -1e30, FLT_MAX, -FLT_MAX, math.inf, -math.inf, math.nan]),
    st.floats(-1e4, 1e4, allow_nan=False, width=32))
UINT8 = st.one_of(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 255]), st.integers(0, 255))


def _constants(msg_type) -> list[int]:
    """The integer constants a message type declares (its command types, gears, ...)."""
    return sorted({v for k, v in vars(msg_type).items() if k.isupper() and isinstance(v, int) and 0 <= v <= 255})


def fill_message(msg_type, draw, depth=0):
    """A message of ``msg_type`` with every numeric and bool field drawn (nested messages recursed);
    a uint8 field mostly takes one of the type's own constants, so each command type is reached."""
    msg = msg_type()
    constants = _constants(msg_type)
    for name, kind in msg_type.get_fields_and_field_types().items():
        if name == "header":
            continue
        if kind in ("float", "double"):
            setattr(msg, name, draw(FLOATS))
        elif kind == "boolean":
            setattr(msg, name, draw(st.booleans()))
        elif kind == "uint8" or kind == "octet":
            setattr(msg, name, draw(st.one_of(st.sampled_from(constants), UINT8) if constants else UINT8))
        elif "/" in kind and depth < 2:
            setattr(msg, name, fill_message(type(getattr(msg, name)), draw, depth + 1))
    return msg
