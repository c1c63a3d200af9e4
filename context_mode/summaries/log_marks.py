"""Literals looked for in a whole log, found by one of their rare chars.

``find(text, literal, start)`` is ``text.find(literal, start)``. ``str.find`` of a literal of
two or more chars steps through about every position (0.3–0.5 ms per MB); of one char it is a
memchr, a hundred times faster. So a literal is looked for by its chars instead, the ones least
usual in logs first (``_USUAL``): up to ``_PROBES`` places of a char are checked with
``startswith``; when the char runs out the answer is known (most marks a log summary tests for
are absent, and most hold a char the log lacks), and when it is frequent the next char takes over
from where the last left off. After ``_CHARS`` chars ``str.find`` finishes the search, so a
literal made of frequent chars costs one ``str.find`` plus a few dozen memchr steps.

``holds(text, *literals)`` says whether any of ``literals`` is in ``text``; ``search(pattern,
lead, text, start)`` is ``pattern.search(text, start)`` for a pattern whose every match starts with
the literal ``lead``, starting the regex at the first ``lead``.
"""

from __future__ import annotations

import re
from functools import lru_cache

_PROBES = 16  # places of one char checked before the next char is tried
_CHARS = 3  # chars of a literal tried before ``str.find``
# Chars from the most to the least usual in logs; a char not listed is taken as rarer than all.
_USUAL = " etaosinrlcdumph:/.-_=0123456789,gfybw()[]kvETSAROINLCDP"


def find(text: str, literal: str, start: int = 0) -> int:
    """``text.find(literal, start)`` (``start`` >= 0, ``literal`` not empty), by rare chars first."""
    for offset in _offsets(literal):
        char = literal[offset]
        position = text.find(char, start + offset)
        for _ in range(_PROBES):
            if position < 0:
                return -1
            if text.startswith(literal, position - offset):
                return position - offset
            position = text.find(char, position + 1)
        if position < 0:
            return -1
        start = position - offset  # an earlier start would hold this char at a place checked
    return text.find(literal, start)


def holds(text: str, *literals: str) -> bool:
    """Whether any of ``literals`` is in ``text``."""
    return any(find(text, literal) >= 0 for literal in literals)


def search(pattern: re.Pattern[str], lead: str, text: str, start: int = 0) -> re.Match[str] | None:
    """``pattern.search(text, start)`` for a ``pattern`` whose every match starts with ``lead``."""
    position = find(text, lead, start)
    return None if position < 0 else pattern.search(text, position)


@lru_cache(maxsize=64)
def _offsets(literal: str) -> tuple[int, ...]:
    """Offsets of up to ``_CHARS`` distinct chars of ``literal``, the least usual first."""
    firsts = {char: literal.index(char) for char in reversed(literal)}  # each char's first offset
    rarest = sorted(firsts, key=lambda char: -_rank(char))
    return tuple(firsts[char] for char in rarest[:_CHARS])


def _rank(char: str) -> int:
    position = _USUAL.find(char)
    return len(_USUAL) if position < 0 else position
