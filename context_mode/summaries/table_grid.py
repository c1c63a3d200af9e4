"""The cells of a text table: delimited (CSV, TSV, ``|`` and ``;`` separated) or column-aligned.

``parse_grid(lines, header, rows)`` finds the columns from the header line and a sample of rows:

- *delimited*: the header and at least 90% of the sampled rows hold the same number of one
  delimiter (tab, comma, ``|``, semicolon); a ``|``-table's outer pipes are no columns, a row's
  last pipe closing it only when the header ends in one (psql's rows end in ``|`` and an empty
  last cell's spaces);
- *aligned* (``pip list``, ``ps``, ``dpkg -l``, ``df``): a column starts after a lane that is
  blank in every sampled line (the header included), so right-aligned numbers and names with
  single spaces stay in one column; a lane past the header's end (spaces inside free text of the
  last column) opens no column of its own; a header name of words one space apart is one column
  when at most one of its words has cells under it (``Culmen Length (mm)`` over ``49.2``).
  A delimited table's lines are read to ``_DELIMITED_PREFIX`` characters, an aligned one's to
  ``_PREFIX``.

A ``Grid`` gives a line's cells (``cells``) and the verbatim part of a line that holds a run of
adjacent columns (``span``), so a table narrowed to its key columns is still a substring of the
payload. Only a bounded sample of lines is read to find the columns; each row is then one split
or a few slices.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

_DELIMITERS = ("\t", ",", "|", ";", "│", "║", "┃")
_PIPES = frozenset("|│║┃")  # a line's outer ones are no column marks (``| a | b |``, ``│ a │ b │``)
_SAMPLE = 400
_PREFIX = 400  # an aligned table's lines are read this far (its lanes are walked character by character)
_DELIMITED_PREFIX = 4000  # a delimited one's: a CSV of 100 fields (HAProxy's ``show stat``) runs past 400


@dataclass(frozen=True, slots=True)
class Grid:
    """The columns of a table: their names, and how a line is cut into cells."""

    names: tuple[str, ...]
    delimiter: str = ""  # "" for a column-aligned table
    starts: tuple[int, ...] = ()  # aligned tables: the first character of each column
    # a ``|``-table whose header ends in a pipe: its rows' last pipe closes them (``| a | b |``);
    # else (psql's ``a | b``) a row's blank last part is an empty cell (``… |   2 |     ``)
    closed: bool = True

    def cells(self, line: str) -> list[str]:
        """The line's cells, stripped, one per column (missing ones empty)."""
        if self.delimiter:
            delimiter = self._delimiter(line)
            parts = self._parts(line, delimiter)
            if '"' in line:
                parts = _quoted(line, delimiter, pipe=delimiter in _PIPES, closed=self.closed)
        else:
            bounds = [*self.starts, max(len(line), self.starts[-1])]
            parts = [line[bounds[i] : bounds[i + 1]] for i in range(len(self.starts))]
        cells = [part.strip() for part in parts[: len(self.names)]]
        return cells + [""] * (len(self.names) - len(cells))

    def span(self, line: str, first: int, last: int) -> str:
        """The part of ``line`` holding columns ``first`` to ``last`` (adjacent), as it is spelled:
        from the line's own start for the first column (psql's rows open with a space)."""
        if self.delimiter:
            delimiter = self._delimiter(line)
            parts = (
                self._parts(line, delimiter)
                if '"' not in line
                else _spelled_fields(line, delimiter, self.closed)
            )
            if len(parts) != len(self.names):
                return ""
            spelled = delimiter.join(parts[first : last + 1])
            if first == 0 and delimiter in _PIPES and line.lstrip().startswith(delimiter):
                spelled = delimiter + spelled  # from the line's own start: ``│ Xsux    │ 020``
            closing = self.closed and line.rstrip().endswith(delimiter)
            if last == len(parts) - 1 and delimiter in _PIPES and closing:
                spelled += delimiter  # to the line's own end: ``│ 35        │``
            return spelled.rstrip() if first == 0 else spelled.strip()
        end = self.starts[last + 1] if last + 1 < len(self.starts) else len(line)
        start = 0 if first == 0 else self.starts[first]
        return line[start:end].rstrip() if first == 0 else line[start:end].strip()

    def _delimiter(self, line: str) -> str:
        """The delimiter of ``line``: rich's heavy header (``┃ Name ┃``) over rows of ``│``."""
        if self.delimiter == "│" and "┃" in line and "│" not in line:
            return "┃"
        return self.delimiter

    def _parts(self, line: str, delimiter: str) -> list[str]:
        parts = line.split(delimiter)
        if delimiter in _PIPES:
            parts = _inner(parts, line, delimiter, closed=self.closed)
        return parts


def parse_grid(lines: Sequence[str], header: int, rows: Sequence[int]) -> Grid | None:
    """The grid of the table whose header is ``lines[header]`` and rows ``lines[i] for i in rows``;
    None when no two columns are found."""
    if header < 0 or len(rows) < 2:
        return None
    spread = _spread(rows)
    head = lines[header]
    if "┃" in head and not any("┃" in lines[i] for i in spread):
        head = head.replace("┃", "│")  # rich's heavy header over its light rows (``Grid._delimiter``)
    grid = _delimited(head[:_DELIMITED_PREFIX], [lines[i][:_DELIMITED_PREFIX] for i in spread]) or _aligned(
        head[:_PREFIX], [lines[i][:_PREFIX] for i in spread]
    )
    if grid is None or len(grid.names) < 2:
        return None
    return Grid(names=_unique(grid.names), delimiter=grid.delimiter, starts=grid.starts, closed=grid.closed)


