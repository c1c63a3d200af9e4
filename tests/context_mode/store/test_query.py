"""The lines a search hit shows: its passages (matched on stems and identifier parts), cutting, choosing."""

from __future__ import annotations

import pytest

from context_mode.store.choosing import choose_lines
from context_mode.store.cutting import ELLIPSIS, LINE_WIDTH, VALUE_REACH
from context_mode.store.query import best_lines
from context_mode.store.terms import query_terms
from context_mode.store.values import LineMatch, SearchHit
from context_mode.types import ContentKind
from tests.searching import bench_reply

FILLER = "".join(f"routine line number {i} about nothing in particular\n" for i in range(20))


def texts(lines: tuple[LineMatch, ...]) -> list[str]:
    return [line.text for line in lines]


def hit(index: int, score: float, lines: tuple[LineMatch, ...]) -> SearchHit:
    return SearchHit(f"r_1#{index}", "r_1", "src", (), score, "", lines)


def test_the_line_with_the_most_and_rarest_terms_comes_first() -> None:
    text = FILLER + "session opened\nthe session was accessed by the request context\nrequest done\n" + FILLER
    terms = query_terms("request context session accessed")
    weights = {term.stems: 1.0 for term in terms}
    found = best_lines(text, terms, weights)
    assert found[0].text == "the session was accessed by the request context"
    assert found[0].score == 4.0
    assert {"session opened", "request done"} <= set(texts(found))
    assert not any("routine" in line for line in texts(found))


@pytest.mark.parametrize(
    ("line", "query"),
    [
        pytest.param("request: RequestProxy = LocalProxy(", "local proxy", id="camel-by-words"),
        pytest.param("request: RequestProxy = LocalProxy(", "LocalProxy", id="camel-as-written"),
        pytest.param("    def full_dispatch_request(self):", "full_dispatch_request", id="snake"),
        pytest.param('"default_branch": "trunk",', "default branch", id="json-key"),
        pytest.param("4.18.2 / 2022-10-08", "release 4.18.2", id="version"),
        pytest.param("the servers were running", "server run", id="stemmed"),
    ],
)
def test_lines_match_on_stems_and_identifier_parts(line: str, query: str) -> None:
    terms = query_terms(query)
    found = best_lines(FILLER + line + "\n" + FILLER, terms, {})
    assert found and found[0].text == line.strip()


@pytest.mark.parametrize(
    ("line", "query", "word"),
    [
        pytest.param("    retries = self.max_retries or 3", "maximum retries", "maximum", id="max_retries"),
        pytest.param(
            'return fmt.Errorf("requires at least %d arg(s)", n)',
            "too few arguments",
            "arguments",
            id="arg(s)",
        ),
        pytest.param(
            'if self._environ.get("NO_COLOR", "") != "":', "disable colour output", "colour", id="NO_COLOR"
        ),
        pytest.param("  62M\tnode_modules/typescript/lib", "typescript library folder", "library", id="lib"),
        # Failed before, each: the line held none of the query's words (real outputs' lines).
        pytest.param(
            "def parse_config_file(path: str, final: bool = True) -> None:",
            "config file parsing function signature",
            "function",
            id="def",
        ),
        pytest.param(
            '"description": "Make the next option a required option",',
            "enum member marking following option mandatory",
            "mandatory",
            id="required",
        ),
        pytest.param('  "latest": "1.46.3",', "newest awscli release", "newest", id="latest"),
        pytest.param(
            "request/-/request-2.88.2.tgz 2677ms (cache miss)", "request tarball fetch", "tarball", id="tgz"
        ),
        pytest.param(
            ":000000 100755 0000000 f38d2ee A\tdist/bin/uuid", "uuid executable", "executable", id="bin"
        ),
        pytest.param(
            "vendor/hiredis/async.c:528:31: warning: symbol 'cb' shadows an earlier one",
            "callback variable shadowed",
            "callback",
            id="cb",
        ),
        pytest.param("    'b':self._fmt_bool,", "boolean format code", "format", id="fmt"),
        pytest.param("vendor/libuv/src/win/tty.c", "windows terminal source", "terminal", id="tty"),
        pytest.param(
            "throw createError(400, 'The input exceeded the depth', {", "error thrown", "thrown", id="throw"
        ),
        pytest.param("Ran 122 tests in 0.523s", "how many tests run", "run", id="ran"),
        pytest.param(  # ``du -ah`` of ramda 0.32.0's package: a minified build is its ``.min.js``
            "56K\tramda-0.32.0/dist/ramda.min.js", "minified bundle size", "minified", id="min"
        ),
        pytest.param(
            "src/node.c:40:5: error: expected ';' before 'return'",
            "node source failure",
            "failure",
            id="error",
        ),
    ],
)
def test_a_word_asked_in_full_matches_its_short_form_in_code(line: str, query: str, word: str) -> None:
    terms = query_terms(query)
    full = next(term for term in terms if term.text == word)
    found = best_lines(FILLER + line + "\n", terms, {})
    assert found and found[0].text == line.strip()
    assert " ".join(full.stems) in dict(found[0].matched)


