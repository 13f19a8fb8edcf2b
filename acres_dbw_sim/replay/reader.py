"""Reading rosbag2 storage tolerantly: in file order, as far as the file goes, every problem noted.

``rosbags``' own readers refuse a bag whose MCAP file lacks its footer (a
recording killed before it closed), and they sort messages by time, which
hides timestamps that go backwards. A replay wants neither: it must replay
what can be read and say what it could not. This module scans the storage
itself:

* MCAP: with a readable footer and summary, every chunk at the offset its
  chunk index gives; otherwise records from the start (schemas, channels,
  messages, chunks), to the data end record or to the first record the file
  cuts short (the readable part of a cut uncompressed chunk is kept), resuming
  at the next chunk after damaged bytes. Chunks are decompressed with
  rosbags' decompressors (zstd, lz4) and checked against their message
  indexes: a message is kept only where the index has it, so damaged bytes
  are never taken for a message.
* sqlite3: the ``topics``, ``message_definitions`` and ``messages`` tables, in
  insertion order, up to the first unreadable page.

Losses are counted per topic against what the bag says it holds
(``metadata.yaml``'s ``topics_with_message_count``, else the MCAP summary's
statistics, else, as a lower bound, the message indexes) and reported as
``lost`` problems; a file without its MCAP footer is ``truncated``.

A bag is a rosbag2 directory (``metadata.yaml`` and its storage files; without
``metadata.yaml`` the storage files found in it are read) or a single ``.mcap``
or ``.db3`` file. Messages are returned as raw CDR bytes with their log time
[ns]; decoding is the caller's (see :mod:`acres_dbw_sim.replay.offline`).
Nothing here knows a message type.
"""
from __future__ import annotations

import array
import bisect
import mmap
import sqlite3
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

__all__ = ["Problem", "Channel", "BagScan", "scan_bag", "BagReadError", "DAMAGE_KINDS", "exit_status"]

_MAGIC = b"\x89MCAP0\r\n"
_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_OPLEN = struct.Struct("<BQ").unpack_from
_MSGHDR = struct.Struct("<HIQ").unpack_from   # channel id, sequence, log time


class BagReadError(ValueError):
    """Nothing of the bag can be read (no such path, not a bag); the message names the path."""


#: Problem kinds that always mean the replay is not the whole recording (exit status 1).
DAMAGE_KINDS = frozenset({"truncated", "corrupt", "lost", "undecodable", "not_engaged"})


@dataclass
class Problem:
    """Something in the bag that could not be read or used as it stands.

    Attributes
    ----------
    kind : str
        ``truncated``, ``corrupt``, ``lost``, ``no_metadata``, ``unknown_type``,
        ``missing_type``, ``type_mismatch``, ``undecodable``, ``backwards``,
        ``not_replayed``, ``before_start``, ``engaged_from_reports``, ``not_engaged``.
    topic : str or None
    message : str
        One sentence for the user.
    count : int
        Messages concerned (lost, skipped or moved; 0 when not applicable).
    serious : bool
        The replay is not the whole recording because of it: the bag is damaged
        (:data:`DAMAGE_KINDS`) or a topic the replay reads cannot be used. Any
        serious problem makes the exit status 1. Set from ``kind`` when not given.
    """

    kind: str
    topic: str | None
    message: str
    count: int = 0
    serious: bool = False

    def __post_init__(self) -> None:
        self.serious = bool(self.serious or self.kind in DAMAGE_KINDS)

    def __str__(self) -> str:
        return f"{self.kind}: {self.topic + ': ' if self.topic else ''}{self.message}"


