"""doc_search shows the unit the answer lives in, not only the lines that repeat the query.

Each case is a trimmed real output (tests/fixtures/excerpts, from the shared and bench corpora),
a query an agent asked, and the answer that sits on a line the query's words do not reach.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.store import Store
from context_mode.store.excerpts import unit_lines
from context_mode.summaries import summarize_for_intent
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.searching import search
from tools.doc_tools import doc_tools

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "excerpts"
CORPUS = (
    Path(__file__).resolve().parents[3] / "bench" / "corpus"
)  # whole outputs, where trimming hides the miss


CASES = [
    pytest.param(
        "pytest-failure.log",
        ContentKind.LOG,
        "padded next_multiple assertEqual",
        "AssertionError: Lists differ: [1, 2, 3, 4, 5, 6, None] != [1, 2, 3, 4, 5, 6, None, None]",
        id="test failure: the assertion message below the > line",
    ),
    pytest.param(
        "npm-view.json",
        ContentKind.JSON,
        "scripts of the package",
        '"test": "hereby runtests-parallel',
        id="json: the fields of the matched record",
    ),
    pytest.param(
        "vertical-rows.txt", ContentKind.TEXT, "Grand-Est", "code: FR-GES", id="rows: the whole vertical row"
    ),
    pytest.param(
        "one-line-rows.txt",
        ContentKind.TEXT,
        "Edinburg airport",
        "{'iata': '25R', 'name': 'International'",
        id="rows on one line: the whole record around the match",
    ),
    pytest.param(
        "click-core-help.txt",
        ContentKind.TEXT,
        "truncate at the first form feed",
        r'text = inspect.cleandoc(self.help).partition("\f")[0]',
        id="code: the statement below a comment hit",
    ),
    pytest.param(
        "click-core.txt",
        ContentKind.TEXT,
        "parameters re-shuffled by invocation order eagerness",
        "def iter_params_for_processing(",
        id="code: the enclosing definition of a docstring hit",
    ),
    pytest.param(
        CORPUS / "source-filesystem-click-multi.txt",
        ContentKind.TEXT,
        "exit status for command usage errors",
        "exit_code: t.ClassVar[int] = 2",
        id="code: the first statements of a class whose docstring the query matches",
    ),
    pytest.param(
        "git-show.diff",
        ContentKind.DIFF,
        "pp3-none-any tag",
        "+++ b/docs/tags.rst",
        id="diff: the hunk header and file of a changed line",
    ),
    pytest.param(
        "pip-list.txt",
        ContentKind.TABLE,
        "argon2-cffi-bindings",
        "Package                   Version",
        id="table: the header row with a matched row",
    ),
    pytest.param(
        "github-issues.json",
        ContentKind.ROWS,
        "closing time of the cookie recording bug",
        '"closed_at":"2014-09-21T13:22:32Z"',
        id="json records: the field the query names, from the record's first chunk",
    ),
    pytest.param(
        "pypi-releases.json",
        ContentKind.JSON,
        "upload time of the 13.7.1 wheel",
        '"upload_time": "2024-02-28T14:51:14"',
        id="json on one line: the named fields of the record the version names",
    ),
    pytest.param(
        "pypi-releases.json",
        ContentKind.JSON,
        "byte size of the 13.7.1 source tarball",
        '"filename": "rich-13.7.1.tar.gz", "size": 221248',
        id="json: identity before each named field",
    ),
    pytest.param(
        CORPUS / "table-csv-plotly-gapminder.csv",
        ContentKind.TEXT,
        "pop column for Japan in the last year",
        "Japan,Asia,2007,82.603,127467972",
        id="table: the first and last rows of the run the name is in",
    ),
    pytest.param(
        "gapminder.csv",
        ContentKind.TABLE,
        "lifeExp of the Bolivian row for the first year",
        "Bolivia,Americas,1952,40.414",
        id="a word the payload lacks matches one edit away (Bolivian ~ Bolivia)",
    ),
    pytest.param(
        CORPUS / "webpage-wren-fetch-pytest-721-deprecations.md",
        ContentKind.MARKDOWN,
        "yield fixture decorator status",
        "`pytest.yield_fixture` is a deprecated alias for `pytest.fixture()`.",
        id="the section the query names, not the table of contents line linking to it",
    ),
    pytest.param(
        "subdivisions-rows.txt",
        ContentKind.ROWS,
        "ISO code of the Sicily region",
        "code: IT-82",
        id="rows: a name spelt another way (Sicily ~ Sicilia), with its whole row",
    ),
    pytest.param(
        CORPUS / "snapshot-playwright-python311-codecs.txt",
        ContentKind.SNAPSHOT,
        "alternative names for the Mac Western Europe codec",
        "macroman, macintosh",
        id="snapshot table: the cells of the row the hit is in",
    ),
    pytest.param(
        Path(__file__).parents[2] / "data" / "snapshot-pg15-sql-keywords-excerpt.txt",
        ContentKind.SNAPSHOT,
        "status of LATERAL in PostgreSQL",
        'cell "reserved" [ref=e2670]',
        id="snapshot table: cells named in quotes are the row's text too",
    ),
    pytest.param(
        "sqlite-pragma.md",
        ContentKind.MARKDOWN,
        "default suggested",
        "is limited to 2048000 bytes of memory",
        id="prose: the whole sentence around the hit",
    ),
    pytest.param(
        CORPUS / "log-nginx-error-pypi-mirror.log",
        ContentKind.LOG,
        "connection refused upstream for the idna project page",
        'upstream: "http://127.0.0.1:18081/simple/idna/"',
        id="a line a little over the width: whole, not cut before its last field",
    ),
    pytest.param(
        CORPUS / "json-cargo-metadata-csv.json",
        ContentKind.JSON,
        "resolved version of the byte string dependency bstr",
        '"name":"bstr","version":"0.2.17"',
        id="compact json: a record's neighbouring fields as written, not re-joined",
    ),
    pytest.param(
        CORPUS / "json-pip-inspect-httpbin.json",
        ContentKind.JSON,
        "httpbin package summary",
        '"summary": "HTTP Request and Response Service"',
        id="json: a hit inside a record's nested field shows the fields its first chunk names",
    ),
    pytest.param(
        # zod's README: the printed error object is two lines below the call that names "format".
        CORPUS / "markdown-fs-read-zod-3238-readme.md",
        ContentKind.MARKDOWN,
        "format error nested object output",
        "name: { _errors: [ 'Expected string, received number' ] }",
        id="room left: the best hit's lines next to the shown ones",
    ),
    pytest.param(
        # gevent's configuration page: the option is a snapshot's term, its default in the
        # definition below it ("The default value is" over ``code: "5"``).
        CORPUS / "snapshot-playwright-gevent-configuration.txt",
        ContentKind.SNAPSHOT,
        "memory monitor period default",
        'code [ref=f1e213]: "5"',
        id="snapshot: a term's definition, the lines naming the query's other words",
    ),
    pytest.param(
        CORPUS / "diff-git-diff-flask-3-0-3-3-1-0.diff",
        ContentKind.DIFF,
        "new minimum werkzeug dependency in the project metadata",
        '+    "Werkzeug>=3.1",',
        id="diff: a removed line's replacement, the run of changed lines around the hit",
    ),
    pytest.param(
        CORPUS / "table-ps-aux-app-stack.txt",
        ContentKind.TABLE,
        "cache daemon command line",
        "memcached -u nobody -l 127.0.0.1 -p 25411 -m 64",
        id="room left: rows near the header the query matched",
    ),
    pytest.param(
        CORPUS / "json-tree-filesystem-coverage-7175-sdist.json",
        ContentKind.JSON,
        "developer task runner script in tools folder",
        '"name": "igor.py",',
        id="room left: the chunk's lines beyond six from the shown ones (a folder's later files)",
    ),
    pytest.param(
        "mkdocs-configuration-snapshot.txt",
        ContentKind.SNAPSHOT,
        "What is the default docs_dir?",
        "code [ref=e322]: \"'docs'\"",
        id="snapshot heading: its section below it, where the default is given",
    ),
    pytest.param(
        "man-tcl-clock-head.txt",
        ContentKind.TEXT,
        "default output format string",
        "%a %b %d %H:%M:%S %Z %Y",
        id="prose: the line an unfinished sentence goes on in, below a blank line",
    ),
    pytest.param(
        CORPUS / "snapshot-playwright-python311-controlflow.txt",
        ContentKind.SNAPSHOT,
        "link to the following chapter of the tutorial",
        'link "5. Data Structures" [ref=e745]',
        id="snapshot element: the element a hit ends inside, with its ref",
    ),
    pytest.param(
        CORPUS / "source-filesystem-pluggy-multi.txt",
        ContentKind.SOURCE,
        "trylast ordering in HookCaller add hookimpl",
        "self._hookimpls.insert(start, hookimpl)",
        id="code: the statement a matched condition opens",
    ),
    pytest.param(
        CORPUS / "source-tail-n1-fmt-910-color-ranges-printf.txt",
        ContentKind.SOURCE,
        "sign extension of small integer types in glibc",
        '//   std::printf("%lld", -42);  // prints "4294967254"',
        id="a comment ending in a colon: the example it announces",
    ),
    pytest.param(
        CORPUS / "lint-capi-oxlint-1960-mongoose-895-lib.txt",
        ContentKind.LOG,
        "then method on class warning location",
        ",-[lib/query.js:4547:1]",
        id="a diagnostic in miette's layout (oxlint): the location line under its headline",
    ),
]


@pytest.mark.parametrize(("fixture", "kind", "query", "answer"), CASES)
def test_search_reply_holds_the_answer_of_the_hit_unit(
    fixture: str | Path, kind: ContentKind, query: str, answer: str
) -> None:
    reply = search(
        (FIXTURES / fixture).read_text(encoding="utf-8"), kind, {"query": query}
    )  # or a CORPUS path
    assert answer in reply
    assert len(reply.encode()) <= 1500


def test_a_line_that_opens_something_comes_with_the_line_it_opens() -> None:
    # a condition's statement, a label's value, a fence's first line, a prompt's output, each in
    # a paragraph of its own lines (no other unit reaches them: failed before)
    lines = [
        "if hookimpl.trylast:",
        "    self._hookimpls.insert(0, hookimpl)",
        "Expected:",
        "(number) 1.5 +/- 0.5",
        "```js",
        "program.exitOverride();",
        "$ lintian etm_3.2.30-1.1_all.deb",
        "E: etm: appstream-metadata-legacy-format",
    ]
    for hit in (0, 2, 4, 6):
        pair = [lines[hit], "", lines[hit + 1], "", "next paragraph"]
        assert (2, lines[hit + 1].strip()) in unit_lines(pair, 0, 0), lines[hit]


def test_the_body_after_a_long_docstring_is_its_first_statements_not_docstring_lines() -> None:
    lines = [
        "class UsageError(ClickException):",
        '    """An internal exception that signals a usage error.  This typically',
        "    aborts any further handling.",
        "",
        "    :param message: the error message to display.",
        "    :param ctx: optionally the context that caused this error.  Click will",
        "                fill in the context automatically in some situations.",
        '    """',
        "",
        "    exit_code: t.ClassVar[int] = 2",
        "",
        "    def __init__(self, message: str) -> None:",
    ]
    shown = [text for _, text in unit_lines(lines, 0, 0)]
    assert "exit_code: t.ClassVar[int] = 2" in shown
    assert not any(text.startswith((":param", "fill in", "aborts")) for text in shown)


