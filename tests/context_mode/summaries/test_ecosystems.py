"""Test runners and linters of other ecosystems, in the formats their documentation shows.

Each sample is written the way the tool prints it (GoogleTest, CTest, RSpec, Maven Surefire,
PHPUnit, Gradle, dotnet test; yamllint, hadolint, markdownlint, RuboCop, Checkstyle, pyright,
stylelint; dotnet build, webpack, a Terraform plan, npm install). A test run is a log whose
failing tests and totals are found; a lint run is lint, with its rules and severities; a build
is a log. Before, GoogleTest read as a table, CTest, RSpec, dotnet and webpack as text, Gradle
as Markdown (its "> Task" lines), markdownlint and RuboCop as a code search, yamllint as a
table, Checkstyle, pyright and stylelint as logs or text, a Terraform plan as Markdown (its
resource comments as headings, its attributes as list items) and npm's install log as a table,
and no failing test of Surefire or PHPUnit was found.
"""

from __future__ import annotations

import pytest

from context_mode.diagnostics import find_diagnostics
from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries import Extract, summarize
from context_mode.summaries.log_lines import scan_log
from context_mode.summaries.packing import is_marker, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import data
from tests.verbatim import clipped_from

GTEST = "\n".join(
    [
        "[==========] Running 31 tests from 3 test suites.",
        "[----------] Global test environment set-up.",
        *(f"[ RUN      ] FormatTest.Case{i}\n[       OK ] FormatTest.Case{i} (0 ms)" for i in range(30)),
        "[ RUN      ] FormatTest.Precision",
        "/src/test/format-test.cc:412: Failure",
        "Expected equality of these values:",
        '  "1.2"',
        '  fmt::format("{:.1}", 1.23)',
        '    Which is: "1.23"',
        "[  FAILED  ] FormatTest.Precision (0 ms)",
        "[==========] 31 tests from 3 test suites ran. (5 ms total)",
        "[  PASSED  ] 30 tests.",
        "[  FAILED  ] 1 test, listed below:",
        "[  FAILED  ] FormatTest.Precision",
        "",
        " 1 FAILED TEST",
    ]
)
CTEST = "\n".join(
    [
        "Test project /build",
        *(
            f"      Start {i}: test_{i}\n{i:2d}/20 Test  #{i}: test_{i} ......   Passed    0.01 sec"
            for i in range(1, 19)
        ),
        "      Start 19: format-test",
        "19/20 Test #19: format-test ......***Failed    0.02 sec",
        "/src/test/format-test.cc:412: Failure",
        "      Start 20: os-test",
        "20/20 Test #20: os-test ..........   Passed    0.01 sec",
        "",
        "95% tests passed, 1 tests failed out of 20",
        "",
        "The following tests FAILED:",
        "\t 19 - format-test (Failed)",
        "Errors while running CTest",
    ]
)
RSPEC = "\n".join(
    [
        "Randomized with seed 1234",
        *("." * 70 for _ in range(10)),
        "",
        "Failures:",
        "",
        "  1) Hashie::Mash#merge deep merges nested hashes",
        "     Failure/Error: expect(merged.a.b).to eq 2",
        "",
        "       expected: 2",
        "            got: 1",
        "",
        "     # ./spec/hashie/mash_spec.rb:120:in `block (3 levels) in <top (required)>'",
        "",
        "Finished in 0.52 seconds (files took 0.3 seconds to load)",
        "700 examples, 1 failure",
        "",
        "Failed examples:",
        "",
        "rspec ./spec/hashie/mash_spec.rb:118 # Hashie::Mash#merge deep merges nested hashes",
    ]
)
SUREFIRE = "\n".join(
    [
        "[INFO] Scanning for projects...",
        *(
            f"[INFO] Running org.example.Test{i}\n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, "
            f"Time elapsed: 0.01 s - in org.example.Test{i}"
            for i in range(20)
        ),
        "[INFO] Running org.example.ParserTest",
        "[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.02 s <<< FAILURE! - in "
        "org.example.ParserTest",
        "[ERROR] org.example.ParserTest.parsesDates  Time elapsed: 0.005 s  <<< FAILURE!",
        "org.opentest4j.AssertionFailedError: expected: <2024-01-01> but was: <2023-12-31>",
        "\tat org.example.ParserTest.parsesDates(ParserTest.java:42)",
        "[INFO] Results:",
        "[ERROR] Tests run: 104, Failures: 1, Errors: 0, Skipped: 0",
        "[INFO] BUILD FAILURE",
    ]
)
PHPUNIT = "\n".join(
    [
        "PHPUnit 9.6.13 by Sebastian Bergmann and contributors.",
        "",
        "..............F.......... 25 / 25 (100%)",
        "",
        "There was 1 failure:",
        "",
        "1) Tests\\StringTest::testSlug",
        "Failed asserting that two strings are identical.",
        "",
        "/src/tests/StringTest.php:18",
        "",
        "FAILURES!",
        "Tests: 25, Assertions: 40, Failures: 1.",
    ]
)

GRADLE = "\n".join(
    [
        "> Task :compileJava",
        *(f"> Task :module{i}:processResources UP-TO-DATE" for i in range(20)),
        "> Task :test FAILED",
        "",
        "ParserTest > parsesDates() FAILED",
        "    org.opentest4j.AssertionFailedError at ParserTest.java:42",
        "",
        "12 tests completed, 1 failed",
        "",
        "FAILURE: Build failed with an exception.",
        "",
        "BUILD FAILED in 4s",
    ]
)
DOTNET_TEST = "\n".join(
    [
        "Starting test execution, please wait...",
        *(f"  Passed Tests.Case{i} [2 ms]" for i in range(20)),
        "  Failed Tests.ParserTests.ParsesDates [12 ms]",
        "  Error Message:",
        "   Assert.Equal() Failure",
        "  Stack Trace:",
        "     at Tests.ParserTests.ParsesDates() in /src/Tests/ParserTests.cs:line 42",
        "",
        "Failed!  - Failed:     1, Passed:    20, Skipped:     0, Total:    21, Duration: 80 ms - Tests.dll",
    ]
)


