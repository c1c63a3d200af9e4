"""Hostile input to the native tools of a real ``ctxhub serve``: paths, session ids, queries, refs.

Pass criterion for each input: a clear ``isError`` naming the fix (or a normal answer when the
input is odd but legitimate), within a few seconds (a FIFO must not hang ``doc_ingest``); no
byte from outside the ingest roots reaches the answer; no file is written outside the store; the
hub keeps serving. Secrets in results and notes never reach the disk unmasked.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import write_config
from tests.reliability.harness import RawHub, fault_server, raw_hub, result_text

pytestmark = pytest.mark.anyio

OUTSIDE_SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT"


@dataclass
class Hub:
    raw: RawHub
    root: Path
    outside: Path
    store: Path


@pytest.fixture(scope="module")
async def hub(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Hub]:
    directory = tmp_path_factory.mktemp("hostile")
    root, outside = directory / "root", directory / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text(OUTSIDE_SECRET)
    (root / "ok.md").write_text("# Deploy\n\nRun `make deploy` after the migration check.\n")
    (root / "sub").mkdir()
    (root / "big.txt").write_bytes(b"x" * (10 * 2**20 + 1))
    (root / "binary.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (root / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    os.mkfifo(root / "fifo")
    links = {
        "link-passwd": "/etc/passwd",
        "link-dir": "/",
        "link-proc": "/proc/self/environ",
        "dev-zero": "/dev/zero",
        "link-outside": str(outside / "secret.txt"),
        "loop": str(root / "loop"),
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    store = directory / "store"
    config = write_config(
        directory, {"f": fault_server("f")}, ingest_roots=[str(root)], store={"path": str(store)}
    )
    with open(directory / "hub.log", "w") as errlog:
        async with raw_hub(config, errlog) as raw:
            with anyio.fail_after(30):
                await raw.request("tools/list")
            yield Hub(raw, root, outside, store)
            assert raw.process.returncode is None
    assert not raw.invalid


async def call(hub: Hub, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    with anyio.fail_after(10):  # a FIFO or device must never block a call
        result = await hub.raw.call(tool, arguments)
    text = result_text(result)
    assert OUTSIDE_SECRET not in text and "root:x:0:0" not in text
    return bool(result.get("isError")), text


PATHS = [
    pytest.param("../outside/secret.txt", "must not contain '..'", id="dot-dot"),
    pytest.param("sub/../ok.md", "must not contain '..'", id="dot-dot-inside"),
    pytest.param("/etc/passwd", "outside the ingest roots", id="absolute-outside"),
    pytest.param("link-passwd", "outside the ingest roots", id="symlink-to-file"),
    pytest.param("link-dir/etc/passwd", "outside the ingest roots", id="symlink-to-dir"),
    pytest.param("link-outside", "outside the ingest roots", id="symlink-escape"),
    pytest.param("link-proc", "outside the ingest roots", id="symlink-to-proc"),
    pytest.param("/proc/self/environ", "outside the ingest roots", id="proc"),
    pytest.param("/proc/self/mem", "outside the ingest roots", id="proc-mem"),
    pytest.param("/dev/zero", "outside the ingest roots", id="device"),
    pytest.param("dev-zero", "outside the ingest roots", id="symlink-to-device"),
    pytest.param("/dev/stdin", "outside the ingest roots", id="stdin"),
    pytest.param("fifo", "not a regular file", id="fifo"),
    pytest.param("sub", "not a regular file", id="directory"),
    pytest.param(".", "not a regular file", id="the-root"),
    pytest.param("big.txt", "ingest limit", id="oversized"),
    pytest.param("binary.bin", "not UTF-8 text", id="binary"),
    pytest.param("latin1.txt", "not UTF-8 text", id="not-utf8"),
    pytest.param("loop", "cannot resolve", id="symlink-loop"),
    pytest.param("missing.txt", "does not exist", id="missing"),
    pytest.param("a\x00b", "NUL", id="nul-byte"),
    pytest.param("n" * 5000, "cannot resolve", id="name-too-long"),
    pytest.param("new\nline.md", "does not exist", id="newline"),
]


@pytest.mark.parametrize(("path", "refusal"), PATHS)
async def test_doc_ingest_refuses_paths_outside_the_roots_and_files_that_are_not_text(
    hub: Hub, path: str, refusal: str
) -> None:
    failed, text = await call(hub, "doc_ingest", {"path": path})
    assert failed, text
    assert refusal in text, text


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({}, id="nothing"),
        pytest.param({"path": "ok.md", "text": "both"}, id="both"),
        pytest.param({"path": 5}, id="path-number"),
        pytest.param({"path": ["ok.md"]}, id="path-list"),
        pytest.param({"text": "x", "unknown": 1}, id="unknown-argument"),
        pytest.param({"text": "y" * (10 * 2**20 + 1)}, id="text-over-limit"),
    ],
)
async def test_doc_ingest_refuses_malformed_arguments(hub: Hub, arguments: dict[str, Any]) -> None:
    failed, text = await call(hub, "doc_ingest", arguments)
    assert failed and ("doc_ingest" in text or "limit" in text), text


async def test_doc_ingest_reads_a_plain_file_under_the_root(hub: Hub) -> None:
    for path in ("ok.md", str(hub.root / "ok.md")):
        failed, text = await call(hub, "doc_ingest", {"path": path})
        assert not failed and text.startswith("Ingested ok.md as r_"), text


BAD_SESSIONS = [
    "",
    ".",
    "..",
    "../escape",
    "a/b",
    "/abs",
    ".hidden",
    "-rf",
    "a b",
    "x" * 129,
    "a\x00b",
    "new\nline",
    "séance",
    "%2e%2e",
    "con:",
]


@pytest.mark.parametrize("session", [pytest.param(value, id=repr(value)[:20]) for value in BAD_SESSIONS])
async def test_bad_session_ids_are_refused_and_write_nothing(hub: Hub, session: str) -> None:
    extra = {"context_append": {"text": "note"}, "context_recall": {"query": "note"}}
    for tool in ("context_open", "context_append", "context_get", "context_recall"):
        failed, text = await call(hub, tool, {"session_id": session, **extra.get(tool, {})})
        assert failed and ("is not allowed" in text or "non-empty" in text), (tool, text)
    written = {path.name for path in hub.store.parent.rglob("*.jsonl")}
    assert all(name.endswith(".jsonl") and "/" not in name for name in written)
    assert not list(hub.store.parent.glob("*.jsonl")) and not (hub.store / "escape.jsonl").exists()


@pytest.mark.parametrize(
    "value", [pytest.param(5, id="number"), pytest.param(None, id="null"), pytest.param(["s"], id="list")]
)
async def test_session_ids_of_the_wrong_type_are_refused(hub: Hub, value: Any) -> None:
    failed, text = await call(hub, "context_open", {"session_id": value})
    assert failed and "session_id" in text, text


QUERIES = [
    '"',
    '"unterminated phrase',
    "AND OR NOT",
    "title:x body:y",
    "*",
    "?",
    "(((",
    ")",
    "\\",
    "+-!^~",
    "ts:[0 TO 9]",
    "deploy~2",
    "deploy^3",
    '" OR 1=1 --',
    ".*",
    "ref:r_00000000",
    "\u202eRTL\u202c",
    "🚀 emoji",
    "\ud800 lone surrogate",
    "nul\x00byte",
    "word " * 10_000,
    "q" * 100_000,
    "getUserById parseHTTPResponse",
    "日本語 テキスト",
]


@pytest.mark.parametrize("query", [pytest.param(value, id=repr(value)[:24]) for value in QUERIES])
async def test_queries_that_break_parsers_get_an_answer(hub: Hub, query: str) -> None:
    failed, text = await call(hub, "doc_search", {"query": query})
    assert not failed, text
    assert "hit" in text or "No hits" in text or "store" in text, text
    await call(hub, "context_append", {"session_id": "queries", "text": "deploy after the migration"})
    failed, text = await call(hub, "context_recall", {"session_id": "queries", "query": query})
    assert not failed or "query" in text, text


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"ref": "r_zzzzzzzz"}, id="unknown-ref"),
        pytest.param({"ref": "../etc/passwd"}, id="path-as-ref"),
        pytest.param({"ref": "r_" + "a" * 40}, id="long-ref"),
        pytest.param({"ref": "r_00000000", "start": -1}, id="negative-start"),
        pytest.param({"ref": "r_00000000", "start": 10**18}, id="huge-start"),
        pytest.param({"ref": "r_00000000", "start": 5, "end": 2}, id="end-before-start"),
        pytest.param({"ref": "r_00000000", "start": "0"}, id="start-string"),
        pytest.param({"ref": "r_00000000", "start": True}, id="start-bool"),
        pytest.param({"ref": "r_00000000", "start": 1.5}, id="start-float"),
        pytest.param({"ref": 7}, id="ref-number"),
        pytest.param({}, id="no-ref"),
    ],
)
async def test_doc_window_refuses_bad_refs_and_ranges(hub: Hub, arguments: dict[str, Any]) -> None:
    failed, text = await call(hub, "doc_window", arguments)
    assert failed, text
    assert "doc_window" in text or "r_" in text or "ref" in text, text


async def test_secrets_in_results_and_notes_never_reach_the_disk(hub: Hub) -> None:
    password, token = "Pa55-w0rd-on-disk", "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    log = "\n".join(
        [f"2024-05-01 INFO step {number} ok" for number in range(200)]
        + [f"2024-05-01 ERROR login failed: password={password}", f"pushing with {token}"]
    )
    with anyio.fail_after(10):
        result = await hub.raw.call("f__echo", {"text": log})
    route = result["_meta"]["ctxhub/route"]
    assert route["mode"] == "summary" and route["spill_path"], route
    spilled = Path(route["spill_path"]).read_text()
    assert "password=[secret:password]" in spilled and "[secret:github-token]" in spilled
    assert spilled.count("\n") == ("f:" + log).count("\n")
    failed, saved = await call(
        hub, "context_append", {"session_id": "secrets", "text": f"db password={password} (staging)"}
    )
    assert not failed, saved
    failed, status = await call(hub, "hub_status", {})
    assert "secrets_masked" in status and "secrets_masked 0" not in status, status
    for path in hub.store.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert password.encode() not in data and token.encode() not in data, path
    notes = (hub.store / "sessions" / "secrets.jsonl").read_text()
    assert "[secret:password]" in notes
