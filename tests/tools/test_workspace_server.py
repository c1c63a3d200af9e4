"""The workspace server: its confinement rules directly, then its tools over real stdio MCP."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.types import TextContent

from tools.errors import ToolInputError
from tools.workspace_server import Workspace, confine

APP_PY = "import os\n\ndef handler(event):\n    return event\n\ndef other():\n    handler(None)\n"
LOG = "".join(f"line {number}\n" for number in range(1, 11))


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("outside").resolve()
    (directory / "secret.txt").write_text("handler secret\n")
    return directory


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, outside: Path) -> Path:
    root = tmp_path_factory.mktemp("workspace").resolve()
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP_PY)
    (root / "src" / "notes.txt").write_text("handler mentioned\n")
    (root / "logs").mkdir()
    (root / "logs" / "app.log").write_text(LOG)
    for skipped in (".git", "node_modules", "__pycache__", ".venv"):
        (root / skipped).mkdir()
        (root / skipped / "hidden.py").write_text("handler\n")
    (root / "blob.bin").write_bytes(b"handler\x00\x01\x02")
    with (root / "big.txt").open("wb") as big:
        big.truncate(21 * 1024 * 1024)  # sparse: over the 20 MB cap without writing it
    os.mkfifo(root / "pipe")
    (root / "escape.txt").symlink_to(outside / "secret.txt")
    (root / "escape_dir").symlink_to(outside, target_is_directory=True)
    return root


# -- the pure part, synchronous ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("src/app.py", "src/app.py", id="relative"),
        pytest.param(".", "", id="the-root-itself"),
        pytest.param("src/../logs/app.log", "logs/app.log", id="dotdot-that-stays-inside"),
        pytest.param("does/not/exist.txt", "does/not/exist.txt", id="missing-but-inside"),
    ],
)
def test_confine_accepts_paths_that_resolve_inside_the_root(root: Path, path: str, expected: str) -> None:
    assert confine(root, path) == root / expected


def test_confine_accepts_an_absolute_path_inside_the_root(root: Path) -> None:
    assert confine(root, str(root / "src" / "app.py")) == root / "src" / "app.py"


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("../x", id="dotdot"),
        pytest.param("src/../../x", id="dotdot-after-a-folder"),
        pytest.param("/etc/passwd", id="absolute-outside"),
        pytest.param("escape.txt", id="symlinked-file-escape"),
        pytest.param("escape_dir/secret.txt", id="symlinked-folder-escape"),
    ],
)
def test_confine_refuses_paths_that_resolve_outside_the_root(root: Path, path: str) -> None:
    with pytest.raises(ToolInputError) as caught:
        confine(root, path)
    assert str(caught.value) == (
        f"path {path!r} is outside the workspace root {root}; pass a path relative to it"
    )


def test_confine_refuses_special_file_systems_and_nul_bytes() -> None:
    with pytest.raises(ToolInputError, match="special file system"):
        confine(Path("/"), "proc/self/status")
    with pytest.raises(ToolInputError, match="NUL byte"):
        confine(Path("/"), "etc\x00passwd")


def test_read_log_tail_reads_only_the_end_of_a_log_larger_than_one_block(tmp_path: Path) -> None:
    (tmp_path / "huge.log").write_text("".join(f"entry {n:06d}\n" for n in range(20_000)))
    workspace = Workspace.at(tmp_path, size_cap=100_000)
    assert workspace.read_log("huge.log", tail=2) == "entry 019998\nentry 019999\n"
    with pytest.raises(ToolInputError, match="over the 100000 bytes size cap"):
        workspace.read_log("huge.log")


def test_search_code_clips_very_long_lines(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("x" * 1500 + "needle\n")
    output = Workspace.at(tmp_path).search_code("needle").splitlines()
    assert output == [f"min.js:1:{'x' * 1000}…[+506 chars]", "1 matches in 1 files"]


# -- over MCP stdio ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
async def session(
    connect_stdio: Callable[..., AbstractAsyncContextManager[ClientSession]], root: Path
) -> AsyncIterator[ClientSession]:
    async with connect_stdio(["-m", "tools.workspace_server", "--root", str(root)]) as session:
        yield session


async def call(session: ClientSession, tool: str, **arguments: object) -> tuple[bool, str]:
    """(is_error, text) of one call; a result must be plain text, never structured."""
    with anyio.fail_after(10):
        result = await session.call_tool(tool, arguments)
    assert result.structured_content is None
    return result.is_error, "".join(block.text for block in result.content if isinstance(block, TextContent))


@pytest.mark.anyio
async def test_lists_three_read_only_plain_text_tools(session: ClientSession) -> None:
    with anyio.fail_after(10):
        listed = await session.list_tools()
    assert sorted(tool.name for tool in listed.tools) == ["read_file", "read_log", "search_code"]
    for tool in listed.tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.output_schema is None
        assert tool.description
    schemas = {tool.name: tool.input_schema for tool in listed.tools}
    assert schemas["search_code"]["required"] == ["pattern"]
    assert set(schemas["search_code"]["properties"]) == {"pattern", "path", "glob", "max_results"}


@pytest.mark.anyio
async def test_search_code_prints_grep_style_matches_with_context_and_a_summary(
    session: ClientSession,
) -> None:
    is_error, text = await call(session, "search_code", pattern="handler")
    assert not is_error
    assert text.splitlines() == [
        "src/app.py-2-",
        "src/app.py:3:def handler(event):",
        "src/app.py-4-    return event",
        "--",
        "src/app.py-6-def other():",
        "src/app.py:7:    handler(None)",
        "--",
        "src/notes.txt:1:handler mentioned",
        "3 matches in 2 files",
    ]


@pytest.mark.anyio
async def test_search_code_treats_the_pattern_as_a_regex(session: ClientSession) -> None:
    _, text = await call(session, "search_code", pattern=r"handler\([A-Z]\w*\)", path="src")
    assert text.splitlines() == [
        "src/app.py-6-def other():",
        "src/app.py:7:    handler(None)",
        "1 matches in 1 files",
    ]


@pytest.mark.anyio
async def test_search_code_glob_filters_files(session: ClientSession) -> None:
    _, text = await call(session, "search_code", pattern="handler", glob="*.txt")
    assert text.splitlines() == ["src/notes.txt:1:handler mentioned", "1 matches in 1 files"]


@pytest.mark.anyio
async def test_search_code_stops_at_max_results_with_a_note(session: ClientSession) -> None:
    _, text = await call(session, "search_code", pattern="handler", max_results=1)
    lines = text.splitlines()
    assert lines[-2].startswith("[stopped at max_results=1 matching lines")
    assert lines[-1] == "1 matches in 1 files"


@pytest.mark.anyio
async def test_search_code_reports_an_invalid_regex_as_a_tool_error(session: ClientSession) -> None:
    is_error, text = await call(session, "search_code", pattern="handler(")
    assert is_error
    assert "pattern 'handler(' is not a valid regular expression" in text


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        pytest.param({}, APP_PY, id="whole-file"),
        pytest.param({"start": 3, "end": 4}, "def handler(event):\n    return event\n", id="range"),
        pytest.param({"start": 7}, "    handler(None)\n", id="to-the-end"),
        pytest.param({"start": 6, "end": 99}, "def other():\n    handler(None)\n", id="end-past-eof"),
    ],
)
@pytest.mark.anyio
async def test_read_file_returns_the_raw_lines_in_range(
    session: ClientSession, arguments: dict[str, int], expected: str
) -> None:
    assert await call(session, "read_file", path="src/app.py", **arguments) == (False, expected)


@pytest.mark.anyio
async def test_read_log_returns_the_whole_log_or_its_tail(session: ClientSession) -> None:
    assert await call(session, "read_log", path="logs/app.log") == (False, LOG)
    assert await call(session, "read_log", path="logs/app.log", tail=3) == (
        False,
        "line 8\nline 9\nline 10\n",
    )


@pytest.mark.parametrize(
    ("tool", "path", "message"),
    [
        pytest.param("read_file", "../x", "is outside the workspace root", id="dotdot"),
        pytest.param("read_file", "/etc/passwd", "is outside the workspace root", id="absolute-outside"),
        pytest.param("read_log", "escape.txt", "is outside the workspace root", id="symlink-escape"),
        pytest.param("search_code", "escape_dir", "is outside the workspace root", id="symlinked-folder"),
        pytest.param("read_file", "pipe", "is not a regular file", id="fifo"),
        pytest.param("read_log", "big.txt", "is over the 20 MB size cap", id="over-the-cap"),
        pytest.param("read_file", "src", "is a directory", id="directory"),
        pytest.param("read_file", "missing.txt", "does not exist under the workspace root", id="missing"),
    ],
)
@pytest.mark.anyio
async def test_refuses_paths_it_must_not_read_with_a_clear_error(
    session: ClientSession, root: Path, tool: str, path: str, message: str
) -> None:
    arguments: dict[str, object] = {"path": path}
    if tool == "search_code":
        arguments["pattern"] = "handler"
    is_error, text = await call(session, tool, **arguments)
    assert is_error
    assert message in text
    assert repr(path) in text
    assert "secret" not in text


@pytest.mark.anyio
async def test_the_outside_root_message_names_the_root_and_the_fix(
    session: ClientSession, root: Path
) -> None:
    _, text = await call(session, "read_file", path="../x")
    assert text.endswith(f"path '../x' is outside the workspace root {root}; pass a path relative to it")
