"""The hub's behaviour, independent of transport: list tools, call tools, route, cache, spill.

Contract: ``HubService.list_tools()`` returns every downstream tool under its exposed name with its
output-style tag in ``_meta["ctxhub/context_mode"]`` (and no ``outputSchema`` unless the tool is
tagged DIRECT), followed by the native tools. ``call()`` never raises for a tool failure: unknown
tools, downstream crashes, timeouts and garbage become ``isError`` results naming the server, the
tool and the fix. Every result carries ``_meta["ctxhub/route"]``. The core decides the mode
(``context_mode.router.route``); ``hub.serve.routing`` applies it, spills full payloads to the store and
hands indexing to a worker thread after the reply is built (``running()`` lets queued indexing
finish before it exits). This module keeps the rest: listing, calling (native tools in a worker
thread), the result cache of cacheable (read-only) tools (a repeat within the TTL gets a pointer to
the stored payload, or the first reply again: with ``cache.repeat: replay``, or when that reply was
small or not stored) and the per-tool stats written to ``stats_path``.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types

from context_mode.cache import CachedResult, ResultCache, call_key, is_read_only
from context_mode.policy import RoutingPolicy, StyleChoice, resolve_style
from context_mode.stage1 import render_pointer
from context_mode.stats import Stats
from context_mode.types import OutputStyle
from hub.config import HubConfig
from hub.downstream import Pool, ProgressFn, Target
from hub.errors import DownstreamError
from hub.serve.convert import META_MODE, META_ROUTE, META_UPSTREAM, error_result, text_result
from hub.serve.routing import POINTER_BYTES, ResultRouter
from hub.serve.suggest import unknown_tool_message
from tools.errors import ToolError
from tools.registry import NativeTool

log = logging.getLogger("ctxhub.service")

MAX_TRAITS = 4096  # cached tool traits; beyond this many the old entries are dropped
STATS_EVERY = 5.0  # seconds between writes of stats.json


class HubService:
    """Downstream pool + routing + cache + store + native tools."""

    def __init__(
        self,
        config: HubConfig,
        *,
        store: Any,
        native_tools: Sequence[NativeTool] = (),
        stats_path: Path | None = None,
        llm: Any = None,
        errlog: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.store = store
        self.native = {tool.name: tool for tool in native_tools}
        self.pool = Pool(config, reserved_names=self.native, errlog=errlog)
        self.cache = ResultCache(ttl=config.cache.ttl, maxsize=config.cache.max_entries, clock=clock)
        self.stats = Stats()
        self.policy = RoutingPolicy(**config.routing.model_dump())
        self.started = time.time()
        self.stats_path = stats_path
        self.router = ResultRouter(
            config, store=store, policy=self.policy, cache=self.cache, stats=self.stats, llm=llm
        )
        self._stats_saved = 0.0
        # Per exposed tool: its style and whether it is cacheable (globs matched once, not per call).
        # Keyed by id(); the entry holds its Target so a reused id never returns a stale entry.
        self._traits: dict[int, tuple[Target, StyleChoice, bool]] = {}

    @asynccontextmanager
    async def running(self) -> AsyncIterator[HubService]:
        async with self.pool.running():
            try:
                async with self.router.running():  # drains queued indexing on the way out
                    yield self
            finally:
                self.save_stats(force=True)

    # ----------------------------------------------------------------- listing

    def list_tools(self) -> list[types.Tool]:
        tools = [self._exposed(name, target) for name, target in self.pool.tool_table().items()]
        tools.extend(self._native_tool(tool) for tool in self.native.values())
        return tools

    def style_of(self, target: Target) -> StyleChoice:
        return self._traits_of(target)[0]

    def _traits_of(self, target: Target) -> tuple[StyleChoice, bool]:
        entry = self._traits.get(id(target))
        if entry is None or entry[0] is not target:
            if len(self._traits) >= MAX_TRAITS:  # tables rebuilt many times: drop the old entries
                self._traits.clear()
            entry = (target, self._style(target), self._cacheable(target))
            self._traits[id(target)] = entry
        return entry[1], entry[2]

    def _style(self, target: Target) -> StyleChoice:
        settings = target.downstream.config.tools
        modes = {glob: entry.mode for glob, entry in settings.items() if entry.mode is not None}
        return resolve_style(target.tool.name, config_modes=modes, meta=target.tool.meta)

    def _exposed(self, name: str, target: Target) -> types.Tool:
        style = self.style_of(target)
        meta = {
            **(target.tool.meta or {}),
            META_MODE: style.style.value,
            META_UPSTREAM: target.downstream.name,
        }
        update: dict[str, Any] = {"name": name, "meta": meta}
        if style.style is not OutputStyle.DIRECT:
            update["output_schema"] = None  # a summary would violate it; clients validate structuredContent
        return target.tool.model_copy(update=update)

    @staticmethod
    def _native_tool(tool: NativeTool) -> types.Tool:
        return types.Tool(
            name=tool.name,
            description=tool.description,
            input_schema=tool.input_schema,
            annotations=types.ToolAnnotations(read_only_hint=tool.read_only, destructive_hint=False),
            _meta={META_MODE: OutputStyle.DIRECT.value, META_UPSTREAM: "ctxhub"},
        )

    # ------------------------------------------------------------------ calling

    async def call(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        *,
        progress: ProgressFn | None = None,
        meta: dict[str, Any] | None = None,
    ) -> types.CallToolResult:
        arguments = arguments or {}
        native = self.native.get(name)
        if native is not None:
            return await self._call_native(native, arguments)
        target = self.pool.tool_table().get(name)
        if target is None:
            await self.pool.wait_settled(10.0)  # a client may call before the first listing settles
            target = self.pool.tool_table().get(name)
        if target is None:
            return error_result(unknown_tool_message(name, [*self.pool.tool_table(), *self.native]))
        downstream, tool = target.downstream, target.tool
        style, cacheable = self._traits_of(target)
        caching = cacheable and self.config.cache.enabled
        key = call_key(name, arguments) if caching else ""
        if caching:
            hit = self.cache.get(key)
            if hit is not None:
                return self._cache_hit(name, hit)
        elif not cacheable:
            self.cache.forget_namespace(downstream.name)
        try:
            result = await downstream.call(tool.name, arguments, progress=progress, meta=meta)
        except DownstreamError as exc:
            self.stats.record(name, mode="error", bytes_in=0, bytes_out=len(str(exc)), error=True)
            return error_result(str(exc), server=downstream.name, tool=tool.name)
        routed, cached = await self.router.route(name, target, style, arguments, result, cacheable=cacheable)
        self.save_stats()
        if caching and not result.is_error:
            self.cache.put(key, cached)
        return routed

    def save_stats(self, *, force: bool = False) -> None:
        """Write per-tool counters to ``stats_path`` (at most every few seconds unless forced)."""
        now = time.monotonic()
        if self.stats_path is None or (not force and now - self._stats_saved < STATS_EVERY):
            return
        self._stats_saved = now
        snapshot = {**self.stats.to_json(), "cache_hits": self.cache.hits, "updated": time.time()}
        temporary = self.stats_path.with_suffix(".tmp")
        try:
            temporary.write_text(json.dumps(snapshot), encoding="utf-8")
            os.replace(temporary, self.stats_path)
        except OSError as exc:  # statistics are best effort; never fail a call for them
            log.debug("could not save stats to %s: %s", self.stats_path, exc)

    def _cacheable(self, target: Target) -> bool:
        annotations = target.tool.annotations
        override = None
        for glob, entry in target.downstream.config.tools.items():
            if entry.cache is not None and fnmatch.fnmatchcase(target.tool.name, glob):
                override = entry.cache
                break
        return is_read_only(
            target.tool.name,
            read_only_hint=annotations.read_only_hint if annotations else None,
            destructive_hint=annotations.destructive_hint if annotations else None,
            globs=self.config.cache.read_only,
            override=override,
        )

    def _cache_hit(self, name: str, hit: CachedResult) -> types.CallToolResult:
        age = self.cache.now() - hit.created
        replay = (
            self.config.cache.repeat == "replay"
            or hit.ref is None
            or 0 < len(hit.stage1.encode("utf-8", "surrogatepass")) <= POINTER_BYTES
        )
        text = (
            hit.stage1
            if replay
            else render_pointer(
                tool=name, ref=hit.ref, age_seconds=age, ttl=self.cache.ttl, original_bytes=hit.original_bytes
            )
        )
        size = len(text.encode("utf-8", "surrogatepass"))
        self.stats.record(name, mode="cache", bytes_in=hit.original_bytes, bytes_out=size, cache_hit=True)
        route_meta = {
            "mode": "cache",
            "reason": f"same call {age:.0f} s ago (TTL {self.cache.ttl:g} s)",
            "original_bytes": hit.original_bytes,
            "returned_bytes": size,
            "ref": hit.ref,
            "cache_hit": True,
            "first_mode": hit.mode,
        }
        return text_result(text, meta={META_ROUTE: route_meta})

    async def _call_native(self, tool: NativeTool, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            text = await anyio.to_thread.run_sync(tool.run, arguments)
        except ToolError as exc:
            self.stats.record(tool.name, mode="error", bytes_in=0, bytes_out=len(str(exc)), error=True)
            return error_result(str(exc), server="ctxhub", tool=tool.name)
        except Exception as exc:  # a bug in a native tool must not take the hub down
            log.exception("native tool %s failed", tool.name)
            return error_result(
                f"ctxhub's {tool.name} failed unexpectedly ({type(exc).__name__}: {exc}); "
                "this is a ctxhub bug — please report it",
                server="ctxhub",
                tool=tool.name,
            )
        size = len(text.encode("utf-8", "surrogatepass"))
        self.stats.record(tool.name, mode="direct", bytes_in=size, bytes_out=size)
        route_meta = {
            "mode": "direct",
            "reason": "native tool output is sized for context",
            "original_bytes": size,
            "returned_bytes": size,
            "cache_hit": False,
        }
        return text_result(text, meta={META_ROUTE: route_meta})
