"""The query side of search: what the index is asked, and the lines of found chunks shown back.

A search finds chunks; the agent needs the exact line. Four steps:

- ``index_queries(query)`` builds the tantivy query strings: quoted phrases and words, a word
  with inner punctuation (``4.18.2``, ``web.xml``, ``body-parser``, ``request_started``) being
  a phrase of its parts; the same with identifiers split (for the ``body_split`` field); and
  each pair of neighbouring words as a phrase allowing one word between them.
- ``exact_query(query)`` is the phrase query of its versions, codes and addresses, which the
  index boosts (their parts are common numbers, so BM25 alone ranks them low).
- ``query_terms(query)`` parses the query the same way into ``Term``s (stems in order).
  Both drop English function words (``context_mode.words``) unless the query has nothing else.
- ``best_lines(text, terms, weights, heading=...)`` finds the passages of one chunk that hold
  query terms, matched on stems (the index's English stemmer) as written or with identifiers
  split (``LocalProxy`` matches ``local proxy``). A passage is one line, or a line and the next
  when each has terms the other lacks (a sentence wrapped over two lines); a passing test's line
  (``--- PASS``, ``=== RUN``, ``… ok``) is worth ``CHATTER_SHARE`` of its terms. A term's weight is
  its inverse document frequency, cut to ``HEADING_SHARE`` when the chunk's heading path
  already holds it (the heading is shown with the hit, so a line repeating it adds little).
  A chunk of a few short lines (a commit header, a small record) is one passage, shown whole.
- ``choose_lines(hits, budget)`` picks passages across hits, best first: a passage is worth its
  terms' weights, each halved for every passage already chosen that showed it (so ten lines
  naming the same thing do not crowd out the one line with the other word), times the square
  root of its hit's score relative to the best hit. Passages worth less than ``WEAK_SHARE`` of
  the first are left out. Room still left goes to the shown hits' lines next to their shown
  ones (up to ``FILL_REACH`` away, nearest first, best hit first): the answer often sits beside
  the lines that repeat the query, where no query word reaches it.

Lines are verbatim without their indentation; a line longer than ``width`` characters is cut to
the ``width`` characters around its heaviest matches, with ``…`` where it was cut. Everything is
linear in the chunk (at most a few kB) and never raises on a ``str``.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import tantivy

from context_mode.ansi import ANSI
from context_mode.identifiers import split_identifiers
from context_mode.store.cutting import LINE_WIDTH, Span, cut
from context_mode.store.excerpts import unit_lines
from context_mode.store.json_fields import Member, members, record_fields, scope
from context_mode.store.values import LineMatch, SearchHit
from context_mode.words import ABBREVIATIONS, is_function_word

SMALL_CHUNK_BYTES = 360
SMALL_CHUNK_LINES = 8
MAX_TERMS = 32
HEADING_SHARE = 0.3
WEAK_SHARE = 0.1
CHATTER_SHARE = 0.3
# What a term is still worth in a passage once it has been shown (each time): the answer line
# often repeats a term the first passages showed ("dump.c:39:12: error: …" under other errors).
# 0.5 -> 0.7 took search-only reach from 236 to 244 of 351 facts on dev, 235 to 250 of 379 on holdout.
SHOWN_TERM_DECAY = 0.7
FILL_REACH = 6  # lines each side of a hit's shown lines that may fill a reply's room left
_CHATTER = re.compile(
    r"\s*+(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- PASS\b|PASS(?:ED)?\b|ok +\S|✓|√|\S.* \.\.\. ok$|\S.* PASSED\b)"
)

_ANALYZER = (  # the chain of tantivy's en_stem tokenizer, which the index uses for text
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.remove_long(40))
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)
# A quoted phrase, or a word that may hold inner punctuation (4.18.2, web.xml, request_started).
QUERY_PART = re.compile(r'"([^"]*)"|([^\W_]+(?:[_.\-/:@#+][^\W_]+)*)')
# A token as tantivy's simple tokenizer cuts them: letters and digits.
TOKEN = re.compile(r"[^\W_]+")
# A line's words, and its ANSI codes as tokens of their own (skipped): ``\x1b[22mlazy`` holds ``lazy``
_LINE_TOKEN = re.compile(rf"{ANSI.pattern}|[^\W_]+")
_WORD = re.compile(r"\w+")
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W_0-9A-Za-z]+")
_MAX_SPANS = 4  # occurrences of one term looked at when cutting a long line
_MAX_PASSAGES = 400  # per chunk: plenty for a budget of a few lines
_MAX_OFFERS = 60  # passages per hit that compete for the budget
_MAX_UNITS = 4  # best passages per hit given their unit's lines: few fit the budget anyway
_RUN_LINES = 3  # neighbouring lines holding one term that make a run (its first and last are shown)
FIELDS_LINE = -2  # a record's named fields joined on one line, shown first (a record card is -1)


@dataclass(frozen=True, slots=True)
class Term:
    """One query unit: a word, a punctuated word or a quoted phrase, as stems in order."""

    text: str
    stems: tuple[str, ...]  # as the index tokenizes it
    split: tuple[str, ...]  # with identifier parts split (getUserById -> get user by id)
    near: bool = False  # a word the index lacks: matches a word one edit away (Bolivian ~ Bolivia)
    alternatives: tuple[str, ...] = ()  # stems of its short forms (``words.ABBREVIATIONS``): arg, cfg

    @property
    def probes(self) -> tuple[str, ...]:
        """Lowercase text a line must contain to hold this term: the start of its first stems.

        The English stemmer only ever changes the last two characters of what it keeps of a word
        (``proxy`` -> ``proxi``, ``sensibility`` -> ``sensibl``, ``hoping`` -> ``hope``), so a
        stem less its last two characters is in the word (at least its first three, less the
        last one, for short stems; the few irregular forms such as ``dying`` -> ``die`` are the
        price of a check that skips most lines at C speed). A word matched one edit away can
        differ anywhere past its first letters: its probe is three characters at most.
        """
        return tuple(
            {
                probe(self.stems[0], self.near),
                *([probe(self.split[0], self.near)] if self.split else []),
                *(probe(other) for other in self.alternatives),
            }
        )

    @property
    def probe_sets(self) -> tuple[tuple[str, ...], ...]:
        """Per way a line can hold the term (its stems in a row, or its split stems), the probes of
        all those stems: a line that holds the term holds every probe of one set."""
        sets = [tuple(probe(part, self.near) for part in self.stems)]
        if self.split and self.split != self.stems:
            sets.append(tuple(probe(part, self.near) for part in self.split))
        sets.extend((probe(other),) for other in self.alternatives)
        return tuple(sets)


def stem(word: str) -> str:
    """The index's stem of one token (lowercased, English-stemmed), or "" for an over-long token."""
    found = _ANALYZER.analyze(word)
    return found[0] if found else ""


