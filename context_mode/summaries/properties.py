"""Key-value listings: ``redis-cli INFO``, ``sysctl -a``, ``git config -l``, ``/proc/meminfo``, ``.env``.

``shapes.is_properties(lines)`` recognises one: at least ten lines, and nine in ten non-blank
lines a ``key:value`` or ``key=value`` line (a key of word characters, dots, dashes and slashes;
no ``://`` after it, so a list of URLs is none) or a section line (``# Memory``, ``[core]``).
YAML's ``key: value`` lines are ``yaml_doc``'s, recognised before.

``summarize_properties(lines, budget=, terms=)`` keeps, verbatim by line: every section line,
then the keys in turns, the first key of every section before the second of any, so each
section shows what it holds and none takes the budget; lines holding the call's terms first.
A section line is unindented: an indented comment says something of the key above it
(``pip-compile``'s and ``uv pip compile``'s ``    # via celery`` under ``kombu==5.5.4``), and the
keys are what to show. An unindented line that is no key, over indented keys, is a section too: a
tree's root (``lddtree``'s ``/usr/bin/gdalinfo (interpreter => …)`` over its libraries). A key a
loader did not resolve (``ldd``'s ``=> not found``, ``lddtree``'s ``=> None``) comes right after
the sections: what will not run. Above all, the first line when it is neither (what the tool said of
its result: uv's ``Resolved 81 packages in 704ms``). The outline counts keys and sections. Linear
in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import PROPERTY_KEY as _KEY
from context_mode.shapes import PROPERTY_SECTION as _SECTION
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_WIDTH = 160
_UNRESOLVED = re.compile(r"=>\s*(?:not found|None)\s*\Z")
_UNRESOLVED_PRIORITY = 85.0
_FIRST_PRIORITY = 95.0
_ROOT_REACH = 3  # lines looked at below an unindented line for the indented key that makes it a root


def _is_root(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index``, unindented and no key, heads indented keys below it (a tree's root)."""
    line = lines[index]
    if line[:1].isspace() or _KEY.match(line):
        return False
    below = next((other for other in lines[index + 1 : index + 1 + _ROOT_REACH] if other.strip()), "")
    return below[:1].isspace() and _KEY.match(below) is not None


def summarize_properties(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Section lines and the keys of every section in turns, within ``budget`` bytes."""
    shown = [line.rstrip("\r") for line in lines]
    matches = term_matcher(terms)
    picks: list[Pick] = []
    first = next((index for index, line in enumerate(shown) if line.strip()), None)
    if first is not None and not _KEY.match(shown[first]) and not _SECTION.match(shown[first]):
        picks.append(Pick(first, first + 1, _FIRST_PRIORITY))  # ``Resolved 81 packages in 704ms``
    sections = keys = 0
    turn = 0  # the key's place in its section: the first key of each before the second of any
    for index, line in enumerate(shown):
        stripped = line.strip()
        if not stripped:
            continue
        # (an indented comment annotates the key above it: pip-compile's ``    # via celery``)
        if _SECTION.match(line) or _is_root(shown, index):
            sections += 1
            turn = 0
            picks.append(Pick(index, index + 1, 90.0 - 0.001 * index))
            continue
        if not _KEY.match(line):
            continue
        keys += 1
        turn += 1
        priority = 60.0 - min(turn, 200) * 0.25 - 0.00001 * index
        if _UNRESOLVED.search(line):
            priority = _UNRESOLVED_PRIORITY - 0.001 * index
        if terms and matches(line):
            priority += 40.0
        picks.append(Pick(index, index + 1, priority))
    body = pack(shown, picks, budget, width=_WIDTH, gaps="short")
    outline = f"properties: {keys} keys" + (f" in {sections} sections" if sections else "")
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=max(sections, 1))
