"""End to end over real stdio: an SDK client → ``ctxhub serve`` → real downstream servers.

Downstreams: our fixture server, the workspace server, and mcp-server-time / mcp-server-git from PyPI.

The tests that list, call, time out, cancel, read the environment or add a tool share one hub
with every downstream (``shared``, per module; each such test clears the cancellation markers or
waits for a fresh notification first); a test that crashes a server or stops the hub starts its own
with the downstreams it uses (every start is ~1 s of CPU per process on the suite's 2 cores).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import children_of, fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio


def git_repo(path: Path) -> Path:
    path.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@x",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@x",
    }
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "a.txt").write_text("hello\n")
    subprocess.run(["git", "-C", str(path), "add", "a.txt"], check=True)
    subprocess.run(["git", "-C", str(path), "commit", "-qm", "first"], check=True, env=env)
    (path / "a.txt").write_text("hello\nworld\n")
    return path


EVERY = ("fx", "slowfx", "time", "git", "ws", "broken")


def fanout_config(directory: Path, names: tuple[str, ...] = EVERY) -> Path:
    """A config in ``directory`` with the named downstreams (its git repository is ``directory/repo``)."""
    repo = git_repo(directory / "repo")
    markers = directory / "markers"
    markers.mkdir()
    servers: dict[str, Any] = {
        "fx": fixture_server("fx", env={"FIXTURE_MARKER_DIR": str(markers)}),
        "slowfx": fixture_server("slowfx", timeout=1.5, env={"FIXTURE_MARKER_DIR": str(markers)}),
        "time": {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
        "git": {"command": sys.executable, "args": ["-m", "mcp_server_git", "--repository", str(repo)]},
        "ws": {"command": sys.executable, "args": ["-m", "tools.workspace_server", "--root", str(repo)]},
        "broken": {"command": str(directory / "no-such-server")},
    }
    return write_config(directory, {name: servers[name] for name in names})


@pytest.fixture
def hub_config(tmp_path: Path) -> Path:
    """Our fixture server, a third-party server and the bundled workspace server (and one that
    cannot start): each kind of child once (tests/reliability/ stops deafer and deeper trees)."""
    return fanout_config(tmp_path, ("fx", "time", "ws", "broken"))


@dataclass
class Shared:
    session: ClientSession
    repo: Path
    markers: Path  # FIXTURE_MARKER_DIR of fx and slowfx
    tools_changed: anyio.Event = field(default_factory=anyio.Event)  # replaced by a test that waits on it


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``shared`` lives across the module's tests


@pytest.fixture(scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    """One hub with every downstream for the tests that only list and call."""
    directory = tmp_path_factory.mktemp("fanout")
    config = fanout_config(directory)
    holder: list[Shared] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification) and holder:
            holder[0].tools_changed.set()

    env = {"CTXHUB_TEST_INHERITED": "yes-inherited"}  # test_children_inherit_the_hub_environment
    async with hub_client(config, message_handler=on_message, env=env) as session:
        with anyio.fail_after(60):
            await session.list_tools()
        holder.append(Shared(session, directory / "repo", directory / "markers"))
        yield holder[0]


def clear_markers(shared: Shared) -> None:
    for marker in shared.markers.glob("cancelled-*"):
        marker.unlink()


async def direct_session_result(
    command: list[str], tool: str, arguments: dict[str, Any]
) -> types.CallToolResult:
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    with open(os.devnull, "w") as devnull:
        async with (
            stdio_client(params, errlog=devnull) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(tool, arguments)


async def test_lists_every_downstream_tool_namespaced_and_tagged(shared: Shared) -> None:
    with anyio.fail_after(60):
        tools = {tool.name: tool for tool in (await shared.session.list_tools()).tools}
    assert {
        "time__get_current_time",
        "time__convert_time",
        "git__git_status",
        "git__git_log",
        "ws__search_code",
        "ws__read_file",
        "ws__read_log",
        "fx__echo",
        "slowfx__hang",
    } <= set(tools)
    assert {"doc_search", "doc_window", "doc_ingest", "doc_list", "hub_status", "context_get"} <= set(tools)
    assert not any(name.startswith("broken__") for name in tools)
    assert all(len(name) <= 64 for name in tools)
    assert tools["fx__echo"].meta["ctxhub/context_mode"] == "AUTO"
    assert tools["ws__read_log"].meta["ctxhub/context_mode"] == "SUMMARY"
    long_names = [name for name in tools if name.startswith("fx__a_really_long")]
    assert len(long_names) == 1 and len(long_names[0]) == 64


async def test_a_call_through_the_hub_matches_a_direct_call(shared: Shared) -> None:
    repo = shared.repo
    command = [sys.executable, "-m", "mcp_server_git", "--repository", str(repo)]
    with anyio.fail_after(60):
        direct = await direct_session_result(command, "git_status", {"repo_path": str(repo)})
        via_hub = await shared.session.call_tool("git__git_status", {"repo_path": str(repo)})
        added = await shared.session.call_tool("fx__add", {"a": 2, "b": 3})
    assert text_of(via_hub) == text_of(direct)
    assert via_hub.is_error == direct.is_error
    assert via_hub.meta["ctxhub/route"]["mode"] == "direct"
    assert text_of(added) == "5"


async def test_time_server_answers_through_the_hub(shared: Shared) -> None:
    with anyio.fail_after(60):
        result = await shared.session.call_tool("time__get_current_time", {"timezone": "UTC"})
    assert not result.is_error
    assert '"timezone": "UTC"' in text_of(result)


async def test_a_downstream_killed_mid_call_gives_an_error_and_comes_back(tmp_path: Path) -> None:
    config = fanout_config(tmp_path, ("fx", "time"))
    changes: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changes.append(message)

    with anyio.fail_after(60):
        async with hub_client(config, message_handler=on_message) as session:
            await session.list_tools()
            before = text_of(await session.call_tool("fx__pid", {}))
            crashed = await session.call_tool("fx__crash", {})
            assert crashed.is_error
            assert "'fx'" in text_of(crashed) and "crash" in text_of(crashed)
            other = await session.call_tool("time__get_current_time", {"timezone": "UTC"})
            assert not other.is_error
            after = await session.call_tool("fx__pid", {})
            assert not after.is_error, text_of(after)
            assert text_of(after) != before
            while not changes:  # the restart re-lists tools and tells the client
                await anyio.sleep(0.05)


async def test_a_hanging_downstream_times_out_while_others_answer(shared: Shared) -> None:
    results: dict[str, types.CallToolResult] = {}
    clear_markers(shared)
    with anyio.fail_after(60):

        async def call(name: str, arguments: dict[str, Any]) -> None:
            results[name] = await shared.session.call_tool(name, arguments)

        async with anyio.create_task_group() as group:
            group.start_soon(call, "slowfx__hang", {})
            group.start_soon(call, "fx__echo", {"text": "still here"})
        while not list(shared.markers.glob("cancelled-*")):
            await anyio.sleep(0.05)  # the downstream saw the cancellation
    hung = text_of(results["slowfx__hang"])
    assert results["slowfx__hang"].is_error
    assert "did not answer" in hung and "servers.slowfx.timeout" in hung
    assert text_of(results["fx__echo"]) == "still here"


async def test_a_server_that_cannot_start_is_reported_and_others_serve(shared: Shared) -> None:
    with anyio.fail_after(60):
        echo = await shared.session.call_tool("fx__echo", {"text": "x"})
        status = text_of(await shared.session.call_tool("hub_status", {}))
    assert text_of(echo) == "x"
    assert "broken (stdio): failed" in status


async def test_progress_is_forwarded_and_cancellation_reaches_the_downstream(shared: Shared) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    clear_markers(shared)
    with anyio.fail_after(60):
        done = await shared.session.call_tool(
            "fx__slow", {"seconds": 0.2, "steps": 4}, progress_callback=on_progress
        )
        assert text_of(done) and seen == [1, 2, 3, 4]
        with anyio.move_on_after(1.0):
            await shared.session.call_tool("fx__hang", {})
        while not list(shared.markers.glob("cancelled-*")):
            await anyio.sleep(0.05)


async def test_unknown_tools_and_bad_arguments_are_error_results_not_protocol_errors(shared: Shared) -> None:
    with anyio.fail_after(60):
        unknown = await shared.session.call_tool("nope__nothing", {})
        bad = await shared.session.call_tool("fx__add", {"a": "x"})
    assert unknown.is_error and "no tool named 'nope__nothing'" in text_of(unknown)
    assert bad.is_error


async def test_children_inherit_the_hub_environment(shared: Shared) -> None:
    with anyio.fail_after(60):  # the shared hub runs with CTXHUB_TEST_INHERITED set
        result = await shared.session.call_tool("fx__env", {"name": "CTXHUB_TEST_INHERITED"})
    assert text_of(result) == "yes-inherited"


HANDSHAKE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
)


@pytest.mark.parametrize("how", ["stdin-eof", "sigterm"])
def test_no_child_process_remains_after_the_hub_exits(hub_config: Path, how: str) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "hub.cli", "serve", "--config", str(hub_config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[2],
    ) as hub:
        assert hub.stdin is not None and hub.stdout is not None
        hub.stdin.write(HANDSHAKE)
        hub.stdin.flush()
        assert b'"id":1' in hub.stdout.readline()
        assert b'"id":2' in hub.stdout.readline()  # the tools/list answer: every downstream has started
        children = children_of(hub.pid)
        assert len(children) >= 3
        if how == "sigterm":
            hub.terminate()
        else:
            hub.stdin.close()
        assert hub.wait(timeout=30) == 0
    alive = {pid for pid in children if _state(pid) != "Z"}
    assert not alive


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "Z"
    return stat[stat.rindex(")") + 2]


async def test_a_downstream_tool_list_change_reaches_the_client(shared: Shared) -> None:
    # Last in the module: it adds a tool to the shared fx. A fresh event, so an earlier change
    # (a late server joining) does not count.
    shared.tools_changed = anyio.Event()
    with anyio.fail_after(60):
        added = text_of(await shared.session.call_tool("fx__add_tool", {}))
        await shared.tools_changed.wait()
        names = {tool.name for tool in (await shared.session.list_tools()).tools}
        result = await shared.session.call_tool(f"fx__{added}", {})
    assert f"fx__{added}" in names
    assert text_of(result).startswith("dynamic")
