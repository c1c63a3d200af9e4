"""The value every summariser returns, and the term matching they share.

``Extract.text`` is the stage-1 body: verbatim extracts of the payload (see ``packing`` for the
exact rule; JSON bodies are instead valid JSON built from the payload's own keys and values)
and never more than the budget in UTF-8 bytes. ``Extract.outline`` is one line of counts,
without payload lines. ``Extract.kind`` is the kind whose summariser produced the body: the
requested one, or ``TEXT`` when the payload turned out not to be of that kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from context_mode.types import ContentKind


@dataclass(frozen=True, slots=True)
class Extract:
    """A content-aware summary of one payload."""

    text: str
    kind: ContentKind
    outline: str
    highlights: int


# Terms shorter than this match almost everything, so they are not worth a preference.
_MIN_TERM = 2
_MAX_TERMS = 12


def term_matcher(terms: Sequence[str]) -> Callable[[str], bool]:
    """A case-insensitive test for "this line mentions one of ``terms``" (always false if none)."""
    usable = sorted({t.strip().lower() for t in terms if len(t.strip()) >= _MIN_TERM})[:_MAX_TERMS]
    if not usable:
        return lambda line: False
    # One alternation of escaped literals: linear in the line, no backtracking blow-up.
    pattern = re.compile("|".join(re.escape(t) for t in usable), re.IGNORECASE)
    return lambda line: pattern.search(line) is not None
