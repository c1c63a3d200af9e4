"""SQL scripts (``sqldiff``, ``sqlite3 .dump``, ``pg_dump --inserts``, a migration): statements by table.

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
the next rank of any; lines naming the call's terms before all of them. ``Extract.kind`` is the
kind asked for. A script's reading is kept for the next summary of the same text (``reading``).
Linear in the text, but for sorting the groups.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, clip, split_lines
from context_mode.summaries.reading import Labelled, LastReading
from context_mode.types import ContentKind

_STATEMENT = re.compile(
    r"\s*(?P<verb>INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM"
    r"|(?P<schema>CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)|ALTER\s+TABLE|DROP\s+(?:TABLE|INDEX|VIEW|TRIGGER))"
    r"(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)\s+(?P<table>[\"`\[]?[\w.$]+[\"`\]]?)",
    re.IGNORECASE,
)
# A script's own lines that are no change: a transaction's bounds, settings, comments
_SCAFFOLD = re.compile(r"\s*(?:BEGIN\b|COMMIT\b|END\b|PRAGMA\b|SET\b|--|/\*|\))", re.IGNORECASE)
_NOT_TABLES = ("INDEX", "VIEW", "TRIGGER")  # the name after these is the index's, the view's…
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
    schema: list[int] = []
    tables: set[str] = set()
    for index, line in enumerate(lines):
        match = _STATEMENT.match(line)
        if match is None:
            continue
        verb = " ".join(match["verb"].upper().split())
        name = match["table"].strip('"`[]')  # "pkg" in a dump's INSERT, pkg in its CREATE TABLE
        groups.setdefault(f"{verb} {name}", []).append(index)
        if match["schema"]:
            schema.append(index)
        if not verb.endswith(_NOT_TABLES):
            tables.add(name)
    statements = sum(len(group) for group in groups.values())
    busiest = sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0]))
    counts = [f"{name} ×{len(group)}" for name, group in busiest]
    shown = counts[:_GROUPS_LABELLED]
    if len(counts) > _GROUPS_LABELLED:
        shown.append(f"… {len(counts) - _GROUPS_LABELLED} more")
    label = clip(f"== {statements} statements · {' · '.join(shown)} ==", _WIDTH)
    wanted = term_matcher(terms)
    picks = [Pick(i, i + 1, _SCHEMA - _ORDER_STEP * rank) for rank, i in enumerate(schema)]
    for _, group in busiest:
        order = [*group[:1], *group[1:][-1:], *group[1:-1]]
        for rank, index in enumerate(order):
            top = _TERM if wanted(lines[index]) else _FIRST - _STEP * min(rank, 2) - _ORDER_STEP * rank
            picks.append(Pick(index, index + 1, top))
    outline = f"SQL script, {statements} statements on {len(tables)} tables"
    return Labelled(lines, label, picks, outline, min(2 * len(groups) + len(schema), 20))


def _is_script(lines: Sequence[str]) -> bool:
    sample = [line for line in lines[: _SAMPLE_LINES * 2][:-1] if line.strip()][:_SAMPLE_LINES]
    statements = sum(1 for line in sample if _STATEMENT.match(line))
    scaffold = sum(1 for line in sample if _SCAFFOLD.match(line))
    return (
        statements >= _MIN_STATEMENTS
        and statements >= len(sample) * _STATEMENT_SHARE
        and statements + scaffold >= len(sample) * _MIN_SHARE
    )
