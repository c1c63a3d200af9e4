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
- Thread-safe: one lock per session, so a slow summariser blocks only its own session.

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
from context_mode.memory.protection import DEFAULT_PROTECTED_KEYWORDS, protection_reason
from context_mode.memory.search import SessionIndex
from context_mode.memory.store import Entry, SessionLog, demote_record, note_record, replay, summary_record
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
RECENCY_WEIGHT = 0.25
MIN_SUMMARY_TOKENS = 40


@dataclass(frozen=True, slots=True)
class MemoryPolicy:
    """The ``memory:`` settings; each bound is checked here so a bad config fails early."""

    budget: int = 4000  # tokens a context_get snapshot may use
    window: int = 20  # most recent live entries in a snapshot
    max_protected: int = 10
    protected_keywords: tuple[str, ...] = DEFAULT_PROTECTED_KEYWORDS
    compact_keep: int = 5  # most recent live entries a compaction leaves alone
    summary_tokens: int = 600  # the most a compaction summary may use
    summary_ratio: float = 0.35  # ... and at most this share of the notes it folds
    max_entry_chars: int = 20_000

    def __post_init__(self) -> None:
        checks = {
            "budget": (self.budget, 100),
            "window": (self.window, 1),
            "max_protected": (self.max_protected, 0),
            "compact_keep": (self.compact_keep, 0),
            "summary_tokens": (self.summary_tokens, 50),
            "max_entry_chars": (self.max_entry_chars, 100),
        }
        for name, (value, least) in checks.items():
            if value < least:
                raise ValueError(f"memory.{name} must be at least {least}, got {value}")
        if not 0.05 <= self.summary_ratio <= 1.0:
            raise ValueError(f"memory.summary_ratio must be between 0.05 and 1, got {self.summary_ratio}")
        if any(not keyword.strip() for keyword in self.protected_keywords):
            raise ValueError("memory.protected_keywords must not contain empty keywords")


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
    ) -> None:
        self.directory = directory
        self._mask = mask  # masks secrets before a note reaches disk (the Store's ``mask``)
        self.policy = policy or MemoryPolicy()
        self.chars_per_token = chars_per_token  # the hub may set a calibrated value later
        self._clock = clock
        self._summarizer = summarizer
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        self._indexes: LRUCache[str, SessionIndex] = LRUCache(maxsize=max_indexes)

    # -- the operations ---------------------------------------------------------------------------

    def open(self, session_id: str) -> Opened:
        """Create the session or load it from disk."""
        session, created = self._session(session_id, create=True)
        with session.lock:
            return Opened(self._status(session_id, session), created)

    def append(self, session_id: str, text: str, *, pinned: bool = False) -> Appended:
        """Save a note (creating the session if needed); applies the protection cap."""
        # Lone surrogates (possible in JSON strings) cannot be stored as UTF-8: replace them.
        text = text.encode("utf-8", "replace").decode("utf-8").strip()
        if not text:
            raise EntryError("the note is empty (pass the text to remember)")
        if len(text) > self.policy.max_entry_chars:
            raise EntryError(
                f"the note has {len(text):,} characters, over memory.max_entry_chars "
                f"({self.policy.max_entry_chars:,}): save the decision and a file path, not the whole output"
            )
        if self._mask is not None:
            text = self._mask(text)
        session, _ = self._session(session_id, create=True)
        reason = protection_reason(text, pinned=pinned, keywords=self.policy.protected_keywords)
        with session.lock:
            entry = Entry(id=session.next_id, ts=self._clock(), text=text, pinned=pinned, reason=reason)
            session.log.write(note_record(entry))
            session.table.put(entry)
            demoted = self._enforce_cap(session)
            return Appended(session.entries[entry.id], demoted, self._status(session_id, session))

    def status(self, session_id: str) -> SessionStatus:
        session, _ = self._session(session_id, create=False)
        with session.lock:
            return self._status(session_id, session)

    def entries(self, session_id: str) -> tuple[Entry, ...]:
        """Every entry of the session in id order, superseded ones included."""
        session, _ = self._session(session_id, create=False)
        with session.lock:
            return tuple(session.entries.values())

    def get(self, session_id: str) -> Window | WindowDirective:
        """The snapshot for the next turn, or a directive when it is over budget."""
        session, _ = self._session(session_id, create=False)
        with session.lock:
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
            _, before = self._window(session)
            folded = self._compactable(session)
            if len(folded) < 2:
                return Compaction(session_id, None, (), "none", before, before)
            source = "\n\n".join(entry.text for entry in folded)
            text, method = self._summarize(source)
            if self._mask is not None:  # a summary is written to disk like a note
                text = self._mask(text)
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
                session.table.put(replace(entry, superseded_by=summary.id))
            _, after = self._window(session)
            return Compaction(session_id, summary, summary.covers, method, before, after)

    def recall(self, session_id: str, query: str, *, limit: int = 5) -> tuple[RecallHit, ...]:
        """The entries best matching ``query``, superseded ones included, best first.

        Score: 0.75 × BM25 / best BM25 + 0.25 × 0.5 ** (entries since / ``window``).
        """
        if limit < 1:
            raise MemoryInputError(f"limit must be at least 1, got {limit}")
        session, _ = self._session(session_id, create=False)
        with self._lock:
            index = self._indexes.get(session_id)
            if index is None:
                index = self._indexes[session_id] = SessionIndex()
        with session.lock:
            matches = index.search(session.entries.values(), query, limit=max(limit * 4, 40))
            if not matches:
                return ()
            newest = max(session.entries)
            best = max(score for _, score in matches) or 1.0
            ranked = []
            for entry_id, score in matches:
                recency = 0.5 ** ((newest - entry_id) / self.policy.window)
                blended = (1 - RECENCY_WEIGHT) * score / best + RECENCY_WEIGHT * recency
                ranked.append(RecallHit(session.entries[entry_id], round(blended, 4)))
            ranked.sort(key=lambda hit: (-hit.score, -hit.entry.id))
            return tuple(ranked[:limit])

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
                created = log.create(self._clock())
            session = _Session(log, EntryTable(replay(log.read(), name=session_id).values()))
            with session.lock:
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
        return [entry for entry in older if not entry.protected]

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
        )
