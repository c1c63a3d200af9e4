"""Repeats end to end through ``ctxhub serve``: verify, deltas, writes, races, sessions, schemas, eviction.

Every test drives a real SDK client against ``ctxhub serve`` with real downstreams: the bundled
workspace server on a tmp directory, the fixture server and the stateful fixture server; each hub
runs the one of them its test calls (a downstream start is ~1 s of CPU on the suite's 2 cores). The
tests of one session reading and editing workspace files share one hub (``reader``, per module),
each on files of its own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import yaml
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from context_mode.delta import apply_lines
from hub.config import DEFAULT_CONFIG
from tests.conftest import REPO, announced_url, fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

STATEFUL = REPO / "tests" / "fixtures" / "stateful_server.py"
READISH_WRITES = [
    ("thread_reply", {"text": "+1"}),
    ("catalog_purge", {}),
    ("budget_increase", {"amount": 5}),
    ("unlist_item", {"item": "sku-1"}),
]


def log_lines(count: int, start: int = 0) -> str:
    return "".join(
        f"2026-01-01T00:00:{number % 60:02d} INFO worker-{number % 7} processed batch {number:05d} ok\n"
        for number in range(start, start + count)
    )


def route(result: Any) -> dict[str, Any]:
    return dict(result.meta["ctxhub/route"])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    directory = tmp_path / "ws"
    directory.mkdir()
    (directory / "app.log").write_text(log_lines(600), encoding="utf-8")
    (directory / "notes.txt").write_text("first version\n", encoding="utf-8")
    return directory


def servers(workspace: Path, tmp_path: Path, name: str) -> dict[str, Any]:
    """The config entry of downstream ``name`` (``ws``, ``st`` or ``fx``), as ``{name: entry}``."""
    every = {
        "ws": {"command": sys.executable, "args": ["-m", "tools.workspace_server", "--root", str(workspace)]},
        "st": {"command": sys.executable, "args": [str(STATEFUL)]},
        "fx": fixture_server(
            "fx", env={"FIXTURE_MARKER_DIR": str(tmp_path)}, tools={"echo": {"mode": "DIRECT"}}
        ),
    }
    return {name: every[name]}


@pytest.fixture
def config(workspace: Path, tmp_path: Path) -> Path:
    return write_config(tmp_path, servers(workspace, tmp_path, "ws"))


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``reader`` lives across the module's tests


@dataclass
class Reader:
    """A session of the shared hub, and the workspace its ``ws`` server reads."""

    session: ClientSession
    workspace: Path


@pytest.fixture(scope="module")
async def reader(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Reader]:
    directory = tmp_path_factory.mktemp("repeats")
    workspace = directory / "ws"
    workspace.mkdir()
    (workspace / "app.log").write_text(log_lines(600), encoding="utf-8")
    (workspace / "grown.log").write_text(log_lines(600, start=1000), encoding="utf-8")
    (workspace / "notes.txt").write_text("first version\n", encoding="utf-8")
    async with hub_client(write_config(directory, servers(workspace, directory, "ws"))) as session:
        yield Reader(session, workspace)


def packaged_cache_section() -> dict[str, Any]:
    return dict(yaml.safe_load(DEFAULT_CONFIG.read_text(encoding="utf-8"))["cache"])


async def test_writes_with_read_ish_names_reach_the_server_every_time_under_the_packaged_default(
    workspace: Path, tmp_path: Path
) -> None:
    config = write_config(tmp_path, servers(workspace, tmp_path, "st"), cache=packaged_cache_section())
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            replies = [
                await session.call_tool(f"st__{tool}", arguments)
                for tool, arguments in READISH_WRITES
                for _ in range(2)
            ]
            counts = {
                tool: text_of(await session.call_tool("st__get_calls", {"tool": tool}))
                for tool, _ in READISH_WRITES
            }
    assert counts == {tool: "2" for tool, _ in READISH_WRITES}
    assert all(text_of(reply) == "ok" and route(reply)["mode"] == "direct" for reply in replies)


async def test_an_unchanged_repeat_is_checked_with_the_server_and_answered_with_a_short_pointer(
    reader: Reader,
) -> None:
    with anyio.fail_after(60):
        first = await reader.session.call_tool("ws__read_log", {"path": "app.log"})
        again = await reader.session.call_tool("ws__read_log", {"path": "app.log"})
    assert route(first)["mode"] == "summary"
    assert route(again)["mode"] == "repeat" and route(again)["ref"] == route(first)["ref"]
    assert len(text_of(again).encode()) <= 300
    assert route(first)["ref"] in text_of(again) and "same result" in text_of(again)


async def test_a_log_that_grew_between_two_reads_comes_back_as_a_delta_of_the_new_lines(
    reader: Reader,
) -> None:
    session, log_path = reader.session, reader.workspace / "grown.log"
    before = log_path.read_text(encoding="utf-8")
    added = log_lines(3, start=1600) + "2026-01-01T00:01:00 ERROR worker-3 batch 01603 failed: disk full\n"
    with anyio.fail_after(60):
        first = await session.call_tool("ws__read_log", {"path": "grown.log"})
        with log_path.open("a", encoding="utf-8") as log:
            log.write(added)
        second = await session.call_tool("ws__read_log", {"path": "grown.log"})
        new_ref = route(second)["ref"]
        stored = text_of(await session.call_tool("doc_search", {"query": "disk full", "ref": new_ref}))
    meta = route(second)
    text = text_of(second)
    header, _, body = text.partition("\n")
    assert (
        meta["mode"] == "delta"
        and meta["previous_ref"] == route(first)["ref"]
        and new_ref != meta["previous_ref"]
    )
    assert meta["previous_ref"] in header and new_ref in header
    assert all(f"+{line}" in body.split("\n") for line in added.splitlines())
    assert apply_lines(before, body) == before + added
    assert len(text.encode()) < 1500
    assert "disk full" in stored


async def test_a_small_file_edited_between_two_reads_gives_its_new_content(reader: Reader) -> None:
    session = reader.session
    with anyio.fail_after(60):
        first = await session.call_tool("ws__read_file", {"path": "notes.txt"})
        (reader.workspace / "notes.txt").write_text("second version\n", encoding="utf-8")
        second = await session.call_tool("ws__read_file", {"path": "notes.txt"})
        third = await session.call_tool("ws__read_file", {"path": "notes.txt"})
    assert text_of(first) == "first version\n"
    assert text_of(second) == "second version\n"
    assert text_of(third) == "second version\n" and route(third)["mode"] == "repeat"


@pytest.mark.parametrize("mode", [pytest.param("verify", id="verify"), pytest.param("trust", id="trust")])
async def test_a_read_in_flight_during_a_write_does_not_answer_the_next_read(
    workspace: Path, tmp_path: Path, mode: str
) -> None:
    cache = {} if mode == "verify" else {"mode": mode}  # verify is the default
    config = write_config(tmp_path, servers(workspace, tmp_path, "st"), cache=cache)
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            reached = anyio.Event()
            held: list[Any] = []

            async def progress(value: float, total: float | None, message: str | None) -> None:
                reached.set()

            async def read_held() -> None:
                held.append(
                    await session.call_tool("st__get_state", {"hold": True}, progress_callback=progress)
                )

            async with anyio.create_task_group() as group:
                group.start_soon(read_held)
                await reached.wait()  # the read took the old state at the server
                await session.call_tool("st__set_state", {"value": "v1"})
            again = await session.call_tool("st__get_state", {"hold": True})  # the same call again
    assert text_of(held[0]) == "v0"
    assert text_of(again) == "v1"


@pytest.mark.parametrize("mode", [pytest.param("verify", id="verify"), pytest.param("trust", id="trust")])
async def test_a_repeat_of_a_direct_tool_with_an_output_schema_keeps_its_structured_content(
    workspace: Path, tmp_path: Path, mode: str
) -> None:
    cache = {} if mode == "verify" else {"mode": mode}  # verify is the default
    config = write_config(tmp_path, servers(workspace, tmp_path, "fx"), cache=cache)
    text = "x" * 500
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert tools["fx__echo"].output_schema is not None  # advertised: the client validates it
            first = await session.call_tool("fx__echo", {"text": text})
            again = await session.call_tool("fx__echo", {"text": text})  # the SDK raises if it is missing
    assert route(again)["mode"] == ("repeat" if mode == "verify" else "cache")
    assert again.structured_content == first.structured_content == {"result": text}


async def test_a_repeat_whose_previous_result_was_evicted_is_answered_as_a_first_call(
    workspace: Path, tmp_path: Path
) -> None:
    for name in ("a", "b", "c"):
        (workspace / f"{name}.log").write_text(log_lines(150, start=ord(name) * 1000), encoding="utf-8")
    # About 12 kB per log; payloads get a third of max_bytes, so one log fits and two do not.
    config = write_config(
        tmp_path,
        servers(workspace, tmp_path, "ws"),
        store={"path": str(tmp_path / "store"), "max_bytes": 48_000},
    )
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            first = await session.call_tool("ws__read_log", {"path": "a.log"})
            for name in ("b", "c"):
                other = await session.call_tool("ws__read_log", {"path": f"{name}.log"})
                await session.call_tool(
                    "doc_window", {"ref": route(other)["ref"], "start": 0}
                )  # indexed: evicts
            gone = text_of(await session.call_tool("doc_window", {"ref": route(first)["ref"], "start": 0}))
            again = await session.call_tool("ws__read_log", {"path": "a.log"})
            window = text_of(await session.call_tool("doc_window", {"ref": route(again)["ref"], "start": 0}))
    assert "evicted" in gone
    assert route(again)["mode"] == "summary" and route(again)["ref"] != route(first)["ref"]
    assert "processed batch" in window


@asynccontextmanager
async def http_hub(config: Path) -> AsyncIterator[str]:
    """``ctxhub serve --transport http`` as a child process; yields its /mcp URL."""
    command = [sys.executable, "-m", "hub.cli", "serve", "--transport", "http", "--port", "0"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    async with await anyio.open_process([*command, "--config", str(config)], env=env, cwd=REPO) as process:
        assert process.stderr is not None
        url = await announced_url(process.stderr, b"(SSE)")
        try:
            yield url
        finally:
            process.terminate()
            await process.wait()


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300)) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def test_two_http_clients_never_see_each_others_repeats(config: Path) -> None:
    with anyio.fail_after(60):
        async with http_hub(config) as url, http_session(url) as first, http_session(url) as second:
            a1 = await first.call_tool("ws__read_log", {"path": "app.log"})
            b1 = await second.call_tool("ws__read_log", {"path": "app.log"})
            a2 = await first.call_tool("ws__read_log", {"path": "app.log"})
            b2 = await second.call_tool("ws__read_log", {"path": "app.log"})
    assert route(a1)["mode"] == route(b1)["mode"] == "summary"
    # the second client's first call is a full summary, not a pointer to the first client's call;
    # the same payload is stored once (content-hash dedupe), so both may name one ref
    assert "same result" not in text_of(b1) and route(b1)["mode"] != "repeat"
    assert route(a2)["mode"] == "repeat" and route(a2)["ref"] == route(a1)["ref"]
    assert route(b2)["mode"] == "repeat" and route(b2)["ref"] == route(b1)["ref"]
