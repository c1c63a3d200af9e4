"""``store.max_bytes`` bounds the store directory: measured after every put, as ``du`` counts it."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from context_mode.types import ContentKind
from hub.config import HubConfig
from hub.stores import open_store


def _tree_bytes(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except FileNotFoundError:  # a merge removed it meanwhile
                continue
    return total


@pytest.mark.parametrize(("limit", "size"), [pytest.param(100_000, 3_000, id="100KB-of-3KB-payloads")])
def test_the_store_directory_stays_within_max_bytes_after_many_puts(
    tmp_path: Path, limit: int, size: int
) -> None:
    rng = random.Random(7)
    config = HubConfig.model_validate({"store": {"path": str(tmp_path / "store"), "max_bytes": limit}})
    opened = open_store(config)
    sizes: list[int] = []
    try:
        for n in range(80):
            text = "\n".join(
                f"INFO req {rng.getrandbits(48):012x} user_{rng.getrandbits(24):06x} took {n} ms"
                for _ in range(size // 50)
            )
            opened.store.put(text, source="t", kind=ContentKind.LOG, spill_file=n % 2 == 0)
            sizes.append(_tree_bytes(tmp_path / "store"))
        newest = opened.store.documents(1)[0]
        assert opened.store.text(newest.ref).endswith("took 79 ms")  # the newest payload is kept
    finally:
        opened.store.close()
    assert max(sizes) <= limit, f"peak {max(sizes)} bytes for max_bytes {limit}"
