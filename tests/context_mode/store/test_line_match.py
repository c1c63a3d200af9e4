"""Where a line holds terms: its tokens (stems and identifier parts with their spans), near words."""

from __future__ import annotations

import pytest

from context_mode.ansi import ANSI
from context_mode.identifiers import ESCAPE
from context_mode.shapes import RAW_FILE, SVN_PATH
from context_mode.store.line_match import _STATUS_WORDS, _tokens, one_edit_apart
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
    status = RAW_FILE.match(line) or SVN_PATH.match(
        line
    )  # a status letter (``D\tdist/a.js``): its words first
    words = _STATUS_WORDS.get(status["status"][:1], ()) if status is not None else ()
    first = [(stem(word), status.start("status"), status.end("status")) for word in words] if status else []
    line = ANSI.sub(lambda code: " " * len(code.group()), line)
    line = ESCAPE.sub("  ", line)
    plain = [*first, *((stem(m.group()), m.start(), m.end()) for m in TOKEN.finditer(line))]
    split = list(first)
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
        # every file, a few of its lines, each its first 2,000 characters (a one-line megabyte of
        # JSON says no more about spans than its start does, and cost most of the test's time)
        for line in (whole[:2000] for whole in path.read_text().splitlines()[::7][:60])
    ]
    lines += [
        "Ünïcode straße HTTPServer getUserById v1.2.3 ABc aBC x2y 日本語abc abc日本 ９９ab",
        "snake_case __init__ 2a a2",
    ]
    assert len(lines) > 15_000
    for line in lines:
        assert _tokens(line, stem) == _reference_tokens(line), line


def test_a_word_run_together_with_another_matches_at_half_its_weight() -> None:
    from context_mode.store.line_match import PREFIX_SHARE, scan
    from context_mode.store.terms import query_terms

    terms = query_terms("lcov report")
    weights = {term.stems: 2.0 for term in terms}
    # "report" is no prefix of the word: only the query's first word is run together there
    found, spans = scan('"name": "lcovparse.py",', terms, weights, stem)
    assert found == (("lcov", 2.0 * PREFIX_SHARE),) and spans == [(9, 18, 2.0 * PREFIX_SHARE)]
    # both words run together, as the query has them, are both words in full
    found, spans = scan('"name": "lcovreport.py",', terms, weights, stem)
    assert found == (("lcov", 2.0), ("report", 2.0)) and spans == [(9, 19, 2.0), (9, 19, 2.0)]
    assert scan("the lcov format", terms, weights, stem)[0] == (("lcov", 2.0),)  # a word of its own: whole
    assert scan("a lcovr file", terms, weights, stem)[0] == ()  # too little run on: no match


def test_a_word_run_together_after_another_matches_at_half_its_weight() -> None:
    from context_mode.store.line_match import PREFIX_SHARE, scan
    from context_mode.store.terms import query_terms

    terms = query_terms("cli data")
    weights = {term.stems: 2.0 for term in terms}
    found, _ = scan("programs/zstdcli.c coverage/sqldata.py", terms, weights, stem)
    assert found == (("cli", 2.0 * PREFIX_SHARE), ("data", 2.0 * PREFIX_SHARE))
    assert scan("a dcli file", terms, weights, stem)[0] == ()  # too little run on: no match
    # a number's digits end many a number: "status 200" is not a timestamp's end
    numbers = query_terms("status 200")
    found, _ = scan("at 1700000200 the job ran", numbers, {term.stems: 1.0 for term in numbers}, stem)
    assert found == ()


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        (
            "markdown-pandoc-chrony-43-conf.md",
            "markdown",
            "public server example client log limit",
            "clientloglimit 100000000",
        ),
        (
            "tree-filesystem-search-coverage-py.txt",
            "tree",
            "sqlite data storage module path",
            "coverage-7.17.5/coverage/sqldata.py",
        ),
    ],
)
def test_a_name_that_ends_with_the_asked_word_is_found(name: str, kind: str, query: str, answer: str) -> None:
    # chrony's clientloglimit for "log limit", sqldata.py for "data": the word ends a longer one,
    # and neither answer was in the reply before. (chrony's line is among the passages a reply
    # chooses from, ``payload_passages``; which of them a reply of 1.5 kB shows depends on the
    # room the other hits leave.)
    from context_mode.store.passages import payload_passages
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS
    from tests.searching import search
    from tools.doc_tools import SEARCH_BUDGET_BYTES

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    if kind == "markdown":
        passages = payload_passages(text, ContentKind(kind), query, budget=SEARCH_BUDGET_BYTES)
        assert any(answer in passage for passage in passages)
    else:
        assert answer in search(text, ContentKind(kind), {"query": query})


def test_rubocops_offense_in_a_file_named_by_two_words_run_together_is_found() -> None:
    # RuboCop on the rss gem: "the REXML parser file" is lib/rss/rexmlparser.rb; no word of the
    # query was a word of that line, so the reply showed other files' warnings.
    from pathlib import Path

    from context_mode.types import ContentKind
    from tests.searching import search

    text = (Path(__file__).parents[2] / "data" / "rubocop-lint-rss-029.txt").read_text(encoding="utf-8")
    reply = search(text, ContentKind.LINT, {"query": "warning in the REXML parser file"})
    assert "lib/rss/rexmlparser.rb:19:7: W: Lint/ShadowedException" in reply
