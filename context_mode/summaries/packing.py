"""Packing prioritised verbatim lines into a byte budget, in their original order.

A summariser scores ranges of input lines (``Pick``); ``pack`` takes them best first while they fit,
then prints the chosen lines in input order. Every printed line is one of:

- an input line, verbatim, or a verbatim prefix of a long one ending in ``…`` (a log line: its
  start and end around ``…``; a JSON-lines record: its telling members, ``…`` between the runs
  left out);
- either of those followed by one annotation in square brackets (``[×37]`` folds, ``[+12 -3]`` diff
  counts), which ``strip_annotation`` removes;
- a marker: an elision, a bare ``…``, where input lines were left out. ``is_marker`` recognises
  it, a head-and-tail cut's counted ``… 312 lines …`` and ``== label ==`` section labels.

Sizes are UTF-8 bytes (lone surrogates count as three). The result never exceeds the budget: each
pick is charged exactly the bytes it adds, markers included. ``says_something(text)``: whether a
line holds a letter or a digit (the summarisers pass over lines of blanks, brackets or rules).
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass

from context_mode.diagnostics import SERVICE_PREFIX
from context_mode.summaries.json_line import ELLIPSIS, clip_record

# Summarisers never show more than this many lines from one pick: a pick is a small group
# (an error line with its context), and this keeps a careless pick from costing O(input).
_MAX_PICK_LINES = 64

# After this many picks in a row that do not fit, the budget is as good as full: stop trying.
_MAX_MISSES = 1000

# A line repeating one already shown is shown again only as a label of a new line beside it
# ("The default value is" over a value, "Next:" before a link, a table's header over a new row):
# a label is this short.
_LABEL_WIDTH = 40

_ANNOTATION = re.compile(r" \[[^\[\]\n]{1,40}\]\Z")


@dataclass(frozen=True, slots=True)
class Pick:
    """Input lines ``[start, stop)`` wanted together, worth ``priority``; shown ``width`` chars wide.

    ``width`` 0 means the packer's default width. ``start_only``: a line cut keeps its start
    alone, whatever the packer's ``ends`` (an access log's request and status come first, its
    user agent and request id last).
    """

    start: int
    stop: int
    priority: float
    width: int = 0
    start_only: bool = False


def size(text: str) -> int:
    """UTF-8 length of ``text`` in bytes; lone surrogates (possible in decoded JSON) count as 3."""
    return len(text.encode("utf-8", "surrogatepass"))


def split_lines(text: str) -> list[str]:
    """The input's lines, as every summariser and the verbatim check see them."""
    return text.splitlines()


HEAD_REACH = 16_384  # characters of a payload's start read to tell what it is


def first_lines(text: str, count: int, reach: int = HEAD_REACH) -> list[str]:
    """The first ``count`` non-blank lines of ``text``'s first ``reach`` characters (a line the
    reach cuts left out): the sample a reading tells its format from, as most texts are told in
    their first lines."""
    return [line for line in split_lines(text[:reach])[:-1] if line.strip()][:count]


TAIL_SHARE = 4  # a clipped line keeps its last width // TAIL_SHARE chars


def clip(line: str, width: int) -> str:
    """``line`` itself if at most ``width`` chars, else its first ``width - 1`` chars and ``…``."""
    if len(line) <= width:
        return line
    return line[: max(width - 1, 0)].rstrip() + ELLIPSIS


def in_turns(*orders: Sequence[int]) -> list[int]:
    """The line indexes of each order in turns (the first of each, then the second of each…), each
    once: a summariser's ranks across groups, so no group's later lines crowd out another's first."""
    turns: list[int] = []
    seen: set[int] = set()
    for row in itertools.zip_longest(*orders, fillvalue=-1):
        for index in row:
            if index >= 0 and index not in seen:
                seen.add(index)
                turns.append(index)
    return turns


def annotate(line: str, note: str) -> str:
    """``line`` with a bracketed annotation such as ``[×37]``; ``strip_annotation`` undoes it."""
    return f"{line} [{note}]" if note else line


def is_marker(line: str) -> bool:
    """Whether ``line`` is an elision marker or a section label rather than payload."""
    return (
        line == ELLIPSIS
        or (line.startswith(ELLIPSIS + " ") and line.endswith(" " + ELLIPSIS))
        or (line.startswith("== ") and line.endswith(" =="))
    )


def strip_annotation(line: str) -> str:
    """``line`` without a trailing bracketed annotation added by ``annotate``."""
    return _ANNOTATION.sub("", line)


