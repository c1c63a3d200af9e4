"""The tantivy side of the spill store: schema, writing chunks, reading them back, BM25 search, snippets.

``ChunkIndex`` owns one tantivy ``Index`` and its single ``IndexWriter``. It takes no lock: the
Store calls the writer methods (``add``, ``delete``, ``commit``, ``rollback``, ``close``) under
its write lock; the read methods take a fresh ``Searcher`` each call, which tantivy allows
concurrently with the writer. Every commit is followed by a reload (read-your-writes).

One tantivy document per chunk:

    ref         raw text, stored        the payload's ref: delete and filter by term
    n           u64, stored, fast       the chunk's index in its payload
    created     u64, stored, fast       the payload's creation time in ms: the recency tie-breaker
    body        en_stem, stored         the chunk text, read back verbatim
    body_split  en_stem                 the words of its compound identifiers (getUserById -> get User By Id)
                                        and those glued to a string's escape (\\nhook -> hook)
    heading     en_stem                 the heading path, as is and split
    path        bytes, stored           the heading path as JSON
    meta        bytes, stored           chunk 0 only: the payload's metadata as JSON (``IndexedDoc``)

Queries from agents never raise: words and quoted phrases are kept, everything else is dropped,
and words are lower-cased so AND/OR/NOT are not operators. A word with inner punctuation
(``4.18.2``, ``web.xml``) is a phrase of its parts, and each pair of neighbouring words also
counts as a phrase (one word may sit between), so chunks holding the query's words together
rank first. A version, code or address in the query (``13.7.1``) is a boosted phrase; a word no
chunk in the search's scope holds (``Bolivian``, ``Sicily``; the scope is the ref when one is
named) also matches words one edit away (``Bolivia``, ``Sicilia``), in the ranking and in the
lines shown, and a term's short forms (``arg`` for "argument") count at half a word's boost. A
hit in a later chunk of a JSON record also shows the fields the query names from the record's
first chunk (``store_query.record_card``).
Each hit carries, besides a snippet, the chunk's lines that best match the query
(``store_query.best_lines``), which is what ``doc_search`` shows. A search in one ref whose query
names an end of the payload by position ("the final request", "the version at startup") also
gets that end's first or last lines as a passage (``store.edges.edges_asked``), as a hit of its
own when no query word is in that chunk; one asking for an extreme ("the process with the
highest cpu") gets the line holding it (``store.extremes``), worth all the query's terms, as do
a diff's lines assigning a version and the totals line (``store.answers``).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from pathlib import Path
from typing import Any

import tantivy

from context_mode.ansi import strip_ansi
from context_mode.chunking import Chunk
from context_mode.errors import StoreCorrupt, StoreLocked
from context_mode.identifiers import escaped_words, identifier_words, split_identifiers
from context_mode.store.answers import answer_passages, answers_asked
from context_mode.store.edges import EDGE_CHUNKS, add_edge, edge_from, edges_asked
from context_mode.store.json_fields import CARD_LOOKBACK, first_of_record, in_cut_record
from context_mode.store.keyed_rows import KEYED_KINDS, key_words, keyed_rows
from context_mode.store.query import best_lines, record_card
from context_mode.store.terms import (
    Term,
    alternative_words,
    exact_query,
    index_queries,
    query_terms,
    with_numeric_dates,
)
from context_mode.store.values import IndexHit, LineMatch, Section, StoredChunk, StoredDoc
from context_mode.types import ContentKind

SNIPPET_CHARS = 200
KEY_CHUNKS = 24  # chunks holding a query's words read for the rows it names by their key
MAX_OUTLINE_SECTIONS = 200
HEADING_BOOST = 1.5
PAIR_BOOST = 1.0
EXACT_BOOST = 3.0  # a version, code or address named in the query (``terms.exact_query``)
NEAR_BOOST = 2.0  # a fuzzy match scores 1 per chunk in tantivy: about one rare word's worth
SHORT_FORM_BOOST = 0.5  # a term's short form (``words.ABBREVIATIONS``) matched in a chunk
NEAR_MIN_CHARS = 5  # shorter words one edit away are mostly other words
_RECORD_START = re.compile(r"^\s*[\[{]")

_WORD = re.compile(r"\w+")
_TERM = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,39}")
_STOPWORDS = frozenset(
    "the and for with this that from are was were not but you your have has had all any can will "
    "into out its our they them then than there their what when where which who why how true false "
    "none null self def return import class var let const function".split()
)
_ANALYZER = (  # the same chain as tantivy's built-in en_stem tokenizer, to look up document frequencies
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.remove_long(40))
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)


@dataclass(frozen=True, slots=True)
class IndexedDoc:
    """What chunk 0 carries about its payload: the document, a digest of its text and its outline."""

    doc: StoredDoc
    sha256: str
    sections: tuple[Section, ...]
    sections_truncated: bool


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("ref", stored=True, tokenizer_name="raw")
    builder.add_unsigned_field("n", stored=True, indexed=True, fast=True)
    builder.add_unsigned_field("created", stored=True, indexed=True, fast=True)
    builder.add_text_field("body", stored=True, tokenizer_name="en_stem")
    builder.add_text_field("body_split", stored=False, tokenizer_name="en_stem")
    builder.add_text_field("heading", stored=False, tokenizer_name="en_stem")
    builder.add_bytes_field("path", stored=True)
    builder.add_bytes_field("meta", stored=True)
    return builder.build()


class ChunkIndex:
    """One tantivy index (on disk, or in RAM when ``directory`` is None) and its only writer."""

    def __init__(self, directory: Path | None, *, heap_bytes: int, writable: bool = True) -> None:
        self._schema = _schema()
        self._writer: tantivy.IndexWriter | None = None
        try:
            if directory is None:
                self._index = tantivy.Index(self._schema)
            else:
                directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                self._index = tantivy.Index(self._schema, path=str(directory))
            self._index.config_reader(reload_policy="manual")
            if writable:
                self._writer = self._index.writer(heap_size=heap_bytes, num_threads=1)
        except ValueError as exc:
            if "LockBusy" in str(exc):
                raise StoreLocked(
                    f"the index in {directory} is in use by another store; give each hub its own store path"
                ) from exc
            if "schema does not match" in str(exc):
                raise StoreCorrupt(
                    f"the index in {directory} was written by an incompatible ctxhub; "
                    "delete that directory or set another store path"
                ) from exc
            raise StoreCorrupt(
                f"the index in {directory} cannot be opened ({exc}); delete that directory"
            ) from exc
        self._index.reload()

    # --- writing (under the Store's write lock) -----------------------------------------------------

    def add(self, entry: IndexedDoc, chunks: Sequence[Chunk]) -> None:
        writer = self._live_writer()
        doc = entry.doc
        created_ms = int(doc.created * 1000)
        for piece in chunks:
            record = tantivy.Document()
            record.add_text("ref", doc.ref)
            record.add_unsigned("n", piece.index)
            record.add_unsigned("created", max(created_ms, 0))
            record.add_text("body", piece.text)
            plain = strip_ansi(piece.text)
            if plain is not piece.text:  # coloured: its words are indexed as read (stored as sent)
                record.add_text("body", plain)
            record.add_text("body_split", f"{identifier_words(plain)} {escaped_words(plain)}")
            # Files read together name each chunk by its file's path, for the reply: not indexed
            # as a heading, whose words would rank every chunk of ``_hooks.py`` for "hook".
            heading = "" if doc.kind is ContentKind.SOURCE else " ".join(piece.heading_path)
            record.add_text("heading", f"{heading} {split_identifiers(heading)}" if heading else "")
            record.add_bytes("path", json.dumps(piece.heading_path, ensure_ascii=False).encode())
            if piece.index == 0:
                record.add_bytes("meta", _encode_meta(entry))
            writer.add_document(record)

    def delete(self, ref: str) -> None:
        self._live_writer().delete_documents_by_term("ref", ref)

    def commit(self) -> None:
        self._live_writer().commit()
        self._index.reload()

    def rollback(self) -> None:
        self._live_writer().rollback()

    def collect_garbage(self) -> None:
        """Delete the files of segments no longer in use (merged away or wholly deleted)."""
        self._live_writer().garbage_collect_files()

    def close(self) -> None:
        """Commit, wait for merges and release the writer (and its directory lock)."""
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.commit()
            writer.wait_merging_threads()  # consumes the writer: the directory lock is released

    def _live_writer(self) -> tantivy.IndexWriter:
        if self._writer is None:
            raise RuntimeError("the index writer was released by close()")
        return self._writer

    # --- reading ------------------------------------------------------------------------------------

    def documents(self) -> tuple[list[IndexedDoc], list[str]]:
        """Every payload's metadata (from its chunk 0), and the refs whose metadata is unreadable."""
        searcher = self._index.searcher()
        found = searcher.search(
            tantivy.Query.term_query(self._schema, "n", 0), limit=max(searcher.num_docs, 1)
        )
        entries: list[IndexedDoc] = []
        damaged: list[str] = []
        for _, address in found.hits:
            record = searcher.doc(address)
            try:
                entries.append(_decode_meta(record["meta"][0]))
            except (KeyError, IndexError, ValueError, TypeError):
                damaged.append(str(record["ref"][0]))
        return entries, damaged

    def meta(self, ref: str) -> IndexedDoc | None:
        searcher = self._index.searcher()
        query = self._chunks_query(ref, 0, 1)
        for _, address in searcher.search(query, limit=1).hits:
            return _decode_meta(searcher.doc(address)["meta"][0])
        return None

    def fetch(self, ref: str, start: int, stop: int) -> list[StoredChunk]:
        """Chunks ``start .. stop - 1`` of ``ref`` that exist, in order."""
        if stop <= start:
            return []
        searcher = self._index.searcher()
        found = searcher.search(
            self._chunks_query(ref, start, stop),
            limit=stop - start,
            order_by_field="n",
            order=tantivy.Order.Asc,
        )
        return [_chunk(searcher.doc(address)) for _, address in found.hits]

    def search(
        self, text: str, *, ref: str | None, limit: int, is_live: Callable[[str], bool]
    ) -> list[IndexHit]:
        """BM25 hits for ``text`` over live refs, best first, ties broken by the newest payload."""
        text = with_numeric_dates(text)
        plain, split, pairs = index_queries(text)
        if not plain:
            return []
        query_plain, _ = self._index.parse_query_lenient(
            plain, ["body", "heading"], field_boosts={"heading": HEADING_BOOST}
        )
        query_split, _ = self._index.parse_query_lenient(split, ["body_split"])
        clauses = [(tantivy.Occur.Should, query_plain), (tantivy.Occur.Should, query_split)]
        if pairs:
            query_pairs, _ = self._index.parse_query_lenient(pairs, ["body"])
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(query_pairs, PAIR_BOOST)))
        exact = exact_query(text)
        if exact:
            query_exact, _ = self._index.parse_query_lenient(exact, ["body", "heading"])
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(query_exact, EXACT_BOOST)))
        searcher = self._index.searcher()
        terms = self._near_terms(searcher, query_terms(text), ref)
        others = alternative_words(terms)
        if others:  # short forms (arg, cfg) and words run together count, less than the words as asked
            query_others, _ = self._index.parse_query_lenient(others, ["body", "body_split"])
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(query_others, SHORT_FORM_BOOST)))
        for term in terms:
            if term.near:
                near = tantivy.Query.fuzzy_term_query(self._schema, "body", term.stems[0], distance=1)
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(near, NEAR_BOOST)))
        query = tantivy.Query.boolean_query(clauses)
        if ref is not None:
            query = self._in_ref(query, ref)
        candidates: list[tuple[float, int, Any]] = []
        for score, address in searcher.search(query, limit=limit * 3 + 10).hits:
            if len(candidates) >= limit and round(score, 4) < round(candidates[limit - 1][0], 4):
                break  # hits come best first: the rest cannot tie with the last one kept
            record = searcher.doc(address)
            if is_live(str(record["ref"][0])):
                candidates.append((float(score), int(record["created"][0]), record))
        candidates.sort(key=lambda item: (-round(item[0], 4), -item[1]))
        snippets: Any = None
        words = [word.lower() for word in _WORD.findall(split)]
        weights = self._term_weights(searcher, terms, ref)
        hits: list[IndexHit] = []
        for score, _, record in candidates[:limit]:
            chunk = _chunk(record)
            lines = best_lines(chunk.text, terms, weights, heading=" ".join(chunk.heading_path))
            fragment = None
            if not lines:  # the snippet stands in for lines: tantivy's fragment, the best it has
                if snippets is None:
                    snippets = tantivy.SnippetGenerator.create(searcher, query_plain, self._schema, "body")
                    snippets.set_max_num_chars(SNIPPET_CHARS)
                fragment = snippets.snippet_from_doc(record)
            snippet = _snippet(fragment, chunk.text, words)
            card = self._record_card(chunk, terms, weights)
            hits.append(IndexHit(chunk, score, snippet, (card, *lines) if card else lines))
        if ref is not None:
            weight = max(weights.values(), default=1.0)
            hits = self._with_edges(searcher, ref, text, hits, weight)
            meta = self.meta(ref)
            if meta is not None:
                # A line that answers the whole query is worth all its terms, so it is chosen first.
                whole = sum(weights.values()) or 1.0
                hits = self._with_answer_lines(meta, text, hits, whole)
                hits = self._with_keyed_rows(searcher, meta, text, hits, whole)
        return hits

    def _with_keyed_rows(
        self, searcher: Any, meta: IndexedDoc, text: str, hits: list[IndexHit], weight: float
    ) -> list[IndexHit]:
        """A table's rows whose first cell the query names (``store.keyed_rows``), read from its
        first chunk and the ``KEY_CHUNKS`` chunks that hold the query's words."""
        words = key_words(text)
        if not words or meta.doc.kind not in KEYED_KINDS:
            return hits
        ref = meta.doc.ref
        holding, _ = self._index.parse_query_lenient(" ".join(words), ["body"])
        query = self._in_ref(holding, ref)
        found = {
            chunk.index: chunk
            for chunk in (
                _chunk(searcher.doc(address)) for _, address in searcher.search(query, KEY_CHUNKS).hits
            )
        }
        chunks = [*([] if 0 in found else self.fetch(ref, 0, 1)), *(found[index] for index in sorted(found))]
        _add_passages(hits, chunks, keyed_rows([chunk.text for chunk in chunks], text, weight, meta.doc.kind))
        return hits

    def _with_answer_lines(
        self, meta: IndexedDoc, text: str, hits: list[IndexHit], weight: float
    ) -> list[IndexHit]:
        """The lines of the whole payload that answer the query whatever its words
        (``store.answers``: an extreme, a diff's version lines, the totals), each as a hit's
        passage; the payload is read only for such a query."""
        if not answers_asked(text):
            return hits
        chunks = self.fetch(meta.doc.ref, 0, meta.doc.chunk_count)
        _add_passages(
            hits, chunks, answer_passages([chunk.text for chunk in chunks], text, meta.doc.kind, weight)
        )
        return hits

    def _with_edges(
        self, searcher: Any, ref: str, text: str, hits: list[IndexHit], weight: float
    ) -> list[IndexHit]:
        """The payload's first or last lines as a passage, when the query names that end ("the
        final request", "the version at startup"): no query word need be on those lines."""
        for edge in edges_asked(text):
            order = tantivy.Order.Asc if edge == "start" else tantivy.Order.Desc
            found = searcher.search(
                self._ref_query(ref), limit=EDGE_CHUNKS, order_by_field="n", order=order
            ).hits
            chunks = [_chunk(searcher.doc(address)) for _, address in found]
            at = edge_from([chunk.text for chunk in chunks], edge, weight)
            _add_passages(hits, chunks, [at] if at is not None else [])
        return hits

    def _record_card(
        self, chunk: StoredChunk, terms: Sequence[Term], weights: Mapping[tuple[str, ...], float]
    ) -> LineMatch | None:
        """For a later chunk of a record cut open: the fields the query names in the record's first chunk."""
        if not in_cut_record(chunk.heading_path, chunk.index):
            return None
        if _RECORD_START.match(chunk.text):
            return None  # the hit is the record's first chunk: best_lines has its fields
        before = self.fetch(chunk.ref, max(0, chunk.index - CARD_LOOKBACK), chunk.index)
        first = first_of_record([earlier.heading_path for earlier in before], chunk.heading_path)
        return record_card(before[first].text, terms, weights) if first is not None else None

    def _near_terms(self, searcher: Any, terms: Sequence[Term], ref: str | None) -> list[Term]:
        """``terms``, those one word long that no chunk in scope holds marked to match one edit away.

        The scope is ``ref`` when the search names one: a word other payloads hold (``Slovenian``
        in a list of languages) is still missing from this one (``Slovenia``), and must match near.
        """
        return [
            replace(term, near=True)
            if len(term.stems) == 1
            and len(term.stems[0]) >= NEAR_MIN_CHARS
            and not term.stems[0].isdigit()
            and not self._holds(searcher, term.stems[0], ref)
            else term
            for term in terms
        ]

    def _holds(self, searcher: Any, stem: str, ref: str | None) -> bool:
        """Whether a chunk (of ``ref``, when given) holds ``stem`` in its body."""
        if int(searcher.doc_freq("body", stem)) == 0:
            return False
        if ref is None:
            return True
        word = tantivy.Query.term_query(self._schema, "body", stem)
        return bool(searcher.search(self._in_ref(word, ref), limit=1, count=False).hits)

    def _term_weights(
        self, searcher: Any, terms: Sequence[Term], ref: str | None = None
    ) -> dict[tuple[str, ...], float]:
        """Each term's inverse document frequency among the chunks searched (those of ``ref``, when
        given: what is rare in the payload tells its lines apart, whatever the other payloads
        hold); a phrase (``9.0.0``) counts as the phrase itself (its words are often common), plus
        a little."""
        total = max(int(searcher.num_docs) if ref is None else self._count(searcher, self._ref_query(ref)), 1)
        weights: dict[tuple[str, ...], float] = {}
        for term in terms:
            rarest = min(self._doc_freq(searcher, word, ref) for word in term.stems)
            if len(term.stems) > 1 and rarest:  # a phrase (``9.0.0``) is as rare as the phrase itself
                phrase = tantivy.Query.phrase_query(self._schema, "body", list(term.stems))
                rarest = min(
                    rarest, self._count(searcher, phrase if ref is None else self._in_ref(phrase, ref))
                )
            weights[term.stems] = math.log(1 + total / (1 + rarest)) + 0.5 * (len(term.stems) - 1)
        return weights

    def _doc_freq(self, searcher: Any, word: str, ref: str | None = None) -> int:
        """In how many chunks (of ``ref``, when given) ``word`` is, as a word or as a part of an
        identifier (``1964`` of ``y1964``, in every record of a table with a column per year): a
        word the chunks hold only inside identifiers is not therefore rare."""
        if ref is None:
            return max(int(searcher.doc_freq("body", word)), int(searcher.doc_freq("body_split", word)))
        return max(
            self._count(searcher, self._in_ref(tantivy.Query.term_query(self._schema, field, word), ref))
            for field in ("body", "body_split")
        )

    @staticmethod
    def _count(searcher: Any, query: tantivy.Query) -> int:
        """How many chunks match ``query``."""
        return int(searcher.search(query, limit=1, count=True).count or 0)

    def distinctive_terms(self, texts: Sequence[str], limit: int) -> tuple[str, ...]:
        """Words frequent in ``texts`` but rare in the index (tf × idf), for "no hit, try these"."""
        counts = Counter(match.group() for text in texts for match in _TERM.finditer(strip_ansi(text)))
        searcher = self._index.searcher()
        total = max(searcher.num_docs, 1)
        scored: dict[str, tuple[float, str]] = {}
        for word, frequency in counts.most_common(200):
            folded = word.lower()
            terms = _ANALYZER.analyze(word)
            if folded in _STOPWORDS or not terms or folded.isdigit():
                continue
            weight = frequency * math.log(1 + total / (1 + searcher.doc_freq("body", terms[0])))
            if weight > scored.get(folded, (0.0, ""))[0]:
                scored[folded] = (weight, word)
        best = sorted(scored.values(), key=lambda item: (-item[0], item[1]))
        return tuple(word for _, word in best[:limit])

    def chunk_count(self) -> int:
        return int(self._index.searcher().num_docs)

    def _ref_query(self, ref: str) -> tantivy.Query:
        return tantivy.Query.term_query(self._schema, "ref", ref)

    def _in_ref(self, query: tantivy.Query, ref: str) -> tantivy.Query:
        """``query``'s matches among the chunks of ``ref``."""
        return tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, query), (tantivy.Occur.Must, self._ref_query(ref))]
        )

    def _chunks_query(self, ref: str, start: int, stop: int) -> tantivy.Query:
        span = tantivy.Query.range_query(
            self._schema, "n", tantivy.FieldType.Unsigned, lower_bound=start, upper_bound=stop - 1
        )
        return self._in_ref(span, ref)


