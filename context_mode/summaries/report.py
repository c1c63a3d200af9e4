"""Reports of titled sections: ``readelf -a``, ``objdump -p`` and the like.

Such a report is detected as a table (its sections' rows line up), but it is many small tables
and key lines one after another, each under a title at the left margin: ``Section Headers:``,
``Symbol table '.dynsym' contains 91 entries:``, ``Dynamic section at offset 0x2ac28 contains 27
entries:``. A table's first rows would show the first section only.

``report_titles(lines)`` finds the titles: lines at the left margin right above an indented line
(blank lines between allowed) or ending in a colon. ``is_report(lines, titles)`` holds for
``MIN_TITLES`` or more ending in a colon, over a body of which a good part is indented (a
relocation table's rows are not). ``summarize_report`` shows, within ``budget`` bytes, every
title first, then each section's lines in turns (every section's first line before any
section's second), the lines that mention the call's terms and the report's last line ranking
with the titles. Lines are verbatim, clipped at ``_WIDTH`` characters. Linear in the text.
"""

from __future__ import annotations

from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

MIN_TITLES = 3
_INDENTED_SHARE = 0.3  # of the non-blank lines, at least, indented
_WIDTH = 160
_TITLE = 90.0
_TURNS = 40  # a section's lines ranked in turns, the rest fill in order
_TITLES_PER_HIGHLIGHT = 1


def report_titles(lines: Sequence[str]) -> list[int]:
    """Lines at the left margin whose next non-blank line is indented, or that end in a colon."""
    titles: list[int] = []
    last = -1  # the last non-blank line seen
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if last >= 0 and not lines[last][:1].isspace():
            if line[:1].isspace() or lines[last].rstrip().endswith(":"):
                titles.append(last)
        last = index
    return titles


def is_report(lines: Sequence[str], titles: Sequence[int]) -> bool:
    """Whether ``lines`` are a report of titled sections (see module doc)."""
    if sum(1 for index in titles if lines[index].rstrip().endswith(":")) < MIN_TITLES:
        return False
    shown = [line for line in lines if line.strip()]
    indented = sum(1 for line in shown if line[:1].isspace())
    return indented >= len(shown) * _INDENTED_SHARE


def summarize_report(
    lines: Sequence[str], titles: Sequence[int], *, budget: int, terms: Sequence[str] = ()
) -> Extract:
    """The report's titles, then its sections' lines in turns, in ``budget`` bytes (module doc)."""
    matches = term_matcher(terms)
    picks: list[Pick] = []
    turn = 0
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    heads = set(titles)
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if index in heads:
            picks.append(Pick(index, index + 1, _TITLE - 0.001 * index))
            turn = 0
            continue
        turn += 1
        priority = 60.0 - min(turn, _TURNS) - 0.00001 * index
        if matches(line) or index == last:
            priority = _TITLE + 1.0
        picks.append(Pick(index, index + 1, priority))
    body = pack(lines, picks, budget, width=_WIDTH)
    outline = f"report: {len(lines)} lines, {len(titles)} titled sections"
    return Extract(
        text=body, kind=ContentKind.TABLE, outline=outline, highlights=len(titles) // _TITLES_PER_HIGHLIGHT
    )
