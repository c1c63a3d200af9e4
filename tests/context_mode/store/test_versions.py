"""A query naming a version in a diff gets the changed lines that assign one (``store.versions``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.store.versions import version_asked, version_passages
from context_mode.summaries import summarize_for_intent
from context_mode.types import ContentKind
from tests.searching import search

TESTS = Path(__file__).resolve().parents[2]
CORPUS = TESTS.parent / "bench" / "corpus"


@pytest.mark.parametrize(
    ("path", "query", "answer"),
    [
        pytest.param(
            CORPUS / "diff-git-show-pyflakes-4-0-0.txt",
            "version string bump",
            "+__version__ = '4.0.0'",
            id="git show of a release: long test chunks mention version_info and strings",
        ),
        pytest.param(
            TESTS / "data" / "diff-ru-markdown-344-35-head.txt",
            "new version tuple in the meta module",
            "+__version_info__ = (3, 5, 0, 'final', 0)",
            id="diff -ru of two sdists: the chunk found, its licence lines shown",
        ),
    ],
)
def test_a_diff_answers_a_version_question_with_the_line_assigning_it(
    path: Path, query: str, answer: str
) -> None:
    text = path.read_text(encoding="utf-8")
    assert answer in search(text, ContentKind.DIFF, {"query": query})
    assert answer in summarize_for_intent(text, ContentKind.DIFF, budget=1500, terms=(), intent=query).text


def test_the_plain_name_comes_first_and_the_replaced_line_with_it() -> None:
    chunks = [
        "diff --git a/PKG-INFO b/PKG-INFO\n-Metadata-Version: 2.1\n+Metadata-Version: 2.4\n",
        "diff --git a/pkg/__init__.py b/pkg/__init__.py\n-__version__ = '3.4.0'\n+__version__ = '4.1.0'\n",
        "+if sys.version_info >= (3, 10):\n+    x = 1\n",  # a check, not an assignment
    ]
    found = version_passages(chunks, "new version", 2.0)
    assert [(place, passage.text) for place, passage in found] == [
        (1, "-__version__ = '3.4.0'\n+__version__ = '4.1.0'"),
        (0, "-Metadata-Version: 2.1\n+Metadata-Version: 2.4"),
    ]
    assert version_passages(chunks, "metadata version", 2.0)[0][0] == 0  # the name holding the query's word
    assert version_passages(["+x = 1\n-y = 2\n"], "new version", 1.0) == []


@pytest.mark.parametrize(
    ("query", "asked"), [("new version string", True), ("versions bumped", True), ("the diff", False)]
)
def test_a_query_names_a_version(query: str, asked: bool) -> None:
    assert version_asked(query) is asked
