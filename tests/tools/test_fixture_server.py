"""Smoke tests of the fixture MCP server the hub's tests run behind the hub."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, MCPError
from mcp.types import TextContent, ToolListChangedNotification

FIXTURE_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "fixture_server.py"
LONG_NAME = "a_really_long_tool_name_that_goes_on_and_on_beyond_what_claude_code_allows_x"
Connect = Callable[..., AbstractAsyncContextManager[ClientSession]]


class Notifications:
    """Collects server notifications; ``tools_changed`` is set on tools/list_changed."""

    def __init__(self) -> None:
        self.tools_changed = anyio.Event()

    async def __call__(self, message: object) -> None:
        if isinstance(message, ToolListChangedNotification):
            self.tools_changed.set()


@pytest.fixture(scope="module")
def marker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("markers")


@pytest.fixture(scope="module")
def notifications() -> Notifications:
    return Notifications()


@pytest.fixture(scope="module")
async def session(
    connect_stdio: Connect, marker_dir: Path, notifications: Notifications
) -> AsyncIterator[ClientSession]:
    env = {"FIXTURE_PROBE": "probe-value", "FIXTURE_MARKER_DIR": str(marker_dir)}
    async with connect_stdio([str(FIXTURE_SERVER)], env=env, message_handler=notifications) as session:
        yield session


async def call(session: ClientSession, tool: str, **arguments: object) -> tuple[bool, str, object]:
    with anyio.fail_after(10):
        result = await session.call_tool(tool, arguments)
    text = "".join(block.text for block in result.content if isinstance(block, TextContent))
    return result.is_error, text, result.structured_content


@pytest.mark.anyio
async def test_lists_every_fixture_tool_with_its_annotations(session: ClientSession) -> None:
    with anyio.fail_after(10):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    expected = {"echo", "add", "slow", "hang", "crash", "big", "env", "fail", "write_note", "add_tool", "pid"}
    assert expected | {LONG_NAME} <= set(tools)
    assert len(LONG_NAME) > 64
    assert tools["echo"].annotations is not None and tools["echo"].annotations.read_only_hint
    assert tools["write_note"].annotations is not None and tools["write_note"].annotations.destructive_hint
    assert tools["add"].output_schema is not None
    assert tools["big"].output_schema is None


@pytest.mark.anyio
async def test_echo_add_env_and_pid_answer_directly(session: ClientSession) -> None:
    assert await call(session, "echo", text="hi") == (False, "hi", {"result": "hi"})
    assert await call(session, "add", a=2, b=3) == (False, "5", {"result": 5})
    assert (await call(session, "env", name="FIXTURE_PROBE"))[1] == "probe-value"
    assert (await call(session, "env", name="FIXTURE_UNSET_VARIABLE"))[1] == ""
    pid = int((await call(session, "pid"))[1])
    assert pid > 0 and pid != os.getpid()


@pytest.mark.anyio
async def test_big_returns_a_realistic_log_or_a_json_array_of_about_the_size_asked(
    session: ClientSession,
) -> None:
    is_error, log, structured = await call(session, "big", kb=40)
    assert not is_error and structured is None
    assert 38 * 1024 <= len(log) <= 42 * 1024
    assert "Traceback (most recent call last):" in log
    assert "FAILED tests/test_x.py::test_y" in log
    assert "1 failed, 99 passed" in log.splitlines()[-1]
    _, array, _ = await call(session, "big", kb=20, kind="json")
    records = json.loads(array)
    assert isinstance(records, list) and {"id", "name", "status"} <= set(records[0])
    assert 19 * 1024 <= len(array) <= 22 * 1024


@pytest.mark.anyio
async def test_fail_and_write_note(session: ClientSession, marker_dir: Path) -> None:
    is_error, text, _ = await call(session, "fail", message="boom")
    assert is_error and text.endswith("boom")
    assert (await call(session, "write_note", text="remember"))[1] == "noted"
    assert (marker_dir / "notes.txt").read_text() == "remember\n"


@pytest.mark.anyio
async def test_slow_reports_progress_each_step(session: ClientSession) -> None:
    steps: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        steps.append((progress, total, message))

    with anyio.fail_after(10):
        result = await session.call_tool("slow", {"seconds": 0.05, "steps": 3}, progress_callback=on_progress)
    assert not result.is_error
    assert steps == [(1, 3, "step 1/3"), (2, 3, "step 2/3"), (3, 3, "step 3/3")]


@pytest.mark.anyio
async def test_a_cancelled_hang_writes_the_marker_file(session: ClientSession, marker_dir: Path) -> None:
    pid = (await call(session, "pid"))[1]
    with anyio.fail_after(10):
        with pytest.raises(MCPError):
            await session.call_tool("hang", {}, read_timeout_seconds=0.3)
        marker = marker_dir / f"cancelled-{pid}"
        for _ in range(500):  # the server handles notifications/cancelled asynchronously: poll briefly
            if marker.exists():
                break
            await anyio.sleep(0.02)
    assert marker.read_text().splitlines()[0] == "hang"


@pytest.mark.anyio
async def test_add_tool_registers_a_tool_and_sends_list_changed(
    session: ClientSession, notifications: Notifications
) -> None:
    capabilities = session.server_capabilities
    assert capabilities is not None and capabilities.tools is not None and capabilities.tools.list_changed
    _, name, _ = await call(session, "add_tool")
    assert name == "dynamic_1"
    with anyio.fail_after(10):
        await notifications.tools_changed.wait()
        assert name in {tool.name for tool in (await session.list_tools()).tools}
    assert (await call(session, name))[1] == "dynamic 1"


@pytest.mark.anyio
async def test_garbage_mode_still_serves_and_tools_prefix_renames_every_tool(connect_stdio: Connect) -> None:
    args = [str(FIXTURE_SERVER), "--mode", "garbage", "--tools-prefix", "p_"]
    async with connect_stdio(args) as session:
        with anyio.fail_after(10):
            names = {tool.name for tool in (await session.list_tools()).tools}
        assert names and all(name.startswith("p_") for name in names)
        assert (await call(session, "p_echo", text="through the noise"))[1] == "through the noise"


def test_exit_at_start_mode_exits_1_before_serving() -> None:
    done = subprocess.run(
        [sys.executable, str(FIXTURE_SERVER), "--mode", "exit-at-start"],
        input=b"",
        capture_output=True,
        timeout=20,
    )
    assert done.returncode == 1
    assert done.stdout == b""
    assert b"exit-at-start" in done.stderr


def test_no_init_mode_never_answers_initialize() -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    done = subprocess.run(
        [sys.executable, str(FIXTURE_SERVER), "--mode", "no-init"],
        input=json.dumps(initialize).encode() + b"\n",
        capture_output=True,
        timeout=20,
    )
    assert (done.returncode, done.stdout) == (0, b"")