def pack(
    lines: Sequence[str],
    picks: Iterable[Pick],
    budget: int,
    *,
    width: int = 240,
    notes: Mapping[int, str] | None = None,
    gaps: str = "short",
    filler: Container[int] = (),
    ends: bool = False,
) -> str:
    """Join the best picks that fit in ``budget`` bytes, in input order, marking what was left out.

    ``notes`` annotate a line wherever it is shown (``{7: "×37"}``). ``gaps`` says how left-out
    lines are marked: ``"short"`` (a bare ``…`` line; a count, ``… 312 lines …``, cost stage 1 on
    dev 19 facts and on the holdout 20: a diff's or a log's summary has a gap between most of its
    picks, and the stage-1 header counts the payload's lines) or ``"none"`` (listings whose lines
    carry their own positions, such as ``path:line:`` matches). A gap made only of blank lines
    and ``filler`` lines (say, setext underlines) loses nothing and is not marked. A line over
    its width keeps its start, and with ``ends`` its end too (``clip_ends``: log lines).
    Picks are taken highest priority first (earlier first on ties); one that does not fit is
    skipped, and smaller ones after it may still fit (until ``_MAX_MISSES`` in a row fail). A pick
    that would show only lines already shown, word for word (a reference page's "History" table
    rows under each function, a log's repeated context line), tells nothing new and is skipped: its
    bytes go to the next picks. A short one is shown after all where it labels a line that told
    something new beside it (``Next:`` before a link, ``The default value is`` over the value).
    Each pick is charged exactly what it adds, markers included, so the budget is used to the byte.
    """
    notes = notes or {}
    total = len(lines)
    if total == 0 or budget <= 0:
        return ""
    packing = _Packing(lines, _Marking(lines, gaps, filler), budget)
    # Picks that tell nothing new, by the line just below them and the line just above them:
    # one is taken after all when a pick beside it is (a label over its value).
    below: dict[int, tuple[int, int, dict[int, str]]] = {}
    above: dict[int, tuple[int, int, dict[int, str]]] = {}
    misses = 0
    for pick in sorted(picks, key=lambda p: (-p.priority, p.start)):
        if misses >= _MAX_MISSES:
            break
        start = max(pick.start, 0)
        stop = min(pick.stop, total, start + _MAX_PICK_LINES)
        fresh = [i for i in range(start, stop) if i not in packing.chosen]
        if not any(lines[i].strip() for i in fresh):
            continue  # blank lines alone show nothing
        kept_ends = ends and not pick.start_only
        shown = {i: _render(lines, i, pick.width or width, notes.get(i, ""), kept_ends) for i in fresh}
        if packing.repeats(start, stop, shown):
            below[stop] = above[start - 1] = (start, stop, shown)
            continue
        if not packing.take(start, stop, shown):
            misses += 1
            continue
        misses = 0
        for waiting in (below.pop(start, None), above.pop(stop - 1, None)):
            if waiting is not None and not packing.repeats(*waiting):
                packing.take(*waiting)
    return packing.render()


class _Packing:
    """The lines ``pack`` has chosen so far, in ``budget`` bytes, markers included."""

    def __init__(self, lines: Sequence[str], marking: _Marking, budget: int) -> None:
        self.total = len(lines)
        self.marking = marking
        self.budget = budget
        self.chosen: dict[int, str] = {}
        self.seen: set[str] = set()
        self.news: set[int] = set()  # chosen lines with words not shown before
        self.order: list[int] = []  # chosen indexes, sorted
        self.used = marking.cost(-1, self.total)

    def repeats(self, start: int, stop: int, shown: Mapping[int, str]) -> bool:
        """Whether lines ``[start, stop)``, to be ``shown``, tell nothing new: each line with a
        word in it already shown, and not a short label beside a chosen line that told something
        new (a lone ``---`` or ``}`` closing a block is shown where it closes one)."""
        worded = [text for text in shown.values() if says_something(text)]
        if not worded or any(text not in self.seen for text in worded):
            return False
        labels = all(len(text) <= _LABEL_WIDTH for text in shown.values())
        return not (labels and (start - 1 in self.news or stop in self.news))

    def take(self, start: int, stop: int, shown: Mapping[int, str]) -> bool:
        """Show lines ``[start, stop)`` as ``shown`` (those not chosen yet) if they fit."""
        shown = {i: text for i, text in shown.items() if i not in self.chosen}
        if not shown:
            return True
        order, marking = self.order, self.marking
        cost = sum(size(text) + 1 for text in shown.values())
        low = bisect.bisect_left(order, start)
        high = bisect.bisect_left(order, stop)
        if cost - (high - low + 1) * marking.largest > self.budget - self.used:
            return False  # cannot fit even if it saved every marker it touches; skip the exact count
        before = order[low - 1] if low else -1
        after = order[high] if high < len(order) else self.total
        old_points = [before, *order[low:high], after]
        new_points = [before, *sorted([*order[low:high], *shown]), after]
        cost += sum(marking.cost(a, b) for a, b in itertools.pairwise(new_points))
        cost -= sum(marking.cost(a, b) for a, b in itertools.pairwise(old_points))
        if self.used + cost > self.budget:
            return False
        self.used += cost
        self.chosen.update(shown)
        self.news.update(i for i, text in shown.items() if text not in self.seen and says_something(text))
        self.seen.update(shown.values())
        order[low:high] = new_points[1:-1]
        return True

    def render(self) -> str:
        return _render_chosen(self.chosen, self.order, self.marking, self.budget)


