"""doc_search / doc_window / doc_ingest / doc_list: compact text, validated arguments, a file sandbox."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from context_mode.store.store import Store
from context_mode.types import ContentKind
from tools.doc_tools import doc_tools
from tools.errors import ToolInputError, ToolUnavailableError
from tools.registry import NativeTool

GUIDE = (
    "# Guide\n\nIntro words.\n\n## Install\n\nRun pip install ctxhub.\n\n## Configure\n\nEdit config.yaml.\n"
)


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(None, max_chunk_bytes=256) as opened:
        yield opened


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(GUIDE)
    return folder


@pytest.fixture
def tools(store: Store, root: Path) -> dict[str, NativeTool]:
    return {tool.name: tool for tool in doc_tools(store, ingest_roots=[root], max_ingest_bytes=4096)}


def ref_of(ingested: str) -> str:
    return ingested.split(" as ", 1)[1].split(":", 1)[0]


def test_the_tool_list_is_small_and_strict(tools: dict[str, NativeTool]) -> None:
    listed = [
        {"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools.values()
    ]
    assert len(json.dumps(listed)) < 1400
    assert sorted(tools) == ["doc_ingest", "doc_list", "doc_search", "doc_window"]
    assert all(t.input_schema["additionalProperties"] is False for t in tools.values())
    assert [name for name, t in tools.items() if not t.read_only] == ["doc_ingest"]


def test_ingest_a_file_then_search_and_read_it(tools: dict[str, NativeTool]) -> None:
    ingested = tools["doc_ingest"].run({"path": "docs/guide.md"})
    ref = ref_of(ingested)
    assert ingested.splitlines()[0] == f"Ingested docs/guide.md as {ref}: 3 chunks, 92 B (markdown)."
    assert "  #1 Guide › Install" in ingested
    found = tools["doc_search"].run({"query": "pip install", "ref": ref})
    # Within one ref the source goes without saying and a chunk is named by its number; a chunk
    # of a few lines is shown whole, but for its heading line, which the heading path names.
    assert found.splitlines()[:3] == [
        f"1 hit in {ref}:",
        "#1 · Guide › Install",
        "  Run pip install ctxhub.",
    ]
    assert found.splitlines()[-1] == f'Read on: doc_window(ref="{ref}", start=1)'
    window = tools["doc_window"].run({"ref": ref, "start": 1})
    assert (
        window.splitlines()[0] == f'{ref} · chunks 1-2 of 3 · doc_ingest · markdown · 92 B · "docs/guide.md"'
    )
    assert f"── {ref}#2 · Guide › Configure" in window


def test_window_ends_with_the_cursor_hint(tools: dict[str, NativeTool], store: Store) -> None:
    text = "".join(f"line {i} with some words\n" for i in range(600))
    ref = store.put(text, source="git__log", kind=ContentKind.LOG).ref
    first = tools["doc_window"].run({"ref": ref})
    assert len(first.encode()) < 7000
    hint = first.splitlines()[-1]
    start = int(hint.rsplit("start=", 1)[1].rstrip(")"))
    total = store.document(ref).chunk_count
    assert hint == f'{total - start} more chunks: call doc_window(ref="{ref}", start={start})'
    second = tools["doc_window"].run({"ref": ref, "start": start, "end": start + 1})
    assert second.splitlines()[0].startswith(f"{ref} · chunks {start}-{start} of {total} · git__log · log")


def test_search_shows_the_exact_matching_lines_compactly(tools: dict[str, NativeTool], store: Store) -> None:
    noise = "".join(
        f"2024-05-01 10:00:{i % 60:02d} INFO worker {i} handled a request in {i} ms\n" for i in range(3000)
    )
    needle = "2024-05-01 10:01:00 ERROR Error moving temp DB file temp-4845.rdb: Is a directory\n"
    ref = store.put(noise + needle + noise, source="logs__tail", kind=ContentKind.LOG).ref
    found = tools["doc_search"].run({"query": "temp DB file moving error", "ref": ref})
    assert "  " + needle.strip() in found.splitlines()
    assert len(found.encode()) <= 1500
    assert found.splitlines()[-1].startswith(f'Read on: doc_window(ref="{ref}", start=')


def test_search_without_a_ref_names_each_hit_source(tools: dict[str, NativeTool], store: Store) -> None:
    store.put("alpha beta gamma\n", source="one__tool", kind=ContentKind.TEXT)
    store.put("alpha delta\n", source="two__tool", kind=ContentKind.TEXT)
    found = tools["doc_search"].run({"query": "alpha"}).splitlines()
    assert found[0] == "2 hits:"
    assert {line.split(" · ")[1] for line in found[1:] if line.startswith("r_")} == {"one__tool", "two__tool"}


def test_no_hit_lists_terms_to_retry_with(tools: dict[str, NativeTool]) -> None:
    ref = ref_of(tools["doc_ingest"].run({"text": "kubernetes deployment replicas " * 10}))
    answer = tools["doc_search"].run({"query": "zebra", "ref": ref})
    assert answer.startswith(f'No hits for "zebra" in {ref}. Distinctive terms in {ref}: ')
    assert "kubernetes" in answer


def test_list_shows_documents_newest_first(tools: dict[str, NativeTool], store: Store) -> None:
    assert tools["doc_list"].run({}).startswith("The store is empty")
    store.put("{}", source="api__get", kind=ContentKind.JSON, title="items")
    listing = tools["doc_list"].run({"limit": 5}).splitlines()
    assert listing[0] == "1 documents, 2 B of 536.9 MB:"  # decimal units, like every size ctxhub prints
    assert listing[1].endswith('· 1 chunks · api__get · json · 2 B · "items"')


def test_inline_text_kind_is_sniffed(tools: dict[str, NativeTool]) -> None:
    assert "(json)" in tools["doc_ingest"].run({"text": '{"a": [1, 2]}'})
    assert "(markdown)" in tools["doc_ingest"].run({"text": "# Title\n\nbody"})
    assert "(diff)" in tools["doc_ingest"].run({"text": "diff --git a/x b/x\n--- a/x\n+++ b/x\n"})
    assert "(text)" in tools["doc_ingest"].run({"text": "plain words"})


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        pytest.param("doc_search", {}, "doc_search needs the argument 'query'", id="missing"),
        pytest.param(
            "doc_search", {"query": "x", "bogus": 1}, "doc_search got unknown argument 'bogus'", id="unknown"
        ),
        pytest.param("doc_search", {"query": 3}, "argument 'query' must be a str, not 3", id="type"),
        pytest.param("doc_search", {"query": "  "}, "doc_search needs a non-empty query", id="blank"),
        pytest.param("doc_search", {"query": "x", "limit": 0}, "limit must be between 1 and 20", id="limit"),
        pytest.param("doc_window", {"ref": "r_1", "start": True}, "must be a int, not true", id="bool"),
        pytest.param(
            "doc_window", {"ref": "r_1", "start": 3, "end": 2}, "needs 0 <= start < end", id="range"
        ),
        pytest.param(
            "doc_window", {"ref": "r_00000042"}, "r_00000042 is unknown to this store", id="unknown-ref"
        ),
        pytest.param("doc_window", {"ref": "../x"}, "'../x' is not a ref", id="bad-ref"),
        pytest.param("doc_ingest", {}, "takes exactly one of path", id="neither"),
        pytest.param("doc_ingest", {"path": "a", "text": "b"}, "takes exactly one of path", id="both"),
        pytest.param(
            "doc_ingest", {"text": "x" * 5000}, "over the 4096-byte ingest limit", id="text-too-big"
        ),
        pytest.param("doc_list", {"limit": 1000}, "limit must be between 1 and 100", id="list-limit"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(
    tools: dict[str, NativeTool], tool: str, args: dict[str, object], message: str
) -> None:
    with pytest.raises(ToolInputError, match=message.replace("(", r"\(").replace(".", r"\.")):
        tools[tool].run(args)


def test_an_evicted_ref_reports_the_store_message() -> None:
    with Store(None, max_bytes=100) as store:
        tools = {tool.name: tool for tool in doc_tools(store, ingest_roots=[])}
        first = ref_of(tools["doc_ingest"].run({"text": "a" * 80}))
        tools["doc_ingest"].run({"text": "b" * 80})
        with pytest.raises(
            ToolInputError, match=f"^{first} was evicted \\(least recently used\\); call the tool again$"
        ):
            tools["doc_window"].run({"ref": first})


def test_a_closed_store_makes_the_tools_unavailable(store: Store, tools: dict[str, NativeTool]) -> None:
    store.close()
    with pytest.raises(ToolUnavailableError, match="the store is closed"):
        tools["doc_list"].run({})


# --- the ingest sandbox ---------------------------------------------------------------------------


def test_without_roots_only_inline_text_is_accepted(store: Store, root: Path) -> None:
    tools = {tool.name: tool for tool in doc_tools(store, ingest_roots=[])}
    with pytest.raises(
        ToolInputError, match="no ingest roots configured, so it cannot read files; pass text"
    ):
        tools["doc_ingest"].run({"path": str(root / "docs" / "guide.md")})
    assert "Ingested text as r_" in tools["doc_ingest"].run({"text": "inline"})


def test_absolute_paths_inside_a_root_are_accepted(tools: dict[str, NativeTool], root: Path) -> None:
    assert "Ingested docs/guide.md as" in tools["doc_ingest"].run({"path": str(root / "docs" / "guide.md")})


def attack(tools: dict[str, NativeTool], path: str, message: str) -> None:
    with pytest.raises(ToolInputError, match=message):
        tools["doc_ingest"].run({"path": path})


def test_dot_dot_is_refused(tools: dict[str, NativeTool], root: Path) -> None:
    attack(tools, "docs/../../secret.txt", "must not contain '\\.\\.'")
    attack(tools, str(root / "docs" / ".." / "docs" / "guide.md"), "must not contain")


def test_absolute_paths_outside_the_roots_are_refused(tools: dict[str, NativeTool], tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("secret")
    attack(tools, str(tmp_path / "secret.txt"), "outside the ingest roots")
    attack(tools, "/etc/passwd", "outside the ingest roots")


def test_a_symlink_escaping_the_root_is_refused(
    tools: dict[str, NativeTool], root: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("secret")
    (root / "docs" / "link.txt").symlink_to(tmp_path / "secret.txt")
    (root / "escape").symlink_to(tmp_path)
    attack(tools, "docs/link.txt", "resolves to .*secret.txt, outside the ingest roots")
    attack(tools, "escape/secret.txt", "outside the ingest roots")


def test_proc_is_refused_even_under_a_root_of_slash(store: Store) -> None:
    tools = {tool.name: tool for tool in doc_tools(store, ingest_roots=[Path("/")])}
    attack(tools, "/proc/self/environ", "outside the ingest roots")
    attack(tools, "proc/self/environ", "outside the ingest roots")


def test_a_fifo_is_refused_without_hanging(tools: dict[str, NativeTool], root: Path) -> None:
    os.mkfifo(root / "pipe")
    attack(tools, "pipe", "pipe is not a regular file")


def test_directories_are_refused(tools: dict[str, NativeTool]) -> None:
    attack(tools, "docs", "docs is not a regular file")


def test_binary_and_non_utf8_files_are_refused(tools: dict[str, NativeTool], root: Path) -> None:
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    attack(tools, "image.png", "image.png is not UTF-8 text")
    attack(tools, "latin1.txt", "latin1.txt is not UTF-8 text")


def test_oversized_files_are_refused(tools: dict[str, NativeTool], root: Path) -> None:
    (root / "big.log").write_text("x" * 5000)
    attack(tools, "big.log", "big.log is 5000 bytes, over the 4096-byte ingest limit")


def test_missing_files_are_reported(tools: dict[str, NativeTool]) -> None:
    attack(tools, "docs/nothing.md", "'docs/nothing.md' does not exist under")


def test_a_hits_heading_path_a_better_hit_names_already_is_not_named_again() -> None:
    # tornado's options.py, escape.py and httputil.py read together: the three best hits are all
    # in options.py. Naming the file over each took the room of the module-level function's
    # signature, the answer, in the third.
    from tests.searching import bench_reply

    reply = bench_reply(
        "source-fs-read-multiple-tornado-641.txt",
        ContentKind.SOURCE,
        "module level config file parsing function signature",
    )
    headings = [line for line in reply.splitlines() if line.startswith("#")]
    assert headings[0].endswith(" · …/tornado/options.py"), reply
    assert all(" · " not in line for line in headings[1:]), reply
    assert "  def parse_config_file(path: str, final: bool = True) -> None:" in reply.splitlines()
