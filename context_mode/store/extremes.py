"""The line holding a field's largest or smallest value, for a query that asks for one.

"the process with the highest cpu percent", "the slowest query's duration", "the heaviest
package by installed size": the answer is the line whose value for a named field is the
extreme, and no query word need be on it more than on the lines around it.

- ``extreme_asked(query)`` says whether a query asks for an extreme (an ``Extreme``: ``most`` or
  ``least``, and the query's other words), by its superlative ("highest", "slowest", "fewest",
  "max"); "first", "last" and "top" name positions, not values, and do not count.
- ``extreme_line(lines, extreme)`` finds the line among a payload's lines. A line's fields are
  read three ways: ``key=value``, ``key: value`` and ``"key": value`` pairs; the columns of a
  table under its header line (aligned by the header's character spans for a whitespace table such
  as ``ps aux``, ``iostat -x`` or ``lsof``; by cell for a ``|``, ``│``, ``,`` or tab separated
  one, a row of types or units under the names skipped, a ``TOTAL`` row or the line under a
  closing rule left out; a header over its rule right after a table's rows opens the next table,
  as sqlite's ``-column`` prints results one after another); the size of a listing's entry
  (``ls -l``, ``du``, ``tree -s``, ``find -printf '%s %p'``, ``list_directory_with_sizes``; its root,
  holding all the others, left out), named "size", and a test's time as its runner prints it
  (``(3225ms)``, ``3.21s call``), named "duration"; a value may carry a size or time unit
  (``1.5M``, ``12 ms``, ``3,214``). The field is the one whose name's parts best match the query's
  words (``%CPU`` for "cpu", ``usec_per_call`` for "microseconds per call", ``tbilrate`` for
  "treasury bill rate", ``RSS`` for "resident set size"; a word the superlative implies, such as a
  time for "slowest", counts half). When some of the field's lines hold more of the query's other
  words than the rest ("for the reporting job"; not words naming what the rows are, such as
  "process" or "file", or the listing, such as "source tree" or "disk usage"), only those compete,
  when two or more do (a word on one line only names where the lines are: "the largest file in
  physics", the directory's entry). Of lines sharing the extreme the first is named, the next two
  shown with it; when most lines share it, or the field is on one line only, no line is named:
  None. Words after a negation ("non-null") are dropped; a falling word the field's name does not
  hold ("the largest negative change", "the biggest drop") asks for the most negative value.

It returns the line's index and its table's header line's index (or None). Linear in the lines;
never raises on a ``str``. ``extreme_passage(texts, extreme, weight)`` is that line among a
payload's chunks as a passage of its chunk, its header line shown above it, for a search reply
or an intent's passages; a row too wide to show whole keeps its first cell, then the cells around
the asked one, and its header is cut alike (``wide_row``: at the same place in an aligned table,
so the cell stays under its name). Pure.
"""

from __future__ import annotations

