"""Stage 1 of JSON API results lists the records first: who each one is, one line per record.

On real outputs (``tests/data``, trimmed captures; the shared corpus's npm view): a GitHub issues
list names every issue by number, title, author, state and dates; PyPI's and npm's maps keyed by
versions show the newest releases first (the newest of each minor line, then the rest).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.shapes import json_values
from context_mode.summaries import summarize
from context_mode.summaries.columns import extreme_rows
from context_mode.summaries.packing import size
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS, SHARED_CORPUS

DATA = Path(__file__).resolve().parents[2] / "data"
# Enough older releases to make an object a map (more than 24 keys).
_FILL = [f"0.{minor}.0" for minor in range(1, 8)] + [f"0.8.{patch}" for patch in range(20)]


def _stage1(text: str, tool: str) -> Summary:
    decision = route(text, tool=tool, policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert size(decision.extract.text) <= decision.budget
    return decision


def test_a_github_issues_list_names_every_issue_by_number_title_author_state_and_dates() -> None:
    text = (DATA / "github-list-issues-betamax.json").read_text(encoding="utf-8")
    issues: list[dict[str, Any]] = json.loads(text)
    body = _stage1(text, "list_issues").extract.text
    lines = body.split("\n")
    for issue in issues:
        cells = [issue["title"][:39], issue["user"]["login"], issue["state"], issue["created_at"]]
        cells.append(issue["closed_at"] or "null")
        assert any(
            line.startswith(f"{issue['number']} | ") and all(f" {cell}" in line for cell in cells)
            for line in lines
        ), issue["number"]


def test_the_schema_and_counts_come_after_the_records() -> None:
    text = (DATA / "github-list-issues-betamax.json").read_text(encoding="utf-8")
    body = _stage1(text, "list_issues").extract.text
    lines = body.split("\n")
    assert lines[0] == "10 rows × 25 columns"
    assert lines[1].startswith("number | title | user | state")
    # Every issue's row (10), then the columns' names and what they hold.
    assert lines[12].startswith("columns: url, repository_url, labels_url, ")
    assert lines[13].startswith("- ")


def _version(key: str) -> tuple[int, ...]:
    return tuple(int(part) for part in key.split("."))


def test_a_pypi_package_lists_its_releases_newest_first() -> None:
    text = (DATA / "pypi-rich-releases.json").read_text(encoding="utf-8")
    releases = json.loads(text)["releases"]
    body = json.loads(_stage1(text, "get_package").extract.text)
    shown = [key for key in body["releases"] if key != "…"]
    stable = sorted(
        (key for key in releases if re.fullmatch(r"\d+(\.\d+)+", key)), key=_version, reverse=True
    )
    newest_per_line: dict[tuple[int, ...], str] = {}
    first_per_major: dict[int, str] = {}
    for key in stable:
        newest_per_line.setdefault(_version(key)[:2], key)
        first_per_major[_version(key)[0]] = key
    # The newest, then when each major line began, then each minor line's newest.
    expected = list(dict.fromkeys([stable[0], *first_per_major.values(), *newest_per_line.values()]))
    assert len(shown) >= 5
    assert shown == expected[: len(shown)]
    assert shown[0] == "15.0.0"  # the API lists releases by string order: "9.9.0" last
    # Past the first, a release shows its files by name and upload time.
    files = body["releases"][shown[1]]
    assert all(set(file) >= {"filename", "upload_time"} for file in files if isinstance(file, dict))


@pytest.mark.skipif(not (SHARED_CORPUS / "json-npm-view-express.json").is_file(), reason="no shared corpus")
def test_npm_view_shows_the_publish_times_of_the_newest_versions_first() -> None:
    text = (SHARED_CORPUS / "json-npm-view-express.json").read_text(encoding="utf-8")
    value = json.loads(text)
    latest = value["dist-tags"]["latest"]
    body = _stage1(text, "view").extract.text
    assert f'"time": {{"{latest}": "{value["time"][latest]}"' in body


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        pytest.param(
            ["1.0.0", "1.10.0", "1.2.0", "1.9.1", "1.9.0", "2.0.0-beta.1", "created", "0.9.0", *_FILL],
            ["created", "1.10.0", "1.0.0", "0.1.0", "1.9.1", "1.2.0"],
            id="versions",
        ),
        pytest.param(
            ["2024-01-02", "2025-03-01", "2024-12-31", *(f"2023-01-{day:02d}" for day in range(1, 28))],
            ["2025-03-01", "2024-12-31", "2024-01-02", "2023-01-27"],
            id="dates",
        ),
    ],
)
def test_a_map_keyed_by_versions_or_dates_shows_the_newest_keys_first(
    keys: list[str], expected: list[str]
) -> None:
    text = json.dumps({key: f"value of {key}" for key in keys})
    body = json.loads(summarize(text, ContentKind.JSON, budget=400).text)
    shown = [key for key in body if key != "…"]
    assert shown[: len(expected)] == expected


def test_a_column_constant_only_in_the_first_rows_stays_a_key_column() -> None:
    # A result sorted by state: its first 200 rows are all 'CA', the later ones 'TX'. The
    # constancy check read only the first 200, so the state column was dropped from every row.
    rows = [{"iata": f"C{i:03d}", "state": "CA"} for i in range(250)] + [
        {"iata": f"T{i:03d}", "state": "TX"} for i in range(50)
    ]
    extract = summarize(repr(rows), ContentKind.ROWS, budget=600)
    assert "{'iata': 'C000', 'state': 'CA'}" in extract.text  # too many to fit: rows as spelled
    assert "iata | state" not in extract.text  # members name their columns: no table header


DAYS = [
    {
        "date": f"2014-{month:02d}-{day:02d}",
        "precipitation": str(round(day * 0.7 % 9, 1)) if day % 3 else "0.0",  # dry days
        "wind": f"{day % 7}.{month}",
        "weather": ("sun", "rain", "sun", "fog", "sun", "rain")[(day + month) % 6],
    }
    for month in range(1, 4)
    for day in range(1, 29)
]


def test_a_numeric_columns_least_and_greatest_values_name_their_row() -> None:
    # "Which day was windiest?": the range alone says how strong, not when.
    days = [dict(day) for day in DAYS]
    days[40]["wind"], days[9]["wind"] = "11.5", "-0.5"
    text = repr(days)
    body = summarize(text, ContentKind.ROWS, budget=2500).text
    assert "- wind: number, 23 distinct, -0.5 (date 2014-01-10) … 11.5 (date 2014-02-13)" in body
    # a shared least value (dry days) names no row
    assert re.search(r"- precipitation: number, \d+ distinct, 0\.0 … ", body)


def test_a_columns_few_values_come_with_how_often_each_occurs() -> None:
    body = summarize(repr(DAYS), ContentKind.ROWS, budget=2500).text
    counts = {w: sum(1 for d in DAYS if d["weather"] == w) for w in ("sun", "rain", "fog")}
    assert (
        f"- weather: 3 distinct: sun ×{counts['sun']}, rain ×{counts['rain']}, fog ×{counts['fog']}" in body
    )


def test_an_id_columns_range_names_no_row() -> None:
    people = [
        {"id": str(1000 + i), "name": f"Person {i}", "balance": f"{(i * 37) % 500}.25"} for i in range(60)
    ]
    body = summarize(repr(people), ContentKind.ROWS, budget=2500).text
    assert "- id: number, 60 distinct, 1000 … 1059" in body
    assert "- balance: number, 60 distinct, 0.25 (name Person 0) … 499.25 (name Person 27)" in body


def test_a_list_that_mostly_fits_as_a_table_stays_a_table() -> None:
    # 50 GitHub issues: 42 fit as the identity columns' table, 25 as members spelled as sent.
    text = (BENCH_CORPUS / "json-github-issues-betamax.json").read_text(encoding="utf-8")
    body = _stage1(text, "list_issues").extract.text
    lines = body.split("\n")
    assert lines[1].startswith("number | title | user | state")
    assert sum(bool(re.match(r"\d+ \| ", line)) for line in lines) >= 40


@pytest.mark.parametrize("spelling", [repr, json.dumps])
def test_a_row_matching_the_call_is_shown_once(spelling: Any) -> None:
    people = [{"id": str(1000 + i), "name": f"Person {i}", "city": f"Town{i}"} for i in range(300)]
    body = summarize(spelling(people), ContentKind.ROWS, budget=1500, terms=["Town77"]).text
    assert body.count("Town77") == 1, body
    # The room the repeat took shows other rows.
    assert "Town21" in body


def test_a_matching_record_shown_whole_is_not_repeated_as_a_table_row() -> None:
    blocks = "\n\n".join(
        f"{i + 1}. row\ncode: C-{i:03d}\nname: Place {i}\nkind: {'Town' if i % 2 else 'Village'}"
        for i in range(200)
    )
    body = summarize(blocks, ContentKind.ROWS, budget=1500, terms=["C-077"]).text
    assert body.count("C-077") == 1, body


def test_a_key_of_one_value_in_every_record_gives_way_to_the_keys_that_tell_records_apart() -> None:
    # The memory server's read_graph: every relation is "type": "relation". As an identity field it
    # was shown first on every record and "…": "+3 keys" hid who relates to whom.
    graph = {
        "entities": [
            {
                "type": "entity",
                "name": f"service-{i}",
                "entityType": "service",
                "observations": [f"port {8000 + i}"],
            }
            for i in range(150)
        ],
        "relations": [
            {
                "type": "relation",
                "from": f"service-{i}",
                "to": f"service-{(i * 7) % 150}",
                "relationType": "calls",
            }
            for i in range(200)
        ],
    }
    body = summarize(json.dumps(graph, indent=2), ContentKind.JSON, budget=3000).text
    relations = body.split('"relations": [')[1]
    assert relations.count('"from": "service-') >= 8, body
    assert relations.count('"type": "relation"') <= 2


def test_a_long_text_column_is_cut_in_each_row_and_leaves_room_for_the_others() -> None:
    # mcp-server-sqlite's read_query of a GROUP BY with each group's members joined into one text
    # column (up to 2,980 characters): the first row did not fit, the table stopped there, and the
    # summary showed the last row alone.
    text = (Path(__file__).parents[2] / "data" / "sqlite-mime-parents.txt").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="read_query", arguments={"query": "SELECT …"})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    rows = [line for line in body.splitlines() if line.startswith("{'parent': ")]
    assert len(rows) >= 8, body
    assert rows[0].startswith(
        "{'parent': 'text/plain', 'children': 172, 'media_kinds': 6, 'with_magic': 80, "
    )
    assert rows[0].endswith("…}") and len(rows[0]) < 300
    assert size(body) <= decision.budget


def test_duckdbs_tuples_and_a_stream_of_json_objects_are_rows() -> None:
    # mcp-server-duckdb prints a result as one line, a Python list of tuples; sqlite-mcp-server
    # prints flat JSON objects one after another. Both read as text: a Directive, no row shown.
    from context_mode.kinds import detect_kind
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    data = REPO / "tests" / "data"
    cars = (data / "duckdb-vega-cars-tuples.txt").read_text(encoding="utf-8")
    assert detect_kind(cars, tool_name="query") is ContentKind.ROWS
    decision = route(cars, tool="query", arguments={"query": "SELECT Name, Origin, … FROM cars"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 406 records × 9 columns")
    lines = decision.extract.text.splitlines()
    assert "('audi 100 ls', 'Europe', 1970, 4, 107.0, 90, 2430, 14.5, 24.0)" in lines  # as written
    assert "('pontiac phoenix', 'USA', 1982, 4, 151.0, 90, 2735, 18.0, 27.0)" in lines  # the last
    # the first 3-cylinder car and the first 5-cylinder one (the odd rows) took the room of
    # the Origin column's description
    assert "('mazda rx2 coupe', 'Japan', 1972, 3, 70.0, 97, 2330, 13.5, 19.0)" in lines
    assert "- col3: number, 12 distinct, 1970 … 1982" in lines

    changes = (data / "sqlite-mcp-changelog-objects-head.json").read_text(encoding="utf-8")
    assert detect_kind(changes, tool_name="execute_query") is ContentKind.ROWS
    decision = route(changes, tool="execute_query", arguments={})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 40 records × 8 columns (source, version")
    assert '"source": "abseil", "version": "20220623.1-1+deb12u2"' in decision.extract.text
    # go list -json's objects hold lists: no rows
    assert detect_kind('{\n "Dir": "/a",\n "Deps": ["x"]\n}\n{\n "Dir": "/b",\n "Deps": []\n}\n') is not (
        ContentKind.ROWS
    )


def test_json_lines_of_records_are_rows_and_a_loggers_lines_are_not() -> None:
    # jq -c's records, one per line, each with a list of tags, were "text: nothing stands out":
    # a 354-byte Directive for 48 kB of emoji records (only pretty-printed objects of scalars were rows).
    from context_mode.kinds import detect_kind

    text = (DATA / "jq-c-emojibase-animals-head.jsonl").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    decision = route(text * 4, tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 160 records × 9 columns (hexcode, emoji, label,")
    # a structured logger's lines name a level or time: they stay a log
    events = "".join(
        json.dumps({"level": 30, "time": 1796116941636 + n, "pid": 14511, "msg": f"request {n} done"}) + "\n"
        for n in range(60)
    )
    assert detect_kind(events, tool_name="run_command") is not ContentKind.ROWS


def test_compact_json_rows_are_shown_as_the_payload_spells_them() -> None:
    # psql's json_agg writes no space after a comma: before, the rows were re-joined with ", "
    # (``{"obs_date":"2015-01-01", "precipitation":0.0, …}``), a record found nowhere in the payload.
    text = (DATA / "psql-json-agg-weather-head.json").read_text(encoding="utf-8")
    body = _stage1(text, "query").extract.text
    records = [line for line in body.split("\n") if line.startswith('{"obs_date"')]
    assert len(records) >= 5
    for record in records:
        assert record in text, record


def test_a_compact_json_objects_skeleton_is_spelled_as_compact_as_the_payload() -> None:
    # ``cargo metadata`` writes no spaces: its skeleton was spelled with them
    # (``{"name": "bstr", "version": "0.2.17", …}``), members found nowhere in the payload.
    text = (BENCH_CORPUS / "json-cargo-metadata-csv.json").read_text(encoding="utf-8")
    body = _stage1(text, "shell__run").extract.text
    assert '{"name":"bstr","version":"0.2.17",' in body
    members = re.findall(r'"[a-z_]+":(?:"[^"…]*"|\d+)', body)
    assert len(members) > 20
    assert all(member in text for member in members)


def test_a_compact_array_without_members_is_spelled_compact_too() -> None:
    # Found in review: with no object member to read the spacing from, ``[[0,1,"x"],…]`` got a
    # skeleton of ``[0, 1, "x"]``, items found nowhere in the payload.
    from context_mode.summaries.json_summary import summarize_json

    text = json.dumps([[n, n + 1, "x"] for n in range(300)], separators=(",", ":"))
    items = [line.strip().rstrip(",") for line in summarize_json(text, budget=400).text.splitlines()[1:-1]]
    assert len(items) > 5 and all(item in text for item in items if "…" not in item)


def test_psqls_expanded_records_are_a_row_set_with_the_last_record() -> None:
    # psql -x: "-[ RECORD 1 ]---" blocks of "column   | value" lines were a table of two columns
    # named "RECORD" and "1" with 439 rows, its first blocks line by line and no last record.
    from context_mode.kinds import detect_kind

    text = (DATA / "psql-expanded-ubuntu-releases.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    extract = summarize(text, ContentKind.ROWS, budget=2200)
    assert extract.outline.startswith("rows: 44 records × 9 columns (version, codename, series,")
    assert "26.04 LTS | Resolute Raccoon" in extract.text  # the last record
    assert "4.10 | Warty Warthog | warty" in extract.text
    # columns most records leave empty (eol_esm: 36 of 44) are not key columns: before, every
    # row spelled them out empty ("eol_esm    |;") and 9 rows fitted instead of 25
    assert "eol_esm    |" not in extract.text
    assert sum(1 for line in extract.text.splitlines() if " | " in line) >= 20
    assert size(extract.text) <= 2200


def test_lines_of_key_value_fields_are_a_row_set_of_their_lines() -> None:
    # redis-cli CLIENT LIST: 44 lines of "id=480 addr=127.0.0.1:54016 … cmd=lpush" fields were
    # plain text, summarised by its first line only.
    from context_mode.kinds import detect_kind

    text = (DATA / "redis-client-list-benchmark.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    extract = summarize(text, ContentKind.ROWS, budget=2600)
    assert extract.outline.startswith("rows: 44 records × 28 columns (id, addr, laddr, fd,")
    lines = extract.text.split("\n")
    assert lines[1].startswith(
        "id=480 addr=127.0.0.1:54016 laddr=127.0.0.1:6399 fd=36 name= age=4 idle=0 flags=N"
    )
    assert any(line.startswith("id=508 addr=127.0.0.1:54256 laddr=127.0.0.1:6399 fd=52") for line in lines)
    assert "- fd: number, 44 distinct, 8 (id 451) … 52 (id 508)" in lines
    assert size(extract.text) <= 2600
    # a logfmt log is no row set
    logfmt = "\n".join(f"ts=2026-12-03T04:{n:02d}:00Z level=info msg=tick n={n}" for n in range(10))
    assert detect_kind(logfmt) is not ContentKind.ROWS


def test_a_records_number_is_shown_as_the_payload_spells_it() -> None:
    # sqlite3 -json writes floats as SQLite spells them (7.0499999999999998223); Python's JSON
    # read them as floats and wrote them back shortest (7.05): a value not in the payload
    text = (DATA / "sqlite-json-fertility-by-country.json").read_text(encoding="utf-8")
    body = _stage1(text, "run_command").extract.text
    assert '"tfr_1960":7.0499999999999998223' in body
    assert '"tfr_1960":7.05,' not in body


def test_a_small_object_is_shown_whole_before_a_big_ones_samples() -> None:
    # npm view axios --json: its four dependencies were "…": "+4 keys" while ten of the 15
    # "exports" mappings and eight "browser" ones were shown
    text = (DATA / "npm-view-axios.json").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.JSON, budget=2500).text
    assert '"dependencies": {"follow-redirects": "^1.16.2", "form-data": "^4.0.6",' in body
    assert size(body) <= 2500


def test_many_records_half_of_whose_members_are_scalars_are_rows() -> None:
    # jq's projection of world-countries: each country has 8 scalar members and 5 lists or maps
    # (capital, borders, languages, currencies, callingCodes). It was JSON, whose skeleton showed
    # four countries in 5.8 kB; as rows, a table of dozens with the largest and smallest area.
    from context_mode.kinds import detect_kind

    text = (DATA / "jq-world-countries-head.json").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.ROWS
    extract = summarize(text, ContentKind.ROWS, budget=2500)
    assert extract.outline.startswith("rows: 40 records × 13 columns (name, official, cca2, cca3,")
    rows = [line for line in extract.text.splitlines() if line.count(" | ") >= 7]
    assert len(rows) >= 20
    assert "Antarctica | Antarctica | AQ | ATA | Antarctic |  | 14000000 | false" in rows  # the largest area
    # a few records stay JSON, shown whole in its skeleton
    few = json.dumps(json.loads(text)[:8], indent=2)
    assert detect_kind(few, tool_name="run_command") is ContentKind.JSON


def test_a_numeric_column_with_nulls_still_shows_the_row_holding_its_greatest_value() -> None:
    # SQLite's rows of mammals' sleep: brain weight is NULL for some animals. One NULL made the
    # column "no number", so the row of the heaviest brain was not among those shown.
    animals = [
        {
            "name": f"Animal {i}",
            "vore": ("herbi", "carni", "omni")[i % 3],
            "brainwt": None if i % 4 else i / 1000,
        }
        for i in range(120)
    ]
    animals[57]["brainwt"] = 5.712
    body = summarize(repr(animals), ContentKind.ROWS, budget=1500).text
    assert "'name': 'Animal 57'" in body, body


def test_a_record_shown_by_its_key_columns_keeps_the_narrow_columns_between_them() -> None:
    # SQLite's UTF-8 locales: every row's charset is 'UTF-8', so it was left out of the key
    # columns and each row shown was no longer a run of its record as the payload spells it.
    locales = [
        {
            "locale": f"l{i}_XX.UTF-8",
            "charset": "UTF-8",
            "language": f"Language {i}",
            "territory": f"Territory {i}",
            "int_curr_symbol": f"C{i:02d} ",
            "int_prefix": str(100 + i),
        }
        for i in range(300)
    ]
    text = repr(locales)
    body = summarize(text, ContentKind.ROWS, budget=1500).text
    assert "{'locale': 'l0_XX.UTF-8', 'charset': 'UTF-8', 'language': 'Language 0'" in body, body
    assert "'int_prefix': '399'}" in body  # the last row too


def test_a_column_holding_nan_and_infinity_is_summarised() -> None:
    # JSON as Python writes it (``json.dumps`` of float('nan')): NaN equals nothing, and looking
    # its row up by value raised, so the row set fell back to "1 lines".
    rows = [{"id": i, "score": float("nan") if i % 7 == 0 else i * 1.5, "name": f"n{i}"} for i in range(200)]
    rows[3]["score"] = float("inf")
    body = summarize(json.dumps(rows), ContentKind.ROWS, budget=1500).text
    assert body.startswith("200 rows × 3 columns"), body


def test_a_first_row_that_also_holds_a_columns_greatest_value_is_shown_once() -> None:
    # sqlite3 -line's tumours sorted by radius: the first record holds the greatest radius too,
    # and it was shown twice, taking the room of another row.
    rows = [
        {"id": str(900 - i), "radius": f"{28.11 - i * 0.01:.2f}", "texture": f"{(i * 37) % 19}.5"}
        for i in range(600)
    ]
    body = summarize(repr(rows), ContentKind.ROWS, budget=1500).text
    assert body.count("'id': '900'") == 1, body


def test_a_date_columns_latest_and_earliest_rows_are_its_extremes() -> None:
    records = [
        {"name": "a", "opened": "2024-03-01T10:00:00Z"},
        {"name": "b", "opened": "2023-11-20T08:30:00Z"},
        {"name": "c", "opened": ""},
        {"name": "d", "opened": "2025-01-15T12:00:00Z"},
    ]
    assert extreme_rows(["name", "opened"], records) == {3: "opened", 1: "opened"}


def test_a_tuple_row_ends_where_its_record_does() -> None:
    # python3 -c "print(con.execute(…).fetchall())" of trove-classifiers: the last column is None in
    # every row, so it was left out and each row shown as "('Environment :: Console', 2, 0)", a
    # tuple the payload does not hold (failed before). Narrow columns after the last key column,
    # all of them, now close the row where its record closes.
    rows = [(f"Topic :: Area {n} :: Sub {n % 7}", 2 + n % 3, n % 2, None) for n in range(300)]
    text = repr(rows)
    summary = summarize(text, ContentKind.ROWS, budget=1500).text
    shown = [line for line in summary.splitlines() if line.startswith("('")]
    assert shown and all(line in text for line in shown)


def test_a_path_cell_too_long_keeps_its_end_which_tells_the_rows_apart() -> None:
    # jq over recorded API calls: every path starts "/repos/octokit-fixture-org/"; clipped to
    # its start, each row read "/repos/octokit-fixture-org/release-asse…" (failed before: the
    # rows were told apart by nothing but their method). The calls without their responses (with
    # them, they are documents: the JSON summary's).
    path = BENCH_CORPUS / "json-jq-octokit-fixtures-23-release-branch-status.json"
    calls = [
        {key: value for key, value in call.items() if key != "response"}
        for call in json_values(path.read_text(encoding="utf-8"))
        if isinstance(call, dict)
    ]
    text = json.dumps(calls, indent=2)
    rows = summarize(text, ContentKind.ROWS, budget=1800).text.split("columns: ")[0]
    assert "get | /repos/octokit-fixt…releases/tags/v1.0.0 | 200" in rows
    assert "get | /repos/octokit-fixt…ches/main/protection | 404" in rows
    assert "release-asse… |" not in rows


def test_a_record_shown_for_a_columns_extreme_shows_that_member_in_its_place() -> None:
    # sqlite-utils' JSON of 160 counties: percollege and area are no key columns (long floats),
    # but DANE holds the greatest percollege and LAKE the least area; their rows show the member,
    # where the record has it (a run of the payload's own record).
    text = (BENCH_CORPUS / "json-sqlite-json-midwest-oh-wi.json").read_text(encoding="utf-8")
    shown = _stage1(text, "run_command").extract.text
    assert '"category":"LHR"}' in shown  # the rows are records, spelled as in the payload
    assert '"popdensity":5028.5616399999998977,"percollege":43.62645090000000181,' in shown
    assert '"state":"OH","area":0.012999999999999999403,"poptotal":215498.99999999999999,' in shown
    assert '"county":"ADAMS","state":"OH","poptotal"' in shown  # a row shown for none: its key columns


def test_a_repr_rows_constructor_values_are_one_cell() -> None:
    # psycopg2's and sqlite3's fetchall() print dates, decimals and UUIDs as constructor calls:
    # ``datetime.date(1885, 3, 9)``, ``Decimal('12.50')``. The tuple reader took the call's own
    # parentheses for the rows (failed before: a senators' result of 8 columns read as
    # "314 records × 3 columns" of year | month | day, no name shown), and the dict reader cut a
    # date at its first comma.
    import datetime
    import uuid
    from decimal import Decimal

    rows = [
        (
            f"Senator {n:03d}, Given",
            "Liberal" if n % 3 else "Conservative",
            datetime.date(1867 + n % 140, 1 + n % 12, 1 + n % 28),
            Decimal(f"{n % 97}.{n % 10}5"),
            uuid.UUID(int=n * 7919),
            n * 13,
        )
        for n in range(300)
    ]
    text = repr(rows)
    summary = summarize(text, ContentKind.ROWS, budget=1500)
    assert summary.outline.startswith("rows: 300 records × 6 columns"), summary.outline
    first = "('Senator 000, Given', 'Conservative', datetime.date(1867, 1, 1), Decimal('0.05')"
    assert first in summary.text and first in text

    records = [
        {"name": name, "party": party, "appointed": day, "salary": pay}
        for name, party, day, pay, _, _ in rows
    ]
    text = repr(records)
    summary = summarize(text, ContentKind.ROWS, budget=1500)
    assert summary.outline.startswith("rows: 300 records × 4 columns"), summary.outline
    assert "datetime.date(1867, 1, 1)" in summary.text

    # a result whose first column is a date is rows too (it was text: failed before)
    from context_mode.kinds import detect_kind

    daily = repr([(day, pay, party) for _, party, day, pay, _, _ in rows])
    assert detect_kind(daily, tool_name="run_command") is ContentKind.ROWS


def test_asyncpgs_records_and_named_tuples_are_rows_spelled_as_the_payload_writes_them() -> None:
    # asyncpg prints a result as ``[<Record relname='pg_proc' relkind=b'r' …>, …]`` on one line, a
    # named tuple factory (psycopg's ``namedtuple_row``, PySpark) as ``[Row(name='x', …), …]``.
    # Before: text, "1 lines", one 400-byte window of the line.
    import collections
    import sqlite3

    from context_mode.kinds import detect_kind
    from tests.corpora import REPO

    relations = (REPO / "tests" / "data" / "asyncpg-pg-catalog-relations.txt").read_text(encoding="utf-8")
    assert detect_kind(relations, tool_name="query") is ContentKind.ROWS
    decision = route(relations, tool="query", arguments={})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 120 records × 7 columns (relname, relkind, reltuples")
    lines = decision.extract.text.splitlines()
    assert (
        "<Record relname='pg_proc' relkind=b'r' reltuples=Decimal('3244.0') relpages=96 bytes=786432 "
        "relhasindex=True>"
    ) in lines
    shown = [line for line in lines if line.startswith("<Record ")]
    assert len(shown) > 10 and all(line.rstrip(">") in relations for line in shown)

    services = sqlite3.connect(":memory:")
    services.execute("create table service (name text, port integer, protocol text)")
    rows = [(f"svc{n}", 1000 + n, "tcp" if n % 3 else "udp") for n in range(200)]
    services.executemany("insert into service values (?, ?, ?)", rows)
    services.row_factory = lambda cursor, row: collections.namedtuple("Row", "name port protocol")(*row)
    printed = repr(services.execute("select * from service order by port").fetchall())
    assert detect_kind(printed, tool_name="query") is ContentKind.ROWS
    decision = route(printed, tool="query", arguments={})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("rows: 200 records × 3 columns (name, port, protocol)")
    assert "Row(name='svc0', port=1000, protocol='udp')" in decision.extract.text.splitlines()


def test_a_rows_last_key_column_is_shown_wide_enough_to_read() -> None:
    # gcc's ``-fdiagnostics-format=json``: kind | option | message. Before: each message cut at 40
    # characters ("comparison of integer expressions of di…"), where nothing after it needs the room.
    diagnostics = (
        BENCH_CORPUS / "json-cpo-gcc12-fdiagnostics-format-json-wconversion-netifaces-0110-c.json"
    ).read_text(encoding="utf-8")
    decision = route(diagnostics, tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "kind | option | message" in lines
    assert (
        "warning | -Wsign-compare | comparison of integer expressions of different signedness: "
        "‘__u32’ {aka ‘unsigned int’} and ‘int’"
    ) in lines


def test_one_row_left_out_is_one_row() -> None:
    # Before: "… 1 rows …".
    records = [{"name": f"service-{n:03d}", "port": 1000 + n, "state": "up"} for n in range(60)]
    text = json.dumps(records, indent=1)
    markers = {
        line
        for budget in range(300, 4000, 20)
        for line in summarize(text, ContentKind.ROWS, budget=budget).text.splitlines()
        if line.startswith("… ") and line.endswith(" …")
    }
    assert "… 1 row …" in markers
    assert "… 1 rows …" not in markers


def test_a_colon_spaced_on_both_sides_is_spelled_so_in_stage_1() -> None:
    # ldc2's ``-X`` JSON docs (a real capture), as Jackson's and Elasticsearch's pretty printers
    # write members: ``"file" : "/usr/…"``. Stage 1 spelled them ``"file": "/usr/…"``, text the
    # payload does not hold. The commonest spelling wins: cloc's ``"header" : {`` opens members
    # spelled ``"code": 2454``.
    from context_mode.summaries.json_skeleton import spacing

    name = "json-cqj-ldc2-1300-x-d-json-phobos-std-getopt-members-docs.json"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.JSON, budget=2800).text
    assert '"file" : "/usr/lib/ldc/x86_64-linux-gnu/include/d/std/getopt.d"' in shown
    assert spacing('{"header" : {\n  "n": 1},\n"a.c" :{\n  "blank": 294,\n  "code": 2454}}') == (": ", ", ")
    assert spacing('{"took":3,"timed_out":false}') == (":", ",")
    assert spacing('[[0,1,"x"],[2,3,"y"]]') == (":", ",")
