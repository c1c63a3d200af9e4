"""Answers to a repeated read-only call: "same result" pointers, deltas and trust-mode hits.

Contract: ``Repeats.answer(name, target, style, lookup, result, digest)`` takes the fresh downstream
result of a call that this client session made before (``ResultCache.lookup``) and returns the
reply to send instead of routing it, or ``None`` to route it as a first call:

- the same result (``result_digest``: content blocks, structured content and ``isError``, not
  ``_meta``; ``digest_of`` hashes a big one off the event loop): a pointer of at most
  ``POINTER_BYTES`` naming the previous ref (or, for a result no bigger than a pointer, the
  result itself), ``_meta["ctxhub/route"]["mode"] == "repeat"``;
- a small change (``context_mode.delta.compare`` within ``cache.delta_max_bytes``): the new full
  result is stored under a new ref and the reply is one header line naming both refs followed by
  the delta, mode ``"delta"`` with ``previous_ref`` in the route ``_meta``;
- anything else: ``None``.

A DIRECT tool's ``structuredContent`` is always kept in the reply (its output schema is
advertised, and clients check it). ``cached(name, hit)`` is the trust-mode reply from
memory (mode ``"cache"``). Each reply is recorded in ``Stats`` and updates the cache entry.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import anyio
import mcp.types as types

from context_mode.cache import CachedResult, Changed, Lookup, ResultCache, Unchanged
from context_mode.policy import StyleChoice
from context_mode.stage1 import render_delta, render_pointer, render_repeat
from context_mode.stats import Stats
from context_mode.types import OutputStyle
from hub.config import HubConfig
from hub.downstream import Target
from hub.serve.content import split_content
from hub.serve.convert import META_ROUTE, with_meta
from hub.serve.routing import POINTER_BYTES, ROUTE_OFF_LOOP_BYTES, ResultRouter


def result_digest(result: types.CallToolResult) -> str:
    """What a verify repeat compares: the result's content, structured content and error flag."""
    hasher = hashlib.sha256()
    for block in result.content:
        if isinstance(block, types.TextContent):  # the usual case: no copy of the text through JSON
            hasher.update(b"\x00text\x00")
            hasher.update(block.text.encode("utf-8", "surrogatepass"))
        else:
            body = block.model_dump(mode="json", by_alias=True, exclude_none=True)
            hasher.update(b"\x00block\x00" + json.dumps(body, sort_keys=True).encode())
    if result.structured_content is not None:
        hasher.update(b"\x00structured\x00" + json.dumps(result.structured_content, sort_keys=True).encode())
    hasher.update(b"\x00error" if result.is_error else b"\x00ok")
    return hasher.hexdigest()


async def digest_of(result: types.CallToolResult) -> str:
    """``result_digest``, in a worker thread for a big result so other calls keep flowing."""
    text = sum(len(block.text) for block in result.content if isinstance(block, types.TextContent))
    if text > ROUTE_OFF_LOOP_BYTES:
        return await anyio.to_thread.run_sync(result_digest, result)
    return result_digest(result)


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


