"""The payload's last lines below every summary (``summaries.ending``), alone and through the router."""

from __future__ import annotations

from context_mode.summaries.ending import ENDING_BYTES, ending, with_ending
from context_mode.summaries.extract import Extract
from context_mode.types import ContentKind
from tests.corpora import bench_stage1

LISTING = "\n".join(f"src/module_{n:03}.py  {n * 37} bytes" for n in range(400)) + "\n"


class _Head:
    """A summariser that shows the first lines of ``text`` that fit its budget; notes each budget."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.budgets: list[int] = []

    def __call__(self, budget: int) -> Extract:
        self.budgets.append(budget)
        shown: list[str] = []
        for line in self.text.splitlines():
            if len("\n".join([*shown, line]).encode()) > budget:
                break
            shown.append(line)
        return Extract("\n".join(shown), ContentKind.TEXT, "text", 1)


def test_the_last_lines_that_say_something_are_kept_verbatim_within_the_limit() -> None:
    text = '{\n  "items": [\n    {"name": "a"},\n    {"name": "zeta", "size": 9}\n  ]\n}\n'
    assert ending(text) == ['  "items": [', '    {"name": "a"},', '    {"name": "zeta", "size": 9}']
    lines = ending(LISTING)
    assert len(lines) > 1
    assert lines[-1] == "src/module_399.py  14763 bytes"
    assert all(line in LISTING.splitlines() for line in lines)
    assert sum(len(line.encode()) + 1 for line in lines) <= ENDING_BYTES
    long = "x" * 5000  # cut to 200 characters and ``…``, still more than the limit: the ending stops
    assert ending(f"a\n{long}\nlast words\n") == ["last words"]
    assert ending(f"a\n{long}\n", limit=400) == ["a", "x" * 200 + "…"]


def test_a_payload_the_tool_cut_short_has_no_ending() -> None:
    # The fetch server's note: the payload's end is where the tool stopped, not the output's.
    note = "<error>Content truncated. Call the fetch tool with a start_index of 5000 to get more.</error>"
    text = "# Page\n\nsome words\n" * 50 + note + "\n"
    assert ending(text) == []


def test_the_ending_is_shown_below_the_summary_within_its_budget() -> None:
    summarise = _Head(LISTING)
    extract = with_ending(LISTING, 1500, summarise)
    assert len(extract.text.encode()) <= 1500
    assert extract.text.startswith("src/module_000.py  0 bytes\n")
    body, _, tail = extract.text.partition("\n…\n")
    assert tail.splitlines() == ending(LISTING)
    assert summarise.budgets == [1500, 1500 - len(("\n…\n" + tail).encode())]


def test_a_summary_that_shows_the_ending_already_is_left_as_it_is() -> None:
    short = "\n".join(LISTING.splitlines()[:10])
    summarise = _Head(short)
    extract = with_ending(short, 1500, summarise)
    assert extract.text == short
    assert summarise.budgets == [1500]


def test_a_small_budget_gives_the_ending_a_quarter_of_it_at_most() -> None:
    extract = with_ending(LISTING, 240, _Head(LISTING))
    assert len(extract.text.encode()) <= 240
    assert extract.text.endswith("src/module_399.py  14763 bytes")


def test_real_outputs_keep_their_last_lines_in_stage_one() -> None:
    # Failed before: scan-build's verdict, ngIRCd's last words and mdir's totals are the outputs'
    # last lines; the build, log and listing summaries picked lines above them instead.
    build = bench_stage1("build-cpa-scan-build-14-alpha-security-wextra-regex-2024116-build-ext.txt")
    assert "scan-build: 13 bugs found." in build.splitlines()
    log = bench_stage1("log-capk-ngircd-261-irc-opers-kill-rehash-conn-limit.log")
    assert any(line.endswith("ngIRCd done, served 22 connections.") for line in log.splitlines())
    listing = bench_stage1("tree-cqd-mtools-4032-mdir-recursive-lit-html-321-npm-fat-image.txt")
    assert "387 files           1 707 435 bytes" in listing


def test_the_summarys_own_last_lines_stay_below_the_lines_it_lacked() -> None:
    # A summary that shows the payload's last line (a run's count) gets the lines above it in
    # the payload's order, not below it.
    text = "\n".join([*(f"case {n} ok" for n in range(300)), "300 passed in 2.1s"]) + "\n"

    def summarise(budget: int) -> Extract:
        return Extract("case 0 ok\n…\n300 passed in 2.1s", ContentKind.LOG, "log", 1)

    lines = with_ending(text, 1500, summarise).text.split("\n")
    assert lines[:3] == ["case 0 ok", "…", "case 285 ok"]  # one marker between
    assert lines[-3:] == ["case 298 ok", "case 299 ok", "300 passed in 2.1s"]
    assert lines.count("300 passed in 2.1s") == 1
