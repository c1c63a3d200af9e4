"""XML documents (a ``web.xml``, a ``pom.xml``, an Android manifest, a data file of records): what
they declare, element by element.

An agent reads a configuration's elements and their values (``<session-timeout>30</session-timeout>``,
``<version>3.2.1</version>``) and a data file's records (``<iso_3166_entry alpha_2_code="AF" …/>``).
The summary keeps, best first: the XML declaration, the doctype and the root element's opening
line, the document's last line; elements holding a value whose name is rare in the document (a
setting), each element name's first two occurrences (a run of records: its first two and its last,
the first annotated with its size, ``[×249 <iso_3166_entry>]``), the other elements' opening lines,
and last, comments (a licence header, a section's banner). Lines that mention a search term rank
first. Lines are shown verbatim. The outline counts lines, elements and the most common element
names; the salient items the budget grows with are the distinct element names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from context_mode.shapes import xml_comments
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_ELEMENT = re.compile(r"\s*<(?P<name>[A-Za-z_][\w:.-]*)")
_VALUE = re.compile(r"\s*<(?P<name>[A-Za-z_][\w:.-]*)[^>]*>[^<]*\S[^<]*</(?P=name)>")
_HEAD = re.compile(r"\s*<[?!]")  # the XML declaration, a doctype
_RARE = 3  # an element name seen this often or less is a setting, not a record
_FOLD_AT = 6  # an element name seen this often is a run of records: its first, second and last
_PREFIX = 400
_WIDTH = 200


def summarize_xml(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The declaration, root, settings and records of an XML document in ``budget`` bytes."""
    matches = term_matcher(terms)
    heads = [line[:_PREFIX] for line in lines]
    names: list[str | None] = []
    for line, comment in zip(heads, xml_comments(heads), strict=True):
        element = None if comment else _ELEMENT.match(line)
        names.append(element.group("name") if element else None)
    counts = Counter(name for name in names if name is not None)
    seen: Counter[str] = Counter()
    last_of: dict[str, int] = {name: index for index, name in enumerate(names) if name is not None}
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    root = next((index for index, name in enumerate(names) if name is not None), None)
    for index, line in enumerate(heads):
        name = names[index]
        if not line.strip():
            continue
        if name is None:
            head = index < 5 and _HEAD.match(line) is not None
            priority = 95.0 if head else 3.0 - 0.0001 * index  # a comment: a banner, a licence
        elif index == root:
            priority = 95.0
        else:
            count = counts[name]
            order = seen[name]
            seen[name] += 1
            if count >= _FOLD_AT and order == 0:
                notes[index] = f"×{count} <{name}>"
            if count <= _RARE and _VALUE.match(line):
                priority = 60.0 - 0.001 * index  # a setting: its value
            elif order < 2 or index == last_of[name]:
                priority = 45.0 - 0.001 * index  # a record's first, second and last
            elif count <= _RARE:
                priority = 30.0 - 0.001 * index
            else:
                priority = 8.0 - order / count  # the middle of a run of records
        if matches(line):
            priority += 50.0
        picks.append(Pick(index, index + 1, priority, _WIDTH))
    last = next((index for index in range(len(lines) - 1, -1, -1) if lines[index].strip()), None)
    if last is not None:
        picks.append(Pick(last, last + 1, 90.0, _WIDTH))
    body = pack(lines, picks, budget, width=_WIDTH, notes=notes, gaps="short")
    common = ", ".join(f"<{name}> ×{count}" for name, count in counts.most_common(3))
    root_name = f"<{names[root]}>" if root is not None else "none"
    outline = f"xml: {len(lines)} lines, root {root_name}, {counts.total()} elements ({common})"
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=len(counts))
