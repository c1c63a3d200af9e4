"""The Markdown structure pass finds exactly what classifying every line finds.

``summaries.markdown_structure.structure`` classifies only the lines one whole-text search marks as
possible fences, headings or underlines; the reference here classifies every (cut) line with
``classify`` and walks them in order, as the structure pass did before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_mode.summaries.markdown_structure import (
    MAX_HEADINGS,
    PREFIX,
    Heading,
    classify,
    first_text,
    structure,
)

FRAGMENTS = [
    "",
    "   ",
    "Title",
    "Some text. More text.",
    "- item",
    "* item",
    "===",
    "  ---",
    "- - -",
    "----- \t",
    "=-=",
    "# Heading",
    "###### six",
    "####### seven",
    "#tag",
    "#",
    "   ## indented",
    "    # code",
    "##\tTab",
    "```",
    "```python",
    "````",
    "~~~",
    "~~~~ ",
    "  ```",
    "`` not a fence",
    "=" * 500 + "x",
    "-" * 401,
    "   " + "=" * 450 + " y",
    "`" * 450,
    " " * 402 + "q",
    "=" * 399 + " " * 10 + "z",
    "# " + "h" * 500,
]


def reference(lines: Sequence[str]) -> tuple[list[Heading], Counter[int], set[int], int, set[int]]:
    kinds = [classify(line[:PREFIX]) for line in lines]
    found: list[tuple[int, int, bool]] = []
    fenced: set[int] = set()
    fence = ""
    code_blocks = 0
    for index, kind in enumerate(kinds):
        if fence:
            fenced.add(index)
            if kind.fence and kind.fence[0] == fence[0] and len(kind.fence) >= len(fence):
                fence = ""
            continue
        if kind.fence:
            fence = kind.fence
            code_blocks += 1
            fenced.add(index)
        elif kind.atx:
            found.append((index, kind.atx, False))
        elif kind.setext and index and kinds[index - 1].paragraph:
            if not found or found[-1][0] != index - 1:
                found.append((index - 1, 1 if kind.setext == "=" else 2, True))
    levels = Counter(level for _, level, _ in found)
    underlines = {index + 1 for index, _, setext_style in found if setext_style}
    heading_at = {index for index, _, _ in found}
    orders = [*range(min(len(found), MAX_HEADINGS))]
    if len(found) > MAX_HEADINGS:
        orders.append(len(found) - 1)
    headings = []
    for order in orders:
        index, level, setext_style = found[order]
        stop = found[order + 1][0] if order + 1 < len(found) else len(lines)
        headings.append(
            Heading(index, level, first_text(lines, index + 1, stop, heading_at, fenced), setext_style)
        )
    return headings, levels, underlines, code_blocks, fenced


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text("#=-`~ \tax.", max_size=12), max_size=60))
def test_the_structure_pass_finds_what_classifying_every_line_finds(lines: list[str]) -> None:
    assert structure(lines) == reference(lines)


def test_the_structure_pass_agrees_on_a_fenced_document() -> None:
    lines = ["# Top", "", "Intro. Text.", "```", "# hidden", "```", "Under", "====", "- x", "~~~", "## open"]
    assert structure(lines) == reference(lines)


def test_a_second_summary_of_the_same_text_reuses_its_reading_and_equals_a_fresh_one() -> None:
    # The router summarises a page twice (the least budget, then the earned one); the reading of
    # the page is kept for the second call. It must give what reading it afresh gives.
    from context_mode.summaries.markdown import summarize_markdown
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "webpage-fetch-git-config.md").read_text(encoding="utf-8")
    small = summarize_markdown(text, budget=1400)
    large = summarize_markdown(text, budget=5800)  # the same str: read once
    other = summarize_markdown("# Other\nA page.", budget=1400)
    fresh = "".join(list(text))  # an equal str that is another object: read afresh
    assert fresh is not text
    assert summarize_markdown(fresh, budget=5800) == large
    assert summarize_markdown(fresh, budget=1400) == small
    assert "# Other" in other.text


@pytest.mark.parametrize(
    "name", ["webpage-fetch-git-config.md", "webpage-fetch-sqlite-pragma.md", "markdown-spec-commonmark.md"]
)
def test_default_lines_found_by_their_word_are_those_the_whole_text_search_finds(name: str) -> None:
    # definition_lines searches only the lines holding "default" (a regex over a 1 MB page tried
    # every position: 60 ms); it must find what the whole-text search finds, wrapped matches too.
    from context_mode.summaries.definitions import _DEFINITION, definition_lines, pattern_lines
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    assert definition_lines(text) == pattern_lines(text, _DEFINITION)
    wrapped = "intro\nThe default\nvalue is 3.\nDEFAULTS TO none\nnothing"
    assert definition_lines(wrapped) == pattern_lines(wrapped, _DEFINITION) == [1, 3]


def test_release_notes_fill_their_room_with_the_first_lines_of_their_items() -> None:
    # Four headings over 120 bullets: the summary was 337 bytes of a 1.5 kB budget, 3 items shown.
    from context_mode.router import Summary, route

    text = (Path(__file__).resolve().parents[2] / "data" / "git-2.39-release-notes.txt").read_text(
        encoding="utf-8"
    )
    decision = route(text, tool="run_command", arguments={"command": "cat RelNotes/2.39.0.txt"})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert sum(line.startswith(" * ") for line in lines) >= 10
    assert "Fixes since v2.38" in lines


def test_a_sphinx_page_dumped_as_text_is_outlined_by_its_pilcrow_headings() -> None:
    # lynx -dump of SQLAlchemy's error reference: 44 headings end in the permalink sign at the
    # margin, and its code's "# normal join to relationship entity" comments were its only
    # headings (failed before: 24 h1, all of them code comments; no error name in the outline).
    from context_mode.summaries import summarize
    from context_mode.types import ContentKind
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "webpage-lynx-dump-sqlalchemy-1446-errors.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    headings = structure(lines)[0]
    names = [lines[heading.index] for heading in headings]
    assert "OperationalError¶" in names and "DBAPI Errors¶" in names
    assert not any(name.startswith("# ") for name in names)
    assert "     * Error Messages¶" not in names  # the page's contents list, indented, heads nothing
    extract = summarize(text, ContentKind.MARKDOWN, budget=3000)
    assert (
        "QueuePool limit of size <x> overflow <y> reached, connection timed out, timeout <z>¶" in extract.text
    )
