"""English function words that carry no meaning in a search query ("the closing time of the bug").

``FUNCTION_WORDS`` is lowercase. A query made only of them keeps them (``"the"`` still searches
for "the"); otherwise they are dropped before ranking, so prose that repeats "of the" does not
outrank the record that holds the query's words.
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
