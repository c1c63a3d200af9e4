"""The ends of a payload, for a query that names one by position.

A question often says where its answer is rather than what it holds: "the final request in the
log", "the version at startup", "the closing totals". ``edges_asked(query)`` says which end a
query names (``start`` or ``end``, by words such as startup, beginning, final, closing, bottom;
and "first", "last" or "top" right before a row's noun: "the last row", "the first record", "the
table header"; or a few words before the listing itself: "the last city in the output", "the first
file listed", "at the top"; not "first" or "last" alone, which name columns and groups as often), and
``edge_passage(text, edge, weight)`` is a chunk's first or last few lines as one passage worth
``weight``, for a search reply or an intent's passages to show (``EDGE_CHUNKS``: the chunk
before the last when the last holds only a table's closing border; the last lines come with the
head of the unit they are in, from the chunk above when the last chunk is a short tail: the last
record's ``-[ RECORD 35 ]``, ``ls -R``'s last directory line; a long last line shows its end,
where a one-line list's last row is); ``edge_from(texts, edge, weight)`` is the first such passage
among the chunks at that end. ``totals_asked(query)``
says whether a query asks for the totals ("total diagnostics", "the overall test counts") and
``totals_passage(texts, weight)`` is the payload's last line that sums the run up
(``context_mode.totals``), read from the end; ``running_total_passage(texts, terms, weight)``,
when there is none, the last line of a running count (``Total # of detected failures: 54.``).
``add_edge`` puts such a passage among a search's hits. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from context_mode.shapes import COMMIT_START, ROW_MARK, RULE_LINE, is_listing_directory
from context_mode.store.cutting import LINE_WIDTH, Span, cut
from context_mode.store.line_match import terms_held
from context_mode.store.terms import Term, line_filter
from context_mode.store.values import IndexHit, LineMatch, SearchHit
from context_mode.totals import is_totals_line

Hit = TypeVar("Hit", bound=IndexHit | SearchHit)

EDGE_LINES = 3  # lines of the payload's start or end shown for a query naming that end
EDGE_CHUNKS = 2  # chunks from that end tried for those lines
ABOVE_LINE = -3  # a passage's unit line from the chunk above (a record card is -1, its fields -2)
_UNIT_REACH = 200  # lines above the last ones searched for the head of the unit they are in
# beside a record's opening (``shapes.ROW_MARK``): a commit's, a diff's, a section's, ``tail``'s file's
_UNIT_HEAD = re.compile(rf"{COMMIT_START}[0-9a-f]{{7,}}\b|diff --git |#{{1,6}} \S|==> .+ <==\s*\Z")
_EDGE_WORDS = {
    "start": frozenset({"startup", "beginning", "initially", "opening"}),
    "end": frozenset({"final", "finally", "closing", "ending", "bottom", "trailing"}),
}
_WORD = re.compile(r"\w+")
# "the last row", "first record", "top line", "the header row", "column names": one row of a
# listing by its place, which is the payload's first or last lines (a name's words such as
# first_name or "the last 4.9 release" are not).
_ROW_NOUN = r"(?:rows?|records?|lines?|entry|entries|items?|elements?|results?)\b"
# "the last city in the output", "the last test file listed": first or last, a few words, then
# the listing itself named.
_LISTED = (
    r"(?:\s+[\w.-]+){0,3}?\s+(?:listed|shown|printed|in\s+(?:the\s+)?(?:list|listing|output|results?))\b"
)
_ROW_AT = {
    "start": re.compile(
        rf"\b(?:first|top)\s+{_ROW_NOUN}|\bheader\s+(?:rows?|columns?)\b|"
        rf"\btable\s+header\b|\bcolumn\s+names\b|\b(?:at\s+the\s+top|top\s+of\s+the)\b|\bfirst{_LISTED}",
        re.IGNORECASE,
    ),
    "end": re.compile(rf"\blast\s+{_ROW_NOUN}|\blast{_LISTED}", re.IGNORECASE),
}


def edges_asked(query: str) -> tuple[str, ...]:
    """Which end of the payload the query names by position: ``("end",)`` for "the final request",
    ``("start",)`` for "the address at startup"; () when it names none."""
    words = {word.lower() for word in _WORD.findall(query)}
    return tuple(edge for edge, names in _EDGE_WORDS.items() if words & names or _ROW_AT[edge].search(query))


def edge_passage(text: str, edge: str, weight: float, *, above: str = "") -> LineMatch | None:
    """The first (``start``) or last (``end``) few non-blank lines of a chunk up to a blank line,
    as one passage; a table's rules (``└──┴──┘``, ``+----+``) are passed over, not shown. None
    when the chunk's end holds nothing else (a table's closing border). The last lines' passage
    has as its unit the head of the record, directory or file they are in, when it is above
    them: in the chunk, or in the chunk ``above`` it (numbered ``ABOVE_LINE``)."""
    raw = text.splitlines()
    lines = list(enumerate(raw))
    picked: list[tuple[int, str]] = []
    previous = None
    for number, line in lines if edge == "start" else reversed(lines):
        if not line.strip():
            if picked:
                break  # blank lines between: the lines nearest the end only
            previous = None
            continue
        if previous is not None and abs(number - previous) != 1:
            break
        previous = number
        if not RULE_LINE.match(line):
            picked.append((number, line))
            if len(picked) == EDGE_LINES:
                break
    if not picked:
        return None
    picked.sort()
    matched = ((f"@{edge}", weight),)
    unit: tuple[tuple[int, str], ...] = ()
    if edge == "end":  # a long line's last record is at its end (a one-line list of rows)
        shown = "\n".join(cut(line, _at_end(line), LINE_WIDTH, str) for _, line in picked)
        head = _last_unit_head(raw, picked[0][0])
        if head is None and above:
            above_lines = above.splitlines()
            head = _last_unit_head(above_lines, len(above_lines))
            head = None if head is None else (ABOVE_LINE, head[1])
        unit = () if head is None else (head,)
    else:
        shown = "\n".join(cut(line, (), LINE_WIDTH, str) for _, line in picked)
    return LineMatch(picked[0][0], shown, weight, matched, picked[-1][0] - picked[0][0] + 1, unit)


def edge_from(texts: Sequence[str], edge: str, weight: float) -> tuple[int, LineMatch] | None:
    """The first ``edge_passage`` among the chunks ``texts`` (``EDGE_CHUNKS`` of them at most,
    the one at that end of the payload first, then inward): its place in ``texts`` and the
    passage. Each chunk's neighbour inward is the chunk ``above`` it for the last lines' unit."""
    for place, text in enumerate(texts[:EDGE_CHUNKS]):
        above = texts[place + 1] if edge == "end" and place + 1 < len(texts) else ""
        passage = edge_passage(text, edge, weight, above=above)
        if passage is not None:
            return place, passage
    return None


def _at_end(line: str) -> tuple[Span, ...]:
    end = len(line.rstrip())
    return ((end - 1, end, 1.0),)


def _last_unit_head(lines: Sequence[str], stop: int) -> tuple[int, str] | None:
    """The head line above line ``stop`` of the unit the payload's last lines are in, with its
    number: the last record's ``-[ RECORD 35 ]``, the last directory's ``lib/vquic:`` in ``ls -R``,
    the last commit's or file's header (the last one of a listing is named by its head, not its
    tail). None when none is within ``_UNIT_REACH`` lines."""
    for number in range(stop - 1, max(-1, stop - _UNIT_REACH), -1):
        line = lines[number]
        if ROW_MARK.match(line) or _UNIT_HEAD.match(line) or is_listing_directory(lines, number):
            return number, cut(line, (), LINE_WIDTH, str)
    return None


_TOTALS_WORDS = frozenset({"total", "totals", "overall", "summary", "tally", "altogether"})
_RUNNING_TERMS = 2  # of the query's other terms, a running count's line holds at least these
_DIGIT = re.compile(r"\d")


def totals_asked(query: str) -> bool:
    """Whether ``query`` asks for a run's totals ("total diagnostics", "overall test counts")."""
    return bool({word.lower() for word in _WORD.findall(query)} & _TOTALS_WORDS)


