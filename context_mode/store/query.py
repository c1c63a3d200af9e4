"""The passages of one found chunk: the lines that hold a query's terms, with their units.

A search finds chunks; the agent needs the exact line. The first of two steps, over the ``Term``s of
``store.terms`` matched as ``store.line_match`` matches them:

- ``best_lines(text, terms, weights, heading=...)`` finds the passages of one chunk that hold
  query terms. A passage is one line, or a line and the next when each has terms the other
  lacks (a sentence wrapped over two lines), or a line that opens a call with the lines of its
  arguments (``raise TooManyRedirects(`` and its message below); a passing test's line
  (``--- PASS``, ``=== RUN``, ``… ok``) is worth ``CHATTER_SHARE`` of its terms, as is a table of
  contents' entry (a line that is only a link to a heading of the page). A term's weight
  is its inverse document frequency (among the chunks of the payload searched, for a search of
  one), cut to ``HEADING_SHARE`` when the chunk's heading path already holds it (the
  heading is shown with the hit, so a line repeating it adds little). A chunk of a few short
  lines (a commit header, a small record) is one passage, shown whole. In a JSON chunk, the
  fields the query names in the record around its heaviest other match are a passage too;
  ``record_card`` is that passage from a record's first chunk, for a hit in a later one. In
  nested lines (pretty-printed JSON, an accessibility snapshot, a drawn tree), an entry whose
  enclosing lines hold query terms is a passage with those lines as its unit (``"nodejs": {``
  above ``"version_added": "22.0.0"``, ``table "…optimal MTU value"`` above ``cell "576"``): a
  query names a nested value by its path, and the value's line holds none of its words. In a
  diff, a query's "removed" ("deleted", "dropped") is held by a removed line that holds another
  of its terms, its "added" ("new") by an added one: the line changed the way the query asks.

The reply's choice among the passages of all hits is ``store.choosing.choose_lines``.

Lines are verbatim without their indentation; a line longer than ``width`` characters is cut to
the ``width`` characters around its heaviest matches, with ``…`` where it was cut. Everything is
linear in the chunk (at most a few kB) and never raises on a ``str``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from context_mode.chunking import DRAWN_ENTRY
from context_mode.diagnostics import clean_line
from context_mode.levels import PASSING
from context_mode.store.cutting import LINE_WIDTH, Span, cut
from context_mode.store.excerpts import indent, is_punctuation
from context_mode.store.json_fields import Member, members, record_fields, scope
from context_mode.store.line_match import Matched, scan, terms_held, union, worth_of
from context_mode.store.line_records import RECORD_CHARS
from context_mode.store.terms import PART, TOKEN, Term, is_exact, line_filter, stem_of
from context_mode.store.values import LineMatch

SMALL_CHUNK_BYTES = 360
SMALL_CHUNK_LINES = 8
HEADING_SHARE = 0.3
CHATTER_SHARE = 0.3
# A table of contents' entry, a link to a heading of the page (``+ [The `yield_fixture`
# function/decorator](#the-yield-fixture-function-decorator)``): it names a section, it does not
# say what the section says.
_TOC_ENTRY = re.compile(r"\s*(?:[-*+]|\d+\.)?\s*\[[^\]\n]+\]\(#[^)\s]*\)\s*\Z")
_MAX_PASSAGES = 400  # per chunk: plenty for a budget of a few lines
_MAX_UNITS = 4  # best passages per hit given their unit's lines: few fit the budget anyway
_CONTINUATION = 3  # lines of an open call's arguments shown with it
_RUN_LINES = 3  # neighbouring lines holding one term that make a run (its first and last are shown)
FIELDS_LINE = -2  # a record's named fields joined on one line, shown first (a record card is -1)
# A query's terms are the same for each of its hits: their filter is built once per query.
_line_filter_of = functools.lru_cache(maxsize=64)(line_filter)


def best_lines(
    text: str,
    terms: Sequence[Term],
    weights: Mapping[tuple[str, ...], float],
    *,
    heading: str = "",
    width: int = LINE_WIDTH,
) -> tuple[LineMatch, ...]:
    """The chunk's passages that hold query terms, best first (see module doc)."""
    stemmer = stem_of
    in_heading = terms_held(heading, terms) if heading else set()
    weight = {
        term.stems: weights.get(term.stems, 1.0) * (HEADING_SHARE if term.stems in in_heading else 1.0)
        for term in terms
    }
    rows = [(number, line) for number, line in enumerate(text.splitlines()) if line.strip()]
    small = len(text.encode("utf-8", "surrogatepass")) <= SMALL_CHUNK_BYTES and len(rows) <= SMALL_CHUNK_LINES
    may_hold = _line_filter_of(tuple(terms))
    scanned = [
        (number, line, *scan(line, terms, weight, stemmer))
        if small or may_hold(line)
        else (number, line, (), [])
        for number, line in rows
    ]
    if small:
        matched = union(found for *_, found, _ in scanned)
        if not matched:
            return ()
        text = "\n".join(_cut(line, spans, width) for _, line, _, spans in scanned)
        return (LineMatch(scanned[0][0], text, worth_of(matched), matched, len(scanned)),)
    scanned = _with_direction(scanned, terms, weight)
    passages: list[LineMatch] = []
    nested = _nested_members(scanned, width)
    passages.extend(nested.values())
    for order, (number, line, found, spans) in enumerate(scanned):
        if not found or number in nested:
            continue
        shown = _cut(line, spans, width)
        # A passing test's line (``--- PASS``, ``=== RUN``, ``… ok``, after a CI stamp too) rarely
        # answers: a failure does.
        chatter = PASSING.match(clean_line(line)) or _TOC_ENTRY.match(line)
        worth = worth_of(found) * (CHATTER_SHARE if chatter else 1.0)
        more = _continuation(scanned, order)
        if more:  # an open call's arguments go with it (``raise TooManyRedirects(`` then its message)
            joined = "\n".join([shown, *(_cut(scanned[i][1], scanned[i][3], width) for i in more)])
            passages.append(
                LineMatch(
                    number, joined, worth, union([found, *(scanned[i][2] for i in more)]), 1 + len(more)
                )
            )
        else:
            passages.append(LineMatch(number, shown, worth, found))
        if order + 1 < len(scanned):
            after_number, after_line, after_found, after_spans = scanned[order + 1]
            mine, theirs = {key for key, _ in found}, {key for key, _ in after_found}
            if theirs - mine and mine - theirs and after_number == number + 1:
                both = union([found, after_found])
                joined = shown + "\n" + _cut(after_line, after_spans, width)
                passages.append(LineMatch(number, joined, worth_of(both), both, 2))
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