def query_terms(query: str) -> list[Term]:
    """The query's units: quoted phrases, and words (a punctuated word is a phrase of its parts)."""
    terms: list[Term] = []
    seen: set[tuple[str, ...]] = set()
    keep_all = _only_function_words(query)
    for match in QUERY_PART.finditer(query):
        text = match.group(1) if match.group(1) is not None else match.group(2)
        if match.group(2) is not None and not keep_all and is_function_word(text):
            continue
        stems = tuple(_stems(text))
        if not stems or stems in seen:
            continue
        seen.add(stems)
        others = _alternatives().get(stems[0], ()) if len(stems) == 1 else ()
        terms.append(Term(text, stems, tuple(_split_stems(text)), alternatives=others))
        if len(terms) >= MAX_TERMS:
            break
    return terms


@functools.cache
def _alternatives() -> dict[str, tuple[str, ...]]:
    """``words.ABBREVIATIONS`` by the stem of the full word, as stems (``argument``: arg, argv)."""
    found: dict[str, tuple[str, ...]] = {}
    for full, forms in ABBREVIATIONS.items():
        stems = tuple(dict.fromkeys(s for form in forms if (s := stem(form)) and len(s) >= 2))
        found[stem(full)] = tuple(s for s in stems if s != stem(full))
    return found


def alternative_words(terms: Sequence[Term]) -> str:
    """The short forms of the terms, as a query for the index (``arg argv cfg``)."""
    return " ".join(dict.fromkeys(other for term in terms for other in term.alternatives))


