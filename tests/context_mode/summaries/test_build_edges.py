"""A build log read as lint output still keeps how the run ended (the exit status)."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.line_groups import group_lines
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.edges import banner_lines, edge_lines
from context_mode.types import OutputStyle
from tests.corpora import bench_stage1

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "logs"


def test_a_make_build_with_many_compiler_warnings_keeps_its_error_and_exit_status() -> None:
    # `make -k` of 26 C files with gcc -Wall -Wextra (a real run): 76 warnings, one error.
    text = (FIXTURES / "make-gcc-build.log").read_text(encoding="utf-8")
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run", arguments={})
    assert isinstance(decision, Summary)
    summary = decision.extract.text
    assert "src/main.c:1:43: error: expected ‘;’ before ‘}’ token" in summary
    assert "make: *** [Makefile:7: src/main.o] Error 1" in summary
    assert "exit status 2" in summary


def test_exit_statuses_and_npm_errors_are_tail_lines() -> None:
    lines = [
        "building",
        "step",
        "npm error code 1",
        "npm ERR! Failed at the build script.",
        "exited with code 3",
    ]
    _, tail = edge_lines(lines)
    assert [lines[i] for i in tail] == lines[2:]
    # A server's worker exiting is an event, not the run's outcome.
    served = ["start", "2026/12/01 09:10:39 [notice] 10330#10330: worker process 10332 exited with code 0"]
    assert edge_lines(served)[1] == []


def test_a_rating_or_a_coverage_share_is_a_tail_line() -> None:
    # pylint ends with its score and no totals word: the summary dropped it.
    lines = ["tqdm/tk.py:12:0: R0402: Use 'from tkinter import ttk' instead", "", "-" * 35]
    rated = [*lines, "Your code has been rated at 8.52/10"]
    assert [rated[i] for i in edge_lines(rated)[1]] == ["Your code has been rated at 8.52/10"]
    covered = ["src/a.py      10      2    80%", "TOTAL        120     18    85%"]
    assert [covered[i] for i in edge_lines(covered)[1]] == covered


def test_a_linters_count_of_the_files_it_inspects_is_a_head_line() -> None:
    # RuboCop opens with "Inspecting 44 files" and a line of progress marks: the count was not a
    # head line, and stage 1 (its offenses first) left it out.
    lines = ["Inspecting 44 files", ".WW.W....W....W.WWW.W...WWW", "", "Offenses:", ""] + ["x"] * 20
    assert edge_lines(lines)[0] == [0]
    assert edge_lines(["Checking 3 source files", "ok", *"abcdefghijklmnopq"])[0] == [0]


def test_pytests_count_of_collected_tests_is_a_banner_line() -> None:
    # pytest -v's "collecting ... collected 119 items" (under platform, rootdir and plugins) said how
    # many tests ran; stage 1 of pathspec's run with four failures left it out.
    assert "collecting ... collected 119 items" in bench_stage1("test-pytest-v-pathspec-0121-edits.txt")
    assert banner_lines("setup\nplatform linux -- Python 3.11.7, pytest-9.2.0\ncollected 1 item\n") == [1, 2]


def test_the_identity_line_may_come_under_a_line_or_two_that_name_nothing() -> None:
    # npm install --verbose under ts: "npm verbose cli /usr/bin/node /usr/bin/npm" comes first,
    # "npm info using npm@11.19.1" second; the head stopped at the first line, so npm's and
    # node's versions were never in stage 1.
    text = (
        Path(__file__).resolve().parents[2] / "data" / "npm-install-verbose-bcrypt-ts-ansi.log"
    ).read_text(encoding="utf-8")
    lines = text.splitlines()
    head, _ = edge_lines(lines)
    assert head and "npm@11.19.1" in lines[head[0]]
    decision = route(text, policy=RoutingPolicy(), tool="run_command", arguments={"command": "npm install"})
    assert isinstance(decision, Summary) and "npm@11.19.1" in decision.extract.text
    assert edge_lines(["a", "b", "c", "version 1.2.3", *"defghijklmnop"])[0] == []  # a third line down is not


@pytest.mark.parametrize("ending", ["", "\n", "\n\n\n"])
def test_a_servers_log_keeps_its_last_line_where_it_says_how_it_ended(ending: str) -> None:
    # PostgreSQL 15 under psql traffic, then stopped: eight errors above, and the last line
    # ("database system is shut down") was left out for them. Blank lines after it are no last line.
    data = Path(__file__).resolve().parents[2] / "data"
    text = (data / "postgresql15-inventory-server.log").read_text(encoding="utf-8").rstrip("\n") + ending
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run_command", arguments={})
    assert isinstance(decision, Summary)
    assert "LOG:  database system is shut down" in decision.extract.text
    assert "ERROR:  deadlock detected" in decision.extract.text  # the errors stay


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            ["setup", "platform linux -- Python 3.11.7, pytest-9.2.0", "collected 1 item"], id="pytest"
        ),
        pytest.param(
            [f"collected {n} items" for n in range(500)] + [" RUN  v1.6.0 /app"], id="over-the-limit"
        ),
        pytest.param(["collected\n1 item", "collected 2 items"], id="a-line-holding-a-newline"),
        pytest.param(["x" * 500 + "collected 3 items", "collected 4 items"], id="a-line-past-the-prefix"),
    ],
)
def test_banners_found_through_the_line_groups_are_those_of_the_whole_text(lines: list[str]) -> None:
    groups = group_lines(lines, 400)
    assert banner_lines(groups.text, groups) == banner_lines(groups.text)


def test_a_line_said_throughout_a_log_is_no_totals_line_above_its_errors_details() -> None:
    # Failed before: PostgreSQL's last "disconnection: session time: 0:00:00.005 …" (one of 13)
    # and "checkpoint complete: … total=0.017 s" read as the run's totals and took the room of
    # the foreign key error's DETAIL. A line of a routine family near the end ranks as the line
    # before the last does; the last line and a totals line said once keep their rank.
    summary = bench_stage1("log-postgresql15-inventory-server.log")
    assert 'DETAIL:  Key (warehouse_id)=(9) is not present in table "warehouses".' in summary
    assert "LOG:  database system is shut down" in summary
