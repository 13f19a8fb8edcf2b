"""Little-endian plain CDR written with ``struct``: the layout rmw_fastrtps serializes.

The node hands the serialized bytes to rclpy's raw publish path
(``Publisher.publish(bytes)``), which skips converting a Python message
object to C and serializing it: most of the node's CPU otherwise
(docs/performance.md). Which message types are written this way, and their field order,
is in the adapters (:mod:`msg_adapters.ds_dbw`, :mod:`msg_adapters.vehicle_state`);
the tests compare every one with the rmw's serialization.
"""

from __future__ import annotations

import struct

__all__ = ["CDR_LE", "cdr_struct"]

#: The CDR encapsulation header of a little-endian plain-CDR message (rmw_fastrtps' serialization).
CDR_LE = b"\x00\x01\x00\x00"


def cdr_struct(items: list) -> struct.Struct:
    """The little-endian ``Struct`` of a CDR message: the encapsulation header (``4s``,
    pass :data:`CDR_LE`), then ``items`` in order.

    Each item is a ``struct`` format character of a primitive (``?``, ``B``, ``i``,
    ``I``, ``f``, ``d``, ...; aligned to its size) or ``("S", n)``: a string of ``n``
    bytes including its NUL (a uint32 length aligned to 4, then the bytes: pass
    ``n`` and the encoded string, ``struct`` adds the NUL). A sequence's length is a
    ``"I"``. Alignment counts from the end of the encapsulation header, as CDR does;
    padding bytes are zero.

    Raises
    ------
    struct.error
        On an item that is not a format character or a string.
    """
    fmt, off = ["<4s"], 0
    for item in items:
        if isinstance(item, tuple):
            pad = -off % 4
            fmt.append("x" * pad + f"I{item[1]}s")
            off += pad + 4 + item[1]
        else:
            size = struct.calcsize("<" + item)
            pad = -off % size
            fmt.append("x" * pad + item)
            off += pad + size
    return struct.Struct("".join(fmt))
