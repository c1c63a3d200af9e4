"""The repeat cache: what this client session was last shown for a read-only call, to dedupe repeats.

Contract: the key is the client session, the exposed tool name and a SHA-256 of the canonical JSON
of the arguments (key order does not matter; ``1``, ``1.0`` and ``True`` stay distinct), so one
session's repeats never point at what only another session was shown. Only read-only tools are
cached: ``readOnlyHint: true``, or a name one of whose words (``context_mode.toolnames``) or the
whole of which matches a configured glob, unless a word of it is a mutating verb (``create``,
``run``, ``login``…) or the tool says ``readOnlyHint: false``; never ``destructiveHint: true``;
a per-tool ``override`` beats the name and the read-only hint.

Two modes (``CacheMode``): ``verify`` (the default) calls the downstream again and ``compare``s
the new result with the previous one (``Unchanged``: answer with a pointer; ``Changed``: answer
with a ``context_mode.delta`` of it; ``None``: route the new result as a first call); ``trust``
answers a repeat within the TTL from memory without calling the downstream.

Writes: each server has a generation counter. ``invalidate(namespace)`` (a call to a tool that
is not read-only, before it is sent and again when it returns) drops the server's entries and
bumps its generation; a read looked up (``lookup``) before a bump is neither compared nor stored
(``settle`` refuses it), so a read that was in flight during a write never lands in the cache.
A previous entry whose ref the store no longer holds (``holds``) is forgotten: the call counts
as a first call. The clock is injected; an entry set at ``t`` is gone at ``t + ttl``. Full texts
kept for deltas are bounded: ``MAX_KEPT_TEXT_CHARS`` each, ``max_text_chars`` in all (least
recently used dropped first); a result without its text kept is compared by hash only.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from cachetools import TTLCache

from context_mode.delta import Delta, compare
from context_mode.toolnames import MUTATING_WORDS, tool_words

CacheMode = Literal["verify", "trust"]
MAX_TEXT_CHARS = 64 * 2**20  # full texts kept for deltas, all entries together
MAX_KEPT_TEXT_CHARS = 4 * 2**20  # a longer result is compared by hash only (no delta)


@dataclass(frozen=True, slots=True)
class CachedResult:
    """What a repeat call needs: where the first result is and what the agent was shown."""

    tool: str
    namespace: str
    ref: str | None
    stage1: str
    mode: str
    original_bytes: int
    created: float
    digest: str = ""  # of the whole result, compared by a verify repeat
    structured: Any = None  # the structuredContent of a DIRECT tool, for a trust-mode repeat


def call_key(tool: str, arguments: Mapping[str, Any] | None, *, session: str = "") -> str:
    """The cache key of one call in one client session."""
    blob = json.dumps(
        arguments or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr
    )
    digest = hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{session}|{tool}:{digest}"


def is_read_only(
    tool: str,
    *,
    read_only_hint: bool | None,
    destructive_hint: bool | None,
    globs: Iterable[str],
    override: bool | None = None,
    mutating: Iterable[str] = MUTATING_WORDS,
) -> bool:
    """Whether repeat calls of ``tool`` may be answered from the cache."""
    if destructive_hint:
        return False
    if override is not None:
        return override
    if read_only_hint is not None:  # the tool says it: a write is never deduplicated, whatever its name
        return read_only_hint
    words = tool_words(tool)
    if not words or not set(words).isdisjoint({word.lower() for word in mutating}):
        return False
    candidates = [tool.lower(), *words]
    return any(
        fnmatch.fnmatchcase(candidate, pattern.lower()) for pattern in globs for candidate in candidates
    )


@dataclass(frozen=True, slots=True)
class Lookup:
    """A read's view of the cache when it was sent: its key, its server's generation, the previous entry."""

    key: str
    namespace: str
    generation: int
    previous: CachedResult | None


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The new result hashes the same as the previous one: point at it."""

    previous: CachedResult


