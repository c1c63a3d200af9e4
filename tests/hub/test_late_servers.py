"""A downstream that never answers initialize holds no list call; when it answers, its tools join."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest

from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config
from tests.reliability.harness import descendants, hub_pid

pytestmark = pytest.mark.anyio
FAMILY_SERVER = REPO / "tests" / "fixtures" / "family_server.py"
LIST_BOUND = 7.0  # list_wait is 2 s; the old wait was 10 s


def family(name: str, mode: str) -> dict[str, Any]:
    return {
        "command": sys.executable,
        "args": [str(FAMILY_SERVER), "--name", name, "--mode", mode],
        "startup_timeout": 120,
    }


async def test_lists_answer_with_the_ready_servers_and_a_late_one_joins_with_list_changed(
    tmp_path: Path,
) -> None:
    config = write_config(
        tmp_path,
        {"a": fixture_server("a"), "silent": family("silent", "silent"), "late": family("late", "late")},
        list_wait=2,  # the default
    )
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    with anyio.fail_after(120):
        async with hub_client(config, message_handler=on_message) as session:
            with anyio.fail_after(LIST_BOUND):
                tools = {tool.name for tool in (await session.list_tools()).tools}
            assert "a__echo" in tools
            assert not {name for name in tools if name.startswith(("late__", "silent__"))}
            with anyio.fail_after(LIST_BOUND):
                await session.list_prompts()
            with anyio.fail_after(LIST_BOUND):
                await session.list_resources()
            with anyio.fail_after(LIST_BOUND):  # a native tool waits for no server
                status = text_of(await session.call_tool("hub_status", {}))
            for name in ("silent", "late"):
                line = next(line for line in status.splitlines() if line.startswith(f"- {name} "))
                assert "starting" in line and "late: no answer to initialize" in line, status
            late = [pid for pid, line in descendants(hub_pid(config)).items() if "--mode late" in line]
            assert len(late) == 1
            os.kill(late[0], signal.SIGUSR1)  # the late server starts answering now
            await changed.wait()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            assert {"a__echo", "late__late_echo"} <= tools
            assert text_of(await session.call_tool("late__late_echo", {"text": "hi"})) == "late:hi"
            status = text_of(await session.call_tool("hub_status", {}))
            assert next(line for line in status.splitlines() if line.startswith("- late ")).startswith(
                "- late (stdio): ready"
            )
