"""The line holding a field's largest or smallest value, for a query that asks for one.

"the process with the highest cpu percent", "the slowest query's duration", "the heaviest
package by installed size": the answer is the line whose value for a named field is the
extreme, and no query word need be on it more than on the lines around it.

- ``extreme_asked(query)`` says whether a query asks for an extreme (an ``Extreme``: ``most`` or
  ``least``, and the query's other words), by its superlative ("highest", "slowest", "fewest",
  "max"); "first", "last" and "top" name positions, not values, and do not count.
- ``extreme_line(lines, extreme)`` finds the line among a payload's lines, their fields read by
  ``line_fields.named_values`` (pairs, a table's columns under its header, a listing's sizes named
  "size", a test's times named "duration"); a ``TOTAL`` row (its label first, or its one word after
  its numbers, as ``wc``'s) and a listing's root, holding all the others, left out. The field is
  the one whose name's parts best match the query's words (``%CPU`` for "cpu", ``usec_per_call``
  for "microseconds per call", ``tbilrate`` for "treasury bill rate", ``RSS`` for "resident set
  size"; a word the superlative implies, such as a time for "slowest",
  counts half; of fields named alike, the one named right after the superlative, not one of few
  distinct values such as a year). When some of the field's lines hold more of the query's other
  words than the rest ("for the reporting job"; not words naming what the rows are, such as
  "process" or "file", or the listing, such as "source tree" or "disk usage"), only those compete,
  when two or more do (a word on one line only names where the lines are: "the largest file in
  physics", the directory's entry). Of lines sharing the extreme the first is named, the next two
  shown with it; when most lines share it, or the field is on one line only, no line is named: None.
  Words after a negation ("non-null") are dropped; a falling word the field's name does not hold
  ("the largest negative change", "the biggest drop") asks for the most negative value.

It returns the line's index and its table's header line's index (or None). Linear in the lines;
never raises on a ``str``. ``extreme_passage(texts, extreme, weight)`` is that line among a
payload's chunks as a passage of its chunk, its header line shown above it, for a search reply
or an intent's passages; a row too wide to show whole keeps its first cell, then the cells around
the asked one, and its header is cut alike (``wide_row``: at the same place in an aligned table,
so the cell stays under its name; ``wide_rows``). Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from context_mode.shapes import sized_entry
from context_mode.store.cutting import ELLIPSIS, LINE_WIDTH, cut
from context_mode.store.line_fields import MAX_LINE, Field, named_values
from context_mode.store.terms import PART, TOKEN, stem_of
from context_mode.store.values import LineMatch
from context_mode.store.wide_rows import wide_row
from context_mode.words import ABBREVIATIONS, is_function_word

_MOST = frozenset(
    "highest largest biggest most max maximum peak longest slowest heaviest greatest costliest "
    "busiest hottest newest latest".split()
)
_LEAST = frozenset(
    "lowest smallest least min minimum shortest fastest fewest lightest cheapest coldest "
    "youngest oldest earliest".split()
)
_NAMING = frozenset("max maximum min minimum".split())  # superlatives a field's name may hold
_DATED = frozenset("newest latest oldest earliest".split())
# A word that negates the next ("non-null", "not skipped"): neither names the field nor picks lines.
_NEGATING = frozenset("non not no without excluding except ignoring".split())
# Words that turn "the largest" into the most negative value of a field they do not name ("the largest
# negative change", "the biggest drop").
_FALLING = frozenset("negative drop drops decline declines decrease decreases fall falls loss losses".split())
# The fields a superlative implies when the query names none ("the slowest test": a time).
_IMPLIED = {
    "longest": "time duration elapsed length",
    "shortest": "time duration elapsed length",
    "slowest": "time duration elapsed",
    "fastest": "time duration elapsed",
    "largest": "size bytes count total",
    "biggest": "size bytes count total",
    "smallest": "size bytes count total",
    "heaviest": "weight mass size",
    "lightest": "weight mass size",
    "busiest": "count calls requests",
    "hottest": "temp temperature",
    "coldest": "temp temperature",
    "costliest": "cost price",
    "cheapest": "cost price",
    "newest": "date time created updated modified released published",
    "latest": "date time created updated modified released published",
    "oldest": "date time created updated modified released published",
    "earliest": "date time created updated modified released published",
}
IMPLIED_SHARE = 0.5
_IMPLIED_STEP = 0.01  # less for each implied field before it
_RUN_MIN = 4  # letters of a name part that may be words' beginnings run together (tbilrate)
_RUN_PIECE = 3  # letters of its longest beginning (``max`` of tmax): two-letter ones make words
_RUN_WORDS = 12  # query words tried for such a run
# Words that name what the rows are, not which of them: never a filter on the field's lines.
_ROW_NOUNS = frozenset(
    "row rows record records entry entries item items line lines file files process processes "
    "command commands package packages test tests query queries request requests value values "
    "number one ones result results column field "
    # and words naming the listing or its measure ("the largest file in the source tree", "the
    # biggest subpackage by disk usage"): a file named usage.py is not what they pick
    "directory directories folder folders tree source sources archive disk usage space overall whole "
    "entire project repository listing".split()
)

# A row that sums up the others (``TOTAL``, ``Grand total``): it repeats their extreme. Its label
# leads it, or is its only word, after its numbers (``wc``'s, ``du -c``'s ``  57937 total``).
_TOTAL_ROW = re.compile(
    r"[\s|│]*(?:total|totals|grand total|sum|all|overall)\b"
    r"|[\W\d_]*\b(?:total|totals|grand total|overall)\b[\W\d_]*\Z",
    re.IGNORECASE,
)
HEADER_LINE = -3  # the number a table's header from an earlier chunk is shown under (first)
_TIES = 2  # lines sharing the extreme shown besides the first
_PREFIX = 2  # letters a field's name may put before the word naming it (``asize``, ``mtime``)
_FEW_DISTINCT = 2  # a field of under half the distinct values of another is no measure


@dataclass(frozen=True, slots=True)
class Extreme:
    """What a query asks: the ``most`` or ``least`` value of a field its ``words`` name."""

    most: bool
    words: tuple[str, ...]  # the query's other words, lower case, function words dropped
    implied: tuple[str, ...]  # the field names the superlative implies
    dated: bool = False  # asks for the newest or oldest: a date's extreme, not a number's
    older: bool = False  # "oldest": of a number the query names (an age), the most
    before: int = 0  # how many of ``words`` come before the superlative ("routes with the most …")


@dataclass(frozen=True, slots=True)
class ExtremeLine:
    """The line with the extreme value (its index in the lines), its table's header line, the field."""

    line: int
    header: int | None
    field: str
    span: tuple[int, int] | None = None  # where on the line its pair is (a long line is cut around it)
    ties: tuple[int, ...] = ()  # the next lines holding the same extreme (``_TIES`` at most)


