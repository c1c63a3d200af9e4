"""Payloads reserved on the response path and not yet indexed, with the hand-off between threads.

A ``Pending`` item goes: reserved → claimed (one thread chunks it) → prepared (chunks ready) →
done (indexed: ``result`` set; or failed: ``result`` None). Whoever holds the store's write lock
indexes every prepared item in one commit (group commit), so a thread may find its own item
already done when it gets the lock. Everyone else waits on the item's ``done`` event.

``PendingPayloads`` is thread-safe with its own lock. It may call ``taken(ref)`` (which takes the
store's state lock) while holding it; the store never does the reverse, so there is no cycle.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from context_mode.chunking import Chunk
from context_mode.errors import RefPending, StoreError
from context_mode.store.values import StoredDoc
from context_mode.types import ContentKind

MAX_DRAWS = 16


@dataclass(slots=True, eq=False)
class Pending:
    """One reserved payload; ``text`` and ``chunks`` are released once it is done."""

    ref: str
    text: str
    source: str
    kind: ContentKind
    title: str | None
    created: float
    bytes: int
    spill_path: Path | None
    done: threading.Event = field(default_factory=threading.Event)
    claimed: bool = False
    chunks: list[Chunk] | None = None
    result: StoredDoc | None = None


class PendingPayloads:
    """The pending items by ref, plus refs issued to a reservation still writing its spill file."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, Pending] = {}
        self._issued: set[str] = set()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def issue(self, draw: Callable[[], str], taken: Callable[[str], bool]) -> str:
        """A ref from ``draw()`` that is neither pending, issued, nor ``taken``; held until add/withdraw."""
        with self._lock:
            for _ in range(MAX_DRAWS):
                ref = draw()
                if ref not in self._items and ref not in self._issued and not taken(ref):
                    self._issued.add(ref)
                    return ref
        raise StoreError(
            f"could not draw an unused ref in {MAX_DRAWS} tries; check the store's new_id function"
        )

    def withdraw(self, ref: str) -> None:
        with self._lock:
            self._issued.discard(ref)

    def add(self, item: Pending) -> None:
        with self._lock:
            self._issued.discard(item.ref)
            self._items[item.ref] = item

    def get(self, ref: str) -> Pending | None:
        with self._lock:
            return self._items.get(ref)

    def refs(self) -> list[str]:
        with self._lock:
            return list(self._items)

    def claim(self, ref: str) -> tuple[Pending | None, bool]:
        """The item (None if not pending) and whether this caller is the first to claim it."""
        with self._lock:
            item = self._items.get(ref)
            if item is None or item.claimed:
                return item, False
            item.claimed = True
            return item, True

    def prepare(self, item: Pending, chunks: list[Chunk]) -> None:
        with self._lock:
            item.chunks = chunks

    def prepared(self) -> list[Pending]:
        """Items chunked and not yet done: the next commit's batch."""
        with self._lock:
            return [
                item for item in self._items.values() if item.chunks is not None and not item.done.is_set()
            ]

    def finish(self, item: Pending, result: StoredDoc | None) -> None:
        """Mark ``item`` done (``result`` None: failed), drop it and wake its waiters."""
        with self._lock:
            self._items.pop(item.ref, None)
            item.result, item.text, item.chunks = result, "", None
            item.done.set()


def wait(item: Pending, timeout: float) -> StoredDoc | None:
    """The item's document once done (None if it failed); RefPending after ``timeout`` seconds."""
    if not item.done.wait(timeout):
        raise RefPending(f"{item.ref} is still being indexed after {timeout:g} s; try again shortly")
    return item.result