import bisect
import csv
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from context_mode.shapes import sized_entry
from context_mode.store.cutting import ELLIPSIS, LINE_WIDTH, cut, window
from context_mode.store.terms import PART, TOKEN, month_number, stem_of
from context_mode.store.values import LineMatch
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
    "longest": "time duration elapsed",
    "shortest": "time duration elapsed",
    "slowest": "time duration elapsed",
    "fastest": "time duration elapsed",
    "largest": "size bytes count total",
    "biggest": "size bytes count total",
    "smallest": "size bytes count total",
    "heaviest": "weight size mass",
    "lightest": "weight size mass",
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
_NUMBER = (
    r"(?<![\w.])(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
    r"(?:\s?(KiB|MiB|GiB|TiB|kB|KB|MB|GB|TB|[KMGTkmgt]|ms|us|µs|s|sec|min|h)\b|%)?"
    r"(?![\w.]*\d)(?!\.[^\W\d])(?![-:/]\d)"  # no version (4.18.2, 3.x), no date or time (2011-11-30)
)
_VALUE = re.compile(_NUMBER + r"(?![\w.])")
# A date or a timestamp: ISO 8601 (or with a space), git's ``Mon Dec 10 00:59:56 2018``, RFC 2822's
# ``Mon, 10 Dec 2018 00:59:56``; ordered by its digits.
_ISO_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?"
)
_MONTH = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_GIT_DATE = re.compile(r"(?:[A-Z][a-z]{2},? )?" + _MONTH + r" +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})")
_MAIL_DATE = re.compile(r"(?:[A-Z][a-z]{2}, )?(\d{1,2}) " + _MONTH + r" (\d{4}) (\d\d):(\d\d):(\d\d)")
# key=value, key: value, "key": value, 'key': value: found from the separator (a literal to scan
# for), the key read back from it (the key starts with a letter, % or _).
_SEPARATOR = re.compile(r"""['"]?\s?[=:]\s*['"]?(?=[-\d]|[A-Z][a-z]{2}[ ,])""")
_KEY_REVERSED = re.compile(r"[\w%\-/]*[A-Za-z_%]")  # a key read backwards: it starts with a letter, _ or %
_KEY_REACH = 64  # characters before a separator a key may start at
_NUMBER_AT = re.compile(_NUMBER)
_SCALE = {
    "k": 1e3, "kb": 1e3, "kib": 1024.0, "m": 1e6, "mb": 1e6, "mib": 1024.0**2,
    "g": 1e9, "gb": 1e9, "gib": 1024.0**3, "t": 1e12, "tb": 1e12, "tib": 1024.0**4,
    "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "s": 1.0, "sec": 1.0, "min": 60.0, "h": 3600.0,
}  # fmt: skip
_UNIT_BYTES = {"": 1.0, **{unit: 1024.0 ** (power + 1) for power, unit in enumerate("KMGTPE")}}
_RULE = re.compile(r"^[\s|+=:\-─━═┼┬┴├┤┌┐└┘│]*$")
_TOKEN = re.compile(r"\S+")
_DIGIT = re.compile(r"\d")
_SEPARATORS = ("|", "│", ",", "\t")  # a table's cells: psql's and Markdown's, box-drawn, CSV, TSV
# A row that sums up the others (``TOTAL``, ``Grand total``): it repeats their extreme.
_TOTAL_ROW = re.compile(r"[\s|│]*(?:total|totals|grand total|sum|all|overall)\b", re.IGNORECASE)
# A test's time: at the end of its line in brackets (mocha's ``(3225ms)``, Jest's ``(12 ms)``, go
# test's ``(0.01s)``), or opening it (``pytest --durations``' ``3.21s call     tests/…``).
_TIMED = re.compile(
    r"\((?P<a>\d+(?:\.\d+)?) ?(?P<au>ms|s)\)\s*\Z"
    r"|\A\s*(?P<b>\d+(?:\.\d+)?)(?P<bu>s) (?:call|setup|teardown)\b"
)
# A run's totals line, whose time is the run's, not a test's (``299 passing (32s)``).
_TOTALS = re.compile(r"\b\d+ (?:passing|failing|pending|tests?|passed|failed)\b")
# What a listing's entry with its size opens with: ``du``'s size and tab, ``[FILE]``, ``ls -l``'s mode,
# a number before a path (``find -printf '%s %p'``; a number before a bare name, as ``uniq -c``
# prints them, is as often a count and a row's name).
_SIZED_START = re.compile(r"\d+(?:[.,]\d+)?[KMGTPE]?\t|\[(?:FILE|DIR)\]|[-dlcbpsD][rwx-]{3}|\s*\d+ +\S*[/.]")
# ``tree -s`` / ``tree -h``'s entry: ``│   ├── [     133123]  states.py``, ``└── [4.0K]  docs``.
_TREE_SIZED = re.compile(r"[\s│├└─|`\-]*\[\s*(\d+(?:\.\d+)?)([KMGTPE]?)\]\s+\S")
# A whitespace table's header: three or more names (``USER PID %CPU``, ``rkB/s``, ``1K-blocks``).
_NAME = r"[%#]?(?:\d+[A-Za-z]|[A-Za-z_])[\w%/.:\-]*"
_HEADER_LINE = re.compile(rf"\s*{_NAME}(?:\s+{_NAME}){{2,}}\s*")
HEADER_LINE = -3  # the number a table's header from an earlier chunk is shown under (first)
_TIES = 2  # lines sharing the extreme shown besides the first
_MAX_LINE = 2000  # a line longer is data (records on one line), not a table's row: pairs only


