"""``diff -y`` / ``sdiff`` output: read as a diff, its changes shown under the lines naming them.

The data are real ``diff -y`` runs (GNU diffutils 3.8) between CPython 3.11.2's and 3.11.7's
``Lib/csv.py``, ``posixpath.py`` (``-W 100 --suppress-common-lines``) and ``pty.py`` (``-t
--left-column``). Before, they were text and source: stage 1 showed the files' unchanged lines.
"""

from __future__ import annotations

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.side_by_side import gutter, mark
from context_mode.summaries.packing import is_marker, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import data
from tests.verbatim import clipped_from

CSV = "diff-y-cpython-csv-3112-3117.txt"
SUPPRESSED = "diff-y-w100-suppress-common-lines-cpython-posixpath-3112-3117.txt"
LEFT_COLUMN = "diff-y-t-left-column-cpython-pty-3112-3117.txt"


@pytest.mark.parametrize(("name", "column"), [(CSV, 62), (SUPPRESSED, 46), (LEFT_COLUMN, 64)])
def test_a_side_by_side_diff_is_a_diff(name: str, column: int) -> None:
    text = data(name)
    assert gutter(text.splitlines()) == column
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF


def test_its_changes_are_its_stage_1_under_the_lines_naming_them() -> None:
    text = data(CSV)
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.kind is ContentKind.DIFF
    assert decision.extract.outline == (
        "side-by-side diff: 454 lines, 4 changes: 17 lines changed (|), 10 removed (<), 0 added (>)"
    )
    shown = decision.extract.text
    # a changed line: 3.11.2's ``doublequote = False`` beside a line of 3.11.7's regex
    changed = '        doublequote = False\t\t\t\t      |\t                               r"((%(delim)s)'
    assert changed in shown
    # a removed line, under the method it is in
    body = "        body = r'(?:(?P=quote){2}|(?!(?P=quote)).)*+'\t      <"
    method = "    def _guess_quote_and_delimiter(self, data, delimiters):"
    assert body in shown and method in shown
    assert shown.index(method) < shown.index(body)
    payload = set(text.splitlines())
    lines = [strip_annotation(line) for line in shown.splitlines()]
    assert all(is_marker(line) or clipped_from(line, payload) for line in lines)


def test_an_added_line_and_a_common_line_of_the_left_column_have_their_marks() -> None:
    lines = data(LEFT_COLUMN).splitlines()
    marks = [mark(line, 64) for line in lines]
    assert marks[0] == "(" and {"<", ">", "|"} <= set(marks)
    decision = route("\n".join(lines), policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert "def _writen(fd, data):" in decision.extract.text


@pytest.mark.parametrize(
    "name", ["psql-customers-orders.txt", "psql-describe-tables.txt", "doctest-v-tabulate-excerpt.txt"]
)
def test_a_table_with_bars_between_its_columns_is_no_side_by_side_diff(name: str) -> None:
    assert gutter(data(name).splitlines()) is None


def test_two_columns_of_a_table_are_no_side_by_side_diff() -> None:
    # every row marked ``|`` and no line added, removed or common on both sides: a table
    rows = [f"name {n:<20} | value {n * 7}" for n in range(30)]
    assert gutter(rows) is None
    # prose mentioning ``a < b`` twice is no gutter either
    prose = ["When the left operand is smaller than the right one, a < b holds.", "x"] * 3
    assert gutter(prose) is None
