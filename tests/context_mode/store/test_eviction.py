"""Eviction: least recently used by bytes, max_age with an injected clock, the memory of evicted refs."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.errors import RefEvicted, RefNotFound
from context_mode.store.ledger import Ledger
from context_mode.store.store import Store
from context_mode.store.values import StoredDoc
from context_mode.types import ContentKind


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def payload(word: str) -> str:
    """1000 bytes, searchable by ``word``."""
    return (word + " ").ljust(1000, ".")


def test_the_least_recently_read_document_goes_first_with_its_spill_file(tmp_path: Path) -> None:
    with Store(tmp_path / "store", max_bytes=3000) as store:
        a, b, c = (
            store.put(payload(word), source="t", kind=ContentKind.TEXT, spill_file=True)
            for word in ("alpha", "beta", "gamma")
        )
        store.window(a.ref)  # a is now more recent than b
        d = store.put(payload("delta"), source="t", kind=ContentKind.TEXT)
        assert b.spill_path is not None and not b.spill_path.exists()
        assert a.spill_path is not None and a.spill_path.exists()
        with pytest.raises(RefEvicted) as raised:
            store.text(b.ref)
        assert str(raised.value) == f"{b.ref} was evicted (least recently used); call the tool again"
        assert {hit.ref for hit in store.search("alpha beta gamma delta").hits} == {a.ref, c.ref, d.ref}
        stats = store.stats()
        assert (stats.bytes, stats.refs, stats.evictions) == (3000, 3, 1)


def test_a_search_hit_refreshes_its_document(tmp_path: Path) -> None:
    with Store(None, max_bytes=2000) as store:
        first = store.put(payload("zebra"), source="t", kind=ContentKind.TEXT).ref
        second = store.put(payload("lion"), source="t", kind=ContentKind.TEXT).ref
        assert store.search("zebra").hits[0].ref == first
        store.put(payload("tiger"), source="t", kind=ContentKind.TEXT)
        assert store.text(first).startswith("zebra")
        with pytest.raises(RefEvicted):
            store.text(second)


def test_listing_does_not_refresh_documents() -> None:
    with Store(None, max_bytes=2000) as store:
        first = store.put(payload("one"), source="t", kind=ContentKind.TEXT).ref
        store.put(payload("two"), source="t", kind=ContentKind.TEXT)
        store.documents()
        store.stats()
        store.put(payload("three"), source="t", kind=ContentKind.TEXT)
        with pytest.raises(RefEvicted):
            store.text(first)


def test_documents_older_than_max_age_are_evicted(tmp_path: Path) -> None:
    clock = Clock(0.0)
    with Store(tmp_path / "store", max_age=60, clock=clock) as store:
        old = store.put(payload("old"), source="t", kind=ContentKind.TEXT, spill_file=True)
        clock.now = 30.0
        young = store.put(payload("young"), source="t", kind=ContentKind.TEXT).ref
        clock.now = 59.9
        assert store.text(old.ref).startswith("old")  # reading does not extend the age
        clock.now = 60.0
        with pytest.raises(
            RefEvicted, match=f"{old.ref} was evicted \\(older than 60 s\\); call the tool again"
        ):
            store.text(old.ref)
        assert old.spill_path is not None and not old.spill_path.exists()
        assert store.text(young).startswith("young")
        assert [hit.ref for hit in store.search("old young").hits] == [young]
        clock.now = 90.0
        assert store.documents() == []
        assert store.stats().evictions == 2


def test_the_memory_of_evicted_refs_is_bounded() -> None:
    with Store(None, max_bytes=1000, max_evicted_refs=2) as store:
        refs = [store.put(payload(str(i)), source="t", kind=ContentKind.TEXT).ref for i in range(4)]
        with pytest.raises(RefNotFound, match=f"{refs[0]} is unknown"):
            store.text(refs[0])
        for ref in refs[1:3]:
            with pytest.raises(RefEvicted):
                store.text(ref)


def test_a_document_of_the_whole_budget_evicts_everything_else() -> None:
    with Store(None, max_bytes=2000) as store:
        small = [store.put(payload(str(i)), source="t", kind=ContentKind.TEXT).ref for i in range(2)]
        big = store.put("b" * 2000, source="t", kind=ContentKind.TEXT).ref
        assert [doc.ref for doc in store.documents()] == [big]
        for ref in small:
            with pytest.raises(RefEvicted):
                store.text(ref)


def doc(ref: str, size: int, created: float = 0.0) -> StoredDoc:
    return StoredDoc(ref, "t", ContentKind.TEXT, None, size, 1, created, None)


def test_a_batch_larger_than_the_budget_keeps_its_newest_documents() -> None:
    ledger = Ledger(max_evicted=10)
    ledger.add(doc("r_old", 500))
    victims = ledger.plan_evictions([doc("r_1", 600), doc("r_2", 600)], budget=1000, cutoff=None)
    assert [victim.ref for victim in victims] == ["r_old", "r_1"]
    assert ledger.eviction_reason("r_1") == "least recently used"
    assert ledger.take_undeleted() == {"r_old", "r_1"}


def test_the_ledger_round_trips_its_order_and_memory() -> None:
    ledger = Ledger(max_evicted=10)
    for ref in ("r_a", "r_b", "r_c"):
        ledger.add(doc(ref, 10))
    ledger.touch("r_a")
    ledger.evict("r_b", "least recently used")
    restored = Ledger(max_evicted=10)
    restored.restore(
        ledger.to_json(), [doc("r_a", 10), doc("r_c", 10), doc("r_b", 10), doc("r_new", 10, 5.0)]
    )
    assert [entry.ref for entry in restored.documents()] == ["r_c", "r_a", "r_new"]
    assert restored.undeleted == {"r_b"}
    assert restored.evictions == 1