def test_two_spaces_after_a_sentence_make_no_table_row() -> None:
    # CommonMark's spec (bench corpus, a 205 kB fetch) puts two spaces after a full stop. The
    # hit's line was taken for a table row with the section heading as its header, so the rest
    # of the sentence ("of 4 characters.") was never shown.
    lines = [
        "## Tabs",
        "",
        "Tabs in lines are not expanded to [spaces].  However,",
        "in contexts where spaces help to define block structure,",
        "tabs behave as if they were replaced by spaces with a tab stop",
        "of 4 characters.",
    ]
    assert (5, "of 4 characters.") in unit_lines(lines, 2, 3)
    table = ["Package   Version", "--------  -------", "anyio     4.16.0", "attrs     26.1.0"]
    assert unit_lines(table, 3, 3)[:2] == [(0, "Package   Version"), (1, "--------  -------")]


def test_passing_tests_lines_give_way_to_the_failure_message() -> None:
    # go test -v of gorilla/mux (bench corpus, two injected bugs): the query's words are in the
    # names of many passing subtests, and the reply was --- PASS and === RUN lines of two chunks.
    text = (CORPUS / "test-gotest-gorilla-mux.log").read_text(encoding="utf-8")
    reply = search(text, ContentKind.LOG, {"query": "queries regexp mismatch message"})
    assert "GetQueriesRegexp not equal: expected ^foo=.*$, got ^foo=$" in reply
    assert "--- PASS" not in reply.split("more hits not shown")[0]
    # the same run as a CI job prints it, each line after its timestamp (failed before: the stamp
    # hid the passing lines, worth their words again, and five === RUN lines took the room)
    stamped = "".join(f"2026-12-02T15:49:07.{n:07d}Z {line}" for n, line in enumerate(text.splitlines(True)))
    reply = search(stamped, ContentKind.LOG, {"query": "queries regexp mismatch message"})
    assert "GetQueriesRegexp not equal: expected ^foo=.*$, got ^foo=$" in reply
    assert reply.count("=== RUN") <= 1


