"""A raw HTML page (``curl``, a fetch tool's raw mode) is summarised by its title and headings.

On the rustdoc book's page (``tests/data/rustdoc-command-line-arguments.html``) stage 1 was a
Directive: "text: 522 lines", nothing shown.
"""

from __future__ import annotations

import re

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries.packing import is_marker
from context_mode.types import ContentKind
from tests.corpora import data
from tests.verbatim import clipped_from

PAGE = data("rustdoc-command-line-arguments.html")
FRAMED = data("fetch-raw-postgresql-numeric-types.txt")


def test_a_raw_html_page_shows_its_title_and_its_section_headings() -> None:
    assert detect_kind(PAGE, tool_name="run_command") is ContentKind.MARKDOWN
    decision = route(PAGE, tool="run_command", arguments={"command": "curl -s https://doc.example/rustdoc/"})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert "<title>Command-line arguments - The rustdoc book</title>" in body
    assert decision.extract.outline.startswith("html: ")
    options = re.findall(r"<h2 id=\"[^\"]+\"><a class=\"header\"[^>]*><code>(--?[\w-]+)</code>", PAGE)
    shown = [option for option in options if f"<code>{option}</code>" in body]
    assert len(shown) >= 10, shown


def test_every_line_of_an_html_summary_is_a_page_line_or_a_clipped_one() -> None:
    decision = route(PAGE, tool="run_command")
    assert isinstance(decision, Summary)
    source = {line.strip() for line in PAGE.splitlines()}
    for line in decision.extract.text.splitlines():
        assert is_marker(line) or clipped_from(line.strip(), source), line


def test_a_minified_page_is_summarised_as_text() -> None:
    page = (
        "<!DOCTYPE html><html><head><title>x</title></head><body>" + "<p>word</p>" * 3000 + "</body></html>"
    )
    decision = route(page, tool="run_command")
    assert isinstance(decision, Summary | type(decision))
    from context_mode.summaries.html_page import summarize_html

    extract = summarize_html(page, budget=1500)
    assert extract.outline.startswith("html, minified; ")
    assert len(extract.text.encode()) <= 1500


def test_an_xhtml_page_below_the_fetch_servers_frame_lines_is_a_page() -> None:
    # Before: "text: 372 lines", a Directive with nothing of the page (the frame lines and the
    # ``<?xml …?>`` declaration hid its ``<!DOCTYPE html``).
    assert detect_kind(FRAMED, tool_name="fetch") is ContentKind.MARKDOWN
    decision = route(FRAMED, tool="fetch", arguments={"url": "http://127.0.0.1:8917/datatype-numeric.html"})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert "Contents of http://127.0.0.1:8917/postgresql-doc-15/html/datatype-numeric.html:" in body
    assert "title '8.1. Numeric Types'" in decision.extract.outline


def test_a_table_on_one_long_line_shows_its_first_rows_each_verbatim() -> None:
    # Before: the page's tables are each one line of about 2 kB, clipped to its first and last
    # 100 characters: no row of the numeric types table was readable.
    decision = route(FRAMED, tool="fetch")
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert "<td>2 bytes</td><td>small-range integer</td><td>-32768 to +32767</td>" in body
    assert "Integer Types</h3>" in body
    for line in body.splitlines():
        assert all(piece.strip() in FRAMED for piece in line.split("…")), line


def test_a_heading_repeated_down_the_page_gives_way_to_the_sections() -> None:
    # Eleven "Note" boxes each open with the same ``<h3>Note</h3>``: before, each and its first
    # line ranked with the page's sections, which then had no room for the tables' rows.
    decision = route(FRAMED, tool="fetch")
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert body.count(">Note</h3>") <= 2
    assert "Serial Types</h3>" in body
