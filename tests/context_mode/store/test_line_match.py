"""Where a line holds terms: its tokens (stems and identifier parts with their spans), near words."""

from __future__ import annotations

import pytest

from context_mode.ansi import ANSI
from context_mode.identifiers import ESCAPE
from context_mode.store.line_match import _tokens, one_edit_apart
from context_mode.store.terms import PART, TOKEN, stem
from tests.corpora import BENCH_CORPUS


@pytest.mark.parametrize(
    ("first", "second", "near"),
    [
        ("bolivian", "bolivia", True),
        ("sicili", "sicilia", True),
        ("cache", "cachf", True),
        ("same", "same", True),
        ("corsica", "cors", False),
        ("ab", "ba", False),
        ("flask", "flake", False),
    ],
)
def test_one_edit_apart(first: str, second: str, near: bool) -> None:
    assert one_edit_apart(first, second) is near
    assert one_edit_apart(second, first) is near


def _reference_tokens(line: str) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """The tokens of a line the plain way: each token's stem and span, then its identifier parts.

    ANSI codes and a string's escapes are blanked first, offsets kept: ``\x1b[22mlazy`` holds the
    word ``lazy``, ``%r\\nhook`` the word ``hook``."""
    line = ANSI.sub(lambda code: " " * len(code.group()), line)
    line = ESCAPE.sub("  ", line)
    plain = [(stem(m.group()), m.start(), m.end()) for m in TOKEN.finditer(line)]
    split = []
    for m in TOKEN.finditer(line):
        parts = list(PART.finditer(m.group()))
        word = m.group()
        if (
            len(parts) <= 1
            or word.isdigit()
            or (word.isalpha() and (word.islower() or word.isupper() or word.istitle()))
        ):
            split.append((stem(word), m.start(), m.end()))
        else:
            split.extend((stem(p.group()), m.start() + p.start(), m.start() + p.end()) for p in parts)
    return plain, split


def test_the_tokens_of_a_line_are_its_stems_and_identifier_parts_with_their_spans() -> None:
    # best_lines matches terms on these tokens: a span off by one cuts a shown line wrongly.
    lines = [
        line
        for path in sorted(BENCH_CORPUS.iterdir())
        if path.is_file()
        for line in path.read_text().splitlines()[::7]
    ]
    lines += [
        "Ünïcode straße HTTPServer getUserById v1.2.3 ABc aBC x2y 日本語abc abc日本 ９９ab",
        "snake_case __init__ 2a a2",
    ]
    assert len(lines) > 15_000
    for line in lines:
        assert _tokens(line, stem) == _reference_tokens(line), line
