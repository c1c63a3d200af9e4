"""Tables as row sets, on real outputs: key columns as verbatim spans, one-value columns said once."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.shapes import described_tables
from context_mode.summaries import summarize
from context_mode.summaries.report import is_report, report_titles
from context_mode.summaries.table_grid import parse_grid
from context_mode.summaries.table_sections import aligned_table_headers, blank_separated_headers
from context_mode.types import ContentKind
from tests.context_mode.summaries.test_corpus import assert_table_verbatim
from tests.corpora import BENCH_CORPUS, REPO

DATA = Path(__file__).parents[2] / "data"


def _read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def test_pip_list_is_narrowed_to_package_and_version_spans() -> None:
    text = _read("pip-list-head.txt")
    extract = summarize(text, ContentKind.TABLE, budget=1700)
    # Location and Installer are one value each: the rows keep the two columns that differ, as
    # the payload spells them, so all 40 packages fit where 13 clipped rows did before.
    assert "argon2-cffi-bindings      26.2.0\n" in extract.text
    assert "jupyter-lsp               2.3.1" in extract.text
    assert "site-packages pip" not in extract.text.split("columns: ")[0]
    assert all(line.split()[0] in extract.text for line in text.splitlines()[2:])
    assert "- Installer: 1 distinct: pip" in extract.text
    assert_table_verbatim(extract.text, text)


def test_sqlite_markdown_table_keeps_the_pipes_and_counts_distinct_values() -> None:
    text = _read("sqlite-markdown-stocks.md")
    assert detect_kind(text) is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=800)
    # rows to their closing pipe, as spelled (before: cut at the last cell, "| price")
    assert extract.text.startswith("30 rows × 3 columns\n| symbol |    date    | price  |\n")
    assert "IBM    | Apr 1 2000 | 99.95  |" in extract.text
    assert "- symbol: 2 distinct: IBM ×15, AAPL ×15" in extract.text
    assert_table_verbatim(extract.text, text)


def test_sqlite_column_mode_drops_its_one_value_column_and_keeps_the_last_row() -> None:
    text = _read("sqlite-column-stocks.txt")
    extract = summarize(text, ContentKind.TABLE, budget=500)
    assert "date        price\nApr 1 2000  28.37\n" in extract.text
    assert extract.text.split("\n").count("Dec 1 2009  30.34") == 1
    assert "- symbol: 1 distinct: MSFT" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_csv_of_decimals_is_a_table_of_its_columns() -> None:
    text = _read("gapminder-head.csv")
    extract = summarize(text, detect_kind(text), budget=900)
    assert extract.kind is ContentKind.TABLE
    assert extract.outline.startswith("table: 40 rows × 10 columns (country, continent, year,")
    assert "Afghanistan,Asia,1952,28.801,8425333,779.4453145,AFG,4,65.0,33.0" in extract.text
    assert_table_verbatim(extract.text, text)


def test_grid_cells_of_aligned_right_aligned_and_quoted_rows() -> None:
    lines = [
        "USER         PID %CPU COMMAND",
        "root           1  0.0 /sbin/init splash",
        "www-data   12345 12.5 nginx: worker process",
        "root         812  0.1 /usr/sbin/sshd -D",
    ]
    grid = parse_grid(lines, 0, [1, 2, 3])
    assert grid is not None and grid.names == ("USER", "PID", "%CPU", "COMMAND")
    assert grid.cells(lines[2]) == ["www-data", "12345", "12.5", "nginx: worker process"]
    assert grid.span(lines[1], 1, 2) == "1  0.0"
    csv_lines = ["name,city,score", 'Ann,"Paris, FR",3', "Bob,Oslo,4", "Eve,Rome,5"]
    csv_grid = parse_grid(csv_lines, 0, [1, 2, 3])
    assert csv_grid is not None and csv_grid.cells(csv_lines[1]) == ["Ann", "Paris, FR", "3"]
    assert csv_grid.span(csv_lines[2], 0, 1) == "Bob,Oslo"


def test_a_table_without_a_header_names_its_columns_and_keeps_its_first_row() -> None:
    # ls -l opens with "total 1752", then rows: the count was read as the header (2 columns).
    text = _read("ls-l-dist-packages.txt")
    extract = summarize(text, ContentKind.TABLE, budget=900)
    assert extract.outline.startswith("table: 30 rows × 9 columns (column 1, column 2,")
    assert "drwxr-xr-x 64 root root   4096 Dec  1 08:59 ." in extract.text
    assert_table_verbatim(extract.text, text)


def test_ps_keeps_its_command_column_though_kernel_threads_are_bracketed() -> None:
    # "[kthreadd]"-like cells were read as JSON lists, and COMMAND, what a process is, was left
    # out of every row.
    text = _read("ps-aux-kernel-threads.txt")
    extract = summarize(text, ContentKind.TABLE, budget=900)
    header = extract.text.splitlines()[1]
    assert header.startswith("USER       PID") and header.endswith(" COMMAND")
    assert "0:00 [kthreadd]" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_footer_that_sums_the_rows_up_is_kept_and_is_no_row() -> None:
    # A listing with sizes ends with "Total: 263 files, 0 directories" and "Combined size: …":
    # they were rows, and the count of files was not in stage 1.
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind

    text = (BENCH_CORPUS / "tree-filesystem-sizes-pygments-lexers.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1400)
    assert "262 rows" in extract.text  # 263 files: the first one is read as the header
    assert extract.text.splitlines()[-2:] == ["Total: 263 files, 0 directories", "Combined size: 3.90 MB"]
    psql = "id | name\n----+-----\n 1 | a\n 2 | b\n(2 rows)\n"
    assert summarize(psql, ContentKind.TABLE, budget=600).text.splitlines()[-1] == "(2 rows)"


def test_a_totals_row_a_few_lines_above_the_end_is_kept_with_the_lines_below_it() -> None:
    # scc --by-file of pyzmq 27.1.0 (fresh35b): its ``Total`` row, then the cost estimates and
    # ``Processed 1,015,079 bytes``, between rules; only lines in the last three could be a
    # footer, so stage 1 showed neither the totals nor the estimates (failed before).
    text = (BENCH_CORPUS / "table-cpj-scc-410-by-file-pyzmq-2710-sdist.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=2600)
    assert extract.text.splitlines()[-5:] == [
        "Total                 272      32,716     5,523     5,228     21,965      2,563",
        "Estimated Cost to Develop (organic) $692,563",
        "Estimated Schedule Effort (organic) 11.96 months",
        "Estimated People Required (organic) 5.14",
        "Processed 1,015,079 bytes, 1.015 megabytes (SI)",
    ]
    # A "Total" a dozen lines above the end is a row like any other.
    rows = [f"item{n:02d}   {n * 3:>4}   {n * 7:>5}" for n in range(30)]
    table = "\n".join(
        ["name     count   bytes", "-------  -----   -----", *rows[:15], "total    999   9999", *rows[15:]]
    )
    assert summarize(table, ContentKind.TABLE, budget=600).text.splitlines()[-1] != "total    999   9999"


def _boxed(count: int) -> str:
    rule = "+-----+------------------+-------+---------------------+"
    lines = [rule, "| id  | email            | level | created_at          |", rule]
    for i in range(count):
        level = "ERROR" if i % 7 == 0 else "INFO "
        lines.append(f"| {i:>3} | {f'u{i}@example.com':<16} | {level} | 2026-12-02 10:{i % 60:02d}:06 |")
    return "\n".join([*lines, rule, f"{count} rows in set (0.01 sec)", ""])


def test_a_boxed_mysql_table_counts_its_rows_not_its_rules_and_footer() -> None:
    text = _boxed(300)
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    body = extract.text
    assert body.startswith("300 rows × 4 columns\n")  # was 302: the closing rule and the footer
    assert "- id: number, 300 distinct, 0 … 299" in body
    assert body.rstrip().endswith("300 rows in set (0.01 sec)")
    assert "+-----" not in body.split("columns: ")[0].split("\n", 2)[2]


def test_a_listing_with_sizes_keeps_its_totals_when_its_columns_cannot_be_cut_apart() -> None:
    # server-filesystem's list_directory_with_sizes of ESLint's lib/rules: a "[DIR] utils" line
    # without a size leaves no column grid, and the line-by-line table dropped the totals below
    # its last row ("Total: 293 files, 1 directories", "Combined size: 1.84 MB").
    text = (DATA / "list-directory-with-sizes-eslint-rules.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="list_directory_with_sizes") is ContentKind.TREE  # sized_listing
    lines = summarize(text, ContentKind.TREE, budget=1500).text.splitlines()
    assert lines[-2:] == ["Total: 293 files, 1 directories", "Combined size: 1.84 MB"]
    assert "[FILE] indent.js                        64.90 KB" in lines


def test_several_psql_tables_show_each_title_and_its_rows_without_empty_columns() -> None:
    # psql's ``\d+`` of five tables, then ``\dt+`` and ``\di+``: before, "text: 97 lines" and a
    # Directive with nothing of the schema (no one delimiter count or lane for the whole text).
    text = _read("psql-describe-tables.txt")
    assert detect_kind(text, tool_name="describe_table") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=2100)
    assert extract.outline.startswith("tables: 7 tables, ")
    for name in ("airports", "cars", "stocks", "seattle_weather", "la_riots"):
        assert f'Table "public.{name}"\n' in extract.text, name
    # Collation, Compression and Stats target are empty in every row: left out, the rest kept.
    assert "iata      | character varying(4) | not null | extended | IATA / FAA location identifier\n" in (
        extract.text
    )
    assert "Compression" not in extract.text.split('Table "public.cars"')[0]
    assert len(extract.text.encode()) <= 2100
    assert_table_verbatim(extract.text, text)


def test_a_csv_with_quoted_commas_is_a_table_shown_as_its_lines() -> None:
    # psql --csv quotes a field holding commas ("~(name,text)"): the comma count varied from row
    # to row, so the output was plain text and got a Directive with none of its rows; read as a
    # table, its rows were re-joined with " | " instead of shown as the payload spells them.
    text = _read("psql-csv-pg-operator-head.csv")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    assert extract.outline.startswith("table: 119 rows × 9 columns")
    assert '640,!~,b,name,text,boolean,nameregexne,0,"~(name,text)"\n' in extract.text
    assert '1536,#,b,lseg,lseg,point,lseg_interpt,"#(lseg,lseg)",0\n' in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_table_drawn_with_box_characters_is_a_grid_with_its_last_row() -> None:
    # sqlite3 -box draws with │ ┌ ├ └: no column was found, and the "last row" shown was the
    # closing └───┴───┘ rule, so the table's end (Zzzz 999) was not in stage 1.
    text = _read("sqlite-box-iso15924-scripts.txt")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    assert extract.outline.startswith("table: 182 rows × 3 columns (alpha_4, numeric, name)")
    # each row whole, to its closing │ (before: cut at its last cell's text)
    assert "│ Xsux    │ 020     │ Cuneiform, Sumero-Akkadian" + " " * 38 + "│\n" in extract.text
    assert "│ Zzzz    │ 999     │ Code for uncoded script" + " " * 41 + "│\n" in extract.text
    assert "└──" not in extract.text
    assert "- numeric: number, 182 distinct" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_wide_tables_rows_are_quoted_as_spelled() -> None:
    # csvkit's csvlook pads its cells: the rows were shown as their cells joined again
    # ("Vivian | Austin | 87 | Female"), which quotes no line of the payload; a row's first
    # columns as spelled name it and can be searched for as they stand.
    text = _read("csvlook-la-riots.txt")
    extract = summarize(text, ContentKind.TABLE, budget=2600)
    lines = extract.text.splitlines()
    assert lines[1].startswith("| first_name     | last_name     | age | gender |")
    assert any(line.startswith("| Vivian         | Austin        |  87 | Female |") for line in lines)
    assert_table_verbatim(extract.text, text)


def test_the_rows_holding_a_columns_greatest_and_least_values_are_shown() -> None:
    # psql's 276 city-years: stage 1 showed the first 13 rows, the last, and "sales: 165 … 83412"
    # naming no row, so "which city sold the most" and "the highest median price" were not in it.
    text = _read("psql-txhousing-city-year.txt")
    extract = summarize(text, ContentKind.TABLE, budget=1800)
    assert "Houston               | 2014 | 83412 |     22142.5 |" in extract.text  # most sales
    assert "Collin County         | 2015 |  9585 |      3186.8 |           289400 |" in extract.text  # price
    assert "Wichita Falls         | 2015 |   941 |" in extract.text  # the last row still
    assert_table_verbatim(extract.text, text)


def test_rows_narrowed_from_the_first_column_start_where_their_line_starts() -> None:
    # Failed before: psql's rows open with a space, which the narrowed rows dropped, so
    # " Houston | 2014 | 83412" (the line as the agent would quote or grep it) was not in stage 1.
    text = _read("psql-txhousing-city-year.txt")
    lines = text.splitlines()
    extract = summarize(text, ContentKind.TABLE, budget=1800)
    rows = [line for line in extract.text.splitlines() if line.startswith(" ") and " | " in line]
    assert " Houston               | 2014 | 83412 |" in extract.text
    assert len(rows) > 10
    assert all(any(payload.startswith(row) for payload in lines) for row in rows)


def test_a_report_of_titled_sections_shows_every_title_and_each_sections_first_lines() -> None:
    # readelf -aW was one table of its first section (the ELF header): the symbol table's and the
    # relocations' sizes, the build id at its end, were not in stage 1
    text = (BENCH_CORPUS / "table-readelf-aw-libexpat.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "readelf -aW libexpat.so.1"})
    assert isinstance(decision, Summary)
    shown = decision.extract.text.split("\n")
    assert decision.extract.outline == "report: 579 lines, 12 titled sections"
    for title in (
        "Section Headers:",
        "Symbol table '.dynsym' contains 91 entries:",
        "Version needs section '.gnu.version_r' contains 1 entry:",
    ):
        assert title in shown
        assert shown[shown.index(title) + 1].startswith(" ")  # and the section's first line
    assert shown[-1].endswith("Build ID: a2f37366bc9782b9306773fd6318838fbae5ad5d")


def test_a_table_with_a_title_line_or_two_is_no_report() -> None:
    text = "Installed packages:\n" + "\n".join(f"  pkg{n}    1.{n}.0    ok" for n in range(30))
    assert not is_report(text.split("\n"), report_titles(text.split("\n")))


def test_a_wide_result_shows_its_first_row_and_the_least_of_a_later_column() -> None:
    # sqlite3 -markdown of monthly measures: the greatest values of the first columns took every
    # slot, so the month of a later column's least value was not shown. A result is read from its
    # top too: its first row stays among the rows shown.
    measures = ("pce", "pop", "psavert", "uempmed", "unemploy")
    draw = random.Random(7)
    lines = ["| date       | " + " | ".join(f"{name:>8}" for name in measures) + " |"]
    lines.append("|------------|" + "|".join("-" * 10 for _ in measures) + "|")
    for month in range(300):
        year, rest = divmod(month, 12)
        values = [draw.randint(2000, 9000) / 10 for _ in measures]
        if month == 187:
            values[2] = 1.9  # the least saving rate
        cells = " | ".join(f"{value:>8.1f}" for value in values)
        lines.append(f"| {1990 + year}-{rest + 1:02d}-01 | {cells} |")
    text = "\n".join(lines)
    extract = summarize(text, ContentKind.TABLE, budget=2400)
    assert lines[2] in extract.text  # the first row
    assert lines[2 + 187] in extract.text  # the least psavert
    assert_table_verbatim(extract.text, text)


def test_a_process_rows_command_line_is_shown_past_the_usual_row_width() -> None:
    # ps auxww: COMMAND, the last column, is what names a process (its options, its port, its
    # data directory); rows cut at 120 characters ended at "-p 2…", before pgbench's own options.
    text = (BENCH_CORPUS / "table-ps-aux-app-stack.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1200)
    assert "/usr/lib/postgresql/15/bin/pgbench -h 127.0.0.1 -p 25432 -U postgres -c 10 -j 2 -T 5 vega" in (
        extract.text
    )
    assert "0:00 ps auxww" in extract.text  # the last row still
    assert_table_verbatim(extract.text, text)


def test_sqlite_column_results_one_after_another_are_each_shown_with_their_rows() -> None:
    # sqlite3 -column prints a script's results with no blank line between: the later headers and
    # rows were read as rows of the first result (its columns cut wrong), so the statewide totals
    # and the candidates' shares, one and seven rows long, were not in stage 1.
    text = (BENCH_CORPUS / "table-sqlite-column-car-florida-2000-county-vote.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1400)
    assert "67        2903861  2904836  17317     96563  975          5961531" in extract.text
    assert "NADER       96563    1.62" in extract.text
    assert "county        BUCHANAN  Total   buchanan_pct  share_of_state_buchanan" in extract.text
    assert "CALHOUN       90        5174    1.739         0.52" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_rule_under_right_aligned_numbers_opens_no_table() -> None:
    # unzip -l's second rule sits under the last row, above the totals: no header names it.
    lines = [
        "  Length      Date    Time    Name",
        "---------  ---------- -----   ----",
        "     1024  2024-01-02 10:00   pkg/a.py",
        "     2048  2024-01-02 10:00   pkg/b.py",
        "---------                     -------",
        "     3072                     2 files",
    ]
    assert aligned_table_headers(lines) == []
    results = ["name  size", "----  ----", "a     1", "b     2", "files  bytes", "-----  -----", "2      3"]
    assert aligned_table_headers(results) == [0, 4]


def test_the_rows_holding_a_date_columns_latest_and_earliest_dates_are_shown() -> None:
    # csvlook's deaths by date: "the latest death" is the row with the greatest ISO date, which
    # the extremes left out (a date is no number), so only the first rows and the last were shown.
    text = _read("csvlook-la-riots.txt")
    extract = summarize(text, ContentKind.TABLE, budget=1200)
    assert "| Wallace        | Tope          |  54 | Male   | White  | 1993-11-24 |" in extract.text
    assert_table_verbatim(extract.text, text)


def test_the_row_alone_holding_a_rare_value_of_a_column_of_few_values_is_shown() -> None:
    # awk's daily temperatures: every day has 24 hourly readings but the day the clocks went
    # forward (23); stage 1 showed the first days, the extremes and the last, not the odd day.
    text = (BENCH_CORPUS / "table-awk-sf-temps-daily.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1400)
    assert "2010/03/14    23   49.4   60.2  54.27" in extract.text
    assert "2010/01/01    24   45.8   53.3  49.17" in extract.text  # the first row still
    assert_table_verbatim(extract.text, text)


def test_the_first_row_of_each_rare_value_is_an_odd_row() -> None:
    # openssl ciphers -v: one cipher of 157 pairs no encryption with an MD5 MAC.
    text = (BENCH_CORPUS / "table-openssl-ciphers-v-all.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1400)
    assert "NULL-MD5                       SSLv3   Kx=RSA      Au=RSA   Enc=None" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_value_two_rows_of_sixty_hold_is_rare_and_its_first_row_is_shown() -> None:
    # systemctl list-units: 57 services running, the two failed ones late in the list; a value
    # one row in thirty holds is as odd as one a single row holds.
    names = [f"svc-{n:02d}.service" for n in range(60)]
    states = {41: ("failed", "failed"), 52: ("failed", "failed"), 47: ("active", "exited")}
    lines = ["UNIT                 LOAD   ACTIVE   SUB      DESCRIPTION"]
    for order, name in enumerate(names):
        active, sub = states.get(order, ("active", "running"))
        lines.append(f"{name:<20} loaded {active:<8} {sub:<8} Service number {order}")
    text = "\n".join(lines)
    extract = summarize(text, ContentKind.TABLE, budget=900)
    assert "svc-41.service       loaded failed   failed" in extract.text
    assert "svc-47.service       loaded active   exited" in extract.text
    assert_table_verbatim(extract.text, text)


def test_a_psql_rows_empty_last_cell_is_a_cell_not_a_closing_pipe() -> None:
    # psql's \crosstabview: a row whose last column is empty ends in "|    ", which read as a
    # closing pipe left it a cell short, so the table was read by alignment and "|" became a
    # column name (failed before: 25 columns, "country, |, Feb, | (4), …").
    lines = [
        "   country   | Feb | Mar | Oct ",
        "-------------+-----+-----+-----",
        " Afghanistan |   2 |   3 |     ",
        " Albania     |     |   6 |   1 ",
        " Algeria     |     |   3 |     ",
        " Andorra     |   1 |     |     ",
    ]
    grid = parse_grid(lines, 0, [2, 3, 4, 5])
    assert grid is not None and grid.names == ("country", "Feb", "Mar", "Oct")
    assert grid.cells(lines[2]) == ["Afghanistan", "2", "3", ""]
    assert grid.span(lines[2], 0, 3) == lines[2].rstrip()


def test_a_padded_key_column_is_left_out_so_rows_show_whole_and_more_fit() -> None:
    # pip-licenses pads Author to its widest value: Name to Author spanned 160 characters, so
    # every row was its line cut at 120 ("… Amazon Web Services…") and 13 of 38 rows fit; the
    # rows are now Name to License, each whole (failed before: psycopg's and Django's rows left out).
    text = (BENCH_CORPUS / "table-pip-licenses-django-celery-stack.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=2200)
    rows = extract.text.split("columns: ")[0]
    assert " Name                   Version           License\n" in rows
    assert " psycopg                3.3.9             LGPL-3.0-only\n" in rows
    assert " Django                 5.2.19            BSD-3-Clause\n" in rows
    assert "Amazon Web Services" not in rows
    assert_table_verbatim(extract.text, text)


def test_cloc_by_file_is_a_table_whose_header_sits_between_two_rules_and_whose_sum_is_shown() -> None:
    # cloc --by-file: its rules under the title and the header underlined "headings", so it was
    # Markdown; read as a table, the title above the first rule was taken for the header and the
    # rules between rows and SUM for rows (failed before: markdown, no SUM line).
    text = (BENCH_CORPUS / "table-cloc-by-file-werkzeug-313.txt").read_text(encoding="utf-8")
    assert (
        detect_kind(text, tool_name="run_command", arguments={"command": "cloc --by-file ."})
        is ContentKind.TABLE
    )
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    assert extract.outline.startswith("table: 237 rows × 4 columns (File, blank, comment, code)")
    assert "SUM:" + " " * 65 + "8423           7147          28335" in extract.text.splitlines()
    assert "- code: number, 135 distinct, 0 … 2324" in extract.text


def test_a_row_shown_for_a_columns_extreme_reaches_that_column() -> None:
    # sqlite-utils' penguins, 11 columns, 160 characters wide: the rows are shown to Flipper
    # Length (120 characters), but the heaviest, the lightest and the highest Delta 15 N rows
    # are shown for Body Mass and Delta 15 N, which lie past it.
    name = "table-sqlite-utils-table-palmerpenguins-raw-by-mass.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "sqlite-utils rows penguins.db raw"})
    assert isinstance(decision, Summary)
    shown = decision.extract.text
    heaviest = "N39A2            Gentoo     Biscoe     2007-11-27  49.2                  15.2   "
    assert heaviest + "              221                    6300\n" in shown
    assert "192                    2700\n" in shown  # the lightest
    assert "205                    4500             MALE    10.02544\n" in shown  # the highest Delta 15 N
    assert "230\n" in shown  # a row shown for another reason keeps the table's width
    assert_table_verbatim(shown, text)


def test_the_lines_above_a_tables_header_are_shown_as_its_title() -> None:
    # cloc --by-file: its version line and its count of files ignored sit above the table.
    text = (BENCH_CORPUS / "table-cloc-by-file-werkzeug-313.txt").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.TABLE, budget=1500).text.split("\n")
    version = "github.com/AlDanial/cloc v 1.96  T=0.16 s (1491.8 files/s, 276363.5 lines/s)"
    assert shown[1:5] == ["Counting:  200", "42 files ignored.", version, shown[4]]
    assert shown[4].startswith("File ")
    assert_table_verbatim("\n".join(shown), text)
    # psql's \dt: the listing's title above its header
    rows = "".join(f" public | table_{n:02} | table | postgres\n" for n in range(30))
    header = " Schema |   Name   | Type  |  Owner\n--------+----------+-------+----------\n"
    psql = f"          List of relations\n{header}{rows}(30 rows)\n"
    assert summarize(psql, ContentKind.TABLE, budget=800).text.split("\n")[1] == "List of relations"


def test_a_statement_echoed_between_short_rules_is_no_header() -> None:
    # mariadb -t -vvv echoes its query between two "--------------" lines above the boxed result:
    # the query was read as the header, its clauses as 38 columns and the rows as one column's
    # values (not values of the payload); the client's "Bye" was a row.
    text = (BENCH_CORPUS / "rows-mariadb-t-nycflights13-busy-routes.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    assert extract.outline.startswith("table: 122 rows × 9 columns (origin, dest, dest_name, airline")
    assert "- origin: 3 distinct: EWR ×46, JFK ×44, LGA ×32" in extract.text
    assert "122 rows in set (1.933 sec)" in extract.text


def test_tables_one_under_another_with_blank_lines_between_are_shown_table_by_table() -> None:
    # A script printing three pandas frames (statsmodels' Grunfeld data, its groupby describe and a
    # pivot): one grid was cut across all three, "256 rows × 2 columns (invest     value   capital
    # firm, year)", and the pivot's rows were described as values of a "year" column.
    text = (BENCH_CORPUS / "table-pandas-to-string-statsmodels-grunfeld-investment.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, ContentKind.TABLE, budget=1400)
    assert extract.outline.startswith("tables: 3 tables, ")
    for header in (
        "       invest     value   capital               firm    year",
        "                     mean     min      max     mean      min      max    mean     min      max",
        "American Steel       6.85    2.94    15.28    57.54    30.28   107.02   68.02   52.01    83.79",
        "firm    American Steel  Atlantic Refining  Chrysler  Diamond Match",
    ):
        assert header in extract.text, header
    assert_table_verbatim(extract.text, text)
    # One table, or runs that are no aligned tables, are read as before.
    assert blank_separated_headers(text.splitlines()[:221]) == []
    assert blank_separated_headers(["a  b", "1  2", "", "some words here", "", "x  y", "3  4"]) == []


def test_psqls_describe_of_several_tables_is_tables_whatever_the_tool_is_called() -> None:
    # `psql -c '\d+ auth_*'` of Django 5.2's auth tables through a shell tool: their notes between
    # the tables (Indexes:, Referenced by:, Access method:) made it "manual: 270 lines, 13
    # sections", no column shown; only a tool named like describe_table got the tables.
    text = (BENCH_CORPUS / "table-psql-d-plus-django-5219-auth-tables.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    assert detect_kind(_read("psql-describe-tables.txt"), tool_name="run_command") is ContentKind.TABLE
    decision = route(text, tool="run_command", arguments={"command": "psql -c '\\d+ auth_*'"})
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.outline.startswith("tables: 33 tables, ")
    # an index's header said once: the rows under the later ones are shown instead
    assert extract.text.count(" Column |          Type          | Key? | Definition | Storage") == 1
    assert " name   | character varying(150) | yes  | name       | extended" in extract.text
    assert_table_verbatim(extract.text, text)
    # Markdown's tables (a rule of pipes) and a diff's added table are not psql's.
    markdown = "# A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## B\n\n| c | d |\n|---|---|\n| 3 | 4 |\n"
    assert detect_kind(markdown) is not ContentKind.TABLE
    added = "".join(f"+| t{n} | u |\n++----+---+\n+| 1 | 2 |\n" for n in range(3))
    diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,0 +1,9 @@\n" + added
    assert detect_kind(diff) is not ContentKind.TABLE


def test_psqls_describe_of_one_table_is_that_table_with_its_notes() -> None:
    # `psql -c '\d+ icinga_servicestatus'` (Icinga 2's IDO schema): one table under its title, then
    # 19 index lines: "log: 77 lines, 1 warning", the columns' types left out.
    text = (BENCH_CORPUS / "table-gannet-psql-d-plus-icinga2-2136-servicestatus.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=1300)
    assert extract.outline.startswith('tables: 1 table, 52 rows (Table "public.icinga_servicestatus")')
    assert " check_source                  | character varying(255)" in extract.text
    assert "Indexes:" in extract.text
    assert_table_verbatim(extract.text, text)
    # a single psql table without psql's title is read as one grid, as before
    untitled = "\n".join(text.splitlines()[1:40])
    assert described_tables(untitled.splitlines()) == []


def test_a_table_printed_again_shows_its_last_print_and_the_lines_above_the_first() -> None:
    # locust --headless prints its stats table every few seconds between its log lines: stage 1
    # showed the first print (0 requests) and none of the log lines (its version, its users).
    text = (BENCH_CORPUS / "table-capr-locust-2470-headless-vcrpy-docs-http-server.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, ContentKind.TABLE, budget=1900)
    shown = extract.text.splitlines()
    assert shown[0] == "[2026-12-05 16:55:56,240] vm/INFO/locust.main: Starting Locust 2.47.0"
    assert any(line.split()[:4] == ["GET", "/index.html", "47", "0(0.00%)"] for line in shown)
    assert not any(line.split()[:3] == ["Aggregated", "0", "0(0.00%)"] for line in shown)
    assert_table_verbatim(extract.text, text)


def test_a_totals_row_and_the_verdict_under_the_last_table_are_shown() -> None:
    # interrogate -vv on oauthlib's oauth2 package: its summary table's TOTAL row and the closing
    # "RESULT: FAILED (minimum: 80.0%, actual: 70.3%)" were left out for the detailed table's rows
    # (failed before).
    from tests.corpora import BENCH_CORPUS

    path = BENCH_CORPUS / "table-capx-interrogate-170-vv-oauthlib-322-oauth2.txt"
    text = path.read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    shown = summarize(text, kind, budget=2500).text.splitlines()
    assert (
        "| TOTAL                                                      |   293 |   87 |   206 |  70.3% |"
        in shown
    )
    assert "---------------- RESULT: FAILED (minimum: 80.0%, actual: 70.3%) ----------------" in shown


def test_boxed_tables_with_headers_over_several_lines_keep_their_titles_and_headers() -> None:
    # Failed before: PSPP's output (fresh31b) of 13 boxed tables, their headers over several
    # lines (wrapped cells, "Cases" over "Valid | Missing | Total" over "N | Percent"), read as 9
    # tables: a wrapped header was taken for a last row (three Chi-Square tables, the ANOVA were
    # no tables), a header's next line for another table's header, no title above a box's top
    # rule was shown, and header lines were shown as cells joined anew ("Valid | Missing | Total").
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "table-cpb-pspp-162-pingouin-070-heart-crosstabs-ttest.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, detect_kind(text, tool_name="run_command"), budget=3000)
    assert extract.outline.startswith("tables: 13 tables, ")
    lines = extract.text.splitlines()
    for title in (
        "Descriptive Statistics",
        "Summary",
        "Chi-Square Tests",
        "Independent Samples Test",
        "ANOVA",
    ):
        assert title in lines
    assert "|                   |     |  |  Asymptotic Sig. |Exact Sig. (2-|Exact Sig. (1-|" in lines
    assert "|                                           |   Valid   | Missing |   Total   |" in lines
    assert all(line in text for line in lines if line != "…")  # every line as the payload spells it


def test_rich_tables_with_a_heavy_header_are_read_by_their_columns() -> None:
    # rich's ``┃ version ┃`` header over rows of ``│`` and its ``┡━━╇━━┩`` rule were no table:
    # "table: 46 rows", its first and last lines (failed before)
    from tests.corpora import BENCH_CORPUS

    text = (DATA / "rich-cli-181-csv-distro-info-ubuntu.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    assert extract.outline == "table: 44 rows × 6 columns (version, codename, series, created, release, eol)"
    shown = extract.text.split("\n")
    assert shown[1].startswith("┃ version   ┃ codename          ┃")  # the header as it is spelled
    assert "│ 26.04 LTS │ Resolute Raccoon  │ resolute │ 2025-10-09 │ 2026-04-23 │ 2031-05-2" in shown
    # a table of numbers shows the rows holding each column's least and greatest values
    counties = BENCH_CORPUS / "table-cpd-rich-cli-181-libpysal-4141-georgia-counties-1990.txt"
    shown = summarize(counties.read_text(encoding="utf-8"), ContentKind.TABLE, budget=2400).text
    assert "│   13121 │ 33.78940 │ -84.46716 │   648951 │" in shown  # the most people


def test_an_eprof_report_is_a_table_of_numbers_not_properties() -> None:
    # Erlang's ``lists:sort/1   1   0.00   2`` rows read as ``key:value`` properties; as a table, the
    # rule over ``Total:`` made every column text (failed before)
    text = (DATA / "eprof-otp25-total-lists-sort.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=900)
    assert extract.outline.startswith("table: 54 rows × 6 columns (FUNCTION, CALLS, %, TIME")
    shown = extract.text.split("\n")
    assert "- CALLS: number, 25 distinct, 1 … 60000 (FUNCTION orddict:find/2)" in shown
    # the most time
    assert "erl_eval:expr/6                         40009     8.01   17177  [      0.43]" in shown
    assert shown[-1] == "Total:                                 844965  100.00%  214323  [      0.25]"


def test_csv_tables_one_after_another_are_tables_each_under_its_title(tmp_path: Path) -> None:
    # xlsx2csv -a prints each sheet under ``-------- N - name``. Before: a log of 1261 lines whose
    # rows were folded as one template ("5.1,3.5,1.4,0.2,setosa [×35]": 35 rows that differ).
    sheets = (BENCH_CORPUS / "rows-cpp-xlsx2csv-086-readxl-142-datasets-xlsx-all-sheets.csv").read_text(
        encoding="utf-8"
    )
    assert detect_kind(sheets, tool_name="run_command") is ContentKind.TABLE
    decision = route(sheets, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith(
        "tables: 4 tables, 1253 rows (-------- 1 - iris, -------- 2 - mtcars"
    )
    lines = decision.extract.text.split("\n")
    assert "[×" not in decision.extract.text
    assert "weight,feed" in lines and "mpg,cyl,disp,hp,drat,wt,qsec,vs,am,gear,carb" in lines
    assert "-21.59,170.56,165,6,119" in lines  # the last table's last row
    # ``head`` of two CSV files (real coreutils): ``==> a.csv <==`` over each, a blank line between
    relations = (REPO / "tests" / "data" / "asyncpg-pg-catalog-relations.txt").read_text(encoding="utf-8")
    found = re.findall(
        r"relname='(\w+)' relkind=b'(\w)' reltuples=Decimal\('([\d.]+)'\) relpages=(\d+)", relations
    )
    (tmp_path / "relations.csv").write_text(
        "relname,relkind,reltuples,relpages\n" + "".join(",".join(row) + "\n" for row in found),
        encoding="utf-8",
    )
    (tmp_path / "pages.csv").write_text(
        "relpages,relations\n"
        + "".join(f"{pages},{n}\n" for n, pages in enumerate(sorted({r[3] for r in found}))),
        encoding="utf-8",
    )
    listed = subprocess.run(
        ["head", "-n", "200", "relations.csv", "pages.csv"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert detect_kind(listed, tool_name="run_command") is ContentKind.TABLE
    decision = route(listed, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert (
        decision.extract.outline.startswith("tables: 2 tables")
        and "==> pages.csv <==" in decision.extract.outline
    )


def test_a_tab_separated_result_led_by_a_number_is_a_table_not_du_sizes() -> None:
    # MariaDB's ``--batch`` output (a real capture): ``48<TAB>Berlin<TAB>Berlin<TAB>3461421…``
    # had every row read as du's ``SIZE<TAB>PATH`` ("tree: 163 entries with sizes", rows ranked
    # by their id as bytes); du's path holds no further tab.
    text = (BENCH_CORPUS / "rows-cpt-mariadb-1011-batch-miscfiles-15-cities-dat-germany.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="query") is ContentKind.TABLE
    decision = route(text, tool="query")
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("table: 163 rows × 9 columns (id, name, region")
    assert "id\tname\tregion\tpopulation\tlatitude" in decision.extract.text
    assert "entries with sizes" not in decision.extract.text
    du = "4.0K\t./a\n12K\t./b/c.py\n" * 10 + "16K\t.\n"
    assert detect_kind(du) is ContentKind.TREE


def test_top_batch_outputs_columns_are_named_by_the_line_under_its_summary() -> None:
    # Failed before: "table: 72 rows × 12 columns (top, 16:01:52, up, 14, min, …)": the load line
    # named the columns and the summary lines counted as rows.
    text = (DATA / "top-b-n1-debian12.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=1500)
    processes = sum(1 for line in text.splitlines() if line.strip()[:1].isdigit())
    columns = "PID, USER, PR, NI, VIRT, RES, SHR, S, %CPU, %MEM, TIME+, COMMAND"
    assert extract.outline.startswith(f"table: {processes} rows × 12 columns ({columns})")
    shown = extract.text.splitlines()
    assert shown[0].startswith("top - 16:01:52 up 14 min,  0 user,  load average:")
    assert "  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND" in shown
