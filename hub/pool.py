"""The pool of downstream servers and the table of exposed tool names.

Contract: ``Pool.running()`` starts one supervisor task per enabled server, all in parallel, and on
exit cancels them (each supervisor closes its own session and child process). ``wait_settled``
bounds how long a caller waits for servers still starting. ``tool_table()`` maps every exposed
name to its (downstream, tool) pair, recomputed when any tool list changes; names are
deterministic (see ``hub.naming``). ``on_change`` listeners run after every change.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import mcp.types as types

from hub.config import HubConfig
from hub.downstream import Downstream
from hub.naming import assign_names

log = logging.getLogger("ctxhub.pool")


@dataclass(frozen=True)
class Target:
    downstream: Downstream
    tool: types.Tool


class Pool:
    """Every enabled downstream, supervised, and the names their tools are exposed under."""

    def __init__(self, config: HubConfig, *, reserved_names: Iterable[str] = (), errlog: Any = None) -> None:
        self.config = config
        self._reserved = frozenset(reserved_names)
        self._listeners: list[Callable[[], Awaitable[None]]] = []
        self.downstreams = {
            name: Downstream(name, server, on_change=self._changed, errlog=errlog or sys.stderr)
            for name, server in config.active_servers().items()
        }
        self._table: dict[str, Target] = {}
        self._table_dirty = True

    def add_listener(self, listener: Callable[[], Awaitable[None]]) -> None:
        self._listeners.append(listener)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Pool]:
        async with anyio.create_task_group() as group:
            for downstream in self.downstreams.values():
                group.start_soon(downstream.supervise, name=f"supervise {downstream.name}")
            try:
                yield self
            finally:
                group.cancel_scope.cancel()

    async def wait_settled(self, limit: float) -> bool:
        """Wait until every server has connected or failed once, at most ``limit`` seconds."""
        with anyio.move_on_after(limit):
            for downstream in self.downstreams.values():
                await downstream.settled.wait()
            return True
        return False

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

    async def _changed(self) -> None:
        self._table_dirty = True
        for listener in list(self._listeners):
            try:
                await listener()
            except Exception as exc:  # a listener failing must not stop a supervisor
                log.warning("tool-change listener failed: %s", exc)
