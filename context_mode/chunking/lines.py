"""Line-oriented units for the chunker: markdown sections, log records, diff hunks, grep files,
files read together, paragraphs, a drawn tree's entries under their directories.

Each ``*_units(text)`` returns ``(start, end, heading_path, structural)`` units that cover ``text``
in order, contiguously (the next unit starts where the previous ended). ``structural`` marks pure
syntax (JSON brackets and keys): the chunker ignores it when naming a chunk that also has content.
A unit is the smallest piece the chunker keeps whole when it can: a paragraph, a fenced code
block, a log record with its traceback, a diff hunk, the matches of one file. Every function is
one pass over the lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from context_mode.classic_diff import as_unified
from context_mode.combined_diff import as_unified as as_combined
from context_mode.shapes import COMMIT_START, FILE_HEADER_LINE, HEADING_ANCHOR, header_path
from context_mode.words import worded

Unit = tuple[int, int, tuple[str, ...], bool]

MAX_TITLE_CHARS = 120


def lines(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each line of ``text``, the newline included."""
    position, length = 0, len(text)
    while position < length:
        newline = text.find("\n", position)
        end = length if newline < 0 else newline + 1
        yield position, end
        position = end


class _Units:
    """Collects contiguous units: ``cut(at, path)`` closes the open unit and opens the next one."""

    def __init__(self) -> None:
        self.units: list[Unit] = []
        self.start = 0
        self.path: tuple[str, ...] = ()

    def cut(self, at: int, path: tuple[str, ...]) -> None:
        if at > self.start:
            self.units.append((self.start, at, self.path, False))
            self.start = at
        self.path = path

    def finish(self, end: int) -> list[Unit]:
        self.cut(end, self.path)
        return self.units


def _title(raw: str) -> str:
    return " ".join(raw.split())[:MAX_TITLE_CHARS]


# --- markdown -------------------------------------------------------------------------------------

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


def atx_heading(line: str) -> tuple[int, str] | None:
    """A Markdown ``#`` heading line's level and its title as a heading path names it (its
    permalink anchor left out, spaces collapsed, cut to ``MAX_TITLE_CHARS``); None for any other line."""
    heading = _ATX.match(line)
    if heading is None:
        return None
    return len(heading.group(1)), _title(HEADING_ANCHOR.sub("", heading.group(2) or ""))


_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)$")
_FRONT_MATTER = re.compile(r"---\r?\n(?:.*\n){0,200}?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)")


def markdown_units(text: str) -> list[Unit]:
    """Headings, paragraphs and fenced code blocks; each unit's path is its section's headings."""
    out = _Units()
    sections: list[tuple[int, str]] = []
    state = "start"  # start | para | heading | fence | after_block
    fence = ""
    front_matter = _FRONT_MATTER.match(text)
    skip_to = front_matter.end() if front_matter else 0
    for start, end in lines(text):
        if start < skip_to:
            state = "after_block"
            continue
        line = text[start:end].rstrip("\r\n")
        if fence:
            closing = _FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                if not closing.group(2).strip():
                    fence = ""
                    state = "after_block"
            continue
        if not line.strip():
            if state == "para":
                state = "after_block"
            continue
        heading = atx_heading(line)
        underline = _SETEXT.match(line) if state == "para" else None
        opening = _FENCE.match(line)
        if heading or underline:
            if heading:
                (level, name), at = heading, start
            else:
                level = 1 if line.lstrip()[0] == "=" else 2
                name, at = _title(HEADING_ANCHOR.sub("", text[out.start : start])), out.start
            while sections and sections[-1][0] >= level:
                sections.pop()
            sections.append((level, name))
            out.cut(at, tuple(name for _, name in sections))
            state = "heading"
        elif opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            out.cut(start, out.path)
            fence = opening.group(1)
            state = "fence"
        elif state != "para":
            out.cut(start, out.path)
            state = "para"
    return out.finish(len(text))


# --- logs -----------------------------------------------------------------------------------------

