"""The lazy tool surface through ``ctxhub serve``: many tools, find by paraphrase, call by name.

The tests of the default surface share one hub (``lazy``, per module); a test of another surface
config starts its own.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from context_mode.tool_search import ToolDoc, ToolIndex
from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

MANY = {"command": sys.executable, "args": [str(REPO / "tests" / "fixtures" / "many_tools_server.py")]}


def _config(tmp_path: Path, **surface: Any) -> Path:
    servers = {"gh": MANY, "fx": fixture_server("fx")}
    return (
        write_config(tmp_path, servers, tool_surface=surface) if surface else write_config(tmp_path, servers)
    )


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``lazy`` lives across the module's tests


@pytest.fixture(scope="module")
async def lazy(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ClientSession]:
    """A client of one hub with the default (auto) surface."""
    async with hub_client(_config(tmp_path_factory.mktemp("surface"))) as client:
        yield client


async def test_auto_lists_a_lazy_surface_above_max_tools_and_every_tool_stays_callable(
    tmp_path: Path,
) -> None:
    with anyio.fail_after(60):
        async with hub_client(_config(tmp_path, pin=["fx__echo", "gh__get_issue"])) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            assert {"hub_find_tools", "hub_call", "doc_search", "fx__echo", "gh__get_issue"} <= listed
            assert "gh__list_issues" not in listed and len(listed) < 40
            direct = await client.call_tool("gh__list_issues", {"repo": "x"})  # unlisted, still callable
            assert text_of(direct) == "list_issues on octo/x: ok"


async def test_hub_find_tools_finds_a_tool_by_a_paraphrase_and_hub_call_routes_its_big_result(
    lazy: ClientSession,
) -> None:
    with anyio.fail_after(60):
        found = json.loads(
            text_of(await lazy.call_tool("hub_find_tools", {"query": "show the status of a CI run"}))
        )
        assert found[0]["name"] == "gh__get_workflow_run"
        assert set(found[0]) == {"name", "description", "input_schema"}
        result = await lazy.call_tool(
            "hub_call", {"tool": "gh__get_workflow_run", "arguments": {"repo": "demo"}}
        )
        routed = (result.meta or {})["ctxhub/route"]
    assert routed["mode"] == "summary" and routed["ref"].startswith("r_")
    assert "ref r_" in text_of(result)


async def test_an_unknown_tool_names_the_closest_exposed_names(lazy: ClientSession) -> None:
    with anyio.fail_after(60):
        result = await lazy.call_tool("list_issues", {})
        via_call = await lazy.call_tool("hub_call", {"tool": "gh__list_issue"})
    assert result.is_error and "'gh__list_issues'" in text_of(result) and "ctxhub tools" in text_of(result)
    assert via_call.is_error and "gh__list_issues" in text_of(via_call)


async def test_mode_all_lists_every_tool(tmp_path: Path) -> None:
    with anyio.fail_after(60):
        async with hub_client(_config(tmp_path, mode="all")) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
    assert "gh__list_issues" in listed and "hub_find_tools" not in listed and len(listed) > 64


def test_tool_search_weighs_names_and_parameters_and_splits_identifiers() -> None:
    index = ToolIndex(
        [
            ToolDoc("git__git_log", "Show the commit logs", ("repo_path", "max_count")),
            ToolDoc("gh__getPullRequest", "Fetch one pull request", ("pullNumber",)),
            ToolDoc("time__get_current_time", "Current time in a timezone", ("timezone",)),
        ]
    )
    assert index.search("pull request number", 1)[0][0] == "gh__getPullRequest"
    assert index.search("commit history", 1)[0][0] == "git__git_log"
    assert index.search("zzz") == []
