"""Summary of Markdown documents: the heading skeleton, each section's first sentence.

Headings are ATX (``## Title``) or setext (a paragraph line over ``===`` or ``---``); lines in
fenced code blocks are never headings. Priority falls with heading level and position, so a
tight budget keeps the first and shallowest headings; the last heading is kept too, to show
where the document ends. A section's first sentence is the verbatim start of its first text
line, cut after the sentence with ``…``. Headings and lines that mention a search term rank
first. The outline counts lines, headings per level and code blocks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.summaries.extract import Extract, term_matcher
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


@dataclass(frozen=True, slots=True)
class _Heading:
    index: int  # the heading's text line
    level: int
    first_line: int  # the section's first text line, -1 if none
    setext: bool


def summarize_markdown(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Heading skeleton with first sentences, within ``budget`` bytes."""
    lines = split_lines(text)
    headings, code_blocks, fence_lines = _structure(lines)
    if not headings:
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
    for index, line in enumerate(lines):
        if index not in heading_lines and index not in fence_lines and matches(line[:_PREFIX]):
            picks.append(Pick(index, index + 1, 56.0 - 0.01 * index, 160))
    picks = [
        Pick(p.start, p.stop, p.priority, p.width or widths.get(p.start, 0))
        for p in picks
        if p.start < len(lines)
    ]
    # A skeleton shows where the text was cut with a bare "…": counts would double its size.
    underlines = {heading.index + 1 for heading in headings if heading.setext}
    body = pack(lines, picks, budget, width=_FIRST_LINE_WIDTH, gaps="short", filler=underlines)
    levels = Counter(heading.level for heading in headings)
    per_level = ", ".join(f"{levels[level]} h{level}" for level in sorted(levels))
    outline = (
        f"markdown: {len(lines)} lines, {len(headings)} headings ({per_level}), "
        f"{code_blocks} code block{'' if code_blocks == 1 else 's'}"
    )
    return Extract(text=body, kind=ContentKind.MARKDOWN, outline=outline, highlights=len(headings))


def _sentence_width(line: str) -> int:
    """Chars of ``line`` through its first sentence (0: the packer's default width)."""
    stripped = len(line) - len(line.lstrip())
    end = _SENTENCE_END.search(line, stripped, _SENTENCE_WIDTH)
    if end is None:
        return 0
    # clip() keeps width - 1 chars and adds "…", so +2 keeps the sentence's final stop.
    width = end.end() + 1
    return width + 1 if width < len(line) else 0


def _structure(lines: Sequence[str]) -> tuple[list[_Heading], int, set[int]]:
    """Headings (with their first text line), the number of code blocks, and fenced lines."""
    found: list[tuple[int, int, bool]] = []
    fence = ""
    code_blocks = 0
    fenced: set[int] = set()
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        opening = _FENCE.match(line)
        if fence:
            fenced.add(index)
            if (
                opening is not None
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
            ):
                fence = ""
            continue
        if opening is not None:
            fence = opening.group(1)
            code_blocks += 1
            fenced.add(index)
            continue
        atx = _ATX.match(line)
        if atx is not None:
            found.append((index, len(atx.group(1)), False))
            continue
        setext = _SETEXT.match(line)
        if setext is not None and index and _paragraph(lines[index - 1][:_PREFIX]):
            if not found or found[-1][0] != index - 1:
                found.append((index - 1, 1 if setext.group(1)[0] == "=" else 2, True))
    heading_at = {index for index, _, _ in found}
    headings: list[_Heading] = []
    for order, (index, level, setext_style) in enumerate(found):
        stop = found[order + 1][0] if order + 1 < len(found) else len(lines)
        first = _first_text(lines, index + 1, stop, heading_at, fenced)
        headings.append(_Heading(index, level, first, setext_style))
    return headings, code_blocks, fenced


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