def index_queries(text: str) -> tuple[str, str, str]:
    """The queries for the plain fields, for the split-identifier field, and for adjacent words.

    A word with inner punctuation (``4.18.2``, ``web.xml``, ``request_started``) is a phrase of
    its parts. Each pair of neighbouring words is also a phrase allowing one word between them,
    so a chunk that has the query's words together ranks above one that has them scattered.
    """
    plain: list[str] = []
    split: list[str] = []
    units: list[str | None] = []  # the words of each unquoted unit, for the adjacent pairs
    keep_all = _only_function_words(text)
    for match in QUERY_PART.finditer(text):
        if match.group(2) is not None and not keep_all and is_function_word(match.group(2)):
            continue
        if match.group(1) is not None:
            words = _WORD.findall(match.group(1))
            if words:
                plain.append('"' + " ".join(words).lower() + '"')
                split.append('"' + " ".join(split_identifiers(word) for word in words).lower() + '"')
                units.append(None)
        else:
            parts = TOKEN.findall(match.group(2))
            joined = " ".join(parts).lower()
            plain.append(joined if len(parts) == 1 else f'"{joined}"')
            pieces = split_identifiers(" ".join(parts)).lower().split()
            split.append(pieces[0] if len(pieces) == 1 else '"' + " ".join(pieces) + '"')
            units.append(joined)
        if len(plain) >= MAX_TERMS:
            break
    pairs = [
        f'"{first} {second}"~1'
        for first, second in itertools.pairwise(units)
        if first is not None and second is not None
    ]
    return " ".join(plain), " ".join(split), " ".join(pairs)


def exact_query(text: str) -> str:
    """The query's punctuated words that hold a digit (``13.7.1``, ``IT-82``, ``10.0.0.1:80``) as phrases.

    Such a word names one thing exactly (a version, a code, an address), but its parts are
    common numbers, so a phrase of them scores low in BM25; the index boosts this query.
    """
    found = [
        '"' + " ".join(TOKEN.findall(word)).lower() + '"'
        for match in QUERY_PART.finditer(text)
        if (word := match.group(2)) is not None and is_exact(word)
    ]
    return " ".join(found[:MAX_TERMS])


def is_exact(word: str) -> bool:
    """A word of several parts holding a digit: a version, a code, an address."""
    return any(char.isdigit() for char in word) and len(TOKEN.findall(word)) > 1


def best_lines(
    text: str,
    terms: Sequence[Term],
    weights: Mapping[tuple[str, ...], float],
    *,
    heading: str = "",
    width: int = LINE_WIDTH,
) -> tuple[LineMatch, ...]:
    """The chunk's passages that hold query terms, best first (see module doc)."""
    stemmer = _stem_of
    in_heading = terms_held(heading, terms) if heading else set()
    weight = {
        term.stems: weights.get(term.stems, 1.0) * (HEADING_SHARE if term.stems in in_heading else 1.0)
        for term in terms
    }
    rows = [(number, line) for number, line in enumerate(text.splitlines()) if line.strip()]
    small = len(text.encode("utf-8", "surrogatepass")) <= SMALL_CHUNK_BYTES and len(rows) <= SMALL_CHUNK_LINES
    may_hold = _line_filter_of(tuple(terms))
    scanned = [
        (number, line, *_scan(line, terms, weight, stemmer))
        if small or may_hold(line)
        else (number, line, (), [])
        for number, line in rows
    ]
    if small:
        matched = _union(found for *_, found, _ in scanned)
        if not matched:
            return ()
        text = "\n".join(_cut(line, spans, width) for _, line, _, spans in scanned)
        return (LineMatch(scanned[0][0], text, _worth(matched), matched, len(scanned)),)
    passages: list[LineMatch] = []
    for order, (number, line, found, spans) in enumerate(scanned):
        if not found:
            continue
        shown = _cut(line, spans, width)
        # A passing test's line (``--- PASS``, ``=== RUN``, ``… ok``) rarely answers: a failure does.
        worth = _worth(found) * (CHATTER_SHARE if _CHATTER.match(line) else 1.0)
        passages.append(LineMatch(number, shown, worth, found))
        if order + 1 < len(scanned):
            after_number, after_line, after_found, after_spans = scanned[order + 1]
            mine, theirs = {key for key, _ in found}, {key for key, _ in after_found}
            if theirs - mine and mine - theirs and after_number == number + 1:
                both = _union([found, after_found])
                joined = shown + "\n" + _cut(after_line, after_spans, width)
                passages.append(LineMatch(number, joined, _worth(both), both, 2))
        if len(passages) >= _MAX_PASSAGES:
            break
    fields = _fields_passage(text, scanned, terms, weight, stemmer)
    if fields is not None:
        passages.append(fields)
    passages.sort(key=lambda passage: (-passage.score, passage.number, passage.lines))
    return tuple(
        replace(passage, unit=(*passage.unit, *_run_ends(scanned, passage, width)), grows=True)
        if order < _MAX_UNITS
        else passage
        for order, passage in enumerate(passages)
    )


