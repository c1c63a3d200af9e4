"""The value every summariser returns, and the term matching and record keys they share.

``Extract.text`` is the stage-1 body: verbatim extracts of the payload (see ``packing`` for the
exact rule; JSON bodies are instead valid JSON built from the payload's own keys and values)
and never more than the budget in UTF-8 bytes. ``Extract.outline`` is one line of counts,
without payload lines. ``Extract.kind`` is the kind whose summariser produced the body: the
requested one, or ``TEXT`` when the payload turned out not to be of that kind.

``IDENTITY_KEYS`` are the keys (lowercase) that say which record a JSON object or a YAML mapping
is: its name, id, title, state, version, who made it and when; the JSON and YAML summaries show
them for every record that fits, and the rest of a record only for the first.
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
    # The summary shows the payload's end in its own terms (a notebook's last cell): the payload's
    # last lines (``summaries.ending``), its metadata there, add nothing.
    ends_shown: bool = False


IDENTITY_KEYS = frozenset(
    "id name full_name fullname title status state phase version latest key login type kind apiversion "
    "namespace slug tag tag_name ref sha hash shasum checksum digest number code message reason error "
    "path label filename image uid created created_at closed_at merged_at published_at released_at "
    "upload_time date".split()
)

# Terms shorter than this match almost everything, so they are not worth a preference.
_MIN_TERM = 2
_MAX_TERMS = 12


def term_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    """The case-insensitive pattern of ``terms`` that ``term_matcher`` searches; None if none is usable."""
    usable = sorted({t.strip().lower() for t in terms if len(t.strip()) >= _MIN_TERM})[:_MAX_TERMS]
    if not usable:
        return None
    # One alternation of escaped literals: linear in the line, no backtracking blow-up.
    return re.compile("|".join(re.escape(t) for t in usable), re.IGNORECASE)


def term_matcher(terms: Sequence[str]) -> Callable[[str], bool]:
    """A case-insensitive test for "this line mentions one of ``terms``" (always false if none)."""
    pattern = term_pattern(terms)
    if pattern is None:
        return lambda line: False
    return lambda line: pattern.search(line) is not None


def term_lines(text: str, terms: Sequence[str], limit: int = 0) -> list[int]:
    """Indexes of the lines of ``text`` (newline-joined) that mention a term: the first ``limit``
    (0: all). One search over the whole text, so lines without a term cost no Python step."""
    pattern = term_pattern(terms)
    found: list[int] = []
    if pattern is None:
        return found
    line = 0
    position = 0
    while not limit or len(found) < limit:
        match = pattern.search(text, position)
        if match is None:
            break
        line += text.count("\n", position, match.start())
        found.append(line)
        position = text.find("\n", match.start()) + 1  # terms hold no newline
        if position == 0:
            break
        line += 1
    return found