@pytest.mark.parametrize(
    ("text", "failing", "summary"),
    [
        pytest.param(GTEST, "FormatTest.Precision", "[  PASSED  ] 30 tests.", id="googletest"),
        pytest.param(CTEST, "format-test", "95% tests passed, 1 tests failed out of 20", id="ctest"),
        pytest.param(RSPEC, "./spec/hashie/mash_spec.rb:118 # Hashie::Mash#merge deep merges nested hashes",
                     "700 examples, 1 failure", id="rspec"),
        pytest.param(SUREFIRE, "org.example.ParserTest.parsesDates",
                     "[ERROR] Tests run: 104, Failures: 1, Errors: 0, Skipped: 0", id="surefire"),
        pytest.param(PHPUNIT, "Tests\\StringTest::testSlug", "Tests: 25, Assertions: 40, Failures: 1.",
                     id="phpunit"),
        pytest.param(GRADLE, "ParserTest > parsesDates()", "12 tests completed, 1 failed", id="gradle"),
        pytest.param(DOTNET_TEST, "Tests.ParserTests.ParsesDates", DOTNET_TEST.splitlines()[-1],
                     id="dotnet-test"),
    ],
)  # fmt: skip
def test_a_test_run_is_a_log_with_its_failing_tests_and_totals(text: str, failing: str, summary: str) -> None:
    assert detect_kind(text) is ContentKind.LOG
    lines = text.splitlines()
    scan = scan_log(lines)
    assert failing in scan.failing
    assert lines.index(summary) in scan.summaries
    body = summarize(text, ContentKind.LOG, budget=1500).text
    assert summary in body and lines[scan.failing[failing]] in body


def test_rspec_shows_its_expected_and_got_values() -> None:
    body = summarize(RSPEC, ContentKind.LOG, budget=1500).text
    assert "       expected: 2" in body.splitlines() and "            got: 1" in body.splitlines()


YAMLLINT = "\n".join(
    [
        "./config/app.yaml",
        "  3:1       error    wrong indentation: expected 2 but found 0  (indentation)",
        "  7:81      warning  line too long (92 > 80 characters)  (line-length)",
        "",
        "./config/db.yaml",
        '  12:5      error    duplication of key "host" in mapping  (key-duplicates)',
    ]
)
HADOLINT = "\n".join(
    [
        "Dockerfile:3 DL3008 warning: Pin versions in apt get install.",
        "Dockerfile:25 DL3025 warning: Use arguments JSON notation for CMD and ENTRYPOINT arguments",
        "Dockerfile:30 SC2086 info: Double quote to prevent globbing and word splitting.",
    ]
)
MARKDOWNLINT = "\n".join(
    [
        "README.md:12:81 MD013/line-length Line length [Expected: 80; Actual: 95]",
        "docs/guide.md:3 MD022/blanks-around-headings Headings should be surrounded by blank lines",
        "docs/guide.md:40:1 MD032/blanks-around-lists Lists should be surrounded by blank lines",
    ]
)  # fmt: skip
RUBOCOP = "\n".join(
    [
        "Inspecting 42 files",
        "..C..W....",
        "",
        "Offenses:",
        "",
        "lib/hashie/mash.rb:10:5: C: [Correctable] Style/StringLiterals: Prefer single-quoted strings.",
        "lib/hashie/dash.rb:88:7: W: Lint/UselessAssignment: Useless assignment to variable - value.",
        "lib/hashie/dash.rb:90:3: E: Lint/Syntax: unexpected token kEND",
        "",
        "42 files inspected, 3 offenses detected, 1 offense autocorrectable",
    ]
)
CHECKSTYLE = "\n".join(
    [
        "Starting audit...",
        "[WARN] /src/main/java/org/example/App.java:10:5: Missing a Javadoc comment. [MissingJavadocMethod]",
        "[WARN] /src/main/java/org/example/App.java:22:5: Missing a Javadoc comment. [MissingJavadocMethod]",
        "[ERROR] /src/main/java/org/example/Util.java:12:1: Line is longer than 100 characters (found 120). "
        "[LineLength]",
        "Audit done.",
        "Checkstyle ends with 1 errors.",
    ]
)


PYRIGHT = "\n".join(
    [
        "/home/runner/work/app/app/agent.py",
        '  /home/runner/work/app/app/agent.py:44:19 - error: "socket" is not a known attribute of module '
        '"os" (reportAttributeAccessIssue)',
        '  /home/runner/work/app/app/agent.py:50:5 - warning: Import "gssapi" could not be resolved '
        "(reportMissingModuleSource)",
        "/home/runner/work/app/app/client.py",
        '  /home/runner/work/app/app/client.py:120:9 - error: Cannot access attribute "close" for class '
        '"None" (reportOptionalMemberAccess)',
        '  /home/runner/work/app/app/client.py:131:16 - error: Expression of type "None" cannot be assigned '
        'to return type "int"',
        '    "None" is not assignable to "int" (reportReturnType)',
        "3 errors, 1 warning, 0 informations ",
    ]
)
STYLELINT = "\n".join(
    [
        "",
        "scss/_alert.scss",
        '   12:3  ✖  Expected "transition" to come before "border-radius"  order/properties-order',
        "   20:1  ⚠  Unexpected empty line before declaration                declaration-empty-line-before",
        "",
        "scss/_buttons.scss",
        '   7:14  ✖  Expected "#FFF" to be "#fff"                           color-hex-case',
        "",
        "✖ 3 problems (2 errors, 1 warning)",
    ]
)


@pytest.mark.parametrize(
    ("text", "rules", "severities"),
    [
        pytest.param(YAMLLINT, ["indentation", "line-length", "key-duplicates"],
                     ["error", "warning", "error"], id="yamllint"),
        pytest.param(HADOLINT, ["DL3008", "DL3025", "SC2086"], ["warning", "warning", "info"], id="hadolint"),
        pytest.param(MARKDOWNLINT, ["MD013", "MD022", "MD032"], ["warning"] * 3, id="markdownlint"),
        pytest.param(RUBOCOP, ["Style/StringLiterals", "Lint/UselessAssignment", "Lint/Syntax"],
                     ["convention", "warning", "error"], id="rubocop"),
        pytest.param(CHECKSTYLE, ["MissingJavadocMethod", "MissingJavadocMethod", "LineLength"],
                     ["warning", "warning", "error"], id="checkstyle"),
        pytest.param(PYRIGHT,
                     ["reportAttributeAccessIssue", "reportMissingModuleSource", "reportOptionalMemberAccess",
                      "error"], ["error", "warning", "error", "error"], id="pyright"),
        pytest.param(STYLELINT, ["order/properties-order", "declaration-empty-line-before", "color-hex-case"],
                     ["error", "warning", "error"], id="stylelint"),
    ],
)  # fmt: skip
def test_a_lint_run_is_lint_with_its_rules(text: str, rules: list[str], severities: list[str]) -> None:
    assert detect_kind(text) is ContentKind.LINT
    found = find_diagnostics(text.splitlines())
    assert [d.rule for d in found] == rules
    assert [d.severity for d in found] == severities
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert f"== {len(rules)} diagnostics" in body


