"""A Markdown page's stated facts, as picks for its summary (``markdown``).

``fact_picks(lines, joined, skip, fenced)`` ranks, beside the outline: the front matter (above
everything but the first line), the first line of each section a thematic break opens, the terms
of definition lists (``definitions``, or a short line opening a paragraph with a hard break,
pandoc's of a man page; a term said again ranks ``REPEATED`` lower), "The default X is Y" lines
(emphasis on "default" aside: "the **default** is 1024") and
notes of a deprecation, removal or version change (``definitions``, ``changes``: one a section,
each shown through the sentence stating it, one said again ranking ``REPEATED`` lower), a
default's term with it, the first few install commands in code blocks (``npm install zustand``,
``pip install loguru``: how to get what the page documents) with the defaults, and the first few
code blocks' first lines, low. ``skip`` lines
(headings, fenced code) are none of these; ``fenced`` are the code blocks' lines.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.summaries.changes import change_at, change_lines
from context_mode.summaries.definitions import (
    MAX_FOUND,
    code_openings,
    definition_lines,
    definition_terms,
    front_matter,
    rule_sections,
)
from context_mode.summaries.markdown_structure import heading_name
from context_mode.summaries.packing import Pick
from context_mode.words import NO_ABBREVIATION

FIRST_LINE_WIDTH = 120
REPEATED = 20.0  # what a heading, term or statement repeating an earlier one ranks less by
SENTENCE_END = re.compile(rf"[.!?]{NO_ABBREVIATION}(?=\s)")  # a sentence's stop, a space after it
_FACT_WIDTH = 200
_FACT_REACH = 400  # a stated fact's line is shown through its sentence, this many chars at most
_MAX_FILL = 6
# A package manager's install command, as a README's code block gives it (a prompt before it aside).
_INSTALL = re.compile(
    r"\s*(?:[$>] )?(?:sudo )?(?:npm (?:install|i|add)|npx jsr add|(?:python3? -m )?pip3? install|pipx install"
    r"|yarn (?:global )?add|pnpm (?:add|install)|bun add|deno add|cargo (?:add|install)|go (?:get|install)"
    r"|gem install|bundle add|brew install|apt(?:-get)? install|dnf install|composer require"
    r"|dotnet add package|conda install|mamba install|uv (?:add|pip install|tool install)|poetry add"
    r"|opam install|cabal install|stack install|mix archive\.install|luarocks install|nimble install"
    r"|raco pkg install|Install-Package) +\S"
)
_INSTALLS = 3  # install commands shown at most
_INSTALL_PRIORITY = 58.0
_PER_SECTION = 1  # definition lines shown per section (a long section states several)
_TERM_PRIORITY = 57.0
_CHANGE_PRIORITY = 45.0  # a deprecation, removal or version change (``changes``): one a section
_BREAK_TERM_WIDTH = 60  # a term over its definition is a name, not a line of prose


def fact_picks(lines: Sequence[str], joined: str, skip: set[int], fenced: set[int]) -> list[Pick]:
    """The front matter, sections opened by a rule, defaults and change notes (one a section)
    and the first few code blocks' first lines, in that order of priority (``definitions``)."""
    picks = [Pick(index, index + 1, 92.0) for index in front_matter(lines)]
    sections = rule_sections(lines, joined, skip)
    picks += [Pick(index, index + 1, 55.0 - 0.002 * index) for index in sections]
    # A definition list's terms (a man page's options, a config reference's variables) index
    # the page as headings would; each term's definition is a section of its own.
    terms = [
        index
        for index in _merged(definition_terms(lines, joined), break_terms(lines, joined))
        if index not in skip
    ]
    # A term or a statement said again (Sphinx's "Parameters:", "If default is not provided, …"
    # under every method) names no new entry: it ranks as a repeated heading does.
    said: set[str] = set()
    for index in terms:
        rank = _TERM_PRIORITY - 0.002 * index - _repeated(lines[index], said)
        picks.append(Pick(index, index + 1, rank, FIRST_LINE_WIDTH))
    bounds = sorted({*skip, *sections, *terms})
    found = {pick.start for pick in picks}
    stated: list[Pick] = []  # defaults and change notes, each shown through its sentence
    for indexes, priority, decay, where in (
        # A reference page states its defaults all through: a late one ranks nearly as an early one.
        (
            _per_section([i for i in definition_lines(_unemphasised(joined)) if i not in skip], bounds),
            58.0,
            0.0002,
            _default_at,
        ),
        # Below the outline's first levels: release notes note a change in half their items.
        (
            _per_section([i for i in change_lines(joined) if i not in skip], bounds),
            _CHANGE_PRIORITY,
            0.0002,
            change_at,
        ),
    ):
        for index in indexes:
            if index not in found:
                rank = priority - decay * index - _repeated(lines[index], said)
                stated.append(Pick(index, index + 1, rank, _fact_width(lines[index], where(lines[index]))))
                found.add(index)
    picks += stated
    installs = [i for i in sorted(fenced) if _INSTALL.match(lines[i]) and i not in found][:_INSTALLS]
    picks += [Pick(i, i + 1, _INSTALL_PRIORITY - 0.002 * i, FIRST_LINE_WIDTH) for i in installs]
    found.update(installs)
    # Below most headings, and only a few: they fill what a short outline leaves.
    for index in code_openings(fenced)[:_MAX_FILL]:
        if index not in found:
            rank = 10.0 - 0.002 * index - _repeated(lines[index], said)
            picks.append(Pick(index, index + 1, rank, FIRST_LINE_WIDTH))
    # A default stated under a term is shown with its term ("gc.auto" over "default value is 6700").
    term_set = set(terms)
    for pick in stated:
        place = bisect.bisect(bounds, pick.start)
        owner = bounds[place - 1] if place else -1
        if owner in term_set:
            picks.append(Pick(owner, owner + 1, pick.priority - 0.001, FIRST_LINE_WIDTH))
    return picks


