"""The columns of a row set: which ones a row shows (its key columns), and what each one holds.

``describe_columns(columns, records)`` is the key columns, in input order, and the lines that
describe the columns, as ``(rank, line)`` pairs (the lower the rank, the more the line tells).

- Key columns: identity-like ones first, by the head word of their name (number, id, code, name,
  title, user, state, version, then created/closed dates), then short ones, while a row stays
  within about ``KEY_WIDTH`` characters; links, nested JSON and columns of one value are left out.
- Descriptions: the column names first, then one line per column in column order (its kind,
  distinct count, range or most common values with how often each occurs). Columns whose values
  all differ and that the rows do not show share one line. A number's least and greatest values
  name their row by a key column when one row alone holds each and that column names every row
  alone: ``-3.0 (date 2013-01-27)``.

``extreme_rows(columns, records)`` is the rows that alone hold a numeric column's greatest or
least value (ids, names and dates aside) or an ISO date column's latest or earliest, which a row
set shows among its rows; ``odd_rows(columns, records)`` the first row of each rare value of a
column of few values (the day of 23 hours among days of 24, the cipher with no encryption, the
plane with three engines, the one package not under MIT): the odd ones out. Both map each row
to the column it is shown for, so the row can show that column's cell.

``clip(value)`` is a cell cut to ``_MAX_CELL`` characters (or ``width``), with ``…`` where it
was cut. Linear in the cells; never raises.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from context_mode.summaries.row_parsing import Record

# Column-name words that say a column identifies its row, by rank (lower shows first).
_IDENTITY = {
    **dict.fromkeys(
        ("number", "id", "key", "code", "iata", "symbol", "slug", "sku", "isbn", "pid", "oid", "uid"), 0
    ),
    **dict.fromkeys(("name", "title", "login", "label", "user", "author", "owner", "filename", "path"), 1),
    # what CLI tables name their rows by: ``ps``'s COMMAND, ``pip list``'s Package, ``docker ps``'s NAMES
    **dict.fromkeys(("command", "cmd", "package", "image", "container", "service", "names", "module"), 1),
    **dict.fromkeys(("state", "status", "version", "tag", "release", "conclusion"), 2),
    **dict.fromkeys(("created", "closed", "merged", "published", "released", "date", "time"), 3),
}
_WORD_SUFFIXES = frozenset(("at", "on", "utc", "iso", "8601"))
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_LINK = re.compile(r"(?:https?|ftp)://")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\Z")
KEY_WIDTH = 120
_MAX_CELL = 40
_EMPTY = ("", "None", "null", "NULL", "NA", "N/A")  # how a row set spells a missing value (R, pandas: NA)
EXTREME_ROWS = 10  # rows holding a column's greatest or least value that a table shows
ODD_ROWS = 10  # rows holding a rare value of a column of few values that a table shows
_RARE = 30  # a value held by at most one row in this many (one at least) is rare
_STATES = frozenset(("state", "status", "health", "conclusion"))  # columns whose unusual values are odd

_Value = TypeVar("_Value")
Labels = tuple[str, list[str]]  # a key column's name and its value in each row


def describe_columns(columns: list[str], records: list[Record]) -> tuple[list[str], list[tuple[float, str]]]:
    """The key columns, and after the rows every column's name (first kept), then what each holds."""
    keys = _key_columns(columns, records)
    return keys, [(-1.0, "columns: " + ", ".join(columns)), *_descriptions(columns, records, keys)]


def _descriptions(columns: list[str], records: list[Record], keys: list[str]) -> list[tuple[float, str]]:
    """One ``(rank, line)`` per column worth describing, in column order; the lower the rank, the
    more it tells. Columns whose every value differs and that the table does not show (not in
    ``keys``) say nothing more than their names: they share one line. A numeric column's least
    and greatest values name their row (by ``_label_column``) when one row alone holds each."""
    out: list[tuple[float, str]] = []
    unique: list[str] = []
    shown = set(keys)
    label = _label_column(keys, records)
    labels = (label, [r.get(label, "") for r in records]) if label is not None else None
    for position, column in enumerate(columns):
        values = [r.get(column, "") for r in records]
        named = label != column and _rank(column) not in (0, 1)  # ids and names go unnamed
        line, informative = _describe(column, values, labels if named else None)
        if not informative and column not in shown:
            unique.append(column)
            continue
        out.append((position / 100 + (0.0 if informative else 1.0), line))
    if unique:
        out.append((2.0, "- every value distinct: " + ", ".join(unique)))
    return out


