"""The store's bookkeeping: live documents in least-recently-used order, and a memory of evicted refs.

``Ledger`` is plain data guarded by the Store's state lock (it takes no lock itself). It holds:

- the live documents in LRU order (first = least recently used) with their total bytes;
- their creation order (a heap), for ``max_age`` sweeps;
- a bounded memory of evicted refs with the reason, so a read can say "evicted" rather than
  "unknown", and so a ref is never handed out twice while remembered.

An ``OrderedDict`` holds the LRU order rather than ``cachetools.LRUCache``: the order must be
persisted and restored, and LRUCache keeps it private; evictions here also carry a reason.

Persistence (``to_json``/``load_order``) keeps only refs: the order, the evicted memory and the
eviction counter. Document metadata lives in the index; on open the Store rebuilds the ledger
from the index and uses the saved order where it still applies (see ``Store`` for reconcile).
"""

from __future__ import annotations

import heapq
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from context_mode.store.values import StoredDoc

LEDGER_VERSION = 1
LEAST_RECENTLY_USED = "least recently used"


class Ledger:
    """Live documents in LRU order, their creation order, and the evicted refs remembered."""

    def __init__(self, *, max_evicted: int, age_reason: str = "too old") -> None:
        self.age_reason = age_reason
        self._docs: OrderedDict[str, StoredDoc] = OrderedDict()
        self._by_creation: list[tuple[float, str]] = []
        self._evicted: OrderedDict[str, str] = OrderedDict()
        self._max_evicted = max_evicted
        self.total_bytes = 0
        self.total_chunks = 0
        self.spill_bytes = 0  # the live documents' spill files
        self.evictions = 0
        self.undeleted: set[str] = set()  # evicted here, docs still in the index until the next commit

    def __len__(self) -> int:
        return len(self._docs)

    def __contains__(self, ref: object) -> bool:
        return ref in self._docs

    def add(self, doc: StoredDoc) -> None:
        """Add ``doc`` as the most recently used."""
        self._docs[doc.ref] = doc
        heapq.heappush(self._by_creation, (doc.created, doc.ref))
        if len(self._by_creation) > 2 * len(self._docs) + 64:  # drop entries of refs evicted by LRU
            self._by_creation = [(live.created, ref) for ref, live in self._docs.items()]
            heapq.heapify(self._by_creation)
        self.total_bytes += doc.bytes
        self.total_chunks += doc.chunk_count
        self.spill_bytes += doc.bytes if doc.spill_path is not None else 0
        self._evicted.pop(doc.ref, None)

    def get(self, ref: str) -> StoredDoc | None:
        """The live document, without refreshing it."""
        return self._docs.get(ref)

    def touch(self, ref: str) -> StoredDoc | None:
        """The live document, made the most recently used; None if it is not live."""
        doc = self._docs.get(ref)
        if doc is not None:
            self._docs.move_to_end(ref)
        return doc

    def evict(self, ref: str, reason: str) -> StoredDoc | None:
        """Drop a live document and remember why; returns it (None if it was not live)."""
        doc = self._docs.pop(ref, None)
        if doc is not None:
            self.total_bytes -= doc.bytes
            self.total_chunks -= doc.chunk_count
            self.spill_bytes -= doc.bytes if doc.spill_path is not None else 0
            self.evictions += 1
            self.undeleted.add(ref)
        self.forget(ref, reason)
        return doc

    def forget(self, ref: str, reason: str) -> None:
        """Remember ``ref`` as gone for ``reason`` (bounded: the oldest memories go first)."""
        self._evicted[ref] = reason
        self._evicted.move_to_end(ref)
        while len(self._evicted) > self._max_evicted:
            self._evicted.popitem(last=False)

    def evicted_refs(self) -> list[str]:
        """The refs remembered as evicted, oldest first."""
        return list(self._evicted)

    def eviction_reason(self, ref: str) -> str | None:
        return self._evicted.get(ref)

    def knows(self, ref: str) -> bool:
        return ref in self._docs or ref in self._evicted or ref in self.undeleted

    def take_undeleted(self) -> set[str]:
        """The refs whose index docs the next commit must delete (the set is emptied)."""
        refs, self.undeleted = self.undeleted, set()
        return refs

    def plan_evictions(
        self, incoming: Sequence[StoredDoc], *, budget: int, cutoff: float | None
    ) -> list[StoredDoc]:
        """Evict what was created before ``cutoff``, then the least recently used, so ``incoming`` fits.

        ``incoming`` docs are not in the ledger yet; when they alone exceed the budget the first
        of them are evicted too (remembered, not added). Returns every evicted doc.
        """
        victims = self.expire(cutoff) if cutoff is not None else []
        excess = self.total_bytes + sum(doc.bytes for doc in incoming) - budget
        for ref in list(self._docs):
            if excess <= 0:
                break
            doc = self.evict(ref, LEAST_RECENTLY_USED)
            if doc is not None:
                victims.append(doc)
                excess -= doc.bytes
        for doc in incoming:
            if excess <= 0:
                break
            self.forget(doc.ref, LEAST_RECENTLY_USED)
            self.evictions += 1
            self.undeleted.add(doc.ref)
            victims.append(doc)
            excess -= doc.bytes
        return victims

    def expire(self, cutoff: float) -> list[StoredDoc]:
        """Evict the live docs created at or before ``cutoff``."""
        victims: list[StoredDoc] = []
        while self._by_creation and self._by_creation[0][0] <= cutoff:
            created, ref = heapq.heappop(self._by_creation)
            doc = self._docs.get(ref)
            if doc is not None and doc.created == created:
                self.evict(ref, self.age_reason)
                victims.append(doc)
        return victims

    def documents(self) -> list[StoredDoc]:
        """Live documents, least recently used first."""
        return list(self._docs.values())

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": LEDGER_VERSION,
                "order": list(self._docs),
                "evicted": [[ref, reason] for ref, reason in self._evicted.items()],
                "evictions": self.evictions,
            },
            separators=(",", ":"),
        )

    def restore(self, saved: str | None, docs: Sequence[StoredDoc]) -> None:
        """Fill an empty ledger with ``docs`` (read from the index) in the saved LRU order.

        Docs the saved ledger does not list (indexed after its last save) are adopted as the
        most recent, oldest created first. Saved refs with no doc are not restored. Docs the saved
        ledger remembers as evicted are put in ``undeleted``, for the caller to delete.
        """
        state = _parse(saved)
        for ref, reason in state.get("evicted", ()):
            self.forget(str(ref), str(reason))
        order = {ref: position for position, ref in enumerate(state.get("order", ()))}
        self.undeleted.update(doc.ref for doc in docs if doc.ref in self._evicted)
        kept = [doc for doc in docs if doc.ref not in self._evicted]
        listed = sorted((doc for doc in kept if doc.ref in order), key=lambda doc: order[doc.ref])
        adopted = sorted((doc for doc in kept if doc.ref not in order), key=lambda doc: doc.created)
        for doc in (*listed, *adopted):
            self.add(doc)
        evictions = state.get("evictions", 0)
        self.evictions = evictions if isinstance(evictions, int) else 0


def _parse(saved: str | None) -> dict[str, Any]:
    """The saved ledger, or an empty one when it is missing, unreadable, of another version or shape.

    Only well-formed items are kept (refs are strings, evicted items ``[ref, reason]``): the index
    is the truth, so a ledger of the wrong shape costs the LRU order, never the store.
    """
    if not saved:
        return {}
    try:
        state = json.loads(saved)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(state, dict) or state.get("version") != LEDGER_VERSION:
        return {}
    order = state.get("order")
    evicted = state.get("evicted")
    if not isinstance(order, list) or not isinstance(evicted, list):
        return {}
    evictions = state.get("evictions")
    return {
        "order": [ref for ref in order if isinstance(ref, str)],
        "evicted": [
            item
            for item in evicted
            if isinstance(item, list) and len(item) == 2 and all(isinstance(part, str) for part in item)
        ],
        "evictions": evictions if isinstance(evictions, int) and not isinstance(evictions, bool) else 0,
    }
