"""``diff -y``'s side-by-side format (``sdiff``, ``diff --side-by-side``): its gutter and marks.

``diff -y old new`` writes each line of the two files in two columns: the old file's line, a
gutter, the new file's line. The gutter's mark says what the line is: ``|`` a line changed,
``<`` a line only in the old file (removed), ``>`` only in the new one (added), ``(`` / ``)`` a
common line shown on one side only (``--left-column``), a blank a common line. Tabs pad the left
column unless ``-t`` expanded them; ``-W`` sets the width, so the gutter's column varies.

``gutter(lines)`` is the gutter's column, counted with tabs expanded to eight, or None when the
lines are no side-by-side diff. It is one when two lines at least are marked at that column, the
lines marked there hold no other gutter-like mark (a psql table's ``a | b | c`` rows do), a line
is added or removed or two common lines show both sides (a two-column table's every row is
``|``-marked), nearly every line fits the two columns around it, and most show both sides or a
mark. ``mark(line, column)`` is a line's mark, ``""`` for a common line (``mark_at`` of a line already
``expanded``).

Linear in the lines (of each, the first ``PREFIX`` characters); never raises.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

PREFIX = 400  # characters of a line looked at
CHANGES = "|<>"  # the marks of a changed, a removed and an added line
_MARKS = "|<>()"
_MARK = re.compile(r"(?<= )[|<>](?= |\Z)")  # a gutter-like mark: a space before it, a space or the end after
_RAW_MARK = re.compile(r" [|<>](?:[ \t]|\Z)")  # the same, before tabs are expanded
_LEFT_MIN = 8  # the gutter is this far right at least: the left column holds a line
_SAMPLE = 2000  # lines looked at to find the gutter
_FITTING = 0.95  # share of the lines that fit the two columns around the gutter, at least
_TWO_SIDED = 0.6  # share of the lines that show both sides or a mark, at least
_OTHER_MARKS = 0.2  # share of the marked lines with another gutter-like mark, at most


def gutter(lines: Sequence[str]) -> int | None:
    """The gutter's column (tabs expanded to eight), or None: see the module doc."""
    sample = [line[:PREFIX] for line in lines[:_SAMPLE] if line.strip()]
    votes: Counter[int] = Counter()
    for line in sample:
        if _RAW_MARK.search(line):  # most lines hold no mark: expanded only when one may
            view = expanded(line)
            votes.update(found.start() for found in _MARK.finditer(view) if found.start() >= _LEFT_MIN)
    if not votes or votes.most_common(1)[0][1] < 2:
        return None
    for column, count in votes.most_common(2):
        if count >= 2 and _fits(sample, column):
            return column
    return None


def mark(line: str, column: int) -> str:
    """The gutter's mark on ``line`` (one of ``|<>()``), or ``""`` for a common line."""
    return mark_at(expanded(line), column)


def expanded(line: str) -> str:
    """``line`` as the gutter's column counts it: its first ``PREFIX`` characters, tabs expanded."""
    return line[:PREFIX].expandtabs()


def mark_at(expanded: str, column: int) -> str:
    """``mark`` on a line already ``expanded``."""
    if len(expanded) <= column or expanded[column] not in _MARKS or expanded[column - 1] != " ":
        return ""
    return expanded[column] if len(expanded) == column + 1 or expanded[column + 1] == " " else ""


def _fits(sample: Sequence[str], column: int) -> bool:
    """Whether the lines are a side-by-side diff with its gutter at ``column`` (looked through
    until too many lines do not fit)."""
    fitting = two_sided = marked = others = 0
    misfits = (1.0 - _FITTING) * len(sample)
    shown: Counter[str] = Counter()
    for count, raw in enumerate(sample):
        if count - fitting > misfits:
            return False
        line = expanded(raw)
        found = mark_at(line, column)
        if found:
            marked += 1
            shown[found] += 1
            others += any(abs(other.start() - column) > 1 for other in _MARK.finditer(line))
            fitting += 1
            two_sided += 1
        elif not line[column - 1 : column + 2].strip():
            fitting += 1
            both = bool(line[: column - 1].strip()) and bool(line[column + 2 :].strip())
            two_sided += both
            shown["common"] += both
    return (
        fitting >= _FITTING * len(sample)
        and two_sided >= _TWO_SIDED * len(sample)
        and others <= _OTHER_MARKS * marked
        and (shown["<"] + shown[">"] > 0 or shown["common"] >= 2)
    )
