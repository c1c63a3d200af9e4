"""Row sets (query results): the columns, their ranges, and as many rows of the key columns as fit.

The payload is read by ``row_parsing`` (a JSON array of flat records, a Python-repr list of
dicts, ``N. row`` blocks); ``columns`` chooses the key columns and describes every column. JSON
records that hold most of the payload in nested values (a dependency tree, API exchanges with
their responses) are documents: they get the JSON skeleton (``json_summary``), not a table.

The summary is a ``N rows × M columns`` line, then the rows' key columns in input order, as
many as fit, the last row too: as a small ``|``-separated table when most rows fit so, else (a
sample either way) each row as its members spelled as in the payload (``{"tz":
"Asia/Urumqi", "zones_in_country": "2"}``, ``{'iata': 'AUS', …}``, ``first_code: 1F600;
last_code: 1F64F``), so what an agent copies out of a row is in the payload as it reads it.
After them come the column names and one line per column (``columns.describe_columns``), and the
payload's own totals line, kept whatever is cut. Every cell is the value as it appears in the
payload, so a value read off the summary is found verbatim in the payload. Rows holding the
call's terms (or the intent's words) go first, the best few also whole, as the payload spells
them (a block's lines joined by spaces), and then not again in the table; then the first row (a
sorted result's top), then the rows that alone hold a numeric column's greatest or least value
(``columns.extreme_rows``: "which city sold the most"), in their place in the table, each
reaching the column it is shown for where the layout can (a wide text table's row spans past its
usual width to that cell). ``summarize_records``
is the same summary for records parsed elsewhere (``table`` cuts text tables into them and shows
rows by their spans). Rows count as salient content, for the budget, each when they all fit
``FIT_ALL`` bytes; else the budget grows with the columns the ranges describe, or with one row in
``_ROWS_PER_HIGHLIGHT`` when that is more (a long table shows more of its rows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from context_mode.shapes import KV_LINE, KV_PREFIX
from context_mode.summaries.columns import KEY_WIDTH, clip, describe_columns, extreme_rows, nested, odd_rows
from context_mode.summaries.extract import Extract
from context_mode.summaries.json_summary import summarize_json
from context_mode.summaries.packing import size
from context_mode.summaries.reading import LastReading
from context_mode.summaries.row_parsing import (
    Documents,
    Record,
    Rows,
    Speller,
    key_value_lines,
    raw_record,
    read_rows,
    record_brackets,
    totals_line,
)
from context_mode.types import ContentKind

_DESCRIBE_SHARE = 0.15  # the columns' lines may take this much from the rows
MAX_MATCHED = 6
MEMBER_OVERHEAD = 8  # a member's quotes and separator around its key and value (``'key': '…'``)
_ROW_MISSES = 3  # rows in a row that do not fit before the table stops
MOST = 0.5  # the share of rows that, fitting as a table, makes the table worth its re-spelling
_NARROW = 8  # a column between two key columns this narrow on average is shown with them
_LINE_WIDTH = 160  # a row shown as its line: its first fields
_LAST_CELL = 100  # a row's last key cell: nothing after it to make room for (a message, a title)
_ROWS_PER_HIGHLIGHT = 20  # rows that count as one salient item when not all of them fit
FIT_ALL = 6000  # the default ``summary_budget_max``: rows that fit it all are worth the room


def summarize_rows(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Key columns of as many rows as fit in ``budget`` bytes, then the columns and counts."""
    found = _RECORDS.get(text, (), lambda: read_rows(text))
    if isinstance(found, Documents):
        return summarize_json(text, budget=budget, terms=terms)
    if not found or not found[0]:
        from context_mode.summaries.table import summarize_table

        return summarize_table(text, budget=budget, terms=terms)
    records, speller = found
    columns = list(dict.fromkeys(key for record in records[:200] for key in record))
    if KV_LINE.match(text.lstrip().split("\n", 1)[0][:KV_PREFIX]):
        # Lines of ``key=value`` fields: each row is its line (the start of it), as sent.
        lines = key_value_lines(text)
        return summarize_records(
            records,
            columns,
            budget=budget,
            terms=terms,
            total_line="",
            raw=lambda index: lines[index],
            layout=_Lines(lines),
        )
    brackets = record_brackets(text)
    return summarize_records(
        records,
        columns,
        budget=budget,
        terms=terms,
        total_line=totals_line(text),
        raw=lambda index: raw_record(text, records[index], brackets or ("{", "}")),
        sample=_Members(records, speller, brackets, _separator(text, records, speller, columns), columns),
    )


