"""The entries of one session with the views an append needs, kept up to date as entries change.

``EntryTable`` holds every entry by id (``entries``, ascending ids) and, updated on each ``put``
in O(1) amortised, what ``append``, ``status`` and ``get`` used to recompute by scanning every
entry (1.9 ms per append at 10,000 entries, 29 ms at 60,000):

- ``next_id``: one more than the largest id;
- the live entries (not superseded) in id order, so the ``n`` most recent are read from the end;
- the protected live entries in id order (at most ``max_protected`` once the cap is applied);
- the counts of live entries, live summaries and live unprotected entries.

Entries change in three ways only, each handled in place: a new entry (the next id), a demotion
(stays live, loses its protection) and a supersession (leaves the live entries). Any other change
(an entry regaining protection or liveness, an id below the largest) rebuilds the views, O(n).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from context_mode.memory.store import Entry


class EntryTable:
    """Entries by id plus incrementally kept live / protected views (see the module doc)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.entries: dict[int, Entry] = {}
        self._live: dict[int, Entry] = {}
        self._protected: dict[int, Entry] = {}
        self._promoted: set[int] = set()  # live entries promoted to project memory
        self.next_id = 1
        self.live_summaries = 0
        self.rebuilds = 0
        self._load(sorted(entries, key=lambda entry: entry.id))

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def live_count(self) -> int:
        return len(self._live)

    @property
    def protected_count(self) -> int:
        return len(self._protected)

    @property
    def promoted_count(self) -> int:
        return len(self._promoted)

    def protected(self) -> list[Entry]:
        """The protected live entries, oldest first."""
        return list(self._protected.values())

    def recent_live(self, count: int) -> list[Entry]:
        """The ``count`` most recent live entries, oldest first."""
        newest = list(islice(reversed(self._live.values()), max(count, 0)))
        newest.reverse()
        return newest

    def live(self) -> list[Entry]:
        """Every live entry in id order (O(n): for compaction, not for the append path)."""
        return list(self._live.values())

    def compactable_count(self, keep: int) -> int:
        """Live unprotected entries older than the ``keep`` most recent live ones."""
        unprotected = len(self._live) - len(self._protected)
        recent = sum(1 for entry in self.recent_live(keep) if not entry.protected)
        return max(0, unprotected - recent)

    def put(self, entry: Entry) -> None:
        """Add a new entry or replace one; the views follow."""
        old = self.entries.get(entry.id)
        if old is None and entry.id < self.next_id:
            self._load([*self.entries.values(), entry])  # an id out of order: keep ids ascending
            return
        if old is not None and ((entry.live and not old.live) or (entry.protected and not old.protected)):
            self.entries[entry.id] = entry
            self._load(list(self.entries.values()))
            return
        self.entries[entry.id] = entry
        self.next_id = max(self.next_id, entry.id + 1)
        if old is not None and old.live:
            self.live_summaries -= old.kind == "summary"
        if entry.live:
            self._live[entry.id] = entry  # a replaced entry keeps its place
            self.live_summaries += entry.kind == "summary"
        else:
            self._live.pop(entry.id, None)
        if entry.protected:
            self._protected[entry.id] = entry
        else:
            self._protected.pop(entry.id, None)
        if entry.live and entry.promoted:
            self._promoted.add(entry.id)
        else:
            self._promoted.discard(entry.id)

    def _load(self, entries: list[Entry]) -> None:
        self.rebuilds += 1
        ordered = sorted(entries, key=lambda entry: entry.id)
        self.entries = {entry.id: entry for entry in ordered}
        self._live = {entry.id: entry for entry in ordered if entry.live}
        self._protected = {entry.id: entry for entry in ordered if entry.protected}
        self._promoted = {entry.id for entry in ordered if entry.live and entry.promoted}
        self.next_id = (ordered[-1].id + 1) if ordered else 1
        self.live_summaries = sum(1 for entry in self._live.values() if entry.kind == "summary")
