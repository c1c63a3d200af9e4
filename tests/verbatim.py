"""What "verbatim" means for a shown line, shared by the summary tests.

A summary line is verbatim when it is an input line, or an input line clipped: its start with
``…`` after it (``packing.clip``), or its start and its end with ``…`` between them
(``packing.clip_ends``: a long line's end often says what it is about).
"""

from __future__ import annotations

from collections.abc import Iterable

ELLIPSIS = "…"


def clipped_from(line: str, source_lines: Iterable[str]) -> bool:
    """Whether ``line`` is one of ``source_lines``, or one of them clipped (see module doc)."""
    if line in source_lines:
        return True
    if line.endswith(ELLIPSIS) and any(s.startswith(line[:-1]) for s in source_lines):
        return True
    head, cut, tail = line.rpartition(ELLIPSIS)
    if not cut or not head or not tail:
        return False
    return any(
        len(s) > len(line) - len(cut) and s.startswith(head.rstrip()) and s.endswith(tail.lstrip())
        for s in source_lines
    )
