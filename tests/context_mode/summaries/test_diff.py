"""Diff summaries of `git show` and `git log`: the small changes and the commits stand out."""

from __future__ import annotations

import subprocess
from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy, resolve_style
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.types import ContentKind, OutputStyle

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "corpus"


def routed(text: str, tool: str, style: OutputStyle | None = None) -> Summary:
    chosen = style or resolve_style(tool).style
    decision = route(text, style=chosen, policy=RoutingPolicy(), tool=tool, arguments={})
    assert isinstance(decision, Summary), decision
    return decision


def test_git_show_puts_a_small_change_before_big_files_hunk_headers() -> None:
    # A release commit of 47 files: the one-line version bump was left out for hunk headers.
    text = (CORPUS / "gitlog-git-show-packaging-22.txt").read_text(encoding="utf-8")
    summary = routed(text, "git_show").extract.text
    assert '+__version__ = "22.0"' in summary
    assert "--- a/setup.py" in summary  # a deleted file is named, not "+++ /dev/null"


def test_a_commit_list_without_patches_is_summarised_not_a_bare_directive(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True
        ).stdout

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    for number in range(40):
        (tmp_path / "notes.txt").write_text(f"note {number}\n" * 40)
        git("add", "notes.txt")
        git("commit", "-q", "-m", f"Change number {number} of the notes", "-m", "Longer body text. " * 20)
    text = git("log")
    # Untagged (AUTO), as a shell tool's output is: it was a Directive with no content at all.
    summary = routed(text, "run", OutputStyle.AUTO).extract.text
    assert "Change number 39 of the notes" in summary
    assert summary.count("commit ") >= 3


def test_a_oneline_log_is_a_commit_list_newest_and_oldest_first() -> None:
    # `git log --oneline` was text with nothing standing out: a Directive with no commit.
    text = (Path(__file__).parents[2] / "data" / "git-log-oneline-packaging.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.DIFF
    extract = summarize(text, ContentKind.DIFF, budget=300)
    lines = extract.text.splitlines()
    assert lines[0] == "* 09cbd84 (HEAD -> main, tag: 26.4) Release packaging 26.4"
    assert lines[-1] == text.splitlines()[-1]  # the oldest commit: where the log ends
    assert extract.outline == "diff: 24 commits (0 merges), one line each"
    assert extract.highlights == 24


def test_a_diff_of_many_files_names_every_file_and_the_stat_totals() -> None:
    # git diff --stat -p between two Flask releases, 53 files: the totals line and every file's
    # header (with its counts) come before any file's hunks.
    text = (CORPUS / "diff-git-diff-flask-3-0-3-3-1-0.diff").read_text(encoding="utf-8")
    summary = routed(text, "git_diff").extract.text
    assert " 53 files changed, 977 insertions(+), 467 deletions(-)" in summary.split("\n")
    headers = [line for line in text.splitlines() if line.startswith("diff --git ")]
    assert len(headers) == 53
    assert all(any(line.startswith(header + " [+") for line in summary.split("\n")) for header in headers)
    assert "index " not in summary  # a file's index and ---/+++ lines are not shown, nor marked
