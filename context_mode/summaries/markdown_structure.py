"""How a Markdown document is built: its headings, their sections' first lines, its fenced code.

For ``markdown``'s summary. ``read_markdown(text)`` returns the text's lines, its ``Structure``
(the headings that compete, each with its section's first text line; headings per level; setext
underlines; the number of code blocks; fenced lines) and its lines cut to ``PREFIX`` chars and
joined by newlines, read once per text (the router summarises a payload more than once).
Headings are ATX (``## Title``) or setext (a paragraph line over ``===`` or ``---``), or, in a
text dump of a Sphinx page, the lines at the margin ending in its permalink sign ``¶``, or, in
plain text with none of those, its numbered headings (``numbered_headings``: an RFC's, a PDF's
text's, DocBook's ``Chapter 1. Protocol Formats``), which ``is_numbered_document`` tells; lines in
fenced code blocks are never headings. Only the first ``MAX_HEADINGS`` headings and the last one
compete, and one whole-text search finds the lines that can be fences, headings or underlines, so
other lines cost no Python step and a megabyte of headings stays cheap. ``heading_name`` is a
heading's (or a term's) words without its marks, its link to itself and its case.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.shapes import HEADING_ANCHOR
from context_mode.summaries.definitions import pattern_lines
from context_mode.summaries.packing import split_lines
from context_mode.summaries.reading import LastReading

PREFIX = 400
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|\Z)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*\Z")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
MAX_HEADINGS = 2000
_PILCROW = "¶"  # Sphinx's permalink after a heading
_PILCROW_END = re.compile(rf"{_PILCROW}\s*$", re.MULTILINE)  # the sign ending a line
_MIN_PILCROWS = 3
_PILCROW_WIDTH = 200
# After a newline, a line ``classify`` finds a fence, heading or underline in: exactly, for a
# line of at most ``PREFIX`` chars (its groups are the verdict); a longer line may be cut into an
# underline (or a longer fence), so any line opening with ``PREFIX`` such chars is matched too.
_CANDIDATE = re.compile(
    r"\n(?=[ \t`~#=-])(?: {0,3}(?=[`~#=-])"  # the lookaheads rule most lines out fast
    r"(?:(`{3,}|~{3,})|(#{1,6})(?:[ \t]+|(?=\n)|\Z)|([=-])(?:(?<==)=*|(?<=-)-*)[ \t]*(?=\n|\Z))"
    rf"|(?=[ \t=`~-]{{{PREFIX}}}))"
)


@dataclass(frozen=True, slots=True)
class Heading:
    index: int  # the heading's text line
    level: int
    first_line: int  # the section's first text line, -1 if none
    setext: bool


def heading_name(line: str) -> str:
    """A heading line's words, without its marks, its link to itself and its case."""
    anchor = HEADING_ANCHOR.search(line)
    return line[: anchor.start() if anchor else None].strip().strip("#").strip().casefold()


def _joined_prefixes(lines: Sequence[str]) -> str:
    """The lines cut to ``PREFIX`` chars, joined by newlines (no cutting when none is longer)."""
    if max(map(len, lines), default=0) <= PREFIX:
        return "\n".join(lines)
    return "\n".join(line[:PREFIX] for line in lines)


Structure = tuple[list["Heading"], Counter[int], set[int], int, set[int]]
# The router summarises a payload more than once: the reading is kept for the same text.
_READINGS: LastReading[tuple[list[str], Structure, str]] = LastReading()


def read_markdown(text: str) -> tuple[list[str], Structure, str]:
    """The text's lines, structure and joined line prefixes, read once per text."""

    def read() -> tuple[list[str], Structure, str]:
        lines = split_lines(text)
        return lines, structure(lines), _joined_prefixes(lines)

    return _READINGS.get(text, (), read)


