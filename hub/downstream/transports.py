"""Opening one downstream's transport: stdio (spawned now, or started early), SSE or streamable HTTP.

Contract: ``open_transport(server, errlog=..., child=...)`` is an async context manager yielding
the SDK's ``(read, write)`` stream pair for ``server``'s kind; ``child`` (stdio only) is a
process ``hub.downstream.spawn`` started before the event loop, used instead of spawning one. Leaving the
context closes the connection (and stops a stdio server, see ``hub.downstream.stdio_client``). ``EofWatch``
wraps a read stream and sets an event when the server side ends it, which is how a supervisor
learns that its server went away.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from hub.config import ServerConfig
from hub.downstream.spawn import Child, server_environment
from hub.downstream.stdio_client import stdio_transport

MAX_REMOTE_EVENT = 256 * 2**20


@asynccontextmanager
async def open_transport(
    server: ServerConfig, *, errlog: Any, child: Child | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    if server.kind == "stdio":
        assert server.command is not None
        async with stdio_transport(
            server.command,
            list(server.args),
            env=server_environment(server),  # children inherit the hub's environment
            cwd=server.cwd,
            errlog=errlog,
            child=child,
        ) as streams:
            yield streams[0], streams[1]
    elif server.kind == "sse":
        assert server.url is not None
        async with sse_client(
            server.url,
            headers=dict(server.headers),
            timeout=server.timeout,
            sse_read_timeout=max(300.0, server.timeout),
        ) as streams:
            yield streams[0], streams[1]
    else:
        assert server.url is not None
        timeout = httpx2.Timeout(30.0, read=max(300.0, server.timeout))
        async with (
            httpx2.AsyncClient(headers=dict(server.headers), timeout=timeout) as client,
            streamable_http_client(
                server.url, http_client=client, max_sse_event_size=MAX_REMOTE_EVENT
            ) as streams,
        ):
            yield streams[0], streams[1]


class EofWatch:
    """Wraps a transport read stream and sets ``eof`` when the server side closes it."""

    def __init__(self, inner: Any, eof: anyio.Event) -> None:
        self._inner, self._eof = inner, eof

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._eof.set()
            raise

    def __aiter__(self) -> EofWatch:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> EofWatch:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
