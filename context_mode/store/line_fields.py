"""Every named number or date in a payload's lines, for the search's extreme values.

``named_values(lines)`` reads a line's fields three ways: ``key=value``, ``key: value`` and ``"key":
value`` pairs; the columns of a table under its header line (aligned by the header's character spans
for a whitespace table such as ``ps aux``, ``iostat -x`` or ``lsof``, or by the dash runs of the
rule under it, whose names may be of several words, as sqlite's ``-column``; by cell for a ``|``,
``│``, ``┆``, ``,`` or tab separated one, a row of types or units under the names skipped, the line
under a closing rule left out; a header over its rule right after a table's rows opens the next
table, as sqlite's ``-column`` prints results one after another; a separated row's cell holding a
pair of its own, ``import time:     95 |``, by the pair's key); the size of a listing's entry
(``ls -l``, ``du``, ``tree -s`` and ``-s -D`` but its root, ``find -printf '%s %p'``,
``list_directory_with_sizes``) and an access log's response bytes (after its status), named "size";
and a time as a test runner prints it (``(3225ms)``, ``3.21s call``, ``[0.17s] ... ok``) or with its
unit on its digits anywhere on a line (npm's ``GET 200 https://… 438ms``), named "duration", but
a run's totals' (``299 passing (32s)``, ``added 72 packages in 2s``).
A value may carry a size or time unit (``1.5M``, ``12 ms``, ``3,214``); a clock's duration
(``3:03:00``, ``4:05``) is read in seconds; a date (ISO 8601, git's, RFC 2822's) is read as its
digits, so dates order as numbers. Each ``Field`` names its line, its table's header line (or
None), the name, the value, whether it is a date and where on the line it is.
``split_cells`` and ``cell_places`` read a separated row's cells and where they are.

Linear in the lines; never raises on a ``str``. Pure.
"""

from __future__ import annotations

import bisect
import csv
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from context_mode.shapes import sized_entry
from context_mode.store.terms import month_number

