"""Small things a new user hits: --version, option help, broken pipes, tool-name hints, sizes, repeats.

The two tests through ``ctxhub serve`` share one hub (a hub and its fixture server cost ~3 s of CPU
to start): its result cache is off, and the tool-name hints store nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from context_mode.store import Store
from context_mode.types import ContentKind
from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config
from tools.doc_tools import doc_tools
from tools.errors import ToolInputError
from tools.workspace_server import Workspace

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def _ctxhub(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        cwd=REPO,
    )


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``session`` lives across the module's tests


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    """A client of a hub with the fixture server and no result cache (a repeat reaches the store)."""
    directory = tmp_path_factory.mktemp("small")
    config = write_config(directory, {"fixture": fixture_server("fixture")}, cache={"enabled": False})
    async with hub_client(config) as session:
        yield session


def test_version_is_printed() -> None:
    result = _ctxhub("--version")
    assert result.returncode == 0 and result.stdout.strip() == "ctxhub 0.1.0"


def test_serve_and_config_explain_transport_host_and_port() -> None:
    for command in ("serve", "config"):
        shown = " ".join(_ctxhub(command, "--help").stdout.split())
        assert "--transport {stdio,sse,http} how" in shown or "--transport {stdio,sse,http} stdio" in shown
        assert "--host HOST the hub's address" in shown or "--host HOST address to bind" in shown
        assert "--port PORT" in shown and "(default 8765" in shown


def test_piping_route_into_head_exits_quietly(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    big.write_text("".join(f"INFO line {n} of a long log\n" for n in range(200_000)))
    config = write_config(tmp_path, {}, routing={"direct_hard_cap": 10**8})  # DIRECT: the whole text
    with subprocess.Popen(
        [sys.executable, "-m", "hub.cli", "route", str(big), "--mode", "DIRECT", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=REPO,
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().startswith(b"decision: Direct")
        child.stdout.close()  # what `head -1` does after its line
        errors = child.stderr.read().decode()
        code = child.wait(timeout=120)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
    assert code != 0


@pytest.mark.anyio
async def test_an_unknown_tool_suggests_the_prefixed_names_and_ctxhub_tools(session: Any) -> None:
    with anyio.fail_after(60):
        bare = await session.call_tool("echo", {"text": "x"})
        typo = await session.call_tool("fixture__ecko", {"text": "x"})
    assert bare.is_error and "did you mean 'fixture__echo'?" in text_of(bare)
    assert "run `ctxhub tools`" in text_of(bare)
    assert typo.is_error and "did you mean 'fixture__echo'" in text_of(typo)


def test_a_missing_file_names_the_exposed_search_tool(tmp_path: Path) -> None:
    with pytest.raises(ToolInputError) as raised:
        Workspace(tmp_path).read_file("missing.txt")
    assert "<namespace>__search_code, e.g. workspace__search_code" in str(raised.value)


def test_doc_search_says_how_many_hits_it_left_out_and_how_to_read_them() -> None:
    with Store(None) as store:
        for n in range(8):
            store.put(
                f"section {n}\n" + f"the quokka failed with code {n} " * 60 + "\n",
                source="t",
                kind=ContentKind.TEXT,
            )
        search = next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_search")
        answer = search.run({"query": "quokka failed code", "limit": 8})
    lines = answer.splitlines()
    shown = {line.split(" · ")[0] for line in lines if line.startswith("r_")}
    assert lines[0] == "8 hits:"  # the agent wrote the query: the reply does not echo it
    assert len(shown) < 8
    more = next(line for line in lines if "not shown" in line)
    assert more.startswith(f"{8 - len(shown)} more hits not shown (r_")
    assert 'doc_window(ref="r_' in more and "start=0, end=1)" in more


def test_sizes_use_one_unit_system_in_summaries_and_doc_tools() -> None:
    from context_mode.stage1 import format_size

    with Store(None) as store:
        doc = store.put("x" * 303_900, source="t", kind=ContentKind.TEXT)
        listing = next(tool for tool in doc_tools(store, ingest_roots=()) if tool.name == "doc_list").run({})
    assert format_size(303_900) == "303.9 kB"
    assert f"{doc.ref}" in listing and "303.9 kB" in listing


@pytest.mark.anyio
async def test_reading_the_same_payload_twice_gives_one_ref(session: Any) -> None:
    with anyio.fail_after(60):
        first = await session.call_tool("fixture__big", {"kb": 40})
        second = await session.call_tool("fixture__big", {"kb": 40})
        listed = text_of(await session.call_tool("doc_list", {}))
    ref = (first.meta or {})["ctxhub/route"]["ref"]
    assert ref and (second.meta or {})["ctxhub/route"]["ref"] == ref
    assert listed.startswith("1 documents")
