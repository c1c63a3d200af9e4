"""A diff read into its commits and changed files: what the summary picks from.

``parse(lines)`` reads ``git log -p`` / ``git show`` / ``git diff`` / ``diff -u`` / ``diff -r`` /
``--word-diff`` output into ``Commit``s (``commit <hash>`` with its subject, the first message
line, its ``--stat`` lines and totals, ``--numstat``'s, ``--raw``'s and ``--name-only``'s lines
among them; Mercurial's, Subversion's, Breezy's, CVS's and RCS's entries too, Subversion's
changed paths its files; with ``oneline``, ``git log --oneline``'s lines, each its own subject; a
pseudo-commit at -1 holds files before any commit line)
holding ``ChangedFile``s (``diff --git a/x b/y``, or a ``--- a/x`` / ``+++ b/y`` pair, shown by
the line that names it once) with their added and removed line counts, hunk headers, each hunk's
first new changed lines (in code from its first line that is no comment: ``diff_remarks``) and
the changed lines that define or set something (``is_salient``: a ``def``/``class``/``func``, a
constant or setting, a dependency pin, a version check, an error raised or a warning given with
its message, the message's lines below the call too, see ``diff_messages``; in a
``--word-diff`` line, on either side of it), at most ``_SALIENT_PER_FILE`` a file: what it adds
first, what it removes in ``_SALIENT_REMOVED`` of the places at least (a file rewritten whole
is read by its new lines, not left to the first dozen it deleted). A changed line
that a hunk only reformats (the same, spaces, quotes and separators aside, on its other side, or
in a block of removed lines and the added ones below it that, joined, say the same: a call a
formatter wrapped or joined), that repeats a change made before (a generated copy) or that is
blank is neither; of a hunk that only reformats, the first changed lines are its ``reformats``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from context_mode.shapes import (
    COMMIT_START,
    HG_CHANGESET,
    LISTED_FILE,
    NAME_ONLY,
    ONELINE_COMMIT,
    STAT_TOTAL,
    SVN_PATH,
    VCS_ENTRY,
    WORD_CHANGE,
)
from context_mode.summaries.diff_messages import message_end
from context_mode.summaries.diff_remarks import is_comment
from context_mode.summaries.packing import says_something
from context_mode.summaries.source import CONSTANT, DEFINITION, RAISED

_PREFIX = 400
# git; the git MCP server; Mercurial's ``changeset:   20:1899f6b969b2``; Subversion's, Breezy's, CVS's
# and RCS's entries (``shapes.VCS_ENTRY``: ``r1234 | …``, ``revno: 7``, ``revision 1.7``)
COMMIT = re.compile(
    rf"{COMMIT_START}[0-9a-f]{{7,64}}\b"
    rf"|Commit: [0-9a-f]{{40}}\s*\Z|{HG_CHANGESET.pattern}|{VCS_ENTRY.pattern}"
    r"|# HG changeset patch\s*\Z"  # ``hg export``'s patches, one per changeset
)
# git's header fields, Mercurial's (its ``summary:`` is the subject, ``description:`` heads it) and
# Breezy's (``message:`` heads it)
_HEADER_FIELD = re.compile(
    r"(?:Merge|Author|AuthorDate|Commit|CommitDate|Date):\s"
    r"|(?:tag|branch|bookmark|parent|user|date|files[+-]?|phase|obsolete|instability|description):(?:\s|\Z)"
    r"|(?:tags|committer|author|branch nick|timestamp|message):(?:\s|\Z)"
    r"|branches: |Changed paths:\s*\Z"  # CVS's branches of a revision; Subversion's files, below
    r"|# (?:User|Date|Node ID|Parent|Branch|EXP-Topic) |#\s{2,}\S"  # ``hg export``'s (a date's second line)
)
DIFF_GIT = re.compile(r"diff --git \S")
_OLD_FILE = re.compile(r"--- (?:a/)?\S")
_NEW_FILE = re.compile(r"\+\+\+ (?:b/)?(?P<path>\S+)")
HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")  # its line counts (a count left out is 1)
# A changed line that says what the change does, whatever the file: a definition (``def``,
# ``class``, ``func``…), a constant or setting (``MAX_SIZE = 10``, ``"MAX_FORM_PARTS": 1_000,``,
# ``requires-python = ">=3.9"``), a dependency pin (``"Werkzeug>=3.1",``, ``"esbuild": "^0.24.0"``,
# ``"qs": "6.13.0",``)
# or a version check (``if sys.version_info < (3, 14):``).
_SETTING = re.compile(
    r"""["']?[A-Z][A-Z0-9_]{2,}["']?\s*[:=]\s*\S"""  # an upper-case key, quoted or not
    # TOML / INI / rc ``key = value``, unindented (an indented one is a call's keyword argument):
    # a string, number, list, table, a word such as False or off, or a list of words
    r"""|(?<![ \t])[a-z][\w.-]*\s*=\s*(?:["'\d\[{]|(?i:true|false|yes|no|on|off|none)\b"""
    r"""|[\w-]+(?:,\s*[\w-]+)+\s*\Z)"""
    r"""|["']?[A-Za-z][\w.\-]*["']?\s*(?:[<>=!~]=|[<>]|:\s*["']?[\^~<>=]+)\s*\d"""  # a version spec
    r"""|.*\bversion_info\b|.*\b__version\w*__\b"""  # a check, or ``__version__``/``__version_info__``
    r"""|["'][@\w][\w.\-/@]*["']\s*:\s*["']\d+\.\d+"""  # an exact pin (``"mocha": "10.2.0",``)
    # an option's value in an object literal or YAML (``duplicates: 'combine',``, ``depth: 5``)
    r"""|[a-z_$][\w$]*:\s*(?:["'][^"']*["']|-?\d[\d_.]*|true|false|null|None|True|False),?\s*\Z"""
)
_SALIENT_PER_FILE = 12  # changed lines of one file worth showing alone
_SALIENT_REMOVED = 4  # of them, removed ones at least (a dropped function breaks its callers)
_CHANGED_RUN = 3  # a hunk's first changed lines shown together
_COSMETIC = re.compile(r"[\s;,'\"`]+")  # what a reformat changes: spaces, quotes, separators
# Prose and pinned lists (docs, READMEs, requirements*.txt): their first changed lines are a
# typo fix or a re-pin as often as not; a changelog's first lines name the release.
PROSE = re.compile(r"\.(?:rst|md|txt|adoc|html?)\Z|(?:\A|/)docs?/", re.IGNORECASE)
CHANGELOG = re.compile(r"(?:\A|/)(?:change|changelog|changes|news|history|release)[\w.-]*\Z", re.IGNORECASE)
# ``--word-diff``'s marks around what a line adds and what it removes: a side of the line each
_WORD_ADDED = re.compile(r"\{\+(.*?)\+\}")
_WORD_REMOVED = re.compile(r"\[-(.*?)-\]")


