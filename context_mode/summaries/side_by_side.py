"""Summary of a side-by-side diff (``diff -y``, ``sdiff``): its changes under the lines naming them.

``summarize_side_by_side(lines, column, budget=, terms=)`` reads the lines through the gutter at
``column`` (``context_mode.side_by_side``) and shows each change, a run of marked lines (``|``
changed, ``<`` removed, ``>`` added; its first lines, as ``diff_body.change_picks`` shows a
headerless diff's), earlier ones first, those
naming a search term before all, each under the nearest common line above it that is indented
less (``def unpack_archive(…)`` over a changed line of its body); then the first and the last
line. Lines are shown as written, padding tabs and all. The outline counts the lines, the changes
and the lines of each mark. Linear in the lines; never raises.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.side_by_side import CHANGES, expanded, mark_at
from context_mode.summaries.diff_body import change_picks, enclosing_lines
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import pack
from context_mode.types import ContentKind

_CHANGE = 60.0  # a change, less 10 by its place in the diff (earlier first)
_TERM_BONUS = 50.0
_WORDED = re.compile(r"\w")


def summarize_side_by_side(
    lines: Sequence[str], column: int, *, budget: int, terms: Sequence[str] = ()
) -> Extract:
    """The changes of a side-by-side diff under their enclosing lines, within ``budget`` bytes."""
    views = [expanded(line) for line in lines]
    marks = [mark_at(view, column) for view in views]
    runs = _runs(marks)
    matches = term_matcher(terms)
    sides = [_side(view, column) for view in views]
    skipped = [_changed(found) or not _WORDED.search(side) for found, side in zip(marks, sides, strict=True)]
    records = enclosing_lines(sides, skipped, [start for start, _ in runs])
    offers = [
        (
            _CHANGE
            - 10.0 * order / max(len(runs), 1)
            + (_TERM_BONUS if terms and any(matches(line) for line in lines[start:stop]) else 0.0),
            start,
            stop,
        )
        for order, (start, stop) in enumerate(runs)
    ]
    picks = change_picks(offers, records, len(lines))
    counted = Counter(marks)
    outline = (
        f"side-by-side diff: {len(lines)} lines, {len(runs)} changes: {counted['|']} lines changed (|), "
        f"{counted['<']} removed (<), {counted['>']} added (>)"
    )
    return Extract(pack(lines, picks, budget, width=200), ContentKind.DIFF, outline, len(runs))


def _runs(marks: Sequence[str]) -> list[tuple[int, int]]:
    """Each run of changed lines' ``[start, stop)``."""
    out: list[tuple[int, int]] = []
    start = -1
    for index, found in enumerate([*marks, ""]):
        changed = _changed(found)
        if changed and start < 0:
            start = index
        elif not changed and start >= 0:
            out.append((start, index))
            start = -1
    return out


def _changed(found: str) -> bool:
    """Whether a line's mark is a change's (``|``, ``<``, ``>``), not a common line's."""
    return bool(found) and found in CHANGES


def _side(view: str, column: int) -> str:
    """An ``expanded`` line's text as the reader goes by: its left side, or its right side when the
    left is empty."""
    left = view[: column - 1]
    return left if left.strip() else view[column + 2 :]
