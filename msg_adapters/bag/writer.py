"""Writing a rosbag2 directory: in this process (:class:`BagWriter`) or in a child (:class:`ProcessBagWriter`).

No CDR and no MCAP are written here: messages come serialized (by rosbags' serializer,
``Typestore.serialize_cdr``, or by the rmw's) and go through rosbags' public ``Writer`` API
(``add_connection``, ``write``). :class:`ProcessBagWriter` hands the bytes to a child process
(:func:`serve_writer_process`, a small framed protocol on its stdin), so that a recording
node's thread only copies them. No ROS.
"""

from __future__ import annotations

import atexit
import struct
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rosbags.interfaces import Qos
from rosbags.rosbag2 import Writer, WriterError

from .store import BAG_VERSION, STORAGES, BagError, typestore


class BagWriter:
    """A new rosbag2 directory taking rosbags messages or serialized (CDR) ones; thread-safe.

    A thin layer over rosbags' public ``Writer`` API: :meth:`add_topic` is
    ``Writer.add_connection`` (with our type store, so the definition and
    RIHS01 hash are stored), :meth:`write` is ``Writer.write``, and
    :meth:`write_message` serializes with ``Typestore.serialize_cdr`` first.

    Parameters
    ----------
    path : str or Path
        The bag directory to create (it must not exist, as with ``ros2 bag record``).
    storage : {'mcap', 'sqlite3'}
        Storage plugin (default MCAP, rosbag2's default since Iron).
    custom_data : dict, optional
        ``{key: str}`` stored in ``metadata.yaml`` (``custom_data``).

    Raises
    ------
    BagError
        If ``path`` exists, cannot be created, or ``storage`` is unknown.

    Notes
    -----
    ``metadata.yaml`` and the MCAP summary are written by :meth:`close`; a
    process killed before leaves a storage file without them, which
    :mod:`acres_dbw_sim.replay` still reads up to its last complete chunk.
    """

    def __init__(self, path: str | Path, storage: str = "mcap", custom_data: dict | None = None) -> None:
        if storage not in STORAGES:
            raise BagError(f"storage {storage!r}: must be one of {sorted(STORAGES)}")
        self.path = Path(path)
        self.storage = storage
        if self.path.exists():
            raise BagError(f"{self.path}: exists already; a bag is only ever written to a new directory")
        try:
            self._w = Writer(self.path, version=BAG_VERSION, storage_plugin=STORAGES[storage])
            for k, v in (custom_data or {}).items():
                self._w.set_custom_data(k, str(v))
            self._w.open()
        except (WriterError, OSError) as err:
            raise BagError(f"{self.path}: cannot create the bag: {err}") from err
        self._store = typestore()
        self._serialize = self._store.serialize_cdr
        self._conns: list = []      # topic id -> rosbags Connection
        self._types: list = []      # topic id -> message type name
        self._by_key: dict = {}
        self._lock = threading.Lock()
        self._closed = False
        self.message_count = 0

    def add_topic(self, topic: str, msgtype: str, qos: Qos | Iterable[Qos] | None = None) -> int:
        """Declare ``topic`` of ``msgtype`` (``pkg/msg/Name``); returns its id for :meth:`write`.

        Raises
        ------
        BagError
            If the type store does not know ``msgtype``.
        """
        key = (topic, msgtype)
        with self._lock:
            if key in self._by_key:
                return self._by_key[key]
            if msgtype not in self._store.fielddefs:
                raise BagError(f"{topic}: unknown message type {msgtype!r}")
            qos_list = [] if qos is None else [qos] if isinstance(qos, Qos) else list(qos)
            conn = self._w.add_connection(topic, msgtype, typestore=self._store, offered_qos_profiles=qos_list)
            self._conns.append(conn)
            self._types.append(msgtype)
            self._by_key[key] = len(self._conns) - 1
            return len(self._conns) - 1

    def write(self, topic_id: int, t_ns: int, data: bytes | memoryview) -> None:
        """Append one serialized message at log time ``t_ns`` [ns]; ignored once closed."""
        with self._lock:
            if self._closed:
                return
            self._w.write(self._conns[topic_id], t_ns, data)
            self.message_count += 1

    def write_message(self, topic_id: int, t_ns: int, msg: Any) -> None:
        """Serialize a rosbags message of the topic's type (``Typestore.serialize_cdr``) and append it."""
        data = self._serialize(msg, self._types[topic_id])
        with self._lock:
            if self._closed:
                return
            self._w.write(self._conns[topic_id], t_ns, data)
            self.message_count += 1

    def set_custom_data(self, key: str, value: str) -> None:
        """Set a ``custom_data`` entry (before :meth:`close`)."""
        with self._lock:
            if not self._closed:
                self._w.set_custom_data(key, str(value))

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run (later writes are ignored)."""
        return self._closed

    def close(self) -> None:
        """Write the storage summary and ``metadata.yaml``; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._w.close()

    def __enter__(self) -> "BagWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()   # what was written before an error is kept, readable


