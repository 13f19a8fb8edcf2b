"""Reading rosbag2 storage tolerantly: in file order, as far as the file goes, every problem noted.

``rosbags``' own readers refuse a bag whose MCAP file lacks its footer (a
recording killed before it closed), and they sort messages by time, which
hides timestamps that go backwards. A replay wants neither: it must replay
what can be read and say what it could not. This module scans the storage
itself:

* MCAP: records from the start (schemas, channels, messages, chunks, which are
  decompressed with rosbags' decompressors for zstd and lz4), stopping at the
  data end record, or at the first record the file cuts short; the readable
  part of a cut uncompressed chunk is kept.
* sqlite3: the ``topics``, ``message_definitions`` and ``messages`` tables, in
  insertion order, up to the first unreadable page.

A bag is a rosbag2 directory (``metadata.yaml`` and its storage files; without
``metadata.yaml`` the storage files found in it are read) or a single ``.mcap``
or ``.db3`` file. Messages are returned as raw CDR bytes with their log time
[ns]; decoding is the caller's (see :mod:`acres_dbw_sim.replay.offline`).
Nothing here knows a message type.
"""
from __future__ import annotations

import mmap
import sqlite3
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

__all__ = ["Problem", "Channel", "BagScan", "scan_bag", "BagReadError"]

_MAGIC = b"\x89MCAP0\r\n"
_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_OPLEN = struct.Struct("<BQ").unpack_from
_MSGHDR = struct.Struct("<HIQ").unpack_from   # channel id, sequence, log time


class BagReadError(ValueError):
    """Nothing of the bag can be read (no such path, not a bag); the message names the path."""


@dataclass
class Problem:
    """Something in the bag that could not be read or used as it stands.

    Attributes
    ----------
    kind : str
        ``truncated``, ``corrupt``, ``no_metadata``, ``unknown_type``,
        ``missing_type``, ``type_mismatch``, ``undecodable``, ``backwards``,
        ``not_replayed``, ``before_start``.
    topic : str or None
    message : str
        One sentence for the user.
    count : int
        Messages concerned (0 when not applicable).
    """

    kind: str
    topic: str | None
    message: str
    count: int = 0

    def __str__(self) -> str:
        return f"{self.kind}: {self.topic + ': ' if self.topic else ''}{self.message}"


@dataclass
class Channel:
    """A topic of the bag (an MCAP channel or a sqlite3 topics row).

    Attributes
    ----------
    topic : str
    msgtype : str
        ``pkg/msg/Name``; empty when the storage holds no type for it.
    msgdef : str
        Message definition stored in the bag (``ros2msg`` text), or empty.
    encoding : str
        Definition encoding (``ros2msg``, ``ros2idl``) or empty.
    digest : str
        RIHS01 type hash from the bag, or empty.
    count : int
        Messages seen on it (all, wanted or not).
    """

    topic: str
    msgtype: str
    msgdef: str = ""
    encoding: str = ""
    digest: str = ""
    count: int = 0


@dataclass
class BagScan:
    """What :func:`scan_bag` read.

    Attributes
    ----------
    path : Path
    storage : str
        ``mcap`` or ``sqlite3``.
    channels : dict
        ``{channel id: Channel}``.
    records : list of (int, int, bytes)
        ``(log time [ns], channel id, CDR data)`` of the wanted topics, in file order.
    start_ns, end_ns : int
        First and last log time over every message read (any topic) [ns]; 0 if none.
    message_count : int
        Messages read, any topic.
    custom : dict
        ``custom_data`` of ``metadata.yaml`` (empty if none).
    problems : list of Problem
    """

    path: Path
    storage: str = ""
    channels: dict = field(default_factory=dict)
    records: list = field(default_factory=list)
    start_ns: int = 0
    end_ns: int = 0
    message_count: int = 0
    custom: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)

    def topics(self) -> dict:
        """``{topic: Channel}`` (the first channel of each topic)."""
        out: dict = {}
        for ch in self.channels.values():
            out.setdefault(ch.topic, ch)
        return out


def scan_bag(path: str | Path, want: Callable[[str], bool] | None = None) -> BagScan:
    """Read the bag at ``path``, keeping the messages of topics for which ``want(topic)`` holds.

    Parameters
    ----------
    path : str or Path
        A rosbag2 directory, or a ``.mcap`` / ``.db3`` file.
    want : callable, optional
        Topic filter (default: every topic).

    Returns
    -------
    BagScan
        With every problem met in ``problems``; never raises for damage inside a file.

    Raises
    ------
    BagReadError
        If ``path`` does not exist, holds no storage file, or is a ROS 1 bag.
    """
    p = Path(path)
    want = want or (lambda _t: True)
    scan = BagScan(p)
    if not p.exists():
        raise BagReadError(f"{p}: no such bag")
    if p.is_dir():
        files = _directory_files(p, scan)
    else:
        files = [p]
    for f in files:
        suffix = f.suffix.lower()
        if suffix == ".bag":
            raise BagReadError(f"{f}: a ROS 1 bag; convert it first: rosbags-convert --src {f} --dst DIR")
        if suffix == ".mcap":
            scan.storage = "mcap"
            _scan_mcap(f, want, scan)
        elif suffix == ".db3":
            scan.storage = "sqlite3"
            _scan_sqlite(f, want, scan)
        elif suffix in (".zstd", ".zst"):
            scan.problems.append(Problem("corrupt", None, f"{f.name}: file-compressed bags are not supported; "
                                         "decompress it first (zstd -d)"))
        else:
            raise BagReadError(f"{f}: not a rosbag2 storage file (.mcap or .db3)")
    return scan


