"""Coverage tables: in a test log, its header, its totals row and its least covered files; alone,
a coverage report read as what it is.

``coverage_picks(lines)`` finds the table that Istanbul's text reporter prints (nyc, c8, jest
``--coverage``: ``File | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s``, then
``All files | 94.52 | …``) and coverage.py's report (``Name  Stmts  Miss  Cover``, then
``TOTAL``), and returns picks for a log summary: the totals row (what the run came to, ranked
with a run's final summary), the header row (what the numbers are), and the ``_LEAST`` rows
with the lowest first figure of coverage (where tests are missing). Rows are shown verbatim.
Linear: one bounded regex per line after a header is found.

``summarize_coverage(text, kind=, budget=, terms=)`` reads a text that is mostly such a table (a
``c8 report``, ``coverage report -m``, gcovr's ``File  Lines  Exec  Cover  Missing``) whatever kind
it was taken for: a table's reading narrows it to its key columns and drops the uncovered lines,
the figure an agent opens a coverage report for. None unless the table's rows and rules make up
``_REPORT_SHARE`` of the text's non-blank lines; else, verbatim and within ``budget`` bytes: the
lines above the table (the report's title, its directory), the header, the totals row, the last
line, rows naming the call's terms, then the rows by coverage, the least covered first, Istanbul's
directories and files in turns, fully covered rows last. ``Extract.kind`` is the kind asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, in_turns, pack, split_lines
from context_mode.summaries.reading import LastReading
from context_mode.types import ContentKind

_HEADER = re.compile(r"\s*(?:File\s*\|\s*% Stmts\b|Name\s+Stmts\s+Miss\b|File\s+Lines\s+Exec\s+Cover\b)")
_TOTALS = re.compile(r"\s*(?:All files|TOTAL)\b")
# A row's first figure: Istanbul's ``name | 54.16 |``; coverage.py's last, ``name 120 8 93%``.
_ISTANBUL_ROW = re.compile(r"\s*(?P<name>[^|\s][^|]*?)\s*\|\s*(?P<figure>\d+(?:\.\d+)?)\s*\|")
_PYTHON_ROW = re.compile(r"\s*(?P<name>\S+)\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+(?P<figure>\d+(?:\.\d+)?)%")
_LEAST = 3
_PREFIX = 400
_RULE = frozenset("-|=+ ")
# A report's reading, whatever the budget: its lines, picks, outline and highlights
_Report = tuple[list[str], list[Pick], str, int]
_REPORTS: LastReading[_Report | None] = LastReading()
_HEAD_LINES = 60  # the header is looked for in the text's first lines
_MIN_ROWS = 3
_REPORT_SHARE = 0.8  # of the non-blank lines: the table's header, rows, totals and rules
_ABOVE = 6  # lines above the table kept (a title, the directory reported on)
_WIDTH = 120  # a row's figures and the first of its uncovered lines: more rows, not longer ones
_OWN = 90.0
_ROW = 70.0  # the least covered row; each next one ``_STEP`` less
_TERM = 75.0
_FULL = 30.0  # a fully covered row, after every row missing something
_STEP = 0.01
_HIGHLIGHTS = 20


def coverage_picks(lines: Sequence[str]) -> list[Pick]:
    """Picks for each coverage table in ``lines`` (see module doc); none when there is none."""
    picks: list[Pick] = []
    headers = [index for index, line in enumerate(lines) if "Stmts" in line]  # one fast pass first
    if not headers:
        return picks
    row: re.Pattern[str] | None = None
    rows: list[tuple[float, int]] = []
    for index in range(headers[0], len(lines)):
        text = lines[index][:_PREFIX]
        if _HEADER.match(text):
            picks.extend(_least(rows))
            rows = []
            row = _ISTANBUL_ROW if "|" in text else _PYTHON_ROW
            picks.append(Pick(index, index + 1, 93.0))
            continue
        if row is None:
            continue
        if _TOTALS.match(text):
            picks.append(Pick(index, index + 1, 96.0))
            continue
        found = row.match(text)
        if found is not None:
            rows.append((float(found.group("figure")), index))
        elif text.strip() and not set(text.strip()) <= set("-|=+ "):
            picks.extend(_least(rows))  # the table ended
            rows, row = [], None
    picks.extend(_least(rows))
    return picks


def _least(rows: list[tuple[float, int]]) -> list[Pick]:
    """The rows with the lowest coverage, as picks (a directory's row in Istanbul's table too)."""
    return [Pick(index, index + 1, 72.0 - order) for order, (_, index) in enumerate(sorted(rows)[:_LEAST])]


def summarize_coverage(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """A coverage report's totals and least covered rows in ``budget`` bytes; None if it is none."""
    if "Stmts" not in text[: _PREFIX * _HEAD_LINES] and "Cover" not in text[: _PREFIX * _HEAD_LINES]:
        return None
    reading = _REPORTS.get(text, tuple(terms), lambda: _read_report(split_lines(text), terms))
    if reading is None:
        return None
    lines, picks, outline, highlights = reading
    body = pack(lines, picks, budget, width=_WIDTH)
    return Extract(text=body, kind=kind, outline=f"{kind.value}: {outline}", highlights=highlights)


