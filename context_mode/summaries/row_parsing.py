"""Row sets (query results) read from a payload: its records, as the payload spells each cell.

Input shapes, recognised by ``context_mode.shapes``: a JSON array of flat records, flat JSON
objects one after another (no array), a Python-repr list of dicts (``[{'iata': 'AUS', …}, …]``, as
SQLite MCP servers print) or of tuples (``[('AUS', 'Austin', …), …]``, DuckDB's: columns by
position, ``col1`` …), a list of keyword records (asyncpg's ``[<Record id=1 name='x'>, …]``, a
named tuple's ``[Row(id=1, name='x'), …]`` as psycopg's ``namedtuple_row`` and PySpark print
them), ``N. row`` blocks of ``column: value`` lines (``Result: N rows`` at the
end), psql's expanded records (``-[ RECORD 1 ]---`` blocks of ``column | value`` lines), stanzas of
``Key: value`` or ``key = value`` lines (``apt-cache show``, ``sqlite3 -line``) and lines of
``key=value`` fields (``redis-cli CLIENT LIST``).
Records are parsed with bounded regexes, so a 1 MB single line costs one linear pass; at most
``MAX_ROWS`` are kept.

- ``parse_rows(text)`` is the records, each a ``Record`` of cells, or ``None`` when the text is no
  row set. Every cell is the value as it appears in the payload (strings without their quotes);
  in a JSON record, a nested object is its identity field (``user`` by its ``login``), so a value
  read off a summary is found verbatim in the payload.
- ``read_rows(text)`` is the same with a ``Speller``: how the payload spells record ``i``'s member
  ``key`` (``"tz": "Asia/Urumqi"`` with the payload's own spacing and escaping, ``'iata': 'AUS'``,
  ``first_code: 1F600``, ``name='x'``), asked only for the rows a summary shows; or ``DOCUMENTS`` for JSON
  records whose scalar members are under a tenth of the payload (pipdeptree's ``--json-tree``,
  a stream of API exchanges with their responses): what they hold is nested, not in cells.
- ``raw_record(text, record)`` is the record as the payload spells it, its lines joined by spaces
  ("" when not found); ``totals_line(text)`` is the payload's own totals line ("" when none).

None of them raises on a ``str``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from context_mode.shapes import (
    KEYWORD_ROWS,
    KV_LINE,
    KV_PREFIX,
    ROW_BLOCK,
    STANZA_FIELD,
    json_values,
    stanzas,
)

_REPR_RECORD = re.compile(r"\{([^{}]*)\}")
# A value a driver prints as its constructor's call (psycopg2's and sqlite3's fetchall():
# ``datetime.date(1885, 3, 9)``, ``Decimal('12.50')``, ``UUID('…')``): one cell, commas and all.
_CALL = r"""\s*[A-Za-z_][\w.]{0,60}\((?:'(?:[^'\\]|\\.){0,200}'|"(?:[^"\\]|\\.){0,200}"|[^'"()]){0,200}\)"""
_REPR_PAIR = re.compile(
    rf"""'((?:[^'\\]|\\.){{0,200}})': ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|{_CALL}|[^,{{}}]{{0,200}})"""
)
# A repr tuple's cells: a quoted string (quotes may hold commas and parentheses), a constructor's
# call, or a bare value.
_REPR_CELL = re.compile(
    rf"""'(?:[^'\\]|\\.){{0,2000}}'|"(?:[^"\\]|\\.){{0,2000}}"|{_CALL}|[^,'"()]{{1,200}}"""
)
_REPR_TUPLE = re.compile(
    rf"""\(((?:'(?:[^'\\]|\\.){{0,2000}}'|"(?:[^"\\]|\\.){{0,2000}}"|{_CALL}|[^'"()]){{0,4000}})\)"""
)
# A keyword record's opening (asyncpg's ``<Record ``, a named tuple's ``Row(``) and its members
# (``name='x'``, ``day=datetime.date(2026, 12, 6)``, ``kind=b'r'``): a value is a quoted string, a
# constructor's call (holding calls one deep: ``datetime.datetime(…, tzinfo=datetime.timezone.utc)``)
# or a bare word. One pass: a member's value swallows what it holds, so a record opens only where
# one does.
_QUOTED = r"""[bBrRuU]?(?:'(?:[^'\\]|\\.){0,2000}'|"(?:[^"\\]|\\.){0,2000}")"""
_BARE_CALL = _CALL.removeprefix(r"\s*")
_NESTED_CALL = rf"""[A-Za-z_][\w.]{{0,60}}\((?:{_BARE_CALL}|{_QUOTED}|[^'"()]){{0,400}}\)"""
_KEYWORD_TOKEN = re.compile(
    r"(?P<open><[A-Za-z_][\w.]{0,60} (?=[A-Za-z_]\w{0,60}=)|[A-Za-z_][\w.]{0,60}\((?=[A-Za-z_]\w{0,60}=))"
    rf"|(?P<key>[A-Za-z_]\w{{0,60}})=(?P<value>{_QUOTED}|{_NESTED_CALL}|[^,\s()<>]{{0,200}})"
)
# ``N. row`` blocks of ``column: value`` lines (mcp-alchemy); psql's expanded display (``\x``):
# ``-[ RECORD 12 ]------`` blocks of ``column   | value`` lines, the names padded to one width.
_FIELD = re.compile(r"([^\s:][^:\n]{0,80}): (.*)\Z|([^\s|][^|\n]{0,80}?) *\|(?: (.*))?\Z")
_TOTALS = re.compile(r"(?:Result|Total|Rows?|Count)\b.{0,40}\d", re.I)
# In a JSON record, a nested object is shown by the first of these it holds (``user`` by login).
_NESTED_IDENTITY = ("login", "name", "title", "tag_name", "label", "key", "full_name", "slug")
_JSON_COLON = re.compile(r'"[^"\n]{1,80}"(\s*:\s*)["\d\[{tfn-]')
MAX_ROWS = 5000

