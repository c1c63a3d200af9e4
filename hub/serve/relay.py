"""Messages that travel from a downstream server to the agent's client: requests, logs, notices.

Contract: ``Clients`` remembers every connected client (weakly, one entry per connection, the
newest ``ServerSession`` of each: its standalone channel outlives the request it came with), its
``logging/setLevel`` level and its resource subscriptions. ``Relay.calling(server, ctx)`` marks a
client request as in flight on a downstream for as long as the hub waits for that downstream.

Server-initiated requests (``sampling/createMessage``, ``elicitation/create``, ``roots/list``):
ctxhub declares all three to every downstream (``Relay.session_options``). A request goes to the
client whose request is in flight on that downstream (the newest, on that request's own stream,
as a streamable-HTTP client expects), or, when none is, to the most recently seen client that
declares the capability. If that client lacks the capability, or no client is connected, the
downstream gets an ``INVALID_REQUEST`` error naming the capability; a client's own error is passed
back unchanged. ``notifications/roots/list_changed`` from a client goes to every downstream.
A 2026-07-28 client cannot take server-initiated requests (that era has none): a request for it
gets an ``INVALID_REQUEST`` error saying so, and it is never the fallback target.

Logs: a downstream's ``notifications/message`` gets the logger ``<server>`` or
``<server>/<logger>`` and goes to the in-flight caller (on its request's stream) or else to every
client, each filtered by the level it set (no level set: everything the downstreams send); a
2026-07-28 client gets logs only for its own requests, at the level its request opted in to.
"""

from __future__ import annotations

import itertools
import logging
import weakref
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

import mcp.types as types
from mcp.client.session import ClientRequestContext
from mcp.server import ServerRequestContext
from mcp.server.connection import Connection
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from hub.downstream import Downstream

log = logging.getLogger("ctxhub.relay")
LEVELS: tuple[str, ...] = get_args(types.LoggingLevel)  # least severe first
_order = itertools.count()
ResultT = TypeVar("ResultT", bound=types.Result)


class Client:
    """One connected client: its connection (weakly), logging level and resource subscriptions."""

    def __init__(self, connection: Connection) -> None:
        self._connection = weakref.ref(connection)  # a strong one would keep it in the weak registry
        self.level: types.LoggingLevel | None = None
        self.subscriptions: set[str] = set()
        self.seen = 0

    @property
    def connection(self) -> Connection | None:
        return self._connection()

    def supports(self, capability: str) -> bool:
        connection = self.connection
        capabilities = connection.client_capabilities if connection is not None else None
        return getattr(capabilities, capability, None) is not None

    @property
    def modern(self) -> bool:
        """Whether it speaks the 2026-07-28 protocol: no server-initiated requests, logs per request."""
        connection = self.connection
        return connection is not None and connection.protocol_version in MODERN_PROTOCOL_VERSIONS

    def wants(self, level: str) -> bool:
        return self.level is None or LEVELS.index(level) >= LEVELS.index(self.level)

    @property
    def name(self) -> str:
        connection = self.connection
        params = connection.client_params if connection is not None else None
        return f"client '{params.client_info.name}'" if params is not None else "the client"

    async def notify(self, notification: types.ServerNotification) -> None:
        """Send on the connection's standalone channel (best effort: never raises)."""
        connection = self.connection
        if connection is not None:
            wire = notification.model_dump(by_alias=True, mode="json", exclude_none=True)
            await connection.notify(wire["method"], wire.get("params"))


class Clients:
    """Connected clients, weakly held by connection."""

    def __init__(self) -> None:
        self._clients: weakref.WeakKeyDictionary[Connection, Client] = weakref.WeakKeyDictionary()

    def remember(self, ctx: ServerRequestContext[Any]) -> Client:
        connection: Connection = ctx.session._connection  # the SDK's only per-connection handle
        client = self._clients.get(connection)
        if client is None:
            client = self._clients[connection] = Client(connection)
        client.seen = next(_order)
        return client

    def newest_first(self) -> list[Client]:
        return sorted(self._clients.values(), key=lambda client: -client.seen)

    async def notify(self, notification: types.ServerNotification, *, to: list[Client] | None = None) -> None:
        for client in self.newest_first() if to is None else to:
            await client.notify(notification)


@dataclass(frozen=True, eq=False)
class Caller:
    """A client request waiting on a downstream."""

    client: Client
    session: ServerSession
    request_id: types.RequestId | None


