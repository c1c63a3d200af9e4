"""Where the release lines of a list of versions end: what is asked of a package's versions.

``VERSION`` matches a version string (``1.2.3``, ``v2.0``, ``3.6.0-rc.9``; group 4 is a
pre-release's suffix). ``line_ends(items, least=)`` ranks the releases of an array of versions
(``pip index versions``, ``npm view``'s ``versions``) that end or start a line, by position: the
newest stable release of each major line first (newest line first), then each minor line's
newest and oldest, the oldest of one line ranked just before the newest of the next older line,
so that the two sit side by side in the array as they do in the payload (``"1.33.0",
"1.32.117"``: what "the last 1.32" and "the first 1.33" ask for). Pre-releases end no line. It
reads at most ``_MAX_RELEASES`` items, once; an array of fewer than ``least`` items, or of which
fewer than four in five are versions, gets no ranks.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?(?:\.\d+)*([-+.~]?[0-9A-Za-z][0-9A-Za-z.+~-]*)?\Z")
_MAX_RELEASES = 20_000  # versions of an array read for the ends of its release lines


def line_ends(items: list[Any], *, least: int) -> dict[int, int]:
    """The ranks of an array's releases that end or start a line, by position (see the module);
    none unless it holds at least ``least`` items, four in five of them versions."""
    if len(items) < least:
        return {}
    stable: dict[int, tuple[int, int, int]] = {}
    versions = 0
    for position, item in enumerate(itertools.islice(items, _MAX_RELEASES)):
        match = VERSION.match(item) if isinstance(item, str) else None
        versions += match is not None
        if match is not None and not match[4]:
            stable[position] = (int(match[1]), int(match[2]), int(match[3] or 0))
    if versions * 5 < min(len(items), _MAX_RELEASES) * 4:
        return {}
    newest: dict[tuple[int, ...], int] = {}
    oldest: dict[tuple[int, ...], int] = {}
    for position, version in stable.items():
        for line in (version[:1], version[:2]):
            if line not in newest or version > stable[newest[line]]:
                newest[line] = position
            if line not in oldest or version < stable[oldest[line]]:
                oldest[line] = position
    ranks: dict[int, int] = {}
    majors = sorted((line for line in newest if len(line) == 1), reverse=True)
    for line in majors:
        ranks.setdefault(newest[line], len(ranks))
    minors = sorted((line for line in newest if len(line) == 2), reverse=True)
    base = len(ranks)
    for index, line in enumerate(minors):
        ranks.setdefault(newest[line], base + 2 * index)
        if index + 1 < len(minors):
            ranks.setdefault(oldest[line], base + 2 * index + 1)
    return ranks
