"""Where a line holds a query's terms: matched on stems, as written or with identifiers split.

A line is tokenised as tantivy's simple tokenizer cuts text (letters and digits; ANSI colour
codes are skipped, so ``\\x1b[22mlazy`` holds ``lazy``), each token stemmed with the index's
English stemmer (``terms.stem_of``). A ``Term`` is held where its stems stand in a row, else its
identifier-split stems in a row (``LocalProxy`` matches ``local proxy``), else one of its
alternatives as an identifier's part (a short form, ``max_retries`` for "maximum", or the word run
together with its neighbour in the query, ``columnheader`` for "column header"); a term the index
lacks (``Term.near``) also matches a word one edit away (``one_edit_apart``); else, at
``PREFIX_SHARE`` of its weight, a longer word it starts or ends (``lcovreport``, ``zstdcli``).

- ``scan(line, terms, weight, stemmer)`` is the terms a line holds, as ``Matched`` (each term's
  key, its stems joined by spaces, with its weight), and the spans of the first few occurrences
  of each (for ``cutting.cut``; in a line longer than ``_LONG_LINE``, up to ``_MAX_SPANS_LONG``).
- ``terms_held(text, terms)`` is the stems of the terms a text holds, matched the same way.
- ``worth_of(matched)`` sums the weights; ``union(groups)`` merges matches, each term once.

Linear in the line; never raises on a ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from context_mode.ansi import ANSI
from context_mode.identifiers import ESCAPE
from context_mode.shapes import RAW_FILE, SVN_PATH
from context_mode.store.cutting import Span
from context_mode.store.terms import PART, Term, stem_of

# A line's words, and as tokens of their own (skipped) its ANSI codes and a string's escapes:
# ``\x1b[22mlazy`` holds ``lazy``, ``"Plugin %r\\nhook %r"`` holds ``hook``.
_LINE_TOKEN = re.compile(rf"{ANSI.pattern}|{ESCAPE.pattern}|[^\W_]+")
_MAX_SPANS = 4  # occurrences of one term looked at when cutting a line
# A line this long (a paragraph on one line) is cut to its sentences that hold the terms: every
# occurrence of a term, up to ``_MAX_SPANS_LONG``, counts there, or a later sentence that holds the
# answer with the terms would hold none of them for the cut.
_LONG_LINE = 320
_MAX_SPANS_LONG = 64
# A word found only run together with another (``lcovreport`` for "lcov", ``zstdcli`` for "cli")
# counts this share of it, when the other has at least ``_PREFIX_REST`` letters and the word at
# least ``_PREFIX_MIN`` letters at the start or ``_SUFFIX_MIN`` at the end.
PREFIX_SHARE = 0.5
_PREFIX_MIN = 4
_PREFIX_REST = 3
_SUFFIX_MIN = 3

# A file's status in a change list (``git log --raw``'s ``:100644 000000 639ca2f 0000000 D\tdist/a.js``,
# ``--name-status``' ``D\tdist/a.js``, ``svn log -v``'s ``   D /trunk/a.js``) says in a letter what a
# question says in a word: "the bundle removed", "the script added". Both patterns name it ``status``.
_STATUS_WORDS = {
    "A": ("added", "new"),
    "D": ("deleted", "removed"),
    "M": ("modified", "changed"),
    "R": ("renamed", "moved"),
    "C": ("copied",),
}
Matched = tuple[tuple[str, float], ...]  # per term held: its key (stems joined by spaces), its weight
_Token = tuple[str, int, int]  # a stem, where its word (or identifier part) starts and ends


def worth_of(matched: Matched) -> float:
    """The sum of the matched terms' weights."""
    return sum(w for _, w in matched)


def union(groups: Iterable[Matched]) -> Matched:
    """The terms of all ``groups``, each once (with its last weight), in order of first match."""
    merged: dict[str, float] = {}
    for group in groups:
        merged.update(group)
    return tuple(merged.items())


def _tokens(line: str, stemmer: Callable[[str], str]) -> tuple[list[_Token], list[_Token]]:
    """The line's stems with their spans, as written and with identifiers split (a file's status
    letter in a change list, ``D``, also as the words it stands for: ``_STATUS_WORDS``)."""
    plain: list[_Token] = []
    split: list[_Token] = []
    status = RAW_FILE.match(line) or SVN_PATH.match(line)
    if status is not None:
        for word in _STATUS_WORDS.get(status["status"][:1], ()):
            plain.append((stemmer(word), status.start("status"), status.end("status")))
            split.append(plain[-1])
    for token in _LINE_TOKEN.finditer(line):
        word = token.group()
        if word[0] in "\x1b\\":
            continue
        plain.append((stemmer(word), token.start(), token.end()))
        if word.isdigit() or (word.isalpha() and (word.islower() or word.isupper() or word.istitle())):
            split.append(plain[-1])  # nothing to split: most words take this cheap path
            continue
        parts = list(PART.finditer(word))
        if len(parts) <= 1:
            split.append(plain[-1])
            continue
        offset = token.start()
        split.extend((stemmer(part.group()), offset + part.start(), offset + part.end()) for part in parts)
    return plain, split