def _label_column(keys: list[str], records: list[Record]) -> str | None:
    """The key column that names each row alone and best: a name, else an id, else a date, else
    the first one whose values all differ; None when none does."""
    order = {1: 0, 0: 1, 3: 2}  # identity ranks (``_IDENTITY``) by how well they name a row

    def preference(key: str) -> int:
        rank = _rank(key)
        return 3 if rank is None else order.get(rank, 3)

    unique = [key for key in keys if len({r.get(key, "") for r in records}) == len(records)]
    return min(unique, key=preference, default=None)


def _describe(column: str, values: list[str], labels: Labels | None = None) -> tuple[str, bool]:
    """The column's line, and whether it says more than "every value differs"; ``labels`` (a key
    column's name and values) name the row that alone holds the least or the greatest number."""
    distinct = Counter(values)
    for empty in _EMPTY:
        distinct.pop(empty, None)
    present = distinct.total()
    informative = True
    numbers: dict[str, float] = {}
    for value in distinct:
        number = _number(value)
        if number is None:
            break
        numbers[value] = number
    if present and len(numbers) == len(distinct):
        low = min(numbers, key=numbers.__getitem__)
        high = max(numbers, key=numbers.__getitem__)
        detail = f"number, {len(distinct)} distinct, {_at(low, distinct, values, labels)} … "
        detail += _at(high, distinct, values, labels)
    elif len(distinct) <= 8:
        few = distinct.most_common(8)
        counted = len(distinct) > 1 and few[0][1] > 1  # how often each: "sun ×180, rain ×120"
        detail = f"{len(distinct)} distinct: " + ", ".join(
            clip(v) + (f" ×{n}" if counted else "") for v, n in few
        )
    else:
        common = [f"{clip(v)} ×{n}" for v, n in distinct.most_common(3) if n > 1]
        detail = f"text, {len(distinct)} distinct" + (", most common " + ", ".join(common) if common else "")
        informative = bool(common)
    missing = len(values) - present
    return f"- {column}: {detail}" + (f"; {missing} empty" if missing else ""), informative or bool(missing)


def _at(value: str, distinct: Counter[str], values: list[str], labels: Labels | None) -> str:
    """``value``, and the row that alone holds it by its label (``-3.0 (date 2013-01-27)``)."""
    if labels is None or distinct[value] != 1 or len(distinct) < 3:
        return value
    column, names = labels
    name = names[values.index(value)]
    return f"{value} ({column} {clip(name)})" if name and name != value else value


def extreme_rows(columns: list[str], records: list[Record], *, limit: int = EXTREME_ROWS) -> dict[int, str]:
    """The rows that alone hold a numeric column's greatest value (then its least), by column
    order, at most ``limit``, each with that column (its first such): a city's most sales, the
    most expensive group, what "which … the most" asks; an ISO date column's latest and earliest
    likewise ("the most recent", "the oldest"). Ids, names and other dates are no measure, nor a
    first column of distinct integers (it numbers the rows), nor a column of fewer than three
    distinct values."""
    greatest: list[tuple[int, str]] = []
    least: list[tuple[int, str]] = []
    for column in columns:
        measure: dict[int, float] | dict[int, str] = _dates(column, records) or _measure(
            column, columns, records
        )
        for extreme, found in ((max, greatest), (min, least)):
            row = extreme(measure, key=measure.__getitem__, default=None)  # by row: a NaN equals nothing
            if row is not None and list(measure.values()).count(measure[row]) == 1:
                found.append((row, column))
    return _first_columns([*greatest, *least], limit)


