"""A table's rows named by their key (``store.keyed_rows``)."""

from __future__ import annotations

import pytest

from context_mode.store.keyed_rows import key_words, keyed_rows
from context_mode.types import ContentKind
from tests.searching import bench_reply

TABLE = "\n".join(
    ["id|name|score", *(f"{n}|player {n}|{(n * 37) % 100}" for n in range(1, 40)), "57|Ann Lee|99"]
)


def test_a_row_is_named_by_its_first_cell_not_by_a_cell_elsewhere() -> None:
    found = keyed_rows([TABLE], "score of row 57", 1.0, ContentKind.TABLE)
    assert [passage.text for _, passage in found] == ["57|Ann Lee|99"]  # not "19|player 19|3" … "|57"
    assert keyed_rows([TABLE], "the id of Ann Lee", 1.0, ContentKind.TABLE) == []  # Ann Lee is no first cell


def test_a_json_record_is_named_by_its_identity_member() -> None:
    records = "\n".join(f'{{"name": "pkg{n}", "version": "1.{n}"}},' for n in range(12))
    for kind in (ContentKind.TABLE, ContentKind.JSON):  # a JSON payload is read for records only
        found = keyed_rows([records], "version of pkg7", 1.0, kind)
        assert [passage.text for _, passage in found] == ['{"name": "pkg7", "version": "1.7"},']


def test_a_records_line_is_counted_as_lines_are_everywhere_else() -> None:
    # A form feed or a U+2028 inside a payload ends a line for str.splitlines, which numbers a
    # chunk's lines; counting newlines alone named the line after the record.
    records = "\u2028".join(f'{{"name": "pkg{n}", "version": "1.{n}"}}' for n in range(12))
    found = keyed_rows([records], "version of pkg7", 1.0, ContentKind.JSON)
    shown = [(passage.number, passage.text) for _, passage in found]
    assert shown == [(7, '{"name": "pkg7", "version": "1.7"}')]


def test_a_header_a_key_on_too_many_rows_and_a_short_table_name_no_row() -> None:
    assert keyed_rows([TABLE], "id column", 1.0, ContentKind.TABLE) == []  # the header's first cell
    many = TABLE + "\n" + "\n".join(f"57|again {n}|1" for n in range(5))
    assert keyed_rows([many], "row 57", 1.0, ContentKind.TABLE) == []
    assert keyed_rows(["id|name|score\n57|Ann|99"], "row 57", 1.0, ContentKind.TABLE) == []
    assert key_words("the row for 57") == ["row", "57"]
    assert key_words("font size of a row") == ["font", "size", "row", "fontsize"]


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        # sqlite3's list mode: individual 57's four rows (one per mode); 57 is in many other cells
        (
            "rows-sqlite-list-modechoice-travel.txt",
            ContentKind.ROWS,
            "individual 57 chosen mode",
            "57|train|1|45",
        ),
        # pandas' to_string: a row named by two words
        (
            "table-pandas-to-string-statsmodels-grunfeld-investment.txt",
            ContentKind.TABLE,
            "General Motors average investment",
            "General Motors     608.02  257.70  1486.70  4333.84",
        ),
        # pip's dry-run report: the record whose "name" is distributed holds its wheel's hash
        (
            "json-pip-dry-run-report-dask-distributed.json",
            ContentKind.JSON,
            "hash of distributed wheel",
            "sha256=11af55d22dd6e04eb868b87f166b8f59ef1b300f659f87c016643b7f98280ec6",
        ),
    ],
)
def test_a_search_shows_the_row_a_real_table_names_by_its_key(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    assert answer in bench_reply(name, kind, query)


def test_a_one_line_row_set_shows_the_record_its_member_names_not_the_lines_start() -> None:
    # Failed before: ``pip list --format json`` is one line, too few for a table, so its records
    # were not looked at; and a record found on a long line was cut at the line's start.
    from tests.corpora import BENCH_CORPUS

    name, query = "rows-pip-list-json-v-prefect-streamlit-venv.json", "prefect installed version"
    (found,) = keyed_rows([(BENCH_CORPUS / name).read_text(encoding="utf-8")], query, 3.0, ContentKind.ROWS)
    assert found[1].text.startswith('…{"name": "prefect", "version": "3.9.1", "location": ')
    reply = bench_reply(name, ContentKind.ROWS, query)
    assert '{"name": "prefect", "version": "3.9.1"' in reply


def test_a_snapshots_table_row_is_named_by_its_first_cell_and_shown_with_its_cells() -> None:
    # Failed before: Graphviz's attribute table in a browser snapshot: "font size default value"
    # names the row whose first cell links "fontsize"; its chunk was not among the five best.
    reply = bench_reply(
        "snapshot-graphviz-242-attrs-table.txt", ContentKind.SNAPSHOT, "font size default value"
    )
    assert 'link "fontsize" [ref=e397]' in reply
    assert 'cell "14.0" [ref=e400]' in reply


def test_a_snapshots_header_row_is_named_by_no_key() -> None:
    # Python's codecs page: its tables' header rows ("Codec", "Aliases", …) are no rows the query
    # names by "codec"; a first cell without text of its own is read from its child.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "snapshot-playwright-python311-codecs.txt").read_text(encoding="utf-8")
    found = keyed_rows([text], "codec aliases", 3.0, ContentKind.SNAPSHOT)
    assert found == []
    headed = "\n".join(
        [
            "  - table [ref=e1]:",
            "    - row [ref=e2]:",
            '      - cell "Codec" [ref=e3]',
            "    - row [ref=e4]:",
            "      - cell [ref=e5]:",
            "        - paragraph [ref=e6]: utf_8",
            '      - cell "U8" [ref=e7]',
        ]
    )
    assert [passage.text for _, passage in keyed_rows([headed], "codec", 3.0, ContentKind.SNAPSHOT)] == []
    (only,) = keyed_rows([headed], "utf_8 aliases", 3.0, ContentKind.SNAPSHOT)
    assert only[1].text == "- paragraph [ref=e6]: utf_8"


def test_a_listings_entry_is_named_by_its_file_name_without_extension() -> None:
    # Failed before: fontTools' sdist listed by tar -tvzf: "size of woff2 module" names
    # Lib/fontTools/ttLib/woff2.py; the chunks of test data naming woff2 more often ranked first,
    # and its chunk was not among the five best.
    reply = bench_reply("tree-tar-tvzf-fonttools-4541-sdist.txt", ContentKind.TREE, "size of woff2 module")
    assert "61058 2024-09-24 14:16 fonttools-4.54.1/Lib/fontTools/ttLib/woff2.py" in reply


def test_an_entrys_name_is_its_last_path_part_with_its_words_joined_any_way() -> None:
    listing = "\n".join(
        [
            "[FILE] xhr2.js                           1.95 KB",
            "[FILE] css-has.js                        1.77 KB",
            "[DIR] dist/",
            "-rw-r--r-- 145965 ./src/PIL/Image.py",
        ]
    )

    def named(query: str) -> list[str]:
        return [passage.text for _, passage in keyed_rows([listing], query, 1.0, ContentKind.TREE)]

    assert named("css has selector feature file") == ["[FILE] css-has.js                        1.77 KB"]
    assert named("size of the main Image module") == ["-rw-r--r-- 145965 ./src/PIL/Image.py"]
    assert named("dist directory") == ["[DIR] dist/"]
    assert named("file size in KB") == []  # a unit, not a name: no path part
    many = "\n".join(f"pkg{n}/setup.py" for n in range(6))
    assert keyed_rows([many], "setup module", 1.0, ContentKind.TREE) == []  # a name many entries share
