"""Finding tools by what they do: BM25 over names, descriptions and parameter names.

``ToolIndex(docs)`` indexes ``ToolDoc(name, description, parameters)`` values; ``search(query,
limit)`` returns the best names with their scores. Words are lowercased and identifiers split
(``getPullRequest`` and ``get_pull_request`` both give get/pull/request), light suffixes stemmed
(``issues`` finds ``issue``); the name and parameter names weigh more than the description.
Pure and in memory: a thousand tools index in a few milliseconds.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from context_mode.identifiers import split_identifiers
from context_mode.words import FUNCTION_WORDS, light_stem

_WORD = re.compile(r"[A-Za-z0-9]+")
_K1, _B = 1.2, 0.75
NAME_WEIGHT = 3
PARAMETER_WEIGHT = 2


@dataclass(frozen=True, slots=True)
class ToolDoc:
    name: str
    description: str = ""
    parameters: tuple[str, ...] = ()


def words(text: str) -> list[str]:
    """The stemmed, lowercased words of ``text`` with identifiers split; stopwords dropped."""
    out = []
    for word in _WORD.findall(split_identifiers(text.replace("_", " "))):
        lowered = word.lower()
        if lowered not in FUNCTION_WORDS:
            out.append(light_stem(lowered, keep=2))
    return out


class ToolIndex:
    """BM25 over a fixed set of tools."""

    def __init__(self, docs: Iterable[ToolDoc]) -> None:
        self._docs = list(docs)
        self._terms: list[Counter[str]] = []
        for doc in self._docs:
            counts: Counter[str] = Counter()
            for _ in range(NAME_WEIGHT):
                counts.update(words(doc.name))
            for parameter in doc.parameters:
                for _ in range(PARAMETER_WEIGHT):
                    counts.update(words(parameter))
            counts.update(words(doc.description))
            self._terms.append(counts)
        self._lengths = [sum(counts.values()) for counts in self._terms]
        self._average = sum(self._lengths) / len(self._lengths) if self._lengths else 1.0
        self._frequency: Counter[str] = Counter()
        for counts in self._terms:
            self._frequency.update(counts.keys())

    def search(self, query: str, limit: int = 5) -> list[tuple[str, float]]:
        """The names of the ``limit`` best tools for ``query``, best first (only tools that match)."""
        wanted = list(dict.fromkeys(words(query)))
        total = len(self._docs)
        scored: list[tuple[float, int]] = []
        for position, counts in enumerate(self._terms):
            score = 0.0
            for term in wanted:
                frequency = counts.get(term, 0)
                if not frequency:
                    continue
                idf = math.log(1 + (total - self._frequency[term] + 0.5) / (self._frequency[term] + 0.5))
                norm = 1 - _B + _B * self._lengths[position] / (self._average or 1.0)
                score += idf * frequency * (_K1 + 1) / (frequency + _K1 * norm)
            if score > 0:
                scored.append((score, position))
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [(self._docs[position].name, round(score, 3)) for score, position in scored[: max(limit, 0)]]
