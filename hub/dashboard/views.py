"""What each dashboard view shows, as plain JSON-able dicts built from a ``Source``.

Contract: every function takes a ``Source`` and request values already parsed, blocks on disk
(run it in a worker thread) and returns a dict that the JSON endpoints send as is and the HTML
pages render (escaped there). Nothing here writes. Sizes are UTF-8 bytes; estimated tokens are
bytes / ``DEFAULT_CHARS_PER_TOKEN`` (the hub's estimate); times are Unix seconds.

- ``overview``: totals over the call log, savings over time (``MAX_BUCKETS`` time buckets, each
  raw bytes against bytes sent), per tool and per mode; plus the hub's lifetime counters.
- ``calls_page``: newest first, paginated (``per_page`` ≤ ``MAX_PER_PAGE``), filtered by tool/mode.
- ``call_detail``: one call's stage-1 text beside the stored payload (``MAX_PAYLOAD_LINES``
  lines from ``start``), each payload line flagged ``kept`` when stage 1 shows it.
- ``store_view``: store totals, disk against ``store.max_bytes``, refs most recently read first.
- ``search``: the ``doc_search`` tool's own answer over the source's store.
- ``memory_view``: each session's counts; ``servers_view``: the servers and their last errors.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from context_mode.calls import CallSummary
from context_mode.errors import ContextModeError, StoreError
from context_mode.memory import MemoryPolicy, SessionMemory
from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN
from hub.dashboard.sources import Source
from tools.doc_tools import doc_tools
from tools.errors import ToolError

MAX_BUCKETS = 48
BUCKET_SECONDS = (60, 300, 900, 3600, 6 * 3600, 86400, 7 * 86400)
MAX_PER_PAGE = 200
MAX_PAYLOAD_LINES = 2000
MIN_KEPT_CHARS = 4  # shorter stage-1 lines ("}", "...") would mark half a payload as kept
MAX_SESSIONS = 200
REPEATED = re.compile(r" \[×\d+\]$")
SESSION_SUFFIX = ".jsonl"


def tokens(size: int) -> int:
    return round(size / DEFAULT_CHARS_PER_TOKEN)


def _calls(source: Source) -> list[CallSummary]:
    reader = source.calls()
    return reader.refresh() if reader is not None else []


def overview(source: Source) -> dict[str, Any]:
    calls = _calls(source)
    per_tool: dict[str, dict[str, Any]] = {}
    per_mode: dict[str, dict[str, int]] = {}
    for call in calls:
        tool = per_tool.setdefault(
            call.tool, {"tool": call.tool, "server": call.server, "calls": 0, "bytes_in": 0, "bytes_out": 0}
        )
        tool["calls"] += 1
        tool.setdefault("modes", {})[call.mode] = tool.get("modes", {}).get(call.mode, 0) + 1
        tool["bytes_in"] += call.bytes_in
        tool["bytes_out"] += call.bytes_out
        mode = per_mode.setdefault(call.mode, {"calls": 0, "bytes_in": 0, "bytes_out": 0})
        mode["calls"] += 1
        mode["bytes_in"] += call.bytes_in
        mode["bytes_out"] += call.bytes_out
    for row in per_tool.values():
        _add_savings(row)
    for row in per_mode.values():
        _add_savings(row)
    totals = _add_savings(
        {
            "calls": len(calls),
            "bytes_in": sum(call.bytes_in for call in calls),
            "bytes_out": sum(call.bytes_out for call in calls),
            "errors": sum(call.is_error for call in calls),
        }
    )
    return {
        "source": {"label": source.label, "location": source.location, "problem": source.problem()},
        "totals": totals,
        "series": savings_series(calls),
        "tools": sorted(per_tool.values(), key=lambda row: (-row["bytes_saved"], row["tool"])),
        "modes": dict(sorted(per_mode.items())),
        "lifetime": source.tool_stats(),
    }


def _add_savings(row: dict[str, Any]) -> dict[str, Any]:
    row["bytes_saved"] = max(0, row["bytes_in"] - row["bytes_out"])
    row["tokens_in"] = tokens(row["bytes_in"])
    row["tokens_out"] = tokens(row["bytes_out"])
    row["tokens_saved"] = max(0, row["tokens_in"] - row["tokens_out"])
    return row


def savings_series(calls: list[CallSummary]) -> dict[str, Any]:
    """Raw bytes against bytes sent per time bucket, oldest first, at most ``MAX_BUCKETS`` buckets."""
    if not calls:
        return {"bucket_seconds": BUCKET_SECONDS[0], "points": []}
    first, last = calls[0].ts, calls[-1].ts
    span = max(1.0, last - first)
    width = next((size for size in BUCKET_SECONDS if span / size <= MAX_BUCKETS), BUCKET_SECONDS[-1])
    buckets: dict[int, dict[str, Any]] = {}
    for call in calls:
        start = int(call.ts // width * width)
        bucket = buckets.setdefault(start, {"ts": start, "calls": 0, "bytes_in": 0, "bytes_out": 0})
        bucket["calls"] += 1
        bucket["bytes_in"] += call.bytes_in
        bucket["bytes_out"] += call.bytes_out
    points = [buckets[key] for key in sorted(buckets)][-MAX_BUCKETS:]
    return {"bucket_seconds": width, "points": points}


def calls_page(
    source: Source, *, page: int = 1, per_page: int = 50, tool: str = "", mode: str = ""
) -> dict[str, Any]:
    reader = source.calls()
    per_page = min(max(1, per_page), MAX_PER_PAGE)
    page = max(1, page)
    if reader is None:
        return {
            "calls": [],
            "total": 0,
            "page": 1,
            "pages": 1,
            "per_page": per_page,
            "problem": source.problem(),
        }

    def keep(call: CallSummary) -> bool:
        return (not tool or call.tool == tool) and (not mode or call.mode == mode)

    chosen = reader.page(offset=(page - 1) * per_page, limit=per_page, keep=keep if tool or mode else None)
    pages = max(1, -(-chosen.total // per_page))
    return {
        "calls": [call.to_dict() for call in chosen.calls],
        "total": chosen.total,
        "page": page,
        "pages": pages,
        "per_page": per_page,
        "tool": tool,
        "mode": mode,
        "problem": None,
    }


def call_detail(source: Source, seq: int, *, start: int = 0) -> dict[str, Any] | None:
    """The call numbered ``seq`` with its payload's lines from ``start``; None when the log lacks it."""
    reader = source.calls()
    record = reader.record(seq) if reader is not None else None
    if record is None:
        return None
    payload: dict[str, Any] = {"available": False, "note": "", "lines": [], "start": 0, "total_lines": 0}
    store = source.store()
    if record.ref is None:
        payload["note"] = "nothing was stored: the agent got the whole result (stage 1 is the payload)"
    elif store is None:
        payload["note"] = source.problem() or "the store cannot be read"
    else:
        try:
            text = store.text(record.ref)
        except StoreError as exc:
            payload["note"] = str(exc)
        else:
            lines = text.splitlines()
            start = min(max(0, start), max(0, len(lines) - 1))
            shown = lines[start : start + MAX_PAYLOAD_LINES]
            kept = kept_lines(record.stage1, shown)
            payload.update(
                available=True,
                start=start,
                total_lines=len(lines),
                lines=[{"n": start + i + 1, "text": line, "kept": i in kept} for i, line in enumerate(shown)],
                kept=len(kept),
                next_start=start + MAX_PAYLOAD_LINES if start + MAX_PAYLOAD_LINES < len(lines) else None,
            )
    call = {name: getattr(record, name) for name in record.__dataclass_fields__}
    return {"call": call, "payload": payload}


