"""Bounded memory: the hub's RSS over many 100 KB results, and the store's disk against ``store.max_bytes``.

Run: ``.venv/bin/python bench/memory.py [--calls 10000] [--concurrency 4]`` (10,000 calls take
about 7 minutes at the hub's current ~25 calls/s for this load).

``ctxhub serve`` runs as a child process in front of the fixture server, with ``store.max_bytes``
set to 50 MB. The client makes ``--calls`` calls of ``fixture__big(kb=100)`` with a ``nonce``
argument that differs every call (so the dedupe cache never answers but fills to its bound),
``--concurrency`` at a time. Each result is a 100 KB log: routed to Summary, spilled (a spill file
and the index), indexed in a worker thread. ``/proc/<pid>/status`` is read after start-up, after
the warm-up (``WARMUP`` calls: by then the store has filled its 50 MB and evicts), and every
``SAMPLE_EVERY`` calls: VmRSS, and its parts RssAnon (Python and native heaps) and RssFile
(mapped files: tantivy's segments); the store directory's size (index, spill files, ledger) too.

Growth is the mean RSS of the last two samples minus the RSS after warm-up; the slope (least
squares over the samples after warm-up, MB per 1,000 calls) tells a leak (it keeps rising) from
a plateau that only wobbles, and extrapolates a shorter run to 10,000 calls.
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
    memory_mb,
    pid_of,
    print_figures,
    write_config,
)

MAX_BYTES = 50 * 2**20
GROWTH_GOAL_MB = 50.0
GOAL_CALLS = 10_000
WARMUP = 500
SAMPLE_EVERY = 100

Sample = tuple[int, dict[str, float], int]  # calls done, memory (MB), store disk (bytes)


async def measure(calls: int, concurrency: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="ctxhub-bench-") as directory:
        root = Path(directory)
        config = write_config(root, {"fixture": fixture_server()}, store={"max_bytes": MAX_BYTES})
        store = root / "store"
        async with connect(hub_command(config)) as session:
            pid = pid_of(str(config))
            trace: list[Sample] = [(0, memory_mb(pid), disk_bytes(store))]
            done = 0

            async def worker(numbers: range) -> None:
                nonlocal done
                for number in numbers:
                    await call(session, "fixture__big", {"kb": 100, "nonce": number})
                    done += 1
                    if done == WARMUP or done % SAMPLE_EVERY == 0 or done == calls:
                        trace.append((done, memory_mb(pid), disk_bytes(store)))

            started = time.perf_counter()
            async with anyio.create_task_group() as group:
                for offset in range(concurrency):
                    group.start_soon(worker, range(offset, calls, concurrency))
            seconds = time.perf_counter() - started
    return {"trace": trace, "seconds": seconds, "calls": calls}


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares MB per 1,000 calls."""
    if len(points) < 2:
        return 0.0
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return 1000 * sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def figures(result: dict[str, object]) -> list[Figure]:
    trace: list[Sample] = result["trace"]  # type: ignore[assignment]
    calls, seconds = int(result["calls"]), float(result["seconds"])  # type: ignore[call-overload, arg-type]
    start = trace[0][1]["VmRSS"]
    warm_calls, warm_memory, _ = next(sample for sample in trace if sample[0] >= min(WARMUP, calls))
    warm = warm_memory["VmRSS"]
    after = [sample for sample in trace if sample[0] >= warm_calls]
    end = sum(sample[1]["VmRSS"] for sample in after[-2:]) / len(after[-2:])
    growth = end - warm
    rate = slope([(count, memory["VmRSS"]) for count, memory, _ in after])
    anon_rate = slope([(count, memory.get("RssAnon", 0.0)) for count, memory, _ in after])
    # RSS wobbles by tens of MB (tantivy's writer heap, merges, mapped segments): project only a rise.
    projected = (
        growth if calls >= GOAL_CALLS else max(growth, 0.0) + max(rate, 0.0) * (GOAL_CALLS - calls) / 1000
    )
    peak_disk = max(disk for _, _, disk in trace)
    peak_rss = max(memory["VmRSS"] for _, memory, _ in trace)
    parts = after[-1][1]
    note = (
        f"RSS {start:.0f} MB at start, {warm:.0f} MB after {warm_calls} warm-up calls, "
        f"{end:.0f} MB at the end "
        f"(anon {parts.get('RssAnon', 0):.0f} + file {parts.get('RssFile', 0):.0f}), peak {peak_rss:.0f} MB; "
        f"slope {rate:+.1f} MB per 1,000 calls (anon {anon_rate:+.1f}); {calls / seconds:.1f} calls/s"
    )
    rows = [
        Figure(
            f"RSS growth over {calls:,} calls of 100 KB",
            f"{growth:+.1f} MB",
            f"{warm:.0f} MB after warm-up",
            end / warm,
            f"≤ +{GROWTH_GOAL_MB:g} MB",
            growth <= GROWTH_GOAL_MB,
            note,
        )
    ]
    if calls < GOAL_CALLS:
        rows.append(
            Figure(
                f"RSS growth projected to {GOAL_CALLS:,} calls (slope)",
                f"{projected:+.1f} MB",
                f"{warm:.0f} MB after warm-up",
                (warm + projected) / warm,
                f"≤ +{GROWTH_GOAL_MB:g} MB",
                projected <= GROWTH_GOAL_MB,
                f"measured growth plus the slope (if rising) over the other {GOAL_CALLS - calls:,} calls; "
                "bench/memory.py --calls 10000 measures it",
            )
        )
    rows.append(
        Figure(
            "Store disk, peak during the run",
            f"{peak_disk / 2**20:.1f} MB",
            f"{MAX_BYTES / 2**20:.0f} MB (store.max_bytes)",
            peak_disk / MAX_BYTES,
            "≤ 1×",
            peak_disk <= MAX_BYTES,
            f"{trace[-1][2] / 2**20:.1f} MB at the end (index + spill files + ledger)",
        )
    )
    return rows


def report(result: dict[str, object]) -> str:
    lines = ["| calls | RSS | anon | file | store disk |", "|---|---|---|---|---|"]
    trace: list[Sample] = result["trace"]  # type: ignore[assignment]
    for count, memory, disk in trace:
        lines.append(
            f"| {count} | {memory['VmRSS']:.1f} MB | {memory.get('RssAnon', 0):.1f} MB "
            f"| {memory.get('RssFile', 0):.1f} MB | {disk / 2**20:.1f} MB |"
        )
    return "\n".join(lines)


async def run(
    quick: bool = False, calls: int | None = None, concurrency: int = 4, verbose: bool = False
) -> list[Figure]:
    result = await measure(calls or (1000 if quick else GOAL_CALLS), concurrency)
    if verbose:
        print(report(result), end="\n\n", flush=True)
    return figures(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=GOAL_CALLS)
    parser.add_argument("--concurrency", type=int, default=4)
    options = parser.parse_args()
    print_figures(anyio.run(run, False, options.calls, options.concurrency, True))


if __name__ == "__main__":
    main()
