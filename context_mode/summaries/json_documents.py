"""JSON whose strings hold whole documents: each document read as what it is, line by line.

MCP servers that answer in JSON put a file's text, a page's Markdown or a command's output in
one string member (``{"path": "…/history.fish", "content": "#\\n# Wrap the builtin history
command…\\n"}``); the JSON summary elides long strings, so stage 1 named four files and showed
none of their lines. ``documents(text)`` finds, in a JSON payload, the string literals of at
least ``_MIN_CHARS`` characters holding at least ``_MIN_BREAKS`` escaped line breaks that a record
holds beside short scalars alone (its path, name, size: the record is the document; a package's
description among its metadata or a linted file's source beside its messages is not), when they
make up at least ``_MIN_SHARE`` of the payload; each is split at its escaped line breaks into
its lines *as the payload spells them* (``\\"`` stays ``\\"``), so every line shown is a verbatim
piece of the payload. ``summarize_documents(text, kind=, budget=, terms=, summarize=)`` returns
None when there are none; else, within ``budget`` bytes: the payload's short lines before the
first document (a message, counts), then per document the short member lines of its record
before it (its path, name, type) and its lines summarised as the kind they read as
(``kinds.detect_kind``: source, Markdown, a log…), each document a share of the room in turn.
``Extract.kind`` is the documents' most common kind; the outline counts the documents and their lines.
Linear in the payload, but for the documents' own summaries.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from context_mode.shapes import ESCAPED_BREAK
from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_MIN_CHARS = 1000
_MIN_BREAKS = 8
_MIN_SHARE = 0.5
_SHORT = 200  # a member line at most this long is shown as a document's heading
_HEADING_LINES = 4
_HEAD_SHARE = 0.15
_MIN_ROOM = 300  # bytes a document's summary gets at least, else documents after it go without


@dataclass(frozen=True, slots=True)
class Document:
    """A string literal's lines as the payload spells them, and the payload lines heading it."""

    lines: list[str]
    heading: list[str]
    start: int  # where its literal starts in the payload


Summarizer = Callable[..., Extract]


def documents(text: str) -> list[Document] | None:
    """The documents held in ``text``'s JSON strings (see the module doc), or None."""
    opening = text.lstrip()[:1]
    if opening not in ("{", "[") or text.count("\\n") < _MIN_BREAKS:
        return None
    # The long literals first, from the text alone: most JSON holds too few to be parsed twice.
    long = [
        (match.start(), match.group(1))
        for match in _STRING.finditer(text)
        if len(match.group(1)) >= _MIN_CHARS and match.group(1).count("\\n") >= _MIN_BREAKS
    ]
    if sum(len(raw) for _, raw in long) < _MIN_SHARE * len(text):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    wanted = set(_held(value))
    found = [(start, raw) for start, raw in long if _decoded(raw) in wanted]
    if not found or sum(len(raw) for _, raw in found) < _MIN_SHARE * len(text):
        return None
    return [Document(_pieces(raw), _heading(text, start), start) for start, raw in found]


def summarize_documents(
    text: str, *, budget: int, terms: Sequence[str] = (), summarize: Summarizer
) -> Extract | None:
    """Each document of ``text`` summarised as its own kind, in ``budget`` bytes; None when
    ``text`` holds no documents (see the module doc)."""
    from context_mode.kinds import detect_kind  # the kinds module reads summaries' shapes

    found = documents(text)
    if found is None:
        return None
    above = text[: text.rfind("\n", 0, found[0].start) + 1].split("\n")
    head = [line for line in above if len(line) <= _SHORT and line.strip().strip("{}[],")]
    shown: list[str] = []
    used = 0
    for line in head:
        if used + size(line) + 1 > budget * _HEAD_SHARE:
            break
        shown.append(line)
        used += size(line) + 1
    kinds: list[ContentKind] = []
    for number, document in enumerate(found):
        body = "\n".join(document.lines)
        kind = detect_kind(body)
        kinds.append(kind)
        heading = [line for line in document.heading if line not in shown]
        cost = sum(size(line) + 1 for line in heading)
        room = (budget - used - cost) // (len(found) - number)
        if room < _MIN_ROOM:
            room = budget - used - cost
        if room < _MIN_ROOM:
            break
        inner = summarize(body, kind, budget=room - 1, terms=terms)
        shown.extend(heading)
        shown.append(inner.text)
        used += cost + size(inner.text) + 1
    lines = sum(len(document.lines) for document in found)
    outline = (
        f"json: {len(found)} document{'' if len(found) == 1 else 's'} in its strings "
        f"({', '.join(sorted({kind.value for kind in kinds}))}; {lines} lines)"
    )
    highlights = min(len(found) + lines // 100, 20)
    common = Counter(kinds).most_common(1)[0][0]
    return Extract(text="\n".join(shown), kind=common, outline=outline, highlights=highlights)


def _held(value: object) -> Iterator[str]:
    """The long multi-line strings of ``value`` that a record holds beside short scalars alone (a
    file's path and name): the record is the document. One member among lists and many others
    (a package's description among its metadata, a linted file's source beside its messages) is
    not what the payload is for."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            long = [v for v in item.values() if isinstance(v, str) and len(v) >= _MIN_CHARS]
            others = [v for v in item.values() if not (isinstance(v, str) and len(v) >= _MIN_CHARS)]
            if len(long) == 1 and long[0].count("\n") >= _MIN_BREAKS and all(_short(v) for v in others):
                yield long[0]
            else:
                stack.extend(v for v in item.values() if isinstance(v, (list, dict)))


def _short(value: object) -> bool:
    return not isinstance(value, (list, dict)) and len(str(value)) <= _SHORT


def _decoded(raw: str) -> str | None:
    try:
        decoded = json.loads(f'"{raw}"')
    except ValueError:
        return None
    return decoded if isinstance(decoded, str) else None


def _pieces(raw: str) -> list[str]:
    """``raw`` (a string literal's inside) split at its escaped line breaks."""
    pieces: list[str] = []
    at = 0
    for match in ESCAPED_BREAK.finditer(raw):
        pieces.append(raw[at : match.start()] + match.group(1))
        at = match.end()
    pieces.append(raw[at:])
    return pieces


def _heading(text: str, start: int) -> list[str]:
    """The short lines of the record holding the literal at ``start``, above its own line."""
    line_start = text.rfind("\n", 0, start) + 1
    above = text[:line_start].split("\n")[-_HEADING_LINES - 1 : -1]
    kept: list[str] = []
    for line in reversed(above):
        stripped = line.strip()
        if stripped.endswith(("{", "[")) or not stripped:
            break
        if len(line) <= _SHORT:
            kept.append(line)
    return kept[::-1]
