"""Lines of a document that state facts: defaults, requirements, quantities, and where sections open.

For ``markdown`` (documents and fetched web pages). Every finder takes the document's lines, and
the regex finders also their newline-joined (prefix-cut) text, searched once, so lines without a
match cost no Python step. Each returns line indexes in order:

- ``definition_lines``: "The default X is Y", "X defaults to Y", "Y is the default", "(default: Y)",
  "the port, default 53," (``states_default``: whether one line says so)
  (not "must": a spec says it in every paragraph, and the lines would crowd out its outline);
- ``quantity_lines``: a number with a unit ("4 characters", "1--9 arabic digits", "512 bytes");
- ``front_matter``: the YAML block between ``---`` lines that opens a document (title, version);
- ``rule_sections``: the first text line after a thematic break (``---``, ``***``, ``___`` after
  a blank line), which converted HTML pages use where a heading would be (``**PRAGMA** …``);
- ``definition_terms``: the terms of definition lists (a line above a ``:   definition`` line);
- ``code_openings``: each fenced code block's first code line.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from context_mode.summaries.log_marks import search

_DEFINITION = re.compile(
    r"\b(?:(?:the|a) default\b(?:(?!\b(?:that|which|who)\b)[^.;:!?]){0,50}?\b(?:is|are|was|of)\b"
    r"|defaults? (?:to|is|value)\b"
    # "The port number, default 53, on which", "(default `1000`)"
    r"|\bdefault:? `?\d"
    # "with 6 being the default", "(default: 5)"
    r"|\b(?:is|being|was) the default\b|\(default(?::|=| is)? )",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    r"\b\d+(?:[.,]\d+)?(?:(?:--|–|-)\d+)?(?: arabic)? ?(?:bytes?|[KMGT]i?B|characters?|chars|digits?|"
    r"spaces?|columns?|bits?|seconds?|milliseconds?|ms|pages?)\b",
    re.IGNORECASE,
)
_RULE = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
_RULE_LINE = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$", re.MULTILINE)
_DEFINITION_BODY = re.compile(r"^ {0,4}: {1,4}\S", re.MULTILINE)
_FRONT_MATTER_LINES = 30
MAX_FOUND = 400


def pattern_lines(
    joined: str, pattern: re.Pattern[str], limit: int = MAX_FOUND, *, lead: str = ""
) -> list[int]:
    """Indexes of the lines of ``joined`` (newline-joined) where ``pattern`` matches, the first
    ``limit``; the pattern must not match a newline. ``lead``, when given, is a literal every
    match starts with: the regex then starts at its next place, found by a rare char of it
    (``log_marks``), instead of stepping through every char before it."""
    found: list[int] = []
    line = 0
    position = 0
    while len(found) < limit:
        match = search(pattern, lead, joined, position) if lead else pattern.search(joined, position)
        if match is None:
            break
        line += joined.count("\n", position, match.start())
        found.append(line)
        position = joined.find("\n", match.start()) + 1
        if position == 0:
            break
        line += 1
    return found


def definition_lines(joined: str) -> list[int]:
    """Lines saying what a default is.

    Every match holds "default" (in some case): only the lines holding it are searched, found by
    ``str.find``, each with the line after it (a match may wrap onto it), instead of a regex that
    tries every position of the page (a 1 MB changelog: 5 ms instead of 60).
    """
    starts: set[int] = set()
    for literal in ("efault", "EFAULT"):
        at = joined.find(literal)
        while at >= 0:
            starts.add(joined.rfind("\n", 0, max(at - 5, 0)) + 1)  # "the\ndefault": the line before
            starts.add(joined.rfind("\n", 0, at) + 1)
            at = joined.find(literal, at + 1)
    found: list[int] = []
    line, position = 0, 0
    for start in sorted(starts):
        end = joined.find("\n", start)
        match = _DEFINITION.search(joined, start, _line_end(joined, end))
        if match is None or (end >= 0 and match.start() > end):
            continue
        line += joined.count("\n", position, start)
        position = start
        found.append(line)
        if len(found) >= MAX_FOUND:
            break
    return found


def states_default(line: str) -> bool:
    """Whether ``line`` itself says what a default is (``definition_lines`` also reads a match
    wrapping onto the next line)."""
    return ("efault" in line or "EFAULT" in line) and _DEFINITION.search(line) is not None


def _line_end(joined: str, end: int) -> int:
    """The end of the line after the one ending at ``end`` (a match may wrap onto it)."""
    if end < 0:
        return len(joined)
    after = joined.find("\n", end + 1)
    return after if after >= 0 else len(joined)


def quantity_lines(joined: str) -> list[int]:
    """Lines with a number and its unit."""
    return pattern_lines(joined, _QUANTITY)


def front_matter(lines: Sequence[str]) -> range:
    """The opening ``---`` … ``---`` block, both rules included; empty if there is none."""
    if not lines or lines[0].strip() != "---":
        return range(0)
    for index in range(1, min(len(lines), _FRONT_MATTER_LINES)):
        if lines[index].strip() in ("---", "..."):
            return range(index + 1)
    return range(0)


def rule_sections(lines: Sequence[str], joined: str, skip: Collection[int]) -> list[int]:
    """The first text line after each thematic break; a rule right under text is a setext
    underline, not a break. ``skip`` lines (fenced code, headings) are neither rules nor
    section openings."""
    found: list[int] = []
    for index in pattern_lines(joined, _RULE_LINE):
        if index in skip or (index and lines[index - 1].strip()):
            continue
        for following in range(index + 1, min(len(lines), index + 4)):
            if lines[following].strip():
                if following not in skip and not _RULE.match(lines[following][:200]):
                    found.append(following)
                break
    return found


def definition_terms(lines: Sequence[str], joined: str) -> list[int]:
    """The terms of definition lists: a line just above a ``:   definition`` line (the Markdown
    that pandoc and markdownify write for HTML ``<dl>``), at most four spaces in; in a loose list
    (pandoc's of a man page: a blank line between), a line of its own, not indented, two above."""
    found: list[int] = []
    for index in pattern_lines(joined, _DEFINITION_BODY):
        term = lines[index - 1] if index > 0 else ""
        if term.strip() and len(term) - len(term.lstrip()) <= 4:
            found.append(index - 1)
        elif (
            index >= 2
            and not term.strip()
            and lines[index - 2][:1].strip()
            and (index == 2 or not lines[index - 3].strip())
        ):
            found.append(index - 2)
    return found


def count_definition_terms(joined: str) -> int:
    """How many definitions the lists hold (``definition_terms`` returns the first ``MAX_FOUND``)."""
    return len(_DEFINITION_BODY.findall(joined))


def code_openings(fenced: Collection[int]) -> list[int]:
    """The first code line of each fenced block (``fenced`` holds the fences and their lines)."""
    return [index + 1 for index in sorted(fenced) if index - 1 not in fenced and index + 1 in fenced]
