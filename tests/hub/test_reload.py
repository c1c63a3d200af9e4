"""Config hot reload through ``ctxhub serve``: add, remove, change and rename servers, broken edits."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
import yaml

from hub.config import parse_config
from hub.reload import plan
from tests.conftest import fixture_server, hub_client, text_of

pytestmark = pytest.mark.anyio

TIME = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}


def _write(path: Path, servers: dict[str, Any], store: Path) -> None:
    body = {"servers": servers, "store": {"path": str(store)}, "reload": {"interval": 0.1}}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(yaml.safe_dump(body), encoding="utf-8")
    os.replace(temporary, path)  # what editors do: the file is replaced, not rewritten


async def _until(check: Callable[[], Any]) -> Any:
    """Poll ``check`` until it returns something truthy (the caller bounds the wait)."""
    while not (value := await check()):
        await anyio.sleep(0.1)
    return value


class Changes:
    """Counts ``notifications/tools/list_changed`` from the hub."""

    def __init__(self) -> None:
        self.tools_changed = 0

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.tools_changed += 1


async def test_added_removed_changed_and_renamed_servers_apply_while_a_client_keeps_working(
    tmp_path: Path,
) -> None:
    config, store = tmp_path / "ctxhub.yaml", tmp_path / "store"
    _write(config, {"fx": fixture_server("fx")}, store)
    changes = Changes()
    with anyio.fail_after(90):
        async with hub_client(config, message_handler=changes) as client:

            async def names() -> set[str]:
                return {tool.name for tool in (await client.list_tools()).tools}

            assert "fx__echo" in await names()
            pid = text_of(await client.call_tool("fx__pid", {}))
            # add a server: its tools appear, fx keeps its process
            _write(config, {"fx": fixture_server("fx"), "time": TIME}, store)
            await _until(lambda: _has(client, "time__get_current_time"))
            assert changes.tools_changed >= 1  # the client was told, not left to poll
            assert text_of(await client.call_tool("fx__pid", {})) == pid
            # change fx's settings that decide its process: it restarts, time keeps answering
            _write(config, {"fx": fixture_server("fx", env={"RELOADED": "1"}), "time": TIME}, store)

            async def restarted() -> bool:
                result = await client.call_tool("fx__env", {"name": "RELOADED"})
                return not result.is_error and text_of(result) == "1"

            await _until(restarted)
            assert text_of(await client.call_tool("fx__pid", {})) != pid
            now = await client.call_tool("time__get_current_time", {"timezone": "UTC"})
            assert not now.is_error
            # a broken edit keeps the running config and says so in hub_status
            config.write_text("servers: [not, a, mapping\n", encoding="utf-8")

            async def reported() -> str:
                status = text_of(await client.call_tool("hub_status", {}))
                return status if "NOT applied" in status else ""

            status = await _until(reported)
            assert str(config) in status
            assert "time__get_current_time" in await names()
            # remove time and rename fx to fy: fx's tools go, fy's come
            _write(config, {"fy": fixture_server("fy")}, store)
            await _until(lambda: _has(client, "fy__echo"))
            listed = await names()
            assert "fx__echo" not in listed and "time__get_current_time" not in listed
            assert text_of(await client.call_tool("fy__echo", {"text": "renamed"})) == "renamed"
            assert "NOT applied" not in text_of(await client.call_tool("hub_status", {}))


async def _has(client: Any, name: str) -> bool:
    return name in {tool.name for tool in (await client.list_tools()).tools}


def test_a_reload_plan_restarts_only_servers_whose_connection_changed(tmp_path: Path) -> None:
    def config(**servers: Any) -> Any:
        return parse_config({"servers": servers}, source="test.yaml")

    old = config(a={"command": "x"}, b={"command": "y"}, c={"command": "z"})
    new = config(a={"command": "x", "timeout": 5}, b={"command": "y2"}, d={"command": "w"})
    changes = plan(old, new)
    assert changes.added == ("d",) and changes.removed == ("c",)
    assert changes.restarted == ("b",) and changes.updated == ("a",)
    assert changes.describe() == "start d; stop c; restart b; update a"


def test_check_previews_what_a_serving_hub_would_reload(tmp_path: Path) -> None:
    from hub.reload import preview, record_running

    store = {"path": str(tmp_path / "store")}
    running = parse_config({"servers": {"a": {"command": "x"}}, "store": store}, source="a.yaml")
    assert preview(running) is None  # no hub has served from this store yet
    record_running(running)
    edited = parse_config({"servers": {"b": {"command": "y"}}, "store": store}, source="a.yaml")
    assert preview(edited) == "start b; stop a"
    assert preview(running) == "nothing changes"


class _Service:
    """What ``watch_config`` needs of a hub: its reload and the error it shows."""

    def __init__(self) -> None:
        self.reload_error: str | None = None
        self.applied: list[tuple[str, ...]] = []

    async def reload(self, config: Any) -> Any:
        self.applied.append(tuple(config.active_servers()))
        return plan(config, config)


async def test_a_config_caught_half_written_is_not_applied(tmp_path: Path) -> None:
    # Found by the reload test above failing in CI: writing a config in place (``write_text``,
    # ``cat >``, editors that do not replace the file) truncates it first, and a poll that caught
    # it empty applied "no servers", stopping every one. A file is now applied once it has stayed
    # the same for one poll. The polls are stepped by hand: no sleeps, no timing.
    from hub.reload import watch_config

    config, store = tmp_path / "ctxhub.yaml", tmp_path / "store"
    _write(config, {"fx": fixture_server("fx")}, store)
    tick_send, tick_receive = anyio.create_memory_object_stream[None]()
    idle_send, idle_receive = anyio.create_memory_object_stream[None]()
    service = _Service()

    async def poll(_: float) -> None:
        await idle_send.send(None)  # the last poll is done
        await tick_receive.receive()

    async def step() -> None:
        await tick_send.send(None)
        await idle_receive.receive()

    with anyio.fail_after(10), tick_send, tick_receive, idle_send, idle_receive:
        async with anyio.create_task_group() as group:
            group.start_soon(lambda: watch_config(service, config, interval=0.1, sleep=poll))
            await idle_receive.receive()  # watching, from the file as it is
            config.write_text("", encoding="utf-8")  # truncated: the writer has not written yet
            await step()
            body = {"servers": {"fx": fixture_server("fx"), "time": TIME}, "store": {"path": str(store)}}
            config.write_text(yaml.safe_dump(body), encoding="utf-8")
            await step()
            await step()  # the file has not changed since the last poll: applied
            # a writer that truncated the file and stopped: an empty file is never applied
            config.write_text("", encoding="utf-8")
            await step()
            await step()
            group.cancel_scope.cancel()
    assert service.applied == [("fx", "time")]
    assert service.reload_error is not None and "is empty" in service.reload_error
