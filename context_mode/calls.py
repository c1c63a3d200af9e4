"""The call log: an append-only, bounded JSONL file of the hub's recent tool calls, and its reader.

One JSON object per ``\\n``-terminated line (``CallRecord.to_json``): the call's sequence number,
wall time, exposed tool, server, routing mode and reason, bytes in (the downstream's payload) and
out (what the agent got), repeat/delta, latency, the stored ref and the stage-1 text the agent got
(cut at ``MAX_STAGE1_CHARS``). The hub writes it after each ``tools/call`` (``hub.serve.server``);
the dashboard reads it, also from another process while the hub writes.

Contract:

- ``CallLog(path, max_records)`` is the single writer (the store's lock makes one hub per store
  directory). ``append`` writes one line and never raises for I/O (the log is best effort: a
  call never fails for it; a failure is logged once). When the file holds ``2 * max_records``
  lines it is rewritten atomically (``os.replace``) with the newest ``max_records``, so it stays
  bounded and a reader never sees half a file. Sequence numbers keep counting across restarts.
- ``CallLogReader(path)`` tails the file from the offset it reached (``refresh``), keeps each
  call's line offset and its small fields, never the stage-1 text, so 10,000 calls cost little
  memory; ``page`` returns newest first with a total, ``record(seq)`` reads one full record back.
  A rewritten (shorter or replaced) file is read again from the start; a torn last line waits for
  its end; a line that does not decode is skipped.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE_NAME = "calls.jsonl"
MAX_RECORDS = 10_000
MAX_STAGE1_CHARS = 32_000
TRUNCATED = "\n… (cut by the call log; the full reply was longer)"


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One tools/call as the agent saw it; ``seq`` is given by the log on append."""

    ts: float
    tool: str
    server: str
    mode: str
    reason: str
    bytes_in: int
    bytes_out: int
    latency_ms: float
    ref: str | None = None
    stage1: str = ""
    is_error: bool = False
    cache_hit: bool = False
    delta: str | None = None  # "added 3, removed 1 (line delta)" for a delta reply
    seq: int = 0

    def to_json(self) -> str:
        """One line; ``stage1`` comes last, after its length, so a reader can skip the text unparsed."""
        data = asdict(self)
        stage1 = data.pop("stage1")
        data["stage1_chars"] = len(stage1)
        data["stage1"] = stage1
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str | bytes) -> CallRecord:
        raw = json.loads(line)
        if not isinstance(raw, dict):
            raise ValueError("a call record is a JSON object")
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in raw.items() if key in known})


class CallLog:
    """The writer: appends records, numbers them, and keeps the file bounded."""

    def __init__(
        self, path: Path, *, max_records: int = MAX_RECORDS, mask: Callable[[str], str] | None = None
    ) -> None:
        self.path = path
        self.max_records = max(1, max_records)
        self._lines, self._next_seq = _count(path)
        self._warned = False
        self._mask = mask  # secrets are masked before the stage-1 text is written, as in the store

    def append(self, record: CallRecord) -> CallRecord:
        """Number ``record``, cut its stage-1 text, write it; returns what was written."""
        stage1 = record.stage1 if self._mask is None else self._mask(record.stage1)  # like every spill
        if len(stage1) > MAX_STAGE1_CHARS:
            stage1 = stage1[:MAX_STAGE1_CHARS] + TRUNCATED
        written = replace(record, seq=self._next_seq, stage1=stage1)
        self._next_seq += 1
        line = (written.to_json() + "\n").encode("utf-8", "surrogatepass")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
            self._lines += 1
            if self._lines >= 2 * self.max_records:
                self._trim()
        except OSError as exc:
            if not self._warned:
                log.warning("could not write the call log %s: %s", self.path, exc)
                self._warned = True
        return written

    def _trim(self) -> None:
        with self.path.open("rb") as handle:
            kept = handle.readlines()[-self.max_records :]
        temporary = self.path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.writelines(kept)
        os.replace(temporary, self.path)
        self._lines = len(kept)


