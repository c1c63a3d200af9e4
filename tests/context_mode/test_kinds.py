"""detect_kind: the content decides, the tool name breaks ties, and big inputs stay cheap."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS, SHARED_CORPUS, items_of

CORPUS = SHARED_CORPUS

PYTEST_RUN = """\
============================= test session starts ==============================
collected 3 items

tests/test_a.py::test_one PASSED                                         [ 33%]
tests/test_a.py::test_two FAILED                                         [ 66%]
tests/test_a.py::test_three PASSED                                       [100%]

=================================== FAILURES ===================================
E       assert 1 == 2
=========================== short test summary info ============================
FAILED tests/test_a.py::test_two - assert 1 == 2
========================= 1 failed, 2 passed in 0.12s ==========================
"""
SERVICE_LOG = "\n".join(
    f"2024-05-01 12:00:{i:02d},120 {'INFO' if i % 7 else 'WARN'} [worker-{i % 3}] job {i} took {i * 3} ms"
    for i in range(40)
)
JAVA_TRACE = """\
Exception in thread "main" java.lang.IllegalStateException: boom
\tat com.acme.App.run(App.java:42)
\tat com.acme.App.main(App.java:12)
Caused by: java.io.IOException: disk full
\tat com.acme.Store.write(Store.java:88)
\t... 2 more
"""
UNIFIED_DIFF = """\
diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,4 +1,4 @@ def main():
 import os
-print("a")
+print("b")
 x = 1
"""
GIT_LOG = """\
commit 0123456789abcdef0123456789abcdef01234567
Author: A U Thor <a@example.com>
Date:   Mon Jan 1 00:00:00 2024 +0000

    fix the thing

commit 89abcdef0123456789abcdef0123456789abcdef
Author: A U Thor <a@example.com>
Date:   Sun Dec 31 00:00:00 2023 +0000

    add the thing
"""
RG_MATCHES = """\
src/app.py:12:def handle_request(request):
src/app.py:40:    return handle_request(req)
src/util/io.py:7:    request = build()
tests/test_app.py:3:from app import handle_request
docs/index.md:19:Call `handle_request` with a request.
"""
GIT_GREP_CONTEXT = """\
src/app.py=10=class App:
src/app.py-11-    def __init__(self):
src/app.py:12:        self.teardown = []
src/app.py-13-
--
src/my-module.py-4-x = 1
src/my-module.py:5:teardown()
"""
RG_HEADINGS = """\
src/app.py
12:def handle_request(request):
40:    return handle_request(req)

src/util/io.py
7:    request = build()
"""
MARKDOWN_DOC = """\
# Project

Intro paragraph. More text.

## Install

Run `pip install project`.

```bash
# not a heading
pip install project
```

## Usage

