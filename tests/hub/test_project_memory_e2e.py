"""Project memory through real ``ctxhub serve`` processes: one session's decisions are there in the next.

Each hub is its own ``ctxhub serve`` child driven by the SDK client; the project is the git root of
``CTXHUB_WORKSPACE`` (a real ``git init`` repository), the store is shared.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
import pytest

from tests.conftest import hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

GOAL = "Goal: migrate the billing export to the v2 API without changing the CSV columns."
DECISION = "Decision: we never round amounts before summing; round once when writing the CSV."
NEWER = "Decision: round each line amount to cents before summing (finance asked for it)."
ORDINARY = [
    f"Step {n}: looked at module_{n}.py and its parser case {n}; the tests for it pass." for n in range(12)
]


def git_repository(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "src").mkdir()
    return path


async def call(session: object, tool: str, **arguments: object) -> str:
    result = await session.call_tool(tool, arguments)  # type: ignore[attr-defined]
    assert not result.is_error, text_of(result)
    return text_of(result)


async def test_a_later_session_opens_with_the_goal_and_decision_and_a_superseding_one_marks_it(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, {})
    repo = git_repository(tmp_path / "billing")
    in_repo = {"CTXHUB_WORKSPACE": str(repo / "src")}  # below the root: the git root is the project
    other_repo = {"CTXHUB_WORKSPACE": str(git_repository(tmp_path / "website"))}
    with anyio.fail_after(120):
        async with hub_client(config, env=in_repo) as hub_a:
            await call(hub_a, "context_open", session_id="task-a")
            await call(hub_a, "context_append", session_id="task-a", text=GOAL, pinned=True)
            for number, note in enumerate(ORDINARY):
                saved = await call(hub_a, "context_append", session_id="task-a", text=note)
                if number == 6:
                    decided = await call(hub_a, "context_append", session_id="task-a", text=DECISION)
        async with hub_client(config, env=in_repo) as hub_b:
            opened_b = await call(hub_b, "context_open", session_id="task-b", task="billing CSV rounding")
            recalled_b = await call(
                hub_b, "context_recall", session_id="task-b", query="round amounts summing", scope="project"
            )
            session_only = await call(hub_b, "context_recall", session_id="task-b", query="round amounts")
            superseded = await call(
                hub_b, "context_append", session_id="task-b", text=NEWER, supersedes=["task-a#9"]
            )
        async with hub_client(config, env=other_repo) as hub_other:
            opened_other = await call(hub_other, "context_open", session_id="task-web")
            recalled_other = await call(
                hub_other, "context_recall", session_id="task-web", query="round amounts", scope="project"
            )
        async with hub_client(config, env=in_repo) as hub_c:
            opened_c = await call(hub_c, "context_open", session_id="task-c")
            recalled_c = await call(
                hub_c, "context_recall", session_id="task-c", query="round summing", scope="project", limit=10
            )
            resumed_b = await call(hub_c, "context_open", session_id="task-b")
    assert "In project memory (billing)" in decided and "In project memory" not in saved
    block_b = opened_b.split("From earlier sessions of this project:", 1)[1]
    assert GOAL in block_b and DECISION in block_b
    assert "[pinned · task-a#1]" in block_b and "[decision · task-a#9]" in block_b
    assert not any(note in opened_b for note in ORDINARY)
    assert "task-a#9" in recalled_b.splitlines()[1] and DECISION in recalled_b.splitlines()[1]
    assert "No entry" in session_only  # session scope stays within the session
    assert "Marked task-a#9 superseded by task-b#1" in superseded
    assert "From earlier sessions" not in opened_other and "No entry" in recalled_other
    assert NEWER in opened_c and DECISION not in opened_c and "1 superseded" in opened_c
    old_hit = next(line for line in recalled_c.splitlines() if DECISION in line)
    assert old_hit.startswith("[task-a#9") and "SUPERSEDED by task-b#1" in old_hit
    assert "From earlier sessions" not in resumed_b  # nothing new from others since it looked


async def test_two_hubs_appending_at_once_lose_nothing(tmp_path: Path) -> None:
    # No store.path: the second hub falls back to a sibling store and still shares the sessions.
    config = write_config(tmp_path, {}, store={})
    environment = {
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "CTXHUB_WORKSPACE": str(git_repository(tmp_path / "r")),
    }
    count = 25
    opened: list[str] = []
    both_open = anyio.Event()

    async def writer(name: str) -> None:
        async with hub_client(config, env=environment) as hub:
            await call(hub, "context_open", session_id=f"task-{name}")
            opened.append(name)
            if len(opened) == 2:
                both_open.set()
            await both_open.wait()  # both hubs are up: their appends interleave
            for number in range(count):
                await call(hub, "context_append", session_id="shared", text=f"{name} note {number}")
                text = f"{name} shares finding {number} about the exporter"
                await call(hub, "context_append", session_id=f"task-{name}", text=text, scope="project")

    with anyio.fail_after(180):
        async with anyio.create_task_group() as group:
            group.start_soon(writer, "left")
            group.start_soon(writer, "right")
        async with hub_client(config, env=environment) as hub:
            status = await call(hub, "context_status", session_id="shared")
            recalled = await call(
                hub,
                "context_recall",
                session_id="task-left",
                query="right shares finding",
                scope="project",
                limit=50,
            )
    stores = sorted(path.name for path in (tmp_path / "cache" / "ctxhub").iterdir())
    assert stores == ["store", "store-2"]  # the two hubs really ran at the same time
    sessions = tmp_path / "cache" / "ctxhub" / "store" / "sessions"
    notes = [json.loads(line) for line in (sessions / "shared.jsonl").read_text().splitlines()[1:]]
    assert sorted(note["id"] for note in notes) == list(range(1, 2 * count + 1))
    assert {note["text"] for note in notes} == {
        f"{side} note {n}" for side in ("left", "right") for n in range(count)
    }
    assert f"{2 * count} entries" in status
    pool = next((sessions / "projects").iterdir())
    promoted = [json.loads(line) for line in pool.read_text().splitlines() if '"promote"' in line]
    assert len(promoted) == 2 * count
    assert recalled.count("[task-right#") == count