DOTNET_BUILD = "\n".join(
    [
        "  Determining projects to restore...",
        *(f"  Restored /src/Proj{i}/Proj{i}.csproj (in 120 ms)." for i in range(10)),
        "/src/App/Program.cs(12,13): error CS0103: The name 'foo' does not exist in the current context",
        "",
        "Build FAILED.",
        "    0 Warning(s)",
        "    1 Error(s)",
    ]
)
WEBPACK = "\n".join(
    [
        "asset main.js 1.2 MiB [emitted] (name: main)",
        *(f"modules by path ./src/mod{i}/ 12 KiB" for i in range(15)),
        "",
        "ERROR in ./src/index.ts 12:4-18",
        "Module not found: Error: Can't resolve './missing' in '/app/src'",
        "",
        "webpack 5.88.2 compiled with 1 error in 3012 ms",
    ]
)


@pytest.mark.parametrize(
    ("text", "error", "last"),
    [
        pytest.param(DOTNET_BUILD, DOTNET_BUILD.splitlines()[11], "Build FAILED.", id="dotnet-build"),
        pytest.param(WEBPACK, "Module not found: Error: Can't resolve './missing' in '/app/src'",
                     "webpack 5.88.2 compiled with 1 error in 3012 ms", id="webpack"),
    ],
)  # fmt: skip
def test_a_build_is_a_log_with_its_errors(text: str, error: str, last: str) -> None:
    assert detect_kind(text) is ContentKind.LOG
    body = summarize(text, ContentKind.LOG, budget=1500).text
    assert error in body and last in body


TERRAFORM = "\n".join(
    [
        "Terraform will perform the following actions:",
        "",
        *(
            line
            for i in range(12)
            for line in (
                f"  # aws_instance.web[{i}] will be created",
                '  + resource "aws_instance" "web" {',
                '      + ami           = "ami-0c55b159cbfafe1f0"',
                '      + instance_type = "t3.micro"',
                "    }",
                "",
            )
        ),
        "Plan: 12 to add, 0 to change, 0 to destroy.",
        "",
        "Error: creating EC2 Instance: UnauthorizedOperation: You are not authorized",
        "",
        '  on main.tf line 12, in resource "aws_instance" "web":',
    ]
)
NPM = "\n".join(
    [
        "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
        *(f"npm http fetch GET 200 https://registry.npmjs.org/pkg{i} 12ms (cache hit)" for i in range(30)),
        "npm ERR! code ERESOLVE",
        "npm ERR! ERESOLVE unable to resolve dependency tree",
        'npm ERR! peer react@"^17.0.0" from react-dom@17.0.2',
    ]
)


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        pytest.param(TERRAFORM, TERRAFORM.splitlines()[-5:-2:2], id="terraform-plan"),
        pytest.param(NPM, ['npm ERR! peer react@"^17.0.0" from react-dom@17.0.2'], id="npm-install"),
    ],
)  # fmt: skip
def test_a_plan_or_an_install_is_a_log_with_its_totals_and_errors(text: str, wanted: list[str]) -> None:
    assert detect_kind(text) is ContentKind.LOG
    body = summarize(text, ContentKind.LOG, budget=1500).text.splitlines()
    assert all(line in body for line in wanted)


def _stage1(text: str, tool: str = "run_command") -> Extract:
    """Stage 1 of ``text`` as the hub routes a ``tool``'s result: a summary."""
    decision = route(text, tool=tool)
    assert isinstance(decision, Summary)
    return decision.extract


def test_a_database_errors_detail_and_hint_rank_just_below_the_errors() -> None:
    # PostgreSQL writes why an ERROR happened on its DETAIL: and HINT: lines below it: before,
    # they ranked with any neighbour line, below every other kind of line, and none was shown.
    text = data("postgresql-server-errors-excerpt.log")
    body = summarize(text, ContentKind.LOG, budget=2000).text
    assert body.count(" ERROR:  ") == 6
    assert "DETAIL:  Key (email)=(user42@example.com) already exists." in body
    assert 'HINT:  Perhaps you meant to reference the column "orders.total".' in body


def test_nms_address_and_size_columns_are_no_git_log() -> None:
    # ``0000000000013c90 0000000000000001 t arena_free`` read as ``git log --oneline`` (a hash
    # and a subject): the symbol table was summarised as a diff.
    text = data("nm-size-sort-cmark-gfm-excerpt.txt")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE


def test_a_type_checkers_found_n_errors_line_is_the_runs_verdict() -> None:
    # tsc's (and mypy's) "Found 60 errors in 21 files." was no summary line: with sixty errors
    # competing, the total was left out.
    text = data("tsc-pretty-trpc-excerpt.txt")
    body = summarize(text, ContentKind.LOG, budget=1500).text
    assert "Found 60 errors in 21 files." in body


def test_each_tap_failure_shows_with_what_its_block_expected_and_got() -> None:
    # tape names its assertions alike: before, "not ok 7 should be deeply equivalent" and the
    # others were one failing test, folded into one line, and their YAML blocks' expected and
    # actual values ranked below the library's stack frames.
    text = data("tape-qs-fail-excerpt.txt")
    body = summarize(text, ContentKind.LOG, budget=2500).text
    for number in (7, 80, 128):
        assert f"not ok {number} should be deeply equivalent" in body
    assert "      { foo: 'c +' }" in body  # the actual value under ``actual: |-``
    assert "at: Test.<anonymous> (/tmp/gen21/capture/qs/package/test/parse.js:19:12)" in body


def test_a_tap_blocks_error_shows_its_lines_past_the_first() -> None:
    # Node 20's test runner (``node --test``, TAP when not on a terminal) writes an assertion's
    # message as a block scalar: ``error: |-`` over "Expected values to be strictly equal:", a
    # blank line, and what differed. Before, only the first line, which every such failure shares.
    text = data("node-2020-test-tap-reporter-three-failures.txt")
    body = _stage1(text).text
    assert "    Expected values to be strictly equal:\n    null !== 0" in body
    assert "not ok 27 - deep config" in body and "    +     on: true" in body
    assert "  error: 'Missing expected exception.'" in body


