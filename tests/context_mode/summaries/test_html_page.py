"""A raw HTML page (``curl``, a fetch tool's raw mode) is summarised by its title and headings.

On the rustdoc book's page (``tests/data/rustdoc-command-line-arguments.html``) stage 1 was a
Directive: "text: 522 lines", nothing shown.
"""

from __future__ import annotations

import re
from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries.packing import is_marker
from context_mode.types import ContentKind
from tests.verbatim import clipped_from

PAGE = (Path(__file__).resolve().parents[2] / "data" / "rustdoc-command-line-arguments.html").read_text(
    encoding="utf-8"
)


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
        assert is_marker(line) or clipped_from(line, source), line


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
