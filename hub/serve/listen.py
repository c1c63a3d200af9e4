"""Change notifications for 2026-07-28 clients: ``subscriptions/listen`` over a ``SubscriptionBus``.

On a 2026-07-28 connection the SDK drops ``notifications/*/list_changed`` and
``notifications/resources/updated`` sent on the connection's channel: such a client gets them only
on a ``subscriptions/listen`` stream it opened (the request's response is the stream). Handshake-era
clients keep getting them from ``connection.notify`` (``server``, ``proxy``) and cannot open
a listen stream (the SDK answers ``METHOD_NOT_FOUND``), so each client gets each change once.

Contract: ``Listen(hold)`` is the ``on_subscriptions_listen`` handler; ``Listen.publish(event)``
delivers a ``mcp.shared.subscriptions`` event (``ToolsListChanged``, ``PromptsListChanged``,
``ResourcesListChanged``, ``ResourceUpdated``) to every open stream whose filter asked for it.
It follows the SDK's ``ListenHandler`` (acknowledgment first, frames stamped with the listen
request's id, bounded buffer, no replay) with two differences a proxy needs: the resource URIs of
a stream are held by ``hold`` for the stream's lifetime (the hub subscribes downstream; the
acknowledgment honors only the URIs it could subscribe), and a ``ResourceUpdated`` reaches a
stream that subscribed the URI or a URI it extends (sub-resources, as for handshake-era clients).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
from mcp.server import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, SubscriptionBus
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import (
    SUBSCRIPTION_ID_META_KEY,
    ResourceUpdated,
    ServerEvent,
    event_matches,
    event_to_notification,
)

log = logging.getLogger("ctxhub.listen")
MAX_STREAMS = 1024
MAX_BUFFERED_EVENTS = 1024

Hold = Callable[[Sequence[str]], AbstractAsyncContextManager[Sequence[str]]]
"""Keeps the given exposed URIs subscribed while inside; yields those it could subscribe."""


@asynccontextmanager
async def _hold_nothing(uris: Sequence[str]) -> AsyncIterator[Sequence[str]]:
    yield ()


class Listen:
    """Serves ``subscriptions/listen``: one request is one stream of change notifications."""

    def __init__(self, hold: Hold = _hold_nothing, *, bus: SubscriptionBus | None = None) -> None:
        self.bus: SubscriptionBus = bus or InMemorySubscriptionBus()
        self._hold = hold
        self._streams = 0

    async def publish(self, event: ServerEvent) -> None:
        await self.bus.publish(event)

    async def __call__(
        self, ctx: ServerRequestContext[Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        subscription_id = ctx.request_id
        if subscription_id is None:
            raise MCPError(types.INVALID_REQUEST, "subscriptions/listen needs a request id")
        if self._streams >= MAX_STREAMS:
            raise MCPError(
                types.INTERNAL_ERROR,
                f"ctxhub already serves {MAX_STREAMS} subscriptions/listen streams; close one and retry",
            )
        requested = params.notifications
        meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: subscription_id}
        self._streams += 1
        try:
            async with self._hold(list(dict.fromkeys(requested.resource_subscriptions or ()))) as held:
                honored = types.SubscriptionFilter(
                    tools_list_changed=requested.tools_list_changed or None,
                    prompts_list_changed=requested.prompts_list_changed or None,
                    resources_list_changed=requested.resources_list_changed or None,
                    resource_subscriptions=list(held) or None,
                )
                await self._stream(ctx, subscription_id, honored, meta)
        finally:
            self._streams -= 1
        return types.SubscriptionsListenResult(_meta=meta)

    async def _stream(
        self,
        ctx: ServerRequestContext[Any],
        subscription_id: types.RequestId,
        honored: types.SubscriptionFilter,
        meta: dict[str, Any],
    ) -> None:
        uris = frozenset(honored.resource_subscriptions or ())
        send, receive = anyio.create_memory_object_stream[ServerEvent](MAX_BUFFERED_EVENTS)

        def deliver(event: ServerEvent) -> None:
            if isinstance(event, ResourceUpdated):
                wanted = any(event.uri.startswith(uri) for uri in uris)
            else:
                wanted = event_matches(honored, uris, event)
            if not wanted:
                return
            try:
                send.send_nowait(event)
            except anyio.WouldBlock:  # the client stopped reading: end the stream (it re-listens)
                log.warning(
                    "listen stream %r fell %d events behind; ending it", subscription_id, MAX_BUFFERED_EVENTS
                )
                send.close()
            except anyio.ClosedResourceError:
                pass

        # Subscribed before the acknowledgment is sent, so no event in between is lost; the
        # acknowledgment is still the first frame, since only this task writes the stream.
        unsubscribe = self.bus.subscribe(deliver)
        try:
            acknowledged = types.SubscriptionsAcknowledgedNotification(
                params=types.SubscriptionsAcknowledgedNotificationParams(notifications=honored, _meta=meta)
            )
            await ctx.session.send_notification(acknowledged, related_request_id=subscription_id)
            async for event in receive:
                await ctx.session.send_notification(
                    event_to_notification(event, meta), related_request_id=subscription_id
                )
        finally:
            try:
                unsubscribe()
            except Exception:  # a custom bus failing must not keep the stream open
                log.exception("leaving the subscription bus failed")
            send.close()
            receive.close()
