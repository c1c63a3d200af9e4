"""Session memory: window and protection rules, the cap, compaction, the JSONL log and its damage."""

from __future__ import annotations

import json
import logging
import math
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.memory.session import (
    EntryError,
    MemoryPolicy,
    SessionIdError,
    SessionMemory,
    UnknownSessionError,
    Window,
    WindowDirective,
)
from context_mode.tokens import estimate_tokens


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class FixedSummarizer:
    def __init__(self, answer: str | None) -> None:
        self.answer = answer
        self.calls: list[tuple[str, int]] = []

    def summarize(self, text: str, *, max_tokens: int) -> str | None:
        self.calls.append((text, max_tokens))
        return self.answer


def memory(directory: Path, **policy: object) -> SessionMemory:
    return SessionMemory(directory, MemoryPolicy(**policy), clock=FakeClock())  # type: ignore[arg-type]


def plain_note(number: int) -> str:
    return f"Step {number}: looked at the loader section {number} and its helper number {number}."


def test_open_creates_a_session_once_and_reports_whether_it_was_new(tmp_path: Path) -> None:
    store = memory(tmp_path)
    assert store.open("task-1").created
    assert not store.open("task-1").created
    assert not SessionMemory(tmp_path).open("task-1").created


def test_the_window_holds_the_most_recent_entries_plus_every_protected_one(tmp_path: Path) -> None:
    store = memory(tmp_path, window=3)
    store.append("s", "Goal: port the parser.", pinned=True)
    for number in range(2, 8):
        store.append("s", plain_note(number))
    snapshot = store.get("s")
    assert isinstance(snapshot, Window)
    assert [entry.id for entry in snapshot.entries] == [1, 5, 6, 7]
    assert snapshot.outside == 3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        pytest.param("You must keep the CLI flags unchanged.", "keyword:must", id="keyword"),
        pytest.param("记住：不要修改公共接口。", "keyword:记住", id="cjk-keyword"),
        pytest.param("def load(path: Path) -> Config", "api-signature", id="api-signature"),
        pytest.param(
            "Plan: edit src/config/mod.rs, then add tests/roundtrip.rs", "file-plan", id="file-plan"
        ),
        pytest.param("Looked around the loader for a while.", None, id="plain"),
    ],
)
def test_protection_is_decided_when_a_note_is_appended(tmp_path: Path, text: str, reason: str | None) -> None:
    entry = memory(tmp_path).append("s", text).entry
    assert entry.reason == reason
    assert entry.protected is (reason is not None)


def test_protected_keywords_are_configurable(tmp_path: Path) -> None:
    store = memory(tmp_path, protected_keywords=("invariant",))
    assert store.append("s", "The invariant: ids only grow.").entry.reason == "keyword:invariant"
    assert store.append("s", "You must not change this.").entry.reason is None


def test_past_the_cap_the_oldest_unpinned_protected_entry_loses_protection_not_its_text(
    tmp_path: Path,
) -> None:
    store = memory(tmp_path, max_protected=3)
    store.append("s", "Goal: port the parser.", pinned=True)
    store.append("s", "We must keep the flags.")
    store.append("s", "Never touch the lock file.")
    appended = store.append("s", "Decision: use serde.")
    assert appended.demoted == (2,)
    assert appended.status.protected == 3
    entries = {entry.id: entry for entry in store.entries("s")}
    assert entries[2].demoted and not entries[2].protected
    assert entries[2].text == "We must keep the flags."
    assert entries[1].protected  # pinned notes outlast keyword ones
    reloaded = {entry.id: entry for entry in memory(tmp_path, max_protected=3).entries("s")}
    assert not reloaded[2].protected and reloaded[4].protected


def test_when_every_protected_entry_is_pinned_the_oldest_pinned_one_is_demoted(tmp_path: Path) -> None:
    store = memory(tmp_path, max_protected=2)
    for number in range(1, 4):
        store.append("s", f"Pinned goal {number}.", pinned=True)
    assert [entry.protected for entry in store.entries("s")] == [False, True, True]


def test_a_smaller_cap_in_the_config_is_applied_when_the_session_loads(tmp_path: Path) -> None:
    store = memory(tmp_path)
    for number in range(4):
        store.append("s", f"Rule {number}: you must keep flag {number}.")
    assert memory(tmp_path, max_protected=2).status("s").protected == 2


def test_compaction_folds_older_unprotected_entries_into_one_summary(tmp_path: Path) -> None:
    store = memory(tmp_path, compact_keep=2)
    store.append("s", "Goal: port the parser.", pinned=True)
    for number in range(2, 9):
        store.append("s", plain_note(number))
    result = store.compact("s")
    assert result.folded == (2, 3, 4, 5, 6)
    assert result.method == "extractive"
    assert result.summary is not None and result.summary.kind == "summary"
    entries = {entry.id: entry for entry in store.entries("s")}
    assert all(entries[entry_id].superseded_by == result.summary.id for entry_id in result.folded)
    assert entries[1].superseded_by is None and entries[8].superseded_by is None
    snapshot = store.get("s")
    assert isinstance(snapshot, Window)
    assert [entry.id for entry in snapshot.entries] == [1, result.summary.id, 7, 8]