def test_a_version_does_not_match_its_digits_scattered() -> None:
    terms = query_terms("4.18.2")
    assert best_lines(FILLER + "version 4.1.18 build 2\n" + FILLER, terms, {}) == ()


def test_a_long_line_is_cut_around_its_matches() -> None:
    line = "x" * 5000 + " the needle is here " + "y" * 5000
    found = best_lines(line, query_terms("needle"), {})
    (only,) = found
    assert "the needle is here" in only.text
    assert only.text.startswith(ELLIPSIS) and only.text.endswith(ELLIPSIS)
    assert len(only.text) <= LINE_WIDTH + 2


def test_a_cut_hides_no_lone_bracket_behind_an_ellipsis() -> None:
    # Failed before: the first record of a one-line Python list was shown as "…{'name': …": the
    # "…" stood for the "[" alone. A line's first or last two characters are shown, not cut.
    from context_mode.store.cutting import cut

    records = [f"{{'name': 'animal {i}', 'genus': 'G{i}', 'sleep_total': {20 - i / 10}}}" for i in range(60)]
    line = "[" + ", ".join(records) + "]"
    shown = cut(line, [(2, 8, 1.0)], LINE_WIDTH, str)
    assert shown.startswith("[{'name': 'animal 0'")
    assert cut("xy" + "z" * 5000, [(3000, 3005, 1.0)], LINE_WIDTH, str).startswith(ELLIPSIS)


TOAST_PARAGRAPH = (  # PostgreSQL 15's CREATE TABLE page, as a browser snapshot's paragraph line
    "  - paragraph [ref=e946]: The toast_tuple_target specifies the minimum tuple length required before "
    "we try to compress and/or move long column values into TOAST tables, and is also the target length "
    "we try to reduce the length below once toasting begins. This affects columns marked as External "
    "(for move), Main (for compression), or Extended (for both) and applies only to new tuples. There is "
    "no effect on existing rows. By default this parameter is set to allow at least 4 tuples per block, "
    "which with the default block size will be 2040 bytes. Valid values are between 128 bytes and the "
    "(block size - header), by default 8160 bytes. Changing this value may not be useful for very short "
    "or very long rows. Note that the default setting is often close to optimal, and it is possible that "
    "setting this parameter could have negative effects in some cases. This parameter cannot be set for "
    "TOAST tables."
)


def test_a_long_prose_line_shows_the_whole_sentences_that_add_query_terms() -> None:
    found = best_lines(
        FILLER + TOAST_PARAGRAPH + "\n", query_terms("default tuple length threshold before toasting"), {}
    )
    shown = found[0].text
    assert shown.startswith("- paragraph [ref=e946]: The toast_tuple_target specifies")
    assert "once toasting begins. … By default this parameter" in shown
    assert shown.endswith("which with the default block size will be 2040 bytes.…")


