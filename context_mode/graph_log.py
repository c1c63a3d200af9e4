"""``git log --graph``'s and ``hg log -G``'s lines without the graph drawn left of them.

``git log --graph`` (with ``--stat``, ``-p`` or ``--format=fuller``) draws its commit graph in the
first columns of every line: ``*   commit 7a59…``, ``|\\  Merge: d759 b84a``, ``| | Author: …``,
``| |  lib/a.js | 2 +-``. Read with the graph, no line opens as a diff's does, and the log reads
as a table or text. ``without_graph(lines)`` is the lines as ``git log`` without ``--graph``
would print them, in the same places (a line of graph only is blank), or None when the lines
are no graph log: no commit line opens with a graph's ``*`` (``* commit <hash>``), or fewer than
``MIN_SHARE`` of the non-blank lines open with the graph's width of marks and spaces.

Mercurial draws its graph the same way with other marks: a changeset's node is ``o``, ``@`` (the
working directory's parent), ``x`` (obsolete), ``_`` (closing a branch) or ``*``, its edges
``|``, ``/``, ``\\``, ``+``, ``-``, ``:`` and ``~`` (``o    changeset:   3:20abb9d10304``, ``|\\
parent:      1:cc6cf700750b``, ``| |  user: …``); without them the log reads as ``hg log`` does.

The graph's width is read off each commit line (the column its ``commit`` starts in) and holds
for the lines below it up to the next commit line: a line's first that many chars are cut when
they are graph marks and spaces only, so a message keeps its indentation and a ``--stat`` line its
leading space. Pure, linear in the lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import COMMIT_START, HG_CHANGESET

MIN_SHARE = 0.5  # of the non-blank lines, opening with the graph's width of marks and spaces
_COMMIT = re.compile(rf"([*|\\/_ ]*?\*[ |\\/_]*? ){COMMIT_START}[0-9a-f]{{7,64}}\b")
_GRAPH = re.compile(r"[*|\\/_ ]*")
_HG_CHANGESET = re.compile(rf"([@ox*_+|:~\\/ -]*?[@ox*_] [ |:~\\/+-]*?){HG_CHANGESET.pattern}")
_HG_GRAPH = re.compile(r"[@ox*_+|:~\\/ -]*")


def without_graph(lines: Sequence[str]) -> list[str] | None:
    """``lines`` without the graph left of them (see the module doc), or None: no graph log."""
    commits, graph, word = _COMMIT, _GRAPH, "commit "
    if not any(word in line and commits.match(line) for line in lines):
        commits, graph, word = _HG_CHANGESET, _HG_GRAPH, "changeset:"
        if not any(word in line and commits.match(line) for line in lines):
            return None
    view: list[str] = []
    width = 0
    cuts = 0
    for line in lines:
        commit = commits.match(line) if word in line else None
        if commit is not None:
            width = len(commit.group(1))
        marks = graph.match(line, 0, width)
        cut = marks.end() if marks is not None else 0
        if width and line.strip() and (cut == width or cut == len(line)):
            view.append(line[cut:])
            cuts += 1
        else:
            view.append(line)
    filled = sum(1 for line in lines if line.strip())
    return view if cuts >= MIN_SHARE * filled else None
