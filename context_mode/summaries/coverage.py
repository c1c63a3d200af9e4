"""A coverage table in a test log: its header, its totals row and its least covered files.

``coverage_picks(lines)`` finds the table that Istanbul's text reporter prints (nyc, c8, jest
``--coverage``: ``File | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s``, then
``All files | 94.52 | …``) and coverage.py's report (``Name  Stmts  Miss  Cover``, then
``TOTAL``), and returns picks for a log summary: the totals row (what the run came to, ranked
with a run's final summary), the header row (what the numbers are), and the ``_LEAST`` rows
with the lowest first figure of coverage (where tests are missing). Rows are shown verbatim.
Linear: one bounded regex per line after a header is found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.packing import Pick

_HEADER = re.compile(r"\s*(?:File\s*\|\s*% Stmts\b|Name\s+Stmts\s+Miss\b)")
_TOTALS = re.compile(r"\s*(?:All files|TOTAL)\b")
# A row's first figure: Istanbul's ``name | 54.16 |``; coverage.py's last, ``name 120 8 93%``.
_ISTANBUL_ROW = re.compile(r"\s*(?P<name>[^|\s][^|]*?)\s*\|\s*(?P<figure>\d+(?:\.\d+)?)\s*\|")
_PYTHON_ROW = re.compile(r"\s*(?P<name>\S+)\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+(?P<figure>\d+(?:\.\d+)?)%")
_LEAST = 3
_PREFIX = 400


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