def test_superseded_originals_are_still_recalled_and_marked(tmp_path: Path) -> None:
    store = memory(tmp_path, compact_keep=1)
    store.append("s", "The flaky test is test_reload_twice in tests/test_cache.py.")
    for number in range(2, 6):
        store.append("s", plain_note(number))
    summary = store.compact("s").summary
    assert summary is not None
    hits = store.recall("s", "flaky test_reload_twice")
    assert hits[0].entry.id == 1
    assert hits[0].entry.superseded_by == summary.id


def test_compaction_survives_a_restart(tmp_path: Path) -> None:
    store = memory(tmp_path, compact_keep=1)
    for number in range(1, 5):
        store.append("s", plain_note(number))
    folded = store.compact("s").folded
    reloaded = memory(tmp_path, compact_keep=1)
    assert [entry.id for entry in reloaded.entries("s") if entry.superseded_by is not None] == list(folded)


def test_code_blocks_are_kept_verbatim_in_summaries(tmp_path: Path) -> None:
    store = memory(tmp_path, compact_keep=1, summary_tokens=60)
    code = "```sh\ncargo test --package config -- --nocapture\nrg -n 'load_part' src/\n```"
    store.append("s", f"Found the loader entry point after a long search.\n{code}")
    for number in range(2, 12):
        store.append("s", plain_note(number) + " " + "Some filler prose about it. " * 3)
    summary = store.compact("s").summary
    assert summary is not None
    assert code in summary.text


def test_nothing_is_compacted_when_fewer_than_two_entries_could_be_folded(tmp_path: Path) -> None:
    store = memory(tmp_path, compact_keep=2)
    store.append("s", "Goal: port the parser.", pinned=True)
    store.append("s", plain_note(2))
    store.append("s", plain_note(3))
    result = store.compact("s")
    assert result.summary is None and result.method == "none"


def test_a_summarizer_answer_is_used_and_keeps_the_code_it_dropped(tmp_path: Path) -> None:
    summarizer = FixedSummarizer("Looked at loader sections 2-9.")
    store = SessionMemory(tmp_path, MemoryPolicy(compact_keep=1), clock=FakeClock(), summarizer=summarizer)
    store.append("s", "Entry point:\n```sh\nmake run\n```")
    for number in range(2, 10):
        store.append("s", plain_note(number))
    result = store.compact("s")
    assert result.method == "llm"
    assert result.summary is not None
    assert result.summary.text.startswith("Looked at loader sections 2-9.")
    assert "```sh\nmake run\n```" in result.summary.text
    source, limit = summarizer.calls[0]
    assert limit == math.ceil(estimate_tokens(source) * MemoryPolicy().summary_ratio)


@pytest.mark.parametrize("answer", [None, "", "   "], ids=["none", "empty", "blank"])
def test_an_empty_summarizer_answer_falls_back_to_the_extractive_summary(
    tmp_path: Path, answer: str | None
) -> None:
    store = SessionMemory(
        tmp_path, MemoryPolicy(compact_keep=1), clock=FakeClock(), summarizer=FixedSummarizer(answer)
    )
    for number in range(1, 5):
        store.append("s", plain_note(number))
    assert store.compact("s").method == "extractive"


def test_over_budget_the_snapshot_is_a_directive_without_raw_text(tmp_path: Path) -> None:
    store = memory(tmp_path, budget=150)
    store.append("s", "Goal: port the parser to Rust.", pinned=True)
    for number in range(2, 10):
        store.append("s", plain_note(number))
    snapshot = store.get("s")
    assert isinstance(snapshot, WindowDirective)
    assert snapshot.tokens > snapshot.budget == 150
    assert [digest.id for digest in snapshot.protected] == [1]
    assert snapshot.protected[0].reason == "pinned"
    assert snapshot.compactable == 3
    assert not any(plain_note(number) in repr(snapshot) for number in range(2, 10))
    assert store.status("s").over_budget


def test_a_torn_last_line_is_skipped_with_a_warning_and_the_next_append_still_lands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = memory(tmp_path)
    store.append("s", "first note")
    store.append("s", "second note")
    path = tmp_path / "s.jsonl"
    with path.open("ab") as handle:
        handle.write(b'{"op":"note","id":3,"ts":5.0,"text":"half wri')
    with caplog.at_level(logging.WARNING, logger="context_mode.memory.store"):
        reloaded = memory(tmp_path)
        assert [entry.text for entry in reloaded.entries("s")] == ["first note", "second note"]
    assert "torn last line" in caplog.text
    assert reloaded.append("s", "third note").entry.id == 3
    again = memory(tmp_path)
    assert [entry.text for entry in again.entries("s")] == ["first note", "second note", "third note"]


