"""The newest or oldest version of a list of versions, for a query that asks for one.

"the newest 2.x version", "the final release of the 4 major line", "the last release before
1.20", "the oldest available version": the answer is one version among the hundreds a registry
lists (``npm view x versions``, ``pip index versions``, ``git tag``), found by comparing them as
versions; no query word is on its line, and a generic extreme would compare dates or sizes.

- ``release_asked(query)`` is the ``Release`` a query asks for: newest or oldest (its
  superlative: "newest", "latest", "last", "final", "highest"; "oldest", "earliest", "first",
  "lowest"), and the line it is in (``2.x``, ``2.7.x``, "the 4 major line", "the 1.19 series")
  or a bound ("before 1.20", "after 3.0"), when the query names versions ("version", "tag") or
  such a line or bound; None otherwise ("the date of the latest release" asks for a date).
- ``release_passage(texts, release, weight)`` is the line holding that version among a payload's
  chunks ``texts`` (in order), as its chunk's place and a passage worth ``weight``, cut around the
  version (a compact array holds them all on one line). It needs ``MIN_VERSIONS`` distinct versions
  in the payload, a list of them; pre-releases (``3.0.0-beta.1``, ``2.0rc1``) count only when the
  query names one ("beta", "rc", "pre-release"). Of equal versions the first is named.

Linear in the text; never raises on a ``str``. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from context_mode.store.cutting import LINE_WIDTH, cut
from context_mode.store.values import LineMatch

MIN_VERSIONS = 5
_NEWEST = frozenset("newest latest last final highest greatest".split())
_OLDEST = frozenset("oldest earliest first lowest".split())
# What names a version (not "release": "the latest release's date" asks for its date, not its version).
_NAMES = frozenset("version versions tag tags".split())
_PRE_WORDS = frozenset("beta alpha rc pre prerelease pre-release preview candidate dev nightly".split())
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*", re.IGNORECASE)
# A version as lists spell it: ``2.7.16``, ``v1.19.112``, ``1.0rc1``, ``3.0.0-beta.1`` (its
# pre-release part, if any, in ``pre``); not inside a longer dotted word (an address, a file name),
# a time (``12:59:02.938``) or a range (``^4.57.6``).
_VERSION = re.compile(
    r"(?<![\w.\-:^~<>=])v?(?P<numbers>\d+(?:\.\d+){1,3})"
    r"(?P<pre>(?:[-.]?(?:a|b|rc|alpha|beta|pre|dev|post|next|canary)[\w.]*)|-[\w.]+)?(?![\w.]*\w)"
)
_LINE = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)?)\.x\b", re.IGNORECASE)  # ``2.x``, ``2.7.x``
_SERIES = re.compile(  # "the 4 major line", "the 1.19 series", "major 3"
    r"\b(\d+(?:\.\d+)?)\s+(?:major|minor|series|line|branch)\b|\bmajor\s+(\d+)\b", re.IGNORECASE
)
_BOUND = re.compile(
    r"\b(before|below|under|prior to|older than|after|above|since|newer than)\s+v?(\d+(?:\.\d+){0,3})\b",
    re.IGNORECASE,
)
_BEFORE = frozenset(("before", "below", "under", "prior to", "older than"))


@dataclass(frozen=True, slots=True)
class Release:
    """What a query asks of a list of versions."""

    newest: bool
    prefix: tuple[int, ...] = ()  # the line the version is in: (2,) for "2.x"
    below: tuple[int, ...] | None = None  # an exclusive upper bound: "before 1.20"
    above: tuple[int, ...] | None = None  # an exclusive lower bound: "after 3.0"
    pre: bool = False  # pre-releases count


def release_asked(query: str) -> Release | None:
    """The release the query asks for, or None (module doc)."""
    words = [word.lower().strip(".-") for word in _WORD.findall(query)]
    newest = any(word in _NEWEST for word in words) or "recent" in words
    oldest = any(word in _OLDEST for word in words)
    if newest == oldest:
        return None
    prefix: tuple[int, ...] = ()
    if found := _LINE.search(query):
        prefix = _numbers(found.group(1))
    elif found := _SERIES.search(query):
        prefix = _numbers(found.group(1) or found.group(2))
    below = above = None
    if bound := _BOUND.search(query):
        if bound.group(1).lower() in _BEFORE:
            below = _numbers(bound.group(2))
        else:
            above = _numbers(bound.group(2))
    if not prefix and below is None and above is None and not _NAMES & set(words):
        return None
    return Release(newest, prefix, below, above, bool(_PRE_WORDS & set(words)))


def release_passage(texts: Sequence[str], release: Release, weight: float) -> tuple[int, LineMatch] | None:
    """The line holding the version ``release`` asks for among the chunks ``texts`` (module doc)."""
    best: tuple[tuple[int, ...], int, int, int, int] | None = None  # version, place, line, start, end
    seen: set[tuple[int, ...]] = set()
    for place, text in enumerate(texts):
        for number, line in enumerate(text.splitlines()):
            for found in _VERSION.finditer(line):
                version = _numbers(found.group("numbers"))
                if found.group("pre") and not release.pre:
                    continue
                seen.add(version)
                if not _admitted(version, release):
                    continue
                key = _padded(version)
                if best is None or (key > best[0] if release.newest else key < best[0]):
                    best = (key, place, number, found.start(), found.end())
    if best is None or len(seen) < MIN_VERSIONS:
        return None
    _, place, number, start, end = best
    line = texts[place].splitlines()[number]
    shown = cut(line, [(start, end, 1.0)], LINE_WIDTH, str)
    return place, LineMatch(number, shown, weight, (("@version", weight),), 1, grows=True)


def _admitted(version: tuple[int, ...], release: Release) -> bool:
    if release.prefix and version[: len(release.prefix)] != release.prefix:
        return False
    if release.below is not None and _padded(version) >= _padded(release.below):
        return False
    return release.above is None or _padded(version) > _padded(release.above)


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def _padded(version: tuple[int, ...]) -> tuple[int, ...]:
    """``version`` with zeros to four parts: 1.20 and 1.20.0 compare equal."""
    return (*version, *(0,) * (4 - len(version)))
