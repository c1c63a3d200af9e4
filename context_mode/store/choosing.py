"""The reply's choice among found chunks' passages: which lines to show, within the budget.

``choose_lines(hits, budget)`` picks passages across hits (each hit's passages as
``query.best_lines`` found them), best first: a passage is worth its terms' weights, each cut to
``SHOWN_TERM_DECAY`` of itself for every passage already chosen that showed it (so ten lines naming
the same thing do not crowd out the one line with the other word), times the square root of its
hit's score relative to the best hit. Passages worth less than ``WEAK_SHARE`` of the first are left
out. A passage comes with its unit (the record, the message below a traceback: ``store.excerpts``)
when it fits, leaving ``RUNNER_UP_ROOM`` free while the other of the two best hits shows nothing.
A Markdown heading line that the hit's heading path already names is not shown again. A passage
whose every line says word for word what a chosen line already says (a log's traceback logged
again for each request) shows only what its unit says that is new (ruff's same headline over
another ``--> file:line``), or nothing: the second copy tells nothing (stage 1 + one search on dev
+7 facts, search only +11; the holdout +21, +31; such a passage left out whole, its unit too: dev
+6, ruff's locations lost).
Room still left goes to the shown hits' lines next to their shown ones (nearest first, best hit
first, as far as the chunk goes): the answer often sits beside the lines that repeat the query,
where no query word reaches it. For a query asking for a number (a size, a port, a version), a
passage with a digit is worth ``NUMBER_SHARE`` times its terms: the answer is a number.

It returns the lines to show per hit, in chunk order. n log n in the passages offered; never
raises.
"""

from __future__ import annotations

import bisect
import heapq
import math
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.chunking import atx_heading
from context_mode.store.cutting import LINE_WIDTH, cut
from context_mode.store.excerpts import is_punctuation, unit_lines
from context_mode.store.line_match import worth_of
from context_mode.store.values import LineMatch, SearchHit

# A passage worth a thirty-third of the best still comes before the lines beside the shown ones:
# a line naming one word of the query (the argument under a docstring that names three) is more
# often the answer than a neighbour. 0.1, 0.05, 0.04, 0.03, 0.02, 0 took stage 1 + one search on
# dev ±0, +3, +7, +4, +3, −2 facts (search only ±0, +4, +9, +7, +7, +4); at 0.04 with the runner-up
# still judged by ``RUNNER_UP_SHARE``: dev +8 (+10), holdout +5 (+15). Once a passage saying what
# is shown already gives way (round fifty-seven), 0.02, 0.025, 0.03, 0.05 against 0.04: dev ±0,
# +1, +3, −1 (search only +13, +12, +10, −2); at 0.03 the holdout −1 (±0). ``SHOWN_TERM_DECAY``
# 0.6 and 0.8 at 0.03: dev −12 and −5.
WEAK_SHARE = 0.03
# A runner-up hit holds ``RUNNER_UP_ROOM`` while its best passage is worth this share of the first.
RUNNER_UP_SHARE = 0.1
# What a term is still worth in a passage once it has been shown (each time): the answer line
# often repeats a term the first passages showed ("dump.c:39:12: error: …" under other errors).
# 0.5 -> 0.7 took search-only reach from 236 to 244 of 351 facts on dev, 235 to 250 of 379 on holdout.
SHOWN_TERM_DECAY = 0.7
# What a passage holding a digit is worth, for a query asking for a number ("the size of the woff2
# module": the listing's line with its bytes, not the one naming the module in prose). Measured
# with a first list of words: 1.3, 1.6, 2.0, 3.0 took stage 1 + one search on dev +7, +9, +2, ±0
# facts, the holdout ±0, +1, −1, −4; at 1.6 with ``store.answers``' words, dev +6, holdout +3.
NUMBER_SHARE = 1.6
# The bytes a passage's unit leaves free while the other of the two best hits (one with a passage
# still worth showing) shows no line: room for the runner-up's first line, where the answer is
# about as often as in the first hit's unit. 150, 200, 300 took stage 1 + one search on dev +2,
# +3, +3 facts (search only +9, +11, +11), the holdout +2, +2, ±0 (+4, +5, +6); the top three
# hits' room kept alike: dev −1. At 200, once a runner-up with nothing worth showing no longer
# holds the room: dev +4 (search only +11), holdout +2 (+5).
RUNNER_UP_ROOM = 200
_DIGIT = re.compile(r"\d")
_MAX_OFFERS = 60  # passages per hit that compete for the budget


