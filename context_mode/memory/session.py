"""Session memory: the working notes an agent keeps for a long task, sized for its next turn.

Nothing here can see the client's context window; the agent calls these operations itself.

Contract:

- With ``mask`` (the hub passes ``Store.mask``), secrets in a note or a compaction summary are
  masked before it is kept and written, so what ``get`` returns is what the JSONL file holds.
- ``open`` and ``append`` create a session (a JSONL log, see ``memory.store``); ``status``, ``get``,
  ``compact`` and ``recall`` raise ``UnknownSessionError`` for a session never opened.
- ``get`` is the snapshot for the next turn: every protected entry plus the ``window`` most recent
  live entries, in story order. When their estimated tokens exceed ``budget`` it returns a
  ``WindowDirective`` instead (counts, protected labels, the calls to make), never the raw text.
- Protection is decided when a note is appended (``memory.protection``). At most ``max_protected``
  entries per session stay protected: beyond that the oldest non-pinned protected entry (the
  oldest pinned one when all are pinned) is demoted. It keeps its text; only the guarantee goes.
- ``compact`` folds the live unprotected entries older than the ``compact_keep`` most recent into
  one summary entry of at most ``summary_tokens`` and ``summary_ratio`` of their size. The
  ``Summarizer`` writes it if one is given; on ``None``, an empty answer or one no shorter than
  its input, and without one, the extractive summary does. Code blocks survive verbatim. The
  originals are marked superseded, never deleted, and stay recallable.
- ``recall`` ranks every entry, superseded ones included, by BM25 (tantivy) blended with recency.
- Thread-safe: one lock per session, so a slow summariser blocks only its own session. Several
  processes may share ``directory``: each operation first reads what others appended, and an
  append takes the file lock to pick its id (``memory.store``).

Project memory (with ``project``; see ``memory.project``): a session joins its project's pool when
it is created. An appended note is promoted to the pool when ``scope="project"``, when it
``supersedes`` pool entries, or automatically by ``MemoryPolicy.promote`` (``"protected"``: every
protected note; ``"pinned"``; ``"none"``). A promoted entry is never folded by ``compact``.
``open`` returns the pool's block for a new session, and for a resumed one only when other
sessions promoted or superseded something since it last looked. ``recall(scope="project")``
ranks the entries of every session of the project, each hit naming its session.

Errors, all the caller's fault (defined in ``context_mode.errors``, re-exported here)::

    ContextModeError
    └── MemoryInputError (also a ValueError)
        ├── SessionIdError        the session id is not a safe file name
        ├── UnknownSessionError   the session was never opened
        └── EntryError            the note is empty or over ``max_entry_chars``
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from cachetools import LRUCache

from context_mode.errors import EntryError, MemoryInputError, SessionIdError, UnknownSessionError  # noqa: F401
from context_mode.memory.identity import Project
from context_mode.memory.policy import MemoryPolicy, check_scope, checked_note, promotes
from context_mode.memory.project import ProjectPool
from context_mode.memory.protection import protection_reason
from context_mode.memory.recall import blend, recall_project
from context_mode.memory.search import SessionIndex
from context_mode.memory.store import (
    Entry,
    SessionLog,
    apply_records,
    demote_record,
    note_record,
    replay,
    summary_record,
)
from context_mode.memory.summary import Summarizer, keep_code_blocks, key_terms, summarize_extractive
from context_mode.memory.table import EntryTable
from context_mode.memory.views import (
    Appended,
    Compaction,
    EntryDigest,
    Opened,
    RecallHit,
    SessionStatus,
    Window,
    WindowDirective,
)
from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN, estimate_tokens

__all__ = [
    "Appended",
    "Compaction",
    "Entry",
    "EntryDigest",
    "EntryError",
    "MemoryInputError",
    "MemoryPolicy",
    "Opened",
    "RecallHit",
    "SessionIdError",
    "SessionMemory",
    "SessionStatus",
    "UnknownSessionError",
    "Window",
    "WindowDirective",
]

SESSION_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
ENTRY_OVERHEAD_TOKENS = 8  # the "#12 [pinned]" label and line breaks around each entry
HEADER_TOKENS = 24
MIN_SUMMARY_TOKENS = 40


@dataclass(slots=True)
class _Session:
    log: SessionLog
    table: EntryTable  # the entries and the views an append needs, kept incrementally
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def entries(self) -> dict[int, Entry]:
        return self.table.entries

    @property
    def next_id(self) -> int:
        return self.table.next_id


class SessionMemory:
    """Working notes per session, stored as JSONL files in ``directory``."""

    def __init__(
        self,
        directory: Path,
        policy: MemoryPolicy | None = None,
        *,
        clock: Callable[[], float] = time.time,
        summarizer: Summarizer | None = None,
        chars_per_token: float = DEFAULT_CHARS_PER_TOKEN,
        max_indexes: int = 8,
        mask: Callable[[str], str] | None = None,
        project: Project | None = None,
    ) -> None:
        self.directory = directory
        self.project = ProjectPool(directory / "projects", project, clock=clock) if project else None
        self._mask = mask  # masks secrets before a note reaches disk (the Store's ``mask``)
        self.policy = policy or MemoryPolicy()
        self.chars_per_token = chars_per_token  # the hub may set a calibrated value later
        self._clock = clock
        self._summarizer = summarizer
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        self._indexes: LRUCache[str, SessionIndex] = LRUCache(maxsize=max_indexes)

    # -- the operations ---------------------------------------------------------------------------

    def open(self, session_id: str, *, task: str = "") -> Opened:
        """Create the session or load it from disk; with a project, what other sessions left.

        ``task`` (and the session id's words) rank the project's entries by relevance.
        """
        session, created = self._session(session_id, create=True)
        with session.lock:
            self._sync(session)
            status = self._status(session_id, session)
            own = " ".join(entry.text for entry in session.entries.values() if entry.pinned)
        if self.project is None:
            return Opened(status, created)
        block = self.project.greet(
            session_id,
            created=created,
            query=" ".join([task, re.sub(r"[-_.]+", " ", session_id), own]),
            budget=self.policy.project_budget,
            chars_per_token=self.chars_per_token,
        )
        return Opened(status, created, block)

    def append(
        self,
        session_id: str,
        text: str,
        *,
        pinned: bool = False,
        scope: str = "session",
        supersedes: tuple[str, ...] = (),
    ) -> Appended:
        """Save a note (creating the session if needed); applies the protection cap.

        ``scope="project"`` or ``supersedes`` (refs ``"session#id"`` of pool entries it replaces)
        promote it to project memory; so does ``policy.promote`` for protected notes.
        """
        check_scope(scope)
        if self.project is None and scope == "project":
            raise MemoryInputError("project memory is off in this memory store (append with scope='session')")
        text = checked_note(text, self.policy)
        if self._mask is not None:
            text = self._mask(text)
        replaces = self.project.resolve_refs(session_id, supersedes) if self.project and supersedes else ()
        session, created = self._session(session_id, create=True)
        reason = protection_reason(text, pinned=pinned, keywords=self.policy.protected_keywords)
        promote = self.project is not None and (
            promotes(self.policy, reason, pinned=pinned, scope=scope) or bool(replaces)
        )
        with session.lock:
            with session.log.locked():
                self._sync(session)
                entry = Entry(
                    id=session.next_id,
                    ts=self._clock(),
                    text=text,
                    pinned=pinned,
                    reason=reason,
                    promoted=promote,
                )
                session.log.write(note_record(entry))
                session.table.put(entry)
                demoted = self._enforce_cap(session)
            if self.project is not None and promote:
                self.project.promote(session_id, entry)
                self.project.supersede(session_id, entry.id, replaces)
            elif self.project is not None and created:
                self.project.join(session_id)
            status = self._status(session_id, session)
            return Appended(session.entries[entry.id], demoted, status, replaces)

    def status(self, session_id: str) -> SessionStatus:
        session, _ = self._session(session_id, create=False)
        with session.lock:
            self._sync(session)
            return self._status(session_id, session)

    def entries(self, session_id: str) -> tuple[Entry, ...]:
        """Every entry of the session in id order, superseded ones included."""
        session, _ = self._session(session_id, create=False)
        with session.lock:
            self._sync(session)
            return tuple(session.entries.values())

    def get(self, session_id: str) -> Window | WindowDirective:
        """The snapshot for the next turn, or a directive when it is over budget."""
        session, _ = self._session(session_id, create=False)
        with session.lock:
            self._sync(session)
            chosen, tokens = self._window(session)
            live = session.table.live_count
            if tokens <= self.policy.budget:
                return Window(
                    session_id,
                    tuple(chosen),
                    tokens,
                    self.policy.budget,
                    outside=live - len(chosen),
                    superseded=len(session.entries) - live,
                    replaced=self._replaced(session_id, chosen),
                )
            protected = [self._digest(entry) for entry in chosen if entry.protected]
            return WindowDirective(
                session_id,
                window_entries=len(chosen),
                live=live,
                tokens=tokens,
                budget=self.policy.budget,
                protected=tuple(protected),
                protected_tokens=sum(digest.tokens for digest in protected),
                compactable=session.table.compactable_count(self.policy.compact_keep),
                terms=key_terms("\n".join(entry.text for entry in chosen), limit=8),
            )

    def compact(self, session_id: str) -> Compaction:
        """Fold older unprotected entries into one summary entry; originals stay recallable."""
        session, _ = self._session(session_id, create=False)
        with session.lock:
            self._sync(session)
            _, before = self._window(session)
            folded = self._compactable(session)
            if len(folded) < 2:
                return Compaction(session_id, None, (), "none", before, before)
            source = "\n\n".join(entry.text for entry in folded)
            text, method = self._summarize(source)  # maybe slow (an LLM): the file stays unlocked
            if self._mask is not None:  # a summary is written to disk like a note
                text = self._mask(text)
            with session.log.locked():
                self._sync(session)
                if any(session.entries[entry.id].superseded_by is not None for entry in folded):
                    return Compaction(session_id, None, (), "none", before, self._window(session)[1])
                summary = Entry(
                    id=session.next_id,
                    ts=self._clock(),
                    text=text,
                    kind="summary",
                    covers=tuple(entry.id for entry in folded),
                    method=method,
                )
                session.log.write(summary_record(summary))
            session.table.put(summary)
            for entry in folded:
                session.table.put(replace(session.entries[entry.id], superseded_by=summary.id))
            _, after = self._window(session)
            return Compaction(session_id, summary, summary.covers, method, before, after)

    def recall(
        self, session_id: str, query: str, *, limit: int = 5, scope: str = "session"
    ) -> tuple[RecallHit, ...]:
        """The entries best matching ``query``, superseded ones included, best first.

        Score: 0.75 × BM25 / best BM25 + 0.25 × 0.5 ** (entries since / ``window``). With
        ``scope="project"``, over every session of the project, each hit naming its session.
        """
        if limit < 1:
            raise MemoryInputError(f"limit must be at least 1, got {limit}")
        check_scope(scope)
        if scope == "project":
            return self._recall_project(session_id, query, limit)
        session, _ = self._session(session_id, create=False)
        with self._lock:
            index = self._indexes.get(session_id)
            if index is None:
                index = self._indexes[session_id] = SessionIndex()
        with session.lock:
            self._sync(session)
            matches = index.search(session.entries.values(), query, limit=max(limit * 4, 40))
            if not matches:
                return ()
            newest = max(session.entries)
            best = max(score for _, score in matches) or 1.0
            ranked = []
            for entry_id, score in matches:
                blended = blend(score / best, newest - entry_id, self.policy.window)
                replaced = self.project.replaced_by(session_id, entry_id) if self.project else None
                ranked.append(RecallHit(session.entries[entry_id], blended, replaced_by=replaced))
            ranked.sort(key=lambda hit: (-hit.score, -hit.entry.id))
            return tuple(ranked[:limit])

    def _recall_project(self, session_id: str, query: str, limit: int) -> tuple[RecallHit, ...]:
        if self.project is None:
            raise MemoryInputError("project memory is off in this memory store (recall with scope='session')")
        own = self.entries(session_id)
        return recall_project(
            session_id, own, self.project, self._peek, query, limit=limit, window=self.policy.window
        )

    def _peek(self, session_id: str) -> tuple[Entry, ...]:
        """Another session's entries, read without taking it over (no cap enforcement, no writes)."""
        with self._lock:
            loaded = self._sessions.get(session_id)
        if loaded is not None:
            with loaded.lock:
                self._sync(loaded)
                return tuple(loaded.entries.values())
        path = self.directory / f"{session_id}.jsonl"
        if not SESSION_ID_PATTERN.fullmatch(session_id) or not path.is_file():
            return ()
        return tuple(replay(SessionLog(path).read(), name=session_id).values())

    def _replaced(self, session_id: str, chosen: list[Entry]) -> tuple[tuple[int, str], ...]:
        replaced = self.project.replacements(session_id) if self.project else {}
        return tuple((entry.id, replaced[entry.id]) for entry in chosen if entry.id in replaced)

    def _sync(self, session: _Session) -> None:
        """Fold in what other hubs appended to this session's file since we last looked."""
        records = session.log.read_new()
        if records:  # rare (another hub wrote): rebuild the table from the merged entries
            merged = apply_records(dict(session.entries), records, name=session.log.path.stem)
            session.table = EntryTable(merged.values())

    # -- internals --------------------------------------------------------------------------------

    def _session(self, session_id: str, *, create: bool) -> tuple[_Session, bool]:
        if not isinstance(session_id, str) or not SESSION_ID_PATTERN.fullmatch(session_id):
            raise SessionIdError(
                f"session id {session_id!r} is not allowed (use 1-128 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit, e.g. 'fix-login-bug')"
            )
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None:
                return session, False
            log = SessionLog(self.directory / f"{session_id}.jsonl")
            created = False
            if not log.exists():
                if not create:
                    raise UnknownSessionError(
                        f"memory session {session_id!r} does not exist (call context_open first)"
                    )
                self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                created = log.create_session(self._clock())
            session = _Session(log, EntryTable(replay(log.read(), name=session_id).values()))
            with session.lock, log.locked():
                self._sync(session)
                self._enforce_cap(session)  # the cap may have shrunk since the log was written
            self._sessions[session_id] = session
            return session, created

    def _cost(self, entry: Entry) -> int:
        return estimate_tokens(entry.text, chars_per_token=self.chars_per_token) + ENTRY_OVERHEAD_TOKENS

    def _window(self, session: _Session) -> tuple[list[Entry], int]:
        chosen = {entry.id: entry for entry in session.table.recent_live(self.policy.window)}
        chosen.update((entry.id, entry) for entry in session.table.protected())
        ordered = sorted(chosen.values(), key=lambda entry: (entry.order_key, entry.id))
        return ordered, HEADER_TOKENS + sum(self._cost(entry) for entry in ordered)

    def _compactable(self, session: _Session) -> list[Entry]:
        live = session.table.live()
        older = live[: max(0, len(live) - self.policy.compact_keep)]
        return [entry for entry in older if not entry.protected and not entry.promoted]

    def _enforce_cap(self, session: _Session) -> tuple[int, ...]:
        demoted: list[int] = []
        while session.table.protected_count > self.policy.max_protected:
            protected = session.table.protected()  # at most max_protected + 1 once the cap holds
            victim = next((entry for entry in protected if not entry.pinned), protected[0])
            session.log.write(demote_record(victim.id, self._clock()))
            session.table.put(replace(victim, demoted=True))
            demoted.append(victim.id)
        return tuple(demoted)

    def _summarize(self, source: str) -> tuple[str, str]:
        share = math.ceil(self._tokens(source) * self.policy.summary_ratio)
        limit = min(self.policy.summary_tokens, max(MIN_SUMMARY_TOKENS, share))
        if self._summarizer is not None:
            answer = (self._summarizer.summarize(source, max_tokens=limit) or "").strip()
            if answer:
                answer = keep_code_blocks(source, answer)
                if self._tokens(answer) < self._tokens(source):
                    return answer, "llm"
        return summarize_extractive(source, max_tokens=limit, chars_per_token=self.chars_per_token), (
            "extractive"
        )

    def _tokens(self, text: str) -> int:
        return estimate_tokens(text, chars_per_token=self.chars_per_token)

    def _digest(self, entry: Entry) -> EntryDigest:
        return EntryDigest(
            entry.id, entry.kind, entry.reason, self._cost(entry), key_terms(entry.text, limit=4)
        )

    def _status(self, session_id: str, session: _Session) -> SessionStatus:
        table = session.table
        chosen, tokens = self._window(session)
        return SessionStatus(
            session_id=session_id,
            entries=len(table),
            live=table.live_count,
            superseded=len(table) - table.live_count,
            summaries=table.live_summaries,
            protected=table.protected_count,
            max_protected=self.policy.max_protected,
            window_entries=len(chosen),
            window_tokens=tokens,
            budget=self.policy.budget,
            compactable=table.compactable_count(self.policy.compact_keep),
            project=self.project.project.name if self.project else None,
            promoted=table.promoted_count,
        )