def structure(lines: Sequence[str]) -> tuple[list[Heading], Counter[int], set[int], int, set[int]]:
    """Headings that compete (with their first text line), headings per level, setext underlines,
    the number of code blocks, and fenced lines."""
    # Only a line opening with a fence, ``#``, ``=`` or ``-`` char (after up to 3 spaces) can be
    # a fence, a heading or an underline: one whole-text search finds them, no per-line pass.
    joined = "\n" + "\n".join(lines)
    candidates: list[tuple[int, str, int, str]] = []  # index, fence, ATX level, underline
    index = -1
    position = 0
    for match in _CANDIDATE.finditer(joined):
        index += joined.count("\n", position, match.start() + 1)
        position = match.start() + 1
        line = lines[index]
        if len(line) > PREFIX:
            kind = classify(line[:PREFIX])
            if kind.fence or kind.atx or kind.setext:
                candidates.append((index, kind.fence, kind.atx, kind.setext))
        elif match.lastindex:
            fence, atx, setext = match.group(1, 2, 3)
            candidates.append((index, fence or "", len(atx) if atx else 0, setext or ""))
    found: list[tuple[int, int, bool]] = []
    fenced: set[int] = set()
    code_blocks = 0
    marked = {candidate[0] for candidate in candidates}
    if not any(candidate[1] for candidate in candidates):
        # No fence: a heading is an ATX line, or a paragraph line over a setext underline.
        found = sorted(
            [(index, atx, False) for index, _, atx, _ in candidates if atx]
            + [
                (index - 1, 1 if setext == "=" else 2, True)
                for index, _, _, setext in candidates
                if setext and index and index - 1 not in marked and lines[index - 1][:PREFIX].strip()
            ]
        )
    else:
        code_blocks = _fenced_structure(lines, candidates, marked, found, fenced)
    found = _with_pilcrow_headings(joined, lines, found)
    if all(not setext and lines[index][:1] == " " for index, _, setext in found):
        # none, or only indented ``# …`` lines (a script's comments in a FAQ's examples)
        found = numbered_headings(joined, lines) or found
    levels = Counter(level for _, level, _ in found)
    underlines = {index + 1 for index, _, setext_style in found if setext_style}
    # ``found`` is in line order: a heading's section stops at the next one.
    count = len(found)
    competing = range(count) if count <= MAX_HEADINGS else [*range(MAX_HEADINGS), count - 1]
    heading_at = {index for index, _, _ in found}
    headings: list[Heading] = []
    for order in competing:
        index, level, setext_style = found[order]
        stop = found[order + 1][0] if order + 1 < count else len(lines)
        first = first_text(lines, index + 1, stop, heading_at, fenced)
        headings.append(Heading(index, level, first, setext_style))
    return headings, levels, underlines, code_blocks, fenced


def _with_pilcrow_headings(
    joined: str, lines: Sequence[str], found: list[tuple[int, int, bool]]
) -> list[tuple[int, int, bool]]:
    """``found`` with the lines a text dump of a Sphinx page ends with its permalink sign (lynx's,
    html2text's ``QueuePool limit of size <x> overflow <y> reached…¶``, at the margin) as headings,
    when there are ``_MIN_PILCROWS``: such a page's headings all carry the sign, and its ATX lines
    without it are code comments (``# normal join to relationship entity``), no headings."""
    # (``joined`` opens with a newline: its line n is ``lines[n - 1]``)
    pilcrows = [
        line - 1
        for line in pattern_lines(joined, _PILCROW_END, MAX_HEADINGS + 1, lead=_PILCROW)
        if _is_pilcrow_heading(lines[line - 1])
    ]
    if len(pilcrows) < _MIN_PILCROWS:
        return found
    kept = [heading for heading in found if heading[2] or _PILCROW in lines[heading[0]]]
    return sorted([*kept, *((index, 2, False) for index in pilcrows)])


# A plain-text document's numbered heading (an RFC's ``4.2.  Message Format``, a PDF's text ``2.
# Warming up.``, DocBook's ``Chapter 1. Protocol Formats``, linuxdoc's ``  1.1.  A Brief History``,
# a roman ``IV. Writing``): at most three spaces in, a number of up to four parts, a capital.
_NUMBER_HEAD = (
    r" {0,3}(?:(?:Chapter|CHAPTER|Part|PART|Section|Appendix)[ \xa0])?"
    r"(\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.)[ \t\xa0]{1,4}[A-Z(\"'`]"
)
_NUMBERED = re.compile(rf"^{_NUMBER_HEAD}[^\n]{{0,78}}$", re.MULTILINE)
# Where such a heading can start, after a line break: found by a search for the break itself
_NUMBERED_START = re.compile(rf"\n{_NUMBER_HEAD}")
# A table of contents' line: its dot leader or its page number (``1. Greetings! . . . . 4``).
_CONTENTS_LINE = re.compile(r"(?:\. ?){3,}|\s\d{1,4}\s*\Z|[,;]\s*\Z")
_MIN_NUMBERED = 4
_LISTED = 3
_SECTION_LINES = 4  # lines from a heading to the next, at the median: fewer, a list's items
_STEPS_SHARE = 0.5  # of the rises, those to the next number (a heading a PDF's text broke is missed)
_MAX_TITLE_WORDS = 12
_ROMAN = {"I": 1, "V": 5, "X": 10}


