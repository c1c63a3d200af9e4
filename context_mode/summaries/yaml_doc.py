"""Summary of a YAML document (``kubectl get -o yaml``, a compose file, a workflow, an API result
as YAML): its keys and, in lists of mappings, who each item is. By line and verbatim.

A document is what ``shapes.is_yaml`` recognises. ``summarize_yaml`` keeps, best first: the
document markers and the titles at the margin that are neither key nor value (csv-diff's "41 rows
changed, 3 rows added, 37 rows removed" over its indented records); the top-level keys; in a
list of mappings (``- name: web`` … at one indent),
each item's first line and its identity keys (``name``, ``id``, ``title``, ``kind``, ``state``,
``version``… one level in), earlier items first, the first item's other keys too; the keys one
level under the top ones; identity keys anywhere else; scalar list items (``- v1``) last. Lines
are shown as they are, indentation kept (it is the structure), clipped to ``_WIDTH`` characters;
gaps are a bare ``…``. The outline counts lines, top-level keys and the largest list's items.
Linear in the text; never raises on a ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import YAML_KEY_LINE as _KEY_LINE
from context_mode.summaries.extract import IDENTITY_KEYS, Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.types import ContentKind

_ITEM = re.compile(r"(\s*)- ")
_WIDTH = 160
_TITLE_PRIORITY = 92.0


def summarize_yaml(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Top-level keys, who each list item is, and the keys below, within ``budget`` bytes."""
    lines = split_lines(text)
    matches = term_matcher(terms)
    picks: list[Pick] = []
    top_keys = 0
    # The open lists of mappings: indent of their "- " -> (items seen, indent of the item's keys).
    lists: dict[int, list[int]] = {}
    largest = 0
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        match = _KEY_LINE.match(line)
        item = _ITEM.match(line)
        indent = len(line) - len(line.lstrip(" "))
        for open_indent in [i for i in lists if i > indent or (i == indent and item is None)]:
            del lists[open_indent]
        priority = 0.0
        if line.startswith(("---", "...")):
            priority = 95.0
        elif indent == 0 and match is None and item is None and not line.startswith("#"):
            priority = _TITLE_PRIORITY  # a title over the keys (``3 rows added``), no key nor value
        elif match is not None and indent == 0 and item is None:
            top_keys += 1
            priority = 90.0 - 0.1 * min(top_keys, 100)
        elif item is not None and match is not None:  # ``- name: web``: a mapping, who it is first
            seen = lists.setdefault(indent, [0, indent + len(item.group()) - len(item.group(1))])
            seen[0] += 1
            largest = max(largest, seen[0])
            priority = 80.0 - 0.5 * min(seen[0], 120)
        elif item is not None:  # ``- v1``: a value among values
            priority = 10.0
        elif match is not None:
            key = _key(line)
            owner = next((v for i, v in lists.items() if v[1] == indent), None)
            if owner is not None:  # a key of a list item, one level in
                identity = key in IDENTITY_KEYS
                first = owner[0] == 1
                priority = (79.0 if identity else 40.0 if first else 0.0) - 0.5 * min(owner[0], 120)
            elif indent <= 2:
                priority = 60.0
            elif key in IDENTITY_KEYS:
                priority = 30.0
        if matches(line):
            priority = max(priority, 20.0) + 30.0
        if priority > 0:
            picks.append(Pick(index, index + 1, priority))
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short")
    outline = f"yaml: {len(lines)} lines, {top_keys} top-level keys"
    if largest:
        outline += f", a list of {largest} items"
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=top_keys + min(largest, 50))


def _key(line: str) -> str:
    stripped = line.strip().removeprefix("- ").strip()
    return stripped.split(":", 1)[0].strip("\"'").lower().replace("_", "").replace("-", "")
