"""English function words that carry no meaning in a search query, and a light stemmer.

``FUNCTION_WORDS`` ("the closing time of the bug") is lowercase. A query made only of them
keeps them (``"the"`` still searches for "the"); otherwise they are dropped before ranking, so
prose that repeats "of the" does not outrank the record that holds the query's words.

``light_stem(word, keep=)`` cuts one common English suffix (``timeouts`` -> ``timeout``,
``failing`` -> ``fail``) when at least ``keep`` + 1 letters stay: the cheap matching of the
in-memory rankers (tool search, intent terms); the store uses tantivy's stemmer instead.
"""

from __future__ import annotations

FUNCTION_WORDS = frozenset(
    "a an and are as at be been by do does for from had has have in into is it its of on or "
    "that the their then there these this those to was were what when where which while who "
    "whose why how with".split()
)


def is_function_word(word: str) -> bool:
    """Whether ``word`` (any case) is an English function word."""
    return word.lower() in FUNCTION_WORDS


SUFFIXES = ("ing", "ies", "es", "ed", "s", "ly")


def light_stem(word: str, *, keep: int = 3) -> str:
    """``word`` (lowercase) without its first matching suffix, if more than ``keep`` letters stay."""
    for suffix in SUFFIXES:
        if len(word) > len(suffix) + keep and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
