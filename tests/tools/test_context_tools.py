"""The context_* native tools: arguments, rendered text, the over-budget directive, and a long task."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from context_mode.memory import MemoryPolicy, Project, SessionMemory
from tools.context_tools import context_tools
from tools.errors import ToolInputError, ToolUnavailableError
from tools.registry import NativeTool

log = logging.getLogger(__name__)
NAMES = [
    "context_open",
    "context_append",
    "context_status",
    "context_get",
    "context_compact",
    "context_recall",
    "context_guide",
]


class Tick:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def tools_for(directory: Path, **policy: Any) -> dict[str, NativeTool]:
    memory = SessionMemory(directory, MemoryPolicy(**policy), clock=Tick())
    return {tool.name: tool for tool in context_tools(memory)}


def call(tools: dict[str, NativeTool], name: str, **arguments: Any) -> str:
    return tools[name].run(arguments)


def test_the_seven_tools_are_listed_with_strict_schemas_and_short_prescriptive_descriptions(
    tmp_path: Path,
) -> None:
    tools = context_tools(SessionMemory(tmp_path))
    assert [tool.name for tool in tools] == NAMES
    for tool in tools:
        assert tool.input_schema["additionalProperties"] is False
        assert len(tool.description) <= 260
    writers = {tool.name for tool in tools if not tool.read_only}
    assert writers == {"context_open", "context_append", "context_compact"}


def test_open_tells_a_new_session_apart_from_a_resumed_one(tmp_path: Path) -> None:
    tools = tools_for(tmp_path)
    assert "opened (new)" in call(tools, "context_open", session_id="task")
    call(tools, "context_append", session_id="task", text="Goal: ship it.", pinned=True)
    resumed = call(tools_for(tmp_path), "context_open", session_id="task")
    assert "resumed" in resumed
    assert "[#1 pinned] Goal: ship it." in resumed


def test_append_reports_protection_and_demotions(tmp_path: Path) -> None:
    tools = tools_for(tmp_path, max_protected=1)
    first = call(tools, "context_append", session_id="s", text="We must keep the flags.")
    assert first.startswith("Saved #1 [protected: keyword:must].")
    second = call(tools, "context_append", session_id="s", text="Never touch the lock file.")
    assert "#1 lost protection" in second


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        pytest.param("context_get", {}, "session_id must be a non-empty string", id="missing-id"),
        pytest.param("context_get", {"session_id": 7}, "session_id must be a non-empty string", id="int-id"),
        pytest.param("context_get", {"session_id": "../x"}, "is not allowed", id="path-id"),
        pytest.param("context_get", {"session_id": "never"}, "call context_open first", id="unknown"),
        pytest.param("context_get", {"session_id": "s", "extra": 1}, 'unknown argument "extra"', id="extra"),
        pytest.param("context_append", {"session_id": "s"}, "text must be", id="missing-text"),
        pytest.param(
            "context_append", {"session_id": "s", "text": "x", "pinned": "yes"}, "pinned must be", id="pinned"
        ),
        pytest.param(
            "context_recall", {"session_id": "s", "query": "x", "limit": 0}, "limit must be", id="limit-low"
        ),
        pytest.param(
            "context_recall",
            {"session_id": "s", "query": "x", "limit": True},
            "limit must be",
            id="limit-bool",
        ),
        pytest.param("context_recall", {"session_id": "s", "query": " "}, "query must be", id="blank-query"),
        pytest.param("context_guide", {"x": 1}, "accepted: none", id="guide-extra"),
    ],
)
def test_bad_arguments_raise_a_tool_input_error_naming_the_argument(
    tmp_path: Path, name: str, arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolInputError, match=message):
        tools_for(tmp_path)[name].run(arguments)


def test_a_store_that_cannot_be_written_is_the_hubs_fault(tmp_path: Path) -> None:
    blocker = tmp_path / "sessions"
    blocker.write_text("not a directory")
    with pytest.raises(ToolUnavailableError, match="session memory in"):
        call(tools_for(blocker), "context_open", session_id="s")


def test_over_budget_context_get_is_a_directive_with_the_calls_and_no_raw_text(tmp_path: Path) -> None:
    tools = tools_for(tmp_path, budget=200)
    call(tools, "context_append", session_id="s", text="Goal: port the parser to Rust.", pinned=True)
    notes = [f"Looked at loader section {n}; it merges defaults into the server table." for n in range(12)]
    for note in notes:
        call(tools, "context_append", session_id="s", text=note)
    text = call(tools, "context_get", session_id="s")
    assert "over budget" in text
    assert "#1 pinned" in text
    assert "context_compact(session_id='s')" in text
    assert "context_recall(session_id='s', query=" in text
    assert not any(note in text for note in notes)
    assert "Goal: port the parser to Rust." not in text
    assert "OVER budget" in call(tools, "context_status", session_id="s")


def test_compact_with_nothing_to_fold_says_so(tmp_path: Path) -> None:
    tools = tools_for(tmp_path)
    call(tools, "context_append", session_id="s", text="one note")
    assert call(tools, "context_compact", session_id="s").startswith("Nothing to compact")


def test_recall_without_a_match_suggests_other_words(tmp_path: Path) -> None:
    tools = tools_for(tmp_path)
    call(tools, "context_append", session_id="s", text="one note")
    assert "Try other words" in call(tools, "context_recall", session_id="s", query="zebra")


def test_the_guide_names_every_step_and_the_configured_keywords(tmp_path: Path) -> None:
    guide = call(tools_for(tmp_path, protected_keywords=("invariant",)), "context_guide")
    for name in NAMES[:-1]:
        assert name in guide
    assert "invariant" in guide
    assert len(guide.splitlines()) <= 10


GOAL = "Goal: move config loading from hub/legacy.py into hub/config.py; behaviour must not change."
DECISION = "Decision: unknown keys are rejected, and the error names the file, the key path and the value."
NOTES = [
    "Read hub/legacy.py: load() mixes YAML parsing, env expansion and validation in one 180-line function.",
    "The env expansion uses os.path.expandvars on every string value, including the args lists.",
    "There are 14 call sites of legacy.load(); most only need the servers table.",
    "tests/hub/test_legacy.py covers parsing but nothing covers env expansion of args.",
    "Tried pydantic's extra='forbid': it reports the key path as a tuple, which reads fine in messages.",
    DECISION,
    "The 'timeout' key accepts both seconds and strings like '30s'; keep accepting both for now.",
    "Found that cwd is resolved relative to the config file's directory, not the process cwd.",
    "Wrote a first draft of HubConfig with nested models for servers, store and memory.",
    "The mcpServers shape from Claude Code configs pastes in unchanged; checked with two real configs.",
    "Ran the suite: 3 failures, all in test_legacy.py, because error messages changed wording.",
    "Updated the three assertions to the new messages; suite green again.",
    "Env expansion now happens after validation, so a missing variable names its key path.",
    "Benchmarked loading a 200-server config: 11 ms before, 9 ms after.",
    "The CLI still imports legacy.load in two places: hub/cli.py and bench/run.py.",
    "Replaced both imports with hub.config.load_config and deleted the shim's re-export.",
    "Docs: README's config section still shows the old 'downstreams' key; needs updating.",
    "Updated README and the default_config.yaml comments to the new key names.",
    "Last check: ruff and mypy clean on hub/config.py and hub/cli.py.",
    "Opened the pull request; CI runs the same checks on Python 3.11 and 3.12.",
]


def test_a_long_task_keeps_context_get_well_under_the_raw_history(tmp_path: Path) -> None:
    tools = tools_for(tmp_path)
    session = {"session_id": "move-config"}
    call(tools, "context_open", **session)
    call(tools, "context_append", **session, text=GOAL, pinned=True)
    for note in NOTES:
        call(tools, "context_append", **session, text=note, pinned=note == DECISION)
    raw_bytes = len("\n".join([GOAL, *NOTES]).encode())
    before = call(tools, "context_get", **session)

    status = call(tools, "context_status", **session)
    assert len(NOTES) == 20
    assert status.startswith("Session 'move-config': 21 entries (21 live")
    assert "within budget" in status

    compacted = call(tools, "context_compact", **session)
    assert "folded into summary #22" in compacted

    recalled = call(tools, "context_recall", **session, query="unknown keys rejected decision")
    assert recalled.splitlines()[1].startswith("[#7 pinned")
    assert DECISION in recalled
    folded = call(tools, "context_recall", **session, query="benchmarked 200-server config", limit=1)
    assert "superseded by #22" in folded

    after = call(tools, "context_get", **session)
    assert GOAL in after and DECISION in after
    get_bytes = len(after.encode())
    log.info(
        "scenario: raw history %d B; context_get %d B before compaction, %d B after",
        raw_bytes,
        len(before.encode()),
        get_bytes,
    )
    assert get_bytes < 0.75 * raw_bytes


# -- project memory ---------------------------------------------------------------------------------

BILLING = Project("billing", "/src/billing", "git")


def project_tools(directory: Path, **policy: Any) -> dict[str, NativeTool]:
    memory = SessionMemory(directory, MemoryPolicy(**policy), clock=Tick(), project=BILLING)
    return {tool.name: tool for tool in context_tools(memory)}


def test_a_new_session_opens_with_earlier_decisions_labelled_with_their_sources(tmp_path: Path) -> None:
    earlier = project_tools(tmp_path)
    call(
        earlier,
        "context_append",
        session_id="refactor-auth",
        text="Goal: replace cookies with JWT",
        pinned=True,
    )
    call(earlier, "context_append", session_id="refactor-auth", text="auth/middleware.ts:42 assumes a cookie")
    call(earlier, "context_append", session_id="refactor-auth", text="Decision: keep cookies behind a flag")
    opened = call(project_tools(tmp_path), "context_open", session_id="fix-login", task="cookie flag")
    block = opened.split("\n", 1)[1].splitlines()
    assert block[0].startswith("From earlier sessions of this project: 'billing', 2 entries from 1 session")
    assert block[1] == "- [decision · refactor-auth#3] Decision: keep cookies behind a flag"
    assert block[2] == "- [pinned · refactor-auth#1] Goal: replace cookies with JWT"
    assert "supersedes=['refactor-auth#3']" in block[-1]
    assert "middleware" not in opened


def test_superseding_marks_the_old_decision_in_its_own_sessions_window_and_in_recall(tmp_path: Path) -> None:
    tools = project_tools(tmp_path)
    call(tools, "context_append", session_id="a", text="Decision: keep cookies behind a flag")
    saved = call(tools, "context_append", session_id="b", text="Decision: drop cookies", supersedes=["a#1"])
    assert "Marked a#1 superseded by b#1" in saved
    assert "[#1 keyword:decision SUPERSEDED by b#1] Decision: keep cookies" in call(
        tools, "context_get", session_id="a"
    )
    hit = call(
        tools, "context_recall", session_id="b", query="keep cookies flag", scope="project"
    ).splitlines()[1]
    assert hit.startswith("[a#1 keyword:decision SUPERSEDED by b#1 · score")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param({"scope": "team"}, "scope must be 'session' or 'project'", id="scope"),
        pytest.param({"supersedes": [3]}, "supersedes must be a list", id="ref-type"),
        pytest.param({"supersedes": ["nope"]}, "is not a ref", id="ref-shape"),
        pytest.param({"supersedes": ["a#7"]}, "is not in project memory", id="ref-unknown"),
    ],
)
def test_bad_project_arguments_name_the_argument_and_the_fix(
    tmp_path: Path, arguments: dict[str, Any], message: str
) -> None:
    tools = project_tools(tmp_path)
    with pytest.raises(ToolInputError, match=message):
        call(tools, "context_append", session_id="s", text="Decision: x", **arguments)


def test_without_a_project_the_tools_work_per_session_and_say_project_scope_is_off(tmp_path: Path) -> None:
    tools = tools_for(tmp_path)
    assert "From earlier" not in call(tools, "context_open", session_id="s")
    with pytest.raises(ToolInputError, match="project memory is off"):
        call(tools, "context_recall", session_id="s", query="x", scope="project")
