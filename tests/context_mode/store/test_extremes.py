"""A query asking for a field's largest or smallest value gets the line holding it.

Real outputs (tests/data): ``ps auxf`` on a host running services, redis's INFO everything, a
PostgreSQL 15 log with statement durations, a psql table. Before ``store.extremes`` the search
showed the lines repeating the query's words, and the answer line was not among them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.store.extremes import extreme_asked, extreme_line
from context_mode.store.passages import payload_passages
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.searching import bench_reply, search

DATA = Path(__file__).resolve().parents[2] / "data"
PS_HOT = "root     23493 91.8  0.8 235060 204720 ?       R    05:14   0:03"
PS_HEADER = "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("query", "most"),
    [("process with highest cpu percent", True), ("the fastest test", False), ("oldest open PR", False)],
)
def test_a_superlative_asks_for_an_extreme(query: str, most: bool) -> None:
    asked = extreme_asked(query)
    assert asked is not None and asked.most is most


@pytest.mark.parametrize("query", ["first failing test", "top level heading", "last row of the table", "cpu"])
def test_positions_and_plain_words_ask_for_none(query: str) -> None:
    assert extreme_asked(query) is None


@pytest.mark.parametrize(
    ("name", "query", "line_start"),
    [
        ("ps-auxf-services-host.txt", "process with highest cpu percent", PS_HOT),
        ("ps-auxf-services-host.txt", "largest resident set size", PS_HOT),  # RSS: the words' initials
        ("ps-auxf-services-host.txt", "process using the most memory", PS_HOT),  # %MEM: a short form
        ("psql-customers-orders.txt", "customer who spent the most", "  60 | user60@example.com"),
        ("redis-info-everything.txt", "command with highest microseconds per call", "cmdstat_command|docs:"),
        # tbilrate and realinv: the query's words' beginnings run together (realgdp, realcons tie
        # with realinv on "real" alone)
        ("sqlite-markdown-us-macrodata.md", "peak treasury bill rate quarter", "| 1981 | 2       | 5957.795"),
        (
            "sqlite-markdown-us-macrodata.md",
            "maximum real investment quarter",
            "| 2006 | 1       | 12915.938",
        ),
        # a box-drawn table (DuckDB's .show()) with a row of column types under its names
        ("duckdb-show-fertility-range.txt", "country with the highest mean fertility", "│ NER     │ Niger"),
        ("duckdb-show-fertility-range.txt", "lowest minimum fertility rate", "│ MAC     │ Macao SAR, China"),
        # two days share the year's highest maximum: the first of them (before: no line)
        ("awk-sf-temps-daily.txt", "hottest day maximum temperature", "2010/08/31    24   57.2   72.2"),
        # "the largest negative change" is the most negative value (before: the largest)
        ("column-t-us-employment.txt", "largest negative nonfarm_change", "2009-03-01  132549"),
        # "month" and "max_ppm" are named alike: the column of many values is the measure, not
        # the month's 12 (before: the month column's first 12)
        ("sqlite-csv-co2-monthly.csv", "maximum ppm month", "2001,05,4,373.8,373.7,373.9"),
        # "non-null" names no line: before, the records holding a null were the only ones to compete
        (
            "sqlite-json-fertility-by-country.json",
            "lowest non-null 2010 fertility",
            '{"country_name":"Macao SAR, China"',
        ),
        # "oldest" of an age, not of a date: the most years (csvkit's csvlook)
        ("csvlook-la-riots.txt", "oldest age victim", "| Vivian         | Austin        |  87 |"),
        # mocha's time after a slow test's name, not its run's "299 passing (32s)"
        (
            "mocha-spec-iconv-lite-063.txt",
            "slowest test duration",
            "    ✓ Decode DBCS encoding 'gb18030' (3225ms)",
        ),
        (
            "postgresql15-report-job-excerpt.log",
            "longest slow query duration for the reporting job",  # only the report-job lines compete
            "2026-12-03 04:03:02.019 UTC [13085] postgres@inventory app=report-job LOG:  duration: 9968.198",
        ),
    ],
)
def test_the_extreme_line_of_the_field_the_query_names(name: str, query: str, line_start: str) -> None:
    lines = _lines(name)
    asked = extreme_asked(query)
    assert asked is not None
    found = extreme_line(lines, asked)
    assert found is not None and lines[found.line].startswith(line_start)


@pytest.mark.parametrize(
    ("name", "query", "line_start"),
    [
        # find -printf '%s %p': a size and a path, no tab (before: no line)
        ("tree-find-printf-babel-2190-sdist.txt", "biggest file overall", "470760 ./babel/global.dat"),
        # "source" names the listing, not the lines holding it (before: test_source_line.py, 10 kB)
        (
            "tree-s-docutils-0212-sdist.txt",
            "largest file in the source tree",
            "│\xa0\xa0 " * 3 + "├── [     259122]",
        ),
        # du's root sums the others up, and usage.py is no "disk usage" (before: usage.py)
        ("tree-du-ah-twisted-2410.txt", "largest subpackage disk usage", "2.0M\tsrc/twisted/internet"),
        # the line under unzip -l's closing rule is its totals (before: " 20954702   622 files")
        ("tree-unzip-l-matplotlib-392-wheel.txt", "biggest file in the archive", "   967840  2024-08-13"),
        # "physics" is on the directory's own entry only: it names where, not which (before: none)
        (
            "json-tree-tree-j-s-sympy-1133-physics.json",
            "largest file in physics",
            '        {"type":"file","name":"test_spin.py","size":344807}',
        ),
    ],
)
def test_the_extreme_entry_of_a_listing(name: str, query: str, line_start: str) -> None:
    lines = (BENCH_CORPUS / name).read_text(encoding="utf-8").splitlines()
    asked = extreme_asked(query)
    assert asked is not None
    found = extreme_line(lines, asked)
    assert found is not None and lines[found.line].startswith(line_start)


@pytest.mark.parametrize(
    ("query", "record"),
    [
        ("maximum wind speed group", "{'month': '2012-12', 'weather': 'rain', 'days': 23,"),
        # "fog" narrows the records to fog's (held in the record, not anywhere on the long line)
        ("highest average daily maximum in fog", "{'month': '2012-07', 'weather': 'fog', 'days': 1,"),
    ],
)
def test_records_on_one_line_answer_by_their_record(query: str, record: str) -> None:
    # mcp-server-sqlite's rows: one line of 138 records. "maximum" names the field (max_wind)
    # besides asking for the most; "average" is "avg" (avg_temp_max_c).
    line = _lines("sqlite-mcp-seattle-weather-monthly.txt")[0]
    asked = extreme_asked(query)
    assert asked is not None
    found = extreme_line([line], asked)
    assert found is not None and found.span is not None
    assert line.rfind("{", 0, found.span[0]) == line.find(record)


def test_an_extreme_most_lines_share_gives_no_line() -> None:
    # 13 release commits made in the same second: "the latest" tells none apart, and the search's
    # own hits (the newest commit's totals) must not give way to the first commit's date
    asked = extreme_asked("change totals of the latest release commit")
    assert asked is not None
    assert extreme_line(_lines("git-log-stat-marked-releases.txt"), asked) is None


def test_a_field_no_query_word_names_gives_no_line() -> None:
    asked = extreme_asked("highest colour saturation")
    assert asked is not None
    assert extreme_line(_lines("ps-auxf-services-host.txt"), asked) is None


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        ("ps-auxf-services-host.txt", ContentKind.TEXT, "process with highest cpu percent", PS_HOT),
        (
            "psql-customers-orders.txt",
            ContentKind.TEXT,
            "customer who spent the most",
            "  60 | user60@example.com  | User 60  |     40 | 21090.00",
        ),
        ("mocha-spec-iconv-lite-063.txt", ContentKind.LOG, "slowest test duration", "'gb18030' (3225ms)"),
        # stestr's (subunit's) time before the status: ``test_x [0.168996s] ... ok`` (failed before)
        (
            "stestr-run-oslo-utils-imageutils-excerpt.txt",
            ContentKind.LOG,
            "longest running test duration",
            "test_zero_iter_limit_allows_any [0.168996s] ... ok",
        ),
        # the second of two days sharing the highest maximum is shown with the first
        (
            "awk-sf-temps-daily.txt",
            ContentKind.TABLE,
            "hottest day maximum temperature",
            "2010/09/01    24   57.3   72.2",
        ),
        (
            "postgresql15-report-job-excerpt.log",
            ContentKind.LOG,
            "longest slow query duration for the reporting job",
            "duration: 9968.198 ms",
        ),
        # tree -J: its closing report's "files": 235 is on one line and does not compete with
        # every entry's "size"; tree -h's drawn entries ("[ 58K]  config.md") are sized
        ("tree-J-django-auth.json", ContentKind.TREE, "biggest file", '"name":"common-passwords.txt.gz"'),
        ("tree-h-npm-head.txt", ContentKind.TREE, "largest file", "├── [ 58K]  config.md"),
        # the line was added to its chunk's hit, ranked fifth: too low to be shown
        (
            "sqlite-column-colorado-airports.txt",
            ContentKind.TABLE,
            "lowest elevation airport",
            "KK08        Holly Airport                                 Holly                  3399",
        ),
    ],
)
def test_doc_search_shows_the_extreme_line(name: str, kind: ContentKind, query: str, answer: str) -> None:
    """Each of these replies missed the answer before: it showed lines repeating the query."""
    reply = search((DATA / name).read_text(encoding="utf-8"), kind, {"query": query})
    assert answer in reply


def test_a_table_row_is_shown_under_its_header() -> None:
    reply = search(
        (DATA / "ps-auxf-services-host.txt").read_text(), ContentKind.TEXT, {"query": "largest RSS"}
    )
    lines = reply.splitlines()
    row = next(number for number, line in enumerate(lines) if line.strip().startswith(PS_HOT))
    assert lines[row - 1].strip() == PS_HEADER


def test_an_intent_asking_for_an_extreme_gets_its_line() -> None:
    text = (DATA / "ps-auxf-services-host.txt").read_text(encoding="utf-8")
    passages = payload_passages(text, ContentKind.TEXT, "process with highest cpu percent", budget=1500)
    assert any(line.startswith(PS_HOT) for line in passages)


def test_a_date_is_no_number() -> None:
    # PyPI's JSON for alembic: "upload_time": "2011-11-30T21:11:24" read as the number 2011, so
    # "the earliest release" compared years among numbers and found no dated field at all.
    from tests.corpora import BENCH_CORPUS

    line = (BENCH_CORPUS / "json-pypi-alembic.json").read_text(encoding="utf-8")
    asked = extreme_asked("upload date of the earliest release")
    assert asked is not None and asked.dated
    found = extreme_line([line], asked)
    assert found is not None and found.span is not None
    assert line[found.span[0] :].startswith('upload_time": "2011-11-30T21:11:24"')


def test_a_wide_tables_extreme_row_shows_its_first_cell_and_the_asked_cell_under_its_name() -> None:
    # ``column -t`` of 24 series a month (449 characters a row): the row was cut to its first 240
    # characters, so the asked column, the last, was not shown at all.
    text = (BENCH_CORPUS / "table-column-t-us-employment.txt").read_text(encoding="utf-8")
    lines = search(text, ContentKind.TABLE, {"query": "largest negative nonfarm_change"}).splitlines()
    row = next(line for line in lines if line.strip().startswith("2009-03-01…"))
    assert row.endswith("22560       -802")
    header = next(line for line in lines if line.strip().startswith("month     …"))
    assert header.endswith("nonfarm_change")
    assert header.index("nonfarm_change") == row.index("-802")  # still under its name


def test_a_wide_csv_rows_extreme_keeps_its_first_cell_and_the_asked_cell() -> None:
    names = ["station", *(f"reading_{number:02d}" for number in range(40)), "peak_gust_kmh"]
    rows = [
        ",".join([station, *(f"{1000 + number * 7 + index}.25" for number in range(40)), str(gust)])
        for index, (station, gust) in enumerate([("LFPG", 61), ("EGLL", 97), ("EDDF", 58), ("LIRF", 44)])
    ]
    text = "\n".join([",".join(names), *rows]) + "\n"
    reply = search(text, ContentKind.TABLE, {"query": "highest peak gust kmh"})
    lines = [line.strip() for line in reply.splitlines()]
    assert any(line.startswith("EGLL,…1") and line.endswith(".25,97") for line in lines)
    assert any(line.startswith("station,…reading_") and line.endswith(",peak_gust_kmh") for line in lines)


def test_two_letter_beginnings_make_no_field_name() -> None:
    # sqlite -column of Florida's 2000 vote by county: "Buchanan share" named BUSH (bu + sh, the
    # beginnings of both words) as well as buchanan_pct, and BUSH's greatest row (DADE) was shown.
    text = (BENCH_CORPUS / "table-sqlite-column-car-florida-2000-county-vote.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines = lines[: next(number for number, line in enumerate(lines) if line.startswith("counties "))]
    asked = extreme_asked("highest Buchanan share county")
    assert asked is not None
    found = extreme_line(lines, asked)
    assert found is not None and found.field == "buchanan_pct"
    assert lines[found.line].startswith("CALHOUN ")
    # tmax is still "temperature max": one beginning of three letters or more
    weather = [
        "date        tmax  tmin",
        "2024-07-01  31.2  18.0",
        "2024-07-02  35.9  21.4",
        "2024-07-03  29.8  17.1",
    ]
    hottest = extreme_line(weather, extreme_asked("highest temperature max") or asked)
    assert hottest is not None and weather[hottest.line].startswith("2024-07-02")


def test_a_header_over_its_rule_after_a_tables_rows_opens_the_next_table() -> None:
    # sqlite -column prints query results one after another with no blank line between: the next
    # result's header was read as a row of the first, and its columns never compared.
    text = (BENCH_CORPUS / "table-sqlite-column-car-florida-2000-county-vote.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.TABLE, {"query": "largest share_of_state_buchanan"})
    lines = [line.strip() for line in reply.splitlines()]
    row = lines.index("PALM.BEACH    3407      432286  0.788         19.67")
    assert lines[row - 2].startswith("county        BUCHANAN  Total   buchanan_pct  share_of_state_buchanan")


def _extreme_in(name: str, query: str) -> tuple[str, str]:
    """The line the query's extreme names in the bench corpus item ``name``, and its field."""
    lines = (BENCH_CORPUS / name).read_text(encoding="utf-8").splitlines()
    asked = extreme_asked(query)
    assert asked is not None
    found = extreme_line(lines, asked)
    assert found is not None
    return lines[found.line], found.field