def choose_lines(
    hits: Sequence[SearchHit],
    budget: int,
    *,
    heading_bytes: Sequence[int] = (),
    overhead: int = 3,
    numeric: bool = False,
) -> dict[int, list[LineMatch]]:
    """Lines to show per hit (by its index in ``hits``), in chunk order, within ``budget`` bytes.

    See the module doc for the choice. A hit shown costs its heading line once (``heading_bytes``
    of each hit, as the caller renders it), and each line its bytes plus ``overhead``. When the
    query asks for a number (``numeric``: ``store.answers.number_asked``), a passage holding a
    digit is worth ``NUMBER_SHARE`` times its terms.
    """
    if not hits:
        return {}
    top = max(hits[0].score, 1e-9)
    factors = [math.sqrt(max(hit.score, 0.0) / top) for hit in hits]
    shown_terms: Counter[str] = Counter()

    def value(rank: int, passage: LineMatch) -> float:
        # A passage marked down in ``best_lines`` (a passing test's line) stays marked down here.
        worth = worth_of(passage.matched)
        share = min(1.0, passage.score / worth) if worth > 0 else 1.0
        fresh = sum(w * SHOWN_TERM_DECAY ** shown_terms[key] for key, w in passage.matched)
        valued = NUMBER_SHARE if numeric and _DIGIT.search(passage.text) else 1.0
        return factors[rank] * share * fresh * valued

    # Lazy greedy: a passage's value only falls as terms get shown, so a popped value that still
    # beats the next one in the heap is the true best (the usual trick for diminishing returns).
    heap = [
        (-value(rank, passage), rank, order, passage)
        for rank, hit in enumerate(hits)
        for order, passage in enumerate(hit.lines[:_MAX_OFFERS])
    ]
    heapq.heapify(heap)
    # A Markdown heading line that the hit's heading path names (shown above its lines) counts as shown.
    shown_lines = {(rank, number) for rank, hit in enumerate(hits) for number in _repeated_heading(hit)}
    chosen: dict[int, list[LineMatch]] = {}
    chunk_lines: dict[int, list[str]] = {}  # each offered hit's chunk, split once
    shown_texts: set[str] = set()  # what the chosen lines say, whichever hit showed them
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
        if alone and all(line.strip() in shown_texts for _, line in alone):
            # Its lines shown already, word for word (a log's repeated traceback): only what its
            # unit says that is new (ruff's same headline over another ``--> file:line``), if any.
            unit = [(number, line) for number, line in unit if line.strip() not in shown_texts]
            if not unit:
                continue
            own = []
        # While the other of the two best hits shows nothing, a unit leaves room for its first line.
        waiting = bool(unit) and any(
            other != rank
            and other not in chosen
            and max((value(other, offer) for offer in hits[other].lines[:_MAX_OFFERS]), default=0.0)
            >= RUNNER_UP_SHARE * first
            for other in range(min(2, len(hits)))
        )
        with_unit = budget - (RUNNER_UP_ROOM if waiting else 0)
        # The whole unit when it fits, else the matched lines alone.
        for offered in ([*own, *unit], own) if unit else (own,):
            # A unit may name a line the passage holds too (a run's end): shown once, as first given
            # (a wide row's header cut where its row is, not as the chunk's unit would cut it).
            kept: dict[int, str] = {}
            for number, line in offered:
                if (rank, number) not in shown_lines:
                    kept.setdefault(number, line)
            fresh = list(kept.items())
            cost = heading + _cost(fresh, overhead)
            if fresh and used + cost <= (budget if offered is own else with_unit):
                break
        else:
            continue
        used += cost
        shown_lines.update((rank, number) for number, _ in fresh)
        shown_texts.update(line.strip() for _, line in fresh)
        shown_terms.update(key for key, _ in passage.matched)
        chosen.setdefault(rank, []).extend(LineMatch(number, line, passage.score) for number, line in fresh)
    _fill_near(hits, chosen, shown_lines, budget - used, overhead, chunk_lines, shown_texts)
    for lines in chosen.values():
        lines.sort(key=lambda line: line.number)
    return chosen