def test_a_small_chunk_is_shown_whole() -> None:
    text = "commit c17f3793\nAuthor: someone\n\n    request context tracks session access\n"
    (whole,) = best_lines(text, query_terms("session access"), {})
    assert whole.text.split("\n") == [
        "commit c17f3793",
        "Author: someone",
        "request context tracks session access",
    ]
    assert whole.lines == 3


def test_terms_in_the_heading_weigh_less_in_the_lines() -> None:
    text = FILLER + '"name": "pyPdf",\n"id": 331547,\n' + FILLER
    terms = query_terms("pyPdf id")
    found = best_lines(text, terms, {}, heading="items [11] mfenniak/pyPdf")
    singles = [line.text for line in found if line.lines == 1]
    assert singles == ['"id": 331547,', '"name": "pyPdf",']


def test_a_wrapped_sentence_is_offered_with_its_next_line() -> None:
    text = FILLER + "the session is marked as accessed for the keys\n  but not the values, such as len.\n"
    found = best_lines(text, query_terms("session accessed len"), {})
    assert found[0].text == "the session is marked as accessed for the keys\nbut not the values, such as len."
    assert found[0].lines == 2


def test_choosing_keeps_the_budget_and_prefers_new_terms() -> None:
    repeated = tuple(LineMatch(i, f"url {i} of pyPdf", 3.0, (("pypdf", 3.0),)) for i in range(40))
    other = LineMatch(50, '"id": 331547', 1.0, (("id", 1.0),))
    chosen = choose_lines([hit(0, 10.0, (*repeated, other))], budget=200, heading_bytes=[20])
    shown = [line.text for line in chosen[0]]
    assert '"id": 331547' in shown
    assert sum(len(text) + 3 for text in shown) + 21 <= 200
    assert shown == sorted(shown, key=lambda text: 50 if text.startswith('"id"') else int(text.split()[1]))


def test_a_line_a_passage_and_its_unit_both_hold_is_shown_once() -> None:
    wrapped = LineMatch(
        9, "first half\nsecond half", 4.0, (("half", 4.0),), lines=2, unit=((10, "second half"),)
    )
    chosen = choose_lines([hit(0, 10.0, (wrapped,))], budget=1000)
    assert [(line.number, line.text) for line in chosen[0]] == [(9, "first half"), (10, "second half")]


def test_the_named_fields_of_a_record_over_several_lines_leave_its_matched_line_shown() -> None:
    # The record's name is not in this chunk; its matched line (the requirement) is the answer,
    # and the fields the query names ("requires_python") come with it, not instead of it.
    record = (
        '      "metadata": {\n        "license": "MIT",\n        "requires_dist": [\n'
        '          "brotlicffi",\n          "greenlet<3.0; python_version < \\"3.12\\"",\n'
        '          "six"\n        ],\n        "requires_python": ">=3.8",\n'
        '        "summary": "HTTP Request and Response Service for testing clients and proxies"\n      },\n'
    )
    found = best_lines(
        FILLER.replace("\n", ",\n") + record, query_terms("greenlet requirement of httpbin"), {}
    )
    chosen = choose_lines([hit(0, 10.0, found)], budget=1000)
    shown = [line.text for line in chosen[0]]
    assert '"greenlet<3.0; python_version < \\"3.12\\"",' in shown
    assert '"requires_python": ">=3.8"' in shown


def test_weak_lines_of_weak_hits_are_left_out() -> None:
    strong = LineMatch(0, "strong line", 10.0, (("a", 5.0), ("b", 5.0)))
    weak = LineMatch(0, "weak line", 0.5, (("c", 0.5),))
    chosen = choose_lines([hit(0, 10.0, (strong,)), hit(1, 1.0, (weak,))], budget=1000)
    assert list(chosen) == [0]