class Repeats:
    """Builds the reply to a repeat from the cache's verdict; keeps the cache entry current."""

    def __init__(
        self,
        config: HubConfig,
        *,
        cache: ResultCache,
        router: ResultRouter,
        stats: Stats,
        holds: Callable[[str], bool],
    ) -> None:
        self.config = config
        self.holds = holds
        self.cache = cache
        self.router = router
        self.stats = stats

    @staticmethod
    def entry(
        cached: CachedResult, result: types.CallToolResult, style: StyleChoice, digest: str
    ) -> CachedResult:
        """The router's cache entry completed with what a later repeat compares or replays."""
        structured = result.structured_content if style.style is OutputStyle.DIRECT else None
        return replace(cached, digest=digest, structured=structured)

    async def answer(
        self,
        name: str,
        target: Target,
        style: StyleChoice,
        lookup: Lookup,
        result: types.CallToolResult,
        digest: str,
    ) -> types.CallToolResult | None:
        if lookup.previous is None:
            return None
        text = split_content(result).text
        verdict = self.cache.compare(
            lookup,
            digest=digest,
            text=text,
            max_delta_bytes=self.config.cache.delta_max_bytes,
            holds=self.holds,
        )
        match verdict:
            case Unchanged(previous):
                self.cache.settle(lookup, previous, text=self.cache.text(lookup.key))  # a fresh TTL
                return self._same(name, previous, result, style, text)
            case Changed(previous, delta):
                assert text is not None and previous.ref is not None
                spill = await self.router.keep(text, name, target)
                size = _size(text)
                age = self.cache.now() - previous.created
                reply = render_delta(
                    delta,
                    tool=name,
                    previous_ref=previous.ref,
                    ref=spill.ref if spill else None,
                    age_seconds=age,
                    original_bytes=size,
                )
                returned = _size(reply)
                entry = CachedResult(
                    tool=name,
                    namespace=target.downstream.name,
                    ref=spill.ref if spill else None,
                    stage1="",
                    mode="delta",
                    original_bytes=size,
                    created=self.cache.now(),
                )
                if spill is not None:
                    self.cache.settle(lookup, self.entry(entry, result, style, digest), text=text)
                self.stats.record(name, mode="delta", bytes_in=size, bytes_out=returned)
                route = {
                    "mode": "delta",
                    "reason": f"{delta.summary()} since {age:.0f} s ago ({delta.kind} delta)",
                    "style": style.style.value,
                    "original_bytes": size,
                    "returned_bytes": returned,
                    "ref": spill.ref if spill else None,
                    "previous_ref": previous.ref,
                    "spill_path": str(spill.spill_path) if spill and spill.spill_path else None,
                    "delta": {"kind": delta.kind, "added": delta.added, "removed": delta.removed},
                    "cache_hit": False,
                }
                return self._reply(reply, result, style, route)
        return None

    def _same(
        self,
        name: str,
        previous: CachedResult,
        result: types.CallToolResult,
        style: StyleChoice,
        text: str | None,
    ) -> types.CallToolResult:
        age = self.cache.now() - previous.created
        small = previous.ref is None and text is not None and _size(text) <= POINTER_BYTES
        if self.config.cache.repeat == "replay" and previous.stage1:
            reply = previous.stage1
        elif small:
            reply = text or ""
        else:
            reply = render_repeat(
                tool=name, ref=previous.ref, age_seconds=age, original_bytes=previous.original_bytes
            )
        returned = _size(reply)
        self.stats.record(
            name, mode="repeat", bytes_in=previous.original_bytes, bytes_out=returned, cache_hit=True
        )
        route = {
            "mode": "repeat",
            "reason": f"same result as {age:.0f} s ago (the downstream was called again to check)",
            "style": style.style.value,
            "original_bytes": previous.original_bytes,
            "returned_bytes": returned,
            "ref": previous.ref,
            "first_mode": previous.mode,
            "cache_hit": True,
        }
        if small:  # the result itself is no longer than a pointer: send it as it came
            return with_meta(result, {META_ROUTE: route})
        return self._reply(reply, result, style, route)

    def cached(self, name: str, hit: CachedResult) -> types.CallToolResult:
        """Trust mode: the answer from memory, without calling the downstream."""
        age = self.cache.now() - hit.created
        replay = (
            self.config.cache.repeat == "replay" or hit.ref is None or 0 < _size(hit.stage1) <= POINTER_BYTES
        )
        text = (
            hit.stage1
            if replay
            else render_pointer(
                tool=name, ref=hit.ref, age_seconds=age, ttl=self.cache.ttl, original_bytes=hit.original_bytes
            )
        )
        size = _size(text)
        self.stats.record(name, mode="cache", bytes_in=hit.original_bytes, bytes_out=size, cache_hit=True)
        route = {
            "mode": "cache",
            "reason": f"same call {age:.0f} s ago (TTL {self.cache.ttl:g} s; cache mode trust)",
            "original_bytes": hit.original_bytes,
            "returned_bytes": size,
            "ref": hit.ref,
            "cache_hit": True,
            "first_mode": hit.mode,
        }
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=hit.structured,
            _meta={META_ROUTE: route},
        )

    @staticmethod
    def _reply(
        text: str, result: types.CallToolResult, style: StyleChoice, route: dict[str, Any]
    ) -> types.CallToolResult:
        keep_structured = style.style is OutputStyle.DIRECT and result.structured_content is not None
        out = types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=result.structured_content if keep_structured else None,
            is_error=result.is_error,
            _meta=result.meta,
        )
        return with_meta(out, {META_ROUTE: route})
