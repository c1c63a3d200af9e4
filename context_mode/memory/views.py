"""What the session-memory operations return: frozen values with no behaviour beyond reading.

``SessionMemory`` (in ``memory``) builds them; ``tools.context_tools`` renders them as text.
"""

from __future__ import annotations

from dataclasses import dataclass

from context_mode.memory.project_block import ProjectBlock
from context_mode.memory.store import Entry


@dataclass(frozen=True, slots=True)
class SessionStatus:
    session_id: str
    entries: int  # every entry ever appended, superseded ones included
    live: int
    superseded: int
    summaries: int  # live summaries
    protected: int
    max_protected: int
    window_entries: int
    window_tokens: int  # what context_get would cost
    budget: int
    compactable: int  # entries context_compact would fold now
    project: str | None = None  # the project whose pool this session shares, if any
    promoted: int = 0  # this session's entries in project memory

    @property
    def over_budget(self) -> bool:
        return self.window_tokens > self.budget


@dataclass(frozen=True, slots=True)
class Opened:
    status: SessionStatus
    created: bool
    project: ProjectBlock | None = None  # what earlier sessions of the project left, when there is news


@dataclass(frozen=True, slots=True)
class Appended:
    entry: Entry
    demoted: tuple[int, ...]  # entries that lost protection to the cap
    status: SessionStatus
    superseded: tuple[str, ...] = ()  # refs of the project entries this one replaced


@dataclass(frozen=True, slots=True)
class Window:
    """The snapshot: entries in story order with their estimated cost."""

    session_id: str
    entries: tuple[Entry, ...]
    tokens: int
    budget: int
    outside: int  # live entries not in the window (recall finds them)
    superseded: int
    replaced: tuple[tuple[int, str], ...] = ()  # (entry id, ref) of entries a later decision replaced


@dataclass(frozen=True, slots=True)
class EntryDigest:
    """What an entry is about, without its text."""

    id: int
    kind: str
    reason: str | None
    tokens: int
    terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WindowDirective:
    """The snapshot is over budget: what is there and how to get at it, no raw text."""

    session_id: str
    window_entries: int
    live: int
    tokens: int
    budget: int
    protected: tuple[EntryDigest, ...]
    protected_tokens: int
    compactable: int
    terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Compaction:
    session_id: str
    summary: Entry | None  # None when there was nothing to fold
    folded: tuple[int, ...]
    method: str  # "llm", "extractive" or "none"
    tokens_before: int
    tokens_after: int


@dataclass(frozen=True, slots=True)
class RecallHit:
    entry: Entry
    score: float
    session_id: str = ""  # set by project recall: the session the entry belongs to
    replaced_by: str | None = None  # the ref of the project entry that superseded it
