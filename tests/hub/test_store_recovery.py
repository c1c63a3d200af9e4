"""A damaged or unusable store never stops ``ctxhub serve``: moved aside or kept in memory, said once."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from context_mode.store import Store
from context_mode.types import ContentKind
from tests.conftest import fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio


def _filled_store(path: Path) -> None:
    with Store(path) as store:
        for n in range(3):
            store.put(f"payload {n} line\n" * 500, source="t", kind=ContentKind.LOG, spill_file=True)


def _garble_meta(store: Path) -> None:
    (store / "index" / "meta.json").write_text("garbage\n")


def _truncate_segment(store: Path) -> None:
    segment = next((store / "index").glob("*.store"))
    with segment.open("r+b") as handle:
        handle.truncate(10)


def _spill_replaced_by_file(store: Path) -> None:
    for child in (store / "spill").iterdir():
        child.unlink()
    (store / "spill").rmdir()
    (store / "spill").write_text("not a directory")


DAMAGES = [
    pytest.param(_garble_meta, id="garbled-meta-json"),
    pytest.param(_truncate_segment, id="truncated-segment"),
    pytest.param(_spill_replaced_by_file, id="spill-replaced-by-a-file"),
]


async def _serve_and_check(config: Path, log: Path) -> tuple[str, str]:
    with log.open("w") as errlog, anyio.fail_after(60):
        async with hub_client(config, errlog=errlog) as session:
            echoed = await session.call_tool("fixture__echo", {"text": "still serving"})
            assert not echoed.is_error and text_of(echoed) == "still serving"
            big = await session.call_tool("fixture__big", {"kb": 40, "kind": "log"})
            assert not big.is_error
            summary = text_of(big)
            status = text_of(await session.call_tool("hub_status", {}))
    return summary, status + "\n" + summary


@pytest.mark.parametrize("damage", DAMAGES)
async def test_a_damaged_store_is_moved_aside_and_the_hub_serves_on(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    store = tmp_path / "store"
    _filled_store(store)
    damage(store)
    config = write_config(tmp_path, {"fixture": fixture_server("fixture")})
    log = tmp_path / "hub.log"
    summary, status = await _serve_and_check(config, log)
    asides = list(tmp_path.glob("store.damaged-*"))
    assert len(asides) == 1 and (asides[0] / "index").is_dir()
    assert f"moved it to {asides[0]} and started a fresh one" in status
    assert f"store at {store}" in status
    assert "ref r_" in summary  # the fresh store keeps the new payload
    written = log.read_text()
    assert written.count("started a fresh one") == 1
    assert "Traceback" not in written


async def test_a_ledger_of_the_wrong_shape_costs_only_the_lru_order(tmp_path: Path) -> None:
    store = tmp_path / "store"
    _filled_store(store)
    (store / "ledger.json").write_text(json.dumps({"version": 1, "order": [[1], {"a": 2}], "evicted": [7]}))
    config = write_config(tmp_path, {"fixture": fixture_server("fixture")})
    log = tmp_path / "hub.log"
    _, status = await _serve_and_check(config, log)
    refs = re.search(r"refs (\d+), chunks \d+, evictions \d+, pending (\d+)", status)
    assert refs is not None and int(refs.group(1)) + int(refs.group(2)) == 4  # the three kept + the new one
    assert not list(tmp_path.glob("store.damaged-*"))
    assert "Traceback" not in log.read_text()


async def test_with_no_writable_place_the_hub_serves_with_a_store_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("a regular file where the store's parent directory should be")
    config = write_config(
        tmp_path, {"fixture": fixture_server("fixture")}, store={"path": str(blocker / "store")}
    )
    log = tmp_path / "hub.log"
    summary, status = await _serve_and_check(config, log)
    assert "serving with a store in memory" in status
    assert "store at in memory (not persisted)" in status
    assert "ref r_" in summary  # refs still work while this hub runs
    written = log.read_text()
    assert written.count("serving with a store in memory") == 1
    assert "Traceback" not in written
    assert blocker.read_text().startswith("a regular file")


async def test_a_second_hub_says_which_store_it_uses(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    config = write_config(tmp_path, {"fixture": fixture_server("fixture")}, store={})
    env = {"XDG_CACHE_HOME": str(cache)}
    log = tmp_path / "second.log"
    with anyio.fail_after(60):
        async with hub_client(config, env=env) as first:
            first_status = text_of(await first.call_tool("hub_status", {}))
            with log.open("w") as errlog:
                async with hub_client(config, env=env, errlog=errlog) as second:
                    second_status = text_of(await second.call_tool("hub_status", {}))
    assert f"store at {cache / 'ctxhub' / 'store'}\n" in first_status
    assert f"store at {cache / 'ctxhub' / 'store-2'}\n" in second_status
    assert "in use by another hub, so this hub uses" in second_status
    assert log.read_text().count(f"this hub uses {cache / 'ctxhub' / 'store-2'}") == 1