_TRACEBACK = "Traceback (most recent call last):"
_CHAINED = re.compile(r"During handling of the above exception|The above exception was the direct cause")
_CONTINUATION = re.compile(
    r"[ \t]"  # indented: stack frames, wrapped messages, rustc "  --> file"
    r"|Caused by:|Suppressed:|\.\.\. \d+ (?:more|common frames omitted)"  # Java
    r"|[^\s:]+(?::\d+){1,2}: (?:note|help|info|remark)\b"  # gcc/clang notes
    r"|(?:note|help)(?:\[\w+\])?: "  # rustc notes
    r"|\d*[ \t]*\|"  # compiler gutter: " 5 |   code", "  |   ^"
)


def log_units(text: str) -> list[Unit]:
    """Log records: a line plus its continuation lines (tracebacks, Java frames, compiler notes, blanks)."""
    out = _Units()
    python = ""  # "" | frames | done | chain: where we are in a Python traceback
    for start, end in lines(text):
        line = text[start:end].rstrip("\r\n")
        if not line.strip():
            continue
        if line.startswith(_TRACEBACK):
            python = "frames"  # belongs to the record that logged it, or to the chain before it
            continue
        indented = line[0] in " \t"
        if python == "frames" and not indented:
            python = "done"  # the exception line ends the frames
            continue
        if python in ("done", "chain") and _CHAINED.match(line):
            python = "chain"
            continue
        if _CONTINUATION.match(line):
            continue
        python = ""
        out.cut(start, ())
    return out.finish(len(text))


# --- trees ----------------------------------------------------------------------------------------

# A drawn tree's entry (``tree``: ``│   ├── [  4096]  rst``): the name starts where this ends.
DRAWN_ENTRY = re.compile(r"[│|\s\xa0]*[├└`|][─-]{2}[\s\xa0]+(?:\[[^\]\n]*\][\s\xa0]+)?")
_SIZE_FIELD = re.compile(r"\A[\s\xa0]*\[[^\]\n]*\][\s\xa0]+")  # ``tree -s``'s ``[  4096]  ``
MAX_TREE_PATH = 8  # enclosing directories named in a tree chunk's path (the innermost)
_DRAWN_SHARE = 0.5  # of a listing's lines, at least, for it to be read as a drawn tree


def tree_units(text: str) -> list[Unit] | None:
    """A drawn tree's entries, each a unit whose path is the names of the directories holding it
    (``("docutils", "parsers", "rst")``): a line of ``tree`` does not name them. None for other
    listings (a path per line, or ``ls -R``'s directory headers, name them in the text)."""
    spans = list(lines(text))
    rows = [text[start:end].rstrip("\r\n") for start, end in spans]
    drawn = sum(1 for row in rows if DRAWN_ENTRY.match(row))
    if drawn >= 2 and drawn >= _DRAWN_SHARE * sum(1 for row in rows if row.strip()):
        return _drawn_units(spans, rows)
    return None


def _drawn_units(spans: list[tuple[int, int]], rows: list[str]) -> list[Unit]:
    units: list[Unit] = []
    stack: list[tuple[int, str]] = []  # the directories open above a line: (where its name starts, name)
    for (start, end), row in zip(spans, rows, strict=True):
        entry = DRAWN_ENTRY.match(row)
        depth = entry.end() if entry else 0
        while stack and stack[-1][0] >= depth:
            stack.pop()
        units.append((start, end, tuple(name for _, name in stack[-MAX_TREE_PATH:]), False))
        name = _SIZE_FIELD.sub("", row[depth:]).strip()  # the root has no drawing, but its size
        if name and name != ".":
            stack.append((depth, _title(name)))
    return units


# --- diffs ----------------------------------------------------------------------------------------

_COMMIT = re.compile(rf"{COMMIT_START}([0-9a-f]{{7,64}})\b")
_DIFF_GIT = re.compile(r"diff --git (?:\"?a/(.*?)\"? )?\"?b/(.*?)\"?$")
_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_HUNK_MARKS = frozenset({" ", "-", "+", "\\", ""})


