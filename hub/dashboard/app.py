"""The dashboard's Starlette routes: HTML pages, small JSON endpoints and the vendored static files.

Contract: ``dashboard_routes(sources)`` returns routes under ``/dashboard`` for one or more
``Source``s (``?store=<label>`` picks one; the first by default; an unknown label is a 404 that
lists the known ones). Pages: ``/dashboard`` (overview), ``/calls`` (``page``, ``tool``, ``mode``),
``/calls/{seq}`` (``start``: first payload line), ``/store`` (``page``, ``q``, ``ref``),
``/memory``, ``/servers``. JSON: the same views under ``/dashboard/api/…`` plus ``/api/stores``
and ``/api/search``. Bad query values are a 400 naming the parameter. Every response carries a
``Content-Security-Policy`` that allows only the package's own scripts and styles, and
``Cache-Control: no-store``.

Access is the caller's job (``hub.serve.Guard``: Host/Origin and the bearer token). A browser
cannot send a bearer header, so the Guard also takes the token from ``?token=`` or the
``ctxhub_dashboard`` cookie on ``/dashboard`` paths only; a page asked with ``?token=`` sets
that cookie (HttpOnly, SameSite=Strict, Path=/dashboard) and redirects to the URL without it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from hub.dashboard import markup, pages, views
from hub.dashboard.sources import Source
from hub.serve import DASHBOARD_COOKIE

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {
    "chart.umd.min.js": "text/javascript",
    "dashboard.js": "text/javascript",
    "dashboard.css": "text/css",
}
RECENT_ON_OVERVIEW = 10
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class BadParameter(ValueError):
    """A query parameter the dashboard cannot use (→ 400)."""


def _int(request: Request, name: str, default: int, *, low: int = 0) -> int:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadParameter(f"query parameter {name!r} must be a whole number, not {raw!r}") from None
    if value < low:
        raise BadParameter(f"query parameter {name!r} must be at least {low}, not {value}")
    return value


def dashboard_routes(sources: Sequence[Source]) -> list[Route]:
    if not sources:
        raise ValueError("the dashboard needs at least one source")
    chosen = {source.label: source for source in sources}
    listing = tuple((source.label, source.location) for source in sources)

    def pick(request: Request) -> tuple[Source, markup.Nav]:
        label = request.query_params.get("store") or sources[0].label
        source = chosen.get(label)
        if source is None:
            known = ", ".join(chosen)
            raise BadParameter(f"there is no store {label!r} here; choose one of: {known}")
        return source, markup.Nav(store=label, stores=listing)

    def endpoint(build: Callable[[Request, Source, markup.Nav], Any], *, html: bool) -> Any:
        async def handle(request: Request) -> Response:
            if "token" in request.query_params:  # the Guard accepted it: keep it in a cookie instead
                return _remember_token(request)
            try:
                source, nav = pick(request)
                answer = await anyio.to_thread.run_sync(partial(build, request, source, nav))
            except BadParameter as exc:
                return _respond({"error": str(exc)}, 400, html=html)
            if answer is None:
                return _respond(
                    {"error": "no such call in the call log (it may have been trimmed)"}, 404, html=html
                )
            if html:
                return HTMLResponse(answer, headers=SECURITY_HEADERS)
            return JSONResponse(answer, headers=SECURITY_HEADERS)

        return handle

    def overview(request: Request, source: Source, nav: markup.Nav) -> str:
        recent = views.calls_page(source, per_page=RECENT_ON_OVERVIEW)
        return pages.overview_page(nav, views.overview(source), recent)

    def calls(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any]:
        return views.calls_page(
            source,
            page=_int(request, "page", 1, low=1),
            per_page=_int(request, "per_page", 50, low=1),
            tool=request.query_params.get("tool", ""),
            mode=request.query_params.get("mode", ""),
        )

    def call(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any] | None:
        return views.call_detail(source, int(request.path_params["seq"]), start=_int(request, "start", 0))

    def store(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any]:
        return views.store_view(
            source, page=_int(request, "page", 1, low=1), per_page=_int(request, "per_page", 100, low=1)
        )

    def search(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any] | None:
        query = request.query_params.get("q", "").strip()
        if not query:
            return None
        return views.search(
            source,
            query,
            ref=request.query_params.get("ref", "").strip(),
            limit=_int(request, "limit", 5, low=1),
        )

    def search_json(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any]:
        found = search(request, source, nav)
        if found is None:
            raise BadParameter("query parameter 'q' is needed: the words or identifiers to look for")
        return found

    def store_html(request: Request, source: Source, nav: markup.Nav) -> str:
        return pages.store_page(nav, store(request, source, nav), search(request, source, nav))

    def stores(request: Request, source: Source, nav: markup.Nav) -> dict[str, Any]:
        return {"stores": [{"label": label, "location": location} for label, location in listing]}

    def html(render: Callable[..., str], build: Callable[..., Any]) -> Callable[..., str | None]:
        def page(request: Request, source: Source, nav: markup.Nav) -> str | None:
            view = build(request, source, nav)
            return None if view is None else render(nav, view)

        return page

    simple = {
        "memory": lambda request, source, nav: views.memory_view(source),
        "servers": lambda request, source, nav: views.servers_view(source),
    }
    routes = [
        Route("/dashboard", endpoint(overview, html=True), methods=["GET"]),
        Route("/dashboard/", endpoint(overview, html=True), methods=["GET"]),
        Route("/dashboard/calls", endpoint(html(pages.calls_page, calls), html=True), methods=["GET"]),
        Route(
            "/dashboard/calls/{seq:int}", endpoint(html(pages.call_page, call), html=True), methods=["GET"]
        ),
        Route("/dashboard/store", endpoint(store_html, html=True), methods=["GET"]),
        Route(
            "/dashboard/memory",
            endpoint(html(pages.memory_page, simple["memory"]), html=True),
            methods=["GET"],
        ),
        Route(
            "/dashboard/servers",
            endpoint(html(pages.servers_page, simple["servers"]), html=True),
            methods=["GET"],
        ),
        Route(
            "/dashboard/api/overview",
            endpoint(lambda r, s, n: views.overview(s), html=False),
            methods=["GET"],
        ),
        Route("/dashboard/api/calls", endpoint(calls, html=False), methods=["GET"]),
        Route("/dashboard/api/calls/{seq:int}", endpoint(call, html=False), methods=["GET"]),
        Route("/dashboard/api/store", endpoint(store, html=False), methods=["GET"]),
        Route("/dashboard/api/search", endpoint(search_json, html=False), methods=["GET"]),
        Route("/dashboard/api/memory", endpoint(simple["memory"], html=False), methods=["GET"]),
        Route("/dashboard/api/servers", endpoint(simple["servers"], html=False), methods=["GET"]),
        Route("/dashboard/api/stores", endpoint(stores, html=False), methods=["GET"]),
        Route("/dashboard/static/{name}", _static, methods=["GET"]),
    ]
    return routes


async def _static(request: Request) -> Response:
    name = request.path_params["name"]
    media = STATIC_FILES.get(name)
    if media is None:
        return JSONResponse({"error": f"no static file {name!r}"}, status_code=404)
    return FileResponse(STATIC / name, media_type=media, headers={"x-content-type-options": "nosniff"})


def _respond(body: dict[str, Any], status: int, *, html: bool) -> Response:
    if html:
        text = f"<!doctype html><title>ctxhub</title><p>{markup.escape(body['error'])}</p>"
        return HTMLResponse(text, status_code=status, headers=SECURITY_HEADERS)
    return JSONResponse(body, status_code=status, headers=SECURITY_HEADERS)


def _remember_token(request: Request) -> Response:
    rest = [(key, value) for key, value in request.query_params.multi_items() if key != "token"]
    target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
    response = RedirectResponse(target, status_code=303, headers=SECURITY_HEADERS)
    response.set_cookie(
        DASHBOARD_COOKIE,
        request.query_params["token"],
        httponly=True,
        samesite="strict",
        path="/dashboard",
    )
    return response
