"""Rows named by their key: a table's rows whose first cell is words of the query, and JSON
records whose identity member (``"name": "distributed"``) is.

"individual 57 chosen mode", "General Motors average investment": the query names a row by the
value of its first column, and the row's other cells hold the answer; that value (a small number,
a common name) is in many other rows' cells too, so BM25 does not rank the row's chunk first.

``keyed_rows(texts, query, weight, kind)`` are, among a payload's chunks ``texts`` (in order; the
index reads the first chunk and those holding ``key_words(query)``, an intent all of them), the lines
of a table (cells split by ``|``, ``│``, a tab or two spaces or more; of at least ``MIN_ROWS``
lines, the first with three cells or more its header) whose first cell is one to three
neighbouring words of the query (any case), and the lines holding an identity member (``name``,
``id``, ``title``, ``key``, ``login``, ``package``) whose value is, when at most ``MAX_KEYED``
lines are: each its chunk's place and a passage worth ``weight``, a record's line cut around its
member (``pip list --format json`` is one line of records, too few lines for a table: its records
are still named by their member). Only a line opening with a key's first word is cut into cells.
In an accessibility snapshot, the rows are a table's ``row`` elements whose first cell's text (its
name, its text, or its first child's: ``- cell [ref=…]:`` over ``- link "fontsize"``) is a key,
the header row (the first of a ``table``, or of ``columnheader`` cells) left out: the line holding
that text, its row's cells its unit. A key of two or three content words is also spelled run
together (``fontsize`` for "font size"). In a directory tree or a list of paths, the rows are the
entries whose file name without its extensions, a path's last part, is a key (``woff2.py``,
``css-has.js``, ``./dist``), each worth ``ENTRY_SHARE`` of the query: a query names a file by its
name, and that name is in many other paths too. Only TABLE, ROWS, JSON, SNAPSHOT and TREE payloads
(``KEYED_KINDS``) are read for them, a JSON payload for its records alone. Linear in the text;
never raises on a ``str``. Pure.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence

from context_mode.store.cutting import LINE_WIDTH, Span, cut
from context_mode.store.excerpts import indent
from context_mode.store.values import LineMatch
from context_mode.types import ContentKind
from context_mode.words import is_function_word

MIN_ROWS = 10
MAX_KEYED = 4
_KEY_WORDS = 3
_CELLS = re.compile(r"\s*[|│]\s*|\t|\s{2,}")
_WORD = re.compile(r"[\w.\-/+]+")
_IDENTITY = re.compile(r'"(?:name|id|title|key|login|package|identifier)"\s*:\s*"([^"\n]{1,80})"')
_LEAD = " \t|│"  # what a row's first cell may follow
# What may follow a listed file's name: its extensions, or a slash, and then no part of a name.
_TAIL = re.compile(r"(?:\.[a-z]\w{0,7})*/?(?![\w.@+/-])")
_NAME_CHAR = re.compile(r"[\w.@+\[-]")  # a char before a name that makes it part of another
# What a listing's entry named by the query is worth, as a share of the whole query: about one
# word's worth, so its line is offered beside the best chunks' lines whatever its chunk's rank
# ("the size of the woff2 module": ``woff2.py``, in a chunk of test data naming woff2 more often).
# 0.12, 0.25, 0.5 took stage 1 + one search on dev +3, +2, +2 (search only +6, +5, +5); a first
# matcher, which also took words for names, lost more the more an entry was worth (at a whole
# query's worth, ``data.py`` for "sqlite data storage module" took the answer's room).
ENTRY_SHARE = 0.12
_OPENING = 64  # characters of a line looked at for a key's first word
_HEADER_REACH = 40  # lines a table's header may come after (a legend, a title)
_SNAPSHOT_ROW = re.compile(r"\s*- row\b.*\[ref=")
_SNAPSHOT_TABLE = re.compile(r"\s*- (?:table|grid|treegrid)\b")
# A snapshot node's name or text: ``- cell "x" [ref=…]``, ``- code [ref=…]: x``, ``- text: x``.
_NODE = re.compile(r'\s*- [a-z]+(?: "([^"\n]{1,80})")?(?: \[[^\]\n]*\])*(?::(?: (.{1,80}))?)?\s*$')


_Row = tuple[int, int, str, Sequence[Span]]  # a row found: its chunk's place, its line number, text, members

KEYED_KINDS = frozenset(
    (ContentKind.TABLE, ContentKind.ROWS, ContentKind.JSON, ContentKind.SNAPSHOT, ContentKind.TREE)
)


def key_words(query: str) -> list[str]:
    """The query's words a row's key may be made of (not its function words), lowercase, and each
    two neighbouring words run together (``fontsize`` for "font size")."""
    words = [found.lower() for found in _WORD.findall(query)]
    kept = [word for word in words if not is_function_word(word)]
    return [*kept, *("".join(pair) for pair in itertools.pairwise(words) if len(_joints(pair)) > 1)]


def keyed_rows(
    texts: Sequence[str], query: str, weight: float, kind: ContentKind
) -> list[tuple[int, LineMatch]]:
    """The rows whose first cell the query names (module doc). ``texts`` start with the payload's
    first chunk (its table's header line is never a row named by its key). A JSON payload has
    records named by their identity member only; a payload of another kind than
    ``KEYED_KINDS`` none."""
    if kind not in KEYED_KINDS:
        return []
    words = [word.lower() for word in _WORD.findall(query)]
    keys = {
        joint.join(words[start : start + size])
        for size in range(1, _KEY_WORDS + 1)
        for start in range(len(words) - size + 1)
        for joint in _joints(words[start : start + size])
        if not (size == 1 and is_function_word(words[start]))
    }
    if not keys:
        return []
    if kind is ContentKind.SNAPSHOT:
        return _snapshot_rows(texts, keys, weight)
    if kind is ContentKind.TREE:
        return _named_entries(texts, keys, weight)
    table = kind is not ContentKind.JSON
    firsts = tuple({key.split(" ", 1)[0] for key in keys})
    rows = 0
    header = True  # the first line of cells is the table's header
    found: list[_Row] = []
    for place, text in enumerate(texts):
        # A record's identity member: one scan of the whole text (most lines of JSON hold a quote).
        at = [member.span() for member in _IDENTITY.finditer(text) if member.group(1).lower() in keys]
        lines = text.splitlines() if at or table else []
        named = _places_in_lines(text, at)
        if not table:
            found.extend((place, number, lines[number], named[number]) for number in sorted(named))
            if len(found) > MAX_KEYED:
                return []
            continue
        for number, line in enumerate(lines):
            opening = line.lstrip(_LEAD)
            if not opening:
                continue
            rows += 1
            header = header and rows <= _HEADER_REACH
            if number in named:
                found.append((place, number, line, named[number]))
                if len(found) > MAX_KEYED:
                    return []
                continue
            # Only a line opening with a key's first word is split into cells (most are not).
            if not header and not opening[:_OPENING].lower().startswith(firsts):
                continue
            cells = [cell for cell in _CELLS.split(line.strip()) if cell]
            if len(cells) < 3:
                continue
            if header:
                header = False
                continue
            if _spelled(cells[0]) in keys:
                found.append((place, number, line, ()))
                if len(found) > MAX_KEYED:
                    return []
    if table and rows < MIN_ROWS:  # too few lines for a table: only its records named by a member
        found = [row for row in found if row[3]]
    return _passages(found, weight)


def _passages(found: Sequence[_Row], weight: float, *, grows: bool = True) -> list[tuple[int, LineMatch]]:
    """Each row found as its chunk's place and a passage worth ``weight``, its line cut around
    its members (its start when it has none) and, when it ``grows``, grown to its unit."""
    key = (("@key", weight),)
    return [
        (place, LineMatch(number, cut(line, members, LINE_WIDTH, str), weight, key, 1, grows=grows))
        for place, number, line, members in found
    ]


def _spelled(cell: str) -> str:
    """A cell as a key is compared with it: lowercase, its runs of spaces one space."""
    return " ".join(cell.lower().split())


def _joints(words: Sequence[str]) -> tuple[str, ...]:
    """How a key of ``words`` may be spelled: spaced, and run together (``fontsize``) when it is
    two words or more, none a function word."""
    if len(words) > 1 and not any(is_function_word(word) for word in words):
        return (" ", "")
    return (" ",)


def _snapshot_rows(texts: Sequence[str], keys: set[str], weight: float) -> list[tuple[int, LineMatch]]:
    """An accessibility snapshot's table rows whose first cell's text is a key: the line holding
    that text, as a passage whose unit is the row's cells (``store.excerpts``)."""
    found: list[_Row] = []
    for place, text in enumerate(texts):
        if "- row" not in text:
            continue
        lines = text.splitlines()
        header = False  # the next row is its table's header
        for number, line in enumerate(lines):
            if _SNAPSHOT_TABLE.match(line):
                header = True
            if not _SNAPSHOT_ROW.match(line):
                continue
            if header:
                header = False
                continue
            at, cell = _first_cell(lines, number)
            if cell and _spelled(cell) in keys:
                found.append((place, at, lines[at], ()))
                if len(found) > MAX_KEYED:
                    return []
    return _passages(found, weight)


def _named_entries(texts: Sequence[str], keys: set[str], weight: float) -> list[tuple[int, LineMatch]]:
    """A listing's entries whose name, without its extensions, is a key (``woff2.py`` for "the
    woff2 module", ``css-has.js`` for "the css has feature file"): the line naming it."""
    # A name's words joined by a hyphen or an underscore; none starts with a function word.
    names = {
        joint.join(key.split(" "))
        for key in keys
        if not is_function_word(key.split(" ", 1)[0])
        for joint in ("-", "_")
    }
    found: list[_Row] = []
    for place, text in enumerate(texts):
        lowered = text.lower()
        if len(lowered) != len(text):  # a char whose lower case is two ("İ"): offsets must hold
            lowered = text
        named = _places_in_lines(text, sorted(_entries(lowered, names)))
        lines = text.splitlines() if named else []
        for number in sorted(named):
            found.append((place, number, lines[number], named[number][:1]))  # its first name named
            if len(found) > MAX_KEYED:
                return []  # a name many entries share names none
    return _passages(found, weight * ENTRY_SHARE, grows=False)


def _entries(lowered: str, names: set[str]) -> Iterator[tuple[int, int]]:
    """Where ``lowered`` names a file or directory ``names`` holds: as a path's last part, then its
    extensions (``woff2.py``) or a slash (``./dist/``), after a slash or with one of those."""
    for name in names:
        at = lowered.find(name)
        while at >= 0:
            tail = _TAIL.match(lowered, at + len(name))
            end = tail.end() if tail else at + len(name)
            before = lowered[at - 1 : at]
            if (
                tail
                and not _NAME_CHAR.match(before)
                and (before == "/" or "." in tail.group() or tail.group().endswith("/"))
            ):
                yield at, end
            at = lowered.find(name, at + 1)


def _first_cell(lines: Sequence[str], row: int) -> tuple[int, str]:
    """The line and text of the first cell of the snapshot row on line ``row``: the cell's name or
    text, else its first child's (``- cell [ref=e396]:`` over ``- link "fontsize" [ref=e397]``)."""
    depth = indent(lines[row])
    for at in range(row + 1, min(row + 3, len(lines))):
        node = _NODE.match(lines[at])
        if node is None or indent(lines[at]) <= depth:  # not inside the row
            return at, ""
        text = node.group(1) or (node.group(2) or "").strip().strip('"')
        if lines[at].lstrip().startswith("- columnheader"):
            return at, ""  # a header row
        if text:
            return at, text
    return row, ""


def _places_in_lines(text: str, spans: Sequence[tuple[int, int]]) -> dict[int, list[Span]]:
    """Per line (numbered as ``str.splitlines`` cuts ``text``) holding some of ``spans`` (offsets
    in ``text``), those spans as offsets in the line: a one-line payload's record is cut around
    its member, not at the line's start."""
    if not spans:
        return {}
    starts = list(itertools.accumulate((len(piece) for piece in text.splitlines(keepends=True)), initial=0))
    places: dict[int, list[Span]] = {}
    for begin, end in spans:
        number = bisect.bisect_right(starts, begin) - 1
        places.setdefault(number, []).append((begin - starts[number], end - starts[number], 1.0))
    return places
