"""Threads: reserve on one thread, index and read from many, evictions racing reads, never wrong content."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from context_mode.errors import RefEvicted
from context_mode.store.store import Store
from context_mode.types import ContentKind


def test_fifty_concurrent_spills_searches_and_windows(tmp_path: Path) -> None:
    with Store(tmp_path, max_chunk_bytes=512) as store:
        texts = {
            f"marker{i:02d}": f"payload {i} marker{i:02d}\n" + f"getUserById line {i}\n" * (20 + i)
            for i in range(50)
        }
        reservations = {  # reserve runs on one thread, like the hub's event loop
            marker: store.reserve(text, source=f"tool{i}", kind=ContentKind.LOG, spill_file=i % 2 == 0)
            for i, (marker, text) in enumerate(texts.items())
        }
        with ThreadPoolExecutor(max_workers=8) as pool:
            indexed = [pool.submit(store.index, reservation.ref) for reservation in reservations.values()]
            searched = {marker: pool.submit(store.search, marker) for marker in texts}
            windows = [pool.submit(store.window, reservation.ref) for reservation in reservations.values()]
        assert [future.result().ref for future in indexed] == [r.ref for r in reservations.values()]
        for marker, future in searched.items():
            assert future.result().hits[0].ref == reservations[marker].ref
        assert all(future.result().chunks for future in windows)
        for marker, text in texts.items():
            assert store.text(reservations[marker].ref) == text
        stats = store.stats()
        assert (stats.refs, stats.pending, stats.evictions) == (50, 0, 0)


def test_readers_racing_evictions_get_the_right_text_or_evicted() -> None:
    written: list[tuple[str, str]] = []
    done = threading.Event()
    failures: list[str] = []

    def write(store: Store, worker: int) -> None:
        for i in range(25):
            text = f"worker {worker} payload {i} " + f"w{worker}p{i} " * (50 + 7 * i)
            written.append((store.put(text, source="t", kind=ContentKind.TEXT).ref, text))

    def read(store: Store) -> None:
        while True:
            finished = done.is_set()
            for ref, text in list(written)[-12:]:
                try:
                    if store.text(ref) != text:
                        failures.append(ref)
                except RefEvicted:
                    pass
            if finished:
                return

    with Store(None, max_bytes=20_000, max_chunk_bytes=300) as store:
        writers = [threading.Thread(target=write, args=(store, worker)) for worker in range(4)]
        readers = [threading.Thread(target=read, args=(store,)) for _ in range(4)]
        for thread in (*writers, *readers):
            thread.start()
        for thread in writers:
            thread.join()
        done.set()
        for thread in readers:
            thread.join()
        assert failures == []
        assert len(written) == 100
        assert store.stats().bytes <= 20_000
        assert store.stats().evictions == 100 - store.stats().refs
