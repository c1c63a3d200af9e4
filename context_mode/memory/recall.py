"""Recall across the sessions of one project: one ranking over every session's entries.

Contract: ``recall_project`` ranks the caller's own entries, the entries of every other session
of the pool (read from their logs through ``peek``; the pool's copies when a log is not in this
store) by BM25 blended with recency (``blend``, the same weights as session recall), superseded
entries included. Each hit names its session and, when a later decision replaced it in the pool,
the ref of that decision.
"""

from __future__ import annotations

from collections.abc import Callable

from context_mode.memory.project import ProjectPool, entry_ref
from context_mode.memory.search import search_across
from context_mode.memory.store import Entry
from context_mode.memory.views import RecallHit

RECENCY_WEIGHT = 0.25


def blend(relevance: float, age: int, window: int) -> float:
    """0.75 × relevance (BM25 / best BM25) + 0.25 × 0.5 ** (entries noted since / window)."""
    recency: float = 0.5 ** (age / window)
    return round((1 - RECENCY_WEIGHT) * relevance + RECENCY_WEIGHT * recency, 4)


def recall_project(
    session_id: str,
    own: tuple[Entry, ...],
    pool: ProjectPool,
    peek: Callable[[str], tuple[Entry, ...]],
    query: str,
    *,
    limit: int,
    window: int,
) -> tuple[RecallHit, ...]:
    """The entries of the whole project best matching ``query``, best first."""
    sources = {session_id: own}
    pooled = pool.entries()
    for other in pool.sessions():
        if other not in sources:
            copies = tuple(entry.as_entry() for entry in pooled if entry.session_id == other)
            sources[other] = peek(other) or copies
    matches = search_across(sources, query, limit=max(limit * 4, 40))
    if not matches:
        return ()
    replaced = {entry.ref: entry.superseded_by for entry in pooled if entry.superseded_by}
    best = max(score for _, _, score, _ in matches) or 1.0
    hits = [
        RecallHit(entry, blend(score / best, age, window), other, replaced.get(entry_ref(other, entry.id)))
        for other, entry, score, age in matches
    ]
    hits.sort(key=lambda hit: (-hit.score, -hit.entry.ts))
    return tuple(hits[:limit])
