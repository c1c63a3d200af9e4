"""A query asking for totals gets the line that sums the run up (``store.edges.totals_passage``)."""

from __future__ import annotations

import pytest

from context_mode.store.edges import totals_asked
from context_mode.summaries import summarize_for_intent
from context_mode.totals import is_totals_line
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.searching import search


@pytest.mark.parametrize(
    ("name", "kind", "query", "answer"),
    [
        pytest.param(
            "lint-ruff-tabulate.txt", ContentKind.LINT, "total diagnostics", "Found 112 errors.", id="ruff"
        ),
        pytest.param(
            "diff-git-stat-chalk-412-530.txt",
            ContentKind.DIFF,
            "diffstat summary totals",
            "15 files changed, 1268 insertions(+), 781 deletions(-)",
            id="git diff --stat",
        ),
        pytest.param(
            "test-jest-commander.log",
            ContentKind.LOG,
            "overall jest test counts",
            "6 failed, 1045 passed, 1051 total",
            id="jest",
        ),
    ],
)
def test_a_query_for_the_totals_gets_the_line_that_sums_the_run_up(
    name: str, kind: ContentKind, query: str, answer: str
) -> None:
    # None of the query's words is on the totals line ("Found 112 errors." for "total
    # diagnostics"): the replies showed diagnostics, files and tests that repeat "total".
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert answer in search(text, kind, {"query": query})
    assert answer in summarize_for_intent(text, kind, budget=1500, terms=(), intent=query).text


def test_totals_lines_and_the_words_that_ask_for_them() -> None:
    assert is_totals_line(" 15 files changed, 1268 insertions(+), 781 deletions(-)")
    assert is_totals_line("\x1b[1mTests:\x1b[22m       6 failed, 1045 passed, 1051 total")
    assert is_totals_line("2026-12-03T11:18:08.626131Z added 63 packages in 6s")
    assert not is_totals_line("src/a.py:3:1: F401 'os' imported but unused")
    assert totals_asked("overall test counts") and totals_asked("the Total")
    assert not totals_asked("final count of failures")  # "final" names the end, not the totals


def test_a_running_count_with_no_totals_line_gives_its_last_line() -> None:
    # fail2ban logs "Total # of detected failures: N." at each failure and no summary: the reply
    # showed the 32nd to 37th, the chunk BM25 liked best, not the 54th (its last).
    from pathlib import Path

    text = (Path(__file__).parents[2] / "data" / "fail2ban-foreground-debug-sshd.log").read_text(
        encoding="utf-8"
    )
    reply = search(text, ContentKind.LOG, {"query": "total failures detected count"})
    assert "Total # of detected failures: 54." in reply
