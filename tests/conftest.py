"""Shared test fixtures: paths, the anyio backend, and a hub driven by a real MCP client over stdio.

Property tests are derandomized (the same examples every run) so the suite is deterministic; run
``HYPOTHESIS_PROFILE=explore pytest`` to search with fresh random examples.
"""

from __future__ import annotations

import compileall
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

REPO = Path(__file__).resolve().parents[1]
FIXTURE_SERVER = REPO / "tests" / "fixtures" / "fixture_server.py"
CORPUS = REPO.parent / "shared" / "corpus"


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile what the tests' child processes import, once, before the run.

    The suite starts hundreds of Python children (``ctxhub serve``, fixture and tool servers). With
    ``PYTHONDONTWRITEBYTECODE`` set (it is on the project's machines) each of them compiled hub/,
    context_mode/ and tools/ from source again: about 0.35 s of CPU per hub start. ``compileall``
    writes the (git-ignored) ``__pycache__`` regardless; the children only read it. Under xdist the
    controller does it before any worker starts.
    """
    if hasattr(config, "workerinput"):
        return
    for package in ("hub", "context_mode", "tools", "bench", "tests/fixtures"):
        compileall.compile_dir(REPO / package, quiet=1)


# The directories and modules whose tests start processes, longest first (test_crash_cycles alone is
# ~40 s), then the in-process modules of 10 s of CPU or more (test_real_outputs ~35 s): when it ran
# last, it made the end of the run on one worker while the others had finished.
FIRST = (
    "tests/reliability/",
    "tests/bench/",
    "tests/hub/",
    "tests/tools/",  # fixture and workspace servers, path-swapping races
    "tests/context_mode/test_economy_targets.py",  # a hub and seven corpus servers
    "tests/context_mode/summaries/test_real_outputs.py",
    "tests/context_mode/summaries/test_whole_text_passes.py",
    "tests/context_mode/summaries/test_log_lines.py",
    "tests/context_mode/summaries/test_properties.py",
    "tests/context_mode/summaries/test_reading.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the process-heavy directories first, then the long in-process modules, and the short
    in-process tests last.

    Under xdist (``scripts/test``) the short tests then fill the end of the run on every worker
    instead of one worker starting the crash cycles (or the 35 s of real outputs) when the others
    are done. The sort is stable: a module's tests stay together and in their order.
    """

    def rank(item: pytest.Item) -> int:
        return next((n for n, prefix in enumerate(FIRST) if item.nodeid.startswith(prefix)), len(FIRST))

    items.sort(key=rank)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def fixture_server(name: str, *args: str, **options: Any) -> dict[str, Any]:
    """A config entry that runs our fixture MCP server."""
    return {"command": sys.executable, "args": [str(FIXTURE_SERVER), "--name", name, *args], **options}


def write_config(directory: Path, servers: dict[str, Any], **sections: Any) -> Path:
    sections.setdefault("store", {"path": str(directory / "store")})
    # Tests list once and expect every server; on a loaded machine one may take longer than the
    # 2 s default to start (tests/hub/test_late_servers.py tests the default).
    sections.setdefault("list_wait", 30)
    # Tests of fan-out expect every tool listed; the lazy surface above 40 tools is tested in
    # tests/hub/serve/test_surface.py.
    sections.setdefault("tool_surface", {"mode": "all"})
    path = directory / "config.yaml"
    path.write_text(yaml.safe_dump({"servers": servers, **sections}), encoding="utf-8")
    return path


@asynccontextmanager
async def hub_client(
    config: Path,
    *,
    message_handler: Any = None,
    env: dict[str, str] | None = None,
    errlog: Any = None,
    **session_options: Any,
) -> AsyncIterator[Any]:
    """``ctxhub serve --config CONFIG`` as a child process, with an initialised SDK ClientSession.

    ``session_options`` go to ``ClientSession`` (``sampling_callback``, ``logging_callback``, …).
    The handshake is bounded here (60 s), so a module-scoped hub needs no deadline around its yield.
    """
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hub.cli", "serve", "--config", str(config)],
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        cwd=str(REPO),
    )
    with open(os.devnull, "w") as devnull:
        async with (
            stdio_client(params, errlog=errlog or devnull) as (read, write),
            ClientSession(read, write, message_handler=message_handler, **session_options) as session,
        ):
            with anyio.fail_after(60):
                await session.initialize()
            yield session


async def announced_url(stderr: Any, until: bytes) -> str:
    """Read a child's stderr up to ``until`` and return the first ``http://127.0.0.1:PORT/mcp`` in it."""
    announced = b""
    async for chunk in stderr:
        announced += chunk
        if until in announced:
            break
    found = re.search(rb"http://127\.0\.0\.1:\d+/mcp", announced)
    assert found, announced
    return found.group(0).decode()


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def children_of(pid: int) -> set[int]:
    """Live descendants of ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found