@dataclass(slots=True)
class ChangedFile:
    header: int  # the line to show: ``diff --git`` or ``+++``
    start: int = -1  # its first line (``diff --git``), when not its header
    body: int = -1  # its first hunk header: the lines between are its index / mode / ---/+++ lines
    added: int = 0
    removed: int = 0
    hunks: list[int] = field(default_factory=list)
    changed: list[tuple[int, int]] = field(default_factory=list)  # each hunk's first new changed lines
    salient: list[int] = field(default_factory=list)  # changed lines that define or set something
    messages: dict[int, int] = field(default_factory=dict)  # a salient line's message: the index past it
    salient_sides: list[int] = field(default_factory=lambda: [0, 0])  # salient lines added, removed
    reformats: list[tuple[int, int]] = field(default_factory=list)  # first lines of hunks that only reformat


@dataclass(slots=True)
class Commit:
    line: int
    merge: bool = False
    subject: int = -1
    files: list[ChangedFile] = field(default_factory=list)
    stat: list[int] = field(default_factory=list)  # ``--stat`` lines, one per file
    totals: int = -1  # the ``--stat`` totals line


def parse(lines: Sequence[str], *, oneline: bool = False) -> list[Commit]:
    """The commits of ``lines`` (see the module doc); ``oneline``: a ``git log --oneline`` line
    (``shapes.ONELINE_COMMIT``) is a commit too, its own subject (``--oneline --stat``)."""
    commits = [Commit(-1)]  # a pseudo-commit holds files that come before any commit line
    file: ChangedFile | None = None
    in_header = False
    in_hunk = False
    hunk: list[int] = []  # the changed lines of the hunk being read
    seen: set[tuple[str, str]] = set()  # each changed line's side and shape, once settled
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        commit = commits[-1]
        if hunk and (HUNK.match(line) or DIFF_GIT.match(line) or _OLD_FILE.match(line) or COMMIT.match(line)):
            _settle(lines, file, hunk, seen)
            hunk = []
        if COMMIT.match(line):
            commits.append(Commit(index))
            file = None
            in_header = True
            in_hunk = False
            continue
        if oneline and not in_hunk and ONELINE_COMMIT.match(line):
            commits.append(Commit(index, subject=index))
            file = None
            in_header = False
            continue
        if in_header:
            if SVN_PATH.match(line):
                commit.stat.append(index)  # a Subversion entry's changed path
                continue
            if line.startswith("Merge:"):
                commit.merge = True
            if not _HEADER_FIELD.match(line) and line.strip():
                commit.subject = index  # the git MCP server's ``Message: …`` line too
                in_header = False
            continue
        if DIFF_GIT.match(line):
            file = ChangedFile(index)
            commit.files.append(file)
            in_hunk = False
        elif _OLD_FILE.match(line) and index + 1 < len(lines) and _NEW_FILE.match(lines[index + 1][:_PREFIX]):
            if file is None or in_hunk or file.hunks:
                deleted = lines[index + 1].startswith("+++ /dev/null")
                file = ChangedFile(index if deleted else index + 1)  # a deleted file is named on its --- line
                commit.files.append(file)
            elif path_of(lines[file.header][:_PREFIX]) == path_of(lines[index + 1][:_PREFIX]) and _same_file(
                path_of(line), path_of(lines[index + 1][:_PREFIX])
            ):
                # ``+++ b/x`` names the file once, ``diff --git a/x b/x`` twice (a file renamed, added
                # or deleted keeps its ``diff --git`` line: both names, or the one it has)
                file.start = file.header
                file.header = index + 1
            in_hunk = False
        elif HUNK.match(line) and file is not None:
            if not file.hunks:
                file.body = index
            file.hunks.append(index)
            in_hunk = True
        elif not in_hunk and file is None and STAT_TOTAL.match(line):
            commit.totals = index
        elif (
            not in_hunk
            and file is None
            and (
                LISTED_FILE.match(line)
                or (commit.line >= 0 and NAME_ONLY.match(line))  # a commit's file, ``--name-only``
            )
        ):
            commit.stat.append(index)
        elif in_hunk and file is not None and (line[:1] in {"+", "-"} or word_change(line)):
            if line[:1] == "+" or (line[:1] != "-" and "{+" in line):
                file.added += 1
            else:
                file.removed += 1
            hunk.append(index)
    if hunk:
        _settle(lines, file, hunk, seen)
    for commit in commits:
        for changed in commit.files:
            changed.salient = _salient_sides(lines, changed.salient)
    return [commit for commit in commits if commit.line >= 0 or commit.files]


