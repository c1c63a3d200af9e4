"""Listings that end every entry with its state in brackets: the entries in the rarer states first.

``apt list --installed`` ends each package with ``[installed,automatic]``, ``[installed]``,
``[installed,local]`` or ``[installed,upgradable to: 3.0.20-1~deb12u2]``; ``gcc -Q
--help=optimizers`` each option with ``[enabled]``, ``[disabled]`` or ``[available in C++]``. The
hundreds of entries in the usual state (a dependency pulled in automatically) say least; the few
in another (installed by hand, an upgrade waiting, a local build) are what the listing is read
for. Taken for a log, its first lines and a fold of alike lines were shown.

``file``'s report on many paths (``file /usr/bin/*``: each path's type aligned in one column;
taken for YAML, its first lines) is such a listing too, a type's kind (up to its first detail:
``ELF 64-bit LSB pie executable``, ``symbolic link``, ``Python script``) its state; its outline
counts the files by type.

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
from collections.abc import Callable, Sequence
from typing import NamedTuple

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
# ``file``'s report: a path, a colon, then its type aligned in one column for every path
# (``/usr/bin/[:   ELF 64-bit LSB pie executable, x86-64, …``, ``/usr/bin/X11:  symbolic link to .``).
_FILE_TYPED = re.compile(r"(?P<path>[^\s:][^:\n]*?):(?P<pad>[ \t]+)(?P<type>\S[^\n]*)\Z")
_TYPE_END = re.compile(r",| to |\s\(")  # a type's kind ends at its first detail
_MAX_TYPES = 60


def _bracketed_state(line: str) -> str | None:
    found = _TAGGED.match(line)
    return _VALUE.sub("", found["state"]).strip() if found is not None else None


def _file_type(line: str) -> str | None:
    """The kind of type ``file`` names for the path on ``line`` (``ELF 64-bit LSB pie executable``,
    ``symbolic link``, ``Python script``), else None."""
    found = _FILE_TYPED.match(line)
    if found is None:
        return None
    kind = _TYPE_END.split(found["type"], maxsplit=1)[0].strip()
    return kind or None


def _file_types(head: Sequence[str]) -> bool:
    """Whether the first lines are ``file``'s report: most of them a path (a ``/`` or a ``.`` in it,
    no space) whose type starts in one column."""
    found = [match for line in head if (match := _FILE_TYPED.match(line)) is not None]
    if len(found) < _SHARE * len(head):
        return False
    paths = sum(
        1 for match in found if ("/" in match["path"] or "." in match["path"]) and " " not in match["path"]
    )
    columns = Counter(match.start("type") for match in found)
    return paths >= _SHARE * len(found) and columns.most_common(1)[0][1] >= _SHARE * len(found)


class _Listing(NamedTuple):
    """A kind of listing: its entries' states, how many it may have, and how its outline says them."""

    state_of: Callable[[str], str | None]
    most: int  # states at most
    shape: str  # a state as the outline names it
    opening: str  # the outline's start, given the entries' count
    noun: str


_BRACKETED = _Listing(_bracketed_state, _MAX_STATES, "[{}]", "listing: {} entries with states", "state")
_FILE_REPORT = _Listing(_file_type, _MAX_TYPES, "{}", "files: {} by type", "type")


def summarize_tagged_listing(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The entries in the rarer states first, in ``budget`` bytes; None if ``text`` is no listing
    of entries with bracketed states (see the module doc)."""
    head = first_lines(text, _SAMPLE_LINES)
    if len(head) < _MIN_ENTRIES // 2:
        return None
    if sum(1 for line in head if _TAGGED.match(line)) >= _SHARE * len(head):
        listing = _BRACKETED
    elif _file_types(head):
        listing = _FILE_REPORT
    else:
        return None  # told by its first lines, as most texts are
    lines = split_lines(text)
    states: dict[int, str] = {}
    others: list[int] = []
    for index, line in enumerate(lines):
        state = listing.state_of(line)
        if state is not None:
            states[index] = state
        elif line.strip():
            others.append(index)
    counts = Counter(states.values())
    if len(states) < _MIN_ENTRIES or not 2 <= len(counts) <= listing.most or len(others) > len(states) // 10:
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
    named = ", ".join(
        f"{listing.shape.format(state)} ×{counts[state]}" for state in rarest[::-1][:_SHOWN_STATES]
    )
    more = len(counts) - _SHOWN_STATES
    outline = f"{listing.opening.format(len(states))}: {named}"
    if more > 0:
        outline += f", {more} more {listing.noun}{'s' if more > 1 else ''}"
    rare = len(states) - counts[common]
    body = pack(lines, picks, budget, width=_WIDTH)
    return Extract(text=body, kind=kind, outline=outline, highlights=min(rare, 40))