def test_each_rust_tests_panic_shows_with_its_message() -> None:
    # ``cargo test`` with RUST_BACKTRACE=1 (as CI sets it): three tests panic, each "thread
    # 'tests::…' (N) panicked at src/lib.rs:…:" over its message. The panic lines are one template
    # with a name changed, and past the second such error the rest ranked below the backtraces'
    # frames: the third failure's message was left out.
    text = data("cargo-test-rust-backtrace-1-three-panics.txt")
    body = _stage1(text).text
    for message in ("assertion `left == right` failed", "port 22 is privileged"):
        assert message in body
    panic = "thread 'tests::unwraps_none' (7775) panicked at src/lib.rs:11:65:"
    assert f"{panic}\ncalled `Option::unwrap()` on a `None` value" in body


# Runs whose own lines went unrecognised, each a real output in ``tests/data``: before, each read
# as text (a Directive with nothing of the run), Markdown (prove's ``#   Failed test`` lines as
# headings; coverage's report, 505 bytes without its TOTAL row) or a skeleton without its verdict.
# Each must now be a log whose summary, at the given budget, holds the lines named.
_RUNS = [
    pytest.param(
        "prove-text-modules-fail.txt",
        2500,
        ["Result: FAIL", "Files=6, Tests=73,", "not ok 4 - escaped quotes inside double quotes"],
        id="prove",
    ),
    pytest.param(
        "gdb-brotli-segv-bt-full.txt",
        1300,
        [
            "Program received signal SIGSEGV, Segmentation fault.",
            "1301\t    *total_out = s->partial_pos_out;",
            "#0  0x0000555555628f2f in WriteRingBuffer (",
        ],
        id="gdb",
    ),
    pytest.param(
        "esbuild-verbose-trpc-excerpt.txt",
        2000,
        [
            '✘ [ERROR] Could not resolve "./contentTypes"',
            '✘ [ERROR] Unexpected "}"',
            "3 warnings and 2 errors",
        ],
        id="esbuild",
    ),
    pytest.param(
        "pytest-tb-long-click-excerpt.txt",
        3000,
        ["48 failed, 541 passed, 21 skipped, 1 xfailed, 1 warning in 4.56s", "FAILED tests/test_basic.py::"],
        id="pytest-tb-long",
    ),
    pytest.param(
        "coverage-report-click.txt",
        1200,
        [
            "TOTAL                               7521    886   1578    184    86%",
            "src/click/_winconsole.py             159    159     28      0     0%   9-279",
        ],
        id="coverage-report",
    ),
    pytest.param(
        "strace-import-click-excerpt.txt",
        2000,
        ["+++ exited with 0 +++", "= -1 ENOENT (No such file or directory)"],
        id="strace",
    ),
    pytest.param(
        "rspec-doc-backtrace-rate-limiter.txt",
        2500,
        [
            "17 examples, 3 failures, 1 pending",
            "rspec ./spec/rate_limiter_spec.rb:99 # RateLimiter metrics reports per-key usage",
        ],
        id="rspec-backtrace",
    ),
    pytest.param(
        # rustc's warnings, full of `backquoted` names, read as Markdown (a Directive); then the
        # panics' messages lost to std's backtrace frames (``at /rustc/<hash>/library/…``).
        "cargo-test-semver-no-fail-fast.txt",
        2700,
        [
            "thread 'test_parse' (28740) panicked at tests/test_version.rs:51:5:",
            '  left: "leading zero not allowed in pre-release identifier"',
            ' right: "invalid leading zero in pre-release identifier"',
            "matched 0.9.1",
            "warning: `semver` (lib) generated 27 warnings",
            "error: 2 targets failed:",
        ],
        id="cargo-test-panics",
    ),
    pytest.param(
        # unittest's "=====" and "-----" rules under a blank line, and the tests' printed "# …"
        # comment lines, read as Markdown headings: a Directive-like outline of rules.
        "unittest-v-pyparsing-excerpt.txt",
        3000,
        ["FAILED (failures=6, errors=5)", "Ran 286 tests in 2.860s"],
        id="unittest-verbose-printing",
    ),
    pytest.param(
        # strace -c's summary table is sorted by time: its header and costliest rows were left for
        # the trace's ENOENT lines, only its total shown.
        "strace-f-c-psql-excerpt.txt",
        3000,
        [
            "% time     seconds  usecs/call     calls    errors syscall",
            " 37.42    0.005616          18       299       202 newfstatat",
            "100.00    0.015010          16       896       274 total",
        ],
        id="strace-c-table",
    ),
    pytest.param(
        # pytest --tb=short locates each failure as "file:line: in test_name": only the
        # "file:line: ErrorName" of --tb=long was known as a location.
        "pytest-tb-short-more-itertools-excerpt.txt",
        2500,
        ["tests/test_more.py:1579: in test_maxsplit", "tests/test_more.py:5384: in test_long"],
        id="pytest-tb-short",
    ),
    pytest.param(
        # ctest -V numbers each line a test printed ("21: …"): read as YAML (1,119 top-level keys
        # "1:" to "22:"), then as text, as the test number hid the Unity lines under it.
        "ctest-v-cjson-1715.txt",
        2800,
        [
            "cJSON-1.7.15/tests/parse_string.c:55:parse_string_should_parse_strings:FAIL",
            "cJSON-1.7.15/tests/old_utils_tests.c:130:misc_tests:FAIL: Expected '/m~1n'",
            "91% tests passed, 2 tests failed out of 22",
        ],
        id="ctest-verbose",
    ),
]


@pytest.mark.parametrize(("name", "budget", "wanted"), _RUNS)
def test_a_run_known_by_its_own_lines_is_a_log_with_its_verdict(
    name: str, budget: int, wanted: list[str]
) -> None:
    text = data(name)
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    body = summarize(text, ContentKind.LOG, budget=budget).text
    assert all(line in body for line in wanted), [line for line in wanted if line not in body]


