"""Applying the core's routing decision to a downstream result: reply, spill, stats, indexing.

Contract: ``ResultRouter.route()`` takes a tool's ``CallToolResult`` and returns the result the
client gets, carrying ``_meta["ctxhub/route"]``, and the ``CachedResult`` a repeat of the call may
be answered from (its stage-1 text kept only where a repeat may replay it). The core decides the
mode (``context_mode.router.route``; payloads over ``ROUTE_OFF_LOOP_BYTES`` in a worker thread, so
other calls keep flowing, given up after ``routing.summary_seconds`` for a Directive to the stored
payload); this module applies it. The routed text is everything textual the
model would see (text blocks, embedded text resources, structured content: ``hub.serve.content``);
images, audio and blobs pass beside it, counted, and each over ``MEDIA_MAX_BYTES`` is replaced by
a one-line note. DIRECT results pass unchanged otherwise (a cacheable DIRECT text over
``POINTER_BYTES`` is still stored, so a repeat can point at it); SUMMARY and DIRECTIVE replace the
textual content with the stage-1 text (media kept after it) and store the full textual payload
(``store.reserve``; a log also goes to a spill file). A SUMMARY of a tool whose config asks for
``summarizer: llm`` (with an endpoint configured) uses the endpoint's summary in place of the
extracts (the extracts when it fails). A payload the store refuses is logged and the reply says
it is not stored. Every routed call is recorded in ``Stats``.

Indexing: a stored payload's ref is handed out at once and indexed by a worker thread after the
reply is built (``INDEX_THREADS`` at a time, so the store can group their commits); with
``MAX_PENDING_INDEX`` payloads already waiting, a call indexes its own before replying. Inside
``running()`` indexing runs in its task group; on exit queued indexing may finish (at most
``DRAIN_SECONDS``) so every ref handed out becomes readable.
"""

from __future__ import annotations

import fnmatch
import functools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import mcp.types as types

from context_mode.cache import CachedResult, ResultCache
from context_mode.errors import StoreError
from context_mode.policy import RoutingPolicy, StyleChoice
from context_mode.router import FRAME_BYTES, Decision, Direct, Directive, Summary, route
from context_mode.stage1 import render
from context_mode.stats import Stats
from context_mode.summaries import Extract
from context_mode.toolnames import is_log_tool
from context_mode.types import ContentKind, OutputStyle
from hub.config import HubConfig
from hub.downstream import Target
from hub.serve.content import cap_media, media_size, split_content
from hub.serve.convert import META_ROUTE, with_meta

log = logging.getLogger("ctxhub.service")  # the name these messages had before this module split off

ROUTE_OFF_LOOP_BYTES = 64 * 1024  # route bigger payloads in a worker thread so other calls keep flowing
INDEX_THREADS = 4
MAX_PENDING_INDEX = 32  # beyond this many payloads waiting to be indexed, a call waits for its own
POINTER_BYTES = 300
LLM_INPUT_CHARS = 200_000  # how much of a payload an opt-in LLM summary reads
DRAIN_SECONDS = 30.0  # at shutdown, how long queued indexing may still run


@dataclass(frozen=True)
class Spill:
    ref: str
    spill_path: Path | None