def numbered_headings(joined: str, lines: Sequence[str]) -> list[tuple[int, int, bool]]:
    """A plain-text document's numbered headings (``_NUMBERED``), each as ``(index, level,
    False)`` (its level: how many parts its number has), when there are ``_MIN_NUMBERED`` in
    order, else none. A contents line is none (a dot leader, a page number, or a number and
    title found again below it); a numbered list's items restart at 1, so only the headings whose
    numbers rise through the document are kept."""
    # (``joined`` opens with a newline: its line n is ``lines[n - 1]``)
    candidates: list[tuple[int, tuple[int, ...], str]] = []
    for line in pattern_lines(joined, _NUMBERED, MAX_HEADINGS + 1):
        text = lines[line - 1].strip()
        match = _NUMBERED.match(lines[line - 1])
        if match is None or _CONTENTS_LINE.search(text) or len(text.split()) > _MAX_TITLE_WORDS:
            continue
        if _wraps_on(lines, line - 1):
            continue  # a list item going on below it, indented under its text
        number = match.group(1).rstrip(".")
        parts = (_roman(number),) if number[0] in _ROMAN else tuple(int(part) for part in number.split("."))
        title = lines[line - 1][match.end(1) :]
        candidates.append((line - 1, parts, " ".join(title.strip(" .").split()).casefold()))
    last_of = {(parts, title): index for index, parts, title in candidates}
    listed = _listed(lines, [index for index, _, _ in candidates])
    # a contents line: listed again below, or one of a list of them
    headings = [
        (index, parts)
        for index, parts, title in candidates
        if last_of[(parts, title)] == index and index not in listed
    ]
    rising = _rising(headings)
    if len(rising) < _MIN_NUMBERED:
        return []
    # A document's numbers go on from one heading to the next (2.3 → 2.4, 3 or 2.3.1); a rise
    # stitched from lists' items leaps (3 → 4.5.3).
    steps = sum(_next_number(before[1], after[1]) for before, after in itertools.pairwise(rising))
    gaps = sorted(after[0] - before[0] for before, after in itertools.pairwise(rising))
    if steps < _STEPS_SHARE * (len(rising) - 1) or gaps[len(gaps) // 2] < _SECTION_LINES:
        return []  # (a list's items are no sections either)
    return [(index, len(parts), False) for index, parts in rising]


def _listed(lines: Sequence[str], indexes: Sequence[int]) -> set[int]:
    """The ``indexes`` (in order) in runs of ``_LISTED`` or more with only blank lines between
    them, most of them on the line below the one before: a contents list, one entry to a line (a
    heading has its section below it; a chapter's heading over its first section's, a blank line
    between, is no list)."""
    listed: set[int] = set()
    run: list[int] = []
    for index in [*indexes, -1]:
        if run and index > run[-1] and all(not line.strip() for line in lines[run[-1] + 1 : index]):
            run.append(index)
            continue
        adjacent = sum(after == before + 1 for before, after in itertools.pairwise(run))
        if len(run) >= _LISTED and adjacent * 2 > len(run) - 1:
            listed.update(run)
        run = [index]
    return listed


def _wraps_on(lines: Sequence[str], index: int) -> bool:
    """Whether the line below ``lines[index]`` goes on with it, indented deeper (a list item's)."""
    if index + 1 >= len(lines) or not lines[index + 1].strip():
        return False
    indent = len(lines[index]) - len(lines[index].lstrip())
    return len(lines[index + 1]) - len(lines[index + 1].lstrip()) > indent


def _next_number(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether ``after`` is the number a heading numbered ``before`` is followed by: its first
    subsection (``2.3`` → ``2.3.1``), or the next at its level or one above (``2.4``, ``3``)."""
    if after == (*before, 1):
        return True
    depth = len(after)
    return depth <= len(before) and after[:-1] == before[: depth - 1] and after[-1] == before[depth - 1] + 1


def is_numbered_document(text: str) -> bool:
    """Whether ``text`` is a plain-text document whose headings are numbered (``numbered_headings``:
    an RFC, a PDF's text, a spec), with no Markdown heading: read by its outline, as a page is."""

    def read() -> bool:
        if sum(1 for _ in itertools.islice(_NUMBERED_START.finditer(text), _MIN_NUMBERED)) < _MIN_NUMBERED:
            return False  # too few numbered lines: not read as Markdown for nothing
        lines, (headings, *_), _ = read_markdown(text)
        return (
            bool(headings)
            and not headings[0].setext
            and _NUMBERED.match(lines[headings[0].index]) is not None
        )

    return _NUMBERED_DOCUMENTS.get(text, (), read)  # the router asks of one payload several times


_NUMBERED_DOCUMENTS: LastReading[bool] = LastReading()


def _rising(headings: Sequence[tuple[int, tuple[int, ...]]]) -> list[tuple[int, tuple[int, ...]]]:
    """The longest run of ``headings`` (in line order) whose numbers rise: a document's own, past
    the numbered lists among them (O(n log n): patience sorting)."""
    tails: list[tuple[int, ...]] = []  # the least last number of a rising run of each length
    ends: list[int] = []  # which heading ends that run
    before = [-1] * len(headings)
    for position, (_, parts) in enumerate(headings):
        length = bisect.bisect_left(tails, parts)
        before[position] = ends[length - 1] if length else -1
        if length == len(tails):
            tails.append(parts)
            ends.append(position)
        else:
            tails[length] = parts
            ends[length] = position
    run: list[tuple[int, tuple[int, ...]]] = []
    position = ends[-1] if ends else -1
    while position >= 0:
        run.append(headings[position])
        position = before[position]
    return run[::-1]


def _roman(number: str) -> int:
    """A roman numeral's value (``IV`` → 4)."""
    values = [_ROMAN[char] for char in number]
    return sum(
        -value if value < after else value for value, after in zip(values, [*values[1:], 0], strict=True)
    )


def _is_pilcrow_heading(line: str) -> bool:
    """Whether ``line``, ending in the permalink sign, is a heading: at the margin (up to three
    spaces: a page's indented contents list is none), short, no ATX line, not the sign alone."""
    return (
        len(line) <= _PILCROW_WIDTH
        and _ATX.match(line) is None
        and len(line) - len(line.lstrip(" ")) <= 3
        and line.strip() != _PILCROW
    )


def _fenced_structure(
    lines: Sequence[str],
    candidates: Sequence[tuple[int, str, int, str]],
    marked: set[int],
    found: list[tuple[int, int, bool]],
    fenced: set[int],
) -> int:
    """Fill ``found`` headings and ``fenced`` lines from the ``candidates`` (fences hide headings);
    the code blocks. Other lines open, close and head nothing; a paragraph line is one of them."""
    fence = ""
    opened = 0
    code_blocks = 0
    for index, opening, atx, setext in candidates:
        if fence:
            if opening and opening[0] == fence[0] and len(opening) >= len(fence):
                fenced.update(range(opened, index + 1))
                fence = ""
            continue
        if opening:
            fence = opening
            opened = index
            code_blocks += 1
            continue
        if atx:
            found.append((index, atx, False))
        elif setext and index and index - 1 not in marked and lines[index - 1][:PREFIX].strip():
            if not found or found[-1][0] != index - 1:
                found.append((index - 1, 1 if setext == "=" else 2, True))
    if fence:
        fenced.update(range(opened, len(lines)))
    return code_blocks


@dataclass(frozen=True, slots=True)
class Line:
    """What one (cut) line is, for the structure pass."""

    fence: str  # the fence's backticks or tildes, "" if the line opens none
    atx: int  # the ATX heading level, 0 if none
    setext: str  # "=" or "-" for a setext underline, "" if none
    paragraph: bool


def classify(line: str) -> Line:
    opening = _FENCE.match(line)
    atx = _ATX.match(line)
    setext = _SETEXT.match(line)
    paragraph = bool(line.strip()) and not (opening or atx or setext)  # as ``_paragraph`` says
    return Line(
        opening.group(1) if opening else "",
        len(atx.group(1)) if atx else 0,
        setext.group(1)[0] if setext else "",
        paragraph,
    )


def _paragraph(line: str) -> bool:
    return bool(line.strip()) and not _ATX.match(line) and not _FENCE.match(line) and not _SETEXT.match(line)


def first_text(lines: Sequence[str], start: int, stop: int, headings: set[int], fenced: set[int]) -> int:
    for index in range(start, min(stop, start + 40)):
        line = lines[index][:PREFIX]
        if not line.strip() or index in headings or index in fenced or _SETEXT.match(line):
            continue
        return index
    return -1
