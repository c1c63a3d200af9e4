"""Text held in a few very long lines, read as the pieces its layout makes of them.

A page laid out in tables that an HTML-to-Markdown converter flattened (a whole sidebar and
changelog as one 60 kB table row), or prose sent without its line ends, gives a summariser a
handful of lines: it shows the start of each and leaves the budget unspent.

``pieces(text)`` is ``text`` with each line longer than ``LONG_LINE`` characters broken where
its own layout breaks it: at runs of two or more spaces (line ends a converter collapsed), at
table cell borders (``|``) and before list markers (`` * ``, `` - ``, `` • ``); a piece still
longer than ``LONG_PIECE`` is broken after its sentences' ends. Empty pieces (empty cells) are
dropped, so every line of the result is a substring of ``text``. It returns ``None`` when lines
of at most ``LONG_LINE`` characters hold more than ``SHORT_SHARE`` of the text (the usual case,
left as it is) or the long lines hold no piece (blanks and borders only), and a ``Pieces``
otherwise: the text and how many long lines it broke into how many pieces. Linear in the text;
never raises on a ``str``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from context_mode.words import NO_ABBREVIATION

LONG_LINE = 2000  # a line longer than this is broken into its pieces
LONG_PIECE = 400  # a piece longer than this is broken after its sentences
SHORT_SHARE = 0.5  # lines of at most LONG_LINE holding more of the text: no pieces
_BREAK = re.compile(r" {2,}|\|+|(?<=\S) (?=[*•-] \S)")
_SENTENCE_END = re.compile(rf"(?<=[.!?;]){NO_ABBREVIATION}\s+(?=[A-Z(\[`*\"'])")


@dataclass(frozen=True, slots=True)
class Pieces:
    """``text`` with its long lines broken into pieces: ``lines`` long lines, now ``pieces`` lines."""

    text: str
    lines: int
    pieces: int


def pieces(text: str) -> Pieces | None:
    """``text`` with its long lines broken (see the module doc), or None when they are few."""
    lines = text.split("\n")
    long = [line for line in lines if len(line) > LONG_LINE]
    if not long or len(text) - sum(map(len, long)) > SHORT_SHARE * len(text):
        return None
    out: list[str] = []
    broken = 0
    for line in lines:
        if len(line) <= LONG_LINE:
            out.append(line)
            continue
        for piece in _BREAK.split(line):
            piece = piece.strip()
            if not piece:
                continue
            parts = _SENTENCE_END.split(piece) if len(piece) > LONG_PIECE else [piece]
            out.extend(part for part in parts if part)
            broken += len(parts)
    return Pieces("\n".join(out), len(long), broken) if broken else None
