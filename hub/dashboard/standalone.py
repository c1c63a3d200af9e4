"""``ctxhub dashboard``: the dashboard on 127.0.0.1 over store directories, read-only.

Contract: ``build_dashboard_app(sources, token=None)`` is the ASGI app (the dashboard routes
behind ``hub.serve.Guard``: loopback Host names only, the token if one is given, and ``/``
redirecting to ``/dashboard``). ``serve_dashboard(sources, port, token)`` binds 127.0.0.1 (a
busy port is a ``ConfigError`` naming ``--port``), prints the URL on stderr and serves until
SIGINT/SIGTERM; it never writes to a store.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Sequence
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from hub.dashboard.app import dashboard_routes
from hub.dashboard.sources import Source
from hub.errors import ConfigError
from hub.serve import AccessPolicy, Guard

HOST = "127.0.0.1"
DEFAULT_PORT = 8766


def build_dashboard_app(sources: Sequence[Source], *, token: str | None = None) -> Any:
    async def home(_request: Request) -> RedirectResponse:
        return RedirectResponse("/dashboard", status_code=307)

    app = Starlette(routes=[Route("/", home, methods=["GET"]), *dashboard_routes(sources)])
    return Guard(app, AccessPolicy.build(token=token))


def serve_dashboard(sources: Sequence[Source], *, port: int = DEFAULT_PORT, token: str | None = None) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, port))
    except OSError as exc:
        listener.close()
        raise ConfigError(
            f"cannot listen on {HOST}:{port} ({exc.strerror or exc}); pass another --port "
            "or stop the process that holds it"
        ) from exc
    bound = listener.getsockname()[1]
    where = ", ".join(f"{source.label} ({source.location})" for source in sources)
    login = "?token=<your token>" if token else ""
    sys.stderr.write(f"ctxhub: dashboard at http://{HOST}:{bound}/dashboard{login} reading {where}\n")
    sys.stderr.flush()
    config = uvicorn.Config(
        build_dashboard_app(sources, token=token),
        log_level="warning",
        log_config=None,
        lifespan="off",
        ws="none",
        access_log=False,
        server_header=False,
    )
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