def _separator(text: str, records: list[Record], speller: Speller, columns: Sequence[str]) -> str:
    """What the payload writes between a record's members: ``", "`` as JSON and reprs print them
    by default, ``","`` for compact JSON (``json_agg``, ``json.dumps(rows, separators=…)``), ``" "``
    in asyncpg's ``<Record …>``, so a row of all its columns is the payload's own record."""
    if not records or len(columns) < 2 or columns[0] not in records[0] or columns[1] not in records[0]:
        return ", "
    first, second = speller(0, columns[0]), speller(0, columns[1])
    at = text.find(first)
    if at < 0:
        return ", "
    end = at + len(first)
    between = text[end : end + 3]
    for separator in (", ", ",", " "):
        if between.startswith(separator) and text.startswith(second, end + len(separator)):
            return separator
    return ", "


class Layout(Protocol):
    """How a row set shows its rows: the header of the key columns and one row of them."""

    def header(self, keys: Sequence[str]) -> str: ...

    def row(self, index: int, keys: Sequence[str], reach: str = "") -> str:
        """Row ``index`` by its ``keys`` columns; ``reach`` is a column the row is shown for (it
        holds that column's greatest value, or a rare one): a layout that can shows it too."""
        ...


class _Cells:
    """Rows as their key cells, as the payload spells them, joined by `` | ``."""

    def __init__(self, records: list[Record]) -> None:
        self.records = records

    def header(self, keys: Sequence[str]) -> str:
        return " | ".join(keys)

    def row(self, index: int, keys: Sequence[str], reach: str = "") -> str:
        return _row(self.records[index], keys)


