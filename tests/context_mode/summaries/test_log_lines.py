"""The grouped log scan (one classification per key) finds exactly what a line-by-line scan finds.

``scan_log`` and ``detect_kind`` classify one sample line per key (a line with its ASCII digits
masked, see ``summaries.line_groups``) and look line by line only where the sample said
something. That is exact only if every classifier gives lines that differ in their digits the
same verdict; these tests check both the invariance and the end result, on the shared corpus
(skipped without it) and on generated lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import context_mode.summaries.log as log_module
from context_mode.diagnostics import clean_lines
from context_mode.kinds import _flags, detect_kind
from context_mode.levels import PASSING
from context_mode.line_groups import group_lines, shapes
from context_mode.summaries import summarize
from context_mode.summaries.extract import term_lines
from context_mode.summaries.log_lines import (
    PREFIX,
    PYTEST_LOCATION,
    ROUTINE,
    SECTION,
    LogScan,
    _facts,
    count_runs,
    fold_facts,
    raised_after_frames,
    routine_errors,
    scan_log,
)
from context_mode.summaries.packing import split_lines, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import payload_params
from tests.verbatim import clipped_from

DATA = Path(__file__).parents[2] / "data"

_SHAPE = re.compile(r"[0-9a-fA-F]{8,}|\d+")
_FAMILY = re.compile(r"\s*(\S+)\s+(\S+)")

FRAGMENTS = [
    "2024-05-01 10:00:00 INFO started worker 3",
    "2024-05-01 10:00:01 ERROR failed to connect: timeout after 30s",
    "level=warn msg=slow id=42",
    "Traceback (most recent call last):",
    '  File "/srv/app.py", line 12, in main',
    "ValueError: bad value 7",
    "\tat com.acme.App.run(App.java:42)",
    "Caused by: java.io.IOException: disk full",
    "src/lib.c:12:5: error: expected ';'",
    "src/lib.c:3:1: note: declared here",
    "src/lib.c:9:1: warning: unused variable 'x'",
    "make: *** [Makefile:10: all] Error 2",
    "tests/test_a.py::test_x1 FAILED",
    "tests/test_a.py::test_x2 PASSED [ 50%]",
    "FAILED tests/test_a.py::test_x3 - AssertionError",
    "E       assert 1 == 2",
    "tests/test_a.py:12: AssertionError",
    "==== 1 failed, 2 passed in 0.1s ====",
    "___ test_x1 ___",
    "--- FAIL: TestFoo (0.01s)",
    "test foo::bar ... FAILED",
    "  ✕ renders 2 items (5 ms)",
    "Ran 12 tests in 0.3s",
    "process exited with code 3",
    "-- Performing Test HAVE_X - Failed",
    "-- Performing Test HAVE_Y - Success",
    "Client closed connection id=17",
    "npm ERR! code E404",
    "thread 'main' panicked at src/main.rs:4:5",
    "deprecated: use v2 0.9",
    "DEADBEEF error 12345678",
    "x" * 450 + " error 9",
    "",
    "   ",
    "é٣ 3 failed",
]

# Lines whose digits vary: the cases where a group's sample and its other lines could differ.
lines_strategy = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(alphabet=st.sampled_from(list("ab eEfF:=_-.*×[]()/\t0123456789ERRORfailWARN")), max_size=40),
        st.text(max_size=30),
    ).flatmap(lambda line: st.just(line) | _with_other_digits(line)),
    max_size=80,
)


def _with_other_digits(line: str) -> st.SearchStrategy[str]:
    digits = st.text(alphabet="0123456789", min_size=len(line), max_size=len(line))
    return digits.map(
        lambda new: "".join(n if c.isascii() and c.isdigit() else c for c, n in zip(line, new, strict=True))
    )


def reference_scan(lines: Sequence[str]) -> LogScan:
    """The plain scan: every line classified on its own, shapes by regex."""
    line_facts = ((index, _facts(line[:PREFIX])) for index, line in enumerate(lines))
    found = ((index, facts) for index, facts in line_facts if facts is not None)
    line_shapes = [_SHAPE.sub("#", line[:PREFIX]) for line in lines]
    return fold_facts(found, line_shapes, group_lines(lines, PREFIX))


def reference_routine(lines: Sequence[str], weak: set[int]) -> set[int]:
    def family(line: str) -> str:
        match = _FAMILY.match(line, 0, 80)
        if match is None or any(ch.isdigit() for ch in match.group(0)):
            return ""
        return f"{match.group(1)} {match.group(2)}"

    families = [family(line) for line in lines]
    members = Counter(families)
    failing = Counter(families[i] for i in weak)
    return {
        i
        for i in weak
        if families[i] and members[families[i]] >= ROUTINE and failing[families[i]] * 2 < members[families[i]]
    }


def assert_same_scan(lines: Sequence[str]) -> None:
    grouped = scan_log(lines)
    plain = reference_scan(lines)
    for field in ("errors", "weak", "notes", "warnings", "summaries", "exit_status", "frames", "shapes"):
        assert getattr(grouped, field) == getattr(plain, field), field
    assert list(grouped.failing.items()) == list(plain.failing.items())
    assert routine_errors(grouped) == reference_routine(lines, plain.weak)
    assert count_runs(grouped.errors) == count_runs(plain.errors)


@pytest.mark.parametrize("path", payload_params(markdown=False, sample=6))
def test_the_grouped_scan_equals_the_line_by_line_scan_on_the_corpus(path: Path) -> None:
    assert_same_scan(split_lines(path.read_text(encoding="utf-8", errors="replace")))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines_strategy)
def test_the_grouped_scan_equals_the_line_by_line_scan_on_generated_lines(lines: list[str]) -> None:
    assert_same_scan(lines)


def test_text_holding_every_mark_char_is_grouped_by_plain_prefixes() -> None:
    lines = ["\x01\x02\x03\x04\x05\x06\x07\x08", "error: 1 failed", "error: 2 failed", "ok 3"]
    assert group_lines(lines, PREFIX).mark == ""
    assert_same_scan(lines)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FRAGMENTS).flatmap(lambda line: st.tuples(st.just(line), _with_other_digits(line))))
def test_lines_differing_only_in_digits_get_the_same_verdicts(pair: tuple[str, str]) -> None:
    line, other = pair
    assert (_facts(line[:PREFIX]) is None) == (_facts(other[:PREFIX]) is None)
    assert bool(PYTEST_LOCATION.match(line[:PREFIX])) == bool(PYTEST_LOCATION.match(other[:PREFIX]))
    assert bool(SECTION.match(line[:PREFIX])) == bool(SECTION.match(other[:PREFIX]))
    assert _flags(line[:300]) == _flags(other[:300])


@settings(max_examples=200, deadline=None)
@given(lines_strategy, st.lists(st.sampled_from(["error", "FAIL", "x1", "té", "::", "ab"]), max_size=3))
def test_term_lines_are_the_lines_a_line_by_line_match_finds(lines: list[str], terms: list[str]) -> None:
    groups = group_lines(lines, PREFIX)
    wanted = {term.strip().lower() for term in terms if len(term.strip()) >= 2}
    pattern = (
        re.compile("|".join(re.escape(term) for term in sorted(wanted)), re.IGNORECASE) if wanted else None
    )
    expected = [i for i, line in enumerate(lines) if pattern is not None and pattern.search(line[:PREFIX])]
    assert term_lines(groups.text, terms, 500) == expected[:500]
    assert term_lines(groups.text, terms) == expected


def test_shapes_mask_hex_runs_and_numbers_once_per_key() -> None:
    lines = ["id deadbeef12 took 15 ms", "id 0123456789 took 7 ms", "ok", "٣ items"]
    assert shapes(group_lines(lines, PREFIX)) == ["id # took # ms", "id # took # ms", "ok", "# items"]


def test_bracketed_lowercase_levels_are_declared_and_a_server_event_is_no_exit_status() -> None:
    # nginx writes "[error]" / "[notice]": its errors were weak (a bare "failed") and a worker's
    # "exited with code 0" was read as the run's exit status.
    lines = [
        "2026/12/01 09:10:35 [error] 10333#10333: *52 limiting requests, excess: 2.640 by zone",
        "2026/12/01 09:10:35 [error] 10333#10333: *18 connect() failed (111: Connection refused)",
        "2026/12/01 09:10:36 [notice] 10330#10330: signal process started",
        "2026/12/01 09:10:39 [notice] 10330#10330: worker process 10332 exited with code 0",
        "[Mon Dec 01 09:10:40 2026] [core:warn] [pid 7] AH00098: pid file overwritten",
    ]
    scan = scan_log(lines)
    assert scan.errors == [0, 1] and not scan.weak
    assert scan.warnings == [4]
    assert scan.exit_status == "" and 3 not in scan.summaries


def test_redis_marks_warnings_with_a_hash_and_error_words_still_make_errors() -> None:
    # Redis's level characters: ``#`` warning (a Sentinel's failover events), ``*`` notice. A
    # Sentinel's "+switch-master" said nothing a log summary knew: it was a plain line.
    lines = [
        "36:X 02 Dec 2026 06:21:54.989 # +switch-master mymaster 127.0.0.1 28379 127.0.0.1 28380",
        "36:X 02 Dec 2026 06:21:54.056 # +sdown master mymaster 127.0.0.1 28379",
        "20:S 02 Dec 2026 06:21:33.205 # Error condition on socket for SYNC: Connection refused",
        "10:M 02 Dec 2026 06:21:26.430 * Ready to accept connections",
        "10:M 02 Dec 2026 06:21:26.404 * Running mode=standalone, port=28379.",
    ]
    scan = scan_log(lines)
    assert scan.warnings == [0, 1]
    assert scan.errors == [2]


def test_json_lines_records_declare_their_level_by_field() -> None:
    # pino/bunyan numbers (50 error, 40 warn, 30 info), names, PostgreSQL jsonlog's field, logfmt.
    from context_mode.summaries.log_lines import _declared_level

    cases = {
        '{"level":50,"time":1,"msg":"the user ci-bot could not being added"}': "error",
        '{"level":40,"time":1,"msg":"host 127.0.0.1:25499 is now offline"}': "warning",
        '{"level":30,"time":1,"msg":"http address"}': "info",
        '{"timestamp":"2026-12-01","error_severity":"ERROR","message":"relation does not exist"}': "error",
        "time=2026-12-01T10:00:00Z level=warn msg=slow": "warning",
        'config loaded: {"log_level": "debug"} failed: EACCES': "",
    }
    for line, level in cases.items():
        assert _declared_level(line, line.lower()) == level, line


def test_a_json_lines_log_is_a_log_with_its_error_record() -> None:
    from context_mode.kinds import detect_kind
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "verdaccio-jsonlines.log").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LOG  # was TEXT, then a Directive saying nothing stands out
    extract = summarize(text, ContentKind.LOG, budget=1100)
    assert "7 errors" in extract.outline  # the level-50 record and six failed requests ("err" fields)
    assert '"msg":"the user ci-bot could not being added. Error: unauthorized access"}' in extract.text


def test_a_tap_run_names_its_failing_tests_and_keeps_its_totals() -> None:
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "node-test-tap.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LOG, budget=1400)
    assert "4 failed tests" in extract.outline
    lines = extract.text.splitlines()
    assert "not ok 41 - formats dates in UTC" in lines
    assert "# fail 4" in lines and "# tests 41" in lines


def test_a_mocha_run_keeps_its_totals_and_assertion_messages() -> None:
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "mocha-spec-parser.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LOG, budget=1400)
    lines = [line.split(" [×")[0] for line in extract.text.splitlines()]
    assert "  277 passing (77ms)" in lines and "  24 failing" in lines
    assert "      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:" in lines
    assert "    24) keeps unicode names" in lines


def test_a_jest_run_names_its_failing_tests_and_keeps_its_totals() -> None:
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "jest-sum.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LOG, budget=900)
    assert "2 failed tests" in extract.outline
    lines = extract.text.splitlines()
    assert "  ● sum › adds 7 + 1" in lines and "  ● formats a user" in lines
    assert "    Expected: 8" in lines and "    Received: 9" in lines  # the assertion's values
    assert "Tests:       2 failed, 60 passed, 62 total" in lines


def test_a_service_saying_a_peer_or_resource_is_gone_writes_a_weak_error() -> None:
    # memcached's SERVER_ERROR and HAProxy's DOWN / no-server lines carry no level: a journal of
    # them was "0 errors" and its summary the slab table it printed at start.
    lines = [
        "vm memcached[15133]: >24 NOREPLY SERVER_ERROR object too large for cache",
        'vm haproxy[15223]: Server be_pypi/app-c is DOWN, reason: Layer4, info: "Connection refused"',
        "vm haproxy[15223]: backend be_pypi has no server available!",
        "vm app[1]: upstream timed out while reading response header",
        "vm memcached[15133]: slab class   1: chunk size        96 perslab   10922",
        "vm haproxy[15223]: Server be_pypi/app-b is UP, reason: Layer7 check passed, code: 200",
        "vm app[1]: error_log set to /var/log/app.err",
        "upstream qs: connect ECONNREFUSED 127.0.0.1:25499",
    ]
    scan = scan_log(lines)
    assert scan.errors == [0, 1, 2, 3, 7] and scan.weak == {0, 1, 2, 3, 7}


def test_a_json_lines_record_with_an_error_field_is_a_weak_error_whatever_its_level() -> None:
    # verdaccio logs a failed upstream request at its "http" level (25, below info): the record's
    # own "err" object says it failed, and the summary showed none of them.
    lines = [
        '{"level":25,"time":1,"err":{"type":"Error","message":"connect ECONNREFUSED"},"msg":"ERR"}',
        '{"level":25,"time":2,"status":404,"error":"no such package available","msg":"404, req: GET /qs"}',
        '{"level":25,"time":3,"status":200,"error":null,"msg":"200, req: GET /-/ping"}',
        '{"level":30,"time":4,"msg":"http address","err":{}}',
        "[INFO] error: the message of an info line is no error",
    ]
    scan = scan_log(lines)
    assert scan.errors == [0, 1] and scan.weak == {0, 1}


def test_a_journal_of_several_services_shows_their_failures_and_error_responses() -> None:
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from context_mode.types import OutputStyle
    from tests.corpora import REPO

    text = (REPO / "bench" / "corpus" / "log-journalctl-haproxy-memcached.log").read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="journalctl", arguments={})
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert "access log: 91 requests (200 ×85, 503 ×3, 404 ×2, 403 ×1)" in extract.outline
    for line in ("SERVER_ERROR object too large for cache", "is DOWN", "has no server available!"):
        assert line in extract.text
    # HAProxy's status comes before the request: the line is shown up to the request's end.
    assert '0/-1/-1/-1/0 403 192 - - PR-- 1/1/0/0/0 0/0 "GET /admin/stats HTTP/1.1"' in extract.text
    assert "503 217 - - SC--" in extract.text


def test_a_long_log_line_keeps_its_end_where_the_message_after_a_dumped_value_is() -> None:
    # go test's t.Errorf("%v: vars length should be 3, got %d", route, …): a 428-char line whose
    # message comes after the route it dumps; stage 1 showed its first 240 chars.
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from context_mode.summaries.packing import clip_ends
    from tests.corpora import BENCH_CORPUS

    line = "    old_test.go:449: &Route{" + "x" * 380 + "}: vars length should be 3, got 0."
    clipped = clip_ends(line, 240)
    assert len(clipped) == 240 and clipped.startswith("    old_test.go:449: &Route{")
    assert clipped.endswith("}: vars length should be 3, got 0.") and "…" in clipped
    assert clip_ends("short", 240) == "short"
    text = (BENCH_CORPUS / "test-gotest-gorilla-mux.log").read_text(encoding="utf-8")
    decision = route(text, policy=RoutingPolicy(), tool="get_job_log")
    assert isinstance(decision, Summary)
    assert "vars length should be 3, got 0" in decision.extract.text


def test_a_tap_run_under_a_describe_shows_each_failure_with_its_assertion() -> None:
    # Its indented "# Subtest:" comments and "# skipped 0" read as Markdown headings: the summary
    # was a heading outline with none of the three failures.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "node-test-describe-failures.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "node --test"})
    assert isinstance(decision, Summary)
    lines = [line.split(" [×")[0] for line in decision.extract.text.splitlines()]
    for name in ("applies discount code SAVE10", "rejects negative quantity", "rounds to cents"):
        assert any(line.endswith(f" - {name}") and "not ok" in line for line in lines), name
    assert "      error: 'Missing expected exception.'" in lines
    assert "# fail 3" in lines


def test_a_junit_xml_report_is_a_test_log_with_its_totals_and_every_failure() -> None:
    # Its indented elements lined up as columns: a table of the first passing test cases.
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "junit-pytest-failures.xml").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="get_artifact") is ContentKind.LOG
    decision = route(text, tool="get_artifact", arguments={"name": "test-results"})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert 'failures="5" skipped="0" tests="305"' in body
    for name in (
        "test_total",
        "test_vat_rounding",
        "test_load_missing",
        "test_currency_default",
        "test_negative_qty",
    ):
        assert f'name="{name}"' in body, name
    assert '<failure message="Failed: DID NOT RAISE ValueError">' in body


def test_pytests_own_junit_xml_without_line_breaks_counts_every_failing_test() -> None:
    # Failed before: "log: 235 lines, 0 failed tests": pytest writes a test case on the line the
    # failure above it ends on, and only a test case opening a line was looked at.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "junit-pytest-compact-more-itertools.xml").read_text(encoding="utf-8")
    assert 'failures="12"' in text.splitlines()[0]
    decision = route(text, tool="get_artifact", arguments={"name": "test-results"})
    assert isinstance(decision, Summary)
    assert ", 12 failed tests," in decision.extract.outline
    body = decision.extract.text
    for name in ("test_none", "test_odd", "test_strict_being_true", "test_ilen"):
        assert f'name="{name}"' in body, name


def test_a_junit_failure_on_its_test_cases_line_counts() -> None:
    # Failed before: "0 failed tests": a ``<failure`` was looked for on the next line only.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    # (A linter's JUnit report is lint since: its failures are its diagnostics.)
    text = (REPO / "tests" / "data" / "eslint-9.39-junit-graceful-fs.xml").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "eslint -f junit src"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith(f"lint: {text.count('<failure ')} diagnostics,")
    tests = text.replace(' package="org.eslint"', "")  # a JUnit report of tests, not a linter's
    outline = summarize(tests, ContentKind.LOG, budget=1500).outline
    assert f", {tests.count('<failure ')} failed tests," in outline


def test_memcheck_errors_are_the_errors_of_a_valgrind_log() -> None:
    # Its "==PID== " prefix hid every line's shape: plain text, its first lines and its last, and
    # none of the invalid reads and writes, uninitialised values or leaks between them.
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "valgrind-memcheck-wordcount.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(
        text, tool="run_command", arguments={"command": "valgrind --leak-check=full ./wordcount"}
    )
    assert isinstance(decision, Summary)
    lines = [line.split(" [×")[0] for line in decision.extract.text.splitlines()]
    for headline in (
        "==11962== Invalid write of size 1",
        "==11962== Conditional jump or move depends on uninitialised value(s)",
        "==11962== 16 bytes in 4 blocks are definitely lost in loss record 1 of 3",
        "==11962== ERROR SUMMARY: 26 errors from 11 contexts (suppressed: 0 from 0)",
    ):
        assert headline in lines, headline


def test_pytest_q_failures_are_a_test_log_with_their_assertions() -> None:
    # ``pytest -q`` (no "=== N failed ===" banner) with Hypothesis examples: code lines outnumber
    # the rest, and it read as plain text whose first assertion message was left out.
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "pytest-q-hypothesis-failures.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={"command": "pytest -q"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "E       AssertionError: assert '' == '0000000000'" in lines
    assert "4 failed, 1 passed in 0.78s" in lines


@pytest.mark.parametrize(
    ("name", "outline", "shown"),
    [
        (  # its test plan is drawn as a tree: a "tree" of 451 items, no failure counted
            "junit5-console-commons-csv.txt",
            "log: 501 lines, 2 failed tests",
            [
                "│  │  ├─ testIsSetInt() ✘ expected: <false> but was: <true>",
                "[         2 tests failed          ]",
            ],
        ),
        (  # plain text: its "= F" lines and "1) Failure:" blocks were no test results
            "minitest-v-ruby-builder.txt",
            "log: 162 lines, 6 failed tests",
            [
                "TestBlankSlate#test_late_included_module_in_kernel_is_ok = 0.00 s = F",
                "113 runs, 214 assertions, 6 failures, 0 errors, 0 skips",
            ],
        ),
        (  # --testdox marks a failure with ✘: 0 failed tests
            "phpunit-testdox-doctrine-inflector-excerpt.txt",
            "log: 106 lines, 2 failed tests",
            [" ✘ Capitalize", "Tests: 1012, Assertions: 1036, Failures: 3."],
        ),
    ],
    ids=["junit5-console", "minitest", "phpunit-testdox"],
)
def test_junit5_minitest_and_phpunit_testdox_runs_are_test_logs_with_their_failures(
    name: str, outline: str, shown: list[str]
) -> None:
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={"command": "run the tests"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith(outline), decision.extract.outline
    lines = [line.split(" [×")[0] for line in decision.extract.text.splitlines()]
    for line in shown:
        assert line in lines, line


@pytest.mark.parametrize(
    ("name", "kind", "shown"),
    [
        (  # a Directive: no error, no warning, so nothing stood out, not even its totals line
            "apt-get-install-simulate-excerpt.txt",
            "log",
            "11 upgraded, 297 newly installed, 0 to remove and 111 not upgraded.",
        ),
        (  # npm 10 writes its levels in lowercase: a table of the words of 145 "npm warn" lines
            "npm-install-peer-warnings.txt",
            "log",
            "added 1317 packages in 59s",
        ),
        (  # the error lines below a long tree ranked below its top-level items
            "npm-ls-all-invalid.txt",
            "tree",
            "npm error code ELSPROBLEMS",
        ),
    ],
    ids=["apt-get-install-simulate", "npm-install", "npm-ls-invalid"],
)
def test_an_install_plan_or_tree_keeps_its_totals_and_errors(name: str, kind: str, shown: str) -> None:
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / name).read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "install"})
    assert isinstance(decision, Summary)
    assert decision.extract.kind.value == kind
    assert shown in decision.extract.text.splitlines()


def test_a_vite_build_is_a_log_that_ends_with_its_largest_chunks_and_build_time() -> None:
    # Its chunk lines line up as columns: a "table" headed by "vite v5.4.21 building for
    # production...", its first and smallest chunks, without the build time.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "vite-build-react-chunks.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "vite build"})
    assert isinstance(decision, Summary)
    assert decision.extract.kind.value == "log"
    lines = decision.extract.text.splitlines()
    assert lines[-1] == "✓ built in 6.65s"
    assert "dist/assets/mathematica-uHYlFNe5.js        124.34 kB │ gzip: 35.65 kB" in lines
    assert "✓ 423 modules transformed." in lines


def test_a_log_whose_news_is_its_warnings_is_summarised_not_a_directive() -> None:
    # Redis 7 at loglevel verbose: no error, seven warnings ("# WARNING Memory overcommit …"),
    # 8.7 kB: nothing stood out, and the agent got a Directive with no line of it.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "redis-verbose-warnings-only.log").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "redis-server good.conf"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert any("# WARNING Memory overcommit must be enabled!" in line for line in lines)
    assert any(line.endswith("# Redis is now ready to exit, bye bye...") for line in lines)


def test_the_counts_a_tool_opens_its_reply_with_are_kept() -> None:
    # Playwright MCP's browser_console_messages opens with "### Result", then "Total messages: 10
    # (Errors: 10, Warnings: 0)" and "Returning 41 messages for level "debug"": the counts of
    # what it returns, which only the heading's line was looked at for.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "playwright-console-attrs-rust-mkdocs.txt").read_text(encoding="utf-8")
    decision = route(text, tool="browser_console_messages", arguments={})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "Total messages: 10 (Errors: 10, Warnings: 0)" in lines
    assert 'Returning 41 messages for level "debug"' in lines


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # go test ./...: a failure's struct diff fills the first lines; it read as text, a Directive.
        (
            "go-test-go-cmp-fail-excerpt.txt",
            ["--- FAIL: TestDiff (0.01s)", "FAIL\tgithub.com/google/go-cmp/cmp/cmpopts\t0.020s"],
        ),
        # go test -v: 200 "=== RUN" lines first; a Directive too.
        (
            "go-test-v-cmpopts-fail.txt",
            [
                "    --- FAIL: TestOptions/EquateApproxTime#02 (0.00s)",
                "FAIL\tgithub.com/google/go-cmp/cmp/cmpopts\t0.021s",
            ],
        ),
        # mocha's dot reporter under nyc: dots, failures, then Istanbul's coverage table.
        ("nyc-mocha-dot-js-yaml.txt", ["  276 passing (512ms)", "  8 failing"]),
    ],
)
def test_go_test_and_mocha_runs_are_test_logs_by_their_verdict_lines(name: str, shown: list[str]) -> None:
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={"command": "go test ./..."})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    for line in shown:
        assert any(shown_line.startswith(line) for shown_line in lines), line  # a fold count may follow


def test_a_coverage_table_keeps_its_header_totals_and_least_covered_files() -> None:
    from context_mode.router import Summary, route
    from context_mode.summaries.coverage import coverage_picks
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "nyc-mocha-dot-js-yaml.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "nyc mocha -R dot"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert any(line.startswith("All files                 |   94.52 |    92.04 |") for line in lines)
    assert any(line.startswith("  common.js               |   54.16 |") for line in lines)  # the least
    # coverage.py's report: its TOTAL row and its least covered module
    report = [
        "Name                 Stmts   Miss  Cover",
        "----------------------------------------",
        "pkg/__init__.py          4      0   100%",
        "pkg/core.py            120     60    50%",
        "pkg/util.py             30      3    90%",
        "----------------------------------------",
        "TOTAL                  154     63    59%",
    ]
    ranked = {report[pick.start]: pick.priority for pick in coverage_picks(report)}
    assert (
        ranked["TOTAL                  154     63    59%"]
        > ranked["Name                 Stmts   Miss  Cover"]
    )
    assert (
        ranked["pkg/core.py            120     60    50%"]
        > ranked["pkg/util.py             30      3    90%"]
    )


def test_each_test_binarys_failing_verdict_is_shown_not_folded_into_the_last() -> None:
    # cargo test of strsim with bugs put in: the lib, the integration test and the doctests each
    # end in "test result: FAILED. …"; folded by shape, only the doctests' showed ("[×3]").
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "cargo-test-strsim-fail.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "cargo test --no-fail-fast"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    for counts in ("75 passed; 13 failed", "7 passed; 1 failed", "10 passed; 1 failed"):
        verdict = f"test result: FAILED. {counts}; 0 ignored; 0 measured; 0 filtered out; finished in"
        assert any(line.startswith(verdict) and "[×" not in line for line in lines), counts


def test_rspec_failures_show_what_each_expected_beside_the_rerun_list_and_totals() -> None:
    # RSpec names each failure twice ("1) example" and its rerun line): 28 "failed tests" for 14
    # took the room, and no failure's message (what it expected, what it got) was shown.
    from context_mode.router import Summary, route
    from context_mode.summaries.test_failures import rspec_picks
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "rspec-hashie-failures-excerpt.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "rspec spec/hashie"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert "699 examples, 14 failures" in lines
    assert (
        "rspec ./spec/hashie/extensions/deep_fetch_spec.rb:42 # Hashie::Extensions::DeepFetch#deep_fetch"
        in (decision.extract.text)
    )
    for path in ("(library > books > 2) at 2", "(library > location > unknown_key) at unknown_key"):
        message = (
            f'expected Hashie::Extensions::DeepFetch::UndefinedPathError with "Could not fetch path {path}"'
        )
        assert any(line.strip().startswith(message) for line in lines), path
    # Each block's own location is the "# ./spec/…" line at its indent, not the code's backtrace.
    split = text.splitlines()
    located = [split[pick.start].strip() for pick in rspec_picks(split).picks if "# ./" in split[pick.start]]
    assert (
        located[0]
        == "# ./spec/hashie/extensions/deep_fetch_spec.rb:45:in `block (6 levels) in <module:Extensions>'"
    )
    assert len(located) == 14


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # make -j4 -k: 1,500 lines of build commands first; it read as text, a Directive.
        ("make-j4-nano-errors-excerpt.txt", ["cut.c:158:72: error: array subscript is not an integer"]),
        # python -m doctest -v: its Trying: / Expecting: lines read as a manual's sections or text
        (
            "doctest-v-tabulate-excerpt.txt",
            ["74 passed and 2 failed.", 'File "README.md", line 503, in README.md'],
        ),
        # meson test: "5/8 UTF-8_persian  FAIL  0.31s" among ninja's lines; text, a Directive.
        ("meson-test-fribidi-fail.txt", ["5/8 UTF-8_persian     FAIL            0.31s   exit status 1"]),
        # tox: each env's commands and results; read as Markdown.
        ("tox-humanize-envs-excerpt.txt", ["  py38: FAIL code 1 (29.72=setup[23.59]+cmd[6.13] seconds)"]),
        # webpack --stats detailed: chunk and module tables, then "ERROR in ./src/admin.js 23:2"; text.
        (
            "webpack-build-three-errors.txt",
            ["ERROR in ./src/admin.js 23:2", "Module parse failed: Unexpected token (23:2)"],
        ),
        # pip install of a C extension that does not compile: read as text, its gcc error hidden.
        (
            "pip-install-ujson-c-error.txt",
            ["      ./python/JSONtoObj.c:141:13: error: expected ‘;’ before ‘}’ token"],
        ),
        # autotools: "checking for … no" lines, then "configure: error:"; read as text.
        ("configure-tmux-missing-libevent.txt", ['configure: error: "libevent not found"']),
        # EUnit -v, prettier --check and an AddressSanitizer report: each read as text, a Directive.
        ("eunit-getopt-verbose.txt", ["  Failed: 9.  Skipped: 0.  Passed: 92."]),
        (
            "prettier-check-lodash-excerpt.txt",
            ["[warn] Code style issues found in 1006 files. Run Prettier with --write to fix."],
        ),
        ("asan-use-after-free-cjson.txt", ["SUMMARY: AddressSanitizer: heap-use-after-free"]),
        # GoogleTest: each "path:40: Failure" with its assertion below it; none of them showed.
        ("gtest-geokit-fail.txt", ["Expected: (b) >= (0.0), actual: -113.257 vs 0", " 6 FAILED TESTS"]),
        # Robot Framework: "Name  | FAIL |" then the failure's message; read as Markdown.
        (
            "robot-acceptance-fail.txt",
            [
                "Sibilant Plurals                                                      | FAIL |",
                "pluralize('wish') returned 'wishs', expected 'wishes'",
            ],
        ),
    ],
)
def test_build_and_test_runners_of_other_tools_are_logs_with_their_failures(
    name: str, shown: list[str]
) -> None:
    from context_mode.kinds import detect_kind
    from context_mode.router import Summary, route
    from context_mode.types import ContentKind
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={"command": "make"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    for line in shown:
        assert any(shown_line.startswith(line) for shown_line in lines), line


def test_a_line_blank_but_for_its_ci_timestamp_is_not_shown() -> None:
    # A GitHub Actions log stamps its blank lines too: "2026-12-02T15:49:07.9042210Z " was shown,
    # with a fold count of the 22 like it, as if it said something.
    from context_mode.summaries.log import summarize_log

    lines: list[str] = []
    for n in range(22):
        stamp = f"2026-12-02T15:49:{n:02d}.9042210Z"
        lines += [
            f"{stamp} [ RUN      ] Suite.Case{n}",
            f"{stamp} [  FAILED  ] Suite.Case{n} (0 ms)",
            f"{stamp} ",
            f"{stamp}  1 FAILED TEST",
        ]
    extract = summarize_log("\n".join(lines), budget=3000)
    shown = extract.text.splitlines()
    assert any("[  FAILED  ] Suite.Case" in line for line in shown)
    assert not [line for line in shown if re.fullmatch(r"\S+Z(?: \[×\d+\])?", line.strip())]
    # and the 22 binaries' "1 FAILED TEST", worded alike, fold into one
    assert sum("1 FAILED TEST" in line for line in shown) == 1


def test_distinct_warnings_add_to_a_logs_room() -> None:
    # verdaccio's log: two errors among a dozen distinct warnings got the least room (1.9 kB), and
    # the line saying where the registry listens and which version it runs was cut.
    from context_mode.router import Summary, route
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "log-verdaccio-private-registry.log").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert decision.budget > 2000
    assert "http://127.0.0.1:24873/ - verdaccio/5.33.0" in decision.extract.text


def test_a_sanitizers_shadow_byte_legend_gives_way_to_where_the_memory_was_allocated() -> None:
    # AddressSanitizer ends every report with the same shadow-memory dump and legend; as the
    # log's last lines they took the room of "is located 0 bytes to the right of 4-byte region".
    from context_mode.router import Summary, route
    from tests.corpora import REPO, own_summary

    text = (REPO / "tests" / "data" / "asan-heap-overflow-cjson.txt").read_text(encoding="utf-8")
    command = (
        "cd /srv/src/cjson-asan && gcc -g -O0 -fsanitize=address,undefined -fno-omit-frame-pointer"
        " -Itests/unity/src -I. -o cjson_add_asan tests/cjson_add.c tests/unity/src/unity.c"
        " && ./cjson_add_asan"
    )
    decision = route(text, tool="run_command", arguments={"command": command})
    assert isinstance(decision, Summary)
    assert "is located 0 bytes to the right of 4-byte region" in decision.extract.text
    # the log summary's own picks (below them, stage 1 shows the report's last 200 bytes: the
    # legend's end and ``==…==ABORTING``)
    shown = own_summary(text, decision, {"command": command})
    assert "is located 0 bytes to the right of 4-byte region" in shown
    for legend in ("Shadow byte legend", "Poisoned by user:", "Container overflow:", "ASan internal:"):
        assert legend not in shown, legend


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("plain\nlines\n", id="plain"),
        pytest.param("a\n" * 60 + "\x1b[31mred\x1b[0m\n", id="a-colour-past-the-sample"),
        pytest.param("2026-12-02T15:49:07.9042210Z ok\nb\n", id="a-ci-stamp"),
        pytest.param("a\x1c\x1b[1mb\r\nc", id="other-line-breaks"),
    ],
)
def test_lines_are_cleaned_alike_given_their_text_or_not(text: str) -> None:
    lines = text.splitlines()
    assert clean_lines(lines, text) == clean_lines(lines)
    assert (clean_lines(lines, text) is lines) == (clean_lines(lines) is lines)


def test_a_package_managers_step_totals_are_summaries_of_its_run() -> None:
    # uv pip install -v: its debug lines bury "Resolved 18 packages in 309ms"; each step's totals
    # is what the run came to, as npm's "added 590 packages in 31s" is.
    lines = [
        "DEBUG uv 0.13.9 (x86_64-unknown-linux-gnu)",
        "DEBUG Searching for a compatible version of gunicorn (*)",
        "Resolved 18 packages in 309ms",
        "DEBUG Selecting: gunicorn==27.0.1 [compatible] (gunicorn-27.0.1-py3-none-any.whl)",
        "Fetched 1,234 kB in 2s (617 kB/s)",
        "Installed 18 packages in 26ms",
        " + blinker==1.9.0",
        "Finished loading 3 plugins",
        "Connected to 127.0.0.1 in 3 attempts",
    ]
    assert scan_log(lines).summaries == [2, 4, 5]


def test_stestrs_failed_tests_are_failed_tests() -> None:
    # stestr run of oslo.utils' imageutils: "{0} pkg.TestX.test_y [0.002523s] ... FAILED" was no
    # test result, so the summary said "0 failed tests" over three failures (failed before)
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS

    name = "test-capi-stestr-run-oslo-utils-1020-imageutils-no-qemu-img.txt"
    extract = summarize((BENCH_CORPUS / name).read_text(encoding="utf-8"), ContentKind.LOG, budget=3000)
    assert extract.outline.startswith("log: 472 lines, 3 failed tests")
    assert "TestFormatInspectors.test_vmdk_bad_descriptor_mem_limit [0.019825s] ... FAILED" in extract.text


def test_xdoctests_failures_and_their_got_and_want_are_failing_tests() -> None:
    # xdoctest 1.3.2 on sortedcontainers with two broken examples: "* FAILURE: path::name:0" was
    # no failing test ("0 failed tests") and the repr difference's `got  = "…"` no failure's
    # message, so what the examples returned was left out (failed before).
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS

    path = BENCH_CORPUS / "test-capq-xdoctest-132-sortedcontainers-240-two-edits.txt"
    extract = summarize(path.read_text(encoding="utf-8"), ContentKind.LOG, budget=3000)
    assert extract.outline.startswith("log: 968 lines, 2 failed tests,")
    shown = extract.text.splitlines()
    assert "    got  = \"['c', 'd', 'e']\"" in shown
    assert "    got  = \"('a', 1)\"" in shown


def test_git_bisects_verdict_is_shown_with_the_runs_it_followed() -> None:
    # Failed before: git bisect run over pydash's releases (fresh31a) showed its last line,
    # "bisect found first bad commit", but not "<sha> is the first bad commit" above it: the one
    # line the agent ran the bisect for.
    from tests.corpora import BENCH_CORPUS

    path = BENCH_CORPUS / "gitlog-cpa-git-bisect-run-pytest-pydash-600-810-slugify-releases.txt"
    from context_mode.kinds import detect_kind
    from context_mode.summaries import summarize

    text = path.read_text(encoding="utf-8")
    lines = summarize(text, detect_kind(text, tool_name="run_command"), budget=1500).text.splitlines()
    assert "1d0ce85fda439343f848d40ef6f3d65975043767 is the first bad commit" in lines
    assert lines[-1] == "bisect found first bad commit"


def test_a_long_value_a_test_got_is_shown_where_it_differs_from_the_one_expected() -> None:
    # gotestsum's ``mapstructure.TypeConversionResult{…}`` expected over the one got: 60 fields on
    # each line, cut to their starts and ends, which are the same; the field that differs
    # (``BoolToString:"1"`` against ``"true"``) was in neither (failed before)
    from tests.corpora import BENCH_CORPUS

    name = "test-cpc-gotestsum-182-testname-humanize-mapstructure-xxhash-edits.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.LOG, budget=4000).text.split("\n")
    expected = next(line for line in shown if 'BoolToString:"1"' in line)
    got = next(line for line in shown if 'BoolToString:"true"' in line)
    lines = text.splitlines()
    for line in (expected, got):
        assert line.startswith("        mapstructure.TypeConversionResult{IntToFloat:")
        assert clipped_from(strip_annotation(line), lines)


def test_a_long_line_is_cut_by_its_ends_where_its_neighbour_differs_there_or_nowhere() -> None:
    from context_mode.summaries.packing import clip_differing, clip_ends

    base = "Result{" + ", ".join(f"Field{n}:{n}" for n in range(40)) + "}"
    assert clip_differing(base, base, 120) == clip_ends(base, 120)  # the same line: no difference to show
    other = base.replace("Field20:20", "Field20:99")
    shown = clip_differing(base, other, 120)
    assert "Field20:20" in shown and shown.count("…") == 2
    assert len(shown.encode()) <= len(clip_ends(base, 120).encode())


def test_json_lines_records_of_the_same_start_keep_their_telling_members() -> None:
    from context_mode.summaries.packing import Pick, pack

    # the same start and the same members up to their last: only the code differs
    lines = [
        '{"time":"2026-12-05T10:00:00Z","level":"error","msg":"upstream timed out",'
        + ", ".join(f'"k{i}":"{"v" * 20}"' for i in range(12))
        + ',"code":"E_UPSTREAM_'
        + str(n)
        + '","host":"'
        + "h" * 60
        + '"}'
        for n in range(2)
    ]
    shown = pack(lines, [Pick(0, 2, 1.0)], 2000, width=160, ends=True).split("\n")
    assert all('"level":"error"' in line and '"msg":"upstream timed out"' in line for line in shown)


def test_meson_tests_named_with_spaces_and_suites_and_unexpected_passes_are_failures() -> None:
    # meson 1.6's test output on its own failing test-case projects (a real capture): test names
    # with spaces ("My Signal Test") and a suite ("test_features / xpass") were no tests at all,
    # and an UNEXPECTEDPASS is a failure as meson counts it ("log: 226 lines, 0 failed tests").
    from tests.corpora import BENCH_CORPUS

    name = "test-cps-meson-161-test-print-errorlogs-meson-sdist-tap-and-failing-test-cases.txt"
    lines = (BENCH_CORPUS / name).read_text(encoding="utf-8").splitlines()
    failing = scan_log(lines).failing
    assert {"My Signal Test", "My Ambiguous Status Test", "should_fail_but_does_not"} <= set(failing)
    assert "nonzero return code with tests" in failing
    ok = [" 7/10 test_features / partially skipped (real-world example) OK    0.01s   21 subtests passed"]
    expected = [" 1/10 test_features / fail                      EXPECTEDFAIL    0.01s   0/1 subtests passed"]
    assert not scan_log(ok + expected).failing


def test_r_testthat_failures_are_failing_tests_and_its_report_a_log() -> None:
    # testthat's report on glue 1.6.2 with edits (a real capture): its progress table, its
    # "Failure ('file.R:line'): name" blocks and its totals were plain text ("text: 93 lines"), no
    # failing test named; the third edition frames the head with a rule, and Skip is no failure.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "test-testthat-glue-162-edits.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    failing = scan_log(text.splitlines()).failing
    assert "('test-trim.R:10'): trim works" in failing
    assert "('test-collapse.R:25'): last argument to glue_collapse" in failing
    assert not any("test-color.R" in name for name in failing)  # skipped
    third = "── Error ('test-parse.R:12:3'): parses dates ──────────────────────────────"
    assert list(scan_log([third]).failing) == ["('test-parse.R:12:3'): parses dates"]
    assert not scan_log(["Skip ('test-sql.R:1'): (code run outside of `test_that()`)"]).failing


def test_automakes_test_harness_names_its_failing_tests_and_keeps_its_totals() -> None:
    # libsodium's `make check` (a real capture, fresh41c): automake's harness prints "FAIL:
    # sodium_utils" and "ERROR: codecs" per test and a "# TOTAL: 80" / "# PASS:  77" block; the
    # outline said "0 failed tests" and stage 1 left out the totals' first two lines.
    from tests.corpora import BENCH_CORPUS

    name = "test-cqc-automake-harness-make-check-libsodium-1020-pynacl-162-sdist-three-edits.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert set(scan_log(text.splitlines()).failing) == {"sodium_utils", "codecs", "hash"}
    extract = summarize(text, ContentKind.LOG, budget=2400)
    assert ", 3 failed tests," in extract.outline
    assert "# TOTAL: 80" in extract.text and "# PASS:  77" in extract.text
    assert not scan_log(["PASS: t/basic.sh 1 - parses", "XFAIL: t/old.sh", "SKIP: t/net.sh"]).failing
    assert list(scan_log(["XPASS: t/flaky.sh 3 - retries"]).failing) == ["t/flaky.sh"]


def test_clang_optimisation_remarks_are_notes_not_errors() -> None:
    # clang -Rpass=loop-vectorize over inflate64 (a real capture): its 122 "remark:" lines say
    # "loop not vectorized: could not determine …", "cannot identify array bounds"; the outline
    # said "26 errors" of a build that had none.
    from tests.corpora import BENCH_CORPUS

    name = "build-cpw-clang-14-rpass-loop-vectorize-o2-inflate64-101-sdist-c.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    scan = scan_log(text.splitlines())
    assert not scan.errors
    assert len(scan.notes) >= 100
    assert ", 0 errors," in summarize(text, ContentKind.LOG, budget=2800).outline


def test_ruby_exceptions_and_their_frames_are_errors_and_tracebacks() -> None:
    # Puma and Sinatra (a real capture): "2026-12-05 20:53:40 - KeyError - key not found:" over
    # tab-indented "app.rb:44:in `fetch'" frames was no error and no traceback ("0 errors").
    from tests.corpora import BENCH_CORPUS

    name = "log-capy-puma-565-sinatra-305-library-api-errors-restart.log"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    scan = scan_log(lines)
    headlines = [lines[i] for i in scan.errors]
    assert '2026-12-05 20:53:40 - KeyError - key not found: "member":' in headlines
    assert any(" - ZeroDivisionError - divided by 0:" in line for line in headlines)
    assert "\t/tmp/fresh30a_scratch/puma/app.rb:55:in `block in <class:Library>'" in [
        lines[i] for i, *_ in scan.frames
    ]
    shown = summarize(text, ContentKind.LOG, budget=2900).text
    assert "\t/tmp/fresh30a_scratch/puma/app.rb:51:in `/'" in shown
    # Ruby's own report of an uncaught exception (3.4 quotes 'name'), and Rails' error line
    uncaught = [
        "app/models/user.rb:12:in 'User#save!': Validation failed (ActiveRecord::RecordInvalid)",
        "\tfrom app/controllers/users_controller.rb:5:in 'UsersController#create'",
        "\tfrom /usr/lib/ruby/gems/3.4.0/gems/actionpack-8.0.1/lib/metal.rb:6:in 'send_action'",
    ]
    scan = scan_log(uncaught)
    assert scan.errors == [0] and [i for i, *_ in scan.frames] == [1, 2]
    rails = 'ActionController::RoutingError (No route matches [GET] "/favicon.ico"):'
    assert scan_log([rails]).errors == [0]


def test_php_stack_frames_are_a_traceback_innermost_first() -> None:
    # PHP-FPM's slow log (a real capture): each slow request's backtrace, "[0x…] pg_connect()
    # /usr/share/adminer/adminer.php:404" innermost, was no frame: stage 1 left out where it hung.
    from tests.corpora import BENCH_CORPUS

    name = "log-cpy-php-fpm-8236-debug-slowlog-adminer-481-hung-pgsql.log"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    framed = [lines[i] for i, *_ in scan_log(lines).frames]
    assert "[0x00007f3e414143c0] pg_connect() /usr/share/adminer/adminer.php:404" in framed
    assert (
        "[0x00007f3e414143c0] pg_connect() /usr/share/adminer/adminer.php:404"
        in summarize(text, ContentKind.LOG, budget=2400).text
    )
    # An uncaught exception's "Stack trace:" as PHP prints it
    trace = [
        "PHP Fatal error:  Uncaught PDOException: could not find driver in /var/www/app/Db.php:42",
        "Stack trace:",
        "#0 /var/www/app/Db.php(42): PDO->__construct('pgsql:host=db', 'app', Object(SensitiveParameter))",
        "#1 /var/www/public/index.php(7): App\\Db->connect()",
        "#2 {main}",
    ]
    assert [i for i, *_ in scan_log(trace).frames] == [2, 3]


def test_a_logs_diff_hunks_show_their_changed_lines() -> None:
    # ansible-playbook --check --diff (a real capture): each task's hunk says what it would change
    # ("-pm.max_children = 5" / "+pm.max_children = 12"); stage 1 showed one of six changes.
    from tests.corpora import BENCH_CORPUS

    name = "diff-cpy-ansible-playbook-21914-check-diff-debian-php-fpm-mpd-varnish-confs.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.LOG, budget=2100).text.split("\n")
    for change in ("-pm.max_children = 5", "+pm.max_children = 12", "+pm.status_path = /fpm-status"):
        assert change in shown
    assert any(line.startswith("localhost                  : ok=11   changed=11") for line in shown)
    # A file header (+++ after:) and a hunk's context lines are no changes; outside a hunk, a
    # line opening with "-" is a log's own (a bullet, a flag)
    log = [
        "TASK [x]",
        "--- before: a.conf",
        "+++ after: a.conf",
        "@@ -1,3 +1,3 @@",
        " keep",
        "-old = 1",
        "+new = 2",
        "",
        "- a bullet of the log",
        "ok: [localhost]",
    ]
    picked = [log[pick.start] for pick in log_module._hunk_changes(log)]
    assert picked == ["-old = 1", "+new = 2"]


def test_a_compilers_quoted_source_and_function_context_are_no_errors() -> None:
    # npm 11.19 building sqlite3 4.2.0 with node-gyp (GCC 12): it succeeded with warnings, but
    # the source GCC quotes under a warning (``   37 |     DEFINE_CONSTANT_INTEGER(target,
    # SQLITE_ERROR, ERROR);``) declared an ERROR level, and its context line ``../src/backup.cc:
    # In static member function ‘static void node_sqlite3::Backup::Error(T*)’:`` held an error's
    # word: the summary said "2 errors" and showed the quoted source as one.
    text = (DATA / "npm-11.19-install-sqlite3-420-node-gyp-excerpt.txt").read_text(encoding="utf-8")
    lines = split_lines(text)
    scan = scan_log(lines)
    assert [lines[index] for index in (*scan.errors, *scan.weak)] == []
    extract = summarize(text, ContentKind.LOG, budget=2000)
    assert ", 0 errors," in extract.outline
    assert "SQLITE_ERROR, ERROR);" not in extract.text
    assert "added 69 packages in 58s" in extract.text


def test_pytest_xdists_verbose_results_are_test_results_and_its_test_names_no_errors() -> None:
    # pytest 9.2 with pytest-xdist 3.8 (-n 2 -v) on more-itertools 10.5.0 with three edits. Its
    # ``[gw1] [ 71%] PASSED tests/…::test_no_error`` was an error (the test's name holds the
    # word), as was the id announced alone before it; its subtests' ``SUBPASSED(…)`` lines, each
    # of its own shape, were shown as one-off events.
    text = (DATA / "pytest-9.2-xdist-3.8-v-more-itertools-1050-three-edits-excerpt.txt").read_text(
        encoding="utf-8"
    )
    lines = split_lines(text)
    scan = scan_log(lines)
    named = [
        lines[index] for index in scan.errors if "test_no_error" in lines[index] or "_error " in lines[index]
    ]
    assert named == []
    assert "tests/test_more.py::ChunkedTests::test_even" in scan.failing
    assert scan.failing["tests/test_more.py::SpyTests::test_zero"] > lines.index(
        "[gw1] [  1%] FAILED tests/test_more.py::SpyTests::test_zero "
    )
    subtest = next(line for line in lines if " SUBPASSED(" in line)
    assert PASSING.match(subtest)
    extract = summarize(text, ContentKind.LOG, budget=3000)
    assert "SUBPASSED(" not in extract.text
    assert "E       ValueError: n must be positive" in extract.text


def test_the_line_a_python_tracebacks_frames_end_with_is_its_exception_whatever_its_name() -> None:
    # pytest 9.2 on a Flask 3.1 app's tests: each failing request logs the view's traceback under
    # "Captured log call", ending in ``StopIteration``, a class named as no error is. The frames
    # showed, the exception did not.
    text = (DATA / "pytest-9.2-flask-3.1-captured-log-stopiteration.txt").read_text(encoding="utf-8")
    lines = split_lines(text)
    scan = scan_log(lines)
    ends = [lines[index] for index in raised_after_frames(lines, scan.frames)]
    assert ends and set(ends) == {"StopIteration"}
    extract = summarize(text, ContentKind.LOG, budget=2500)
    assert "StopIteration" in [line.split(" [×")[0] for line in extract.text.splitlines()]
