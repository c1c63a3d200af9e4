"""The dashboard's HTML, rendered on the server from the ``views`` dicts: no template engine, no build step.

Contract: each ``*_page`` function takes a view's dict and a ``Nav`` and returns a whole HTML
document. Every value that came from a tool, a payload, a store or a session goes through
``escape`` or ``escape_output`` or, for chart data, ``json_island`` (``hub.dashboard.markup``), so
a hostile payload shows as text and never runs; the only scripts are the package's own files
(the ``Content-Security-Policy`` that ``hub.dashboard.app`` sends allows no inline script).
"""

from __future__ import annotations

from typing import Any

from hub.dashboard.markup import (
    PREFIX,
    Nav,
    age,
    cells,
    escape,
    escape_output,
    json_island,
    layout,
    pager,
    problem_note,
    size,
    table,
    when,
)
from hub.dashboard.views import MAX_PAYLOAD_LINES, tokens


def _call_rows(nav: Nav, calls: list[dict[str, Any]]) -> list[str]:
    rows = []
    for call in calls:
        repeat = call["delta"] or ("repeat" if call["cache_hit"] else "")
        link = f'<a href="{escape(nav.link("/calls/" + str(call["seq"])))}">{escape(call["tool"])}</a>'
        error = " <span class=bad>error</span>" if call["is_error"] else ""
        rows.append(
            cells(
                escape(call["seq"]),
                escape(when(call["ts"])),
                link + error,
                escape(call["server"]),
                f'<span class="mode mode-{escape(call["mode"])}">{escape(call["mode"])}</span>',
                escape(call["reason"]),
                escape(size(call["bytes_in"])),
                escape(size(call["bytes_out"])),
                escape(repeat),
                escape(f"{call['latency_ms']:.0f} ms"),
                numeric=(0, 6, 7, 9),
            )
        )
    return rows


TOOL_HEADERS = ("tool", "server", "calls", "raw", "sent", "saved", "est. tokens", "modes")
CALL_HEADERS = ("#", "time", "tool", "server", "mode", "reason", "in", "out", "repeat/delta", "latency")


def overview_page(nav: Nav, view: dict[str, Any], recent: dict[str, Any]) -> str:
    totals = view["totals"]
    cards = "".join(
        f"<div class=card><span>{escape(label)}</span><b>{escape(value)}</b></div>"
        for label, value in (
            ("calls", totals["calls"]),
            ("raw bytes", size(totals["bytes_in"])),
            ("bytes sent", size(totals["bytes_out"])),
            ("saved", size(totals["bytes_saved"])),
            ("est. tokens saved", f"{totals['tokens_saved']:,}"),
            ("errors", totals["errors"]),
        )
    )
    tool_rows = [
        cells(
            escape(row["tool"]),
            escape(row["server"]),
            escape(row["calls"]),
            escape(size(row["bytes_in"])),
            escape(size(row["bytes_out"])),
            escape(size(row["bytes_saved"])),
            escape(f"{row['tokens_in']:,} → {row['tokens_out']:,}"),
            escape(", ".join(f"{mode} {count}" for mode, count in sorted(row.get("modes", {}).items()))),
            numeric=(2, 3, 4, 5, 6),
        )
        for row in view["tools"]
    ]
    mode_rows = [
        cells(
            f'<span class="mode mode-{escape(mode)}">{escape(mode)}</span>',
            escape(row["calls"]),
            escape(size(row["bytes_in"])),
            escape(size(row["bytes_out"])),
            escape(f"{row['tokens_saved']:,}"),
            numeric=(1, 2, 3, 4),
        )
        for mode, row in view["modes"].items()
    ]
    body = (
        problem_note(view["source"]["problem"])
        + f"<p class=where>Store: <code>{escape(view['source']['location'])}</code></p>"
        + f"<section class=cards>{cards}</section>"
        + "<section class=charts><figure><figcaption>Savings over time: raw bytes against bytes sent"
        "</figcaption><canvas id=chart-time></canvas></figure>"
        "<figure><figcaption>Per tool: raw bytes against bytes sent</figcaption>"
        "<canvas id=chart-tools></canvas></figure>"
        "<figure><figcaption>Calls by mode</figcaption><canvas id=chart-modes></canvas></figure></section>"
        + "<h2>Per tool</h2>"
        + table(TOOL_HEADERS, tool_rows, element_id="tools")
        + "<h2>By mode</h2>"
        + table(("mode", "calls", "raw", "sent", "est. tokens saved"), mode_rows)
        + f'<h2>Recent calls <a class=more href="{escape(nav.link("/calls"))}">all {recent["total"]}</a></h2>'
        + table(CALL_HEADERS, _call_rows(nav, recent["calls"]), element_id="recent-calls")
        + json_island(
            "chart-data",
            {"series": view["series"], "tools": view["tools"][:20], "modes": view["modes"]},
        )
    )
    return layout(nav, "", "Overview", body)