See [the docs](https://example.com).
"""
SETEXT_CHANGELOG = """\
2.0.0 / 2024-01-01
==================

  * Drop old API
  * deps: foo@2.0.0

1.9.0 / 2023-06-01
==================

  * Add feature
"""
DPKG_TABLE = """\
||/ Name           Version      Architecture Description
+++-==============-============-============-=================================
ii  adduser        3.134        all          add and remove users and groups
ii  apt            2.6.1        amd64        commandline package manager
ii  bash           5.2.15-2+b2  amd64        GNU Bourne Again SHell
ii  curl           7.88.1-10    amd64        command line tool for transferring
"""
PS_TABLE = """\
  PID TTY          TIME CMD
    1 ?        00:00:03 systemd
  412 ?        00:00:00 sshd
 1337 pts/0    00:00:00 bash
 2001 pts/0    00:00:00 ps
"""
CSV_TABLE = "id,name,status\n1,alpha,ok\n2,beta,failed\n3,gamma,ok\n4,delta,ok\n"
PROSE = """\
The meeting covered three topics. First, the roadmap for the next quarter.
Second, hiring plans for the platform team, which is growing.
Third, a retrospective on the last release and what went well.
Everyone agreed to meet again next week.
"""
ACCESS_LOG = "\n".join(
    f'127.0.0.1 - - [01/Dec/2026:09:10:{i:02d} +0000] "GET /simple/p{i}/ HTTP/1.1" '
    f"{200 if i % 9 else 404} 7{i:02d} "
    f'"-" "pip/24.0" rt=0.00{i % 10}'
    for i in range(40)
)
NGINX_ERRORS = "\n".join(
    f"2026/12/01 09:10:{i:02d} [error] 10329#10329: *{i} open() failed (2: No such file), client: 127.0.0.1"
    for i in range(20)
)

# A real CSV (plotly's gapminder): rows of decimals without blanks or colons look like rg's
# heading-mode path lines, but no ``12:text`` match line follows them.
GAPMINDER_CSV = (Path(__file__).parents[1] / "data" / "gapminder-head.csv").read_text(encoding="utf-8")

# A CSV whose rows start with a date: each row reads as an rg heading path (no blank, a dot) and
# as an rg match line (``2013-``) at once, which made the whole set a code-search listing.
DATED_CSV = "date,precipitation,temp_max,temp_min,wind,weather\n" + "\n".join(
    f"2013-{1 + day // 28:02d}-{1 + day % 28:02d},{day % 7 * 1.5:.1f},{10 + day % 9}.{day % 10},"
    f"{day % 5}.{day % 3},{1 + day % 6}.2,{('rain', 'sun', 'fog')[day % 3]}"
    for day in range(120)
)

# Playwright MCP names refs by frame (``[ref=f1e23]``) on newer releases.
FRAME_REF_SNAPSHOT = (Path(__file__).parents[1] / "data" / "snapshot-search-frame-refs.txt").read_text(
    encoding="utf-8"
)

# Linters whose rule is a code before the message (pylint ``C0114: …``) or in parentheses after
# it (staticcheck ``(ST1003)``): their ``path:line:col:`` lines are diagnostics, not grep matches.
DATA = Path(__file__).parents[1] / "data"
PYLINT = (DATA / "pylint-tqdm-excerpt.txt").read_text(encoding="utf-8")
STATICCHECK = (DATA / "staticcheck-yaml-excerpt.txt").read_text(encoding="utf-8")
# unittest -v of a Markdown library: its "----" rules under FAIL: lines and its "- <p>" diff lines
# read as setext headings and list items, but "... ok" and "Ran N tests" are test-runner lines.
UNITTEST = (DATA / "unittest-markdown-excerpt.log").read_text(encoding="utf-8")
# ShellCheck names files without an extension (/usr/bin/bzgrep); its default format puts the
# rule on a caret line under an "In path line N:" header.
SHELLCHECK = (DATA / "shellcheck-bzip2-scripts.txt").read_text(encoding="utf-8")
SHELLCHECK_GCC = (DATA / "shellcheck-gcc-bzip2-scripts.txt").read_text(encoding="utf-8")
# TAP's "# Subtest: name" comments are no Markdown headings.
TAP = (DATA / "node-test-tap.txt").read_text(encoding="utf-8")
# Under a ``describe``, node --test indents its subtests' comments and adds "# skipped 0".
TAP_NESTED = (DATA / "node-test-describe-failures.txt").read_text(encoding="utf-8")
MOCHA = (DATA / "mocha-spec-parser.txt").read_text(encoding="utf-8")
JEST = (DATA / "jest-sum.txt").read_text(encoding="utf-8")
GO_BUILD = (DATA / "go-build-errors.txt").read_text(encoding="utf-8")

COMPILER_ERRORS = """\
src/main.c:12:5: error: implicit declaration of function 'foo'
src/main.c:20:1: warning: control reaches end of non-void function
src/util.c:3:10: fatal error: missing.h: No such file or directory
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param('{"a": 1, "b": [1, 2]}', ContentKind.JSON, id="json-object"),
        pytest.param("[1, 2, 3]\n", ContentKind.JSON, id="json-array"),
        pytest.param("[" * 5000 + "]" * 5000, ContentKind.JSON, id="json-nested-beyond-the-parser"),
        pytest.param(UNIFIED_DIFF, ContentKind.DIFF, id="unified-diff"),
        pytest.param(GIT_LOG, ContentKind.DIFF, id="git-log"),
        pytest.param(RG_MATCHES, ContentKind.CODE_SEARCH, id="rg-n"),
        pytest.param(GIT_GREP_CONTEXT, ContentKind.CODE_SEARCH, id="git-grep-W"),
        pytest.param(RG_HEADINGS, ContentKind.CODE_SEARCH, id="rg-heading-mode"),
        pytest.param(MARKDOWN_DOC, ContentKind.MARKDOWN, id="markdown-atx"),
        pytest.param(SETEXT_CHANGELOG, ContentKind.MARKDOWN, id="markdown-setext"),
        pytest.param(DPKG_TABLE, ContentKind.TABLE, id="dpkg-l"),
        pytest.param(PS_TABLE, ContentKind.TABLE, id="ps"),
        pytest.param(CSV_TABLE, ContentKind.TABLE, id="csv"),
        pytest.param(GAPMINDER_CSV, ContentKind.TABLE, id="csv-of-decimals-is-no-rg-heading-listing"),
        pytest.param(DATED_CSV, ContentKind.TABLE, id="csv-led-by-dates-is-no-rg-heading-listing"),
        pytest.param(FRAME_REF_SNAPSHOT, ContentKind.SNAPSHOT, id="snapshot-with-frame-refs"),
        pytest.param(PYTEST_RUN, ContentKind.LOG, id="pytest"),
        pytest.param(SERVICE_LOG, ContentKind.LOG, id="timestamped-levels"),
        pytest.param(JAVA_TRACE, ContentKind.LOG, id="java-trace"),
        pytest.param(COMPILER_ERRORS, ContentKind.LINT, id="compiler-diagnostics-are-lint"),
        pytest.param(PYLINT, ContentKind.LINT, id="pylint"),
        pytest.param(STATICCHECK, ContentKind.LINT, id="staticcheck"),
        pytest.param(UNITTEST, ContentKind.LOG, id="unittest-verbose"),
        pytest.param(SHELLCHECK, ContentKind.LINT, id="shellcheck"),
        pytest.param(SHELLCHECK_GCC, ContentKind.LINT, id="shellcheck-gcc"),
        pytest.param(TAP, ContentKind.LOG, id="tap-node-test"),
        pytest.param(TAP_NESTED, ContentKind.LOG, id="tap-node-test-nested-under-describe"),
        pytest.param(MOCHA, ContentKind.LOG, id="mocha-spec"),
        pytest.param(JEST, ContentKind.LOG, id="jest-default"),
        pytest.param(GO_BUILD, ContentKind.LINT, id="go-build-errors-are-lint-not-grep"),
        pytest.param(ACCESS_LOG, ContentKind.LOG, id="access-log-is-a-log-not-a-table"),
        pytest.param(NGINX_ERRORS, ContentKind.LOG, id="nginx-error-log"),
        pytest.param(PROSE, ContentKind.TEXT, id="prose"),
        pytest.param("", ContentKind.TEXT, id="empty"),
        pytest.param("{not json", ContentKind.TEXT, id="broken-json"),
    ],
)
def test_content_decides_the_kind(text: str, expected: ContentKind) -> None:
    assert detect_kind(text) == expected


