"""The call log's record of one ``tools/call``, built from the reply the agent got.

Contract: ``call_record(name, server, result, seconds)`` reads the hub's ``_meta["ctxhub/route"]``
(mode, reason, bytes, ref, cache hit, delta) and the reply's text (the stage-1 text); a reply
without route metadata (an error built before routing) is recorded as mode ``error``.
"""

from __future__ import annotations

import time
from typing import Any

import mcp.types as types

from context_mode.calls import CallRecord
from hub.serve.content import split_content
from hub.serve.convert import META_ROUTE


def call_record(name: str, server: str, result: types.CallToolResult, seconds: float) -> CallRecord:
    route: dict[str, Any] = dict((result.meta or {}).get(META_ROUTE) or {})
    content = split_content(result)
    text = content.text
    stage1 = text if text is not None else ""
    if content.media:
        stage1 += (
            f"{chr(10) if stage1 else ''}({len(content.media)} non-text block(s) passed beside the text)"
        )
    sent = len(stage1.encode("utf-8", "surrogatepass")) if text is not None else 0
    delta = route.get("delta")
    delta_text = None
    if isinstance(delta, dict):
        delta_text = f"added {delta.get('added', 0)}, removed {delta.get('removed', 0)} ({delta.get('kind')})"
    return CallRecord(
        ts=time.time(),
        tool=name,
        server=server,
        mode=str(route.get("mode") or ("error" if result.is_error else "direct")),
        reason=str(route.get("reason") or ""),
        bytes_in=int(route.get("original_bytes") or sent),
        bytes_out=int(route.get("returned_bytes", sent) or 0),
        latency_ms=round(seconds * 1000, 3),
        ref=route.get("ref") or route.get("previous_ref"),
        stage1=stage1,
        is_error=bool(result.is_error),
        cache_hit=bool(route.get("cache_hit")),
        delta=delta_text,
    )
