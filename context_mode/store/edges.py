"""The ends of a payload, for a query that names one by position.

A question often says where its answer is rather than what it holds: "the final request in the
log", "the version at startup", "the closing totals". ``edges_asked(query)`` says which end a
query names (``start`` or ``end``, by words such as startup, beginning, final, closing, bottom;
not "first" or "last", which name rows and columns as often), and ``edge_passage(text, edge,
weight)`` is a chunk's first or last few lines as one passage worth ``weight``, for a search
reply or an intent's passages to show; ``add_edge`` puts that passage among a search's hits.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from context_mode.store.cutting import LINE_WIDTH, cut
from context_mode.store.values import IndexHit, LineMatch, SearchHit

Hit = TypeVar("Hit", bound=IndexHit | SearchHit)

EDGE_LINES = 3  # lines of the payload's start or end shown for a query naming that end
_EDGE_WORDS = {
    "start": frozenset({"startup", "beginning", "initially", "opening"}),
    "end": frozenset({"final", "finally", "closing", "ending", "bottom", "trailing"}),
}
_WORD = re.compile(r"\w+")


def edges_asked(query: str) -> tuple[str, ...]:
    """Which end of the payload the query names by position: ``("end",)`` for "the final request",
    ``("start",)`` for "the address at startup"; () when it names none."""
    words = {word.lower() for word in _WORD.findall(query)}
    return tuple(edge for edge, names in _EDGE_WORDS.items() if words & names)


def edge_passage(text: str, edge: str, weight: float) -> LineMatch | None:
    """The first (``start``) or last (``end``) few non-blank lines of a chunk, as one passage."""
    rows = [(number, line) for number, line in enumerate(text.splitlines()) if line.strip()]
    rows = rows[:EDGE_LINES] if edge == "start" else rows[-EDGE_LINES:]
    if not rows:
        return None
    if rows[-1][0] - rows[0][0] != len(rows) - 1:  # blank lines between: the nearest line alone
        rows = rows[:1] if edge == "start" else rows[-1:]
    shown = "\n".join(cut(line, (), LINE_WIDTH, str) for _, line in rows)
    matched = ((f"@{edge}", weight),)
    return LineMatch(rows[0][0], shown, weight, matched, len(rows))


def add_edge(hits: list[Hit], edge_hit: Hit, chunk_of: Callable[[Hit], str]) -> None:
    """Put ``edge_hit``'s passage (its only line) first in the hit of its chunk (``chunk_of``
    names a hit's chunk), or, when no hit holds that chunk, ``edge_hit`` itself with the best
    hit's score, shown second: the best hit keeps its place."""
    its_chunk = chunk_of(edge_hit)
    for rank, hit in enumerate(hits):
        if chunk_of(hit) == its_chunk:
            hits[rank] = replace(hit, lines=(*edge_hit.lines, *hit.lines))
            return
    hits.insert(1, replace(edge_hit, score=hits[0].score if hits else 1.0))
