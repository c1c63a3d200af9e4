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
