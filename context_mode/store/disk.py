"""The store directory's byte bound: what it counts, and the payload budget that holds it.

``DiskBudget(limit, measure)`` turns a bound on the directory into a bound on payload bytes, the
one the ledger evicts by. ``measure()`` returns the bytes the store has on disk now, as
``(total, fixed)``: the total is every file of the tantivy index (live segments, segments a merge
left for garbage collection, deleted docs not merged away yet), the ledger, the reservation
journal, the lock and the store's own spill files (in ``spill_dir`` even when that is outside the
directory); ``fixed`` is the part that does not grow with the payloads (the ledger, journal, lock
and the index's own metadata files). After each commit the Indexer calls
``observe(payload_bytes)``: the ratio of the rest to the payload bytes (at least 1) is kept, and
``payload_budget()`` is ``(limit × HEADROOM − fixed) / ratio``, so evicting down to it before the
next commit leaves room for that commit's segment and for a merge running in the background. A
store that measures over ``limit`` after a commit evicts the least recently used payloads down to
the new budget at once.

Tantivy merges segments in background threads: a merge writes its new segment before the old
ones are collected, so between commits the directory can exceed the bound by the merge in flight;
HEADROOM leaves room for it (``bench/store_disk.py`` measures the peak after every put).

Not counted: what the hub keeps beside the store (``catalog.json``, ``stats.json``, session notes
under ``sessions/``), which the store does not own and cannot evict.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

HEADROOM = 0.7  # a commit's new segment and a background merge's output appear before old files go
INITIAL_RATIO = 2.5  # disk bytes per payload byte before anything is measured: spill + index


class DiskBudget:
    """A directory byte bound expressed as a payload byte budget (see the module doc)."""

    def __init__(self, limit: int, measure: Callable[[], tuple[int, int]]) -> None:
        self.limit = limit
        self.ratio = INITIAL_RATIO
        self.measured = 0
        self.fixed = 0
        self._measure = measure

    def payload_budget(self) -> int:
        return max(0, int((self.limit * HEADROOM - self.fixed) / self.ratio))

    def observe(self, payload_bytes: int) -> int:
        """Measure the directory, update the ratio from ``payload_bytes`` live, return the bytes used."""
        self.measured, self.fixed = self._measure()
        if payload_bytes > 0:
            self.ratio = max(1.0, (self.measured - self.fixed) / payload_bytes)
        return self.measured


def files_bytes(directory: Path) -> int:
    """The sizes of the regular files directly in ``directory`` (tantivy's index is flat)."""
    total = 0
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                try:
                    if entry.is_file(follow_symlinks=False):
                        total += entry.stat(follow_symlinks=False).st_size
                except FileNotFoundError:  # a merge removed it meanwhile
                    continue
    except FileNotFoundError:
        return 0
    return total


def file_bytes(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