def exit_status(problems: list) -> int:
    """The exit status of a replay that ran (``acres-replay``, also ``--info`` and ``--live``).

    Parameters
    ----------
    problems : list of Problem

    Returns
    -------
    int
        1 if a problem is serious (the replay is not the whole recording: damage,
        lost messages, a topic the replay reads unusable, no engagement), else 0.
    """
    return 1 if any(pr.serious for pr in problems) else 0


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
    metadata_counts : dict or None
        ``{topic: messages}`` that ``metadata.yaml`` lists, or None without it.
    summary_counts : dict
        ``{topic: messages}`` from the MCAP summaries' statistics.
    summary_complete : bool
        Every storage file had a readable MCAP summary with statistics.
    index_lost : dict
        ``{channel id: messages}`` that MCAP message indexes list and that could not be read.
    incomplete : bool
        Some storage could not be read to its end (cut or damaged).
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
    metadata_counts: dict | None = None
    summary_counts: dict = field(default_factory=dict)
    summary_complete: bool = True
    index_lost: dict = field(default_factory=dict)
    incomplete: bool = False

    def topic_counts(self) -> dict:
        """``{topic: messages read}`` over every channel of the topic."""
        out: dict = {}
        for ch in self.channels.values():
            out[ch.topic] = out.get(ch.topic, 0) + ch.count
        return out

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
        if scan.storage != "mcap":
            scan.summary_complete = False
    _report_lost(scan)
    return scan


def _report_lost(scan: BagScan) -> None:
    """A ``lost`` problem for every topic with fewer messages read than the bag says it holds.

    What the bag says: ``metadata.yaml``'s per-topic counts, else the MCAP
    summaries' statistics; without either (a recording that was not closed),
    the message indexes of the chunks read give a lower bound.
    """
    read = scan.topic_counts()
    if scan.metadata_counts is not None:
        expected, source = scan.metadata_counts, "metadata.yaml"
    elif scan.summary_complete and scan.summary_counts:
        expected, source = scan.summary_counts, "the MCAP summary"
    else:
        expected = None
    if expected is not None:
        for topic, n in sorted(expected.items()):
            lost = n - read.get(topic, 0)
            if lost > 0:
                scan.problems.append(Problem("lost", topic, f"{lost} of the {n} messages that {source} lists "
                                             "could not be read", lost))
        total = sum(max(0, n - read.get(t, 0)) for t, n in expected.items())
        for pr in scan.problems:
            if pr.kind == "truncated":
                pr.count = total
                pr.message += (f"; {total} messages lost (per topic below)" if total else
                               f"; no message lost: every topic has the count {source} lists")
        return
    by_topic: dict = {}
    for cid, n in scan.index_lost.items():
        topic = scan.channels[cid].topic if cid in scan.channels else f"channel {cid}"
        by_topic[topic] = by_topic.get(topic, 0) + n
    for topic, n in sorted(by_topic.items()):
        scan.problems.append(Problem("lost", topic, f"at least {n} messages that the chunks' message indexes list "
                                     "could not be read (the bag has no per-topic counts to tell the whole loss)",
                                     n))
    if scan.incomplete:
        scan.problems.append(Problem("lost", None, "how many messages the unreadable part held is unknown: the "
                                     "bag has neither metadata.yaml nor an MCAP summary with per-topic counts"))


def _directory_files(p: Path, scan: BagScan) -> list:
    meta = p / "metadata.yaml"
    if meta.is_file():
        try:
            info = yaml.safe_load(meta.read_text(encoding="utf-8"))["rosbag2_bagfile_information"]
            names = [Path(x).name for x in info.get("relative_file_paths", [])]
            scan.custom = {str(k): str(v) for k, v in (info.get("custom_data") or {}).items()}
            counts: dict = {}
            for entry in info.get("topics_with_message_count") or []:
                topic = entry["topic_metadata"]["name"]
                counts[topic] = counts.get(topic, 0) + int(entry["message_count"])
            scan.metadata_counts = counts
            files = [p / n for n in names]
            missing = [f.name for f in files if not f.exists()]
            if missing:
                scan.problems.append(Problem("corrupt", None, f"metadata.yaml lists missing storage files "
                                             f"{missing}; reading the others"))
                scan.incomplete = True
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

_FOOTER_LEN = 37          # footer record (1 + 8 + 20 bytes) and the closing magic
_KNOWN_OPS = frozenset(range(0x01, 0x10))


