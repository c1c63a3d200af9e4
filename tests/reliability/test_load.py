"""Load: concurrent calls fanned out over three downstream servers, over stdio and streamable HTTP.

Pass criterion: every response matches its request (each echo carries its own text back, each
big result its own size), none is lost or duplicated, none is an error, and the hub's own count
of calls agrees.
"""

from __future__ import annotations

import re
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import hub_client, text_of, write_config
from tests.fixtures.fault_server import log_text
from tests.reliability.harness import fault_server, http_hub

pytestmark = pytest.mark.anyio

CALLS = 200
SERVERS = ("a", "b", "c")
HTTP_CLIENTS = 5


def load_config(directory: Path) -> Path:
    return write_config(directory, {name: fault_server(name) for name in SERVERS})


def request(number: int) -> tuple[str, dict[str, Any], str]:
    """Call ``number``: the tool, its arguments and the exact text its answer must carry."""
    server = SERVERS[number % len(SERVERS)]
    text = f"request {number} to {server}"
    return f"{server}__echo", {"text": text, "delay_ms": (number * 7) % 40}, f"{server}:{text}"


async def fan_out(sessions: list[ClientSession], calls: int) -> dict[int, str]:
    """``calls`` concurrent echo calls spread over ``sessions``; returns the answer of each."""
    answers: dict[int, str] = {}

    async def one(number: int) -> None:
        tool, arguments, _ = request(number)
        result = await sessions[number % len(sessions)].call_tool(tool, arguments)
        assert not result.is_error, text_of(result)
        assert number not in answers
        answers[number] = text_of(result)

    async with anyio.create_task_group() as group:
        for number in range(calls):
            group.start_soon(one, number)
    return answers


def check(answers: dict[int, str], calls: int) -> None:
    assert sorted(answers) == list(range(calls))  # none lost, none twice
    wrong = {number: text for number, text in answers.items() if text != request(number)[2]}
    assert not wrong


async def test_200_concurrent_calls_over_stdio_each_get_their_own_answer(tmp_path: Path) -> None:
    with anyio.fail_after(60):
        async with hub_client(load_config(tmp_path)) as session:
            await session.list_tools()
            started = time.monotonic()
            answers = await fan_out([session], CALLS)
            seconds = time.monotonic() - started
            sizes = [0.05 + number / 1000 for number in range(30)]
            bigs: list[Any] = []

            async def big(mb: float) -> None:
                result = await session.call_tool(f"{SERVERS[len(bigs) % 3]}__huge", {"mb": mb})
                bigs.append((mb, result))

            async with anyio.create_task_group() as group:
                for mb in sizes:
                    group.start_soon(big, mb)
            status = text_of(await session.call_tool("hub_status", {}))
    check(answers, CALLS)
    print(f"{CALLS} concurrent calls over stdio: {seconds:.2f} s")  # noqa: T201
    routes = [result.meta["ctxhub/route"] for _, result in bigs]
    assert all(route["mode"] == "summary" for route in routes)
    assert [route["original_bytes"] for route in routes] == [len(log_text(mb).encode()) for mb, _ in bigs]
    assert len({route["ref"] for route in routes}) == len(sizes)  # one ref per payload
    assert re.search(rf"calls {CALLS + len(sizes)} \(", status), status


async def test_200_concurrent_calls_from_5_http_clients_each_get_their_own_answer(tmp_path: Path) -> None:
    with anyio.fail_after(60):
        async with http_hub(load_config(tmp_path)) as (base, _), AsyncExitStack() as stack:
            sessions = []
            for _ in range(HTTP_CLIENTS):
                client = await stack.enter_async_context(httpx2.AsyncClient(timeout=httpx2.Timeout(30)))
                read, write = await stack.enter_async_context(
                    streamable_http_client(f"{base}/mcp", http_client=client)
                )
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                sessions.append(session)
            names = {tool.name for tool in (await sessions[0].list_tools()).tools}
            assert {f"{server}__echo" for server in SERVERS} <= names
            started = time.monotonic()
            answers = await fan_out(sessions, CALLS)
            seconds = time.monotonic() - started
            status = text_of(await sessions[-1].call_tool("hub_status", {}))
    check(answers, CALLS)
    print(f"{CALLS} concurrent calls from {HTTP_CLIENTS} HTTP clients: {seconds:.2f} s")  # noqa: T201
    assert re.search(rf"calls {CALLS} \(", status), status
