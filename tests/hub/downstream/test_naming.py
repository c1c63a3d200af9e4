"""Exposed tool names are safe, short, unique and stable."""

from __future__ import annotations

import re

from hub.downstream.naming import MAX_NAME, assign_names, exposed_name

SAFE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def test_names_join_namespace_and_tool_with_a_double_underscore() -> None:
    assert exposed_name("time", "get_current_time") == "time__get_current_time"


def test_unsafe_characters_are_replaced() -> None:
    assert exposed_name("my.server", "read file/now") == "my_server__read_file_now"


def test_long_names_are_cut_to_64_with_a_stable_hash() -> None:
    name = exposed_name(
        "fixture", "a_really_long_tool_name_that_goes_on_and_on_beyond_what_claude_code_allows_x"
    )
    assert SAFE.match(name) and len(name) == MAX_NAME
    assert name == exposed_name(
        "fixture", "a_really_long_tool_name_that_goes_on_and_on_beyond_what_claude_code_allows_x"
    )


def test_collisions_are_resolved_deterministically() -> None:
    keys = [("a.b", "x", "s1"), ("a_b", "x", "s2"), ("a", "b__x", "s3")]
    first = assign_names(keys)
    second = assign_names(list(reversed(keys)))
    assert first == second
    assert len(set(first.values())) == 3
    assert all(SAFE.match(name) for name in first.values())


def test_native_names_are_never_taken_by_downstream_tools() -> None:
    names = assign_names([("doc", "search", "doc")], reserved={"doc__search"})
    assert names[("doc", "search", "doc")] != "doc__search"