def _string(buf, pos: int) -> tuple:
    n = _U32(buf, pos)[0]
    return bytes(buf[pos + 4:pos + 4 + n]).decode("utf-8", "replace"), pos + 4 + n


def _scan_mcap(f: Path, want: Callable[[str], bool], scan: BagScan) -> None:
    try:
        with open(f, "rb") as fh:
            size = fh.seek(0, 2)
            if size == 0:
                scan.problems.append(Problem("truncated", None, f"{f.name} is empty: nothing recorded"))
                scan.incomplete = True
                return
            mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as err:
        raise BagReadError(f"{f}: cannot read: {err}") from err
    try:
        if mm[:8] != _MAGIC:
            scan.problems.append(Problem("corrupt", None, f"{f.name}: not an MCAP file (bad magic)"))
            scan.incomplete = True
            return
        st = _McapState(scan, want)
        summary = st.summary(mm, size, f.name)
        if summary is not None and summary["chunks"]:
            st.read_indexed(mm, summary)
            status, pos = "end", size
        else:
            pos, status = st.read_in_order(mm, size)
        st.finish()
        if summary is not None and summary["counts"] is not None:
            for cid, n in summary["counts"].items():
                ch = scan.channels.get(cid)
                if ch is not None:
                    scan.summary_counts[ch.topic] = scan.summary_counts.get(ch.topic, 0) + n
        else:
            scan.summary_complete = False
        if status == "corrupt":
            scan.incomplete = True
            scan.problems.append(Problem(
                "corrupt", None, f"{f.name}: unreadable record at byte {pos} (damaged data); the remaining "
                f"{size - pos} bytes cannot be read in order and no usable MCAP summary locates the chunks after it"))
        elif status == "cut":
            scan.incomplete = True
            scan.problems.append(Problem(
                "truncated", None, f"{f.name} ends at byte {size} inside a record (at byte {pos}) without the MCAP "
                f"footer: cut short or not closed; read {st.n} messages"
                + (f" up to t={st.t_max * 1e-9:.3f} s" if st.n else "")))
        elif summary is None:
            scan.problems.append(Problem(
                "truncated", None, f"{f.name}: no MCAP footer (the file was cut after its data end record, or not "
                "closed): the summary and its message counts are missing; the data section was read to its data "
                "end record"))
        for cid, n in st.lost.items():
            scan.index_lost[cid] = scan.index_lost.get(cid, 0) + n
    finally:
        mm.close()