@pytest.mark.parametrize(
    ("query", "row"),
    [
        ("lightest weighed penguin", "N72A1            Chinstrap  Dream      2008-11-24  46.9"),
        ("shortest flipper length", "N18A1            Adelie     Biscoe     2007-11-10  37.9"),
    ],
)
def test_a_column_named_in_several_words_over_a_dash_rule_is_compared(query: str, row: str) -> None:
    # sqlite-utils' table (and sqlite's -column) mark each column by a run of dashes under names of
    # several words ("Body Mass (g)"): the header was read word by word, "(mm)" is no name, and no
    # column compared. "lightest" implies a weight or a mass before a size (a length).
    line, field = _extreme_in("table-sqlite-utils-table-palmerpenguins-raw-by-mass.txt", query)
    assert line.startswith(row)
    assert field in {"Body Mass (g)", "Flipper Length (mm)"}


@pytest.mark.parametrize(
    ("query", "row"),
    [
        ("largest count group", "│ Ideal     ┆ E     ┆ VS2     ┆ 1136 ┆"),  # n is a count's name
        ("highest average price", "│ Very Good ┆ D     ┆ IF      ┆ 23   ┆"),  # the first row
    ],
)
def test_a_polars_frames_cells_are_compared(query: str, row: str) -> None:
    # polars prints a frame in a box whose cells a dashed bar parts, under a row of dashes, a row
    # of types and a ╞═╪═╡ rule: none of its columns compared, and the rule over the first row was
    # read as the rows' closing one, which left that row out.
    line, _ = _extreme_in("rows-polars-sql-diamonds-cut-color-clarity.txt", query)
    assert line.startswith(row)