@dataclass(frozen=True, slots=True)
class Extreme:
    """What a query asks: the ``most`` or ``least`` value of a field its ``words`` name."""

    most: bool
    words: tuple[str, ...]  # the query's other words, lower case, function words dropped
    implied: tuple[str, ...]  # the field names the superlative implies
    dated: bool = False  # asks for the newest or oldest: a date's extreme, not a number's
    older: bool = False  # "oldest": of a number the query names (an age), the most


@dataclass(frozen=True, slots=True)
class ExtremeLine:
    """The line with the extreme value (its index in the lines), its table's header line, the field."""

    line: int
    header: int | None
    field: str
    span: tuple[int, int] | None = None  # where on the line its pair is (a long line is cut around it)
    ties: tuple[int, ...] = ()  # the next lines holding the same extreme (``_TIES`` at most)


@dataclass(frozen=True, slots=True)
class _Field:
    line: int
    header: int | None
    name: str
    value: float
    dated: bool = False
    span: tuple[int, int] | None = None


def extreme_asked(query: str) -> Extreme | None:
    """The extreme the query asks for, or None when it has no superlative."""
    words = [word.lower() for word in TOKEN.findall(query)]
    words = [word for at, word in enumerate(words) if not _negated(words, at)]
    asked = [word for word in words if word in _MOST or word in _LEAST]
    if not asked:
        return None
    # "maximum" and "minimum" may name the field too (``max_wind``), the first superlative apart.
    rest = tuple(
        w
        for w in words
        if (w in _NAMING or w not in _MOST and w not in _LEAST) and w != asked[0] and not is_function_word(w)
    )
    implied = tuple(dict.fromkeys(name for word in asked for name in _IMPLIED.get(word, "").split()))
    dated = bool(_DATED & set(asked)) or ("recent" in words and "most" in asked)
    return Extreme(asked[0] in _MOST, rest, implied, dated, asked[0] == "oldest")


def _negated(words: Sequence[str], at: int) -> bool:
    """Whether the word at ``at`` negates the next or is negated by the one before."""
    return words[at] in _NEGATING or at > 0 and words[at - 1] in _NEGATING


def extreme_line(lines: Sequence[str], extreme: Extreme) -> ExtremeLine | None:
    """The line holding the extreme value of the field the query names (module doc), or None.
    A query for the oldest or newest of a number it names ("the oldest age") gets that number's."""
    found = list(_fields(lines))
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
    # Of equally named fields the one of most distinct values is the measure the query means (not
    # the ``quarter`` or ``month`` it names as what to return), then the commonest.
    distinct: dict[str, set[float]] = {}
    for field in named:
        distinct.setdefault(field.name, set()).add(field.value)
    name = max(distinct, key=lambda key: (len(distinct[key]), given[key]))
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


def _without_root(lines: Sequence[str], candidates: list[_Field]) -> list[_Field]:
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


def wide_row(row: str, header: str, span: tuple[int, int], name: str) -> tuple[str, str]:
    """A table's row too wide to show whole, and its header line, cut to the cell at ``span``
    under the column ``name``: each keeps its first cell (what the row is: its month, its name)
    before the ``…``, then the part of the line around the cell. An aligned table's two lines are
    cut at the same place, so the cell stays under its name."""
    separator = next((mark for mark in _SEPARATORS if mark in header), None)
    row_lead, header_lead = _lead(row, separator), _lead(header, separator)
    if separator is None:
        lead = max(row_lead, header_lead)
        begin, stop = _window(row, lead, span)
        while begin > lead and not (_blank(row, begin - 1) and _blank(header, begin - 1)):
            begin -= 1  # back to a gap between columns in both lines: whole cells, still aligned
        while stop < max(len(row), len(header)) and not (_blank(row, stop) and _blank(header, stop)):
            stop += 1
        return _joined(row, lead, begin, stop), _joined(header, lead, begin, stop)
    names = _split(header, separator)
    place = next((at for cell, at in zip(names, _places(header, names), strict=True) if cell == name), None)
    if place is None:
        return _cells(row, row_lead, span, separator), cut(header, (), LINE_WIDTH, str)
    return _cells(row, row_lead, span, separator), _cells(header, header_lead, place, separator)


