"""``hub_status``: one compact text view of downstreams, tools, cache, store and savings.

Contract: ``status_tool(snapshot)`` wraps a callable that returns a plain ``HubSnapshot``; the
tool only formats it, so the hub decides what is true and this module never touches I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tools.printable import printable
from tools.registry import NativeTool, object_schema


@dataclass(frozen=True)
class ServerRow:
    name: str
    transport: str
    state: str
    tools: int
    startup_seconds: float | None
    restarts: int
    error: str | None


@dataclass(frozen=True)
class HubSnapshot:
    uptime_seconds: float
    servers: list[ServerRow]
    tools_exposed: int
    calls: int
    bytes_in: int
    bytes_out: int
    cache_entries: int
    cache_hits: int
    modes: dict[str, int]
    store: dict[str, Any] = field(default_factory=dict)
    top_tools: list[tuple[str, int, int]] = field(default_factory=list)  # (tool, calls, bytes saved)
    store_location: str = ""  # the store directory in use, or "in memory (not persisted)"
    store_notice: str = ""  # what happened when the store was opened (a sibling, moved aside, memory)
    tools_listed: int = 0  # what tools/list shows (fewer than exposed on a lazy surface)
    list_bytes: int = 0  # bytes of that tools/list JSON
    reload_error: str = ""  # why the last edit of the config file was not applied


def format_status(snapshot: HubSnapshot) -> str:
    listed = f", {snapshot.tools_listed} listed in {snapshot.list_bytes} B" if snapshot.tools_listed else ""
    lines = [f"ctxhub up {snapshot.uptime_seconds:.0f} s; {snapshot.tools_exposed} tools exposed{listed}"]
    for row in snapshot.servers:
        startup = f", started in {row.startup_seconds:.1f} s" if row.startup_seconds is not None else ""
        restarts = f", {row.restarts} restarts" if row.restarts else ""
        error = f" — {printable(row.error)}" if row.error and row.state != "ready" else ""
        lines.append(
            f"- {printable(row.name)} ({row.transport}): {row.state}, {row.tools} tools"
            f"{startup}{restarts}{error}"
        )
    saved = max(0, snapshot.bytes_in - snapshot.bytes_out)
    modes = ", ".join(f"{mode} {count}" for mode, count in sorted(snapshot.modes.items())) or "none yet"
    lines.append(
        f"calls {snapshot.calls} ({modes}); {snapshot.bytes_in} B in, {snapshot.bytes_out} B out, "
        f"{saved} B kept out of context"
    )
    lines.append(f"cache: {snapshot.cache_entries} entries, {snapshot.cache_hits} hits")
    if snapshot.store_location:
        lines.append(f"store at {snapshot.store_location}")
    if snapshot.store_notice:
        lines.append(f"store notice: {snapshot.store_notice}")
    if snapshot.reload_error:
        lines.append(
            f"config edit NOT applied (the running config stays): {printable(snapshot.reload_error)}"
        )
    if snapshot.store:
        lines.append("store: " + ", ".join(f"{key} {value}" for key, value in snapshot.store.items()))
    for tool, calls, tool_saved in snapshot.top_tools[:5]:
        lines.append(f"  {tool}: {calls} calls, {tool_saved} B saved")
    return "\n".join(lines)


def status_tool(snapshot: Callable[[], HubSnapshot]) -> NativeTool:
    def run(arguments: dict[str, Any]) -> str:
        return format_status(snapshot())

    return NativeTool(
        name="hub_status",
        description=(
            "Show ctxhub's downstream servers, cache, store and bytes saved. Use when a tool seems missing."
        ),
        input_schema=object_schema({}),
        run=run,
    )
