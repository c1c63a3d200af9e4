"""Intent: the passages of a payload that answer what the agent said it is looking for.

``intent_lines(lines, intent)`` ranks the payload's lines by BM25 against the intent's words (with
identifier splitting: ``getUserById`` matches "user by id"; light stemming: "timeouts" matches
``timeout``) and returns the best lines' indexes with a little context, best first. Only lines
holding at least one intent word are scored, and those are found with one regex pass over the
whole text, so the cost is linear in C plus work proportional to the matching lines.

``intent_terms(intent)`` gives the words, for summarisers that take ``terms`` (row sets, trees).
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.identifiers import split_identifiers

_WORD = re.compile(r"[A-Za-z0-9]+")
_STOPWORDS = frozenset(
    """a an and are as at be by for from has have how i in is it its of on or that the this to
    was what when where which who why with does do did can should would which value show find
    me my our line lines""".split()
)
_SUFFIXES = ("ing", "ies", "es", "ed", "s", "ly")
_K1, _B = 1.2, 0.75
MAX_TERMS = 12
CONTEXT_AFTER = 2  # lines after a hit shown with it: the message under a traceback frame, a value


def intent_terms(intent: str) -> tuple[str, ...]:
    """The intent's search words, lowercased and stemmed, stopwords out, at most ``MAX_TERMS``."""
    words = [word.lower() for word in _WORD.findall(split_identifiers(intent))]
    stems = [_stem(word) for word in words if word not in _STOPWORDS and len(word) >= 2]
    return tuple(dict.fromkeys(stems))[:MAX_TERMS]


def intent_lines(
    text: str, lines: Sequence[str], intent: str, *, limit: int = 24
) -> list[tuple[int, int, float]]:
    """Up to ``limit`` passages ``(start, stop, score)`` of ``lines`` (``text.splitlines()``), best first."""
    terms = intent_terms(intent)
    if not terms or not lines:
        return []
    pattern = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(t)}" for t in terms), re.IGNORECASE)
    starts = _line_starts(text, lines)
    hits: dict[int, Counter[str]] = {}
    for match in pattern.finditer(text):
        line = bisect.bisect_right(starts, match.start()) - 1
        hits.setdefault(line, Counter())[_which(match.group(0).lower(), terms)] += 1
        if len(hits) > 20_000:
            break
    if not hits:
        return []
    total = len(lines)
    document_frequency: Counter[str] = Counter()
    for counts in hits.values():
        document_frequency.update(counts.keys())
    average = sum(len(line) for line in lines) / total or 1.0
    scored: list[tuple[float, int]] = []
    for index, counts in hits.items():
        length = len(lines[index]) / average
        score = 0.0
        for term, frequency in counts.items():
            idf = math.log(1 + (total - document_frequency[term] + 0.5) / (document_frequency[term] + 0.5))
            score += idf * frequency * (_K1 + 1) / (frequency + _K1 * (1 - _B + _B * min(length, 8.0)))
        # a line holding more of the intent's distinct words beats one repeating a single word
        score *= 1 + 0.5 * (len(counts) - 1)
        scored.append((score, index))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [(index, min(index + 1 + CONTEXT_AFTER, total), score) for score, index in scored[:limit]]


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _which(found: str, terms: Sequence[str]) -> str:
    return next((term for term in terms if found.startswith(term)), found)


def _line_starts(text: str, lines: Sequence[str]) -> list[int]:
    """Offsets of each line of ``lines`` in ``text`` (``splitlines`` boundaries)."""
    starts: list[int] = []
    position = 0
    for line in lines:
        position = text.find(line, position) if line else position
        starts.append(max(position, 0))
        position += len(line)
    return starts