class _McapState:
    """Walks MCAP records; keeps the wanted messages, counts every message, checks chunks against their
    message indexes (a record that is not where the index says, or not a record at all, is damage)."""

    def __init__(self, scan: BagScan, want: Callable[[str], bool]) -> None:
        self.scan = scan
        self.want = want
        self.schemas: dict = {}
        self.wanted: dict = {}   # channel id -> bool
        self.n = 0
        self.t_min = 2**63 - 1
        self.t_max = 0
        self.lost: dict = {}     # channel id -> messages the message indexes list but that were not read

    def finish(self) -> None:
        scan = self.scan
        if self.n:
            scan.start_ns = min(scan.start_ns, self.t_min) if scan.message_count else self.t_min
            scan.end_ns = max(scan.end_ns, self.t_max)
        scan.message_count += self.n

    def problem(self, kind: str, message: str) -> None:
        self.scan.problems.append(Problem(kind, None, message))
        self.scan.incomplete = True

    # ---- schema and channel records
    def _schema(self, buf, body: int) -> None:
        sid = _U16(buf, body)[0]
        name, q = _string(buf, body + 2)
        enc, q = _string(buf, q)
        dlen = _U32(buf, q)[0]
        self.schemas[sid] = (name, enc, bytes(buf[q + 4:q + 4 + dlen]).decode("utf-8", "replace"))

    def _channel(self, buf, body: int) -> None:
        cid, sid = struct.unpack_from("<HH", buf, body)
        topic, _q = _string(buf, body + 4)
        name, enc, text = self.schemas.get(sid, ("", "", ""))
        if cid not in self.scan.channels:
            self.scan.channels[cid] = Channel(topic, name, text, enc)
            self.wanted.pop(cid, None)

    # ---- the summary (footer, statistics, chunk indexes)
    def summary(self, mm, size: int, fname: str) -> dict | None:
        """The summary section of a closed file, or None (no footer, or a damaged summary: reported)."""
        if size < 8 + _FOOTER_LEN or mm[size - 8:size] != _MAGIC:
            return None
        foot = size - _FOOTER_LEN
        op, ln = _OPLEN(mm, foot)
        if op != 0x02 or ln != 20:
            return None
        start = _U64(mm, foot + 9)[0]
        if start == 0:
            return None   # a writer that wrote no summary
        out = {"chunks": [], "counts": None}
        if not 8 <= start <= foot:
            self.problem("corrupt", f"{fname}: the MCAP footer points outside the file: the summary is unusable; "
                         "the data is read in order")
            return None
        pos = start
        try:
            while pos < foot:
                op, ln = _OPLEN(mm, pos)
                body, nxt = pos + 9, pos + 9 + ln
                if op not in _KNOWN_OPS or nxt > foot:
                    raise ValueError(f"unreadable record at byte {pos}")
                if op == 0x03:
                    self._schema(mm, body)
                elif op == 0x04:
                    self._channel(mm, body)
                elif op == 0x08:
                    t0, t1, off, length = struct.unpack_from("<QQQQ", mm, body)
                    n = _U32(mm, body + 32)[0]
                    idx = {}
                    for q in range(body + 36, body + 36 + n, 10):
                        c, o = struct.unpack_from("<HQ", mm, q)
                        idx[c] = o
                    q = body + 36 + n
                    idx_len = _U64(mm, q)[0]
                    comp, q = _string(mm, q + 8)
                    out["chunks"].append((off, length, idx, idx_len))
                elif op == 0x0B:
                    n = _U32(mm, body + 42)[0]
                    out["counts"] = dict(struct.unpack_from("<HQ", mm, q)
                                         for q in range(body + 46, body + 46 + n, 10))
                pos = nxt
        except (struct.error, IndexError, ValueError) as err:
            self.problem("corrupt", f"{fname}: the MCAP summary is damaged ({err}): the data is read in order")
            return None
        out["chunks"].sort()
        return out

    def read_indexed(self, mm, summary: dict) -> None:
        """Every chunk at the offset its chunk index gives, checked against its message indexes."""
        size = len(mm)
        for off, length, idx_offsets, _idx_len in summary["chunks"]:
            try:
                op, ln = _OPLEN(mm, off)
                ok = op == 0x06 and 9 + ln == length and off + length <= size
            except struct.error:
                ok = False
            index = self._message_index(mm, idx_offsets.values(), size)
            if index is None and idx_offsets:
                self.problem("corrupt", f"the message index of the chunk at byte {off} is damaged: its messages "
                             "are read without it")
            if not ok:
                self.problem("corrupt", f"the chunk at byte {off} is damaged (its record header does not match "
                             "the chunk index): its messages are skipped")
                self._account(index, [])
                continue
            raw = self._open_chunk(mm, off + 9)
            if raw is None:
                self._account(index, [])
                continue
            self._walk_chunk(raw, index, off)

    def read_in_order(self, mm, size: int) -> tuple:
        """Records from the start to the data end record; returns (position reached, status)
        with status ``end`` (data end record reached), ``cut`` (the file ends inside a record) or
        ``corrupt`` (a record that cannot be one, and no chunk after it to resume at). After
        damaged bytes the walk resumes at the next chunk (:meth:`_resync`), reported."""
        pos = 8
        pending = None       # (chunk position, uncompressed records or None)
        index: list = []
        while pos + 9 <= size:
            status = None
            try:
                op, ln = _OPLEN(mm, pos)
                body = pos + 9
                nxt = body + ln
                if op not in _KNOWN_OPS and op < 0x80:
                    status = "corrupt"
                elif nxt > size:
                    if op == 0x06 and _plausible_chunk(mm, pos, size, cut=True):
                        self._flush(pending, index)   # a cut chunk: keep what an uncompressed one holds
                        self._cut_chunk(mm, body, size)
                        return pos, "cut"
                    status = "cut"
                elif op == 0x07 and pending is not None:
                    self._index_record(mm, body, index)
                    pos = nxt
                    continue
                else:
                    if pending is not None:
                        self._flush(pending, index)
                        pending, index = None, []
                    if op == 0x06:
                        pending = (pos, self._open_chunk(mm, body))
                    elif op == 0x05:   # a message outside chunks
                        self._walk_chunk(mm[pos:nxt], None, pos)
                    elif op == 0x03:
                        self._schema(mm, body)
                    elif op == 0x04:
                        self._channel(mm, body)
                    elif op in (0x0F, 0x02):   # data end, footer: the summary follows
                        return nxt, "end"
                    pos = nxt
                    continue
            except (struct.error, IndexError, UnicodeDecodeError):
                status = "corrupt"
            self._flush(pending, index)
            pending, index = None, []
            resume = _resync(mm, pos + 1, size)
            if resume is None:
                return pos, status
            self.problem("corrupt", f"unreadable bytes {pos}..{resume} (damaged data): skipped, reading resumed "
                         f"at the chunk at byte {resume}")
            pos = resume
        self._flush(pending, index)
        return pos, "cut"   # the file ends before the data end record

    def _flush(self, pending, index: list) -> None:
        if pending is None:
            return
        pos, raw = pending
        if raw is None:
            self._account(index or None, [])
        else:
            self._walk_chunk(raw, index or None, pos)

    # ---- chunks and message indexes
    def _open_chunk(self, buf, body: int):
        """The uncompressed records of the chunk whose body starts at ``body``, or None (reported)."""
        try:
            usize = _U64(buf, body + 16)[0]
            crc = _U32(buf, body + 24)[0]
            comp, q = _string(buf, body + 28)
            clen = _U64(buf, q)[0]
            data = bytes(buf[q + 8:q + 8 + clen])
            raw = _decompress(comp, data, usize)
        except Exception as err:  # damaged header or compressed data: report, go on with the next record
            self.problem("corrupt", f"the chunk at byte {body - 9} cannot be read ({err}): its messages are skipped")
            return None
        if crc and zlib.crc32(raw) != crc:
            self.problem("corrupt", f"the chunk at byte {body - 9} fails its CRC check: its messages are skipped")
            return None
        return raw

    def _index_record(self, buf, body: int, index: list) -> bool:
        """Append one message index record to ``index``: (channel id, array of (log time, offset) rows)."""
        try:
            cid = _U16(buf, body)[0]
            n = _U32(buf, body + 2)[0]
            data = bytes(buf[body + 6:body + 6 + n])
            if len(data) != n or n % 16:
                return False
            index.append((cid, np.frombuffer(data, dtype="<u8").reshape(-1, 2)))
            return True
        except struct.error:
            return False

    def _message_index(self, mm, offsets, size: int) -> list | None:
        index: list = []
        for o in offsets:
            try:
                op, ln = _OPLEN(mm, o)
            except struct.error:
                return None
            if op != 0x07 or o + 9 + ln > size or not self._index_record(mm, o + 9, index):
                return None
        return index

    def _account(self, index: list | dict | None, got: list) -> None:
        """Count as lost every message of ``index`` not among ``got`` (offsets read)."""
        if not index:
            return
        if isinstance(index, list):
            index = _index_dict(index)
        seen = set(got)
        for o, (cid, _t) in index.items():
            if o not in seen:
                self.lost[cid] = self.lost.get(cid, 0) + 1

    def _walk_chunk(self, raw, index: list | None, where: int, cut: bool = False) -> None:
        """Read the records of one chunk (``cut``: the file ends inside it), checked against its message
        ``index`` (:meth:`_index_record` parts) when there is one. The common case, an intact chunk, is
        read in one pass; anything else is undone and read again by :meth:`_walk_checked`."""
        scan = self.scan
        channels = scan.channels
        records = scan.records
        mark = (len(records), {c: ch.count for c, ch in channels.items()}, self.n, self.t_min, self.t_max)
        wanted = self.wanted
        append = records.append
        offs, cids, tss = array.array("Q"), array.array("H"), array.array("Q")
        n, t_min, t_max = self.n, self.t_min, self.t_max
        end = len(raw)
        pos = 0
        ok = True
        try:
            while pos + 9 <= end:
                op, ln = _OPLEN(raw, pos)
                nxt = pos + 9 + ln
                if nxt > end:
                    ok = cut
                    break
                if op == 0x05:
                    cid, _seq, t = _MSGHDR(raw, pos + 9)
                    ch = channels.get(cid)
                    if ch is None or ln < 22:
                        ok = False
                        break
                    offs.append(pos)
                    cids.append(cid)
                    tss.append(t)
                    n += 1
                    if t < t_min:
                        t_min = t
                    if t > t_max:
                        t_max = t
                    w = wanted.get(cid)
                    if w is None:
                        w = wanted[cid] = bool(self.want(ch.topic))
                    if w:
                        append((t, cid, bytes(raw[pos + 31:nxt])))
                    ch.count += 1
                elif op == 0x03:
                    self._schema(raw, pos + 9)
                elif op == 0x04:
                    self._channel(raw, pos + 9)
                else:
                    ok = False
                    break
                pos = nxt
        except (struct.error, IndexError, UnicodeDecodeError):
            ok = False
        if pos != end and not cut:
            ok = False   # bytes left that are no record
        self.n, self.t_min, self.t_max = n, t_min, t_max
        if ok and not index:
            return
        if ok:
            exp_off, exp_cid, exp_t = _index_arrays(index)
            if (len(offs) == len(exp_off) and np.array_equal(np.frombuffer(offs, dtype=np.uint64), exp_off)
                    and np.array_equal(np.frombuffer(cids, dtype=np.uint16), exp_cid)
                    and np.array_equal(np.frombuffer(tss, dtype=np.uint64), exp_t)):
                return
        del records[mark[0]:]   # undo, read again record by record
        for c, ch in channels.items():
            ch.count = mark[1].get(c, 0)
        self.n, self.t_min, self.t_max = mark[2:]
        self._walk_checked(raw, _index_dict(index) if index else None, where, cut)

    def _walk_checked(self, raw, index: dict | None, where: int, cut: bool = False) -> None:
        """Read the records of one chunk. With its message ``index`` ({offset: (cid, t)}) a message is kept
        only where the index has it, the walk resumes at the next indexed message after a damaged record,
        and the message just before a damaged record (its end may be damaged too) is dropped."""
        channels = self.scan.channels
        end = len(raw)
        if index and any(o + 31 > end for o in index):
            self.problem("corrupt", f"the message index of the chunk at byte {where} is damaged: its messages "
                         "are read without it")
            index = None
        msgs = []            # (offset, cid, t, end)
        damaged = None
        expected = sorted(index) if index else None
        pos = 0
        while pos + 9 <= end:
            try:
                op, ln = _OPLEN(raw, pos)
                nxt = pos + 9 + ln
                if nxt > end:
                    if cut:
                        break
                    raise ValueError
                if op == 0x05 and ln >= 22:
                    cid, _seq, t = _MSGHDR(raw, pos + 9)
                    if cid not in channels:
                        raise ValueError
                    msgs.append((pos, cid, t, nxt))
                elif op == 0x03:
                    self._schema(raw, pos + 9)
                elif op == 0x04:
                    self._channel(raw, pos + 9)
                else:
                    raise ValueError
                pos = nxt
                continue
            except (ValueError, struct.error, IndexError, UnicodeDecodeError):
                pass
            if damaged is None:
                damaged = pos
            if msgs and msgs[-1][3] == pos:
                msgs.pop()
            if expected is None:
                break
            j = bisect.bisect_right(expected, pos)
            if j == len(expected):
                break
            pos = expected[j]
        if pos != end and damaged is None and not cut:
            damaged = pos
        if index:
            if [(o, c, t) for o, c, t, _e in msgs] != [(o, *index[o]) for o in expected]:
                msgs = [m for m in msgs if index.get(m[0]) == (m[1], m[2])]
                if damaged is None:
                    damaged = -1
            self._account(index, [m[0] for m in msgs])
        if damaged is not None:
            kept = len(msgs)
            self.problem("corrupt", f"the chunk at byte {where} is damaged"
                         + (f" (unreadable from byte {damaged} of its records)" if damaged >= 0 else "")
                         + (f": the {kept} messages its index confirms are kept, the others skipped"
                            if index else f": its {kept} messages before the damage are kept, the rest skipped"))
        self._keep(raw, msgs)

    def _keep(self, raw, msgs: list) -> None:
        scan = self.scan
        channels = scan.channels
        wanted = self.wanted
        append = scan.records.append
        n, t_min, t_max = self.n, self.t_min, self.t_max
        for pos, cid, t, nxt in msgs:
            n += 1
            if t < t_min:
                t_min = t
            if t > t_max:
                t_max = t
            w = wanted.get(cid)
            if w is None:
                w = wanted[cid] = bool(self.want(channels[cid].topic))
            if w:
                append((t, cid, bytes(raw[pos + 31:nxt])))
            channels[cid].count += 1
        self.n, self.t_min, self.t_max = n, t_min, t_max

    def _cut_chunk(self, buf, body: int, end: int) -> None:
        try:
            comp, q = _string(buf, body + 28)
        except (struct.error, IndexError):
            return
        if comp == "" and q + 8 <= end:
            self._walk_chunk(buf[q + 8:end], None, body - 9, cut=True)