# ---------------------------------------------------------------------------------- a writer process

# The frames from ProcessBagWriter to its process: kind (1 byte), payload length (uint32), payload.
_FRAME = struct.Struct("<cI")
# One message inside a b"M" frame: topic id, log time [ns], length, then the serialized bytes.
_RECORD = struct.Struct("<HqI")
_PIPE_BYTES = 1 << 20      # asked of the kernel for the pipe (Linux F_SETPIPE_SZ; else its default)
_FLUSH_BYTES = 1 << 16     # messages held before they are sent without waiting for flush()


def _read_exact(stream: Any, n: int) -> bytes | None:
    """``n`` bytes from a binary stream, None at its end."""
    out = bytearray()
    while len(out) < n:
        chunk = stream.read(n - len(out))
        if not chunk:
            return None
        out += chunk
    return bytes(out)


def serve_writer_process(stdin: Any = None, stdout: Any = None) -> int:
    """The body of :class:`ProcessBagWriter`'s process: read frames from ``stdin``
    (binary; default the process's), write them into a :class:`BagWriter`, close the
    bag at the end of the input (the recorder closed it, or its process ended).

    The first frame opens the bag; ``ok`` or ``error <reason>`` goes back on
    ``stdout`` as one line. SIGINT and SIGTERM are ignored: the bag is closed when
    its writer says so, never in the middle of a chunk. Returns the exit status
    (0, or 1 when the bag could not be opened or a frame could not be written).
    """
    import pickle
    import signal
    import sys
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    head = _read_exact(stdin, _FRAME.size)
    if head is None:
        return 1
    _kind, size = _FRAME.unpack(head)
    try:
        path, storage, custom = pickle.loads(_read_exact(stdin, size) or b"")
        writer = BagWriter(path, storage, custom)
    except Exception as err:   # BagError, or a frame that is not what the writer sends
        stdout.write(f"error {err}\n".encode())
        stdout.flush()
        return 1
    stdout.write(b"ok\n")
    stdout.flush()
    status = 0
    try:
        while (head := _read_exact(stdin, _FRAME.size)) is not None:
            kind, size = _FRAME.unpack(head)
            payload = _read_exact(stdin, size)
            if payload is None:
                break
            if kind == b"M":
                write, offset, view = writer.write, 0, memoryview(payload)
                while offset < size:
                    cid, t_ns, n = _RECORD.unpack_from(payload, offset)
                    offset += _RECORD.size
                    write(cid, t_ns, view[offset:offset + n])
                    offset += n
            elif kind == b"T":
                writer.add_topic(*pickle.loads(payload))
            elif kind == b"D":
                writer.set_custom_data(*pickle.loads(payload))
    except Exception as err:   # a failing disk: say so, keep what was written
        print(f"bag writer process: {writer.path}: {err}", file=sys.stderr, flush=True)
        status = 1
    finally:
        writer.close()
    return status


WRITER_NICE = 10
"""Niceness of :class:`ProcessBagWriter`'s process: the bag's chunks and compression are background
work, and the node's tick (its stamps) and the node's subscribers come first on a busy machine."""