def _read_report(lines: list[str], terms: Sequence[str]) -> _Report | None:
    header = next((i for i, line in enumerate(lines[:_HEAD_LINES]) if _HEADER.match(line[:_PREFIX])), -1)
    if header < 0:
        return None
    row = _ISTANBUL_ROW if "|" in lines[header] else _PYTHON_ROW
    rows: list[tuple[float, int]] = []
    totals = -1
    table = 1
    for index in range(header + 1, len(lines)):
        text = lines[index][:_PREFIX]
        if not text.strip():
            continue
        if set(text.strip()) <= _RULE:
            table += 1
        elif _TOTALS.match(text):
            totals = index
            table += 1
        elif (found := row.match(text)) is not None:
            rows.append((float(found.group("figure")), index))
            table += 1
    above = [i for i in range(header) if lines[i].strip() and not set(lines[i].strip()) <= _RULE]
    filled = len(above) + sum(1 for line in lines[header:] if line.strip())
    if len(rows) < _MIN_ROWS or table < filled * _REPORT_SHARE:
        return None
    picks = [Pick(i, i + 1, _OWN) for i in above[:_ABOVE]]
    picks.append(Pick(header, header + 1, 93.0))
    if totals >= 0:
        picks.append(Pick(totals, totals + 1, 96.0))
    last = max(i for i, line in enumerate(lines) if line.strip())
    if not set(lines[last].strip()) <= _RULE:
        picks.append(Pick(last, last + 1, _OWN))
    wanted = term_matcher(terms)
    best = max(figure for figure, _ in rows)
    missing = sorted((figure, index) for figure, index in rows if figure < best)
    # Istanbul's directories (one space in) and files (two) in turns, the least covered first
    directories = [i for _, i in missing if row is _ISTANBUL_ROW and not lines[i].startswith("  ")]
    in_directories = set(directories)
    files = [i for _, i in missing if i not in in_directories]
    seen: set[str] = set()
    repeated = []  # a row like one ranked before (``auto.js | 0 | … | 1-3`` in every directory): last
    for index in files:
        if lines[index] in seen:
            repeated.append(index)
        seen.add(lines[index])
    twice = set(repeated)
    files = [i for i in files if i not in twice]
    order = in_turns(directories, files) + repeated
    for rank, index in enumerate(order):
        picks.append(Pick(index, index + 1, _TERM if wanted(lines[index]) else _ROW - _STEP * rank))
    for rank, (_, index) in enumerate((f, i) for f, i in rows if f >= best):
        picks.append(Pick(index, index + 1, _TERM if wanted(lines[index]) else _FULL - _STEP * rank))
    total = " ".join(lines[totals].split()) if totals >= 0 else ""
    outline = f"coverage report, {len(rows)} rows, {len(missing)} not fully covered" + (
        f"; {total[:80]}" if total else ""
    )
    return lines, picks, outline, min(len(missing) + 1, _HIGHLIGHTS)