def _salient_sides(lines: Sequence[str], salient: Sequence[int]) -> list[int]:
    """At most ``_SALIENT_PER_FILE`` of a file's lines that define or set something: its added
    ones first, its removed ones in at least ``_SALIENT_REMOVED`` of the places when it has them."""
    added = [at for at in salient if not is_removal(lines[at])]
    removed = [at for at in salient if is_removal(lines[at])]
    kept = max(_SALIENT_REMOVED, _SALIENT_PER_FILE - len(added))
    return sorted(added[: _SALIENT_PER_FILE - min(kept, len(removed))] + removed[:kept])


def is_removal(line: str) -> bool:
    """Whether a changed line only removes (``-x``, a word diff's ``[-x-]`` with nothing added)."""
    return line[:1] == "-" or (line[:1] != "+" and "{+" not in line)


def _shape(line: str) -> str:
    """A changed line's content without its mark, spaces, quotes and separators: a line reformatted
    (re-indented, re-quoted, its semicolon dropped) keeps its shape."""
    return _COSMETIC.sub("", line[1:])


def _settle(
    lines: Sequence[str], file: ChangedFile | None, hunk: Sequence[int], seen: set[tuple[str, str]]
) -> None:
    """Note a hunk's first changed line and those that define or set something, leaving out what
    says nothing new: a line the hunk only reformats (its shape on the other side too), a line
    changed the same way before (a generated copy, a repeated decorator) and blank lines."""
    if file is None:
        return
    shapes = [_shape(lines[index][:_PREFIX]) for index in hunk]
    path = path_of(lines[file.header][:_PREFIX])
    code = PROSE.search(path) is None and CHANGELOG.search(path) is None  # a document's headings stay
    reformatted = _reformatted(lines, hunk, shapes)
    if reformatted and all(index in reformatted for index in hunk if lines[index][:1] in "+-"):
        # a hunk that only reformats (a formatter's ``--diff``): its first changed lines that say
        # something, in a row, for room nothing else wants
        worded = [index for index, shape in zip(hunk, shapes, strict=True) if says_something(shape)]
        if worded:
            end = worded[0] + 1
            while end in reformatted and end - worded[0] < _CHANGED_RUN:
                end += 1
            file.reformats.append((worded[0], end))
    run = (-1, -1)  # the hunk's first new changed lines, in a row (a rule or blank line among them)
    for index, shape in zip(hunk, shapes, strict=True):
        line = lines[index][:_PREFIX]
        mark = line[:1]
        if index in reformatted or (mark, shape) in seen:
            continue
        if run[1] == index and index - run[0] < _CHANGED_RUN:
            run = (run[0], index + 1)  # the run goes on through this line
        if not says_something(shape):
            continue
        seen.add((mark, shape))
        if run[0] < 0 and not (code and is_comment(line)):  # the run starts where the change does
            run = (index, index + 1)
        removal = is_removal(line)
        if file.salient_sides[removal] >= _SALIENT_PER_FILE:
            continue  # this side's lines that define or set something are many enough
        message = message_end(lines, index)
        if message > index + 1:  # an error or warning whose message is on the lines below it
            file.messages[index] = message
        if message > index or (is_salient(line) if mark in ("+", "-") else _word_salient(line)):
            file.salient.append(index)
            file.salient_sides[removal] += 1
    if run[0] >= 0:
        file.changed.append(run)