@pytest.mark.parametrize(
    ("text", "tool", "arguments", "expected"),
    [
        pytest.param(PROSE, "logs__tail", None, ContentKind.LOG, id="log-tool-and-plain-text"),
        pytest.param(PROSE, "repo__grep", None, ContentKind.CODE_SEARCH, id="grep-tool-and-plain-text"),
        pytest.param(PROSE, "git__diff", None, ContentKind.DIFF, id="diff-tool-and-plain-text"),
        pytest.param(PROSE, "run", {"pattern": "x"}, ContentKind.CODE_SEARCH, id="pattern-argument"),
        pytest.param(
            '{"items": []}', "github__search_repositories", None, ContentKind.JSON, id="json-beats-search"
        ),
        pytest.param(MARKDOWN_DOC, "docs__search", None, ContentKind.MARKDOWN, id="markdown-beats-search"),
        pytest.param(DPKG_TABLE, "logs__query", None, ContentKind.TABLE, id="table-beats-log-tool"),
        pytest.param(PYTEST_RUN, "repo__search_code", None, ContentKind.LOG, id="pytest-beats-search"),
    ],
)
def test_tool_name_only_breaks_ties(
    text: str, tool: str, arguments: dict[str, Any] | None, expected: ContentKind
) -> None:
    assert detect_kind(text, tool_name=tool, arguments=arguments) == expected


