"""The values the spill store hands out: reservations, documents, chunks, search hits, windows, stats.

All are frozen dataclasses; byte counts are UTF-8 bytes of the payload, times are the store
clock's seconds, chunk ids are ``"<ref>#<index>"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from context_mode.types import ContentKind


@dataclass(frozen=True, slots=True)
class Reservation:
    """A ref handed out on the response path; the payload is searchable once ``Store.index(ref)`` ran."""

    ref: str
    spill_path: Path | None
    bytes: int


@dataclass(frozen=True, slots=True)
class StoredDoc:
    """One stored payload: where it came from, its size and how many chunks it was cut into."""

    ref: str
    source: str
    kind: ContentKind
    title: str | None
    bytes: int
    chunk_count: int
    created: float
    spill_path: Path | None


@dataclass(frozen=True, slots=True)
class StoredChunk:
    """One chunk of a stored payload, as read back."""

    chunk_id: str
    ref: str
    index: int
    heading_path: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class LineMatch:
    """A passage of a found chunk: ``lines`` lines from line ``number`` (0-based, in the chunk).

    ``text`` is the lines (verbatim but for indentation; long ones cut with ``…``) joined by
    newlines; ``matched`` the query terms it holds with their weights, ``score`` their sum;
    ``unit`` the lines of the passage's unit that hold the answer but not the query (numbered);
    when ``grows``, the lines of its unit that ``store.excerpts.unit_lines`` finds in the chunk
    are added to them when a reply offers the passage (most passages are never offered).
    """

    number: int
    text: str
    score: float
    matched: tuple[tuple[str, float], ...] = ()
    lines: int = 1
    unit: tuple[tuple[int, str], ...] = ()  # other lines of its unit to show with it
    grows: bool = False  # the unit also holds what store.excerpts finds around it (choose_lines)


@dataclass(frozen=True, slots=True)
class IndexHit:
    """A chunk the index found for a search: its score, a plain-text snippet and its passages."""

    chunk: StoredChunk
    score: float
    snippet: str
    lines: tuple[LineMatch, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A chunk that matched a search; ``snippet`` is plain text (about 200 characters) around the match.

    ``lines`` are the chunk's lines holding query terms, best first (``context_mode.store.query``).
    """

    chunk_id: str
    ref: str
    source: str
    heading_path: tuple[str, ...]
    score: float
    snippet: str
    lines: tuple[LineMatch, ...] = ()
    text: str = ""  # the chunk's text: its lines near the shown ones fill a reply's room left


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits best first; when there are none, ``suggestions`` holds distinctive terms to retry with."""

    query: str
    hits: tuple[SearchHit, ...]
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Window:
    """Chunks ``start .. start + len(chunks)`` of a payload; ``next_start`` is None after the last chunk."""

    ref: str
    start: int
    chunks: tuple[StoredChunk, ...]
    total: int
    next_start: int | None


@dataclass(frozen=True, slots=True)
class Section:
    """A run of consecutive chunks under one heading path."""

    heading_path: tuple[str, ...]
    first_chunk: int
    chunk_count: int


@dataclass(frozen=True, slots=True)
class Outline:
    """The sections of a payload in order; ``truncated`` when only the first ones were kept."""

    ref: str
    chunk_count: int
    sections: tuple[Section, ...]
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Totals over the live documents, plus evictions since the directory was created."""

    bytes: int
    refs: int
    chunks: int
    evictions: int
    pending: int
    max_bytes: int
    secrets_masked: int = 0  # secret values masked before anything was written (context_mode.secrets)
