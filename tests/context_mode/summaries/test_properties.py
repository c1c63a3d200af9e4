"""Properties every summary keeps, on any input: it fits, it is verbatim (or valid JSON), it never raises."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_mode.summaries import summarize
from context_mode.summaries.json_summary import MIN_BUDGET
from context_mode.summaries.packing import is_marker, size, strip_annotation
from context_mode.types import ContentKind
from tests.context_mode.summaries.test_corpus import assert_table_verbatim, assert_values_verbatim
from tests.verbatim import clipped_from

# Fragments of real tool output, so generated payloads reach each summariser's special paths.
FRAGMENTS = [
    "2024-05-01 10:00:00 INFO started",
    "2024-05-01 10:00:01 ERROR failed to connect: timeout",
    "Traceback (most recent call last):",
    '  File "/srv/app.py", line 12, in main',
    "    return run()",
    "ValueError: bad value",
    "\tat com.acme.App.run(App.java:42)",
    "Caused by: java.io.IOException: disk full",
    "src/lib.c:12:5: error: expected ';'",
    "src/lib.c:3:1: note: declared here",
    "  12 |     x = 1",
    "make: *** [Makefile:10: all] Error 2",
    "tests/test_a.py::test_x FAILED",
    "FAILED tests/test_a.py::test_x - AssertionError",
    "E       assert 1 == 2",
    "==== 1 failed, 2 passed in 0.1s ====",
    "src/app.py:10:def handle(request):",
    "src/app.py-11-    return 1",
    "src/app.py=9=class App:",
    "--",
    "diff --git a/x.py b/x.py",
    "--- a/x.py",
    "+++ b/x.py",
    "@@ -1,2 +1,2 @@ def f():",
    "-old",
    "+new",
    "commit 0123456789abcdef0123456789abcdef01234567",
    "Merge: 0123456 89abcde",
    "    subject line",
    "# Heading",
    "Heading",
    "=======",
    "```",
    "ii  bash   5.2-1   amd64   GNU shell",
    "+++-====-=====-=====",
    "a,b,c",
    "",
    "   ",
    "src/a.ts(69,29): error TS2532: Object is possibly 'undefined'.",
    "src/app.py:10: error: Incompatible types in assignment  [assignment]",
    "pkg/mod.py:12:5: F821 Undefined name `text`",
    "F821 Undefined name `text`",
    "  --> pkg/mod.py:12:5",
    "warning: unused variable: `x`",
    "error[E0308]: mismatched types",
    "   = note: `#[warn(clippy::needless_return)]` on by default",
    "/home/u/src/a.js",
    "  30:14  error  'secnds' is not defined  no-undef",
    "✖ 3 problems (2 errors, 1 warning)",
    "Found 112 errors.",
    "2026-11-30T10:15:02.1234567Z \x1b[31mERROR\x1b[0m build failed",
    "… 3 lines …",
    "x [×3]",
    "é" * 300,
    "word " * 100,
]

texts = st.one_of(
    st.text(max_size=400),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60)), max_size=60).map("\n".join),
    st.lists(st.sampled_from(FRAGMENTS), min_size=20, max_size=200).map("\n".join),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=12), children, max_size=8)
    ),
    max_leaves=60,
)
budgets = st.integers(min_value=0, max_value=2500)


def _is_verbatim(line: str, source_lines: set[str]) -> bool:
    if is_marker(line):
        return True
    return any(clipped_from(candidate, source_lines) for candidate in (line, strip_annotation(line)))


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    text=texts, kind=st.sampled_from(list(ContentKind)), budget=budgets, terms=st.lists(st.text(max_size=8))
)
def test_any_summary_fits_its_budget_and_is_verbatim_or_valid_json(
    text: str, kind: ContentKind, budget: int, terms: list[str]
) -> None:
    extract = summarize(text, kind, budget=budget, terms=terms)
    assert size(extract.text) <= budget
    assert "\n" not in extract.outline
    if extract.kind == ContentKind.JSON:
        if budget >= MIN_BUDGET:
            json.loads(extract.text)
        return
    if extract.kind in (ContentKind.ROWS, ContentKind.TREE):
        assert_values_verbatim(extract.text, text, extract.kind)
        return
    if extract.kind == ContentKind.TABLE:
        assert_table_verbatim(extract.text, text)
        return
    source_lines = set(text.splitlines())
    if extract.kind == ContentKind.SNAPSHOT:  # snapshot lines are shown without their indentation
        source_lines |= {line.strip() for line in source_lines}
    for line in extract.text.split("\n") if extract.text else []:
        assert _is_verbatim(line, source_lines), f"not verbatim: {line!r}"


@settings(max_examples=150, deadline=None)
@given(
    value=json_values,
    budget=st.integers(min_value=MIN_BUDGET, max_value=1500),
    indent=st.sampled_from([None, 2]),
)
def test_a_json_summary_always_parses(value: Any, budget: int, indent: int | None) -> None:
    extract = summarize(json.dumps(value, indent=indent), ContentKind.JSON, budget=budget)
    assert extract.kind == ContentKind.JSON
    assert size(extract.text) <= budget
    body = json.loads(extract.text)
    if isinstance(value, dict | list):
        assert type(body) is type(value), "the top-level shape survives"
    if isinstance(value, float) and not math.isfinite(value):
        assert body is None


@settings(max_examples=60, deadline=None)
@given(value=json_values)
def test_a_json_summary_with_room_to_spare_keeps_every_top_level_scalar(value: Any) -> None:
    if not isinstance(value, dict):
        value = {"value": value}
    text = json.dumps(value)
    extract = summarize(text, ContentKind.JSON, budget=len(text.encode()) * 2 + 200)
    body = json.loads(extract.text)
    for key, item in value.items():
        if not isinstance(item, dict | list) and isinstance(item, str) and len(item) < 100:
            assert body[key] == item


# Inputs every summariser must take in stride, whatever the kind it is told.
HARD_INPUTS = [
    pytest.param("x" * 1_000_000, id="1MB-one-line"),
    pytest.param("\n".join(f"E{i % 9} fail x{i}" for i in range(100_000)), id="100k-short-lines"),
    pytest.param("[" * 10_000 + "]" * 10_000, id="json-depth-10k"),
    # Long lines that nearly match a line regex: where a backtracking regex goes quadratic (a
    # line of spaces before a word, a server's key=value event line with digits all through).
    pytest.param("\n".join(" " * 1000 + f"x{chr(97 + i % 26)}" for i in range(300)), id="space-padded-lines"),
    pytest.param(
        "\n".join(("1 a=1 " * 200)[:1000] + f" x{chr(97 + i % 26)}" for i in range(300)), id="key-value-lines"
    ),
    # A minified page: a few lines of 120 kB, an ``=`` every few characters (a search for a
    # logfmt level went over the rest of the line from each: a second on 300 kB).
    pytest.param(
        "\n".join('<a href="/x" class="y">w</a> ' * 4000 for _ in range(5)), id="minified-html-lines"
    ),
]
_JUNIT_LINT_HEAD = '<?xml version="1.0"?>\n<testsuites>\n<testsuite package="org.eslint" name="a.js">\n'
# And one big payload of its own kind for each.
NATIVE_INPUTS = [
    pytest.param(ContentKind.LOG, "ERROR failed: " * 75_000, id="log-1MB-line-of-error-words"),
    pytest.param(ContentKind.JSON, '{"a":' * 10_000 + "1" + "}" * 10_000, id="json-object-depth-10k"),
    pytest.param(ContentKind.JSON, "[" * 3000 + '"' + '\\"' * 100_000, id="json-deep-then-unterminated"),
    pytest.param(
        ContentKind.JSON, json.dumps([{"id": i, "tags": ["a"]} for i in range(30_000)]), id="json-30k"
    ),
    pytest.param(
        ContentKind.CODE_SEARCH, "\n".join(f"a.py:{i}:x = {i}" for i in range(100_000)), id="grep-100k"
    ),
    pytest.param(ContentKind.MARKDOWN, "\n".join(f"# h{i}\ntext {i}." for i in range(50_000)), id="md-100k"),
    pytest.param(
        ContentKind.DIFF, "\n".join(f"@@ -{i} +{i} @@\n-a\n+b" for i in range(30_000)), id="diff-90k"
    ),
    pytest.param(ContentKind.TABLE, "\n".join(f"row{i}  {i}  ok" for i in range(100_000)), id="table-100k"),
    # A linter's JUnit report (rules named past the suite's package): 6,000 failing cases over their
    # properties, and 25,000 cases of which none failed (a clean report: read as text at once).
    pytest.param(
        ContentKind.LINT,
        _JUNIT_LINT_HEAD
        + "".join(
            f'<testcase name="org.eslint.rule{i % 50}" classname="a" line="{i}">\n<properties>\n'
            f'<property name="severity" value="error"/>\n</properties>\n<failure message="m{i % 300}">'
            f"line {i}</failure>\n</testcase>\n"
            for i in range(6000)
        ),
        id="junit-lint-6k-failing",
    ),
    pytest.param(
        ContentKind.LINT,
        _JUNIT_LINT_HEAD + "".join(f'<testcase name="org.eslint.r{i}">\n' for i in range(25_000)),
        id="junit-lint-25k-clean",
    ),
]


def _assert_within_budget(text: str, kind: ContentKind) -> None:
    extract = summarize(text, kind, budget=1500, terms=["x", "fail"])
    assert size(extract.text) <= 1500


# Their speed is measured in bench/pathological.py; a test on a shared machine asserts no timing.
@pytest.mark.parametrize("text", HARD_INPUTS)
@pytest.mark.parametrize("kind", list(ContentKind))
def test_every_summariser_keeps_its_budget_on_hard_inputs(text: str, kind: ContentKind) -> None:
    _assert_within_budget(text, kind)


@pytest.mark.parametrize(("kind", "text"), NATIVE_INPUTS)
def test_each_summariser_keeps_its_budget_on_a_big_payload_of_its_kind(kind: ContentKind, text: str) -> None:
    _assert_within_budget(text, kind)