def calls_page(nav: Nav, view: dict[str, Any]) -> str:
    form = (
        f'<form class=filter method=get action="{PREFIX}/calls">'
        + (f'<input type=hidden name=store value="{escape(nav.store)}">' if len(nav.stores) > 1 else "")
        + f'<label>tool <input name=tool value="{escape(view.get("tool", ""))}"></label>'
        f'<label>mode <input name=mode value="{escape(view.get("mode", ""))}"></label>'
        "<button>Filter</button></form>"
    )
    paging = pager(nav, "/calls", view["page"], view["pages"], tool=view.get("tool"), mode=view.get("mode"))
    body = (
        problem_note(view.get("problem"))
        + form
        + f"<p>{escape(view['total'])} calls, newest first.</p>"
        + paging
        + table(CALL_HEADERS, _call_rows(nav, view["calls"]), element_id="calls")
        + paging
    )
    return layout(nav, "/calls", "Calls", body)


MAX_JUMPS = 30


def kept_runs(numbers: list[int]) -> list[tuple[int, int]]:
    """``[3, 4, 5, 9]`` → ``[(3, 5), (9, 9)]``: runs of consecutive kept line numbers."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def call_page(nav: Nav, view: dict[str, Any]) -> str:
    call, payload = view["call"], view["payload"]
    facts = "".join(
        f"<tr><th>{escape(label)}</th><td>{value}</td></tr>"
        for label, value in (
            ("tool", escape(call["tool"])),
            ("server", escape(call["server"])),
            ("time", escape(when(call["ts"]))),
            ("mode", f'<span class="mode mode-{escape(call["mode"])}">{escape(call["mode"])}</span>'),
            ("reason", escape(call["reason"])),
            ("bytes", escape(f"{size(call['bytes_in'])} raw → {size(call['bytes_out'])} sent")),
            ("est. tokens", escape(f"{tokens(call['bytes_in']):,} → {tokens(call['bytes_out']):,}")),
            ("repeat/delta", escape(call["delta"] or ("repeat" if call["cache_hit"] else "no"))),
            ("latency", escape(f"{call['latency_ms']:.1f} ms")),
            ("ref", escape(call["ref"] or "none")),
            ("error", "yes" if call["is_error"] else "no"),
        )
    )
    if payload["available"]:
        lines = "".join(
            f'<span class="line{" kept" if line["kept"] else ""}" id="L{line["n"]}" data-n="{line["n"]}">'
            f"{escape_output(line['text'])}\n</span>"
            for line in payload["lines"]
        )
        more = ""
        if payload["start"] or payload.get("next_start") is not None:
            links = []
            if payload["start"]:
                back = max(0, payload["start"] - MAX_PAYLOAD_LINES)
                links.append(
                    f'<a href="{escape(nav.link("/calls/" + str(call["seq"]), start=back))}">'
                    "← earlier lines</a>"
                )
            if payload.get("next_start") is not None:
                links.append(
                    f'<a href="{escape(nav.link("/calls/" + str(call["seq"]), start=payload["next_start"]))}">'  # noqa: E501
                    "later lines →</a>"
                )
            more = "<p class=pager>" + " ".join(links) + "</p>"
        count = len(payload["lines"])
        jumps = " ".join(
            f'<a href="#L{first}">{first}{"–" + str(last) if last != first else ""}</a>'
            for first, last in kept_runs([line["n"] for line in payload["lines"] if line["kept"]])[:MAX_JUMPS]
        )
        jump = f"<p class=jumps>Kept lines: {jumps}</p>" if jumps else ""
        payload_html = (
            f"<p>lines {payload['start'] + 1}–{payload['start'] + count} of {payload['total_lines']}; "
            f"<mark>{payload['kept']}</mark> of them shown in stage 1 (highlighted)</p>"
            f"{jump}{more}<pre id=payload>{lines}</pre>{more}"
        )
    else:
        payload_html = f"<p class=note id=payload-note>{escape(payload['note'])}</p>"
    body = (
        f"<table class=facts>{facts}</table>"
        "<section class=sides>"
        f"<div><h2>Stage 1: what the agent got</h2><pre id=stage1>{escape_output(call['stage1'])}</pre></div>"
        f"<div><h2>Full stored payload</h2>{payload_html}</div>"
        "</section>"
    )
    return layout(nav, "/calls", f"Call #{call['seq']}: {call['tool']}", body)


def store_page(nav: Nav, view: dict[str, Any], found: dict[str, Any] | None) -> str:
    share = view["disk_bytes"] / view["max_bytes"] if view["max_bytes"] else 0.0
    facts = (
        f"<p class=where>Store: <code>{escape(view['location'])}</code></p>"
        f"<p>Disk: <b>{escape(size(view['disk_bytes']))}</b> of store.max_bytes "
        f"<b>{escape(size(view['max_bytes']))}</b> "
        f'<meter min=0 max=1 value="{share:.4f}"></meter> {share:.1%}</p>'
    )
    if "payload_bytes" in view:
        facts += (
            f"<p>{escape(view['total'])} refs, payloads {escape(size(view['payload_bytes']))} "
            f"(budget {escape(size(view['payload_max_bytes']))}), {escape(view['chunks'])} chunks, "
            f"{escape(view['evictions'])} evictions, {escape(view['pending'])} pending, "
            f"{escape(view['secrets_masked'])} secrets masked</p>"
        )
    ref_value = escape(found["ref"]) if found else ""
    query_value = escape(found["query"]) if found else ""
    form = (
        f'<form class=filter method=get action="{PREFIX}/store">'
        + (f'<input type=hidden name=store value="{escape(nav.store)}">' if len(nav.stores) > 1 else "")
        + f'<label>doc_search <input name=q value="{query_value}" placeholder="words or identifiers"></label>'
        f'<label>ref <input name=ref value="{ref_value}" placeholder="any"></label>'
        "<button>Search</button></form>"
    )
    answer = ""
    if found:
        answer = (
            problem_note(found["error"])
            if found["error"]
            else f"<pre id=search-answer>{escape(found['answer'])}</pre>"
        )
    rows = [
        cells(
            escape(ref["ref"]),
            escape(ref["source"]),
            escape(ref["kind"]),
            escape(size(ref["bytes"])),
            escape(ref["chunks"]),
            escape(age(ref["age_seconds"])),
            escape(ref["recency"]),
            escape(when(ref["last_call"])),
            numeric=(3, 4, 6),
        )
        for ref in view["refs"]
    ]
    headers = ("ref", "source", "kind", "size", "chunks", "age", "read order (1 = last read)", "last call")
    paging = pager(nav, "/store", view["page"], view["pages"])
    body = (
        problem_note(view["problem"])
        + facts
        + form
        + answer
        + "<h2>Refs, most recently read first</h2>"
        + paging
        + table(headers, rows, element_id="refs")
        + paging
    )
    return layout(nav, "/store", "Store", body)


def memory_page(nav: Nav, view: dict[str, Any]) -> str:
    rows: list[str] = []
    for session in view["sessions"]:
        recent = "".join(
            f'<li class="{"protected" if entry["protected"] else ""}'
            f'{" superseded" if entry["superseded"] else ""}">'
            f"#{escape(entry['id'])} {escape(entry['kind'])}"
            f"{' [' + escape(entry['reason']) + ']' if entry['protected'] and entry['reason'] else ''}"
            f": {escape(entry['text'])}</li>"
            for entry in session["recent"]
        )
        rows.append(
            cells(
                escape(session["session"]),
                escape(when(session["updated"])),
                escape(session["entries"]),
                escape(session["live"]),
                escape(session["protected"]),
                escape(session["superseded"]),
                escape(session["compactions"]),
                escape(session["window_tokens"]),
                f"<details{'' if rows else ' open'}><summary>last entries</summary>"
                f"<ul>{recent}</ul></details>",
                numeric=(2, 3, 4, 5, 6, 7),
            )
        )
    headers = (
        "session", "updated", "entries", "live", "protected", "superseded",
        "compactions", "window tokens", "notes",
    )  # fmt: skip
    where = f"<p class=where>Sessions: <code>{escape(view['directory'] or 'none')}</code></p>"
    return layout(nav, "/memory", "Session memory", where + table(headers, rows, element_id="sessions"))


def servers_page(nav: Nav, view: dict[str, Any]) -> str:
    rows = []
    for server in view["servers"]:
        failures = view["error_calls"].get(server.get("name"), [])
        failed = ", ".join(
            f'<a href="{escape(nav.link("/calls/" + str(item["seq"])))}">'
            f"{escape(item['tool'])} {escape(when(item['ts']))}</a>"
            for item in failures
        )
        tools = server.get("tools") or []
        rows.append(
            cells(
                escape(server.get("name")),
                escape(server.get("transport")),
                f'<span class="state state-{escape(server.get("state"))}">'
                f"{escape(server.get('state'))}</span>",
                escape(server.get("restarts")),
                f"<details><summary>{len(tools)}</summary>{escape(', '.join(tools))}</details>",
                escape(server.get("last_error") or ""),
                failed,
                numeric=(3,),
            )
        )
    note = ""
    if view["updated"]:
        stopped = (
            " <b class=bad>That hub is no longer running.</b>" if view.get("hub_running") is False else ""
        )
        note = f"<p class=where>As the hub last wrote them at {escape(when(view['updated']))}.{stopped}</p>"
    headers = ("server", "transport", "state", "restarts", "tools", "last error", "recent failed calls")
    return layout(nav, "/servers", "Servers", note + table(headers, rows, element_id="servers"))
