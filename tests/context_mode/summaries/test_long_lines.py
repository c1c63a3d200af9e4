"""Text held in a few very long lines is read as its pieces (``summaries.long_lines``)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.long_lines import LONG_LINE, pieces
from tests.corpora import BENCH_CORPUS


def test_a_page_flattened_into_one_table_row_is_read_as_its_cells_and_items() -> None:
    # libxslt's news page as the fetch server converts it: its layout table is one 61,848-character
    # line. Before: "markdown: 4 lines", 376 bytes, the start of that line and nothing of the page.
    page = (BENCH_CORPUS / "webpage-fetch-libxslt-1135-news.md").read_text(encoding="utf-8")
    decision = route(page, tool="fetch", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.endswith("(1 long line read as 1194 pieces)")
    lines = [line for line in decision.extract.text.split("\n") if line and not line.startswith("…")]
    assert len(lines) > 20
    # Each line is a piece of the page (its links' targets left out: ``link_targets``).
    assert all(part in page for line in lines for part in line.split("…"))
    assert any("](…)" in line for line in lines)
    assert (
        "**Related links**" in lines
        and "* [Bug Tracker](https://gitlab.gnome.org/GNOME/libxslt/issues)" in page
    )


def test_prose_sent_without_line_ends_is_read_sentence_by_sentence() -> None:
    # The Apache License 2.0 as one line (its whitespace collapsed, as some fetch tools send text).
    # Before: "text: 1 lines", one 400-character window of its start.
    text = " ".join(
        (Path(__file__).parents[2] / "data" / "apache-license-2.0.txt").read_text(encoding="utf-8").split()
    )
    decision = route(text, tool="fetch", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    lines = [line for line in decision.extract.text.split("\n") if line and not line.startswith("…")]
    assert len(lines) >= 6
    assert all(line.rstrip("…") in text for line in lines)
    assert (
        "You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0"
        in decision.extract.text
    )


def test_text_of_ordinary_lines_is_left_as_it_is() -> None:
    assert pieces("a line\n" * 5000) is None
    # one long line among many short ones holding most of the text: left as it is
    assert pieces("x" * (LONG_LINE + 1) + "\n" + "a short line of text\n" * 500) is None
    found = pieces("head\n" + "| cell one |  | cell two |" * 200)
    assert found is not None
    assert found.lines == 1 and found.text.split("\n")[:3] == ["head", "cell one", "cell two"]


@given(st.text(alphabet=" |*-.Ab\n", min_size=LONG_LINE, max_size=3 * LONG_LINE))
def test_every_piece_is_a_substring_of_the_text(text: str) -> None:
    found = pieces(text)
    if found is not None:
        assert all(line in text for line in found.text.split("\n"))


def test_long_lines_of_blanks_and_borders_hold_no_pieces() -> None:
    assert pieces("\t" * (3 * LONG_LINE)) is None
    assert pieces(" |" * (3 * LONG_LINE)) is None
