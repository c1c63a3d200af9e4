"""Appending a note does work bounded by the window and the protection cap, not by the session's size."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from context_mode.memory import store as memory_store
from context_mode.memory.session import MemoryPolicy, SessionMemory, Window, WindowDirective
from context_mode.memory.store import Entry


class CountingProtected:
    """Entry.protected, counting how often it is asked (every scan over the entries asks it)."""

    def __init__(self) -> None:
        self.calls = 0
        self.original = Entry.protected

    def __get__(self, entry: Entry, owner: type | None = None) -> bool:
        self.calls += 1
        return bool(self.original.__get__(entry, owner))


def test_one_append_to_a_session_of_3000_entries_looks_at_a_bounded_number_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = SessionMemory(tmp_path, MemoryPolicy(window=20, max_protected=10))
    for n in range(3000):
        memory.append("s", f"note {n}: must keep {n}" if n % 97 == 0 else f"note {n}", pinned=n % 501 == 0)
    counter = CountingProtected()
    monkeypatch.setattr(memory_store.Entry, "protected", counter)
    appended = memory.append("s", "one more note")
    memory.status("s")
    assert appended.entry.id == 3001
    assert counter.calls < 200, f"{counter.calls} protection checks for one append and one status"


def _expected_status(memory: SessionMemory, policy: MemoryPolicy) -> dict[str, int]:
    """The status recomputed from scratch, the way the old code scanned every entry."""
    entries = memory.entries("s")
    live = [entry for entry in entries if entry.superseded_by is None]
    older = live[: max(0, len(live) - policy.compact_keep)]
    window = {entry.id for entry in live[-policy.window :]} | {entry.id for entry in live if entry.protected}
    return {
        "entries": len(entries),
        "live": len(live),
        "superseded": len(entries) - len(live),
        "summaries": sum(entry.kind == "summary" for entry in live),
        "protected": sum(entry.protected for entry in live),
        "window_entries": len(window),
        "compactable": sum(not entry.protected for entry in older),
    }


@pytest.mark.parametrize("seed", range(6))
def test_the_kept_counts_match_a_full_recount_through_appends_demotions_compactions_and_reopens(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    policy = MemoryPolicy(
        window=rng.randint(1, 8), max_protected=rng.randint(0, 4), compact_keep=rng.randint(0, 4)
    )
    memory = SessionMemory(tmp_path, policy)
    memory.append("s", "step -1: the first note")
    for step in range(150):
        action = rng.random()
        if action < 0.08:
            memory.compact("s")
        elif action < 0.12:
            memory = SessionMemory(tmp_path, policy)  # reopen: replayed from the JSONL log
        else:
            text = f"step {step}: " + ("we must not break it" if rng.random() < 0.3 else "looked around")
            memory.append("s", text, pinned=rng.random() < 0.1)
        status = memory.status("s")
        got = {key: getattr(status, key) for key in _expected_status(memory, policy)}
        assert got == _expected_status(memory, policy), f"step {step}"
        snapshot = memory.get("s")
        if isinstance(snapshot, Window):
            assert len(snapshot.entries) == status.window_entries
        else:
            assert isinstance(snapshot, WindowDirective) and snapshot.compactable == status.compactable