def kept_lines(stage1: str, lines: Iterable[str]) -> set[int]:
    """Indexes of payload ``lines`` that stage 1 shows verbatim (whole, or cut with ``…``)."""
    whole: set[str] = set()
    prefixes: list[str] = []
    for line in stage1.splitlines():
        text = REPEATED.sub("", line.strip())  # "text [×3]": three equal lines collapsed into one
        if text.endswith("…"):
            text = text[:-1].rstrip()
            if len(text) >= MIN_KEPT_CHARS:
                prefixes.append(text)
        elif len(text) >= MIN_KEPT_CHARS:
            whole.add(text)
    kept: set[int] = set()
    for index, line in enumerate(lines):
        text = line.strip()
        if len(text) < MIN_KEPT_CHARS:
            continue
        if text in whole or any(text.startswith(prefix) for prefix in prefixes):
            kept.add(index)
    return kept


def store_view(source: Source, *, page: int = 1, per_page: int = 100) -> dict[str, Any]:
    store = source.store()
    per_page = min(max(1, per_page), MAX_PER_PAGE)
    page = max(1, page)
    body: dict[str, Any] = {
        "location": source.location,
        "problem": source.problem(),
        "disk_bytes": source.disk_bytes(),
        "max_bytes": source.max_bytes(),
        "refs": [],
        "total": 0,
        "page": page,
        "pages": 1,
    }
    if store is None:
        return body
    stats = store.stats()
    docs = store.documents(None, by_use=True)
    last_call = {call.ref: call.ts for call in _calls(source) if call.ref}
    now = time.time()
    shown = docs[(page - 1) * per_page : page * per_page]
    body.update(
        payload_bytes=stats.bytes,
        payload_max_bytes=stats.max_bytes,
        chunks=stats.chunks,
        evictions=stats.evictions,
        pending=stats.pending,
        secrets_masked=stats.secrets_masked,
        total=len(docs),
        pages=max(1, -(-len(docs) // per_page)),
        refs=[
            {
                "ref": doc.ref,
                "source": doc.source,
                "kind": doc.kind.value,
                "bytes": doc.bytes,
                "chunks": doc.chunk_count,
                "age_seconds": max(0.0, now - doc.created),
                "recency": (page - 1) * per_page + rank + 1,
                "last_call": last_call.get(doc.ref),
            }
            for rank, doc in enumerate(shown)
        ],
    )
    return body


def search(source: Source, query: str, *, ref: str = "", limit: int = 5) -> dict[str, Any]:
    """The answer ``doc_search`` gives the agent, over this source's store."""
    store = source.store()
    if store is None:
        return {"query": query, "ref": ref, "answer": "", "error": source.problem() or "no store to search"}
    tool = next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search")
    try:
        answer = tool.run({"query": query, "ref": ref, "limit": limit})
    except (ToolError, ContextModeError) as exc:
        return {"query": query, "ref": ref, "answer": "", "error": str(exc)}
    return {"query": query, "ref": ref, "answer": answer, "error": None}


def memory_view(source: Source) -> dict[str, Any]:
    directory = source.memory_dir()
    body: dict[str, Any] = {"directory": str(directory) if directory else None, "sessions": []}
    if directory is None or not directory.is_dir():
        return body
    files = sorted(directory.glob(f"*{SESSION_SUFFIX}"), key=_mtime, reverse=True)[:MAX_SESSIONS]
    memory = SessionMemory(directory, MemoryPolicy())
    for path in files:
        session_id = path.name[: -len(SESSION_SUFFIX)]
        try:
            status = memory.status(session_id)
            entries = memory.entries(session_id)
        except (ContextModeError, OSError, ValueError):
            continue
        body["sessions"].append(
            {
                "session": session_id,
                "updated": _mtime(path),
                "entries": status.entries,
                "live": status.live,
                "protected": status.protected,
                "superseded": status.superseded,
                "compactions": sum(entry.kind == "summary" for entry in entries),
                "window_tokens": status.window_tokens,
                "project": status.project,
                "recent": [
                    {
                        "id": entry.id,
                        "kind": entry.kind,
                        "text": entry.text[:300],
                        "protected": entry.protected,
                        "superseded": entry.superseded_by is not None,
                        "reason": entry.reason,
                    }
                    for entry in entries[-8:]
                ],
            }
        )
    return body


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def servers_view(source: Source) -> dict[str, Any]:
    errors: dict[str, list[dict[str, Any]]] = {}
    for call in reversed(_calls(source)):
        if call.is_error and len(errors.setdefault(call.server, [])) < 5:
            errors[call.server].append({"seq": call.seq, "ts": call.ts, "tool": call.tool})
    return {
        "servers": source.servers(),
        "updated": source.servers_updated(),
        "hub_running": source.hub_running(),
        "error_calls": errors,
    }
