"""Token estimates that err on the high side, and calibration of characters per token.

Contract: ``estimate_tokens`` never needs a tokenizer and should not under-count for common BPE
vocabularies: ASCII text costs ``chars / chars_per_token`` (default 3.0, below the usual 4 for
English, to leave room for code and identifiers) and every other character costs half its UTF-8
length, so a CJK character counts 1.5 tokens and an emoji 2. The sum is rounded up.

``chars_per_token_from_usage`` turns two measurements from an endpoint (characters sent,
``usage.prompt_tokens`` reported) into a slope, which cancels the chat template's fixed overhead,
then shaves a safety margin and clamps the result to a sane range.
"""

from __future__ import annotations

import math

DEFAULT_CHARS_PER_TOKEN = 3.0
MIN_CHARS_PER_TOKEN = 1.5
MAX_CHARS_PER_TOKEN = 6.0


def estimate_tokens(text: str, *, chars_per_token: float = DEFAULT_CHARS_PER_TOKEN) -> int:
    """Return an upper-leaning token count for ``text``; 0 only for the empty string."""
    if chars_per_token <= 0:
        raise ValueError(f"chars_per_token must be positive, got {chars_per_token}")
    if not text:
        return 0
    ascii_chars = len(text.encode("ascii", "ignore"))
    other_bytes = len(text.encode("utf-8", "surrogatepass")) - ascii_chars
    return max(1, math.ceil(ascii_chars / chars_per_token + other_bytes / 2))


def chars_per_token_from_usage(
    first: tuple[int, int],
    second: tuple[int, int],
    *,
    margin: float = 0.9,
    low: float = MIN_CHARS_PER_TOKEN,
    high: float = MAX_CHARS_PER_TOKEN,
) -> float:
    """Characters per token from two ``(chars, prompt_tokens)`` samples of different length.

    The slope removes the per-request overhead; ``margin`` (< 1) lowers it so estimates stay high.
    Raises ``ValueError`` when the samples cannot give a positive slope.
    """
    (chars1, tokens1), (chars2, tokens2) = first, second
    if chars1 == chars2 or tokens1 == tokens2:
        raise ValueError(f"calibration needs two prompts of different length, got {first} and {second}")
    slope = (chars2 - chars1) / (tokens2 - tokens1)
    if slope <= 0:
        raise ValueError(f"calibration samples {first} and {second} give a non-positive slope")
    return min(high, max(low, slope * margin))
