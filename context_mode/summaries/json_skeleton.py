"""The JSON summary's skeleton: the members chosen (``Node``) and how they print as valid JSON.

``render(node, width)`` prints a chosen tree: top-level containers one member per line, deeper
ones inline, with the payload's spacing (``spacing``: no space after colons and commas when the
payload writes none, a space before the colon too when it writes one); left-out members counted
in place (``marker``: ``"… +258 items"`` in an array, ``"…": "+288 keys"`` in an object); strings
clipped to ``width`` with ``…`` (``STRING_WIDTH`` below the top level, ``TOP_STRING_WIDTH`` at
it), NaN and infinities as ``null``. An array item whose members all stayed out is counted, not
shown. ``minimal(value, budget)`` is the smallest honest body: an empty container with its
count, or a clipped scalar. ``scalar_size``, ``key_text`` and ``marker_reserve`` are what the
choice counts a member's cost by. Pure.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _encode_string
from typing import Any

from context_mode.summaries.packing import size

STRING_WIDTH = 120  # a string below the top level is clipped to this many characters
TOP_STRING_WIDTH = 240
# a member's key and colon: spaced after or not, and before it too as Jackson's and Elasticsearch's
# pretty printers and ldc2's ``-X`` write it (``"file" : "/usr/…"``)
_MEMBER = re.compile(r'"(?:[^"\\\n]|\\.){1,80}"( ?):( ?)[^\s]')
# two items of an array and the comma between them: spaced or not (``[[0,1,"x"],…]``)
_ITEMS = re.compile(r'[\]}"\d],( ?)[\[{"\d-]')
_COMPACT_SAMPLE = 4096


@dataclass(slots=True, eq=False)
class Node:
    """A chosen member of the skeleton (mutable while it is being built)."""

    value: Any
    depth: int
    record: bool = False  # an array item after the first: show identity fields only
    in_list: bool = False  # an array item
    members: dict[int, tuple[str | None, Node]] = field(default_factory=dict)
    map_like: bool | None = None  # ``_is_map(value)`` once known: asked for every child scored
    same: frozenset[str] = frozenset()  # an array item's keys whose value every sibling shares
    rare: frozenset[str] = frozenset()  # a record's keys whose value few of its siblings share
    depends: bool = False  # what a package requires: its items are what a record is asked about
    # ``rare_keys`` and ``failed_records`` of this container's records, by position, once asked
    odd: dict[int, frozenset[str]] | None = None
    failed: frozenset[int] | None = None  # the positions of ``failed_records``, once asked
    # ``_release_ranks`` of this array's items, by position, once asked
    ranks: dict[int, int] | None = None


def marker_reserve(value: Any) -> int:
    if isinstance(value, dict | list) and value:
        # The marker member, its separator, and room for a line break and indentation.
        return size(marker(value, len(value))) + 6
    return 0


def marker(container: Any, missing: int) -> str:
    unit = ("key" if isinstance(container, dict) else "item") + ("" if missing == 1 else "s")
    if isinstance(container, dict):
        return f'"…": "+{missing} {unit}"'
    return f'"… +{missing} {unit}"'


def scalar_text(value: Any, width: int) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "null"
    if isinstance(value, int | float):
        text = repr(value) if isinstance(value, float) else str(value)
        return text if len(text) <= 40 else _string_text(text, 40)
    return _string_text(str(value), width)


def scalar_size(value: Any, width: int) -> int:
    return size(scalar_text(value, width)) if not isinstance(value, dict | list) else 2


def _string_text(value: str, width: int) -> str:
    clipped = value if len(value) <= width else value[: width - 1] + "…"
    try:
        clipped.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(clipped)  # lone surrogates: escape them so the body stays valid UTF-8
    return _encode_string(clipped)  # what json.dumps(clipped, ensure_ascii=False) gives, without its set-up


def key_text(key: str) -> str:
    return _string_text(key, 60)


def spacing(text: str) -> tuple[str, str]:
    """The payload's colon and comma between members (or, holding none, items): ``": "`` and
    ``", "``; ``":"`` and ``","`` when it writes no spaces (``{"name":"bstr","version":…``,
    ``[[0,1,"x"],…]``); ``" : "`` when it spaces the colon on both sides (``"file" : "/usr/…"``);
    the commonest of its members' spellings in its first ``_COMPACT_SAMPLE`` chars.
    Its skeleton is spelled so too, and what stage 1 quotes is text the payload holds."""
    styles = Counter((member[1], member[2]) for member in _MEMBER.finditer(text, 0, _COMPACT_SAMPLE))
    if styles:  # the commonest (cloc's ``"header" : {`` opens members spelled ``"code": 57313``)
        before, after = styles.most_common(1)[0][0]
        return f"{before}:{after}", "," + after
    items = _ITEMS.search(text, 0, _COMPACT_SAMPLE)
    return (":", ",") if items is not None and not items[1] else (": ", ", ")


def render(node: Node, width: int, indent: int = 0, *, spaced: tuple[str, str] = (": ", ", ")) -> str:
    """``node`` printed (see the module doc), members joined as ``spaced`` says (colon, comma)."""
    value = node.value
    if not isinstance(value, dict | list):
        return scalar_text(value, width)
    # An array item that is a bare stub (a non-empty container none of whose members fitted)
    # tells nothing its neighbours do not: it is counted in the marker instead.
    shown = {
        position: member
        for position, member in node.members.items()
        if not (isinstance(value, list) and _bare_stub(member[1]))
    }
    parts: list[str] = []
    previous = -1
    marked = False
    colon, comma = spaced
    for position in sorted(shown):
        key, child = shown[position]
        if position > previous + 1 and isinstance(value, list) and not marked:
            parts.append(marker(value, len(value) - len(shown)))
            marked = True
        text = render(child, TOP_STRING_WIDTH if node.depth == 0 else STRING_WIDTH, indent + 1, spaced=spaced)
        parts.append(f"{key_text(key)}{colon}{text}" if key is not None else text)
        previous = position
    if len(shown) < len(value) and not marked:
        parts.append(marker(value, len(value) - len(shown)))
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    if not parts:
        return opening + closing
    nested = any(isinstance(child.value, dict | list) for _, child in shown.values())
    if node.depth == 0 or (node.depth == 1 and nested):
        pad = "\n" + " " * (indent + 1)
        return opening + pad + ("," + pad).join(parts) + "\n" + " " * indent + closing
    return opening + comma.join(parts) + closing


def _bare_stub(node: Node) -> bool:
    return isinstance(node.value, dict | list) and bool(node.value) and not node.members


def minimal(value: Any, budget: int) -> str:
    """The smallest honest body: an empty container with its count, or a clipped scalar."""
    if isinstance(value, dict | list):
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        for text in (opening + marker(value, len(value)) + closing, opening + closing):
            if size(text) <= budget:
                return text
        return ""
    for width in (TOP_STRING_WIDTH, 60, 20, 8, 2):
        text = scalar_text(value, width)
        if size(text) <= budget:
            return text
    return "null" if budget >= 4 else ""
