"""``ctxhub show/search/stats`` read every sibling of the default store (a second hub's ``store-2``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from context_mode.store import Store
from context_mode.types import ContentKind
from tests.conftest import REPO, write_config


def _ctxhub(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(cache)},
    )


def test_a_ref_held_by_the_second_hubs_store_is_found_by_show_search_and_stats(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    default = cache / "ctxhub" / "store"
    with Store(default) as first:
        first.put("first window: nothing special here\n", source="a__tool", kind=ContentKind.TEXT)
    with Store(default.with_name("store-2")) as second:
        doc = second.put("ERROR flaky quokka deployment failed\n", source="b__tool", kind=ContentKind.LOG)
    config = write_config(tmp_path, {}, store={})
    shown = _ctxhub("show", doc.ref, "--config", str(config), cache=cache)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "ERROR flaky quokka deployment failed\n\n"
    assert f"is in the store {default.with_name('store-2')}" in shown.stderr
    found = _ctxhub("search", "quokka", "--config", str(config), cache=cache)
    assert found.returncode == 0 and doc.ref in found.stdout
    stats = _ctxhub("stats", "--config", str(config), cache=cache)
    assert f"== {default}\n" in stats.stdout and f"== {default.with_name('store-2')}\n" in stats.stdout
    unknown = _ctxhub("show", "r_00000000", "--config", str(config), cache=cache)
    assert unknown.returncode == 2 and "looked in" in unknown.stderr and "store-2" in unknown.stderr
