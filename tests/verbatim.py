"""What "verbatim" means for a shown line, shared by the summary tests.

A summary line is verbatim when it is an input line, or an input line clipped: its start with
``…`` after it (``packing.clip``), its start and its end with ``…`` between them
(``packing.clip_ends``: a long line's end often says what it is about), or pieces of it in its
order with ``…`` between them, the first its start and the last its end (``json_line``: a
JSON-lines record's telling members), or its start, cut, with pieces left out before the cut
(``link_targets``: a page's links without their targets).
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
    if not cut or not head:
        return False
    if not tail:
        return line.count(ELLIPSIS) > 1 and any(pieces_of(line, s) for s in source_lines)
    if any(
        len(s) > len(line) - len(cut) and s.startswith(head.rstrip()) and s.endswith(tail.lstrip())
        for s in source_lines
    ):
        return True
    return line.count(ELLIPSIS) > 1 and any(pieces_of(line, s) for s in source_lines)


def pieces_of(line: str, source: str) -> bool:
    """Whether ``line`` is pieces of ``source`` in order, ``…`` between them, from its start to its end."""
    pieces = line.split(ELLIPSIS)
    if len(pieces) == 1:
        return line == source
    if not source.startswith(pieces[0]) or not source.endswith(pieces[-1]):
        return False
    position = len(pieces[0])
    for piece in pieces[1:-1]:
        found = source.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return len(source) - len(pieces[-1]) >= position
