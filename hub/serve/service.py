"""The hub's behaviour, independent of transport: list tools, call tools, route, cache, spill.

Contract: ``HubService.list_tools()`` returns every downstream tool under its exposed name with its
output-style tag in ``_meta["ctxhub/context_mode"]`` (and no ``outputSchema`` unless the tool is
tagged DIRECT), followed by the native tools. ``call()`` never raises for a tool failure: unknown
tools, downstream crashes, timeouts and garbage become ``isError`` results naming the server, the
tool and the fix. Every result carries ``_meta["ctxhub/route"]``. The core decides the mode
(``context_mode.router.route``); ``hub.serve.routing`` applies it, spills full payloads to the store and
hands indexing to a worker thread after the reply is built (``running()`` lets queued indexing
finish before it exits). This module keeps the rest: listing, calling (native tools in a worker
thread), the repeat cache and the per-tool stats written to ``stats_path``.

Repeats (``context_mode.cache``, replies built by ``hub.serve.repeats``): a read-only tool's
repeat in the same client session (``session``: ``None`` means it has none, so nothing is
remembered) still reaches the downstream in ``verify`` mode and is answered "same result" or
with a delta, else routed as a first call; in ``trust`` mode it is answered from memory within
the TTL. A call to any other tool invalidates its server's cached reads before it is sent and
again when it returns (even when it fails), and is never deduplicated. A previous result whose
ref the store evicted makes the call a first call.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import mcp.types as types

from context_mode.cache import CacheMode, ResultCache, call_key, is_read_only
from context_mode.calls import CallLog
from context_mode.errors import StoreError
from context_mode.policy import RoutingPolicy, StyleChoice, resolve_style
from context_mode.stats import Stats
from context_mode.types import OutputStyle
from hub.config import HubConfig
from hub.downstream import Pool, ProgressFn, Target
from hub.errors import DownstreamError
from hub.policy_config import base_policy
from hub.serve.call_records import call_record
from hub.serve.content import split_content
from hub.serve.convert import META_MODE, META_ROUTE, META_UPSTREAM, error_result, text_result
from hub.serve.intent import split_intent, with_intent
from hub.serve.policies import ToolPolicies
from hub.serve.repeats import Repeats, digest_of
from hub.serve.routing import ResultRouter
from hub.serve.status_file import save_status
from hub.serve.suggest import unknown_tool_message
from hub.serve.surface import CALL, FIND, ToolSurface
from hub.serve.surface import NAMES as SURFACE_NAMES

if TYPE_CHECKING:
    from hub.reload import Plan
from tools.errors import ToolError
from tools.registry import NativeTool

log = logging.getLogger("ctxhub.service")

MAX_TRAITS = 4096  # cached tool traits; beyond this many the old entries are dropped
STATS_EVERY = 5.0  # seconds between writes of stats.json
LOCAL_SESSION = "local"  # in-process callers (ctxhub call, benchmarks) share one session


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
        feedback: Any = None,
        clock: Callable[[], float] = time.monotonic,
        calls: CallLog | None = None,
    ) -> None:
        self.config = config
        self.calls = calls  # the dashboard's call log (context_mode.calls), written by log_call
        self.store = store
        self.native = {tool.name: tool for tool in native_tools}
        self.pool = Pool(config, reserved_names=[*self.native, *SURFACE_NAMES], errlog=errlog)
        self.surface = ToolSurface(config.tool_surface)
        self.config_path: Path | None = None  # set by ``ctxhub serve``: the file a reload watches
        self.reload_error: str | None = None  # why the last edit of that file was not applied
        self.cache = ResultCache(ttl=config.cache.ttl, maxsize=config.cache.max_entries, clock=clock)
        self.stats = Stats()
        self.policy: RoutingPolicy = base_policy(config)
        self.policies = ToolPolicies(config, feedback=feedback)  # pruning, budgets, floors, feedback
        self.started = time.time()
        self.stats_path = stats_path
        self.router = ResultRouter(
            config, store=store, policy=self.policy, cache=self.cache, stats=self.stats, llm=llm
        )
        self.repeats = Repeats(
            config, cache=self.cache, router=self.router, stats=self.stats, holds=self._holds
        )
        self._stats_saved = 0.0
        if stats_path is not None:  # status.json follows the servers' tool lists (ctxhub dashboard reads it)
            self.pool.add_tools_listener(self._save_status)
        # Called with (exposed name, seconds) after every tools/call (the HTTP transport's /metrics).
        self.call_observers: list[Callable[[str, float], None]] = []
        # Per exposed tool: its style and its cache mode, None for a write (globs matched once, not
        # per call). Keyed by id(); the entry holds its Target so a reused id never returns a stale entry.
        self._traits: dict[int, tuple[Target, StyleChoice, CacheMode | None]] = {}

    @asynccontextmanager
    async def running(self) -> AsyncIterator[HubService]:
        async with self.pool.running():
            try:
                async with self.router.running(), anyio.create_task_group() as watchers:
                    if self.config_path is not None and self.config.reload.enabled:
                        from hub.reload import record_running, watch_config

                        record_running(self.config)
                        interval = self.config.reload.interval
                        watchers.start_soon(
                            functools.partial(watch_config, self, self.config_path, interval=interval)
                        )
                    try:
                        yield self  # the router drains queued indexing on the way out
                    finally:
                        watchers.cancel_scope.cancel()
            finally:
                self.save_stats(force=True)

    async def reload(self, config: HubConfig) -> Plan:
        """Apply an edited config while serving (``hub.reload``): only what changed is restarted."""
        from hub.reload import plan

        changes = plan(self.config, config)
        self.config = config
        self.policy = base_policy(config)
        self.policies.reconfigure(config)
        self.router.config, self.router.policy = config, self.policy
        self.repeats.config = config
        self.surface = ToolSurface(config.tool_surface)
        self._traits.clear()
        await self.pool.reconfigure(
            config, added=changes.added, removed=changes.removed, restarted=changes.restarted
        )
        return changes

    # ----------------------------------------------------------------- listing

    def list_tools(self) -> list[types.Tool]:
        """Every exposed tool, listed or not (``listed_tools`` is what ``tools/list`` shows)."""
        return [*self._downstream_tools(), *self._native_tools()]

    def listed_tools(self) -> list[types.Tool]:
        """What ``tools/list`` shows: all tools, or the lazy surface (``hub.serve.surface``)."""
        return self.surface.listed(self._downstream_tools(), self._native_tools())

    def _downstream_tools(self) -> list[types.Tool]:
        return [self._exposed(name, target) for name, target in self.pool.tool_table().items()]

    def _native_tools(self) -> list[types.Tool]:
        return [self._native_tool(tool) for tool in self.native.values()]

    def style_of(self, target: Target) -> StyleChoice:
        return self._traits_of(target)[0]

    def _traits_of(self, target: Target) -> tuple[StyleChoice, CacheMode | None]:
        entry = self._traits.get(id(target))
        if entry is None or entry[0] is not target:
            if len(self._traits) >= MAX_TRAITS:  # tables rebuilt many times: drop the old entries
                self._traits.clear()
            entry = (target, self._style(target), self._cache_mode(target))
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
        if style.style is not OutputStyle.DIRECT or self.policies.of(target).pruner is not None:
            update["output_schema"] = None  # a summary would violate it; clients validate structuredContent
        return with_intent(target.tool.model_copy(update=update), self.policy.intent_argument)

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
        session: str | None = LOCAL_SESSION,
    ) -> types.CallToolResult:
        arguments = arguments or {}
        native = self.native.get(name)
        if native is not None:
            return await self._call_native(native, arguments)
        if name == FIND:
            return self._find_tools(arguments)
        if name == CALL:
            tool_name = arguments.get("tool")
            forwarded = arguments.get("arguments") or {}
            if not isinstance(tool_name, str) or tool_name == CALL or not isinstance(forwarded, dict):
                return error_result(
                    "hub_call needs 'tool' (an exposed name from hub_find_tools) and 'arguments' (an object)",
                    server="ctxhub",
                    tool=CALL,
                )
            return await self.call(tool_name, forwarded, progress=progress, meta=meta, session=session)
        target = self.pool.tool_table().get(name)
        if target is None:
            await self.pool.wait_settled(10.0)  # a client may call before the first listing settles
            target = self.pool.tool_table().get(name)
        if target is None:
            down = self.pool.down_for(name)
            if down is not None:
                tool_name = name[len(down.namespace) + 2 :]
                return error_result(down.unavailable(name), server=down.name, tool=tool_name)
            return error_result(unknown_tool_message(name, [*self.pool.tool_table(), *self.native]))
        downstream, tool = target.downstream, target.tool
        arguments, intent = split_intent(arguments, tool, self.policy.intent_argument)
        style, cache_mode = self._traits_of(target)
        lookup = None
        if cache_mode is not None and self.config.cache.enabled and session is not None:
            key = call_key(name, arguments, session=session)
            lookup = self.cache.lookup(key, downstream.name, holds=self._holds)
            if cache_mode == "trust" and lookup.previous is not None and not intent:
                return self.repeats.cached(name, lookup.previous)
        writes = cache_mode is None
        if writes:  # before it is sent: no read after this point is answered from before the write
            self.cache.invalidate(downstream.name)
        try:
            result = await downstream.call(tool.name, arguments, progress=progress, meta=meta)
        except DownstreamError as exc:
            self.stats.record(name, mode="error", bytes_in=0, bytes_out=len(str(exc)), error=True)
            return error_result(str(exc), server=downstream.name, tool=tool.name)
        finally:
            if writes:  # and when it returns: a read that was in flight during the write is not kept
                self.cache.invalidate(downstream.name)
        policy = self.policies.of(target)
        result, pruned = await self.policies.prune(result, policy)  # everything below sees the pruned JSON
        digest = await digest_of(result) if lookup is not None and not result.is_error else None
        # a repeat with an intent is summarised again for it, never answered with a pointer
        if lookup is not None and digest is not None and not intent:
            answered = await self.repeats.answer(name, target, style, lookup, result, digest)
            if answered is not None:
                self.save_stats()
                return answered
        limits, outcome = self.policies.limits(self.policy, name, policy, result)
        routed, cached = await self.router.route(
            name,
            target,
            style,
            arguments,
            result,
            cacheable=cache_mode is not None,
            intent=intent,
            policy=limits,
        )
        routed = self.policies.annotate(routed, name, outcome, pruned, self.stats)
        self.save_stats()
        if lookup is not None and digest is not None:
            entry = self.repeats.entry(cached, result, style, digest)
            self.cache.settle(lookup, entry, text=split_content(result).text)
        return routed

    def log_call(self, name: str, result: types.CallToolResult | None, seconds: float) -> None:
        """Append the call to the call log (best effort; ``None``: the call failed inside the hub)."""
        if self.calls is None:
            return
        target = self.pool.tool_table().get(name)
        server = target.downstream.name if target is not None else "ctxhub"
        reply = result if result is not None else error_result(f"ctxhub failed while calling {name}")
        self.calls.append(call_record(name, server, reply, seconds))

    async def _save_status(self) -> None:
        if self.stats_path is not None:
            save_status(self, self.stats_path.with_name("status.json"))

    def _find_tools(self, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            text = self.surface.find(self.list_tools(), arguments)
        except ValueError as exc:
            return error_result(str(exc), server="ctxhub", tool=FIND)
        size = len(text.encode("utf-8"))
        self.stats.record(FIND, mode="direct", bytes_in=size, bytes_out=size)
        return text_result(
            text, meta={META_ROUTE: {"mode": "direct", "reason": "tool search", "cache_hit": False}}
        )

    def _holds(self, ref: str) -> bool:
        """Whether the store still has ``ref`` (a repeat of an evicted result is a first call)."""
        try:
            return bool(self.store.holds(ref))
        except StoreError:
            return False

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
        save_status(self, self.stats_path.with_name("status.json"))

    def _cache_mode(self, target: Target) -> CacheMode | None:
        """How repeats of the tool are answered (``cache.mode`` or its own), or None: it is a write."""
        annotations = target.tool.annotations
        override: bool | None = None
        mode: CacheMode = self.config.cache.mode
        for glob, entry in target.downstream.config.tools.items():
            if entry.cache is not None and fnmatch.fnmatchcase(target.tool.name, glob):
                override = entry.cache is not False
                if entry.cache in ("verify", "trust"):
                    mode = "trust" if entry.cache == "trust" else "verify"
                break
        read_only = is_read_only(
            target.tool.name,
            read_only_hint=annotations.read_only_hint if annotations else None,
            destructive_hint=annotations.destructive_hint if annotations else None,
            globs=self.config.cache.read_only,
            override=override,
        )
        return mode if read_only else None

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
