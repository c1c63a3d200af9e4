"""Row sets (query results): the columns, their ranges, and as many rows of the key columns as fit.

Input shapes, recognised by ``context_mode.shapes``: a JSON array of flat records, a Python-repr
list of dicts (``[{'iata': 'AUS', …}, …]``, as SQLite MCP servers print) and ``N. row`` blocks of
``column: value`` lines (``Result: N rows`` at the end). Records are parsed with bounded regexes,
so a 1 MB single line costs one linear pass.

The summary is a ``N rows × M columns`` line, then the rows' key columns (identity-like columns
first, by the head word of their name: number, id, code, name, title, user, state, version, then
created/closed dates; then short columns; links, nested JSON and one-value columns left out) in
input order, as many as fit, the last row too: as a small ``|``-separated table when most rows
fit so, else (a sample either way) each row as its members spelled as in the payload (``{"tz":
"Asia/Urumqi", "zones_in_country": "2"}``, ``{'iata': 'AUS', …}``, ``first_code: 1F600;
last_code: 1F64F``), so what an agent copies out of a row is in the payload as it reads it.
After them come the column names and one line per column (its kind, distinct count, range or
most common values with how often each occurs; columns whose values all differ share one line;
a number's least and greatest values name their row by a key column when one row alone holds
each and that column names every row alone: ``-3.0 (date 2013-01-27)``), and the payload's own
totals line, kept whatever is cut. In a JSON record, a nested object is shown by its identity
field (``user`` by its ``login``). Every cell is the value as it appears in the payload
(strings without their quotes), so a value read off the summary is found verbatim in the
payload. Rows holding the call's terms (or the intent's words) go first, the best few also
whole, as the payload spells them (a block's lines joined by spaces). ``summarize_records`` is
the same summary for records parsed elsewhere (``table`` cuts text tables into them and shows
rows by their spans). Rows count as salient content, for the budget, only when they all fit
``FIT_ALL`` bytes; else the budget grows with the columns the ranges describe.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import size
from context_mode.summaries.reading import LastReading
from context_mode.types import ContentKind

_REPR_RECORD = re.compile(r"\{([^{}]*)\}")
_REPR_PAIR = re.compile(r"""'((?:[^'\\]|\\.){0,200})': ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,{}]{0,200})""")
_BLOCK_START = re.compile(r"\d+\. row\Z")
_FIELD = re.compile(r"([^\s:][^:\n]{0,80}): (.*)\Z")
_TOTALS = re.compile(r"(?:Result|Total|Rows?|Count)\b.{0,40}\d", re.I)
# Column-name words that say a column identifies its row, by rank (lower shows first).
_IDENTITY = {
    **dict.fromkeys(("number", "id", "key", "code", "iata", "symbol", "slug", "sku", "isbn", "pid"), 0),
    **dict.fromkeys(("name", "title", "login", "label", "user", "author", "owner", "filename", "path"), 1),
    # what CLI tables name their rows by: ``ps``'s COMMAND, ``pip list``'s Package, ``docker ps``'s NAMES
    **dict.fromkeys(("command", "cmd", "package", "image", "container", "service", "names", "module"), 1),
    **dict.fromkeys(("state", "status", "version", "tag", "release", "conclusion"), 2),
    **dict.fromkeys(("created", "closed", "merged", "published", "released", "date", "time"), 3),
}
# In a JSON record, a nested object is shown by the first of these it holds (``user`` by login).
_NESTED_IDENTITY = ("login", "name", "title", "tag_name", "label", "key", "full_name", "slug")
_WORD_SUFFIXES = frozenset(("at", "on", "utc", "iso", "8601"))
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_LINK = re.compile(r"(?:https?|ftp)://")
_JSON_COLON = re.compile(r'"[^"\n]{1,80}"(\s*:\s*)["\d\[{tfn-]')
_KEY_WIDTH = 120
_DESCRIBE_SHARE = 0.15  # the columns' lines may take this much from the rows
_MAX_CELL = 40
MAX_ROWS = 5000
MAX_MATCHED = 6
MOST = 0.5  # the share of rows that, fitting as a table, makes the table worth its re-spelling
FIT_ALL = 6000  # the default ``summary_budget_max``: rows that fit it all are worth the room

Record = dict[str, str]
Speller = Callable[[int, str], str]  # record index, key -> the member as the payload spells it
Labels = tuple[str, list[str]]  # a key column's name and its value in each row


