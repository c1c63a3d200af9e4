"""Plain-text manuals: man pages as ``man`` prints them, ``--help`` listings, ``pydoc`` text.

``is_manual(lines)`` recognises one: a man page's title line (``SSH_CONFIG(5) … SSH_CONFIG(5)``) or
pydoc's (``Help on package json:``), three or more section headings (a line at column 0 in
capitals, ``NAME``, ``DESCRIPTION``, ``EXIT STATUS``, with an indented body below), or a listing
that is mostly option lines (``-k, --insecure   Allow insecure server connections``).

``summarize_manual(lines, budget=, terms=)`` keeps, verbatim by line (a long line keeping its start
and its end), highest first: the first line (the page's title, ``Usage: curl …``) and the last (a
man page's version and date), the section headings (a line at column 0 in capitals, or ending in a
colon: ``Options:``), each section's first line, the lines of an exit status section, lines that
state a default (``The default is /usr/bin/xauth.``, ``(the default)``): an entry's first with the
line of the term it describes, then those said in prose or again in an entry; then the entries in
document order: a definition's term (an option, a keyword; not a line going on from its paragraph
at the same indent, such as "option name:" ending a sentence over an example) with its first line
of description below it, or an option with its description beside it, then paragraphs' first
lines, then, in the room left, the other lines in document order (a report of three sections,
``ldd`` and ``objdump -p``, took a third of its budget with its titles and their first lines).
Lines holding the call's terms rank above all but the first line. pydoc's text (``Help on class str
in module builtins:``) is read past its gutter of bars (`` |  ``), which is shown as written: a
member is an entry however long its signature, each labelled group of members (``Methods defined
here:``) is a section ranking below them, every member's signature comes before any member's first
line of doc, and special methods (but ``__init__``), inherited members, a docstring's terms
(``Raises:``) and its defaults rank below the others; a module's ``class Foo(Base)`` lines rank
with sections' first lines. Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import PYDOC_GUTTER, PYDOC_TITLE
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_HEADING = re.compile(r"[A-Z][A-Z0-9 ,/&()'-]{1,50}\Z")  # NAME, SEE ALSO, MODULE REFERENCE
_COLON_HEADING = re.compile(r"[A-Z][\w ,/()'-]{1,50}:\Z")  # Options:, Usage:
# An option as listings start it: ``-a, --append``, ``--basic``, ``-fexpensive-optimizations``.
_OPTION = re.compile(r"\s{0,12}(?:-[\w?]{1,2}(?:, ?|\s|=|\Z)|--?[\w][\w.+-]*)")
_BESIDE = re.compile(r"\S {2,}\S")  # an option's description beside it, after two spaces or more
_DEFAULT = re.compile(
    r"\(the default\)|\bdefault(?:s to| is| value is|:)|\bby default\b|\b(?:is|being|was) the default\b", re.I
)
# A man page's first line names it on both sides: ``SSH_CONFIG(5)   BSD File Formats Manual   SSH_CONFIG(5)``.
_MAN_TITLE = re.compile(r"\s*([\w.:+-]+\(\w+\))\s.*\s\1\s*\Z")
_EXIT = re.compile(r"EXIT|RETURN VALUE|DIAGNOSTICS")
_WIDTH = 160
_TERM_WIDTH = 80  # a term line is short: a longer one is prose
_SAMPLE = 2000  # lines looked at to recognise a manual
_ENTRY_DEFAULT = 55.0  # an entry's (first) stated default, with the entry's term
_OTHER_DEFAULT = 50.0  # one in prose, or an entry's second: below every entry's first
_FILL = 5.0  # any other line: the room the skeleton leaves is not left empty
_MINOR_ENTRY = 30.0  # pydoc's special methods and inherited members: below every other entry
_DOC_ENTRY = 20.0  # a term in a pydoc member's docstring (``Raises:``): as a paragraph's first line
_MEMBERS_LABEL = 40.0  # pydoc's ``Methods defined here:``: below the members it labels
_CLASS = 60.0  # pydoc's ``class Foo(Base)`` line in a module's page
_PYDOC_CLASS = re.compile(r"\s*(?:[\w.]+ = )?class \w")
_DOC_DEFAULT = 35.0  # a default a pydoc docstring states
_DOC_BELOW = 12.0  # a pydoc member's first line of doc: below every public member's signature
# pydoc's labels of a class's members: ``Methods defined here:``, ``Data descriptors inherited from
# Base:``, ``Method resolution order:`` (section headings in the gutter).
_PYDOC_MEMBERS = re.compile(r"[A-Z][\w ]{2,60}(?: defined here| inherited from [\w.]+| order):\Z")
MIN_HEADINGS = 3
MIN_OPTIONS = 10


def is_manual(lines: Sequence[str]) -> bool:
    """Whether ``lines`` read as a manual (see module doc)."""
    content = [line for line in lines[:_SAMPLE] if line.strip()]
    if len(content) < MIN_OPTIONS:
        return False
    if _MAN_TITLE.match(content[0]) or PYDOC_TITLE.match(content[0].strip()):
        return True
    headings = sum(
        1 for i, line in enumerate(content[:-1]) if _is_heading(line) and content[i + 1][:1] == " "
    )
    if headings >= MIN_HEADINGS:
        return True
    options = sum(1 for line in content if _OPTION.match(line) and line[:1] in " -")
    return options >= MIN_OPTIONS and options * 10 >= len(content) * 3


def _is_heading(line: str) -> bool:
    """A section heading: at column 0, capitals (``OPTIONS``) or a name and a colon (``Options:``)."""
    return line[:1].isupper() and bool(_HEADING.match(line.rstrip()) or _COLON_HEADING.match(line.rstrip()))


def summarize_manual(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The manual's skeleton and entries within ``budget`` bytes (see module doc)."""
    matches = term_matcher(terms)
    total = len(lines)
    first = next((line for line in lines[:_SAMPLE] if line.strip()), "")
    pydoc = bool(PYDOC_TITLE.match(first.strip()))
    plain = [_without_gutter(line) for line in lines] if pydoc else lines  # read, never shown
    picks: list[Pick] = [Pick(0, 1, 100.0)]
    last = next((i for i in range(total - 1, 0, -1) if lines[i].strip()), 0)
    if last:
        picks.append(Pick(last, last + 1, 92.0))
    headings = entries = 0
    section_first = False
    in_exit = False
    below = _next_content(plain)
    inherited = False  # in pydoc's members of a base class (``Methods inherited from …:``)
    stated: set[int] = set()  # the entries whose default is shown
    term: tuple[int, int, int] | None = None  # the entry being described: its line, indent, pick's end
    for index in range(1, total):
        line = plain[index]
        stripped = line.strip()
        if not stripped:
            continue
        order = min(index, 20_000) * 0.0005
        following = below[index]
        members = pydoc and bool(_PYDOC_MEMBERS.match(stripped))
        if members or _is_heading(line) and (following < 0 or plain[following][:1] == " "):
            headings += 1
            # a class's labels of its members (``Methods defined here:``) rank below its members
            picks.append(Pick(index, index + 1, (_MEMBERS_LABEL if members else 90.0) - order))
            # a class's members are entries: the first (a special method, often) is no lead
            section_first, in_exit = not members, bool(_EXIT.search(line))
            inherited = members and " inherited from " in stripped
            continue
        indent = len(line) - len(line.lstrip(" "))
        if term is not None and indent <= term[1]:
            term = None  # out of the entry's description
        deeper = following >= 0 and _indent(plain[following]) > indent + 2
        priority = 0.0
        stop = index + 1
        if section_first:
            priority, section_first = 70.0 - order, False
        elif in_exit:
            priority = 60.0 - order
        elif _DEFAULT.search(line):
            if pydoc:  # a docstring's default: below the members' signatures, which name theirs
                priority = _DOC_DEFAULT - order
            elif term is not None and indent > term[1] and term[0] not in stated:
                stated.add(term[0])
                priority = _ENTRY_DEFAULT - order
                picks.append(Pick(term[0], term[0] + 1, priority + 0.01))  # whose default it is
            else:
                priority = _OTHER_DEFAULT - order
        elif (
            deeper
            and (len(stripped) <= _TERM_WIDTH or pydoc)  # a signature may run long
            and not stripped.endswith((".", ",", ";"))
            and not _wrapped(plain, index, indent)
        ):
            entries += 1
            # pydoc's special methods but ``__init__`` (``__eq__``: "Return self==value.") and a
            # base class's members say least of the class, and a docstring's terms (``Raises:``) less
            special = stripped.startswith("__") and not stripped.startswith("__init__(")
            minor = pydoc and (inherited or special)
            in_doc = pydoc and _in_docstring(lines[index], indent)
            priority = (_DOC_ENTRY if in_doc else _MINOR_ENTRY if minor else 45.0) - order
            if pydoc and _PYDOC_CLASS.match(line):
                priority = _CLASS - order  # a module's classes: its outline
            if following == index + 1 and pydoc:  # every member's signature before any one's doc
                picks.append(Pick(following, following + 1, priority - _DOC_BELOW))
            elif following == index + 1:
                stop = index + 2  # the term with its first line of description
            term = (index, indent, stop)
        elif _OPTION.match(line) and _BESIDE.search(stripped):
            entries += 1
            priority = 44.0 - order
        elif index > 0 and not plain[index - 1].strip():
            priority = 20.0 - order  # a paragraph's first line
        else:
            priority = max(_FILL - order, 0.01)  # room left is filled in document order
        if terms and matches(line):
            priority = max(priority, 30.0) + 50.0
        if priority:
            picks.append(Pick(index, stop, priority))
    body = pack(lines, picks, budget, width=_WIDTH, gaps="short", ends=True)
    outline = f"manual: {total} lines, {headings} sections, {entries} entries"
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=headings + entries)


def _without_gutter(line: str) -> str:
    """``line`` with pydoc's gutter bars (`` |  ``) as spaces: a member's indent is past them."""
    gutter = PYDOC_GUTTER.match(line)
    return line if gutter is None else " " * gutter.end() + line[gutter.end() :]


def _in_docstring(line: str, indent: int) -> bool:
    """Whether a pydoc ``line`` at ``indent`` is deeper than its gutter's members: a docstring's."""
    gutter = PYDOC_GUTTER.match(line)
    return gutter is not None and indent > gutter.end()


def _wrapped(lines: Sequence[str], index: int, indent: int) -> bool:
    """Whether line ``index`` goes on from the line above, a line of its paragraph at its indent
    (the end of a wrapped sentence over an example: "option name:"), so it names no entry."""
    above = lines[index - 1] if index > 0 else ""
    return bool(above.strip()) and _indent(above) == indent


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _next_content(lines: Sequence[str]) -> list[int]:
    """For each line, the index of the next non-blank line below it (-1 when none)."""
    below = [-1] * len(lines)
    upcoming = -1
    for index in range(len(lines) - 1, -1, -1):
        below[index] = upcoming
        if lines[index].strip():
            upcoming = index
    return below