def _diff_name(line: str) -> str:
    name = line[4:].split("\t")[0].strip().strip('"')
    return name[2:] if name.startswith(("a/", "b/")) else name


def diff_units(text: str) -> list[Unit]:
    """Commit headers and hunks, a file's header with its first hunk (so a chunk that names the
    file holds some of its change); paths are ``(commit, file)``, ``(commit,)`` or ``(file,)``."""
    out = _Units()
    commit: tuple[str, ...] = ()
    old = new = 0  # lines still expected in the current hunk (counted from its header)
    loose = False  # in a hunk whose header had no counts: continue while lines look like a hunk
    header = False  # in a "diff ..." file header, before its first hunk
    spans = list(lines(text))
    written = [text[start:end].rstrip("\r\n") for start, end in spans]
    # plain ``diff``'s normal and context formats, and git's combined diff, as unified
    read = as_unified(written) or as_combined(written) or written
    for (start, _end), line in zip(spans, read, strict=True):
        if old > 0 or new > 0:
            mark = line[:1] or " "
            if mark in _HUNK_MARKS:
                old -= mark in " -"
                new -= mark in " +"
                continue
            old = new = 0
        if loose and line[:1] in _HUNK_MARKS and not line.startswith(("--- ", "+++ ")):
            continue
        loose = False
        if line.startswith("\\") or not line:
            continue  # "\ No newline at end of file" after the last hunk line
        commit_match = _COMMIT.match(line)
        if commit_match:
            commit = (commit_match.group(1)[:12],)
            out.cut(start, commit)
            header = False
        elif line.startswith("diff "):
            git = _DIFF_GIT.match(line)
            name = git.group(2) if git else line.split()[-1]
            out.cut(start, (*commit, _title(name)))
            header = True
        elif line.startswith("--- "):
            if not header:
                out.cut(start, (*commit, _title(_diff_name(line))))
            header = True
        elif line.startswith("+++ ") and header:
            name = _diff_name(line)
            if name != "/dev/null":
                out.path = (*commit, _title(name))
        elif line.startswith("@@"):
            if not header:  # a file's header and its first hunk are one unit: the header names it
                out.cut(start, out.path)
            header = False
            counts = _HUNK.match(line)
            if counts:
                old = int(counts.group(1) or 1)
                new = int(counts.group(2) or 1)
            else:
                loose = True
    return out.finish(len(text))


# --- code search ----------------------------------------------------------------------------------

_GREP_LINE = re.compile(r"([^:\n]+?)[:-](\d+)[:-]")
_NUMBERED_LINE = re.compile(r"\d+[:-]")


def code_search_units(text: str) -> list[Unit]:
    """Runs of lines about one file (``path:line:text`` or ripgrep's ``--heading`` groups)."""
    out = _Units()
    spans = list(lines(text))
    current: tuple[str, ...] = ()
    headed = False  # inside a ripgrep --heading group, where lines are "12:text"
    for index, (start, end) in enumerate(spans):
        numbered = _NUMBERED_LINE.match(text, start, end)
        grep = None if headed and numbered else _GREP_LINE.match(text, start, end)
        path = current
        if grep:
            path, headed = (_title(grep.group(1)),), False
        elif numbered or not text[start:end].strip():
            pass
        elif index + 1 < len(spans) and _NUMBERED_LINE.match(text, *spans[index + 1]):
            path, headed = (_title(text[start:end]),), True
        if path != current:
            out.cut(start, path)
            current = path
    return out.finish(len(text))


# --- text and tables ------------------------------------------------------------------------------

_BLANK_RUN = re.compile(r"\n(?:[ \t\r]*\n)+")


def paragraph_units(text: str) -> list[Unit]:
    """Paragraphs: runs of lines ended by one or more blank lines (kept with the paragraph)."""
    out = _Units()
    for blank in _BLANK_RUN.finditer(text):
        out.cut(blank.end(), ())
    return out.finish(len(text))


_FILE_TITLE = 30  # characters of a file's path its units are named by: its end, ``…/client/sse.py``