class ResultRouter:
    """Routes downstream results through the core, spills them to the store and indexes them."""

    def __init__(
        self,
        config: HubConfig,
        *,
        store: Any,
        policy: RoutingPolicy,
        cache: ResultCache,
        stats: Stats,
        llm: Any = None,
    ) -> None:
        self.config = config
        self.store = store
        self.policy = policy
        self.cache = cache
        self.stats = stats
        self.llm = llm
        self._group: anyio.abc.TaskGroup | None = None
        # Several indexing threads let the store group their commits (~30 ms each, whatever the size).
        self._index_limiter = anyio.CapacityLimiter(INDEX_THREADS)
        self._pending = 0
        self._drained = anyio.Event()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                # Every ref handed out must become readable: let queued indexing finish first.
                with anyio.move_on_after(DRAIN_SECONDS, shield=True):
                    while self._pending:
                        await self._drained.wait()
                        self._drained = anyio.Event()
                self._group = None
                group.cancel_scope.cancel()

    async def _decide_off_loop(self, decide: Callable[[], Decision], size: int) -> Decision:
        """``decide()`` in a worker thread, given up after ``routing.summary_seconds``: a summariser
        slower than that on some payload (a backtracking regex, a pathological shape) leaves its
        thread to finish, and the call is answered with a Directive to the stored payload."""
        seconds = self.config.routing.summary_seconds
        with anyio.move_on_after(seconds):
            return await anyio.to_thread.run_sync(decide, abandon_on_cancel=True)
        log.warning("a %d-byte result was not summarised within %g s: a Directive answers it", size, seconds)
        outline = f"{size} bytes, not summarised within {seconds:g} s (routing.summary_seconds)"
        return Directive(
            reason=f"summarising took longer than {seconds:g} s",
            kind=ContentKind.TEXT,
            extract=Extract(text="", kind=ContentKind.TEXT, outline=outline, highlights=0),
        )

    async def route(
        self,
        name: str,
        target: Target,
        style: StyleChoice,
        arguments: dict[str, Any],
        result: types.CallToolResult,
        *,
        cacheable: bool,
        intent: str = "",
        policy: RoutingPolicy | None = None,
    ) -> tuple[types.CallToolResult, CachedResult]:
        """The reply to a call of exposed tool ``name`` and its cache entry; ``intent`` aims the summary.

        ``policy`` is this tool's routing policy (its budget and floor), default the global one.
        """
        policy = policy or self.policy
        content = split_content(result)
        text = content.text
        if text is None:
            decision: Decision = Direct("non-text content passes unchanged")
            size = 0
        else:
            size = len(text.encode("utf-8", "surrogatepass"))
            decide = functools.partial(
                route,
                text,
                style=style.style,
                policy=policy,
                tool=target.tool.name,
                arguments=arguments,
                is_error=bool(result.is_error),
                intent=intent,
            )
            decision = await self._decide_off_loop(decide, size) if size > ROUTE_OFF_LOOP_BYTES else decide()
        if isinstance(decision, Summary) and text is not None and self._wants_llm(target):
            decision = await self._llm_summary(decision, text, policy.summary_budget)
        spill: Spill | None = None
        match decision:
            case Direct():
                if text is not None and cacheable and size > POINTER_BYTES:
                    spill = await self._spill(text, name, ContentKind.TEXT, log_file=False, size=size)
                stage1 = content.shown if content.shown is not None else (text or "")
                out = result
                if content.media:
                    passed, _ = cap_media(tuple(result.content))
                    out = (
                        result.model_copy(update={"content": passed}) if passed != result.content else result
                    )
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
                media, _ = cap_media(content.media)  # images and blobs pass beside the stage-1 text
                out = types.CallToolResult(
                    content=[types.TextContent(text=stage1), *media],
                    structured_content=result.structured_content if keep_structured else None,
                    is_error=result.is_error,
                    _meta=result.meta,
                )
        mode = type(decision).__name__.lower()
        returned = len(stage1.encode("utf-8", "surrogatepass")) if text is not None else 0
        media_out = sum(media_size(block) for block in out.content)
        route_meta = {
            "mode": mode,
            "reason": decision.reason,
            "style": style.style.value,
            "original_bytes": size,
            "returned_bytes": returned,
            "ref": spill.ref if spill else None,
            "spill_path": str(spill.spill_path) if spill and spill.spill_path else None,
            "cache_hit": False,
            "media_blocks": len(content.media),
            "media_bytes": content.media_bytes,
            "media_returned_bytes": media_out,
        }
        if isinstance(decision, Summary | Directive) and decision.budget:
            route_meta["budget"] = decision.budget  # the stage-1 budget this result was given
        if intent:
            route_meta["intent"] = True
        self.stats.record(
            name,
            mode=mode,
            bytes_in=size + content.media_bytes,
            bytes_out=returned + media_out,
            error=bool(result.is_error),
        )
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
        if spill is not None:
            await self._schedule_index(spill)
        return with_meta(out, {META_ROUTE: route_meta}), cached

    async def keep(self, text: str, name: str, target: Target) -> Spill | None:
        """Store a full result that the client is not sent (a delta's new result) and index it."""
        is_log = is_log_tool(target.tool.name)
        kind = ContentKind.LOG if is_log else ContentKind.TEXT
        size = len(text.encode("utf-8", "surrogatepass"))
        spill = await self._spill(text, name, kind, log_file=is_log, size=size)
        if spill is not None:
            await self._schedule_index(spill)
        return spill

    async def _schedule_index(self, spill: Spill) -> None:
        if self._pending >= MAX_PENDING_INDEX:
            await self._index(spill.ref)  # back-pressure: never hold an unbounded backlog of payloads
        elif self._group is not None:
            self._group.start_soon(self._index, spill.ref)

    def _wants_llm(self, target: Target) -> bool:
        if self.llm is None:
            return False
        return any(
            entry.summarizer == "llm" and fnmatch.fnmatchcase(target.tool.name, glob)
            for glob, entry in target.downstream.config.tools.items()
        )

    async def _llm_summary(self, decision: Summary, text: str, budget: int) -> Summary:
        """The endpoint's summary in place of the extracts (opt-in); the extracts when it fails."""
        room = max(128, budget - FRAME_BYTES)
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