def test_a_ci_job_logs_colours_and_stamps_hide_no_test_run_landmarks() -> None:
    # A CI job log (timestamps, ANSI colours): pytest's banner after the set-up steps, its
    # coloured location lines ("\x1b[1m\x1b[31mtest/test_stpl.py\x1b[0m:61: AssertionError") and
    # its coverage row were matched on the raw lines, so none was in stage 1 (3 of 6 facts).
    text = data("gha-job-log-bottle-pytest.log")
    assert detect_kind(text, tool_name="get_job_log") is ContentKind.LOG
    body = summarize(text, ContentKind.LOG, budget=4000).text
    for shown in (
        "platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0",
        "\x1b[1m\x1b[31mtest/test_stpl.py\x1b[0m:61: AssertionError",
        "bottle.py    2576    439    83%",
        "##[error]Process completed with exit code 1.",
    ):
        assert shown in body, shown


def test_a_long_warning_is_shown_whole_as_an_error_would_be() -> None:
    # Redis's startup warning of 182 characters was cut to its first 160 around "…": "current
    # value is 100…e you sure", the value the warning is about lost.
    text = data("redis7-cache-restart.log")
    body = summarize(text, ContentKind.LOG, budget=2400).text
    assert (
        "# WARNING: You specified a maxmemory value that is less than 1MB (current value is 1000000 bytes)."
        " Are you sure this is what you really want?"
    ) in body


def test_valgrinds_bare_prefix_lines_are_blank_lines_not_shown() -> None:
    # "==17820== " alone separates Valgrind's paragraphs: eleven of them folded into one shown
    # line "==17820==  [×11]", room the leak's allocation site did not get.
    text = data("valgrind-memcheck-bzip2-leak.txt")
    body = summarize(text, ContentKind.LOG, budget=1500).text
    assert all(line.strip() != "==17820==" for line in (strip_annotation(line) for line in body.split("\n")))
    assert "==17820== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)" in body


def test_a_slow_query_log_shows_its_slowest_statements_first() -> None:
    # Its "# Time:", "# Query_time:" lines read as Markdown headings: stage 1 was their outline,
    # none of the statements or their durations.
    text = data("mariadb-slow-query-log.txt")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    extract = summarize(text, ContentKind.LOG, budget=2800)
    assert extract.outline.startswith("log: slow query log, 40 slow queries; the slowest 4.00027 s")
    lines = extract.text.split("\n")
    assert lines[0].startswith("mariadbd, Version: 10.11.19-MariaDB")
    slowest = lines.index("# Query_time: 4.000272  Lock_time: 0.000000  Rows_sent: 1  Rows_examined: 0")
    assert lines[slowest + 1] == "SELECT SLEEP(4);"
    assert "# Query_time: 0.389052  Lock_time: 0.000100  Rows_sent: 110  Rows_examined: 1200000" in lines
    assert lines[-1] == "# Query_time: 0.070741  Lock_time: 0.000118  Rows_sent: 1  Rows_examined: 399800"
    assert len(extract.text.encode()) <= 2800
    # The derived count is a label, not a payload line (it was a bare line: fresh40a's verbatim check)
    assert "== 40 slow queries; the slowest 4.00027 s; the most rows examined 1200000 ==" in lines
    payload = set(text.splitlines())
    assert all(is_marker(line) or clipped_from(line, payload) for line in lines)


def test_the_linkers_undefined_references_are_errors() -> None:
    # cmake --build with a source left out: "test_json_pointer.c:143: undefined reference to
    # `json_pointer_getf'" lines were no errors, only "collect2: error: ld returned 1 exit status".
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "build-cmake-build-jsonc016-link-error.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LOG, budget=2700)
    assert "undefined reference to `json_pointer_get'" in extract.text


def test_a_services_failed_calls_fold_into_one_line_and_its_starting_version_is_shown() -> None:
    # "recvfrom 13 failed: Connection refused" read as a run's totals ("13 failed"): every one was
    # shown as a verdict, unfolded, and the line naming the version it started as was left out
    text = data("unbound-verbosity4-head.log")
    decision = route(text, tool="run_command", arguments={"command": "unbound -d -vvvv"})
    assert isinstance(decision, Summary) and decision.kind is ContentKind.LOG
    shown = decision.extract.text.split("\n")
    refused = [line for line in shown if "failed: Connection refused" in line]
    assert len(refused) == 1 and refused[0].endswith("[×6]")
    assert "[1796310097] unbound[29134:0] info: start of service (unbound 1.17.1)." in shown


def test_slapds_log_is_a_log_whose_failed_results_are_its_errors() -> None:
    # OpenLDAP's ``6b118da1.01d7bd6c 0x7fd5b30f4200 conn=1000 …`` lines (a hex time, a thread) were a
    # table's rows; as a log, a result with a non-zero code (``RESULT tag=105 err=65 … text=object
    # class 'inetOrgPerson' requires attribute 'sn'``) is an error, not one more line
    text = data("slapd-stats-acl-excerpt.log")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={"command": "slapd -d stats,acl"})
    assert isinstance(decision, Summary)
    shown = decision.extract.text
    assert "err=65 qtime=0.000002 etime=0.000053 text=object class 'inetOrgPerson' requires" in shown
    assert "err=21 qtime=0.000013 etime=0.000070 text=uidNumber: value #0 invalid per syntax" in shown


def test_a_service_that_logs_its_configuration_first_still_shows_where_it_listens() -> None:
    # Radicale's debug log prints 116 lines of settings before "Listening on '127.0.0.1:20502'":
    # only the first 60 lines were looked at for where a service listens
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "log-radicale-390-debug-caldav.log").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "radicale --debug"})
    assert isinstance(decision, Summary)
    assert "[2026-12-03 15:42:12 +0000] [5505] [INFO] Listening on '127.0.0.1:20502'" in decision.extract.text


@pytest.mark.parametrize(
    ("name", "line"),
    [
        # Privoxy's debug log: 216 lines of actions and filters loaded before it listens.
        ("log-privoxy-3034-debug-foreground.log", "Listening on port 19318 on IP address 127.0.0.1"),
        # RabbitMQ's debug log: 950 lines of boot steps before its AMQP listener starts.
        ("log-rabbitmq-3108-foreground-debug-ansi.log", "started TCP listener on 127.0.0.1:19372"),
    ],
)
def test_a_debug_log_says_where_it_listens_after_hundreds_of_start_up_lines(name: str, line: str) -> None:
    # Failed before: only the first 200 lines were looked at for where a service listens.
    from tests.corpora import bench_stage1

    assert line in bench_stage1(name)