def _run_ends(
    scanned: Sequence[tuple[int, str, Matched, list[Span]]], passage: LineMatch, width: int
) -> list[tuple[int, str]]:
    """The first and last lines of the run of neighbouring lines holding the passage's heaviest term.

    Rows of one thing (a country's years, a package's versions) hold the same name; the question
    is often about the first or the last of them.
    """
    if not passage.matched or passage.number < 0:
        return []
    heaviest = max(passage.matched, key=lambda item: item[1])[0]
    at = next((i for i, row in enumerate(scanned) if row[0] == passage.number), None)
    if at is None:
        return []

    def holds(index: int) -> bool:
        return any(key == heaviest for key, _ in scanned[index][2])

    first = last = at
    while first > 0 and scanned[first - 1][0] == scanned[first][0] - 1 and holds(first - 1):
        first -= 1
    while last + 1 < len(scanned) and scanned[last + 1][0] == scanned[last][0] + 1 and holds(last + 1):
        last += 1
    if last - first < _RUN_LINES - 1:
        return []
    return [
        (scanned[i][0], _cut(scanned[i][1], scanned[i][3], width))
        for i in (first, last)
        if not passage.number <= scanned[i][0] < passage.number + passage.lines
    ]


def record_card(
    text: str, terms: Sequence[Term], weights: Mapping[tuple[str, ...], float]
) -> LineMatch | None:
    """The fields of a record's first chunk that the query names, as a passage (number -1).

    For a hit in a later chunk of a record cut open (its body, say): the record's identity and
    the field asked for ("closing time" -> ``closed_at``) sit in its first chunk.
    """
    found = members(text)
    if not found:
        return None
    stemmer = _stem_of
    shown, worth, keys = _fields(text, found, terms, weights, stemmer)
    if not shown:
        return None
    # As a fields passage: the terms the card holds (the record's name), and its named fields again.
    matched = _union(
        [keys, _scan(shown, terms, {term.stems: weights.get(term.stems, 1.0) for term in terms}, stemmer)[0]]
    )
    return LineMatch(-1, shown, _worth(matched) + worth, matched)


def choose_lines(
    hits: Sequence[SearchHit], budget: int, *, heading_bytes: Sequence[int] = (), overhead: int = 3
) -> dict[int, list[LineMatch]]:
    """Lines to show per hit (by its index in ``hits``), in chunk order, within ``budget`` bytes.

    See the module doc for the choice. A hit shown costs its heading line once (``heading_bytes``
    of each hit, as the caller renders it), and each line its bytes plus ``overhead``.
    """
    if not hits:
        return {}
    top = max(hits[0].score, 1e-9)
    factors = [math.sqrt(max(hit.score, 0.0) / top) for hit in hits]
    shown_terms: Counter[str] = Counter()

    def value(rank: int, passage: LineMatch) -> float:
        # A passage marked down in ``best_lines`` (a passing test's line) stays marked down here.
        worth = _worth(passage.matched)
        share = min(1.0, passage.score / worth) if worth > 0 else 1.0
        fresh = sum(w * SHOWN_TERM_DECAY ** shown_terms[key] for key, w in passage.matched)
        return factors[rank] * share * fresh

    # Lazy greedy: a passage's value only falls as terms get shown, so a popped value that still
    # beats the next one in the heap is the true best (the usual trick for diminishing returns).
    heap = [
        (-value(rank, passage), rank, order, passage)
        for rank, hit in enumerate(hits)
        for order, passage in enumerate(hit.lines[:_MAX_OFFERS])
    ]
    heapq.heapify(heap)
    shown_lines: set[tuple[int, int]] = set()
    chosen: dict[int, list[LineMatch]] = {}
    chunk_lines: dict[int, list[str]] = {}  # each offered hit's chunk, split once
    used = 0
    first = 0.0
    while heap:
        negative, rank, order, passage = heapq.heappop(heap)
        current = value(rank, passage)
        if heap and current < -heap[0][0] and current < -negative:
            heapq.heappush(heap, (-current, rank, order, passage))
            continue
        if current <= 0 or current < WEAK_SHARE * first:
            break
        first = first or current
        own = [(passage.number + k, line) for k, line in enumerate(passage.text.split("\n"))]
        heading = heading_bytes[rank] + 1 if rank not in chosen and rank < len(heading_bytes) else 0
        alone = [(number, line) for number, line in own if (rank, number) not in shown_lines]
        if alone and used + heading + _cost(alone, overhead) > budget:
            continue  # its own lines do not fit: with its unit they fit still less
        unit = [*passage.unit, *_grown(hits, rank, passage, chunk_lines)]
        # The whole unit when it fits, else the matched lines alone.
        for offered in ([*own, *unit], own) if unit else (own,):
            # A unit may name a line the passage holds too (a run's end): shown once.
            fresh = list(
                {number: line for number, line in offered if (rank, number) not in shown_lines}.items()
            )
            cost = heading + _cost(fresh, overhead)
            if fresh and used + cost <= budget:
                break
        else:
            continue
        used += cost
        shown_lines.update((rank, number) for number, _ in fresh)
        shown_terms.update(key for key, _ in passage.matched)
        chosen.setdefault(rank, []).extend(LineMatch(number, line, passage.score) for number, line in fresh)
    _fill_near(hits, chosen, shown_lines, budget - used, overhead, chunk_lines)
    for lines in chosen.values():
        lines.sort(key=lambda line: line.number)
    return chosen


