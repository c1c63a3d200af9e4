"""A log's recoveries: the lines saying that what failed works again.

After an outage an operator asks when it ended: HAProxy's ``Server be_pypi/app-b is UP, reason:
Layer7 check passed`` after its ``is DOWN``, a client's ``reconnected``, a pool's ``connection
restored``, a check's ``healthy again``. Such lines hold no error word, so among hundreds of
routine lines they were shown only when the tail held them. ``recovery_lines(joined)`` are the
lines of ``joined`` (newline-joined) holding one of those phrases, found by one search of the
text (``definitions.pattern_lines``), the first ``_MOST``.
"""

from __future__ import annotations

import re

from context_mode.summaries.definitions import pattern_lines

_MOST = 20
_RECOVERY = re.compile(
    r"\b(?:is (?:UP|up|back)|back (?:up|online)|recovered|restored|reconnected|re-?established"
    r"|(?:is|became|now) healthy|healthy again)\b"
)


def recovery_lines(joined: str) -> list[int]:
    """Indexes of the lines of ``joined`` that say something failed works again (module doc)."""
    return pattern_lines(joined, _RECOVERY, _MOST)
