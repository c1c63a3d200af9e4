"""Summaries aimed by an intent show what a search for the intent would show, first."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.router import Summary, route
from context_mode.store import payload_passages
from context_mode.summaries import summarize_for_intent
from context_mode.types import ContentKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "excerpts"
CORPUS = Path(__file__).resolve().parents[3] / "bench" / "corpus"


@pytest.mark.parametrize(
    ("path", "kind", "intent", "answer"),
    [
        pytest.param(
            CORPUS / "json-pypi-rich.json",
            ContentKind.JSON,
            "upload time of the 13.7.1 wheel",
            '"upload_time": "2024-02-28T14:51:14"',
            id="a one-line JSON document: the named field of the record the version names",
        ),
        pytest.param(
            CORPUS / "json-cargo-metadata-csv.json",
            ContentKind.JSON,
            "syn package description",
            '"description":"Parser for Rust source code"',
            id="a package list: the record its heading path names, not those that depend on it",
        ),
        pytest.param(
            FIXTURES / "github-issues.json",
            ContentKind.ROWS,
            "closing time of the cookie recording bug",
            '"closed_at":"2014-09-21T13:22:32Z"',
            id="a record list: the record's named field",
        ),
        pytest.param(
            CORPUS / "tree-filesystem-click.json",
            ContentKind.TREE,
            "test file in the exceptions tests folder",
            "test_FileError.py",
            id="a tree: the names under the folder the intent names",
        ),
        pytest.param(
            CORPUS / "table-csv-plotly-gapminder.csv",
            ContentKind.TEXT,
            "pop column for Japan in the last year",
            "Japan,Asia,2007,82.603,127467972",
            id="table rows: the last row of the run",
        ),
    ],
)
def test_the_intent_block_holds_the_answer(path: Path, kind: ContentKind, intent: str, answer: str) -> None:
    text = path.read_text(encoding="utf-8")
    extract = summarize_for_intent(text, kind, budget=3000, terms=(), intent=intent)
    assert extract.text.startswith("== matching the intent ==")
    assert answer in extract.text
    assert len(extract.text.encode()) <= 3000


def test_payload_passages_stay_in_budget_and_are_empty_without_a_match() -> None:
    text = (FIXTURES / "pip-list.txt").read_text(encoding="utf-8")
    lines = payload_passages(text, ContentKind.TABLE, "argon2 bindings", budget=400)
    assert lines and sum(len(line.encode()) + 1 for line in lines) <= 400
    assert payload_passages(text, ContentKind.TABLE, "zzzqqq", budget=400) == []
    assert payload_passages(text, ContentKind.TABLE, "", budget=400) == []


def test_an_intent_adds_its_passages_to_what_stage_1_shows_without_one() -> None:
    # An nginx access log (bench corpus): stage 1 shows its error responses. Aimed at "method not
    # allowed", the passages took 60% of the same budget and pushed out the 413 (and the 405 the
    # summary had). The router now adds INTENT_ROOM to the budget for the passages.
    from context_mode.policy import RoutingPolicy
    from context_mode.router import INTENT_ROOM, Summary, route
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "log-nginx-access-pypi-mirror.log").read_text(encoding="utf-8")
    plain = route(text, policy=RoutingPolicy(), tool="logs__tail")
    intent = "method not allowed on the simple index"
    aimed = route(text, policy=RoutingPolicy(), tool="logs__tail", intent=intent)
    assert isinstance(plain, Summary) and isinstance(aimed, Summary)
    assert aimed.budget == plain.budget + INTENT_ROOM
    for line in ('"POST /simple/ HTTP/1.1" 413 183', '"OPTIONS /simple/ HTTP/1.1" 405 735'):
        assert line in plain.extract.text and line in aimed.extract.text
    assert aimed.extract.text.startswith("== matching the intent ==\n")


@pytest.mark.parametrize(
    ("name", "tool", "intent"),
    [
        ("test-gotest-gorilla-mux.log", "get_job_log", "location of the host matcher vars length error"),
        ("test-unittest-markdown.log", "get_job_log", "line of the extended latin permalink test"),
        ("gitlog-git-show-packaging-22.txt", "git_show", "version bump in the about module"),
    ],
)
def test_in_a_log_or_diff_the_summary_under_the_passages_is_the_one_without_an_intent(
    name: str, tool: str, intent: str
) -> None:
    # The intent's words were added to the log summary's terms, so under the passages it showed
    # other lines than without an intent: the failure locations and a diff's version line that
    # stage 1 holds anyway were pushed out.
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from context_mode.summaries.aimed import SUMMARY_LABEL
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    plain = route(text, policy=RoutingPolicy(), tool=tool)
    aimed = route(text, policy=RoutingPolicy(), tool=tool, intent=intent)
    assert isinstance(plain, Summary) and isinstance(aimed, Summary)
    usual = [
        line
        for line in aimed.extract.text.split(f"\n{SUMMARY_LABEL}\n", 1)[1].splitlines()
        if not line.startswith("… ")  # the gaps between shown lines
    ]
    shown = {line[:60] for line in plain.extract.text.splitlines()}  # a line may be cut elsewhere
    # Within its smaller room, the usual extract shows the plain summary's lines.
    assert sum(line[:60] in shown for line in usual) >= 0.85 * len(usual)


def test_an_intent_word_the_payload_spells_otherwise_is_matched_one_edit_away() -> None:
    # A SQL result of subdivisions, routed as the hub routes it (the query's words are terms):
    # no row says "Sicily"; doc_search matches "Sicilia" one edit away, and so must the intent.
    text = (CORPUS / "rows-alchemy-iso3166-subdivisions.txt").read_text(encoding="utf-8")
    sql = (
        "SELECT s.code, s.name, s.type, s.parent, c.name AS country FROM subdivisions s JOIN countries c "
        "ON c.alpha_2 = substr(s.code, 1, 2) WHERE c.alpha_2 IN ('FR', 'IT', 'ES') ORDER BY s.code"
    )
    assert "Sicily" not in text
    decision = route(
        text, tool="execute_query", arguments={"query": sql}, intent="ISO code of the Sicily region"
    )
    assert isinstance(decision, Summary)
    assert "code: IT-82" in decision.extract.text


def test_an_intent_naming_the_end_of_the_payload_gets_its_last_lines() -> None:
    # As doc_search does: "final" names where the line is, no word of it is on the line.
    lines = [f"src/l{i}.c:{i}:3: style: Variable 'v{i}' is reassigned" for i in range(2000)]
    text = "\n".join([*lines, "34/34 files checked 100% done"])
    passages = payload_passages(text, ContentKind.LOG, "final count when the run stopped", budget=600)
    assert "34/34 files checked 100% done" in passages


def test_an_intent_word_right_after_an_ansi_colour_code_is_matched() -> None:
    # Vitest's coloured line: ``\x1b[22mlazy`` starts the word ``lazy``, as the store's search reads it.
    lines = [f"\x1b[32m✓\x1b[39m tests/case{i}.test.ts\x1b[2m > \x1b[22mparses {i}" for i in range(3000)]
    lines.insert(1500, "\x1b[41m FAIL \x1b[49m tests/\x1b[22mlazy.test.ts\x1b[2m > \x1b[22mrecursion")
    passages = payload_passages("\n".join(lines), ContentKind.LOG, "lazy recursion", budget=800)
    assert any("lazy.test.ts" in line for line in passages)
