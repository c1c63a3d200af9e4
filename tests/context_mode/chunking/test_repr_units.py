"""A Python-repr list of rows on one line is cut between its rows, each a unit named by its first string."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from context_mode.chunking.repr_units import repr_units
from context_mode.chunking.split import chunk
from context_mode.types import ContentKind
from tests.searching import search

DUCKDB = (Path(__file__).parents[2] / "data" / "duckdb-mcp-settings.txt").read_text(encoding="utf-8")


def test_units_cover_the_text_and_each_row_is_one_named_unit() -> None:
    units = repr_units("[('a', 1, 'x, (y)'), ('b\\'s', 2, \"z]\"), {'k': 'v'}]")
    assert units is not None
    assert units[0][0] == 0 and units[-1][1] == len("[('a', 1, 'x, (y)'), ('b\\'s', 2, \"z]\"), {'k': 'v'}]")
    assert all(left[1] == right[0] for left, right in zip(units, units[1:], strict=False))
    rows = [(start, end, path) for start, end, path, structural in units if not structural]
    assert [path for _, _, path in rows] == [("[0] a",), ("[1] b\\'s",), ("[2] v",)]


def test_text_that_is_no_repr_list_of_rows_has_no_units() -> None:
    assert repr_units("[1, 2, 3]") is None
    assert repr_units("[('a', 1)") is None  # never closed
    assert repr_units("[('only', 1)]") is None  # one row is no row set
    assert repr_units("plain text") is None


@given(st.text(max_size=200))
def test_any_text_gives_units_that_cover_it_or_none(text: str) -> None:
    units = repr_units("[(" + text)
    if units is not None:
        assert units[0][0] == 0 and units[-1][1] == len("[(" + text)


def test_a_duckdb_result_on_one_line_is_chunked_by_row() -> None:
    # Before: one line, cut by bytes wherever 4 kB fell, rows split across chunks.
    pieces = chunk(DUCKDB, ContentKind.ROWS, max_chunk_bytes=4096)
    assert len(pieces) > 1
    for piece in pieces:
        body = piece.text.strip().strip("[],").strip()
        assert body.startswith("(") and body.endswith(")"), body[:80]


def test_a_search_shows_the_whole_row_it_names() -> None:
    # Before: a window of the one line around the words, the named row left out.
    reply = search(DUCKDB, ContentKind.ROWS, {"query": "unsigned extensions allowed"})
    assert (
        "('allow_unsigned_extensions', 'false', "
        "'Allow to load extensions with invalid or missing signatures.', 'BOOLEAN', 'GLOBAL')"
    ) in reply


def test_asyncpgs_records_are_chunked_by_record_and_a_search_shows_the_whole_record() -> None:
    # Before: no units (the list opens with ``<Record``): the line was cut by bytes.
    relations = (Path(__file__).parents[2] / "data" / "asyncpg-pg-catalog-relations.txt").read_text(
        encoding="utf-8"
    )
    units = repr_units(relations)
    assert units is not None
    records = [(start, end, path) for start, end, path, structural in units if not structural]
    assert len(records) == 120
    assert records[0][2] == ("[0] pg_proc",)
    assert all(relations.startswith("<Record ", start) for start, _, _ in records)
    assert all(relations[end - 1] == ">" for _, end, _ in records)
    reply = search(relations, ContentKind.ROWS, {"query": "pg_type table size in bytes"})
    assert (
        "<Record relname='pg_type' relkind=b'r' reltuples=Decimal('611.0') relpages=15 bytes=122880 "
        "relhasindex=True day=datetime.date(2026, 12, 6)>"
    ) in reply
    assert repr_units("[Row(name='a, b', port=1), Row(name='c', port=2)]") == [
        (0, 1, (), True),
        (1, 25, ("[0] a, b",), False),
        (25, 27, (), True),
        (27, 48, ("[1] c",), False),
        (48, 49, (), True),
    ]


def test_a_list_of_short_rows_is_cut_between_rows_not_read_as_json() -> None:
    # Before: read as (broken) JSON first, short rows were cut at their commas (``('tcpmux', 1``).
    import sqlite3

    database = sqlite3.connect(":memory:")
    database.execute("create table service (name text, port integer, protocol text)")
    database.executemany(
        "insert into service values (?, ?, ?)",
        [(f"svc{n}", n, "tcp" if n % 2 else "udp") for n in range(400)],
    )
    for printed in (
        repr(database.execute("select * from service").fetchall()),
        repr(
            [
                dict(zip(("name", "port"), row, strict=False))
                for row in database.execute("select * from service")
            ]
        ),
    ):
        pieces = chunk(printed, ContentKind.ROWS, max_chunk_bytes=1024)
        assert len(pieces) > 4
        for piece in pieces:
            body = piece.text.strip().strip("[],").strip()
            assert body[:1] in "({" and body[-1:] in ")}", body[:80]
