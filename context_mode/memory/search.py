"""BM25 over one session's entries with tantivy, kept in RAM and filled from the entries on demand.

Contract: ``SessionIndex.search(entries, query, limit=...)`` first indexes the entries it has not seen
(ids only grow, so "unseen" means an id above the last one indexed), then returns ``(id, score)``
pairs for entries matching at least one query word, best first. The query is reduced to words, so
no query syntax can fail. A second field splits camelCase identifiers at their humps and CJK text
into single characters, so ``getUserById``, ``user`` and ``记住`` all find their note. The writer is
dropped after each commit (a live tantivy writer holds a large heap). ``search_across`` ranks the
entries of several sessions (project recall) in one throwaway index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

import tantivy

from context_mode.memory.store import Entry

_WRITER_HEAP = 15_000_000  # tantivy's minimum per indexing thread
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_CJK_CHAR = re.compile(r"([\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff])")
_WORD = re.compile(r"\w+")


def _split_form(text: str) -> str:
    return _CJK_CHAR.sub(r" \1 ", _CAMEL.sub(" ", text))


class SessionIndex:
    """An in-RAM BM25 index over one session's entries."""

    def __init__(self) -> None:
        builder = tantivy.SchemaBuilder()
        builder.add_integer_field("id", stored=True, indexed=True, fast=True)
        builder.add_text_field("body", stored=False, tokenizer_name="en_stem")
        builder.add_text_field("split", stored=False, tokenizer_name="default")
        self._schema = builder.build()
        self._index = tantivy.Index(self._schema)
        self._last_id = 0

    def _add(self, entries: Iterable[Entry]) -> None:
        fresh = [entry for entry in entries if entry.id > self._last_id]
        if not fresh:
            return
        writer = self._index.writer(heap_size=_WRITER_HEAP, num_threads=1)
        for entry in fresh:
            writer.add_document(tantivy.Document(id=entry.id, body=entry.text, split=_split_form(entry.text)))
        writer.commit()
        writer.wait_merging_threads()
        self._index.reload()
        self._last_id = max(entry.id for entry in fresh)

    def search(self, entries: Iterable[Entry], query: str, *, limit: int) -> list[tuple[int, float]]:
        """Entry ids matching ``query`` with their BM25 scores, best first, at most ``limit``."""
        self._add(entries)
        words = " ".join(_WORD.findall(query))
        if not words:
            return []
        # Lower-cased so AND/OR/NOT stay words, not operators.
        plain, _ = self._index.parse_query_lenient(words.lower(), ["body"])
        split, _ = self._index.parse_query_lenient(_split_form(words).lower(), ["split"])
        combined = tantivy.Query.boolean_query([(tantivy.Occur.Should, plain), (tantivy.Occur.Should, split)])
        searcher = self._index.searcher()
        hits = searcher.search(combined, limit=limit).hits
        return [(int(searcher.doc(address)["id"][0]), float(score)) for score, address in hits]


def search_across(
    sources: Mapping[str, Iterable[Entry]], query: str, *, limit: int
) -> list[tuple[str, Entry, float, int]]:
    """BM25 over the entries of several sessions at once: ``(session, entry, score, age)``, best first.

    ``age`` counts the entries (of any session) noted after this one, for a recency weight.
    """
    flat = sorted(
        ((entry.ts, session, entry.id, entry) for session, entries in sources.items() for entry in entries),
        key=lambda item: item[:3],
    )
    if not flat:
        return []
    # SessionIndex keys documents by growing ids: number the merged history in time order.
    numbered = [replace(entry, id=number) for number, (_, _, _, entry) in enumerate(flat, start=1)]
    matches = SessionIndex().search(numbered, query, limit=limit)
    return [
        (flat[number - 1][1], flat[number - 1][3], score, len(flat) - number) for number, score in matches
    ]