def pack_labelled(
    label: str,
    lines: Sequence[str],
    picks: Iterable[Pick],
    budget: int,
    *,
    width: int = 240,
    gaps: str = "short",
) -> str:
    """``label`` (a ``== … ==`` line of counts) above ``pack``'s lines in the room it leaves; the
    lines alone when the budget has no room for the label."""
    if size(label) + 1 > budget:
        return pack(lines, picks, budget, width=width, gaps=gaps)
    body = pack(lines, picks, budget - size(label) - 1, width=width, gaps=gaps)
    return f"{label}\n{body}" if body else label


class _Marking:
    """How the gap between two chosen lines is marked, and what the marker costs."""

    __slots__ = ("filler", "gaps", "largest", "lines")

    def __init__(self, lines: Sequence[str], gaps: str, filler: Container[int]) -> None:
        self.lines = lines
        self.gaps = gaps
        self.filler = filler
        self.largest = 0 if gaps == "none" else size(ELLIPSIS) + 1

    def marker(self, before: int, after: int) -> str:
        """The marker for the lines strictly between chosen lines ``before`` and ``after``."""
        count = after - before - 1
        if count <= 0 or self.gaps == "none":
            return ""
        # Only short gaps are checked line by line; a long gap is marked whatever it holds.
        if count <= 8 and not any(
            self.lines[i].strip() and i not in self.filler for i in range(before + 1, after)
        ):
            return ""
        return ELLIPSIS

    def cost(self, before: int, after: int) -> int:
        marker = self.marker(before, after)
        return size(marker) + 1 if marker else 0


def says_something(text: str) -> bool:
    """Whether ``text`` holds a letter or a digit (not only blanks, brackets or rules)."""
    return any(map(str.isalnum, text))


def _render(lines: Sequence[str], index: int, width: int, note: str, ends: bool) -> str:
    """Line ``index`` cut to ``width`` (with ``ends``: by its ends, or where it differs from a
    long neighbour of the same start, ``clip_differing``: an expected value over the one a test
    got), then annotated with ``note``."""
    line = lines[index]
    return annotate(_cut_ends(lines, index, width) if ends else clip(line, width), note)


def _cut_ends(lines: Sequence[str], index: int, width: int) -> str:
    line = lines[index]
    if len(line) > width and not _is_record(line):  # a JSON-lines record keeps its telling members
        for other in (lines[index - 1] if index else "", lines[index + 1] if index + 1 < len(lines) else ""):
            if len(other) > width and line[:_SAME_START] == other[:_SAME_START]:
                return clip_differing(line, other, width)
    return clip_ends(line, width)


_SAME_START = 24  # chars two long lines share at their start to be compared


def clip_differing(line: str, other: str, width: int) -> str:
    """``line`` cut to its start, the part where it first differs from ``other`` and its end,
    ``…`` between (``BoolToUint:0x1, BoolToString:"1", FloatToInt:42`` in a struct of 60 fields
    a test expected, over the one it got); ``clip_ends`` when the difference is in what that shows."""
    differs = len(os.path.commonprefix([line, other]))
    tail = width // TAIL_SHARE
    head = width // 3
    if differs + _DIFFERENCE_AFTER >= len(line) - tail or differs < width - tail:
        return clip_ends(line, width)
    start = max(head, differs - _DIFFERENCE_BEFORE)
    stop = min(len(line) - tail, start + width - head - tail - 4)  # as many bytes as ``clip_ends``'s
    return line[:head].rstrip() + ELLIPSIS + line[start:stop] + ELLIPSIS + line[len(line) - tail :].lstrip()


_DIFFERENCE_BEFORE = 40  # chars shown before the first difference: the field it is in
_DIFFERENCE_AFTER = 20


def clip_ends(line: str, width: int) -> str:
    """``line`` if at most ``width`` chars, else its start and its end with ``…`` between.

    A long line's end often says what it is about: the message after a dumped value
    (``&Route{…}: vars length should be 3, got 0.``). A JSON-lines record keeps its level,
    message and codes instead (``json_line.clip_record``: pieces of it between ``…``).
    """
    if len(line) <= width:
        return line
    start = _record_start(line)
    if line.startswith("{", start):
        record = clip_record(line[start:], width - start)
        if record is not None:
            return line[:start] + record
    tail = width // TAIL_SHARE
    head = max(width - tail - 1, 0)
    return line[:head].rstrip() + ELLIPSIS + line[len(line) - tail :].lstrip()


def _record_start(line: str) -> int:
    """Where a JSON-lines record would start in ``line``: after a service prefix (``web-1  | {…}``)."""
    prefix = SERVICE_PREFIX.match(line) if line[:1] != "{" else None
    return prefix.end() if prefix else 0


def _is_record(line: str) -> bool:
    return line.startswith("{", _record_start(line))


def _render_chosen(chosen: Mapping[int, str], order: Sequence[int], marking: _Marking, budget: int) -> str:
    out: list[str] = []
    points = [-1, *order, len(marking.lines)]
    for before, after in itertools.pairwise(points):
        marker = marking.marker(before, after)
        if marker:
            out.append(marker)
        if after in chosen:
            out.append(chosen[after])
    text = "\n".join(out)
    if size(text) > budget:
        # Only when nothing fitted and even the lone "…" marker is over the budget.
        return ""
    return text
