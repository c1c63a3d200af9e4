"""Row sets (query results): the columns, their ranges, and as many rows of the key columns as fit.

Input shapes, recognised by ``context_mode.shapes``: a JSON array of flat records, a Python-repr
list of dicts (``[{'iata': 'AUS', …}, …]``, as SQLite MCP servers print) and ``N. row`` blocks of
``column: value`` lines (``Result: N rows`` at the end). Records are parsed with bounded regexes,
so a 1 MB single line costs one linear pass.

The summary is a small table, not payload lines: a ``N rows × M columns`` line, one line per
column (its kind, distinct count, range or most common values), then a ``|``-separated header and
rows of the key columns (identity-like columns first: id, code, name, title, key…; then short
columns) in input order, as many as fit, the last row too, and the payload's own totals line.
Every cell is the value as it appears in the payload (strings without their quotes), so a value
read off the summary is found verbatim in the payload. Rows holding the call's terms (or the
intent's words) go first, the best few also whole, as the payload spells them (a block's lines
joined by spaces).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

_REPR_RECORD = re.compile(r"\{([^{}]*)\}")
_REPR_PAIR = re.compile(r"""'((?:[^'\\]|\\.){0,200})': ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,{}]{0,200})""")
_BLOCK_START = re.compile(r"\d+\. row\Z")
_FIELD = re.compile(r"([^\s:][^:\n]{0,80}): (.*)\Z")
_TOTALS = re.compile(r"(?:Result|Total|Rows?|Count)\b.{0,40}\d", re.I)
_IDENTITY = ("id", "key", "code", "name", "title", "slug", "login", "number", "iata", "symbol", "label")
_MAX_CELL = 40
_MAX_ROWS = 5000
MAX_MATCHED = 6

Record = dict[str, str]


def parse_rows(text: str) -> list[Record] | None:
    """The records of a row set, values as they appear in the text; ``None`` when it is not one."""
    stripped = text.lstrip()
    if stripped.startswith("[{'"):
        return _repr_rows(stripped)
    if stripped.startswith("["):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value[:50]):
            return [
                {str(k): _json_cell(v) for k, v in item.items()}
                for item in value[:_MAX_ROWS]
                if isinstance(item, dict)
            ]
        return None
    return _block_rows(text)


def summarize_rows(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Columns, counts and the key columns of as many rows as fit in ``budget`` bytes."""
    records = parse_rows(text)
    if not records:
        from context_mode.summaries.table import summarize_table

        return summarize_table(text, budget=budget, terms=terms)
    columns = list(dict.fromkeys(key for record in records[:200] for key in record))
    total_line = _totals_line(text)
    count = len(records)
    lines = [f"{count} rows × {len(columns)} columns: " + ", ".join(columns)]
    lines += [_describe(column, [r.get(column, "") for r in records]) for column in columns]
    keys = _key_columns(columns, records)
    lines.append(" | ".join(keys))
    body_budget = budget - (size(total_line) + 1 if total_line else 0)
    matched = _matching(records, terms)
    shown_raw: list[str] = []
    used = sum(size(line) + 1 for line in lines)
    for index in matched[:MAX_MATCHED]:
        raw = _raw_record(text, records[index])
        if raw and used + size(raw) + 1 <= body_budget // 2:
            shown_raw.append(raw)
            used += size(raw) + 1
    if shown_raw:
        lines[1:1] = shown_raw
    order = [*matched, *(i for i in range(count) if i not in set(matched))]
    chosen: list[int] = []
    last = count - 1
    reserve = size(_row(records[last], keys)) + 1 + 16
    for index in order:
        row = _row(records[index], keys)
        cost = size(row) + 1
        if used + cost + (reserve if index != last and last not in chosen else 0) > body_budget:
            break
        chosen.append(index)
        used += cost
    if last not in chosen and used + reserve <= body_budget:
        chosen.append(last)
    chosen.sort()
    previous = -1
    for index in chosen:
        if index - previous > 1:
            lines.append(f"… {index - previous - 1} rows …")
        lines.append(_row(records[index], keys))
        previous = index
    if previous < count - 1:
        lines.append(f"… {count - 1 - previous} rows …")
    if total_line:
        lines.append(total_line)
    body = _fit("\n".join(lines), budget)
    outline = f"rows: {count} records × {len(columns)} columns ({', '.join(columns[:8])})"
    return Extract(text=body, kind=ContentKind.ROWS, outline=outline, highlights=count)


def _repr_rows(text: str) -> list[Record]:
    records: list[Record] = []
    for match in _REPR_RECORD.finditer(text):
        record = {key: _unquote(value.strip()) for key, value in _REPR_PAIR.findall(match.group(1))}
        if record:
            records.append(record)
        if len(records) >= _MAX_ROWS:
            break
    return records


def _block_rows(text: str) -> list[Record] | None:
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
        if len(records) > _MAX_ROWS:
            break
    return records if len(records) >= 2 else None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _json_cell(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _describe(column: str, values: list[str]) -> str:
    present = [v for v in values if v not in ("", "None", "null", "NULL")]
    distinct = Counter(present)
    numbers = [_number(v) for v in present]
    if present and all(n is not None for n in numbers):
        values_n = [n for n in numbers if n is not None]
        low = present[values_n.index(min(values_n))]
        high = present[values_n.index(max(values_n))]
        detail = f"number, {len(distinct)} distinct, {low} … {high}"
    elif len(distinct) <= 8:
        detail = f"{len(distinct)} distinct: " + ", ".join(_clip(v) for v, _ in distinct.most_common(8))
    else:
        common = [f"{_clip(v)} ×{n}" for v, n in distinct.most_common(3) if n > 1]
        detail = f"text, {len(distinct)} distinct" + (", most common " + ", ".join(common) if common else "")
    missing = len(values) - len(present)
    return f"- {column}: {detail}" + (f"; {missing} empty" if missing else "")


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _key_columns(columns: list[str], records: list[Record]) -> list[str]:
    """Identity-like columns first, then short ones, while a row stays within about 120 chars."""

    def width(column: str) -> float:
        sample = [len(r.get(column, "")) for r in records[:200]]
        return sum(sample) / max(len(sample), 1)

    identity = [c for c in columns if any(word in c.lower() for word in _IDENTITY)]
    rest = sorted((c for c in columns if c not in identity), key=width)
    chosen: list[str] = []
    used = 0.0
    for column in [*identity, *rest]:
        cost = min(width(column), _MAX_CELL) + 3
        if chosen and used + cost > 120:
            continue
        chosen.append(column)
        used += cost
    return [c for c in columns if c in chosen]


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