def file_units(text: str) -> list[Unit] | None:
    """Files read together (``--- path contents: ---``, ``==> path <==``, ``path:`` over each
    file's lines: ``shapes.FILE_HEADER_LINE``): each file's paragraphs (as ``paragraph_units``
    cuts them), named by its path's end, a file's header with its first paragraph. None when no
    line is such a header."""
    headers = [(found.start(), header_path(found[0])) for found in FILE_HEADER_LINE.finditer(text)]
    if not headers:
        return None
    blanks = [(blank.end(), "") for blank in _BLANK_RUN.finditer(text)]
    out = _Units()
    path: tuple[str, ...] = ()
    for at, name in sorted(headers + blanks, key=lambda cut: (cut[0], bool(cut[1]))):
        path = (_path_end(name),) if name else path  # a header opens its file; a blank run ends a paragraph
        out.cut(at, path)
    return out.finish(len(text))


def _path_end(path: str) -> str:
    """``path``, or when longer than ``_FILE_TITLE``, ``…`` and its end from a ``/`` on."""
    if len(path) <= _FILE_TITLE:
        return path
    cut = path.find("/", len(path) - _FILE_TITLE + 1)
    return "…" + path[cut if cut >= 0 else len(path) - _FILE_TITLE + 1 :]


_OUTLINE_TITLE = 80  # characters of a line that may head the deeper-indented lines below it
_OUTLINE_MIN = 3  # headings for a text to be read as an outline


def _worded(line: str) -> bool:
    """Whether a line is words of a sentence (a heading's description), not data (``Not Before:
    Jun  4 …``, hex) nor another option (``--help``'s ``     --ssl   Try SSL/TLS`` under
    `` -y, --speed-time …``): mostly letters and spaces, four words at least, no leading ``-``."""
    text = line.strip()
    return not text.startswith("-") and worded(text)


def outline_units(text: str) -> list[Unit] | None:
    """An indented outline (a manual page as ``man`` prints it, a text dump of a reference page):
    a short line right over deeper-indented lines heads them (``DESCRIPTION``, then its option
    ``     LoginGraceTime`` over ``             The server disconnects …``), each unit's path the
    headings it is under, less indented first; paragraphs (ended by blank lines) are units too.
    None when fewer than ``_OUTLINE_MIN`` lines head others: plain paragraphs."""
    out = _Units()
    stack: list[tuple[int, str]] = []
    headings = 0
    previous: tuple[int, int, int] | None = None  # the last line's start, indent and length
    blank = True
    for start, end in lines(text):
        line = text[start:end].rstrip("\r\n")
        if not line.strip():
            blank, previous = True, None
            continue
        depth = len(line) - len(line.lstrip())
        if previous is not None and depth > previous[1] and previous[2] <= _OUTLINE_TITLE and _worded(line):
            head_start, head_depth, _ = previous
            while stack and stack[-1][0] >= head_depth:
                stack.pop()
            stack.append((head_depth, _title(text[head_start:start])))
            out.cut(head_start, tuple(title for _, title in stack))
            headings += 1
        elif stack and stack[-1][0] >= depth:  # back out of a heading's lines: its parent's
            while stack and stack[-1][0] >= depth:
                stack.pop()
            out.cut(start, tuple(title for _, title in stack))
        elif blank:
            out.cut(start, out.path)
        blank = False
        previous = (start, depth, len(line.strip()))
    return out.finish(len(text)) if headings >= _OUTLINE_MIN else None


def record_units(text: str, opens: re.Pattern[str]) -> list[Unit] | None:
    """Vertical records, each from the line ``opens`` matches (psql's ``-[ RECORD 3 ]``) to the
    next; the lines before the first are a unit of their own. None when fewer than two open."""
    out = _Units()
    marks = 0
    for start, end in lines(text):
        if opens.match(text, start, end - 1 if text.endswith("\n", start, end) else end):
            marks += 1
            if start:
                out.cut(start, ())
    return out.finish(len(text)) if marks >= 2 else None


def row_units(text: str) -> list[Unit]:
    """One unit per line (table rows)."""
    return [(start, end, (), False) for start, end in lines(text)]