def _add_passages(
    hits: list[IndexHit], chunks: Sequence[StoredChunk], found: Sequence[tuple[int, LineMatch]]
) -> None:
    """Each passage found in ``chunks`` (its chunk's place, the passage) as a hit of its chunk
    (``store.edges.add_edge``: a hit already there gets the passage first)."""
    for place, passage in found:
        chunk = chunks[place]
        add_edge(
            hits, IndexHit(chunk, 0.0, chunk.text[:SNIPPET_CHARS], (passage,)), attrgetter("chunk.chunk_id")
        )


def _snippet(snippet: tantivy.Snippet | None, body: str, words: Sequence[str]) -> str:
    """Plain text around the match: tantivy's fragment (when given and not empty), else around
    the first query word found in the body."""
    fragment = snippet.fragment() if snippet is not None else ""
    prefix = suffix = ""
    if snippet is not None and fragment.strip():
        span = snippet.fragment_range()
        encoded = body.encode("utf-8", "surrogatepass")
        prefix = "…" if _has_words(encoded[: span.start]) else ""
        suffix = "…" if _has_words(encoded[span.end :]) else ""
    else:
        folded = body.lower()
        found = [at for word in words if (at := folded.find(word)) >= 0]
        at = min(found) if found else 0
        start = max(0, at - SNIPPET_CHARS // 3)
        fragment = body[start : start + SNIPPET_CHARS]
        prefix = "…" if _WORD.search(body, 0, start) else ""
        suffix = "…" if _WORD.search(body, start + SNIPPET_CHARS) else ""
    return prefix + " ".join(fragment.split()) + suffix


def _has_words(cut: bytes) -> bool:
    """Whether a cut-off part of the body holds more than spaces and punctuation."""
    return _WORD.search(cut.decode("utf-8", "ignore")) is not None


def _chunk(record: Any) -> StoredChunk:
    ref = str(record["ref"][0])
    index = int(record["n"][0])
    path = tuple(str(part) for part in json.loads(bytes(record["path"][0])))
    return StoredChunk(f"{ref}#{index}", ref, index, path, str(record["body"][0]))


def _encode_meta(entry: IndexedDoc) -> bytes:
    doc = entry.doc
    return json.dumps(
        {
            "ref": doc.ref,
            "source": doc.source,
            "kind": doc.kind.value,
            "title": doc.title,
            "bytes": doc.bytes,
            "chunks": doc.chunk_count,
            "created": doc.created,
            "spill": str(doc.spill_path) if doc.spill_path else None,
            "sha256": entry.sha256,
            "sections": [[list(s.heading_path), s.first_chunk, s.chunk_count] for s in entry.sections],
            "sections_truncated": entry.sections_truncated,
        },
        ensure_ascii=False,
    ).encode()


def _decode_meta(raw: Any) -> IndexedDoc:
    meta = json.loads(bytes(raw))
    spill = meta["spill"]
    doc = StoredDoc(
        ref=str(meta["ref"]),
        source=str(meta["source"]),
        kind=ContentKind(meta["kind"]),
        title=None if meta["title"] is None else str(meta["title"]),
        bytes=int(meta["bytes"]),
        chunk_count=int(meta["chunks"]),
        created=float(meta["created"]),
        spill_path=Path(spill) if spill else None,
    )
    sections = tuple(
        Section(tuple(map(str, path)), int(first), int(count)) for path, first, count in meta["sections"]
    )
    return IndexedDoc(doc, str(meta["sha256"]), sections, bool(meta["sections_truncated"]))


def outline_sections(chunks: Sequence[Chunk]) -> tuple[tuple[Section, ...], bool]:
    """Runs of consecutive chunks with the same heading path (at most ``MAX_OUTLINE_SECTIONS``)."""
    sections: list[Section] = []
    for piece in chunks:
        if sections and sections[-1].heading_path == piece.heading_path:
            last = sections[-1]
            sections[-1] = Section(last.heading_path, last.first_chunk, last.chunk_count + 1)
        elif len(sections) == MAX_OUTLINE_SECTIONS:
            return tuple(sections), True
        else:
            sections.append(Section(piece.heading_path, piece.index, 1))
    return tuple(sections), False