def test_choosing_works_on_many_hits_with_many_lines() -> None:
    hits = [
        hit(
            rank,
            20.0 - rank,
            tuple(LineMatch(i, f"line {i}", 1.0, ((f"t{i % 7}", 1.0), ("u", 0.5))) for i in range(400)),
        )
        for rank in range(20)
    ]
    chosen = choose_lines(hits, budget=1500)  # its timing: bench/pathological.py
    assert chosen


SPACE_PADDED = "\n".join(" " * 1000 + f"user {i} closed" for i in range(20))  # timing: bench/


def test_best_lines_finds_the_words_of_space_padded_lines() -> None:
    found = best_lines(SPACE_PADDED, query_terms("user closed"), {})
    assert found and all(match.text.strip().startswith("user") for match in found)


def test_best_lines_cuts_a_one_megabyte_line() -> None:
    text = "getUserById(request_started, LocalProxy) " * 25_000  # one 1 MB line
    found = best_lines(text, query_terms("user by id local proxy request started"), {})  # timing: bench/
    assert len(found) == 1 and len(found[0].text) <= LINE_WIDTH + VALUE_REACH + 2


@pytest.mark.parametrize(
    ("path", "kind", "query", "answer"),
    [
        pytest.param(
            "bench/corpus/table-sql-box-airports-by-country.txt",
            "table",
            "Japan airport count",
            "│ JP      │ 130",
            id="a country by its ISO 3166 code",
        ),
        pytest.param(
            "tests/data/mcp-search-files-date-fns-locale-lib.txt",
            "tree",
            "Japanese hiragana locale localize path",
            "ja-Hira/_lib/localize.js",
            id="a language by its ISO 639 code",
        ),
    ],
)
def test_a_country_or_language_named_in_words_finds_its_code(
    path: str, kind: str, query: str, answer: str
) -> None:
    # Data spells countries and languages by their codes (JP, ja-Hira): a query naming them in
    # words found the rows and paths of other countries and locales.
    from pathlib import Path

    from context_mode.types import ContentKind
    from tests.searching import search

    text = (Path(__file__).resolve().parents[3] / path).read_text(encoding="utf-8")
    assert answer in search(text, ContentKind(kind), {"query": query})


def test_a_package_named_in_a_dependency_tree_is_found_with_its_version() -> None:
    # npm ls --all --json of a real project: "chokidar": { ended its siblings' chunk, so the search
    # showed the key and the siblings' versions, not chokidar's own "version": "2.1.8"
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "json-npm-ls-all-legacy-dashboard.json").read_text(encoding="utf-8")
    reply = search(text, ContentKind.JSON, {"query": "installed file watcher chokidar version"})
    first_hit = reply.split("\n")[1:4]
    assert first_hit[0].endswith("dependencies › webpack-dev-server › dependencies › chokidar")
    assert first_hit[1:] == ['  "chokidar": {', '  "version": "2.1.8",']


def test_a_version_named_in_the_query_weighs_as_rare_as_it_is() -> None:
    # PyPI's JSON of rich: "10.0.0" is one release among hundreds, but its words ("10", "0") are in
    # every chunk, so it weighed as a common word and the reply showed other releases' digests.
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "json-pypi-rich.json").read_text(encoding="utf-8")
    reply = search(text, ContentKind.JSON, {"query": "digest of the wheel file for release 10.0.0"})
    assert "01b3fcc305ae71b9ade4a645b6e371d395c6cd9ba52dcf180bfba69ef05c13b5" in reply