def _unique(names: Sequence[str]) -> tuple[str, ...]:
    """Names fit to be keys: an empty one is ``column N``, a repeated one gets `` (2)``."""
    out: list[str] = []
    for order, name in enumerate(names, 1):
        candidate = name or f"column {order}"
        while candidate in out:
            candidate += f" ({order})"
        out.append(candidate)
    return tuple(out)


def _delimited(head: str, sample: Sequence[str]) -> Grid | None:
    for delimiter in _DELIMITERS:
        names = head.split(delimiter)
        closed = head.rstrip().endswith(delimiter)
        if delimiter in _PIPES:
            names = _inner(names, head, delimiter)
        if len(names) < 2:
            continue
        wanted = len(names)
        counts = Counter(_field_count(line, delimiter, closed) for line in sample)
        if counts[wanted] * 10 >= len(sample) * 9:
            return Grid(
                names=tuple(name.strip().strip('"') for name in names), delimiter=delimiter, closed=closed
            )
    return None


def _aligned(head: str, sample: Sequence[str]) -> Grid | None:
    width = max(len(line) for line in [head, *sample])
    in_rows = _used_lanes(sample, width)
    used = bytearray(a | b for a, b in zip(in_rows, _used_lanes([head], width), strict=True))
    starts = _whole_names(head, in_rows, [p for p in range(width) if used[p] and (p == 0 or not used[p - 1])])
    if len(starts) < 2:
        return None
    names: list[str] = []
    kept: list[int] = []
    for order, start in enumerate(starts):
        end = starts[order + 1] if order + 1 < len(starts) else len(head)
        name = head[start:end].strip()
        if name or not kept:
            names.append(name)
            kept.append(start)
    return Grid(names=tuple(names), starts=tuple(kept))


def _used_lanes(lines: Sequence[str], width: int) -> bytearray:
    """Per character position, 1 when some line has a character other than a space there."""
    used = bytearray(width + 1)
    for line in lines:
        for position, char in enumerate(line):
            if char != " ":
                used[position] = 1
    return used


def _whole_names(head: str, in_rows: bytearray, starts: list[int]) -> list[int]:
    """The column starts with a header name of several words one space apart made one column when
    at most one of its words has cells under it (``Culmen Length (mm)`` over ``49.2``, ``Body Mass
    (g)`` over right-aligned grams); words that each head their own cells (``ps``'s ``STAT START``,
    ``TIME COMMAND``) stay columns."""
    kept: list[int] = []
    group: list[int] = []  # the starts of one run of header words one space apart
    filled = 0  # how many of the group's words have cells under them
    for order, start in enumerate(starts):
        end = starts[order + 1] if order + 1 < len(starts) else len(in_rows)
        one_space = group and start >= 2 and head[start - 1 : start] == " " and head[start - 2] != " "
        if not one_space:
            kept.extend(group if filled > 1 else group[:1])
            group, filled = [], 0
        group.append(start)
        filled += any(in_rows[start:end])
    kept.extend(group if filled > 1 else group[:1])
    return kept


def _field_count(line: str, delimiter: str, closed: bool) -> int:
    pipe = delimiter in _PIPES
    if '"' in line:
        return len(_quoted(line, delimiter, pipe=pipe, closed=closed))
    parts = line.split(delimiter)
    return len(_inner(parts, line, delimiter, closed=closed)) if pipe else len(parts)


def _inner(parts: list[str], line: str, pipe: str = "|", *, closed: bool = True) -> list[str]:
    """A ``|``-table line's parts without the empty ones outside its outer pipes; with ``closed``
    false (the header ends in no pipe) a blank last part is an empty cell, no closing pipe's."""
    stripped = line.strip()
    start = 1 if stripped.startswith(pipe) else 0
    stop = len(parts) - 1 if closed and stripped.endswith(pipe) and len(parts) > 1 else len(parts)
    return parts[start:stop]


def _quoted(line: str, delimiter: str, *, pipe: bool, closed: bool = True) -> list[str]:
    try:
        parts = next(csv.reader([line], delimiter=delimiter))
    except (csv.Error, StopIteration):
        return line.split(delimiter)
    return _inner(parts, line, delimiter, closed=closed) if pipe else parts


def _spelled_fields(line: str, delimiter: str, closed: bool = True) -> list[str]:
    """The line cut at the delimiters outside double quotes, quotes kept (``a,"b,c"`` is ``a`` and
    ``"b,c"``): joined again they are the line as it is spelled."""
    parts: list[str] = []
    start, quoted = 0, False
    for position, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == delimiter and not quoted:
            parts.append(line[start:position])
            start = position + 1
    parts.append(line[start:])
    return _inner(parts, line, delimiter, closed=closed) if delimiter in _PIPES else parts


def _spread(rows: Sequence[int]) -> list[int]:
    """Up to ``_SAMPLE`` row indexes: the first ones and the last ones."""
    if len(rows) <= _SAMPLE:
        return list(rows)
    half = _SAMPLE // 2
    return [*rows[:half], *rows[-half:]]