def _directory_files(p: Path, scan: BagScan) -> list:
    meta = p / "metadata.yaml"
    if meta.is_file():
        try:
            info = yaml.safe_load(meta.read_text(encoding="utf-8"))["rosbag2_bagfile_information"]
            names = [Path(x).name for x in info.get("relative_file_paths", [])]
            scan.custom = {str(k): str(v) for k, v in (info.get("custom_data") or {}).items()}
            files = [p / n for n in names]
            missing = [f.name for f in files if not f.exists()]
            if missing:
                scan.problems.append(Problem("corrupt", None, f"metadata.yaml lists missing storage files "
                                             f"{missing}; reading the others"))
            files = [f for f in files if f.exists()]
            if files:
                return files
        except (yaml.YAMLError, KeyError, TypeError, AttributeError, OSError) as err:
            scan.problems.append(Problem("no_metadata", None, f"metadata.yaml unreadable ({err}); reading the "
                                         "storage files found in the directory"))
    else:
        scan.problems.append(Problem("no_metadata", None, "no metadata.yaml: the recording was not closed "
                                     "(killed or still running?); reading the storage files found in the directory"))
    files = sorted([*p.glob("*.mcap"), *p.glob("*.db3")])
    if not files:
        raise BagReadError(f"{p}: no .mcap or .db3 storage file in the directory")
    return files


# ---------------------------------------------------------------------------------- MCAP


def _string(buf, pos: int) -> tuple:
    n = _U32(buf, pos)[0]
    return bytes(buf[pos + 4:pos + 4 + n]).decode("utf-8", "replace"), pos + 4 + n


def _scan_mcap(f: Path, want: Callable[[str], bool], scan: BagScan) -> None:
    try:
        with open(f, "rb") as fh:
            size = fh.seek(0, 2)
            if size == 0:
                scan.problems.append(Problem("truncated", None, f"{f.name} is empty: nothing recorded"))
                return
            mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as err:
        raise BagReadError(f"{f}: cannot read: {err}") from err
    try:
        if mm[:8] != _MAGIC:
            scan.problems.append(Problem("corrupt", None, f"{f.name}: not an MCAP file (bad magic)"))
            return
        st = _McapState(scan, want)
        end, complete = st.records(mm, 8, size, top=True)
        st.finish()
        if not complete:
            scan.problems.append(Problem(
                "truncated", None, f"{f.name} ends at byte {size} inside a record (at byte {end}) without the "
                f"MCAP footer: cut short or not closed; read {scan.message_count} messages"
                + (f" up to t={scan.end_ns * 1e-9:.3f} s" if scan.message_count else ""), scan.message_count))
    finally:
        mm.close()


