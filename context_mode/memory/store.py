"""The append-only JSONL log of one memory session, and its replay into entries.

One JSON object per ``\\n``-terminated UTF-8 line; state changes are new lines, never rewrites::

    {"op": "open", "v": 1, "ts": 1700000000.0}
    {"op": "note", "id": 1, "ts": ..., "text": "...", "pinned": true, "reason": "pinned"}
    {"op": "summary", "id": 9, "ts": ..., "text": "...", "covers": [2, 3, 5], "method": "extractive"}
    {"op": "demote", "id": 4, "ts": ...}

A note promoted to project memory carries ``"scope": "project"``; a summary line supersedes the
entries it covers in the same write, so a crash cannot leave half a compaction.

``JsonlLog`` is the file both the session logs and the project pools (``memory.project``) use, safe
for several hubs at once: a file is created with mode 0600; each record is appended with one
``O_APPEND`` write while holding ``fcntl.flock(LOCK_EX)`` (records may exceed ``PIPE_BUF``), and a
writer that finds the file not ending in ``\n`` (a writer crashed mid-line) first ends that line.
Readers hold ``LOCK_SH`` and tail the file from the offset they reached, so each process sees every
other's records. A line that does not decode is skipped with a logging warning ("torn last line"
or "damaged line N"). Read-modify-append (a new entry's id) happens inside ``locked()``.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One note or summary of a session; ``protected`` is derived, never stored."""

    id: int
    ts: float
    text: str
    kind: Literal["note", "summary"] = "note"
    pinned: bool = False
    reason: str | None = None  # why the rules protect it ("pinned", "keyword:must", ...)
    demoted: bool = False  # lost its protection to the per-session cap
    superseded_by: int | None = None  # the summary that folded it
    covers: tuple[int, ...] = ()  # summaries: the entries folded into it
    method: str = ""  # summaries: "llm" or "extractive"
    promoted: bool = False  # also in the project pool: compaction never folds it

    @property
    def protected(self) -> bool:
        return self.reason is not None and not self.demoted and self.superseded_by is None

    @property
    def live(self) -> bool:
        """Not folded into a summary."""
        return self.superseded_by is None

    @property
    def order_key(self) -> int:
        """Where the entry sits in the story: a summary stands where its oldest original stood."""
        return min(self.covers) if self.covers else self.id


class JsonlLog:
    """One append-only JSONL file shared by threads and processes: locked appends, tailing reads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0  # bytes of the file this reader has consumed
        self._lines = 0
        self._lock = threading.RLock()
        self._held: int | None = None  # the descriptor holding LOCK_EX inside ``locked()``

    def exists(self) -> bool:
        return self.path.is_file()

    def create(self, header: Mapping[str, Any]) -> bool:
        """Create the file with its header record; False when it already existed."""
        try:
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return False
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            _write_all(descriptor, _line(header))
        finally:
            os.close(descriptor)
        return True

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the file's exclusive lock: what is read and appended inside is one consistent step."""
        with self._lock:
            if self._held is not None:
                yield
                return
            descriptor = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
                self._held = descriptor
                yield
            finally:
                self._held = None
                os.close(descriptor)  # closing releases the lock

    def read(self) -> list[dict[str, Any]]:
        """Every decodable record from the start of the file."""
        with self._lock:
            self.offset = self._lines = 0
            return self.read_new()

    def read_new(self) -> list[dict[str, Any]]:
        """The decodable records appended since the last read, in file order."""
        return [record for _, record in self.read_new_positioned()]

    def read_new_positioned(self) -> list[tuple[int, dict[str, Any]]]:
        """Like ``read_new``, each record with the file offset just past its line."""
        with self._lock:
            if self._held is not None:
                return self._read(self._held)
            try:
                descriptor = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return []
            try:
                fcntl.flock(descriptor, fcntl.LOCK_SH)
                return self._read(descriptor)
            finally:
                os.close(descriptor)

    def write(self, record: Mapping[str, Any]) -> None:
        """Append one record as one write under the exclusive lock."""
        with self.locked():
            descriptor = self._held
            assert descriptor is not None
            size = os.fstat(descriptor).st_size
            payload = _line(record)
            if size and os.pread(descriptor, 1, size - 1) != b"\n":
                payload = b"\n" + payload  # end a line torn by a crashed writer first
            _write_all(descriptor, payload)
            if self.offset == size:  # caught up before writing: our own record needs no re-read
                self.offset = size + len(payload)
                self._lines += payload.count(b"\n")

    def _read(self, descriptor: int) -> list[tuple[int, dict[str, Any]]]:
        size = os.fstat(descriptor).st_size
        if size < self.offset:
            logger.warning("memory log %s shrank; reading it again from the start", self.path.name)
            self.offset = self._lines = 0
        if size == self.offset:
            return []
        data = os.pread(descriptor, size - self.offset, self.offset)
        records: list[tuple[int, dict[str, Any]]] = []
        position = self.offset
        pieces = data.split(b"\n")
        for index, raw in enumerate(pieces):
            last = index == len(pieces) - 1
            if last and not raw:
                break
            position += len(raw) + (0 if last else 1)
            self._lines += 1
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                record = None
            if not isinstance(record, dict):
                # Under the lock no writer is mid-line, so an unterminated tail is a crashed write.
                where = "torn last line" if last or index == len(pieces) - 2 else "damaged line"
                logger.warning("memory log %s: skipped %s %d", self.path.name, where, self._lines)
                continue
            records.append((position, record))
        self.offset = position
        return records