def test_the_field_named_right_after_the_superlative_is_the_measure() -> None:
    # mariadb -t of New York's busiest routes: "most cancelled flights route" names two columns,
    # flights and cancelled; the one of more distinct values (flights) was compared.
    line, field = _extreme_in("rows-mariadb-t-nycflights13-busy-routes.txt", "most cancelled flights route")
    assert field == "cancelled"
    assert line.startswith("| LGA    | BOS  | General Edward Lawrence Logan Intl")


def test_a_field_named_by_a_letter_or_two_before_the_word_is_compared() -> None:
    # ncdu -o of fastify's npm package: each entry's sizes are "asize" (apparent) and "dsize"
    # (on disk); "biggest file size" named neither field, and the search showed the root.
    line, field = _extreme_in("tree-ncdu-o-fastify-5128-npm.json", "biggest file size")
    assert field == "asize"
    assert line.startswith('{"name":"hooks.test.js","asize":96019')


@pytest.mark.parametrize(
    ("name", "query", "line_start"),
    [
        # coqwc's (as wc's) totals row has its label after its numbers (before: "57937 98292 … total")
        (
            "table-cqg-coqwc-8161-p-coq-stdlib-theories-562-files.txt",
            "largest proof script file",
            "      285     2868        5 ./Reals/RiemannInt.v",
        ),
        # python -X importtime: each row's first cell holds its own pair (before: the largest
        # cumulative time, a package importing the module)
        (
            "table-cqf-python-3117-x-importtime-scrapy-2190-crawler.txt",
            "slowest module by own time",
            "import time:     11569 |      11569 |",
        ),
        # npm's fetch times, a unit on the digits mid-line; "added 72 packages in 2s" is the run's
        # (before: no line)
        (
            "log-cqh-npm-11191-loglevel-silly-install-express-4212.log",
            "longest package archive download time",
            "npm http fetch GET 200 https://registry.npmjs.org/qs/-/qs-6.13.0.tgz 438ms",
        ),
        # an access log's response bytes, after its status (before: no line)
        (
            "log-cpa-influxd-167-auth-http-query-log-vega-weather-stocks.log",
            "largest query response size",
            "[httpd]",
        ),
        # a linter's long line, its length in the message (before: no line)
        (
            "lint-yamllint-ansible-core-2177-copy-target.txt",
            "longest line length violation",
            "  2372:81   error    line too long (151 > 80 characters)",
        ),
        (
            "lint-pylint-tenacity-823.txt",
            "longest line",
            "tests/test_tenacity.py:1087:0: C0301: Line too long (120/100)",
        ),
        # tree -s -D: the date inside the size's brackets (before: no line)
        (
            "tree-capp-rclone-tree-svelte-4219-npm.txt",
            "biggest file",
            "├── [    1527886 Oct 26 08:15]  compiler.cjs",
        ),
    ],
)
def test_totals_after_numbers_pairs_in_cells_mid_line_times_and_response_bytes(
    name: str, query: str, line_start: str
) -> None:
    line, _ = _extreme_in(name, query)
    assert line.startswith(line_start)
    if "influxd" in name:
        assert '" 200 209508 ' in line


