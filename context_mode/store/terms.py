"""The query side of search: what the index is asked, and the terms a chunk's lines are matched on.

- ``index_queries(query)`` builds the tantivy query strings: quoted phrases and words, a word
  with inner punctuation (``4.18.2``, ``web.xml``, ``body-parser``, ``request_started``) being
  a phrase of its parts; the same with identifiers split (for the ``body_split`` field); and
  each pair of neighbouring words as a phrase allowing one word between them.
- ``exact_query(query)`` is the phrase query of its versions, codes and addresses, which the
  index boosts (their parts are common numbers, so BM25 alone ranks them low).
- ``with_numeric_dates(query)`` adds the numbers of a date the query names by its month's name
  ("March 2009": ``2009-03``), as data spells it; the index's and an intent's searches take it.
- ``query_terms(query)`` parses the query the same way into ``Term``s (stems in order, the same
  with identifiers split, and the stems of a word's short forms from ``words.ABBREVIATIONS``;
  two neighbouring plain words also stand for the two run together, ``fontsize`` for "font
  size", ``ProcessProtocol`` for "process protocol", an alternative of both terms, as is the short
  form code spells them as, ``words.PHRASE_FORMS``' ``cli`` for "command line"; a
  major.minor version stands for its digits run together too, ``313`` of "3.13" in
  ``grammar313.txt`` or ``cp313``); ``alternative_words(terms)`` is those alternatives as a query.
  All three drop English function words (``context_mode.words``) unless the query has nothing else.
- ``stem(word)`` is the index's English stemmer (``stem_of``: the same, memoised), so a term's
  stems are the ones the index holds.
- ``line_filter(terms)`` is a cheap test, from each term's ``probes`` (text every word that
  stems to it holds), that is false only for lines holding none of the terms: most lines of a
  chunk are never tokenised (``store.line_match`` matches the rest).

Everything is linear in the query (at most ``MAX_TERMS`` terms are kept) and never raises on a ``str``.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import tantivy

from context_mode.identifiers import split_identifiers
from context_mode.words import ABBREVIATIONS, PHRASE_FORMS, is_function_word

MAX_TERMS = 32

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
_WORD = re.compile(r"\w+")
# An identifier's parts: ``getUserById`` -> get, User, By, Id; ``HTTPServer`` -> HTTP, Server.
PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W_0-9A-Za-z]+")


@dataclass(frozen=True, slots=True)
class Term:
    """One query unit: a word, a punctuated word or a quoted phrase, as stems in order."""

    text: str
    stems: tuple[str, ...]  # as the index tokenizes it
    split: tuple[str, ...]  # with identifier parts split (getUserById -> get user by id)
    near: bool = False  # a word the index lacks: matches a word one edit away (Bolivian ~ Bolivia)
    # stems of its short forms (``words.ABBREVIATIONS``: arg, cfg) and of it run together with a
    # neighbouring word of the query (``columnheader``)
    alternatives: tuple[str, ...] = ()

    @property
    def probes(self) -> tuple[str, ...]:
        """Lowercase text a line must contain to hold this term: the start of its first stems.

        The English stemmer only ever changes the last two characters of what it keeps of a word
        (``proxy`` -> ``proxi``, ``sensibility`` -> ``sensibl``, ``hoping`` -> ``hope``), so a
        stem less its last two characters is in the word (at least its first three, less the
        last one, for short stems; a stem ending in ``ie`` less both, as ``dying`` -> ``die``). A
        word matched one edit away can differ anywhere past its first letters: its probe is three
        characters at most.
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
    previous: tuple[int, str] | None = None  # the last term kept, if a plain word: (index, word)
    for order, match in enumerate(QUERY_PART.finditer(query)):
        text = match.group(1) if match.group(1) is not None else match.group(2)
        if match.group(2) is not None and not keep_all and is_function_word(text):
            continue
        stems = tuple(_stems(text))
        if not stems or stems in seen:
            previous = None
            continue
        seen.add(stems)
        others = _alternatives_of(text, stems[0]) if len(stems) == 1 else _run_together(stems)
        word = text if match.group(2) is not None and text.isalpha() else ""
        if word and previous is not None and previous[0] == order - 1:
            # Neighbouring words run together as one (``fontsize`` for "font size"): both terms'.
            glued = stem_of((previous[1] + word).lower())
            if glued and len(previous[1]) > 1 and len(word) > 1:
                # and as the short form code spells the two as (``cli`` for "command line")
                short = tuple(stem_of(form) for form in PHRASE_FORMS.get(f"{previous[1]} {word}".lower(), ()))
                others = (*others, glued, *short)
                last = terms[-1]
                terms[-1] = replace(last, alternatives=(*last.alternatives, glued, *short))
        previous = (order, word) if word else None
        terms.append(Term(text, stems, tuple(split_stems(text)), alternatives=others))
        if len(terms) >= MAX_TERMS:
            break
    return terms


def _run_together(stems: tuple[str, ...]) -> tuple[str, ...]:
    """A major.minor version's digits run together, as names spell it (``313`` of "3.13" in
    ``grammar313.txt``, ``cp311``, ``py39``)."""
    if len(stems) == 2 and len(stems[0]) == 1 and 1 <= len(stems[1]) <= 2 and "".join(stems).isdigit():
        return ("".join(stems),)
    return ()


