"""The MCP surface beyond tools, proxied: resources, templates, prompts, completion, logging, subscriptions.

Contract: ``Proxy(pool)`` hooks into every downstream session (``hub.serve.relay`` relays sampling,
elicitation, roots and logs) and serves the non-tool requests through ``handlers()`` and
``install(server)``. Names and URIs are mapped by the downstream catalog: prompts ``<namespace>__<prompt>``
(a ``passthrough`` server's unchanged), resource URIs and templates unchanged, a colliding one as
``ctxhub://<server>/<original>``. ``resources/read``, ``resources/subscribe`` and ``ref/resource``
completions route by ``Catalog.route`` (when it offers several servers, the first that reads the
URI wins); ``ref/prompt`` completions by exposed prompt name; a server without the completions
capability completes nothing. Every handler first waits (bounded) for servers still starting.

Logging: ``logging/setLevel`` is kept per client, and the most verbose level any client asked for
goes to every server that declares logging (again after it reconnects). Subscriptions are kept per
client and exposed URI (``Proxy.subscriptions``, a ``hub.subscriptions.Subscriptions``): the first
subscriber subscribes downstream, the last to leave unsubscribes, a reconnected server is subscribed
again, and ``notifications/resources/updated`` goes to the clients subscribed to that URI (or to a
URI it extends). ``notifications/{resources,prompts}/list_changed`` go to every client when the
exposed URIs, templates or prompt names change.

2026-07-28 clients get the same changes on the ``subscriptions/listen`` streams they open
(``hub.serve.listen``; ``Proxy.listen`` is the handler and the bus): a stream's resource URIs count as
subscribed (downstream too) while it is open, and a URI the hub cannot subscribe is left out of its
acknowledgment.

Errors are ``MCPError`` (built by ``hub.serve.convert``): an unknown prompt, URI or template is
``INVALID_PARAMS``; a server's own JSON-RPC error keeps its code (the message names the server); a
server that is not connected, too slow or crashed gives ``INTERNAL_ERROR`` with the hub's
one-sentence explanation.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import PromptsListChanged, ResourcesListChanged, ResourceUpdated

from hub.downstream import Catalog, Downstream, Entry, ItemT, Pool
from hub.errors import DownstreamError
from hub.serve.convert import META_UPSTREAM, forwardable_meta, request_error, unknown_error
from hub.serve.listen import Listen
from hub.serve.relay import LEVELS, Client, Clients, Relay
from hub.serve.subscriptions import Subscriptions

log = logging.getLogger("ctxhub.proxy")
FIRST_LIST_WAIT = 10.0


class Proxy:
    """Handlers for the non-tool requests, and the hooks every downstream session gets."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.clients = Clients()
        self.relay = Relay(self.clients)
        self._catalog: Catalog | None = None
        self._catalog_sources: list[Any] = []  # the downstream lists it was built from
        self._sessions: dict[str, int] = {}  # server → id of the session last set up (level, subscriptions)
        self._fingerprint: tuple[str, str] = ("", "")
        self.subscriptions = Subscriptions(
            pool, self.clients, lambda: self.catalog, first_list_wait=FIRST_LIST_WAIT
        )
        self.listen = Listen(self.subscriptions.watching)
        pool.hooks = self  # downstreams a reload adds get it too
        for downstream in pool.downstreams.values():
            downstream.hooks = self
        pool.add_listener(self._changed)

    # ------------------------------------------------------------------ wiring

    def handlers(self) -> dict[str, Any]:
        """The ``Server(...)`` keyword arguments for every proxied request."""
        return {
            "on_list_resources": self.list_resources,
            "on_list_resource_templates": self.list_resource_templates,
            "on_read_resource": self.read_resource,
            "on_subscribe_resource": self.subscribe,
            "on_unsubscribe_resource": self.unsubscribe,
            "on_subscriptions_listen": self.listen,
            "on_list_prompts": self.list_prompts,
            "on_get_prompt": self.get_prompt,
            "on_completion": self.complete,
        }

    def install(self, server: Server[Any]) -> Server[Any]:
        # Registered here, not as constructor arguments: those emit a 2026-era deprecation warning.
        server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, self.set_level)
        server.add_notification_handler(
            "notifications/roots/list_changed", types.NotificationParams, self.roots_changed
        )
        return server

    @asynccontextmanager
    async def calling(
        self, tool: str, ctx: ServerRequestContext[Any], *, native: bool = False
    ) -> AsyncIterator[None]:
        """While inside, ``ctx`` waits on the server behind exposed tool ``tool`` (it gets its requests).

        A ``native`` tool (the hub's own) never waits for servers still starting.
        """
        target = self.pool.tool_table().get(tool)
        if target is None and not native:  # a call may come before the first listing settles
            await self.pool.wait_settled(FIRST_LIST_WAIT)
            target = self.pool.tool_table().get(tool)
        with self.relay.calling(target.downstream.name if target else None, ctx):
            yield

    def remember(self, ctx: ServerRequestContext[Any]) -> Client:
        return self.clients.remember(ctx)

    @property
    def catalog(self) -> Catalog:
        """Rebuilt when a server's lists were replaced, even before ``_changed`` has run for it.

        A request waiting for servers to settle may run between a server settling and this
        proxy's change listener (another listener ran first and yielded).
        """
        sources = [
            list_
            for d in self.pool.downstreams.values()
            for list_ in (d.resources, d.resource_templates, d.prompts)
        ]
        fresh = len(sources) == len(self._catalog_sources) and all(
            new is old for new, old in zip(sources, self._catalog_sources, strict=True)
        )
        if self._catalog is None or not fresh:
            self._catalog = Catalog.build(self.pool.downstreams.values())
            self._catalog_sources = sources
        return self._catalog

    # SessionHooks (hub.downstream)
    def session_options(self, downstream: Downstream) -> dict[str, Any]:
        return self.relay.session_options(downstream)

    async def notified(self, downstream: Downstream, message: Any) -> None:
        if not isinstance(message, types.ResourceUpdatedNotification):
            return
        uri = self.catalog.exposed_uri(downstream, message.params.uri)
        note = types.ResourceUpdatedNotification(params=message.params.model_copy(update={"uri": uri}))
        subscribed = self.subscriptions.subscribers(uri)
        await self.clients.notify(note, to=subscribed)  # a 2026-07-28 connection drops it
        await self.listen.publish(ResourceUpdated(uri=uri))

    # ------------------------------------------------------------- resources

    async def list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        await self._settled(ctx, self.pool.list_wait)
        return types.ListResourcesResult(
            resources=[_exposed(e, "uri", uri) for uri, e in self.catalog.resources.items()]
        )

    async def list_resource_templates(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        await self._settled(ctx, self.pool.list_wait)
        return types.ListResourceTemplatesResult(
            resource_templates=[_exposed(e, "uri_template", t) for t, e in self.catalog.templates.items()]
        )

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        candidates = await self._route(ctx, params.uri)
        failure: MCPError | None = None
        wait = 10.0 if len(candidates) == 1 else 0.0  # when guessing, skip servers that are not up
        for downstream, original in candidates:
            request = types.ReadResourceRequest(params=_forwarded(params, uri=original))
            try:
                with self.relay.calling(downstream.name, ctx):
                    result = await downstream.request(
                        f"resources/read {original}", request, types.ReadResourceResult, wait=wait
                    )
            except DownstreamError as exc:
                failure = request_error(exc)
                continue
            if original != params.uri:
                contents = [
                    c.model_copy(update={"uri": params.uri}) if c.uri == original else c
                    for c in result.contents
                ]
                result = result.model_copy(update={"contents": contents})
            return result
        raise failure or unknown_error(f"no resource {params.uri!r}", "list resources again (resources/list)")

    async def subscribe(
        self, ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        await self._settled(ctx)
        client = self.clients.remember(ctx)
        if not self.subscriptions.held(params.uri):
            downstream, original = (await self._route(ctx, params.uri))[0]
            await self.subscriptions.forward(downstream, original, subscribe=True)
        client.subscriptions.add(params.uri)
        return types.EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        self.clients.remember(ctx).subscriptions.discard(params.uri)
        await self.subscriptions.release(params.uri)
        return types.EmptyResult()

    # --------------------------------------------------------------- prompts

    async def list_prompts(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        await self._settled(ctx, self.pool.list_wait)
        return types.ListPromptsResult(
            prompts=[_exposed(e, "name", n) for n, e in self.catalog.prompts.items()]
        )

    async def get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        entry = await self._prompt(ctx, params.name)
        request = types.GetPromptRequest(params=_forwarded(params, name=entry.original))
        try:
            with self.relay.calling(entry.downstream.name, ctx):
                return await entry.downstream.request(f"prompt {params.name}", request, types.GetPromptResult)
        except DownstreamError as exc:
            raise request_error(exc) from exc

    async def _prompt(self, ctx: ServerRequestContext[Any], name: str) -> Entry[types.Prompt]:
        await self._settled(ctx)
        entry = self.catalog.prompts.get(name)
        if entry is None:
            raise unknown_error(f"no prompt named {name!r}", "list the prompts again (prompts/list)")
        return entry

    # ----------------------------------------------------- completion, logging

    async def complete(
        self, ctx: ServerRequestContext[Any], params: types.CompleteRequestParams
    ) -> types.CompleteResult:
        await self._settled(ctx)
        ref: types.PromptReference | types.ResourceTemplateReference
        if isinstance(params.ref, types.PromptReference):
            entry = await self._prompt(ctx, params.ref.name)
            downstream, ref = entry.downstream, params.ref.model_copy(update={"name": entry.original})
        else:
            template = self.catalog.templates.get(params.ref.uri)
            if template is not None:
                downstream, original = template.downstream, template.original
            else:
                downstream, original = (await self._route(ctx, params.ref.uri))[0]
            ref = params.ref.model_copy(update={"uri": original})
        if not (downstream.capabilities and downstream.capabilities.completions):
            return types.CompleteResult(completion=types.Completion(values=[]))
        request = types.CompleteRequest(params=_forwarded(params, ref=ref))
        try:
            return await downstream.request(
                f"completion of {params.argument.name}", request, types.CompleteResult
            )
        except DownstreamError as exc:
            raise request_error(exc) from exc

    async def set_level(
        self, ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        self.clients.remember(ctx).level = params.level
        async with anyio.create_task_group() as group:
            for downstream in self.pool.downstreams.values():
                group.start_soon(self._forward_level, downstream)
        return types.EmptyResult()

    async def _forward_level(self, downstream: Downstream) -> None:
        levels = [client.level for client in self.clients.newest_first() if client.level is not None]
        if not levels or not (downstream.capabilities and downstream.capabilities.logging):
            return
        level = min(levels, key=LEVELS.index)  # each client filters further to its own level
        request = types.SetLevelRequest(params=types.SetLevelRequestParams(level=level))
        try:
            await downstream.request("logging/setLevel", request, types.EmptyResult, wait=0)
        except DownstreamError as exc:  # it gets the level again when it reconnects
            log.info("forwarding the log level to %s failed: %s", downstream.name, exc)

    async def roots_changed(self, ctx: ServerRequestContext[Any], params: types.NotificationParams) -> None:
        self.clients.remember(ctx)
        for downstream in self.pool.downstreams.values():
            if downstream.session is not None:
                try:
                    await downstream.session.send_notification(types.RootsListChangedNotification())
                except Exception as exc:  # a server that is restarting lists roots again anyway
                    log.debug("forwarding roots/list_changed to %s failed: %s", downstream.name, exc)

    # ---------------------------------------------------------------- changes

    async def _changed(self) -> None:
        self._catalog = None
        catalog = self.catalog
        fingerprint = (
            _digest([*catalog.resources, "\0", *catalog.templates]),
            _digest(catalog.prompts),
        )
        resources_changed, prompts_changed = (
            new != old for new, old in zip(fingerprint, self._fingerprint, strict=True)
        )
        self._fingerprint = fingerprint
        if resources_changed:  # handshake-era clients, then 2026-07-28 listen streams
            await self.clients.notify(types.ResourceListChangedNotification())
            await self.listen.publish(ResourcesListChanged())
        if prompts_changed:
            await self.clients.notify(types.PromptListChangedNotification())
            await self.listen.publish(PromptsListChanged())
        for downstream in self.pool.downstreams.values():
            session = downstream.session
            if session is not None and self._sessions.get(downstream.name) != id(session):
                self._sessions[downstream.name] = id(session)
                with anyio.move_on_after(downstream.config.timeout):
                    await self._restore(downstream)

    async def _restore(self, downstream: Downstream) -> None:
        """A (re)connected server gets the client's log level and the live subscriptions again."""
        await self._forward_level(downstream)
        await self.subscriptions.restore(downstream)

    # ---------------------------------------------------------------- helpers

    async def _settled(self, ctx: ServerRequestContext[Any], limit: float = FIRST_LIST_WAIT) -> None:
        """Wait (at most ``limit`` s) for servers still starting; lists wait only ``list_wait``."""
        self.clients.remember(ctx)
        await self.pool.wait_settled(limit)

    async def _route(self, ctx: ServerRequestContext[Any], uri: str) -> list[tuple[Downstream, str]]:
        await self._settled(ctx)
        routes = self.catalog.route(uri, self.pool.downstreams)
        if not routes:
            raise unknown_error(f"no resource {uri!r}", "list resources again (resources/list)")
        return routes


def _exposed(entry: Entry[ItemT], field_name: str, exposed: str) -> ItemT:
    item: Any = entry.item
    meta = {**(item.meta or {}), META_UPSTREAM: entry.downstream.name}
    return item.model_copy(update={field_name: exposed, "meta": meta})  # type: ignore[no-any-return]


def _forwarded(params: Any, **update: Any) -> Any:
    return params.model_copy(update={**update, "meta": forwardable_meta(params.meta)})


def _digest(keys: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()
