"""The hub's behaviour, independent of transport: list tools, call tools, route, cache, spill.

Contract: ``HubService.list_tools()`` returns every downstream tool under its exposed name with its
output-style tag in ``_meta["ctxhub/context_mode"]`` (and no ``outputSchema`` unless the tool is
tagged DIRECT), followed by the native tools. ``call()`` never raises for a tool failure: unknown
tools, downstream crashes, timeouts and garbage become ``isError`` results naming the server, the
tool and the fix. Every result carries ``_meta["ctxhub/route"]``. The core decides the mode
(``context_mode.router.route``); this module applies it, spills full payloads to the store and
hands indexing to a worker thread after the reply is built.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import mcp.types as types

from context_mode.cache import CachedResult, ResultCache, call_key, is_read_only
from context_mode.errors import StoreError
from context_mode.policy import RoutingPolicy, StyleChoice, resolve_style
from context_mode.router import FRAME_BYTES, Decision, Direct, Directive, Summary, route
from context_mode.stage1 import render, render_pointer
from context_mode.stats import Stats
from context_mode.summaries import Extract
from context_mode.toolnames import is_log_tool
from context_mode.types import ContentKind, OutputStyle
from hub.config import HubConfig
from hub.convert import (
    META_MODE,
    META_ROUTE,
    META_UPSTREAM,
    error_result,
    result_text,
    text_result,
    with_meta,
)
from hub.downstream import ProgressFn
from hub.errors import DownstreamError
from hub.pool import Pool, Target
from tools.errors import ToolError
from tools.registry import NativeTool

log = logging.getLogger("ctxhub.service")

ROUTE_OFF_LOOP_BYTES = 64 * 1024  # route bigger payloads in a worker thread so other calls keep flowing
INDEX_THREADS = 4
MAX_PENDING_INDEX = 32
MAX_TRAITS = 4096  # beyond this many payloads waiting to be indexed, a call waits for its own
POINTER_BYTES = 300
LLM_INPUT_CHARS = 200_000  # how much of a payload an opt-in LLM summary reads
STATS_EVERY = 5.0  # seconds between writes of stats.json
DRAIN_SECONDS = 30.0  # at shutdown, how long queued indexing may still run


@dataclass(frozen=True)
class Spill:
    ref: str
    spill_path: Path | None


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
        self.llm = llm
        self._stats_saved = 0.0
        self._group: anyio.abc.TaskGroup | None = None
        # Several indexing threads let the store group their commits (~30 ms each, whatever the size).
        self._index_limiter = anyio.CapacityLimiter(INDEX_THREADS)
        self._pending = 0
        self._drained = anyio.Event()
        # Per exposed tool: its style and whether it is cacheable (globs matched once, not per call).
        # Keyed by id(); the entry holds its Target so a reused id never returns a stale entry.
        self._traits: dict[int, tuple[Target, StyleChoice, bool]] = {}

    @asynccontextmanager
    async def running(self) -> AsyncIterator[HubService]:
        async with self.pool.running(), anyio.create_task_group() as group:
            self._group = group
            try:
                yield self
            finally:
                # Every ref handed out must become readable: let queued indexing finish first.
                with anyio.move_on_after(DRAIN_SECONDS, shield=True):
                    while self._pending:
                        await self._drained.wait()
                        self._drained = anyio.Event()
                self._group = None
                self.save_stats(force=True)
                group.cancel_scope.cancel()

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
            return error_result(
                f"ctxhub has no tool named {name!r}; list the tools again (tools/list) "
                "and use an exposed name such as 'server__tool'"
            )
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
        routed = await self._route(name, target, style, arguments, result, cacheable=cacheable)
        if caching and not result.is_error:
            self.cache.put(key, routed[1])
        return routed[0]

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

    def _wants_llm(self, target: Target) -> bool:
        if self.llm is None:
            return False
        return any(
            entry.summarizer == "llm" and fnmatch.fnmatchcase(target.tool.name, glob)
            for glob, entry in target.downstream.config.tools.items()
        )

    async def _llm_summary(self, decision: Summary, text: str) -> Summary:
        """The endpoint's summary in place of the extracts (opt-in); the extracts when it fails."""
        room = max(128, self.policy.summary_budget - FRAME_BYTES)
        answer = await anyio.to_thread.run_sync(
            functools.partial(self.llm.summarize, text[:LLM_INPUT_CHARS], max_tokens=max(32, room // 4))
        )
        if not answer:
            return decision
        body = answer.encode("utf-8")[:room].decode("utf-8", "ignore")
        extract = Extract(
            text=body,
            kind=decision.kind,
            outline=decision.extract.outline,
            highlights=decision.extract.highlights,
        )
        return Summary(f"{decision.reason}; LLM summary", decision.kind, extract)

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

    async def _route(
        self,
        name: str,
        target: Target,
        style: StyleChoice,
        arguments: dict[str, Any],
        result: types.CallToolResult,
        *,
        cacheable: bool,
    ) -> tuple[types.CallToolResult, CachedResult]:
        text = result_text(result)
        if text is None:
            decision: Decision = Direct("non-text content passes unchanged")
            size = 0
        else:
            size = len(text.encode("utf-8", "surrogatepass"))
            decide = functools.partial(
                route,
                text,
                style=style.style,
                policy=self.policy,
                tool=target.tool.name,
                arguments=arguments,
                is_error=bool(result.is_error),
            )
            decision = await anyio.to_thread.run_sync(decide) if size > ROUTE_OFF_LOOP_BYTES else decide()
        if isinstance(decision, Summary) and text is not None and self._wants_llm(target):
            decision = await self._llm_summary(decision, text)
        spill: Spill | None = None
        match decision:
            case Direct():
                if text is not None and cacheable and size > POINTER_BYTES:
                    spill = await self._spill(text, name, ContentKind.TEXT, log_file=False, size=size)
                stage1 = text if text is not None else ""
                out = result
            case Summary() | Directive():
                assert text is not None
                is_log = decision.kind is ContentKind.LOG or is_log_tool(target.tool.name)
                spill = await self._spill(text, name, decision.kind, log_file=is_log, size=size)
                stage1 = render(
                    decision,
                    tool=name,
                    ref=spill.ref if spill else None,
                    original_bytes=size,
                    spill_path=spill.spill_path if spill else None,
                )
                keep_structured = style.style is OutputStyle.DIRECT and result.structured_content is not None
                out = types.CallToolResult(
                    content=[types.TextContent(text=stage1)],
                    structured_content=result.structured_content if keep_structured else None,
                    is_error=result.is_error,
                    _meta=result.meta,
                )
        mode = type(decision).__name__.lower()
        returned = len(stage1.encode("utf-8", "surrogatepass")) if text is not None else 0
        route_meta = {
            "mode": mode,
            "reason": decision.reason,
            "style": style.style.value,
            "original_bytes": size,
            "returned_bytes": returned,
            "ref": spill.ref if spill else None,
            "spill_path": str(spill.spill_path) if spill and spill.spill_path else None,
            "cache_hit": False,
        }
        self.stats.record(name, mode=mode, bytes_in=size, bytes_out=returned, error=bool(result.is_error))
        # Keep the stage-1 text only where a repeat may replay it: the cache stays small.
        replayable = self.config.cache.repeat == "replay" or returned <= POINTER_BYTES or spill is None
        cached = CachedResult(
            tool=name,
            namespace=target.downstream.name,
            ref=spill.ref if spill else None,
            stage1=stage1 if replayable else "",
            mode=mode,
            original_bytes=size,
            created=self.cache.now(),
        )
        if spill is not None and self._pending >= MAX_PENDING_INDEX:
            await self._index(spill.ref)  # back-pressure: never hold an unbounded backlog of payloads
        elif spill is not None and self._group is not None:
            self._group.start_soon(self._index, spill.ref)
        self.save_stats()
        return with_meta(out, {META_ROUTE: route_meta}), cached

    async def _spill(
        self, text: str, source: str, kind: ContentKind, *, log_file: bool, size: int
    ) -> Spill | None:
        # reserve masks secrets and may write a spill file: big payloads do that off the event loop
        reserve = functools.partial(self.store.reserve, text, source=source, kind=kind, spill_file=log_file)
        try:
            off_loop = size > ROUTE_OFF_LOOP_BYTES
            reservation = await anyio.to_thread.run_sync(reserve) if off_loop else reserve()
        except StoreError as exc:  # the agent still gets the summary; the note says it is not stored
            log.warning("could not store the result of %s: %s", source, exc)
            return None
        self._pending += 1
        return Spill(reservation.ref, reservation.spill_path)

    async def _index(self, ref: str) -> None:
        try:
            await anyio.to_thread.run_sync(self.store.index, ref, limiter=self._index_limiter)
        except Exception as exc:  # indexing failures are logged; a read of the ref reports them
            log.error("indexing %s failed: %s", ref, exc)
        finally:
            self._pending -= 1
            if not self._pending:
                self._drained.set()

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
