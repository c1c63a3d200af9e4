"""The one place that converts between MCP SDK types and the core's plain values.

Contract: ``text_result`` builds a result the hub sends (the routable text of a result comes from
``hub.serve.content``), ``error_result`` an ``isError`` one, and ``with_meta`` adds our namespaced
``_meta`` entries (``META_*`` keys).
``request_error`` and ``unknown_error`` build the ``MCPError`` a proxied request (``hub.serve.proxy``,
``hub.serve.subscriptions``) fails with: a server's own JSON-RPC error keeps its code (the message names
the server), a server that is not connected, too slow or crashed gives ``INTERNAL_ERROR``, and an
unknown prompt, URI or template is ``INVALID_PARAMS``.
"""

from __future__ import annotations

from typing import Any

import mcp.types as types
from mcp.shared.exceptions import MCPError

from hub.errors import DownstreamError

META_MODE = "ctxhub/context_mode"
META_ROUTE = "ctxhub/route"
META_UPSTREAM = "ctxhub/server"


def text_result(
    text: str, *, is_error: bool = False, meta: dict[str, Any] | None = None
) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error, _meta=meta)


def error_result(message: str, **route: Any) -> types.CallToolResult:
    """An ``isError`` result carrying one clear sentence and its route metadata."""
    size = len(message.encode("utf-8", "surrogatepass"))
    meta = {META_ROUTE: {"mode": "error", "original_bytes": size, "returned_bytes": size, **route}}
    return text_result(message, is_error=True, meta=meta)


def with_meta(result: types.CallToolResult, extra: dict[str, Any]) -> types.CallToolResult:
    return result.model_copy(update={"meta": {**(result.meta or {}), **extra}})


def forwardable_meta(meta: Any) -> dict[str, Any] | None:
    """Request ``_meta`` keys worth passing downstream (not progress tokens, not reserved keys)."""
    if not meta:
        return None
    items = dict(meta)
    kept = {
        key: value
        for key, value in items.items()
        if key not in ("progress_token", "progressToken") and "modelcontextprotocol" not in key
    }
    return kept or None


def request_error(exc: DownstreamError) -> MCPError:
    """The error a client gets for a proxied request that failed downstream."""
    cause = exc.__cause__
    if isinstance(cause, MCPError) and cause.code not in (types.REQUEST_TIMEOUT, types.CONNECTION_CLOSED):
        return MCPError(cause.code, str(exc), cause.data)
    return MCPError(types.INTERNAL_ERROR, str(exc))


def unknown_error(what: str, fix: str) -> MCPError:
    """``ctxhub has <what>; <fix>`` as ``INVALID_PARAMS`` (an unknown prompt, URI or template)."""
    return MCPError(types.INVALID_PARAMS, f"ctxhub has {what}; {fix}")
