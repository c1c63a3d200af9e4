"""``git blame`` output: who last changed which lines, with the file's outline.

Input: ``git blame`` lines, ``<hash> [<path>] (<author> <date> [<time> <zone>] <line>) <code>``
(``^`` marks a boundary commit, ``-e`` gives an email for the author, ``--date=short`` a bare
date; ``shapes.BLAME_LINE``), or ``hg annotate -udnc[l]``'s, ``<user> <rev> <changeset> <date>:
[<line>:] <code>``; ``summarize_blame`` returns ``None`` unless ``BLAME_SHARE`` of the
non-blank lines are such lines. A blame is source code whose every line says when it last
changed, so the summary keeps, best first:

- each commit's first line, annotated with how many lines it holds and which (``[×12 lines:
  40–47, 90–93]``), the newest commits first, then the ones holding the most lines;
- lines mentioning the call's terms;
- the code's definitions (``summaries.source.DEFINITION``), in file order;
- the newest commit's first lines (what changed last), unless it holds half the file or more;
- the first and last lines.

Lines are verbatim; counts are bracketed annotations. The outline gives the line, commit and
author counts and the dates they span. Linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from context_mode.shapes import BLAME_SHARE, blame_match
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack
from context_mode.summaries.source import DEFINITION
from context_mode.types import ContentKind

_NEWEST = 3  # commits shown first by date
_LARGEST = 2  # then by lines held
_NEWEST_LINES = 6  # lines of the newest commit picked, when it holds less than half the lines
_NOTE_CHARS = 40  # an annotation's longest (``packing.strip_annotation``)


@dataclass(slots=True)
class _Commit:
    hash: str
    first: int  # index of its first line in the payload
    author: str
    date: str
    time: str
    lines: list[int] = field(default_factory=list)  # the file's line numbers it holds


def parse_blame(lines: Sequence[str]) -> list[re.Match[str] | None] | None:
    """Each line's blame match (``None`` for other lines), or ``None`` when the text is no blame.

    Every source read comes here first: it stops at the first non-blank lines that rule it out."""
    content = sum(1 for line in lines if line.strip())
    allowed = content - max(3, content * BLAME_SHARE)  # non-blank lines that may be no blame line
    if allowed < 0:
        return None
    found: list[re.Match[str] | None] = []
    misses = 0
    for line in lines:
        match = blame_match(line)
        if match is None and line.strip():
            misses += 1
            if misses > allowed:
                return None
        found.append(match)
    return found


def summarize_blame(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract | None:
    """The blame summary of a text's ``lines`` (``packing.split_lines``) in ``budget`` bytes, or
    ``None`` when it is no blame (``summaries.source`` asks first, with the lines it split)."""
    found = parse_blame(lines)
    if found is None:
        return None
    commits: dict[str, _Commit] = {}
    for index, match in enumerate(found):
        if match is None:
            continue
        commit = commits.get(match["hash"])
        if commit is None:
            commit = commits[match["hash"]] = _Commit(
                match["hash"], index, match["author"].strip(), _date(match), match["time"] or ""
            )
        commit.lines.append(int(match["line"]) if match["line"] else index + 1)
    newest = sorted(commits.values(), key=lambda c: (c.date, c.time, c.first), reverse=True)
    largest = sorted(commits.values(), key=lambda c: (-len(c.lines), c.first))
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    for rank, commit in enumerate(newest):
        notes[commit.first] = _note(commit.lines)
        if rank < _NEWEST:
            picks.append(Pick(commit.first, commit.first + 1, 100.0 - rank))
    for rank, commit in enumerate(largest[:_LARGEST]):
        picks.append(Pick(commit.first, commit.first + 1, 90.0 - rank))
    lowered = [term.lower() for term in terms if term]
    total = sum(len(commit.lines) for commit in commits.values())
    shown_latest = _NEWEST_LINES if len(newest[0].lines) * 2 >= total else 0
    for index, match in enumerate(found):
        if match is None:
            continue
        code = match["code"]
        if lowered and any(term in code.lower() for term in lowered):
            picks.append(Pick(index, index + 1, 80.0))
        if match["hash"] == newest[0].hash and shown_latest < _NEWEST_LINES:
            shown_latest += 1
            picks.append(Pick(index, index + 1, 50.0))
        if DEFINITION.match(code.lstrip()):
            picks.append(Pick(index, index + 1, 60.0))
        else:
            picks.append(Pick(index, index + 1, 5.0))
    picks += [Pick(0, 1, 30.0), Pick(len(lines) - 1, len(lines), 30.0)]
    body = pack(lines, picks, budget, notes=notes)
    authors = {commit.author for commit in commits.values()}
    dates = sorted(commit.date for commit in commits.values())
    outline = (
        f"blame: {total} lines, {len(commits)} commits by "
        f"{len(authors)} author{'s' if len(authors) != 1 else ''}, {dates[0]} … {dates[-1]}"
    )
    return Extract(text=body, kind=ContentKind.SOURCE, outline=outline, highlights=len(commits))


_MONTHS = {name: n for n, name in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), 1)}


def _date(match: re.Match[str]) -> str:
    """The line's date as ``2024-11-06`` (``hg annotate`` spells it ``Wed Nov 06 … 2024``)."""
    fields = match.groupdict()
    if fields.get("date"):
        return match["date"]
    return f"{match['year']}-{_MONTHS.get(match['month'], 0):02d}-{int(match['day']):02d}"


def _note(numbers: list[int]) -> str:
    """``×7 lines: 1–3, 7, 9–11`` for the lines a commit holds: as many runs as fit ``_NOTE_CHARS``
    (an annotation's limit), then ``…``."""
    runs: list[tuple[int, int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    note = f"×{len(numbers)} line{'s' if len(numbers) != 1 else ''}:"
    for order, (first, last) in enumerate(runs):
        run = f"{first}–{last}" if first != last else str(first)
        glue, more = " " if order == 0 else ", ", ", …" if order + 1 < len(runs) else ""
        if len(note) + len(glue) + len(run) + len(more) > _NOTE_CHARS:
            return note + ", …"
        note += glue + run
    return note
