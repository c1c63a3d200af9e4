"""The dedupe cache: a repeat of the same read-only call within the TTL gets a short pointer.

Contract: the key is the exposed tool name plus a SHA-256 of the canonical JSON of the arguments
(key order does not matter; ``1``, ``1.0`` and ``True`` stay distinct). Only read-only tools are
cached: ``readOnlyHint: true``, or a name one of whose words (``context_mode.toolnames``) or the
whole of which matches a configured glob, unless a word of it is a mutating verb (``create``,
``run``, ``login``…); never ``destructiveHint: true``; a per-tool ``override`` beats the name.
A call to a tool that is not read-only clears the cached entries of its server, so a read after
a write is fresh. The clock is injected; an entry set at ``t`` is gone at ``t + ttl``.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cachetools import TTLCache

from context_mode.toolnames import MUTATING_WORDS, tool_words


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


def call_key(tool: str, arguments: Mapping[str, Any] | None) -> str:
    blob = json.dumps(
        arguments or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr
    )
    digest = hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{tool}:{digest}"


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
    if read_only_hint:
        return True
    words = tool_words(tool)
    if not words or not set(words).isdisjoint({word.lower() for word in mutating}):
        return False
    candidates = [tool.lower(), *words]
    return any(
        fnmatch.fnmatchcase(candidate, pattern.lower()) for pattern in globs for candidate in candidates
    )


class ResultCache:
    """A bounded TTL cache of recent read-only calls."""

    def __init__(
        self, *, ttl: float = 300.0, maxsize: int = 1024, clock: Callable[[], float] = time.monotonic
    ):
        self.ttl = ttl
        self._clock = clock
        self._entries: TTLCache[str, CachedResult] = TTLCache(maxsize=maxsize, ttl=ttl, timer=clock)
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

    def put(self, key: str, entry: CachedResult) -> None:
        self._entries[key] = entry

    def forget_namespace(self, namespace: str) -> int:
        """Drop every entry of one server (after a write to it); return how many went."""
        stale = [key for key, entry in list(self._entries.items()) if entry.namespace == namespace]
        for key in stale:
            self._entries.pop(key, None)
        return len(stale)

    def __len__(self) -> int:
        self._entries.expire()
        return len(self._entries)
