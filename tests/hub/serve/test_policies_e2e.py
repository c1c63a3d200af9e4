"""Per-tool policies end to end: an SDK client → ``ctxhub serve`` over stdio → the fixture server.

Field pruning before routing (Direct replies, stage 1 and the store see the pruned payload),
retention floors, and ``hub_feedback`` moving a tool's next stage-1 size, across a hub restart.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import REPO, fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

GITHUB = (REPO / "tests" / "fixtures" / "json" / "github-search-repositories.json").read_text(
    encoding="utf-8"
)
EXCLUDE = ["**.node_id", "**.*_url", "**.url", "**.gravatar_id"]


def ctxhub(*args: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=True,
    ).stdout


def route_of(result: Any) -> dict[str, Any]:
    return dict((result.meta or {})["ctxhub/route"])


def size(text: str) -> int:
    return len(text.encode("utf-8"))


def keys_anywhere(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found |= set(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


async def test_pruned_json_reaches_direct_replies_stage1_and_the_store(tmp_path: Path) -> None:
    tools = {"echo": {"fields": {"exclude": EXCLUDE}, "drop_empty": True}}
    config = write_config(tmp_path, {"fx": fixture_server("fx", tools=tools)})
    small = json.dumps(
        {"id": 7, "node_id": "MDQ6", "url": "https://api.github.com/x", "title": "t", "body": None}
    )
    with anyio.fail_after(90):
        async with hub_client(config) as session:
            listed = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert listed["fx__echo"].output_schema is None  # a pruned reply would not match it
            direct = await session.call_tool("fx__echo", {"text": small})
            assert json.loads(text_of(direct)) == {"id": 7, "title": "t"}
            assert direct.structured_content == {"result": text_of(direct)}
            assert route_of(direct)["mode"] == "direct"
            assert route_of(direct)["pruned_bytes"] == size(small) - size(text_of(direct))

            summary = await session.call_tool("fx__echo", {"text": GITHUB})
            route = route_of(summary)
            assert route["mode"] == "summary"
            assert route["original_bytes"] + route["pruned_bytes"] == size(GITHUB)
            assert route["pruned_bytes"] > size(GITHUB) // 2
            assert "node_id" not in text_of(summary) and "avatar_url" not in text_of(summary)

            plain = "not JSON: https://api.github.com/x node_id"
            untouched = await session.call_tool("fx__echo", {"text": plain})
            assert text_of(untouched) == plain and route_of(untouched)["pruned_bytes"] == 0

            status = text_of(await session.call_tool("hub_status", {}))
            assert "fx__echo: budget 1500 B from config (routing.summary_budget)" in status
            assert f"pruned {route['pruned_bytes'] + route_of(direct)['pruned_bytes']} B" in status
    stored = ctxhub("show", route["ref"], "--config", str(config))
    assert '"full_name": "kennethreitz/legit"' in stored
    assert "node_id" not in stored and "_url" not in stored and "mirror_url" not in stored
    assert json.loads(stored)["total_count"] == 2723


async def test_retention_floor_half_and_whole(tmp_path: Path) -> None:
    tools = {"echo": {"retention_floor": 0.5}, "big": {"retention_floor": 1.0}}
    config = write_config(
        tmp_path, {"fx": fixture_server("fx", tools=tools, retention_floor=0.2)}, routing={"budget": 1200}
    )
    with anyio.fail_after(90):
        async with hub_client(config) as session:
            half = await session.call_tool("fx__echo", {"text": GITHUB})
            route = route_of(half)
            assert route["mode"] == "summary"
            assert route["budget"] == -(-size(GITHUB) // 2)
            assert (route["budget_source"], route["retention_floor"]) == ("retention_floor", 0.5)
            assert route["budget_key"] == "servers.fx.tools.echo.retention_floor"
            assert 0.45 * size(GITHUB) <= size(text_of(half)) <= route["budget"] + 64

            whole = await session.call_tool("fx__big", {"kb": 80, "kind": "log"})
            assert route_of(whole)["mode"] == "direct"
            assert "retention floor 1.0" in route_of(whole)["reason"]
            assert size(text_of(whole)) > 80_000

            tiny = await session.call_tool(
                "fx__add", {"a": 1, "b": 2}
            )  # inherits the server's 0.2, global budget
            assert (route_of(tiny)["budget"], route_of(tiny)["retention_floor"]) == (1200, 0.2)


async def test_feedback_moves_the_next_stage1_size_within_bounds_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    config = write_config(
        tmp_path,
        {"fx": fixture_server("fx")},
        routing={"budget": 1500, "feedback": {"min_budget": 1000, "max_budget": 3000}},  # a fixed stage 1
    )
    call = {"kb": 60, "kind": "json"}
    sizes: list[int] = []

    async def stage1(session: Any) -> dict[str, Any]:
        result = await session.call_tool("fx__big", call)
        route = route_of(result)
        assert route["mode"] == "summary" and not route["cache_hit"]
        sizes.append(size(text_of(result)))
        assert sizes[-1] <= route["budget"]
        return route

    async def feedback(session: Any, verdict: str, **extra: str) -> str:
        result = await session.call_tool("hub_feedback", {"tool": "fx__big", "verdict": verdict, **extra})
        assert not result.is_error, text_of(result)
        return text_of(result)

    with anyio.fail_after(120):
        async with hub_client(config) as session:
            first = await stage1(session)
            assert (first["budget"], first["budget_max"], first["budget_source"]) == (1500, 1500, "config")
            said = await feedback(session, "lost_info", note="the error records were cut")
            assert "1500 B → 2250 B" in said
            raised = await stage1(session)  # the same call: the cached reply was dropped, the budget is new
            assert (raised["budget"], raised["budget_source"]) == (2250, "feedback")
            assert sizes[1] > sizes[0] + 500
            await feedback(session, "lost_info")
            assert "already at the upper bound" in await feedback(session, "lost_info")
            capped = await stage1(session)
            assert capped["budget"] == 3000

            wrong = await session.call_tool("hub_feedback", {"tool": "fx__nope", "verdict": "lost_info"})
            assert wrong.is_error and "no tool named 'fx__nope'" in text_of(wrong)
            native = await session.call_tool("hub_feedback", {"tool": "hub_status", "verdict": "too_long"})
            assert native.is_error and "ctxhub's own tools" in text_of(native)

        async with hub_client(config) as session:  # a new hub process on the same store
            again = await stage1(session)
            assert (again["budget"], again["budget_source"]) == (3000, "feedback")
            assert "3000 B → 2010 B" in await feedback(session, "too_long")
            lowered = await stage1(session)
            assert lowered["budget"] == 2010 and sizes[-1] < sizes[-2]
            for _ in range(4):
                await feedback(session, "too_long")
            floor = await stage1(session)
            assert floor["budget"] == 1000 and sizes[-1] <= 1000
            status = text_of(await session.call_tool("hub_status", {}))
            assert "fx__big: budget 1000 B from feedback; feedback lost_info 3, too_long 5" in status

    saved = json.loads((tmp_path / "store" / "feedback.json").read_text())["tools"]["fx__big"]
    assert (saved["lost_info"], saved["too_long"], saved["budget"]) == (3, 5, 1000)
    assert saved["note"] == "the error records were cut"
    stats = ctxhub("stats", "--config", str(config))
    row = next(line for line in stats.splitlines() if line.startswith("fx__big") and "feedback" in line)
    assert row.split()[:6] == ["fx__big", "1000", "B", "feedback", "3", "5"]