class SessionLog(JsonlLog):
    """The JSONL file of one session."""

    def create_session(self, ts: float) -> bool:
        return self.create({"op": "open", "v": FORMAT_VERSION, "ts": ts})


def _write_all(descriptor: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]


def _line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def note_record(entry: Entry) -> dict[str, Any]:
    return {
        "op": "note",
        "id": entry.id,
        "ts": entry.ts,
        "text": entry.text,
        "pinned": entry.pinned,
        "reason": entry.reason,
        **({"scope": "project"} if entry.promoted else {}),
    }


def summary_record(entry: Entry) -> dict[str, Any]:
    return {
        "op": "summary",
        "id": entry.id,
        "ts": entry.ts,
        "text": entry.text,
        "covers": list(entry.covers),
        "method": entry.method,
    }


def demote_record(entry_id: int, ts: float) -> dict[str, Any]:
    return {"op": "demote", "id": entry_id, "ts": ts}


def replay(records: Iterable[Mapping[str, Any]], *, name: str = "session") -> dict[int, Entry]:
    """Fold records into entries keyed by id (ascending); malformed records are skipped with a warning."""
    return apply_records({}, records, name=name)


def apply_records(
    entries: dict[int, Entry], records: Iterable[Mapping[str, Any]], *, name: str = "session"
) -> dict[int, Entry]:
    """Fold more records into ``entries``; returns them keyed by id, ascending."""
    for record in records:
        try:
            _apply(entries, record)
        except (KeyError, TypeError, ValueError) as exc:
            logger.warning("memory %s: skipped malformed %r record (%s)", name, record.get("op"), exc)
    return dict(sorted(entries.items()))


def _apply(entries: dict[int, Entry], record: Mapping[str, Any]) -> None:
    op = record["op"]
    match op:
        case "open":
            return
        case "note":
            entry = Entry(
                id=_integer(record["id"]),
                ts=float(record["ts"]),
                text=_text(record["text"]),
                pinned=bool(record.get("pinned", False)),
                reason=_optional_text(record.get("reason")),
                promoted=record.get("scope") == "project",
            )
            entries[entry.id] = entry
        case "summary":
            covers = tuple(_integer(value) for value in record["covers"])
            entry = Entry(
                id=_integer(record["id"]),
                ts=float(record["ts"]),
                text=_text(record["text"]),
                kind="summary",
                covers=covers,
                method=str(record.get("method", "")),
            )
            entries[entry.id] = entry
            for covered in covers:
                if covered in entries:
                    entries[covered] = replace(entries[covered], superseded_by=entry.id)
        case "demote":
            entry_id = _integer(record["id"])
            if entry_id in entries:
                entries[entry_id] = replace(entries[entry_id], demoted=True)
        case _:
            raise ValueError(f"unknown op {op!r}")


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer id, got {value!r}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)
