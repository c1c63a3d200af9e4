"""Benchmark of the spill store: indexing throughput, search latency at 10k and 100k chunks, reserve time.

Run: ``.venv/bin/python bench/store.py`` (about a minute; uses a temporary directory on disk).
Prints a markdown table. Payloads are synthetic logs with camelCase identifiers, ~1 KB chunks.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from context_mode.chunking.split import chunk  # noqa: E402
from context_mode.store.store import Store  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402

WORDS = (
    "request response server client timeout retry token cache index query commit branch merge deploy "
    "config handler worker thread socket stream buffer parser schema record payload error warning"
).split()
CHUNK_BYTES = 1024
PAYLOAD_BYTES = 512 * 1024


def identifier(rng: random.Random) -> str:
    parts = rng.sample(WORDS, 3)
    return parts[0] + "".join(part.capitalize() for part in parts[1:])


def payload(rng: random.Random, size: int) -> str:
    lines: list[str] = []
    total = 0
    while total < size:
        line = (
            f"2024-05-01T12:{rng.randrange(60):02d}:{rng.randrange(60):02d} "
            f"{rng.choice(['INFO', 'WARN', 'ERROR'])} {identifier(rng)}: "
            + " ".join(rng.choices(WORDS, k=rng.randrange(4, 14)))
            + f" id={rng.randrange(10**6)}\n"
        )
        lines.append(line)
        total += len(line)
    return "".join(lines)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def fill(store: Store, rng: random.Random, chunks: int) -> tuple[float, int]:
    """Put payloads until the store holds ``chunks`` chunks; returns (seconds, bytes)."""
    seconds, size = 0.0, 0
    while store.stats().chunks < chunks:
        text = payload(rng, PAYLOAD_BYTES)
        seconds += timed(lambda text=text: store.put(text, source="bench", kind=ContentKind.LOG))
        size += len(text)
    return seconds, size


def search_latencies(store: Store, rng: random.Random, count: int = 300) -> list[float]:
    queries = [
        rng.choice(
            [
                " ".join(rng.sample(WORDS, 2)),
                identifier(rng),
                f"{rng.choice(WORDS)} {rng.choice(WORDS)} error",
                f'"{rng.choice(WORDS)} {rng.choice(WORDS)}"',
            ]
        )
        for _ in range(count)
    ]
    return [timed(lambda query=query: store.search(query, limit=5)) * 1000 for query in queries]


def main() -> None:
    rng = random.Random(7)
    rows: list[tuple[str, str]] = []
    sample = payload(rng, 8 * 2**20)
    seconds = timed(lambda: chunk(sample, ContentKind.LOG, max_chunk_bytes=CHUNK_BYTES))
    rows.append(("chunk() alone, log text", f"{len(sample) / 2**20 / seconds:.1f} MB/s"))
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        store = Store(Path(directory) / "store", max_bytes=2**30, max_chunk_bytes=CHUNK_BYTES)
        with store:
            seconds, size = fill(store, rng, 10_000)
            rows.append(
                (
                    "put() = reserve + index, one 512 KB payload per commit",
                    f"{size / 2**20 / seconds:.1f} MB/s",
                )
            )
            for label, target in (("10k", 10_000), ("100k", 100_000)):
                fill(store, rng, target)
                latencies = search_latencies(store, rng)
                chunks = store.stats().chunks
                rows.append(
                    (
                        f"search at {label} chunks ({chunks}), p50 / p99",
                        f"{statistics.median(latencies):.2f} ms / {percentile(latencies, 0.99):.2f} ms",
                    )
                )
            megabyte = payload(rng, 2**20)
            for spill in (False, True):
                samples = [
                    timed(
                        partial(
                            store.reserve, megabyte, source="bench", kind=ContentKind.LOG, spill_file=spill
                        )
                    )
                    * 1000
                    for _ in range(30)
                ]
                label = "with spill file" if spill else "in memory only"
                rows.append(
                    (
                        f"reserve() of a 1 MB result, {label}, p50 / max",
                        f"{statistics.median(samples):.2f} ms / {max(samples):.2f} ms",
                    )
                )
            pending = store.stats().pending
            seconds = timed(store.documents)  # settles the pending reservations: group commits
            rows.append(
                (f"index() of {pending} pending 1 MB results (group commit)", f"{pending / seconds:.1f} MB/s")
            )
    print("| measure | value |")
    print("|---|---|")
    for measure, value in rows:
        print(f"| {measure} | {value} |")


if __name__ == "__main__":
    main()
