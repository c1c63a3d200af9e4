"""JSON record excerpts: the fields of a record that the query asks for, verbatim.

A query names a record (a title, a version, a file) and asks for one of its fields ("closing
time", "byte size", "html link"); the field's line does not repeat the record's name, and a
compact JSON chunk is one long line, so a cut around the query's words misses it. Here:

- ``members(text, start, end)`` finds the ``"key": value`` members with a short value (a scalar,
  or a flat object of scalars such as ``digests``) in ``text[start:end]``, as ``Member``s;
- ``scope(text, anchor)`` is the part of the text the anchor's record covers: the value of the
  key the anchor sits in (``"13.7.1": [...]``), else the innermost object around the anchor;
- ``record_fields(found, key_weight)`` picks, in text order, the members whose key the query
  names (``key_weight(key) > 0``: ``closed_at`` for "closing", ``upload_time`` for "upload
  time") and the identity members (``number``, ``title``, ``filename``…) that say whose they are,
  within ``limit`` characters; neighbours on one line as written between them, others joined by
  ``", "``; empty when no key is named.

``in_cut_record(heading_path, index)`` says whether a chunk may be a later part of a record cut
open; ``first_of_record`` finds the record's first chunk (within ``CARD_LOOKBACK`` chunks before,
its path inside the record's: ``[6] › metadata`` before ``[6] › metadata › description``), which
holds the record's identity.

Values are shown as written (an agent can grep them). Linear in the text; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

FIELDS_CHARS = 480
_MEMBER = re.compile(
    r'"((?:[^"\\\n]|\\.){1,80})"\s*:\s*'
    r'("(?:[^"\\\n]|\\.){0,200}"|-?\d[\d.eE+-]*|true|false|null|\{[^{}\[\]\n]{0,240}\})'
)
_ADJACENT = re.compile(r"[ \t]*,[ \t]*")  # between two members on one line
_BRACKET = re.compile(r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"|[\[\]{}]')  # a string, or a bracket
IDENTITY_KEYS = frozenset(
    {"id", "number", "name", "full_name", "title", "filename", "version", "tag_name", "login", "key", "state"}
)
_LEADING_IDENTITY = 3  # the scope's first identity members (the record's own id, number, title)
_NEAREST_IDENTITY = 2  # and those just before a member the query names (whose it is)


_RECORD_LABEL = re.compile(r"^\[\d+\]")  # a record's path label, ``[3] octo/repo`` (chunking.json_units)
CARD_LOOKBACK = 6  # chunks looked back for the first one of a record


def in_cut_record(heading_path: tuple[str, ...], index: int) -> bool:
    """Whether a chunk may be a later part of a JSON record cut open (its path holds a record label)."""
    return index > 0 and bool(record_path(heading_path))


def record_path(heading_path: tuple[str, ...]) -> tuple[str, ...]:
    """The path of the innermost record a chunk is in (up to its last record label), or ()."""
    for depth in range(len(heading_path), 0, -1):
        if _RECORD_LABEL.match(heading_path[depth - 1]):
            return heading_path[:depth]
    return ()


def first_of_record(heading_paths: Sequence[tuple[str, ...]], path: tuple[str, ...]) -> int | None:
    """Of the chunks just before a hit (their heading paths, nearest last), where the hit's record
    (``record_path``) starts: the offset of the earliest one in an unbroken run inside it."""
    record = record_path(path)
    first = None
    for offset in range(len(heading_paths) - 1, -1, -1):
        if heading_paths[offset][: len(record)] != record:
            break
        first = offset
    return first


@dataclass(frozen=True, slots=True)
class Member:
    """One ``"key": value`` member: its key and where its raw text is."""

    key: str
    start: int
    end: int


def members(text: str, start: int = 0, end: int | None = None) -> list[Member]:
    """The members with a short value in ``text[start:end]``, in order."""
    stop = len(text) if end is None else end
    return [Member(m.group(1), m.start(), m.end()) for m in _MEMBER.finditer(text, start, stop)]


def scope(text: str, anchor: int) -> tuple[int, int]:
    """The span of the record that ``anchor`` is in (see module doc); the whole text if none."""
    ends = _container_ends(text)
    key = re.compile(r'[^"\n]{0,80}"\s*:\s*(?=[\[{])').match(text, anchor)
    if key is not None and key.end() in ends:
        return key.end(), ends[key.end()]
    inner = (0, len(text))
    for opening, closing in ends.items():
        if text[opening] == "{" and opening < anchor < closing and opening > inner[0]:
            inner = (opening, closing)
    return inner


def record_fields(
    found: Sequence[Member], text: str, key_weight: Callable[[str], float], *, limit: int = FIELDS_CHARS
) -> tuple[str, float]:
    """The members the query names, with the identity members before them; and their weight."""
    leading = [member for member in found if member.key in IDENTITY_KEYS][:_LEADING_IDENTITY]
    picked: list[Member] = list(leading)  # the record's own names come first
    recent: list[Member] = []  # the identity members seen so far, nearest last
    weight = 0.0
    named: set[str] = set()
    for member in found:
        worth = key_weight(member.key)
        if member.key in IDENTITY_KEYS and worth <= 0:
            recent.append(member)
        elif worth > 0:
            picked.extend(recent[-_NEAREST_IDENTITY:])
            picked.append(member)
            if member.key not in named:
                named.add(member.key)
                weight += worth
    if not named:
        return "", 0.0
    shown: list[str] = []
    used = 0
    previous: Member | None = None
    for member in sorted(set(picked), key=lambda m: m.start):
        raw = text[member.start : member.end]
        gap = text[previous.end : member.start] if previous is not None else ""
        # Neighbours on one line keep what is between them (``"name":"bstr","version":"0.2.17"``).
        joint = gap if _ADJACENT.fullmatch(gap) else ", "
        if used + len(raw) + len(joint) > limit:
            break
        shown.append((joint if shown else "") + raw)
        used += len(raw) + len(joint)
        previous = member
    return "".join(shown), weight


def _container_ends(text: str) -> dict[int, int]:
    """Each bracket's opening offset with its closing offset (strings skipped; unclosed ones end the text)."""
    ends: dict[int, int] = {}
    stack: list[int] = []
    for token in _BRACKET.finditer(text):
        char = token.group()
        if char in "[{":
            stack.append(token.start())
        elif char in "]}" and stack:
            ends[stack.pop()] = token.end()
    for opening in stack:
        ends[opening] = len(text)
    return ends