def extreme_asked(query: str) -> Extreme | None:
    """The extreme the query asks for, or None when it has no superlative."""
    words = [word.lower() for word in TOKEN.findall(query)]
    words = [word for at, word in enumerate(words) if not _negated(words, at)]
    asked = [word for word in words if word in _MOST or word in _LEAST]
    if not asked:
        return None
    # "maximum" and "minimum" may name the field too (``max_wind``), the first superlative apart.
    kept = [
        at
        for at, w in enumerate(words)
        if (w in _NAMING or w not in _MOST and w not in _LEAST) and w != asked[0] and not is_function_word(w)
    ]
    rest = tuple(words[at] for at in kept)
    superlative = words.index(asked[0])
    before = sum(at < superlative for at in kept)
    implied = tuple(dict.fromkeys(name for word in asked for name in _IMPLIED.get(word, "").split()))
    dated = bool(_DATED & set(asked)) or ("recent" in words and "most" in asked)
    return Extreme(asked[0] in _MOST, rest, implied, dated, asked[0] == "oldest", before)


def _negated(words: Sequence[str], at: int) -> bool:
    """Whether the word at ``at`` negates the next or is negated by the one before."""
    return words[at] in _NEGATING or at > 0 and words[at - 1] in _NEGATING


def extreme_line(lines: Sequence[str], extreme: Extreme) -> ExtremeLine | None:
    """The line holding the extreme value of the field the query names (module doc), or None.
    A query for the oldest or newest of a number it names ("the oldest age") gets that number's."""
    found = list(named_values(lines))
    fields = [field for field in found if field.dated is extreme.dated]
    if extreme.dated and not _names_any({field.name for field in fields}, extreme.words):
        numbers = [field for field in found if not field.dated]
        if _names_any({field.name for field in numbers}, extreme.words):
            fields, extreme = numbers, replace(extreme, dated=False, most=extreme.most or extreme.older)
    # A field given once has nothing to compare (tree -J's closing report's "files": 123 against
    # every entry's "size" for "the biggest file"): it does not compete.
    given = Counter(field.name for field in fields)
    fields = [field for field in fields if given[field.name] > 1]
    if not fields:
        return None
    scores = {name: _name_score(name, extreme) for name in {field.name for field in fields}}
    best = max(scores.values())
    if best <= 0:
        return None
    named = [field for field in fields if scores[field.name] == best]
    # Of equally named fields, one of few distinct values is what the query names to return (the
    # ``quarter`` or ``year``), not the measure; of the rest the one named nearest after the
    # superlative is the measure ("the most cancelled flights": cancelled, not flights), then the
    # one of most distinct values, then the commonest.
    distinct: dict[str, set[float]] = {}
    for field in named:
        distinct.setdefault(field.name, set()).add(field.value)
    most_distinct = max(len(values) for values in distinct.values())
    measures = [key for key in distinct if len(distinct[key]) * _FEW_DISTINCT >= most_distinct]
    name = max(measures, key=lambda key: (-_named_at(key, extreme), len(distinct[key]), given[key]))
    candidates = [field for field in named if field.name == name]
    named_words = _named_words(name, extreme.words)
    falling = (_FALLING & set(extreme.words)) - named_words
    if falling and extreme.most:  # "the largest negative change": the most negative
        extreme = replace(extreme, most=False)
    not_filters = _ROW_NOUNS | named_words | falling
    others = [word for word in extreme.words if word not in not_filters]
    if others:
        held = [_held(_around(lines[field.line], field.span), others) for field in candidates]
        most_held = max(held)
        # Words on one line only name where the lines are ("the largest file in physics": the
        # directory's own entry), not which of them: a filter needs two lines to compare.
        if most_held and held.count(most_held) > 1:
            candidates = [field for field, count in zip(candidates, held, strict=True) if count == most_held]
    own = [field for field in candidates if not _TOTAL_ROW.match(lines[field.line])]
    candidates = own if own else candidates
    if name == "size":
        candidates = _without_root(lines, candidates)
    if len(candidates) < 2:  # one line holds the field: nothing to compare, the search finds it
        return None
    values = [field.value for field in candidates]
    best_value = max(values) if extreme.most else min(values)
    holding = [field for field in candidates if field.value == best_value]
    if len(holding) * 2 > len(candidates):  # most lines share it (dates of one import): it tells none apart
        return None
    pick = holding[0]  # of lines sharing it, the first, and the next few
    ties = tuple(dict.fromkeys(field.line for field in holding[1:] if field.line != pick.line))[:_TIES]
    return ExtremeLine(pick.line, pick.header, pick.name, pick.span, ties)


