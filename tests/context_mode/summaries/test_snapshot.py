"""The snapshot summariser on a real Playwright MCP snapshot: what the page says, and results."""

from __future__ import annotations

from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.types import ContentKind

SEARCH = (Path(__file__).parents[2] / "data" / "snapshot-search-frame-refs.txt").read_text(encoding="utf-8")


def test_a_search_page_keeps_its_status_sentence_and_names_unnamed_result_links() -> None:
    # Before: a frame's refs ([ref=f1e23]) were not refs, so the page was read as markdown
    # (345 bytes of headings); paragraphs ranked below every link; a result link without a
    # name was dropped with the code and text that name it.
    assert detect_kind(SEARCH) is ContentKind.SNAPSHOT
    body = summarize(SEARCH, ContentKind.SNAPSHOT, budget=900).text
    lines = body.splitlines()
    assert "- paragraph [ref=f1e112]: Search finished, found 48 page(s) matching the search query." in lines
    assert '- textbox "Search" [ref=f1e23]: PYTHONPATH' in lines
    assert "- code [ref=f1e31]: cgi" in lines


def test_the_same_link_again_ranks_last() -> None:
    tree = "\n".join(
        ["- main [ref=e1]:", '  - heading "Results" [level=1] [ref=e2]']
        + [f'  - link "Same place" [ref=e{3 + i}]' for i in range(3)]
        + [f'  - link "Other {i}" [ref=e{10 + i}]' for i in range(3)]
    )
    body = summarize(tree, ContentKind.SNAPSHOT, budget=170).text
    assert body.count('link "Same place"') == 1
    assert 'link "Other 0"' in body
