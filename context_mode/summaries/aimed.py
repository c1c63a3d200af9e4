"""Summaries aimed by an intent: the passages that match it first, then the kind's usual extract.

``summarize_for_intent(text, kind, budget=, terms=, intent=)`` spends up to ``INTENT_SHARE`` of
the budget on the payload's lines that best match the intent (``context_mode.intent``: BM25 over
the lines, a hit shown with the lines after it), under a ``== matching the intent ==`` label, and
the rest on the kind's summary with the intent's words added to its terms (row sets and trees
use the words to put matching rows and names first, and get the whole budget). Every payload
line shown is verbatim (snapshot lines without their indentation), so the verbatim contract of
``summarize`` holds for the whole text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from context_mode.intent import intent_lines, intent_terms
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack, size, split_lines
from context_mode.types import ContentKind

INTENT_SHARE = 0.6
INTENT_LABEL = "== matching the intent =="
SUMMARY_LABEL = "== summary =="
_TERMS_ONLY = frozenset({ContentKind.ROWS, ContentKind.TREE})

Summarize = Callable[..., Extract]


def aim(
    summarize: Summarize, text: str, kind: ContentKind, *, budget: int, terms: Sequence[str], intent: str
) -> Extract:
    """The intent's passages, then ``summarize(text, kind, …)`` in what is left of ``budget``."""
    words = (*terms, *intent_terms(intent))
    if kind in _TERMS_ONLY:
        return summarize(text, kind, budget=budget, terms=words)
    raw = split_lines(text)
    lines = [line.strip() for line in raw] if kind is ContentKind.SNAPSHOT else raw
    passages = intent_lines(text, raw, intent)
    picks = [Pick(start, stop, score) for start, stop, score in passages]
    room = int(budget * INTENT_SHARE) - size(INTENT_LABEL) - 1
    matched = pack(lines, picks, room, width=240) if picks and room > 0 else ""
    if not matched:
        return summarize(text, kind, budget=budget, terms=words)
    head = f"{INTENT_LABEL}\n{matched}"
    rest = budget - size(head) - size(SUMMARY_LABEL) - 2
    extract = summarize(text, kind, budget=max(rest, 0), terms=words)
    body = head if not extract.text else f"{head}\n{SUMMARY_LABEL}\n{extract.text}"
    return Extract(
        text=body,
        kind=extract.kind,
        outline=extract.outline,
        highlights=extract.highlights + len(passages),
    )
