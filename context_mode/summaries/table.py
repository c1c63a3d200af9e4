"""Summary of tables: column-aligned CLI output (``pip list``, ``ps``, ``dpkg -l``, ``psql``), CSV, TSV.

The header is the line just above a rule line (``+++-====-===``, ``|---|---|``, ``-----``)
within the first lines, else the first non-blank line; a footer in the last lines (``(N rows)``,
``Total: 263 files``, ``Result: 322 rows``), or a totals line near the end with the few lines
below it (scc's ``Total`` row, its cost estimates and ``Processed … bytes``), is no row and is
shown last. When the columns can be cut apart (``table_grid``), the table is a row set
(``rows.summarize_records``): the row count, the last ``_TITLE_LINES`` lines above the header
that are no rule (its title: psql's ``List of relations``, ``cloc``'s version line and files
ignored), the key columns of as many rows as fit
(matching rows first, the last row too) as the verbatim span of each line when those columns are
adjacent and the first rows' spans fit ``_ROW_WIDTH``
(else the span of the longest run of the first two or more of them that fits), else as the line
itself cut to ``_ROW_WIDTH`` (its first columns, as spelled; ``_TEXT_ROW_WIDTH``
when its last column is a key one of words, ``ps``'s COMMAND and its options; a row shown for a
column's extreme or rare value spans to that column, up to ``_TEXT_ROW_WIDTH``); then each column's
kind, distinct count and range, one-value columns said once. Only the first ``_PARSED`` rows and
the last are cut into cells. A table whose columns cannot be cut apart keeps, highest first:
header and rule, rows that mention a search term, the first rows, the last row, clipped to
``_ROW_WIDTH``. Several tables one after another (``psql``'s ``\\d+`` of several tables, a script's
results in ``sqlite3 -column``, CSV tables each under its title: ``xlsx2csv -a``'s sheets) are
``table_sections``', a report of titled sections (``readelf
-a``, ``pip show -f``) ``report``'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from context_mode.shapes import RULE_LINE, csv_sections, described_tables, table_headers
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, clip, pack, split_lines
from context_mode.summaries.reading import LastReading
from context_mode.summaries.report import is_report, report_titles, summarize_report
from context_mode.summaries.rows import summarize_records
from context_mode.summaries.table_grid import Grid, parse_grid
from context_mode.summaries.table_sections import (
    MIN_TABLES,
    aligned_table_headers,
    blank_separated_headers,
    summarize_table_sections,
)
from context_mode.types import ContentKind

_PREFIX = 400
_COLUMN_SPLIT = re.compile(r"\t|,|;|\s{2,}|\s*\|\s*|\s+")
_HEADER_SEARCH = 30
_ROW_WIDTH = 120
_TEXT_ROW_WIDTH = 200  # a row shown as its line whose last, key column is free text (``ps``'s COMMAND)
_HEADER_WIDTH = 240
_PREAMBLE_LINES = 8  # lines above a table's header that may say what it is (``top``'s five)
_PREAMBLE_ROWS = 20  # rows below a header looked at for its fields
_TITLE_LINES = 3  # the lines above a table's header shown before it
_SPAN_SAMPLE = 20  # rows whose spans must fit for a table to be shown by spans
_PARSED = 2000  # rows cut into cells: the first ones and the last (the columns are described from them)
_LS_TOTAL = re.compile(r"total \d+[KMG]?\s*\Z")
_NUMBER = re.compile(r"[-+]?\d[\d.,:]*[KMGTP%]?\Z")
_FOOTER = re.compile(r"\s*(?:\(\d[\d,]* rows?\)\s*\Z|\d[\d,]* rows? in set\b)")  # psql's, MySQL's
_TOTALS_LINE = re.compile(
    r"\s*(?:total|totals|combined|result|summary|sum|grand total)\b[^\n]*\d", re.IGNORECASE
)
_FOOTER_LINES = 3  # the last lines looked at for footers
_TOTALS_REACH = 12  # the last lines looked at for a totals line with a few lines below it…
_TOTALS_FOOTER = 6  # …at most this many lines from it to the end
_BOX_STARTS = frozenset("+|┌├└╞╘╒╔╠╚")  # a boxed table's rule line opens with one
_CELL_STARTS = frozenset("|│║┃")  # a boxed table's row opens with one
_RULE_STARTS = _BOX_STARTS | frozenset("-=:")  # what a rule line between a boxed table's rows opens with


class _Reading(NamedTuple):
    """A table as read before a budget is spent: its lines, header, rows and footers, and when
    its columns can be cut apart, their grid and the records of the rows kept."""

    lines: list[str]
    header: int
    rule: int
    rows: list[int]
    footers: list[int]  # the totals lines below the last row (``Total: 263 files``)
    grid: Grid | None
    kept: list[int]
    records: list[dict[str, str]]
    tables: list[int]  # the header lines of several tables one after another (``table_sections``)
    titles: list[int]  # the titles of a report's sections (``report``)
    ruled: bool = True  # the ``tables`` have a rule line under their headers
    titled: bool = False  # the ``tables``' titles are the lines right above their headers (CSV's)


# The router summarises a payload more than once: the reading is kept for the same text.
_READINGS: LastReading[_Reading] = LastReading()


def summarize_table(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """A table as a row set (its key columns, row count, columns' ranges) when its columns can be
    cut apart, else its header, first rows and last row; within ``budget`` bytes."""
    lines, header, rule, rows, footers, grid, kept, records, tables, titles, ruled, titled = _READINGS.get(
        text, (), lambda: _read(text)
    )
    if tables:
        return summarize_table_sections(lines, tables, budget=budget, terms=terms, ruled=ruled, titled=titled)
    if titles:
        return summarize_report(lines, titles, budget=budget, terms=terms)
    if grid is None:
        return _table_lines(lines, header, rule, rows, footers, budget=budget, terms=terms)
    return summarize_records(
        records,
        list(grid.names),
        budget=budget,
        terms=terms,
        total_line="\n".join(lines[index].strip() for index in footers),
        raw=lambda index: lines[kept[index]][: _ROW_WIDTH * 2],
        title=_title(lines, header),
        layout=_Spans(grid, lines, kept, header),
        kind=ContentKind.TABLE,
        noun="rows",
        count=len(rows),
    )


def _read(text: str) -> _Reading:
    lines = split_lines(text)
    headers = table_headers(lines)
    tables = headers or aligned_table_headers(lines)
    # No one grid to read (or psql's notes under its one table): each table is shown by its lines.
    if len(tables) >= MIN_TABLES or described_tables(lines, headers):
        return _Reading(lines, -1, -1, [], [], None, [], [], tables, [])
    tables = csv_sections(lines)
    if tables:  # CSV tables one after another (``xlsx2csv -a``'s sheets), each under its title
        return _Reading(lines, -1, -1, [], [], None, [], [], tables, [], ruled=False, titled=True)
    tables = blank_separated_headers(lines)
    if tables:  # tables with no rule under their headers, a blank line between them
        return _Reading(lines, -1, -1, [], [], None, [], [], tables, [], ruled=False)
    titles = report_titles(lines)
    if is_report(lines, titles):  # many small tables and key lines, each under its title
        return _Reading(lines, -1, -1, [], [], None, [], [], [], titles)
    header, rule = _header(lines)
    if rule < 0 and header >= 0 and _LS_TOTAL.match(lines[header]):
        # ``ls -l`` opens with ``total 1752``: a count, not the header
        header = next((i for i in range(header + 1, len(lines)) if lines[i].strip()), header)
    # A boxed table's rule lines (``+----+----+``, MySQL, sqlite3 -table) are no rows, above or below.
    boxed = rule >= 0 and lines[rule].lstrip()[:1] in _BOX_STARTS
    # A header framed by rules (cloc's) has rules between its rows and totals too: no rows.
    framed = rule >= 2 and RULE_LINE.match(lines[rule - 2][:_PREFIX]) is not None
    rows = [
        i
        for i in range(header + 1, len(lines))
        if i != rule
        and lines[i].strip()
        and not (_rule_between(lines[i], boxed, framed) and RULE_LINE.match(lines[i][:_PREFIX]))
    ]
    footers: list[int] = []
    # Under a table whose rows open with a cell's bar, a line that does not is no row (MySQL's
    # client says ``Bye``); dpkg -l's rule opens with ``+`` too, but its rows with their state.
    celled = bool(rows) and lines[rows[0]].lstrip()[:1] in _CELL_STARTS
    while (
        len(rows) > 1
        and rows[-1] >= len(lines) - _FOOTER_LINES
        and (
            _is_footer(lines[rows[-1]])
            or celled
            and lines[rows[-1]].lstrip()[:1] not in _CELL_STARTS
            or footers
            and RULE_LINE.match(lines[rows[-1]][:_PREFIX]) is not None  # a rule over the totals
        )
    ):
        footers.insert(0, rows.pop())
    if not footers:
        # A totals line a few lines above the end (scc's ``Total`` row, then its cost estimates
        # and ``Processed 1,015,079 bytes``): it and the lines below it are the footer.
        near = [n for n, i in enumerate(rows) if i >= len(lines) - _TOTALS_REACH and n > 0]
        total = next((n for n in reversed(near) if _TOTALS_LINE.match(lines[rows[n]])), None)
        if total is not None and len(rows) - total <= _TOTALS_FOOTER:
            rows, footers = rows[:total], rows[total:]
    grid = parse_grid(lines, header, rows)
    if grid is None:
        return _Reading(lines, header, rule, rows, footers, None, [], [], [], [])
    if rule < 0 and any(_NUMBER.match(cell) for cell in grid.cells(lines[header])):
        # A first line with a bare number in a cell is data (``ls -l``, ``du``): no header.
        rows, header = [header, *rows], -1
        names = tuple(f"column {order}" for order in range(1, len(grid.names) + 1))
        grid = Grid(names=names, delimiter=grid.delimiter, starts=grid.starts)
    kept = rows if len(rows) <= _PARSED else [*rows[: _PARSED - 1], rows[-1]]
    records = [dict(zip(grid.names, grid.cells(lines[i]), strict=True)) for i in kept]
    return _Reading(lines, header, rule, rows, footers, grid, kept, records, [], [])


class _Spans:
    """Rows shown by the verbatim span of their key columns when those are adjacent and the spans
    of the first rows fit ``_ROW_WIDTH``; else (and the header likewise) by the line itself, cut
    to ``_ROW_WIDTH``: a row's first columns name it, and a row is quoted as it is spelled."""

    def __init__(self, grid: Grid, lines: Sequence[str], rows: Sequence[int], header: int) -> None:
        self.grid, self.lines, self.rows = grid, lines, rows
        self.header_line = lines[header] if header >= 0 else ""  # a headerless table: names joined
        self.index = {name: order for order, name in enumerate(grid.names)}
        self.runs: dict[tuple[str, ...], tuple[int, int] | None] = {}
        self.free_text: bool | None = None  # whether most rows' last cells hold words

    def _run(self, keys: Sequence[str]) -> tuple[int, int] | None:
        """The adjacent columns ``keys`` span, if rows are to be shown by their spans."""
        key = tuple(keys)
        if key not in self.runs:
            positions = [self.index[k] for k in keys]
            run = None
            if positions and positions == list(range(positions[0], positions[0] + len(positions))):
                # The key columns' span, else (unless the line is shown to its end, its last key
                # column free text) the longest run of the first of them, two at least, whose
                # span fits: a padded column (pip-licenses' Author) would cut every row's line at
                # the width and show fewer rows.
                widest = len(positions) - 1
                narrowest = widest if self._line_width(keys) > _ROW_WIDTH else min(1, widest)
                for last in range(widest, narrowest - 1, -1):
                    run = positions[0], positions[last]
                    sample = [self.grid.span(self.lines[i], *run) for i in self.rows[:_SPAN_SAMPLE]]
                    if all(0 < len(spelled) <= _ROW_WIDTH for spelled in sample):
                        break
                    run = None
            self.runs[key] = run
        return self.runs[key]

    def header(self, keys: Sequence[str]) -> str:
        run = self._run(keys)
        spelled = (
            self.grid.span(self.header_line, *run) if run else clip(self.header_line.strip(), _ROW_WIDTH)
        )
        return spelled or " | ".join(keys)

    def row(self, index: int, keys: Sequence[str], reach: str = "") -> str:
        line = self.lines[self.rows[index]]
        width = self._line_width(keys)
        run = self._run(keys)
        if reach:  # the row is shown for this column's value: its span reaches that column
            column = self.index[reach]
            reached = (min(run[0], column), max(run[1], column)) if run else (0, column)
            spelled = self.grid.span(line, *reached)
            if (run or len(spelled) > width) and 0 < len(spelled) <= _TEXT_ROW_WIDTH:
                return spelled
        spelled = self.grid.span(line, *run) if run else ""
        if spelled and len(spelled) <= _ROW_WIDTH:
            return spelled
        return clip(line.rstrip(), width)

    def _line_width(self, keys: Sequence[str]) -> int:
        """How much of a row's line is shown: more when its last column is a key one of free text,
        words that run to the line's end (``ps``'s COMMAND and its options)."""
        if self.free_text is None:
            sample = [self.grid.cells(self.lines[i])[-1] for i in self.rows[:_SPAN_SAMPLE]]
            self.free_text = sum(" " in cell for cell in sample) * 2 > len(sample)
        wide = self.free_text and bool(keys) and keys[-1] == self.grid.names[-1]
        return _TEXT_ROW_WIDTH if wide else _ROW_WIDTH


def _title(lines: Sequence[str], header: int) -> list[str]:
    """The last ``_TITLE_LINES`` lines above the header that are no rule, clipped: what the table
    is (psql's ``List of relations``, ``cloc``'s version line and its counts of files ignored)."""
    above = [line.strip() for line in lines[: max(header, 0)] if line.strip()]
    return [clip(line, _ROW_WIDTH) for line in above if not RULE_LINE.match(line[:_PREFIX])][-_TITLE_LINES:]


def _rule_between(line: str, boxed: bool, framed: bool) -> bool:
    """Whether ``line``, if a rule, is one between rows: any in a table whose header is framed by
    rules (cloc's), a box's own in a boxed table (MySQL's ``+----+``)."""
    return framed or (boxed and line.lstrip()[:1] in _RULE_STARTS)


def _is_footer(line: str) -> bool:
    """A line under a table's rows that sums them up: a row count as ``psql`` or MySQL print it
    (``(677 rows)``, ``3 rows in set (0.00 sec)``), or a line opening with a totals word
    (``Total: 263 files, 0 directories``, ``Combined size: 3.90 MB``, ``Result: 322 rows``,
    coverage's ``TOTAL  120  18  85%``)."""
    return bool(_FOOTER.match(line) or _TOTALS_LINE.match(line))


def _table_lines(
    lines: Sequence[str],
    header: int,
    rule: int,
    rows: Sequence[int],
    footers: Sequence[int],
    *,
    budget: int,
    terms: Sequence[str],
) -> Extract:
    """Header, rule, the ``footers`` lines (totals), rows holding a term, first rows and the
    last row, clipped, by line."""
    matches = term_matcher(terms)
    picks = [Pick(index, index + 1, 97.0, _ROW_WIDTH) for index in footers]
    if header >= 0:
        picks.append(Pick(header, header + 1, 100.0, _HEADER_WIDTH))
    if rule >= 0:
        picks.append(Pick(rule, rule + 1, 95.0, _HEADER_WIDTH))
    # A preamble (dpkg's legend) is worth little next to rows.
    picks.extend(Pick(index, index + 1, 20.0 - index * 0.1, _HEADER_WIDTH) for index in range(max(header, 0)))
    for order, index in enumerate(rows):
        line = lines[index][:_PREFIX]
        if matches(line):
            picks.append(Pick(index, index + 1, 85.0 - 0.01 * order, _ROW_WIDTH))
        elif order < 200:
            picks.append(Pick(index, index + 1, 80.0 - 0.3 * order, _ROW_WIDTH))
    if rows:
        picks.append(Pick(rows[-1], rows[-1] + 1, 79.5, _ROW_WIDTH))  # shows where the table ends
    named = _header_below_preamble(lines, header) if rule < 0 else header
    if named != header:  # ``top -b``'s load and tasks lines above ``PID USER …``: named by that line
        picks.append(Pick(named, named + 1, 99.0, _HEADER_WIDTH))
        rows = [index for index in rows if index > named]
    body = pack(lines, picks, budget, width=_ROW_WIDTH)
    columns = _columns(lines[named][:_PREFIX]) if named >= 0 else []
    outline = f"table: {len(rows)} rows"
    if columns:
        outline += (
            f" × {len(columns)} columns ({', '.join(columns[:12])}{', …' if len(columns) > 12 else ''})"
        )
    return Extract(text=body, kind=ContentKind.TABLE, outline=outline, highlights=len(rows))


def _header(lines: Sequence[str]) -> tuple[int, int]:
    """The header line and rule line indexes (-1 when absent)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), -1)
    for index in range(1, min(len(lines), _HEADER_SEARCH)):
        above = lines[index - 1].strip()
        # A header's rule spans it (at least half of it): a short rule under a long line frames
        # an echoed statement (``mariadb -vvv``'s query between ``--------------``), not names.
        if RULE_LINE.match(lines[index][:_PREFIX]) and above and len(lines[index].strip()) * 2 >= len(above):
            # A header framed by two rules (cloc's ``File  blank  comment  code``) is the line
            # between them, not the title above the first.
            below = index + 2
            if below < len(lines) and lines[index + 1].strip() and RULE_LINE.match(lines[below][:_PREFIX]):
                if not RULE_LINE.match(lines[index + 1][:_PREFIX]):
                    return index + 1, below
            return index - 1, index
    return first, -1


def _header_below_preamble(lines: Sequence[str], first: int) -> int:
    """The line naming a table's columns under a few lines that say what it is (``top -b``'s load,
    tasks and memory over ``PID USER PR …``; ``netstat``'s ``Active Internet connections``): the
    first of the top ``_PREAMBLE_LINES`` lines whose words are all names (no number) when most of
    the ``_PREAMBLE_ROWS`` lines below it have as many fields and the first line has not; else
    ``first``."""
    if first < 0:
        return first
    reach = min(len(lines), first + _PREAMBLE_LINES + _PREAMBLE_ROWS)
    filled = [i for i in range(first, reach) if lines[i].strip()]

    def aligned(at: int) -> bool:
        fields = len(lines[filled[at]].split())
        below = [len(lines[i].split()) for i in filled[at + 1 : at + 1 + _PREAMBLE_ROWS]]
        return fields >= 3 and len(below) >= 3 and sum(n == fields for n in below) * 5 >= len(below) * 4

    if not filled or aligned(0):
        return first
    for at in range(1, min(len(filled), _PREAMBLE_LINES)):
        if not any(_NUMBER.match(word) for word in lines[filled[at]].split()) and aligned(at):
            return filled[at]
    return first


def _columns(header: str) -> list[str]:
    """Column names: the header's cells that hold a letter or digit."""
    return [cell.strip() for cell in _COLUMN_SPLIT.split(header) if any(ch.isalnum() for ch in cell)]
