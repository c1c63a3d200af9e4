"""The local dashboard: what the hub did with each call, what it saved, what the store and memory hold.

``app`` has the Starlette routes under ``/dashboard`` (server-rendered HTML, small JSON endpoints,
static files vendored in ``static/``: Chart.js with its licence, no CDN, no build step); ``views``
builds each view's data from a ``sources.Source``; ``pages`` renders it, escaping every payload
text. The HTTP transport mounts the routes over a ``LiveSource`` (``hub.serve.http``), behind its
token and Host/Origin rules; ``ctxhub dashboard`` (``standalone``) serves them on 127.0.0.1 over
``StoreDirSource``s, read-only, while a hub owns the store.

Exports below; the modules are private to this part.
"""

from __future__ import annotations

from hub.dashboard.app import dashboard_routes
from hub.dashboard.sources import LiveSource, StoreDirSource, sources_for
from hub.dashboard.standalone import build_dashboard_app, serve_dashboard

__all__ = [
    "LiveSource",
    "StoreDirSource",
    "build_dashboard_app",
    "dashboard_routes",
    "serve_dashboard",
    "sources_for",
]
