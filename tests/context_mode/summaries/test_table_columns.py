"""A table's columns as its tool drew them: every field of a wide CSV, names of several words."""

from __future__ import annotations

from context_mode.summaries import summarize
from context_mode.summaries.packing import split_lines
from context_mode.summaries.table_grid import parse_grid
from context_mode.types import ContentKind
from tests.context_mode.summaries.test_corpus import assert_table_verbatim
from tests.corpora import BENCH_CORPUS


def _corpus(name: str) -> str:
    return (BENCH_CORPUS / name).read_text(encoding="utf-8")


def test_a_csv_header_longer_than_400_characters_gives_every_column() -> None:
    # HAProxy's ``show stat``: 128 fields, a 900-character header over rows of 260.
    text = _corpus("table-haproxy-show-stat-csv-docs-lb.csv")
    lines = split_lines(text)
    grid = parse_grid(lines, 0, [i for i in range(1, len(lines)) if lines[i].strip()])
    assert grid is not None and len(grid.names) == 129
    assert grid.names[17] == "status"
    extract = summarize(text, ContentKind.TABLE, budget=2000)
    assert extract.text.startswith("28 rows × 129 columns")
    # the one backend DOWN among UP ones is an odd row, shown
    assert "be_api,BACKEND,0,0,0,1,52,60,7070,13020,0,0,,60,0,2,0,DOWN" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_column_name_of_several_words_over_short_cells_is_one_column() -> None:
    text = _corpus("table-sqlite-utils-table-palmerpenguins-raw-by-mass.txt")
    lines = split_lines(text)
    grid = parse_grid(lines, 0, list(range(2, len(lines))))
    assert grid is not None
    assert grid.names[:5] == ("Individual ID", "species", "Island", "Date Egg", "Culmen Length (mm)")
    assert "Delta 15 N (o/oo)" in grid.names and len(grid.names) == 11


def test_ps_header_words_one_space_apart_that_each_head_cells_stay_columns() -> None:
    text = (
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n"
        "root           1  0.1  0.0   5404  4160 ?        S    15:11   0:00 bash run.sh\n"
        "nobody        54  0.0  0.0  11704  4296 ?        S    15:11   0:00 nginx: worker process\n"
    )
    lines = split_lines(text)
    grid = parse_grid(lines, 0, [1, 2])
    assert grid is not None
    assert grid.names[-4:] == ("STAT", "START", "TIME", "COMMAND")


def test_na_cells_are_missing_values_so_the_heaviest_and_longest_rows_are_shown() -> None:
    # sqlite-utils' penguins: every measure has NA rows; the longest flipper (231 mm) is an
    # extreme row, and the NA cells no longer make the column text.
    text = _corpus("table-sqlite-utils-table-palmerpenguins-raw-by-mass.txt")
    extract = summarize(text, ContentKind.TABLE, budget=2600)
    longest = "N19A2            Gentoo     Biscoe     2008-11-13  54.3" + " " * 18 + "15.7" + " " * 17 + "231"
    assert longest in extract.text
    assert_table_verbatim(extract.text, text)


def test_every_unusual_state_of_a_status_column_shows_its_first_row() -> None:
    # Three rows of 28 are DOWN (more than one in thirty): the first DOWN server is shown too.
    text = _corpus("table-haproxy-show-stat-csv-docs-lb.csv")
    extract = summarize(text, ContentKind.TABLE, budget=2000)
    assert "be_apache_manual,docs4,0,0,0,2,,9,404,651,,0,,3,0,6,0,DOWN" in extract.text
    assert "be_npm_docs,npm3,0,0,0,0,20,0,0,0,,0,,0,0,0,0,MAINT" in extract.text
