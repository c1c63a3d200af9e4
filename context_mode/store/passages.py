"""The answer-shaped lines of a payload for a query, before (and without) indexing it.

``payload_passages(text, kind, query, budget=)`` is ``doc_search`` over one payload in memory,
for a summary aimed by an intent: the payload is chunked as the store chunks it, each chunk is
scored by BM25 over the query's terms (their document frequencies counted over the chunks, one
literal search for each term: a word's stem less its last letter, counted where the word found
there, or its first identifier part, stems to the term as the index counts it; a phrase or
version as written; versions and codes boosted as in the index; terms in a chunk's heading path add their
weight boosted as the index's heading field does), and the best
chunks' passages are chosen and shaped exactly as a search reply's are
(``store.query.best_lines`` / ``store.choosing.choose_lines``: the unit an answer lives in, a record's named
fields, a run's first and last rows). A later chunk of a JSON record also gets the record card
of the record's first chunk, and a query naming an end of the payload (``store.edges.edges_asked``)
its first or last lines, and one asking for an extreme, a diff's version or the totals the lines
that answer it (``store.answers``), as a search in its ref does.

It returns lines: for each chosen chunk with a heading path, ``§ heading › path`` first, then its
lines (verbatim but for indentation, long ones cut with ``…``, a record's fields joined by
``, ``), within ``budget`` bytes. Linear in the payload; never raises on a ``str``.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from dataclasses import replace
from operator import attrgetter

from context_mode.ansi import ANSI
from context_mode.chunking import Chunk, chunk
from context_mode.store.answers import answer_passages, answers_asked, number_asked
from context_mode.store.choosing import choose_lines
from context_mode.store.edges import EDGE_CHUNKS, add_edge, edge_from, edges_asked
from context_mode.store.index import EXACT_BOOST, HEADING_BOOST, NEAR_MIN_CHARS
from context_mode.store.json_fields import CARD_LOOKBACK, first_of_record, in_cut_record
from context_mode.store.keyed_rows import keyed_rows
from context_mode.store.line_match import terms_held
from context_mode.store.query import best_lines, record_card
from context_mode.store.terms import (
    PART,
    TOKEN,
    Term,
    is_exact,
    probe,
    query_terms,
    stem,
    stem_of,
    with_numeric_dates,
)
from context_mode.store.values import LineMatch, SearchHit
from context_mode.types import ContentKind

HEADING_MARK = "§ "
MAX_HITS = 5
CHUNK_BYTES = 4096  # as the store chunks payloads
_K1, _B = 1.2, 0.75
_MAX_MATCHES = 50_000  # probe matches counted: plenty to rank, bounded for pathological text
_ANSI_LONGEST = 24  # how far back a colour code may start (``\x1b[38;2;255;128;0m`` is 17 long)
_LONGEST_WORD = 40  # letters of a word stemmed to check a probe's match (the index's own limit)
_MAX_STEM_CHECKS = 200  # words stemmed to tell whether the payload holds a query word


def payload_passages(text: str, kind: ContentKind, query: str, *, budget: int) -> list[str]:
    """The lines a search for ``query`` would show from ``text``, within ``budget`` bytes (see module doc)."""
    query = with_numeric_dates(query)
    terms = query_terms(query)
    if not terms or not text or budget <= 0:
        return []
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lowercase is longer: offsets would drift
        lowered = "".join(char.lower()[:1] for char in text)
    terms = _near_marked(lowered, terms)
    chunks = chunk(text, kind, max_chunk_bytes=CHUNK_BYTES)
    frequencies = _term_counts(text, lowered, chunks, terms)
    if not frequencies and not edges_asked(query) and not answers_asked(query):
        return []
    total = len(chunks)
    df = Counter(key for counts in frequencies.values() for key in counts)
    weights = {term.stems: math.log(1 + total / (1 + df[term.stems])) for term in terms}
    average = sum(len(piece.text) for piece in chunks) / total or 1.0
    boosts = {term.stems: EXACT_BOOST for term in terms if is_exact(term.text)}  # as the index does
    headed = _heading_terms(chunks, terms)
    heading_df = Counter(stems for held in headed.values() for stems in held)  # the heading field's own
    heading_weights = {stems: math.log(1 + total / (1 + n)) for stems, n in heading_df.items()}
    scored: list[tuple[float, int]] = []
    for index in frequencies.keys() | headed.keys():
        counts = frequencies.get(index, Counter())
        length = min(len(chunks[index].text) / average, 8.0)
        score = sum(
            boosts.get(stems, 1.0) * weights[stems] * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length))
            for stems, tf in counts.items()
        )
        # The index searches headings too, boosted: a record's name in its path (``[14] syn``).
        in_heading = headed.get(index, set())
        score += sum(HEADING_BOOST * heading_weights[stems] for stems in in_heading)
        held = len(counts.keys() | in_heading)
        scored.append((score * (1 + 0.5 * (held - 1)), index))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    hits: list[SearchHit] = []
    for score, index in scored[: MAX_HITS * 2]:
        piece = chunks[index]
        lines = best_lines(piece.text, terms, weights, heading=" ".join(piece.heading_path))
        card = _card(chunks, piece, terms, weights)
        found = (card, *lines) if card else lines
        if found:
            hits.append(SearchHit(str(index), "", "", piece.heading_path, score, "", found, piece.text))
        if len(hits) >= MAX_HITS:
            break
    for edge in edges_asked(query):  # "the final request": the payload's last lines, as a search has them
        ends = chunks[:EDGE_CHUNKS] if edge == "start" else chunks[: -EDGE_CHUNKS - 1 : -1]
        at = edge_from([piece.text for piece in ends], edge, max(weights.values(), default=1.0))
        if at is not None:
            add_edge(hits, _passage_hit(ends[at[0]], at[1]), attrgetter("chunk_id"))
    texts = [piece.text for piece in chunks]
    worth = sum(weights.values()) or 1.0
    for place, passage in [
        *answer_passages(texts, query, kind, worth),
        *keyed_rows(texts, query, worth, kind),
    ]:
        add_edge(hits, _passage_hit(chunks[place], passage), attrgetter("chunk_id"))
    if not hits:
        return []
    headings = [HEADING_MARK + " › ".join(hit.heading_path) if hit.heading_path else "" for hit in hits]
    sizes = [len(heading.encode()) for heading in headings]
    chosen = choose_lines(hits, budget, heading_bytes=sizes, numeric=number_asked(query))
    out: list[str] = []
    for rank in sorted(chosen):
        if headings[rank]:
            out.append(headings[rank])
        out.extend(line.text for line in chosen[rank])
    return out


def _heading_terms(chunks: list[Chunk], terms: list[Term]) -> dict[int, set[tuple[str, ...]]]:
    """Per chunk with a heading path that holds query terms, those terms' stems (each distinct
    path read once: many chunks share one)."""
    held_by: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    out: dict[int, set[tuple[str, ...]]] = {}
    for index, piece in enumerate(chunks):
        if not piece.heading_path:
            continue
        held = held_by.get(piece.heading_path)
        if held is None:
            held = held_by[piece.heading_path] = terms_held(" ".join(piece.heading_path), terms)
        if held:
            out[index] = held
    return out


def _term_counts(
    text: str, lowered: str, chunks: list[Chunk], terms: list[Term]
) -> dict[int, Counter[tuple[str, ...]]]:
    """Per chunk, how often each term's probe starts a word (a cheap stand-in for its stem's frequency).

    One fast literal search per probe over the lowercased payload, ``lowered`` (offsets as in the
    payload; a regex alternation with lookbehind is ten times slower on a megabyte).
    """
    probes: dict[str, tuple[tuple[str, ...], bool, bool]] = {}  # probe: the term, whole, to be checked
    for term in terms:
        if len(term.stems) > 1:  # a phrase or a punctuated word (13.7.1, web.xml): as written
            probes.setdefault(term.text.lower(), (term.stems, True, False))
        else:
            head = term.stems[0]
            short = head[: max(3, len(head) - 1)] if len(head) > 3 else head
            probes.setdefault(short, (term.stems, False, not term.near))
    starts = [piece.start for piece in chunks]
    counts: dict[int, Counter[tuple[str, ...]]] = {}
    for literal, (stems, whole, checked) in probes.items():
        at = lowered.find(literal)
        seen = 0
        while at >= 0 and seen < _MAX_MATCHES:
            after = at + len(literal)
            if (
                _starts_word(lowered, at)
                and not (whole and after < len(lowered) and lowered[after].isalnum())
                and (not checked or _stems_to(text, lowered, at, stems[0]))
            ):
                index = bisect.bisect_right(starts, at) - 1
                counts.setdefault(index, Counter())[stems] += 1
                seen += 1
            at = lowered.find(literal, after)
    return counts


def _passage_hit(piece: Chunk, passage: LineMatch) -> SearchHit:
    """A chunk found for one passage of its own (an end of the payload, an extreme line)."""
    return SearchHit(str(piece.index), "", "", piece.heading_path, 0.0, "", (passage,), piece.text)


def _stems_to(text: str, lowered: str, at: int, wanted: str) -> bool:
    """Whether the word at ``at``, or its first identifier part, stems to ``wanted``, as the index
    counts words (``hookimpl`` starts with ``hoo`` but is no ``hook``; ``countedArray`` holds
    ``counted``); a word over ``_LONGEST_WORD`` letters is let through."""
    word = TOKEN.match(lowered, at, at + _LONGEST_WORD + 1)
    if word is None or len(word.group()) > _LONGEST_WORD:
        return True
    if stem_of(word.group()) == wanted:
        return True
    first = PART.match(text, at, word.end())
    return first is not None and first.end() < word.end() and stem_of(first.group().lower()) == wanted


def _starts_word(lowered: str, at: int) -> bool:
    """Whether a word starts at ``at``: the text's start, after a non-word character, or right
    after an ANSI colour code (``\x1b[22mlazy``)."""
    if at == 0 or not lowered[at - 1].isalnum():
        return True
    if at >= 2 and lowered[at - 2] == "\\" and lowered[at - 1] in "nrt":  # a string's escape: ``\\nhook``
        return True
    escape = lowered.rfind("\x1b", max(0, at - _ANSI_LONGEST), at)
    return escape >= 0 and ANSI.fullmatch(lowered, escape, at) is not None


def _near_marked(lowered: str, terms: list[Term]) -> list[Term]:
    """``terms``, those one word long that no word of the payload (``lowered``) stems to marked
    to match one edit away (``Sicily`` finds ``Sicilia``), as the index marks the words no chunk
    holds."""
    return [
        replace(term, near=True)
        if len(term.stems) == 1
        and len(term.stems[0]) >= NEAR_MIN_CHARS
        and not term.stems[0].isdigit()
        and not _has_stem(lowered, term.stems[0])
        else term
        for term in terms
    ]


def _has_stem(lowered: str, wanted: str) -> bool:
    """Whether a word of ``lowered`` stems to ``wanted`` (True past ``_MAX_STEM_CHECKS`` candidate
    words: too common to be a word the payload lacks)."""
    start = probe(wanted)  # a word that stems to it starts so
    checked = 0
    at = lowered.find(start)
    while at >= 0:
        if _starts_word(lowered, at):
            word = TOKEN.match(lowered, at)
            if word is not None and stem(word.group()) == wanted:
                return True
            checked += 1
            if checked >= _MAX_STEM_CHECKS:
                return True
        at = lowered.find(start, at + 1)
    return False


def _card(
    chunks: list[Chunk], piece: Chunk, terms: list[Term], weights: dict[tuple[str, ...], float]
) -> LineMatch | None:
    """The record card of a later chunk of a JSON record (``store_query.record_card``)."""
    if not in_cut_record(piece.heading_path, piece.index):
        return None
    before = chunks[max(0, piece.index - CARD_LOOKBACK) : piece.index]
    first = first_of_record([earlier.heading_path for earlier in before], piece.heading_path)
    return record_card(before[first].text, terms, weights) if first is not None else None
