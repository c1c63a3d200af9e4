"""One supervised client session per downstream MCP server.

Contract: ``Downstream.supervise()`` runs for the life of the hub in its own task. It owns the
transport and ``ClientSession`` contexts (entered and exited in that task, as anyio requires),
initialises with ``ClientSession.initialize()`` (each server negotiates its own version), lists
tools (all pages), then parks until the server's stream ends. A crash, exit or failed start is
recorded and retried with capped exponential backoff (``restart_delay``, 0.5 s by default,
doubling to 30 s; back to ``restart_delay`` after every successful start). Tools stay listed
while a crashed server restarts (calls wait for it) and are dropped if the restart fails; they are
listed again after every reconnect and on ``notifications/tools/list_changed``. ``call()`` never raises
SDK errors: it raises ``DownstreamError`` subclasses with one sentence naming the server, the tool
and the fix (``hub.downstream.failures`` translates them); the server layer turns those into
``isError`` results.

Start-up order: ``tools_settled`` is set (and the server marked ready, so calls go through) as
soon as the tools are listed; then the server's resources, resource templates and prompts are
listed (each when its capability is advertised; a failing list counts as empty; again on their
``list_changed`` notifications) and ``settled`` is set. A failed start sets both. ``prime(tools)``
(a warm start) serves the last run's tool list until the live one arrives; a call waits for the
server meanwhile and fails at once, naming the reason, if that start fails. ``tools_revision``
moves when the exposed tool list changes (a live list equal to the primed one does not move it).
``child``, when set, is the already-running process (``hub.downstream.spawn``) of the first stdio connection.
``request()`` forwards any other request
(``resources/read``, ``prompts/get``, ``completion/complete``, …) with the same waiting and error
translation as ``call()``. Structured results are not validated against the downstream's
``outputSchema`` here (``_ForwardingSession``): the hub exposes that schema only for DIRECT
tools, whose results it passes on verbatim, and the upstream client validates those itself.
``hooks`` (a ``SessionHooks``, set by ``hub.serve.proxy``) adds the
sampling/elicitation/roots/logging callbacks to every session and sees every notification.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import anyio
import anyio.lowlevel
import mcp.types as types
from mcp import ClientSession

from hub.config import ServerConfig
from hub.downstream.failures import describe, failures, unwrap
from hub.downstream.spawn import Child
from hub.downstream.transports import EofWatch, open_transport
from hub.errors import DownstreamError, DownstreamUnavailable

log = logging.getLogger("ctxhub.downstream")

State = Literal["starting", "ready", "restarting", "failed", "stopped"]
ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
ResultT = TypeVar("ResultT", bound=types.Result)
BACKOFF_CAP = 30.0


class _ForwardingSession(ClientSession):
    """A ``ClientSession`` that forwards results without checking them against ``outputSchema``.

    The SDK's check costs a jsonschema pass per structured result (and a ``tools/list`` round
    trip for a tool it has not listed); the hub re-serves results to a client that checks them
    against the schema it was given, and drops the schema when it may rewrite the result.
    """

    async def validate_tool_result(self, name: str, result: types.CallToolResult) -> None:
        return None


class SessionHooks(Protocol):
    """What the proxy layer (``hub.serve.proxy``) plugs into every downstream session."""

    def session_options(self, downstream: Downstream) -> dict[str, Any]:
        """Extra ``ClientSession`` keyword arguments (the sampling/elicitation/roots/logging relays)."""
        ...

    async def notified(self, downstream: Downstream, message: Any) -> None:
        """A server notification from ``downstream`` (``resources/updated``, …)."""
        ...


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
    capabilities: types.ServerCapabilities | None = None
    resources: list[types.Resource] = field(default_factory=list)
    resource_templates: list[types.ResourceTemplate] = field(default_factory=list)
    prompts: list[types.Prompt] = field(default_factory=list)
    hooks: SessionHooks | None = None
    child: Child | None = None  # started before the event loop (``spawn``): the first connection's
    tools_revision: int = 0  # bumped when the tool list changes, not when a live list confirms the cache
    tools_cached: bool = False  # ``tools`` came from the last run's cache and no live list arrived yet
    attempt_started: float = field(default_factory=time.monotonic)  # when the current start began
    connected: anyio.Event = field(default_factory=anyio.Event)
    tools_settled: anyio.Event = field(default_factory=anyio.Event)  # tools known: listed, cached or failed
    settled: anyio.Event = field(default_factory=anyio.Event)  # tools, resources, prompts listed; or failed
    _relist: anyio.Event = field(default_factory=anyio.Event)
    _relist_catalog: anyio.Event = field(default_factory=anyio.Event)
    _eof: anyio.Event = field(default_factory=anyio.Event)
    _tool_dumps: list[str] = field(default_factory=list)

    @property
    def namespace(self) -> str:
        """The prefix of exposed tool and prompt names; empty for a ``passthrough`` server."""
        return "" if self.config.passthrough else self.config.namespace or self.name

    @property
    def transport(self) -> str:
        return self.config.kind

    def prime(self, tools: list[types.Tool]) -> None:
        """Serve ``tools`` (the last run's list) until the server lists its own; call before ``supervise``."""
        self._set_tools(tools)
        self.tools_cached = True
        self.tools_settled.set()

    async def supervise(self) -> None:
        """Connect, serve, and reconnect with backoff until cancelled."""
        backoff = self.config.restart_delay
        while True:
            started = self.child.spawned_at if self.child is not None else time.monotonic()
            self.attempt_started = started
            eof = self._eof = anyio.Event()
            try:
                child, self.child = self.child, None  # an early start serves the first connection only
                async with open_transport(self.config, errlog=self.errlog, child=child) as (read, write):
                    hooks = self.hooks.session_options(self) if self.hooks else {}
                    async with _ForwardingSession(
                        EofWatch(read, eof), write, message_handler=self._on_message, **hooks
                    ) as session:
                        with anyio.fail_after(self.config.startup_timeout):
                            init = await session.initialize()
                            tools = await _list_tools(session)
                        self.protocol_version = str(init.protocol_version)
                        self.capabilities = init.capabilities
                        self._set_tools(tools)
                        # Tools first: a client's first tools/list waits for them, not for the rest.
                        self.session, self.state, self.last_error = session, "ready", None
                        self.startup_seconds = time.monotonic() - started
                        self.connected.set()
                        self.tools_settled.set()
                        backoff = self.config.restart_delay
                        log.info(
                            "downstream %s ready: %d tools in %.2f s",
                            self.name,
                            len(tools),
                            self.startup_seconds,
                        )
                        await self.on_change()
                        if await self._list_catalog(session):
                            await self.on_change()
                        self.settled.set()
                        async with anyio.create_task_group() as group:
                            group.start_soon(self._relist_loop, session)
                            group.start_soon(self._relist_catalog_loop, session)
                            await eof.wait()
                            group.cancel_scope.cancel()
                self.last_error = "the server closed its connection"
            except Exception as exc:  # a failing downstream must never take the hub down
                if isinstance(unwrap(exc), TimeoutError):  # bare, or wrapped by the transport's task group
                    self.last_error = (
                        f"did not finish starting within {self.config.startup_timeout:g} s "
                        f"(raise servers.{self.name}.startup_timeout in config.yaml)"
                    )
                else:
                    self.last_error = describe(exc)
            finally:
                was_ready = self.state == "ready"
                self.session = None
                attempt, self.connected = self.connected, anyio.Event()
            self.state = "restarting" if was_ready else "failed"
            if not was_ready:
                attempt.set()  # wakes calls waiting for this start: it failed (``_live_session``)
            self.tools_settled.set()
            self.settled.set()
            self.restarts += 1
            log.warning(
                "downstream %s %s: %s; retrying in %.1f s",
                self.name,
                "disconnected" if was_ready else "failed to start",
                self.last_error,
                backoff,
            )
            if not was_ready and (self.tools or self.resources or self.resource_templates or self.prompts):
                # Tools stay listed through one restart (calls wait for it); a failed restart drops them.
                self._set_tools([])
                self.resources, self.resource_templates, self.prompts = [], [], []
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
        session = await self._live_session(tool, wait)
        with failures(self.name, tool, self.config.timeout):
            result = await session.call_tool(
                tool,
                arguments,
                read_timeout_seconds=self.config.timeout,
                progress_callback=progress,  # type: ignore[arg-type]
                meta=meta,  # type: ignore[arg-type]
            )
        if not isinstance(result, types.CallToolResult):
            raise DownstreamError(f"downstream '{self.name}' answered {tool} with an unexpected result type")
        return result

    async def request(
        self, what: str, request: types.ClientRequest, result_type: type[ResultT], *, wait: float = 10.0
    ) -> ResultT:
        """Forward any other request (``what`` names it in errors); raise ``DownstreamError`` subclasses.

        A JSON-RPC error from the server becomes a ``DownstreamError`` whose ``__cause__`` is the
        ``MCPError`` (its code is kept for the client).
        """
        session = await self._live_session(what, wait)
        with failures(self.name, what, self.config.timeout):
            result = await session.send_request(
                request, result_type, request_read_timeout_seconds=self.config.timeout
            )
        return result

    async def _live_session(self, what: str, wait: float) -> ClientSession:
        session = self.session
        if session is None or self._eof.is_set():  # dead or restarting: wait for the next connection
            with anyio.move_on_after(min(wait, self.config.timeout)):
                while self.session is None or self._eof.is_set():
                    await self.connected.wait()
                    if self.session is None and self.state == "failed":
                        break  # the start it waited for failed; the error names why
                    await anyio.lowlevel.checkpoint()
            session = self.session
        if session is None or self._eof.is_set():
            raise DownstreamUnavailable(self.unavailable(what))
        return session

    def unavailable(self, what: str) -> str:
        """The sentence for a call of ``what`` while this server is down: its last error and what to do."""
        why = f" ({self.last_error})" if self.last_error else ""
        return (
            f"downstream '{self.name}' is not connected{why}; ctxhub keeps retrying it — "
            f"call {what} again shortly, or run `ctxhub check` to see why it fails"
        )

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self._relist.set()
        elif isinstance(message, types.ResourceListChangedNotification | types.PromptListChangedNotification):
            self._relist_catalog.set()
        elif isinstance(message, Exception):
            log.debug("downstream %s sent an unreadable message: %s", self.name, message)
            return
        if self.hooks is not None:
            await self.hooks.notified(self, message)

    async def _relist_loop(self, session: ClientSession) -> None:
        while True:
            await self._relist.wait()
            self._relist = anyio.Event()
            try:
                with anyio.fail_after(self.config.timeout):
                    tools = await _list_tools(session)
            except Exception as exc:  # keep the old list; the next change or reconnect retries
                log.warning("downstream %s: re-listing tools failed: %s", self.name, describe(exc))
                continue
            self._set_tools(tools)
            log.info("downstream %s changed its tools: %d now", self.name, len(tools))
            await self.on_change()

    async def _list_catalog(self, session: ClientSession) -> bool:
        """List resources, templates and prompts as advertised (a list that fails or hangs is empty).

        Returns whether the server advertises any of them (else nothing was listed).
        """
        capabilities = self.capabilities or types.ServerCapabilities()

        async def listing(kind: str, fetch: Callable[[str | None], Awaitable[Any]], key: str) -> list[Any]:
            items: list[Any] = []
            cursor: str | None = None
            with anyio.move_on_after(self.config.startup_timeout) as scope:
                try:
                    for _ in range(1000):  # a server that pages forever must not hang the hub
                        page = await fetch(cursor)
                        items.extend(getattr(page, key))
                        cursor = page.next_cursor
                        if not cursor:
                            break
                except Exception as exc:  # e.g. resources without templates: -32601
                    log.info("downstream %s: listing %s failed: %s", self.name, kind, describe(exc))
                    return []
            if scope.cancelled_caught:
                log.warning("downstream %s: listing %s timed out", self.name, kind)
            return items

        def page(params: str | None) -> types.PaginatedRequestParams | None:
            return types.PaginatedRequestParams(cursor=params) if params else None

        if capabilities.resources is not None:
            self.resources = await listing(
                "resources", lambda c: session.list_resources(params=page(c)), "resources"
            )
            self.resource_templates = await listing(
                "resource templates",
                lambda c: session.list_resource_templates(params=page(c)),
                "resource_templates",
            )
        if capabilities.prompts is not None:
            self.prompts = await listing("prompts", lambda c: session.list_prompts(params=page(c)), "prompts")
        return capabilities.resources is not None or capabilities.prompts is not None

    async def _relist_catalog_loop(self, session: ClientSession) -> None:
        while True:
            await self._relist_catalog.wait()
            self._relist_catalog = anyio.Event()
            await self._list_catalog(session)
            log.info("downstream %s changed its resources or prompts", self.name)
            await self.on_change()

    def _set_tools(self, tools: list[types.Tool]) -> None:
        dumps = [tool.model_dump_json(by_alias=True, exclude_none=True) for tool in tools]
        if not (self.tools_cached and dumps == self._tool_dumps):  # a live list confirming the cache
            self.tools_revision += 1
        self.tools = {tool.name: tool for tool in tools}
        self.tools_cached = False
        self._tool_dumps = dumps
        self.tool_list_bytes = sum(len(dump) for dump in dumps)


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