def test_a_listener_opened_is_where_a_service_listens() -> None:
    # Failed before: coturn's "IPv4. TCP listener opened on : 127.0.0.1:20078" named no listen word
    # ("listener" was not one), so its port was not in stage 1.
    from tests.corpora import bench_stage1

    assert "TCP listener opened on : 127.0.0.1:20078" in bench_stage1("log-coturn-461-verbose-quota-auth.log")


# Maven 3.8.7 with Surefire 3.2.5 and JUnit 5.11 (``mvn -B test``; ``mvn -B -fae verify`` over a
# five-module reactor), each a real run in ``tests/data``.
_MAVEN_TEST = "mvn-3.8-surefire-3.2-junit5-inventory-failures.txt"
_MAVEN_REACTOR = "mvn-3.8-reactor-fae-test-and-compile-failures.txt"


def test_surefire_3s_failing_tests_are_read_with_their_messages() -> None:
    # Since 3.0 Surefire writes ``[ERROR] org.x.StockTest.takeAll -- Time elapsed: 0.009 s <<<
    # FAILURE!`` (and ``formatsEuros(long, String)[2]`` for a parameterised case): before, no
    # failing test was read ("0 failed tests") and the headline said so.
    text = data(_MAVEN_TEST)
    scan = scan_log(text.splitlines())
    assert len(scan.failing) == 8
    assert "org.shop.inventory.PriceFormatTest.formatsEuros(long, String)[2]" in scan.failing
    extract = _stage1(text)
    body = extract.text
    assert "8 failed tests" in extract.outline
    assert "[INFO] Building inventory 1.4.0-SNAPSHOT" in body  # the project and its version
    assert "[ERROR] Tests run: 24, Failures: 6, Errors: 2, Skipped: 1" in body
    for message in ("expected: <[B-2, C-3]> but was: <[B-2]>", 'because "this.name" is null'):
        assert message in body
    # A line that is Maven's level tag alone says nothing (it was shown as ``[INFO]  [×11]``).
    assert not any(line.rstrip(" ×[]0123456789") in ("[INFO", "[ERROR") for line in body.splitlines())


def test_a_maven_reactors_summary_and_each_modules_failure_show() -> None:
    # Before: no module's row of the reactor summary, the compile error of the second failing
    # module left out (the middle of a burst of [ERROR] lines), Maven's ``[ERROR] [Help 1] http…``
    # taken for a totals line (an [ERROR] tag and a digit) and a colour reset for the last line.
    text = data(_MAVEN_REACTOR)
    extract = _stage1(text)
    lines = extract.text.splitlines()
    assert "[INFO] Reactor Summary for shop-parent 2.3.1:" in lines
    for row in (
        "[INFO] inventory .......................................... FAILURE [  0.726 s]",
        "[INFO] pricing ............................................ FAILURE [  0.528 s]",
        "[INFO] catalog ............................................ SKIPPED",
    ):
        assert row in lines
    compile_error = (
        "[ERROR] /tmp/p47/mm/pricing/src/main/java/org/shop/pricing/Discounts.java:[16,12] cannot find symbol"
    )
    assert any(line.startswith(compile_error) for line in lines)
    assert not any("[Help 1] http" in line for line in lines)
    # Maven's last two lines, in order: the resume command under the line that announces it
    # (the smaller summary made room for the ending had dropped the command the first one showed).
    assert lines[-2:] == [
        "[ERROR] After correcting the problems, you can resume the build with the command",
        "[ERROR]   mvn <args> -rf :inventory",
    ]


def test_jests_report_in_a_pipe_is_a_test_log_with_each_failures_message() -> None:
    # ``npx jest`` (29.7) as a tool runs it, not on a terminal: ``FAIL __tests__/cart.test.js``,
    # ``  ● Cart › rejects zero qty``, a blank line, then the failure's message. Before, it read as
    # text: the first failure and source lines, no other failing test's name or message.
    text = data("jest-29-default-reporter-cart-failures.txt")
    assert detect_kind(text) is ContentKind.LOG
    extract = _stage1(text)
    body = extract.text
    assert "8 failed tests" in extract.outline
    lines = body.splitlines()
    for name in ("Cart › skus sorted", "Cart › remove › keeps others", "money in dollars", "fetches USD"):
        assert any(line.startswith(f"  ● {name}") for line in lines), name
    for message in (
        "    expect(received).toThrow(expected)",  # under its header, past the blank line
        "    Received constructor: RangeError",
        '    Received: "0.05 USD"',
        "    Received difference:   0.020000000000000018",
    ):
        assert message in lines, message
    assert "Tests:       8 failed, 1 skipped, 1 todo, 56 passed, 66 total" in lines


def test_vitests_failed_tests_are_read_by_their_cross_with_their_messages() -> None:
    # ``npx vitest run`` (3.2.7, no terminal): ``   × Cart > skus sorted 3ms`` over its ``→ expected
    # …`` line. Before, no failing test was read ("0 failed tests") and half the messages were left out.
    text = data("vitest-3.2-default-reporter-cart-failures.txt")
    scan = scan_log(text.splitlines())
    assert "Cart > skus sorted" in scan.failing and len(scan.failing) == 8
    extract = _stage1(text)
    assert "8 failed tests" in extract.outline
    lines = extract.text.splitlines()
    for name, message in (
        ("slug(A_B) 1ms", "→ expected 'a_b' to be 'a-b' // Object.is equality"),
        ("money in dollars 5ms", "→ expected '0.05 USD' to deeply equal '$0.05'"),
    ):
        assert lines[lines.index(f"   × {name}") + 1] == f"     {message}"


def test_mochas_failure_blocks_show_each_tests_suite_title_and_message() -> None:
    # ``npx mocha`` (10.8, spec reporter): under ``  9 failing``, ``  1) Cart`` over the test's title
    # (``       rejects zero qty:``) and its message. The blocks' headers share one shape: before,
    # they folded into ``  4) Cart [×4]`` without the titles, the suites counted as failed tests
    # (11) and the list's next title was shown as a failure's message.
    text = data("mocha-10-spec-reporter-cart-failures.txt")
    extract = _stage1(text)
    assert "9 failed tests" in extract.outline
    body = extract.text
    assert (
        "  1) Cart\n       rejects zero qty:\n     AssertionError [ERR_ASSERTION]: The error is expected"
        in body
    )
    assert "  4) Cart\n       remove\n         keeps others:" in body
    assert "  9) format\n       times out:\n     Error: Timeout of 10ms exceeded." in body
    assert "  44 passing (29ms)" in body and "  9 failing" in body
    assert "[×" not in body


