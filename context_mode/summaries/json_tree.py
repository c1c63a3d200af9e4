"""JSON directory trees (the filesystem MCP server's ``directory_tree``, ``tree -J``): what the tree
summary reads from them besides their paths, as the payload spells it.

- ``nodes(value)``: every node's path, whether it is a directory and the size it states (``tree
  -J -s``), depth first in input order; a node is an object with a string ``name``, its children
  under ``children`` or ``contents`` (``shapes.TREE_CHILDREN``).
- ``report(text)``: the closing record that is no node (``tree -J``'s ``{"type":"report",
  "directories":22,"files":214}``), as its line reads; none for other payloads.
- ``biggest(text, sized, budget=, where=)``: where each file's object is one line with its size,
  the biggest files' lines (``{"type":"file","name":"a.py","size":344}``) each followed by ``in``
  and its directory, after ``BIGGEST``, in at most ``budget`` bytes; none otherwise.
- ``name_spelling(text)``: a file's name as the payload's ``name`` members spell it (``"name":
  "a.py"`` or ``"name":"a.py"``; ``"caf\\u00e9.py"`` where the payload escapes non-ASCII), or None
  when it has none or its names below the root are paths (``tree -f``).

Linear in the payload: a file's line is looked for within a bounded width (``_SIZED_OBJECT``).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from context_mode.shapes import TREE_CHILDREN
from context_mode.summaries.packing import size

BIGGEST = "== biggest first =="
_HEAD = 16384  # characters of the start read for how the payload spells its members
_TAIL = 4096  # characters of the end read for its report
_NAME_MEMBER = re.compile(r'"name"\s*:\s*"')
_NAMES_LOOKED_AT = 20  # the first names read for whether they are paths
_ESCAPED_NAME = re.compile(r'"name"\s*:\s*"[^"\n]*?\\u[0-9a-fA-F]{4}')  # ``"name": "caf\u00e9.py"``
# A file's whole object on one line (``tree -J -s``): ``{"type":"file","name":"a.py","size":344},``
# (bounded: a megabyte on one line costs one bounded try, not a search back and forth through it)
_SIZED_OBJECT = re.compile(
    r'^[ \t]*\{"type": ?"file",[^\n]{0,400}?"size": ?\d+[^\n]{0,200}?\},?[ \t]*$', re.MULTILINE
)
_DIRECTORY_TYPES = ("directory", "dir", "folder")


def nodes(value: Any) -> Iterator[tuple[str, bool, int | None]]:
    """Every node's path, whether it is a directory, and its size where it states one."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, base = stack.pop()
        if isinstance(node, list):
            stack.extend((child, base) for child in reversed(node))
            continue
        if not isinstance(node, dict) or not isinstance(node.get("name"), str):
            continue
        name = node["name"]
        # ``tree -f`` names a node by its path from the root (``./src/a.py`` under ``./src``)
        path = name if not base or name.startswith(f"{base}/") else f"{base}/{name}"
        children = next((node[key] for key in TREE_CHILDREN if key in node), None)
        is_dir = node.get("type") in _DIRECTORY_TYPES or children is not None
        stated = node.get("size")
        yield path, is_dir, stated if isinstance(stated, int) and not isinstance(stated, bool) else None
        if isinstance(children, list):
            stack.extend((child, path) for child in reversed(children))


def report(text: str) -> list[str]:
    """The tree's closing record that is no node, as its line reads (at most one line)."""
    tail = text[-_TAIL:].rstrip()
    if not tail.endswith("]"):
        return []
    last = tail[:-1].rstrip().rsplit("\n", 1)[-1].strip().rstrip(",")
    if not (last.startswith("{") and last.endswith("}")) or '"name"' in last:
        return []
    try:
        record = json.loads(last)
    except ValueError:
        return []
    return [last] if isinstance(record, dict) and not any(key in record for key in TREE_CHILDREN) else []


def biggest(
    text: str, sized: list[tuple[int, str]], *, budget: int, where: Callable[[str], str]
) -> list[str]:
    """The biggest files' lines of ``sized`` (size, path) as the payload spells them, each with
    ``where(directory)``, under ``BIGGEST``, in at most ``budget`` bytes."""
    if not sized or not _SIZED_OBJECT.search(text[:_HEAD]):
        return []
    spelled: dict[tuple[str, int], str] = {}
    for match in _SIZED_OBJECT.finditer(text):
        line = match[0].strip().rstrip(",")
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("size"), int):
            spelled.setdefault((os.path.basename(str(record.get("name"))), record["size"]), line)
    shown: list[str] = []
    room = budget - size(BIGGEST) - 1
    for stated, path in sorted(sized, key=lambda entry: -entry[0]):
        directory, name = os.path.split(path)
        spelling = spelled.get((name, stated))
        if spelling is None:
            continue
        line = f"{spelling} in {where(directory)}"
        if size(line) + 1 > room:
            break
        shown.append(line)
        room -= size(line) + 1
    return [BIGGEST, *shown] if shown else []


def name_spelling(text: str) -> Callable[[str], str] | None:
    """A file name as the payload's ``name`` members spell it, or None when it has none or its
    names below the first are paths (``tree -f``: the member holds more than the name listed)."""
    head = text[:_HEAD].lstrip()
    if head[:1] not in "[{":
        return None
    members = list(itertools.islice(_NAME_MEMBER.finditer(head), _NAMES_LOOKED_AT))
    # (the first may be the root, named by the path it was given: ``tree -J django/contrib/auth``)
    if not members or any("/" in head[match.end() : head.find('"', match.end())] for match in members[1:]):
        return None
    opening = members[0][0][:-1]
    escaped: list[bool] = []  # whether the payload writes non-ASCII as ``\u00e9``: looked up once, if asked

    def spell(name: str) -> str:
        if name.isascii() and name.isprintable() and '"' not in name and "\\" not in name:
            return f'{opening}"{name}"'
        if not name.isascii() and not escaped:
            escaped.append(_ESCAPED_NAME.search(text) is not None)
        ascii_only = bool(escaped) and escaped[0]
        return opening + json.dumps(name, ensure_ascii=ascii_only)  # escaped as the payload's JSON

    return spell
