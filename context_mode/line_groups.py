"""Grouping lines that differ only in their digits, so a classifier runs once per group.

``group_lines(lines, prefix)`` gives each line a *key*: its first ``prefix`` chars with every
ASCII digit replaced by one mark character (the first of ``MARKS`` absent from the text). Two
lines with one key have the same length and the same chars except for which digits they hold.
A regex that names no particular digit (``\\d``, ``\\w``, ``[0-9a-f]``, ``.``… but no ``7``) and
a test such as ``str.isalnum`` give both lines the same verdict, so a caller classifies one
``sample`` line per key and only looks line by line where that sample said something.

The keys cost a few whole-text C passes (join, encode, ``bytes.translate``, split), no per-line
Python. Text already holding every mark gets keys equal to the prefixes (``mark`` is ""): still
correct, only less grouped.

``LineGroups.holding(literal)`` finds the keys holding a literal with no digit, mark or newline in
it: a line's prefix holds such a literal exactly where its key does, so a repetitive log is
searched in its few distinct keys instead of its whole text.

``distinct_lines(text)`` counts the lines that differ in more than their digits: how much
different content a payload holds (a log repeating one line with a counter is one line; a
table of 300 named rows is 300), in C passes over the bytes of a piece at a time.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache

MARKS = "\x01\x02\x03\x04\x05\x06\x07\x08"
_SHAPE = re.compile(r"[0-9a-fA-F]{8,}|\d+")


@dataclass(frozen=True, slots=True)
class LineGroups:
    """Lines grouped by key (see the module docstring).

    ``keys[i]`` is line i's key; ``sizes`` counts lines per key (in first-seen order);
    ``firsts`` and ``samples`` map each key to its first and its last line. ``text`` is the
    prefixes joined by newlines, for whole-text searches (a position maps to a line by counting
    newlines before it). ``lines`` are the lines grouped; ``whole`` says each key covers its whole
    line (none longer than the prefix, none holding a newline).
    """

    keys: list[str]
    sizes: Counter[str]
    firsts: dict[str, int]
    samples: dict[str, int]
    mark: str
    text: str
    lines: Sequence[str]
    whole: bool

    def members(self, wanted: Set[str]) -> list[int]:
        """Indexes, in order, of the lines whose key is in ``wanted``."""
        if len(wanted) >= len(self.sizes) and all(key in wanted for key in self.sizes):
            return list(range(len(self.keys)))
        big = {key for key in wanted if self.sizes.get(key, 0) > 2}
        # A group of one or two lines is its first and last line: no pass over all lines.
        found = {index for key in wanted - big if key in self.sizes for index in self.ends(key)}
        if big:
            found.update(index for index, key in enumerate(self.keys) if key in big)
        return sorted(found)

    def ends(self, key: str) -> tuple[int, int]:
        """The first and the last line with ``key``."""
        return self.firsts[key], self.samples[key]

    def holding(self, literal: str) -> set[str]:
        """The keys holding ``literal`` (not empty; no ASCII digit, mark char or newline in it).

        A line's prefix holds such a literal where its key does: a char of the literal is no
        digit, and no mark char stood in the text. One search of the distinct keys, joined.
        """
        distinct = list(self.sizes)
        joined = "\n".join(distinct)
        if joined.count("\n") != len(distinct) - 1:  # a key holds a newline
            return {key for key in distinct if literal in key}
        found: set[str] = set()
        index = 0
        position = 0
        at = joined.find(literal)
        while at >= 0:
            index += joined.count("\n", position, at)
            found.add(distinct[index])
            position = joined.find("\n", at)
            if position < 0:
                break
            at = joined.find(literal, position)
        return found


def group_lines(lines: Sequence[str], prefix: int) -> LineGroups:
    """Key every line by its first ``prefix`` chars with ASCII digits masked, and group by key."""
    short = not lines or max(map(len, lines)) <= prefix
    prefixes = lines if short else [line[:prefix] for line in lines]
    text = "\n".join(prefixes)
    mark = next((candidate for candidate in MARKS if candidate not in text), "")
    keys: list[str] = []
    if mark and lines:
        marked = text.encode("utf-8", "surrogatepass").translate(_digit_table(mark))
        keys = marked.decode("utf-8", "surrogatepass").split("\n")
    # A line held a newline itself when the text has more than one a line break (or, marked, more
    # pieces than lines: no second count of the text).
    embedded = len(keys) != len(lines) if mark else bool(lines) and text.count("\n") != len(lines) - 1
    if embedded:  # keep one text line per line for whole-text searches
        text = "\n".join(line.replace("\n", " ") for line in prefixes)
        if mark:
            table = str.maketrans(dict.fromkeys("0123456789", mark))
            keys = [line.translate(table) for line in prefixes]
    if not mark:
        keys = list(prefixes)
    count = len(keys)
    sizes = Counter(keys)
    samples = dict(zip(keys, range(count), strict=True))
    return LineGroups(keys, sizes, _firsts(keys, sizes), samples, mark, text, lines, short and not embedded)


def _firsts(keys: list[str], sizes: Counter[str]) -> dict[str, int]:
    """Each key's first index. With few keys a line, ``list.index`` from one key's first line to
    the next (``sizes`` holds them in first-seen order) compares each line once, in C, instead of
    a dict step a line."""
    if len(sizes) * _FEW_KEYS > len(keys):
        return dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
    firsts: dict[str, int] = {}
    position = 0
    for key in sizes:
        position = firsts[key] = keys.index(key, position)
    return firsts


_FEW_KEYS = 4  # lines a key at least, on average, for ``_firsts`` to walk the list


def shapes(groups: LineGroups) -> list[str]:
    """Each line's shape: its key with hex runs (8+) and numbers masked as ``#``.

    The same as masking ``[0-9a-fA-F]{8,}|\\d+`` in the line's prefix, since a marked digit is a
    hex char and a digit as the digit was; made once per key, in one regex pass over the keys.
    """
    distinct = list(groups.sizes)
    pattern = _key_shape(groups.mark) if groups.mark else _SHAPE
    masked = pattern.sub("#", "\n".join(distinct)).split("\n")
    if len(masked) != len(distinct):  # a key held a newline
        masked = [pattern.sub("#", key) for key in distinct]
    by_key = dict(zip(distinct, masked, strict=True))
    return list(map(by_key.__getitem__, groups.keys))


@lru_cache(maxsize=len(MARKS))
def _digit_table(mark: str) -> bytes:
    return bytes.maketrans(b"0123456789", mark.encode("ascii") * 10)


@lru_cache(maxsize=len(MARKS))
def _key_shape(mark: str) -> re.Pattern[str]:
    escaped = re.escape(mark)
    return re.compile(rf"[{escaped}a-fA-F]{{8,}}|[{escaped}\d]+")


_PIECE = 65_536  # chars read at a time by ``distinct_lines``


def distinct_lines(text: str, enough: int | None = None) -> int:
    """How many lines of ``text`` differ from every other in more than their digits.

    With ``enough``, stops reading once that many are found (the count is then at least it)."""
    zeroed = _digit_table("0")  # every digit a 0: the lines differing only in digits are one
    seen: set[bytes] = set()
    start = 0
    while start <= len(text):
        end = text.find("\n", start + _PIECE)
        end = len(text) if end < 0 else end
        seen.update(text[start:end].encode("utf-8", "surrogatepass").translate(zeroed).split(b"\n"))
        if enough is not None and len(seen) >= enough:
            break
        start = end + 1
    return len(seen)


def templates(distinct: Iterable[str], least: int = 3) -> dict[str, str]:
    """The shapes that are one template with one word changed, mapped to that template.

    ``Failed password for invalid user admin from … port #`` and the same line for ``root`` and
    ``oracle`` differ in one word (of their first ``_TEMPLATE_WORDS``): with ``least`` or more such
    shapes, each maps to the template (that word as ``*``). A shape in several templates gets
    the largest one's (the first seen on a tie); a shape in none is absent. Shapes beyond the
    first ``_TEMPLATE_SHAPES`` are not looked at (their count, not their length, makes the cost).
    """
    members: defaultdict[str, list[str]] = defaultdict(list)
    for shape in itertools.islice(distinct, _TEMPLATE_SHAPES):
        words = shape.split()[:_TEMPLATE_WORDS]
        if len(words) < 2:
            continue
        for position in range(len(words)):
            members[" ".join([*words[:position], "*", *words[position + 1 :]])].append(shape)
    found: dict[str, str] = {}
    for template, shapes in sorted(members.items(), key=lambda item: -len(item[1])):
        if len(shapes) < least:
            break
        for shape in shapes:
            found.setdefault(shape, template)
    return found


_TEMPLATE_WORDS = 24
_TEMPLATE_SHAPES = 400
