"""The lines of a diff that change a version, for a query that asks about one.

"the new version string", "the version bump in the about module", "the new version tuple": in
a diff of two releases the answer is the changed line that assigns a version
(``+__version__ = '4.1.0'``, ``+    "version": "9.0.1",``, ``+__version_info__ = (3, 5, 0,
'final', 0)``), a short chunk of its own that the long chunks mentioning "version" in prose or
in ``sys.version_info`` checks outrank.

- ``version_asked(query)`` says whether a query names a version.
- ``version_passages(texts, query, weight)`` are, among a diff's chunks ``texts`` (in order), the
  added lines assigning a version, each with the removed line it replaces just above it: those
  whose name is plainest (``version``, ``__version__``) or holds more of the query's other words
  (``__version_info__`` for "the version tuple"), the earliest of equals, one per name, at most
  ``VERSION_PASSAGES``. Each is its chunk's place and the passage, worth ``weight``. Linear in
  the text; never raises on a ``str``. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.store.cutting import LINE_WIDTH, cut
from context_mode.store.values import LineMatch
from context_mode.words import is_function_word

_ASKED = re.compile(r"\bversion", re.IGNORECASE)
# A changed line assigning a name that holds "version": ``+__version__ = '4.1.0'``,
# ``-  "version": "8.3.2",``, ``+VERSION: Final = "2.0"``, ``+Metadata-Version: 2.4``.
_CHANGED = re.compile(
    r"(?P<sign>[-+])(?![-+]{2} )\s*(?:(?:export|const|let|var|final|static)\s+)*[\"']?"
    r"(?P<name>[\w.$-]*version[\w.$-]*)[\"']?\s*(?::\s*[\w\[\]]+\s*)?(?:=(?!=)|:)\s*\S",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+")
_PLAIN = 2.0  # a name that is "version" alone, however spelled
VERSION_PASSAGES = 2  # a release bumps it in several files (PKG-INFO's Version:, __version__)


def version_asked(query: str) -> bool:
    """Whether ``query`` names a version ("new version string", "versions bumped")."""
    return _ASKED.search(query) is not None


def version_passages(texts: Sequence[str], query: str, weight: float) -> list[tuple[int, LineMatch]]:
    """The added lines assigning a version among the chunks ``texts``, each with the line it
    replaces, best first, one per name, at most ``VERSION_PASSAGES`` (module doc)."""
    words = _WORD.findall(query.lower())
    others = {word for word in words if word != "version" and not is_function_word(word)}
    found: list[tuple[float, int, int, str]] = []  # (score, place, line number, name)
    for place, text in enumerate(texts):
        if "ersion" not in text and "ERSION" not in text:
            continue
        for number, line in enumerate(text.splitlines()):
            changed = _CHANGED.match(line)
            if changed is None or changed.group("sign") != "+":
                continue
            name = changed.group("name")
            parts = set(_WORD.findall(name.lower()))
            score = (_PLAIN if parts == {"version"} else 1.0) + len(parts & others)
            found.append((score, place, number, name))
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    passages: list[tuple[int, LineMatch]] = []
    names: set[str] = set()
    for _, place, number, name in found:
        if name in names:
            continue
        names.add(name)
        passages.append((place, _pair(texts[place].splitlines(), number, name, weight)))
        if len(passages) == VERSION_PASSAGES:
            break
    return passages


def _pair(lines: Sequence[str], number: int, name: str, weight: float) -> LineMatch:
    """The added line ``number`` as a passage, with the removed line of the same name just above it."""
    first = number
    if number:
        removed = _CHANGED.match(lines[number - 1])
        if removed is not None and removed.group("sign") == "-" and removed.group("name") == name:
            first = number - 1
    shown = "\n".join(cut(line, (), LINE_WIDTH, str) for line in lines[first : number + 1])
    return LineMatch(first, shown, weight, (("@version", weight),), number + 1 - first)
