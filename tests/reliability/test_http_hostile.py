"""Hostile HTTP clients against a real ``ctxhub serve --transport http --token …`` on loopback.

Pass criterion: every bad request gets its 4xx answer (401 token, 421 Host, 403 Origin, 413 body,
400 malformed) and never a 5xx; slow clients (headers or bodies trickling in, SSE streams never
read) do not stop other clients from being served; the hub still answers MCP calls afterwards
and stops cleanly on SIGTERM with those connections open.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import anyio
import anyio.abc
import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import text_of, write_config
from tests.reliability.harness import INITIALIZE, fault_server, http_hub

pytestmark = pytest.mark.anyio

TOKEN = "reliability-token-0123456789abcdef"
JSON = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
LIMIT = 4 * 2**20  # the hub's default body limit


@pytest.fixture(scope="module")
async def hub(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    directory = tmp_path_factory.mktemp("http")
    config = write_config(directory, {"f": fault_server("f")})
    async with http_hub(config, "--token", TOKEN) as (base, _):
        yield base


@asynccontextmanager
async def mcp_session(base: str, token: str = TOKEN) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(20)
        ) as client,
        streamable_http_client(f"{base}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def bearer(value: str) -> dict[str, str]:
    return {**JSON, "authorization": value}


OK = bearer(f"Bearer {TOKEN}")
REQUESTS = [
    pytest.param({}, 401, id="no-token"),
    pytest.param(bearer("Bearer"), 401, id="scheme-only"),
    pytest.param(bearer("Bearer wrong-token-0123456789abcdef"), 401, id="wrong-token"),
    pytest.param(bearer(f"Bearer {TOKEN}x"), 401, id="token-plus-one"),
    pytest.param(bearer(f"Bearer {TOKEN[:-1]}"), 401, id="token-minus-one"),
    pytest.param(bearer(f"Basic {base64.b64encode(TOKEN.encode()).decode()}"), 401, id="basic-scheme"),
    pytest.param(bearer(f"Token {TOKEN}"), 401, id="other-scheme"),
    pytest.param(bearer("Bearer " + "t" * 10_000), 401, id="10k-token"),
    pytest.param(bearer(f"bearer {TOKEN}"), 200, id="lower-case-scheme"),
    pytest.param({**OK, "host": "evil.example"}, 421, id="foreign-host"),
    pytest.param({**OK, "host": "127.0.0.1.evil.example"}, 421, id="suffixed-host"),
    pytest.param({**OK, "host": "localhost.evil"}, 421, id="localhost-prefix"),
    pytest.param({**OK, "host": "evil@127.0.0.1"}, 421, id="userinfo-host"),
    pytest.param({**OK, "host": "localhost."}, 421, id="trailing-dot"),  # the SDK's own check refuses it
    pytest.param({**OK, "origin": "https://evil.example"}, 403, id="foreign-origin"),
    pytest.param({**OK, "origin": "null"}, 403, id="null-origin"),
    pytest.param({**OK, "origin": "file://"}, 403, id="file-origin"),
    pytest.param({**OK, "origin": "http://localhost@evil.example"}, 403, id="userinfo-origin"),
    pytest.param({**OK, "origin": "http://127.0.0.1.evil.example"}, 403, id="suffix-origin"),
    pytest.param({**OK, "origin": "javascript:alert(1)"}, 403, id="script-origin"),
    pytest.param({**OK, "origin": "http://[::1]:3000"}, 200, id="ipv6-loopback-origin"),
]


@pytest.mark.parametrize(("headers", "status"), REQUESTS)
async def test_token_host_and_origin_checks_answer_with_the_right_status(
    hub: str, headers: dict[str, str], status: int
) -> None:
    with anyio.fail_after(10):
        async with httpx.AsyncClient(base_url=hub) as raw:
            response = await raw.post("/mcp", json=INITIALIZE, headers=headers or JSON)
    assert response.status_code == status, response.text


INITIALIZE_BYTES = json.dumps(INITIALIZE).encode()
BODIES = [
    pytest.param(b"x" * (LIMIT + 1), {}, 413, id="declared-oversized"),
    pytest.param(None, {}, 413, id="streamed-oversized"),
    pytest.param(b"not json at all", {}, 400, id="not-json"),
    pytest.param(b"[1, 2, 3]", {}, 400, id="not-json-rpc"),
    pytest.param(b'{"jsonrpc": "2.0", "id": 1, "method": ' + b"[" * 10_000, {}, 400, id="deep-and-torn"),
    pytest.param(
        json.dumps(INITIALIZE).encode(), {"content-type": "text/plain"}, 400, id="wrong-content-type"
    ),
    pytest.param(json.dumps(INITIALIZE).encode(), {"accept": "text/html"}, 406, id="wrong-accept"),
]


@pytest.mark.parametrize(("body", "extra", "status"), BODIES)
async def test_bad_bodies_get_a_4xx_answer(
    hub: str, body: bytes | None, extra: dict[str, str], status: int
) -> None:
    async def streamed() -> AsyncIterator[bytes]:
        for _ in range(LIMIT // 65536 + 2):
            yield b"y" * 65536

    headers = {**OK, **extra}
    with anyio.fail_after(20):
        async with httpx.AsyncClient(base_url=hub) as raw:
            response = await raw.post("/mcp", content=streamed() if body is None else body, headers=headers)
    assert response.status_code == status, response.text


@pytest.mark.parametrize(
    "request_head",
    [
        pytest.param(b"Content-Length: abc\r\n", id="length-not-a-number"),
        pytest.param(b"Content-Length: -5\r\n", id="negative-length"),
        pytest.param(b"Content-Length: 2\r\nContent-Length: 9\r\n", id="two-lengths"),
        pytest.param(b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", id="length-and-chunked"),
        pytest.param(b"X-Bad\xff: \x00\x01\r\n", id="binary-header"),
        pytest.param(b"X-Long: " + b"h" * 70_000 + b"\r\n", id="70k-header"),
    ],
)
async def test_malformed_http_framing_gets_a_4xx_and_no_crash(hub: str, request_head: bytes) -> None:
    with anyio.fail_after(10):
        async with await open_socket(hub) as sock:
            await sock.send(head("/mcp")[:-2] + request_head + b"\r\n{}\r\n")
            answer = b""
            with anyio.move_on_after(5):
                while b"\r\n" not in answer:
                    try:
                        answer += await sock.receive()
                    except anyio.EndOfStream:
                        break
        async with mcp_session(hub) as session:
            assert not (await session.call_tool("f__echo", {"text": "after framing"})).is_error
    status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    assert 400 <= status < 500, answer[:200]


async def open_socket(base: str) -> anyio.abc.SocketStream:
    host, port = base.removeprefix("http://").split(":")
    return await anyio.connect_tcp(host, int(port))


def head(path: str, *, method: str = "POST", length: int | None = None, token: str = TOKEN) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Bearer {token}"]
    lines += [f"{name}: {value}" for name, value in JSON.items()]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def test_slow_and_stalled_clients_do_not_block_others(hub: str) -> None:
    stalled: list[anyio.abc.SocketStream] = []
    with anyio.fail_after(60):
        async with AsyncExitStack() as stack:
            for number in range(30):  # headers that never finish (slowloris)
                sock = await stack.enter_async_context(await open_socket(hub))
                await sock.send(head("/mcp")[: 20 + number])
                stalled.append(sock)
            for _ in range(30):  # a body that never finishes
                sock = await stack.enter_async_context(await open_socket(hub))
                await sock.send(head("/mcp", length=1000) + b'{"jsonrpc"')
                stalled.append(sock)
            for _ in range(10):  # SSE streams opened and never read
                sock = await stack.enter_async_context(await open_socket(hub))
                await sock.send(head("/sse", method="GET"))
                stalled.append(sock)
            started = time.monotonic()
            async with mcp_session(hub) as session:
                echoed = await session.call_tool("f__echo", {"text": "past the stalled clients"})
            served_in = time.monotonic() - started
            trickled = await trickle(hub, json.dumps(INITIALIZE).encode(), pause=0.02)
            async with httpx.AsyncClient(base_url=hub) as raw:
                healthy = await raw.get("/healthz")
    assert text_of(echoed) == "f:past the stalled clients"
    assert served_in < 10, served_in
    assert trickled.startswith(b"HTTP/1.1 200"), trickled[:200]
    assert healthy.status_code == 200


async def trickle(base: str, body: bytes, *, pause: float) -> bytes:
    """A request whose body arrives a few bytes at a time; returns the start of the answer."""
    async with await open_socket(base) as sock:
        await sock.send(head("/mcp", length=len(body)))
        for start in range(0, len(body), 16):
            await sock.send(body[start : start + 16])
            await anyio.sleep(pause)  # the point of the test: a slow sender
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += await sock.receive()
        return answer


async def test_the_hub_still_serves_and_stops_cleanly_with_clients_hanging(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"f": fault_server("f")})
    with anyio.fail_after(60):
        async with http_hub(config, "--token", TOKEN) as (base, process), AsyncExitStack() as stack:
            for _ in range(5):
                sock = await stack.enter_async_context(await open_socket(base))
                await sock.send(head("/sse", method="GET"))
            sock = await stack.enter_async_context(await open_socket(base))
            await sock.send(head("/mcp", length=500) + b"{")
            async with mcp_session(base) as session:
                assert not (await session.call_tool("f__echo", {"text": "x"})).is_error
            stopping = time.monotonic()
            process.terminate()
            assert await process.wait() == 0
            stopped_in = time.monotonic() - stopping
    assert stopped_in < 4, (
        stopped_in
    )  # under uvicorn's 5 s grace: stalled requests were ended, not waited for
