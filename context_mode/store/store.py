"""The spill store: full payloads kept out of the agent's context, searchable (BM25) and readable by ref.

Lifecycle of a payload:

    reserve(text, ...) -> Reservation   response path, fast: a fresh ref, the spill file written if
                                        asked, the text kept pending. No chunking, no index work.
    index(ref) -> StoredDoc             a worker thread: chunk, add to tantivy, commit, reload, evict.
                                        Concurrent calls share one commit (group commit).
    holds(ref) -> bool                  whether a ref is still readable (no indexing; refreshes it).
    search / window / read_chunk / text / outline / document / documents
                                        reads; a pending ref is indexed first (by the reader when no
                                        one claimed it, else awaited up to ``read_timeout``: RefPending).

Refs are ``"r_" + new_id()`` (default: 8 random hex digits), drawn again while they collide with any
ref the store knows (live, pending, or remembered as evicted), so a ref never names two payloads.
With ``dedupe`` (the default) a payload whose text (after masking) is byte for byte one the store
holds live or pending gets that ref back, refreshed in the LRU, instead of a second copy.

Budget: ``max_bytes`` bounds the payloads' UTF-8 bytes; ``disk_max_bytes`` (optional) bounds what
the store has on disk, index, ledger, journal and its spill files, by evicting more (``store.disk``).
Over budget the least recently used payload goes first (reading or finding one refreshes
it); with ``max_age``, payloads older than that many seconds since creation go at the next read
or index. An evicted payload loses its tantivy docs and its spill file, and its ref is remembered
(boundedly, and across restarts) so reads say "r_… was evicted (least recently used); call the
tool again" rather than "unknown". A single payload bigger than ``max_bytes`` is refused by
``reserve`` with DocumentTooLarge. Lone surrogates (not UTF-8) are stored as U+FFFD.

``read_only=True`` opens an on-disk store that a running hub owns, for the CLI's search/show/stats:
no lock, no writer, nothing written (LRU refreshes stay in memory).

On disk (``path`` given): ``store.lock`` (a second Store raises StoreLocked), ``index/`` (tantivy),
``ledger.json`` (LRU order and evicted refs, replaced atomically), ``spill/`` (or ``spill_dir``;
mode 0700 when the store creates it, files 0600). ``path=None``: the index is in RAM, nothing is
persisted, and spill files go to ``spill_dir`` or to a temporary directory that ``close()`` removes.

Crash safety: a tantivy commit is atomic and holds whole payloads, with the metadata on chunk 0.
On open, the index is the truth: ledger entries without docs are dropped, docs the ledger does not
list are adopted (or deleted when the ledger remembers them as evicted), and spill files this
store wrote that no live document keeps are removed: a file whose ref the ledger or the journal
knows (live, evicted or handed out before a crash). Other files in ``spill_dir``, such as a second
hub's or the user's, are never touched. ``text(ref)`` checks the chunk count, byte count and
SHA-256 before returning anything.

Threads: ``reserve`` may run on the event loop, everything else in worker threads. Locks, in the
order they may nest: the write lock (``Indexer``: tantivy writer, commits, the ledger file), the
pending payloads' own lock, then the state lock (the ledger; held for dictionary work only, never
during I/O). Searches use tantivy searchers, which are safe alongside the writer.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from context_mode.errors import DocumentTooLarge, RefEvicted, RefNotFound, StoreClosed, StoreError
from context_mode.secrets import mask_secrets
from context_mode.store.disk import DiskBudget, file_bytes, files_bytes
from context_mode.store.files import (
    JOURNAL_NAME,
    DirectoryLock,
    Journal,
    private_directory,
    read_ledger,
    remove_spill,
    spill_path,
    stray_spill_files,
    write_ledger,
    write_spill,
)
from context_mode.store.index import ChunkIndex
from context_mode.store.indexing import Indexer
from context_mode.store.ledger import Ledger
from context_mode.store.pending import Pending, PendingPayloads
from context_mode.store.values import (
    Outline,
    Reservation,
    SearchHit,
    SearchResult,
    StoredChunk,
    StoredDoc,
    StoreStats,
    Window,
)
from context_mode.types import ContentKind

DAMAGED = "damaged in the store"
LOST = "lost: the hub stopped before storing it"
_REF = re.compile(r"r_[0-9a-z]{1,32}")
_CHUNK_ID = re.compile(r"(r_[0-9a-z]{1,32})#(\d{1,9})")
_SURROGATE = re.compile("[\ud800-\udfff]")


def random_id() -> str:
    """Eight random hex digits: 4 billion refs, checked against the known ones anyway."""
    return secrets.token_hex(4)


class Store:
    """Spilled payloads: reserve fast, index in a worker, then search and read by ref (module doc)."""

    def __init__(
        self,
        path: Path | None,
        *,
        max_bytes: int = 512 * 2**20,
        max_age: float | None = None,
        spill_dir: Path | None = None,
        clock: Callable[[], float] = time.time,
        new_id: Callable[[], str] = random_id,
        max_chunk_bytes: int = 4096,
        read_timeout: float = 30.0,
        max_evicted_refs: int = 4096,
        writer_heap_bytes: int = 32 * 2**20,
        read_only: bool = False,
        mask_secrets: bool = True,
        disk_max_bytes: int | None = None,
        dedupe: bool = True,
    ) -> None:
        if max_bytes <= 0 or (max_age is not None and max_age <= 0):
            raise ValueError("max_bytes and max_age must be positive")
        self.path = path.resolve() if path is not None else None
        self.max_bytes = max_bytes
        self.max_age = max_age
        self._clock = clock
        self._new_id = new_id
        self._state_lock = threading.Lock()
        if disk_max_bytes is not None:  # the evicted memory is in the ledger file, inside the bound
            max_evicted_refs = min(max_evicted_refs, max(64, disk_max_bytes // 400))
        self._ledger = Ledger(
            max_evicted=max_evicted_refs, age_reason=f"older than {max_age:g} s" if max_age else ""
        )
        self._disk_max_bytes = disk_max_bytes
        self._dedupe = dedupe
        self._by_digest: dict[str, str] = {}  # SHA-256 of a payload -> its ref (checked live on use)
        self._pending = PendingPayloads()
        self.masks_secrets = mask_secrets
        self.secrets_masked = 0
        self._journal: Journal | None = None
        self._closed = False
        self._lock: DirectoryLock | None = None
        self._ledger_path: Path | None = None
        self._temporary_spill_dir = path is None and spill_dir is None
        self.read_only = read_only
        if read_only:
            if path is None or not (path / "index").is_dir():
                raise RefNotFound(f"there is no store at {path}; run the hub first or check store.path")
            self._index = ChunkIndex(path / "index", heap_bytes=writer_heap_bytes, writable=False)
            self._read_ledger_path = path / "ledger.json"
            spill_dir = spill_dir or path / "spill"
        elif path is None:
            self._index = ChunkIndex(None, heap_bytes=writer_heap_bytes)
            spill_dir = spill_dir or Path(tempfile.mkdtemp(prefix="ctxhub-spill-"))
        else:
            private_directory(path)
            self._lock = DirectoryLock(path)
            try:
                self._index = ChunkIndex(path / "index", heap_bytes=writer_heap_bytes)
            except BaseException:
                self._lock.release()
                raise
            self._ledger_path = path / "ledger.json"
            spill_dir = spill_dir or path / "spill"
            self._journal = Journal(path / JOURNAL_NAME)
        try:
            self._open(spill_dir, max_bytes, max_chunk_bytes, read_timeout)
        except BaseException:
            self._index.close()
            if self._journal is not None:
                self._journal.close()
            if self._lock is not None:
                self._lock.release()
            raise

    def _open(self, spill_dir: Path, max_bytes: int, max_chunk_bytes: int, read_timeout: float) -> None:
        self.spill_dir = spill_dir if self.read_only else private_directory(spill_dir)
        self._indexer = Indexer(
            self._index,
            self._ledger,
            self._state_lock,
            self._pending,
            max_bytes=max_bytes,
            max_chunk_bytes=max_chunk_bytes,
            read_timeout=read_timeout,
            cutoff=self._cutoff,
            gone=self._gone,
            save_ledger=self._save_ledger,
            disk=self._disk_budget(),
        )
        if self._ledger_path is not None:
            self._reconcile()
        elif self.read_only:
            entries, _ = self._index.documents()
            saved = read_ledger(self._read_ledger_path)
            self._ledger.restore(saved, [_with_existing_spill(entry.doc) for entry in entries])

    # --- writing ------------------------------------------------------------------------------------

    def reserve(
        self, text: str, *, source: str, kind: ContentKind, title: str | None = None, spill_file: bool = False
    ) -> Reservation:
        """Take a payload on the response path: a fresh ref, its spill file if asked; index it later."""
        self._check_open()
        if self.read_only:
            raise StoreError("this store was opened read-only (a hub owns it); results cannot be added")
        text = self.mask(text)
        title = self.mask(title) if title else title
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            text = _SURROGATE.sub("\ufffd", text)
            data = text.encode("utf-8")
        if len(data) > self.max_bytes:
            raise DocumentTooLarge(
                f"the result of {source} is {len(data)} bytes, more than the whole store budget of "
                f"{self.max_bytes} bytes; raise the store's max_bytes or ask the tool for less"
            )
        digest = hashlib.sha256(data).hexdigest() if self._dedupe else ""
        existing = self._same_payload(digest, spill_file) if digest else None
        if existing is not None:
            return existing
        created = self._clock()
        for _ in range(4):
            ref = self._pending.issue(self._draw_ref, self._knows)
            path = spill_path(self.spill_dir, ref, kind) if spill_file else None
            if path is not None and os.path.lexists(path):
                self._pending.withdraw(ref)
                continue  # a stray file with that name: draw another ref
            try:
                # Journal first: a crash between the two then leaves a file of a journaled ref,
                # which the next open removes; the other order left a file no one owned.
                if self._journal is not None:
                    self._journal.append(ref)  # so a crash before indexing reads as evicted, not unknown
                if path is not None:
                    write_spill(path, data)
            except FileExistsError:
                self._pending.withdraw(ref)
                continue  # a stray file with that name: draw another ref
            except OSError as exc:
                self._pending.withdraw(ref)
                remove_spill(path)
                raise StoreError(
                    f"could not write the spill file {path} ({exc.strerror}); check free space there"
                ) from exc
            self._pending.add(Pending(ref, text, source, kind, title, created, len(data), path))
            if digest:
                self._remember_digest(digest, ref)
            return Reservation(ref, path, len(data))
        raise StoreError(
            f"could not create a spill file in {self.spill_dir}; remove the stray r_* files there"
        )

    def _same_payload(self, digest: str, spill_file: bool) -> Reservation | None:
        """The reservation of a live or pending payload with this digest (refreshed in the LRU), if any.

        Reading the same text again returns its ref, so search hits do not repeat; a payload
        stored without a spill file is stored again when a spill file is asked for.
        """
        with self._state_lock:
            ref = self._by_digest.get(digest)
        if ref is None:
            return None
        pending = self._pending.get(ref)
        if pending is not None:
            spill_path, size = pending.spill_path, pending.bytes
        else:
            with self._state_lock:
                doc = self._ledger.touch(ref)
            if doc is None:
                return None
            spill_path, size = doc.spill_path, doc.bytes
        if spill_file and (spill_path is None or not spill_path.exists()):
            return None
        return Reservation(ref, spill_path, size)

    def _remember_digest(self, digest: str, ref: str) -> None:
        pending = set(self._pending.refs())  # the pending lock is taken before the state lock
        with self._state_lock:
            self._by_digest[digest] = ref
            if len(self._by_digest) > 2 * (len(self._ledger) + len(pending)) + 64:  # amortised O(1)
                self._by_digest = {
                    key: known
                    for key, known in self._by_digest.items()
                    if known in self._ledger or known in pending
                }

    def mask(self, text: str) -> str:
        """``text`` with its secrets masked (``context_mode.secrets``) when masking is on; counted."""
        if not self.masks_secrets:
            return text
        masked, count = mask_secrets(text)
        if count:
            with self._state_lock:
                self.secrets_masked += count
        return masked

    def index(self, ref: str) -> StoredDoc:
        """Chunk and index a reserved payload (blocking: call it from a worker thread)."""
        return self._indexer.index(ref)

    def put(
        self, text: str, *, source: str, kind: ContentKind, title: str | None = None, spill_file: bool = False
    ) -> StoredDoc:
        """``reserve`` then ``index``, in the calling thread."""
        return self.index(
            self.reserve(text, source=source, kind=kind, title=title, spill_file=spill_file).ref
        )

    def _cutoff(self) -> float | None:
        return None if self.max_age is None else self._clock() - self.max_age

    def _draw_ref(self) -> str:
        ident = self._new_id()
        if not _REF.fullmatch(f"r_{ident}"):
            raise ValueError(f"new_id() returned {ident!r}; ids must be 1-32 characters of [0-9a-z]")
        return f"r_{ident}"

    def _knows(self, ref: str) -> bool:
        with self._state_lock:
            return self._ledger.knows(ref)

    # --- reading ------------------------------------------------------------------------------------

    def document(self, ref: str) -> StoredDoc:
        """The live document ``ref`` (refreshed in the LRU); RefEvicted or RefNotFound otherwise."""
        self._check_open()
        if not _REF.fullmatch(ref):
            raise RefNotFound(f"{ref!r} is not a ref; refs look like r_1a2b3c4d (see doc_list)")
        if self._pending.get(ref) is not None:
            self.index(ref)
        self._expire()
        with self._state_lock:
            doc = self._ledger.touch(ref)
        if doc is None:
            raise self._gone(ref)
        return doc

    def holds(self, ref: str) -> bool:
        """Whether ``ref`` is still readable (pending, or live and not too old); refreshes it in the LRU.

        Cheap (no indexing, no I/O): a repeat checks it before pointing at ``ref`` again.
        """
        self._check_open()
        if self._pending.get(ref) is not None:
            return True
        cutoff = self._cutoff()
        with self._state_lock:
            doc = self._ledger.touch(ref)
        return doc is not None and (cutoff is None or doc.created > cutoff)

    def search(self, query: str, *, ref: str | None = None, limit: int = 5) -> SearchResult:
        """BM25 over text, split identifiers and headings; each hit with its best lines; else suggestions."""
        self._check_open()
        if ref is not None:
            self.document(ref)
        else:
            self._settle_pending()
        self._expire()
        found = self._index.search(query, ref=ref, limit=max(1, min(limit, 100)), is_live=self._is_live)
        hits: list[SearchHit] = []
        with self._state_lock:
            for hit in found:
                doc = self._ledger.touch(hit.chunk.ref)
                if doc is not None:
                    found_chunk = hit.chunk
                    hits.append(
                        SearchHit(
                            found_chunk.chunk_id,
                            found_chunk.ref,
                            doc.source,
                            found_chunk.heading_path,
                            hit.score,
                            hit.snippet,
                            hit.lines,
                            found_chunk.text,
                        )
                    )
        if hits:
            return SearchResult(query, tuple(hits))
        return SearchResult(query, (), self._suggestions(ref))

    def window(self, ref: str, start: int = 0, end: int | None = None, *, budget_bytes: int = 6000) -> Window:
        """Chunks from ``start`` up to ``end`` (exclusive) or the byte budget; at least one chunk if any."""
        if start < 0 or (end is not None and end < start):
            raise ValueError(f"bad chunk range start={start} end={end}; use 0 <= start <= end")
        doc = self.document(ref)
        stop = doc.chunk_count if end is None else min(end, doc.chunk_count)
        chunks: list[StoredChunk] = []
        used = 0
        position = start
        while position < stop:
            batch = self._fetch(doc, position, min(stop, position + 32))
            for piece in batch:
                size = len(piece.text.encode("utf-8"))
                if chunks and used + size > budget_bytes:
                    stop = position
                    break
                chunks.append(piece)
                used += size
                position += 1
        following = start + len(chunks)
        return Window(
            ref, start, tuple(chunks), doc.chunk_count, following if following < doc.chunk_count else None
        )

    def read_chunk(self, chunk_id: str) -> StoredChunk:
        """One chunk by id ``"<ref>#<index>"``."""
        match = _CHUNK_ID.fullmatch(chunk_id)
        if match is None:
            raise RefNotFound(f"{chunk_id!r} is not a chunk id; chunk ids look like r_1a2b3c4d#0")
        doc = self.document(match.group(1))
        index = int(match.group(2))
        if index >= doc.chunk_count:
            raise RefNotFound(f"{chunk_id} is out of range: {doc.ref} has chunks 0 to {doc.chunk_count - 1}")
        return self._fetch(doc, index, index + 1)[0]

    def text(self, ref: str) -> str:
        """The whole payload, reassembled and checked against its stored size and digest."""
        doc = self.document(ref)
        parts: list[str] = []
        for start in range(0, doc.chunk_count, 256):
            parts.extend(piece.text for piece in self._fetch(doc, start, min(doc.chunk_count, start + 256)))
        text = "".join(parts)
        entry = self._index.meta(ref)
        data = text.encode("utf-8")
        if entry is None or len(data) != doc.bytes or hashlib.sha256(data).hexdigest() != entry.sha256:
            raise self._damaged(doc)
        return text

    def outline(self, ref: str) -> Outline:
        """The payload's sections: heading paths with their first chunk and chunk count."""
        doc = self.document(ref)
        entry = self._index.meta(ref)
        if entry is None:
            raise self._damaged(doc)
        return Outline(ref, doc.chunk_count, entry.sections, entry.sections_truncated)

    def documents(self, limit: int | None = 20, *, by_use: bool = False) -> list[StoredDoc]:
        """Live documents, newest (``by_use``: last read) first, at most ``limit``; no LRU refresh."""
        self._check_open()
        self._settle_pending()
        self._expire()
        with self._state_lock:
            docs = self._ledger.documents()  # least recently used first
        newest = docs[::-1] if by_use else sorted(docs, key=lambda doc: doc.created, reverse=True)
        return newest if limit is None else newest[: max(limit, 0)]

    def stats(self) -> StoreStats:
        pending = len(self._pending)  # not under the state lock: the pending lock comes first
        with self._state_lock:
            ledger = self._ledger
            totals = (ledger.total_bytes, len(ledger), ledger.total_chunks, ledger.evictions)
        return StoreStats(*totals, pending, self.max_bytes, self.secrets_masked)

    def _fetch(self, doc: StoredDoc, start: int, stop: int) -> list[StoredChunk]:
        chunks = self._index.fetch(doc.ref, start, stop)
        if [piece.index for piece in chunks] != list(range(start, stop)):
            with self._state_lock:
                live = doc.ref in self._ledger
            if not live:  # evicted while we read
                raise self._gone(doc.ref)
            raise self._damaged(doc)
        return chunks

    def _damaged(self, doc: StoredDoc) -> StoreError:
        with self._state_lock:
            self._ledger.evict(doc.ref, DAMAGED)
        remove_spill(doc.spill_path)
        return self._gone(doc.ref)

    def _suggestions(self, ref: str | None) -> tuple[str, ...]:
        if ref is not None:
            texts = [piece.text for piece in self._index.fetch(ref, 0, 16)]
        else:
            texts = [piece.text for doc in self.documents(5) for piece in self._index.fetch(doc.ref, 0, 4)]
        return self._index.distinctive_terms(texts, 8)

    def _is_live(self, ref: str) -> bool:
        with self._state_lock:
            return ref in self._ledger

    def _gone(self, ref: str) -> StoreError:
        with self._state_lock:
            reason = self._ledger.eviction_reason(ref)
        if reason is not None:
            return RefEvicted(f"{ref} was evicted ({reason}); call the tool again")
        return RefNotFound(f"{ref} is unknown to this store; use a ref from a recent result or doc_list")

    def _settle_pending(self) -> None:
        for ref in self._pending.refs():
            try:
                self.index(ref)
            except StoreError:
                pass  # a payload that failed (or is slow) is reported when read by its ref

    def _expire(self) -> None:
        cutoff = self._cutoff()
        if cutoff is None:
            return
        with self._state_lock:
            victims = self._ledger.expire(cutoff)
        for doc in victims:
            remove_spill(doc.spill_path)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed; the hub is shutting down")

    # --- lifecycle ----------------------------------------------------------------------------------

    def _reconcile(self) -> None:
        """Rebuild the ledger from the index (the truth) and the saved order; drop what is stale."""
        assert self._ledger_path is not None
        entries, damaged = self._index.documents()
        docs = [_with_existing_spill(entry.doc) for entry in entries]
        self._ledger.restore(read_ledger(self._ledger_path), docs)
        if self._dedupe:
            self._by_digest.update((entry.sha256, entry.doc.ref) for entry in entries)
        reserved = self._journal.refs() if self._journal is not None else []
        with self._state_lock:
            self._ledger.undeleted.update(damaged)
            for ref in reserved:  # handed out, never indexed: the hub stopped first
                if not self._ledger.knows(ref):
                    self._ledger.forget(ref, LOST)
            self._ledger.plan_evictions([], budget=self.max_bytes, cutoff=self._cutoff())
            keep = {doc.spill_path for doc in self._ledger.documents() if doc.spill_path is not None}
        self._indexer.commit_deletions()  # saves the ledger, which now remembers the lost refs
        if self._journal is not None:
            self._journal.clear()
        with self._state_lock:
            owned = set(reserved)
            owned.update(doc.ref for doc in self._ledger.documents())
            owned.update(self._ledger.evicted_refs())
        for path in stray_spill_files(self.spill_dir, keep, owned.__contains__):
            remove_spill(path)

    def _disk_budget(self) -> DiskBudget | None:
        if self._disk_max_bytes is None or self.path is None or self.read_only:
            return None
        return DiskBudget(self._disk_max_bytes, self.disk_bytes)

    def disk_bytes(self) -> tuple[int, int]:
        """What the store has on disk, and the part that does not grow with payloads (``store.disk``)."""
        if self.path is None:
            return 0, 0
        with self._state_lock:
            spilled = self._ledger.spill_bytes
        own = ("ledger.json", "ledger.json.tmp", JOURNAL_NAME, "store.lock")
        fixed = sum(file_bytes(self.path / name) for name in own)
        fixed += sum(file_bytes(self.path / "index" / name) for name in ("meta.json", ".managed.json"))
        return files_bytes(self.path / "index") + spilled + sum(file_bytes(self.path / n) for n in own), fixed

    def _save_ledger(self, snapshot: str) -> None:
        if self._ledger_path is not None:
            write_ledger(self._ledger_path, snapshot)

    def close(self) -> None:
        """Index what is pending, commit, release the writer and the directory lock."""
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
        if not self.read_only:
            self._settle_pending()
            self._indexer.commit_deletions()
            with self._indexer.write_lock:
                self._index.close()
        if self._journal is not None:
            self._journal.clear()
            self._journal.close()
        if self._lock is not None:
            self._lock.release()
        if self._temporary_spill_dir:
            shutil.rmtree(self.spill_dir, ignore_errors=True)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _with_existing_spill(doc: StoredDoc) -> StoredDoc:
    if doc.spill_path is None or doc.spill_path.exists():
        return doc
    return StoredDoc(doc.ref, doc.source, doc.kind, doc.title, doc.bytes, doc.chunk_count, doc.created, None)
