"""How a Markdown document is built: its headings, their sections' first lines, its fenced code.

For ``markdown``'s summary. ``read_markdown(text)`` returns the text's lines, its ``Structure``
(the headings that compete, each with its section's first text line; headings per level; setext
underlines; the number of code blocks; fenced lines) and its lines cut to ``PREFIX`` chars and
joined by newlines, read once per text (the router summarises a payload more than once).
Headings are ATX (``## Title``) or setext (a paragraph line over ``===`` or ``---``), or, in a
text dump of a Sphinx page, the lines at the margin ending in its permalink sign ``¶``; lines in
fenced code blocks are never headings. Only the first ``MAX_HEADINGS`` headings and the last one
compete, and one whole-text search finds the lines that can be fences, headings or underlines, so
other lines cost no Python step and a megabyte of headings stays cheap. ``heading_name`` is a
heading's (or a term's) words without its marks, its link to itself and its case.
"""

from __future__ import annotations

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
