"""Summary of code-search output (grep -n, rg -n, git grep -n [-W], rg's heading mode).

Lines are parsed as ``path:line:text`` (a match), ``path-line-text`` (context) or
``path=line=text`` (git grep's function line); rg's heading mode (a path line, then
``line:text`` lines) works too. Match lines are ranked: definitions (``def``, ``class``,
``function``, a module-level assignment), more so when the defined name holds a search term;
``raise``/``throw`` and error lines; whole-word term matches; files with many matches. Imports,
comments and prose files (.md, .rst, .txt) rank lower, and every further line from one file a
little lower, so the extract spreads over files. The same text matched in several places is
shown once with a count (``[×4]``). Context lines are shown only when they raise or throw. The
outline counts matches and files and names the files with most matches.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from context_mode.summaries.extract import Extract
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

_PREFIX = 400
_WIDTH = 180
_DASH = re.compile(r"(?P<sep>[-=])(?P<line>\d+)(?P=sep)")
_HEADING_LINE = re.compile(r"(?P<line>\d+)(?P<sep>[:-])")
_PATHISH = re.compile(r"[^\s:]*[./][^\s:]*\Z")
_DEFINITION = re.compile(
    r"^\s*(?:export\s+|pub(?:\(\w+\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+)*"
    r"(?:def|class|function\*?|func|fn|interface|struct|enum|trait|type|module|impl|macro|object)\s+"
    r"(?P<name>[\w$.]+)"
)
_ASSIGNMENT = re.compile(
    r"^(?:(?:export\s+)?(?:const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]{1,80})?=[^=]"
)
_RAISE_WORDS = ("raise", "throw", "panic", "abort")
_IMPORT_WORDS = ("import", "include", "using", "require")
_MAX_PICKS = 5000
_CALL = re.compile(r"([\w$]+)\(")
_CODE_PUNCTUATION = re.compile(r"[(){}\[\]=<>:;]")
_RAISE = re.compile(r"\b(?:raise|throw|panic!?|abort|raise_any)\b")
_ERRORISH = re.compile(r"error\b|exception\b")  # on the lowercased line
_IMPORT = re.compile(r"^\s*(?:from\s+\S+\s+import\b|import\b|#include\b|using\b|require\()|\brequire\(")
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|;)")
_PROSE_FILE = re.compile(
    r"\.(?:md|rst|txt|adoc|html?)\Z|(?:^|/)(?:docs?|CHANGES|CHANGELOG)(?:/|\Z)", re.IGNORECASE
)
_TEST_FILE = re.compile(r"(?:^|/)tests?/|(?:^|/)test_|_test\.\w+\Z|\.(?:spec|test)\.\w+\Z")


class _Hit(NamedTuple):
    """One parsed line (a NamedTuple: there can be 100k of them, and it is built fastest)."""

    position: int
    path: str
    match: bool  # a match line, not context
    content: str


def summarize_code_search(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The best matching lines of a grep-like listing, spread over its files, within ``budget``."""
    lines = split_lines(text)
    hits = _parse(lines)
    matches = [hit for hit in hits if hit.match]
    if not matches:
        fallback = summarize_text(text, budget=budget, terms=terms)
        return Extract(fallback.text, ContentKind.TEXT, "no path:line matches; " + fallback.outline, 0)
    per_file = Counter(hit.path for hit in matches)
    usable = _usable(terms)
    lowered_terms = [term.lower() for term in usable]
    words = [re.compile(rf"(?<![\w$]){re.escape(t)}(?![\w$])", re.IGNORECASE) for t in usable]
    weights = {path: _path_weight(path, count) for path, count in per_file.items()}
    weights.update((hit.path, 0.0) for hit in hits if hit.path not in weights)
    scored = sorted(((_score(hit, weights, lowered_terms, words), hit) for hit in hits), key=lambda s: -s[0])
    # Only the best few thousand can matter for a budget of a few kB.
    scored = scored[:_MAX_PICKS]
    rank_in_file: Counter[str] = Counter()
    copies = Counter(hit.content.strip() for hit in hits)
    first_copy: dict[str, int] = {}
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    for score, hit in scored:
        content = hit.content.strip()
        if score <= 0 or first_copy.setdefault(content, hit.position) != hit.position:
            continue  # the same text at another place is shown once, with a count
        if copies[content] > 1:
            notes[hit.position] = f"×{copies[content]}"
        picks.append(Pick(hit.position, hit.position + 1, score - 5.0 * rank_in_file[hit.path]))
        rank_in_file[hit.path] += 1
    # Each line carries its path and line number, so gaps need no elision markers.
    body = pack(lines, picks, budget, width=_WIDTH, notes=notes, gaps="none")
    top = ", ".join(f"{path} {count}" for path, count in per_file.most_common(5))
    more = len(per_file) - min(len(per_file), 5)
    outline = f"code search: {len(matches)} matches in {len(per_file)} files; most: {top}" + (
        f", +{more} more files" if more else ""
    )
    return Extract(text=body, kind=ContentKind.CODE_SEARCH, outline=outline, highlights=len(matches))