_NUMBER = (
    r"(?<![\w.])(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
    r"(?:\s?(KiB|MiB|GiB|TiB|kB|KB|MB|GB|TB|[KMGTkmgt]|ms|us|µs|s|sec|min|h)\b|%)?"
    r"(?![\w.]*\d)(?!\.[^\W\d])(?![-:/]\d)"  # no version (4.18.2, 3.x), no date or time (2011-11-30)
)
_VALUE = re.compile(_NUMBER + r"(?![\w.])")
# A date or a timestamp: ISO 8601 (or with a space), git's ``Mon Dec 10 00:59:56 2018``, RFC 2822's
# ``Mon, 10 Dec 2018 00:59:56``; ordered by its digits.
_ISO_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?"
)
_MONTH = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_GIT_DATE = re.compile(r"(?:[A-Z][a-z]{2},? )?" + _MONTH + r" +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})")
_MAIL_DATE = re.compile(r"(?:[A-Z][a-z]{2}, )?(\d{1,2}) " + _MONTH + r" (\d{4}) (\d\d):(\d\d):(\d\d)")
# key=value, key: value, "key": value, 'key': value: found from the separator (a literal to scan
# for), the key read back from it (the key starts with a letter, % or _).
_SEPARATOR = re.compile(r"""['"]?\s?[=:]\s*['"]?(?=[-\d]|[A-Z][a-z]{2}[ ,])""")
_KEY_REVERSED = re.compile(r"[\w%\-/]*[A-Za-z_%]")  # a key read backwards: it starts with a letter, _ or %
_KEY_REACH = 64  # characters before a separator a key may start at
_NUMBER_AT = re.compile(_NUMBER)
# A duration or a time of day on a clock: ``3:03:00``, ``1:26:00.5``, ``12:34`` (minutes and seconds),
# read as seconds; then a quote, a space, a comma or the end (``app.py:12:34:`` is a place, no time).
_CLOCK = re.compile(r"(?<![\w.:])(\d{1,3}):([0-5]\d)(?::([0-5]\d(?:\.\d+)?))?(?=[\"'\s,;)]|\Z)")
_SCALE = {
    "k": 1e3, "kb": 1e3, "kib": 1024.0, "m": 1e6, "mb": 1e6, "mib": 1024.0**2,
    "g": 1e9, "gb": 1e9, "gib": 1024.0**3, "t": 1e12, "tb": 1e12, "tib": 1024.0**4,
    "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "s": 1.0, "sec": 1.0, "min": 60.0, "h": 3600.0,
}  # fmt: skip
_UNIT_BYTES = {"": 1.0, **{unit: 1024.0 ** (power + 1) for power, unit in enumerate("KMGTPE")}}
_RULE = re.compile(r"^[\s|+=:\-─━═┼┬┴├┤┌┐└┘│┆╞╪╡]*$")
WORD = re.compile(r"\S+")
_DIGIT = re.compile(r"\d")
# A table's cells: polars' dashed bar (inside its box's bars, so first), psql's and Markdown's,
# box-drawn, CSV, TSV.
SEPARATORS = ("┆", "|", "│", ",", "\t")
# A test's time: at the end of its line in brackets (mocha's ``(3225ms)``, Jest's ``(12 ms)``, go
# test's ``(0.01s)``), or opening it (``pytest --durations``' ``3.21s call     tests/…``), or
# before its status (stestr's and subunit's ``test_x [0.168996s] ... ok``).
_TIMED = re.compile(
    r"\((?P<a>\d+(?:\.\d+)?) ?(?P<au>ms|s)\)\s*\Z"
    r"|\A\s*(?P<b>\d+(?:\.\d+)?)(?P<bu>s) (?:call|setup|teardown)\b"
    r"|\[(?P<c>\d+(?:\.\d+)?)(?P<cu>s)\] \.\.\. \w"
    # a time anywhere, its unit on its digits (npm's ``GET 200 https://… 438ms (cache miss)``)
    r"|(?<![\w.])(?P<d>\d+(?:\.\d+)?)(?P<du>ms|s)(?![\w.])"
)
# A run's totals line, whose time is the run's, not a test's (``299 passing (32s)``, npm's ``added
# 72 packages in 2s``, yarn's ``Done in 0.52s``).
_TOTALS = re.compile(
    r"\b\d+ (?:passing|failing|pending|tests?|passed|failed)\b|\bin \d+(?:\.\d+)?\s?(?:ms|s)\.?\s*\Z"
)
# What a listing's entry with its size opens with: ``du``'s size and tab, ``[FILE]``, ``ls -l``'s mode,
# a number before a path (``find -printf '%s %p'``; a number before a bare name, as ``uniq -c``
# prints them, is as often a count and a row's name).
_SIZED_START = re.compile(
    r"\d+(?:[.,]\d+)?[KMGTPE]?\t|\[(?:FILE|DIR)\]|\s*(?:\d+\s+){0,2}[-dlcbpsD][rwx-]{3}|\s*\d+ +\S*[/.]"
    r"|\s*\d+ +\d{4}-\d\d-\d\d |\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [D.][R.]"  # rclone lsl, 7z l
)
# ``tree -s`` / ``tree -h``'s entry: ``│   ├── [     133123]  states.py``, ``└── [4.0K]  docs``.
# ``tree -s -D``'s entry has its date in the brackets too: ``├── [      46796 Oct 26 08:15]  Element.js``.
_TREE_SIZED = re.compile(
    r"[\s│├└─|`\-]*\[\s*(\d+(?:\.\d+)?)([KMGTPE]?)(?:\s+[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d\d:\d\d|\d{4}))?\]\s+\S"
)
# A linter's long line: ``line too long (151 > 80 characters)`` (flake8, yamllint), ``(105/100)`` (pylint).
_TOO_LONG = re.compile(r"\btoo long \((\d+) ?[>/] ?\d+", re.IGNORECASE)
# An access log's request line (Common / Combined Log Format): its status, then its response's bytes.
_ACCESS_SIZE = re.compile(r'"[A-Z]{3,7} \S+ HTTP/[\d.]+" \d{3} (\d+)(?!\S)')
# A whitespace table's header: three or more names (``USER PID %CPU``, ``rkB/s``, ``1K-blocks``).
_NAME = r"[%#]?(?:\d+[A-Za-z]|[A-Za-z_])[\w%/.:\-]*"
_HEADER_LINE = re.compile(rf"\s*{_NAME}(?:\s+{_NAME}){{2,}}\s*")
_DASHES = re.compile(r"-+")
MAX_LINE = 2000  # a line longer is data (records on one line), not a table's row: pairs only