def _without_root(lines: Sequence[str], candidates: list[Field]) -> list[Field]:
    """A listing's entries but its root, the directory holding all the others (``du``'s last line,
    ``15M  src/twisted``): its size sums theirs up, as a ``TOTAL`` row's does."""
    entries = {field.line: sized_entry(lines[field.line]) for field in candidates}
    paths = {line: entry[0].rstrip("/") for line, entry in entries.items() if entry is not None}
    if len(paths) < 3:
        return candidates
    root = min(paths.values(), key=len)
    if not all(path == root or path.startswith(f"{root}/") for path in paths.values()):
        return candidates
    return [field for field in candidates if paths.get(field.line) != root]


def extreme_passage(texts: Sequence[str], extreme: Extreme, weight: float) -> tuple[int, LineMatch] | None:
    """The extreme line among the chunks ``texts`` (in order): its chunk's place and its passage,
    worth ``weight``, with its table's header line as the passage's unit; None when none is found."""
    lines: list[str] = []
    places: list[tuple[int, int]] = []  # each line's chunk (its place in texts) and number in it
    for place, text in enumerate(texts):
        own = text.splitlines()
        lines.extend(own)
        places.extend((place, number) for number in range(len(own)))
    found = extreme_line(lines, extreme)
    if found is None:
        return None
    place, number = places[found.line]
    unit: tuple[tuple[int, str], ...] = ()
    spans = [(*found.span, 1.0)] if found.span else []
    line = cut(lines[found.line], spans, LINE_WIDTH, str)
    if found.header is not None:
        header_place, header_number = places[found.header]
        shown = header_number if header_place == place else HEADER_LINE
        header = cut(lines[found.header], (), LINE_WIDTH, str)
        if found.span is not None and line.startswith(ELLIPSIS):
            line, header = wide_row(lines[found.line], lines[found.header], found.span, found.field)
        unit = ((shown, header),)
    tied = tuple(
        (places[tie][1], cut(lines[tie], (), LINE_WIDTH, str))
        for tie in found.ties
        if places[tie][0] == place
    )
    return place, LineMatch(number, line, weight, ((f"@{found.field}", weight),), 1, unit + tied, grows=True)


