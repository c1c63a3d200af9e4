"""split_identifiers: camelCase, acronyms, digits and snake_case become words, in linear time."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from context_mode.identifiers import identifier_words, split_identifiers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("getUserName", "get User Name", id="camel"),
        pytest.param("HTTPResponse", "HTTP Response", id="acronym-then-word"),
        pytest.param("parseHTTPResponse", "parse HTTP Response", id="word-acronym-word"),
        pytest.param("snake_case", "snake case", id="snake"),
        pytest.param("Request2", "Request 2", id="letters-digits"),
        pytest.param("2fa", "2 fa", id="digits-letters"),
        pytest.param("URL", "URL", id="acronym-alone"),
        pytest.param("getUserById(id)", "get User By Id(id)", id="call"),
        pytest.param("plain words stay", "plain words stay", id="plain"),
        pytest.param("", "", id="empty"),
        pytest.param("émileZola", "émile Zola", id="non-ascii-prefix"),
        pytest.param("libsqlite3.so.0", "lib sqlite 3.so.0", id="c-library"),
        pytest.param("libxml2-dev libc6 liberal", "lib xml 2-dev libc 6 liberal", id="c-library-names"),
    ],
)
def test_identifier_boundaries_become_spaces(text: str, expected: str) -> None:
    assert split_identifiers(text) == expected


@given(st.text())
def test_splitting_only_inserts_spaces_and_replaces_underscores(text: str) -> None:
    split = split_identifiers(text)
    assert split.replace(" ", "") == text.replace("_", "").replace(" ", "")


def test_a_megabyte_identifier_splits() -> None:  # its timing: bench/pathological.py
    split = split_identifiers("getUserByIdHTTP2_" * 60_000)
    assert split.startswith("get User By Id HTTP 2 ")


_REFERENCE = re.compile(
    r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])"
)


@given(st.text(alphabet="aBcD12_ xYZéÉ-", max_size=60))
def test_the_regex_passes_equal_one_simultaneous_split(text: str) -> None:
    assert split_identifiers(text) == _REFERENCE.sub(" ", text.replace("_", " "))


def test_identifier_words_keep_only_compound_identifiers() -> None:
    text = "call getUserById on HTTPResponse with max_retries=3 and utf8 Title UPPER plain 2024"
    assert identifier_words(text) == "get User By Id HTTP Response max retries utf 8"
