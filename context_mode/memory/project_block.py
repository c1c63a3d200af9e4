"""The "From earlier sessions of this project" block: which pool entries a session sees on open.

Contract: ``select_block(project, entries, session_id, seen=..., query=..., budget=...)`` takes the
live (not superseded) entries of sessions other than ``session_id``, drops those the session noted
itself, shows the same text noted in several sessions once with every source (``normalized``:
case, spacing and punctuation do not count), ranks them by relevance to ``query`` (the share of
its words an entry contains), recency (half weight every 8 entries) and pins, and takes them
greedily, in that order, within ``budget`` tokens; an entry alone is cut to a third of the budget.
What does not fit is counted in ``left_out``, what was superseded in ``superseded``. ``None`` when
there is nothing to show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from context_mode.memory.summary import terms
from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN, estimate_tokens

if TYPE_CHECKING:
    from context_mode.memory.project import PoolEntry

BLOCK_HEADER_TOKENS = 16
ITEM_OVERHEAD_TOKENS = 6  # "- [decision · " and the line break
SOURCE_TOKENS = 4  # each "task-a#8" shown
RECENCY_HALF_LIFE = 8  # entries: the 9th newest weighs half as much as the newest
_LABELS = {"api-signature": "api", "file-plan": "file plan", "pinned": "pinned"}


@dataclass(frozen=True, slots=True)
class BlockItem:
    text: str
    label: str  # pinned, decision, constraint, api, file plan, note
    sources: tuple[str, ...]  # refs, oldest first
    new: bool  # arrived since the session last looked
    truncated: bool
    tokens: int


@dataclass(frozen=True, slots=True)
class ProjectBlock:
    """The "From earlier sessions of this project" block, ready to render."""

    project: str
    items: tuple[BlockItem, ...]
    sessions: int  # other sessions the shown items come from
    tokens: int
    budget: int
    left_out: int  # live entries beyond the budget (recall finds them)
    superseded: int  # entries replaced by later decisions (recall finds them, marked)
    new: int


def label_of(reason: str | None, pinned: bool) -> str:
    """A short word for why an entry is in project memory."""
    if pinned:
        return "pinned"
    if reason is None:
        return "note"
    if reason in ("keyword:decision", "keyword:decided"):
        return "decision"
    if reason.startswith("keyword:"):
        return "constraint"
    return _LABELS.get(reason, reason)


def normalized(text: str) -> str:
    """The text reduced to lower-cased words: notes equal under it are the same note."""
    return " ".join(re.findall(r"\w+", text.lower()))


def select_block(
    project: str,
    entries: list[PoolEntry],
    session_id: str,
    *,
    seen: int,
    query: str,
    budget: int,
    chars_per_token: float = DEFAULT_CHARS_PER_TOKEN,
) -> ProjectBlock | None:
    """The block for ``session_id`` from the pool's ``entries`` (see the module contract)."""
    mine = {normalized(entry.text) for entry in entries if entry.session_id == session_id}
    groups: dict[str, list[PoolEntry]] = {}
    superseded = 0
    for entry in entries:
        if entry.session_id == session_id:
            continue
        if entry.superseded_by is not None:
            superseded += 1
            continue
        key = normalized(entry.text)
        if key not in mine:
            groups.setdefault(key, []).append(entry)
    if not groups:
        return None
    ranked = _ranked(list(groups.values()), query)
    limit = max(40, budget // 3)
    spent = BLOCK_HEADER_TOKENS
    items: list[BlockItem] = []
    for group in ranked:
        newest = group[-1]
        text, cut = _fit(newest.text, limit, chars_per_token)
        cost = (
            estimate_tokens(text, chars_per_token=chars_per_token)
            + ITEM_OVERHEAD_TOKENS
            + SOURCE_TOKENS * len(group)
        )
        if spent + cost > budget:
            continue
        spent += cost
        label = "pinned" if any(entry.pinned for entry in group) else label_of(newest.reason, False)
        new = any(entry.position > seen for entry in group)
        items.append(BlockItem(text, label, tuple(entry.ref for entry in group), new, cut, cost))
    shown = {source.split("#")[0] for item in items for source in item.sources}
    return ProjectBlock(
        project,
        tuple(items),
        len(shown),
        spent,
        budget,
        left_out=len(ranked) - len(items),
        superseded=superseded,
        new=sum(1 for item in items if item.new),
    )


def _ranked(groups: list[list[PoolEntry]], query: str) -> list[list[PoolEntry]]:
    """Most relevant to ``query`` and newest first; a pinned entry weighs a little more."""
    wanted = {_stem(term) for term in terms(query)}
    by_age = sorted(groups, key=lambda group: -group[-1].position)
    scored: list[tuple[float, int, list[PoolEntry]]] = []
    for rank, group in enumerate(by_age):
        words = {_stem(term) for term in terms(group[-1].text)}
        relevance = len(wanted & words) / len(wanted) if wanted else 0.0
        recency = 0.5 ** (rank / RECENCY_HALF_LIFE)
        pinned = 1.0 if any(entry.pinned for entry in group) else 0.0
        scored.append((0.55 * relevance + 0.35 * recency + 0.1 * pinned, -rank, group))
    scored.sort(key=lambda item: (-item[0], -item[1]))
    return [group for _, _, group in scored]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _fit(text: str, limit: int, chars_per_token: float) -> tuple[str, bool]:
    if estimate_tokens(text, chars_per_token=chars_per_token) <= limit:
        return text, False
    cut = text[: int(limit * chars_per_token)]
    while cut and estimate_tokens(cut + " …", chars_per_token=chars_per_token) > limit:
        cut = cut[: int(len(cut) * 0.9)]
    head = cut.rsplit(" ", 1)[0] if " " in cut.strip() else cut
    return head.rstrip() + " …", True
