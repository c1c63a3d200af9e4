"""Summary of Markdown documents: the heading skeleton, each section's first sentence.

Headings are ATX (``## Title``) or setext (a paragraph line over ``===`` or ``---``); lines in
fenced code blocks are never headings. Priority falls with heading level and position, so a
tight budget keeps the first and shallowest headings; the last heading is kept too, to show
where the document ends. A section's first sentence is the verbatim start of its first text
line, cut after the sentence with ``…``. Headings and lines that mention a search term rank
first. The outline counts lines, headings per level and code blocks.

Only the first ``MAX_HEADINGS`` headings and the last one compete for the budget (a budget of a
few KB shows far fewer), and lines that differ only in their digits are classified once, so a
megabyte of nothing but headings stays cheap.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.summaries.extract import Extract, term_lines, term_matcher
from context_mode.summaries.line_groups import group_lines
from context_mode.summaries.packing import Pick, clip, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_PREFIX = 400
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|\Z)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*\Z")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_OR_QUOTE = re.compile(r"\s*(?:[-*+>]|\d+[.)])(?:\s|\Z)")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
_SENTENCE_WIDTH = 200
_FIRST_LINE_WIDTH = 120
MAX_HEADINGS = 2000


@dataclass(frozen=True, slots=True)
class _Heading:
    index: int  # the heading's text line
    level: int
    first_line: int  # the section's first text line, -1 if none
    setext: bool


def summarize_markdown(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Heading skeleton with first sentences, within ``budget`` bytes."""
    lines = split_lines(text)
    headings, levels, underlines, code_blocks, fence_lines = _structure(lines)
    if not levels:
        fallback = summarize_text(text, budget=budget, terms=terms)
        return Extract(fallback.text, ContentKind.TEXT, "markdown without headings; " + fallback.outline, 0)
    matches = term_matcher(terms)
    picks: list[Pick] = [Pick(0, 1, 95.0)]
    widths: dict[int, int] = {}
    for order, heading in enumerate(headings):
        priority = 80.0 - 8.0 * (heading.level - 1) - 0.3 * min(order, 200)
        if order == len(headings) - 1:
            priority = max(priority, 75.0)
        if matches(lines[heading.index][:_PREFIX]):
            priority += 30.0
        picks.append(Pick(heading.index, heading.index + 1, priority))
        if heading.first_line >= 0:
            line = lines[heading.first_line]
            widths[heading.first_line] = _sentence_width(line)
            boost = 20.0 if matches(line[:_PREFIX]) else 0.0
            if order == 0:
                boost += 15.0  # the document's opening sentence says what it is
            picks.append(Pick(heading.first_line, heading.first_line + 1, priority - 10.0 + boost))
    heading_lines = {heading.index for heading in headings}
    joined = "\n".join(line[:_PREFIX] for line in lines) if terms else ""
    picks.extend(
        Pick(index, index + 1, 56.0 - 0.01 * index, 160)
        for index in term_lines(joined, terms)
        if index not in heading_lines and index not in fence_lines
    )
    picks = [
        Pick(p.start, p.stop, p.priority, p.width or widths.get(p.start, 0))
        for p in picks
        if p.start < len(lines)
    ]
    # A skeleton shows where the text was cut with a bare "…": counts would double its size.
    body = pack(lines, picks, budget, width=_FIRST_LINE_WIDTH, gaps="short", filler=underlines)
    per_level = ", ".join(f"{levels[level]} h{level}" for level in sorted(levels))
    outline = (
        f"markdown: {len(lines)} lines, {levels.total()} headings ({per_level}), "
        f"{code_blocks} code block{'' if code_blocks == 1 else 's'}"
    )
    return Extract(text=body, kind=ContentKind.MARKDOWN, outline=outline, highlights=levels.total())


def _sentence_width(line: str) -> int:
    """Chars of ``line`` through its first sentence (0: the packer's default width)."""
    stripped = len(line) - len(line.lstrip())
    end = _SENTENCE_END.search(line, stripped, _SENTENCE_WIDTH)
    if end is None:
        return 0
    # clip() keeps width - 1 chars and adds "…", so +2 keeps the sentence's final stop.
    width = end.end() + 1
    return width + 1 if width < len(line) else 0


