"""Serve the hub over HTTP: streamable HTTP at ``/mcp`` and legacy HTTP+SSE at ``/sse`` + ``/messages/``.

Contract: ``build_app(service, token=..., allowed_hosts=...)`` returns one ASGI app (``HubApp``)
serving both MCP transports, ``/healthz`` and ``/readyz``, behind ``hub.http_security.Guard``.
Its lifespan enters ``service.running()`` once, so every client of either transport shares one
downstream pool (the SDK ``Server``'s own lifespan runs per SSE connection, so nothing lives
there), and runs the streamable-HTTP session manager (whose ``run()`` may be entered only once).
Shutdown order: ``HubApp.close_clients()`` ends every open request and stream, then the
lifespan exits the session manager, then the downstreams.

``serve_http(service, transport, host, port, token)`` refuses a non-loopback bind without a
token (``ConfigError``), binds, runs uvicorn inside the caller's event loop and returns after a
graceful shutdown on SIGINT/SIGTERM/SIGHUP or cancellation of the caller. ``transport`` may be
``"http"`` or ``"sse"``: both serve all endpoints, so old and new clients connect either way.

Limits (``hub.serve.http_limits``): at most ``http.max_connections`` open ``/sse`` streams and as
many ``/mcp`` requests at once (503 past it); the soft open-files limit is raised to the hard one
at start; a log message repeated by a flood (accept errors when fds run out) is logged once per
10 s with a count.

Endpoints: ``/healthz`` → 200 while the process serves (no token needed). ``/readyz`` (no token
needed) → 200 when every downstream is ready ("ready") or at least one is ("degraded"); 503
while one is still starting for the first time ("starting") or when none is up ("down"); the
per-server states are shown only to a caller holding the token (or when no token is set).
``/dashboard`` serves the dashboard (``hub.dashboard``) over this hub, behind the same rules; a
browser passes the token once as ``?token=`` and keeps it in an HttpOnly cookie.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import anyio
import anyio.abc
import uvicorn
from mcp.server.sse import SseServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.types import Message, Receive, Scope, Send

from hub.dashboard import LiveSource, dashboard_routes
from hub.errors import ConfigError, HubError
from hub.serve.http_limits import (
    DEFAULT_MAX_CONNECTIONS,
    RETRY_AFTER_SECONDS,
    ConnectionLimits,
    RepeatFilter,
    raise_fd_limit,
)
from hub.serve.http_security import (
    AUTHORIZED,
    MAX_BODY_BYTES,
    AccessPolicy,
    Guard,
    require_token_for,
    split_hosts,
)
from hub.serve.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from hub.serve.metrics import HubMetrics
from hub.serve.server import build_server, initialization_options
from hub.serve.service import HubService

log = logging.getLogger("ctxhub.http")
TRANSPORTS = ("http", "sse")
GRACEFUL_SHUTDOWN = 5.0  # seconds uvicorn waits for requests after close_clients() before cancelling them
SHUTDOWN_LIMIT = 60.0  # seconds serve_http waits for the whole shutdown, downstreams included
MESSAGES_PATH = "/messages/"


class HubApp:
    """The ASGI app: request tracker → guard → Starlette routes. ``close_clients()`` starts shutdown.

    The tracker comes first so that shutdown also ends a request whose body is still trickling
    in through the guard (else uvicorn's graceful timeout would wait for it).
    """

    def __init__(
        self, routes_app: Starlette, policy: AccessPolicy, limits: ConnectionLimits | None = None
    ) -> None:
        self.policy = policy
        self.limits = limits or ConnectionLimits()
        self._routes = routes_app
        self._guarded = Guard(routes_app, policy)
        self._open: set[anyio.Event] = set()
        self._closing = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._track(scope, receive, send)

    def close_clients(self) -> None:
        """End every open request and stream (SSE and streamable HTTP); refuse new ones with 503.

        Each one is told its client disconnected, so the SDK transports unwind as they do for a
        real disconnect (closing their streams); uvicorn's graceful timeout is the backstop.
        """
        self._closing = True
        for closing in list(self._open):
            closing.set()

    async def _track(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._routes(scope, receive, send)
            return
        if self._closing:
            await JSONResponse({"error": "ctxhub is shutting down"}, status_code=503)(scope, receive, send)
            return
        transport = self.limits.transport_of(scope["path"])
        if transport is not None and not self.limits.admit(transport):
            refusal = JSONResponse(
                {"error": self.limits.refusal(transport)},
                status_code=503,
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
            await refusal(scope, receive, send)
            return
        try:
            await self._serve(scope, receive, send)
        finally:
            if transport is not None:
                self.limits.release(transport)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        closing = anyio.Event()
        response = {"started": False, "complete": False}

        async def watched_receive() -> Message:
            if closing.is_set():
                return {"type": "http.disconnect"}
            message: Message = {"type": "http.disconnect"}
            async with anyio.create_task_group() as group:

                async def real() -> None:
                    nonlocal message
                    message = await receive()
                    group.cancel_scope.cancel()

                async def shutdown() -> None:
                    await closing.wait()
                    group.cancel_scope.cancel()

                group.start_soon(real)
                group.start_soon(shutdown)
            return message

        async def watched_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                response["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                response["complete"] = True
            await send(message)

        self._open.add(closing)
        try:
            await self._guarded(scope, watched_receive, watched_send)
        finally:
            self._open.discard(closing)
        if closing.is_set() and response["started"] and not response["complete"]:
            # Ended by shutdown mid-stream: finish the response so the client sees a clean end of stream.
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class _SseEndpoint:
    """``GET /sse``: one legacy SSE connection, served by the shared ``Server`` until the client leaves."""

    def __init__(self, transport: SseServerTransport, server: Any) -> None:
        self._transport = transport
        self._server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        connected = False
        try:
            async with self._transport.connect_sse(scope, receive, send) as (read, write):
                connected = True
                await self._server.run(read, write, initialization_options(self._server))
        except ValueError:
            if connected:
                raise
            # connect_sse already answered (its own Host/Origin check); nothing more to send.


def build_app(
    service: HubService,
    *,
    token: str | None,
    allowed_hosts: Iterable[str] = (),
    max_body_bytes: int = MAX_BODY_BYTES,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> HubApp:
    """The hub's HTTP app; loopback names are always allowed, ``allowed_hosts`` adds more (any port)."""
    policy = AccessPolicy.build(token=token, allowed_hosts=allowed_hosts, max_body_bytes=max_body_bytes)
    server = build_server(service)
    sdk_settings = policy.sdk_settings()
    sse = SseServerTransport(
        MESSAGES_PATH, security_settings=sdk_settings, max_request_body_size=max_body_bytes
    )
    manager = StreamableHTTPSessionManager(
        app=server, security_settings=sdk_settings, max_request_body_size=max_body_bytes
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # Downstreams start first and stop last: clients are closed before the pool goes away.
        async with service.running(), manager.run():
            yield

    metrics = HubMetrics(service)
    service.call_observers.append(metrics.observe_call)

    async def metrics_endpoint(_request: Request) -> Response:
        return Response(metrics.exposition(), media_type=METRICS_CONTENT_TYPE)

    async def healthz(_request: Request) -> JSONResponse:
        return JSONResponse({"status": "alive"})

    async def readyz(request: Request) -> JSONResponse:
        body = readiness(service, detail=bool(request.scope.get(AUTHORIZED)))
        return JSONResponse(body, status_code=200 if body["status"] in ("ready", "degraded") else 503)

    routes_app = Starlette(
        routes=[
            # Route, not Mount: a Mount would redirect /mcp to /mcp/.
            Route("/mcp", endpoint=StreamableHTTPASGIApp(manager)),
            Route("/sse", endpoint=_SseEndpoint(sse, server), methods=["GET"]),
            Mount(MESSAGES_PATH.rstrip("/"), app=sse.handle_post_message),
            Route("/healthz", endpoint=healthz, methods=["GET"]),
            Route("/readyz", endpoint=readyz, methods=["GET"]),
            Route("/metrics", endpoint=metrics_endpoint, methods=["GET"]),
            *dashboard_routes([LiveSource(service)]),  # /dashboard: same Host/Origin and token rules
        ],
        lifespan=lifespan,
    )
    return HubApp(routes_app, policy, ConnectionLimits(max_connections))


def readiness(service: HubService, *, detail: bool) -> dict[str, Any]:
    """The ``/readyz`` body: status ready | degraded | starting | down, counts, and states if ``detail``."""
    states = {name: downstream.state for name, downstream in service.pool.downstreams.items()}
    ready = sum(state == "ready" for state in states.values())
    if ready == len(states):
        status = "ready"
    elif "starting" in states.values():
        status = "starting"
    elif ready:
        status = "degraded"
    else:
        status = "down"
    body: dict[str, Any] = {"status": status, "ready": ready, "total": len(states)}
    if detail:
        body["servers"] = states
    return body


class _Uvicorn(uvicorn.Server):
    """uvicorn in our loop: says when it listens, closes clients first on shutdown, leaves signals to us."""

    def __init__(self, config: uvicorn.Config, app: HubApp) -> None:
        super().__init__(config)
        self.hub_app = app
        self.listening = anyio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.listening.set()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.hub_app.close_clients()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # uvicorn would re-raise SIGTERM after shutdown and kill the process before the store closes.
        yield


async def serve_http(
    service: HubService,
    transport: str,
    host: str,
    port: int,
    token: str | None,
    *,
    allowed_hosts: Iterable[str] = (),
    max_body_bytes: int = MAX_BODY_BYTES,
    task_status: anyio.abc.TaskStatus[int] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until a signal or cancellation, then shut down gracefully; ``task_status`` gets the bound port.

    Allowed Host names: loopback, ``host`` itself, ``allowed_hosts`` and ``CTXHUB_ALLOWED_HOSTS``.
    """
    if transport not in TRANSPORTS:
        raise ConfigError(
            f"transport {transport!r} is not served over HTTP; use 'http' or 'sse' (or 'stdio')"
        )
    require_token_for(host, token)
    extra = split_hosts([host, *allowed_hosts, os.environ.get("CTXHUB_ALLOWED_HOSTS", "")])
    raise_fd_limit()
    app = build_app(
        service,
        token=token,
        allowed_hosts=extra,
        max_body_bytes=max_body_bytes,
        max_connections=service.config.http.max_connections,
    )
    listener = _bind(host, port)
    bound_port = listener.getsockname()[1]
    config = uvicorn.Config(
        app,
        host=host,
        port=bound_port,
        log_level="warning",
        log_config=None,
        lifespan="on",
        ws="none",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=int(GRACEFUL_SHUTDOWN),
    )
    server = _Uvicorn(config, app)
    quieter = RepeatFilter()
    noisy = [logging.getLogger(name) for name in ("asyncio", "uvicorn.error")]
    for logger in noisy:
        logger.addFilter(quieter)
    stopped = anyio.Event()
    failed: list[str] = []

    async def run() -> None:
        try:
            with anyio.CancelScope(shield=True):  # stopping goes through should_exit, never a raw cancel
                await server.serve(sockets=[listener])
        except SystemExit:  # uvicorn's answer to a failed startup; the reason is already logged
            failed.append("startup")
        finally:
            listener.close()
            stopped.set()
            server.listening.set()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(run, name="uvicorn")
            group.start_soon(_exit_on_signal, server, name="signals")
            try:
                await server.listening.wait()
                if server.started:
                    _announce(host, bound_port, token)
                    task_status.started(bound_port)
                await stopped.wait()
            finally:
                server.should_exit = True
                with anyio.move_on_after(SHUTDOWN_LIMIT, shield=True) as limit:
                    await stopped.wait()
                if limit.cancelled_caught:
                    log.warning("the HTTP server did not stop within %g s; leaving it behind", SHUTDOWN_LIMIT)
                group.cancel_scope.cancel()
    finally:
        listener.close()
        for logger in noisy:
            logger.removeFilter(quieter)
    if failed:
        raise HubError(f"the HTTP server on {host}:{bound_port} failed to start (see the error logged above)")


def _bind(host: str, port: int) -> socket.socket:
    address = host.strip("[]")
    listener = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((address, port))
    except OSError as exc:
        listener.close()
        raise ConfigError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}); pass another --port "
            "or --host, or stop the process that holds it"
        ) from exc
    return listener


def _announce(host: str, port: int, token: str | None) -> None:
    """One line on stderr: the address really bound, and the URLs a client uses."""
    auth = "bearer token required" if token else "no token"
    if host in ("0.0.0.0", "::", ""):  # every interface: no single URL is right for every client
        bound = f"[{host}]:{port}" if host == "::" else f"{host or '0.0.0.0'}:{port}"
        base = f"http://127.0.0.1:{port}"
        sys.stderr.write(
            f"ctxhub: listening on {bound} (all interfaces); MCP at http://<this host>:{port}/mcp "
            f"(streamable HTTP) and /sse (SSE), from this machine {base}/mcp; {auth}\n"
        )
    else:
        shown = f"[{host}]" if ":" in host else host
        base = f"http://{shown}:{port}"
        sys.stderr.write(
            f"ctxhub: serving MCP at {base}/mcp (streamable HTTP) and {base}/sse (SSE); {auth}\n"
        )
    sys.stderr.flush()


async def _exit_on_signal(server: uvicorn.Server) -> None:
    try:
        receiver = anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
        with receiver as signals:
            async for signum in signals:
                log.info("received %s; shutting down", signal.Signals(signum).name)
                server.should_exit = True
                return
    except (NotImplementedError, ValueError, RuntimeError):  # not the main thread: the caller stops us
        await anyio.sleep_forever()
