"""A log's running total: the last of the lines that keep reporting a total.

A service that counts as it goes reports its total again and again (fail2ban's ``Total # of
detected failures: 54.``, a job's ``total 1200 rows``); the last report is where the count ended,
and it sits among hundreds of routine lines, often at debug level. ``running_total(joined)`` is
the index of the last line of ``joined`` (newline-joined) holding the word "total" with a number
after it, when at least ``_REPORTS`` lines do (one report is no running count: the edges' totals
lines have it), else ``None``.
"""

from __future__ import annotations

import re

from context_mode.summaries.definitions import pattern_lines

_REPORTS = 3
_TOTAL = re.compile(r"\b[Tt]otal\b[^\n]{0,40}?\d")


def running_total(joined: str) -> int | None:
    """The last line reporting a total among several (see the module doc), or ``None``."""
    reports = pattern_lines(joined, _TOTAL, len(joined))
    return reports[-1] if len(reports) >= _REPORTS else None