class _Lines:
    """Rows as the start of their own lines (a line of ``key=value`` fields names its columns)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def header(self, keys: Sequence[str]) -> str:
        return ""

    def row(self, index: int, keys: Sequence[str], reach: str = "") -> str:
        return clip(self.lines[index], _LINE_WIDTH)


class _Members:
    """Rows as their key columns' members, as the payload spells them (``"tz": "Asia/Urumqi"``,
    ``'iata': 'AUS'``, ``first_code: 1F600``): what an agent copies out is then in the payload
    as it reads it, key and all, at the price of the keys repeated on every row."""

    def __init__(
        self,
        records: list[Record],
        speller: Speller,
        brackets: tuple[str, str] | None,
        separator: str = ", ",
        columns: Sequence[str] = (),
    ) -> None:
        self.records = records
        self.speller = speller
        # what opens and closes a record as the payload writes it: "{" and "}" for a JSON or repr
        # object, "(" and ")" for a repr tuple, "<Record " and ">" for asyncpg's, "" for none
        self.brackets = brackets
        self.separator = separator  # between members, as the payload writes it
        self.columns = columns
        self.filled: dict[tuple[str, ...], list[str]] = {}

    def header(self, keys: Sequence[str]) -> str:
        return ""

    def row(self, index: int, keys: Sequence[str], reach: str = "") -> str:
        record = self.records[index]
        members = [
            _clip_member(self.speller(index, key), key)
            for key in self._reaching(keys, reach, record)
            if key in record
        ]
        if not self.brackets:
            return "; ".join(members)
        return self.brackets[0] + self.separator.join(members) + self.brackets[1]

    def _reaching(self, keys: Sequence[str], reach: str, record: Record) -> list[str]:
        """The members ``record`` shows: ``_filled(keys)``, and ``reach`` in its place among them
        unless nested (spelled on one line, it is not as the payload has it)."""
        filled = self._filled(keys)
        if not reach or reach in filled or reach not in self.columns or nested(record.get(reach, "")):
            return filled
        return sorted([*filled, reach], key=self.columns.index)

    def _filled(self, keys: Sequence[str]) -> list[str]:
        """The key columns with the narrow columns between them (a flag, a one-value charset), and
        those before the first and after the last when all of them are narrow (a ``None`` at a
        tuple's end): a row is then a run of its record as the payload spells it, its brackets its
        record's own, at the price of a few bytes."""
        wanted = tuple(keys)
        if wanted not in self.filled:
            positions = [self.columns.index(key) for key in keys if key in self.columns]
            filled = list(keys)
            if positions and self.brackets:  # a block's lines joined are no run of the payload
                first, last = min(positions), max(positions)
                # narrow columns before the first key column and after the last, when all are
                # narrow: the row then opens and closes where its record does (``(…, 0, None)``)
                if all(_narrow(c, self.records) for c in self.columns[:first]):
                    first = 0
                if all(_narrow(c, self.records) for c in self.columns[last + 1 :]):
                    last = len(self.columns) - 1
                between = self.columns[first : last + 1]
                filled = [c for c in between if c in wanted or _narrow(c, self.records)]
                filled += [key for key in keys if key not in filled]
            self.filled[wanted] = filled
        return self.filled[wanted]


def _narrow(column: str, records: list[Record]) -> bool:
    """Whether the column's cells are short in most rows (``_NARROW`` characters on average)."""
    sample = records[:200]
    return sum(len(record.get(column, "")) for record in sample) <= _NARROW * len(sample)


def _clip_member(member: str, key: str) -> str:
    """A member whose value is longer than a whole row's key columns should be, cut with ``…``
    (``'types': 'audio/ogg vi…``): one long text column would leave room for no other row."""
    return clip(member, len(key) + MEMBER_OVERHEAD + KEY_WIDTH)


def summarize_records(
    records: list[Record],
    columns: list[str],
    *,
    budget: int,
    terms: Sequence[str],
    total_line: str,
    raw: Callable[[int], str],
    title: Sequence[str] = (),
    layout: Layout | None = None,
    sample: Layout | None = None,
    kind: ContentKind = ContentKind.ROWS,
    noun: str = "records",
    count: int = 0,
) -> Extract:
    """The row-set summary of parsed ``records`` (see the module docstring); ``raw(i)`` is record
    ``i`` as the payload spells it ("" when not found), ``layout`` shows the key columns;
    ``count`` is the row count when ``records`` holds only the first rows and the last one;
    ``title`` lines (what a text table says above its header) follow the row count;
    ``sample`` shows the rows instead when fewer than ``MOST`` of them fit as ``layout`` shows them."""
    shown = as_table = layout or _Cells(records)
    total = max(count, len(records))
    count = len(records)
    head = [f"{total} rows × {len(columns)} columns"]
    if total > count:
        head[0] += f" (columns described from the first {count - 1} rows and the last)"
    head.extend(title)
    keys, descriptions, extremes = _READINGS.get(
        records,
        columns,
        lambda: (
            *describe_columns(columns, records),
            _reasons(columns, records),
        ),
    )
    tail = [total_line] if total_line else []
    fixed = sum(size(line) + 1 for line in [*head, *tail])  # before the layout's header
    described = sum(size(line) + 1 for _, line in descriptions)
    rows_budget = budget - min(described, int(budget * _DESCRIBE_SHARE))
    header = shown.header(keys)
    rows_room = rows_budget - fixed - (size(header) + 1 if header else 0)
    if sample is not None and not _most_fit(count, lambda index: shown.row(index, keys), rows_room):
        shown, header = sample, sample.header(keys)

    def row(index: int) -> str:  # a row shown for a column's extreme or rare value shows that column
        return shown.row(index, keys, extremes.get(index, ""))

    used = fixed + (size(header) + 1 if header else 0)
    matched = _matching(records, terms)
    shown_raw: list[str] = []
    whole_rows: set[int] = set()  # matching rows shown whole above the table: not repeated in it
    for index in matched[:MAX_MATCHED]:
        whole = raw(index)
        if whole == row(index):
            continue  # the table shows it as sent, in its place
        if whole and used + size(whole) + 1 <= rows_budget // 2:
            shown_raw.append(whole)
            whole_rows.add(index)
            used += size(whole) + 1
    # Then the first row (the top of a sorted result), and the rows that alone hold a column's
    # greatest or least value ("which city sold the most").
    chosen, used = _choose_rows(count, row, [*matched, 0, *extremes], used, rows_budget, whole_rows)
    table = [header] if header else []
    previous = -1
    for index in chosen:
        # Past the records kept (the first ones and the last), the rows not parsed are skipped too.
        skipped = index - previous - 1 + (total - count if index == count - 1 else 0)
        if skipped > 0:
            table.append(_skipped(skipped))
        table.append(row(index))
        previous = index
    if previous < count - 1:
        table.append(_skipped(total - 1 - previous))
    used = sum(size(line) + 1 for line in [*head, *shown_raw, *table, *tail])
    kept: set[int] = set()
    for order, (_, line) in sorted(enumerate(descriptions), key=lambda pair: pair[1][0]):
        if used + size(line) + 1 <= budget:
            kept.add(order)
            used += size(line) + 1
    lines = [
        *head,
        *shown_raw,
        *table,
        *(line for order, (_, line) in enumerate(descriptions) if order in kept),
    ]
    # The payload's own totals line is kept whatever is cut before it.
    tail_cost = sum(size(line) + 1 for line in tail)
    body = "\n".join([_fit("\n".join(lines), budget - tail_cost), *tail]) if tail_cost <= budget else ""
    body = _fit(body, budget)
    # Rows are salient content each when all of them fit the largest budget (as the table shows
    # them: a larger budget may then show them all that way); else the budget grows with the
    # columns, which the ranges describe, or with one row in ``_ROWS_PER_HIGHLIGHT`` when that is
    # more: a table of 562 rows and two columns showed 7 rows in the minimum budget.
    every_row = (
        sum(_width(as_table, records, i, keys) + 1 for i in range(count)) if total == count else FIT_ALL + 1
    )
    grown = max(len(columns), total // _ROWS_PER_HIGHLIGHT)
    highlights = total if every_row <= FIT_ALL else min(total, grown)
    outline = f"{kind.value}: {total} {noun} × {len(columns)} columns ({', '.join(columns[:8])})"
    return Extract(text=body, kind=kind, outline=outline, highlights=highlights)


_RECORDS: LastReading[Rows | Documents | None] = LastReading()
# The router summarises a payload more than once: the key columns, the columns' descriptions and
# the rows holding their extremes are kept for the same records (the table and row-set readings
# are kept too, so they are).
_READINGS: LastReading[tuple[list[str], list[tuple[float, str]], dict[int, str]]] = LastReading()


def _reasons(columns: list[str], records: list[Record]) -> dict[int, str]:
    """The rows shown for what they hold, each with its column: a column's extreme value first,
    then a rare value of a column of few values."""
    reasons = extreme_rows(columns, records)
    for index, column in odd_rows(columns, records).items():
        reasons.setdefault(index, column)
    return reasons


def _most_fit(count: int, row: Callable[[int], str], room: int) -> bool:
    """Whether at least ``MOST`` of ``count`` rows fit ``room`` bytes (stops once that is known)."""
    needed = max(1, int(count * MOST))
    for index in range(count):
        room -= size(row(index)) + 1
        if room < 0:
            return False
        if index + 1 >= needed:
            return True
    return True


def _choose_rows(
    count: int, row: Callable[[int], str], matched: list[int], used: int, budget: int, shown: set[int]
) -> tuple[list[int], int]:
    """Rows that fit (matching ones first, then in input order, the last one too), sorted;
    the ``shown`` rows are left out."""
    matched_set = set(matched)
    ranked = dict.fromkeys([*matched, *(i for i in range(count) if i not in matched_set)])  # once each
    order = [i for i in ranked if i not in shown]
    chosen: list[int] = []
    last = count - 1
    reserve = size(row(last)) + 1 + 16 if last not in shown else 0
    misses = 0
    for index in order:
        cost = size(row(index)) + 1
        if used + cost + (reserve if index != last and last not in chosen else 0) > budget:
            misses += 1
            if misses > _ROW_MISSES:
                break
            continue  # a row longer than the others: the next ones may fit
        chosen.append(index)
        used += cost
    if last not in chosen and last not in shown and used + reserve <= budget:
        chosen.append(last)
    return sorted(chosen), used


def _skipped(count: int) -> str:
    """The marker of ``count`` rows left out."""
    return f"… {count} row{'' if count == 1 else 's'} …"


def _width(layout: Layout, records: list[Record], index: int, keys: Sequence[str]) -> int:
    """The bytes of row ``index`` as ``layout`` shows it, its cells all as narrow as a table's
    (the last one shown wider holds no more of the row set)."""
    if isinstance(layout, _Cells):
        return size(_row(records[index], keys, wide_last=False))
    return size(layout.row(index, keys))


def _row(record: Record, keys: Sequence[str], *, wide_last: bool = True) -> str:
    """The row's key cells joined by `` | ``, each clipped; the last one to ``_LAST_CELL``
    (``wide_last``): nothing after it needs the room (a message, a title)."""
    if not keys or not wide_last:
        return " | ".join(clip(record.get(key, "")) for key in keys)
    return " | ".join(
        [*(clip(record.get(key, "")) for key in keys[:-1]), clip(record.get(keys[-1], ""), _LAST_CELL)]
    )


def _fit(text: str, budget: int) -> str:
    if size(text) <= budget:
        return text
    out: list[str] = []
    used = 0
    for line in text.split("\n"):
        cost = size(line) + 1
        if used + cost > budget:
            break
        out.append(line)
        used += cost
    return "\n".join(out)


def _matching(records: list[Record], terms: Sequence[str]) -> list[int]:
    """Rows holding the most distinct terms, best first; terms found in most rows do not count."""
    lowered = [t.lower() for t in terms if len(t) >= 2]
    if not lowered:
        return []
    texts = [" ".join(record.values()).lower() for record in records]
    common = {t for t in lowered if sum(t in row for row in texts) * 2 > len(texts)}
    useful = [t for t in lowered if t not in common]
    scored = [(sum(t in row for t in useful), i) for i, row in enumerate(texts)]
    best = sorted(((n, i) for n, i in scored if n), key=lambda pair: (-pair[0], pair[1]))
    return [i for _n, i in best[:200]]