def _cost(lines: Sequence[tuple[int, str]], overhead: int) -> int:
    return sum(len(line.encode("utf-8", "surrogatepass")) + overhead for _, line in lines)


def _grown(
    hits: Sequence[SearchHit], rank: int, passage: LineMatch, chunk_lines: dict[int, list[str]]
) -> list[tuple[int, str]]:
    """The lines of the passage's unit that ``store.excerpts`` finds in its chunk (``grows``)."""
    if not passage.grows or not hits[rank].text:
        return []
    return unit_lines(_lines_of(hits, rank, chunk_lines), passage.number, passage.number + passage.lines - 1)


def _lines_of(hits: Sequence[SearchHit], rank: int, chunk_lines: dict[int, list[str]]) -> list[str]:
    """The lines of hit ``rank``'s chunk, split once per reply."""
    lines = chunk_lines.get(rank)
    if lines is None:
        lines = chunk_lines[rank] = hits[rank].text.splitlines()
    return lines


def _fill_near(
    hits: Sequence[SearchHit],
    chosen: dict[int, list[LineMatch]],
    shown_lines: set[tuple[int, int]],
    room: int,
    overhead: int,
    chunk_lines: dict[int, list[str]],
) -> None:
    """Room the passages left: each shown hit's lines next to its shown ones, nearest first, the
    best hit first; it stops at the first line that does not fit.

    The answer often sits beside the lines that repeat the query (a record's other field, the
    statement under a condition, the row after a heading) where no query word reaches it.
    """
    for rank in sorted(chosen):
        if not hits[rank].text:
            continue
        lines = _lines_of(hits, rank, chunk_lines)
        anchors = sorted(number for shown_rank, number in shown_lines if shown_rank == rank and number >= 0)
        for distance in range(1, FILL_REACH + 1):
            for anchor in anchors:
                for number in (anchor - distance, anchor + distance):
                    if (
                        not 0 <= number < len(lines)
                        or (rank, number) in shown_lines
                        or not lines[number].strip()
                    ):
                        continue
                    text = _cut(lines[number], (), LINE_WIDTH)
                    cost = len(text.encode("utf-8", "surrogatepass")) + overhead
                    if cost > room:
                        return
                    room -= cost
                    shown_lines.add((rank, number))
                    chosen[rank].append(LineMatch(number, text, 0.0))


