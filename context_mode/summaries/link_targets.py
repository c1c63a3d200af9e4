"""A page's Markdown lines shown with their links' targets left out, when the page has many.

A page converted to Markdown spells every link with its target: ``[str](about:/usr/share/doc/
python3-doc/html/library/stdtypes.html#str "(in Python v3.11)")`` is 90 bytes that say ``str``.
On a page with ``MANY_LINKS`` such links or more, a summary line shows each link's text and
``(…)`` for its target and title, so a signature or a sentence shows its words, not its URLs;
a page with few links keeps them whole (a README's few links may be where to read on).

``elided(lines, kept=)`` is the lines to show, each one pieces of its input line in order with
``…`` between them, or the line itself (the lines ``kept``: a fenced code block's, code as
written); ``width_in(line, width)`` is the width that shows of the elided line what ``width``
showed of ``line`` (a cut after a sentence or before a heading's link to itself stays there), or
``width`` itself where it cut inside a target (a cap on a line's length: the elided line shows
more of its words). Targets of ``SHORT_TARGET`` characters or fewer stay: ``(#x)`` costs what
``(…)`` does.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence

MANY_LINKS = 12
SHORT_TARGET = 8
ELLIPSIS = "…"
# A link's or an image's target, with its title: what is between ``](`` and ``)``, one level of
# parentheses inside (``…/Function_(mathematics)``).
_TARGET = re.compile(r"\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+\"[^\"\n]*\")?)\)")  # unrolled: linear


def elided(lines: Sequence[str], *, kept: Container[int] = ()) -> list[str]:
    """``lines`` with long link targets left out, when they hold ``MANY_LINKS`` or more of them;
    the lines ``kept`` (a fenced code block's: ``handlers[name](event)`` is code) as they are."""
    found = sum(_long_targets(line) for index, line in enumerate(lines) if "](" in line and index not in kept)
    if found < MANY_LINKS:
        return list(lines)
    return [
        _TARGET.sub(_elide, line) if "](" in line and index not in kept else line
        for index, line in enumerate(lines)
    ]


def width_in(line: str, width: int) -> int:
    """The width of ``line``'s elided form that shows what ``width`` showed of ``line``."""
    if "](" not in line or width <= 0:
        return width
    removed = 0
    for match in _TARGET.finditer(line):
        start, end = match.span(1)
        if not _is_long(match.group(1)) or start >= width:
            continue
        if end > width:  # cut inside a target: a cap on its length, kept (it shows more words)
            return width
        removed += end - start - len(ELLIPSIS)
    return width - removed


def _is_long(target: str) -> bool:
    """Whether a link's target (with its title) is left out: longer than ``SHORT_TARGET``."""
    return len(target) > SHORT_TARGET


def _long_targets(line: str) -> int:
    return sum(_is_long(match.group(1)) for match in _TARGET.finditer(line))


def _elide(match: re.Match[str]) -> str:
    return f"]({ELLIPSIS})" if _is_long(match.group(1)) else match.group(0)