def terms_held(text: str, terms: Sequence[Term]) -> set[tuple[str, ...]]:
    """The stems of the ``terms`` that ``text`` holds (as ``best_lines`` matches them: stems in a
    row, or identifier parts in a row)."""
    tokens = _indexed(text, stem_of)
    return {term.stems for term in terms if _holds(tokens, term)}


class _Indexed(NamedTuple):
    """A line's tokens as written and with identifiers split, each with where each stem starts."""

    plain: list[_Token]
    split: list[_Token]
    plain_at: dict[str, list[int]]
    split_at: dict[str, list[int]]


def _indexed(line: str, stemmer: Callable[[str], str]) -> _Indexed:
    plain, split = _tokens(line, stemmer)
    plain_at = _starts(plain)
    return _Indexed(plain, split, plain_at, plain_at if split == plain else _starts(split))


def _starts(tokens: Sequence[_Token]) -> dict[str, list[int]]:
    at: dict[str, list[int]] = {}
    for index, token in enumerate(tokens):
        at.setdefault(token[0], []).append(index)
    return at


def _holds(line: _Indexed, term: Term, most: int = _MAX_SPANS) -> list[tuple[int, int]]:
    """Where ``line`` holds ``term``: its stems in a row, else its split stems in a row, else one
    of its alternatives as an identifier's part (``max_retries`` for "maximum", ``columnheader``
    for "column" beside "header")."""
    found = _find(line.plain, line.plain_at, term.stems, most) or _find(
        line.split, line.split_at, term.split, most
    )
    for other in term.alternatives:
        if found:
            break
        found = _find(line.split, line.split_at, (other,), most)
    return found


def scan(
    line: str, terms: Sequence[Term], weight: Mapping[tuple[str, ...], float], stemmer: Callable[[str], str]
) -> tuple[Matched, list[Span]]:
    """The terms ``line`` holds (key, weight) and where they are."""
    tokens = _indexed(line, stemmer)
    most = _MAX_SPANS_LONG if len(line) > _LONG_LINE else _MAX_SPANS
    found: list[tuple[str, float]] = []
    spans: list[Span] = []
    for term in terms:
        at = _holds(tokens, term, most)
        share = 1.0
        if not at and term.near:
            at = _find_near(tokens.plain, term.stems[0], most)
        if not at and len(term.stems) == 1 and len(term.stems[0]) >= min(_PREFIX_MIN, _SUFFIX_MIN):
            at, share = _find_prefixed(tokens.plain, term.stems[0], most), PREFIX_SHARE
        if at:
            w = weight[term.stems] * share
            found.append((" ".join(term.stems), w))
            spans.extend((start, end, w) for start, end in at)
    return tuple(found), spans


def _find_prefixed(tokens: Sequence[_Token], stem: str, most: int = _MAX_SPANS) -> list[tuple[int, int]]:
    """Character spans of the first few words run together from ``stem`` and another
    (``lcovreport`` for "lcov", ``asyncpg`` for "async"), or from another and ``stem``
    (``zstdcli`` for "cli", ``libdebuginfod`` for "debuginfod")."""
    starts = len(stem) >= _PREFIX_MIN
    ends = len(stem) >= _SUFFIX_MIN and stem.isalpha()  # a number's digits end many a number
    spans = [
        (start, end)
        for token, start, end in tokens
        if len(token) >= len(stem) + _PREFIX_REST
        and (
            starts
            and token.startswith(stem)
            or ends
            and token.endswith(stem)
            and token[-len(stem) - 1].isalpha()
        )
    ]
    return spans[:most]


def _find_near(tokens: Sequence[_Token], stem: str, most: int = _MAX_SPANS) -> list[tuple[int, int]]:
    """Character spans of the first few tokens one edit away from ``stem``."""
    spans = [(start, end) for token, start, end in tokens if one_edit_apart(token, stem)]
    return spans[:most]


def one_edit_apart(first: str, second: str) -> bool:
    """Whether two words differ by one insertion, deletion or substitution (or not at all)."""
    if abs(len(first) - len(second)) > 1:
        return False
    if len(first) > len(second):
        first, second = second, first
    at = 0
    while at < len(first) and first[at] == second[at]:
        at += 1
    if len(first) == len(second):
        return first[at + 1 :] == second[at + 1 :]
    return first[at:] == second[at + 1 :]


def _find(
    tokens: Sequence[_Token], starts: Mapping[str, list[int]], stems: Sequence[str], most: int = _MAX_SPANS
) -> list[tuple[int, int]]:
    """Character spans of the first few runs of ``stems`` in ``tokens`` (``starts``: where each
    stem stands in them)."""
    if not stems:
        return []
    size = len(stems)
    spans: list[tuple[int, int]] = []
    for index in starts.get(stems[0], ()):
        if index + size <= len(tokens) and all(tokens[index + k][0] == stems[k] for k in range(1, size)):
            spans.append((tokens[index][1], tokens[index + size - 1][2]))
            if len(spans) >= most:
                break
    return spans
