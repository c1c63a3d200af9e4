"""The project pool: long-term entries shared by every session of one project, in one JSONL file.

The session logs (``memory.store``) hold everything a session noted; the pool holds only what was
promoted to project memory (``memory.session`` promotes protected notes automatically, or a note
appended with ``scope="project"``), so a new session starts with its project's goals, decisions,
constraints, API signatures and file plans, never with the ordinary notes.

Records, appended to ``<sessions>/projects/<project key>.jsonl`` (see ``JsonlLog``: several hubs
may append at once, nothing is rewritten)::

    {"op": "open", "v": 1, "ts": ..., "project": "ctxhub", "identity": "/src/ctxhub"}
    {"op": "join", "session": "task-a", "ts": ...}
    {"op": "promote", "session": "task-a", "id": 8, "text": "...", "reason": "pinned", "pinned": true}
    {"op": "supersede", "session": "task-b", "id": 3, "old": ["task-a#8"], "ts": ...}
    {"op": "seen", "session": "task-b", "upto": 1234, "ts": ...}

Contract:

- ``block(session_id, query=..., budget=...)`` is what a session is shown when it opens: the live
  entries of *other* sessions within ``budget`` tokens (``memory.project_block``). ``greet`` is
  ``open``'s step: join, the block when the session is new or has news, then ``mark_seen``.
- ``unseen(session_id)`` counts promotions and supersessions by other sessions since that session
  last called ``mark_seen``: a resumed session is shown the block only when it is above zero.
- ``supersede`` marks older entries as replaced: they stay in the pool and in recall, marked, and
  leave the block. A ref is ``"session#id"``; ``resolve_refs`` checks refs and raises
  ``MemoryInputError`` naming a bad one.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from context_mode.errors import MemoryInputError
from context_mode.memory.identity import Project
from context_mode.memory.project_block import ProjectBlock, select_block
from context_mode.memory.store import Entry, JsonlLog
from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN

logger = logging.getLogger(__name__)

POOL_VERSION = 1
_REF = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]{0,127})?#(\d{1,9})\s*$")


def entry_ref(session_id: str, entry_id: int) -> str:
    return f"{session_id}#{entry_id}"


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One promoted entry of one session."""

    session_id: str
    id: int
    ts: float
    text: str
    reason: str | None
    pinned: bool
    position: int  # the file offset just past its record: a later entry has a larger one
    superseded_by: str | None = None  # the ref of the entry that replaced it

    @property
    def ref(self) -> str:
        return entry_ref(self.session_id, self.id)

    def as_entry(self) -> Entry:
        return Entry(
            id=self.id, ts=self.ts, text=self.text, pinned=self.pinned, reason=self.reason, promoted=True
        )


