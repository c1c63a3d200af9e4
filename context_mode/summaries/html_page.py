"""Summary of a raw HTML page (``curl``, a fetch tool's raw mode): its title, headings and first words.

A page is what ``shapes.is_html`` recognises. ``summarize_html`` keeps, by line and verbatim
(without indentation, clipped to ``_WIDTH`` characters, a long line keeping its start and its end:
a heading's text closes its anchor markup): the ``<title>`` and ``<meta name="description">``
lines, the heading lines (``<h1>`` … ``<h6>``, shallower first, earlier first), the first
paragraph line after each heading, then definition terms (``<dt>``) and the first lines of code
blocks (``<pre>``). Markup elsewhere (scripts, styles, navigation) is left out without a mark when
only it was cut. The outline names the title and counts lines and headings. A page of very long
lines (minified) is summarised as text, where lines cannot be picked. Linear in the page; never
raises on a ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_TITLE = re.compile(r"<title\b", re.I)
_DESCRIPTION = re.compile(r"<meta\s[^>]*name=[\"']description[\"']", re.I)
_HEADING = re.compile(r"<h([1-6])\b", re.I)
_PARAGRAPH = re.compile(r"<p\b[^>]*>\s*\S", re.I)
_TERM = re.compile(r"<dt\b", re.I)
_CODE = re.compile(r"<pre\b", re.I)
_TAGS = re.compile(r"<[^>]*>")
_WIDTH = 200
_PREFIX = 2000  # of a line, read for its tags
_MINIFIED = 1000  # a mean line this long: the page is minified, its lines cannot be picked


def summarize_html(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Title, headings and each section's first paragraph line, within ``budget`` bytes."""
    lines = [line.strip() for line in split_lines(text)]  # indentation says nothing here
    if not lines or len(text) / len(lines) > _MINIFIED:
        extract = summarize_text(text, budget=budget, terms=terms)
        outline = "html, minified; " + extract.outline
        return Extract(
            text=extract.text, kind=ContentKind.MARKDOWN, outline=outline, highlights=extract.highlights
        )
    matches = term_matcher(terms)
    picks: list[Pick] = []
    headings = 0
    title = ""
    after_heading = False
    filler: set[int] = set()
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        priority = 0.0
        heading = _HEADING.search(line)
        if _TITLE.search(line):
            priority = 100.0
            title = title or _TAGS.sub("", line).strip()
        elif _DESCRIPTION.search(line):
            priority = 95.0
        elif heading is not None:
            headings += 1
            priority = 90.0 - 8.0 * int(heading.group(1)) - 0.2 * min(headings, 100)
            after_heading = True
        elif after_heading and _PARAGRAPH.search(line):
            priority = 50.0 - 0.1 * min(headings, 100)
            after_heading = False
        elif _TERM.search(line):
            priority = 30.0
        elif _CODE.search(line):
            priority = 25.0
        elif not _TAGS.sub("", line).strip():
            filler.add(index)  # markup alone: leaving it out is not worth a "…"
        if terms and matches(_TAGS.sub(" ", line)):
            priority = max(priority, 20.0) + 30.0
        if priority:
            picks.append(Pick(index, index + 1, priority))
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short", filler=filler, ends=True)
    outline = f"html: {len(lines)} lines, {headings} headings" + (f", title {title[:80]!r}" if title else "")
    return Extract(text=body, kind=ContentKind.MARKDOWN, outline=outline, highlights=headings)
