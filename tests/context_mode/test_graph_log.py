"""``git log --graph`` and ``hg log -G`` are read without their graph (``context_mode.graph_log``),
and ``--left-right``'s commit marks are commit lines.

A real capture from ``bench/corpus``: ``git log --graph --stat --decorate`` of a monorepo whose
packages' releases were merged in. Before, the graph left of every line made it a table, and its
summary showed rows of ``| |`` lines, not the commits and their totals.
"""

from __future__ import annotations

from pathlib import Path

from context_mode.graph_log import without_graph
from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS

# ``hg log -G -p`` (Mercurial 6.3.2) of a repository holding six's release files, 1.2.0 to 1.4.1,
# one changeset per sdist, 1.4.0 on a branch merged back.
HG_GRAPH_LOG = Path(__file__).resolve().parents[1] / "data" / "hg-log-G-p-six.txt"
GRAPH_LOG = "gitlog-cpm-git-log-graph-stat-decorate-unjs-monorepo-defu-612-617-pathe-110-203-merges.txt"


def test_the_graph_is_cut_to_the_width_its_commit_line_shows() -> None:
    lines = [
        "*   commit 7a59806b2b1ec6950fda274149b6976d1a769e53 (HEAD -> main)",
        "|\\  Merge: d7598e4 b84aac8",
        "| | Author: Release Importer <releases@unjs-mirror.local>",
        "| | ",
        "| |     Merge branch 'defu' (defu 6.1.7)",
        "| * commit b84aac829382e54613f569ab2f6e2956d9f7f65d (tag: defu@6.1.7, defu)",
        "| |  packages/defu/lib/defu.d.cts | 28 ++++++++++++++++++++--------",
        "| |  1 file changed, 20 insertions(+), 8 deletions(-)",
        "|/  ",
        "* | commit 88e3239ec163ca934aea6c1ffd9531cfbb32661b (tag: pathe@2.0.3, pathe)",
        "| | -removed line",
    ]
    assert without_graph(lines) == [
        "commit 7a59806b2b1ec6950fda274149b6976d1a769e53 (HEAD -> main)",
        "Merge: d7598e4 b84aac8",
        "Author: Release Importer <releases@unjs-mirror.local>",
        "",
        "    Merge branch 'defu' (defu 6.1.7)",  # a message keeps its indentation
        "commit b84aac829382e54613f569ab2f6e2956d9f7f65d (tag: defu@6.1.7, defu)",
        " packages/defu/lib/defu.d.cts | 28 ++++++++++++++++++++--------",  # a --stat line its space
        " 1 file changed, 20 insertions(+), 8 deletions(-)",
        "",
        "commit 88e3239ec163ca934aea6c1ffd9531cfbb32661b (tag: pathe@2.0.3, pathe)",
        "-removed line",
    ]


def test_text_without_a_graphs_commit_line_is_no_graph_log() -> None:
    assert without_graph(["| a | b |", "| 1 | 2 |", "* item", "| c | d |"]) is None
    assert (
        without_graph(["commit 7a59806b2b1ec6950fda274149b6976d1a769e53", "Author: x", "", "    msg"]) is None
    )


def test_a_graph_log_is_a_diff_with_its_commits_and_totals() -> None:
    text = (BENCH_CORPUS / GRAPH_LOG).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("diff: 18 commits (4 merges), --stat: 101 file changes")
    shown = decision.extract.text
    assert "| * commit b84aac829382e54613f569ab2f6e2956d9f7f65d (tag: defu@6.1.7, defu)" in shown
    assert "| |  1 file changed, 20 insertions(+), 8 deletions(-)" in shown  # shown as written


def test_left_right_marks_between_commit_and_hash_still_make_commits() -> None:
    # ``git log --left-right --cherry-mark --boundary --stat`` (a real capture): ``commit <
    # 789931a…`` and ``commit > 9cc17bf…``; before, no commit line was read and the log was text.
    name = next(BENCH_CORPUS.glob("gitlog-cpu-git-log-left-right-cherry-mark-boundary-stat-*.txt"))
    text = name.read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("diff: 17 commits (0 merges)")
    assert "commit > 9cc17bf020a06b26426cba9764d31007d16fdf6e (tag: 2.5.9, 2.x)" in decision.extract.text


def test_mercurials_graph_is_cut_as_gits_is() -> None:
    lines = [
        "o    changeset:   3:7d0577dbe3b6",
        "|\\   parent:      1:29f62115b922",
        "| |  user:        Release Importer <releases@example.org>",
        "| |  diff -r 29f62115b922 -r 7d0577dbe3b6 README",
        "| |   Six is a Python 2 and 3 compatibility library.",
        "| |",
        "| o  changeset:   2:f0d6a655291f",
        "| |  +1.4.0",
        "o |  changeset:   1:29f62115b922",
        "|/   user:        Release Importer <releases@example.org>",
        "@  changeset:   0:0dbb4e1a7617",
        "   -removed",
    ]
    assert without_graph(lines) == [
        "changeset:   3:7d0577dbe3b6",
        "parent:      1:29f62115b922",
        "user:        Release Importer <releases@example.org>",
        "diff -r 29f62115b922 -r 7d0577dbe3b6 README",
        " Six is a Python 2 and 3 compatibility library.",  # a context line keeps its space
        "",
        "changeset:   2:f0d6a655291f",
        "+1.4.0",
        "changeset:   1:29f62115b922",
        "user:        Release Importer <releases@example.org>",
        "changeset:   0:0dbb4e1a7617",
        "-removed",
    ]


def test_an_hg_graph_log_is_a_diff_with_its_changesets() -> None:
    # Before: text, summarised as a log ("log: 386 lines, 0 failed tests"), its changed lines only.
    text = HG_GRAPH_LOG.read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.DIFF
    decision = route(text, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("diff: 5 commits (0 merges), 9 file changes")
    shown = decision.extract.text
    assert "| o  changeset:   2:f0d6a655291f" in shown  # shown as written
    assert "| |  summary:     Import six 1.4.0 release files on the maint branch" in shown