_CHANGED_MEMBER = re.compile(r'^[+-][ \t]*"[^"\n]*"\s*:', re.MULTILINE)  # a diff's added or removed member
# A query word naming which way a diff changed: a line it changed that way holds it. "Removed" is
# a word of ``words``' remove/delete/drop group (a term holding "remov" among its forms).
_REMOVED = "remov"
_ADDED = frozenset(("add", "new", "introduc"))


def _with_direction(
    scanned: list[tuple[int, str, Matched, list[Span]]],
    terms: Sequence[Term],
    weight: Mapping[tuple[str, ...], float],
) -> list[tuple[int, str, Matched, list[Span]]]:
    """The scanned lines, a diff's removed line (``-…``) that holds another query term holding
    the query's "removed" too ("deleted", "dropped"), an added one (``+…``) its "added" ("new"):
    of lines naming what the query names, the one changed the way it asks."""
    ways = [(term, way) for term in terms if len(term.stems) == 1 and (way := _way(term))]
    if not ways:
        return scanned
    out = []
    for number, line, found, spans in scanned:
        mark = line[:1]
        if found and mark in ("+", "-") and not line.startswith(("+++", "---")):
            held = [(" ".join(term.stems), weight.get(term.stems, 1.0)) for term, way in ways if way == mark]
            found = union([found, tuple(held)]) if held else found
        out.append((number, line, found, spans))
    return out


def _way(term: Term) -> str:
    """The mark of the diff lines a one-word term names: ``-`` for "removed" and its synonyms,
    ``+`` for "added" ("new", "introduced"), "" for any other word."""
    if _REMOVED in (term.stems[0], *term.alternatives):
        return "-"
    return "+" if term.stems[0] in _ADDED else ""


