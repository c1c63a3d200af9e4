"""Deltas: line hunks and JSON paths that rebuild the new result from the previous one, and when not."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from context_mode.delta import (
    DeltaError,
    apply_json,
    apply_lines,
    compare,
    digest,
    json_delta,
    line_delta,
)

LINES = st.lists(st.sampled_from(["a", "b", "c", "", "  d", "é", "x\r"]), max_size=30)
SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=4)
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4)
    ),
    max_leaves=20,
)
CONTAINERS = st.lists(VALUES, max_size=5) | st.dictionaries(st.text(max_size=3), VALUES, max_size=5)


def strictly(value: Any) -> Any:
    """A form where ``1``, ``1.0`` and ``True`` compare different (as JSON texts do)."""
    return json.dumps(value, sort_keys=True)


@given(LINES, LINES, st.booleans(), st.booleans())
def test_a_line_delta_applied_to_the_previous_text_gives_the_new_text(
    old: list[str], new: list[str], old_newline: bool, new_newline: bool
) -> None:
    previous = "\n".join(old) + ("\n" if old_newline else "")
    current = "\n".join(new) + ("\n" if new_newline else "")
    delta = line_delta(previous, current)
    if previous == current:
        assert delta is None
        return
    assert delta is not None
    assert apply_lines(previous, delta.text) == current


@given(CONTAINERS, CONTAINERS)
def test_a_json_delta_applied_to_the_previous_value_gives_the_new_value(old: Any, new: Any) -> None:
    delta = json_delta(json.dumps(old), json.dumps(new))
    if type(old) is not type(new) or strictly(old) == strictly(new):
        assert delta is None
        return
    assert delta is not None
    assert strictly(apply_json(json.loads(json.dumps(old)), delta.text)) == strictly(new)


def test_a_growing_log_gives_only_the_new_lines_with_a_little_context() -> None:
    log = "".join(f"line {number}\n" for number in range(500))
    delta = compare(log, log + "line 500\nline 501\n", max_bytes=4096)
    assert delta is not None and delta.kind == "lines"
    assert delta.text.split("\n") == [
        "@@ -499,3 +499,5 @@",
        " line 498",
        " line 499",
        "+line 500",
        "+line 501",
        " ",
    ]
    assert (delta.added, delta.removed) == (2, 0)


def test_one_changed_value_in_a_json_document_is_a_path_and_its_old_and_new_values() -> None:
    records = [{"id": number, "status": "ok"} for number in range(200)]
    changed = [dict(record) for record in records]
    changed[42]["status"] = "failed"
    delta = compare(json.dumps(records), json.dumps(changed), max_bytes=4096)
    assert delta is not None and delta.kind == "json"
    assert delta.text == '- $[42].status: "ok"\n+ $[42].status: "failed"'


@pytest.mark.parametrize(
    ("previous", "current"),
    [
        pytest.param("12:00:01\n", "12:00:04\n", id="a-small-result-that-changed"),
        pytest.param(
            "".join(f"{n}\n" for n in range(100)), "".join(f"{n * 7}\n" for n in range(100)), id="mostly"
        ),
    ],
)
def test_no_delta_when_it_would_not_be_much_smaller_than_the_result(previous: str, current: str) -> None:
    assert compare(previous, current, max_bytes=4096) is None


def test_no_delta_beyond_the_byte_limit() -> None:
    log = "".join(f"line {number}\n" for number in range(5000))
    grown = log + "".join(f"new line {number}\n" for number in range(300))
    assert compare(log, grown, max_bytes=4096) is None
    assert compare(log, grown, max_bytes=100_000) is not None


def test_a_delta_that_does_not_fit_the_text_is_refused() -> None:
    delta = line_delta("a\nb\nc\n", "a\nB\nc\n")
    assert delta is not None
    with pytest.raises(DeltaError):
        apply_lines("a\nx\nc\n", delta.text)


def test_keys_that_are_not_identifiers_are_quoted_in_paths() -> None:
    delta = json_delta('{"a b": {"c.d": 1}}', '{"a b": {"c.d": 2}}')
    assert delta is not None and delta.text == '- $["a b"]["c.d"]: 1\n+ $["a b"]["c.d"]: 2'


def test_the_digest_is_the_sha256_of_the_utf8_bytes() -> None:
    assert digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert digest("a") != digest("a\n")
