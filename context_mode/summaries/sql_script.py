"""SQL scripts (``sqldiff``, ``sqlite3 .dump``, ``pg_dump``, a migration): statements by table.

A script of one statement a line (``INSERT INTO t(…) VALUES(…);``, ``UPDATE t SET … WHERE …;``,
``DELETE FROM t WHERE …;``, ``CREATE TABLE …``) reads as a table cut at its parentheses or commas,
or as a log without errors; what an agent opens it for is what it changes: which tables, how many
rows each way, the schema's changes, and the statements themselves.

``summarize_sql_script(text, kind=, budget=, terms=)`` returns None unless the text's first
``_SAMPLE_LINES`` non-blank lines are mostly statements or a script's scaffolding (``BEGIN``,
``COMMIT``, ``PRAGMA``, comments: ``_MIN_SHARE``; statements ``_STATEMENT_SHARE`` of them and
``_MIN_STATEMENTS`` at least); else, within ``budget`` bytes: a label counting the statements per
verb and table, busiest first (``== 180 statements · UPDATE subdivisions ×121 · …  ==``), then
verbatim statement lines: the schema's (``CREATE``, ``ALTER``, ``DROP``) first, then each
group's first statement, each group's last, and the rest in turns, a rank of every group before
the next rank of any; lines naming the call's terms before all of them.

A statement may span lines up to the one ending in ``;`` (outside a ``$$`` body), as a schema
dump writes them (``pg_dump --schema-only``: ``CREATE TABLE public.orders_order (`` over one
column a line, ``ALTER TABLE ONLY public.orders_order`` over ``ADD CONSTRAINT … FOREIGN KEY …``):
such a script is a script too, its statements' lines counted with them. Of a schema, what an
agent reads it for comes first: each table's ``CREATE TABLE`` line (a one-line statement shown up
to ``_TABLE_WIDTH`` chars, its columns with it), then the tables' columns, the first of every
table before the second of any (a ``CHECK`` or a key among them two places higher), the foreign
keys added by statements of their own (``REFERENCES``, the whole statement) after each table's
first eight columns, then the other schema statements (an index, a view's or a function's first lines;
above a script's other statements; a key or a constraint added over lines below them); the
dump's housekeeping (``OWNER TO``, an identity's sequence, ``SET``) last. The label counts what
the schema makes (``== 100 statements · 14 tables · 13 foreign keys · 18 indexes · 1 view ==``).
``Extract.kind`` is the kind asked for. A script's reading is kept for the next summary of the
same text (``reading``). Linear in the text, but for sorting the groups.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, split_lines
from context_mode.summaries.reading import Labelled, LastReading
from context_mode.types import ContentKind

_STATEMENT = re.compile(
    r"\s*(?P<verb>INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM"
    r"|(?P<schema>CREATE\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER|FUNCTION|PROCEDURE)"
    r"|ALTER\s+TABLE|DROP\s+(?:TABLE|INDEX|VIEW|TRIGGER|FUNCTION|PROCEDURE))"
    r"(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)(?:\s+ONLY)?\s+(?P<table>[\"`\[]?[\w.$]+[\"`\]]?)",
    re.IGNORECASE,
)
# A script's own lines that are no change: a transaction's bounds, settings, comments
_SCAFFOLD = re.compile(r"\s*(?:BEGIN\b|COMMIT\b|END\b|PRAGMA\b|SET\b|--|/\*|\))", re.IGNORECASE)
# Other statements a script holds, which may span lines too (a sequence's options, a function's body)
_OTHER = re.compile(
    r"(?:CREATE|ALTER|COMMENT\s+ON|GRANT|REVOKE|SELECT|COPY|WITH|TRUNCATE)\b|\\\w", re.IGNORECASE
)
_DOLLAR = re.compile(r"\$\w*\$")  # a body's quote (``$$``, ``$function$``): its ``;`` end no statement
# The name after these is the index's, the view's, the function's…: no table's
_NOT_TABLES = ("INDEX", "VIEW", "TRIGGER", "FUNCTION", "PROCEDURE")
_SCRIPTS: LastReading[Labelled | None] = LastReading()  # the last text's reading (asked per summary)
_SAMPLE_LINES = 200
_HEAD = 32768  # chars the sample is taken from
_MIN_SHARE = 0.6  # of the sample's non-blank lines, statements or scaffolding…
_STATEMENT_SHARE = 0.3  # …and statements
_MIN_STATEMENTS = 5
_WIDTH = 200
_GROUPS_LABELLED = 6
_SCHEMA = 80.0
_TERM = 70.0
_FIRST = 60.0  # each group's first statement; its last, then the rest, ``_STEP`` less a rank
_STEP = 4.0
_ORDER_STEP = 0.001
_STATEMENT_LINES = 400  # a statement not ended by then is read as ended
_TABLE_WIDTH = 600  # a one-line ``CREATE TABLE``: its columns are what it says
_KEY = 66.0  # a foreign key: how the tables join (after the first columns of every table)
_COLUMN = 70.0  # a table's columns, ``_COLUMN_STEP`` less a place in it
_COLUMN_STEP = 0.5
_CONSTRAINED = 1.0  # a column with a ``CHECK`` or a key, or the table's own constraint line
_OTHER_SCHEMA = 64.0  # an index, a view, a trigger, a constraint added by a one-line statement
_CONSTRAINT = 50.0  # a key or a constraint added over lines (``ALTER TABLE ONLY t`` / ``ADD …``)
_ROUTINE = 8.0  # a dump's housekeeping: ``OWNER TO``, an identity's sequence, a default's ``nextval``
_ROUTINE_TEXT = re.compile(
    r"\bOWNER TO\b|\bADD GENERATED\b|\bSET DEFAULT nextval\(|\bREPLICA IDENTITY\b", re.IGNORECASE
)
_KEY_TEXT = re.compile(r"\bREFERENCES\b", re.IGNORECASE)  # a foreign key's, inline or added
_MADE = {  # what a schema makes, counted in its label, and one of each
    "tables": "table",
    "foreign keys": "foreign key",
    "indexes": "index",
    "views": "view",
    "triggers": "trigger",
    "functions": "function",
}
_MADE_AS = {
    "TABLE": "tables",
    "INDEX": "indexes",
    "VIEW": "views",
    "TRIGGER": "triggers",
    "FUNCTION": "functions",
    "PROCEDURE": "functions",
}
_MADE_BY = re.compile(r"\b(TABLE|INDEX|VIEW|TRIGGER|FUNCTION|PROCEDURE)\b")
_COLUMN_KEY = re.compile(r"\b(?:CHECK|REFERENCES|PRIMARY KEY|UNIQUE|FOREIGN KEY)\b", re.IGNORECASE)


def summarize_sql_script(
    text: str, *, kind: ContentKind, budget: int, terms: Sequence[str] = ()
) -> Extract | None:
    """The statements per table and their lines in ``budget`` bytes; None if ``text`` is no script."""
    reading = _SCRIPTS.get(text, tuple(terms), lambda: _read(text, terms))
    return None if reading is None else reading.extract(kind, budget, width=_WIDTH, gaps="short")


def _read(text: str, terms: Sequence[str]) -> Labelled | None:
    if not _is_script(split_lines(text[:_HEAD])):
        return None
    lines = split_lines(text)
    groups: dict[str, list[int]] = {}
    schema: list[Pick] = []
    tables: set[str] = set()
    columns: list[list[int]] = []  # each multi-line table's column lines
    made: Counter[str] = Counter()  # tables, foreign keys, indexes, views, triggers the schema makes
    for start, stop, match in _statements(lines):
        if match is None:
            continue
        verb = " ".join(match["verb"].upper().split())
        name = match["table"].strip('"`[]')  # "pkg" in a dump's INSERT, pkg in its CREATE TABLE
        groups.setdefault(f"{verb} {name}", []).append(start)
        if not verb.endswith(_NOT_TABLES):
            tables.add(name)
        if match["schema"]:
            schema.append(_schema_pick(lines, start, stop, verb, columns))
            _count_made(made, verb, lines[start:stop])
    schema_at = {pick.start for pick in schema}
    statements = sum(len(group) for group in groups.values())
    busiest = sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0]))
    # A schema is counted by what it makes (``14 tables · 14 foreign keys``), its data by table.
    counts = [f"{made[what]} {what if made[what] > 1 else one}" for what, one in _MADE.items() if made[what]]
    counts = counts if made["tables"] > 1 else []
    counts += [f"{name} ×{len(group)}" for name, group in busiest if not (counts and group[0] in schema_at)]
    label = _label(statements, counts)
    wanted = term_matcher(terms)
    picks = [
        Pick(pick.start, pick.stop, pick.priority - _ORDER_STEP * rank, pick.width)
        for rank, pick in enumerate(schema)
    ]
    for table in columns:
        for place, index in enumerate(table):
            keyed = _CONSTRAINED if _COLUMN_KEY.search(lines[index]) else 0.0
            top = _TERM if wanted(lines[index]) else _COLUMN - _COLUMN_STEP * place + keyed
            picks.append(Pick(index, index + 1, top))
    for _, group in busiest:
        if group[0] in schema_at:
            continue  # shown as the schema it is
        order = [*group[:1], *group[1:][-1:], *group[1:-1]]
        for rank, index in enumerate(order):
            top = _TERM if wanted(lines[index]) else _FIRST - _STEP * min(rank, 2) - _ORDER_STEP * rank
            picks.append(Pick(index, index + 1, top))
    outline = f"SQL script, {statements} statements on {len(tables)} table{'' if len(tables) == 1 else 's'}"
    highlights = min(2 * len(groups) + len(schema), 20) + sum(len(table) for table in columns) // 4
    return Labelled(lines, label, picks, outline, highlights)


def _label(statements: int, counts: Sequence[str]) -> str:
    """``== 56 statements · 9 tables · … 3 more ==``: as many counts as fit ``_WIDTH`` chars, the
    label whole (a section label, not the payload's, is never cut)."""
    for shown in range(min(len(counts), _GROUPS_LABELLED), -1, -1):
        more = [f"… {len(counts) - shown} more"] if len(counts) > shown else []
        label = f"== {statements} statements · {' · '.join([*counts[:shown], *more])} =="
        if len(label) <= _WIDTH:
            return label
    return f"== {statements} statements =="


def _count_made(made: Counter[str], verb: str, lines: Sequence[str]) -> None:
    """Count in ``made`` what a schema statement (``verb``, its lines) makes: a table, its foreign
    keys, an index…"""
    made_by = _MADE_BY.search(verb) if verb.startswith("CREATE") else None
    if made_by is not None:  # ``CREATE TABLE IF NOT EXISTS``, ``CREATE UNIQUE INDEX``
        made[_MADE_AS[made_by[1]]] += 1
    for line in lines:
        if "REFERENCES" in line.upper():
            made["foreign keys"] += len(_KEY_TEXT.findall(line))


def _schema_pick(lines: Sequence[str], start: int, stop: int, verb: str, columns: list[list[int]]) -> Pick:
    """The pick showing a schema statement (lines ``[start, stop)``); a multi-line table's column
    lines are added to ``columns``."""
    body = " ".join(lines[start : min(stop, start + 3)])
    if _ROUTINE_TEXT.search(body):
        return Pick(start, min(stop, start + 3), _ROUTINE)
    table = verb.startswith("CREATE TABLE")
    if stop - start == 1:
        if table:
            return Pick(start, stop, _SCHEMA, _TABLE_WIDTH)
        return Pick(start, stop, _KEY if _KEY_TEXT.search(body) else _OTHER_SCHEMA)
    if table:
        columns.append([index for index in range(start + 1, stop) if lines[index].strip(" );")])
        return Pick(start, start + 1, _SCHEMA)
    if _KEY_TEXT.search(body) and stop - start <= 3:
        return Pick(start, stop, _KEY)
    if verb.startswith("CREATE"):  # a view's, a function's first lines: its name, what it returns
        return Pick(start, min(stop, start + 2), _OTHER_SCHEMA)
    return Pick(start, min(stop, start + 3), _CONSTRAINT)


def _statements(lines: Sequence[str]) -> Iterator[tuple[int, int, re.Match[str] | None]]:
    """Each statement's lines ``[start, stop)`` with its ``_STATEMENT`` match (None for another
    statement: a ``SET``, a sequence, a ``COMMENT ON``). A statement whose verb is in capitals
    spans lines up to the one ending in ``;`` (outside a ``$$`` body) within ``_STATEMENT_LINES``;
    any other, or one never ended so, is its first line (prose's "Update the docs" is no
    statement's start). Linear: lines a search for an end found none in are not searched again."""
    index, total = 0, len(lines)
    searched = 0  # the lines before this were searched for an end and hold none
    while index < total:
        line = lines[index]
        match = _STATEMENT.match(line)
        other = _OTHER.match(line) if match is None else None
        if match is None and other is None:
            index += 1
            continue
        verb = match["verb"] if match is not None else other[0] if other is not None else ""
        stop = index + 1
        one_line = line.rstrip().endswith(";") and "$" not in line  # most statements of a dump's data
        if not one_line and verb.strip().isupper():
            stop, searched = _end(lines, index, searched)
        yield index, stop, match
        index = stop


def _end(lines: Sequence[str], start: int, searched: int) -> tuple[int, int]:
    """Where the statement opening on line ``start`` ends, after its line ending in ``;`` outside
    a ``$$`` body (or after its first line when there is none within ``_STATEMENT_LINES``), and
    the line up to which it searched (from ``searched`` on: the lines before hold no end)."""
    quoted = False
    limit = min(len(lines), start + _STATEMENT_LINES)
    for index in range(max(start, searched), limit):
        line = lines[index]
        if index > start and line.startswith("\\"):
            return start + 1, index  # psql's ``\restrict``, ``\connect``: a statement of their own
        quoted ^= len(_DOLLAR.findall(line)) % 2 == 1
        if not quoted and line.rstrip().endswith(";"):
            return index + 1, index + 1
    return start + 1, limit


def _is_script(lines: Sequence[str]) -> bool:
    """Whether ``lines`` (a script's head) are mostly statements (with the lines they span) or a
    script's scaffolding."""
    sample = [line for line in lines[: _SAMPLE_LINES * 2][:-1] if line.strip()][:_SAMPLE_LINES]
    statements = spanned = covered = 0
    for start, stop, match in _statements(sample):
        covered += stop - start
        if match is not None:
            statements += 1
            spanned += stop - start
    scaffold = sum(1 for line in sample if _SCAFFOLD.match(line))
    return (
        statements >= _MIN_STATEMENTS
        and spanned >= len(sample) * _STATEMENT_SHARE
        and covered + scaffold >= len(sample) * _MIN_SHARE
    )