def _usable(terms: Sequence[str]) -> list[str]:
    return sorted({t.strip() for t in terms if len(t.strip()) >= 2})[:12]


def _parse(lines: Sequence[str]) -> list[_Hit]:
    hits: list[_Hit] = []
    known: set[str] = set()
    heading = ""
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        # The usual ``path:12:text`` split by str.partition, far cheaper than a regex per line.
        path, _, rest = line.partition(":")
        number, found, _ = rest.partition(":")
        if found and number.isdigit() and path and " " not in path:
            known.add(path)
            hits.append(_Hit(index, path, True, full[len(path) + len(number) + 2 :]))
            continue
        dashed = _dashed(line, known)
        if dashed is not None:
            hits.append(_Hit(index, dashed.path, False, dashed.content))
            continue
        in_heading = _HEADING_LINE.match(line)
        if in_heading is not None and heading:
            hits.append(_Hit(index, heading, in_heading.group("sep") == ":", full[in_heading.end() :]))
        elif _PATHISH.match(line.strip()) and line.strip() == line:
            heading = line
    return hits


def _dashed(line: str, known: set[str]) -> _Hit | None:
    """A ``path-12-text`` or ``path=12=text`` line whose path was already seen in a match."""
    if not known:
        return None
    for candidate in _DASH.finditer(line):
        path = line[: candidate.start()]
        if path in known:
            return _Hit(-1, path, False, line[candidate.end() :])
    return None


def _score(
    hit: _Hit, path_weight: dict[str, float], terms: Sequence[str], words: Sequence[re.Pattern[str]]
) -> float:
    """How much a line is worth showing; ``terms`` are lowercased. Cheap substring checks gate
    every regex, since a listing can hold 100k lines."""
    content = hit.content[:_PREFIX]
    lowered = content.lower()
    raises = any(word in lowered for word in _RAISE_WORDS) and _RAISE.search(content) is not None
    if not hit.match:
        # Context lines (git grep -W) only earn a place when they state an error or raise.
        return 20.0 if raises else 0.0
    score = path_weight[hit.path]
    mentioned = any(term in lowered for term in terms)
    definition = _DEFINITION.match(content)
    assignment = _ASSIGNMENT.match(content) if definition is None else None
    if definition is not None:
        score += 30.0 + (_name_bonus(definition.group("name"), terms) if mentioned else 0.0)
    elif assignment is not None:
        score += 18.0 + (_name_bonus(assignment.group("name"), terms) if mentioned else 0.0)
    elif mentioned and any(_mentions(call, terms) for call in _CALL.findall(content)):
        score += 6.0  # a call of a function named after the term
    if not _CODE_PUNCTUATION.search(content.rstrip(".,")):
        score -= 8.0  # prose: a docstring or comment sentence
    if raises:
        score += 15.0
    elif ("error" in lowered or "exception" in lowered) and _ERRORISH.search(lowered):
        score += 6.0
    if mentioned and any(word.search(content) for word in words):
        score += 8.0
    if any(word in lowered for word in _IMPORT_WORDS) and _IMPORT.search(content):
        score -= 15.0
    if _COMMENT.match(content):
        score -= 6.0
    return score - min(len(content), 400) / 40.0


def _path_weight(path: str, matches: int) -> float:
    """A file's base score: files with many matches are central; prose and tests less so."""
    weight = 40.0 + 2.0 * math.log2(matches + 1)
    if _PROSE_FILE.search(path):
        return weight - 10.0
    return weight - 4.0 if _TEST_FILE.search(path) else weight


def _name_bonus(name: str, terms: Sequence[str]) -> float:
    """Extra weight for defining a name that is a search term (most) or contains one."""
    short = name.rsplit(".", 1)[-1].lower()
    if short in terms:
        return 35.0
    return 20.0 if _mentions(name, terms) else 0.0


def _mentions(name: str, terms: Sequence[str]) -> bool:
    lowered = name.lower()
    return any(term in lowered for term in terms)
