"""Leaving a stdio transport: which servers get their EOF grace, and that none outlives it.

A server that has not sent a message has not answered ``initialize`` and holds no work of ours;
one still importing its SDK reads its stdin only once started, so the hub used to wait for its
whole start-up (or the 2 s grace) at every exit soon after a warm start. The grace is made an hour
here, so the waits are told apart by whether the hub waits at all, not by how long.
"""

from __future__ import annotations

import os
import signal
import sys

import anyio
import mcp.types as types
import pytest
from mcp import ClientSession
from mcp.shared.message import SessionMessage

from hub.downstream.spawn import Child, group_alive, spawn
from hub.downstream.stdio_client import stdio_transport
from tests.conftest import FIXTURE_SERVER, REPO

pytestmark = pytest.mark.anyio
FAMILY_SERVER = REPO / "tests" / "fixtures" / "family_server.py"
HOUR = 3600.0
INITIALIZE = types.JSONRPCRequest(
    jsonrpc="2.0",
    id=0,
    method="initialize",
    params={"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
)


def start(script: str, *args: str) -> tuple[Child, list[str]]:
    command = [script, *args]
    with open(os.devnull, "w") as devnull:
        return spawn(sys.executable, command, errlog=devnull), command


async def test_a_server_that_has_not_answered_is_terminated_at_once_not_waited_on_for_eof() -> None:
    # ``late`` reads nothing until SIGUSR1, like a server still importing: it never sees the EOF.
    child, command = start(str(FAMILY_SERVER), "--name", "late", "--mode", "late")
    stopped = anyio.Event()

    async def connect_and_leave() -> None:
        with open(os.devnull, "w") as devnull:
            async with stdio_transport(
                sys.executable, command, errlog=devnull, child=child, exit_grace=HOUR
            ) as (_, write):
                await write.send(SessionMessage(INITIALIZE))
        stopped.set()

    async with anyio.create_task_group() as group:
        group.start_soon(connect_and_leave)
        try:
            with anyio.fail_after(30):  # waiting for an EOF it never reads would take the hour
                await stopped.wait()
        finally:
            child.end_group()  # the stop is shielded from cancellation: a hub still waiting is let go
    assert child.returncode == -signal.SIGTERM
    assert not group_alive(child.pid)


async def test_a_server_that_has_answered_still_exits_on_eof_before_any_signal() -> None:
    child, command = start(str(FIXTURE_SERVER), "--name", "ready")
    with anyio.fail_after(90), open(os.devnull, "w") as devnull:  # the stop is bounded by 64 s
        async with (
            stdio_transport(sys.executable, command, errlog=devnull, child=child, exit_grace=60) as streams,
            ClientSession(*streams) as session,
        ):
            await session.initialize()
    assert child.returncode == 0  # it left on its own at EOF, within its grace
    assert not group_alive(child.pid)
