"""Two trees compared with ``diff -q`` are read as a diff of files (``summaries.brief_diff``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from context_mode.router import Summary, route
from context_mode.summaries.brief_diff import summarize_brief_diff
from context_mode.types import ContentKind
from tests.context_mode.summaries.test_summaries import assert_verbatim
from tests.corpora import BENCH_CORPUS, REPO

POETRY = "diff-cps-diff-rq-poetry-core-191-200-sdists.txt"  # diff -rq of two releases' sdists


@pytest.fixture(scope="module")
def two_trees(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This project's summaries package and a copy of it with files changed, added and removed."""
    root = tmp_path_factory.mktemp("trees")
    old, new = root / "old", root / "new"
    shutil.copytree(
        REPO / "context_mode" / "summaries", old / "summaries", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(old, new)
    for name in sorted(path.name for path in (new / "summaries").glob("*.py"))[::5]:
        (new / "summaries" / name).write_text("# changed\n", encoding="utf-8")
    (new / "summaries" / "tables.py").unlink(missing_ok=True)
    (new / "summaries" / "diff.py").unlink()
    (new / "summaries" / "plots").mkdir()
    (new / "summaries" / "plots" / "bars.py").write_text("", encoding="utf-8")
    (new / "pyproject.toml").write_text("[project]\n", encoding="utf-8")
    return root


def _diff_q(root: Path, *flags: str) -> str:
    done = subprocess.run(
        ["diff", *flags, "old", "new"], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_diff_rq_shows_what_is_only_on_one_side_and_counts_both_sides(two_trees: Path) -> None:
    text = _diff_q(two_trees, "-rq")
    extract = summarize_brief_diff(text, kind=ContentKind.TEXT, budget=1200)
    assert extract is not None and extract.kind is ContentKind.DIFF
    differ = text.count(" differ\n")
    assert extract.outline == f"diff: {differ} files differ, 3 only in one tree (2 in new, 1 in old)"
    for line in (
        "Only in new: pyproject.toml",
        "Only in new/summaries: plots",
        "Only in old/summaries: diff.py",
    ):
        assert line in extract.text.splitlines()
    assert len(extract.text.encode()) <= 1200
    assert_verbatim(extract.text, text)
    # -s names the identical files too: still read, the identical ones left out
    same = _diff_q(two_trees, "-rqs")
    extract = summarize_brief_diff(same, kind=ContentKind.LOG, budget=1200)
    assert extract is not None and "Only in old/summaries: diff.py" in extract.text


def test_a_release_comparison_shows_its_top_level_files_and_added_and_removed_files() -> None:
    # The real diff -rq of poetry-core 1.9.1 and 2.0.0: "log: 176 lines, 0 errors" showed its
    # first and last lines of 152 "differ" lines; the files added and removed were left out.
    text = (BENCH_CORPUS / POETRY).read_text(encoding="utf-8")
    decision = route(text, tool="run_command")
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.outline == (
        "diff: 152 files differ, 24 only in one tree (17 in poetry_core-2.0.0, 7 in poetry_core-1.9.1)"
    )
    shown = extract.text.splitlines()
    assert "Files poetry_core-1.9.1/pyproject.toml and poetry_core-2.0.0/pyproject.toml differ" in shown
    assert "Only in poetry_core-1.9.1/src/poetry/core/masonry: builder.py" in shown
    assert "Only in poetry_core-2.0.0/src/poetry/core/json/schemas: project-schema.json" in shown
    terms = ("licenses",)
    aimed = summarize_brief_diff(text, kind=ContentKind.TEXT, budget=1500, terms=terms)
    assert aimed is not None
    assert (
        "spdx/data/licenses.json and poetry_core-2.0.0/src/poetry/core/spdx/data/licenses.json differ"
        in aimed.text
    )


def test_a_log_with_a_few_only_in_lines_is_not_a_tree_comparison() -> None:
    log = "\n".join(
        [f"2026-12-06 10:00:{second:02d} INFO synced batch {second}" for second in range(30)]
        + ["Only in a: b", "Files a/x and b/x differ"] * 2
    )
    assert summarize_brief_diff(log, kind=ContentKind.LOG, budget=1500) is None
    # its lines at the end, after a start of other lines: still no comparison
    assert (
        summarize_brief_diff("\n".join(["x"] * 10 + ["Only in a: b"] * 10), kind=ContentKind.TEXT, budget=900)
        is None
    )
