"""``bench/search_facts.py``: search reach per fact, each item in a store of its own or all in one."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.corpus.build import read_parts
from bench.search_facts import main, measure_stored, shared_store
from tests.corpora import BENCH_CORPUS


def _small_corpus(root: Path) -> list[dict[str, Any]]:
    """The smallest summarised item of two kinds in each set, as a corpus of its own."""
    chosen: dict[tuple[str, str], dict[str, Any]] = {}
    parts = read_parts(BENCH_CORPUS)
    sizes = {str(item["id"]): (BENCH_CORPUS / item["file"]).stat().st_size for item in parts}
    for item in sorted(parts, key=lambda item: sizes[str(item["id"])]):
        if item["kind"] in ("log", "json") and sizes[str(item["id"])] > 20_000:
            chosen.setdefault((str(item["kind"]), str(item["set"])), item)
    picked = list(chosen.values())
    (root / "parts").mkdir(parents=True)
    (root / "parts" / "sample.yaml").write_text(yaml.safe_dump({"items": picked}), encoding="utf-8")
    for item in picked:
        shutil.copy(BENCH_CORPUS / item["file"], root / item["file"])
    return picked


def test_a_shared_store_holds_every_item_of_both_sets_and_searches_each_by_its_ref(tmp_path: Path) -> None:
    picked = _small_corpus(tmp_path)
    assert len(picked) == 4
    with shared_store(tmp_path) as stored:
        assert sorted(stored) == sorted(str(item["id"]) for item in picked)
        assert len({id(one.store) for one in stored.values()}) == 1  # one store, as a hub's
        for item in picked:
            own = stored[str(item["id"])]
            # stage 1 is what the hub answers with: the routed summary, headed as the hub heads it
            assert own.stage1((tmp_path / item["file"]).read_text(encoding="utf-8")).startswith("[ctxhub ")
            for _, _, _, _, reply in measure_stored(item, own):
                # A reply names its own document's chunks only.
                refs = {ref for other in stored.values() if (ref := other.doc.ref) in reply}
                assert refs <= {own.doc.ref}


def test_the_report_counts_every_fact_of_the_set_with_stage_1_beside_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    picked = _small_corpus(tmp_path)
    facts = sum(len(item["facts"]) for item in picked if item["set"] == "holdout")
    monkeypatch.setattr(
        sys, "argv", ["search_facts.py", "--set", "holdout", "--corpus", str(tmp_path), "--shared"]
    )
    assert main() == 0
    out = capsys.readouterr().out
    assert "set=holdout, one store for all items" in out
    row = next(line for line in out.splitlines() if line.startswith("| **all** |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    alone, with_first = (int(cell.split("/")[0]) for cell in cells[2:4])
    assert cells[1] == str(facts) and alone <= with_first <= facts
