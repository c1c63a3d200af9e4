"""Summary of a diff's lines without file or hunk headers: a JSON differ's, a word diff's, a
tree differ's.

``json-diff`` and ``jsondiffpatch`` print the compared documents' lines, a changed one opening
with ``+`` or ``-`` and the others with a space (``shapes.is_hunk_body``); ``jsondiffpatch`` writes
a changed value in place (``abbr: "EDT" => "EST"``). ``summarize_body(lines, budget=, terms=, column=)``
shows each change (a run of changed lines, at most ``_RUN_LINES`` of it, or a value changed in
place) under the line that names its record: the nearest line above it that is indented less
(``AD: {`` above ``-    phone: "376"``). A change whose shape was shown already (the same key,
changed the same way, in another record: ``-    currency: "EUR"`` in each of 250 countries) comes
after every change of a new shape, the later the more changes are alike, and the first says how
many (``[×250 like it]``); changes naming a search term first; then the first and last lines.
A word diff without headers (``wdiff``, ``dwdiff``: ``shapes.is_word_body``) and a tree differ's
marks in a JSON document (``graphtage``: ``shapes.is_struck_body``) are read the same way, each
line with its marks a change, under the line of the block it is in. The outline counts the
changed lines and the changes. Linear in the lines; never raises.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from context_mode.shapes import STRUCK, WORD_MARK
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_WORDED = re.compile(r"\w")
_MARKED = re.compile(r"=>|\[-|\{\+|~~|\+\+")  # a quick look for a change in place
_OFFERED = 400  # changes offered to the packer, at most: a budget of a few kB shows far fewer
_RUN_LINES = 4  # lines of a run of changed lines shown with it
_LABEL_REACH = 20  # changed lines looked at for a word diff's marks, to name the diff
# jsondiffpatch's ``key: old => new``, a word diff's ``[-old-]`` and ``{+new+}``, graphtage's
# ``~~old~~`` and ``++new++`` (``shapes.STRUCK``)
_IN_PLACE = re.compile(rf"\S.* => \S|{WORD_MARK.pattern}|{STRUCK.pattern}")
_KEY = re.compile(r"[+\- ]\s*(\"?[^\s\"]{1,80}?\"?)\s*:")  # the key a changed line sets
_NEW_SHAPE = 60.0  # a change of a shape not shown yet, less its order (earlier first)
_SEEN_SHAPE = 50.0  # a change like one shown before, less its order and how many are alike
_ALIKE = 10.0  # what a change loses per doubling of the changes alike
_NOTED = 3  # changes alike for the first to say how many there are
_TERM_BONUS = 50.0
_EDGE = 45.0  # the first and the last line
_RECORD_BELOW = 0.5  # the record line above a change, just below the change itself


def summarize_body(lines: Sequence[str], *, budget: int, terms: Sequence[str] = (), column: bool) -> Extract:
    """The changes of a headerless diff under their records' lines, within ``budget`` bytes;
    ``column``: whether its lines open with a mark (``shapes.is_hunk_body``), else only a word
    diff's or a tree differ's marks say what changed."""
    starts = _changes(lines, column)
    matches = term_matcher(terms)
    shapes = [_shape(lines[start], order, column) for order, (start, _) in enumerate(starts)]
    total = Counter(shapes)
    seen: Counter[str] = Counter()
    notes: dict[int, str] = {}
    offers: list[tuple[float, int, int]] = []  # (worth, start, stop) of each change
    for order, ((start, stop), shape) in enumerate(zip(starts, shapes, strict=True)):
        rank = order / max(len(starts), 1)
        if not seen[shape]:
            worth = _NEW_SHAPE - 10.0 * rank
            if total[shape] >= _NOTED:
                notes[start] = f"×{total[shape]} like it"
        else:  # one of many alike (a key changed the same way in every record) says least
            worth = _SEEN_SHAPE - _ALIKE * math.log2(total[shape]) - 10.0 * rank
        seen[shape] += 1
        if terms and any(matches(line) for line in lines[start:stop]):
            worth += _TERM_BONUS
        offers.append((worth, start, stop))
    # Far more changes than any budget shows: only the best few are offered to the packer.
    offers = heapq.nlargest(_OFFERED, offers) if len(offers) > _OFFERED else offers
    records = _records(lines, [start for _, start, _ in offers], column)
    picks = change_picks(offers, records, len(lines))
    if column:
        added = sum(1 for line in lines if line[:1] == "+")
        removed = sum(1 for line in lines if line[:1] == "-")
        in_place = sum(1 for start, _ in starts if lines[start][:1] not in "+-")
        outline = f"diff without file headers: {len(starts)} changes, +{added} -{removed} lines"
        if in_place:
            outline += f", {in_place} values changed in place"
    else:
        words = any("[-" in lines[start] or "{+" in lines[start] for start, _ in starts[:_LABEL_REACH])
        outline = f"{'word' if words else 'tree'} diff: {len(starts)} lines changed of {len(lines)}"
    body = pack(lines, picks, budget, width=200, notes=notes)
    return Extract(body, ContentKind.DIFF, outline, len(total))


def _changes(lines: Sequence[str], column: bool) -> list[tuple[int, int]]:
    """Each change's ``[start, stop)``: a run of ``+``/``-`` lines (in a mark ``column``), or a
    line changed in place."""
    out: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if column and line[:1] in ("+", "-"):
            stop = index + 1
            while stop < len(lines) and lines[stop][:1] in ("+", "-"):
                stop += 1
            out += _split(lines, index, stop)
            index = stop
            continue
        if _MARKED.search(line[:400]) and _IN_PLACE.search(line[:400]):
            out.append((index, index + 1))
        index += 1
    return out


def _split(lines: Sequence[str], start: int, stop: int) -> list[tuple[int, int]]:
    """A run of changed lines as its changes: a new one at each line as shallow as the run's first
    that sets another key (``-  phone: "376"``, ``+  phone: [`` is one change; ``currency`` the next)."""
    depth = _indent(lines[start])
    out: list[tuple[int, int]] = []
    first, key = start, _key(lines[start])
    for index in range(start + 1, stop):
        if _indent(lines[index]) <= depth and _key(lines[index]) not in ("", key):
            out.append((first, index))
            first, key = index, _key(lines[index])
    out.append((first, stop))
    return out


def _key(line: str) -> str:
    found = _KEY.match(line)
    return found.group(1) if found else ""


def _shape(line: str, order: int, column: bool) -> str:
    """What a change does, whichever record it is in: its mark and the key it sets (an array's
    item, keyed by its index, is a shape of its own: a list's items are no changes alike); a word
    diff's line, what it removes and adds (a rename made on many lines)."""
    if not column:
        return "\n".join(found.group() for found in _IN_PLACE.finditer(line[:400])) or f"#{order}"
    key = _key(line) or line[1:].strip()[:40]
    return f"{line[:1]}{key}" if not key.strip('"').isdigit() else f"#{order}"


def _indent(line: str, column: bool = True) -> int:
    body = line[1:] if column else line
    return len(body) - len(body.lstrip())


def _records(lines: Sequence[str], starts: Sequence[int], column: bool) -> dict[int, int]:
    """Per change start, its record's line (``enclosing_lines``): in a word diff of code, the
    block it is in."""
    bodies = [line[1:] if column else line for line in lines]
    changed = [(column and line[:1] in ("+", "-")) or not _WORDED.search(line[:400]) for line in lines]
    return enclosing_lines(bodies, changed, starts)


def change_picks(offers: Iterable[tuple[float, int, int]], records: dict[int, int], count: int) -> list[Pick]:
    """Each change's picks (``offers``: its worth and lines ``[start, stop)``): its first
    ``_RUN_LINES`` lines, the line naming it (``records``) just below it; then the first and the
    last of the ``count`` lines."""
    picks: list[Pick] = []
    for worth, start, stop in offers:
        picks.append(Pick(start, min(stop, start + _RUN_LINES), worth))
        record = records.get(start)
        if record is not None:
            picks.append(Pick(record, record + 1, worth - _RECORD_BELOW))
    if count:
        picks += [Pick(0, 1, _EDGE), Pick(count - 1, count, _EDGE)]
    return picks


def enclosing_lines(texts: Sequence[str], skipped: Sequence[bool], starts: Iterable[int]) -> dict[int, int]:
    """Per change start, the nearest line above it indented less than it (in ``texts``, the lines
    as their indentation counts) that is not ``skipped`` (a change, a blank line or a separator
    such as ``--``, which names no record). One pass, with the open lines on a stack (their
    indents rising), so linear in the lines times their nesting."""
    wanted = set(starts)
    stack: list[tuple[int, int]] = []  # (indent, index) of the lines open at this line
    out: dict[int, int] = {}
    for index, text in enumerate(texts):
        depth = len(text) - len(text.lstrip())
        if index in wanted:
            below = [number for indent, number in stack if indent < depth]
            if below:
                out[index] = below[-1]
        if skipped[index]:
            continue
        while stack and stack[-1][0] >= depth:
            stack.pop()
        stack.append((depth, index))
    return out
