"""The store directory against ``store.max_bytes``: its peak size, measured after every put.

Run: ``.venv/bin/python bench/store_disk.py [--puts 150]``. For each bound (100 KB, 1 MB, 5 MB)
and payload size, ``--puts`` log payloads of random request ids (high-entropy text, the hardest
case for the index: a big term dictionary) are put into a store opened as the hub opens it
(``hub.stores.store_options``), half of them with a spill file, and the directory (every file
under it, the way ``du`` counts) is measured after each put. ``before`` is the old setting (the
payloads bounded to a third of ``max_bytes``, nothing measured); ``after`` is the directory bound
(``context_mode.store.disk``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from context_mode.store import Store  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402

CASES = [(100_000, 3_000), (100_000, 20_000), (1_000_000, 10_000), (5_000_000, 100_000)]


def tree_bytes(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except FileNotFoundError:
                continue
    return total


def payload(rng: random.Random, size: int, n: int) -> str:
    lines = (
        f"2024-01-01 INFO req {rng.getrandbits(48):012x} user_{rng.getrandbits(24):06x} took {n} ms"
        for _ in range(size // 60)
    )
    return "\n".join(lines)


def run(limit: int, size: int, puts: int, options: dict[str, Any]) -> tuple[int, int, int, float]:
    rng = random.Random(size)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "store"
        peak = 0
        started = time.perf_counter()
        with Store(path, **options) as store:
            for n in range(puts):
                store.put(payload(rng, size, n), source="bench", kind=ContentKind.LOG, spill_file=n % 2 == 0)
                peak = max(peak, tree_bytes(path))
            live = store.stats().refs
        return peak, live, tree_bytes(path), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--puts", type=int, default=150)
    args = parser.parse_args()
    from hub.config import HubConfig
    from hub.stores import store_options

    print("| store.max_bytes | payload | setting | peak directory | × bound | refs kept | after close |")
    print("|---|---|---|---|---|---|---|")
    for limit, size in CASES:
        config = HubConfig.model_validate({"store": {"max_bytes": limit}})
        after = {key: store_options(config)[key] for key in ("max_bytes", "disk_max_bytes")}
        for name, options in (("before", {"max_bytes": max(1024, limit // 3)}), ("after", after)):
            peak, live, closed, _ = run(limit, size, args.puts, options)
            print(f"| {limit:,} | {size:,} | {name} | {peak:,} | {peak / limit:.2f}× | {live} | {closed:,} |")


if __name__ == "__main__":
    main()
