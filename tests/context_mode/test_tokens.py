"""Token estimates lean high; calibration turns two usage samples into characters per token."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from context_mode.tokens import (
    MAX_CHARS_PER_TOKEN,
    MIN_CHARS_PER_TOKEN,
    chars_per_token_from_usage,
    estimate_tokens,
)


def test_empty_text_costs_nothing() -> None:
    assert estimate_tokens("") == 0


def test_ascii_text_costs_its_length_over_chars_per_token_rounded_up() -> None:
    assert estimate_tokens("abcdefg") == 3
    assert estimate_tokens("abcdefg", chars_per_token=4.0) == 2
    assert estimate_tokens("a") == 1


def test_every_cjk_character_costs_at_least_one_token() -> None:
    text = "记住务必保持接口兼容"
    assert estimate_tokens(text) >= len(text)
    assert estimate_tokens(text, chars_per_token=6.0) >= len(text)


def test_a_non_positive_chars_per_token_is_refused() -> None:
    with pytest.raises(ValueError, match="chars_per_token"):
        estimate_tokens("abc", chars_per_token=0)


@given(st.text(), st.floats(min_value=1.0, max_value=6.0))
def test_the_estimate_is_never_below_one_token_per_chars_per_token(text: str, chars_per_token: float) -> None:
    assert estimate_tokens(text, chars_per_token=chars_per_token) >= math.floor(len(text) / chars_per_token)


@given(st.text(), st.text())
def test_the_estimate_grows_with_the_text_and_splits_without_loss(first: str, second: str) -> None:
    joined = estimate_tokens(first + second)
    assert joined >= max(estimate_tokens(first), estimate_tokens(second))
    assert joined <= estimate_tokens(first) + estimate_tokens(second)


def test_calibration_is_the_slope_between_two_samples_less_a_margin() -> None:
    # 1000 more characters cost 250 more tokens: 4 chars per token, whatever the fixed overhead.
    assert chars_per_token_from_usage((1000, 300), (2000, 550)) == pytest.approx(4.0 * 0.9)
    assert chars_per_token_from_usage((1000, 300), (2000, 550), margin=1.0) == pytest.approx(4.0)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        pytest.param((100, 10), (200, 11), MAX_CHARS_PER_TOKEN, id="too-many-chars-per-token"),
        pytest.param((100, 10), (200, 300), MIN_CHARS_PER_TOKEN, id="too-few-chars-per-token"),
    ],
)
def test_calibration_is_clamped_to_a_sane_range(
    first: tuple[int, int], second: tuple[int, int], expected: float
) -> None:
    assert chars_per_token_from_usage(first, second) == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param((100, 10), (100, 20), id="same-length"),
        pytest.param((100, 10), (200, 10), id="same-tokens"),
        pytest.param((100, 20), (200, 10), id="negative-slope"),
    ],
)
def test_calibration_refuses_samples_without_a_positive_slope(
    first: tuple[int, int], second: tuple[int, int]
) -> None:
    with pytest.raises(ValueError, match="calibration"):
        chars_per_token_from_usage(first, second)