def odd_rows(columns: list[str], records: list[Record], *, limit: int = ODD_ROWS) -> dict[int, str]:
    """The first row of each rare value (one row in ``_RARE`` or fewer) of a column of few values
    (no more than the square root of the row count: its values repeat), by column order, at most
    ``limit``: the odd one out an agent scans a table for (a day of 23 hours among days of 24, a
    socket in TIME-WAIT among ESTAB ones, a package marked ``rc`` among ``ii``). A state column
    (``_STATES``) comes first, and each of its values but the most common one is rare: the
    servers DOWN or in MAINT among UP ones, however many. Each row comes with that column."""
    found: list[tuple[int, str]] = []
    rare_count = max(1, len(records) // _RARE)
    # A state column's first: every state but the usual one is what it is read for (DOWN, MAINT among UP).
    for column in sorted(columns, key=lambda column: column.lower() not in _STATES):
        values = Counter(record.get(column, "") for record in records)
        if not 2 <= len(values) <= math.isqrt(len(records)):
            continue
        if column.lower() in _STATES:
            rare = set(values) - {values.most_common(1)[0][0]}
        else:
            rare = {value for value, count in values.items() if count <= rare_count}
        for row, record in enumerate(records):
            if record.get(column, "") in rare:
                rare.discard(record.get(column, ""))  # its first row only
                found.append((row, column))
    return _first_columns(found, limit)


def _first_columns(found: list[tuple[int, str]], limit: int) -> dict[int, str]:
    """The first ``limit`` distinct rows of ``found``, each with the first column it came with."""
    rows: dict[int, str] = {}
    for row, column in found:
        if row not in rows and len(rows) < limit:
            rows[row] = column
    return rows


def _measure(column: str, columns: list[str], records: list[Record]) -> dict[int, float]:
    """The column's numbers by row when they measure something (``extreme_rows``), else none."""
    numbers = _numbers(column, records)
    values = list(numbers.values()) if numbers is not None else []
    if numbers is None or _rank(column) is not None or len(set(values)) < 3:
        return {}
    if column == columns[0] and len(set(values)) == len(values) and all(map(float.is_integer, values)):
        return {}
    return numbers


def _dates(column: str, records: list[Record]) -> dict[int, str]:
    """The column's ISO dates by row (``1992-04-30``, ``2013-01-27T10:00:00Z``), empty cells left
    out; empty unless every other cell is one and there are three distinct."""
    dates = _filled(column, records, lambda value: value if _ISO_DATE.match(value) else None)
    return dates if dates is not None and len(set(dates.values())) >= 3 else {}


def _numbers(column: str, records: list[Record]) -> dict[int, float] | None:
    """The column's values as numbers by row, empty cells (SQL's NULLs) left out; None when a
    value is not a number."""
    return _filled(column, records, _number)


def _filled(
    column: str, records: list[Record], read: Callable[[str], _Value | None]
) -> dict[int, _Value] | None:
    """The column's non-empty cells by row as ``read`` reads them; None when ``read`` reads one as
    None."""
    found: dict[int, _Value] = {}
    for row, record in enumerate(records):
        value = record.get(column, "")
        if value in _EMPTY:
            continue
        cell = read(value)
        if cell is None:
            return None
        found[row] = cell
    return found


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _key_columns(columns: list[str], records: list[Record]) -> list[str]:
    """Identity-like columns first (ids, names, states, dates), then short ones, while a row stays
    within about ``KEY_WIDTH`` chars. Links, nested JSON and columns of one value are left out."""
    sample = records[:200]

    def width(column: str) -> float:
        lengths = [len(r.get(column, "")) for r in sample]
        return sum(lengths) / max(len(lengths), 1)

    def telling(column: str) -> bool:
        values = [r.get(column, "") for r in sample]
        # One value in every record (not only the first ones: a sorted result's first 200 rows
        # may all be 'CA') says nothing per row.
        if len(records) > 2 and len({r.get(column, "") for r in records}) <= 1:
            return False
        odd = sum(1 for v in values if _LINK.match(v) or nested(v))
        return odd * 2 <= len(values)

    ranks = {column: _rank(column) for column in columns}
    # Beside a number (an issue's, a pull request's), an id is internal.
    internal = {"id"} if "number" in ranks and "id" in ranks else set()
    candidates = [c for c in columns if telling(c) and c not in internal] or columns
    identity = sorted((c for c in candidates if ranks[c] is not None), key=lambda c: ranks[c] or 0)

    def sparse(column: str) -> bool:  # empty in most rows (a field few records have): narrow, not telling
        return sum(1 for r in sample if not r.get(column, "")) * 2 > len(sample)

    rest = sorted((c for c in candidates if ranks[c] is None and not sparse(c)), key=width)
    chosen: list[str] = []
    used = 0.0
    for column in [*identity, *rest]:
        cost = min(width(column), _MAX_CELL) + 3
        if chosen and used + cost > KEY_WIDTH:
            continue
        chosen.append(column)
        used += cost
    return [c for c in columns if c in chosen]


def nested(value: str) -> bool:
    """A cell holding JSON (an object, a list of values), not text in brackets (``[kthreadd]``)."""
    return value[:1] == "{" or (value[:1] == "[" and (value == "[]" or '"' in value or "," in value))


def _rank(column: str) -> int | None:
    """The identity rank of the column name's head word, its last (``created_at``: created,
    ``iataCode``: code, ``author_association``: none), or None."""
    words = [word.lower() for word in _WORD.findall(column)]
    while len(words) > 1 and words[-1] in _WORD_SUFFIXES:
        words.pop()
    return _IDENTITY.get(words[-1]) if words else None


_ENDS_MIN = 16  # a narrower cell keeps its start alone


def clip(value: str, width: int = _MAX_CELL) -> str:
    """``value`` itself if at most ``width`` chars; else a path, URL or name (no spaces) as its
    start and its end with ``…`` between (``/repos/octokit-fixture-org/rel…/tags/v1.0.0``: the
    values of a column share their start, their ends tell them apart), other text as its start."""
    if len(value) <= width:
        return value
    if " " not in value and width >= _ENDS_MIN:
        tail = width // 2
        return value[: width - tail - 1] + "…" + value[len(value) - tail :]
    return value[: width - 1] + "…"
