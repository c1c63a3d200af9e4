"""Start-up over real stdio: early-started children, a warm start from ``catalog.json``, its failures.

The downstream is our fixture server behind a small gate script: while the file named by
``CTXHUB_TEST_GATE`` (in the hub's environment, which children inherit, so the server's config
and thus its cache fingerprint stay the same) does not exist, the server has not started; once it
does, the server starts, or exits at once when ``CTXHUB_TEST_FAIL`` is set.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest

from hub.config import load_config
from hub.downstream.catalog_cache import FILE_NAME, fingerprint
from hub.downstream.spawn import spawn_servers
from tests.conftest import FIXTURE_SERVER, children_of, fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

GATE = f"""
import os, sys, time
gate = os.environ.get("CTXHUB_TEST_GATE")
while gate and not os.path.exists(gate):
    time.sleep(0.02)
if os.environ.get("CTXHUB_TEST_FAIL"):
    sys.exit("failing on purpose")
os.execv(sys.executable, [sys.executable, {str(FIXTURE_SERVER)!r}, "--name", "fx"])
"""
CACHED = [
    {"name": "echo", "description": "Echo the text (cached).", "inputSchema": {"type": "object"}},
    {"name": "retired", "description": "A tool the server no longer has.", "inputSchema": {"type": "object"}},
]


class ToolChanges:
    def __init__(self) -> None:
        self.changed = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.changed.set()


def gated_config(tmp_path: Path, cached: list[dict[str, Any]] | None = CACHED) -> Path:
    """A hub config with one gated fixture server, and ``cached`` as its last run's tools."""
    script = tmp_path / "gated_server.py"
    script.write_text(GATE, encoding="utf-8")
    config_path = write_config(tmp_path, {"fx": {"command": sys.executable, "args": [str(script)]}})
    if cached is not None:
        store = tmp_path / "store"
        store.mkdir()
        entry = {"config": fingerprint(load_config(str(config_path)).servers["fx"]), "tools": cached}
        cache = {"version": 1, "servers": {"fx": entry}}
        (store / FILE_NAME).write_text(json.dumps(cache), encoding="utf-8")
    return config_path


def cached_names(tmp_path: Path) -> set[str] | None:
    entry = json.loads((tmp_path / "store" / FILE_NAME).read_text(encoding="utf-8"))["servers"].get("fx")
    return None if entry is None else {tool["name"] for tool in entry["tools"]}


async def test_a_warm_start_lists_cached_tools_before_the_server_is_up_and_a_call_waits_for_it(
    tmp_path: Path,
) -> None:
    config = gated_config(tmp_path)
    gate = tmp_path / "gate"
    with anyio.fail_after(60):
        async with hub_client(config, env={"CTXHUB_TEST_GATE": str(gate)}) as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
            assert {"fx__echo", "fx__retired"} <= listed  # the server is still behind its gate
            results: list[types.CallToolResult] = []

            async def call() -> None:
                results.append(await session.call_tool("fx__echo", {"text": "waited"}))

            async with anyio.create_task_group() as group:
                group.start_soon(call)
                gate.touch()
    assert not results[0].is_error, text_of(results[0])
    assert text_of(results[0]) == "waited"


async def test_a_live_list_that_differs_replaces_the_cached_one_and_sends_list_changed(
    tmp_path: Path,
) -> None:
    config = gated_config(tmp_path)
    gate = tmp_path / "gate"
    changes = ToolChanges()
    env = {"CTXHUB_TEST_GATE": str(gate)}
    with anyio.fail_after(60):
        async with hub_client(config, env=env, message_handler=changes) as session:
            before = {tool.name for tool in (await session.list_tools()).tools}
            gate.touch()
            await changes.changed.wait()
            after = {tool.name for tool in (await session.list_tools()).tools}
            retired = await session.call_tool("fx__retired", {})
    assert "fx__retired" in before and "fx__add" not in before
    assert "fx__retired" not in after and {"fx__echo", "fx__add", "fx__pid"} <= after
    assert retired.is_error
    names = cached_names(tmp_path)
    assert names is not None and "retired" not in names and {"echo", "add", "pid"} <= names


