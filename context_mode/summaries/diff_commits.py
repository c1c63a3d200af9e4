"""A log's commits as the diff summary shows them: their dates, message bodies and one-line lists.

``identity_line`` is the line naming a commit (its hash line; an ``hg export`` patch's ``# Node ID``
line); ``date_line`` finds a commit's ``Date:`` (or ``AuthorDate:``) line between its hash and subject;
``body_lines`` the first ``_BODY_LINES`` lines of its message's body (after a blank line under
the subject, before the next commit, diff or ``--stat`` line); ``commit_base`` the priority of
the n-th commit's hash line (newest first, falling to a floor at the 40th). ``commit_list``
summarises a one-line-per-commit log (``git log --oneline``, ``oneline_commits`` its lines): its
newest commits, its oldest and those naming a search term.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import LISTED_FILE, ONELINE_COMMIT
from context_mode.summaries.diff_parse import COMMIT, DIFF_GIT, Commit
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.types import ContentKind

_PREFIX = 400
_ONELINE_MERGE = re.compile(r"[0-9a-f] (?:\([^)]*\) )?Merge ")
# Mercurial's lower-case; Breezy's; ``hg export``'s ``# Date 1636629540 0`` over its readable line
_DATE_FIELD = re.compile(r"(?:Date|AuthorDate|date|timestamp):\s|#\s{2,}[A-Z][a-z]{2} [A-Z][a-z]{2} ")
_HG_PATCH, _HG_NODE = "# HG changeset patch", "# Node ID "
_BODY_LINES = 3  # lines of a commit message's body ranked above its file list
_BODY_REACH = 4  # lines under a subject looked at for its message's body


def identity_line(lines: Sequence[str], commit: Commit) -> int:
    """The line naming the commit: its hash line, or for an ``hg export`` patch (opened by ``# HG
    changeset patch``) its ``# Node ID`` line below."""
    if not lines[commit.line].startswith(_HG_PATCH):
        return commit.line
    return next(
        (i for i in range(commit.line + 1, commit.subject) if lines[i].startswith(_HG_NODE)), commit.line
    )


def date_line(lines: Sequence[str], commit: Commit) -> int:
    """The commit's ``Date:`` (or ``AuthorDate:``) line between its hash and subject, or -1."""
    return next(
        (i for i in range(commit.line + 1, commit.subject) if _DATE_FIELD.match(lines[i][:_PREFIX])), -1
    )


def _body_line(lines: Sequence[str], subject: int) -> int:
    """The first line of a commit message's body: the first non-blank line after its subject and
    a blank line, before the next commit, diff or ``--stat`` line (-1 when none)."""
    for index in range(subject + 1, min(len(lines), subject + _BODY_REACH)):
        text = lines[index][:_PREFIX]
        if not text.strip():
            continue
        if index == subject + 1 or COMMIT.match(text) or DIFF_GIT.match(text) or LISTED_FILE.match(text):
            return -1  # no blank line under the subject: no body (or a --stat list)
        return index
    return -1


def commit_base(order: int) -> float:
    """The priority of the ``order``-th commit's hash line (its subject's, less half a point)."""
    return 90.0 - 1.5 * min(order, 40)


def body_lines(lines: Sequence[str], subject: int) -> list[int]:
    """The first ``_BODY_LINES`` non-blank lines of the message body under ``subject``
    (``_body_line`` on), up to the next commit, diff or ``--stat`` line."""
    body = _body_line(lines, subject)
    if body < 0:
        return []
    found: list[int] = []
    for index in range(body, min(len(lines), body + 4 * _BODY_LINES)):
        text = lines[index][:_PREFIX]
        if COMMIT.match(text) or DIFF_GIT.match(text) or LISTED_FILE.match(text):
            break
        if text.strip():
            found.append(index)
            if len(found) == _BODY_LINES:
                break
    return found


def oneline_commits(lines: Sequence[str]) -> list[int]:
    """The lines of a ``git log --oneline`` (``--graph``, ``--decorate``) list that are commits."""
    return [index for index, line in enumerate(lines) if ONELINE_COMMIT.match(line[:200])]


def commit_list(
    lines: Sequence[str], commits: Sequence[int], *, budget: int, terms: Sequence[str]
) -> Extract:
    """A one-line-per-commit log: the newest commits first, the oldest, and those naming a term."""
    matches = term_matcher(terms)
    picks = [
        Pick(index, index + 1, 90.0 - 0.01 * order + (20.0 if matches(lines[index][:400]) else 0.0))
        for order, index in enumerate(commits)
    ]
    picks.append(Pick(commits[-1], commits[-1] + 1, 95.0))  # where the log ends
    body = pack(lines, picks, budget, width=160, gaps="short")
    merges = sum(1 for index in commits if _ONELINE_MERGE.search(lines[index][:200]))
    outline = f"diff: {len(commits)} commits ({merges} merges), one line each"
    return Extract(text=body, kind=ContentKind.DIFF, outline=outline, highlights=len(commits))