def _window(line: str, lead: int, span: tuple[int, int]) -> tuple[int, int]:
    """Where the part of ``line`` past ``lead`` that ``cutting.cut`` keeps around ``span`` starts and ends."""
    begin, stop = window(line[lead:], [(span[0] - lead, span[1] - lead, 1.0)], LINE_WIDTH - lead)
    return lead + begin, lead + stop


def _lead(line: str, separator: str | None) -> int:
    """Where a row's first cell ends (its first word, or up to its first separator after a cell)."""
    text = line.lstrip(separator or "").lstrip()
    skipped = len(line) - len(text)
    end = text.find(separator) if separator is not None else -1
    if end < 0:
        found = _TOKEN.match(text)
        end = found.end() if found else 0
    return skipped + end


def _blank(line: str, at: int) -> bool:
    """Whether ``line`` has no character at ``at`` but a space (or ends before it)."""
    return at >= len(line) or line[at].isspace()


def _joined(line: str, lead: int, begin: int, stop: int) -> str:
    """``line``'s first ``lead`` characters, ``…``, then its characters from ``begin`` to ``stop``."""
    end = len(line.rstrip())
    shown = line[:lead].rstrip().ljust(lead) + ELLIPSIS + line[begin:stop]
    return shown + ELLIPSIS if stop < end else shown


def _cells(line: str, lead: int, span: tuple[int, int], separator: str) -> str:
    """A separated row (or header) cut to whole cells around the one at ``span``, after its first
    cell and separator: ``EGLL,…1274.25,97``."""
    end = len(line.rstrip())
    begin, stop = _window(line, lead, span)
    if begin <= lead + 1:
        return cut(line, [(*span, 1.0)], LINE_WIDTH, str)
    before = line.find(separator, begin, span[0])
    begin = before + 1 if before >= 0 else begin
    after = line.find(separator, stop) if stop < end else -1
    stop = after if after >= 0 else end
    return line[: lead + 1].strip() + ELLIPSIS + line[begin:stop] + (ELLIPSIS if stop < end else "")


def _fields(lines: Sequence[str]) -> Iterator[_Field]:
    """Every named number or date in the lines: pairs on a line, table cells under their header,
    a listing's sizes and a test run's times."""
    header: _Header | None = None
    closed = False
    for index, line in enumerate(lines):
        if not line or line.isspace():
            header = None
            closed = False
            continue
        if len(line) > _MAX_LINE:  # data on one line (records of JSON or of a repr): its pairs only
            header = None
            yield from _pairs(index, line)
            continue
        if _RULE.match(line):
            # A rule under a table's rows closes them: the line below sums them up (``unzip -l``'s
            # `` 20954702   622 files``), as a ``TOTAL`` row does.
            closed = header is not None and index > header.line + 2
            continue
        if closed:
            closed = False
            continue
        if header is not None and index > header.line + 2 and _underlined(lines, index):
            # A header line over its rule right after a table's last row opens the next table
            # (sqlite's ``-column`` results one after another, with no blank line between).
            header = _Header.of(lines, index) or header
            if header.line == index:
                continue
        if header is not None:
            cells = header.cells(line)
            if cells is not None:
                for name, cell, place in cells:
                    value = _number(cell)
                    if value is not None:
                        yield _Field(index, header.line, name, value, span=place)
                    elif (dated := _date(cell, whole=True)) is not None:
                        yield _Field(index, header.line, name, dated, True, place)
                continue
        header = _Header.of(lines, index)
        if header is not None:
            continue
        if _DIGIT.search(line):
            sized = sized_entry(line) if _SIZED_START.match(line) else None
            if sized is not None and sized[1] is not None:  # ``ls -l``, ``du``, ``[FILE] a.py  2 KB``
                yield _Field(index, None, "size", sized[1])
            elif (drawn := _TREE_SIZED.match(line)) is not None:  # ``tree -s``
                yield _Field(index, None, "size", float(drawn.group(1)) * _UNIT_BYTES[drawn.group(2)])
            timed = _TIMED.search(line)
            if timed is not None and not _TOTALS.search(line):  # a test's time, as its runner prints it
                digits, unit = timed.group("a") or timed.group("b"), timed.group("au") or timed.group("bu")
                yield _Field(index, None, "duration", float(digits) * _SCALE[unit], span=timed.span())
            yield from _pairs(index, line)