# A pretty-printed JSON line: a member (``"key": …``), an array's item, or a bracket.
_JSON_LINE = re.compile(
    r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*(?::|,?\s*\Z)|[\[\]{}]|(?:-?\d[\d.eE+-]*|true|false|null),?\s*\Z)'
)
_OPENS = re.compile(r"[\[{]\s*\Z")  # a JSON line that opens an object or array
_NESTED_SHARE = 0.6  # of a chunk's lines, at least, for it to be read as nested (JSON, YAML, a tree)
# An indented YAML-like line (an accessibility snapshot's ``- cell "576" [ref=e9]``, ``key: value``).
_YAML_LINE = re.compile(r"\s*(?:- |[\w.\-]+:(?:\s|\Z))")
PATH_SHARE = 0.7  # what a term held by an entry's enclosing lines is worth to it
_PATH_REACH = 2  # the entry or one of its nearest enclosing lines holds a term


def _depth_of(scanned: Sequence[tuple[int, str, Matched, list[Span]]]) -> Callable[[str], int] | None:
    """How deep a line of this chunk is nested, if it is pretty-printed JSON, indented YAML-like
    lines (an accessibility snapshot) or a drawn tree."""
    least = _NESTED_SHARE * len(scanned)

    def most(pattern: re.Pattern[str]) -> bool:
        return sum(1 for _, line, _, _ in scanned if pattern.match(line)) >= least

    if most(_JSON_LINE) or most(_YAML_LINE):  # nested by indentation
        return indent
    if most(DRAWN_ENTRY):
        # A drawn tree's entry (``│   ├── name``) is as deep as where its name starts.
        return lambda line: drawn.end() if (drawn := DRAWN_ENTRY.match(line)) else 0
    return None


def _nested_members(
    scanned: Sequence[tuple[int, str, Matched, list[Span]]], width: int
) -> dict[int, LineMatch]:
    """For nested lines (JSON, a snapshot, a drawn tree): entries whose enclosing lines hold query terms.

    A query names a nested value by its path ("node support for fromAsync": ``"fromAsync"`` ›
    ``"support"`` › ``"nodejs"`` › ``"version_added": "22.0.0"``; "size of the rst parser states
    module": ``parsers`` › ``rst`` › ``states.py``; "optimal MTU for dial-up": a snapshot's
    ``table "…optimal MTU value"`` › ``row`` › ``cell "576"``); the entry's line holds few of
    those words.
    An entry whose own line or one of its ``_PATH_REACH`` nearest enclosing lines holds a term,
    and which with its enclosing lines holds two terms or more, is a passage worth its own terms
    and ``PATH_SHARE`` of its enclosing lines' others; those lines that hold terms (and its
    parent) are its unit, so the reply shows the path.
    """
    depth_of = _depth_of(scanned)
    if depth_of is None:
        return {}
    found_passages: dict[int, LineMatch] = {}
    stack: list[tuple[int, int]] = []  # the lines enclosing a line: (depth, order in scanned)
    for order, (number, line, found, spans) in enumerate(scanned):
        depth = depth_of(line)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        enclosing = [at for _, at in stack]
        stack.append((depth, order))
        if not enclosing or is_punctuation(line) or _OPENS.search(line):
            continue
        if not found and not any(scanned[at][2] for at in enclosing[-_PATH_REACH:]):
            continue
        own = {key for key, _ in found}
        path: dict[str, float] = {}
        for at in enclosing:
            for key, weight in scanned[at][2]:
                if key not in own:
                    path[key] = weight * PATH_SHARE
        if not path or len(own) + len(path) < 2:
            continue
        matched = union([found, tuple(path.items())])
        unit = tuple(
            (scanned[at][0], _cut(scanned[at][1], scanned[at][3], width))
            for at in enclosing
            if scanned[at][2] or at == enclosing[-1]
        )
        shown = _cut(line, spans, width)
        found_passages[number] = LineMatch(number, shown, worth_of(matched), matched, unit=unit)
    return found_passages