_HEADING_REACH = 3  # a chunk's first lines, where the heading it starts under is


def _repeated_heading(hit: SearchHit) -> list[int]:
    """The number of the chunk's Markdown heading line that its heading path ends with (``###
    Settings profiles[¶](#settings-profiles "Permalink…")`` under ``… › Settings profiles``), if any."""
    if not hit.heading_path or not hit.text:
        return []
    last = hit.heading_path[-1]
    for number, line in enumerate(hit.text.splitlines()[:_HEADING_REACH]):
        heading = atx_heading(line)
        if last and heading is not None and heading[1] == last:
            return [number]
    return []


def _cost(lines: Sequence[tuple[int, str]], overhead: int) -> int:
    return sum(len(line.encode("utf-8", "surrogatepass")) + overhead for _, line in lines)


def _grown(
    hits: Sequence[SearchHit], rank: int, passage: LineMatch, chunk_lines: dict[int, list[str]]
) -> list[tuple[int, str]]:
    """The lines of the passage's unit that ``store.excerpts`` finds in its chunk (``grows``)."""
    if not passage.grows or not hits[rank].text:
        return []
    own = {key for key, _ in passage.matched}
    wanted = {
        key for other in hits[rank].lines for key, _ in other.matched if key not in own and key[:1] != "@"
    }
    lines = _lines_of(hits, rank, chunk_lines)
    return unit_lines(lines, passage.number, passage.number + passage.lines - 1, wanted=wanted)


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
    shown_texts: set[str],
) -> None:
    """Room the passages left: each shown hit's lines next to its shown ones, nearest first, the
    best hit first, but for a line saying word for word what a shown one says (``shown_texts``, to
    which it adds); it stops at the first line that does not fit (dev +4 facts within one search,
    holdout +3).

    The answer often sits beside the lines that repeat the query (a record's other field, the
    statement under a condition, the row after a heading) where no query word reaches it.
    """
    for rank in sorted(chosen):
        if not hits[rank].text:
            continue
        lines = _lines_of(hits, rank, chunk_lines)
        anchors = sorted(number for shown_rank, number in shown_lines if shown_rank == rank and number >= 0)
        for number in _nearest_first(anchors, len(lines)):
            if (rank, number) in shown_lines or is_punctuation(lines[number]):  # a record's "{" says nothing
                continue
            if lines[number].strip() in shown_texts:
                continue  # said already, word for word
            text = cut(lines[number], (), LINE_WIDTH, str)
            cost = len(text.encode("utf-8", "surrogatepass")) + overhead
            if cost > room:
                return
            room -= cost
            shown_lines.add((rank, number))
            shown_texts.add(lines[number].strip())
            chosen[rank].append(LineMatch(number, text, 0.0))


def _nearest_first(anchors: Sequence[int], count: int) -> list[int]:
    """The line numbers below ``count`` that are not anchors, nearest to an anchor first; at one
    distance, by their nearest anchor in order, the line before it first. n log n in ``count``."""
    if not anchors:
        return []
    keyed: list[tuple[int, int, int, int]] = []
    for number in range(count):
        right = bisect.bisect_left(anchors, number)
        if right < len(anchors) and anchors[right] == number:
            continue
        options = []
        if right < len(anchors):
            options.append((anchors[right] - number, right, 0, number))
        if right:
            options.append((number - anchors[right - 1], right - 1, 1, number))
        keyed.append(min(options))
    keyed.sort()
    return [number for *_, number in keyed]
