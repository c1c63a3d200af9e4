"""The spill store: full payloads kept out of the agent's context, on disk and searchable (BM25).

A payload is reserved on the response path (``Store.reserve``: a fresh ``r_…`` ref, the spill
file), indexed by a worker thread (chunks in Tantivy, group commit, LRU eviction by bytes), and
read back by ref, chunk id or search (``search``, ``window``, ``read_chunk``, ``text``). The
ledger of refs survives restarts; one writer per directory. Details in ``store.store``.

Exports: ``Store`` and its values (``StoredDoc``, ``SearchHit``), ``choose_lines`` (the best
lines of a text for a query, shared with the native doc tools, and ``number_asked``, whether a
query names a quantity, for its ``numeric``) and ``payload_passages`` (the
lines a search would show, over a payload not yet indexed: for summaries aimed by an intent).
Everything else is private.
"""

from __future__ import annotations

from context_mode.store.answers import number_asked
from context_mode.store.choosing import choose_lines
from context_mode.store.passages import payload_passages
from context_mode.store.store import Store
from context_mode.store.values import SearchHit, StoredDoc

__all__ = ["SearchHit", "Store", "StoredDoc", "choose_lines", "number_asked", "payload_passages"]
