"""A log's recoveries: the lines saying that what failed works again.

An operator reads an outage for its start and its end. The start says itself with a weak error
(``Connection refused``, ``is DOWN``, ``no server available``, ``timed out``); the end holds no
error word: HAProxy's ``Server be_pypi/app-b is UP, reason: Layer7 check passed`` after its ``is
DOWN``, a client's ``Reconnected to …``, a replica ``back online``, a check's ``healthy again``.
``recovery_lines(joined, after)`` are the lines of ``joined`` (newline-joined lines) past line
``after`` holding one of those phrases, the first ``_MOST``. Each phrase is a literal found by
its rare chars (``log_marks``, through ``definitions.pattern_lines``): no step a line.
``add_recoveries(scan, errors, add)`` adds the first of each shape past a log's outage (its first
weak error that is no run's verdict: "1 failed, 99 passed" is none) below its errors, above their
context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.definitions import pattern_lines
from context_mode.summaries.log_errors import CONTEXT_WIDTH, Adder
from context_mode.summaries.log_lines import LogScan

_MOST = 20
_RECOVERED = 64.0  # below the errors (66 and up), above their context (40 and down)
# Each its own lead: a literal with a char rarer in logs (an uppercase letter, a hyphen) or found by memchr
# in few places: a phrase of usual chars only ("restored", "reconnected", "became healthy") costs
# a plain ``str.find`` of the whole text (about 1 ms a MB in a DNS server's log).
_PHRASES = ("is UP", "back online", "recovered", "Reconnected", "re-established", "healthy again")
_RECOVERIES = tuple((re.compile(rf"{re.escape(phrase)}\b"), phrase) for phrase in _PHRASES)


def recovery_lines(joined: str, after: int) -> list[int]:
    """Indexes of the lines of ``joined`` past line ``after`` that say something failed works
    again (see the module doc), in order."""
    found: set[int] = set()
    for pattern, lead in _RECOVERIES:
        found.update(index for index in pattern_lines(joined, pattern, lead=lead) if index > after)
    return sorted(found)[:_MOST]


def add_recoveries(scan: LogScan, errors: Sequence[int], add: Adder) -> None:
    """The recoveries past the log's outage, the first of each shape (see the module doc)."""
    verdicts = set(scan.summaries)
    outage = next((index for index in errors if index in scan.weak and index not in verdicts), -1)
    if outage < 0:
        return
    recovered: set[str] = set()
    for index in recovery_lines(scan.groups.text, outage):
        if scan.shapes[index] not in recovered:
            recovered.add(scan.shapes[index])
            add(index, _RECOVERED, CONTEXT_WIDTH)
