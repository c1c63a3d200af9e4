"""The MCP server the agent connects to: the SDK's low-level ``Server`` over a ``HubService``.

Contract: ``build_server(service)`` returns a ``Server`` whose ``tools/list`` waits (at most
``list_wait`` seconds, 2 by default) for downstreams still starting whose tools are not known yet
(a warm start knows them from the last run, ``Pool.warm_start``), then answers with the servers
that are ready; a late server's tools follow with ``notifications/tools/list_changed``, and
``hub_status`` names it meanwhile. It and whose ``tools/call`` forwards
progress upstream and turns every failure into an ``isError`` result (a handler never raises, so
the client never sees a JSON-RPC error for a tool failure) and names the calling client session
(``hub.serve.sessions``), so repeats are deduplicated per session. Client cancellation reaches the
downstream through the SDK (the handler's scope is cancelled; the SDK sends the courtesy
cancel). ``notifications/tools/list_changed`` goes to every connected client, once per
connection, when any downstream's tool list changes (a live list equal to the cached one is no
change): on the connection to a handshake-era client,
on the ``subscriptions/listen`` streams (``hub.serve.listen``) of a 2026-07-28 client, which gets
nothing on its connection. Resources, templates, prompts, completion, logging, the listen streams
and the relay of server-initiated requests come from ``hub.serve.proxy``.
"""

from __future__ import annotations

import logging
import signal
import time
import weakref
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.lowlevel import NotificationOptions
from mcp.shared.subscriptions import ToolsListChanged

from hub import __version__
from hub.downstream import signal_children
from hub.serve.convert import error_result, forwardable_meta
from hub.serve.listen import Listen
from hub.serve.proxy import Proxy
from hub.serve.service import HubService
from hub.serve.sessions import ClientSessions
from hub.serve.stdio import stdio_streams

log = logging.getLogger("ctxhub.server")
FIRST_LIST_WAIT = 10.0
SIGNAL_KILL_AFTER = 0.5  # seconds between SIGTERM and SIGKILL to the downstreams after a signal
INSTRUCTIONS = (
    "ctxhub fronts several MCP servers. Large tool results come back as a summary or a directive with a "
    "ref: read more with doc_search(query, ref) or doc_window(ref). Keep goals, constraints and decisions "
    "with context_append and read them back with context_get (see context_guide)."
)


class Connections:
    """Connected clients, weakly held, for broadcasting list changes once per connection.

    A 2026-07-28 connection drops the plain notification (the SDK allows change notifications
    only on listen streams), so ``listen`` (set by ``build_server``) carries the change to those
    clients instead.
    """

    def __init__(self) -> None:
        self._connections: weakref.WeakSet[Any] = weakref.WeakSet()
        self.listen: Listen | None = None

    def remember(self, ctx: ServerRequestContext[Any]) -> None:
        connection = getattr(ctx.session, "_connection", None)
        if connection is not None:
            self._connections.add(connection)

    async def tools_changed(self) -> None:
        for connection in list(self._connections):
            try:
                await connection.outbound.notify("notifications/tools/list_changed", None)
            except Exception:  # a closed connection: forget it
                self._connections.discard(connection)
        if self.listen is not None:
            await self.listen.publish(ToolsListChanged())


def build_server(service: HubService, connections: Connections | None = None) -> Server[Any]:
    connections = connections or Connections()
    service.pool.add_tools_listener(connections.tools_changed)
    proxy = Proxy(service.pool)
    connections.listen = proxy.listen
    sessions = ClientSessions()  # repeats and deltas refer only to what the calling session was shown

    def tool_input_schema(name: str) -> dict[str, Any] | None:
        """For the 2026-07-28 ``Mcp-Param-*`` header check, instead of a full ``tools/list`` per call."""
        target = service.pool.tool_table().get(name)
        if target is not None:
            return target.tool.input_schema
        native = service.native.get(name)
        return native.input_schema if native is not None else None

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        await service.pool.wait_tools(service.pool.list_wait)  # cached tools count (a warm start)
        connections.remember(ctx)  # after settling: start-up itself needs no list_changed
        proxy.remember(ctx)
        return types.ListToolsResult(tools=service.listed_tools())

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        connections.remember(ctx)

        async def progress(value: float, total: float | None, message: str | None) -> None:
            await ctx.session.report_progress(value, total, message)

        started = time.monotonic()
        result: types.CallToolResult | None = None
        try:
            native = params.name in service.native  # hub_status must answer while a server is late
            async with proxy.calling(params.name, ctx, native=native):  # its sampling/logs go to this caller
                result = await service.call(
                    params.name,
                    dict(params.arguments or {}),
                    progress=progress,
                    meta=forwardable_meta(ctx.meta),
                    session=sessions.key(ctx),
                )
                return result
        except Exception as exc:  # the last line of defence: a tool failure is a result, never a crash
            log.exception("call of %s failed inside ctxhub", params.name)
            return error_result(
                f"ctxhub failed while calling {params.name} ({type(exc).__name__}: {exc}); "
                "the hub is still running — call again, and report this if it repeats"
            )
        finally:
            for observe in service.call_observers:
                observe(params.name, time.monotonic() - started)
            service.log_call(params.name, result, time.monotonic() - started)  # the dashboard's call log

    return proxy.install(
        Server(
            "ctxhub",
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=on_list_tools,
            on_call_tool=on_call_tool,
            get_tool_input_schema=tool_input_schema,
            **proxy.handlers(),
        )
    )


def initialization_options(server: Server[Any]) -> Any:
    changed = NotificationOptions(tools_changed=True, resources_changed=True, prompts_changed=True)
    return server.create_initialization_options(changed)


async def serve_stdio(service: HubService) -> None:
    """Serve over this process's stdin/stdout until stdin closes, SIGTERM or SIGINT.

    The signal handler stays installed until every downstream has stopped: a client closes stdin,
    waits about 2 s, then sends SIGTERM, and the default action would kill the hub while it still
    waits for a server that ignores EOF. On a signal the hub SIGTERMs every downstream's process
    group at once and SIGKILLs what is left ``SIGNAL_KILL_AFTER`` seconds later (or at a second
    signal), so it exits well within the client's patience and leaves no descendant behind.
    """
    server = build_server(service)
    serving = anyio.CancelScope()
    async with anyio.create_task_group() as guard:
        guard.start_soon(_stop_on_signal, serving)
        with serving:
            async with service.running():
                async with stdio_streams() as (read, write):
                    await server.run(read, write, initialization_options(server))
        guard.cancel_scope.cancel()  # every downstream has stopped: signals may act normally again


async def _stop_on_signal(serving: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async for signum in signals:
            log.info("received %s; stopping every downstream and shutting down", signal.Signals(signum).name)
            break
        serving.cancel()
        signal_children(signal.SIGTERM)
        with anyio.move_on_after(SIGNAL_KILL_AFTER):
            async for _ in signals:
                break  # a second signal: no more patience
        signal_children(signal.SIGKILL)
        await anyio.sleep_forever()  # keep the handler until the downstreams are reaped
