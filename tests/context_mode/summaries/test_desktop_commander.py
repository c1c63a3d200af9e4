"""Desktop Commander's searches on real results: its found lines and found files, with its own lines."""

from __future__ import annotations

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries.packing import strip_annotation
from context_mode.types import ContentKind
from tests.corpora import data


def test_a_content_search_is_a_code_search_read_by_its_lines() -> None:
    # ``start_search`` (content, "raise RuntimeError" over the mcp package) then
    # ``get_more_search_results``: ``📄 /…/session.py:667 - raise RuntimeError`` lines under its
    # session's lines. Before, it read as text ("no path:line matches"), its count left out.
    text = data("desktop-commander-content-search-results.txt")
    assert detect_kind(text, tool_name="get_more_search_results") is ContentKind.CODE_SEARCH
    arguments = {"sessionId": "search_1", "pattern": "raise RuntimeError"}
    decision = route(text, tool="get_more_search_results", arguments=arguments)
    assert isinstance(decision, Summary)
    # the lines holding the call's terms are its matches, the lines around them context
    assert decision.extract.outline.startswith("code search: 32 matches in 11 files")
    lines = decision.extract.text.splitlines()
    assert "Total results found: 216 (21 matches)" in lines
    sent = {line.rstrip() for line in text.splitlines()}
    shown = [strip_annotation(line) for line in lines if line.startswith("📄 ")]
    assert shown and all(line in sent or line.endswith("…") for line in shown)  # as sent
    assert (
        shown[0]
        == "📄 /work/main/.venv/lib/python3.11/site-packages/mcp/client/session.py:667 - raise RuntimeError"
    )


def test_a_file_search_is_a_path_list_with_what_is_left_to_fetch() -> None:
    # A file search (``*.py`` under site-packages): 500 of 2623 ``📁 /…/protocols.py`` lines, and
    # "📖 More results available. Use get_more_search_results with offset: 500". Before, it read as
    # text: scattered paths.
    text = data("desktop-commander-file-search-results.txt")
    assert detect_kind(text, tool_name="get_more_search_results") is ContentKind.TREE
    decision = route(text, tool="get_more_search_results", arguments={"sessionId": "search_1"})
    assert isinstance(decision, Summary)
    body = decision.extract.text
    assert body.startswith("500 files, 0 directories under /work/main/.venv/lib/python3.11/site-packages\n")
    assert "Total results found: 2623 (2623 matches)" in body
    assert "📖 More results available. Use get_more_search_results with offset: 500" in body
    assert "(35 files) /work/main/.venv/lib/python3.11/site-packages/pydantic/utils.py" in body


def test_blank_lines_between_found_lines_count_for_neither_detection_nor_summary() -> None:
    # Detection counted the found lines among the sample's non-blank lines, the code search
    # summary among all of them: with a blank line after each found line (the real results,
    # spaced out), the output was detected as a code search and summarised as "no path:line
    # matches" text.
    text = "\n".join(
        f"{line}\n" if line.startswith("📄 ") else line
        for line in data("desktop-commander-content-search-results.txt").splitlines()
    )
    assert detect_kind(text, tool_name="get_more_search_results") is ContentKind.CODE_SEARCH
    decision = route(text, tool="get_more_search_results", arguments={"pattern": "raise RuntimeError"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("code search: "), decision.extract.outline
