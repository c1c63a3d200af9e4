"""HTTP hardening: guessable tokens refused for a public bind; a connection cap per transport, 503 past it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from hub.errors import ConfigError
from hub.serve.http_limits import RepeatFilter, raise_fd_limit
from hub.serve.http_security import require_token_for
from tests.conftest import REPO, fixture_server, text_of, write_config
from tests.reliability.harness import http_hub

pytestmark = pytest.mark.anyio
MAKE_TOKEN = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"


@pytest.mark.parametrize(
    ("token", "why"),
    [
        pytest.param("aaaaaaaaaaaaaaaa", "1 distinct characters", id="one-char"),
        pytest.param("passwordpassword", "7 distinct characters", id="a-word-twice"),
        pytest.param("abababababababababababababababab", "2 distinct characters", id="pattern"),
    ],
)
def test_guessable_tokens_are_refused_for_a_public_bind(token: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as refused:
        require_token_for("0.0.0.0", token)
    assert MAKE_TOKEN in str(refused.value)
    require_token_for("127.0.0.1", token)  # loopback: only the length rule applies


@pytest.mark.parametrize(
    "token",
    [
        pytest.param("vMZ9ndFjAgP4i9mcGtIOpZry3kuC98Ev6rntxZEn1ws", id="token-urlsafe-32"),
        pytest.param("4c77715b1c06b2d93210ec4872ad58d9", id="token-hex-16"),
        pytest.param("Zx81kQp0LmN4vB7c", id="random-16"),
    ],
)
def test_random_tokens_pass(token: str) -> None:
    require_token_for("0.0.0.0", token)


def test_ctxhub_serve_refuses_a_weak_token_on_all_interfaces_before_binding(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"servers: {{}}\nstore: {{path: {tmp_path / 'store'}}}\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "CTXHUB_TOKEN": "aaaaaaaaaaaaaaaa"}
    command = [sys.executable, "-m", "hub.cli", "serve", "--transport", "http", "--host", "0.0.0.0"]
    done = subprocess.run(
        [*command, "--port", "0", "--config", str(config)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ctxhub: the bearer token is too easy to guess for binding 0.0.0.0" in done.stderr
    assert MAKE_TOKEN in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- connection cap

CAP = 3


async def _open_sse(host: str, port: int) -> tuple[anyio.abc.SocketStream, bytes]:
    """A raw ``GET /sse`` left open; returns the stream and what arrived up to the end of the headers."""
    stream = await anyio.connect_tcp(host, port)
    request = f"GET /sse HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
    await stream.send(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await stream.receive()
    if head.startswith(b"HTTP/1.1 503"):
        while b"max_connections" not in head:  # the body follows the headers
            head += await stream.receive()
    return stream, head


async def test_idle_sse_connections_past_the_cap_get_503_and_other_clients_are_served(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, {"a": fixture_server("a")}, http={"max_connections": CAP})
    with anyio.fail_after(90):
        async with http_hub(config) as (base, _hub), AsyncExitStack() as stack:
            address = urlsplit(base)
            host, port = address.hostname, address.port
            assert host is not None and port is not None
            statuses = []
            for _ in range(CAP + 5):
                stream, head = await _open_sse(host, port)
                stack.push_async_callback(stream.aclose)
                statuses.append(head.split(b" ", 2)[1].decode())
                if head.startswith(b"HTTP/1.1 503"):
                    assert b"retry-after: 5" in head.lower()
                    assert b"raise http.max_connections in config.yaml" in head
            assert statuses == ["200"] * CAP + ["503"] * 5
            async with (
                httpx2.AsyncClient(timeout=httpx2.Timeout(20)) as client,
                streamable_http_client(f"{base}/mcp", http_client=client) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = {tool.name for tool in (await session.list_tools()).tools}
                assert "a__echo" in tools
                assert text_of(await session.call_tool("a__echo", {"text": "still served"})) == "still served"
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(20)) as client:
                assert (await client.get(f"{base}/healthz")).status_code == 200


def test_a_repeated_log_message_passes_once_per_interval_with_a_count() -> None:
    now = [0.0]
    quieter = RepeatFilter(interval=10.0, clock=lambda: now[0])

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, None, None)

    passed = [quieter.filter(record("socket.accept() out of system resource")) for _ in range(5000)]
    assert passed.count(True) == 1
    assert quieter.filter(record("another message"))
    now[0] = 10.0
    summary = record("socket.accept() out of system resource")
    assert quieter.filter(summary)
    assert "4999 more like it in the last 10 s not logged" in summary.getMessage()


def test_the_soft_fd_limit_is_raised_to_the_hard_limit() -> None:
    import resource

    code = (
        "import resource\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))\n"
        "from hub.serve.http_limits import raise_fd_limit\n"
        "print(raise_fd_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0], hard)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True, timeout=60
    )
    raised, soft, hard = done.stdout.split()
    assert raised == soft
    if hard != str(resource.RLIM_INFINITY):
        assert soft == hard
    assert raise_fd_limit() is not None
