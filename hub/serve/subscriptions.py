"""Resource subscriptions: which exposed URIs are held, and the downstream subscriptions behind them.

Contract: a URI is held while a client has it in ``Client.subscriptions`` (``resources/subscribe``
and ``resources/unsubscribe``, handled by ``hub.serve.proxy``) or an open ``subscriptions/listen``
stream watches it (``watching``, the hold of ``hub.listen.Listen``). The first holder subscribes
downstream (``forward``, on the first server ``Catalog.route`` offers for the URI), the last to
leave unsubscribes (``release``: skipped for a server that is not connected, since a restart
forgets it anyway; bounded by the server's timeout; a failure is only logged), and a reconnected
server is subscribed again to the held URIs it serves (``restore``). ``subscribers(uri)`` are the
clients a ``notifications/resources/updated`` for ``uri`` goes to: those subscribed to it or to a
URI it extends. A listen stream's URI the hub cannot subscribe (unknown, or the server refuses or
fails) is left out of what ``watching`` yields, so its acknowledgment leaves it out.

Errors are ``MCPError``: a server without the resource-subscription capability gives
``METHOD_NOT_FOUND``; a failing server gives its own JSON-RPC code or ``INTERNAL_ERROR``
(``hub.convert.request_error``).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

import anyio
import mcp.types as types
from mcp.shared.exceptions import MCPError

from hub.downstream import Catalog, Downstream, Pool
from hub.errors import DownstreamError
from hub.serve.convert import request_error, unknown_error
from hub.serve.relay import Client, Clients

log = logging.getLogger("ctxhub.proxy")  # the name these messages had before this module split off


class Subscriptions:
    """Subscriptions held by clients and listen streams, counted per exposed URI."""

    def __init__(
        self, pool: Pool, clients: Clients, catalog: Callable[[], Catalog], *, first_list_wait: float
    ) -> None:
        self.pool = pool
        self.clients = clients
        self._catalog = catalog  # the proxy's current catalog (rebuilt when the servers' lists change)
        self._first_list_wait = first_list_wait
        self._watched: Counter[str] = Counter()  # exposed URI → open listen streams subscribed to it

    def held(self, uri: str) -> bool:
        """Whether a client or a listen stream holds ``uri`` (so it is subscribed downstream)."""
        return uri in self._watched or any(uri in c.subscriptions for c in self.clients.newest_first())

    def subscribers(self, uri: str) -> list[Client]:
        """The clients subscribed to ``uri`` or to a URI it extends, newest first."""
        return [c for c in self.clients.newest_first() if any(uri.startswith(s) for s in c.subscriptions)]

    @asynccontextmanager
    async def watching(self, uris: Sequence[str]) -> AsyncIterator[list[str]]:
        """Keep ``uris`` subscribed while a listen stream is open; yields the ones that could be."""
        await self.pool.wait_settled(self._first_list_wait)
        watched: list[str] = []
        try:
            for uri in uris:
                if not self.held(uri):
                    routes = self._catalog().route(uri, self.pool.downstreams)
                    try:
                        if not routes:
                            raise unknown_error(f"no resource {uri!r}", "list resources again")
                        await self.forward(*routes[0], subscribe=True)
                    except MCPError as exc:  # not acknowledged: the client sees it is not subscribed
                        log.info("a listen stream cannot subscribe to %s: %s", uri, exc)
                        continue
                self._watched[uri] += 1
                watched.append(uri)
            yield watched
        finally:
            with anyio.CancelScope(shield=True):  # the stream ends by cancellation when its client leaves
                for uri in watched:
                    self._watched[uri] -= 1
                    if self._watched[uri] <= 0:
                        del self._watched[uri]
                    await self.release(uri)

    async def release(self, uri: str) -> None:
        """Unsubscribe downstream from ``uri`` when no client or listen stream wants it any more."""
        if self.held(uri):
            return
        routes = self._catalog().route(uri, self.pool.downstreams)
        downstream = routes[0][0] if routes else None
        if downstream is not None and downstream.session is not None:  # a restart forgets it anyway
            with anyio.move_on_after(downstream.config.timeout):
                try:
                    await self.forward(*routes[0], subscribe=False)
                except MCPError as exc:  # nobody is listening any more; the server's state is moot
                    log.info("unsubscribing %s failed: %s", uri, exc)

    async def restore(self, downstream: Downstream) -> None:
        """Subscribe a (re)connected ``downstream`` again to the held URIs it serves."""
        subscribed = {uri for client in self.clients.newest_first() for uri in client.subscriptions}
        subscribed.update(self._watched)
        for uri in sorted(subscribed):
            for target, original in self._catalog().route(uri, self.pool.downstreams)[:1]:
                if target is downstream:
                    try:
                        await self.forward(downstream, original, subscribe=True)
                    except MCPError as exc:
                        log.info("subscribing again to %s failed: %s", uri, exc)

    async def forward(self, downstream: Downstream, original: str, *, subscribe: bool) -> None:
        """Send ``resources/subscribe`` (or ``unsubscribe``) for ``original`` to ``downstream``."""
        capabilities = downstream.capabilities
        if not (capabilities and capabilities.resources and capabilities.resources.subscribe):
            raise MCPError(
                types.METHOD_NOT_FOUND,
                f"downstream '{downstream.name}' does not support resource subscriptions; "
                "read the resource again instead",
            )
        request: types.ClientRequest
        if subscribe:
            request = types.SubscribeRequest(params=types.SubscribeRequestParams(uri=original))
        else:
            request = types.UnsubscribeRequest(params=types.UnsubscribeRequestParams(uri=original))
        try:
            await downstream.request(f"{request.method} {original}", request, types.EmptyResult)
        except DownstreamError as exc:
            raise request_error(exc) from exc