class Relay:
    """Relays server-initiated requests and logs from downstreams to the right client."""

    def __init__(self, clients: Clients) -> None:
        self.clients = clients
        self._in_flight: dict[str, list[Caller]] = {}

    @contextmanager
    def calling(self, server: str | None, ctx: ServerRequestContext[Any]) -> Iterator[Client]:
        """Mark ``ctx`` as waiting on downstream ``server`` (``None``: no downstream) while inside."""
        client = self.clients.remember(ctx)
        if server is None:
            yield client
            return
        caller = Caller(client, ctx.session, ctx.request_id)
        callers = self._in_flight.setdefault(server, [])
        callers.append(caller)
        try:
            yield client
        finally:
            callers.remove(caller)

    def session_options(self, downstream: Downstream) -> dict[str, Any]:
        """The ``ClientSession`` callbacks that relay ``downstream``'s requests and logs."""

        async def sampling(
            context: ClientRequestContext, params: types.CreateMessageRequestParams
        ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
            request = types.CreateMessageRequest(params=params)
            if params.tools is not None or params.tool_choice is not None:
                return await self._forward(
                    downstream, "sampling", request, types.CreateMessageResultWithTools
                )
            return await self._forward(downstream, "sampling", request, types.CreateMessageResult)

        async def elicitation(
            context: ClientRequestContext, params: types.ElicitRequestParams
        ) -> types.ElicitResult | types.ErrorData:
            request = types.ElicitRequest(params=params)
            return await self._forward(downstream, "elicitation", request, types.ElicitResult)

        async def roots(context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
            return await self._forward(downstream, "roots", types.ListRootsRequest(), types.ListRootsResult)

        async def logging_message(params: types.LoggingMessageNotificationParams) -> None:
            await self._log(downstream, params)

        return {
            "sampling_callback": sampling,
            "elicitation_callback": elicitation,
            "list_roots_callback": roots,
            "logging_callback": logging_message,
        }

    async def _forward(
        self,
        downstream: Downstream,
        capability: str,
        request: types.ServerRequest,
        result_type: type[ResultT],
    ) -> ResultT | types.ErrorData:
        target = self._target(downstream.name, capability)
        if isinstance(target, str):
            log.info("downstream %s asked for %s: %s", downstream.name, request.method, target)
            return types.ErrorData(code=types.INVALID_REQUEST, message=target)
        try:
            if isinstance(target, Caller):  # on the stream of the request that waits on this server
                metadata = ServerMessageMetadata(related_request_id=target.request_id)
                return await target.session.send_request(request, result_type, metadata=metadata)
            return await target.send_request(request, result_type=result_type)
        except MCPError as exc:  # the client's own answer (declined, unsupported mode, …)
            return exc.error
        except Exception as exc:  # connection gone, invalid result: the downstream must still get an answer
            return types.ErrorData(
                code=types.INTERNAL_ERROR,
                message=f"ctxhub could not relay {request.method} from '{downstream.name}' "
                f"to the client: {exc}",
            )

    def _target(self, server: str, capability: str) -> Caller | Connection | str:
        """Where a request needing ``capability`` goes, or why it cannot go anywhere."""
        callers = self._in_flight.get(server)
        if callers:
            caller = callers[-1]
            if caller.client.modern:
                return (
                    f"{caller.client.name} (the client that called '{server}' through ctxhub) speaks "
                    f"the 2026-07-28 protocol, where a server cannot send it {capability} requests; "
                    "connect it with the initialize handshake (protocol 2025-11-25) to use them"
                )
            if caller.client.supports(capability):
                return caller
            return (
                f"{caller.client.name} (the client that called '{server}' through ctxhub) does not "
                f"support {capability}; use a client that declares the '{capability}' capability"
            )
        for client in self.clients.newest_first():
            connection = client.connection
            if connection is not None and not client.modern and client.supports(capability):
                return connection
        return (
            f"no client connected to ctxhub supports {capability}; connect a client that declares "
            f"the '{capability}' capability and retry"
        )

    async def _log(self, downstream: Downstream, params: types.LoggingMessageNotificationParams) -> None:
        logger = f"{downstream.name}/{params.logger}" if params.logger else downstream.name
        notification = types.LoggingMessageNotification(params=params.model_copy(update={"logger": logger}))
        callers = self._in_flight.get(downstream.name)
        if callers:
            caller = callers[-1]
            if caller.client.wants(params.level):
                await _quietly(caller.session.send_notification(notification, caller.request_id))
            return
        await self.clients.notify(
            notification,
            to=[c for c in self.clients.newest_first() if not c.modern and c.wants(params.level)],
        )


async def _quietly(sending: Awaitable[None]) -> None:
    try:
        await sending
    except Exception as exc:  # the caller went away mid-call; the log line is advisory
        log.debug("could not forward a log message: %s", exc)
