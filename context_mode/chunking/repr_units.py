"""Units of a Python-repr list of rows, as SQLite and DuckDB MCP servers print a result on one line.

``repr_units(text)`` cuts ``[('AUS', 1970, …), ('BRA', …)]``, ``[{'iata': 'AUS', …}, …]`` or a
list of keyword records (asyncpg's ``[<Record iata='AUS' …>, …]``, ``[Row(iata='AUS', …), …]``)
between its elements: each tuple or dict is a unit named by its index and its first string
value (``("[3] allow_unsigned_extensions",)``), the brackets and separators between them are
syntax units. Quotes (``'…'``, ``"…"``, with backslash escapes) are skipped, so a bracket inside
a string cuts nothing. Returns None for text that is no such list (fewer than two elements, or
brackets that do not balance). One pass over the text.
"""

from __future__ import annotations

import re

from context_mode.chunking.lines import MAX_TITLE_CHARS, Unit
from context_mode.shapes import KEYWORD_ROWS

_OPENERS = {"(": ")", "{": "}"}
_FIRST_STRING = re.compile(
    r"""(?:[({]|<?[A-Za-z_][\w.]{0,60}[ (])\s*"""
    r"""(?:(?:'[^'\n]{0,80}'|"[^"\n]{0,80}")\s*:\s*|[A-Za-z_]\w{0,60}=)?"""
    r"""(?:'((?:[^'\\\n]|\\.){1,80})'|"((?:[^"\\\n]|\\.){1,80})")"""
)
MIN_ROWS = 2


def repr_units(text: str) -> list[Unit] | None:
    """The units of a repr list of rows (see module doc), or None."""
    stripped = text.lstrip()
    if stripped[:2] not in ("[(", "[{") and not KEYWORD_ROWS.match(stripped):
        return None
    spans = _elements(text, len(text) - len(stripped))
    if spans is None or len(spans) < MIN_ROWS:
        return None
    units: list[Unit] = []
    previous = 0
    for index, (start, end) in enumerate(spans):
        if start > previous:
            units.append((previous, start, (), True))
        units.append((start, end, (_title(text, start, index),), False))
        previous = end
    if previous < len(text):
        units.append((previous, len(text), (), True))
    return units


def _elements(text: str, at: int) -> list[tuple[int, int]] | None:
    """The spans of the outer list's elements, the list opening at ``at``; None if unbalanced."""
    spans: list[tuple[int, int]] = []
    closers: list[str] = []
    start = -1
    position = at + 1
    length = len(text)
    while position < length:
        char = text[position]
        if char in ("'", '"'):
            position = _string_end(text, position)
            if position < 0:
                return None
            continue
        if char in _OPENERS or char == "[" or (char == "<" and not closers):
            if not closers:  # a keyword record opens at its name: ``Row(``, ``<Record ``
                start = position
                while start > at + 1 and (text[start - 1].isalnum() or text[start - 1] in "_."):
                    start -= 1
            closers.append(_OPENERS.get(char, ">" if char == "<" else "]"))
        elif char == ">" and closers and closers[-1] == ">":
            closers.pop()
            if not closers:
                spans.append((start, position + 1))
        elif char in ")}]":
            if not closers:
                return spans if char == "]" else None  # the outer list's end
            if closers.pop() != char:
                return None
            if not closers:
                spans.append((start, position + 1))
        position += 1
    return None


def _string_end(text: str, position: int) -> int:
    """The index after the string literal opening at ``position`` (-1 when it never closes)."""
    quote = text[position]
    position += 1
    while True:
        found = text.find(quote, position)
        if found < 0:
            return -1
        backslashes = 0
        while text[found - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return found + 1
        position = found + 1


def _title(text: str, start: int, index: int) -> str:
    found = _FIRST_STRING.match(text, start, min(len(text), start + 400))
    name = (found.group(1) or found.group(2)) if found else ""
    return f"[{index}] {name}"[:MAX_TITLE_CHARS] if name else f"[{index}]"