def _underlined(lines: Sequence[str], index: int) -> bool:
    """Whether the line after ``index`` is a rule (``-------  ----``, ``----+----``)."""
    below = lines[index + 1] if index + 1 < len(lines) else ""
    return bool(below.strip()) and _RULE.match(below) is not None


def _pairs(index: int, line: str) -> Iterator[_Field]:
    """The line's ``key=value`` and ``key: value`` pairs whose value is a number or a date."""
    for separator in _SEPARATOR.finditer(line):
        key = _key_before(line, separator.start())
        if key is None:
            continue
        number = _NUMBER_AT.match(line, separator.end())
        if number is not None and (value := _scaled(number.group(1), number.group(2))) is not None:
            yield _Field(index, None, key[0], value, span=(key[1], number.end()))
        elif (dated := _date(line[separator.end() : separator.end() + 40], whole=False)) is not None:
            yield _Field(index, None, key[0], dated, True, (key[1], separator.end()))


def _key_before(line: str, end: int) -> tuple[str, int] | None:
    """The key that ends at ``end`` and where it starts, read backwards (a search forward would try
    every start): letters, digits, ``_%-/``, its first a letter, ``_`` or ``%``."""
    start = max(0, end - _KEY_REACH)
    found = _KEY_REVERSED.match(line[start:end][::-1])
    if found is None:
        return None
    begin = end - found.end()
    if begin > 0 and (line[begin - 1].isalnum() or line[begin - 1] in "_%"):
        return None  # longer than the reach: no key
    return line[begin:end], begin


class _Header:
    """A table's header line and how its rows' cells are read: by character span or separator."""

    def __init__(
        self, line: int, names: list[str], spans: list[tuple[int, int]] | None, separator: str
    ) -> None:
        self.line = line
        self.names = names
        self.spans = spans
        self.starts = [left for left, _ in spans] if spans else []
        self.separator = separator

    @classmethod
    def of(cls, lines: Sequence[str], index: int) -> _Header | None:
        """The table whose header is line ``index``: a line of names over rows holding numbers."""
        line = lines[index]
        separated = next((mark for mark in _SEPARATORS if mark in line), None)
        if separated is None and not _HEADER_LINE.fullmatch(line):
            return None
        names = _split(line, separated) if separated is not None else []
        if separated is not None and not _names_like(names):
            return None
        following = [row for row in lines[index + 1 : index + 5] if not _RULE.match(row)]
        if following and separated is not None and _names_like(_split(following[0], separated)):
            following = following[1:]  # a row of types or units under the names (DuckDB's ``varchar``)
        following = following[:3]
        if not following or not all(_DIGIT.search(row) for row in following):
            return None
        if separated is not None:
            if all(len(_split(row, separated)) == len(names) for row in following):
                header = cls(index, names, None, separated)
                if any(_number(cell) is not None for _, cell, _ in header.cells(following[0]) or ()):
                    return header
            return None
        tokens = list(_TOKEN.finditer(line))
        names = [token.group() for token in tokens]
        if not _names_like(names):
            return None
        header = cls(index, names, [token.span() for token in tokens], " ")
        rows = [header.cells(row) for row in following]
        if all(
            cells is not None and any(_number(cell) is not None for _, cell, _ in cells) for cells in rows
        ):
            return header
        return None

    def cells(self, line: str) -> list[tuple[str, str, tuple[int, int]]] | None:
        """The row's cells by column name, with where each is on the line, or None when the line
        is not a row of this table."""
        if self.spans is None:
            parts = _split(line, self.separator)
            if len(parts) != len(self.names):
                return None
            return list(zip(self.names, parts, _places(line, parts), strict=True))
        tokens = list(_TOKEN.finditer(line))
        if len(tokens) < len(self.names) // 2:
            return None
        columns: dict[int, list[re.Match[str]]] = {}
        for token in tokens:
            columns.setdefault(self._column(*token.span()), []).append(token)
        # A cell is one token under one column; a column of several words holds no number.
        return [
            (self.names[column], words[0].group(), words[0].span())
            for column, words in columns.items()
            if len(words) == 1
        ]

    def _column(self, start: int, end: int) -> int:
        """The column a token at ``start:end`` sits under: the most overlap, else the nearest."""
        assert self.spans is not None
        at = max(0, bisect.bisect_right(self.starts, start) - 1)
        best, best_key = at, (-1, 0)
        for column in range(max(0, at - 1), min(len(self.spans), at + 3)):
            left, right = self.spans[column]
            overlap = min(end, right) - max(start, left)
            distance = left - end if left >= end else start - right if start >= right else 0
            key = (overlap, -distance)
            if key > best_key:
                best, best_key = column, key
        return best