def _name_score(name: str, extreme: Extreme) -> float:
    """How well a field's name matches the query: its words named, a word the superlative implies half."""
    named = _named_words(name, extreme.words)
    if named:
        return float(len(named))
    # The fields a superlative implies are in order, the likeliest first ("lightest": a weight or
    # a mass before a size, which a length may be).
    implied = [at for at, word in enumerate(extreme.implied) if _word_matches_name(word, name)]
    return IMPLIED_SHARE - _IMPLIED_STEP * implied[0] if implied else 0.0


def _named_at(name: str, extreme: Extreme) -> int:
    """How far after the superlative the first query word naming the field is (words before it
    count after all those after it)."""
    named = _named_words(name, extreme.words)
    count = len(extreme.words)
    places = [
        at - extreme.before if at >= extreme.before else count + at
        for at, word in enumerate(extreme.words)
        if word in named
    ]
    return min(places, default=2 * count)


def _names_any(names: set[str], words: Sequence[str]) -> bool:
    """Whether the query's words name any of the fields ``names`` (each distinct name once)."""
    return any(_named_words(name, words) for name in names)


def _named_words(name: str, words: Sequence[str]) -> set[str]:
    """The words that name a part of the field's name, whose beginnings run together make a part
    (``tbilrate`` for "treasury bill rate", ``realinv`` for "real investment"), or whose initials
    are its name (``RSS`` for "resident set size")."""
    named = {word for word in words if _word_matches_name(word, name)}
    for part in PART.findall(name):
        run = _run_of_beginnings(part.lower(), words)
        if len(run) > len(named & set(run)):
            named |= set(run)
    letters = name.strip("%#_").lower()
    if not named and 2 <= len(letters) <= 5 and letters.isalpha():
        initials = "".join(word[0] for word in words)
        at = initials.find(letters)
        if at >= 0:
            named = set(words[at : at + len(letters)])
    return named


def _run_of_beginnings(part: str, words: Sequence[str]) -> list[str]:
    """Two or more of ``words``, in their order, whose beginnings make up ``part`` whole (``t`` +
    ``bil`` + ``rate``), the longest such run, one beginning at least ``_RUN_PIECE`` letters long
    (``BUSH`` is no "buchanan share"); [] when there is none."""
    if len(part) < _RUN_MIN or not part.isalpha():
        return []

    # memoised: polynomial in the part and the words; each word with the length of its beginning
    known: dict[tuple[int, int], list[tuple[str, int]] | None] = {}

    def cover(at: int, first: int) -> list[tuple[str, int]] | None:
        if at == len(part):
            return []
        if (at, first) in known:
            return known[at, first]
        found: list[tuple[str, int]] | None = None
        for index in range(first, len(words)):
            word = words[index]
            for length in range(min(len(word), len(part) - at), 0, -1):
                if word[:length] == part[at : at + length]:
                    rest = cover(at + length, index + 1)
                    if rest is not None:
                        found = [(word, length), *rest]
                        break
            if found is not None:
                break
        known[at, first] = found
        return found

    found = cover(0, 0) if len(words) <= _RUN_WORDS else None
    if found is None or len(found) < 2 or max(length for _, length in found) < _RUN_PIECE:
        return []
    return [word for word, _ in found]


def _word_matches_name(word: str, name: str) -> bool:
    """Whether a query word names a part of a field's name (stem, short form or prefix)."""
    parts = [part.lower() for part in PART.findall(name) if part.isalnum()]
    if not parts:
        return False
    stem = stem_of(word)
    short = {form.lower() for form in ABBREVIATIONS.get(word, ())}
    for part in parts:
        if stem_of(part) == stem or part in short:
            return True
        if len(part) >= 3 and word.startswith(part) or len(word) >= 4 and part.startswith(word):
            return True
        if len(word) >= 4 and part.endswith(word) and len(part) - len(word) <= _PREFIX:
            return True  # a letter or two before it say which (ncdu's asize, stat's mtime)
    return False


def _around(line: str, span: tuple[int, int] | None) -> str:
    """The line, or of a long one (records on one line) the ``{…}`` record around the field's pair
    (flat: from the ``{`` before it to the ``}`` after it), else the part around the pair."""
    if len(line) <= MAX_LINE or span is None:
        return line
    reach = MAX_LINE // 4
    opening = line.rfind("{", max(0, span[0] - reach), span[0])
    closing = line.find("}", span[1], span[1] + reach)
    if opening >= 0 and closing >= 0:
        return line[opening : closing + 1]
    return line[max(0, span[0] - reach) : span[1] + reach]


def _held(line: str, words: Sequence[str]) -> int:
    """How many of ``words`` the line holds (by stem)."""
    stems = {stem_of(token.lower()) for token in TOKEN.findall(line)}
    return sum(stem_of(word) in stems for word in words)