def _count(path: Path) -> tuple[int, int]:
    """Lines in the file and the next sequence number (one past the last record's)."""
    try:
        with path.open("rb") as handle:
            lines = handle.readlines()
    except OSError:
        return 0, 1
    for line in reversed(lines):
        try:
            return len(lines), CallRecord.from_json(line).seq + 1
        except (ValueError, TypeError):
            continue
    return len(lines), 1


@dataclass(frozen=True, slots=True)
class CallSummary:
    """A record's small fields and where its line starts (the stage-1 text stays in the file)."""

    seq: int
    ts: float
    tool: str
    server: str
    mode: str
    reason: str
    bytes_in: int
    bytes_out: int
    latency_ms: float
    ref: str | None
    is_error: bool
    cache_hit: bool
    delta: str | None
    offset: int
    stage1_chars: int

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["offset"]
        return data


@dataclass(frozen=True, slots=True)
class CallPage:
    calls: tuple[CallSummary, ...]
    total: int  # matching calls
    offset: int
    limit: int


class CallLogReader:
    """Tails a call log written by another process; newest-first pages and single records."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._calls: list[CallSummary] = []
        self._by_seq: dict[int, CallSummary] = {}
        self._offset = 0
        self._identity: tuple[int, int] | None = None

    def refresh(self) -> list[CallSummary]:
        """Read what was appended since the last refresh; every call, oldest first."""
        try:
            status = self.path.stat()
        except OSError:
            self._reset(None)
            return self._calls
        identity = (status.st_dev, status.st_ino)
        if identity != self._identity or status.st_size < self._offset:
            self._reset(identity)
        if status.st_size == self._offset:
            return self._calls
        with self.path.open("rb") as handle:
            handle.seek(self._offset)
            data = handle.read()
        end = data.rfind(b"\n") + 1  # a torn last line is read once it ends
        position = self._offset
        for line in data[:end].splitlines(keepends=True):
            self._add(line, position)
            position += len(line)
        self._offset += end
        return self._calls

    def page(
        self, *, offset: int = 0, limit: int = 50, keep: Callable[[CallSummary], bool] | None = None
    ) -> CallPage:
        """Calls newest first, ``limit`` of them from ``offset``; ``keep`` filters them."""
        calls = self.refresh()
        chosen = calls if keep is None else [call for call in calls if keep(call)]
        offset, limit = max(0, offset), max(1, limit)
        newest = chosen[::-1][offset : offset + limit]
        return CallPage(tuple(newest), len(chosen), offset, limit)

    def record(self, seq: int) -> CallRecord | None:
        """The full record numbered ``seq`` (stage-1 text included), None when it is not in the log."""
        self.refresh()
        summary = self._by_seq.get(seq)
        if summary is None:
            return None
        try:
            with self.path.open("rb") as handle:
                handle.seek(summary.offset)
                record = CallRecord.from_json(handle.readline())
        except (OSError, ValueError, TypeError):
            return None
        return record if record.seq == seq else None

    def _reset(self, identity: tuple[int, int] | None) -> None:
        self._calls, self._by_seq, self._offset, self._identity = [], {}, 0, identity

    def _add(self, line: bytes, offset: int) -> None:
        # Inside a JSON string every quote is escaped, so the first raw ',"stage1":' is the key:
        # the fields before it parse on their own, and the text (most of the line) is never decoded.
        cut = line.find(STAGE1_KEY)
        head = line[:cut] + b"}" if cut >= 0 else line
        try:
            raw = json.loads(head)
            values = {**_SUMMARY_DEFAULTS, **{name: raw[name] for name in _SUMMARY_FIELDS if name in raw}}
            summary = CallSummary(**values, offset=offset, stage1_chars=int(raw.get("stage1_chars", 0)))
        except (ValueError, TypeError, AttributeError):
            log.debug("skipped a damaged line of %s at byte %d", self.path, offset)
            return
        self._calls.append(summary)
        self._by_seq[summary.seq] = summary


_SUMMARY_FIELDS = tuple(
    field.name for field in fields(CallSummary) if field.name not in ("offset", "stage1_chars")
)
_SUMMARY_DEFAULTS: dict[str, Any] = {"ref": None, "is_error": False, "cache_hit": False, "delta": None}
STAGE1_KEY = b',"stage1":'
