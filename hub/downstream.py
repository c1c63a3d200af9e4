"""One supervised client session per downstream MCP server.

Contract: ``Downstream.supervise()`` runs for the life of the hub in its own task. It owns the
transport and ``ClientSession`` contexts (entered and exited in that task, as anyio requires),
initialises with ``ClientSession.initialize()`` (each server negotiates its own version), lists
tools (all pages), then parks until the server's stream ends. A crash, exit or failed start is
recorded and retried with capped exponential backoff (0.5 s doubling to 30 s). Tools stay listed
while a crashed server restarts (calls wait for it) and are dropped if the restart fails; they are
listed again after every reconnect and on ``notifications/tools/list_changed``. ``call()`` never raises
SDK errors: it raises ``DownstreamError`` subclasses with one sentence naming the server, the tool
and the fix; the server layer turns those into ``isError`` results.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.lowlevel
import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from hub.config import ServerConfig
from hub.errors import DownstreamCrashed, DownstreamError, DownstreamTimeout, DownstreamUnavailable

log = logging.getLogger("ctxhub.downstream")

State = Literal["starting", "ready", "restarting", "failed", "stopped"]
ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
BACKOFF_START = 0.5
BACKOFF_CAP = 30.0
MAX_REMOTE_EVENT = 256 * 2**20


class _EofWatch:
    """Wraps a transport read stream and sets ``eof`` when the server side closes it."""

    def __init__(self, inner: Any, eof: anyio.Event) -> None:
        self._inner, self._eof = inner, eof

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._eof.set()
            raise

    def __aiter__(self) -> _EofWatch:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _EofWatch:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@dataclass
class Downstream:
    """A downstream server, its live session (when connected) and its latest tool list."""

    name: str
    config: ServerConfig
    on_change: Callable[[], Awaitable[None]]
    errlog: Any = field(default_factory=lambda: sys.stderr)
    state: State = "starting"
    session: ClientSession | None = None
    tools: dict[str, types.Tool] = field(default_factory=dict)
    last_error: str | None = None
    startup_seconds: float | None = None
    tool_list_bytes: int = 0
    restarts: int = 0
    protocol_version: str | None = None
    connected: anyio.Event = field(default_factory=anyio.Event)
    settled: anyio.Event = field(default_factory=anyio.Event)
    _relist: anyio.Event = field(default_factory=anyio.Event)
    _eof: anyio.Event = field(default_factory=anyio.Event)

    @property
    def namespace(self) -> str:
        return self.config.namespace or self.name

    @property
    def transport(self) -> str:
        return self.config.kind

    async def supervise(self) -> None:
        """Connect, serve, and reconnect with backoff until cancelled."""
        backoff = BACKOFF_START
        while True:
            started = time.monotonic()
            eof = self._eof = anyio.Event()
            try:
                async with self._open() as (read, write):
                    async with ClientSession(
                        _EofWatch(read, eof), write, message_handler=self._on_message
                    ) as session:
                        with anyio.fail_after(self.config.startup_timeout):
                            init = await session.initialize()
                            tools = await _list_tools(session)
                        self.protocol_version = str(init.protocol_version)
                        self._set_tools(tools)
                        self.session, self.state, self.last_error = session, "ready", None
                        self.startup_seconds = time.monotonic() - started
                        self.connected.set()
                        self.settled.set()
                        backoff = BACKOFF_START
                        log.info(
                            "downstream %s ready: %d tools in %.2f s",
                            self.name,
                            len(tools),
                            self.startup_seconds,
                        )
                        await self.on_change()
                        async with anyio.create_task_group() as group:
                            group.start_soon(self._relist_loop, session)
                            await eof.wait()
                            group.cancel_scope.cancel()
                self.last_error = "the server closed its connection"
            except TimeoutError:
                self.last_error = (
                    f"did not finish starting within {self.config.startup_timeout:g} s "
                    f"(raise servers.{self.name}.startup_timeout in config.yaml)"
                )
            except Exception as exc:  # a failing downstream must never take the hub down
                self.last_error = _describe(exc)
            finally:
                was_ready = self.state == "ready"
                self.session = None
                self.connected = anyio.Event()
            self.state = "restarting" if was_ready else "failed"
            self.settled.set()
            self.restarts += 1
            log.warning(
                "downstream %s %s: %s; retrying in %.1f s",
                self.name,
                "disconnected" if was_ready else "failed to start",
                self.last_error,
                backoff,
            )
            if not was_ready and self.tools:
                # Tools stay listed through one restart (calls wait for it); a failed restart drops them.
                self._set_tools([])
                await self.on_change()
            await anyio.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_CAP)

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any] | None,
        *,
        progress: ProgressFn | None = None,
        meta: dict[str, Any] | None = None,
        wait: float = 10.0,
    ) -> types.CallToolResult:
        """Forward one call; raise ``DownstreamError`` subclasses on any failure."""
        session = self.session
        if session is None or self._eof.is_set():  # dead or restarting: wait for the next connection
            with anyio.move_on_after(min(wait, self.config.timeout)):
                while self.session is None or self._eof.is_set():
                    await self.connected.wait()
                    await anyio.lowlevel.checkpoint()
            session = self.session
        if session is None or self._eof.is_set():
            why = f" ({self.last_error})" if self.last_error else ""
            raise DownstreamUnavailable(
                f"downstream '{self.name}' is not connected{why}; ctxhub keeps retrying it — "
                f"call {tool} again shortly, or run `ctxhub check` to see why it fails"
            )
        try:
            result = await session.call_tool(
                tool,
                arguments,
                read_timeout_seconds=self.config.timeout,
                progress_callback=progress,  # type: ignore[arg-type]
                meta=meta,  # type: ignore[arg-type]
            )
        except MCPError as exc:
            raise _translate(exc, self.name, tool, self.config.timeout) from exc
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
            raise DownstreamCrashed(
                f"downstream '{self.name}' closed the connection during {tool}; "
                "ctxhub restarts it — call again"
            ) from exc
        if not isinstance(result, types.CallToolResult):
            raise DownstreamError(f"downstream '{self.name}' answered {tool} with an unexpected result type")
        return result

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[tuple[Any, Any]]:
        config = self.config
        if config.kind == "stdio":
            assert config.command is not None
            params = StdioServerParameters(
                command=config.command,
                args=list(config.args),
                env={**os.environ, **config.env},  # children inherit the hub's environment
                cwd=config.cwd,
                encoding_error_handler="replace",
            )
            async with stdio_client(params, errlog=self.errlog) as streams:
                yield streams[0], streams[1]
        elif config.kind == "sse":
            assert config.url is not None
            async with sse_client(
                config.url,
                headers=dict(config.headers),
                timeout=config.timeout,
                sse_read_timeout=max(300.0, config.timeout),
            ) as streams:
                yield streams[0], streams[1]
        else:
            assert config.url is not None
            timeout = httpx2.Timeout(30.0, read=max(300.0, config.timeout))
            async with (
                httpx2.AsyncClient(headers=dict(config.headers), timeout=timeout) as client,
                streamable_http_client(
                    config.url, http_client=client, max_sse_event_size=MAX_REMOTE_EVENT
                ) as streams,
            ):
                yield streams[0], streams[1]

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self._relist.set()
        elif isinstance(message, Exception):
            log.debug("downstream %s sent an unreadable message: %s", self.name, message)

    async def _relist_loop(self, session: ClientSession) -> None:
        while True:
            await self._relist.wait()
            self._relist = anyio.Event()
            try:
                with anyio.fail_after(self.config.timeout):
                    tools = await _list_tools(session)
            except Exception as exc:  # keep the old list; the next change or reconnect retries
                log.warning("downstream %s: re-listing tools failed: %s", self.name, _describe(exc))
                continue
            self._set_tools(tools)
            log.info("downstream %s changed its tools: %d now", self.name, len(tools))
            await self.on_change()

    def _set_tools(self, tools: list[types.Tool]) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self.tool_list_bytes = sum(
            len(tool.model_dump_json(by_alias=True, exclude_none=True)) for tool in tools
        )


async def _list_tools(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(1000):  # a server that pages forever must not hang the hub
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _translate(exc: MCPError, server: str, tool: str, timeout: float) -> DownstreamError:
    if exc.code == types.REQUEST_TIMEOUT:
        return DownstreamTimeout(
            f"downstream '{server}' did not answer {tool} within {timeout:g} s and the call was cancelled "
            f"(raise servers.{server}.timeout in config.yaml if it needs longer)"
        )
    if exc.code == types.CONNECTION_CLOSED:
        return DownstreamCrashed(
            f"downstream '{server}' closed the connection during {tool} (it crashed or exited); "
            "ctxhub restarts it — call again"
        )
    return DownstreamError(f"downstream '{server}' answered {tool} with error {exc.code}: {exc.message}")


def _describe(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"command not found ({exc.filename or exc}); check 'command' and PATH"
    if isinstance(exc, MCPError):
        return f"error {exc.code}: {exc.message}"
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."
