"""No descendant outlives the hub: grandchildren of servers that exit on EOF, servers deaf to EOF and SIGTERM.

The hub is stopped the way MCP clients stop a stdio server (Claude Code, the SDK's client, the
Inspector): close its stdin, wait 2 s, SIGTERM, wait 2 s, SIGKILL. Every process below the hub
is recorded from /proc while it serves; after the hub has exited none of them may be alive.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import REPO, write_config
from tests.reliability.harness import HUB_COMMAND, RawHub, alive, descendants, hub_env

pytestmark = pytest.mark.anyio
FAMILY_SERVER = REPO / "tests" / "fixtures" / "family_server.py"
CLIENT_PATIENCE = 2.0  # seconds a client waits after closing stdin, and again after SIGTERM


def family(name: str, mode: str, **options: Any) -> dict[str, Any]:
    return {
        "command": sys.executable,
        "args": [str(FAMILY_SERVER), "--name", name, "--mode", mode],
        **options,
    }


async def stop_like_a_client(process: anyio.abc.Process) -> str:
    """Close stdin, wait, SIGTERM, wait, SIGKILL; return the step at which the hub had exited."""
    assert process.stdin is not None
    await process.stdin.aclose()
    for step, action in (("eof", None), ("sigterm", process.terminate)):
        if action is not None:
            action()
        with anyio.move_on_after(CLIENT_PATIENCE):
            await process.wait()
            return step
    process.kill()
    await process.wait()
    return "sigkill"


async def serve_and_stop(config: Path, expected_tools: set[str]) -> tuple[str, dict[int, str]]:
    """Start ``ctxhub serve``, list its tools, record its descendants, stop it like a client."""
    async with (
        await anyio.open_process(
            [*HUB_COMMAND, str(config)], env=hub_env(), cwd=REPO, stderr=subprocess.DEVNULL
        ) as process,
        anyio.create_task_group() as group,
    ):
        hub = RawHub(process)
        group.start_soon(hub.read_forever)
        await hub.handshake()
        listed = await hub.request("tools/list", {})
        assert expected_tools <= {tool["name"] for tool in listed["result"]["tools"]}
        family_tree = descendants(process.pid)
        assert any(line.startswith("sleep 600") for line in family_tree.values()) == (
            "family__echo" in expected_tools
        )
        how = await stop_like_a_client(process)
        group.cancel_scope.cancel()
    return how, family_tree


async def test_a_grandchild_of_a_server_that_exits_on_eof_is_stopped_with_it(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"family": family("family", "grandchild")})
    with anyio.fail_after(60):
        how, tree = await serve_and_stop(config, {"family__echo"})
    assert how == "eof"
    left = {pid: line for pid, line in tree.items() if alive(pid)}
    assert not left, f"still running after the hub exited: {left}"


async def test_sigterm_stops_servers_deaf_to_eof_and_sigterm_within_the_clients_patience(
    tmp_path: Path,
) -> None:
    config = write_config(
        tmp_path,
        {"family": family("family", "grandchild"), "stubborn": family("stubborn", "stubborn")},
    )
    with anyio.fail_after(60):
        how, tree = await serve_and_stop(config, {"family__echo", "stubborn__echo"})
    left = {pid: line for pid, line in tree.items() if alive(pid)}
    assert not left, f"still running after the hub exited (stopped at {how}): {left}"


async def test_a_sigterm_before_stdin_closes_stops_every_child_too(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {"family": family("family", "grandchild"), "stubborn": family("stubborn", "stubborn")},
    )
    with anyio.fail_after(60):
        async with (
            await anyio.open_process(
                [*HUB_COMMAND, str(config)], env=hub_env(), cwd=REPO, stderr=subprocess.DEVNULL
            ) as process,
            anyio.create_task_group() as group,
        ):
            hub = RawHub(process)
            group.start_soon(hub.read_forever)
            await hub.handshake()
            await hub.request("tools/list", {})
            tree = descendants(process.pid)
            process.send_signal(signal.SIGTERM)
            with anyio.move_on_after(CLIENT_PATIENCE) as patience:
                await process.wait()
            if patience.cancelled_caught:  # the client's last resort: its children must be gone already
                process.kill()
                await process.wait()
            group.cancel_scope.cancel()
    left = {pid: line for pid, line in tree.items() if alive(pid)}
    assert not left, f"still running after SIGTERM (and SIGKILL: {patience.cancelled_caught}): {left}"