def _places(line: str, cells: Sequence[str]) -> list[tuple[int, int]]:
    """Where each of a row's cells (in order, as ``_split`` reads them) is on the line."""
    places: list[tuple[int, int]] = []
    at = 0
    for cell in cells:
        start = line.find(cell, at) if cell else -1
        start = at if start < 0 else start
        at = start + len(cell)
        places.append((start, at))
    return places


def _split(line: str, separator: str) -> list[str]:
    if separator == ",":
        try:
            return [cell.strip() for cell in next(csv.reader([line]))]
        except (csv.Error, StopIteration):
            return []
    cells = [cell.strip() for cell in line.split(separator)]
    if separator in "|│":  # a leading and trailing pipe open and close the row
        cells = cells[1:] if cells and not cells[0] else cells
        cells = cells[:-1] if cells and not cells[-1] else cells
    return cells


def _names_like(names: Sequence[str]) -> bool:
    """Column names: none empty or a number, most starting with a letter, % or #."""
    if len(names) < 2 or any(not name or _number(name) is not None for name in names):
        return False
    return sum(name[0].isalpha() or name[0] in "%#_" for name in names) * 2 > len(names)


def _number(cell: str) -> float | None:
    """A cell's value: a number with its unit."""
    match = _VALUE.fullmatch(cell.strip())
    return _scaled(match.group(1), match.group(2)) if match else None


def _date(text: str, *, whole: bool) -> float | None:
    """The date ``text`` is (``whole``) or starts with, as its digits (so dates order as numbers)."""
    text = text.strip()
    for pattern in (_ISO_DATE, _GIT_DATE, _MAIL_DATE):
        match = pattern.fullmatch(text) if whole else pattern.match(text)
        if match is None:
            continue
        parts = list(match.groups())
        if pattern is _GIT_DATE:  # month day h m s year
            parts = [parts[5], str(month_number(parts[0])), *parts[1:5]]
        elif pattern is _MAIL_DATE:  # day month year h m s
            parts = [parts[2], str(month_number(parts[1])), parts[0], *parts[3:]]
        return float("".join((part or "0").zfill(2) for part in parts))
    return None


def _scaled(digits: str, unit: str | None) -> float | None:
    try:
        value = float(digits.replace(",", ""))
    except ValueError:
        return None
    return value * _SCALE.get(unit.lower(), 1.0) if unit else value


def _name_score(name: str, extreme: Extreme) -> float:
    """How well a field's name matches the query: its words named, a word the superlative implies half."""
    named = _named_words(name, extreme.words)
    if named:
        return float(len(named))
    return IMPLIED_SHARE if _named_words(name, extreme.implied) else 0.0


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
    return False


def _around(line: str, span: tuple[int, int] | None) -> str:
    """The line, or of a long one (records on one line) the ``{…}`` record around the field's pair
    (flat: from the ``{`` before it to the ``}`` after it), else the part around the pair."""
    if len(line) <= _MAX_LINE or span is None:
        return line
    reach = _MAX_LINE // 4
    opening = line.rfind("{", max(0, span[0] - reach), span[0])
    closing = line.find("}", span[1], span[1] + reach)
    if opening >= 0 and closing >= 0:
        return line[opening : closing + 1]
    return line[max(0, span[0] - reach) : span[1] + reach]


def _held(line: str, words: Sequence[str]) -> int:
    """How many of ``words`` the line holds (by stem)."""
    stems = {stem_of(token.lower()) for token in TOKEN.findall(line)}
    return sum(stem_of(word) in stems for word in words)