def _fields_passage(
    text: str,
    scanned: Sequence[tuple[int, str, Matched, list[Span]]],
    terms: Sequence[Term],
    weight: Mapping[tuple[str, ...], float],
    stemmer: Callable[[str], str],
) -> LineMatch | None:
    """For a JSON chunk: the fields the query names in the record around its heaviest other match."""
    if '":' not in text or len(text) <= LINE_WIDTH:
        return None
    key_stems = _key_stems(text, stemmer)
    in_keys = {stem for stems in key_stems.values() for stem in stems}
    # The anchor is the heaviest match of a term that names no key: the record's name, not a field.
    # A version or code named in the query (``13.7.1``) names its record best of all.
    rank = {
        " ".join(term.stems): (2.0 if is_exact(term.text) else 1.0) * weight[term.stems]
        for term in terms
        if len(term.stems) > 1 or term.stems[0] not in in_keys
    }
    best: tuple[float, int, int, Matched, str, list[Span]] | None = None  # rank, line, offset, …
    offset = 0
    for number, line, found, spans in scanned:
        offset = text.find(line, offset)
        for start, end, _ in spans:
            key = _span_term(line[start:end], stemmer)
            if key in rank and (best is None or rank[key] > best[0]):
                best = (rank[key], number, offset + start, found, line, spans)
    if best is None:
        return None
    _, number, anchor, found, line, spans = best
    begin, end = scope(text, anchor)
    in_scope = members(text, begin, end)
    shown, worth, keys = _fields(text, in_scope, terms, weight, stemmer, key_stems)
    if not shown:
        return None
    matched = _union([found, keys])
    # The named fields are what was asked for: worth their terms again over the line they are in.
    if "\n" not in text[begin:end]:
        return LineMatch(number, shown, _worth(matched) + worth, matched)
    # A record over several lines: its anchor line stays itself (it is what matched the record's
    # name, and a passage that took its number would hide it), the fields joined as its unit.
    return LineMatch(
        number, _cut(line, spans, LINE_WIDTH), _worth(matched) + worth, matched, unit=((FIELDS_LINE, shown),)
    )


def _fields(
    text: str,
    found: Sequence[Member],
    terms: Sequence[Term],
    weight: Mapping[tuple[str, ...], float],
    stemmer: Callable[[str], str],
    key_stems: dict[str, tuple[str, ...]] | None = None,
) -> tuple[str, float, Matched]:
    stems_of = key_stems if key_stems is not None else _key_stems(text, stemmer, found)
    named: dict[str, float] = {}

    def key_weight(key: str) -> float:
        stems = stems_of.get(key, ())
        worth = 0.0
        for term in terms:
            if len(term.stems) == 1 and term.stems[0] in stems and len(term.stems[0]) > 2:
                named[term.stems[0]] = weight.get(term.stems, 1.0)
                worth += named[term.stems[0]]
        return worth

    shown, worth = record_fields(found, text, key_weight)
    return shown, worth, tuple(named.items())


def _span_term(matched: str, stemmer: Callable[[str], str]) -> str:
    """The term key (stems joined by spaces) of a matched span's text."""
    return " ".join(stemmer(token) for token in TOKEN.findall(matched))


def _key_stems(
    text: str, stemmer: Callable[[str], str], found: Sequence[Member] | None = None
) -> dict[str, tuple[str, ...]]:
    """Each member key's stems, its identifier parts split (``closed_at`` -> close, at)."""
    return {
        member.key: tuple(stemmer(part.lower()) for part in _PART.findall(member.key))
        for member in (members(text) if found is None else found)
    }


def _only_function_words(query: str) -> bool:
    """Whether every unquoted word of ``query`` is a function word (then they are all kept)."""
    return all(
        is_function_word(match.group(2)) for match in QUERY_PART.finditer(query) if match.group(2) is not None
    )


# Stems of tokens, memoised across chunks and queries (tokens repeat a lot in logs and JSON, and
# the same chunks come back for related queries); a C-level cache call costs less than a lookup
# through a Python method. Bounded: 16k tokens, about 4 MB at most.
_stem_of = functools.lru_cache(maxsize=1 << 14)(stem)


def probe(stem: str, near: bool = False) -> str:
    """Lowercase text every word that stems to ``stem`` holds (see ``Term.probes``)."""
    short = max(1, min(3, len(stem) - 1))
    return stem[:short] if near else stem[: max(short, len(stem) - 2)]


def line_filter(terms: Sequence[Term]) -> Callable[[str], bool]:
    """Whether a line may hold one of ``terms``: false only for lines ``_scan`` finds none in.

    A first probe at C speed (``_prober``), then every probe of one of a term's ``probe_sets``
    (a line that holds ``test_short`` holds ``sho`` too, not only ``tes``): most lines that
    share a word's first letters with a term are not tokenised at all.
    """
    prober = _prober(terms)
    sets = [probes for term in terms for probes in term.probe_sets]

    def may_hold(line: str) -> bool:
        lowered = line.lower()
        return prober.search(lowered) is not None and any(
            all(probe in lowered for probe in probes) for probes in sets
        )

    return may_hold


