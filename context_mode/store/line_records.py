"""Where to cut a long line of records so one whole ``{…}`` record shows: the one a match names.

``enclosing_record(line, spans, width)`` is, for a line of many records (a JSON array or a list of
dicts on one line), the start and end of the outermost ``{…}`` record whose matches (``spans``:
start, end, weight) weigh most, each matched text once; a match only as a record's key (a key
every record has) counts half. None when the heaviest match is in no record, or its record is
longer than ``RECORD_CHARS`` (``width`` at least). A line longer than ``_SCANNED_LINE`` is not
looked through record by record: the heaviest match's record only. Pure; linear in the line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

_SCANNED_LINE = 16384  # a longer line's records are not all looked at: only the heaviest match's
RECORD_CHARS = 400  # a one-line record shown whole up to this, beyond the usual line width
_KEY_END = re.compile(r"""['"]?\s*:""")  # what follows a member's key (``'macrolanguage':``)
_KEY_SHARE = 0.5  # a query word matched only as a record's key counts this much


def enclosing_record(
    line: str, spans: Sequence[tuple[int, int, float]], width: int
) -> tuple[int, int] | None:
    """Where to cut a long line so it shows the whole ``{…}`` record around its heaviest match.

    For a line of many records (a JSON array or a list of dicts on one line); None when the
    heaviest match is in no record, or its record is longer than ``RECORD_CHARS`` (``width`` at
    least).
    """
    if not spans:
        return None
    best = _best_record(line, spans, max(width, RECORD_CHARS)) if len(line) <= _SCANNED_LINE else None
    if best is not None:
        return best
    anchor, _, _ = max(spans, key=lambda span: span[2])
    opening = line.rfind("{", 0, anchor)
    if opening < 0:
        return None
    depth = 0
    limit = opening + max(width, RECORD_CHARS)
    for at in range(opening, min(len(line), limit)):
        char = line[at]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return (opening, at + 1) if at >= anchor else None
    return None


def _best_record(line: str, spans: Sequence[tuple[int, int, float]], longest: int) -> tuple[int, int] | None:
    """The outermost ``{…}`` record of ``line`` whose matches weigh most, each matched text once
    (a row naming three of the query's words over the row naming one of them twice); None when
    no match is in a record of at most ``longest`` characters, or the heaviest match is in none."""
    records: list[tuple[int, int]] = []
    depth = opening = 0
    for at, char in enumerate(line):
        if char == "{":
            if depth == 0:
                opening = at
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0 and at + 1 - opening <= longest:
                records.append((opening, at + 1))
    if not records:
        return None
    starts = [start for start, _ in records]
    # The spans are each term's first few matches: every match of each matched text is looked up.
    terms: dict[str, float] = {}
    for start, end, weight in spans:
        text = line[start:end].lower()
        terms[text] = max(terms.get(text, 0.0), weight)
    lowered = line.lower()
    weights: dict[int, dict[str, float]] = {}
    for text, weight in terms.items():
        for match in re.finditer(rf"(?<![a-z]){re.escape(text)}(?![a-z])", lowered):
            index = bisect.bisect_right(starts, match.start()) - 1
            if index >= 0 and match.end() <= records[index][1]:
                # A key every record has ("'macrolanguage':") names no record: a value does.
                worth = weight * _KEY_SHARE if _KEY_END.match(lowered, match.end()) else weight
                held = weights.setdefault(index, {})
                held[text] = max(held.get(text, 0.0), worth)
    heaviest, _, _ = max(spans, key=lambda span: span[2])
    inside = bisect.bisect_right(starts, heaviest) - 1
    if not weights or inside < 0 or heaviest >= records[inside][1]:
        return None  # the heaviest match is outside every record (a key naming a list of them)
    best = max(weights, key=lambda index: (sum(weights[index].values()), -index))
    return records[best]