def test_pytest_9s_failed_subtests_are_failed_tests() -> None:
    # pytest 9.2 with pytest-cov on more-itertools 10.5.0 (two edits): five ``SUBFAILED(n=100)
    # tests/test_recipes.py::SieveTests::test_prime_counts - …`` lines. Before, "2 failed tests"
    # against pytest's own "7 failed".
    text = data("pytest-9.2-cov-subtests-more-itertools-10.5-two-edits.txt")
    scan = scan_log(text.splitlines())
    assert len(scan.failing) == 7
    assert "(n=1000000) tests/test_recipes.py::SieveTests::test_prime_counts" in scan.failing
    extract = _stage1(text)
    assert "7 failed tests" in extract.outline
    body = extract.text
    assert "TOTAL                         1911     11    99%" in body
    assert "7 failed, 661 passed, 1 skipped, 8 warnings, 2327 subtests passed in 6.60s" in body


def test_pre_commits_failed_hooks_are_its_verdict() -> None:
    # pre-commit 4.7 (local hooks: ruff, ruff format, mypy, two pygrep hooks, a ``fail`` hook) on
    # more-itertools 10.5.0, --all-files (100 kB): ``ruff....Failed`` and ``mypy....Failed`` were
    # left out (only the last hook's line, the payload's ending, was shown).
    text = data("pre-commit-4.7-local-hooks-more-itertools-all-files.txt")
    extract = _stage1(text)
    lines = extract.text.splitlines()
    for hook in ("ruff", "mypy", "forbid .rej files"):
        assert any(line.startswith(f"{hook}....") and line.endswith("Failed") for line in lines), hook


def test_a_surefire_xml_reports_failing_test_cases_show_with_their_messages() -> None:
    # Surefire 3.2's ``TEST-org.shop.inventory.PriceFormatTest.xml`` (JUnit 5.11), as an agent reads
    # a CI artifact: each failing ``<testcase …>`` has its ``<failure message=…>`` on the next line.
    # Before: "0 failed tests", and the three parameterised failures folded into one ``[×3]``.
    text = data("surefire-3.2-junit5-TEST-PriceFormatTest.xml")
    extract = _stage1(text, tool="get_artifact")
    assert "4 failed tests" in extract.outline
    lines = extract.text.splitlines()
    for case, message in (
        ('name="formatsEuros(long, String)[3]"', 'message="expected: &lt;0.07 EUR&gt; but was:'),
        ('name="parsesWholeEuros"', 'message="Index 1 out of bounds for length 1"'),
    ):
        at = next(index for index, line in enumerate(lines) if case in line)
        assert message in lines[at + 1]


@pytest.mark.parametrize(
    ("name", "failed", "failing"),
    [
        # unittest (through nose2 -v) names a test case made in a function by its qualified name:
        # ``FAIL: test_parse (isodate.tests.test_time.create_testcase.<locals>.TestTime.test_parse)``
        pytest.param(
            "test-cape-nose2-v-isodate-061-edits.txt",
            3,
            "test_parse (isodate.tests.test_time.create_testcase.<locals>.TestTime.test_parse)",
            id="unittest-locals",
        ),
        # busted's ``-o gtest``: ``[  FAILED  ] spec/a_spec.lua @ 195: Test … tolerances (0.40 ms)``
        pytest.param(
            "test-fern-busted-gtest-luassert-190-edits.txt",
            20,
            "spec/assertions_spec.lua @ 195: Test Assertions Checks near() assertion handles tolerances",
            id="busted-gtest",
        ),
    ],
)
def test_more_runners_failed_tests_are_read(name: str, failed: int, failing: str) -> None:
    # (dev corpus items whose failing tests read "0 failed tests")
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    scan = scan_log(text.splitlines())
    assert len(scan.failing) == failed and failing in scan.failing


def test_a_terraform_plan_shows_each_resources_action_and_changed_attributes() -> None:
    # ``terraform plan`` (1.11.4, built-in terraform_data resources, after an apply and an edit):
    # before, its ``  # terraform_data.service["billing"] will be destroyed`` lines were left out
    # for attribute lines of resources to be created; the plan's totals alone said what it does.
    text = data("terraform-1.11-plan-update-destroy-create.txt")
    extract = _stage1(text)
    lines = extract.text.splitlines()
    for action in (
        '  # terraform_data.service["billing"] will be destroyed',
        '  # terraform_data.service["api"] will be updated in-place',
        '  # terraform_data.queue["webhooks"] will be created',
    ):
        assert action in lines, action
    assert '          ~ image    = "shop/api:2.3.1" -> "shop/api:2.4.0"' in lines
    assert "Plan: 3 to add, 2 to change, 2 to destroy." in lines


def test_jest_verbose_counts_each_failed_test_once() -> None:
    # ``npx jest --verbose`` names each failure twice: ``✕ rejects zero qty (18 ms)`` in its file's
    # list and ``● Cart › rejects zero qty`` over its message. Before: "12 failed tests" for 8.
    extract = _stage1(data("jest-29-verbose-cart-failures.txt"))
    assert "8 failed tests" in extract.outline
    assert "  ● Cart › rejects zero qty" in extract.text.splitlines()


def test_cucumbers_failed_scenarios_are_failed_tests() -> None:
    # ``npx cucumber-js`` (11, no terminal): under ``Failures:``, ``3) Scenario: Discount codes #
    # features/cart.feature:28`` per failed scenario, an outline's examples told apart by their line.
    # Before: "0 failed tests".
    text = data("cucumber-js-11-progress-cart-failures.txt")
    scan = scan_log(text.splitlines())
    assert "Scenario: Zero quantity is rejected # features/cart.feature:13" in scan.failing
    assert "Scenario: Total of one item with tax # features/totals.feature:12" in scan.failing
    extract = _stage1(text)
    assert "11 failed tests" in extract.outline
    assert "37 scenarios (10 failed, 1 undefined, 26 passed)" in extract.text.splitlines()


