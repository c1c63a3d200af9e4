"""Session memory through ``ctxhub serve`` with a real client: a long task's notes survive compaction."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.conftest import hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

NOTES = [
    f"Step {n}: checked module_{n}.py, the parser handles case {n} and the tests for it pass."
    for n in range(20)
]


async def test_a_long_session_keeps_its_pinned_goal_and_decision(tmp_path: Path) -> None:
    config = write_config(tmp_path, {}, memory={"budget": 4000, "window": 6})
    raw = 0
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            opened = await session.call_tool("context_open", {"session_id": "task-42"})
            assert not opened.is_error, text_of(opened)
            goal = "Goal: migrate the billing export to the v2 API without changing the CSV columns."
            await session.call_tool("context_append", {"session_id": "task-42", "text": goal, "pinned": True})
            raw += len(goal)
            for index, note in enumerate(NOTES):
                text = note
                if index == 7:
                    text = "Decision: we never round amounts before summing; round once when writing the CSV."
                raw += len(text)
                await session.call_tool("context_append", {"session_id": "task-42", "text": text})
            status = text_of(await session.call_tool("context_status", {"session_id": "task-42"}))
            compacted = await session.call_tool("context_compact", {"session_id": "task-42"})
            assert not compacted.is_error, text_of(compacted)
            snapshot = text_of(await session.call_tool("context_get", {"session_id": "task-42"}))
            recalled = text_of(
                await session.call_tool(
                    "context_recall", {"session_id": "task-42", "query": "rounding decision"}
                )
            )
            guide = text_of(await session.call_tool("context_guide", {}))
    assert "21" in status  # entries
    assert "migrate the billing export" in snapshot  # the pinned goal survives every turn
    assert "never round amounts before summing" in snapshot  # protected by its keyword
    assert "never round amounts before summing" in recalled
    assert len(snapshot) < raw
    assert "context_append" in guide


async def test_sessions_survive_a_restart_of_the_hub(tmp_path: Path) -> None:
    config = write_config(tmp_path, {})
    with anyio.fail_after(60):
        async with hub_client(config) as session:
            await session.call_tool("context_open", {"session_id": "s1"})
            await session.call_tool("context_append", {"session_id": "s1", "text": "remember: port 8443"})
        async with hub_client(config) as session:
            snapshot = text_of(await session.call_tool("context_get", {"session_id": "s1"}))
            bad = await session.call_tool("context_open", {"session_id": "../etc"})
    assert "remember: port 8443" in snapshot
    assert bad.is_error
