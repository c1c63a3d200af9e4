"""Summary of unified diffs and ``git log -p`` / ``git show`` output (and other version controls'
logs; ``diff``'s normal and context formats, read through ``classic_diff.as_unified``).

``diff_parse`` reads the commits (with their subjects, ``--stat`` lines and totals) and files
(with their added and removed line counts, hunk headers, each hunk's first changed lines and the
changed lines that define or set something); ``diff_commits`` finds a commit's date and message
body, and summarises a one-line-per-commit log.
Picks, highest first: the line a tool writes above the diff (``Diff with 8.1.3:``), each commit's
hash line and subject (newest first; merges after other commits; then its date, and its message's
first lines above its file list, below every commit's hash and subject; the newest and the oldest
commit's date right under its subject), the ``--stat`` totals (with
``--summary``'s created, deleted and renamed files below them) and a
changed floor on the platform (``python_requires``, ``Requires-Python``, engines' ``"node"``), the
list of files (the ``--stat`` lines when there are some, the ``_LIST_FILES`` biggest changes first
and the rest after what changed lines set, each file's header then shown only with its changes; else
each header annotated ``[+12 -3]``, a deleted file by its ``--- a/x`` line, a file whose ``diff
--git`` line names it twice by its ``+++ b/x`` line; build output and vendored copies,
``diff_paths``, after the project's own files and changes), in a diff or one or two commits an npm
manifest's entry points and test command (``diff_manifest``), the changed lines that define or set
something (added before removed; docs and pinned ``.txt`` lists last; a changelog's newest release
line and the date on the lines below it, when it has none), ``diff -r``'s ``Only in dir: name`` and
``Binary files … differ`` lines (as files), hunk headers that name their context (``@@ … @@ class
Client:``; bare ones last, but a file's biggest hunk's header first, and a file added or deleted
whole has its one hunk's header, its length, under its own), changed lines that mention a search
term, and for a plain diff or one or two commits the first changed lines of each hunk (in code, from
its first line that is no comment: ``diff_remarks``), small changes (a version, a dependency) first.
A changed line that a hunk only reformats (the same, spaces, quotes and separators aside, on its
other side, or wrapped over a few lines or joined from them) or that repeats a change made before
(a generated copy) is neither; a hunk that does nothing but reformat (a formatter's ``--diff``)
shows its first changed lines below every other pick, in the room left. The outline counts
commits, files, hunks and lines (a log without patches, ``git log --stat``, what its totals count);
the salient items the router sizes the budget by are the files, the commits and one in
``_HUNKS_PER_HIGHLIGHT`` hunks (a file changed in 80 places says more than one changed in one). A
one-line-per-commit log (``git log --oneline``) is its newest commits, its oldest and those naming
a search term. A CVS or RCS revision comes with its block's ``Working file:`` (``RCS file:``)
line, just below it: which file it is of. A diff with colour codes (``git diff --color=always``) is
read without them and shown as sent; a side-by-side diff (``diff -y``, ``sdiff``) is
``summaries.side_by_side``'s, a diff's lines without headers ``summaries.diff_body``'s.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Sequence

from context_mode.ansi import strip_ansi
from context_mode.classic_diff import as_unified
from context_mode.combined_diff import as_unified as as_combined
from context_mode.graph_log import without_graph
from context_mode.shapes import (
    COMMIT_START,
    LISTED_CHANGE,
    RAW_FILE,
    WORD_CHANGE,
    is_hunk_body,
    is_struck_body,
    is_word_body,
)
from context_mode.side_by_side import gutter
from context_mode.summaries.diff_body import summarize_body
from context_mode.summaries.diff_commits import (
    body_lines,
    commit_base,
    commit_list,
    date_line,
    identity_line,
    oneline_commits,
)
from context_mode.summaries.diff_manifest import entry_lines, is_manifest
from context_mode.summaries.diff_parse import (
    CHANGELOG,
    HUNK,
    PROSE,
    ChangedFile,
    Commit,
    is_removal,
    parse,
    path_of,
)
from context_mode.summaries.diff_paths import is_copied
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.side_by_side import summarize_side_by_side
from context_mode.summaries.text import summarize_text
from context_mode.totals import stat_counts
from context_mode.types import ContentKind

# ``--summary``'s lines under the totals: `` create mode 100644 lib/a.js``, `` rename a => b (55%)``
_SUMMARY_LINE = re.compile(r" (?:(?:create|delete) mode \d+ |rename |copy |mode change )")

_PREFIX = 400
_LIST_FILES = 10
_LATE_STAT_SHARE = 8.0
_STAT_COUNT = re.compile(r"\|\s+(\d+)")
_SHOW_COMMITS = 2  # this few commits are a ``git show``: their changed lines are picked too
_SMALL_CHANGE = 12  # changed lines of a file that make a small change
_SMALL_CHANGE_BONUS = 10.0
_REFORMAT_BELOW = 200.0  # a hunk that only reformats: below every other pick of its file
_HUNKS_PER_HIGHLIGHT = 4  # hunks that count as one salient item more (a file's many changes)
_WHOLE_FILE = re.compile(r"Only in \S.*: \S|Binary files \S.* and \S.* differ\s*\Z")
_BARE_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@\s*\Z")
# The lines of a diff outside its hunks: file headers, git's extended headers, commit headers,
# ``diff -r``'s ``Only in`` and binary lines (indented ones, a commit's message or ``--stat``,
# are no tool's lines either).
_DIFF_FURNITURE = re.compile(
    r"(?:diff |index |--- |\+\+\+ |similarity index |dissimilarity index |rename (?:from|to) "
    r"|copy (?:from|to) |new file mode |deleted file mode |old mode |new mode |Binary files |Only in "
    rf"|{COMMIT_START}[0-9a-f]|Merge: |Author: |AuthorDate: |Commit: |CommitDate: |Date: |Message: |@@ "
    r"|changeset: |user: |date: |files: |description:)"
)
_DIFF_MARKS = frozenset(" \t+-\\")  # a line opening with one reads as a diff's, counted or not
_OWN_TAIL = 2
_DATE_PRIORITY = 29.0  # below every commit's hash and subject (they fall to 30 at the 40th)
# When every commit's hash, subject and date fit, a date is worth its commit's hash less this:
# before its --stat or changes (else after every commit's hash and subject: room for more commits).
_DATE_BELOW = 10.0
_BODY_PRIORITY = 24.0
_BODY_BELOW = 20.0  # below its hash (above the commit's file list, at base - 25)
_VERSIONED = re.compile(r"\d+\.\d+|\b(?:version|requires?)\b", re.I)
# The one hunk of a file added or deleted whole (``@@ -0,0 +1,342 @@``): its length
_WHOLE_HUNK = re.compile(r"@@ (?:-0,0 \+1(?:,\d+)?|-1(?:,\d+)? \+0,0) @@")
_WHOLE_HUNK_BELOW = 3.0  # below its file's header
_DATED_FILES = 3  # files a diff has, at least, for its headers' dates to be left out
# A header's date after its tab: ``2023-06-18 15:37:46``, ``Mon Sep 02 10:00:00 2013 +0000``, svn's
# ``(revision 1234)``, ``(working copy)``.
_HEADER_DATE = re.compile(
    r"\s*(?:\d{4}-\d\d-\d\d|[A-Z][a-z]{2} [A-Z][a-z]{2} |\((?:revision \d+|working copy)\))"
)
_BIGGEST_HUNK_BELOW = 20.0  # a file's biggest hunk's header: above its other hunk headers
_PROSE_SHARE = 10.0  # what a prose file's changed lines lose
_MOVED_SHARE = 20.0  # what the header of a file moved or replaced whole (no hunk) loses
_COPIED_SHARE = 20.0  # what build output's and vendored code's header and lines lose
_RELEASE = re.compile(r"^\{?\+.*\b\d+\.\d+(?:\.\d+)?\b")  # an added line naming a version (``{+…+}`` too)
_RELEASE_DATE = re.compile(  # a date as changelogs give one: 2024-04-16, April 16, 2024, 16 Apr 2024
    r"\b(?:(?:19|20)\d\d-\d\d-\d\d"
    r"|[A-Z][a-z]{2,8}\.? \d{1,2},? (?:19|20)\d\d|\d{1,2} [A-Z][a-z]{2,8}\.? (?:19|20)\d\d)\b"
)
_RELEASE_DATE_REACH = 4  # added lines below a release's line looked at for its date
# A changed floor on the platform (``python_requires='>=3.11'``, ``Requires-Python: >=3.8.0``,
# ``requires-python = ">=3.9"``, ``"node": "20 || >=22"``, ``rust-version = "1.70"``): who can
# still upgrade. Shown next to the totals, added before removed, at most ``_PLATFORM_LINES``.
_PLATFORM = re.compile(
    r"""(?:^[+-]|\[-|\{\+)\s*["']?(?:python_requires|requires[-_]python|rust-version|"""
    r"""minSdkVersion|node|engines)["']?\s*[:=]\s*["'{]?\s*[\^~<>=\d]""",
    re.IGNORECASE,
)
_PLATFORM_LINES = 4
_ENTRY_LINES = 4  # a manifest's entry points and test command shown, at most
_PLATFORM_PRIORITY = 88.0


def summarize_diff(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Commits, files with +/- counts and hunk headers of a diff, within ``budget`` bytes."""
    shown = split_lines(text)
    # A coloured diff (``git diff --color``, a CI log's) is read without its colour codes, plain
    # ``diff``'s normal and context formats as the unified diff they say, and ``git log --graph``
    # without its graph; all shown as written.
    plain = split_lines(strip_ansi(text)) if "\x1b" in text else shown
    lines = without_graph(plain) or as_unified(plain) or as_combined(plain) or plain
    commits = parse(lines)
    files = [file for commit in commits for file in commit.files]
    real_commits = [commit for commit in commits if commit.line >= 0]
    if not files and not real_commits:
        oneline = oneline_commits(lines)
        if len(oneline) >= 2 and any(LISTED_CHANGE.match(line[:_PREFIX]) for line in lines):
            # ``git log --oneline --stat`` (``--numstat``, ``--name-only``): commits with their files
            commits = parse(lines, oneline=True)
            real_commits = [commit for commit in commits if commit.line >= 0]
        elif len(oneline) >= 2:
            return commit_list(lines, oneline, budget=budget, terms=terms)
    if not files and not real_commits:
        at = gutter(shown)
        if at is not None:  # ``diff -y``, ``sdiff``
            return summarize_side_by_side(shown, at, budget=budget, terms=terms)
        column = is_hunk_body(lines)
        if column or is_word_body(lines) or is_struck_body(lines):  # JSON differs', wdiff's, graphtage's
            return summarize_body(shown, budget=budget, terms=terms, column=column)
        fallback = summarize_text(text, budget=budget, terms=terms)
        return Extract(fallback.text, ContentKind.TEXT, "no diff found; " + fallback.outline, 0)
    picks = _picks(lines, commits, terms, budget)
    if not real_commits:  # a log's commit messages (unindented from the git MCP server) are no tool's lines
        picks += _own_line_picks(lines, _own_lines(lines))
    preamble = _preamble(lines, commits)
    if preamble is not None:  # what the tool says it compares ("Diff with 8.1.3:")
        picks.append(Pick(preamble, preamble + 1, 93.0, 200))
    notes = {file.header: f"+{file.added} -{file.removed}" for file in files}
    # A commit's Author/Date lines between its hash and subject are not worth an elision marker.
    filler = {
        index
        for commit in real_commits
        for index in range(
            commit.line + 1, commit.subject if commit.subject > commit.line else commit.line + 1
        )
    }
    # Nor are a file's diff --git, index, mode and ---/+++ lines before its first hunk.
    filler.update(
        index
        for file in files
        if file.body > file.header
        for index in range(file.start if file.start >= 0 else file.header, file.body)
        if index != file.header
    )
    body = pack(shown, picks, budget, width=200, notes=notes, filler=filler)
    added = sum(file.added for file in files)
    removed = sum(file.removed for file in files)
    hunks = sum(len(file.hunks) for file in files)
    parts = ["diff:"]
    if real_commits:
        merges = sum(1 for commit in real_commits if commit.merge)
        parts.append(f"{len(real_commits)} commit{'' if len(real_commits) == 1 else 's'} ({merges} merges),")
    stats = [lines[commit.totals] for commit in real_commits if commit.totals >= 0]
    raw = [found for commit in real_commits for i in commit.stat if (found := RAW_FILE.match(lines[i]))]
    if raw and not stats and not files:  # ``git log --raw``: a line a file, its status a letter
        status = Counter(found["status"] for found in raw)  # a rename's ``R100``: its letter
        said = ", ".join(f"{n} {_RAW_STATUS.get(letter, letter)}" for letter, n in status.most_common())
        form = "--raw" if all(found.group().startswith(":") for found in raw) else "--name-status"
        parts.append(f"{form}: {len(raw)} file changes ({said})")
    elif stats and not files:  # ``git log --stat``: what its totals lines count, not hunks it has none of
        counts = [stat_counts(line) for line in stats]
        changed, inserted, deleted = (sum(count[n] for count in counts) for n in range(3))
        parts.append(f"--stat: {changed} file changes, +{inserted} -{deleted} lines")
    elif not files and any(commit.stat for commit in real_commits):  # ``--numstat``, ``--name-only``
        listed = [lines[i][:_PREFIX] for commit in real_commits for i in commit.stat]
        numbers = [found.groups() for line in listed if (found := _NUMSTAT_COUNTS.match(line))]
        if numbers:
            inserted, deleted = (sum(int(pair[n]) for pair in numbers if pair[n] != "-") for n in range(2))
            parts.append(f"--numstat: {len(listed)} file changes, +{inserted} -{deleted} lines")
        else:  # ``--name-only``, Subversion's changed paths
            parts.append(f"{len(listed)} file changes")
    elif files or not real_commits:
        parts.append(f"{len(files)} file changes, {hunks} hunks, +{added} -{removed} lines")
    # A commit list without patches (`git log`) stands out by its commits.
    return Extract(
        text=body,
        kind=ContentKind.DIFF,
        outline=" ".join(parts).rstrip(","),
        highlights=len(files) + len(real_commits) + hunks // _HUNKS_PER_HIGHLIGHT,
    )


def _own_lines(lines: Sequence[str]) -> list[int]:
    """The lines outside any hunk that are no part of a diff: what the tool says between and under
    its diffs (``black --diff``'s ``would reformat x.py`` and ``18 files would be reformatted.``,
    ``format-patch``'s ``Subject: [PATCH] …``). A hunk ends where its header's line counts say;
    ``--word-diff`` hunks cannot be counted, so a word diff has none."""
    own: list[int] = []
    old = new = 0
    for index, full in enumerate(lines):
        line = full[:_PREFIX]
        if old > 0 or new > 0:
            mark = line[:1]
            if mark == "\\":
                continue
            if mark not in (" ", "-", "+", ""):
                if WORD_CHANGE.search(line):
                    return []
                old = new = 0  # a hunk shorter than its header says
            else:
                old -= mark != "+"
                new -= mark != "-"
                continue
        counted = HUNK.match(line)
        if counted is not None:
            old = int(counted.group(1) or 1)
            new = int(counted.group(2) or 1)
        elif line.strip() and line[:1] not in _DIFF_MARKS and not _DIFF_FURNITURE.match(line):
            own.append(index)
    return own


def _own_line_picks(lines: Sequence[str], own: Sequence[int]) -> list[Pick]:
    """The tool's own last lines rank with the totals (its verdict); the others just below the files."""
    last = own[-_OWN_TAIL:] if own and all(not HUNK.match(line) for line in lines[own[-1] + 1 :]) else []
    return [
        Pick(index, index + 1, 94.0 if index in last else 79.0 - 0.05 * min(order, 200), 200)
        for order, index in enumerate(own)
    ]


def _preamble(lines: Sequence[str], commits: Sequence[Commit]) -> int | None:
    """The first non-blank line when it comes before any commit or file: the line a tool writes
    above its diff (the git MCP server's ``Diff with 8.1.3:``), else None."""
    starts = [commit.line for commit in commits if commit.line >= 0]
    starts += [file.header if file.start < 0 else file.start for commit in commits for file in commit.files]
    first = min(starts, default=0)
    return next((index for index in range(first) if lines[index].strip()), None)


def _file_picks(
    lines: Sequence[str], file: ChangedFile, priority: float, salient: float, *, shown: bool, prose: bool
) -> list[Pick]:
    """A file's hunk headers and changed lines worth showing, around its ``priority``; the lines
    that define or set something from ``salient`` down (in any commit)."""
    picks = [
        Pick(changed, file.messages.get(changed, changed + 1), salient - 1.5 * rank, 160)
        # what the change adds first: a new ``def`` says more than the one it replaced
        for rank, changed in enumerate(sorted(file.salient, key=lambda i: (is_removal(lines[i]), i)))
    ]
    for rank, hunk in enumerate(file.hunks[:20]):
        # ``@@ -1,4 +1,4 @@`` alone says little; ``@@ … @@ class Session:`` says where
        bare = _BARE_HUNK.match(lines[hunk][:_PREFIX]) is not None
        picks.append(Pick(hunk, hunk + 1, priority - (30.0 if bare else 16.0) - 2.0 * rank, 160))
    if not shown:
        return picks
    if len(file.hunks) > 1:  # where most of the file's change is: its biggest hunk's header first
        biggest = max(file.hunks, key=lambda at: _hunk_size(lines[at]))
        picks.append(Pick(biggest, biggest + 1, priority - _BIGGEST_HUNK_BELOW, 160))
    # A small change (a version, a dependency, a setting) is worth more than a big one's; a
    # prose file's changes are worth less.
    small = _SMALL_CHANGE_BONUS if file.added + file.removed <= _SMALL_CHANGE else 0.0
    for rank, (changed, end) in enumerate(file.changed[:20]):
        versioned = _SMALL_CHANGE_BONUS / 2 if _VERSIONED.search(lines[changed][:_PREFIX]) else 0.0
        bonus = -_PROSE_SHARE if prose else max(small, versioned)
        worth = priority - (12.0 if rank == 0 else 20.0 + 2.0 * rank) + bonus
        picks.append(Pick(changed, end, worth, 160))
    # a hunk that only reformats (``black --diff``, ``shfmt -d``) is shown only where room is left
    picks += [
        Pick(start, end, priority - _REFORMAT_BELOW - 2.0 * rank, 160)
        for rank, (start, end) in enumerate(file.reformats[:20])
    ]
    return picks


def _release_date(lines: Sequence[str], release: int) -> int:
    """The added line just below a changelog's release line that dates it, when that line does not."""
    if _RELEASE_DATE.search(lines[release][:_PREFIX]):
        return -1
    for index in range(release + 1, min(len(lines), release + 1 + _RELEASE_DATE_REACH)):
        if lines[index] == "":
            continue  # ``--word-diff`` shows a blank line as it is
        if not lines[index].startswith(("+", "{+")) or _RELEASE.search(lines[index][:_PREFIX]):
            return -1  # the end of what was added, or the next release
        if _RELEASE_DATE.search(lines[index][:_PREFIX]):
            return index
    return -1


def _file_end(lines: Sequence[str], file: ChangedFile) -> int:
    """The index past a file's last hunk: its last line that reads as a diff's (not the next
    file's ``--- a/x``)."""
    end = file.hunks[-1] + 1
    while end < len(lines) and lines[end][:1] in _DIFF_MARKS and not lines[end].startswith("--- "):
        end += 1
    return end


def _undated(header: str, undated: bool) -> int:
    """The width that shows ``header`` up to the tab before its date, when ``undated``; else 0 (whole)."""
    tab = header.find("\t", 0, _PREFIX)
    return tab + 1 if undated and tab > 0 and _HEADER_DATE.match(header, tab + 1) else 0


def _hunk_size(header: str) -> int:
    """The lines a hunk header says its hunk spans, old and new (``@@ -112,9 +147,20 @@`` -> 29)."""
    counted = HUNK.match(header[:_PREFIX])
    return int(counted.group(1) or 1) + int(counted.group(2) or 1) if counted else 0


# the file a ``cvs log`` block's revisions are of (``rlog`` names only its RCS file)
_RCS_FILE = re.compile(r"(?:Working file|RCS file): \S")
_RAW_STATUS = {"A": "added", "D": "deleted", "M": "modified", "R": "renamed", "C": "copied", "T": "retyped"}


_NUMSTAT_COUNTS = re.compile(r"(\d+|-)\t(\d+|-)\t")


def _stat_count(line: str) -> int:
    """The lines a ``--stat`` line says its file changed (`` a.py | 118 +++---`` -> 118; 0 if none);
    a ``--raw`` line's file added, deleted, renamed or copied outweighs one only modified."""
    raw = RAW_FILE.match(line)
    if raw:
        return 0 if raw["status"] in "MTU" else 1
    numbers = _NUMSTAT_COUNTS.match(line)
    if numbers:  # ``--numstat``: lines added and removed (``-`` for a binary)
        return sum(int(number) for number in numbers.groups() if number != "-")
    found = _STAT_COUNT.search(line[:_PREFIX])
    return int(found.group(1)) if found else 0


def _picks(lines: Sequence[str], commits: Sequence[Commit], terms: Sequence[str], budget: int) -> list[Pick]:
    matches = term_matcher(terms)
    picks: list[Pick] = []
    plain = all(commit.line < 0 for commit in commits)
    # One or two commits (``git show``) are read like a plain diff: their changed lines count.
    shown = plain or sum(commit.line >= 0 for commit in commits) <= _SHOW_COMMITS
    # A subject many commits share ("Merge branch 'main'") says little about any of them.
    subjects = Counter(lines[c.subject].strip() for c in commits if c.subject >= 0)
    dates = {commit.line: date_line(lines, commit) for commit in commits if commit.subject >= 0}
    # When every commit's hash, subject and date fit, each date comes before the files and changes.
    heads = [index for commit in commits if commit.line >= 0 for index in (commit.line, commit.subject)]
    dated_log = sum(len(lines[i][:_PREFIX]) + 3 for i in [*heads, *dates.values()] if i >= 0) <= budget
    last_head = commit_base(len(commits) - 1) - 3.5  # below the last commit's subject, a merge's too
    # Headers dated after a tab (``diff -ru``'s ``+++ b/x.py\t2023-06-18 15:37:46``): the date tells
    # when one file changed; in a diff of many, each header shows its path and ``…``.
    undated = sum(len(commit.files) for commit in commits) >= _DATED_FILES
    first = next((commit.line for commit in commits if commit.line >= 0), -1)
    rcs = first >= 0 and lines[first].startswith("revision ")
    owners = [index for index, line in enumerate(lines) if _RCS_FILE.match(line)] if rcs else []
    for order, commit in enumerate(commits):
        base = commit_base(order) - (3.0 if commit.merge else 0.0)
        lowest_body = math.inf  # its message's body comes before its files
        if commit.subject >= 0 and subjects[lines[commit.subject].strip()] > 1:
            base -= 25.0
        if commit.line >= 0:
            named = identity_line(lines, commit)
            picks.append(Pick(named, named + 1, base))
            # ``cvs log``, ``rlog``: a revision is of the file its block names, above it
            at = bisect.bisect(owners, commit.line)
            if at:
                picks.append(Pick(owners[at - 1], owners[at - 1] + 1, base - 0.01))
        if commit.subject >= 0:
            subject = lines[commit.subject][:_PREFIX]
            picks.append(
                Pick(commit.subject, commit.subject + 1, base - 0.5 + (25.0 if matches(subject) else 0.0))
            )
            # When it was, and the first line of its message's body: after every commit's hash and
            # subject (a log's room goes to more commits first), the date before the body.
            dated = dates[commit.line]
            late = 0.05 * min(order, 200)
            if dated >= 0:
                priority = max(_DATE_PRIORITY - late, base - _DATE_BELOW if dated_log else 0.0)
                if order == 0 or order == len(commits) - 1:
                    # The newest commit's date says when the last change was made, the oldest's
                    # how far back the log goes: each right under its commit's hash and subject.
                    priority = max(priority, base - 1.0)
                picks.append(Pick(dated, dated + 1, priority, 120))
            # A release's message lists what it changed: its first lines say more than the
            # commit's file list (ranked above it)…
            for rank, at in enumerate(body_lines(lines, commit.subject)):
                # …but below every commit's hash and subject: a log's room goes to more commits first
                above_files = min(base - _BODY_BELOW, last_head - 0.5) - 2.0 * rank
                body = max(_BODY_PRIORITY - late - rank, above_files)
                picks.append(Pick(at, at + 1, body, 160))
                lowest_body = min(lowest_body, body)
        file_base = 80.0 if plain else min(base - 25.0, lowest_body - 0.5)
        if commit.totals >= 0:  # what the whole change comes to: worth more than any one file
            picks.append(Pick(commit.totals, commit.totals + 1, (95.0 if plain else base - 1.0)))
            # ``--summary``: the files it created, deleted or renamed, worth a big file's stat line
            at = commit.totals + 1
            while at < len(lines) and _SUMMARY_LINE.match(lines[at]):
                picks.append(Pick(at, at + 1, file_base - 0.05 * min(at - commit.totals, 200), 160))
                at += 1
        # With ``--stat`` its lines are the list of files (one short line each, with the size of
        # its change), and a file's header is shown with what is shown of its changes.
        listed = bool(commit.stat)
        # past its biggest few, a long list's files rank below the changes that set something
        biggest = set(sorted(commit.stat, key=lambda i: -_stat_count(lines[i]))[:_LIST_FILES])
        for position, index in enumerate(commit.stat):
            later = 0.0 if index in biggest else _LATE_STAT_SHARE
            picks.append(Pick(index, index + 1, file_base - later - 0.05 * min(position, 200), 160))
        for position, file in enumerate(commit.files):
            priority = file_base - 0.3 * min(position, 60)
            path = path_of(lines[file.header][:_PREFIX])
            prose = PROSE.search(path) is not None and CHANGELOG.search(path) is None
            # What the change defines or sets: as worth as a small change's lines, and falling
            # slower with the file's place (a diff lists docs before sources); a requirements.txt
            # re-pins every line.
            salient = file_base - 0.1 * min(position, 200) - (2.0 if shown else 16.0)
            salient -= _PROSE_SHARE if prose else 0.0
            # build output and vendored code: after the project's own files and changes
            copied = _COPIED_SHARE if is_copied(path) else 0.0
            salient -= copied
            priority -= copied
            own = _file_picks(lines, file, priority, salient, shown=shown, prose=prose)
            if shown and is_manifest(path) and not copied and file.hunks:
                # how the package is loaded and tested: above its re-pinned dependencies
                entries = entry_lines(lines, file.hunks[0], _file_end(lines, file))
                own += [
                    Pick(at, at + 1, file_base - 1.0 - 0.5 * rank, 160)
                    for rank, at in enumerate(entries[:_ENTRY_LINES])
                ]
            if listed:  # its header with the first of its lines shown, else not at all
                header = max((pick.priority for pick in own), default=0.0) + 0.01
            else:  # every file touched first (what the change is about), then each one's changes
                header = file_base - 0.05 * min(position, 200)
                if not file.added and not file.removed and file.hunks == []:
                    header -= _MOVED_SHARE  # a file only moved (or a binary): after what changed
                header -= copied
            if CHANGELOG.search(path):
                # a changelog's newest entry heads its added lines: the release and its date
                runs = file.changed[:3]
                release = next(
                    (
                        i
                        for start, end in runs
                        for i in range(start, end)
                        if _RELEASE.search(lines[i][:_PREFIX])
                    ),
                    -1,
                )
                if release >= 0:
                    picks.append(Pick(release, release + 1, header - 0.5, 160))
                    dated = _release_date(lines, release)
                    if dated >= 0:  # "Version 2.2.0", its rule, then "Released 2024-04-16"
                        picks.append(Pick(dated, dated + 1, header - 0.6, 160))
            picks.append(Pick(file.header, file.header + 1, header, _undated(lines[file.header], undated)))
            if shown and len(file.hunks) == 1 and _WHOLE_HUNK.match(lines[file.hunks[0]][:_PREFIX]):
                # a file added or deleted whole: its hunk's header says how long it is (in a log of
                # many commits, the room goes to the commits)
                picks.append(Pick(file.hunks[0], file.hunks[0] + 1, header - _WHOLE_HUNK_BELOW, 160))
            picks.extend(own)
    platform: list[int] = []
    line_picks: list[Pick] = []
    for index, line in enumerate(lines):
        if _PLATFORM.search(line[:_PREFIX]):
            platform.append(index)
        if line[:1] in {"+", "-"} and not line.startswith(("+++", "---")) and matches(line[:_PREFIX]):
            line_picks.append(Pick(index, index + 1, 55.0 - 0.001 * index, 160))
        elif line[:1] in {"O", "B"} and _WHOLE_FILE.match(line[:_PREFIX]):
            # ``diff -r``: a file only one side has, a binary file that differs (files, as headers are)
            line_picks.append(Pick(index, index + 1, 80.0 - 0.0001 * index, 160))
    platform.sort(key=lambda i: (lines[i][:1] == "-" or lines[i].lstrip()[:2] == "[-", i))
    picks.extend(
        Pick(index, index + 1, _PLATFORM_PRIORITY - 0.1 * rank, 160)
        for rank, index in enumerate(platform[:_PLATFORM_LINES])
    )
    return picks + line_picks
