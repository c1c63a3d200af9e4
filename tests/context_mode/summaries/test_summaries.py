"""Content-aware summaries: what each kind keeps, and the packing rules they share."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

import context_mode.summaries as summaries
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries import Extract, summarize
from context_mode.summaries.log_lines import scan_log
from context_mode.summaries.packing import (
    Pick,
    clip,
    is_marker,
    pack,
    size,
    strip_annotation,
)
from context_mode.types import ContentKind, OutputStyle
from tests.verbatim import clipped_from

DATA = Path(__file__).resolve().parents[2] / "data"


def assert_verbatim(body: str, source: str) -> None:
    """Every body line is a marker, or a source line (or a prefix ending in …), maybe annotated."""
    source_lines = set(source.splitlines())
    for line in body.split("\n"):
        if is_marker(line):
            continue
        candidates = {line, strip_annotation(line)}
        assert any(clipped_from(candidate, source_lines) for candidate in candidates), (
            f"not verbatim: {line!r}"
        )


def test_the_public_surface_is_summarize_summarize_for_intent_with_ending_and_extract() -> None:
    assert summaries.__all__ == sorted(summaries.__all__)
    assert summaries.__all__ == ["Extract", "summarize", "summarize_for_intent", "with_ending"]


def test_extract_is_a_frozen_value() -> None:
    extract = Extract(text="a", kind=ContentKind.TEXT, outline="text: 1 line", highlights=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        extract.text = "b"  # type: ignore[misc]


def test_the_core_modules_import_no_io_libraries() -> None:
    code = (
        "import sys, context_mode.summaries, context_mode.kinds, context_mode.codelines\n"
        "bad = sorted(m for m in ('mcp', 'anyio', 'httpx', 'socket') if m in sys.modules)\n"
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


# -- packing ---------------------------------------------------------------------------------

LINES = [f"line {i}" for i in range(20)]


def test_pack_keeps_input_order_and_marks_what_it_left_out() -> None:
    body = pack(LINES, [Pick(10, 11, 5), Pick(2, 3, 9)], 1000)
    assert body.split("\n") == ["…", "line 2", "…", "line 10", "…"]


def test_pack_takes_the_best_picks_that_fit_and_never_exceeds_the_budget() -> None:
    picks = [Pick(i, i + 1, float(i)) for i in range(20)]
    body = pack(LINES, picks, 40)
    assert size(body) <= 40
    assert "line 19" in body and "line 18" in body and "line 9" not in body


def test_pack_skips_a_pick_too_big_and_still_fits_smaller_ones() -> None:
    lines = ["x" * 500, "small"]
    body = pack(lines, [Pick(0, 1, 10, width=600), Pick(1, 2, 1)], 60)
    assert "small" in body and "xxx" not in body


def test_pack_skips_a_pick_that_shows_only_lines_already_shown() -> None:
    # Failed before: the second copy of a line took the bytes the next pick needed.
    lines = ["Changed in 2.1: a", "a", "Changed in 2.1: a", "b", "the answer is 42"]
    picks = [Pick(0, 1, 9), Pick(2, 3, 8), Pick(4, 5, 7)]
    body = pack(lines, picks, 50, gaps="short")
    assert body.split("\n") == ["Changed in 2.1: a", "…", "the answer is 42"]


def test_pack_skips_a_pick_of_blank_lines_alone() -> None:
    # Failed before: an empty line in a fenced block (a converted man page's first "text" under
    # DESCRIPTION) was shown between two "…" markers: three bytes that said nothing.
    lines = ["# Title", "", "```", "", "```", "Body text."]
    assert pack(lines, [Pick(0, 1, 9), Pick(3, 4, 8), Pick(5, 6, 1)], 100, gaps="short") == (
        "# Title\n…\nBody text."
    )


def test_pack_shows_a_short_line_again_where_it_labels_a_new_one() -> None:
    lines = ["Default:", "5", "Default:", "7", "---", "Default:"]
    picks = [Pick(0, 1, 9), Pick(1, 2, 9), Pick(2, 3, 8), Pick(3, 4, 7), Pick(4, 5, 6), Pick(5, 6, 6)]
    assert pack(lines, picks, 100).split("\n") == ["Default:", "5", "Default:", "7", "---", "…"]


def test_a_reference_pages_repeated_table_rows_are_shown_once() -> None:
    # Failed before: Node's child_process page has a "History" table under each function, most
    # of them with the same rows; stage 1 showed "| v16.4.0, v14.18.0 | The `cwd` option can be a
    # WHATWG `URL` object …" five times, in bytes its other sections needed.
    from tests.corpora import bench_stage1

    body = bench_stage1("webpage-fetch-nodejs-child-process.md", tool="fetch")
    shown = body.splitlines()
    row = "| v16.4.0, v14.18.0 | The `cwd` option can be a WHATWG `URL` object using `file:` protocol. |"
    assert shown.count(row) == 1
    assert "| v8.8.0 | The `windowsHide` option is supported now. |" in shown
    # A short line that is the label of what is new beside it is shown again: a table's header.
    header = shown.index("| v15.6.0, v14.18.0 | Added the `overlapped` stdio flag. |") - 2
    assert shown[header : header + 2] == ["| Version | Changes |", "| --- | --- |"]


@pytest.mark.parametrize(
    ("gaps", "expected"),
    [
        pytest.param("short", ["…", "line 3", "…"], id="short"),
        pytest.param("none", ["line 3"], id="none"),
    ],
)
def test_pack_marks_gaps_in_the_chosen_style(gaps: str, expected: list[str]) -> None:
    assert pack(LINES, [Pick(3, 4, 1)], 1000, gaps=gaps).split("\n") == expected


def test_a_gap_of_blank_and_filler_lines_is_not_marked() -> None:
    lines = ["Title", "=====", "", "First sentence."]
    assert pack(lines, [Pick(0, 1, 2), Pick(3, 4, 1)], 100, filler={1}) == "Title\nFirst sentence."


def test_long_lines_are_clipped_to_a_verbatim_prefix() -> None:
    assert clip("abcdefghij", 5) == "abcd…"
    assert clip("abc", 5) == "abc"


def test_annotations_are_recognised_and_stripped() -> None:
    assert strip_annotation("Accepted 127.0.0.1 [×219]") == "Accepted 127.0.0.1"
    assert strip_annotation("diff --git a/x b/x [+3 -1]") == "diff --git a/x b/x"
    assert is_marker("… 12 lines …") and is_marker("…") and is_marker("== failing tests ==")
    assert not is_marker("… and more")


# -- logs ------------------------------------------------------------------------------------

PYTEST_LOG = "\n".join(
    [
        "============================= test session starts ==============================",
        "collected 40 items",
        "",
        *[f"tests/test_core.py::test_case_{i} PASSED{' ' * 20}[{i * 2:3d}%]" for i in range(20)],
        "tests/test_core.py::TestParse::test_empty FAILED                        [ 50%]",
        *[f"tests/test_more.py::test_more_{i} PASSED{' ' * 20}[{50 + i:3d}%]" for i in range(19)],
        "",
        "=================================== FAILURES ===================================",
        "___________________________ TestParse.test_empty ____________________________",
        "",
        "    def test_empty(self):",
        ">       assert parse('') == []",
        "E       AssertionError: assert None == []",
        "E        +  where None = parse('')",
        "",
        "tests/test_core.py:88: AssertionError",
        "=========================== short test summary info ============================",
        "FAILED tests/test_core.py::TestParse::test_empty - AssertionError: assert None == []",
        "========================= 1 failed, 39 passed in 1.23s =========================",
    ]
)


def test_a_pytest_run_keeps_failing_ids_the_assertion_and_the_final_counts() -> None:
    extract = summarize(PYTEST_LOG, ContentKind.LOG, budget=700)
    assert "tests/test_core.py::TestParse::test_empty" in extract.text
    assert "E       AssertionError: assert None == []" in extract.text
    assert "tests/test_core.py:88: AssertionError" in extract.text
    assert "1 failed, 39 passed in 1.23s" in extract.text
    assert "test_case_7 PASSED" not in extract.text
    assert extract.outline.startswith(f"log: {len(PYTEST_LOG.splitlines())} lines, 1 failed test, ")
    assert extract.highlights >= 1
    assert_verbatim(extract.text, PYTEST_LOG)


PY_TRACEBACK = "\n".join(
    [
        *[f"2024-05-01 10:00:{i:02d} INFO step {i} done" for i in range(30)],
        "Traceback (most recent call last):",
        *[
            f'  File "/srv/app/layer{i}.py", line {10 + i}, in call_{i}\n    return call_{i + 1}()'
            for i in range(8)
        ],
        '  File "/srv/app/db.py", line 99, in connect',
        "    raise ConnectionError(f'cannot reach {host}')",
        "ConnectionError: cannot reach db.internal:5432",
        "2024-05-01 10:01:00 INFO shutting down",
    ]
)


def test_a_python_traceback_collapses_to_its_innermost_frame_and_exception() -> None:
    extract = summarize(PY_TRACEBACK, ContentKind.LOG, budget=600)
    assert "ConnectionError: cannot reach db.internal:5432" in extract.text
    assert '  File "/srv/app/db.py", line 99, in connect' in extract.text
    assert "    raise ConnectionError(f'cannot reach {host}')" in extract.text
    assert "layer1.py" not in extract.text  # outer frames give way to the innermost
    assert_verbatim(extract.text, PY_TRACEBACK)


JAVA_LOG = "\n".join(
    [
        *[f"12-Mar-2024 10:00:{i:02d}.000 INFO [main] org.acme.Boot.step Step {i}" for i in range(20)],
        "12-Mar-2024 10:00:30.000 SEVERE [main] org.acme.Loader.load Could not load plugin [billing]",
        "\tjava.lang.ClassNotFoundException: org.acme.billing.Plugin",
        "\t\tat org.acme.loader.PluginClassLoader.find(PluginClassLoader.java:88)",
        "\t\tat org.acme.loader.PluginClassLoader.load(PluginClassLoader.java:40)",
        "\t\tat org.acme.core.Registry.register(Registry.java:120)",
        *[f"\t\tat java.base/java.lang.Thread.run{i}(Thread.java:{800 + i})" for i in range(20)],
        "12-Mar-2024 10:00:31.000 INFO [main] org.acme.Boot.start Server startup in [2048] milliseconds",
    ]
)


def test_a_jvm_trace_keeps_the_exception_and_the_first_frame_of_each_class() -> None:
    extract = summarize(JAVA_LOG, ContentKind.LOG, budget=800)
    assert "Could not load plugin [billing]" in extract.text
    assert "java.lang.ClassNotFoundException: org.acme.billing.Plugin" in extract.text
    assert "PluginClassLoader.find(PluginClassLoader.java:88)" in extract.text
    assert "Registry.register(Registry.java:120)" in extract.text
    assert "Server startup in [2048] milliseconds" in extract.text
    assert_verbatim(extract.text, JAVA_LOG)


JEST_LOG = "\n".join(
    [
        *[f"PASS tests/unit{i}.test.js" for i in range(30)],
        *[
            line
            for name, line_no in (("suggests the alias", 75), ("suggests both candidates", 188))
            for line in (
                f"  ● {name}",
                "    expect(received).toBe(expected) // Object.is equality",
                '    Expected: "bat, cat"',
                '    Received: "bat"',
                f"      {line_no - 1} |   const suggestion = getSuggestion(program, 'mat');",
                f"    > {line_no} |   expect(suggestion).toBe('bat, cat');",
                "        |                      ^",
                f"      at Object.<anonymous> (tests/help.suggestion.test.js:{line_no}:22)",
                "      at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)",
            )
        ],
        "Tests:       2 failed, 1045 passed, 1047 total",
    ]
)


def test_a_node_stack_frame_is_a_frame_and_each_failures_location_is_kept() -> None:
    # Node's "    at fn (file:line:col)" frames were not frames, and lines of one shape were
    # folded into one [×N]: the second failure's location (…:188:22) was never shown.
    frames = scan_log(JEST_LOG.splitlines()).frames
    assert [where for _, where, _ in frames][:2] == [
        "Object.<anonymous> (tests/help.suggestion.test.js",
        "Promise.then.completed (node_modules/jest-circus/build/utils.js",
    ]
    extract = summarize(JEST_LOG, ContentKind.LOG, budget=1500)
    assert "at Object.<anonymous> (tests/help.suggestion.test.js:75:22)" in extract.text
    assert "at Object.<anonymous> (tests/help.suggestion.test.js:188:22)" in extract.text
    assert "(tests/help.suggestion.test.js:188:22) [×" not in extract.text
    assert_verbatim(extract.text, JEST_LOG)


def test_a_declared_info_level_outranks_an_exception_word_in_the_message() -> None:
    text = "\n".join(
        f"2024-05-01 10:00:{i:02d} DEBUG loading class, see ClassNotFoundException docs" for i in range(5)
    )
    assert summarize(text, ContentKind.LOG, budget=1500).outline.endswith("0 errors, 0 warnings")


COMPILER_LOG = "\n".join(
    [
        *[f"-- Performing Test FLAG_{i} - {'Failed' if i % 9 == 0 else 'Success'}" for i in range(40)],
        "[ 50%] Building C object CMakeFiles/lib.dir/lib.c.o",
        "/src/lib.c: In function ‘apply’:",
        "/src/lib.c:972:5: error: too many arguments to function ‘decode’",
        "  972 |     decode(ptr, flag);",
        "      |     ^~~~~~",
        "/src/lib.c:359:13: note: declared here",
        "make[2]: *** [CMakeFiles/lib.dir/build.make:76: CMakeFiles/lib.dir/lib.c.o] Error 1",
        *[f"[ {60 + i}%] Built target t{i}" for i in range(30)],
        "make: *** [Makefile:146: all] Error 2",
    ]
)


def test_a_compiler_error_keeps_location_note_and_make_failures() -> None:
    extract = summarize(COMPILER_LOG, ContentKind.LOG, budget=800)
    for expected in (
        "/src/lib.c:972:5: error: too many arguments to function ‘decode’",
        "/src/lib.c:359:13: note: declared here",
        "[CMakeFiles/lib.dir/build.make:76: CMakeFiles/lib.dir/lib.c.o] Error 1",
        "make: *** [Makefile:146: all] Error 2",
    ):
        assert expected in extract.text
    assert "exit status 2" in extract.outline
    assert "3 errors" in extract.outline, "routine '- Failed' probes are not errors"


def test_repeated_lines_are_shown_once_with_a_fold_count() -> None:
    text = "\n".join(
        ["service starting"]
        + [f"10:00:{i % 60:02d} ERROR connection refused to 10.0.0.{i % 250}" for i in range(37)]
        + ["service stopped"]
    )
    extract = summarize(text, ContentKind.LOG, budget=1500)
    assert extract.text.count("connection refused") == 1
    assert "[×37]" in extract.text


def test_the_room_a_logs_few_marked_lines_leave_goes_to_the_first_line_of_each_other_shape() -> None:
    # go test -race on a small package (a dev corpus item, 9 kB): its picks (the races' headings,
    # the failing tests, the verdict) took 724 bytes of a 1,980-byte budget, none of the frames
    # saying where each race was (failed before). A shape shown stands for its others.
    from tests.corpora import bench_stage1

    stage1 = bench_stage1("trace-go-test-race-sessionstore-data-races.txt").split("\n")
    assert "      /tmp/scratch_capa/gorace/sessionstore/store.go:58 +0x2f2" in stage1
    assert "  example.lab/sessionstore/sessionstore.(*Store).Create() [×6]" in stage1  # its shape recurs
    assert sum(line.startswith("WARNING: DATA RACE") for line in stage1) <= 2


def test_a_clean_log_shows_head_tail_and_one_off_events() -> None:
    text = "\n".join(
        ["redis starting, version=7.0.15"]
        + [f"accepted client 127.0.0.1:{5000 + i}" for i in range(200)]
        + ["background save finished with success"]
        + [f"accepted client 127.0.0.1:{6000 + i}" for i in range(200)]
        + ["shutdown complete"]
    )
    extract = summarize(text, ContentKind.LOG, budget=400)
    assert "version=7.0.15" in extract.text
    assert "background save finished with success" in extract.text
    assert "shutdown complete" in extract.text
    assert extract.highlights == 0


def test_log_lines_matching_a_term_are_preferred() -> None:
    text = "\n".join(f"2024-05-01 10:{i // 60:02d}:{i % 60:02d} INFO request {i} ok" for i in range(500))
    text = text.replace("request 250 ok", "request 250 ok tenant=zebra")
    assert "tenant=zebra" in summarize(text, ContentKind.LOG, budget=300, terms=["zebra"]).text


# -- JSON ------------------------------------------------------------------------------------


def test_a_json_object_keeps_top_level_scalars_and_stays_valid() -> None:
    document = {
        "name": "express",
        "dist-tags": {"latest": "5.3.0"},
        "versions": [f"1.{i}.0" for i in range(300)],
        "time": {f"1.{i}.0": f"2020-01-{i % 28 + 1:02d}" for i in range(300)},
        "license": "MIT",
        "total_count": 2723,
    }
    extract = summarize(json.dumps(document, indent=2), ContentKind.JSON, budget=700)
    body = json.loads(extract.text)
    assert body["name"] == "express" and body["license"] == "MIT" and body["total_count"] == 2723
    assert body["dist-tags"] == {"latest": "5.3.0"}
    assert "… +" in json.dumps(body["versions"], ensure_ascii=False)
    assert "versions (300 items)" in extract.outline


def test_json_records_show_identity_fields_of_many_records() -> None:
    records = [{"id": i, "full_name": f"org/repo{i}", "url": f"https://x/{i}", "size": i} for i in range(40)]
    extract = summarize(json.dumps({"items": records}), ContentKind.JSON, budget=900)
    body = json.loads(extract.text)
    shown = [item for item in body["items"] if isinstance(item, dict) and "full_name" in item]
    assert len(shown) >= 8
    assert extract.highlights == 40


def test_nan_and_infinity_become_null() -> None:
    extract = summarize('{"a": NaN, "b": Infinity, "c": [-Infinity]}', ContentKind.JSON, budget=200)
    assert json.loads(extract.text) == {"a": None, "b": None, "c": [None]}


def test_json_nested_ten_thousand_deep_is_summarised_quickly() -> None:
    extract = summarize("[" * 10_000 + "]" * 10_000, ContentKind.JSON, budget=1500)
    assert extract.kind == ContentKind.JSON
    json.loads(extract.text)


def test_an_ndjson_stream_is_summarised_as_an_array() -> None:
    text = "\n".join(json.dumps({"id": i, "level": "info"}) for i in range(50))
    extract = summarize(text, ContentKind.JSON, budget=300)
    assert extract.kind == ContentKind.JSON
    assert isinstance(json.loads(extract.text), list)


def test_text_that_is_not_json_falls_back_to_a_text_summary() -> None:
    extract = summarize("not json\nat all", ContentKind.JSON, budget=300)
    assert extract.kind == ContentKind.TEXT
    assert "not json" in extract.text


@pytest.mark.parametrize("budget", [64, 80, 100, 150, 300])
def test_a_tight_budget_keeps_json_valid_by_dropping_samples_first(budget: int) -> None:
    document = {"id": 7, "items": [{"id": i, "tags": ["a", "b"], "meta": {"x": i}} for i in range(100)]}
    extract = summarize(json.dumps(document), ContentKind.JSON, budget=budget)
    assert size(extract.text) <= budget
    body = json.loads(extract.text)
    assert isinstance(body, dict)


def test_lone_surrogates_in_json_strings_stay_encodable() -> None:
    extract = summarize('{"name": "\\ud800x"}', ContentKind.JSON, budget=200)
    extract.text.encode("utf-8")
    assert json.loads(extract.text)["name"] == "\ud800x"


# -- code search -----------------------------------------------------------------------------

RG_OUTPUT = "\n".join(
    [
        *[f"docs/guide.rst:{i}:The request object is described here, line {i}." for i in range(1, 40)],
        "src/app/globals.py:57:request: RequestProxy = LocalProxy(_cv, 'request')",
        *[f"src/app/app.py:{i}:        ctx.request.environ[{i}]" for i in range(100, 160)],
        "src/app/app.py:992:    def full_dispatch_request(self) -> Response:",
        "src/app/ctx.py:384:            raise RuntimeError('There is no request in this context.')",
        "src/app/app.py:5:from .globals import request",
        *[f"tests/test_basic.py:{i}:    rv = client.get('/request/{i}')" for i in range(10, 60)],
    ]
)


def test_code_search_prefers_definitions_raises_and_spreads_over_files() -> None:
    extract = summarize(RG_OUTPUT, ContentKind.CODE_SEARCH, budget=500, terms=["request"])
    assert "src/app/app.py:992:    def full_dispatch_request" in extract.text
    assert "src/app/globals.py:57:request: RequestProxy" in extract.text
    assert "src/app/ctx.py:384:" in extract.text
    assert extract.outline.startswith("code search: 153 matches in 5 files; most: src/app/app.py 62")
    assert_verbatim(extract.text, RG_OUTPUT)


def test_git_grep_function_context_counts_only_match_lines() -> None:
    text = "\n".join(
        [
            "src/ctx.py=480=    def pop(self, exc):",
            "src/ctx.py-481-        '''Pop the context.'''",
            "src/ctx.py:490:        self.app.do_teardown_request(self, exc)",
            "src/ctx.py-491-        errors.raise_any('Errors during teardown')",
            "--",
            "src/my-app.py-3-x = 1",
            "src/my-app.py:4:teardown_all()",
        ]
    )
    extract = summarize(text, ContentKind.CODE_SEARCH, budget=400, terms=["teardown"])
    assert extract.highlights == 2
    assert "src/ctx.py:490:" in extract.text and "src/my-app.py:4:" in extract.text
    assert "raise_any('Errors during teardown')" in extract.text


def test_a_match_opening_a_statement_is_shown_with_the_lines_finishing_it() -> None:
    # git grep -n -W 'raise ParserError' over ruamel.yaml 0.19.1 (a real capture): eleven
    # ``raise ParserError(`` lines, each message in the context lines below. They were one line
    # "parser.py:516: raise ParserError( [×11]" (253 bytes of a 39.6 kB listing), no message.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "code-cpx-git-grep-n-w-ruamel-yaml-0191-raise-parsererror.txt").read_text()
    extract = summarize(text, ContentKind.CODE_SEARCH, budget=2800)
    assert "found incompatible YAML document (version 1.* is required)" in extract.text
    assert (
        "parser.py-311-                        None, None, f'duplicate tag handle {handle!r}'" in extract.text
    )
    assert extract.text.count("raise ParserError(") >= 4
    assert len(extract.text.encode()) <= 2800
    assert_verbatim(extract.text, text)
    # The same opening line over the same lines is one statement seen twice: shown once, counted.
    twice = (
        "a.py:3:    raise Bad(\na.py-4-        'no'\na.py-5-    )\n--\n"
        "b.py:9:    raise Bad(\nb.py-10-        'no'\nb.py-11-    )\n"
    )
    once = summarize(twice, ContentKind.CODE_SEARCH, budget=400).text
    assert once.count("'no'") == 1 and "[×2]" in once
    # A block's opening brace is no statement to finish: its body is not shown for it.
    block = "c.go:5:\t} else if err == ErrShortSrc {\nc.go-6-\t\tif n == 0 {\nc.go-7-\t\t\treturn\n"
    assert "c.go-6-" not in summarize(block, ContentKind.CODE_SEARCH, budget=400).text


def test_rg_heading_mode_is_understood() -> None:
    text = "src/app.py\n12:def handle(request):\n40:    return handle(req)\n\nsrc/io.py\n7:    x = 1\n"
    extract = summarize(text, ContentKind.CODE_SEARCH, budget=400, terms=["handle"])
    assert "12:def handle(request):" in extract.text
    assert "3 matches in 2 files" in extract.outline


def test_a_listings_totals_line_below_its_matches_is_shown() -> None:
    # go tool cover -func: path:line: rows, then "total: (statements) 65.8%", no match, was left
    # out for the rows ranked above it (failed before).
    rows = [f"github.com/spf13/viper/viper.go:{n}:\t\tGet{n}\t\t\t\t{n % 100}.0%" for n in range(10, 400, 3)]
    text = "\n".join([*rows, "total:\t\t\t\t\t\t(statements)\t\t\t\t65.8%", ""])
    extract = summarize(text, ContentKind.CODE_SEARCH, budget=800)
    assert extract.text.rstrip().endswith("(statements)\t\t\t\t65.8%")
    assert len(extract.text.encode()) <= 800


# -- markdown, diff, table, text ---------------------------------------------------------------

MARKDOWN = "\n".join(
    [
        "# Project",
        "",
        "A tool that does things. It has many features and a long history.",
        "",
        "```bash",
        "# this comment is not a heading",
        "make install",
        "```",
        "",
        *[
            line
            for i in range(30, 0, -1)
            for line in (
                f"1.{i}.0 / 2024-01-{i:02d}",
                "=" * 18,
                "",
                f"  * Change number {i}. More words.",
                "",
            )
        ],
    ]
)


def test_markdown_keeps_the_heading_skeleton_with_first_sentences() -> None:
    extract = summarize(MARKDOWN, ContentKind.MARKDOWN, budget=700)
    assert "# Project" in extract.text
    assert "A tool that does things.…" in extract.text
    assert "1.30.0 / 2024-01-30" in extract.text
    assert "1.1.0 / 2024-01-01" in extract.text, "the last heading shows where the document ends"
    assert "# this comment is not a heading" not in extract.text
    assert (
        extract.outline == f"markdown: {len(MARKDOWN.splitlines())} lines, 31 headings (31 h1), 1 code block"
    )
    assert_verbatim(extract.text, MARKDOWN)


DIFF = "\n".join(
    [
        "commit 0123456789abcdef0123456789abcdef01234567",
        "Author: A <a@example.com>",
        "Date:   Mon Jan 1 00:00:00 2024 +0000",
        "",
        "    rename session to _session",
        "",
        "diff --git a/src/ctx.py b/src/ctx.py",
        "index 1111111..2222222 100644",
        "--- a/src/ctx.py",
        "+++ b/src/ctx.py",
        "@@ -10,3 +10,3 @@ class RequestContext:",
        "-        self.session = session",
        "+        self._session = session",
        "         self.flashes = None",
        "@@ -40,2 +40,3 @@ def pop(self):",
        "+        self._session = None",
        "         return",
    ]
)


def test_a_diff_keeps_commits_files_with_counts_and_hunk_headers() -> None:
    extract = summarize(DIFF, ContentKind.DIFF, budget=600)
    assert "commit 0123456789abcdef0123456789abcdef01234567" in extract.text
    assert "    rename session to _session" in extract.text
    assert "+++ b/src/ctx.py [+2 -1]" in extract.text
    assert "@@ -40,2 +40,3 @@ def pop(self):" in extract.text
    assert extract.outline == "diff: 1 commit (0 merges), 1 file changes, 2 hunks, +2 -1 lines"
    assert_verbatim(extract.text, DIFF)


def test_a_diff_line_matching_a_term_is_shown() -> None:
    assert (
        "+        self._session = session"
        in summarize(DIFF, ContentKind.DIFF, budget=600, terms=["_session"]).text
    )


TABLE = "\n".join(
    [
        "Desired=Unknown/Install/Remove/Purge/Hold",
        "||/ Name        Version     Architecture Description",
        "+++-===========-===========-============-====================",
        *[f"ii  pkg{i:03d}      1.{i}.0       amd64        package number {i}" for i in range(200)],
    ]
)


def test_a_table_is_a_row_set_of_its_key_columns_with_counts() -> None:
    extract = summarize(TABLE, ContentKind.TABLE, budget=600)
    # Rows as spelled (their first columns: a row is quoted as the payload has it); the status
    # column holds one value: said once in the column list. The line above the header is its title.
    assert extract.text.startswith(
        "200 rows × 5 columns\nDesired=Unknown/Install/Remove/Purge/Hold\n"
        "||/ Name        Version     Architecture Description\n"
    )
    assert "ii  pkg000      1.0.0       amd64        package number 0" in extract.text
    assert "ii  pkg199      1.199.0       amd64        package number 199" in extract.text
    assert "pkg150" not in extract.text
    assert "- ||/: 1 distinct: ii" in extract.text
    assert extract.outline == "table: 200 rows × 5 columns (||/, Name, Version, Architecture, Description)"


def test_table_rows_matching_a_term_come_first() -> None:
    assert "ii  pkg150" in summarize(TABLE, ContentKind.TABLE, budget=400, terms=["pkg150"]).text


def test_plain_text_keeps_head_tail_and_term_lines() -> None:
    text = "\n".join(["Title line"] + [f"filler sentence number {i}" for i in range(300)] + ["the end"])
    text = text.replace("number 150", "number 150 mentions the unicorn")
    extract = summarize(text, ContentKind.TEXT, budget=300, terms=["unicorn"])
    assert "Title line" in extract.text and "the end" in extract.text
    assert "unicorn" in extract.text
    assert_verbatim(extract.text, text)


def test_plain_texts_head_and_tail_are_lines_that_say_something() -> None:
    # Failed before: jfr print's samples (fresh31a) ended "    ...", "  ]", "}": the tail was
    # those brackets, and the last sample's top frame, five lines up, was not shown.
    from tests.corpora import BENCH_CORPUS

    name = "trace-cpa-jfr-print-executionsample-rhino-1714-esprima-401-lodash-parse.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    lines = summarize(text, ContentKind.TEXT, budget=1500).text.splitlines()
    assert "    org.mozilla.javascript.ScriptRuntime.enumId(Object, Context) line: 2359" in lines
    assert lines[-1] != "}" and "  ]" not in lines


@pytest.mark.parametrize("kind", list(ContentKind))
def test_an_empty_payload_gives_an_empty_body(kind: ContentKind) -> None:
    extract = summarize("", kind, budget=100)
    assert extract.text == "" and extract.highlights == 0


@pytest.mark.parametrize("kind", list(ContentKind))
def test_a_zero_budget_gives_an_empty_body(kind: ContentKind) -> None:
    assert summarize(PYTEST_LOG, kind, budget=0).text == ""


def test_a_burst_of_distinct_errors_gets_room_for_each_of_them() -> None:
    # An Apache error log: a dozen different errors in one burst were counted as one error
    # event, so the summary kept its minimum budget and showed half of them.
    debug = (
        "[Wed Dec 02 05:02:49.{n:06d} 2026] [authz_core:debug] [pid 126:tid 145] mod_authz_core.c(815): "
        "[client 127.0.0.1:{n}] AH01626: authorization result of Require all granted: granted"
    )
    modules = [
        "autoindex",
        "core",
        "auth_basic",
        "proxy",
        "proxy_fcgi",
        "ssl",
        "rewrite",
        "cgid",
        "dir",
        "mime",
        "deflate",
        "headers",
    ]
    errors = [
        f"[Wed Dec 02 05:02:50.{n:06d} 2026] [{module}:error] [pid 126:tid 14{n}] [client 127.0.0.1:4300{n}] "
        f"AH0{1000 + 37 * n}: the {module} module could not handle the request for /area{n}/ (failure {n})"
        for n, module in enumerate(modules)
    ]
    lines = [debug.format(n=n) for n in range(40)] + errors + [debug.format(n=n) for n in range(40, 80)]
    text = "\n".join(lines)
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="read_log", arguments={})
    assert isinstance(decision, Summary)
    for error in errors:
        assert error in decision.extract.text


def test_an_error_comes_with_the_paragraph_that_explains_it_before_warnings_of_one_template() -> None:
    # pip's "The conflict is caused by:" and the two requirements under it were cut, while five
    # "WARNING: Location '…/<package>/' is ignored" lines (one template) took the room.
    from pathlib import Path

    from context_mode.router import Summary, route

    text = (Path(__file__).resolve().parents[2] / "data" / "pip-resolution-impossible.txt").read_text(
        encoding="utf-8"
    )
    decision = route(text, tool="run_command", arguments={"command": "pip install -r requirements.txt"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "The conflict is caused by:" in lines
    assert "    The user requested urllib3<1.21" in lines
    assert "    requests 2.31.0 depends on urllib3<3 and >=1.21.1" in lines


def test_a_tools_note_that_it_cut_the_content_is_the_summarys_last_line() -> None:
    # mcp-server-fetch ends a page it cut with how to get the rest ("… start_index of 100000 …"):
    # the Markdown summary dropped it, so the agent could not know the page went on.
    from context_mode.summaries import summarize
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "markdown-fetch-gnu-coding-standards.md").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.MARKDOWN, budget=3000).text
    note = "<error>Content truncated. Call the fetch tool with a start_index of 100000 to get more content."
    assert shown.endswith(note + "</error>")
    assert len(shown.encode()) <= 3000


def test_a_gap_is_marked_by_a_bare_ellipsis_and_its_bytes_go_to_lines() -> None:
    # A build log's summary has a gap between most of its picks: "… 12 lines …" on each cost the
    # Nim compiler's warnings on smtp.nim and net.nim (neither in stage 1 before).
    from tests.corpora import bench_stage1

    body = bench_stage1("build-capw-nim-1610-c-stdlib-smtp-ismainmodule-debian.txt")
    assert "/usr/lib/nim/lib/pure/smtp.nim(46, 40) Warning: imported and" in body
    assert "/usr/lib/nim/lib/pure/net.nim(291, 32) Warning: conversion t" in body
    assert "…" in body.splitlines() and not any(line.endswith(" lines …") for line in body.splitlines())


def test_a_coloured_code_search_is_read_through_its_colour_codes_and_shown_as_sent() -> None:
    # ``grep -rn --color=always "def __init__" email/`` in CPython 3.11.7's library. Before: "no
    # path:line matches", its colour codes hiding every ``path:line:`` from the parser.
    text = (DATA / "grep-rn-color-always-cpython-3117-email-def-init.txt").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.kind is ContentKind.CODE_SEARCH
    assert decision.extract.outline.startswith("code search: 31 matches in 20 files")
    first = "\x1b[35m\x1b[Kemail/errors.py\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K36\x1b[m\x1b[K"
    assert first in decision.extract.text
