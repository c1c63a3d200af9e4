"""git's combined diff (a merge's conflicts, ``diff --cc``) is read as the unified diff it says."""

from __future__ import annotations

from context_mode.combined_diff import as_unified
from context_mode.summaries import summarize
from context_mode.types import ContentKind
from tests.corpora import REPO

DATA = REPO / "tests" / "data"


def test_a_combined_hunk_reads_as_a_unified_one_line_for_line() -> None:
    lines = [
        "diff --cc e.py",
        "index 8c133a8,ea03d43..0000000",
        "--- a/e.py",
        "+++ b/e.py",
        "@@@ -36,4 -36,4 +36,8 @@@ from x import y",
        "  # context",
        "++<<<<<<< HEAD",
        " +ENDING = 300",
        "++=======",
        "+ ENDING = 256",
        "++>>>>>>> feature",
        "- REMOVED = 1",
        "  _ELISION = 1",
    ]
    read = as_unified(lines)
    assert read is not None and len(read) == len(lines)
    assert read[0] == "diff --git a/e.py b/e.py"
    assert read[4] == "@@ -36,3 +36,7 @@ from x import y"  # old: 2 context + 1 removed; new: 2 + 5 added
    assert read[5:] == [
        " # context",
        "+<<<<<<< HEAD",
        "+ENDING = 300",
        "+=======",
        "+ENDING = 256",
        "+>>>>>>> feature",
        "-REMOVED = 1",
        " _ELISION = 1",
    ]
    assert as_unified(["@@ -1 +1 @@", "-a", "+b"]) is None  # a unified diff stays as it is


def test_a_merges_conflicts_read_as_files_and_hunks_with_both_sides() -> None:
    # ``git diff`` (git 2.39) in the middle of a merge that left two conflicts in textwrap.py.
    # Failed before: "1 file changes, 0 hunks, +0 -0 lines" and the diff's first lines.
    text = (DATA / "git-2.39-diff-cc-merge-conflict-textwrap.diff").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.DIFF, budget=1500)
    assert extract.outline == "diff: 1 file changes, 2 hunks, +12 -0 lines"
    shown = extract.text.splitlines()
    for line in (
        "@@@ -109,8 -109,8 +109,13 @@@ class TextWrapper",
        "++<<<<<<< HEAD",
        " +def dedent(text: str) -> str:",
        "+ def dedent(text, *, keep_tabs=False):",
    ):
        assert line in shown, line
