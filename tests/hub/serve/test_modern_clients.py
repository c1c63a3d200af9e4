"""2026-07-28 clients through the hub: ``mcp.Client`` (mode "auto") → ``ctxhub serve`` → fixture servers.

A 2026-07-28 client gets change notifications only on a ``subscriptions/listen`` stream it opens;
a handshake-era ``ClientSession`` keeps getting them on its connection, once per change. Both are
checked over stdio and, side by side on one hub, over streamable HTTP.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any

import anyio
import httpx2
import mcp.types as types
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import ResourceUpdated, Subscription, ToolsListChanged
from mcp.server import Server
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ServerEvent

from hub.serve.listen import Listen
from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config
from tests.hub.serve.test_http import running_hub

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
CONFORMANCE = REPO / "tests" / "fixtures" / "conformance_server.py"
WATCHED = "ctxhub://pass/test://watched-resource"


@pytest.fixture
def devnull() -> Iterator[IO[str]]:
    with open(os.devnull, "w") as file:
        yield file


def hub_params(config: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "hub.cli", "serve", "--config", str(config)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=str(REPO),
    )


@asynccontextmanager
async def modern_client(server: Any, **options: Any) -> AsyncIterator[Client]:
    async with Client(server, **options) as client:
        assert client.protocol_version == MODERN
        yield client


async def next_event(subscription: Subscription) -> ServerEvent:
    with anyio.fail_after(10):
        return await subscription.__anext__()


class ToolChanges:
    """A ``ClientSession`` message handler counting ``notifications/tools/list_changed``."""

    def __init__(self) -> None:
        self.count = 0
        self._arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.count += 1
            self._arrived.set()

    async def wait(self) -> None:
        with anyio.fail_after(10):
            await self._arrived.wait()
        self._arrived = anyio.Event()


async def test_a_modern_client_hears_of_a_new_tool_on_its_listen_stream_and_calls_it(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    with anyio.fail_after(30):
        async with modern_client(hub_params(config)) as client:
            tools = client.server_capabilities.tools
            assert tools is not None and tools.list_changed is True
            before = {tool.name for tool in (await client.list_tools()).tools}
            slow = await client.call_tool(
                "fx__slow", {"seconds": 0.1, "steps": 3}, progress_callback=on_progress
            )
            async with client.listen(tools_list_changed=True) as subscription:
                assert subscription.honored.tools_list_changed is True
                added = await client.call_tool("fx__add_tool", {})
                assert await next_event(subscription) == ToolsListChanged()
                after = {tool.name for tool in (await client.list_tools()).tools}
                dynamic = await client.call_tool("fx__dynamic_1", {})
    assert text_of(added) == "dynamic_1"
    assert "fx__dynamic_1" not in before
    assert after - before == {"fx__dynamic_1"}
    assert text_of(dynamic) == "dynamic 1"
    assert text_of(slow) == "slept 0.1 s in 3 steps"
    assert [value for value, _, _ in progress] == [1, 2, 3]


async def test_a_handshake_client_gets_one_tools_list_changed_per_change_and_cannot_listen(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    changes = ToolChanges()
    with anyio.fail_after(30):
        async with hub_client(config, message_handler=changes) as session:
            await session.list_tools()  # a listing client is one the hub notifies
            for _ in range(2):
                await session.call_tool("fx__add_tool", {})
                await changes.wait()
            listed = {tool.name for tool in (await session.list_tools()).tools}
            listen = types.SubscriptionsListenRequest(
                params=types.SubscriptionsListenRequestParams(
                    notifications=types.SubscriptionFilter(tools_list_changed=True)
                )
            )
            with pytest.raises(MCPError) as refused:
                await session.send_request(listen, types.SubscriptionsListenResult)
            await session.send_ping()  # every notification sent before this answer has arrived
    assert changes.count == 2
    assert {"fx__dynamic_1", "fx__dynamic_2"} <= listed
    assert refused.value.code == types.METHOD_NOT_FOUND


async def test_a_modern_client_reads_prompts_and_resources_and_gets_updates_while_it_listens(
    tmp_path: Path,
) -> None:
    def server(name: str, **options: Any) -> dict[str, Any]:
        return {"command": sys.executable, "args": [str(CONFORMANCE), "--name", name], **options}

    servers = {"conf": server("conf"), "pass": server("pass", passthrough=True)}
    config = write_config(tmp_path, servers, cache={"enabled": False})
    notify = {"uri": "test://watched-resource"}  # ``test_notify_resource`` is the passthrough server's
    with anyio.fail_after(30):
        async with modern_client(hub_params(config)) as client:
            resources = {str(resource.uri) for resource in (await client.list_resources()).resources}
            text = await client.read_resource("test://static-text")
            prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
            prompt = await client.get_prompt("conf__test_simple_prompt")
            async with client.listen(
                resource_subscriptions=[WATCHED, "nothing://here"], prompts_list_changed=True
            ) as subscription:
                honored = subscription.honored
                sent = await client.call_tool("test_notify_resource", notify)
                updated = await next_event(subscription)
            with anyio.fail_after(10):  # the stream's end unsubscribes downstream (the hub sees it later)
                while text_of(after := await client.call_tool("test_notify_resource", notify)) != (
                    "not subscribed: test://watched-resource"
                ):
                    pass
    assert WATCHED in resources
    content = text.contents[0]
    assert isinstance(content, types.TextResourceContents)
    assert content.text == "This is the content of the static text resource."
    assert "conf__test_simple_prompt" in prompts
    assert isinstance(prompt.messages[0].content, types.TextContent)
    assert honored.resource_subscriptions is not None and WATCHED in honored.resource_subscriptions
    assert honored.prompts_list_changed is True
    assert text_of(sent) == "updated: test://watched-resource"
    assert updated == ResourceUpdated(uri=WATCHED)
    assert text_of(after) == "not subscribed: test://watched-resource"


async def test_over_streamable_http_each_era_gets_each_tool_change_once(
    tmp_path: Path, devnull: IO[str]
) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    changes = ToolChanges()
    with anyio.fail_after(30):
        async with (
            running_hub(config, devnull) as hub,
            httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300)) as http,
            streamable_http_client(f"{hub.base}/mcp", http_client=http) as (read, write),
            ClientSession(read, write, message_handler=changes) as legacy,
        ):
            await legacy.initialize()
            await legacy.list_tools()
            async with (
                modern_client(f"{hub.base}/mcp") as client,
                client.listen(tools_list_changed=True) as subscription,
            ):
                added = await client.call_tool("fx__add_tool", {})
                assert await next_event(subscription) == ToolsListChanged()
                await changes.wait()
                names = {tool.name for tool in (await client.list_tools()).tools}
                dynamic = await client.call_tool("fx__dynamic_1", {})
                echoed = await client.call_tool("fx__echo", {"text": "over http"})
            await legacy.send_ping()
    assert text_of(added) == "dynamic_1"
    assert "fx__dynamic_1" in names
    assert text_of(dynamic) == "dynamic 1"
    assert text_of(echoed) == "over http"
    assert changes.count == 1


async def test_a_listen_stream_gets_updates_under_the_uris_the_hub_could_hold_until_it_closes() -> None:
    released = anyio.Event()

    @asynccontextmanager
    async def hold(uris: Sequence[str]) -> AsyncIterator[list[str]]:
        try:
            yield [uri for uri in uris if uri.startswith("held://")]
        finally:
            released.set()

    listen = Listen(hold)
    server: Server[Any] = Server("listen-test", on_subscriptions_listen=listen)
    with anyio.fail_after(10):
        async with (
            modern_client(server) as client,
            client.listen(resource_subscriptions=["held://a/", "refused://b"]) as subscription,
        ):
            for uri in ("held://a/1", "refused://b", "held://other", "held://a/2"):
                await listen.publish(ResourceUpdated(uri=uri))
            await listen.publish(ToolsListChanged())  # not asked for
            first, second = await next_event(subscription), await next_event(subscription)
        await released.wait()
    assert subscription.honored.resource_subscriptions == ["held://a/"]
    assert subscription.honored.tools_list_changed is None
    assert (first, second) == (ResourceUpdated(uri="held://a/1"), ResourceUpdated(uri="held://a/2"))