def test_a_clocks_duration_is_a_value_of_its_field() -> None:
    # csvjson of 106 Cannes entries, each record's ``"run_time": "3:52:00"``. Failed before: a
    # clock's digits were no number (``_NUMBER`` keeps times out), so "the longest running time"
    # found no field and the reply showed the first records.
    lines = ["  {", '    "title": "A",', '    "run_time": "1:26:00",', "  },", "  {", '    "title": "B",']
    lines += [
        '    "run_time": "3:52:00",',
        "  },",
        "  {",
        '    "title": "C",',
        '    "run_time": "58:30",',
        "  }",
    ]
    found = extreme_line(lines, extreme_asked("longest running time"))
    assert found is not None and lines[found.line] == '    "run_time": "3:52:00",'
    shortest = extreme_line(lines, extreme_asked("shortest running time"))
    assert shortest is not None and lines[shortest.line] == '    "run_time": "58:30",'  # minutes and seconds
    # A place in a file (``app.py:12:34:``) is no time.
    assert (
        extreme_line(["app.py:12:34: E501", "app.py:40:59: E501"] * 3, extreme_asked("longest app")) is None
    )
    reply = bench_reply(
        "rows-cqn-csvgrep-csvjson-csvkit-220-great-tables-110-cannes-films-japan.json",
        ContentKind.ROWS,
        "longest running time movie in the Japan selection",
    )
    assert '"title": "Honki no shirushi: Gekijôban"' in reply