@dataclass(frozen=True, slots=True)
class Changed:
    """The new result differs a little: send the delta against the previous one."""

    previous: CachedResult
    delta: Delta


class ResultCache:
    """A bounded TTL cache of what each client session was shown for recent read-only calls."""

    def __init__(
        self,
        *,
        ttl: float = 300.0,
        maxsize: int = 1024,
        clock: Callable[[], float] = time.monotonic,
        max_text_chars: int = MAX_TEXT_CHARS,
    ):
        self.ttl = ttl
        self._clock = clock
        self._entries: TTLCache[str, CachedResult] = TTLCache(maxsize=maxsize, ttl=ttl, timer=clock)
        self._texts: TTLCache[str, str] = TTLCache(
            maxsize=max_text_chars, ttl=ttl, timer=clock, getsizeof=lambda text: len(text) + 1
        )
        self._max_text_chars = max_text_chars
        self._generations: dict[str, int] = {}
        self.hits = 0
        self.misses = 0

    def now(self) -> float:
        return self._clock()

    def get(self, key: str) -> CachedResult | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
        else:
            self.hits += 1
        return entry

    def put(self, key: str, entry: CachedResult, *, text: str | None = None) -> None:
        """Keep ``entry`` (and the full ``text`` it was made from, for a later delta, when it fits)."""
        self._entries[key] = entry
        self._texts.pop(key, None)
        if text is not None and len(text) + 1 <= min(MAX_KEPT_TEXT_CHARS, self._max_text_chars):
            self._texts[key] = text

    def text(self, key: str) -> str | None:
        """The full text of the entry under ``key`` when it was kept."""
        return self._texts.get(key)

    def generation(self, namespace: str) -> int:
        return self._generations.get(namespace, 0)

    def lookup(self, key: str, namespace: str, *, holds: Callable[[str], bool] = lambda ref: True) -> Lookup:
        """Take the previous entry for ``key`` (``None`` if its ref was evicted) and the generation."""
        previous = self.get(key)
        if previous is not None and previous.ref is not None and not holds(previous.ref):
            self._entries.pop(key, None)  # its payload is gone: this call is a first call again
            self._texts.pop(key, None)
            previous = None
        return Lookup(key, namespace, self.generation(namespace), previous)

    def compare(
        self,
        lookup: Lookup,
        *,
        digest: str,
        text: str | None,
        max_delta_bytes: int,
        holds: Callable[[str], bool] = lambda ref: True,
    ) -> Unchanged | Changed | None:
        """How the new result of a looked-up read relates to what the session was shown before.

        ``None`` (answer it as a first call) also when a write to the server happened since the
        lookup or the previous ref was evicted meanwhile.
        """
        previous = lookup.previous
        if previous is None or self.generation(lookup.namespace) != lookup.generation:
            return None
        if previous.ref is not None and not holds(previous.ref):
            return None
        if previous.digest == digest:
            return Unchanged(previous)
        before = self.text(lookup.key)
        if before is None or text is None or previous.ref is None:
            return None
        found = compare(before, text, max_bytes=max_delta_bytes)
        return Changed(previous, found) if found is not None else None

    def settle(self, lookup: Lookup, entry: CachedResult, *, text: str | None = None) -> bool:
        """Store the result of a looked-up read, unless a write to its server happened meanwhile."""
        if self.generation(lookup.namespace) != lookup.generation:
            return False
        self.put(lookup.key, entry, text=text)
        return True

    def invalidate(self, namespace: str) -> int:
        """Drop every entry of one server and bump its generation (around a write); return how many went."""
        self._generations[namespace] = self.generation(namespace) + 1
        stale = [key for key, entry in list(self._entries.items()) if entry.namespace == namespace]
        for key in stale:
            self._entries.pop(key, None)
            self._texts.pop(key, None)
        return len(stale)

    forget_namespace = invalidate

    def __len__(self) -> int:
        self._entries.expire()
        return len(self._entries)
