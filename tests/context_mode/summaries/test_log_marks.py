from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.summaries.log_marks import find, holds, search

# Few distinct chars, so that past a few dozen places of one the search moves to the next char
# and then to ``str.find``.
PIECES = ["a", "ab", "ba", "b", " ", "\n", "abc", "% time ", "x", "é", "✓"]
texts = st.lists(st.sampled_from(PIECES), max_size=400).map("".join)
literals = st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join)


@settings(max_examples=300, deadline=None)
@given(texts, literals, st.integers(min_value=0, max_value=500))
def test_find_is_str_find(text: str, literal: str, start: int) -> None:
    assert find(text, literal, start) == text.find(literal, start)


@settings(max_examples=100, deadline=None)
@given(texts, st.lists(literals, max_size=3))
def test_holds_is_in(text: str, wanted: list[str]) -> None:
    assert holds(text, *wanted) == any(literal in text for literal in wanted)


def span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return None if match is None else match.span()


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("ab " * 2000 + "abbc", id="late"),
        pytest.param("abx " * 2000, id="absent"),
        pytest.param("ab\n" * 2000 + "% time  seconds\n", id="after-frequent-chars"),
    ],
)
@pytest.mark.parametrize(
    ("pattern", "lead"), [(re.compile(r"ab+c"), "ab"), (re.compile(r"% time +seconds"), "% time ")]
)
def test_search_is_pattern_search(text: str, pattern: re.Pattern[str], lead: str) -> None:
    for start in (0, 1, len(text) // 2):
        assert span(search(pattern, lead, text, start)) == span(pattern.search(text, start))