def parse_rows(text: str) -> list[Record] | None:
    """The records of a row set, values as they appear in the text; ``None`` when it is not one."""
    found = _read_rows(text)
    return found[0] if found is not None else None


def _read_rows(text: str) -> tuple[list[Record], Speller] | None:
    """The records (cells), and how the payload spells record ``i``'s member ``key`` (``_Members``
    asks it for the rows it shows only: spelling every member of 5,000 rows costs more than the
    parse)."""
    stripped = text.lstrip()
    if stripped.startswith("[{'"):
        return _repr_rows(stripped)
    if stripped.startswith("["):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value[:50]):
            items = [item for item in value[:MAX_ROWS] if isinstance(item, dict)]
            spell = _json_speller(text)
            return (
                [{str(k): _json_cell(v) for k, v in item.items()} for item in items],
                lambda index, key: spell(key, items[index][key]),
            )
        return None
    return _block_rows(text)


def summarize_rows(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Key columns of as many rows as fit in ``budget`` bytes, then the columns and counts."""
    found = _RECORDS.get(text, (), lambda: _read_rows(text))
    if not found or not found[0]:
        from context_mode.summaries.table import summarize_table

        return summarize_table(text, budget=budget, terms=terms)
    records, speller = found
    columns = list(dict.fromkeys(key for record in records[:200] for key in record))
    return summarize_records(
        records,
        columns,
        budget=budget,
        terms=terms,
        total_line=_totals_line(text),
        raw=lambda index: _raw_record(text, records[index]),
        sample=_Members(records, speller, braces=text.lstrip().startswith("[")),
    )


class Layout(Protocol):
    """How a row set shows its rows: the header of the key columns and one row of them."""

    def header(self, keys: Sequence[str]) -> str: ...

    def row(self, index: int, keys: Sequence[str]) -> str: ...


class _Cells:
    """Rows as their key cells, as the payload spells them, joined by `` | ``."""

    def __init__(self, records: list[Record]) -> None:
        self.records = records

    def header(self, keys: Sequence[str]) -> str:
        return " | ".join(keys)

    def row(self, index: int, keys: Sequence[str]) -> str:
        return _row(self.records[index], keys)


class _Members:
    """Rows as their key columns' members, as the payload spells them (``"tz": "Asia/Urumqi"``,
    ``'iata': 'AUS'``, ``first_code: 1F600``): what an agent copies out is then in the payload
    as it reads it, key and all, at the price of the keys repeated on every row."""

    def __init__(self, records: list[Record], speller: Speller, braces: bool) -> None:
        self.records = records
        self.speller = speller
        self.braces = braces  # a JSON or repr record: its members in braces, as an object

    def header(self, keys: Sequence[str]) -> str:
        return ""

    def row(self, index: int, keys: Sequence[str]) -> str:
        record = self.records[index]
        members = [self.speller(index, key) for key in keys if key in record]
        return "{" + ", ".join(members) + "}" if self.braces else "; ".join(members)


def summarize_records(
    records: list[Record],
    columns: list[str],
    *,
    budget: int,
    terms: Sequence[str],
    total_line: str,
    raw: Callable[[int], str],
    layout: Layout | None = None,
    sample: Layout | None = None,
    kind: ContentKind = ContentKind.ROWS,
    noun: str = "records",
    count: int = 0,
) -> Extract:
    """The row-set summary of parsed ``records`` (see the module docstring); ``raw(i)`` is record
    ``i`` as the payload spells it ("" when not found), ``layout`` shows the key columns;
    ``count`` is the row count when ``records`` holds only the first rows and the last one;
    ``sample`` shows the rows instead when fewer than ``MOST`` of them fit as ``layout`` shows them."""
    shown = as_table = layout or _Cells(records)
    total = max(count, len(records))
    count = len(records)
    head = [f"{total} rows × {len(columns)} columns"]
    if total > count:
        head[0] += f" (columns described from the first {count - 1} rows and the last)"
    keys, descriptions = _READINGS.get(records, columns, lambda: _described(columns, records))
    tail = [total_line] if total_line else []
    fixed = sum(size(line) + 1 for line in [*head, *tail])  # before the layout's header
    described = sum(size(line) + 1 for _, line in descriptions)
    rows_budget = budget - min(described, int(budget * _DESCRIBE_SHARE))
    header = shown.header(keys)
    rows_room = rows_budget - fixed - (size(header) + 1 if header else 0)
    if sample is not None and not _most_fit(count, lambda index: shown.row(index, keys), rows_room):
        shown, header = sample, sample.header(keys)
    used = fixed + (size(header) + 1 if header else 0)
    matched = _matching(records, terms)
    shown_raw: list[str] = []
    whole_rows: set[int] = set()  # matching rows shown whole above the table: not repeated in it
    for index in matched[:MAX_MATCHED]:
        whole = raw(index)
        if whole == shown.row(index, keys):
            continue  # the table shows it as sent, in its place
        if whole and used + size(whole) + 1 <= rows_budget // 2:
            shown_raw.append(whole)
            whole_rows.add(index)
            used += size(whole) + 1
    chosen, used = _choose_rows(
        count, lambda index: shown.row(index, keys), matched, used, rows_budget, whole_rows
    )
    table = [header] if header else []
    previous = -1
    for index in chosen:
        # Past the records kept (the first ones and the last), the rows not parsed are skipped too.
        skipped = index - previous - 1 + (total - count if index == count - 1 else 0)
        if skipped > 0:
            table.append(f"… {skipped} rows …")
        table.append(shown.row(index, keys))
        previous = index
    if previous < count - 1:
        table.append(f"… {total - 1 - previous} rows …")
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
    # Rows are salient content only when all of them fit the largest budget; else the budget
    # grows with the columns, which the ranges describe.
    # (as the table shows them: a larger budget may then show them all that way)
    every_row = sum(size(as_table.row(i, keys)) + 1 for i in range(count)) if total == count else FIT_ALL + 1
    highlights = total if every_row <= FIT_ALL else min(total, len(columns))
    outline = f"{kind.value}: {total} {noun} × {len(columns)} columns ({', '.join(columns[:8])})"
    return Extract(text=body, kind=kind, outline=outline, highlights=highlights)


_RECORDS: LastReading[tuple[list[Record], Speller] | None] = LastReading()
# The router summarises a payload more than once: the key columns and the columns' descriptions
# are kept for the same records (the table and row-set readings are kept too, so they are).
_READINGS: LastReading[tuple[list[str], list[tuple[float, str]]]] = LastReading()


def _described(columns: list[str], records: list[Record]) -> tuple[list[str], list[tuple[float, str]]]:
    """The key columns, and after the rows every column's name (first kept), then what each holds."""
    keys = _key_columns(columns, records)
    return keys, [(-1.0, "columns: " + ", ".join(columns)), *_descriptions(columns, records, keys)]


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
    order = [i for i in [*matched, *(i for i in range(count) if i not in matched_set)] if i not in shown]
    chosen: list[int] = []
    last = count - 1
    reserve = size(row(last)) + 1 + 16 if last not in shown else 0
    for index in order:
        cost = size(row(index)) + 1
        if used + cost + (reserve if index != last and last not in chosen else 0) > budget:
            break
        chosen.append(index)
        used += cost
    if last not in chosen and last not in shown and used + reserve <= budget:
        chosen.append(last)
    return sorted(chosen), used