# A query's terms are the same for each of its hits: their filter is built once per query.
_line_filter_of = functools.lru_cache(maxsize=64)(line_filter)


def _prober(terms: Sequence[Term]) -> re.Pattern[str]:
    """One search for any term's probe in a lowercased line."""
    probes = sorted({probe for term in terms for probe in term.probes}, key=len, reverse=True)
    return re.compile("|".join(re.escape(probe) for probe in probes) or r"(?!)")


def _stems(text: str) -> list[str]:
    return [s for s in (stem(token) for token in TOKEN.findall(text)) if s]


def _split_stems(text: str) -> list[str]:
    return [s for token in TOKEN.findall(text) for part in _PART.findall(token) if (s := stem(part))]


Matched = tuple[tuple[str, float], ...]
_Token = tuple[str, int, int]


def _worth(matched: Matched) -> float:
    return sum(w for _, w in matched)


def _union(groups: Iterable[Matched]) -> Matched:
    merged: dict[str, float] = {}
    for group in groups:
        merged.update(group)
    return tuple(merged.items())


def _tokens(line: str, stemmer: Callable[[str], str]) -> tuple[list[_Token], list[_Token]]:
    """The line's stems with their spans, as written and with identifiers split."""
    plain: list[_Token] = []
    split: list[_Token] = []
    for token in _LINE_TOKEN.finditer(line):
        word = token.group()
        if word[0] == "\x1b":
            continue
        plain.append((stemmer(word), token.start(), token.end()))
        if word.isdigit() or (word.isalpha() and (word.islower() or word.isupper() or word.istitle())):
            split.append(plain[-1])  # nothing to split: most words take this cheap path
            continue
        parts = list(_PART.finditer(word))
        if len(parts) <= 1:
            split.append(plain[-1])
            continue
        offset = token.start()
        split.extend((stemmer(part.group()), offset + part.start(), offset + part.end()) for part in parts)
    return plain, split


def terms_held(text: str, terms: Sequence[Term]) -> set[tuple[str, ...]]:
    """The stems of the ``terms`` that ``text`` holds (as ``best_lines`` matches them: stems in a
    row, or identifier parts in a row)."""
    tokens = _indexed(text, _stem_of)
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


def _holds(line: _Indexed, term: Term) -> list[tuple[int, int]]:
    """Where ``line`` holds ``term``: its stems in a row, else its split stems in a row, else one
    of its short forms as an identifier's part (``max_retries`` for "maximum")."""
    found = _find(line.plain, line.plain_at, term.stems) or _find(line.split, line.split_at, term.split)
    for other in term.alternatives:
        if found:
            break
        found = _find(line.split, line.split_at, (other,))
    return found


def _scan(
    line: str, terms: Sequence[Term], weight: Mapping[tuple[str, ...], float], stemmer: Callable[[str], str]
) -> tuple[Matched, list[Span]]:
    """The terms ``line`` holds (key, weight) and where they are."""
    tokens = _indexed(line, stemmer)
    found: list[tuple[str, float]] = []
    spans: list[Span] = []
    for term in terms:
        at = _holds(tokens, term)
        if not at and term.near:
            at = _find_near(tokens.plain, term.stems[0])
        if at:
            w = weight[term.stems]
            found.append((" ".join(term.stems), w))
            spans.extend((start, end, w) for start, end in at)
    return tuple(found), spans


def _find_near(tokens: Sequence[_Token], stem: str) -> list[tuple[int, int]]:
    """Character spans of the first few tokens one edit away from ``stem``."""
    spans = [(start, end) for token, start, end in tokens if one_edit_apart(token, stem)]
    return spans[:_MAX_SPANS]


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
    tokens: Sequence[_Token], starts: Mapping[str, list[int]], stems: Sequence[str]
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
            if len(spans) >= _MAX_SPANS:
                break
    return spans


def _cut(line: str, spans: Sequence[Span], width: int) -> str:
    """``cutting.cut`` with the query's terms keyed by their stems."""
    return cut(line, spans, width, _term_key)


def _term_key(matched: str) -> str:
    return _span_term(matched, _stem_of)