async def test_a_live_list_equal_to_the_cached_one_sends_no_list_changed(tmp_path: Path) -> None:
    config = gated_config(tmp_path, cached=None)
    changes = ToolChanges()
    with anyio.fail_after(60):
        async with hub_client(config) as session:  # a cold start fills the cache
            cold = {tool.name for tool in (await session.list_tools()).tools}
        async with hub_client(config, message_handler=changes) as session:
            warm = {tool.name for tool in (await session.list_tools()).tools}
            assert not (await session.call_tool("fx__echo", {"text": "up"})).is_error  # the server is up
            await session.send_ping()  # every notification sent before this answer has arrived
    assert warm == cold
    assert not changes.changed.is_set()


async def test_a_corrupt_cache_file_is_ignored_with_a_warning(tmp_path: Path) -> None:
    config = gated_config(tmp_path, cached=None)
    store = tmp_path / "store"
    store.mkdir()
    (store / FILE_NAME).write_text('{"version": 1, "servers": {"fx": {"tools": [', encoding="utf-8")
    errlog = tmp_path / "hub.log"
    with errlog.open("w") as log, anyio.fail_after(60):
        async with hub_client(config, errlog=log) as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
    assert {"fx__echo", "fx__add"} <= listed
    assert "ignoring the tool cache" in errlog.read_text(encoding="utf-8")
    names = cached_names(tmp_path)
    assert names is not None and {"echo", "add"} <= names  # rewritten from the live list


@contextlib.asynccontextmanager
async def failing_start(tmp_path: Path) -> AsyncIterator[tuple[Any, Path, ToolChanges]]:
    """A hub client whose cached server fails to start once ``gate`` is touched: (session, gate, changes)."""
    config = gated_config(tmp_path)
    gate = tmp_path / "gate"
    changes = ToolChanges()
    env = {"CTXHUB_TEST_GATE": str(gate), "CTXHUB_TEST_FAIL": "1"}
    with anyio.fail_after(60):
        async with hub_client(config, env=env, message_handler=changes) as session:
            yield session, gate, changes


async def test_a_cached_server_that_fails_to_start_has_its_tools_dropped(tmp_path: Path) -> None:
    async with failing_start(tmp_path) as (session, gate, changes):
        before = {tool.name for tool in (await session.list_tools()).tools}
        gate.touch()
        waited = await session.call_tool("fx__echo", {"text": "never"})  # fails with its start
        await changes.changed.wait()
        after = {tool.name for tool in (await session.list_tools()).tools}
        assert cached_names(tmp_path) is None  # the next start is cold
    assert "fx__echo" in before
    assert not any(name.startswith("fx__") for name in after)
    assert waited.is_error and "'fx'" in text_of(waited)


async def test_a_call_of_a_dropped_tool_names_its_servers_failure_not_a_missing_tool(tmp_path: Path) -> None:
    async with failing_start(tmp_path) as (session, gate, changes):
        assert "fx__echo" in {tool.name for tool in (await session.list_tools()).tools}
        gate.touch()
        await changes.changed.wait()  # the start failed and its tools were dropped
        late = await session.call_tool("fx__echo", {"text": "late"})  # an agent that listed them before
        unknown = await session.call_tool("nope__echo", {})
    assert late.is_error
    assert "downstream 'fx' is not connected" in text_of(late) and "call fx__echo again" in text_of(late)
    assert unknown.is_error and "no tool named 'nope__echo'" in text_of(unknown)


def test_servers_started_early_are_stopped_when_the_hub_never_takes_them(tmp_path: Path) -> None:
    config = load_config(str(write_config(tmp_path, {"a": fixture_server("a"), "b": fixture_server("b")})))
    with open(os.devnull, "w") as devnull, spawn_servers(config, devnull) as children:
        pids = {child.pid for child in children.values()}
        assert len(pids) == 2 and pids <= children_of(os.getpid())
    assert not pids & children_of(os.getpid())
    assert all(child.returncode is not None for child in children.values())
