"""Lines of a whole payload that answer a query whatever the query's words are.

Some questions name what the answer is, not what it says: "the process with the highest cpu"
(the line holding a field's extreme, ``store.extremes``), "the newest 2.x version" (one of a
list of versions, compared as versions: ``store.releases``), "the new version string" in a diff
(the changed lines assigning a version, ``store.versions``), "the total diagnostics" (the line
that sums the run up, ``Found 112 errors.``: ``store.edges.totals_passage``; when none does, a
running count's last line, ``running_total_passage``). No query word need
be on those lines, so BM25 does not find them.

- ``answers_asked(query)`` says whether the query asks for any of them (only then is the whole
  payload read).
- ``number_asked(query)`` says whether the query names a quantity ("the size of …", "which
  port", "how many …"): its answer is a number, so of the lines holding its words, those with a
  digit come first (``store.choosing.choose_lines``'s ``numeric``).
- ``answer_passages(texts, query, kind, weight)`` are those lines among a payload's chunks
  ``texts`` (in order), each its chunk's place and a passage worth ``weight``, in the order a
  search adds them to its hits (``store.edges.add_edge``): the release or else the extreme, the
  version lines (a diff's only), the totals. The index's search and an intent's passages both
  take them from here. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from context_mode.store.edges import running_total_passage, totals_asked, totals_passage
from context_mode.store.extremes import extreme_asked, extreme_passage
from context_mode.store.releases import release_asked, release_passage
from context_mode.store.terms import query_terms, stem
from context_mode.store.values import LineMatch
from context_mode.store.versions import version_asked, version_passages
from context_mode.types import ContentKind

# Words naming a quantity, whose value an output prints as a number. Not "default" (a default
# is as often a word or a path), "line" (the word of many outputs' own text) nor "seconds" (its
# stem is "second", the ordinal: "the second job").
_NUMBER_WORDS = frozenset(
    stem(word)
    for word in (
        "size length bytes count number total many much port pid id version date year time "
        "timeout duration limit percent price cost"
    ).split()
)


def number_asked(query: str) -> bool:
    """Whether ``query`` names a quantity, whose answer is a number (module doc)."""
    return any(len(term.stems) == 1 and term.stems[0] in _NUMBER_WORDS for term in query_terms(query))


def answers_asked(query: str) -> bool:
    """Whether ``query`` asks for an extreme, a version or the totals (module doc)."""
    return (
        extreme_asked(query) is not None
        or release_asked(query) is not None
        or version_asked(query)
        or totals_asked(query)
    )


def answer_passages(
    texts: Sequence[str], query: str, kind: ContentKind, weight: float
) -> list[tuple[int, LineMatch]]:
    """The lines among the chunks ``texts`` that answer ``query`` whatever its words (module doc)."""
    found: list[tuple[int, LineMatch]] = []
    release = release_asked(query)
    extreme = extreme_asked(query)
    if release is not None and (at := release_passage(texts, release, weight)) is not None:
        found.append(at)  # a version compared as one, not the generic extreme of a date or size
    elif extreme is not None and (at := extreme_passage(texts, extreme, weight)) is not None:
        found.append(at)
    if kind is ContentKind.DIFF and version_asked(query):
        found.extend(version_passages(texts, query, weight))
    if totals_asked(query):
        at = totals_passage(texts, weight) or running_total_passage(texts, query_terms(query), weight)
        if at is not None:
            found.append(at)
    return found
