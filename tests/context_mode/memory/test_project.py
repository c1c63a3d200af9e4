"""Project memory without an event loop: identity, promotion, the open block, recall, supersession, files."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from context_mode.errors import MemoryInputError
from context_mode.memory import MemoryPolicy, Project, SessionMemory, find_git_root, resolve_project
from context_mode.memory.project import ProjectPool
from context_mode.memory.store import Entry

PROJECT = Project("billing", "/src/billing", "git")
GOAL = "Goal: migrate the billing export to the v2 API without changing the CSV columns."
DECISION = "Decision: we never round amounts before summing; round once when writing the CSV."
ORDINARY = [
    f"Step {n}: looked at module_{n}.py and its parser case {n}; the tests for it pass." for n in range(12)
]


class Tick:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def memory(
    directory: Path, project: Project | None = PROJECT, clock: Tick | None = None, **policy: object
) -> SessionMemory:
    return SessionMemory(directory, MemoryPolicy(**policy), clock=clock or Tick(), project=project)  # type: ignore[arg-type]


def session_a(directory: Path, **policy: object) -> SessionMemory:
    store = memory(directory, **policy)
    store.open("task-a")
    store.append("task-a", GOAL, pinned=True)
    for number, note in enumerate(ORDINARY):
        store.append("task-a", DECISION if number == 6 else note)
    return store


# -- identity -------------------------------------------------------------------------------------


def test_the_project_is_the_configured_name_else_the_git_root_else_the_workspace(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert resolve_project("billing", plain) == Project("billing", "config:billing", "config")
    from_below = resolve_project(None, repo / "src" / "deep")
    assert (from_below.source, from_below.identity, from_below.name) == ("git", str(repo), "repo")
    assert resolve_project(None, repo).key == from_below.key
    outside = resolve_project(None, plain)
    assert outside.source == "workspace" and outside.key != from_below.key
    with pytest.raises(ValueError, match="memory.project"):
        resolve_project("  ", plain)


def test_a_worktree_or_submodule_git_file_marks_a_root_too(tmp_path: Path) -> None:
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/wt\n")
    assert find_git_root(tmp_path / "wt") == tmp_path / "wt"


def test_two_projects_with_the_same_folder_name_get_different_pools(tmp_path: Path) -> None:
    first, second = Project("app", "/a/app", "git"), Project("app", "/b/app", "git")
    assert first.key != second.key and first.key.startswith("app-")


# -- the open block -------------------------------------------------------------------------------


def test_a_new_session_opens_with_the_goal_and_decision_of_an_earlier_one_and_no_ordinary_note(
    tmp_path: Path,
) -> None:
    session_a(tmp_path)
    later = memory(tmp_path)  # another hub, later
    opened = later.open("task-b")
    assert opened.created and opened.project is not None
    texts = [item.text for item in opened.project.items]
    assert GOAL in texts and DECISION in texts
    assert not any(note in texts for note in ORDINARY)
    labels = {item.text: (item.label, item.sources) for item in opened.project.items}
    assert labels[GOAL] == ("pinned", ("task-a#1",))
    assert labels[DECISION] == ("decision", ("task-a#8",))
    assert opened.project.tokens <= 600


def test_the_block_is_newest_and_most_relevant_first_and_within_the_project_budget(tmp_path: Path) -> None:
    store = memory(tmp_path)
    for number in range(40):
        store.append("task-a", f"Decision {number}: the exporter module_{number} must keep its header row.")
    store.append("task-a", "Decision: the invoice renderer must use the PDF template v3.")
    opened = memory(tmp_path, project_budget=200).open("task-b", task="fix the invoice renderer")
    assert opened.project is not None
    assert opened.project.items[0].text == "Decision: the invoice renderer must use the PDF template v3."
    assert opened.project.items[1].text.startswith("Decision 39:")  # then the newest
    assert opened.project.tokens <= 200 and opened.project.left_out > 0


def test_the_same_decision_in_two_sessions_shows_once_with_both_sources(tmp_path: Path) -> None:
    store = memory(tmp_path)
    store.append("task-a", DECISION)
    store.append(
        "task-c", "decision:  We never round amounts before summing, round once when writing the CSV"
    )
    opened = store.open("task-b")
    assert opened.project is not None
    assert [item.sources for item in opened.project.items] == [("task-a#1", "task-c#1")]


def test_a_resumed_session_sees_the_block_only_when_another_session_added_something(tmp_path: Path) -> None:
    session_a(tmp_path)
    store = memory(tmp_path)
    assert store.open("task-b").project is not None
    assert memory(tmp_path).open("task-b").project is None  # nothing new since it looked
    store.append("task-b", "Decision: keep the old CSV writer behind a flag.")
    assert memory(tmp_path).open("task-b").project is None  # its own news is not news
    memory(tmp_path).append("task-a", "Constraint: the export must finish within 5 minutes.")
    resumed = memory(tmp_path).open("task-b")
    assert resumed.project is not None and resumed.project.new == 1
    assert [item.text for item in resumed.project.items if item.new] == [
        "Constraint: the export must finish within 5 minutes."
    ]


def test_a_project_without_earlier_sessions_opens_without_a_block(tmp_path: Path) -> None:
    assert memory(tmp_path).open("first").project is None


def test_another_project_on_the_same_store_sees_nothing(tmp_path: Path) -> None:
    session_a(tmp_path)
    other = memory(tmp_path, project=Project("other", "/src/other", "git"))
    assert other.open("task-c").project is None
    assert other.recall("task-c", "round amounts", scope="project") == ()


# -- promotion ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("promote", "shared"),
    [
        pytest.param("protected", {GOAL, DECISION, "Shared by hand."}, id="protected"),
        pytest.param("pinned", {GOAL, "Shared by hand."}, id="pinned"),
        pytest.param("none", {"Shared by hand."}, id="none"),
    ],
)
def test_promotion_follows_the_policy_and_scope_project_always_promotes(
    tmp_path: Path, promote: str, shared: set[str]
) -> None:
    store = session_a(tmp_path, promote=promote)
    store.append("task-a", "Shared by hand.", scope="project")
    assert {entry.text for entry in store.project.entries()} == shared  # type: ignore[union-attr]


def test_compaction_never_folds_a_promoted_entry_even_after_it_lost_protection(tmp_path: Path) -> None:
    store = memory(tmp_path, max_protected=1, compact_keep=1)
    store.append("s", "We must keep the CLI flags of the exporter.")
    store.append("s", "Plain note about the exporter, shared by hand.", scope="project")
    store.append("s", DECISION)
    for number in range(6):
        store.append("s", ORDINARY[number])
    result = store.compact("s")
    assert result.folded == (4, 5, 6, 7, 8)  # the ordinary notes but the last
    first = store.entries("s")[0]
    assert first.demoted and first.promoted  # lost its protection to the cap of 1 ...
    assert first.superseded_by is None  # ... and is still not folded


def test_scope_project_without_a_project_is_a_clear_error(tmp_path: Path) -> None:
    store = memory(tmp_path, project=None)
    with pytest.raises(MemoryInputError, match="project memory is off"):
        store.append("s", "note", scope="project")
    with pytest.raises(MemoryInputError, match="scope must be"):
        store.append("s", "note", scope="team")


# -- recall and supersession ----------------------------------------------------------------------


def test_project_recall_finds_another_sessions_decision_and_names_its_session(tmp_path: Path) -> None:
    session_a(tmp_path)
    store = memory(tmp_path)
    store.open("task-b")
    assert store.recall("task-b", "round amounts", scope="session") == ()
    hits = store.recall("task-b", "round amounts before summing", scope="project")
    assert hits[0].entry.text == DECISION and hits[0].session_id == "task-a"
    ordinary = store.recall("task-b", "module_3 parser", scope="project")  # every note, not only the pool
    assert ordinary[0].session_id == "task-a" and "module_3" in ordinary[0].entry.text


def test_a_superseding_decision_marks_the_old_one_for_every_later_session(tmp_path: Path) -> None:
    session_a(tmp_path)
    b = memory(tmp_path)
    b.open("task-b")
    newer = "Decision: round each line amount to cents before summing (finance asked for it)."
    appended = b.append("task-b", newer, supersedes=("task-a#8",))
    assert appended.superseded == ("task-a#8",) and appended.entry.promoted
    c = memory(tmp_path)
    opened = c.open("task-c")
    assert opened.project is not None
    texts = [item.text for item in opened.project.items]
    assert newer in texts and DECISION not in texts and opened.project.superseded == 1
    hits = {
        hit.entry.text: hit for hit in c.recall("task-c", "round amounts summing", scope="project", limit=10)
    }
    assert hits[DECISION].replaced_by == "task-b#" + str(appended.entry.id)  # kept, findable, marked
    assert hits[newer].replaced_by is None
    assert c.recall("task-a", "never round", scope="session")[0].replaced_by is not None


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        pytest.param("task-a", "is not a ref", id="no-hash"),
        pytest.param("task-a#99", "is not in project memory", id="unknown"),
        pytest.param("task-a#2", "is not in project memory", id="ordinary-note"),
        pytest.param("../x#1", "is not a ref", id="path"),
    ],
)
def test_a_bad_supersedes_ref_is_refused_and_writes_nothing(tmp_path: Path, ref: str, message: str) -> None:
    session_a(tmp_path)
    store = memory(tmp_path)
    with pytest.raises(MemoryInputError, match=message):
        store.append("task-b", "Decision: something else.", supersedes=(ref,))
    assert not (tmp_path / "task-b.jsonl").exists()


# -- the files ------------------------------------------------------------------------------------


def test_the_pool_is_an_append_only_file_of_whole_lines_next_to_the_sessions(tmp_path: Path) -> None:
    session_a(tmp_path)
    pool = tmp_path / "projects" / f"{PROJECT.key}.jsonl"
    before = pool.read_bytes()
    memory(tmp_path).open("task-b")
    after = pool.read_bytes()
    assert after.startswith(before) and after.endswith(b"\n")
    ops = [json.loads(line)["op"] for line in after.splitlines()]
    assert ops[:3] == ["open", "join", "seen"] and ops.count("promote") == 2
    assert ops[-2:] == ["join", "seen"]
    assert (pool.stat().st_mode & 0o777) == 0o600


def test_a_torn_pool_line_is_skipped_with_a_warning_and_the_next_record_lands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session_a(tmp_path)
    pool = tmp_path / "projects" / f"{PROJECT.key}.jsonl"
    with pool.open("ab") as handle:
        handle.write(b'{"op":"promote","session":"task-x","id":1,"text":"half')
    with caplog.at_level(logging.WARNING):
        store = memory(tmp_path)
        store.append("task-b", "Constraint: the export must stay under 5 minutes.")
    assert "torn last line" in caplog.text
    texts = {entry.text for entry in ProjectPool(tmp_path / "projects", PROJECT).entries()}
    assert texts == {GOAL, DECISION, "Constraint: the export must stay under 5 minutes."}


def test_two_memories_on_one_directory_see_each_others_appends_and_never_reuse_an_id(tmp_path: Path) -> None:
    first, second = memory(tmp_path), memory(tmp_path)
    first.append("shared", "one")
    second.append("shared", "two")
    first.append("shared", "three")
    assert [(entry.id, entry.text) for entry in second.entries("shared")] == [
        (1, "one"),
        (2, "two"),
        (3, "three"),
    ]


def test_the_pool_keeps_the_first_copy_of_an_entry_promoted_twice(tmp_path: Path) -> None:
    pool = ProjectPool(tmp_path, PROJECT, clock=Tick())
    entry = Entry(id=1, ts=5.0, text="Decision: x.", reason="keyword:decision", promoted=True)
    pool.promote("s", entry)
    ProjectPool(tmp_path, PROJECT, clock=Tick()).promote("s", entry)
    assert len(pool.entries()) == 1
    assert sum(1 for line in pool.path.read_text().splitlines() if '"promote"' in line) == 1
