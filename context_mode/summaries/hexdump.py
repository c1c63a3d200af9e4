"""Hex dumps (``xxd``, ``hexdump -C``, ``od -A x -t x1z``, plain ``hexdump``): a file's bytes,
whatever kind they were taken for.

A dump line is an offset (6 to 16 hex digits, ``xxd`` puts a colon after it), groups of two or four
hex digits, and (``xxd``, ``hexdump -C``, ``od … z``) the bytes as characters, ``.`` for the
unprintable ones (``|.ELF....|``, ``>.ELF....<``). ``xxd``'s lines read as YAML keys, ``hexdump
-C``'s as a table of two columns; an agent opens a dump for the file's first bytes (its magic
number and header), where its readable strings are (a version, a path, a message) and where it
ends. ``summarize_hexdump(text, kind=, budget=, terms=)`` returns None unless most of the first
``_SAMPLE_LINES`` non-blank lines are dump lines; else, verbatim and within ``budget`` bytes: the
first ``_HEAD_LINES`` lines, the last two (the end offset), the lines naming the call's terms,
then the lines whose characters hold a readable run (``_WORD`` characters or more, three letters
among them), the longest runs first. The outline counts the lines and says the offsets they span.
``Extract.kind`` is the kind asked for. Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, first_lines, pack, split_lines
from context_mode.types import ContentKind

# An offset, then groups of 2 or 4 hex digits one or two spaces apart (``7f45 4c46``, ``7f 45 4c``).
_DUMP_LINE = re.compile(r"([0-9a-fA-F]{6,16}):? {1,3}(?:[0-9a-fA-F]{2}(?:[0-9a-fA-F]{2})? {1,2}){1,32}")
_REPEAT = re.compile(r"\*\s*\Z")  # ``hexdump -C`` and ``od``: the lines above repeat until the next offset
_READABLE = re.compile(r"[A-Za-z0-9_/:@-]{6,}")  # no ``.``: a dump's unprintable bytes
_LETTERS = re.compile(r"[A-Za-z]")  # a readable run holds some (``0000644`` is a number's digits)
_WORD = 6
_SAMPLE_LINES = 40
_HEAD_LINES = 8
_WIDTH = 200


def summarize_hexdump(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The dump's first and last lines and its readable strings, in ``budget`` bytes; None if
    ``text`` is no hex dump (see the module doc)."""
    head = first_lines(text, _SAMPLE_LINES)
    if len(head) < 4 or sum(_is_dump(line) for line in head) < 0.8 * len(head):
        return None
    lines = split_lines(text)
    filled = [index for index, line in enumerate(lines) if line.strip()]
    if not filled:
        return None
    wanted = term_matcher(terms)
    picks = [Pick(index, index + 1, 100.0 - rank) for rank, index in enumerate(filled[:_HEAD_LINES])]
    picks += [Pick(index, index + 1, 95.0 - rank) for rank, index in enumerate(reversed(filled[-2:]))]
    readable: list[tuple[int, int]] = []
    offsets: list[int] = []
    for index in filled:
        line = lines[index]
        match = _DUMP_LINE.match(line)
        if match is None:
            continue
        offsets.append(int(match.group(1), 16))
        if terms and wanted(line):
            picks.append(Pick(index, index + 1, 90.0))
        runs = [run for run in _READABLE.findall(line[match.end() :]) if len(_LETTERS.findall(run)) >= 3]
        longest = max(map(len, runs), default=0)
        if longest >= _WORD:
            readable.append((longest, index))
    readable.sort(key=lambda pair: (-pair[0], pair[1]))
    picks += [Pick(index, index + 1, 60.0 - 0.01 * rank) for rank, (_, index) in enumerate(readable)]
    span = f", offsets 0x{min(offsets):x}–0x{max(offsets):x}" if offsets else ""
    outline = f"hex dump: {len(filled)} lines{span}, {len(readable)} with readable text"
    body = pack(lines, picks, budget, width=_WIDTH)
    return Extract(text=body, kind=kind, outline=outline, highlights=min(len(readable), 20) + 1)


def _is_dump(line: str) -> bool:
    return _DUMP_LINE.match(line) is not None or _REPEAT.match(line) is not None