def test_a_word_every_record_holds_inside_an_identifier_is_not_rare() -> None:
    # sqlite's .mode line of votes by state: every record has a "y1964 = …" line, but "1964" is a
    # word only inside the identifier, so it counted as in no chunk, the rarest of the query's
    # words, and the reply showed other states' y1964 lines instead of Mississippi's record.
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "rows-sqlite-line-cluster-votes-repub-by-state.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.ROWS, {"query": "Mississippi 1964 republican vote"})
    assert "state = Mississippi" in reply
    assert "y1964 = 87.1" in reply


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        # Datasette's page of Ubuntu releases: the "date" lines of the page's facet links took the
        # room of Bionic's row, whose cells hold its dates.
        (
            "snapshot-datasette-distro-info-ubuntu.txt",
            ContentKind.SNAPSHOT,
            "Bionic release date",
            'cell "2018-04-26" [ref=f2e448]',
        ),
        # git-config's page: the lines saying what rename detection is came before the one with
        # its number of files.
        (
            "webpage-fetch-git-config.md",
            ContentKind.MARKDOWN,
            "how many files rename detection considers by default",
            "the default value is currently 1000",
        ),
    ],
)
def test_a_query_asking_for_a_number_is_shown_the_lines_with_one(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    assert answer in bench_reply(name, kind, query)


def test_a_query_asks_for_a_number_when_it_names_a_quantity() -> None:
    from context_mode.store import number_asked

    assert number_asked("size of the woff2 module")
    assert number_asked("which ports does it listen on")
    assert number_asked("how many tests ran")
    assert not number_asked("the default shell for exec")
    assert not number_asked("who cancelled the second job")


def test_a_unit_leaves_room_for_the_second_hits_first_line() -> None:
    # GLib's hash tables page: the first hit's paragraph and its element took the reply, and the
    # second hit, g_str_hash's description, was left out. (Its line "unsigned hash value starts at
    # 5381" was shown too until the reply's first and last lines grew shorter, in 2026-12: the first
    # hit's element then fits whole, and the second hit's room holds its first lines.)
    query = "string hash function algorithm seed"
    reply = bench_reply("snapshot-playwright-glib-hash-tables.txt", ContentKind.SNAPSHOT, query).splitlines()
    second = next(at for at, line in enumerate(reply[2:], 2) if line.startswith("#"))
    assert reply[second + 1] == "  - text: g_str_hash ("
    assert len(reply[second + 2]) > 40


def test_a_sphinx_pages_heading_paths_leave_their_permalinks_out() -> None:
    # Debian Policy's chapter fetched as Markdown: each hit's heading path carried its sections'
    # `[¶](#… "Permalink to this heading")`, and the room it took was the room of the Replaces
    # example below the heading.
    reply = bench_reply(
        "webpage-fetch-debian-policy-462-relationships.md",
        ContentKind.MARKDOWN,
        "example of overwriting files from another package",
    )
    paths = [line for line in reply.splitlines() if line.startswith("#") and " · " in line]
    assert paths and not any("Permalink" in path for path in paths)
    assert "Replaces: foo (<< 1.2-3)" in reply


@pytest.mark.parametrize(
    ("name", "query", "answer", "path"),
    [
        # CLDR's French time zone names: the metazone is the member's grandparent key, and no
        # word of the query is on the member's own line.
        (
            "json-jq-cldr48-fr-timezonenames.json",
            "new zealand summer time name",
            '"daylight": "heure d’été de la Nouvelle-Zélande"',
            '"New_Zealand": {',
        ),
        # browser-compat-data: the feature, "support" and "nodejs" are keys around the member.
        (
            "json-jq-bcd-819-javascript-array.json",
            "node support for fromAsync",
            '"version_added": "22.0.0"',
            '"nodejs": {',
        ),
        # pip inspect: the requirement is an item of the record's requires_dist array.
        (
            "json-pip-inspect-tox-4232-venv.json",
            "tox virtualenv requirement",
            '"virtualenv>=20.26.6"',
            '"requires_dist": [',
        ),
    ],
)
def test_a_nested_member_is_found_by_its_enclosing_keys_and_shown_under_them(
    name: str, query: str, answer: str, path: str
) -> None:
    reply = bench_reply(name, ContentKind.JSON, query)
    assert answer in reply
    assert reply.index(path) < reply.index(answer)


def test_a_drawn_trees_hit_names_the_directories_its_lines_are_in() -> None:
    # pycparser's ``tree -a -s -h``: the header is named by the directories above it, which the
    # query names ("hdir", "include") and a line of the tree does not.
    query = "header inside the nested hdir include directory"
    reply = bench_reply("tree-tree-a-s-h-pycparser-222.txt", ContentKind.TREE, query)
    assert "[  15]  inc.h" in reply
    assert "hdir" in reply.split("[  15]  inc.h")[0]


def test_a_snapshots_table_cell_is_found_under_the_table_the_query_names() -> None:
    # The Debian reference's MTU table: "576" is a cell of a row under the table named "Basic
    # guide lines of the optimal MTU value"; the cell's line holds no word of the query.
    name, query = "snapshot-debian-reference-network.txt", "optimal MTU for dial-up"
    reply = bench_reply(name, ContentKind.SNAPSHOT, query)
    assert 'cell "576" [ref=f9e1091]' in reply
    assert reply.index('table "Basic guide lines of the optimal MTU value"') < reply.index('cell "576"')


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        # tree -J of handlebars' npm package: "typescript type definitions" is index.d.ts
        (
            "tree-json-handlebars-478-npm.json",
            ContentKind.TREE,
            "typescript type definitions file size",
            '{"type":"file","name":"index.d.ts","size":12858}',
        ),
    ],
)
def test_a_file_named_by_its_type_is_found_by_its_extension(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    assert answer in bench_reply(name, kind, query)


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        # tornado's linkify: the argument's line names one word of the query ("protocols"), its
        # docstring's lines name three; the room went to lines beside those.
        (
            "source-fs-read-multiple-tornado-641.txt",
            ContentKind.SOURCE,
            "default allowed protocols when linkifying text",
            'permitted_protocols: List[str] = ["http", "https"],',
        ),
        # watchdog's API page: the advice is the line after the one naming the option.
        (
            "webpage-fetch-watchdog-221-api.md",
            ContentKind.MARKDOWN,
            "directory snapshot diff ignore device advice",
            "Set to True only if you are sure you will always use the same device.",
        ),
        # R CMD check's build log: the link line names "library" alone, the compile lines more.
        (
            "test-r-cmd-check-magrittr-203.log",
            ContentKind.LOG,
            "link command for the compiled library",
            "gcc -shared -L/usr/lib/R/lib -Wl,-z,relro -o magrittr.so pipe.o utils.o",
        ),
    ],
)
def test_a_passage_naming_one_word_of_the_query_is_shown_before_lines_beside_the_best(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    assert answer in bench_reply(name, kind, query)


def test_a_ref_searchs_lines_are_weighed_by_what_is_rare_in_that_payload() -> None:
    # Failed before: in a store holding the corpus's other logs, a term's weight was its rarity
    # in the whole store, where "login" and "failure" are common; ProFTPD's reply showed its
    # "MaxLoginAttempts" and "dispatching … 'USER admin'" lines, not "USER admin: no such user
    # found". A search of one payload now weighs a term by its rarity in that payload.
    from context_mode.store import Store
    from tests.corpora import BENCH_CORPUS
    from tools.doc_tools import doc_tools

    target = BENCH_CORPUS / "log-proftpd-138-debug10-sessions-ban.log"
    store = Store(None)
    try:
        for other in sorted(BENCH_CORPUS.glob("log-*.log")):
            if other != target:
                store.put(other.read_text(encoding="utf-8"), source=other.stem, kind=ContentKind.LOG)
        doc = store.put(target.read_text(encoding="utf-8"), source="proftpd", kind=ContentKind.LOG)
        tool = next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search")
        reply = tool.run({"query": "admin login failure", "ref": doc.ref})
    finally:
        store.close()
    assert "USER admin: no such user found from 127.0.0.1" in reply


def test_an_options_default_in_a_manual_page_is_found_under_its_name() -> None:
    # sshd_config(5) as ``man`` prints it: "LoginGraceTime" heads its description, so a search
    # naming the option in words finds that description, default and all (failed before: the
    # options naming "login" in passing and their defaults came first, the answer fifth, unshown).
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "webpage-man-sshd-config-5.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.TEXT, {"query": "login grace timeout default"})
    assert "DESCRIPTION › LoginGraceTime" in reply
    assert "The default is 120 seconds." in reply


def test_a_diffs_changed_json_members_are_shown_as_changed_lines() -> None:
    # npm diff of commander 12.0.0 -> 12.1.0: package.json's scripts were shown joined as a
    # record's fields ("check:format": "prettier --check .", …) without their + and -, so the
    # reply said nothing of what was added and what removed (failed before).
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "diff-npm-diff-commander-1200-1210.diff").read_text(encoding="utf-8")
    reply = search(text, ContentKind.DIFF, {"query": "formatting check npm script"})
    assert '+    "check:format": "prettier --check .",' in reply


