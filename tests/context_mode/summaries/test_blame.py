"""``git blame`` on real files: a source read whose lines say who changed them last, not a log."""

from __future__ import annotations

import pytest

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries import summarize
from context_mode.summaries.packing import size, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import REPO

DATA = REPO / "tests" / "data"


@pytest.mark.parametrize(
    "name", ["git-blame-tree-py.txt", "git-blame-renamed-query-py-head.txt"], ids=["plain", "with-paths"]
)
def test_a_blame_is_source_with_its_commits_not_a_log_or_a_commit_list(name: str) -> None:
    # Before: a plain blame was a 24.6 kB "log" with nothing standing out (a Directive, no line
    # shown); a blame naming paths (a file renamed in its history) read as a commit list of one
    # commit per line.
    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.SOURCE
    decision = route(text, tool="run_command", arguments={"command": "git blame"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("blame: ")
    source = set(text.splitlines())
    for line in decision.extract.text.splitlines():
        assert line.startswith("…") or strip_annotation(line) in source, line
    assert size(decision.extract.text) <= decision.budget


def test_a_blame_shows_its_newest_commits_with_their_lines_and_the_code_outline() -> None:
    text = (DATA / "git-blame-tree-py.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "git blame src/tree.py"})
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.outline == "blame: 220 lines, 7 commits by 1 author, 2026-12-01 … 2026-12-02"
    lines = extract.text.splitlines()
    newest = "50d704a0 (Seed 32b74677 maintainers 2026-12-02 12:48:06 +0000   5) per line"
    assert any(
        line.startswith(newest) and line.endswith("[×32 lines: 5–6, 25, 32, 40–41, 46–47, …]")
        for line in lines
    )
    largest = "e781a8da (Seed 32b74677 maintainers 2026-12-01 09:28:37 +0000   1) "
    assert any(
        line.startswith(largest) and "[×101 lines: 1–3, 7–8, 14–19, 21–24, …]" in line for line in lines
    )
    assert any(
        line.endswith(
            ") def summarize_tree(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:"
        )
        for line in lines
    )


def test_an_hg_annotate_is_a_blame_of_its_changesets() -> None:
    # ``hg annotate -udncl`` (user, revision, changeset, date, line) read as a log of "3 errors":
    # its raise lines, not who changed what when (failed before)
    from tests.corpora import BENCH_CORPUS

    name = "gitlog-cpe-hg-annotate-udncl-async-timeout-301-501-sdists.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.SOURCE
    extract = summarize(text, ContentKind.SOURCE, budget=1500)
    assert extract.outline == "blame: 276 lines, 6 commits by 1 author, 2018-10-09 … 2024-11-06"
    shown = [strip_annotation(line) for line in extract.text.split("\n")]
    # the newest changeset first of all
    assert 'andrew 10 14aba9b9f362 Wed Nov 06 16:41:00 2024 +0000:  8: __version__ = "5.0.1"' in shown