def _repr_rows(text: str) -> tuple[list[Record], Speller]:
    records: list[Record] = []
    raw: list[Record] = []  # each value as written, quotes and all
    for match in _REPR_RECORD.finditer(text):
        pairs = _REPR_PAIR.findall(match.group(1))
        if pairs:
            records.append({key: _unquote(value.strip()) for key, value in pairs})
            raw.append(dict(pairs))
        if len(records) >= MAX_ROWS:
            break
    return records, lambda index, key: f"'{key}': {raw[index][key].strip()}"


def _block_rows(text: str) -> tuple[list[Record], Speller] | None:
    records: list[Record] = []
    current: Record | None = None
    for line in text.splitlines():
        if _BLOCK_START.match(line):
            current = {}
            records.append(current)
        elif current is not None:
            field = _FIELD.match(line)
            if field:
                current[field.group(1)] = field.group(2)
        if len(records) > MAX_ROWS:
            break
    if len(records) < 2:
        return None
    return records, lambda index, key: f"{key}: {records[index][key]}"


def _json_speller(text: str) -> Callable[[str, object], str]:
    """How the payload spells a member: ``"key": value`` with its own spacing around the colon
    and its own escaping of non-ASCII text; a nested object by its identity member."""
    colon = _JSON_COLON.search(text[:4096])
    separator = colon.group(1) if colon else ": "
    ascii_only = "\\u" in text[:65536] and not any(ord(char) > 127 for char in text[:65536])

    def spell(key: str, value: object) -> str:
        if isinstance(value, dict):
            for inner in _NESTED_IDENTITY:
                if isinstance(value.get(inner), str) and value[inner]:
                    key, value = inner, value[inner]
                    break
        shown = json.dumps(value, ensure_ascii=ascii_only, separators=(",", separator))
        return json.dumps(key, ensure_ascii=ascii_only) + separator + shown

    return spell


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _json_cell(value: object) -> str:
    """A JSON value as a cell: a string as is, an object by its identity field, else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in _NESTED_IDENTITY:
            inner = value.get(key)
            if isinstance(inner, str) and inner:
                return inner
    return json.dumps(value, ensure_ascii=False)


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
    for empty in ("", "None", "null", "NULL"):
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
            _clip(v) + (f" ×{n}" if counted else "") for v, n in few
        )
    else:
        common = [f"{_clip(v)} ×{n}" for v, n in distinct.most_common(3) if n > 1]
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
    return f"{value} ({column} {_clip(name)})" if name and name != value else value


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _key_columns(columns: list[str], records: list[Record]) -> list[str]:
    """Identity-like columns first (ids, names, states, dates), then short ones, while a row stays
    within about ``_KEY_WIDTH`` chars. Links, nested JSON and columns of one value are left out."""
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
        odd = sum(1 for v in values if _LINK.match(v) or _nested(v))
        return odd * 2 <= len(values)

    ranks = {column: _rank(column) for column in columns}
    # Beside a number (an issue's, a pull request's), an id is internal.
    internal = {"id"} if "number" in ranks and "id" in ranks else set()
    candidates = [c for c in columns if telling(c) and c not in internal] or columns
    identity = sorted((c for c in candidates if ranks[c] is not None), key=lambda c: ranks[c] or 0)
    rest = sorted((c for c in candidates if ranks[c] is None), key=width)
    chosen: list[str] = []
    used = 0.0
    for column in [*identity, *rest]:
        cost = min(width(column), _MAX_CELL) + 3
        if chosen and used + cost > _KEY_WIDTH:
            continue
        chosen.append(column)
        used += cost
    return [c for c in columns if c in chosen]


def _nested(value: str) -> bool:
    """A cell holding JSON (an object, a list of values), not text in brackets (``[kthreadd]``)."""
    return value[:1] == "{" or (value[:1] == "[" and (value == "[]" or '"' in value or "," in value))


def _rank(column: str) -> int | None:
    """The identity rank of the column name's head word, its last (``created_at``: created,
    ``iataCode``: code, ``author_association``: none), or None."""
    words = [word.lower() for word in _WORD.findall(column)]
    while len(words) > 1 and words[-1] in _WORD_SUFFIXES:
        words.pop()
    return _IDENTITY.get(words[-1]) if words else None


def _row(record: Record, keys: Sequence[str]) -> str:
    return " | ".join(_clip(record.get(key, "")) for key in keys)


def _clip(value: str) -> str:
    return value if len(value) <= _MAX_CELL else value[: _MAX_CELL - 1] + "…"


def _totals_line(text: str) -> str:
    tail = text[-400:].rstrip().rsplit("\n", 1)[-1]
    return tail if _TOTALS.match(tail.strip()) and len(tail) <= 120 else ""


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


def _raw_record(text: str, record: Record) -> str:
    """The record as the payload spells it (its repr or JSON object, or its block lines)."""
    values = [v for v in record.values() if v]
    if not values:
        return ""
    anchor = text.find(values[0])
    while anchor != -1:
        start = max(text.rfind("{", 0, anchor), text.rfind("\n\n", 0, anchor))
        stop_brace = text.find("}", anchor)
        stop_block = text.find("\n\n", anchor)
        stop = min(
            x
            for x in (
                stop_brace + 1 if stop_brace != -1 else len(text),
                stop_block if stop_block != -1 else len(text),
            )
        )
        raw = text[max(start, 0) : stop].strip()
        if all(v in raw for v in values) and len(raw) <= 600:
            return " ".join(part.strip() for part in raw.splitlines() if part.strip())
        anchor = text.find(values[0], anchor + 1)
    return ""
