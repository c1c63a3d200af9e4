"""Summary of tables: column-aligned CLI output (``dpkg -l``, ``ps``, ``docker ps``), CSV, TSV.

The header is the line just above a rule line (``+++-====-===``, ``|---|---|``, ``-----``)
within the first lines, else the first non-blank line; any preamble above it is kept only if
the budget allows. Picks, highest first: header and rule, rows that mention a search term,
the first rows, the last row. Rows are clipped to ``_ROW_WIDTH`` chars so more of them fit.
The outline gives the row count and the column names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.types import ContentKind

_PREFIX = 400
_RULE = re.compile(r"\s*[|+]?[-=:+| ]*[-=]{3,}[-=:+| ]*\Z")
_COLUMN_SPLIT = re.compile(r"\t|,|;|\s{2,}|\s*\|\s*|\s+")
_HEADER_SEARCH = 30
_ROW_WIDTH = 120
_HEADER_WIDTH = 240


def summarize_table(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Header, row count and first rows of a table, within ``budget`` bytes."""
    lines = split_lines(text)
    header, rule = _header(lines)
    rows = [i for i in range(header + 1, len(lines)) if lines[i].strip() and i != rule]
    matches = term_matcher(terms)
    picks: list[Pick] = []
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
    body = pack(lines, picks, budget, width=_ROW_WIDTH)
    columns = _columns(lines[header][:_PREFIX]) if header >= 0 else []
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
        if _RULE.match(lines[index][:_PREFIX]) and lines[index - 1].strip():
            return index - 1, index
    return first, -1


def _columns(header: str) -> list[str]:
    """Column names: the header's cells that hold a letter or digit."""
    return [cell.strip() for cell in _COLUMN_SPLIT.split(header) if any(ch.isalnum() for ch in cell)]