def break_terms(lines: Sequence[str], joined: str) -> list[int]:
    """The terms of a definition list written as a short line that opens a paragraph and ends in
    a hard break (two spaces), its definition on the lines below (pandoc's Markdown of a man
    page's ``.TP`` entries: ``port  `` over "You can override the default port …")."""
    found: list[int] = []
    line, position = 0, 0
    at = joined.find("  \n")
    while at >= 0 and len(found) < MAX_FOUND:
        start = joined.rfind("\n", 0, at) + 1
        line += joined.count("\n", position, start)
        position = start
        if _is_break_term(lines, line):
            found.append(line)
        at = joined.find("  \n", at + 3)
    return found


def _is_break_term(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is a term over its definition (see ``break_terms``)."""
    term = lines[index].strip()
    following = lines[index + 1] if index + 1 < len(lines) else ""
    return (
        0 < len(term) <= _BREAK_TERM_WIDTH
        and not term.endswith((".", ",", ";", ":"))
        and (index == 0 or not lines[index - 1].strip())
        and bool(following.strip())
        and not following.startswith(" ")
    )


def _merged(first: list[int], second: list[int]) -> list[int]:
    """The line indexes of both, in order, once each."""
    return sorted({*first, *second})


def _unemphasised(joined: str) -> str:
    """``joined`` with the emphasis around "default" left out ("the **default** is 10240"): the
    statement is the same; lines stay where they were."""
    if "*default" not in joined and "*Default" not in joined:
        return joined
    for marked in ("**default**", "**Default**", "*default*", "*Default*"):
        joined = joined.replace(marked, marked.strip("*"))
    return joined


def _default_at(line: str) -> int:
    """Where ``line`` names a default (every stated default holds the word), -1 if nowhere."""
    return line.casefold().find("default")


def _fact_width(line: str, at: int) -> int:
    """Chars of ``line`` a stated fact is shown in: ``_FACT_WIDTH``, or through the sentence its
    statement at ``at`` is in when that ends later (a release note's item is one long line, its
    default past the first 200 chars), ``_FACT_REACH`` at most."""
    if len(line) <= _FACT_WIDTH or at < 0:
        return _FACT_WIDTH
    end = SENTENCE_END.search(line, at)
    stop = end.end() if end else len(line)
    return min(max(stop + 1, _FACT_WIDTH), _FACT_REACH)


def _repeated(line: str, said: set[str]) -> float:
    """What ``line`` ranks less by when an earlier one said the same words (``heading_name``),
    which it adds to ``said``."""
    words = heading_name(line)
    if words in said:
        return REPEATED
    said.add(words)
    return 0.0


def _per_section(indexes: list[int], bounds: list[int]) -> list[int]:
    """The first ``_PER_SECTION`` of ``indexes`` between each two of the sorted ``bounds``."""
    kept: list[int] = []
    counts: Counter[int] = Counter()
    for index in indexes:
        section = bisect.bisect(bounds, index)
        counts[section] += 1
        if counts[section] <= _PER_SECTION:
            kept.append(index)
    return kept