BIG_INPUTS = [  # their timing is measured in bench/pathological.py
    pytest.param("x" * 1_000_000, id="1MB-one-line"),
    pytest.param("error: " * 150_000, id="1MB-one-line-of-markers"),
    pytest.param("\n".join(f"line {i} ok" for i in range(100_000)), id="100k-short-lines"),
    pytest.param("[" * 10_000 + "]" * 10_000, id="json-depth-10k"),
    pytest.param('{"a":' * 10_000 + "1" + "}" * 10_000, id="object-depth-10k"),
    pytest.param("src/a.py:1:" * 100_000, id="1MB-of-grep-prefixes"),
]


@pytest.mark.parametrize("text", BIG_INPUTS)
def test_big_inputs_get_a_kind(text: str) -> None:
    assert isinstance(detect_kind(text, tool_name="logs_search"), ContentKind)


def test_a_bom_does_not_hide_json() -> None:
    assert detect_kind("\ufeff" + json.dumps({"a": 1})) == ContentKind.JSON


def _corpus_items() -> list[Any]:
    if not (CORPUS / "corpus.yaml").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not found at {CORPUS}"))]
    items = items_of(CORPUS)
    return [pytest.param(item, id=item["id"]) for item in items]


@pytest.mark.parametrize("item", _corpus_items())
def test_every_corpus_item_is_detected_as_its_kind(item: dict[str, Any]) -> None:
    text = (CORPUS / item["file"]).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name=item["tool"], arguments=item["args"]).value == item["kind"]
    assert detect_kind(text).value == item["kind"], "the content alone should be enough"


DATA = Path(__file__).resolve().parents[1] / "data"

MYSQL_BOXED = """\
+----+---------------------+-------+---------------------+
| id | email               | level | created_at          |
+----+---------------------+-------+---------------------+
|  1 | ada@example.com     | ERROR | 2026-12-02 10:22:06 |
|  2 | bob@example.com     | INFO  | 2026-12-02 10:22:07 |
|  3 | cy@example.com      | WARN  | 2026-12-02 10:22:08 |
+----+---------------------+-------+---------------------+
3 rows in set (0.00 sec)
"""