def test_unittests_failed_subtests_are_failed_tests() -> None:
    # ``python -m unittest`` (CPython 3.11.7) on more-itertools 10.5.0 with one edit: ``FAIL:
    # test_prime_counts (tests.test_recipes.SieveTests.test_prime_counts) (n=100)``, one per
    # subtest. Before: "4 failed tests" against unittest's "failures=8".
    text = data("unittest-py311-subtests-more-itertools-10.5-one-edit.txt")
    scan = scan_log(text.splitlines())
    assert len(scan.failing) == 8
    assert "test_prime_counts (tests.test_recipes.SieveTests.test_prime_counts) (n=1000)" in scan.failing
    assert "8 failed tests" in _stage1(text).outline


def test_rspecs_examples_named_alike_fold_and_its_rerun_list_counts_them() -> None:
    # RSpec 3.12 (Debian's ruby-rspec): 36 failures, 30 of them one example made in a loop
    # (``formats 7 euros``), rerun by id (``rspec ./spec/cart_spec.rb[2:9] # …``). Before: "43 failed
    # tests" (the numbered blocks, a pending one too, counted for want of those ids) and the 30
    # alike messages took the room of the other failures' (``key not found: "NOPE"``).
    text = data("rspec-3.12-cart-failures-alike-examples.txt")
    extract = _stage1(text)
    assert "36 failed tests" in extract.outline
    body = extract.text
    for message in ('key not found: "NOPE"', 'got: "-trim-me-"', 'got: "12.5 EUR"', "got: 720"):
        assert message in body, message
    assert "42 examples, 36 failures, 1 pending" in body.splitlines()


def test_node_tests_spec_reporter_names_its_failed_tests_not_its_suites() -> None:
    # ``node --test --test-reporter=spec`` (Node 20): ``  ✖ discount needs five items (0.88147ms)``
    # under ``▶ cart totals``, whose closing ``✖ cart totals (6.51652ms)`` is no test, then
    # ``✖ failing tests:`` over each failure again. Before: "0 failed tests".
    extract = _stage1(data("node-20-test-spec.txt"))
    assert ", 4 failed tests," in extract.outline
    assert "  ✖ discount needs five items (0.88147ms)" in extract.text.splitlines()
    assert "ℹ fail 4" in extract.text.splitlines()


def test_node_tests_tap_counts_its_failed_tests_not_its_suites() -> None:
    # ``node --test`` in a pipe (TAP): a suite that failed is ``not ok 1 - cart totals`` over a
    # YAML block saying ``type: 'suite'``. Before: 6 failed tests for node's 4.
    extract = _stage1(data("node-20-test-tap.txt"))
    assert ", 4 failed tests," in extract.outline
    assert "    not ok 2 - discount needs five items" in extract.text.splitlines()
    assert "# fail 4" in extract.text.splitlines()


def test_eslints_totals_in_a_test_log_are_a_run_summary() -> None:
    from context_mode.totals import is_run_summary

    assert is_run_summary("✖ 62 problems (0 errors, 62 warnings)")
    assert not is_run_summary("✖ discount needs five items (0.88147ms)")


def test_playwright_tests_list_reporter_counts_each_failed_test_once_with_its_error() -> None:
    # ``npx playwright test`` (1.65, its list reporter in a pipe, headless Chromium on loopback
    # pages): ``  ✘   3 [chromium] › tests/book.spec.js:7:3 › rust book › hash maps heading (1.9s)``,
    # then its failure block under ``  1) [chromium] › tests/book.spec.js:7:3 › … ───``. Before,
    # each failed test counted twice (12 for Playwright's 6).
    extract = _stage1(data("playwright-test-1.65-list-reporter.txt"))
    assert ", 6 failed tests," in extract.outline
    lines = extract.text.splitlines()
    header = next(
        i for i, line in enumerate(lines) if line.startswith("  1) [chromium] › tests/book.spec.js:7:3")
    )
    assert lines[header + 1] == "    Error: expect(locator).toHaveText(expected) failed"
    assert '    Expected: "Storing Keys with Values in Hash Maps"' in lines
    assert "  25 passed (28.2s)" in lines


def test_bun_tests_run_is_a_test_log_not_a_multi_file_read() -> None:
    # ``bun test`` (1.4.5): a ``test/cart.test.ts:`` line over each file's results, ``(fail) cart
    # totals > discount needs five items [0.20ms]`` lines, each failure's code, caret and message,
    # then ``4 tests failed:`` and ``Ran 64 tests across 2 files.``. Before, its file lines made it a
    # multi-file source read ("2 files, 139 lines, 0 definitions").
    extract = _stage1(data("bun-1.4-test.txt"))
    assert extract.outline.startswith("log: 139 lines, 4 failed tests,")
    lines = extract.text.splitlines()
    assert "(fail) cart skus > skus keep duplicates [0.07ms] [×2]" in lines
    assert "SyntaxError: JSON Parse error: Expected '}'" in lines
    assert " 4 fail" in lines and "Ran 64 tests across 2 files. [6.00ms]" in lines


def test_deno_tests_failed_tests_are_read_not_its_steps() -> None:
    # ``deno test`` (2.9.6, coloured in a pipe): ``cart totals: discount needs five items ...
    # FAILED (576µs)``; a test failing by its step (``steps ... FAILED (due to 1 failed step)``),
    # the step indented above it. Before: "0 failed tests".
    extract = _stage1(data("deno-2.9-test-colour.txt"))
    assert extract.outline.startswith("log: 97 lines, 4 failed tests,")
    assert any(line.startswith("skus keep duplicates ... ") for line in extract.text.splitlines())
    assert "| 4 failed (1 step) |" in extract.text


def test_an_exception_groups_tracebacks_are_a_log_with_each_kind_of_sub_exception() -> None:
    # A real Python 3.11 exception group (anyio's task group, 19 tasks failing at once): each line
    # behind a ``  | `` gutter, the sub-exceptions apart by ``  +-+------ 1 ------``. Before, the
    # gutter made it a table of 7 columns ("Exception, Group, Traceback…") shown from its top
    # only: one of its two kinds of error.
    text = data("python-311-exception-group-anyio-task-group.txt")
    assert detect_kind(text) is ContentKind.LOG
    body = _stage1(text).text
    assert "  | ExceptionGroup: unhandled errors in a TaskGroup (19 sub-exceptions)" in body
    assert "    | ConnectionError: upstream 3 refused connection on port 5403 [×10]" in body
    assert (
        "    | json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes:"
        " line 1 column 2 (char 1) [×5]"
    ) in body
