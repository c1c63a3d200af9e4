"""Summary of a raw HTML page (``curl``, a fetch tool's raw mode): its title, headings and first words.

A page is what ``shapes.is_html`` recognises. ``summarize_html`` keeps, by line and verbatim
(without indentation, clipped to ``_WIDTH`` characters, a long line keeping its start and its end:
a heading's text closes its anchor markup): a tool's frame lines above the page (the fetch
server's "Contents of <url>:"), the ``<title>`` and ``<meta name="description">`` lines, the
heading lines (``<h1>`` … ``<h6>``, shallower first, earlier first; a heading's text seen before
ranks lower), the first line with words after each heading (a ``<p>`` opening a line of its own
leaves its words to the next line), a table's first rows with words (``<td>``; the rest lower),
then definition terms (``<dt>``) and the first line of words of code blocks (``<pre>``). Markup
elsewhere (scripts, styles, navigation) is left out without a mark when only it was cut. A line
longer than ``_LONG`` (generated pages put a whole table or section on one line) is cut before
each block element (``<tr>``, ``<p>``, ``<h2>``, ``<div>``…) and its pieces are picked as lines,
each verbatim. The outline names the title and counts lines and headings. A page of very long
lines (minified) is summarised as text, where lines cannot be picked. Linear in the page; never
raises on a ``str``.

``html_pieces(line)`` is a line as the summary may show it: whole, or its pieces when long.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.framing import document_start
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.html_traceback import traceback_block
from context_mode.summaries.log import summarize_log
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_TITLE = re.compile(r"<title\b", re.I)
_DESCRIPTION = re.compile(r"<meta\s[^>]*name=[\"']description[\"']", re.I)
_HEADING = re.compile(r"<h([1-6])\b", re.I)
_TERM = re.compile(r"<dt\b", re.I)
_CODE = re.compile(r"<pre\b", re.I)
_ROW = re.compile(r"<td\b", re.I)
# Where a long line of generated markup is cut into pieces: before each block element.
_BLOCK = re.compile(r"(?=<(?:tr|p|h[1-6]|div|li|dt|dd|pre|table|section|article|blockquote)\b)", re.I)
_LONG = 400  # a line longer than this is cut at its block elements
_TABLE = re.compile(r"<table\b", re.I)
_FIRST_ROWS = 6
_ROW_WIDTH = 320
_TITLE_TEXT = re.compile(r"<title\b[^>]*>([^<]{1,200})</title>", re.I)
_TAGS = re.compile(r"<[^>]*>")
_WIDTH = 200
_PREFIX = 2000  # of a line, read for its tags
_HEAD = 80.0  # the title, the description and the first level of headings
_HEAD_BUDGET = 300  # of an error page, above its traceback
_MINIFIED = 1000  # a mean line this long: the page is minified, its lines cannot be picked


def summarize_html(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Title, headings and each section's first paragraph line, within ``budget`` bytes."""
    raw_lines = split_lines(text)
    if not raw_lines or len(text) / len(raw_lines) > _MINIFIED:
        extract = summarize_text(text, budget=budget, terms=terms)
        outline = "html, minified; " + extract.outline
        return Extract(
            text=extract.text, kind=ContentKind.MARKDOWN, outline=outline, highlights=extract.highlights
        )
    lines = [piece for line in raw_lines for piece in html_pieces(line.strip())]  # indentation says nothing
    matches = term_matcher(terms)
    picks: list[Pick] = []
    headings = 0
    title = _title(text)
    pending = 0.0  # the priority of the next line with words: a heading's, ``<p>``'s, ``<pre>``'s first
    seen_headings: set[str] = set()
    table_rows = 0  # rows with words seen in the current table
    frame = _frame_lines(text)
    picks.extend(Pick(index, index + 1, 100.0) for index in range(frame))
    filler: set[int] = set()
    for index in range(frame, len(lines)):
        line = lines[index][:_PREFIX]
        words = _TAGS.sub("", line).strip()
        priority = 0.0
        width = _WIDTH
        heading = _HEADING.search(line)
        if _TABLE.search(line):
            table_rows = 0
        if _TITLE.search(line):
            priority = 100.0
        elif _DESCRIPTION.search(line):
            priority = 95.0
        elif heading is not None:
            headings += 1
            named = _TAGS.sub("", line[heading.start() :]).strip()
            # A heading repeated down the page ("Note", "Example") says less each time.
            repeated = 50.0 if named in seen_headings else 0.0
            seen_headings.add(named)
            priority = 90.0 - 8.0 * int(heading.group(1)) - 0.2 * min(headings, 100) - repeated
            pending = (20.0 if repeated else 50.0) - 0.1 * min(headings, 100)
        elif _TERM.search(line):
            priority = 30.0 if words else 0.0
            pending = max(pending, 0.0 if words else 30.0)
        elif _CODE.search(line):
            priority = 25.0 if words else 0.0
            pending = max(pending, 0.0 if words else 25.0)
        elif _ROW.search(line) and words:
            # A table's first rows say what it holds, as a section's first line does.
            table_rows += 1
            priority = 45.0 if table_rows <= _FIRST_ROWS else 30.0
            width = _ROW_WIDTH  # a row's markup takes room: its last cell is its widest
        if priority == 0.0 and pending and len(words) >= 3:
            priority, pending = pending, 0.0
        if not words and not priority:
            filler.add(index)  # markup alone: leaving it out is not worth a "…"
        if terms and matches(_TAGS.sub(" ", line)):
            priority = max(priority, 20.0) + 30.0
        if priority:
            picks.append(Pick(index, index + 1, priority, width))
    outline = f"html: {len(lines)} lines, {headings} headings" + (f", title {title[:80]!r}" if title else "")
    block = traceback_block(raw_lines, title)
    if block is not None:
        # A framework's error page: its title and first heading name the exception, its
        # plain-text traceback (``html_traceback``) is read as a log.
        head = pack(lines, [pick for pick in picks if pick.priority >= _HEAD], _HEAD_BUDGET, width=_WIDTH)
        plain = "\n".join(raw_lines[block.start : block.stop])
        trace = summarize_log(plain, budget=max(budget - len(head.encode()) - 1, 0), terms=terms)
        outline += f"; a traceback as text, lines {block.start + 1}-{block.stop}: {trace.outline}"
        body = f"{head}\n{trace.text}" if head and trace.text else head or trace.text
        highlights = headings + trace.highlights
        return Extract(text=body, kind=ContentKind.LOG, outline=outline, highlights=highlights)
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short", filler=filler, ends=True)
    return Extract(text=body, kind=ContentKind.MARKDOWN, outline=outline, highlights=headings)


def _title(text: str) -> str:
    """The ``<title>``'s text, spaces folded (a page's head can be one long line of markup)."""
    found = _TITLE_TEXT.search(text, 0, 20_000)
    return " ".join(found.group(1).split()) if found else ""


def _frame_lines(text: str) -> int:
    """How many of the first lines are a tool's frame above the page (``framing.document_start``,
    as ``shapes.is_html`` finds the page below them)."""
    at = document_start(text[:4096], "<")
    return text.count("\n", 0, at) if at is not None else 0


def html_pieces(line: str) -> list[str]:
    """``line``, or when longer than ``_LONG`` its pieces cut before each block element."""
    if len(line) <= _LONG:
        return [line]
    cuts = [found.start() for found in _BLOCK.finditer(line, 0, len(line))]
    bounds = [0, *(cut for cut in cuts if cut > 0), len(line)]
    return [line[start:end] for start, end in zip(bounds, bounds[1:], strict=False) if start < end]