def _structure(lines: Sequence[str]) -> tuple[list[_Heading], Counter[int], set[int], int, set[int]]:
    """Headings that compete (with their first text line), headings per level, setext underlines,
    the number of code blocks, and fenced lines."""
    # Lines differing only in their digits classify alike (see ``line_groups``): one per key.
    groups = group_lines(lines, _PREFIX)
    seen = {key: _classify(lines[index][:_PREFIX]) for key, index in groups.samples.items()}
    kinds = [seen[key] for key in groups.keys]
    found: list[tuple[int, int, bool]] = []
    fenced: set[int] = set()
    code_blocks = 0
    if not any(kind.fence for kind in seen.values()):
        # No fence: a heading is an ATX line, or a paragraph line over a setext underline.
        found = sorted(
            [(index, kind.atx, False) for index, kind in enumerate(kinds) if kind.atx]
            + [
                (index - 1, 1 if kind.setext == "=" else 2, True)
                for index, kind in enumerate(kinds)
                if kind.setext and index and kinds[index - 1].paragraph
            ]
        )
    else:
        code_blocks = _fenced_structure(kinds, found, fenced)
    levels = Counter(level for _, level, _ in found)
    underlines = {index + 1 for index, _, setext_style in found if setext_style}
    competing = found[:MAX_HEADINGS] + found[-1:] if len(found) > MAX_HEADINGS else found
    heading_at = {index for index, _, _ in found}
    headings: list[_Heading] = []
    for index, level, setext_style in competing:
        order = bisect.bisect_left(found, (index,))
        stop = found[order + 1][0] if order + 1 < len(found) else len(lines)
        first = _first_text(lines, index + 1, stop, heading_at, fenced)
        headings.append(_Heading(index, level, first, setext_style))
    return headings, levels, underlines, code_blocks, fenced


def _fenced_structure(kinds: Sequence[_Line], found: list[tuple[int, int, bool]], fenced: set[int]) -> int:
    """Fill ``found`` headings and ``fenced`` lines line by line (fences hide headings); the code blocks."""
    fence = ""
    code_blocks = 0
    for index, kind in enumerate(kinds):
        opening = kind.fence
        if fence:
            fenced.add(index)
            if opening and opening[0] == fence[0] and len(opening) >= len(fence):
                fence = ""
            continue
        if opening:
            fence = opening
            code_blocks += 1
            fenced.add(index)
            continue
        if kind.atx:
            found.append((index, kind.atx, False))
        elif kind.setext and index and kinds[index - 1].paragraph:
            if not found or found[-1][0] != index - 1:
                found.append((index - 1, 1 if kind.setext == "=" else 2, True))
    return code_blocks


@dataclass(frozen=True, slots=True)
class _Line:
    """What one (cut) line is, for the structure pass."""

    fence: str  # the fence's backticks or tildes, "" if the line opens none
    atx: int  # the ATX heading level, 0 if none
    setext: str  # "=" or "-" for a setext underline, "" if none
    paragraph: bool


def _classify(line: str) -> _Line:
    opening = _FENCE.match(line)
    atx = _ATX.match(line)
    setext = _SETEXT.match(line)
    paragraph = bool(line.strip()) and not (opening or atx or setext)  # as ``_paragraph`` says
    return _Line(
        opening.group(1) if opening else "",
        len(atx.group(1)) if atx else 0,
        setext.group(1)[0] if setext else "",
        paragraph,
    )


def _paragraph(line: str) -> bool:
    return bool(line.strip()) and not _ATX.match(line) and not _FENCE.match(line) and not _SETEXT.match(line)


def _first_text(lines: Sequence[str], start: int, stop: int, headings: set[int], fenced: set[int]) -> int:
    for index in range(start, min(stop, start + 40)):
        line = lines[index][:_PREFIX]
        if not line.strip() or index in headings or index in fenced or _SETEXT.match(line):
            continue
        if _LIST_OR_QUOTE.match(line) or line.strip():
            return index
    return -1


def clip_sentence(line: str) -> str:
    """The first sentence of ``line`` as ``pack`` would show it (a verbatim prefix and ``…``)."""
    width = _sentence_width(line)
    return clip(line, width) if width else line
