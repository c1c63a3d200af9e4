"""Listings that end every entry with its state in brackets: the entries in the rarer states first.

``apt list --installed`` ends each package with ``[installed,automatic]``, ``[installed]``,
``[installed,local]`` or ``[installed,upgradable to: 3.0.20-1~deb12u2]``; ``gcc -Q
--help=optimizers`` each option with ``[enabled]``, ``[disabled]`` or ``[available in C++]``. The
hundreds of entries in the usual state (a dependency pulled in automatically) say least; the few
in another (installed by hand, an upgrade waiting, a local build) are what the listing is read
for. Taken for a log, its first lines and a fold of alike lines were shown.

``summarize_tagged_listing(text, kind=, budget=, terms=)`` returns None unless most of the first
``_SAMPLE_LINES`` non-blank lines end in a bracketed state that starts with a letter, there are
at least ``_MIN_ENTRIES`` such entries, and their states (a value after a colon aside:
``upgradable to: …``) are at least two and few (``_MAX_STATES``); else, verbatim and within
``budget`` bytes: the lines naming the call's terms, the first lines that are no entry (a
warning, ``Listing...``) and the last line, then the entries of the rarer states in turns (each
state's first entry, rarest first, then each one's second…), then those of the usual state. The
outline counts the entries and each state. ``Extract.kind`` is the kind asked for. Linear in the
text, but for the sort of the picks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, first_lines, pack, split_lines
from context_mode.types import ContentKind

_TAGGED = re.compile(r"\s*\S.*?\s\[(?P<state>[A-Za-z][^\[\]\n]{0,80})\]\s*\Z")
_VALUE = re.compile(r":\s*[^,]+")  # ``upgradable to: 3.0.20-1~deb12u2``: the state, not its value
_SAMPLE_LINES = 40
_SHARE = 0.8
_MIN_ENTRIES = 20
_MAX_STATES = 12
_WIDTH = 200
_TERMS, _OPENING, _LAST, _STATES = 100.0, 90.0, 85.0, 80.0
_SHOWN_STATES = 6  # states the outline names; the rest are counted


def summarize_tagged_listing(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The entries in the rarer states first, in ``budget`` bytes; None if ``text`` is no listing
    of entries with bracketed states (see the module doc)."""
    head = first_lines(text, _SAMPLE_LINES)
    if len(head) < _MIN_ENTRIES // 2 or sum(1 for line in head if _TAGGED.match(line)) < _SHARE * len(head):
        return None  # told by its first lines, as most texts are
    lines = split_lines(text)
    states: dict[int, str] = {}
    others: list[int] = []
    for index, line in enumerate(lines):
        found = _TAGGED.match(line)
        if found is not None:
            states[index] = _VALUE.sub("", found["state"]).strip()
        elif line.strip():
            others.append(index)
    counts = Counter(states.values())
    if len(states) < _MIN_ENTRIES or not 2 <= len(counts) <= _MAX_STATES or len(others) > len(states) // 10:
        return None
    wanted = term_matcher(terms)
    picks = [Pick(index, index + 1, _OPENING - rank) for rank, index in enumerate(others[:3])]
    last = max(states) if not others or max(states) > others[-1] else others[-1]
    picks.append(Pick(last, last + 1, _LAST))
    rarest = sorted(counts, key=lambda state: (counts[state], state))
    rank = {state: position for position, state in enumerate(rarest)}
    common = rarest[-1]
    turn: Counter[str] = Counter()
    for index, state in states.items():
        turn[state] += 1  # the rarer states in turns, each's first entries first; the usual one last
        nth = len(states) if state == common else turn[state]
        priority = _STATES - nth - rank[state] / (len(counts) + 1)
        picks.append(Pick(index, index + 1, _TERMS if terms and wanted(lines[index]) else priority))
    named = ", ".join(f"[{state}] ×{counts[state]}" for state in rarest[::-1][:_SHOWN_STATES])
    more = len(counts) - _SHOWN_STATES
    outline = f"listing: {len(states)} entries with states: {named}"
    outline += f", {more} more states" if more > 0 else ""
    rare = len(states) - counts[common]
    body = pack(lines, picks, budget, width=_WIDTH)
    return Extract(text=body, kind=kind, outline=outline, highlights=min(rare, 40))
