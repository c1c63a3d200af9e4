"""A page's summary lines show their links' text, not their targets, when the page has many.

On a real fetched page (tornado's ``web.html`` through ``mcp-server-fetch``), a method's
signature spells each type as a link to Python's docs: cut at its width, it showed its name and
one URL. With the targets left out it shows its parameters and their defaults.
"""

from __future__ import annotations

from context_mode.summaries.link_targets import MANY_LINKS, elided, width_in
from tests.corpora import BENCH_CORPUS, bench_stage1
from tests.verbatim import clipped_from

TORNADO = "webpage-fetch-tornado-web.md"
SIGNATURE = '[str](about:/usr/share/doc/python3-doc/html/library/stdtypes.html#str "(in Python v3.11)")'


def test_a_page_with_many_links_shows_their_text_and_an_ellipsis_for_each_target() -> None:
    lines = [f"f(*name: {SIGNATURE}*, *default: [None](about:/none.html)*)"] * MANY_LINKS
    assert elided(lines)[0] == "f(*name: [str](…)*, *default: [None](…)*)"
    assert all(clipped_from(line, set(lines)) for line in elided(lines))


def test_a_page_with_few_links_keeps_them_whole() -> None:
    lines = [f"See {SIGNATURE}."] * (MANY_LINKS - 1)
    assert elided(lines) == lines


def test_short_targets_and_a_link_in_parentheses_are_read_as_links() -> None:
    lines = ["[x](#x) and [f](https://en.wikipedia.org/wiki/Function_(mathematics)) end"] * MANY_LINKS
    assert elided(lines)[0] == "[x](#x) and [f](…) end"


def test_a_cut_after_a_link_stays_where_it_was_and_a_cut_inside_a_target_keeps_its_width() -> None:
    line = "A [b](https://example.org/long/target) sentence. And more."
    sentence = line.index(" And") + 1
    assert elided([line] * MANY_LINKS)[0][: width_in(line, sentence)] == "A [b](…) sentence. "
    assert width_in(line, 10) == 10
    assert width_in("no link at all", 5) == 5


def test_a_fetched_pages_signatures_show_their_parameters() -> None:
    text = (BENCH_CORPUS / TORNADO).read_text(encoding="utf-8")
    shown = bench_stage1(TORNADO, tool="fetch")
    # Failed before: the line was cut inside its first link's target, "…/stdtypes.html#str "(in Python v…".
    assert "RequestHandler.get\\_argument(*name: [str](…)*, *default: [None](…)*" in shown
    assert "stdtypes.html" not in shown
    # A line's link to itself says nothing, with its target or without (failed before: ``[¶](…)``).
    assert "RequestHandler.initialize() → [None](…)…" in shown.split("\n")
    assert "[¶]" not in shown
    source = set(text.splitlines())
    body = shown.split("\n")[1:-1]  # the header and the closing line are the hub's own
    assert all(line == "…" or clipped_from(line, source) for line in body), body


def test_a_fenced_code_blocks_lines_keep_their_text() -> None:
    code = "    return handlers[name](event_with_context)"
    lines = [f"See {SIGNATURE}."] * MANY_LINKS + ["```js", code, "```"]
    assert elided(lines, kept={MANY_LINKS, MANY_LINKS + 1, MANY_LINKS + 2})[MANY_LINKS + 1] == code
    assert elided(lines)[MANY_LINKS + 1] == "    return handlers[name](…)"  # what a fence guards against
