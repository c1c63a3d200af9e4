"""Crash/restart cycles of one downstream behind a real ``ctxhub serve`` over stdio.

Pass criterion, every cycle: the crashed call is an ``isError`` naming the server; the other servers
answer; the crashed server's tools are listed again (a ``tools/list_changed`` arrives) and answer
from a new process; exactly one process per downstream is alive (counted from /proc). After the
hub exits, no child process is left. CI runs 6 cycles, three of each crash shape (a cycle proves the
same thing every time and costs one server start-up, about 2 s of CPU on a loaded machine;
``CTXHUB_CRASH_CYCLES`` sets the count, ``bench/soak.py`` runs 300); the server restarts after
``restart_delay`` (a config key).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest

from tests.conftest import fixture_server, hub_client, text_of, write_config
from tests.reliability.harness import (
    FAULT_SERVER,
    alive,
    descendants,
    eventually,
    fault_server,
    hub_pid,
    servers_under,
)

pytestmark = pytest.mark.anyio

CYCLES = int(os.environ.get("CTXHUB_CRASH_CYCLES", "6"))  # bench/soak.py runs 300


def crash_config(directory: Path) -> Path:
    return write_config(
        directory,
        {
            "crashy": fault_server("crashy", restart_delay=0.05, timeout=30),
            "steady": fault_server("steady"),
            "fx": fixture_server("fx"),
        },
    )


async def run_crash_cycles(config: Path, cycles: int) -> dict[str, Any]:
    """Crash ``crashy`` ``cycles`` times, checking the pass criterion each time; returns the figures."""
    changes = 0

    async def on_message(message: Any) -> None:
        nonlocal changes
        if isinstance(message, types.ToolListChangedNotification):
            changes += 1

    pids: set[str] = set()
    started = time.monotonic()
    async with hub_client(config, message_handler=on_message) as session:
        await session.list_tools()
        hub = hub_pid(config)
        assert len(servers_under(hub)) == 3
        for cycle in range(cycles):
            before = changes
            crashed = await session.call_tool("crashy__crash", {"partial": cycle % 2 == 1})
            assert crashed.is_error, text_of(crashed)
            assert "'crashy'" in text_of(crashed) and "closed the connection" in text_of(crashed)
            other = await session.call_tool("steady__echo", {"text": f"cycle {cycle}"})
            assert text_of(other) == f"steady:cycle {cycle}"
            added = await session.call_tool("fx__add", {"a": cycle, "b": 1})
            assert text_of(added) == str(cycle + 1)
            fresh = await session.call_tool("crashy__pid", {})  # waits for the restart
            assert not fresh.is_error, text_of(fresh)
            pids.add(text_of(fresh))
            await eventually(lambda before=before: changes > before)  # type: ignore[misc]
            names = {tool.name for tool in (await session.list_tools()).tools}
            assert {"crashy__crash", "crashy__pid", "crashy__echo", "steady__echo", "fx__add"} <= names
            running = servers_under(hub)
            assert sum("--name crashy" in line for line in running.values()) == 1, running
            assert len(running) == 3, running
        status = text_of(await session.call_tool("hub_status", {}))
    elapsed = time.monotonic() - started
    assert len(pids) == cycles  # every restart is a new process
    assert not [pid for pid in pids if alive(int(pid))]  # the hub is gone, and so is every server
    assert not [line for line in descendants(os.getpid()).values() if str(FAULT_SERVER) in line]
    assert "crashy (stdio): ready, 11 tools" in status and f"{cycles} restarts" in status, status
    return {"cycles": cycles, "seconds": elapsed, "list_changed": changes, "pids": pids}


async def test_a_downstream_survives_crash_restart_cycles_and_leaves_no_child(tmp_path: Path) -> None:
    config = crash_config(tmp_path)
    # A bound against a hang, not a timing: a restart under a fully loaded CI box took over 3 s.
    with anyio.fail_after(60 + CYCLES * 10):
        figures = await run_crash_cycles(config, CYCLES)
    assert figures["list_changed"] >= CYCLES
