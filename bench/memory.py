"""Bounded memory: the hub's RSS over many 100 KB results, and the store's disk against ``store.max_bytes``.

Run: ``.venv/bin/python bench/memory.py [--calls 10000] [--concurrency 4]`` (a few minutes).

``ctxhub serve`` runs as a child process in front of the fixture server, with ``store.max_bytes``
set to 50 MB. The client makes ``--calls`` calls of ``fixture__big(kb=100)`` with a ``nonce``
argument that differs every call (so the dedupe cache never answers but fills to its bound),
``--concurrency`` at a time. Each result is a 100 KB log: routed to Summary, spilled (a spill file
and the index), indexed in a worker thread. VmRSS is read from ``/proc/<pid>/status`` after
start-up, after a warm-up of ``WARMUP`` calls, every ``SAMPLE_EVERY`` calls and at the end; the
store directory's size (index, spill files, ledger) likewise. Growth is counted from the warm-up,
so imports, the SDK's first-call caches and tantivy's writer heap are not counted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import anyio
from harness import (
    Figure,
    call,
    connect,
    disk_bytes,
    fixture_server,
    hub_command,
    pid_of,
    print_figures,
    rss_mb,
    write_config,
)

MAX_BYTES = 50 * 2**20
GROWTH_GOAL_MB = 50.0
WARMUP = 300
SAMPLE_EVERY = 250


async def measure(calls: int, concurrency: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        root = Path(directory)
        config = write_config(root, {"fixture": fixture_server()}, store={"max_bytes": MAX_BYTES})
        store = root / "store"
        async with connect(hub_command(config)) as session:
            pid = pid_of(str(config))
            start_rss = rss_mb(pid)
            trace: list[tuple[int, float, int]] = []
            done = 0
            peak_disk = 0

            async def worker(numbers: range) -> None:
                nonlocal done, peak_disk
                for number in numbers:
                    await call(session, "fixture__big", {"kb": 100, "nonce": number})
                    done += 1
                    if done == WARMUP or done % SAMPLE_EVERY == 0:
                        disk = disk_bytes(store)
                        peak_disk = max(peak_disk, disk)
                        trace.append((done, rss_mb(pid), disk))

            started = time.perf_counter()
            async with anyio.create_task_group() as group:
                for offset in range(concurrency):
                    group.start_soon(worker, range(offset, calls, concurrency))
            seconds = time.perf_counter() - started
            await anyio.sleep(1.0)  # the last payloads' indexing
            end_rss, end_disk = rss_mb(pid), disk_bytes(store)
            peak_disk = max(peak_disk, end_disk)
            trace.append((calls, end_rss, end_disk))
    warm = next(rss for count, rss, _ in trace if count >= WARMUP)
    return {
        "start": start_rss,
        "warm": warm,
        "end": end_rss,
        "peak_rss": max(rss for _, rss, _ in trace),
        "peak_disk": peak_disk,
        "end_disk": end_disk,
        "trace": trace,
        "seconds": seconds,
        "calls": calls,
    }


def figures(result: dict[str, object]) -> list[Figure]:
    start, warm, end = (float(result[key]) for key in ("start", "warm", "end"))  # type: ignore[arg-type]
    peak_rss = float(result["peak_rss"])  # type: ignore[arg-type]
    peak_disk = int(result["peak_disk"])  # type: ignore[call-overload]
    calls, seconds = result["calls"], float(result["seconds"])  # type: ignore[arg-type]
    growth = end - warm
    return [
        Figure(
            f"RSS growth over {calls:,} calls of 100 KB (after {WARMUP} warm-up calls)",
            f"+{growth:.1f} MB",
            f"{warm:.0f} MB after warm-up",
            end / warm,
            f"≤ +{GROWTH_GOAL_MB:g} MB",
            growth <= GROWTH_GOAL_MB,
            f"RSS {start:.0f} MB at start, {warm:.0f} MB warm, {end:.0f} MB at the end, "
            f"peak {peak_rss:.0f} MB; "
            f"{calls / seconds:.0f} calls/s",
        ),
        Figure(
            "Store disk, peak during the run",
            f"{peak_disk / 2**20:.1f} MB",
            f"{MAX_BYTES / 2**20:.0f} MB (store.max_bytes)",
            peak_disk / MAX_BYTES,
            "≤ 1×",
            peak_disk <= MAX_BYTES,
            f"{int(result['end_disk']) / 2**20:.1f} MB at the end (index + spill files + ledger)",  # type: ignore[call-overload]
        ),
    ]


def report(result: dict[str, object]) -> str:
    lines = ["| calls | RSS | store disk |", "|---|---|---|"]
    trace = result["trace"]
    assert isinstance(trace, list)
    lines.extend(f"| {count} | {rss:.1f} MB | {disk / 2**20:.1f} MB |" for count, rss, disk in trace)
    return "\n".join(lines)


async def run(
    quick: bool = False, calls: int | None = None, concurrency: int = 4, verbose: bool = False
) -> list[Figure]:
    result = await measure(calls or (3000 if quick else 10_000), concurrency)
    if verbose:
        print(report(result), end="\n\n", flush=True)
    return figures(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=4)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.calls, options.concurrency, True))


if __name__ == "__main__":
    main()
