"""A real browser on the dashboard: headless Debian ``chromium`` loads ``ctxhub dashboard``'s pages.

The hub (``ctxhub serve`` over stdio, a real SDK client) makes calls to the fixture server while
``ctxhub dashboard`` serves the same store read-only; chromium ``--dump-dom`` gives the DOM after
the page's scripts ran (``--virtual-time-budget``), and its console goes to stderr. Skipped, with
the reason, only when chromium is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from tests.conftest import REPO, fixture_server, hub_client, write_config

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(
        shutil.which("chromium") is None,
        reason="Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)",
    ),
]

# Would set the title if it ran; the dumped DOM shows whether it did.
XSS = "<script>document.title='pwned-script'</script><img src=x onerror=\"document.title='pwned-img'\">"
CONSOLE_ERRORS = re.compile(r"CONSOLE.*(Uncaught|Error|Refused)|Refused to (execute|load|apply)", re.I)


@asynccontextmanager
async def dashboard_process(config: Path) -> AsyncIterator[str]:
    """``ctxhub dashboard --port 0`` as a child process; yields its base URL."""
    command = [sys.executable, "-m", "hub.cli", "dashboard", "--config", str(config), "--port", "0"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    async with await anyio.open_process(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL) as process:
        try:
            announced = b""
            assert process.stderr is not None
            with anyio.fail_after(60):
                async for chunk in process.stderr:
                    announced += chunk
                    if b"reading" in announced:
                        break
            found = re.search(rb"http://127\.0\.0\.1:\d+", announced)
            assert found, announced
            yield found.group(0).decode()
        finally:
            process.terminate()
            with anyio.fail_after(30):
                await process.wait()


async def dump_dom(url: str, profile: Path) -> tuple[str, str]:
    """The DOM chromium serialises after loading ``url`` and running its scripts, and its stderr."""
    command = [
        "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=5000",
        "--dump-dom",
        url,
    ]
    with anyio.fail_after(90):
        done = await anyio.run_process(command, check=False)
    return done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


async def test_chromium_shows_the_calls_just_made_stage1_beside_the_payload_and_hostile_text_as_text(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    async with hub_client(config) as session:
        await session.call_tool("fx__echo", {"text": XSS})
        big = await session.call_tool("fx__big", {"kb": 40})
        ref = big.meta["ctxhub/route"]["ref"]
        await session.call_tool("doc_window", {"ref": ref})  # indexed: the read-only store sees it
        async with dashboard_process(config) as base:
            overview, console = await dump_dom(f"{base}/dashboard", tmp_path / "profile")
            assert not CONSOLE_ERRORS.search(console), console
            assert 'data-charts="drawn"' in overview  # Chart.js and our script ran, from the package
            recent = overview[overview.index('id="recent-calls"') :]
            rows = re.findall(r'<a href="/dashboard/calls/(\d+)">([^<]+)</a>', recent)
            assert [tool for _, tool in rows] == ["doc_window", "fx__big", "fx__echo"]
            seq = {tool: number for number, tool in rows}

            detail, console = await dump_dom(f"{base}/dashboard/calls/{seq['fx__big']}", tmp_path / "profile")
            assert not CONSOLE_ERRORS.search(console), console
            stage1 = detail[detail.index('id="stage1"') : detail.index("</pre>", detail.index('id="stage1"'))]
            assert f"ref {ref}" in stage1 and "FAILED tests/test_x.py::test_y" in stage1
            payload = detail[detail.index('id="payload"') :]
            kept = re.findall(r'<span class="line kept"[^>]*>([^<]*)</span>', payload)
            assert any("FAILED tests/test_x.py::test_y" in line for line in kept)
            assert len(re.findall(r'<span class="line', payload)) > 400 > len(kept) > 0

            hostile, console = await dump_dom(
                f"{base}/dashboard/calls/{seq['fx__echo']}", tmp_path / "profile"
            )
            assert "pwned" not in hostile[: hostile.index("</title>")]  # nothing ran
            assert "&lt;script&gt;document.title='pwned-script'&lt;/script&gt;" in hostile
            assert "&lt;img src=x onerror=" in hostile
            assert "<img" not in hostile and "<script>document" not in hostile
