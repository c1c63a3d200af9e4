"""The store's slow path: chunk a reserved payload, index it with others in one commit, evict.

``Indexer.index(ref)`` claims the pending payload, chunks it outside any lock, then takes the write
lock and commits every prepared payload at once (group commit: concurrent calls share a commit,
which costs ~30 ms whatever its size). In the same commit it deletes the docs of everything the
ledger evicted since the last one: payloads over the byte budget (least recently used first), too
old, or found damaged. Only after the commit (and reload) are the new payloads added to the ledger
and their waiters woken, so a reader never sees a live ref whose chunks are not searchable yet.

The ledger file is saved after every commit, and also before a commit that deletes (write-ahead),
so after a crash a deleted ref still reads as evicted, never as unknown.

With a ``DiskBudget`` the byte budget of each commit is the smaller of ``max_bytes`` and the
budget that holds the directory bound; after the commit the directory is measured and, when over,
the least recently used payloads are evicted at once (``store.disk``).

If chunking or the commit fails, the batch is rolled back and each of its refs is remembered as
evicted with the reason; the caller gets a StoreError, readers get RefEvicted.

Locks: the write lock (owned here) is taken before the store's state lock (guarding the ledger);
the pending payloads have their own lock and are never touched with the state lock held.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable

from context_mode.chunking import chunk
from context_mode.errors import StoreError
from context_mode.store.disk import DiskBudget
from context_mode.store.files import remove_spill
from context_mode.store.index import ChunkIndex, IndexedDoc, outline_sections
from context_mode.store.ledger import Ledger
from context_mode.store.pending import Pending, PendingPayloads, wait
from context_mode.store.values import StoredDoc


class Indexer:
    """Turns pending payloads into indexed, ledgered documents (see module doc)."""

    def __init__(
        self,
        index: ChunkIndex,
        ledger: Ledger,
        state_lock: threading.Lock,
        pending: PendingPayloads,
        *,
        max_bytes: int,
        max_chunk_bytes: int,
        read_timeout: float,
        cutoff: Callable[[], float | None],
        gone: Callable[[str], StoreError],
        save_ledger: Callable[[str], None],
        disk: DiskBudget | None = None,
    ) -> None:
        self.write_lock = threading.Lock()
        self._index = index
        self._ledger = ledger
        self._state_lock = state_lock
        self._pending = pending
        self._max_bytes = max_bytes
        self._max_chunk_bytes = max_chunk_bytes
        self._read_timeout = read_timeout
        self._cutoff = cutoff
        self._gone = gone
        self._save_ledger = save_ledger
        self._disk = disk

    def index(self, ref: str) -> StoredDoc:
        """Index ``ref`` (or wait for whoever is indexing it) and return its document."""
        item, claimed = self._pending.claim(ref)
        if item is None:
            with self._state_lock:
                doc = self._ledger.get(ref)
            if doc is None:
                raise self._gone(ref)
            return doc
        if claimed:
            try:
                chunks = chunk(item.text, item.kind, max_chunk_bytes=self._max_chunk_bytes)
            except Exception as exc:  # a chunker bug must cost this payload only
                self._fail([item], f"indexing failed: {type(exc).__name__}")
                raise self._gone(ref) from exc
            self._pending.prepare(item, chunks)
            with self.write_lock:
                if not item.done.is_set():
                    self._commit_prepared()
        doc = wait(item, self._read_timeout)
        if doc is None:
            raise self._gone(ref)
        return doc

    def commit_deletions(self) -> None:
        """Delete the docs of everything evicted since the last commit (takes the write lock)."""
        with self.write_lock:
            with self._state_lock:
                deletions = self._ledger.take_undeleted()
                snapshot = self._ledger.to_json()
            self._save_ledger(snapshot)  # write-ahead, as in _commit_prepared
            for ref in deletions:
                self._index.delete(ref)
            if deletions:
                self._index.commit()

    def _commit_prepared(self) -> None:
        """Index all prepared payloads and apply the evictions they cause, in one commit (write lock held)."""
        batch = self._pending.prepared()
        entries = [_entry(item) for item in batch]
        deletions: set[str] = set()
        victims: list[StoredDoc] = []
        try:
            for entry, item in zip(entries, batch, strict=True):
                self._index.add(entry, item.chunks or ())
            with self._state_lock:
                incoming = [entry.doc for entry in entries]
                victims = self._ledger.plan_evictions(incoming, budget=self._budget(), cutoff=self._cutoff())
                deletions = self._ledger.take_undeleted()
                ahead = self._ledger.to_json() if deletions else None
            if ahead is not None:  # write-ahead: after a crash, deleted refs still read as evicted
                self._save_ledger(ahead)
            for ref in deletions:
                self._index.delete(ref)
            self._index.commit()
        except Exception as exc:  # the batch is lost; its waiters get the reason
            self._index.rollback()
            with self._state_lock:
                self._ledger.undeleted |= deletions - {entry.doc.ref for entry in entries}
            self._fail(batch, f"indexing failed: {type(exc).__name__}")
            message = f"indexing failed ({type(exc).__name__}: {exc}); check the store directory"
            raise StoreError(message) from exc
        finally:
            for doc in victims:
                remove_spill(doc.spill_path)
        with self._state_lock:  # the ledger first: a reader never finds a ref in neither place
            gone = {doc.ref for doc in victims}
            for entry in entries:
                if entry.doc.ref not in gone:
                    self._ledger.add(entry.doc)
            snapshot = self._ledger.to_json()
        for entry, item in zip(entries, batch, strict=True):
            self._pending.finish(item, entry.doc)
        self._save_ledger(snapshot)
        if deletions:
            self._index.collect_garbage()
        self._hold_disk()

    def _budget(self) -> int:
        """The payload bytes the ledger may keep: ``max_bytes``, or less to hold the directory bound."""
        return self._max_bytes if self._disk is None else min(self._max_bytes, self._disk.payload_budget())

    def _hold_disk(self) -> None:
        """Over the directory bound after a commit: evict down to the new budget (write lock held)."""
        if self._disk is None:
            return
        for _ in range(3):  # each round measures what the previous one freed
            with self._state_lock:
                payload = self._ledger.total_bytes
            if self._disk.observe(payload) <= self._disk.limit:
                return
            with self._state_lock:
                victims = self._ledger.plan_evictions([], budget=self._budget(), cutoff=None)
                deletions = self._ledger.take_undeleted()
                snapshot = self._ledger.to_json()
            if not deletions:
                return
            self._save_ledger(snapshot)
            for ref in deletions:
                self._index.delete(ref)
            try:
                self._index.commit()
                self._index.collect_garbage()
            finally:
                for doc in victims:
                    remove_spill(doc.spill_path)

    def _fail(self, batch: list[Pending], reason: str) -> None:
        with self._state_lock:
            for item in batch:
                self._ledger.forget(item.ref, reason)
        for item in batch:
            self._pending.finish(item, None)


def _entry(item: Pending) -> IndexedDoc:
    chunks = item.chunks or []
    sections, truncated = outline_sections(chunks)
    doc = StoredDoc(
        item.ref, item.source, item.kind, item.title, item.bytes, len(chunks), item.created, item.spill_path
    )
    return IndexedDoc(doc, hashlib.sha256(item.text.encode("utf-8")).hexdigest(), sections, truncated)
