"""git's combined diff (``git diff`` during a merge, ``git show`` of a merge, ``diff --cc``) read
as a unified diff.

A combined diff compares a file with each of its parents at once: ``diff --cc path`` (or ``diff
--combined path``), hunks headed ``@@@ -1,5 -1,5 +1,9 @@@`` (one ``@`` more than its parents)
and a column of marks per parent before each line (``++<<<<<<< HEAD``, `` +ours``, ``+ theirs``,
``  context``). The readers of unified diffs know none of it: a merge's conflicts read as one
file with no hunk. ``as_unified(lines)`` gives, line for line, the lines a unified diff would
have in their places (what reads them reads these; what is shown stays the lines as written):

- ``diff --cc path`` is ``diff --git a/path b/path``;
- a hunk's header is ``@@ -a,o +c,n @@`` with its first parent's start, the result's start and
  the counts of its lines as converted (so the hunk spans exactly its lines);
- a line is ``-`` and its text when a parent's mark is ``-``, ``+`` and its text when one is
  ``+``, else context: a conflict's markers (``++<<<<<<< HEAD``) and both sides are added lines.

It is None when the lines hold no combined hunk. Linear in the lines; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_FILE = re.compile(r"diff --(?:cc|combined) (\S.*)\Z")
# ``@@@ -339,7 -339,7 +339,11 @@@ context``: a range per parent (the first one's start kept),
# then the result's; one ``@`` more than the parents
_HUNK = re.compile(r"(@{3,}) -(\d+)(?:,\d+)? (?:-\d+(?:,\d+)? )*\+(\d+)(?:,\d+)? @{3,}(.*)\Z")
_PREFIX = 400


def as_unified(lines: Sequence[str]) -> list[str] | None:
    """The lines as a unified diff would have them (see the module doc), or None."""
    if not any(line.startswith("@@@ ") for line in lines):
        return None
    read = list(lines)
    found = False
    parents = 0  # the marks' columns in the hunk being read: 0 outside one
    header = -1  # the hunk's header line, written as a unified one when the hunk ends
    hunk: re.Match[str] | None = None
    counts = [0, 0]  # the hunk's lines on its first parent's side and on the result's
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        starts = _HUNK.match(line) if line.startswith("@@@") else None
        named = _FILE.match(line) if line.startswith("diff --") else None
        if header >= 0 and hunk is not None and (starts or named or _ends_hunk(line, parents)):
            read[header] = _header(hunk, counts)
            header, parents = -1, 0
        if starts is not None:
            found = True
            header, parents, hunk, counts = index, len(starts[1]) - 1, starts, [0, 0]
        elif named is not None:
            read[index] = f"diff --git a/{named[1]} b/{named[1]}"
        elif parents:
            marks, text = full[:parents], full[parents:]
            mark = "-" if "-" in marks else "+" if "+" in marks else " "
            counts[0] += mark != "+"
            counts[1] += mark != "-"
            read[index] = mark + text
    if header >= 0 and hunk is not None:
        read[header] = _header(hunk, counts)
    return read if found else None


def _ends_hunk(line: str, parents: int) -> bool:
    """Whether a line ends a hunk: one whose marks' columns are not all marks (``diff --git``,
    ``index …``, a commit's line)."""
    return (len(line) < parents and bool(line.strip())) or any(c not in " +-" for c in line[:parents])


def _header(hunk: re.Match[str], counts: Sequence[int]) -> str:
    """A combined hunk's header (``hunk``) as a unified one: ``@@ -a,o +c,n @@`` and its context."""
    return f"@@ -{hunk[2]},{counts[0]} +{hunk[3]},{counts[1]} @@{hunk[4]}"