def test_every_change_is_an_appended_line(tmp_path: Path) -> None:
    store = memory(tmp_path, max_protected=1, compact_keep=1)
    store.append("s", "We must keep the flags.")
    store.append("s", "Never touch the lock file.")
    for number in range(3, 6):
        store.append("s", plain_note(number))
    store.compact("s")
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["op"] for line in lines] == [
        "open",
        "note",
        "note",
        "demote",
        "note",
        "note",
        "note",
        "summary",
    ]


def test_session_files_are_private(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    memory(directory).append("s", "note")
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "s.jsonl").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "session_id",
    ["", ".", "..", "../escape", "a/b", "a\\b", ".hidden", "-flag", "x" * 129, "name\n"],
)
def test_session_ids_with_path_characters_are_refused(tmp_path: Path, session_id: str) -> None:
    with pytest.raises(SessionIdError, match="session id"):
        memory(tmp_path).open(session_id)
    assert list(tmp_path.iterdir()) == []


def test_reading_a_session_never_opened_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(UnknownSessionError, match="context_open"):
        memory(tmp_path).get("missing")


@pytest.mark.parametrize("text", ["", "   \n"], ids=["empty", "blank"])
def test_an_empty_note_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(EntryError, match="empty"):
        memory(tmp_path).append("s", text)


def test_an_oversize_note_is_refused_with_the_config_key(tmp_path: Path) -> None:
    with pytest.raises(EntryError, match="memory.max_entry_chars"):
        memory(tmp_path, max_entry_chars=100).append("s", "x" * 101)


def test_recall_blends_relevance_with_recency(tmp_path: Path) -> None:
    store = memory(tmp_path)
    store.append("s", "The cache key includes the tool name.")
    for number in range(2, 30):
        store.append("s", plain_note(number))
    store.append("s", "The cache key includes the tool name.")
    hits = store.recall("s", "cache key", limit=2)
    assert [hit.entry.id for hit in hits] == [30, 1]
    assert hits[0].score > hits[1].score


def test_recall_finds_camel_case_identifiers_and_cjk_words(tmp_path: Path) -> None:
    store = memory(tmp_path)
    store.append("s", "Call getUserById before saving.")
    store.append("s", "记住：不要修改公共接口。")
    store.append("s", plain_note(3))
    assert store.recall("s", "user")[0].entry.id == 1
    assert store.recall("s", "getUserById")[0].entry.id == 1
    assert store.recall("s", "接口")[0].entry.id == 2
    assert store.recall("s", 'body:"unclosed NOT (') == ()


def test_concurrent_appends_get_distinct_ids(tmp_path: Path) -> None:
    store = memory(tmp_path)
    store.open("s")

    def write(worker: int) -> None:
        for number in range(10):
            store.append("s", f"worker {worker} note {number}")

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = [entry.id for entry in memory(tmp_path).entries("s")]
    assert ids == list(range(1, 41))


@pytest.mark.parametrize(
    ("setting", "value"),
    [("budget", 10), ("window", 0), ("max_protected", -1), ("summary_tokens", 1)],
)
def test_a_bad_policy_value_names_its_config_key(setting: str, value: int) -> None:
    with pytest.raises(ValueError, match=f"memory.{setting}"):
        MemoryPolicy(**{setting: value})  # type: ignore[arg-type]


def test_a_damaged_middle_line_is_skipped_and_the_rest_loads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = memory(tmp_path)
    store.append("s", "first note")
    path = tmp_path / "s.jsonl"
    with path.open("ab") as handle:
        handle.write(b"\x00garbage\n")
    store.append("s", "second note")
    with caplog.at_level(logging.WARNING, logger="context_mode.memory.store"):
        texts = [entry.text for entry in memory(tmp_path).entries("s")]
    assert texts == ["first note", "second note"]
    assert "damaged line 3" in caplog.text


def test_a_note_with_a_lone_surrogate_is_stored_with_a_replacement(tmp_path: Path) -> None:
    memory(tmp_path).append("s", "bad \ud800 char")
    assert memory(tmp_path).entries("s")[0].text == "bad ? char"


@pytest.fixture(scope="module")
def busy_memory(tmp_path_factory: pytest.TempPathFactory) -> SessionMemory:
    store = memory(tmp_path_factory.mktemp("recall"))
    for number in range(10):
        store.append("s", plain_note(number))
    return store


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=80), st.integers(min_value=1, max_value=10))
def test_recall_accepts_any_query_text(busy_memory: SessionMemory, query: str, limit: int) -> None:
    hits = busy_memory.recall("s", query, limit=limit)
    assert len(hits) <= limit
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