def _index_arrays(index: list) -> tuple:
    """Message index parts -> (offsets, channel ids, log times), sorted by offset."""
    off = np.concatenate([a[:, 1] for _c, a in index])
    t = np.concatenate([a[:, 0] for _c, a in index])
    cid = np.concatenate([np.full(len(a), c, dtype=np.uint16) for c, a in index])
    order = np.argsort(off, kind="stable")
    return off[order], cid[order], t[order]


def _index_dict(index: list) -> dict:
    """Message index parts -> ``{offset: (channel id, log time)}``."""
    return {int(o): (c, int(t)) for c, a in index for t, o in a}


def _plausible_chunk(buf, pos: int, size: int, cut: bool = False) -> bool:
    """True if a chunk record starts at ``pos``: its header fields agree with each other (record
    length, compression name, records length; uncompressed: the sizes equal). With ``cut`` the
    records may run past the end of the file."""
    try:
        op, ln = _OPLEN(buf, pos)
        if op != 0x06 or ln < 40 or (not cut and pos + 9 + ln > size):
            return False
        t0, t1, usize, _crc, n = struct.unpack_from("<QQQII", buf, pos + 9)
        if t0 > t1 or n > 8:
            return False
        comp = bytes(buf[pos + 41:pos + 41 + n])
        if comp not in (b"", b"zstd", b"lz4"):
            return False
        rlen = _U64(buf, pos + 41 + n)[0]
        return rlen == ln - 40 - n and (comp != b"" or rlen == usize)
    except (struct.error, IndexError):
        return False


def _resync(buf, start: int, size: int) -> int | None:
    """Position of the first plausible chunk record at or after ``start``, or None."""
    pos = start
    while True:
        pos = buf.find(b"\x06", pos, size - 9)
        if pos < 0:
            return None
        if _plausible_chunk(buf, pos, size):
            return pos
        pos += 1


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
            scan.incomplete = True
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
                                         f"({err}); read {n} messages"))
            scan.incomplete = True
        if n:
            scan.start_ns = min(scan.start_ns, t_min) if scan.message_count else t_min
            scan.end_ns = max(scan.end_ns, t_max)
        scan.message_count += n
    finally:
        con.close()
