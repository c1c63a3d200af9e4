"""The pool of downstream servers and the table of exposed tool names.

Contract: ``Pool.running()`` starts one supervisor task per enabled server, all in parallel, and on
exit cancels them (each supervisor closes its own session and child process). ``wait_tools``
bounds how long a caller waits for tool lists still unknown; ``wait_settled`` for servers still
starting (resources and prompts listed too). ``tool_table()`` maps every exposed name to its
(downstream, tool) pair, recomputed when any tool list changes; names are deterministic (see
``hub.downstream.naming``). ``add_listener`` listeners run after every change (tools, resources, prompts,
state); ``add_tools_listener`` listeners only when some server's tool list changed.

Start-up (``ctxhub serve``): ``adopt(children)`` hands each stdio server the process
``hub.downstream.spawn`` started early; ``warm_start(cache)`` primes every server whose config still matches
its ``hub.downstream.catalog_cache`` entry with the last run's tools, so the first ``tools/list`` needs no
server to be up. Afterwards every live tool list is remembered in the cache, and a server whose
start fails is forgotten (its next start is cold).

Reload: ``reconfigure(config, added=, removed=, restarted=)`` stops and starts only the servers
named (each supervisor runs in its own cancel scope), swaps every other server's settings in place
and runs the listeners once, so clients get ``list_changed``.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.abc
import mcp.types as types

from hub.config import HubConfig
from hub.downstream.catalog_cache import ToolCache
from hub.downstream.naming import assign_names
from hub.downstream.spawn import Child
from hub.downstream.supervisor import Downstream

log = logging.getLogger("ctxhub.pool")

STOP_LIMIT = 10.0  # seconds a reload waits for a stopped server to close its session and child
Listener = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class Target:
    downstream: Downstream
    tool: types.Tool


class Pool:
    """Every enabled downstream, supervised, and the names their tools are exposed under."""

    def __init__(self, config: HubConfig, *, reserved_names: Iterable[str] = (), errlog: Any = None) -> None:
        self.config = config
        self._reserved = frozenset(reserved_names)
        self._listeners: list[Listener] = []
        self._tools_listeners: list[Listener] = []
        self._errlog = errlog or sys.stderr
        self.hooks: Any = None  # given to every downstream, also those a reload adds
        self.downstreams = {
            name: self._downstream(name, server) for name, server in config.active_servers().items()
        }
        self._group: anyio.abc.TaskGroup | None = None
        self._scopes: dict[str, anyio.CancelScope] = {}
        self._stopped: dict[str, anyio.Event] = {}
        self._table: dict[str, Target] = {}
        self._table_dirty = True
        self._revisions = dict.fromkeys(self.downstreams, 0)
        self._cache: ToolCache | None = None
        self.list_wait = config.list_wait  # how long a list call waits for servers still starting

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def add_tools_listener(self, listener: Listener) -> None:
        self._tools_listeners.append(listener)

    def adopt(self, children: Mapping[str, Child]) -> None:
        """Give each stdio server its early-started process (call before ``running``)."""
        for name, child in children.items():
            downstream = self.downstreams.get(name)
            if downstream is not None and downstream.config.kind == "stdio" and not child.claimed:
                downstream.child = child

    def warm_start(self, cache: ToolCache) -> None:
        """Serve the cached tools of servers whose config is unchanged (call before ``running``)."""
        self._cache = cache
        for name, downstream in self.downstreams.items():
            tools = cache.tools_for(name, downstream.config)
            if tools is not None:
                downstream.prime(tools)
                self._revisions[name] = downstream.tools_revision
                self._table_dirty = True
                log.info("downstream %s: %d tools from the last run until it lists its own", name, len(tools))

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Pool]:
        async with anyio.create_task_group() as group:
            self._group = group
            for downstream in self.downstreams.values():
                self._start(downstream)
            try:
                yield self
            finally:
                self._group = None
                group.cancel_scope.cancel()

    async def reconfigure(
        self, config: HubConfig, *, added: Iterable[str], removed: Iterable[str], restarted: Iterable[str]
    ) -> None:
        """Stop ``removed`` and ``restarted`` servers, start ``added`` and ``restarted`` ones (a reload).

        Other servers keep running; their settings are replaced in place. Listeners run once.
        """
        servers = config.active_servers()
        for name in [*removed, *restarted]:
            await self._stop(name)
        self.config = config
        for name, downstream in self.downstreams.items():
            downstream.config = servers[name]
        for name in [*added, *restarted]:
            downstream = self.downstreams[name] = self._downstream(name, servers[name])
            self._revisions[name] = -1  # its first list is a change
            if self._group is not None:
                self._start(downstream)
        self._table_dirty = True
        await self._notify([*self._tools_listeners, *self._listeners])

    async def _notify(self, listeners: list[Listener]) -> None:
        for listener in listeners:
            try:
                await listener()
            except Exception as exc:  # a listener failing must stop neither a supervisor nor a reload
                log.warning("tool-change listener failed: %s", exc)

    def _downstream(self, name: str, server: Any) -> Downstream:
        downstream = Downstream(
            name, server, on_change=functools.partial(self._changed, name), errlog=self._errlog
        )
        downstream.hooks = self.hooks
        return downstream

    def _start(self, downstream: Downstream) -> None:
        assert self._group is not None
        scope, stopped = anyio.CancelScope(), anyio.Event()
        self._scopes[downstream.name], self._stopped[downstream.name] = scope, stopped

        async def supervise() -> None:
            try:
                with scope:
                    await downstream.supervise()
            finally:
                stopped.set()

        self._group.start_soon(supervise, name=f"supervise {downstream.name}")

    async def _stop(self, name: str) -> None:
        """Cancel one server's supervisor and wait (boundedly) until it closed its session and child."""
        scope, stopped = self._scopes.pop(name, None), self._stopped.pop(name, None)
        downstream = self.downstreams.pop(name, None)
        self._revisions.pop(name, None)
        if downstream is not None:
            downstream.state = "stopped"
        if scope is not None and stopped is not None:
            scope.cancel()
            with anyio.move_on_after(STOP_LIMIT):
                await stopped.wait()
        if self._cache is not None:
            self._cache.forget(name)

    async def wait_tools(self, limit: float) -> bool:
        """Wait until every server's tools are known (listed, cached or failed), at most ``limit`` s."""
        with anyio.move_on_after(limit):
            for downstream in list(self.downstreams.values()):  # a reload may change the dict meanwhile
                await downstream.tools_settled.wait()
            return True
        return False

    async def wait_settled(self, limit: float) -> bool:
        """Wait until every server has connected or failed once, at most ``limit`` seconds."""
        with anyio.move_on_after(limit):
            for downstream in list(self.downstreams.values()):  # a reload may change the dict meanwhile
                await downstream.settled.wait()
            return True
        return False

    def down_for(self, name: str) -> Downstream | None:
        """The server that is not connected and whose namespace prefixes ``name``, if any.

        A server that failed to start has its tools dropped: a call of one of them (an agent that
        listed them earlier) is answered with that server's failure, not with "no such tool".
        """
        for downstream in self.downstreams.values():
            namespace = downstream.namespace
            if namespace and name.startswith(f"{namespace}__") and downstream.session is None:
                return downstream
        return None

    def tool_table(self) -> dict[str, Target]:
        if self._table_dirty:
            self._table = self._build_table()
            self._table_dirty = False
        return self._table

    def _build_table(self) -> dict[str, Target]:
        pairs = {
            (downstream.namespace, tool_name, downstream.name): Target(downstream, tool)
            for downstream in self.downstreams.values()
            for tool_name, tool in downstream.tools.items()
        }
        names = assign_names(pairs, reserved=self._reserved)
        return {
            names[pair]: target for pair, target in sorted(pairs.items(), key=lambda item: names[item[0]])
        }

    async def _changed(self, name: str) -> None:
        self._table_dirty = True
        downstream = self.downstreams.get(name)
        if downstream is None:  # stopped by a reload while it was reporting
            return
        self._update_cache(downstream)
        tools_changed = downstream.tools_revision != self._revisions[name]
        self._revisions[name] = downstream.tools_revision
        await self._notify([*(self._tools_listeners if tools_changed else ()), *self._listeners])

    def _update_cache(self, downstream: Downstream) -> None:
        if self._cache is None:
            return
        if downstream.state == "ready" and not downstream.tools_cached:
            self._cache.remember(downstream.name, downstream.config, list(downstream.tools.values()))
        elif downstream.state == "failed":
            self._cache.forget(downstream.name)
