"""The dashboard's HTML building blocks: escaping, the page frame, tables, links that keep the store.

Contract: ``escape`` (``html.escape`` with quotes) is the only way a value reaches the markup;
``escape_output`` also drops ANSI colour codes from tool output; ``json_island`` puts JSON in a
``<script type="application/json">`` with ``<``, ``>`` and ``&`` escaped, so no text can close
it. ``layout`` loads only the package's own script files (no inline script: the CSP forbids it).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from html import escape as _escape
from typing import Any
from urllib.parse import urlencode

PREFIX = "/dashboard"
VIEWS = (
    ("", "Overview"),
    ("/calls", "Calls"),
    ("/store", "Store"),
    ("/memory", "Memory"),
    ("/servers", "Servers"),
)


ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def escape(value: Any) -> str:
    return _escape("" if value is None else str(value), quote=True)


def escape_output(text: str) -> str:
    """Tool output for a ``<pre>``: escaped, without ANSI colour codes (a browser shows them as boxes)."""
    return escape(ANSI.sub("", text))


def json_island(element_id: str, value: Any) -> str:
    text = json.dumps(value).replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return f'<script type="application/json" id="{escape(element_id)}">{text}</script>'


@dataclass(frozen=True)
class Nav:
    """Which store is shown (``store`` label, carried on every link) and which ones may be chosen."""

    store: str = ""
    stores: tuple[tuple[str, str], ...] = ()  # (label, location)

    def link(self, path: str, **params: Any) -> str:
        query = {key: value for key, value in params.items() if value not in (None, "")}
        if self.store and len(self.stores) > 1:
            query["store"] = self.store
        return PREFIX + path + (f"?{urlencode(query)}" if query else "")


def size(count: int | float | None) -> str:
    if count is None:
        return ""
    value = float(count)
    for unit in ("B", "KB", "MB", "GB"):
        if abs(value) < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts)) if ts else ""


def age(seconds: float | None) -> str:
    if seconds is None:
        return ""
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{seconds / length:.1f} {unit}"
    return f"{seconds:.0f} s"


def layout(nav: Nav, active: str, title: str, body: str) -> str:
    tabs = "".join(
        f'<a href="{escape(nav.link(path))}"{" class=active" if path == active else ""}>{label}</a>'
        for path, label in VIEWS
    )
    chooser = ""
    if len(nav.stores) > 1:
        options = "".join(
            f'<option value="{escape(label)}"{" selected" if label == nav.store else ""}>'
            f"{escape(label)} ({escape(location)})</option>"
            for label, location in nav.stores
        )
        chooser = (
            f'<form class=stores method=get action="{escape(PREFIX + active)}">'
            f"<label>Store <select name=store id=store-select>{options}</select></label>"
            "<button>Show</button></form>"
        )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · ctxhub</title>"
        f'<link rel=stylesheet href="{PREFIX}/static/dashboard.css"></head><body>'
        f"<header><strong>ctxhub</strong><nav>{tabs}</nav>{chooser}</header>"
        f"<main><h1>{escape(title)}</h1>{body}</main>"
        f'<script src="{PREFIX}/static/chart.umd.min.js"></script>'
        f'<script src="{PREFIX}/static/dashboard.js"></script>'
        "</body></html>"
    )


def table(headers: tuple[str, ...], rows: list[str], *, element_id: str = "", empty: str = "none yet") -> str:
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    body = "".join(rows) or f'<tr><td colspan="{len(headers)}" class=empty>{escape(empty)}</td></tr>'
    ident = f' id="{escape(element_id)}"' if element_id else ""
    return f"<table{ident}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def cells(*values: Any, numeric: tuple[int, ...] = ()) -> str:
    parts = []
    for index, value in enumerate(values):
        kind = " class=num" if index in numeric else ""
        parts.append(f"<td{kind}>{value}</td>")
    return "<tr>" + "".join(parts) + "</tr>"


def problem_note(problem: str | None) -> str:
    return f"<p class=problem role=alert>{escape(problem)}</p>" if problem else ""


def pager(nav: Nav, path: str, page: int, pages: int, **params: Any) -> str:
    if pages <= 1:
        return ""
    links = []
    if page > 1:
        links.append(f'<a rel=prev href="{escape(nav.link(path, page=page - 1, **params))}">← newer</a>')
    links.append(f"<span>page {page} of {pages}</span>")
    if page < pages:
        links.append(f'<a rel=next href="{escape(nav.link(path, page=page + 1, **params))}">older →</a>')
    return "<p class=pager>" + " ".join(links) + "</p>"
