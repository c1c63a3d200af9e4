"""Whole-text passes find exactly what the line-by-line rules they replace find.

``summaries.code_search`` splits a listing with one regex pass (``_parse_fast``) and scores each
distinct line text once (``_scores``); the JSON outline walks containers only
(``_walk_containers``); ``kinds.detect_kind`` reads the structural flags of its
sample (diff, grep, compiler lines) with one regex pass (``_structural_kind``). Each is checked
against its per-line reference on the shared corpus (skipped without it) and on generated lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_mode.kinds import _PREFIX as KIND_PREFIX
from context_mode.kinds import STRUCTURAL, _flags, _structural_kind, _structural_tally, _structure
from context_mode.summaries.code_search import (
    _columns,
    _parse,
    _parse_fast,
    _path_weight,
    _score,
    _scores,
)
from context_mode.summaries.json_outline import _MAX_STATS_NODES, _walk, _walk_containers
from context_mode.summaries.packing import split_lines
from tests.corpora import payload_params

FRAGMENTS = [
    "src/app.py:12:def request(x):",
    "src/app.py-13-    raise ValueError('bad request')",
    "src/app.py=10=class App:",
    "src/app.py:14:    return request  # comment",
    "my-dir/x-1-y.py:3:import os",
    "my-dir/x-1-y.py-4-    throw new Error()",
    "my-dir/x-1-y.py-5-=6=abort()",
    "a b.py:6:x = 1",
    ":7:orphan",
    "a.py:8x:not a match",
    "--",
    "",
    "src/heading.py",
    "12:def handle(request):",
    "13-    raise KeyError",
    "lib/c.c:4:5: error: expected ';'",
    "lib/c.c:9:1: warning: unused",
    "@@ -1,3 +1,4 @@",
    "diff --git a/x b/x",
    "+++ b/x",
    "commit 0123456789abcdef",
    "    indented = 1",
    "x" * 420 + ":1:tail",
    "src/long.py:1:" + "y = f(" * 90,
    "src/long.py-2-" + "raise Z " * 60,
    "dé/ü.py:3:naïve = 1",
    "a.py:٣:arabic digit",
    "\tpath.py:1:tab",
    "x:y.py:1:z",
    "2024-05-01 10:00:00 x.py:3: note: here",
    "12:30:00 a/b-1-c",
    "   \t ",
    "\u00a0",
]

lines_strategy = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(alphabet=st.sampled_from(list("ab.py/:-=_ 0123456789\t(){}#rase")), max_size=40),
        st.text(max_size=20),
    ),
    max_size=60,
)


def assert_same_hits(lines: Sequence[str]) -> None:
    text = "\n".join(lines)
    split = split_lines(text)
    reference = _parse(split)
    assert list(zip(*_parse_fast(text, split), strict=True)) == reference
    weights = {hit.path: _path_weight(hit.path, 3) for hit in reference}
    for terms in ([], ["request"], ["raise", "x"]):
        words = [re.compile(rf"(?<![\w$]){re.escape(t)}(?![\w$])", re.IGNORECASE) for t in terms]
        expected = [_score(hit, weights, terms, words) for hit in reference]
        assert _scores(_columns(reference), weights, terms, words) == expected


def reference_structural(lines: Sequence[str]) -> object:
    tally: Counter[int] = Counter(_flags(line) for line in lines)
    structure = _structure(tally)
    return None if structure is None else structure.kind


def assert_same_structure(lines: Sequence[str]) -> None:
    cut = [line[:KIND_PREFIX] for line in split_lines("\n".join(lines))]
    assert _structural_tally(cut) == Counter(_flags(line) & STRUCTURAL for line in cut)
    assert _structural_kind(cut) == reference_structural(cut)


@pytest.mark.parametrize("path", payload_params(sample=6))
def test_whole_text_passes_equal_the_line_by_line_rules_on_the_corpus(path: Path) -> None:
    lines = split_lines(path.read_text(encoding="utf-8", errors="replace"))
    assert_same_hits(lines)
    assert_same_structure(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines_strategy)
def test_the_listing_pass_finds_the_hits_and_scores_of_the_line_by_line_parse(lines: list[str]) -> None:
    assert_same_hits(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines_strategy)
def test_the_structure_pass_decides_as_the_per_line_flags_do(lines: list[str]) -> None:
    assert_same_structure(lines)


def test_context_lines_before_their_files_first_match_are_not_hits() -> None:
    lines = ["a.py-1-raise X", "a.py:2:x = 1", "a.py-3-raise Y", "b-c.py-4-raise Z", "b-c.py:5:y"]
    hits = list(zip(*_parse_fast("\n".join(lines), lines), strict=True))
    assert [hit[0] for hit in hits] == [1, 2, 4]
    assert hits == _parse(lines)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=4), children, max_size=6)
    ),
    max_leaves=60,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_container_walk_gives_the_outline_walks_result(value: object) -> None:
    assert _walk_containers(value) == _walk(value)


def test_the_container_walk_gives_up_past_the_node_limit() -> None:
    big = [[0] * 1000 for _ in range(_MAX_STATS_NODES // 1000)]
    assert _walk_containers(big) is None
    assert _walk_containers(big[:-1]) == _walk(big[:-1])