def totals_passage(texts: Sequence[str], weight: float) -> tuple[int, LineMatch] | None:
    """The last line among the chunks ``texts`` that sums the run up (``totals.is_totals_line``;
    a diff's own ``+``/``-`` lines aside): its chunk's place and the line as a passage."""
    return _last_line(texts, lambda line: line[:1] not in ("+", "-") and is_totals_line(line), weight)


def running_total_passage(
    texts: Sequence[str], terms: Sequence[Term], weight: float
) -> tuple[int, LineMatch] | None:
    """For a totals query where no line sums the run up: the payload's last line holding a number,
    the query's word for a total and at least two of its other terms, and half of them (fail2ban's
    ``Total # of detected failures: 54.`` is the last of a running count, 54 lines of it). Its
    chunk's place and the line as a passage; None when there is none."""
    totals = [term for term in terms if len(term.stems) == 1 and term.text.lower() in _TOTALS_WORDS]
    others = [term for term in terms if term not in totals]
    needed = max(_RUNNING_TERMS, (len(others) + 1) // 2)
    if not totals or len(others) < needed:
        return None
    may_hold = line_filter(totals)

    def counts(line: str) -> bool:
        return (
            may_hold(line)
            and _DIGIT.search(line) is not None
            and bool(terms_held(line, totals))
            and len(terms_held(line, others)) >= needed
        )

    return _last_line(texts, counts, weight)


def _last_line(
    texts: Sequence[str], holds: Callable[[str], bool], weight: float
) -> tuple[int, LineMatch] | None:
    """The last line among the chunks ``texts`` that ``holds``, read from the end: its chunk's
    place and the line as a totals passage worth ``weight``."""
    for place in range(len(texts) - 1, -1, -1):
        lines = texts[place].splitlines()
        for number in range(len(lines) - 1, -1, -1):
            if holds(lines[number]):
                line = cut(lines[number], (), LINE_WIDTH, str)
                return place, LineMatch(number, line, weight, (("@totals", weight),))
    return None


def add_edge(hits: list[Hit], edge_hit: Hit, chunk_of: Callable[[Hit], str]) -> None:
    """Put ``edge_hit``'s passage (its only line) first in the hit of its chunk (``chunk_of``
    names a hit's chunk), or, when no hit holds that chunk, ``edge_hit`` itself; either way with
    at least the best hit's score, shown second: the best hit keeps its place, and a passage
    that answers the query is not discounted for its chunk's low rank."""
    its_chunk = chunk_of(edge_hit)
    best = hits[0].score if hits else 1.0
    for rank, hit in enumerate(hits):
        if chunk_of(hit) == its_chunk:
            merged = replace(hit, lines=(*edge_hit.lines, *hit.lines))
            if rank > 1:
                del hits[rank]
                hits.insert(1, replace(merged, score=max(hit.score, best)))
            else:
                hits[rank] = merged if rank == 0 else replace(merged, score=max(hit.score, best))
            return
    hits.insert(1, replace(edge_hit, score=best))
