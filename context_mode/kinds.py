"""Detecting what a tool result is (``ContentKind``), from its content first.

``detect_kind`` decides in this order; the first rule that holds wins:

1. JSON: the whole text parses as JSON (or is nested too deep for the parser but is bracketed).
2. DIFF: unified-diff hunks (``@@ -a,b +c,d @@``) with file headers, or ``git log`` commit lines,
   make up most of the sampled lines.
3. CODE_SEARCH: ``path:line:`` lines (grep -n, rg -n, git grep; ``path-line-`` context lines
   count too) are at least 60% of the non-blank sampled lines, unless most of them are compiler
   diagnostics (``path:line:col: error:``), which make a LOG.
4. Weaker evidence is scored: log markers (levels, timestamps, tracebacks, compiler errors,
   pytest/unittest/go test lines, make and pip lines), Markdown headings, column alignment or a
   steady CSV/TSV delimiter count. Strong log evidence wins, then Markdown, then TABLE, then
   weaker log evidence.
5. The tool name (and argument names) break ties: a ``*log*`` tool makes a LOG, ``*grep*`` or
   ``*search*`` a CODE_SEARCH, ``*diff*`` a DIFF, when the content has some evidence of that
   kind or is otherwise plain TEXT.

Only a sample is read: the first and last ``SAMPLE_CHARS`` of the text, cut to whole lines
(JSON is tried on the whole text: a C parse is cheap and all-or-nothing). Every regex sees a
bounded prefix of a line, so detection is linear and fast on a 1 MB single line.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from context_mode.types import ContentKind

SAMPLE_CHARS = 64 * 1024
_PREFIX = 300

_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_DIFF_LINE = re.compile(
    r"(?:diff --git |index [0-9a-f]+\.\.|--- |\+\+\+ |@@ |[ +\-]|commit [0-9a-f]{7,}|Merge: |Author: |Date: "
    r"|new file mode|deleted file mode|similarity index|rename (?:from|to) |Binary files |\\ No newline| {4})"
)
_COMMIT = re.compile(r"commit [0-9a-f]{7,64}\b")
_GREP = re.compile(r"(?P<path>[^\s:]{1,250}?)(?P<sep>[:=-])\d+(?P=sep)")
_HEADING_MATCH = re.compile(r"\d+[:-]")
_HEADING_PATH = re.compile(r"[^\s:]*[./][^\s:]*\Z")
_COMPILER = re.compile(r"[^\s:]+:\d+(?::\d+)?: (?:fatal error|error|warning|note)\b")
_LOG_MARKER = re.compile(
    r"\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|SEVERE|CRITICAL|FINE)\b"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|^\[?\d\d:\d\d:\d\d\b"
    r"|\b\d{1,2} [A-Z][a-z]{2} \d{4}\b|\d\d-[A-Z][a-z]{2}-\d{4}"
    r"|Traceback \(most recent call last\)|^\s+at [\w$.]+\(|^\s*File \"[^\"]+\", line \d+"
    r"|\b(?:PASSED|FAILED|SKIPPED|XFAIL)\b|^=+ .* =+$|^(?:ok|FAIL|---) |::\w+"
    r"|^make(?:\[\d+\])?: |^\[ *\d+%\]|^-- |^(?:Collecting|Downloading|Installing|Successfully) "
    r"|npm (?:ERR!|WARN)|^\s*(?:Compiling|Finished|Running) |\b(?:error|warning)(?:\[\w+\])?: "
    r"|^\w+(?:Error|Exception)\b",
)
_ATX = re.compile(r" {0,3}#{1,6} \S")
_SETEXT = re.compile(r" {0,3}(?:={3,}|-{3,})\s*\Z")
_FENCE = re.compile(r" {0,3}(?:```|~~~)")
_MARKDOWN_INLINE = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)|^\s*[-*+] \S|`[^`\n]+`|\*\*[^*\n]+\*\*")
_RULE = re.compile(r"\s*[|+]?[-=:+| ]*[-=]{3,}[-=:+| ]*\Z")

_HINTS: tuple[tuple[str, ContentKind], ...] = (
    ("diff", ContentKind.DIFF),
    ("grep", ContentKind.CODE_SEARCH),
    ("search_code", ContentKind.CODE_SEARCH),
    ("search", ContentKind.CODE_SEARCH),
    ("log", ContentKind.LOG),
)
_SEARCH_ARGUMENTS = frozenset({"pattern", "regex", "regexp"})


def detect_kind(text: str, *, tool_name: str = "", arguments: Mapping[str, Any] | None = None) -> ContentKind:
    """The kind of ``text``, judged from its content, with the tool name as a tie-breaker."""
    if _is_json(text):
        return ContentKind.JSON
    lines = [line[:_PREFIX] for line in _sample(text)]
    filled = [line for line in lines if line.strip()]
    if not filled:
        return ContentKind.TEXT
    total = len(filled)
    hint = _hint(tool_name, arguments or {})

    diff_lines = sum(1 for line in filled if _DIFF_LINE.match(line))
    hunks = sum(1 for line in filled if _HUNK.match(line))
    commits = sum(1 for line in filled if _COMMIT.match(line))
    diff_share = diff_lines / total
    if (hunks and diff_share >= 0.8) or (commits >= 2 and diff_share >= 0.8):
        return ContentKind.DIFF

    grep_lines = [line for line in filled if _looks_like_grep(line)]
    headings = sum(1 for line in filled if _HEADING_PATH.match(line))
    if headings and not grep_lines:
        # rg's heading mode: a path line, then ``12:text`` lines.
        grep_lines = [line for line in filled if _HEADING_MATCH.match(line) or _HEADING_PATH.match(line)]
    grep_share = len(grep_lines) / total
    compiler = sum(1 for line in grep_lines if _COMPILER.match(line))
    if grep_share >= 0.6 and compiler * 2 < len(grep_lines):
        return ContentKind.CODE_SEARCH

    log_share = sum(1 for line in filled if _LOG_MARKER.search(line)) / total
    markdown = _markdown_score(lines)
    table = _is_table(filled)
    content = ContentKind.TEXT
    if log_share >= 0.5:
        content = ContentKind.LOG
    elif markdown >= 2 and log_share < 0.3:
        content = ContentKind.MARKDOWN
    elif table and log_share < 0.3:
        content = ContentKind.TABLE
    elif log_share >= 0.15:
        content = ContentKind.LOG

    if hint is None or hint == content:
        return content
    evidence = {
        ContentKind.LOG: log_share >= 0.05 or compiler > 0,
        ContentKind.CODE_SEARCH: grep_share >= 0.3,
        ContentKind.DIFF: hunks > 0 or commits > 0,
    }
    if evidence.get(hint, False) or content == ContentKind.TEXT:
        return hint
    return content


def _is_json(text: str) -> bool:
    stripped = text.strip().lstrip("\ufeff")
    if not stripped or stripped[0] not in "[{" or stripped[-1] not in "]}":
        return False
    try:
        json.loads(stripped)
    except RecursionError:
        return True  # bracketed and nested deeper than the parser goes: still JSON to us
    except ValueError:
        return False
    return True


def _sample(text: str) -> list[str]:
    """Whole lines from the first and last ``SAMPLE_CHARS`` of ``text``."""
    if len(text) <= 2 * SAMPLE_CHARS:
        return text.splitlines()
    head = text[:SAMPLE_CHARS].splitlines()[:-1] or [text[:SAMPLE_CHARS]]
    tail = text[-SAMPLE_CHARS:].splitlines()[1:] or [text[-SAMPLE_CHARS:]]
    return head + tail


def _looks_like_grep(line: str) -> bool:
    """A ``path:12:`` (or ``path-12-``) line whose path looks like a file path, not a date or time."""
    match = _GREP.match(line)
    if match is None:
        return False
    path = match.group("path")
    return any(ch in path for ch in "./\\") and any(ch.isalpha() or ch == "_" for ch in path)


def _markdown_score(lines: Sequence[str]) -> int:
    """Headings outside code fences, plus 1 if inline Markdown (links, lists, code) is common."""
    headings = 0
    inline = 0
    fenced = False
    previous = ""
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if _ATX.match(line) or (_SETEXT.match(line) and previous.strip() and not _SETEXT.match(previous)):
            headings += 1
        elif _MARKDOWN_INLINE.search(line):
            inline += 1
        previous = line
    return headings + (1 if headings and inline * 10 >= len(lines) else 0)


def _is_table(lines: Sequence[str]) -> bool:
    """Whether most lines share a delimiter count, or column boundaries line up."""
    rows = [line for line in lines[:400] if not _RULE.match(line)]
    if len(rows) < 3:
        return False
    for delimiter in ("\t", ",", "|", ";"):
        counts = Counter(line.count(delimiter) for line in rows)
        common, times = counts.most_common(1)[0]
        if common >= 1 and times >= 0.9 * len(rows) and (delimiter != "\t" or not rows[0].startswith("\t")):
            return True
    return _aligned(rows)


def _aligned(rows: Sequence[str]) -> bool:
    """Whether 90% of the rows share two or more blank vertical lanes after some text.

    Only positions before the shorter rows' end are looked at (the 20th percentile of lengths),
    so the ragged right edge of prose is not mistaken for a lane.
    """
    width = min(sorted(len(row) for row in rows)[len(rows) // 5], _PREFIX)
    if width < 5:
        return False
    needed = 0.9 * len(rows)
    blanks = [0] * width
    for row in rows:
        for position, char in enumerate(row[:width]):
            if char == " ":
                blanks[position] += 1
        for position in range(len(row), width):
            blanks[position] += 1  # past a short row's end is blank too
    lanes = 0
    inside = False
    seen_text = False
    for position in range(width):
        blank = blanks[position] >= needed
        if blank and seen_text and not inside:
            lanes += 1
        inside = blank
        seen_text = seen_text or not blank
    return lanes >= 2


def _hint(tool_name: str, arguments: Mapping[str, Any]) -> ContentKind | None:
    name = tool_name.lower()
    for fragment, kind in _HINTS:
        if fragment in name:
            return kind
    if _SEARCH_ARGUMENTS & {str(key).lower() for key in arguments}:
        return ContentKind.CODE_SEARCH
    return None