class ProjectPool:
    """The promoted entries of one project's sessions, kept in step with the pool file."""

    def __init__(self, directory: Path, project: Project, *, clock: Callable[[], float] = time.time) -> None:
        self.project = project
        self.directory = directory
        self.path = directory / f"{project.key}.jsonl"
        self._log = JsonlLog(self.path)
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, int], PoolEntry] = {}
        self._replaced: dict[str, str] = {}  # old ref -> new ref
        self._events: list[tuple[int, str]] = []  # (position, session) of promotions and supersessions
        self._sessions: dict[str, float] = {}
        self._seen: dict[str, int] = {}
        self._end = 0

    # -- writes -------------------------------------------------------------------------------------

    def join(self, session_id: str) -> None:
        """Record that ``session_id`` belongs to the project (once)."""
        with self._lock:
            self._sync()
            if session_id in self._sessions:
                return
            with self._exclusive():
                if session_id not in self._sessions:
                    self._append({"op": "join", "session": session_id, "ts": self._clock()})

    def promote(self, session_id: str, entry: Entry) -> None:
        """Add ``entry`` of ``session_id`` to the pool (once)."""
        with self._lock, self._exclusive():
            if (session_id, entry.id) in self._entries:
                return
            if session_id not in self._sessions:
                self._append({"op": "join", "session": session_id, "ts": self._clock()})
            self._append(
                {
                    "op": "promote",
                    "session": session_id,
                    "id": entry.id,
                    "ts": entry.ts,
                    "text": entry.text,
                    "reason": entry.reason,
                    "pinned": entry.pinned,
                }
            )

    def supersede(self, session_id: str, entry_id: int, old: Iterable[str]) -> None:
        """Mark the entries ``old`` (refs) as replaced by ``session_id#entry_id``."""
        refs = list(old)
        if not refs:
            return
        with self._lock, self._exclusive():
            self._append(
                {"op": "supersede", "session": session_id, "id": entry_id, "old": refs, "ts": self._clock()}
            )

    def mark_seen(self, session_id: str) -> None:
        """Remember how far ``session_id`` has looked; later arrivals count as unseen."""
        with self._lock:
            self._sync()
            last_event = max((position for position, _ in self._events), default=0)
            if session_id in self._seen and self._seen[session_id] >= last_event:
                return
            with self._exclusive():
                self._append({"op": "seen", "session": session_id, "upto": self._end, "ts": self._clock()})

    # -- reads --------------------------------------------------------------------------------------

    def sessions(self) -> tuple[str, ...]:
        with self._lock:
            self._sync()
            return tuple(self._sessions)

    def entries(self) -> tuple[PoolEntry, ...]:
        """Every promoted entry in file order, superseded ones marked."""
        with self._lock:
            self._sync()
            return tuple(self._marked(entry) for entry in self._entries.values())

    def replaced_by(self, session_id: str, entry_id: int) -> str | None:
        with self._lock:
            self._sync()
            return self._replaced.get(entry_ref(session_id, entry_id))

    def replacements(self, session_id: str) -> dict[int, str]:
        """This session's entries that later decisions replaced: entry id -> the new entry's ref."""
        with self._lock:
            self._sync()
            prefix = f"{session_id}#"
            found = {
                ref.removeprefix(prefix): new for ref, new in self._replaced.items() if ref.startswith(prefix)
            }
            return {int(number): new for number, new in found.items() if number.isdigit()}

    def unseen(self, session_id: str) -> int:
        with self._lock:
            self._sync()
            seen = self._seen.get(session_id, 0)
            return sum(1 for position, source in self._events if position > seen and source != session_id)

    def resolve_refs(self, session_id: str, refs: Iterable[str]) -> tuple[str, ...]:
        """Refs as ``session#id`` (``#id`` means this session); each must be a pool entry."""
        with self._lock:
            self._sync()
            resolved: list[str] = []
            for ref in refs:
                match = _REF.fullmatch(ref) if isinstance(ref, str) else None
                if match is None:
                    raise MemoryInputError(
                        f"supersedes entry {ref!r} is not a ref: write 'session-id#12' (or '#12' in this "
                        "session), as the From-earlier-sessions block and project recall show them"
                    )
                key = (match.group(1) or session_id, int(match.group(2)))
                if key not in self._entries:
                    raise MemoryInputError(
                        f"supersedes entry {entry_ref(*key)!r} is not in project memory; "
                        "context_recall(..., scope='project') shows the refs of promoted entries"
                    )
                resolved.append(entry_ref(*key))
            return tuple(dict.fromkeys(resolved))

    def block(
        self,
        session_id: str,
        *,
        query: str,
        budget: int,
        chars_per_token: float = DEFAULT_CHARS_PER_TOKEN,
    ) -> ProjectBlock | None:
        """Other sessions' live entries for a session that opens (see the module contract)."""
        with self._lock:
            self._sync()
            seen = self._seen.get(session_id, 0)
            entries = [self._marked(entry) for entry in self._entries.values()]
        return select_block(
            self.project.name,
            entries,
            session_id,
            seen=seen,
            query=query,
            budget=budget,
            chars_per_token=chars_per_token,
        )

    def greet(
        self, session_id: str, *, created: bool, query: str, budget: int, chars_per_token: float
    ) -> ProjectBlock | None:
        """What ``open`` shows: the block for a new session, or for a resumed one with news; marks it seen."""
        self.join(session_id)
        block = None
        if created or self.unseen(session_id):
            block = self.block(session_id, query=query, budget=budget, chars_per_token=chars_per_token)
        self.mark_seen(session_id)
        return block

    # -- the file -----------------------------------------------------------------------------------

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """The pool file's exclusive lock, with every other hub's records read first."""
        if not self._log.exists():
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            header = {"op": "open", "v": POOL_VERSION, "ts": self._clock(), "project": self.project.name}
            self._log.create({**header, "identity": self.project.identity})
        with self._log.locked():
            self._sync()
            yield

    def _append(self, record: dict[str, Any]) -> None:
        self._log.write(record)  # inside _exclusive, so the log was caught up: nothing to re-read
        self._apply(self._log.offset, record)
        self._end = self._log.offset

    def _sync(self) -> None:
        for position, record in self._log.read_new_positioned():
            try:
                self._apply(position, record)
            except (KeyError, TypeError, ValueError) as exc:
                logger.warning(
                    "project pool %s: skipped malformed %r record (%s)", self.path.name, record.get("op"), exc
                )
        self._end = max(self._end, self._log.offset)

    def _apply(self, position: int, record: dict[str, Any]) -> None:
        session = record.get("session")
        if record["op"] != "open" and not isinstance(session, str):
            raise TypeError("a pool record needs a session")
        match record["op"]:
            case "join":
                self._sessions.setdefault(str(session), float(record["ts"]))
            case "promote":
                entry = PoolEntry(
                    str(session),
                    _integer(record["id"]),
                    float(record["ts"]),
                    _text(record["text"]),
                    None if record.get("reason") is None else _text(record["reason"]),
                    bool(record.get("pinned", False)),
                    position,
                )
                self._entries.setdefault((entry.session_id, entry.id), entry)
                self._sessions.setdefault(entry.session_id, entry.ts)
                self._events.append((position, entry.session_id))
            case "supersede":
                new = entry_ref(str(session), _integer(record["id"]))
                for old in record["old"]:
                    self._replaced[_text(old)] = new
                self._events.append((position, str(session)))
            case "seen":
                self._seen[str(session)] = max(self._seen.get(str(session), 0), _integer(record["upto"]))
            case _:
                return  # "open", or a record of a later version: nothing to fold

    def _marked(self, entry: PoolEntry) -> PoolEntry:
        replaced = self._replaced.get(entry.ref)
        return entry if replaced is None else replace(entry, superseded_by=replaced)


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value