def _continuation(scanned: Sequence[tuple[int, str, Matched, list[Span]]], order: int) -> list[int]:
    """Indexes in ``scanned`` of the lines an open call on line ``order`` goes on to: up to
    ``_CONTINUATION`` next lines, indented deeper, after one ending in ``(`` or ``[``, while they
    end in a comma or an opening bracket; none when the line is no open call."""
    opener = scanned[order][1]
    if not opener.rstrip().endswith(("(", "[")):
        return []
    opened = indent(opener)
    out: list[int] = []
    for index in range(order + 1, min(len(scanned), order + 1 + _CONTINUATION)):
        line = scanned[index][1]
        if scanned[index][0] != scanned[index - 1][0] + 1 or indent(line) <= opened:
            break
        out.append(index)
        if not scanned[index][1].rstrip().endswith((",", "(", "[")):
            break
    return out


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
    stemmer = stem_of
    shown, worth, keys = _fields(text, found, terms, weights, stemmer)
    if not shown:
        return None
    # As a fields passage: the terms the card holds (the record's name), and its named fields again.
    matched = union(
        [keys, scan(shown, terms, {term.stems: weights.get(term.stems, 1.0) for term in terms}, stemmer)[0]]
    )
    return LineMatch(-1, shown, worth_of(matched) + worth, matched)


def _fields_passage(
    text: str,
    scanned: Sequence[tuple[int, str, Matched, list[Span]]],
    terms: Sequence[Term],
    weight: Mapping[tuple[str, ...], float],
    stemmer: Callable[[str], str],
) -> LineMatch | None:
    """For a JSON chunk: the fields the query names in the record around its heaviest other match.
    None for a diff of JSON (``+    "check:format": …``): joined, its fields would lose whether
    they were added or removed."""
    if '":' not in text or len(text) <= LINE_WIDTH or _CHANGED_MEMBER.search(text):
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
    named = {stem for term in terms for stem in term.stems}
    best: tuple[float, int, int, Matched, str, list[Span]] | None = None  # rank, line, offset, …
    offset = 0
    for number, line, found, spans in scanned:
        offset = text.find(line, offset)
        for start, end, _ in spans:
            key = _span_term(line[start:end], stemmer)
            if key not in rank:
                continue
            # A match that is a member's whole value ranks above one inside another value, and
            # most when the query names its key too ("sample 18": ``"sample_id": 18``).
            worth = rank[key]
            ends = line[end : end + 1] in _VALUE_ENDS
            owner = _WHOLE_VALUE.search(line, max(0, start - _KEY_REACH), start) if ends else None
            if owner is not None and owner.end() == start:
                shared = set(key_stems.get(owner.group(1), ())) & named
                worth *= _NAMED_VALUE if shared else _WHOLE_VALUE_BONUS
            if best is None or worth > best[0]:
                best = (worth, number, offset + start, found, line, spans)
    if best is None:
        return None
    _, number, anchor, found, line, spans = best
    begin, end = scope(text, anchor)
    in_scope = members(text, begin, end)
    shown, worth, keys = _fields(text, in_scope, terms, weight, stemmer, key_stems)
    if not shown:
        return None
    matched = union([found, keys])
    # The named fields are what was asked for: worth their terms again over the line they are in.
    if "\n" not in text[begin:end]:
        # A small record is shown as written (its line when that is all it holds): its fields
        # joined would drop its braces and quotes, and the names of the fields not asked for.
        if end - begin <= RECORD_CHARS:
            whole = line.strip()
            shown = whole if len(whole) <= RECORD_CHARS else text[begin:end]
        return LineMatch(number, shown, worth_of(matched) + worth, matched)
    # A record over several lines: its anchor line stays itself (it is what matched the record's
    # name, and a passage that took its number would hide it), the fields joined as its unit.
    return LineMatch(
        number,
        _cut(line, spans, LINE_WIDTH),
        worth_of(matched) + worth,
        matched,
        unit=((FIELDS_LINE, shown),),
    )


# A member's key right before its value (``"sample_id": `` or ``"sample_id": "``), and what may
# follow a whole value: how a match is known to be all of a member's value.
_WHOLE_VALUE = re.compile(r'"((?:[^"\\\n]|\\.){1,80})"\s*:\s*"?\Z')
_VALUE_ENDS = frozenset(('"', ",", "}", "]", ""))
_KEY_REACH = 96  # characters before a value looked at for its key
_WHOLE_VALUE_BONUS = 1.2
_NAMED_VALUE = 1.5


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
        member.key: tuple(stemmer(part.lower()) for part in PART.findall(member.key))
        for member in (members(text) if found is None else found)
    }


def _cut(line: str, spans: Sequence[Span], width: int) -> str:
    """``cutting.cut`` with the query's terms keyed by their stems."""
    return cut(line, spans, width, _term_key)


def _term_key(matched: str) -> str:
    return _span_term(matched, stem_of)