@dataclass(frozen=True, slots=True)
class Field:
    """A named number or date on line ``line`` (under the header line ``header``), where it is."""

    line: int
    header: int | None
    name: str
    value: float
    dated: bool = False
    span: tuple[int, int] | None = None


def named_values(lines: Sequence[str]) -> Iterator[Field]:
    """Every named number or date in the lines: pairs on a line, table cells under their header,
    a listing's sizes and a test run's times."""
    header: _Header | None = None
    closed = False
    valued = False  # a row under the header held a value (a row of types or a rule above holds none)
    for index, line in enumerate(lines):
        if not line or line.isspace():
            header = None
            closed = False
            continue
        if len(line) > MAX_LINE:  # data on one line (records of JSON or of a repr): its pairs only
            header = None
            yield from _pairs(index, line)
            continue
        if _RULE.match(line):
            # A rule under a table's rows closes them: the line below sums them up (``unzip -l``'s
            # `` 20954702   622 files``), as a ``TOTAL`` row does.
            closed = header is not None and valued
            continue
        if closed:
            closed = False
            continue
        if header is not None and index > header.line + 2 and _underlined(lines, index):
            # A header line over its rule right after a table's last row opens the next table
            # (sqlite's ``-column`` results one after another, with no blank line between).
            header = _Header.of(lines, index) or header
            if header.line == index:
                valued = False
                continue
        if header is not None:
            cells = header.cells(line)
            if cells is not None:
                pairs: list[Field] | None = None  # the row's own pairs, read once when a cell needs them
                for name, cell, place in cells:
                    value = _number(cell)
                    if value is not None:
                        valued = True
                        yield Field(index, header.line, name, value, span=place)
                    elif (dated := _date(cell, whole=True)) is not None:
                        valued = True
                        yield Field(index, header.line, name, dated, True, place)
                    elif header.spans is None:
                        # a cell holding its own pair (``import time:   95 |``): named by its key
                        pairs = list(_pairs(index, line)) if pairs is None else pairs
                        for pair in pairs:
                            if (
                                pair.span is not None
                                and place[0] <= pair.span[0]
                                and pair.span[1] <= place[1]
                            ):
                                valued = True
                                yield pair
                continue
        header = _Header.of(lines, index)
        if header is not None:
            valued = False
            continue
        if _DIGIT.search(line):
            sized = sized_entry(line) if _SIZED_START.match(line) else None
            if sized is not None and sized[1] is not None:  # ``ls -l``, ``du``, ``[FILE] a.py  2 KB``
                yield Field(index, None, "size", sized[1])
            elif (drawn := _TREE_SIZED.match(line)) is not None and line[:1] != "[":
                # ``tree -s``'s entry; its root (``[    2633496]  /``, drawn at no depth) holds them all
                yield Field(index, None, "size", float(drawn.group(1)) * _UNIT_BYTES[drawn.group(2)])
            if (long := _TOO_LONG.search(line)) is not None:  # a linter's long line, its length
                yield Field(index, None, "length", float(long.group(1)), span=long.span(1))
            if (access := _ACCESS_SIZE.search(line)) is not None:  # an access log's response bytes
                yield Field(index, None, "size", float(access.group(1)), span=access.span(1))
            timed = _TIMED.search(line)
            if timed is not None and not _TOTALS.search(line):  # a test's time, as its runner prints it
                digits = timed.group("a") or timed.group("b") or timed.group("c") or timed.group("d")
                unit = timed.group("au") or timed.group("bu") or timed.group("cu") or timed.group("du")
                yield Field(index, None, "duration", float(digits) * _SCALE[unit], span=timed.span())
            yield from _pairs(index, line)


def _underlined(lines: Sequence[str], index: int) -> bool:
    """Whether the line after ``index`` is a rule (``-------  ----``, ``----+----``)."""
    below = lines[index + 1] if index + 1 < len(lines) else ""
    return bool(below.strip()) and _RULE.match(below) is not None