def test_a_word_only_other_payloads_hold_still_matches_one_edit_away_in_the_named_ref() -> None:
    # "Sicily" is in another payload of the store, not in the rows: searching the rows' ref must
    # still match "Sicilia" one edit away, as it does when the store holds the rows alone.
    store = Store(None)
    try:
        store.put(
            "Sicily is the largest island of the Mediterranean Sea.", source="test", kind=ContentKind.TEXT
        )
        rows = (FIXTURES / "subdivisions-rows.txt").read_text(encoding="utf-8")
        doc = store.put(rows, source="test", kind=ContentKind.ROWS)
        tool = next(t for t in doc_tools(store, ingest_roots=()) if t.name == "doc_search")
        reply = tool.run({"query": "ISO code of the Sicily region", "ref": doc.ref})
    finally:
        store.close()
    assert "code: IT-82" in reply


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        pytest.param("final line when the run stopped", "34/34 files checked 100% done", id="end"),
        pytest.param("tool banner at startup", "Checking src/lapi.c ...", id="start"),
    ],
)
def test_a_query_naming_an_end_of_the_payload_gets_its_lines(query: str, answer: str) -> None:
    # No query word is on those lines: "final" and "startup" say where they are.
    lines = [
        "Checking src/lapi.c ...",
        *(f"src/l{i}.c:{i}:3: style: Variable 'v{i}' is reassigned" for i in range(400)),
    ]
    text = "\n".join([*lines, "34/34 files checked 100% done"])
    assert answer in search(text, ContentKind.LOG, {"query": query})


DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize(
    ("name", "query", "answer"),
    [
        pytest.param(
            "sqlite-box-iso15924-scripts.txt",
            "last row of the result",
            "│ Zzzz    │ 999     │ Code for uncoded script",
            id="the last row, above the closing border that is a chunk of its own",
        ),
        pytest.param(
            "sqlite-box-iso15924-scripts.txt",
            "first row script name",
            "│ Xsux    │ 020     │ Cuneiform, Sumero-Akkadian",
            id="the first row, below the header's rules",
        ),
        pytest.param(
            "csvlook-la-riots.txt",
            "table header",
            "| first_name     | last_name     | age | gender",
            id="the header",
        ),
        pytest.param(
            "csvlook-la-riots.txt",
            "last row victim",
            "| Willie Bernard | Williams      |  29 |",
            id="the last row",
        ),
        pytest.param(
            "csvlook-la-riots.txt",
            "last victim listed",
            "| Willie Bernard | Williams      |  29 |",
            id="the last of a listing: a few words, then listed",
        ),
        pytest.param(
            "csvlook-la-riots.txt",
            "age of the last person in the output",
            "| Willie Bernard | Williams      |  29 |",
            id="the last of a listing: in the output",
        ),
        pytest.param(
            "sqlite-box-iso15924-scripts.txt",
            "script at the top of the table",
            "│ Xsux    │ 020     │ Cuneiform, Sumero-Akkadian",
            id="at the top",
        ),
    ],
)
def test_a_query_naming_a_row_by_its_place_gets_that_row(name: str, query: str, answer: str) -> None:
    # "the last row", "the table header": no query word is on the row (Zzzz's row says "uncoded
    # script", not "last"); a box table's closing border was the last chunk's only line.
    text = (DATA / name).read_text(encoding="utf-8")
    assert answer in search(text, ContentKind.TABLE, {"query": query})
    extract = summarize_for_intent(text, ContentKind.TABLE, budget=1500, terms=(), intent=query)
    assert answer in extract.text


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        pytest.param(
            "rows-mcp-sqlite-utf8-locales-territory.txt",
            ContentKind.ROWS,
            "last row of the result",
            "{'locale': 'mt_MT.UTF-8', 'charset': 'UTF-8', 'language': 'Maltese'",
            id="a one-line list of rows: the end of its line",
        ),
        pytest.param(
            "rows-psql-expanded-romance-locales.txt",
            ContentKind.ROWS,
            "last record number",
            "-[ RECORD 35 ]",
            id="psql's expanded records: the last record's head",
        ),
        pytest.param(
            "tree-ls-lar-networkx-342-sdist.txt",
            ContentKind.TREE,
            "last directory in listing",
            "networkx-3.4.2/requirements:",
            id="ls -laR: the last directory's head, in the chunk above the last",
        ),
    ],
)
def test_the_last_unit_of_a_listing_is_shown_with_its_head(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    # The payload's last lines are the last record's or directory's tail; what names it is its
    # head above them (or, for a one-line list, the end of the line, which a cut to the line's
    # start left out).
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert answer in search(text, kind, {"query": query})


def test_words_right_after_an_ansi_colour_code_are_found() -> None:
    # Vitest and Jest in CI colour their lines: ``\x1b[22mlazy.test.ts`` was indexed as the one
    # word ``22mlazy``, so a search for "lazy" found nothing in the coloured line.
    lines = [
        f"\x1b[32m✓\x1b[39m src/v4/classic/tests/case{i}.test.ts\x1b[2m > \x1b[22mparses value {i}"
        for i in range(300)
    ]
    lines.insert(
        150,
        "\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m src/v4/classic/tests/\x1b[22mlazy.test.ts"
        "\x1b[2m > \x1b[22mrecursion",
    )
    text = "\n".join(lines)
    assert "lazy.test.ts" in search(text, ContentKind.LOG, {"query": "lazy recursion"})
    # and a search that misses suggests words as read, not ``mparses``
    assert "mparses" not in search(text, ContentKind.LOG, {"query": "zebra"})


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        pytest.param(
            "build-autotools-jansson.log",
            ContentKind.LOG,
            "compile error in the dump source",
            "dump.c:39:12: error: too few arguments to function 'strbuffer_append_bytes'",
            id="a compile error below other lines saying error",
        ),
        pytest.param(
            "trace-java-guice-orders.log",
            ContentKind.LOG,
            "innermost cause exception of the provisioning error",
            'java.lang.NumberFormatException: For input string: "2s"',
            id="the innermost cause below other exception lines",
        ),
        pytest.param(
            "webpage-fetch-sqlite-pragma.md",
            ContentKind.MARKDOWN,
            "default bitmask for the optimize pragma",
            "The default MASK is and always shall be 0xfffe",
            id="a default under other lines naming the pragma",
        ),
    ],
)
def test_a_line_repeating_a_term_already_shown_still_gets_its_turn(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    # Each term was worth half as much in every later passage once shown: the answer line, which
    # repeats a term of the first lines shown ("error", "pragma"), lost to lines of other hits.
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert answer in search(text, kind, {"query": query})


def test_a_reply_shows_no_line_of_brackets_alone() -> None:
    # Around a hit in pretty-printed JSON, the lines next to the shown ones filled the room left
    # with "{" and "}," (eight of twenty lines in one reply), which say nothing.
    text = (CORPUS / "tree-filesystem-httpx.json").read_text(encoding="utf-8")
    reply = search(text, ContentKind.TREE, {"query": "data file of URL parsing conformance cases"})
    shown = [line.strip() for line in reply.splitlines()[1:] if line.startswith("  ")]
    assert shown and not [line for line in shown if not line.strip("{}[](),;")]


def test_a_hit_on_an_open_call_shows_its_arguments_below() -> None:
    # commander's Argument.choices: the query's words reach "throw new InvalidArgumentError(",
    # and the message the agent asked for is the argument on the next line.
    text = (CORPUS / "source-filesystem-commander-multi.txt").read_text(encoding="utf-8")
    query = "error when an argument value is not one of the permitted values"
    reply = search(text, ContentKind.SOURCE, {"query": query})
    assert "`Allowed choices are ${this.argChoices.join(', ')}.`," in reply


def test_a_pytest_failures_hit_shows_its_location_line_below_its_e_lines() -> None:
    # The hit holds the failing test's source and its ``E`` lines; the answer to "where did it
    # fail" is pytest's ``glom/test/test_basic.py:137: AssertionError`` below them, which the
    # excerpt stopped short of.
    text = (Path(__file__).parents[2] / "data" / "pytest-glom-fail.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.LOG, {"query": "location of stop test failure"})
    assert "glom/test/test_basic.py:137: AssertionError" in reply


def test_a_hit_on_a_diagnostics_headline_shows_its_location_line() -> None:
    # ruff's (and rustc's) full format puts the location on the line below the headline
    # ("B006 Do not use mutable data structures…" then " --> boltons/debugutils.py:116:38"):
    # the excerpt showed the headline and the code, not where it is.
    text = (Path(__file__).parents[2] / "data" / "ruff-full-boltons-head.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.LINT, {"query": "B006 mutable default location"})
    assert "--> boltons/debugutils.py:116:38" in reply


def test_an_rspec_failures_hit_shows_what_it_expected_and_got() -> None:
    # A hit on RSpec's ``Failure/Error: expect(allowed).to eq(5)`` stopped there; the answer is
    # the ``expected: 5`` / ``got: 20`` below it.
    text = (Path(__file__).parents[2] / "data" / "rspec-doc-backtrace-rate-limiter.txt").read_text(
        encoding="utf-8"
    )
    reply = search(text, ContentKind.LOG, {"query": "admitted request count after idle"})
    assert "got: 20" in reply


def test_a_record_named_by_its_key_and_value_is_the_one_shown() -> None:
    # "proline of sample 18": the record anchor was the first "18" of the chunk, inside sample
    # 17's values ("alcalinity_of_ash": 18.0…), so the reply showed sample 17's proline.
    text = (Path(__file__).parents[2] / "data" / "fetch-datasette-wine-json.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.JSON, {"query": "proline of sample 18"})
    record = next(line for line in reply.splitlines() if '"sample_id": 18,' in line)
    assert '"proline": 1680.0' in record  # the whole record, or its named fields joined
    assert '"sample_id": 17,' not in reply


def test_a_one_line_record_a_little_wider_than_a_line_is_shown_whole() -> None:
    # sqlite3 -json's counties, 250 characters each: the reply showed the fields the query named
    # joined ('"state":"OH", "poptotal":1412140.0'), not which county they were Cuyahoga's.
    text = (Path(__file__).parents[2] / "data" / "sqlite-json-midwest-oh-wi.json").read_text(encoding="utf-8")
    reply = search(text, ContentKind.ROWS, {"query": "CUYAHOGA poptotal"})
    record = next(line for line in text.splitlines() if '"county":"CUYAHOGA"' in line)
    assert record in reply


@pytest.mark.parametrize(
    ("name", "query", "answers"),
    [
        pytest.param(
            "make-test-verbose-try-tiny-edit.txt",
            "location of first failed test",
            ["#   at t/basic.t line 57."],
            id="Test::More: the failure's location and got/expected below its Failed test line",
        ),
        pytest.param(
            "tape-ci-object-assign-failures.log",
            "key is visited first then symbol",
            ["actual:   [ 'a' ]", "at: Test.<anonymous> (/tmp/w/gen56/work/oa/package/test/tests.js:156:6)"],
            id="tape: the YAML block's actual and at lines below its not ok line",
        ),
    ],
)
def test_a_tap_failures_hit_shows_its_diagnostics(name: str, query: str, answers: list[str]) -> None:
    # The hit was the ``#   Failed test '$@ untouched'`` / ``not ok 36 …`` line (or a frame of its
    # stack); where it failed and what it got sat in the diagnostic lines below, which no query
    # word reaches.
    text = (Path(__file__).parents[2] / "data" / name).read_text(encoding="utf-8")
    reply = search(text, ContentKind.LOG, {"query": query})
    for answer in answers:
        assert answer in reply


def test_a_record_naming_a_query_word_in_a_value_beats_one_naming_it_as_a_key() -> None:
    # mcp-server-sqlite's rows on one line, each with a 'macrolanguage' key: for "malay
    # macrolanguage row" every Malay record matched both words, and the first (Bacanese Malay) was
    # shown, not Malay's own record, whose value says "(macrolanguage)".
    text = (Path(__file__).parents[2] / "data" / "mcp-sqlite-language-subtag-macrolanguages.txt").read_text(
        encoding="utf-8"
    )
    reply = search(text, ContentKind.ROWS, {"query": "malay macrolanguage row"})
    assert "{'subtag': 'ms', 'description': 'Malay (macrolanguage)'" in reply


def test_a_line_of_many_rows_shows_the_row_naming_most_of_the_query() -> None:
    # mcp-server-sqlite's rows on one line: the excerpt showed the row around the heaviest single
    # match ("pip" in the first python3-pip row), not the row naming pip, Recommends, python and dev.
    text = (BENCH_CORPUS / "rows-sqlite-dpkg-dependency-join.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.ROWS, {"query": "pip recommended python dev package"})
    assert "'kind': 'Recommends', 'dependency': 'python3-dev', 'required': '>= 3.2'" in reply
    reply = search(text, ContentKind.ROWS, {"query": "gdb syntax highlighting library requirement"})
    assert "'dependency': 'libsource-highlight4v5', 'required': '>= 3.1.9'" in reply


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("git protocol port", '{"name":"git","port":9418,"protocol":"tcp"'),
        ("Microsoft SQL Server port", '{"name":"ms-sql-s","port":1433'),
    ],
)
def test_a_small_record_on_its_own_line_is_shown_as_written(query: str, answer: str) -> None:
    # sqlite3 -json: a record per line. The reply showed the named fields joined
    # ('"name":"git","port":9418,…' without the record's brace and its other fields).
    text = (Path(__file__).parents[2] / "data" / "sqlite-json-etc-services.json").read_text(encoding="utf-8")
    assert answer in search(text, ContentKind.JSON, {"query": query})


def test_a_word_right_after_a_strings_escape_is_found() -> None:
    # "Plugin %r\nhook %r\nhistoric incompatible …": "\nhistoric" was read as the word
    # "nhistoric", in the index and in the lines, so the message never matched "historic".
    text = (Path(__file__).parents[2] / "data" / "read-multiple-files-pluggy-150.txt").read_text(
        encoding="utf-8"
    )
    reply = search(text, ContentKind.SOURCE, {"query": "historic hook wrapper validation message"})
    assert "historic incompatible with yield/wrapper/hookwrapper" in reply


def test_an_intents_passages_count_words_as_the_index_does() -> None:
    # The in-memory ranking counted every word that starts with a term's probe as the term
    # ("refe" for "reference": referenced, referencing…), where the index counts stems, so an
    # intent's passages came from other chunks than a search's: the CommonMark spec's rule for
    # decimal entities was not among them.
    from context_mode.store.passages import payload_passages

    text = (BENCH_CORPUS / "markdown-spec-commonmark.md").read_text(encoding="utf-8")
    lines = payload_passages(
        text, ContentKind.MARKDOWN, "length limit of decimal entity references", budget=1500
    )
    assert any("1--7 arabic digits" in line for line in lines)


def test_a_json_string_holding_a_file_is_cut_at_its_escaped_line_breaks() -> None:
    # fast-filesystem-mcp's multi-file read (a real capture): each file one JSON string
    # ("#\n# Wrap the builtin history command…\n"); a hit showed 240 characters around the query's
    # heaviest word, cut mid-line: the lines holding the query's other words, and the line below
    # each (the answer under its comment), were left out.
    from tests.searching import bench_reply

    name = "source-cpv-fast-filesystem-mcp-352-read-multiple-fish-360-functions.json"
    reply = bench_reply(name, ContentKind.JSON, "message when path to add is missing")
    assert "Skipping non-existent path: %s" in reply
    reply = bench_reply(name, ContentKind.JSON, "umask table for adding permissions")
    assert "set __fish_umask_add_table 0101010 2002200 2103210 4440000 4541010 6442200 6543210" in reply
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    for line in reply.splitlines():  # each shown piece as the payload spells it, escapes kept
        if line.startswith("  "):
            assert all(part.strip() in text for part in line.split("…")), line


def test_the_line_after_a_hit_in_a_json_string_skips_a_headings_underline() -> None:
    # Mercurial's ``log -Tjson -p`` (a real capture): each changeset's diff one JSON string. A hit
    # on the history's "Deprecations and Removals" heading showed the line after it, the heading's
    # ``~~~~`` underline, and left out the entry below it that answers the question.
    from tests.searching import bench_reply

    name = "gitlog-cqj-hg-632-log-tjson-v-stat-p-sniffio-100-131-sdists.json"
    reply = bench_reply(name, ContentKind.JSON, "python versions no longer supported removals")
    assert "Drop support for Python 3.5 and 3.6." in reply


def test_a_files_status_letter_reads_as_the_word_it_stands_for() -> None:
    # ``git log --raw`` (a real capture): a file deleted is ``… 0000000 D\tdist/umd/uuid.min.js``.
    # Asked for the minified UMD bundle that was deleted, the reply showed the bundles the release
    # kept or changed, whose lines hold as many of the query's words.
    from tests.searching import bench_reply

    name = "gitlog-capq-git-log-raw-m-fuller-uuid-800-901-npm-releases.log"
    reply = bench_reply(name, ContentKind.DIFF, "which minified umd bundle got deleted")
    assert "0000000 D\tdist/umd/uuid.min.js" in reply


def test_a_python_frames_hit_shows_the_exception_below_whatever_its_name() -> None:
    # The view's traceback pytest captured from Flask 3.1 ends in ``StopIteration``, a class
    # named as no error is: the hit on its frame showed the frame and not what was raised.
    text = (
        Path(__file__).parents[2] / "data" / "pytest-9.2-flask-3.1-captured-log-stopiteration.txt"
    ).read_text(encoding="utf-8")
    reply = search(text, ContentKind.LOG, {"query": "wsgi_app full_dispatch_request frame"})
    assert "wsgi_app" in reply and "StopIteration" in reply


def test_a_passage_said_word_for_word_already_gives_way_to_new_lines() -> None:
    # Each failing request logs the same traceback: every hit offered the same frame and
    # exception, and the reply showed them once per hit, eight times over.
    text = (
        Path(__file__).parents[2] / "data" / "pytest-9.2-flask-3.1-captured-log-stopiteration.txt"
    ).read_text(encoding="utf-8")
    reply = search(text, ContentKind.LOG, {"query": "wsgi_app full_dispatch_request frame"})
    frame = '  File "/tmp/cap/pv/lib/python3.11/site-packages/flask/app.py", line 1511, in wsgi_app'
    shown = [line.strip() for line in reply.splitlines() if line.startswith("  ")]
    assert shown.count(frame.strip()) == 1
    assert len(shown) == len(set(shown))  # nor any other line twice, the lines beside them neither
