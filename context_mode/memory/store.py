"""The append-only JSONL log of one memory session, and its replay into entries.

One JSON object per ``\\n``-terminated UTF-8 line; state changes are new lines, never rewrites::

    {"op": "open", "v": 1, "ts": 1700000000.0}
    {"op": "note", "id": 1, "ts": ..., "text": "...", "pinned": true, "reason": "pinned"}
    {"op": "summary", "id": 9, "ts": ..., "text": "...", "covers": [2, 3, 5], "method": "extractive"}
    {"op": "demote", "id": 4, "ts": ...}

A summary line supersedes the entries it covers in the same write, so a crash cannot leave half a
compaction. Each record is one ``os.write`` on an ``O_APPEND`` file created with mode 0600, so a
crash can tear only the last line: loading skips any line that does not decode, with a logging
warning, and the next write first ends the torn line so the new record stays on a line of its own.
One process owns a session file at a time (the hub); concurrent writers are not coordinated.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping
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


class SessionLog:
    """The JSONL file of one session: create, read and append records."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._needs_newline = False

    def exists(self) -> bool:
        return self.path.is_file()

    def create(self, ts: float) -> bool:
        """Create the file with its header record; False when it already existed."""
        try:
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return False
        try:
            os.write(descriptor, _line({"op": "open", "v": FORMAT_VERSION, "ts": ts}))
        finally:
            os.close(descriptor)
        return True

    def read(self) -> list[dict[str, Any]]:
        """All decodable records in order; undecodable lines are skipped with a warning."""
        data = self.path.read_bytes()
        self._needs_newline = bool(data) and not data.endswith(b"\n")
        lines = data.split(b"\n")
        records: list[dict[str, Any]] = []
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                record = None
            if not isinstance(record, dict):
                where = "torn last line" if number >= len(lines) - 1 else "damaged line"
                logger.warning("memory session %s: skipped %s %d", self.path.name, where, number)
                continue
            records.append(record)
        return records

    def write(self, record: Mapping[str, Any]) -> None:
        """Append one record as a single write."""
        payload = _line(record)
        if self._needs_newline:
            payload = b"\n" + payload
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, payload)
        finally:
            os.close(descriptor)
        self._needs_newline = False


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
    entries: dict[int, Entry] = {}
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