def _reformatted(lines: Sequence[str], hunk: Sequence[int], shapes: Sequence[str]) -> set[int]:
    """The changed lines of a hunk that it only reformats: a line whose shape is one the other side
    has (re-indented, re-quoted), and a block of removed lines and the added lines just below it
    whose shapes, joined, are the same (a call wrapped over three lines or three joined into one,
    a comment moved to its own line, as formatters do)."""
    sides: dict[str, set[str]] = {"+": set(), "-": set()}
    blocks: list[list[int]] = []  # positions of removed lines and the added ones right below them
    for position, (index, shape) in enumerate(zip(hunk, shapes, strict=True)):
        mark = lines[index][:1]
        if mark not in sides:
            continue
        sides[mark].add(shape)
        previous = hunk[position - 1] if position else -2
        if previous != index - 1 or (mark == "-" and lines[previous][:1] == "+"):
            blocks.append([])  # a gap, or a removed line below added ones: a block starts
        blocks[-1].append(position)
    reformatted = {
        index
        for index, shape in zip(hunk, shapes, strict=True)
        if lines[index][:1] in sides and shape in sides["-" if lines[index][:1] == "+" else "+"]
    }
    for block in blocks:
        old = "".join(shapes[at] for at in block if lines[hunk[at]][:1] == "-")
        new = "".join(shapes[at] for at in block if lines[hunk[at]][:1] == "+")
        if old == new and old:
            reformatted.update(hunk[at] for at in block)
    return reformatted


def word_change(line: str) -> bool:
    """A line of ``git diff --word-diff`` with a change marked in it (``[-old-]{+new+}``)."""
    return ("{+" in line or "[-" in line) and WORD_CHANGE.search(line) is not None


def _same_file(old: str, new: str) -> bool:
    """Whether two paths name one file: the same path, or the same one under the two trees a
    ``diff -r`` or ``git diff --no-index`` compares (``pluggy-1.4.0/src/a.py``, ``pluggy-1.5.0/src/a.py``)."""
    if old == new:
        return True
    old_root, _, old_rest = old.partition("/")
    new_root, _, new_rest = new.partition("/")
    return bool(old_rest) and old_rest == new_rest and old_root != new_root


def path_of(header: str) -> str:
    """The file a header line names: ``diff --git a/x b/y`` -> ``y``, ``+++ b/y<TAB>date`` -> ``y``."""
    named = header.rsplit(" b/", 1)[-1] if header.startswith("diff --git ") else header[4:].split("\t")[0]
    return named.removeprefix("b/").removeprefix("a/").strip()


def _word_salient(line: str) -> bool:
    """Whether a ``--word-diff`` line defines or sets something on either side (``{+x = 1+}``,
    ``class [-Job(object):-]{+Job:+}``)."""
    new = _WORD_ADDED.sub(r"\1", _WORD_REMOVED.sub("", line))
    old = _WORD_REMOVED.sub(r"\1", _WORD_ADDED.sub("", line))
    return is_salient("+" + new) or is_salient("-" + old)


def is_salient(line: str) -> bool:
    """Whether a changed line (``+``/``-`` first) defines or sets something (see ``_SETTING``), or
    raises an error with a message (what a user sees when it fails)."""
    content = line[1:].strip()
    if len(content) < 4 or content.startswith(("#", "//", "/*", "*")):
        return False
    if DEFINITION.match(content) or CONSTANT.match(content) or RAISED.search(content):
        return True
    indent = len(line) - 1 - len(line[1:].lstrip())
    return _SETTING.match(line, 1 + indent) is not None  # matched in place: its lookbehind sees the indent