_DOCUMENT_SHARE = 0.1  # JSON records whose scalar members hold less of the payload are documents

Record = dict[str, str]
Speller = Callable[[int, str], str]  # record index, key -> the member as the payload spells it
Rows = tuple[list[Record], Speller]


@dataclass(frozen=True, slots=True)
class Documents:
    """JSON records that hold most of the payload in nested values: documents, not rows."""


DOCUMENTS = Documents()


def parse_rows(text: str) -> list[Record] | None:
    """The records of a row set, values as they appear in the text; ``None`` when it is not one."""
    found = read_rows(text)
    return found[0] if isinstance(found, tuple) else None


def read_rows(text: str) -> Rows | Documents | None:
    """The records (cells), and how the payload spells record ``i``'s member ``key`` (a summary
    asks it for the rows it shows only: spelling every member of 5,000 rows costs more than the
    parse)."""
    stripped = text.lstrip()
    if stripped.startswith("[{'"):
        return _repr_rows(stripped)
    if stripped.startswith("[("):
        return _tuple_rows(stripped)
    if KEYWORD_ROWS.match(stripped):
        return _keyword_rows(stripped)
    if stripped.startswith("{"):
        return _object_stream(text)
    if stripped.startswith("["):
        try:
            value = json.loads(text, parse_float=_SpelledFloat)
        except (ValueError, RecursionError):
            return None
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value[:50]):
            return _json_records(text, [item for item in value[:MAX_ROWS] if isinstance(item, dict)])
        return None
    return _block_rows(text) or _stanza_rows(text) or _key_value_rows(text)


def key_value_lines(text: str) -> list[str]:
    """The lines of ``key=value`` fields of ``text`` (``redis-cli CLIENT LIST``), ``MAX_ROWS`` at most."""
    found: list[str] = []
    for line in text.splitlines():
        if KV_LINE.match(line[:KV_PREFIX]):
            found.append(line)
            if len(found) >= MAX_ROWS:
                break
    return found


def _key_value_rows(text: str) -> tuple[list[Record], Speller] | None:
    """Records of ``key=value`` fields, one per line, each member spelled ``key=value``."""
    records: list[Record] = [
        dict(pair.split("=", 1) for pair in line.split()) for line in key_value_lines(text)
    ]
    if len(records) < 2:
        return None
    return records, lambda index, key: f"{key}={records[index][key]}"


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


def _tuple_rows(text: str) -> tuple[list[Record], Speller] | None:
    """A Python-repr list of tuples (``[('audi 100 ls', 'Europe', 1970, …), …]``, as DuckDB's MCP
    server prints a result): columns by position (``col1``, ``col2`` …), each cell as written."""
    records: list[Record] = []
    raw: list[list[str]] = []
    for match in _REPR_TUPLE.finditer(text):
        cells = [cell.strip() for cell in _REPR_CELL.findall(match.group(1)) if cell.strip()]
        if cells:
            raw.append(cells)
            records.append({f"col{n}": _unquote(cell) for n, cell in enumerate(cells, 1)})
        if len(records) >= MAX_ROWS:
            break
    if len(records) < 2:
        return None
    return records, lambda index, key: raw[index][int(key[3:]) - 1]


def _keyword_rows(text: str) -> tuple[list[Record], Speller] | None:
    """A list of keyword records (asyncpg's ``<Record id=1 name='x'>``, a named tuple's
    ``Row(id=1, name='x')``): a record per opening, each member spelled ``key=value`` as written."""
    records: list[Record] = []
    raw: list[Record] = []
    for token in _KEYWORD_TOKEN.finditer(text):
        if token.group("open"):
            if len(records) >= MAX_ROWS:
                break
            records.append({})
            raw.append({})
        elif records and token.group("key") not in records[-1]:
            value = token.group("value")
            prefixed = value[:1] in "bBrRuU" and value[1:2] in "'\""  # ``b'r'``: the bytes' text
            records[-1][token.group("key")] = _unquote(value[1:] if prefixed else value)
            raw[-1][token.group("key")] = value
    if len(records) < 2:
        return None
    return records, lambda index, key: f"{key}={raw[index][key]}"