class _McapState:
    """Walks MCAP records; counts every message, keeps the wanted ones."""

    def __init__(self, scan: BagScan, want: Callable[[str], bool]) -> None:
        self.scan = scan
        self.want = want
        self.schemas: dict = {}
        self.wanted: dict = {}   # channel id -> bool
        self.n = 0
        self.t_min = 2**63 - 1
        self.t_max = 0

    def finish(self) -> None:
        scan = self.scan
        if self.n:
            scan.start_ns = min(scan.start_ns, self.t_min) if scan.message_count else self.t_min
            scan.end_ns = max(scan.end_ns, self.t_max)
        scan.message_count += self.n

    def records(self, buf, pos: int, end: int, top: bool) -> tuple:
        """Walk the records in ``buf[pos:end]``; returns (position reached, ended cleanly)."""
        scan = self.scan
        channels = scan.channels
        wanted = self.wanted
        append = scan.records.append
        n, t_min, t_max = self.n, self.t_min, self.t_max
        try:
            while pos + 9 <= end:
                op, ln = _OPLEN(buf, pos)
                body = pos + 9
                nxt = body + ln
                if nxt > end:
                    self.n, self.t_min, self.t_max = n, t_min, t_max
                    if op == 0x06 and top:   # a cut chunk: keep what an uncompressed one holds
                        self._cut_chunk(buf, body, end)
                    return pos, False
                if op == 0x05:
                    cid, _seq, t = _MSGHDR(buf, body)
                    n += 1
                    if t < t_min:
                        t_min = t
                    if t > t_max:
                        t_max = t
                    w = wanted.get(cid)
                    if w is None:
                        w = wanted[cid] = cid in channels and bool(self.want(channels[cid].topic))
                    if w:
                        append((t, cid, bytes(buf[body + 22:nxt])))
                        channels[cid].count += 1
                    elif cid in channels:
                        channels[cid].count += 1
                elif op == 0x06:
                    self.n, self.t_min, self.t_max = n, t_min, t_max
                    self._chunk(buf, body)
                    n, t_min, t_max = self.n, self.t_min, self.t_max
                elif op == 0x03:
                    sid = _U16(buf, body)[0]
                    name, q = _string(buf, body + 2)
                    enc, q = _string(buf, q)
                    dlen = _U32(buf, q)[0]
                    self.schemas[sid] = (name, enc, bytes(buf[q + 4:q + 4 + dlen]).decode("utf-8", "replace"))
                elif op == 0x04:
                    cid, sid = struct.unpack_from("<HH", buf, body)
                    topic, q = _string(buf, body + 4)
                    name, enc, text = self.schemas.get(sid, ("", "", ""))
                    if cid not in channels:
                        channels[cid] = Channel(topic, name, text, enc)
                        wanted.pop(cid, None)
                elif op in (0x0F, 0x02) and top:   # data end, footer: the summary follows
                    pos = nxt
                    self.n, self.t_min, self.t_max = n, t_min, t_max
                    return pos, True
                pos = nxt
        except (struct.error, IndexError, UnicodeDecodeError) as err:
            self.n, self.t_min, self.t_max = n, t_min, t_max
            scan.problems.append(Problem("corrupt", None, f"unreadable record at byte {pos}: {err}"))
            return pos, False
        self.n, self.t_min, self.t_max = n, t_min, t_max
        return pos, pos == end and not top

    def _chunk(self, buf, body: int) -> None:
        usize = _U64(buf, body + 16)[0]
        comp, q = _string(buf, body + 28)
        clen = _U64(buf, q)[0]
        data = bytes(buf[q + 8:q + 8 + clen])
        try:
            raw = _decompress(comp, data, usize)
        except Exception as err:  # damaged compressed data: report, go on with the next record
            self.scan.problems.append(Problem("corrupt", None, f"chunk at byte {body - 9} cannot be "
                                              f"decompressed ({comp}): {err}; its messages are skipped"))
            return
        self.records(raw, 0, len(raw), top=False)

    def _cut_chunk(self, buf, body: int, end: int) -> None:
        try:
            comp, q = _string(buf, body + 28)
        except (struct.error, IndexError):
            return
        if comp == "" and q + 8 <= end:
            self.records(buf, q + 8, end, top=False)


def _decompress(comp: str, data: bytes, size: int) -> bytes:
    if comp == "":
        return data
    from rosbags.rosbag2.storage_mcap import DECOMPRESSORS
    if comp not in DECOMPRESSORS:
        raise ValueError(f"unsupported compression {comp!r}")
    return DECOMPRESSORS[comp](data, size)


# ---------------------------------------------------------------------------------- sqlite3


def _scan_sqlite(f: Path, want: Callable[[str], bool], scan: BagScan) -> None:
    try:
        con = sqlite3.connect(f"file:{f}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise BagReadError(f"{f}: cannot open: {err}") from err
    try:
        try:
            cols = {r[1] for r in con.execute("PRAGMA table_info(topics)")}
            rows = con.execute("SELECT id, name, type" + (", type_description_hash" if "type_description_hash"
                                                         in cols else ", ''") + " FROM topics").fetchall()
        except sqlite3.DatabaseError as err:
            scan.problems.append(Problem("corrupt", None, f"{f.name}: the topics table cannot be read ({err}): "
                                         "nothing can be replayed from this file"))
            return
        defs: dict = {}
        try:
            for typ, enc, text in con.execute(
                    "SELECT topic_type, encoding, encoded_message_definition FROM message_definitions"):
                defs[typ] = (enc, text)
        except sqlite3.DatabaseError:
            pass   # older bags have no definitions
        base = max(scan.channels, default=0)
        ids = {}
        for tid, name, typ, digest in rows:
            enc, text = defs.get(typ, ("", ""))
            cid = base + tid
            scan.channels[cid] = Channel(name, typ or "", text or "", enc or "", digest or "")
            ids[tid] = cid
        wanted = {tid for tid, cid in ids.items() if want(scan.channels[cid].topic)}
        n = 0
        t_min, t_max = 2**63 - 1, 0
        last = 0
        append = scan.records.append
        try:
            for rid, tid, t, data in con.execute("SELECT id, topic_id, timestamp, data FROM messages ORDER BY id"):
                last = rid
                n += 1
                t_min = min(t_min, t)
                t_max = max(t_max, t)
                cid = ids.get(tid)
                if cid is not None:
                    scan.channels[cid].count += 1
                if tid in wanted:
                    append((t, cid, bytes(data)))
        except sqlite3.DatabaseError as err:
            scan.problems.append(Problem("truncated", None, f"{f.name}: messages unreadable after row {last} "
                                         f"({err}); read {n} messages", n))
        if n:
            scan.start_ns = min(scan.start_ns, t_min) if scan.message_count else t_min
            scan.end_ns = max(scan.end_ns, t_max)
        scan.message_count += n
    finally:
        con.close()