def _pairs(index: int, line: str) -> Iterator[Field]:
    """The line's ``key=value`` and ``key: value`` pairs whose value is a number or a date."""
    for separator in _SEPARATOR.finditer(line):
        key = _key_before(line, separator.start())
        if key is None:
            continue
        number = _NUMBER_AT.match(line, separator.end())
        clock = None if number is not None else _CLOCK.match(line, separator.end())
        if number is not None and (value := _scaled(number.group(1), number.group(2))) is not None:
            yield Field(index, None, key[0], value, span=(key[1], number.end()))
        elif clock is not None:
            yield Field(index, None, key[0], _seconds(clock), span=(key[1], clock.end()))
        elif (dated := _date(line[separator.end() : separator.end() + 40], whole=False)) is not None:
            yield Field(index, None, key[0], dated, True, (key[1], separator.end()))


def _key_before(line: str, end: int) -> tuple[str, int] | None:
    """The key that ends at ``end`` and where it starts, read backwards (a search forward would try
    every start): letters, digits, ``_%-/``, its first a letter, ``_`` or ``%``."""
    start = max(0, end - _KEY_REACH)
    found = _KEY_REVERSED.match(line[start:end][::-1])
    if found is None:
        return None
    begin = end - found.end()
    if begin > 0 and (line[begin - 1].isalnum() or line[begin - 1] in "_%"):
        return None  # longer than the reach: no key
    return line[begin:end], begin


class _Header:
    """A table's header line and how its rows' cells are read: by character span or separator."""

    def __init__(
        self, line: int, names: list[str], spans: list[tuple[int, int]] | None, separator: str
    ) -> None:
        self.line = line
        self.names = names
        self.spans = spans
        self.starts = [left for left, _ in spans] if spans else []
        self.separator = separator

    @classmethod
    def of(cls, lines: Sequence[str], index: int) -> _Header | None:
        """The table whose header is line ``index``: a line of names over rows holding numbers."""
        line = lines[index]
        separated = next((mark for mark in SEPARATORS if mark in line), None)
        ruled = _rule_spans(lines[index + 1]) if separated is None and index + 1 < len(lines) else None
        if separated is None and ruled is None and not _HEADER_LINE.fullmatch(line):
            return None
        names = split_cells(line, separated) if separated is not None else []
        if separated is not None and not _names_like(names):
            return None
        following = [row for row in lines[index + 1 : index + 5] if not _RULE.match(row)]
        if following and separated is not None and _names_like(split_cells(following[0], separated)):
            following = following[1:]  # a row of types or units under the names (DuckDB's ``varchar``)
        following = following[:3]
        if not following or not all(_DIGIT.search(row) for row in following):
            return None
        if separated is not None:
            if all(len(split_cells(row, separated)) == len(names) for row in following):
                header = cls(index, names, None, separated)
                if any(_number(cell) is not None for _, cell, _ in header.cells(following[0]) or ()):
                    return header
            return None
        spans = ruled
        if spans is not None:  # a rule of dash runs under the names gives the columns' widths
            names = [line[left:right].strip() for left, right in spans]
        else:
            spans = [token.span() for token in WORD.finditer(line)]
            names = [line[left:right] for left, right in spans]
        if not _names_like(names):
            return None
        header = cls(index, names, spans, " ")
        rows = [header.cells(row) for row in following]
        if all(
            cells is not None and any(_number(cell) is not None for _, cell, _ in cells) for cells in rows
        ):
            return header
        return None

    def cells(self, line: str) -> list[tuple[str, str, tuple[int, int]]] | None:
        """The row's cells by column name, with where each is on the line, or None when the line
        is not a row of this table."""
        if self.spans is None:
            parts = split_cells(line, self.separator)
            if len(parts) != len(self.names):
                return None
            return list(zip(self.names, parts, cell_places(line, parts), strict=True))
        tokens = list(WORD.finditer(line))
        if len(tokens) < len(self.names) // 2:
            return None
        columns: dict[int, list[re.Match[str]]] = {}
        for token in tokens:
            columns.setdefault(self._column(*token.span()), []).append(token)
        # A cell is one token under one column; a column of several words holds no number.
        return [
            (self.names[column], words[0].group(), words[0].span())
            for column, words in columns.items()
            if len(words) == 1
        ]

    def _column(self, start: int, end: int) -> int:
        """The column a token at ``start:end`` sits under: the most overlap, else the nearest."""
        assert self.spans is not None
        at = max(0, bisect.bisect_right(self.starts, start) - 1)
        best, best_key = at, (-1, 0)
        for column in range(max(0, at - 1), min(len(self.spans), at + 3)):
            left, right = self.spans[column]
            overlap = min(end, right) - max(start, left)
            distance = left - end if left >= end else start - right if start >= right else 0
            key = (overlap, -distance)
            if key > best_key:
                best, best_key = column, key
        return best


