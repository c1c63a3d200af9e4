"""Records printed one field per line are a row set: stanzas and expanded displays.

Real outputs (tests/data): ``apt-cache show`` of nine packages (16 Debian stanzas of
``Key: value`` lines), ``sqlite3 -line`` (45 records of right-aligned ``name = value`` lines) and
psql's ``\\x`` display with a border (``-[ RECORD 1 ]----+----``). Before, the first two were plain
text (a Directive of 354 bytes for apt-cache) and the third a table of two columns; a search for
a record's field showed the field in other records, the named record's lines cut at a chunk's end.
"""

from __future__ import annotations

import pytest

from context_mode.chunking import chunk
from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.types import ContentKind
from tests.corpora import data
from tests.searching import search

APT = "apt-cache-show-db-runtime.txt"
SQLITE_LINE = "sqlite-line-breast-cancer-malignant.txt"
PSQL_X = "psql-expanded-romance-locales.txt"


@pytest.mark.parametrize("name", [APT, SQLITE_LINE, PSQL_X])
def test_records_of_one_field_per_line_are_a_row_set(name: str) -> None:
    assert detect_kind(data(name), tool_name="run_command") is ContentKind.ROWS


def test_a_sqlite_line_record_with_null_cells_is_a_row_set() -> None:
    # sqlite3 -line prints a NULL as "y1856 = " (nothing after the "="): those lines were no
    # fields, and 48 records of the Republican vote by state were "properties: 1600 keys" (failed
    # before)
    text = data("sqlite-line-cluster-votes-nulls-excerpt.txt")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    outline = summarize(text, ContentKind.ROWS, budget=3000).outline
    assert outline.startswith("rows: 6 records × 32 columns (state, y1856,")


def test_stanzas_show_each_package_with_its_version_and_size() -> None:
    extract = summarize(data(APT), ContentKind.ROWS, budget=3000)
    assert extract.outline.startswith("rows: 16 records × 28 columns (Package, Version, Installed-Size,")
    assert "postgresql-15 | 15.20-0+deb12u1 | 54254 |" in extract.text
    assert "iproute2 | 6.1.0-3 |" in extract.text  # the last stanza


def test_right_aligned_names_are_spelled_without_their_padding() -> None:
    extract = summarize(data(SQLITE_LINE), ContentKind.ROWS, budget=3000)
    assert "id = 462; mean_radius = 27.42;" in extract.text
    assert "   id = " not in extract.text


def test_an_expanded_record_is_never_cut_between_chunks() -> None:
    pieces = chunk(data(PSQL_X), ContentKind.ROWS)
    assert len(pieces) > 2
    assert all(piece.text.startswith("-[ RECORD ") for piece in pieces[1:])


@pytest.mark.parametrize(
    ("name", "query", "answer"),
    [
        (PSQL_X, "fr_CA country_car", "country_car       | CDN"),
        (PSQL_X, "es_US postal_fmt", "postal_fmt        | %a%N%f%N%d%N%b%N%h %s %e %r%N"),
        (SQLITE_LINE, "id 462 worst_area", "worst_area = 4254.0"),
        (APT, "postgresql-15 installed size", "Installed-Size: 54254"),
    ],
)
def test_a_search_shows_the_named_records_field(name: str, query: str, answer: str) -> None:
    text = data(name)
    reply = search(text, detect_kind(text, tool_name="run_command"), {"query": query})
    assert answer in reply
