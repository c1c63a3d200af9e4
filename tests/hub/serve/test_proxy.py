"""The proxied MCP surface end to end: an SDK client → ``ctxhub serve`` (stdio) → two conformance fixtures.

``conf`` is namespaced; ``pass`` is ``passthrough`` (its tools and prompts keep their names). Both list
the same resources and template, so ``conf`` (first in the config) keeps the URIs and ``pass``'s are
exposed as ``ctxhub://pass/<uri>``.

The tests share one hub and one client session that declares sampling, elicitation and roots and
hands logs and notifications to the running test (a hub and its two servers cost ~5 s of CPU to
start); the client without those capabilities has a hub of its own.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import ClientSession
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError

from tests.conftest import REPO, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

CONFORMANCE = REPO / "tests" / "fixtures" / "conformance_server.py"
TEMPLATE = "test://template/{id}/data"


def proxy_config(directory: Path) -> Path:
    def server(name: str, **options: Any) -> dict[str, Any]:
        return {"command": sys.executable, "args": [str(CONFORMANCE), "--name", name], **options}

    servers = {"conf": server("conf"), "pass": server("pass", passthrough=True)}
    # No result cache: the same call made twice must reach the server twice (and log twice).
    return write_config(directory, servers, cache={"enabled": False})


@dataclass
class Shared:
    """The shared session, and what its client callbacks hand to the running test."""

    session: ClientSession
    asked: list[Any] = field(default_factory=list)  # sampling and elicitation requests, in order
    on_log: Callable[[types.LoggingMessageNotificationParams], Awaitable[None]] | None = None
    on_message: Callable[[Any], Awaitable[None]] | None = None


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``shared`` lives across the module's tests


@pytest.fixture(scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    holder: list[Shared] = []

    async def sampling(
        context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        holder[0].asked.append(params)
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(text="forty-two"), model="test-model"
        )

    async def elicitation(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        holder[0].asked.append(params)
        return types.ElicitResult(action="accept", content={"username": "ada", "email": "ada@example.com"})

    async def roots(context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri="file:///work/project", name="project")])

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        if holder[0].on_log is not None:
            await holder[0].on_log(params)

    async def on_message(message: Any) -> None:
        if holder[0].on_message is not None:
            await holder[0].on_message(message)

    async with hub_client(
        proxy_config(tmp_path_factory.mktemp("proxy")),
        sampling_callback=sampling,
        elicitation_callback=elicitation,
        list_roots_callback=roots,
        logging_callback=on_log,
        message_handler=on_message,
    ) as session:
        holder.append(Shared(session))
        yield holder[0]
        holder[0].on_log = holder[0].on_message = None


async def test_resources_and_templates_are_listed_under_routable_uris_and_read_back(shared: Shared) -> None:
    session = shared.session
    with anyio.fail_after(30):
        resources = {str(r.uri): r for r in (await session.list_resources()).resources}
        templates = [t.uri_template for t in (await session.list_resource_templates()).resource_templates]
        text = await session.read_resource("test://static-text")
        wrapped = await session.read_resource("ctxhub://pass/test://static-text")
        binary = await session.read_resource("test://static-binary")
        from_template = await session.read_resource("test://template/42/data")
        from_wrapped_template = await session.read_resource("ctxhub://pass/test://template/7/data")
        with pytest.raises(MCPError, match="Unknown resource|not found"):
            await session.read_resource("test://no-such-resource")
    assert set(resources) == {
        "test://static-text",
        "test://static-binary",
        "test://watched-resource",
        "ctxhub://pass/test://static-text",
        "ctxhub://pass/test://static-binary",
        "ctxhub://pass/test://watched-resource",
    }
    assert (resources["test://static-text"].meta or {})["ctxhub/server"] == "conf"
    assert (resources["ctxhub://pass/test://static-text"].meta or {})["ctxhub/server"] == "pass"
    assert templates == [TEMPLATE, f"ctxhub://pass/{TEMPLATE}"]
    content = text.contents[0]
    assert isinstance(content, types.TextResourceContents)
    assert content.text == "This is the content of the static text resource."
    assert wrapped.contents[0].uri == "ctxhub://pass/test://static-text"
    assert isinstance(binary.contents[0], types.BlobResourceContents)
    assert binary.contents[0].mime_type == "image/png"
    assert '"id": "42"' in getattr(from_template.contents[0], "text", "")
    assert '"id": "7"' in getattr(from_wrapped_template.contents[0], "text", "")
    assert from_wrapped_template.contents[0].uri == "ctxhub://pass/test://template/7/data"


async def test_prompts_are_named_like_tools_fetched_with_arguments_and_completions_are_routed(
    shared: Shared,
) -> None:
    session = shared.session
    with anyio.fail_after(30):
        prompts = {p.name: p for p in (await session.list_prompts()).prompts}
        tools = {tool.name for tool in (await session.list_tools()).tools}
        with_args = await session.get_prompt("conf__test_prompt_with_arguments", {"arg1": "a1", "arg2": "b2"})
        image = await session.get_prompt("test_prompt_with_image")
        by_prompt = await session.complete(
            types.PromptReference(name="conf__test_prompt_with_arguments"),
            {"name": "arg1", "value": "pa"},
        )
        by_template = await session.complete(
            types.ResourceTemplateReference(uri=f"ctxhub://pass/{TEMPLATE}"),
            {"name": "id", "value": "12"},
        )
        with pytest.raises(MCPError, match="no prompt named 'nope'"):
            await session.get_prompt("nope")
    assert {"conf__test_simple_prompt", "conf__test_prompt_with_arguments", "test_simple_prompt"} <= set(
        prompts
    )
    assert [a.name for a in prompts["conf__test_prompt_with_arguments"].arguments or []] == ["arg1", "arg2"]
    assert {"conf__test_simple_text", "test_simple_text"} <= tools
    message = with_args.messages[0].content
    assert isinstance(message, types.TextContent)
    assert message.text == "Prompt with arguments: arg1='a1', arg2='b2'"
    assert isinstance(image.messages[0].content, types.ImageContent)
    assert by_prompt.completion.values == ["paris", "park", "party"]
    assert by_template.completion.values == ["123", "124"]


async def test_log_messages_reach_the_caller_at_the_level_it_set_with_the_server_in_the_logger(
    shared: Shared,
) -> None:
    received: list[types.LoggingMessageNotificationParams] = []
    three = anyio.Event()

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)
        if len(received) == 3:
            three.set()

    async def set_level(session: Any, level: types.LoggingLevel) -> None:
        request = types.SetLevelRequest(params=types.SetLevelRequestParams(level=level))
        await session.send_request(request, types.EmptyResult)

    session = shared.session
    shared.on_log = on_log
    with anyio.fail_after(30):
        assert session.initialize_result.capabilities.logging is not None
        await set_level(session, "warning")
        await session.call_tool("conf__test_tool_with_logging", {})
        await set_level(session, "debug")
        await session.call_tool("conf__test_tool_with_logging", {})
        await three.wait()
    assert [(p.level, p.logger, p.data) for p in received] == [
        ("info", "conf", "Tool execution started"),
        ("info", "conf", "Tool processing data"),
        ("info", "conf", "Tool execution completed"),
    ]


async def test_sampling_elicitation_and_roots_are_relayed_to_the_calling_client(shared: Shared) -> None:
    session, asked = shared.session, shared.asked  # the shared client's callbacks (``shared``)
    asked.clear()
    with anyio.fail_after(30):
        sampled = await session.call_tool("test_sampling", {"prompt": "the answer?"})
        elicited = await session.call_tool("conf__test_elicitation", {"message": "who are you?"})
        enums = await session.call_tool("test_elicitation_sep1330_enums", {})
        listed = await session.call_tool("conf__test_roots", {})
    assert text_of(sampled) == "LLM response: forty-two"
    assert (
        text_of(elicited)
        == 'User response: action=accept, content={"username": "ada", "email": "ada@example.com"}'
    )
    assert text_of(listed) == "Roots: file:///work/project"
    assert isinstance(asked[0], types.CreateMessageRequestParams)
    assert asked[0].max_tokens == 100
    assert asked[1].message == "who are you?"
    legacy = asked[2].requested_schema["properties"]["legacyEnum"]  # relayed verbatim, extra keywords too
    assert legacy["enumNames"] == ["Option One", "Option Two", "Option Three"]
    assert "action=accept" in text_of(enums)


async def test_a_client_without_the_capability_gets_a_clear_error(tmp_path: Path) -> None:
    with anyio.fail_after(30):
        async with hub_client(proxy_config(tmp_path)) as session:
            sampled = await session.call_tool("test_sampling", {"prompt": "the answer?"})
            elicited = await session.call_tool("conf__test_elicitation", {"message": "who are you?"})
    assert "Sampling not supported or error" in text_of(sampled)
    assert "does not support sampling" in text_of(sampled)
    assert "use a client that declares the 'sampling' capability" in text_of(sampled)
    assert "does not support elicitation" in text_of(elicited)


async def test_subscribers_get_resource_updates_until_they_unsubscribe(shared: Shared) -> None:
    updates: list[str] = []
    updated = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(message.params.uri)
            updated.set()

    watched = "ctxhub://pass/test://watched-resource"
    session = shared.session
    shared.on_message = on_message
    with anyio.fail_after(30):
        assert session.initialize_result.capabilities.resources.subscribe is True
        subscribe = types.SubscribeRequest(params=types.SubscribeRequestParams(uri=watched))
        await session.send_request(subscribe, types.EmptyResult)
        sent = await session.call_tool("test_notify_resource", {"uri": "test://watched-resource"})
        await updated.wait()
        unsubscribe = types.UnsubscribeRequest(params=types.UnsubscribeRequestParams(uri=watched))
        await session.send_request(unsubscribe, types.EmptyResult)
        after = await session.call_tool("test_notify_resource", {"uri": "test://watched-resource"})
    assert text_of(sent) == "updated: test://watched-resource"
    assert updates == [watched]
    assert text_of(after) == "not subscribed: test://watched-resource"