def _rule_spans(line: str) -> list[tuple[int, int]] | None:
    """The columns a rule of dash runs under a header marks (sqlite's ``-column``, ``sqlite-utils
    rows -t``): each run's span, or None when the line is no such rule. Names of several words
    (``Body Mass (g)``) are read whole under them."""
    if not line.lstrip().startswith("-"):
        return None
    runs = [run.span() for run in _DASHES.finditer(line)]
    if len(runs) < 2 or line.strip(" -"):
        return None
    return runs


def cell_places(line: str, cells: Sequence[str]) -> list[tuple[int, int]]:
    """Where each of a row's cells (in order, as ``split_cells`` reads them) is on the line."""
    places: list[tuple[int, int]] = []
    at = 0
    for cell in cells:
        start = line.find(cell, at) if cell else -1
        start = at if start < 0 else start
        at = start + len(cell)
        places.append((start, at))
    return places


def split_cells(line: str, separator: str) -> list[str]:
    """A separated row's cells, stripped: CSV read as CSV ([] when it cannot be), a leading and a
    trailing pipe opening and closing the row."""
    if separator == ",":
        try:
            return [cell.strip() for cell in next(csv.reader([line]))]
        except (csv.Error, StopIteration):
            return []
    cells = [cell.strip() for cell in line.split(separator)]
    if separator == "┆" and len(cells) > 1:  # polars' box: its bars outside the dashed ones
        cells[0], cells[-1] = cells[0].lstrip("│ "), cells[-1].rstrip("│ ")
    if separator in "|│":  # a leading and trailing pipe open and close the row
        cells = cells[1:] if cells and not cells[0] else cells
        cells = cells[:-1] if cells and not cells[-1] else cells
    return cells


def _names_like(names: Sequence[str]) -> bool:
    """Column names: none empty or a number, most starting with a letter, % or #."""
    if len(names) < 2 or any(not name or _number(name) is not None for name in names):
        return False
    return sum(name[0].isalpha() or name[0] in "%#_" for name in names) * 2 > len(names)


def _number(cell: str) -> float | None:
    """A cell's value: a number with its unit, or a clock's duration in seconds."""
    match = _VALUE.fullmatch(cell.strip())
    if match is None:
        clock = _CLOCK.fullmatch(cell.strip())
        return _seconds(clock) if clock is not None else None
    return _scaled(match.group(1), match.group(2))


def _seconds(clock: re.Match[str]) -> float:
    """A ``_CLOCK`` match in seconds: hours, minutes and seconds, or minutes and seconds."""
    first, second, third = clock.groups()
    if third is None:
        return int(first) * 60.0 + int(second)
    return int(first) * 3600.0 + int(second) * 60.0 + float(third)


def _date(text: str, *, whole: bool) -> float | None:
    """The date ``text`` is (``whole``) or starts with, as its digits (so dates order as numbers)."""
    text = text.strip()
    for pattern in (_ISO_DATE, _GIT_DATE, _MAIL_DATE):
        match = pattern.fullmatch(text) if whole else pattern.match(text)
        if match is None:
            continue
        parts = list(match.groups())
        if pattern is _GIT_DATE:  # month day h m s year
            parts = [parts[5], str(month_number(parts[0])), *parts[1:5]]
        elif pattern is _MAIL_DATE:  # day month year h m s
            parts = [parts[2], str(month_number(parts[1])), parts[0], *parts[3:]]
        return float("".join((part or "0").zfill(2) for part in parts))
    return None


def _scaled(digits: str, unit: str | None) -> float | None:
    try:
        value = float(digits.replace(",", ""))
    except ValueError:
        return None
    return value * _SCALE.get(unit.lower(), 1.0) if unit else value