def _object_stream(text: str) -> Rows | Documents | None:
    """Flat JSON objects one after another, not in an array (``{…}`` then ``{…}``: a row per object,
    as some SQLite MCP servers print a result); None unless there are at least two."""
    items: list[dict[str, object]] = []
    try:
        for value in json_values(text):
            if not isinstance(value, dict):
                return None
            items.append(value)
            if len(items) >= MAX_ROWS:
                break
    except (ValueError, RecursionError):
        return None
    if len(items) < 2:
        return None
    return _json_records(text, items)


def _json_records(text: str, items: list[dict[str, object]]) -> Rows | Documents:
    """JSON objects as records, or ``Documents`` when their scalar members are under
    ``_DOCUMENT_SHARE`` of the payload: what they hold is nested (a package's dependency subtree,
    an API exchange's response), and a table of their scalar cells would show next to none of it."""
    scalars = sum(
        len(key) + len(str(value))
        for item in items
        for key, value in item.items()
        if not isinstance(value, dict | list)
    )
    if scalars < len(text) * _DOCUMENT_SHARE:
        return DOCUMENTS
    spell = _json_speller(text)
    return (
        [{str(k): _json_cell(v) for k, v in item.items()} for item in items],
        lambda index, key: spell(key, items[index][key]),
    )


def _block_rows(text: str) -> tuple[list[Record], Speller] | None:
    records: list[Record] = []
    spelled: list[dict[str, str]] = []  # each field's line as written (psql pads the names)
    for line in text.splitlines():
        if ROW_BLOCK.match(line):
            records.append({})
            spelled.append({})
        elif records:
            field = _FIELD.match(line)
            if field:
                key = (field.group(1) or field.group(3)).rstrip()
                records[-1][key] = field.group(2) if field.group(1) else (field.group(4) or "")
                spelled[-1][key] = line.rstrip()
        if len(records) > MAX_ROWS:
            break
    if len(records) < 2:
        return None
    return records, lambda index, key: spelled[index][key]


def _stanza_rows(text: str) -> tuple[list[Record], Speller] | None:
    """Stanzas of ``Key: value`` or ``key = value`` lines (``shapes.stanzas``): a record each, a
    field spelled as its line (a continued field by its first line)."""
    found = stanzas(text, limit=MAX_ROWS)
    if found is None:
        return None
    records: list[Record] = []
    spelled: list[dict[str, str]] = []
    for block in found:
        records.append({})
        spelled.append({})
        for line in block:
            field = STANZA_FIELD.match(line)
            if field is None:
                continue
            key = field.group(1) or field.group(2)
            if key not in records[-1]:
                records[-1][key] = field.group(3).strip()
                spelled[-1][key] = line.strip()  # sqlite3 -line's names are padded on the left
    return records, lambda index, key: spelled[index][key]


class _SpelledFloat(float):
    """A JSON number read as a float that remembers how the payload spelled it (``7.0499999999999998223``
    stays that, where ``json.dumps`` would write ``7.05``)."""

    __slots__ = ("spelled",)
    spelled: str

    def __new__(cls, text: str) -> _SpelledFloat:
        number = super().__new__(cls, text)
        number.spelled = text
        return number


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
        if isinstance(value, _SpelledFloat):
            shown = value.spelled
        else:
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
    if isinstance(value, _SpelledFloat):
        return value.spelled
    if isinstance(value, dict):
        for key in _NESTED_IDENTITY:
            inner = value.get(key)
            if isinstance(inner, str) and inner:
                return inner
    return json.dumps(value, ensure_ascii=False)


def record_brackets(text: str) -> tuple[str, str] | None:
    """What opens and closes each record of a row set as the payload writes it: ``("{", "}")``
    for JSON and repr objects, ``("(", ")")`` for repr tuples, ``("<Record ", ">")`` or
    ``("Row(", ")")`` for keyword records; ``None`` for records written as lines."""
    stripped = text.lstrip()
    keyword = KEYWORD_ROWS.match(stripped)
    if keyword:
        opening = keyword.group(1)
        return opening, ">" if opening[:1] == "<" else ")"
    if stripped[:2] == "[(":
        return "(", ")"
    return ("{", "}") if stripped[:1] in "[{" else None


def totals_line(text: str) -> str:
    """The payload's last line when it is a totals line (``Result: 322 rows``), else ""."""
    tail = text[-400:].rstrip().rsplit("\n", 1)[-1]
    return tail if _TOTALS.match(tail.strip()) and len(tail) <= 120 else ""


def raw_record(text: str, record: Record, brackets: tuple[str, str] = ("{", "}")) -> str:
    """The record as the payload spells it (its repr or JSON object or tuple, between
    ``brackets``: ``record_brackets``; or its block lines)."""
    values = [v for v in record.values() if v]
    if not values:
        return ""
    opening, closing = brackets[0], brackets[1]
    anchor = text.find(values[0])
    while anchor != -1:
        start = max(text.rfind(opening, 0, anchor), text.rfind("\n\n", 0, anchor))
        stop_brace = text.find(closing, anchor)
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