def test_a_psql_result_with_a_timestamp_column_is_a_table_not_a_log() -> None:
    # Every row's timestamp read as a log line: 36 kB of rows became a Directive showing nothing.
    text = (DATA / "psql-customers-orders.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="query") is ContentKind.TABLE


def test_a_boxed_mysql_result_is_a_table_whatever_its_cells_say() -> None:
    assert detect_kind(MYSQL_BOXED) is ContentKind.TABLE


def test_prose_with_one_markdown_table_is_not_a_grid() -> None:
    prose = """\
The loader reads the file once at start-up.
Each option may be overridden from the environment,
which wins over the file; unknown keys are an error.
See the reference for what every option means and which ones need a restart.
## Examples
A minimal file sets only the address.
"""
    text = "# Options\n\n| name | default |\n|---|---|\n| a | 1 |\n\n" + prose
    assert detect_kind(text) is ContentKind.MARKDOWN


@pytest.mark.parametrize("style", ["long-iso", "full-time"])
def test_a_long_listing_with_iso_dates_is_a_sized_listing_not_a_log(style: str) -> None:
    # Each entry's "2026-12-02 06:06" read as a log timestamp: the listing became a Directive.
    # (A table until ``ls -l`` listings became sized listings: their biggest files first.)
    text = (DATA / "ls-long-iso-usr-bin.txt").read_text(encoding="utf-8")
    if style == "full-time":
        text = re.sub(r"(\d{4}-\d\d-\d\d \d\d:\d\d) ", r"\1:41.123456789 +0000 ", text)
        assert text.count(".123456789 +0000 ") >= 40
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE


BUILD_LOG = "python-build-wcwidth-c-error.txt"  # python -m build: setuptools chatter, one gcc error


@pytest.mark.parametrize("arguments", [{}, {"command": "CIBUILDWHEEL=1 python -m build --wheel"}])
def test_a_build_with_a_compilers_error_is_a_log(arguments: dict[str, Any]) -> None:
    # 110 lines of "copying … -> build/lib…" with one "align.c:37:14: error:" and an "ERROR
    # Backend" line: plain text before, so a Directive that showed none of it
    text = (DATA / BUILD_LOG).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command", arguments=arguments) is ContentKind.LOG


@pytest.mark.parametrize(
    "command",
    ["make -k", "npm ci", "cargo build --release", "pip install -r req.txt", "cd x && go test ./..."],
)
def test_a_build_or_test_command_hints_a_log(command: str) -> None:
    # mostly plain lines, a few with a level word: a log when the command builds or tests
    text = "\n".join([*(f"step {n} done" for n in range(40)), "warning: deprecated flag", "error: failed"])
    assert detect_kind(text, tool_name="run_command", arguments={"command": command}) is ContentKind.LOG
    assert (
        detect_kind(text, tool_name="run_command", arguments={"command": "cat notes.txt"}) is ContentKind.TEXT
    )


def test_erlangs_compiler_diagnostics_make_a_build_log() -> None:
    # erlc -Wall on OTP's tftp with two edits: "src/tftp.erl:298:1: Warning: …" lines (a capital W)
    # and its errors were plain text, a Directive showing none of them
    text = (DATA / "erlc-wall-tftp-edits.txt").read_text(encoding="utf-8")
    command = "erlc -Wall +warn_missing_spec +warn_untyped_record +warn_export_vars -o ebin src/*.erl"
    assert detect_kind(text, tool_name="run_command", arguments={"command": command}) is ContentKind.LOG


def test_r_cmd_checks_ci_job_is_a_log() -> None:
    # ``* checking … ... OK`` under CI timestamps read as Markdown bullets: an 11.9 kB check with
    # a failing testthat expectation was a 354-byte Directive ("nothing stands out").
    text = (DATA / "r-cmd-check-magrittr-ci.log").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    decision = route(text, tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert "Status: 1 ERROR, 1 NOTE" in decision.extract.text
    assert "Failure ('test-aliases.R:25'): the provided aliases work as intended." in decision.extract.text


def test_cups_error_log_with_its_level_letters_and_bracketed_dates_is_a_log() -> None:
    # ``D [03/Dec/2026:13:09:23 +0000] …``: a level letter and an Apache-style date were a table.
    text = (DATA / "cups-error-log-debug-head.log").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG


@pytest.mark.parametrize("name", ["unbound-verbosity4-head.log", "dovecot-auth-debug-head.log"])
def test_service_logs_with_a_programs_own_level_word_are_logs(name: str) -> None:
    # unbound's ``[1796310097] unbound[29134:0] debug: …`` (an epoch, lowercase levels) and dovecot's
    # ``Dec 03 15:02:12 auth: Debug: …`` (a syslog stamp, capitalised levels) were tables
    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG


def test_coverage_per_function_is_a_table_not_a_code_search() -> None:
    # go tool cover -func: every line opens with path:line: as grep -n's do, but holds a function's
    # name and its coverage: a table of figures (it was a code search, grouped by file).
    text = (BENCH_CORPUS / "table-go-tool-cover-func-viper-1101.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE


def test_log_files_read_together_are_a_log_not_a_source_read() -> None:
    # ``tail -n +1 nsd-primary.log nsd-secondary.log``: two ``==> name <==`` headers made it a
    # multi-file source read, summarised as "2 files, 0 definitions" and nothing of the errors.
    text = (BENCH_CORPUS / "log-nsd-461-primary-secondary-tsig-xfr.log").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    summary = summarize(text, ContentKind.LOG, budget=3000).text
    assert "==> nsd-primary.log <==" in summary and "==> nsd-secondary.log <==" in summary
    assert "invalid IPv4 address '10.40.0.300'" in summary


def test_source_files_read_together_stay_a_source_read() -> None:
    files = "".join(
        f"==> pkg/{name}.py <==\n"
        + "".join(f"def {name}_{n}(value):\n    return value + {n}\n\n" for n in range(12))
        for name in ("alpha", "beta", "gamma")
    )
    assert detect_kind(files, tool_name="run_command") is ContentKind.SOURCE


def test_files_read_together_are_a_source_read_when_the_first_is_longer_than_the_sample() -> None:
    # read_multiple_files of four TypeScript files of @tanstack/query-core, the first 1,137 lines
    # long, went to the log summary ("log: 1920 lines, 47 errors", failed before): detection
    # samples the first and last 32 KB, which held one ``path:`` header, and a scoped package's
    # ``@`` kept even that one from reading as a header. Headers are now counted over the text.
    def file(root: str, name: str, functions: int) -> str:
        body = "".join(
            f"export function {name}{n}(options: Options): Promise<void> {{\n"
            f"  const retry = options.retry ?? {n} // throws an error when the query fails\n"
            "  return fetchQuery(options)\n}\n\n"
            for n in range(functions)
        )
        return f"{root}/{name}.ts:\n{body}"

    for root in ("/app/node_modules/@q/core/src", "/app/src"):
        text = "\n---\n".join([file(root, "query", 600), file(root, "retryer", 40), file(root, "cache", 400)])
        assert len(text.split("retryer.ts:")[0]) > 2 * 32 * 1024
        assert detect_kind(text, tool_name="read_multiple_files") is ContentKind.SOURCE, root
        summary = summarize(text, ContentKind.SOURCE, budget=3000).text
        assert "retryer.ts" in summary


def test_indented_hash_lines_of_a_debug_dump_are_no_headings() -> None:
    # FreeRADIUS 3.2 `radiusd -X`: its configuration dump's "  # Loaded module rlm_exec" lines
    # were 133 Markdown headings, and the log of its requests "markdown: 1329 lines".
    from tests.corpora import BENCH_CORPUS

    name = "log-caps-freeradius-321-x-debug-pap-chap-mschap-rejects.log"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is not ContentKind.MARKDOWN
    decision = route(text, tool="run_command", arguments={"command": "freeradius -X"})
    assert isinstance(decision, Summary) and decision.kind is ContentKind.LOG  # text read as a log
    page = "# Title\n\nSome text.\n\n## Usage\n\nRun it.\n\n## Options\n\n- `-v` verbose\n"
    assert detect_kind(page * 20) is ContentKind.MARKDOWN


def test_rs_tinytest_run_is_a_test_log() -> None:
    # tinytest 1.4.1's run_test_dir on digest: its per-file results table closed the output, so
    # it was "table: 355 rows × 3 columns" and no failure's message was shown (failed before).
    from context_mode.summaries import summarize
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "test-capu-tinytest-141-run-test-dir-digest-0631-three-edits.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    shown = summarize(text, ContentKind.LOG, budget=2000).text.splitlines()
    assert "----- FAILED[data]: test_crc32.R<16--16>" in shown
    assert " diff| Mean relative difference: 1.596764" in shown
    assert "Showing 3 out of 279 results: 3 fails, 276 passes (0.3s)" in shown


def test_an_ltrace_is_a_call_trace_read_as_a_log() -> None:
    # ltrace -f -tt of python3 probing extension modules: `python3->getenv("LC_ALL") = nil` lines
    # were "table: 150 rows × 6 columns" cut at its first rows; the failed imports and the loader's
    # error were left out (failed before).
    path = BENCH_CORPUS / "trace-capu-ltrace-073-f-tt-python311-dlopen-extension-probe.txt"
    text = path.read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    shown = summarize(text, ContentKind.LOG, budget=2000).text
    assert "FAILED dbm.gnu No module named '_gdbm', please install the python3-gdbm package" in shown
    assert 'dlerror() = "libzstd.so.2: cannot open shared object file: No such file or directory"' in shown


@pytest.mark.timeout(10)
def test_a_document_opening_with_many_comments_is_read_at_once() -> None:
    # Failed before (by its timeout): the test for an HTML document's opening backtracked through
    # every way to split a head of comments (``<!--.*?-->`` repeated), three and a half times
    # longer for each two more; Tomcat's web.xml, thirty comments under its XML declaration, held
    # detection for minutes.
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' + "".join(
        f"  <!-- {name} servlet: see the deployment descriptor's {name} section -->\n" for name in range(40)
    )
    text = head + "".join(
        f'<servlet-mapping id="{n}"><url-pattern>/x{n}</url-pattern></servlet-mapping>\n' for n in range(200)
    )
    assert detect_kind(text, tool_name="fetch") is not ContentKind.MARKDOWN


def test_a_logfmt_log_is_a_log_not_properties() -> None:
    # Prometheus 2.42's logfmt log (`ts=… caller=main.go:513 level=info msg="…"`): every line a
    # key=value line, it was "properties: 113 keys" and no error was shown (failed before).
    path = BENCH_CORPUS / "log-capw-prometheus-2420-debug-logfmt-scrape-failures-bad-reloads.log"
    text = path.read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    extract = summarize(text, ContentKind.LOG, budget=2500)
    assert extract.outline.startswith("log: 113 lines, 0 failed tests, 6 errors")
    assert any(
        'level=error msg="Failed to apply configuration"' in line for line in extract.text.splitlines()
    )


def test_a_python_logging_log_is_a_log_not_properties() -> None:
    # aiosmtpd -d under logging's default format (``DEBUG:mail.log:('127.0.0.1', 38216) << b'503
    # Error: send HELO first'``): each line's level read as a key, it was "properties: 184 keys"
    # and its warnings were no log's (failed before).
    text = next(BENCH_CORPUS.glob("log-cpm-aiosmtpd-146-*")).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG
    extract = summarize(text, ContentKind.LOG, budget=2500)
    assert extract.outline.startswith("log: 206 lines, 0 failed tests, 0 errors, 2 warnings")
    assert "WARNING:mail.log:('127.0.0.1', 38216) unrecognised: XYZZY" in extract.text.splitlines()


def test_a_csv_with_a_header_is_a_table_whatever_its_rows_open_with() -> None:
    # lnav's SQL over dpkg.log as CSV: every row opens with a timestamp (``2026-12-06
    # 02:20:39.000,cssc:amd64,…``), so it was "log: 180 lines, 0 errors" and its header a log line
    # (failed before).
    text = next(BENCH_CORPUS.glob("rows-cpn-lnav-0111-*")).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TABLE
    extract = summarize(text, ContentKind.TABLE, budget=2500)
    assert extract.outline.startswith(
        "table: 179 rows × 4 columns (unpacked_at, package, version, installed_at)"
    )


def test_pydoclints_rows_under_each_file_are_lint() -> None:
    # pydoclint: the files it checked, then each file's path above its `    60: DOC203: …` rows.
    # The rows were no diagnostics and the output "markdown: 333 lines, no headings" (failed before).
    path = BENCH_CORPUS / "lint-capy-pydoclint-0120-sphinx-style-geopy-241.txt"
    text = path.read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline == "lint: 219 diagnostics, 9 rules, 34 files"
    shown = extract.text.splitlines()
    assert shown[0].startswith("== 219 diagnostics · 9 rules (DOC203 ×66, DOC111 ×63, DOC301 ×35, ")
    assert (
        "    217: DOC101: Method `Point.format`: Docstring contains fewer arguments than in function "
        "signature." in shown
    )


def test_a_boost_test_run_is_a_log_of_its_failures() -> None:
    # Boost.Test's ``unit_test_example_03.cpp(18): error: in "force_division_by_zero": …`` and
    # ``*** 3 failures are detected in the test module …`` read as a manual of four sections
    # ("Running 2 test cases..." its headings) (failed before)
    name = "test-cpe-boost-test-174-log-level-test-suite-debian-doc-examples.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LOG


def test_a_key_repeated_in_one_mapping_is_a_prefix_not_yaml() -> None:
    # ``raco make -vv``: each file's ``checking: …`` lines under a ``"json/main.rkt":`` line. Before:
    # YAML of three top-level keys, 473 bytes of stage 1 for 44 kB: the keys and "…".
    from context_mode.shapes import is_yaml
    from tests.corpora import BENCH_CORPUS

    build = (BENCH_CORPUS / "build-cpq-raco-make-vv-racket-87-json-file-collects-tar-typo.txt").read_text(
        encoding="utf-8"
    )
    assert not is_yaml(build.splitlines())
    decision = route(build, tool="run_command")
    assert isinstance(decision, Summary)
    assert not decision.extract.outline.startswith("yaml:")
    # read as a build's log: what failed, what was written
    assert (
        "  failed reading /tmp/fresh38c_scratch/rkt/json/compiled/main_rkt.dep"
        in decision.extract.text.split("\n")
    )
    # a list of mappings names its keys again in each item: still YAML
    items = "".join(f"- name: item{n}\n  value: {n}\n  tags:\n  - t{n}\n" for n in range(10))
    assert is_yaml(("metadata:\n  name: web\n  labels:\n    app: web\nitems:\n" + items).splitlines())