def test_a_diffs_removed_line_answers_a_query_asking_what_was_removed() -> None:
    # git log -p of itsdangerous 2.1.2 -> 2.2.0: "__version__" is on the removed line and on the
    # lines that read it; "removed" now counts on the line the diff removed (failed before).
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search

    text = (BENCH_CORPUS / "gitlog-p-itsdangerous-212-220.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.DIFF, {"query": "version attribute removed from package init"})
    assert '-__version__ = "2.1.2"' in reply


def test_a_heading_line_the_heading_path_names_is_not_shown_again() -> None:
    # Hypothesis's settings page fetched as Markdown: the hit's path ends "› Settings profiles", and
    # its first line, ``### Settings profiles[¶](#settings-profiles "Permalink to this heading")``,
    # took the room of the section's first sentence.
    reply = bench_reply(
        "webpage-capz-mcp-npx-fetch-100-markdown-hypothesis-6671-settings.md",
        ContentKind.MARKDOWN,
        "command line flag to pick profile",
    )
    assert "#8 · Settings › Default settings › Settings profiles" in reply
    assert "### Settings profiles" not in reply
    assert "Hypothesis allows you to define different settings profiles." in reply


def test_a_paragraph_on_one_line_shows_a_later_sentence_that_holds_the_terms() -> None:
    # goose3's text of h5py's page is a paragraph per line: "chunk" is in the line's first
    # sentences many times, and only its first few occurrences counted, so the sentence with the
    # answer ("recommended", "size" and "chunks" together) held only two of the terms.
    reply = bench_reply(
        "webpage-cpl-goose3-3122-h5py-doc-370-high-dataset.txt",
        ContentKind.TEXT,
        "recommended chunk size range",
    )
    assert "keep the total size of your chunks between 10 KiB and 1 MiB" in reply


def test_a_long_lines_window_ends_past_the_value_it_would_cut() -> None:
    # cargo metadata's features on one line: the window around "wrap", "help" and "deps" ended
    # at ``"wrap_help":["help","dep…``, the feature's dependency cut off.
    reply = bench_reply(
        "json-cargo-metadata-clap-4032-debian.json", ContentKind.JSON, "wrap help feature deps"
    )
    assert '"wrap_help":["help","dep:terminal_size"]' in reply


def test_an_abbreviation_ends_no_sentence_of_a_long_line() -> None:
    # "(i.e. NaN, inf)" was two sentences: the one picked for its terms ended at "(i.e.", without
    # the values it names.
    reply = bench_reply(
        "webpage-cpl-goose3-3122-h5py-doc-370-high-dataset.txt",
        ContentKind.TEXT,
        "lossy filter special floats limitation",
    )
    assert "does not preserve special float values (i.e. NaN, inf)" in reply
