"""Persistence: reopen restores documents and LRU order, reconcile after crashes, one writer per directory."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import tantivy

from context_mode.errors import RefEvicted, RefNotFound, StoreCorrupt, StoreLocked
from context_mode.store.store import Store
from context_mode.types import ContentKind

REPO = Path(__file__).resolve().parents[3]


def payload(word: str) -> str:
    return (word + " ").ljust(1000, ".")


def test_reopening_restores_documents_and_their_lru_order(tmp_path: Path) -> None:
    with Store(tmp_path, max_bytes=3000) as store:
        assert store.path == tmp_path.resolve()
        a, b, c = (store.put(payload(word), source="t", kind=ContentKind.MARKDOWN).ref for word in "abc")
        store.text(a)
    with Store(tmp_path, max_bytes=3000) as store:
        assert [doc.ref for doc in store.documents()] == [c, b, a]  # newest first; listing does not refresh
        store.put(payload("d"), source="t", kind=ContentKind.TEXT)
        with pytest.raises(RefEvicted):  # b was the least recently used before the restart
            store.text(b)
        assert store.text(a) == payload("a")
        assert store.document(c).kind == ContentKind.MARKDOWN
        assert store.search("c").hits[0].ref == c


def test_evicted_refs_are_remembered_across_a_restart(tmp_path: Path) -> None:
    with Store(tmp_path, max_bytes=1000) as store:
        first = store.put(payload("1"), source="t", kind=ContentKind.TEXT).ref
        store.put(payload("2"), source="t", kind=ContentKind.TEXT)
    with Store(tmp_path, max_bytes=1000) as store:
        with pytest.raises(RefEvicted, match="least recently used"):
            store.text(first)
        assert store.stats().evictions == 1


@pytest.mark.parametrize(
    "ledger", [None, "{not json", '{"version": 99}'], ids=["missing", "garbage", "future"]
)
def test_documents_without_a_usable_ledger_are_adopted(tmp_path: Path, ledger: str | None) -> None:
    with Store(tmp_path) as store:
        refs = [store.put(f"doc {i}", source="t", kind=ContentKind.TEXT).ref for i in range(3)]
    if ledger is None:
        (tmp_path / "ledger.json").unlink()
    else:
        (tmp_path / "ledger.json").write_text(ledger)
    with Store(tmp_path) as store:
        assert sorted(doc.ref for doc in store.documents()) == sorted(refs)
        assert [store.text(ref) for ref in refs] == ["doc 0", "doc 1", "doc 2"]


def test_a_ledger_entry_whose_documents_are_missing_is_dropped(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        kept = store.put("kept", source="t", kind=ContentKind.TEXT).ref
    saved = json.loads((tmp_path / "ledger.json").read_text())
    saved["order"].insert(0, "r_ahead")
    (tmp_path / "ledger.json").write_text(json.dumps(saved))
    with Store(tmp_path) as store:
        assert [doc.ref for doc in store.documents()] == [kept]
        with pytest.raises(RefNotFound):
            store.text("r_ahead")


def test_documents_the_ledger_remembers_as_evicted_are_deleted_on_open(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        gone = store.put("stale words", source="t", kind=ContentKind.TEXT, spill_file=True)
    saved = json.loads((tmp_path / "ledger.json").read_text())
    saved["order"].remove(gone.ref)
    saved["evicted"].append([gone.ref, "least recently used"])
    (tmp_path / "ledger.json").write_text(json.dumps(saved))
    with Store(tmp_path) as store:
        with pytest.raises(RefEvicted):
            store.text(gone.ref)
        assert store.search("stale").hits == ()
        assert gone.spill_path is not None and not gone.spill_path.exists()


def test_files_in_the_spill_dir_that_the_store_did_not_write_survive_opening(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        live = store.put("live", source="t", kind=ContentKind.LOG, spill_file=True)
        spill_dir = store.spill_dir
    (spill_dir / "r_deadbeef.txt").write_text("not ours either")
    (spill_dir / "notes.md").write_text("not ours")
    with Store(tmp_path):
        assert (spill_dir / "r_deadbeef.txt").read_text() == "not ours either"
        assert (spill_dir / "notes.md").exists()
        assert live.spill_path is not None and live.spill_path.read_text() == "live"


def test_a_second_store_on_the_same_directory_is_refused(tmp_path: Path) -> None:
    with Store(tmp_path):
        with pytest.raises(StoreLocked) as raised:
            Store(tmp_path)
        assert str(raised.value).startswith(
            f"the store directory {tmp_path} is in use by another ctxhub (pid "
        )
        assert str(raised.value).endswith("give each hub its own store path or stop the other one")
    with Store(tmp_path):  # close() released the lock
        pass


def test_a_store_held_by_another_process_is_refused_until_it_closes(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from pathlib import Path\n"
        "from context_mode.store import Store\n"
        f"store = Store(Path({str(tmp_path)!r}))\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"
        "store.close()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        try:
            assert child.stdout.readline() == "ready\n"
            with pytest.raises(StoreLocked, match=f"pid {child.pid}"):
                Store(tmp_path)
            child.stdin.write("\n")
            child.stdin.flush()
            assert child.wait(timeout=30) == 0
        finally:
            child.kill()
    with Store(tmp_path):
        pass


BURST = """
import hashlib, sys
sys.path.insert(0, {repo!r})
from pathlib import Path
from context_mode.store import Store
from context_mode.types import ContentKind
store = Store(Path({path!r}), max_bytes=12_000, max_chunk_bytes=512)
i = 0
while True:
    text = "payload %d " % i + ("word%d " % i) * (100 + i % 300)
    ref = store.put(text, source="burst", kind=ContentKind.TEXT, spill_file=i % 2 == 0).ref
    print(ref, hashlib.sha256(text.encode()).hexdigest(), flush=True)
    i += 1
"""


def test_sigkill_in_a_burst_of_spills_never_returns_wrong_content(tmp_path: Path) -> None:
    script = BURST.format(repo=str(REPO), path=str(tmp_path))
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        try:
            printed = [child.stdout.readline().split() for _ in range(40)]
        finally:
            child.kill()  # SIGKILL, mid-burst
    with Store(tmp_path, max_bytes=12_000) as store:
        live = {doc.ref for doc in store.documents(None)}
        assert live
        assert store.stats().bytes <= 12_000
        evicted = 0
        for ref, digest in printed:
            try:
                text = store.text(ref)
            except RefEvicted:
                assert ref not in live
                evicted += 1
                continue
            assert hashlib.sha256(text.encode()).hexdigest() == digest
        assert evicted > 0  # the burst overflowed the budget, so reads of old refs say "evicted"
        for ref in live:  # adopted documents read back whole too (text() checks size and digest)
            store.text(ref)
        owned = {doc.spill_path for doc in store.documents(None) if doc.spill_path is not None}
        assert set(store.spill_dir.iterdir()) == owned


def test_an_index_of_another_schema_is_refused_without_keeping_the_lock(tmp_path: Path) -> None:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("other", stored=True)
    (tmp_path / "index").mkdir()
    tantivy.Index(builder.build(), path=str(tmp_path / "index"))
    for _ in range(2):  # the second attempt must not say "locked"
        with pytest.raises(StoreCorrupt, match="written by an incompatible ctxhub; delete that directory"):
            Store(tmp_path)
