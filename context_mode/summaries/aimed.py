"""Summaries aimed by an intent: the passages that match it first, then the kind's usual extract.

``summarize_for_intent(text, kind, budget=, terms=, intent=, room=)`` spends up to
``INTENT_SHARE`` of the budget, and at most ``room`` bytes (the router adds that much to the
budget, so the kind's summary keeps the room it has without an intent), on the lines a
``doc_search`` for the intent would show (``context_mode.store``'s ``payload_passages``: BM25
over the payload's chunks, then the unit each answer lives in), under a
``== matching the intent ==`` label, and the rest on the kind's summary: for row sets, tables,
trees and pages with the intent's words added to its terms (they put matching rows, names and
sections first), for logs, diffs, lint and code as it is without an intent (the passages hold
the lines the intent matches; the extract keeps what stage 1 shows anyway). Payload lines are
shown verbatim but for indentation (long ones cut with ``…``; a JSON record's named fields are
its members as written between neighbours on one line, else joined by ``, ``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from context_mode.intent import intent_terms
from context_mode.store import payload_passages
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

INTENT_SHARE = 0.6
INTENT_LABEL = "== matching the intent =="
SUMMARY_LABEL = "== summary =="
_WORDS_ORDER = frozenset(
    {ContentKind.ROWS, ContentKind.TABLE, ContentKind.TREE, ContentKind.MARKDOWN, ContentKind.SNAPSHOT}
)

Summarize = Callable[..., Extract]


def aim(
    summarize: Summarize,
    text: str,
    kind: ContentKind,
    *,
    budget: int,
    terms: Sequence[str],
    intent: str,
    room: int | None = None,
) -> Extract:
    """The intent's passages (in at most ``room`` bytes, else ``INTENT_SHARE`` of ``budget``), then
    ``summarize(text, kind, …)`` in what is left of ``budget``."""
    words = (*terms, *intent_terms(intent))
    share = int(budget * INTENT_SHARE)
    room = (share if room is None else min(share, room)) - size(INTENT_LABEL) - 1
    passages = payload_passages(text, kind, intent, budget=room) if room > 0 else []
    matched = "\n".join(passages)
    if not matched:
        return summarize(text, kind, budget=budget, terms=words)
    head = f"{INTENT_LABEL}\n{matched}"
    rest = budget - size(head) - size(SUMMARY_LABEL) - 2
    # Row sets, tables, trees and pages put the rows, names and sections the words match first;
    # in logs, diffs, lint and code the passages already hold the lines the intent matches, and
    # the kind's usual extract (what stage 1 shows without an intent) follows them.
    usual = words if kind in _WORDS_ORDER else tuple(terms)
    extract = summarize(text, kind, budget=max(rest, 0), terms=usual)
    body = head if not extract.text else f"{head}\n{SUMMARY_LABEL}\n{extract.text}"
    return Extract(
        text=body,
        kind=extract.kind,
        outline=extract.outline,
        highlights=extract.highlights + len(passages),
        ends_shown=extract.ends_shown,
    )
