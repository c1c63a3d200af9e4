"""JSON whose strings hold whole documents reads each document as its kind
(``summaries.json_documents``)."""

from __future__ import annotations

from context_mode.router import Summary, route
from context_mode.summaries.json_documents import documents
from context_mode.summaries.packing import is_marker, strip_annotation
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS

# fast-filesystem-mcp 0.3.52's fast_read_multiple_files on four of fish's functions (a real capture):
# {"files": [{"path": …, "name": …, "type": "text", "content": "#\n# Wrap the builtin …"}, …]}
FISH = "source-cpv-fast-filesystem-mcp-352-read-multiple-fish-360-functions.json"


def test_a_multi_file_read_in_json_shows_each_files_lines_under_its_path() -> None:
    # The JSON summary elided the four contents: stage 1 named the files and showed no line.
    text = (BENCH_CORPUS / FISH).read_text(encoding="utf-8")
    decision = route(text, tool="fast_read_multiple_files")
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.outline == "json: 4 documents in its strings (source, text; 674 lines)"
    assert extract.kind in (ContentKind.SOURCE, ContentKind.TEXT)  # fish's files read as either
    shown = extract.text.splitlines()
    assert '  "message": "Multiple files read completed",' in shown
    assert (
        '      "path": "/tmp/fresh39d_scratch/x_fish-common/usr/share/fish/functions/funced.fish",' in shown
    )
    assert "function __funced_md5" in shown
    assert "        echo (md5sum $argv[1] | string split ' ')[1]" in shown
    assert (
        'function fish_add_path --description \\"Add paths to the PATH\\"' in shown
    )  # as the payload escapes it
    for line in shown:  # each a piece of the payload, as it spells it, or a marker
        assert is_marker(line) or all(part in text for part in strip_annotation(line).split("…") if part), (
            line
        )


def test_a_long_string_among_a_records_lists_and_metadata_is_no_document() -> None:
    # pip inspect's package descriptions and ESLint's linted source sit beside the metadata and the
    # messages the payload is read for: the JSON summary keeps them.
    for name in ("json-pip-inspect-httpbin.json", "lint-eslint-json-moment.json"):
        assert documents((BENCH_CORPUS / name).read_text(encoding="utf-8")) is None, name
    escaped = '{"path": "a.txt", "content": "' + "x = 1\\\\n" * 300 + '"}'  # \\n: a backslash and n
    assert documents(escaped) is None
