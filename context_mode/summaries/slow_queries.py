"""MySQL / MariaDB slow query logs: the slowest statements first, each with its timing line.

A slow query log is entries of ``#`` header lines (``# Time:``, ``# User@Host:``, ``# Query_time:
4.000272  Lock_time: 0.000118  Rows_sent: 1  Rows_examined: 1200000``, MariaDB's ``# explain:``
lines) and the statement after them (``use db;`` and ``SET timestamp=…;`` aside). Its ``#`` lines
read as Markdown headings; what an agent opens it for is which statements were slowest and how
much they read.

``shapes.is_slow_query_log(lines)`` says whether ``lines`` (a sample) holds two or more
``# Query_time:`` lines. ``summarize_slow_queries(text, budget=, terms=)`` shows, within ``budget`` bytes and
verbatim, the log's first lines (the server and its version, its port), a count (derived, so a
``== … ==`` label),
then entries by ``Query_time`` (the slowest first) and, in turns, by ``Rows_examined`` (the most
first): each its ``# Query_time:`` line and its statement's first line, entries naming the call's
terms before the rest, and last the final entry's timing line. Linear in the text, but for one
sort of the entries.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.shapes import SLOW_QUERY_TIMING
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import clip, size, split_lines
from context_mode.types import ContentKind

_SKIPPED = re.compile(r"(?:use \S+;|SET timestamp=\d+;)\s*\Z", re.IGNORECASE)
_HEAD_LINES = 3  # the server's own lines above the first entry
_WIDTH = 200
_MOST_HIGHLIGHTS = 20  # entries counted as salient content, for the budget


@dataclass(frozen=True, slots=True)
class _Entry:
    timing: int  # its ``# Query_time:`` line
    statement: int  # its statement's first line (-1 when none)
    seconds: float
    rows: int


def summarize_slow_queries(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The slowest and the most reading statements of a slow query log in ``budget`` bytes."""
    lines = split_lines(text)
    entries = _entries(lines)
    head = [
        i for i in range(min(_HEAD_LINES, len(lines))) if lines[i].strip() and not lines[i].startswith("#")
    ]
    count = f"{len(entries)} slow queries"
    if entries:
        slowest = max(entries, key=lambda entry: entry.seconds)
        count += f"; the slowest {slowest.seconds:g} s; the most rows examined {max(e.rows for e in entries)}"
    wanted = term_matcher(terms)
    by_time = sorted(entries, key=lambda entry: (-entry.seconds, entry.timing))
    by_rows = sorted(entries, key=lambda entry: (-entry.rows, entry.timing))
    order = [e for e in entries if e.statement >= 0 and wanted(lines[e.statement])]
    for first, second in zip(by_time, by_rows, strict=True):
        order += [first, second]
    last = entries[-1] if entries else None
    fixed = [clip(lines[i], _WIDTH) for i in head] + [f"== {count} =="]  # derived: a label, no payload line
    tail = ["== the last entry ==", clip(lines[last.timing], _WIDTH)] if last else []
    used = sum(size(line) + 1 for line in [*fixed, *tail])
    chosen: dict[int, _Entry] = {}
    for entry in order:
        if entry.timing in chosen:
            continue
        shown = _entry_lines(lines, entry)
        cost = sum(size(line) + 1 for line in shown)
        if used + cost <= budget:
            chosen[entry.timing] = entry
            used += cost
    body = [*fixed, "== the slowest first =="] if chosen else list(fixed)
    for entry in sorted(chosen.values(), key=lambda entry: (-entry.seconds, entry.timing)):
        body += _entry_lines(lines, entry)
    body += tail
    outline = f"log: slow query log, {count}"
    return Extract(
        text="\n".join(body), kind=ContentKind.LOG, outline=outline, highlights=min(len(entries), 20)
    )


def _entries(lines: Sequence[str]) -> list[_Entry]:
    found: list[_Entry] = []
    for index, line in enumerate(lines):
        timing = SLOW_QUERY_TIMING.match(line) if line.startswith("# Query_time: ") else None
        if timing is None:
            continue
        statement = -1
        for below in range(index + 1, min(len(lines), index + 40)):
            text = lines[below]
            if text.startswith(("# Query_time: ", "# User@Host: ")):
                break
            if text.strip() and not text.startswith("#") and not _SKIPPED.match(text.strip()):
                statement = below
                break
        found.append(_Entry(index, statement, float(timing.group("time")), int(timing.group("rows"))))
    return found


def _entry_lines(lines: Sequence[str], entry: _Entry) -> list[str]:
    shown = [clip(lines[entry.timing], _WIDTH)]
    if entry.statement >= 0:
        shown.append(clip(lines[entry.statement], _WIDTH))
    return shown
