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


def test_a_frameworks_error_page_shows_its_plain_text_traceback() -> None:
    # Django 4.2's technical 500 page (a view's ``TypeError``, ``curl`` of ``runserver``) and
    # Werkzeug 3.1's debugger behind Flask 3.1 (a ``StopIteration``). Read as pages, Django's
    # showed table cells (``<td>TypeError</td>``, ``<td>4.2.17</td>``) and none of the
    # exception's value; Werkzeug's showed its library's source lines.
    for name, command, wanted in (
        (
            "django-4.2-technical-500-typeerror.html",
            "curl -s http://127.0.0.1:8765/orders/1/",
            [
                "Request URL: http://127.0.0.1:8765/orders/1/",
                "Django Version: 4.2.17",
                '  File "/tmp/cap/dj/app.py", line 10, in order_total',
                "Exception Value: unsupported operand type(s) for +: &#x27;int&#x27; and &#x27;str&#x27;",
            ],
        ),
        (
            "werkzeug-3.1-debugger-stopiteration.html",
            "curl -s http://127.0.0.1:8766/users/2",
            [
                '  File "/tmp/cap/fl/app.py", line 10, in user',
                '    return next(u for u in USERS if u["id"] == user_id)',
                "StopIteration",
            ],
        ),
    ):
        page = data(name)
        decision = route(page, tool="run_command", arguments={"command": command})
        assert isinstance(decision, Summary), name
        body = decision.extract.text.splitlines()
        for line in wanted:
            assert line in body, (name, line)
        assert "a traceback as text" in decision.extract.outline
        assert not [line for line in body if 'class="line before"' in line], name
        source = {*page.splitlines(), *(line.strip() for line in page.splitlines())}
        for line in body:
            assert is_marker(line) or clipped_from(line, source), line


def test_a_page_documenting_tracebacks_is_no_error_page() -> None:
    # A tutorial's examples hold tracebacks too; its title names no exception.
    example = (
        "<pre>&gt;&gt;&gt; 10 * (1/0)\nTraceback (most recent call last):\n"
        '  File "<stdin>", line 1\nZeroDivisionError: division by zero\n</pre>'
    )
    page = "\n".join(
        ["<!DOCTYPE html>", "<html><head><title>8. Errors and Exceptions</title></head><body>"]
        + [f"<h2>8.{n}. Section {n}</h2>\n<p>About errors, part {n}.</p>\n{example}" for n in range(40)]
        + ["</body></html>"]
    )
    decision = route(page, tool="run_command")
    assert isinstance(decision, Summary)
    assert "a traceback as text" not in decision.extract.outline
    assert "<h2>8.0. Section 0</h2>" in decision.extract.text