class ProcessBagWriter:
    """A :class:`BagWriter` in a child process (niceness :data:`WRITER_NICE`): the recording node's
    thread only hands it bytes.

    ``add_topic``, ``write``, ``set_custom_data`` and ``close`` as :class:`BagWriter`
    (the same bag, message for message and in the same order); the messages are
    collected and sent through a pipe in one write per :meth:`flush` (the node calls
    it once per tick) or when 64 KiB are held, and the child process
    (:func:`serve_writer_process`) does rosbags' ``Writer.write`` and the MCAP chunks
    on the machine's other core. The process has its own session, so a Ctrl-C in a
    terminal reaches only the node, which closes the bag; it ends when the pipe
    closes: by :meth:`close`, which waits for the bag to be complete, or by the
    node's process ending any other way (even SIGKILL), after which it completes
    the bag with what it received. Thread-safe.

    Parameters
    ----------
    path, storage, custom_data
        As :class:`BagWriter`.

    Raises
    ------
    BagError
        If the bag cannot be created (``path`` exists, not writable, unknown
        storage) or the process cannot be started; the message names the path.
    """

    def __init__(self, path: str | Path, storage: str = "mcap", custom_data: dict | None = None) -> None:
        import pickle
        import subprocess
        import sys
        self.path = Path(path)
        self.storage = storage
        self._store = typestore()
        self._pickle = pickle.dumps
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", f"import os, sys; os.nice({WRITER_NICE}); "
                                       "from msg_adapters.bag.writer import serve_writer_process; "
                                       "sys.exit(serve_writer_process())"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            raise BagError(f"{self.path}: cannot start the bag writer process: {err}") from err
        try:
            import fcntl
            fcntl.fcntl(self._proc.stdin.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
        except (ImportError, OSError):
            pass   # the default pipe: the node waits sooner when the process falls behind
        self._out = self._proc.stdin
        self._lock = threading.Lock()
        self._pending: list = []
        self._pending_bytes = 0
        self._closed = False
        self._by_key: dict = {}
        self.message_count = 0
        self._send(b"O", self._pickle((str(self.path), storage, custom_data or {})))
        reply = self._proc.stdout.readline().decode(errors="replace").strip()
        if reply != "ok":
            self._closed = True
            self._out.close()
            self._proc.wait()
            raise BagError(reply[len("error "):] if reply.startswith("error ") else
                           f"{self.path}: the bag writer process ended ({reply or 'no answer'})")
        atexit.register(self.close)

    def _send(self, kind: bytes, payload: bytes) -> None:
        self._out.write(_FRAME.pack(kind, len(payload)))
        self._out.write(payload)
        self._out.flush()

    def add_topic(self, topic: str, msgtype: str, qos: Qos | Iterable[Qos] | None = None) -> int:
        """As :meth:`BagWriter.add_topic` (ids in the order of the calls)."""
        key = (topic, msgtype)
        with self._lock:
            if key in self._by_key:
                return self._by_key[key]
            if msgtype not in self._store.fielddefs:
                raise BagError(f"{topic}: unknown message type {msgtype!r}")
            self._flush_locked()
            self._send(b"T", self._pickle((topic, msgtype, qos)))
            self._by_key[key] = len(self._by_key)
            return self._by_key[key]

    def write(self, topic_id: int, t_ns: int, data: bytes | memoryview) -> None:
        """Append one serialized message at log time ``t_ns`` [ns]; ignored once closed."""
        with self._lock:
            if self._closed:
                return
            self._pending.append(_RECORD.pack(topic_id, t_ns, len(data)))
            self._pending.append(data)
            self._pending_bytes += len(data) + _RECORD.size
            self.message_count += 1
            if self._pending_bytes >= _FLUSH_BYTES:
                self._flush_locked()

    def set_custom_data(self, key: str, value: str) -> None:
        """Set a ``custom_data`` entry (before :meth:`close`)."""
        with self._lock:
            if not self._closed:
                self._flush_locked()
                self._send(b"D", self._pickle((key, str(value))))

    def flush(self) -> None:
        """Send the messages held to the process (one pipe write)."""
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        if not self._pending or self._closed:
            return
        payload = b"".join(self._pending)
        self._pending.clear()
        self._pending_bytes = 0
        try:
            self._send(b"M", payload)
        except (BrokenPipeError, ValueError):   # the process is gone: nothing more can be recorded
            self._closed = True
            import sys
            print(f"bag writer process for {self.path} ended (exit status {self._proc.poll()}): "
                  f"recording stopped", file=sys.stderr, flush=True)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run (later writes are ignored)."""
        return self._closed

    def close(self, timeout_s: float = 60.0) -> None:
        """Send what is held, end the input and wait up to ``timeout_s`` [s] for the
        process to write the summary and ``metadata.yaml``; idempotent."""
        with self._lock:
            self._flush_locked()
            if self._out.closed:
                return
            self._closed = True
            try:
                self._out.close()
            except BrokenPipeError:
                pass
        try:
            self._proc.wait(timeout=timeout_s)
        except Exception:   # subprocess.TimeoutExpired: it finishes on its own
            pass
        self._proc.stdout.close()
