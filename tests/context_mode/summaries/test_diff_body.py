"""A diff's lines without its headers are a diff (``summaries.diff_body``): a JSON differ's, a
word diff's, a tree differ's.

Real captures from ``bench/corpus``: ``json-diff`` 1.0.6 between two releases of the
countries-list and devtools-protocol packages, ``jsondiffpatch`` 0.7.7 between two timezones.json,
``wdiff`` and ``dwdiff`` between two releases' files, ``graphtage`` between two tlds releases.
Before, they read as a table, text or Markdown, and stage 1 showed the first lines: none of the
changes that only a few records had.
"""

from __future__ import annotations

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.shapes import is_hunk_body, is_struck_body, is_word_body
from context_mode.summaries.packing import is_marker, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.verbatim import clipped_from

COUNTRIES = "diff-cqa-json-diff-106-countries-list-261-311-countries-min-json.txt"
DEVTOOLS = "diff-caps-json-diff-106-devtools-protocol-1707781-1734725-browser-protocol.txt"
TIMEZONES = "diff-cpg-jsondiffpatch-077-timezones-json-153-172.txt"


def _text(name: str) -> str:
    return (BENCH_CORPUS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [COUNTRIES, DEVTOOLS, TIMEZONES])
def test_a_json_differs_output_is_a_diff(name: str) -> None:
    assert detect_kind(_text(name), tool_name="run_command") is ContentKind.DIFF


def test_a_list_or_a_yaml_document_is_no_headerless_diff() -> None:
    assert not is_hunk_body(["- one", "- two", "  more on two", "- three"])  # no "+" line
    assert not is_hunk_body(["+ one", "- two", "  three", "four", "five", "six"])  # unmarked lines
    assert not is_hunk_body([" {", '+  "a": 1', "-  b: 2", " }"])  # two changes only
    # marks of one side only are no word diff (dar's listing columns, ``[-----]`` and ``[-L-]``)
    assert not is_word_body(["[Saved][-----] [-L-][ 99%][X] a", "[Saved][-----] [-L-][ 99%][X] b"])
    assert not is_word_body(["a {+b+}", "c {+d+}", "e [-f-]"])


def test_the_rare_changes_come_before_the_ones_every_record_has() -> None:
    # Every country's phone and currency turned from a string into a list (250 records each); a
    # few were renamed. Stage 1 shows the renames under their records' lines, and says how many
    # changes are like the first of the 250.
    text = _text(COUNTRIES)
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.kind is ContentKind.DIFF
    shown = decision.extract.text
    assert '+    name: "Eswatini"' in shown and "   SZ: {" in shown
    assert '+    partOf: "FI"' in shown and "+    userAssigned: true" in shown
    assert '-    phone: "376" [×250 like it]' in shown
    assert decision.extract.outline.startswith("diff without file headers: 521 changes, +1569 -512 lines")
    payload = set(text.splitlines())
    lines = [strip_annotation(line) for line in shown.splitlines()]
    assert all(is_marker(line) or clipped_from(line, payload) for line in lines)


def test_a_value_changed_in_place_is_a_change() -> None:
    # jsondiffpatch writes a changed value in place: ``abbr: "EDT" => "EST"``.
    decision = route(_text(TIMEZONES), policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert 'abbr: "EDT" => "EST"' in decision.extract.text
    assert "values changed in place" in decision.extract.outline


WDIFF = "diff-cpa-wdiff-122-no-common-stats-pycodestyle-291-2111-module.txt"
DWDIFF = "diff-cpk-dwdiff-214-l-c3-semantic-version-270-2100-base-py.txt"
WORD_LOG = "gitlog-capm-git-log-p-word-diff-stat-ms-073-300-canary.txt"


@pytest.mark.parametrize("name", [WDIFF, DWDIFF, WORD_LOG])
def test_a_word_diff_without_headers_is_a_diff(name: str) -> None:
    # wdiff's and dwdiff's ``[-old-] {+new+}`` between two releases' files, and a ``git log -p
    # --word-diff``: before, Markdown (wdiff's ``=====`` statistics rule), text, and Markdown.
    assert detect_kind(_text(name), tool_name="run_command") is ContentKind.DIFF


def test_a_word_diffs_changed_lines_are_its_stage_1() -> None:
    text = _text(DWDIFF)
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.extract.outline.startswith(
        "word diff: 36 lines changed"
    )
    assert "class [-BaseSpec:-] {+BaseSpec(object):+}" in decision.extract.text
    assert "[-super().__init__()-] {+super(BaseSpec, self).__init__()+}" in decision.extract.text


def test_a_tree_differs_marks_in_a_json_document_make_a_diff() -> None:
    # graphtage --no-color between two releases of the tlds package's index.json (a real capture):
    # ``~~"avianca"~~,`` is a top-level domain removed. Before, a table of 1,471 rows whose
    # stage 1 showed the first, unchanged, domains.
    text = _text("diff-cqk-graphtage-050-no-color-tlds-npm-1240-1255-index-json.txt")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary) and decision.extract.outline.startswith(
        "tree diff: 34 lines changed"
    )
    assert '    ~~"avianca"~~,' in decision.extract.text
    # PostgreSQL's LIKE operator is ``~~``: psql's CSV rows of operators are no tree diff.
    rows = ["1207,~~,b,name,text,boolean,namelike,0,!~~", "1208,!~~,b,name,text,boolean,namenlike,~~,0"] * 3
    assert not is_struck_body(
        ["oid,oprname,oprkind,oprleft,oprright,oprresult,oprcode,oprcom,oprnegate", *rows]
    )