@functools.cache
def _alternatives() -> dict[str, tuple[str, ...]]:
    """``words.ABBREVIATIONS`` by the stem of the full word, as stems (``argument``: arg, argv)."""
    found: dict[str, tuple[str, ...]] = {}
    for full, forms in ABBREVIATIONS.items():
        stems = tuple(dict.fromkeys(s for form in forms if (s := stem(form)) and len(s) >= 2))
        found[stem(full)] = tuple(s for s in stems if s != stem(full))
    return found


@functools.cache
def _exact() -> dict[str, tuple[str, ...]]:
    """``words.ABBREVIATIONS`` by the full word itself, as stems."""
    return {
        full: tuple(
            dict.fromkeys(s for form in forms if (s := stem(form)) and len(s) >= 2 and s != stem(full))
        )
        for full, forms in ABBREVIATIONS.items()
    }


def _alternatives_of(text: str, stemmed: str) -> tuple[str, ...]:
    """A word's short forms: its own when ``words`` lists it ("initialization": init, where
    "initial", of the same stem, stands for "default"), else those of its stem ("arguments")."""
    own = _exact().get(text.lower())
    return own if own is not None else _alternatives().get(stemmed, ())


def alternative_words(terms: Sequence[Term]) -> str:
    """The terms' alternatives (short forms, words run together), as a query for the index
    (``arg argv cfg columnheader``)."""
    return " ".join(dict.fromkeys(other for term in terms for other in term.alternatives))


_MONTHS = "january february march april may june july august september october november december".split()
_MONTH_NAME = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_NAMED_DATE = re.compile(
    rf"\b{_MONTH_NAME}\s+(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b,?\s*)?(?P<year>\d{{4}})?\b"
    rf"|\b(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH_NAME.replace('month', 'month2')}\b"
    r"(?:,?\s+(?P<year2>\d{4}))?",
    re.IGNORECASE,
)


def month_number(name: str) -> int:
    """The number of the month ``name`` spells or shortens (``Dec``, ``march``; 1 to 12), or 0."""
    short = name[:3].lower()
    return next((number for number, full in enumerate(_MONTHS, 1) if full.startswith(short)), 0)


def with_numeric_dates(query: str) -> str:
    """``query`` with each date it names by its month's name also spelled in numbers, as data
    holds it: "March 2009" adds ``2009-03``, "July 4" ``07-04``, "4 July 2010" ``2010-07-04``
    (a phrase of the parts: it matches 2009-03-01 and 2010/07/04). "may" needs a year."""
    added: list[str] = []
    for match in _NAMED_DATE.finditer(query):
        name = (match.group("month") or match.group("month2") or "").lower()
        day, year = match.group("day") or match.group("day2"), match.group("year") or match.group("year2")
        if not (day or year) or (name == "may" and not year):  # "you may 2 go"
            continue
        parts = [year] if year else []
        parts.append(f"{month_number(name):02d}")
        if day and 1 <= int(day) <= 31:
            parts.append(f"{int(day):02d}")
        elif not year:
            continue
        added.append("-".join(parts))
    return f"{query} {' '.join(added)}" if added else query


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


def _only_function_words(query: str) -> bool:
    """Whether every unquoted word of ``query`` is a function word (then they are all kept)."""
    return all(
        is_function_word(match.group(2)) for match in QUERY_PART.finditer(query) if match.group(2) is not None
    )


# Stems of tokens, memoised across chunks and queries (tokens repeat a lot in logs and JSON, and
# the same chunks come back for related queries); a C-level cache call costs less than a lookup
# through a Python method. Bounded: 16k tokens, about 4 MB at most.
stem_of = functools.lru_cache(maxsize=1 << 14)(stem)


def probe(stem: str, near: bool = False) -> str:
    """Lowercase text every word that stems to ``stem`` holds (see ``Term.probes``)."""
    short = max(1, min(3, len(stem) - 1))
    if stem.endswith("ie") and not near:  # ``dying`` -> ``die``, ``lying`` -> ``lie``: the ``ie`` is a ``y``
        return stem[: max(1, len(stem) - 2)]
    return stem[:short] if near else stem[: max(short, len(stem) - 2)]


def line_filter(terms: Sequence[Term]) -> Callable[[str], bool]:
    """Whether a line may hold one of ``terms``: false only for lines ``line_match.scan`` finds none in.

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


def _prober(terms: Sequence[Term]) -> re.Pattern[str]:
    """One search for any term's probe in a lowercased line."""
    probes = sorted({probe for term in terms for probe in term.probes}, key=len, reverse=True)
    return re.compile("|".join(re.escape(probe) for probe in probes) or r"(?!)")


def _stems(text: str) -> list[str]:
    return [s for s in (stem(token) for token in TOKEN.findall(text)) if s]


def split_stems(text: str) -> list[str]:
    """The stems of the text's words' parts (``country_car`` -> ``countri``, ``car``)."""
    return [s for token in TOKEN.findall(text) for part in PART.findall(token) if (s := stem(part))]
