"""The server side of the proxy: everything the agent talks to.

``HubService`` (``service``) lists and calls tools and routes results (``routing``: Direct,
Summary, Directive, spills; ``repeats``: "same result" pointers and deltas, per client session
from ``sessions``); ``server`` builds the SDK's low-level ``Server`` over it
and serves stdio (``stdio``); ``http`` serves streamable HTTP and legacy SSE behind
``http_security``. ``proxy`` adds resources, prompts, completions and logging, ``relay`` the
server-initiated requests, ``subscriptions`` and ``listen`` the change notifications;
``convert`` turns SDK results into text and back.

Exports below; the modules are private to this part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hub.exports import lazy_exports

if TYPE_CHECKING:
    from hub.serve.convert import META_MODE as META_MODE
    from hub.serve.http import serve_http as serve_http
    from hub.serve.http_security import DASHBOARD_COOKIE as DASHBOARD_COOKIE
    from hub.serve.http_security import AccessPolicy as AccessPolicy
    from hub.serve.http_security import Guard as Guard
    from hub.serve.http_security import require_token_for as require_token_for
    from hub.serve.server import serve_stdio as serve_stdio
    from hub.serve.service import HubService as HubService
    from hub.serve.status_file import server_rows as server_rows
    from hub.serve.surface import list_bytes as list_bytes

# Loaded on first use, so that a command imports only what it serves (``ctxhub serve`` over
# stdio never loads the HTTP stack).
_EXPORTS = {
    "AccessPolicy": "http_security",
    "DASHBOARD_COOKIE": "http_security",
    "Guard": "http_security",
    "require_token_for": "http_security",
    "server_rows": "status_file",
    "HubService": "service",
    "META_MODE": "convert",
    "serve_http": "http",
    "serve_stdio": "server",
    "list_bytes": "surface",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)
